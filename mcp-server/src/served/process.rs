//! The `main` of a server binary: its options read from the process's arguments, its serving
//! run on a Tokio runtime, its exit status.

use std::fmt::Display;
use std::future::Future;
use std::process::ExitCode;

use crate::options::{Options, OptionsError};

/// The `main` of the server binary `name`, which `about` describes: reads [`Options`] from
/// the process's arguments (with `--help`, or when they are wrong, `about` and the options'
/// usage go to standard error and the status is 0 or 2), runs `serve` with them on a
/// multi-threaded Tokio runtime, and ends when it ends: with success, or with its error on
/// standard error and status 1. The runtime is shut down without waiting for its blocking
/// threads, where a read of standard input may still wait (a stdio server whose client left).
///
/// ```no_run
/// use mcp_server::options::Options;
///
/// async fn serve(options: Options) -> Result<(), String> {
///     // Build the server's `Served`, then `mcp_server::served::run(served, options)`.
///     # let _ = options;
///     Ok(())
/// }
///
/// fn main() -> std::process::ExitCode {
///     mcp_server::served::main("weather", "usage: weather (--listen <address:port> | --stdio)", serve)
/// }
/// ```
pub fn main<F, Fut, E>(name: &str, about: &str, serve: F) -> ExitCode
where
    F: FnOnce(Options) -> Fut,
    Fut: Future<Output = Result<(), E>>,
    E: Display,
{
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(e) => {
            let help = e == OptionsError::Help;
            if !help {
                eprintln!("{name}: {e}");
            }
            eprintln!("{about}\n\n{}", crate::options::usage());
            return ExitCode::from(if help { 0 } else { 2 });
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build();
    let served = match runtime {
        Ok(runtime) => {
            let served = runtime.block_on(serve(options)).map_err(|e| e.to_string());
            runtime.shutdown_background();
            served
        }
        Err(e) => Err(format!("starting the runtime: {e}")),
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::FAILURE
        }
    }
}

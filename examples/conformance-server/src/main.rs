//! An MCP server for revision 2026-07-28 over Streamable HTTP, and for 2025-11-25 clients in
//! legacy sessions on the same endpoint (`legacy/`), written against the types that
//! `mcp-codegen` generates from the official schemas (see `build.rs`), for the official
//! conformance suite (`scripts/conformance.sh`).
//!
//! `mcp-conformance-server --listen 127.0.0.1:<port>` serves `http://127.0.0.1:<port>/mcp`:
//! stateless (every request carries its `_meta`), `server/discover`, JSON or SSE responses,
//! `subscriptions/listen`, caching hints, DNS-rebinding protection, the multi round-trip
//! (`InputRequiredResult`) flows with capability-gated input requests and sealed
//! `requestState`, and the tasks extension (`io.modelcontextprotocol/tasks`: tools that answer
//! with a task, `tasks/get`, `tasks/update`, `tasks/cancel`, status notifications). Every
//! queue and store a client can grow is bounded (`mcp_server::Config`, options in `limits.rs`), and a client that closes its
//! connection cancels its call (`mcp_server::work`).
//!
//! `mcp-conformance-server --stdio` serves the same handlers, both eras, on standard input and
//! output instead (`stdio.rs`): one JSON-RPC message per line, logs on standard error; a
//! modern request goes through the same checks of its message (`modern.rs`), a legacy
//! `initialize` opens the process's one session.

mod asking;
mod content;
mod features;
mod http;
mod legacy;
mod limits;
mod mrtr;
mod rpc;
mod service;
mod stdio;
mod tasks;
#[cfg(test)]
mod tests;

use mcp_server::{Config, work};

/// The 2025-11-25 and 2026-07-28 types, generated at build time side by side; the modern
/// revision's names are this module's own (`mcp::CallToolRequest` is 2026-07-28's), the
/// legacy ones are under `mcp::v2025_11_25`. In a binary nothing is exported, so the lints a
/// library's public API is exempt from (unused items, variant names that repeat the schema's
/// `$def` names) apply; the names are the schema's own, on purpose.
#[allow(dead_code, unused_imports, clippy::enum_variant_names)]
mod mcp {
    include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
    pub use v2026_07_28::*;
}

// The generated module, bound to `mcp_server` (its request id and error response).
mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use mcp_runtime::seal::{Mode, Sealer};
use tokio::sync::{broadcast, watch};

/// The modern revisions (a protocol version on every request) this server implements: what
/// `server/discover` lists in `supportedVersions` and an `UnsupportedProtocolVersionError`
/// in `supported`. The server also speaks `mcp_server::legacy::LEGACY_VERSION` (2025-11-25) to clients
/// that open an `initialize` session, which is not a version a modern request may declare.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// A change a `subscriptions/listen` stream (or a legacy session's `GET` stream) may be told
/// about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Tools,
    Prompts,
    /// The resource of this URI changed (one of `features::CHANGING_RESOURCES`).
    Resource(&'static str),
}

/// State shared by all requests. A modern client has no state here: the protocol is
/// stateless, and what a multi round-trip request needs travels in its sealed `requestState`.
/// Tasks are the exception the tasks extension makes: the server keeps them, by unguessable
/// id, for their TTL. Legacy (2025-11-25) clients have their sessions (`legacy/`).
pub struct App {
    pub sealer: Sealer,
    pub tasks: Arc<tasks::store::Store>,
    pub changes: broadcast::Sender<Change>,
    pub shutdown: watch::Receiver<bool>,
    /// The bounds and switches of the transport (`mcp_server::Config`): allowed hosts,
    /// `--modern-only`, what one request, connection and session may hold.
    pub config: Arc<Config>,
    /// The handlers running now (`mcp_server::work`): a response whose client went away leaves none.
    pub running: work::Running,
    /// The legacy (2025-11-25) sessions (`mcp_server::legacy::sessions`).
    pub sessions: legacy::Sessions,
    /// The version of the one fixture resource that changes (`features::WATCHED_RESOURCE`):
    /// a tool bumps it, so that subscribers see an update exactly when a test asks for one.
    pub watched_version: std::sync::atomic::AtomicU64,
}

/// This server's `Implementation`, sent in every result's `_meta`.
pub fn server_info() -> mcp::Implementation {
    mcp::Implementation::new("mcp-conformance-server", env!("CARGO_PKG_VERSION"))
        .with_description("Conformance server built on mcp-codegen's generated types")
        .with_title("mcp-codegen conformance server")
}

/// `_meta` of every result: who answered.
pub fn result_meta() -> mcp::ResultMetaObject {
    mcp::ResultMetaObject::new().with_server_info(server_info())
}

const USAGE: &str = "usage: mcp-conformance-server (--listen <address:port> | --stdio)
       [--allow-host <name>]... [--task-ttl-ms <ms>] [--seal-keys <file>]
       [--seal-mode hmac|aead] [--seal-ttl-s <s>] [--modern-only] [bounds...]

Serves MCP 2026-07-28 over Streamable HTTP at http://<address:port>/mcp, and legacy
2025-11-25 sessions (initialize, Mcp-Session-Id) on the same endpoint with the same handlers;
with --modern-only, initialize is refused (UnsupportedProtocolVersion, naming the versions
served). With --stdio instead of --listen, serves both eras on standard input and output, one
JSON-RPC message per line (a legacy initialize opens the process's one session), until the
input ends; logs go to standard error.
Requests whose Host or Origin is not localhost, 127.0.0.1, [::1] or an --allow-host name are
refused (DNS-rebinding protection). Tasks (the io.modelcontextprotocol/tasks extension) are
kept for --task-ttl-ms after their creation (default 300000).

requestState is sealed (--seal-mode: aead encrypts it, the default; hmac only signs it) and
expires --seal-ttl-s seconds after it was sealed (default 300). Instances that share the key
ring of --seal-keys <file>, or else of the environment variable MCP_SEAL_KEYS, open each
other's states: one key per line (or comma-separated), 64 hex digits each, the current key
first, then keys that still open. Without either, each process draws a key of its own.";

/// The environment variable that holds a key ring when `--seal-keys` is not given.
const SEAL_KEYS_VAR: &str = "MCP_SEAL_KEYS";

struct Args {
    transport: Transport,
    tasks: tasks::store::Settings,
    seal: SealArgs,
    /// `--allow-host`, `--modern-only` and the bounds.
    config: Config,
}

/// Where the server is reached.
enum Transport {
    /// Streamable HTTP on this address.
    Listen(SocketAddr),
    /// Standard input and output.
    Stdio,
}

/// How `requestState` is sealed: the key ring's file, the mode and the lifetime.
struct SealArgs {
    keys_file: Option<PathBuf>,
    mode: Mode,
    ttl: Duration,
}

fn parse_args() -> Result<Args, String> {
    let mut listen = None;
    let mut stdio = false;
    let mut task_settings = tasks::store::Settings::default();
    let mut seal = SealArgs {
        keys_file: None,
        mode: Mode::Aead,
        ttl: Sealer::DEFAULT_TTL,
    };
    let mut config = Config::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--listen" => {
                let v = args.next().ok_or("--listen needs an address")?;
                listen = Some(
                    v.parse::<SocketAddr>()
                        .map_err(|e| format!("--listen {v}: {e}"))?,
                );
            }
            "--stdio" => stdio = true,
            "--allow-host" => {
                let name = args.next().ok_or("--allow-host needs a name")?;
                config = config.allow_host(&name);
            }
            "--task-ttl-ms" => {
                let v = args.next().ok_or("--task-ttl-ms needs a number")?;
                let ms = v
                    .parse::<u64>()
                    .ok()
                    .filter(|ms| *ms > 0)
                    .ok_or_else(|| format!("--task-ttl-ms {v}: not a positive integer"))?;
                task_settings.ttl = Duration::from_millis(ms);
            }
            "--seal-keys" => {
                seal.keys_file = Some(args.next().ok_or("--seal-keys needs a file")?.into());
            }
            "--seal-mode" => {
                seal.mode = match args.next().as_deref() {
                    Some("aead") => Mode::Aead,
                    Some("hmac") => Mode::Hmac,
                    _ => return Err("--seal-mode needs aead or hmac".into()),
                };
            }
            "--seal-ttl-s" => {
                let v = args.next().ok_or("--seal-ttl-s needs a number")?;
                let s = v
                    .parse::<u64>()
                    .ok()
                    .filter(|s| *s > 0)
                    .ok_or_else(|| format!("--seal-ttl-s {v}: not a positive integer"))?;
                seal.ttl = Duration::from_secs(s);
            }
            "--modern-only" => config.modern_only = true,
            "-h" | "--help" => return Err(String::new()),
            other => match limits::apply(other, &mut args, &mut config, &mut task_settings) {
                Some(applied) => applied?,
                None => return Err(format!("unknown argument {other:?}")),
            },
        }
    }
    let transport = match (listen, stdio) {
        (Some(address), false) => Transport::Listen(address),
        (None, true) => Transport::Stdio,
        (Some(_), true) => return Err("--listen and --stdio exclude each other".into()),
        (None, false) => return Err("--listen or --stdio is required".into()),
    };
    Ok(Args {
        transport,
        tasks: task_settings,
        seal,
        config,
    })
}

/// The sealer `seal` describes: its key ring from the file, else from `MCP_SEAL_KEYS`, else one
/// fresh random key (`Sealer::from_ring`).
fn sealer(seal: &SealArgs) -> Result<Sealer, String> {
    let sealer = Sealer::from_ring(seal.keys_file.as_deref(), SEAL_KEYS_VAR).map_err(|e| {
        match &seal.keys_file {
            Some(_) => format!("--seal-keys {e}"),
            None => e.to_string(),
        }
    })?;
    Ok(sealer.with_mode(seal.mode).with_ttl(seal.ttl))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("mcp-conformance-server: {e}");
            }
            eprintln!("{USAGE}\n\n{}", limits::USAGE);
            return if e.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            };
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("mcp-conformance-server: starting the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(serve(args));
    // Nothing is left to wait for (a read of standard input may still block a thread).
    runtime.shutdown_background();
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-conformance-server: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The shared state, with a fresh sealing key and an empty task store, also answering to
/// `extra_hosts`, and the sender that ends listen streams.
#[cfg(test)]
pub fn new_app(
    extra_hosts: Vec<String>,
    task_settings: tasks::store::Settings,
    config: Config,
) -> Result<(Arc<App>, watch::Sender<bool>), String> {
    let key = mcp_runtime::seal::random_key().map_err(|e| e.to_string())?;
    let sealer = Sealer::new(key).with_mode(Mode::Aead);
    let config = extra_hosts.iter().fold(config, |c, h| c.allow_host(h));
    Ok(new_app_with(config, task_settings, sealer))
}

/// The shared state, sealing with `sealer`, with an empty task store, and the sender that
/// ends listen streams.
pub fn new_app_with(
    config: Config,
    task_settings: tasks::store::Settings,
    sealer: Sealer,
) -> (Arc<App>, watch::Sender<bool>) {
    let (changes, _) = broadcast::channel(limits::CHANGE_BUFFER);
    let (stop, shutdown) = watch::channel(false);
    let config = Arc::new(config);
    let app = Arc::new(App {
        sealer,
        tasks: tasks::store::start(task_settings),
        changes,
        shutdown,
        sessions: legacy::Sessions::new(Arc::clone(&config)),
        config,
        running: work::Running::default(),
        watched_version: std::sync::atomic::AtomicU64::new(1),
    });
    (app, stop)
}

async fn serve(args: Args) -> Result<(), String> {
    let sealer = sealer(&args.seal)?;
    eprintln!(
        "mcp-conformance-server: sealing requestState with key {} ({:?} mode, TTL {} s)",
        sealer.key_id(),
        sealer.mode(),
        sealer.ttl().as_secs()
    );
    let (app, stop) = new_app_with(args.config, args.tasks, sealer);
    let address = match args.transport {
        Transport::Listen(address) => address,
        Transport::Stdio => {
            eprintln!("mcp-conformance-server: serving on standard input and output");
            let served = stdio::serve(app).await;
            drop(stop);
            return served.map_err(|e| format!("stdio: {e}"));
        }
    };
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| format!("binding {address}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    eprintln!("mcp-conformance-server: listening on http://{local}/mcp");
    let config = Arc::clone(&app.config);
    let server = mcp_server::serve(listener, http::router(app), &config, async move {
        mcp_server::accept::shutdown_signal().await;
        eprintln!("mcp-conformance-server: shutting down");
        // Ends the open subscriptions/listen streams, so that graceful shutdown can finish.
        let _ = stop.send(true);
    });
    tokio::spawn(server)
        .await
        .map_err(|e| format!("server task: {e}"))
}

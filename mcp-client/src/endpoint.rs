//! Where a client's server is ([`Endpoint`]): a URL, or a command to spawn and speak to on
//! stdio, as a command line names it; [`Client::open`] makes the client of either.

use crate::binding::Binding;
use crate::client::Client;
use crate::config::Config;
use crate::error::ClientError;

/// The server a client speaks to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// Over Streamable HTTP, at this URL.
    Http(String),
    /// Over stdio: the command to spawn, then its arguments.
    Stdio(Vec<String>),
}

impl Endpoint {
    /// The endpoint a command line names: `[options...] <url>`, or
    /// `[options...] --stdio -- <command> [args...]`. The options other than `--stdio` are
    /// the caller's own, skipped. `None` for a line that names no server: no URL (the last
    /// argument is an option, `-h` or `--help`), `--` without `--stdio`, or `--` with no
    /// command after it.
    ///
    /// ```
    /// use mcp_client::Endpoint;
    ///
    /// let args = |line: &str| line.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    /// let http = Endpoint::from_args(&args("--verbose http://127.0.0.1:8080/mcp"));
    /// assert_eq!(http, Some(Endpoint::Http("http://127.0.0.1:8080/mcp".into())));
    /// let stdio = Endpoint::from_args(&args("--stdio -- my-server --stdio"));
    /// assert_eq!(stdio, Some(Endpoint::Stdio(args("my-server --stdio"))));
    /// assert_eq!(Endpoint::from_args(&args("--help")), None);
    /// ```
    pub fn from_args(args: &[String]) -> Option<Endpoint> {
        let (options, command) = match args.iter().position(|a| a == "--") {
            Some(end) => (&args[..end], Some(&args[end + 1..])),
            None => (args, None),
        };
        match command {
            Some(command) if options.iter().any(|a| a == "--stdio") && !command.is_empty() => {
                Some(Endpoint::Stdio(command.to_vec()))
            }
            Some(_) => None,
            None => {
                let url = options.last()?;
                let help = url == "-h" || url == "--help" || url.starts_with("--");
                (!help).then(|| Endpoint::Http(url.clone()))
            }
        }
    }
}

impl<B: Binding> Client<B> {
    /// A client of `endpoint`, not yet connected: [`Client::new`] for a URL,
    /// [`stdio::spawn`](crate::stdio::spawn) for a command (the authorizer of
    /// [`Config::with_authorizer`] serves HTTP only).
    pub fn open(endpoint: &Endpoint, config: Config<B>) -> Result<Self, ClientError> {
        match endpoint {
            Endpoint::Http(url) => Client::new(url, config),
            Endpoint::Stdio(command) => {
                let Some((program, args)) = command.split_first() else {
                    return Err(ClientError::Stdio("no command to spawn".into()));
                };
                let mut spawned = std::process::Command::new(program);
                spawned.args(args);
                crate::stdio::spawn(spawned, config)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Endpoint;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_command_line_names_a_url_or_a_command_to_spawn() {
        let url = "http://127.0.0.1:1/mcp".to_owned();
        let read = Endpoint::from_args(&args("--progress http://127.0.0.1:1/mcp"));
        assert_eq!(read, Some(Endpoint::Http(url)));
        let spawned = Endpoint::from_args(&args("--stdio -- server --stdio --port 0"));
        let command = args("server --stdio --port 0");
        assert_eq!(spawned, Some(Endpoint::Stdio(command)));
    }

    #[test]
    fn a_command_line_that_names_no_server_is_none() {
        assert_eq!(Endpoint::from_args(&args("--stdio --")), None);
        assert_eq!(
            Endpoint::from_args(&args("-- server")),
            None,
            "-- without --stdio"
        );
        assert_eq!(Endpoint::from_args(&args("--help")), None);
        assert_eq!(Endpoint::from_args(&args("-h")), None);
        assert_eq!(Endpoint::from_args(&args("--progress")), None);
        assert_eq!(Endpoint::from_args(&[]), None);
    }

    #[tokio::test]
    async fn a_command_that_does_not_start_is_a_stdio_error() {
        use crate::tests::fixture::config;
        use crate::{Client, ClientError};
        let none = Client::open(&Endpoint::Stdio(Vec::new()), config());
        assert!(matches!(none, Err(ClientError::Stdio(_))));
        let missing = Endpoint::Stdio(vec!["/nonexistent/mcp-server".to_owned()]);
        let Err(ClientError::Stdio(why)) = Client::open(&missing, config()) else {
            panic!("a missing program is not started")
        };
        assert!(why.starts_with("starting the server: "), "{why}");
    }
}

//! The stdio transport: the client launches the server as a process and speaks newline-delimited
//! JSON-RPC on its stdin and stdout, the server's stderr passed through (2026-07-28 `stdio`,
//! 2025-11-25 `basic/transports`). The same framing works over any pair of byte streams
//! ([`connect_streams`]).
//!
//! Both eras: the probe (`server/discover`) is answered with a result or a modern error by a
//! modern server, and with any other error, or nothing within the probe timeout, by a legacy
//! one, which then gets `initialize`. The era is found once per process. A legacy server's own
//! requests come on the same stdout and are answered on its stdin, while the client waits for
//! the response to one of its requests.
//!
//! ```no_run
//! # async fn run<B: mcp_client::Binding>(config: mcp_client::Config<B>) -> Result<(), mcp_client::ClientError> {
//! let mut server = std::process::Command::new("my-mcp-server");
//! server.arg("--stdio");
//! let mut client = mcp_client::stdio::spawn(server, config)?;
//! let connected = client.connect().await?;
//! client.close().await;
//! # Ok(()) }
//! ```

use std::process::Stdio;

use tokio::io::{AsyncRead, AsyncWrite};

use crate::binding::Binding;
use crate::client::Client;
use crate::config::Config;
use crate::error::ClientError;
use crate::pipe::Pipe;

/// Launches `command` as the server (its stdin and stdout piped to the client, its stderr
/// passed through; killed if the client is dropped before [`Client::close`]) and returns a
/// client of it, not yet connected.
pub fn spawn<B: Binding>(
    command: std::process::Command,
    config: Config<B>,
) -> Result<Client<B>, ClientError> {
    let mut command = tokio::process::Command::from(command);
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true);
    let mut child = command
        .spawn()
        .map_err(|e| ClientError::Stdio(format!("starting the server: {e}")))?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(ClientError::Stdio("the server's stdio is not piped".into()));
    };
    Client::over(Pipe::new(stdout, stdin, &config).with_child(child), config)
}

/// A client speaking the stdio framing over `reader` (the server's output) and `writer` (its
/// input), for a server that is not a child process (a socket, an in-process server).
pub fn connect_streams<B: Binding>(
    reader: impl AsyncRead + Unpin + Send + 'static,
    writer: impl AsyncWrite + Unpin + Send + 'static,
    config: Config<B>,
) -> Result<Client<B>, ClientError> {
    Client::over(Pipe::new(reader, writer, &config), config)
}

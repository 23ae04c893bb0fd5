//! What can go wrong for the client.

use std::fmt;

use serde::Deserialize;
use serde_json::Value;

/// A JSON-RPC error a server answered with.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RpcError {
    /// Its code (`mcp_runtime::error_code`).
    pub code: i64,
    /// Its message.
    pub message: String,
    /// What it adds, if anything.
    #[serde(default)]
    pub data: Option<Value>,
}

/// Why a call failed.
#[derive(Debug)]
pub enum ClientError {
    /// The HTTP exchange failed (no connection, a timeout, an unexpected status).
    Http(String),
    /// The server answered with a JSON-RPC error.
    Rpc(RpcError),
    /// The answer is not what the protocol says it should be.
    Protocol(String),
    /// A legacy server answered 404 to a message of its session: the session is gone.
    SessionEnded,
    /// The stdio exchange failed (the server could not start, its output ended, no response
    /// came in time).
    Stdio(String),
    /// Authorization failed: the server asked for a token the client could not get.
    #[cfg(feature = "auth")]
    Auth(crate::auth::AuthError),
}

impl ClientError {
    /// A request that got no answer, with the chain of its causes (reqwest's own message
    /// names only the kind of failure and the URL: the cause says why, a redirect to another
    /// origin refused, say).
    pub(crate) fn unanswered(e: &reqwest::Error) -> Self {
        let mut text = e.to_string();
        let mut cause = std::error::Error::source(e);
        while let Some(c) = cause {
            text.push_str(": ");
            text.push_str(&c.to_string());
            cause = c.source();
        }
        ClientError::Http(text)
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Http(e) => write!(f, "HTTP: {e}"),
            ClientError::Rpc(e) => write!(f, "JSON-RPC error {}: {}", e.code, e.message),
            ClientError::Protocol(e) => write!(f, "protocol: {e}"),
            ClientError::SessionEnded => write!(f, "HTTP 404: the server ended the session"),
            ClientError::Stdio(e) => write!(f, "stdio: {e}"),
            #[cfg(feature = "auth")]
            ClientError::Auth(e) => write!(f, "authorization: {e}"),
        }
    }
}

impl std::error::Error for ClientError {}

#[cfg(feature = "auth")]
impl From<crate::auth::AuthError> for ClientError {
    fn from(e: crate::auth::AuthError) -> Self {
        ClientError::Auth(e)
    }
}

/// The error of a JSON-RPC error response's text.
pub(crate) fn read_error(text: &str) -> Result<RpcError, ClientError> {
    #[derive(Deserialize)]
    struct ErrorResponse {
        error: RpcError,
    }
    serde_json::from_str::<ErrorResponse>(text)
        .map(|r| r.error)
        .map_err(|e| ClientError::Protocol(format!("reading an error response: {e}")))
}

//! `--stdio`: the same handlers on standard input and output (`mcp_server::stdio`), in both
//! eras, as the stdio pages of each revision describe.
//!
//! - Modern (2026-07-28): `mcp_server::stdio::Endpoint` serves this server's `Service`: the
//!   checks of a message that need no headers, the dispatch, the notifications as lines.
//! - Legacy (2025-11-25), `mcp_server::legacy::StdioSession`: `initialize` opens the one session
//!   of the process (no session id: the process is the session); from then on every message
//!   is the session's, served as `mcp_server::legacy` serves a session's: the methods 2026-07-28 removed answered there, the
//!   rest converted and answered by the modern handlers through the bridge, whose
//!   server-to-client requests are written as lines; the client's responses, read from the
//!   input, go to the requests waiting on them. The list changes and the updates of the
//!   resources the session subscribed to are written as lines as they happen (what a session's
//!   `GET` stream carries over HTTP).
//!
//! Cancellation (`notifications/cancelled`) and the end of input are the loop's
//! (`mcp_server::stdio`): either stops the handlers' tasks, dropping what they hold.

use std::sync::Arc;

use mcp_server::legacy::StdioSession;
use mcp_server::stdio::Endpoint;

use crate::{App, Mcp};

/// This server on one stdio connection: its handlers, and its legacy session
/// (`mcp_server::legacy::StdioSession`).
pub fn endpoint(app: Arc<App>) -> Endpoint<Mcp, App> {
    let session = StdioSession::new(Arc::clone(&app));
    Endpoint::new(app, Some(Box::new(session)))
}

/// Serves `app` on standard input and output until the input ends.
pub async fn serve(app: Arc<App>) -> std::io::Result<()> {
    let config = Arc::clone(&app.config);
    mcp_server::stdio::serve_stdio(endpoint(app), &config).await
}

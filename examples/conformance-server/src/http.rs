//! Streamable HTTP at `/mcp` (`mcp_server::http`: checks 1 to 16 of a POST, `GET` and `DELETE`),
//! this server's handlers behind it, and its legacy (2025-11-25) sessions on the same endpoint
//! through `mcp_server::legacy::HttpSessions` (this server's `LegacyService`, `crate::service`):
//! check 7 routes a message by its era, `initialize` or a message of a session is served
//! there, as are `GET` and `DELETE` with an `Mcp-Session-Id`. Any other path is 404.

use std::sync::Arc;

use axum::Router;
use mcp_server::http::Legacy;
use mcp_server::legacy::HttpSessions;

use crate::{App, Mcp};

/// The endpoint at `/mcp` (`mcp_server::http::PATH`), and 404 elsewhere.
pub fn router(app: Arc<App>) -> Router {
    let config = Arc::clone(&app.config);
    let sessions: Arc<dyn Legacy<Mcp>> = Arc::new(HttpSessions(Arc::clone(&app)));
    mcp_server::http::router(app, config, Some(sessions))
}

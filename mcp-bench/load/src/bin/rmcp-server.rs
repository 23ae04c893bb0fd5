//! The peer of the load benchmark: rmcp 3.11's `StreamableHttpService` with its default
//! configuration (legacy sessions on, loopback hosts only), serving one tool,
//! `test_simple_text`, that answers what the example server's tool of that name answers.
//!
//! `rmcp-server <address:port>`: serves `http://<address:port>/mcp` until killed (port 0: one
//! the system picks; the line "listening on http://…/mcp" on stderr says which).

use axum::serve::ListenerExt as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::sync::Arc;

/// The text the example server's `test_simple_text` answers.
const TEXT: &str = "This is a simple text response for testing.";

#[derive(Clone)]
struct Bench;

impl ServerHandler for Bench {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != "test_simple_text" {
            return Err(ErrorData::invalid_params("unknown tool", None));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(TEXT)]).into())
    }
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let address = std::env::args()
        .nth(1)
        .ok_or("usage: rmcp-server <address:port>")?;
    let service = StreamableHttpService::new(
        || Ok(Bench),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(&address)
        .await
        .map_err(|e| format!("binding {address}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    eprintln!("rmcp-server: listening on http://{local}/mcp");
    // TCP_NODELAY on each connection: without it the SSE answer's
    // last small write waits for the client's delayed ACK (about 40 ms a request).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router)
        .await
        .map_err(|e| e.to_string())
}

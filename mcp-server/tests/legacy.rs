//! A `LegacyService` served by the crate's HTTP endpoint: a 2025-11-25 client's session
//! (`initialize`, its requests answered by the modern handlers, its `GET` stream, `DELETE`)
//! on the same endpoint as the modern requests, through `mcp_server::legacy::HttpSessions`.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Response, StatusCode};
use http_body_util::BodyExt as _;
use mcp_runtime::Respond as _;
use mcp_server::legacy::{HttpSessions, Initialize, LegacyService, Sessions};
use mcp_server::{Config, Ctx, Refused, Service};
use serde_json::{Value, json};
use tower::ServiceExt as _;

mod support;
use support::legacy;

/// The modern revision with the module's error code facts, as a generated module's root.
mod mcp {
    pub use mcp_tests::eras::ERROR_CODE_FACTS;
    pub use mcp_tests::eras::v2026_07_28::*;
}

mcp_server::bind!(Mcp = mcp, legacy = mcp_tests::eras::v2025_11_25);

/// A server with one tool, and legacy sessions.
struct OneTool {
    sessions: Sessions<Mcp>,
    config: Arc<Config>,
}

impl Service<Mcp> for OneTool {
    async fn call(
        self: Arc<Self>,
        ctx: Ctx<Mcp>,
        request: mcp::ClientRequest,
    ) -> Result<String, Refused<Mcp>> {
        match request {
            mcp::ClientRequest::ListToolsRequest(r) => {
                let tool = mcp::Tool::new(mcp::ToolInputSchema::new(), "echo");
                let result =
                    mcp::ListToolsResult::new(mcp::CacheScope::Public, vec![tool], 1000_u64);
                mcp_server::ctx::to_json(&r.respond(result))
            }
            _ => Err(ctx.fail(mcp_runtime::RpcError::method_not_found("other"))),
        }
    }

    fn versions(&self) -> &[&'static str] {
        &["2026-07-28"]
    }
}

impl Initialize<Mcp> for OneTool {
    fn capabilities(&self) -> mcp::ServerCapabilities {
        mcp::ServerCapabilities::new().with_tools(mcp::ServerCapabilitiesTools::default())
    }

    fn server_info(&self) -> mcp::Implementation {
        mcp::Implementation::new("one-tool", "1.0")
    }
}

impl LegacyService<Mcp> for OneTool {
    fn sessions(&self) -> &Sessions<Mcp> {
        &self.sessions
    }

    fn config(&self) -> &Config {
        &self.config
    }
}

fn app() -> Router {
    let config = Arc::new(Config::default());
    let server = Arc::new(OneTool {
        sessions: Sessions::new(Arc::clone(&config)),
        config: Arc::clone(&config),
    });
    let sessions: Arc<dyn mcp_server::http::Legacy<Mcp>> =
        Arc::new(HttpSessions(Arc::clone(&server)));
    Router::new().route_service(
        "/mcp",
        mcp_server::http::endpoint(server, config, Some(sessions)),
    )
}

async fn json_of(response: Response<Body>) -> Value {
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

#[tokio::test]
async fn a_legacy_session_is_opened_served_streamed_and_ended() {
    let app = app();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}});
    let opened = app
        .clone()
        .oneshot(legacy("POST", None, Some(&initialize)))
        .await
        .unwrap();
    assert_eq!(opened.status(), StatusCode::OK);
    let id = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let result = json_of(opened).await;
    assert_eq!(result["result"]["serverInfo"]["name"], "one-tool");

    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let listed = app
        .clone()
        .oneshot(legacy("POST", Some(&id), Some(&list)))
        .await
        .unwrap();
    assert_eq!(listed.status(), StatusCode::OK);
    let tools = json_of(listed).await;
    assert_eq!(tools["result"]["tools"][0]["name"], "echo");
    assert!(
        tools["result"].get("ttlMs").is_none(),
        "a 2025-11-25 result"
    );

    let stream = app
        .clone()
        .oneshot(legacy("GET", Some(&id), None))
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    assert_eq!(stream.headers()["content-type"], "text/event-stream");

    let ended = app
        .clone()
        .oneshot(legacy("DELETE", Some(&id), None))
        .await
        .unwrap();
    assert_eq!(ended.status(), StatusCode::OK);
    let gone = app
        .oneshot(legacy("POST", Some(&id), Some(&list)))
        .await
        .unwrap();
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
}

/// The server, and its endpoint on one stdio connection with its legacy session.
fn on_stdio() -> (Arc<OneTool>, mcp_server::stdio::Endpoint<Mcp, OneTool>) {
    let config = Arc::new(Config::default());
    let server = Arc::new(OneTool {
        sessions: Sessions::new(Arc::clone(&config)),
        config,
    });
    let session = mcp_server::legacy::StdioSession::new(Arc::clone(&server));
    let endpoint = mcp_server::stdio::Endpoint::new(Arc::clone(&server), Some(Box::new(session)));
    (server, endpoint)
}

#[tokio::test]
async fn over_stdio_the_process_is_the_one_session() {
    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
    let (server, endpoint) = on_stdio();
    let (mut input, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, output) = tokio::io::duplex(1 << 16);
    let config = Config::default();
    let serving = tokio::spawn(async move {
        mcp_server::stdio::serve(server_input, server_output, endpoint, &config).await
    });
    let mut lines = BufReader::new(output).lines();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}});
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let again = json!({"jsonrpc": "2.0", "id": 3, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}});
    let mut answers = Vec::new();
    for message in [&initialize, &list, &again] {
        input
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
        let line = lines.next_line().await.unwrap().unwrap();
        answers.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    assert_eq!(answers[0]["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(answers[1]["result"]["tools"][0]["name"], "echo");
    assert!(
        answers[1]["result"].get("ttlMs").is_none(),
        "a 2025-11-25 result"
    );
    assert_eq!(answers[2]["error"]["code"], -32600, "already initialized");
    assert_eq!(server.sessions.count(), 1);
    drop(input);
    serving.await.unwrap().unwrap();
    assert_eq!(
        server.sessions.count(),
        0,
        "the session ends with the connection"
    );
}

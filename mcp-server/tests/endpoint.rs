//! A `Service` served by the crate's transports: its Streamable HTTP endpoint mounted under a
//! path of the user's choosing in an axum `Router`, and the same service on stdio.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt as _;
use mcp_runtime::Respond as _;
use mcp_server::{Config, Ctx, Refused, Service};
use mcp_tests::mcp;
use serde_json::{Value, json};
use tower::ServiceExt as _;

mcp_server::bind!(Mcp = mcp);

/// A server with one tool.
struct OneTool;

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

/// The app: the endpoint under `/api/v2/mcp`.
fn app() -> Router {
    let endpoint = mcp_server::http::endpoint(Arc::new(OneTool), Arc::new(Config::default()), None);
    Router::new().route_service("/api/v2/mcp", endpoint)
}

/// A POST of `message` to `path`, with the headers a modern client sends for `method`.
fn post(path: &str, method: &str, message: &Value) -> Request<Body> {
    Request::post(path)
        .header("host", "localhost")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method)
        .body(Body::from(message.to_string()))
        .unwrap()
}

fn tools_list(version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {}
    }}})
}

async fn answer(request: Request<Body>) -> (StatusCode, Value) {
    let response = app().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn tools_list_is_answered_under_a_path_of_the_users_choosing() {
    let message = tools_list("2026-07-28");
    let (status, body) = answer(post("/api/v2/mcp", "tools/list", &message)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["id"], 1);
    assert_eq!(body["result"]["tools"][0]["name"], "echo");
    // Nested as a service too.
    let endpoint = mcp_server::http::endpoint(Arc::new(OneTool), Arc::new(Config::default()), None);
    let nested = Router::new().nest_service("/tenant/7/mcp", endpoint);
    let response = nested
        .oneshot(post("/tenant/7/mcp", "tools/list", &message))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_checks_run_under_the_mounted_path() {
    let message = tools_list("2026-07-28");
    let (status, body) = answer(post("/api/v2/mcp", "tools/call", &message)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["error"]["code"],
        mcp_runtime::error_code::HEADER_MISMATCH
    );
    let older = tools_list("2025-11-25");
    let mut request = post("/api/v2/mcp", "tools/list", &older);
    let version = axum::http::HeaderValue::from_static("2025-11-25");
    request
        .headers_mut()
        .insert("mcp-protocol-version", version);
    let (status, body) = answer(request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["data"]["supported"], json!(["2026-07-28"]));
    let unknown = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    let (status, _) = answer(post("/api/v2/mcp", "ping", &unknown)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn without_legacy_sessions_get_is_not_allowed_and_other_paths_are_not_found() {
    let get = Request::get("/api/v2/mcp")
        .header("host", "localhost")
        .header("mcp-session-id", "s")
        .body(Body::empty())
        .unwrap();
    let response = app().oneshot(get).await.unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    let message = tools_list("2026-07-28");
    let response = app()
        .oneshot(post("/mcp", "tools/list", &message))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_same_service_answers_on_stdio() {
    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

    let (mut client, server_input) = tokio::io::duplex(4096);
    let (server_output, replies) = tokio::io::duplex(4096);
    let endpoint = mcp_server::stdio::Endpoint::<Mcp, _>::new(Arc::new(OneTool), None);
    let server = tokio::spawn(async move {
        let config = Config::default();
        mcp_server::stdio::serve(server_input, server_output, endpoint, &config).await
    });
    let mut lines = BufReader::new(replies).lines();
    let line = format!("{}\n", tools_list("2026-07-28"));
    client.write_all(line.as_bytes()).await.unwrap();
    let answer: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(answer["result"]["tools"][0]["name"], "echo");
    // No headers on stdio, but the checks of the message still run.
    client
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n")
        .await
        .unwrap();
    let refused: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(
        refused["error"]["code"],
        mcp_runtime::error_code::METHOD_NOT_FOUND
    );
    drop(client);
    server.await.unwrap().unwrap();
}

#[tokio::test]
async fn one_call_serves_the_service_at_mcp() {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(mcp_server::http::serve(
        listener,
        Arc::new(OneTool),
        Arc::new(Config::default()),
        None,
        async move {
            let _ = stopped.await;
        },
    ));
    let body = tools_list("2026-07-28").to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/list\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut socket = tokio::net::TcpStream::connect(address).await.unwrap();
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    socket.read_to_string(&mut response).await.unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains(r#""name":"echo""#), "{response}");
    stop.send(()).unwrap();
    served.await.unwrap();
}

#[tokio::test]
async fn the_router_serves_its_path_only() {
    let message = tools_list("2026-07-28");
    let router = || mcp_server::http::router(Arc::new(OneTool), Arc::new(Config::default()), None);
    let at = |path| post(path, "tools/list", &message);
    let response = router().oneshot(at(mcp_server::http::PATH)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let response = router().oneshot(at("/mcp/")).await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let response = router().oneshot(at("/other")).await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

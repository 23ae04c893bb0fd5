//! The requests the integration tests send to the HTTP endpoint at `/mcp`, as a client of
//! each era writes them.
// Each test file uses what it needs of these.
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt as _;
use serde_json::Value;
use tower::ServiceExt as _;

/// A request of a 2025-11-25 client (`method`: POST, GET or DELETE), in session `session` if
/// any, with `message` as its body if any.
pub fn legacy(method: &str, session: Option<&str>, message: Option<&Value>) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri("/mcp")
        .header("host", "localhost")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(id) = session {
        request = request
            .header("mcp-session-id", id)
            .header("mcp-protocol-version", "2025-11-25");
    }
    let body = message.map_or_else(Body::empty, |m| Body::from(m.to_string()));
    request.body(body).unwrap()
}

/// A 2026-07-28 POST of `message`, with the routing headers of its method (and `name`, the
/// member `Mcp-Name` mirrors).
pub fn modern(message: &Value, name: Option<&str>) -> Request<Body> {
    let method = message["method"].as_str().unwrap();
    let mut request = Request::post("/mcp")
        .header("host", "localhost")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method);
    if let Some(name) = name {
        request = request.header("mcp-name", name);
    }
    request.body(Body::from(message.to_string())).unwrap()
}

/// A `redis-server` of the test's own on a free loopback port, killed when dropped.
#[cfg(feature = "redis")]
pub struct RedisServer(std::process::Child, pub u16);

#[cfg(feature = "redis")]
impl RedisServer {
    pub fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let child = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server (apt-get install -y redis-server)");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "redis-server did not start"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        RedisServer(child, port)
    }
}

#[cfg(feature = "redis")]
impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Sends `request` to `app`: the status, the session id if one was given, and the message (the
/// last `data:` of an SSE body; `null` for a body that is no JSON).
pub async fn send(
    app: &axum::Router,
    request: Request<Body>,
) -> (StatusCode, Option<String>, Value) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let json = text
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .rfind(|d| !d.trim().is_empty())
        .unwrap_or(&text);
    let message = serde_json::from_str(json.trim()).unwrap_or(Value::Null);
    (status, session, message)
}

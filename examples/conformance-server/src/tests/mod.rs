//! The HTTP pipeline end to end on a loopback port: each check of `http.rs` with its error
//! code and status, and the MRTR state handling; `shapes` has the result and message-shape
//! rules, `tasks` the tasks extension.

mod auth;
mod bounds;
mod exhaust;
mod legacy;
mod resume;
mod shapes;
mod skills;
mod stdio;
mod subscriptions;
mod tasks;

use serde_json::{Value, json};

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_server::Config;
use mcp_server::tasks::Settings;

async fn start() -> String {
    start_with(Settings::default()).await
}

/// A server whose tasks live and poll as `settings` say.
async fn start_with(settings: Settings) -> String {
    start_app(settings, Config::default()).await.0
}

/// A server on a loopback port, served as `main` serves it (the accept loop of `mcp_server::serve`),
/// with `limits`: its URL and its state (whose `changes.stop()` ends its streams as a
/// shutdown does).
async fn start_app(settings: Settings, limits: Config) -> (String, Arc<crate::App>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    serve_app(listener, settings, limits)
}

/// [`start_app`] on a listener the test made (with socket options of its own).
fn serve_app(
    listener: tokio::net::TcpListener,
    settings: Settings,
    limits: Config,
) -> (String, Arc<crate::App>) {
    let forever = std::future::pending::<()>();
    let (url, app, _) = serve_app_until(listener, settings, limits, forever);
    (url, app)
}

/// [`serve_app`] until `shutdown` resolves; also the accept loop's task, done once the loop
/// has returned (after the graceful shutdown).
fn serve_app_until(
    listener: tokio::net::TcpListener,
    settings: Settings,
    limits: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> (String, Arc<crate::App>, tokio::task::JoinHandle<()>) {
    let app = new_app(settings, limits);
    let addr = listener.local_addr().unwrap();
    let router = mcp_server::served::router(Arc::clone(&app)).unwrap();
    let serving = tokio::spawn(mcp_server::serve(listener, router, app.bounds(), shutdown));
    (format!("http://{addr}/mcp"), app, serving)
}

/// The fixture served as `main` serves it, with a fresh sealing key, its tasks as `settings`
/// say, and `limits`.
pub(super) fn new_app(settings: Settings, limits: Config) -> Arc<crate::App> {
    let key = mcp_runtime::seal::random_key().unwrap();
    let sealer = mcp_runtime::seal::Sealer::new(key).with_mode(mcp_runtime::seal::Mode::Aead);
    new_app_with(limits, settings, sealer)
}

/// [`new_app`] sealing with `sealer`.
pub(super) fn new_app_with(
    limits: Config,
    settings: Settings,
    sealer: mcp_runtime::seal::Sealer,
) -> Arc<crate::App> {
    let fixture = crate::fixture(sealer, settings);
    let catalog = crate::skills::catalog().unwrap();
    Arc::new(crate::served(&fixture, catalog).unwrap().config(limits))
}

pub(super) fn meta(caps: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
    })
}

/// Polls `holds` every 10 ms until it is true or `within` has passed: whether it held. What a
/// test waits for on another task is waited for this way, never by a sleep of a guessed length.
pub(super) async fn eventually(within: Duration, holds: impl Fn() -> bool) -> bool {
    let until = Instant::now() + within;
    while !holds() {
        if Instant::now() >= until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    true
}

/// POSTs `body` with the standard headers (`name` for Mcp-Name), plus `extra` headers; the
/// response as it comes.
pub(super) async fn send(
    url: &str,
    body: &Value,
    name: Option<&str>,
    extra: &[(&str, &str)],
) -> reqwest::Response {
    let method = body["method"].as_str().unwrap_or_default().to_owned();
    let mut headers = reqwest::header::HeaderMap::new();
    let mut set = |k: &str, v: &str| {
        headers.insert(
            reqwest::header::HeaderName::from_bytes(k.as_bytes()).unwrap(),
            v.parse().unwrap(),
        );
    };
    set("content-type", "application/json");
    set("accept", "application/json, text/event-stream");
    set("mcp-protocol-version", "2026-07-28");
    set("mcp-method", &method);
    if let Some(n) = name {
        set("mcp-name", n);
    }
    // Overrides replace the standard values.
    for (k, v) in extra {
        set(k, v);
    }
    let req = reqwest::Client::new().post(url).headers(headers);
    req.body(body.to_string()).send().await.unwrap()
}

/// [`send`], and the JSON answer with its HTTP status.
pub(super) async fn post(
    url: &str,
    body: &Value,
    name: Option<&str>,
    extra: &[(&str, &str)],
) -> (u16, Value) {
    let resp = send(url, body, name, extra).await;
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Asserts that `answer` is the JSON-RPC error `code` with HTTP status `status`.
#[track_caller]
pub(super) fn assert_error(answer: &(u16, Value), status: u16, code: i64) {
    let (got, body) = answer;
    assert_eq!(
        (*got, body["error"]["code"].as_i64()),
        (status, Some(code)),
        "{body}"
    );
}

pub(super) fn call(id: i64, tool: &str, caps: Value, more: Value) -> Value {
    let mut params = json!({"name": tool, "arguments": {}, "_meta": meta(caps)});
    for (k, v) in more.as_object().unwrap() {
        params[k] = v.clone();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

#[tokio::test]
async fn discover_and_protocol_errors() {
    let url = start().await;
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta(json!({}))}});
    let (status, r) = post(&url, &discover, None, &[]).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["result"]["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(r["result"]["resultType"], "complete");
    assert!(r["result"]["ttlMs"].is_u64());

    // No _meta: -32602, 400, the id echoed.
    let bare = json!({"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {}});
    let (status, r) = post(&url, &bare, None, &[]).await;
    assert_eq!(
        (status, r["error"]["code"].as_i64(), r["id"].as_i64()),
        (400, Some(-32602), Some(2))
    );

    // Header and _meta disagree: -32020.
    let (status, r) = post(
        &url,
        &discover,
        None,
        &[("mcp-protocol-version", "2025-11-25")],
    )
    .await;
    assert_eq!(
        (status, r["error"]["code"].as_i64()),
        (400, Some(-32020)),
        "{r}"
    );

    // Unsupported version in both: -32022 with supported and requested.
    let mut old = discover.clone();
    old["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("v9");
    let (status, r) = post(&url, &old, None, &[("mcp-protocol-version", "v9")]).await;
    assert_eq!(
        (status, r["error"]["code"].as_i64()),
        (400, Some(-32022)),
        "{r}"
    );
    assert_eq!(
        r["error"]["data"],
        json!({"supported": ["2026-07-28"], "requested": "v9"})
    );

    // Removed and unknown methods: 404, -32601.
    for m in ["initialize", "ping", "logging/setLevel", "no/such"] {
        let req =
            json!({"jsonrpc": "2.0", "id": 3, "method": m, "params": {"_meta": meta(json!({}))}});
        let (status, r) = post(&url, &req, None, &[]).await;
        assert_eq!(
            (status, r["error"]["code"].as_i64()),
            (404, Some(-32601)),
            "{m}: {r}"
        );
    }

    // Mcp-Method must match the body.
    let (status, r) = post(&url, &discover, None, &[("mcp-method", "tools/list")]).await;
    assert_eq!(
        (status, r["error"]["code"].as_i64()),
        (400, Some(-32020)),
        "{r}"
    );

    // DNS rebinding: a foreign Host or Origin is refused.
    let (status, _) = post(
        &url,
        &discover,
        None,
        &[("origin", "http://evil.example.com")],
    )
    .await;
    assert_eq!(status, 403);
}

/// An unknown resource is invalid params in 2026-07-28 (-32602, HTTP 400), naming the URI; a
/// legacy session is answered another code (`legacy::an_unknown_resource_is_resource_not_found_in_a_session`).
#[tokio::test]
async fn an_unknown_resource_is_invalid_params() {
    let url = start().await;
    let read = |uri: &str| {
        let params = json!({"uri": uri, "_meta": meta(json!({}))});
        json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": params})
    };
    let missing = "test://missing";
    let answer = post(&url, &read(missing), Some(missing), &[]).await;
    assert_error(&answer, 400, -32602);
    assert_eq!(answer.1["error"]["data"]["uri"], missing, "{}", answer.1);
    let known = "test://static-text";
    let (status, found) = post(&url, &read(known), Some(known), &[]).await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["result"]["contents"][0]["uri"], known, "{found}");
}

#[tokio::test]
async fn capability_gating_and_sealed_state() {
    let url = start().await;
    // Sampling not declared: -32021 naming it, HTTP 400.
    let (status, r) = post(
        &url,
        &call(1, "test_missing_capability", json!({}), json!({})),
        Some("test_missing_capability"),
        &[],
    )
    .await;
    assert_eq!(
        (status, r["error"]["code"].as_i64()),
        (400, Some(-32021)),
        "{r}"
    );
    assert_eq!(
        r["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );

    // Round 1 seals a state; the genuine retry completes, a modified one is -32602.
    let tool = "test_input_required_result_request_state";
    let caps = json!({"elicitation": {}});
    let (_, r) = post(
        &url,
        &call(2, tool, caps.clone(), json!({})),
        Some(tool),
        &[],
    )
    .await;
    assert_eq!(r["result"]["resultType"], "input_required", "{r}");
    let state = r["result"]["requestState"].as_str().unwrap().to_owned();
    let answer = json!({"confirm": {"action": "accept", "content": {"ok": true}}});
    let retry = call(
        3,
        tool,
        caps.clone(),
        json!({"inputResponses": answer, "requestState": state}),
    );
    let (_, r) = post(&url, &retry, Some(tool), &[]).await;
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("state-ok"),
        "{r}"
    );
    let tampered = call(
        4,
        tool,
        caps.clone(),
        json!({"inputResponses": answer, "requestState": format!("{state}x")}),
    );
    let (_, r) = post(&url, &tampered, Some(tool), &[]).await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert_eq!(r["error"]["data"]["reason"], "tampered");

    // The same state for other arguments: bound to the request, rejected.
    let mut other = retry.clone();
    other["id"] = json!(5);
    other["params"]["arguments"] = json!({"x": 1});
    let (_, r) = post(&url, &other, Some(tool), &[]).await;
    assert_eq!(r["error"]["data"]["reason"], "other-request", "{r}");

    // Malformed inputResponses are refused when the request is read.
    let bad = call(
        6,
        "test_input_required_result_elicitation",
        caps,
        json!({"inputResponses": {"user_name": 12345}}),
    );
    let (status, r) = post(
        &url,
        &bad,
        Some("test_input_required_result_elicitation"),
        &[],
    )
    .await;
    assert_eq!(
        (status, r["error"]["code"].as_i64()),
        (400, Some(-32602)),
        "{r}"
    );
}

/// Arguments that fail a tool's own validation are a tool result with `isError: true`
/// (2026-07-28 tools.mdx, "Error Handling"), so the model sees what to correct; an unknown
/// tool stays a protocol error (-32602).
#[tokio::test]
async fn invalid_tool_arguments_are_a_tool_error_not_a_protocol_error() {
    let url = start().await;
    for (id, args) in [
        (1, json!({"a": "two", "b": 3})),
        (2, json!({"a": 1})),
        (3, json!({})),
    ] {
        let body = call(id, "add_numbers", json!({}), json!({"arguments": args}));
        let (status, r) = post(&url, &body, Some("add_numbers"), &[]).await;
        assert_eq!(status, 200, "{r}");
        assert!(r.get("error").is_none(), "{r}");
        let result = &r["result"];
        assert_eq!(result["resultType"], "complete", "{r}");
        assert_eq!(result["isError"], true, "{r}");
        assert_eq!(
            result["content"][0]["text"], "add_numbers needs numbers a and b",
            "{r}"
        );
    }
    let body = call(4, "no_such_tool", json!({}), json!({}));
    assert_error(
        &post(&url, &body, Some("no_such_tool"), &[]).await,
        400,
        -32602,
    );
}

//! The legacy surface under a client that tries to exhaust it (issue 32): one test per case of
//! the attack table, each checking the bound RELIABILITY.md names ("Legacy sessions that no
//! client can exhaust").

use mcp_server::legacy::LegacyService as _;
use std::time::Duration;

use serde_json::{Value, json};

use super::eventually;
use super::legacy::{initialize, initialized, limits, open, post, read_until, request, send};
use super::start_app;
use mcp_server::Config;
use mcp_server::tasks::Settings;

const WITHIN: Duration = Duration::from_secs(5);

/// A call of the tool that asks its client for input (an elicitation) and waits for it.
fn asking(id: i64) -> Value {
    request(
        id,
        "tools/call",
        json!({"name": "test_elicitation", "arguments": {"message": "Who?"}}),
    )
}

/// Starts `call` in `session` and reads its stream up to the server's request: the response
/// (still open) and that request.
async fn asked(url: &str, session: &str, call: &Value) -> (reqwest::Response, Value) {
    let mut response = send(url, Some(session), None, call).await;
    let request = read_until(&mut response, |m| m.get("method").is_some())
        .await
        .pop()
        .unwrap();
    assert_eq!(request["method"], "elicitation/create", "{request}");
    (response, request)
}

async fn delete(url: &str, session: &str) -> u16 {
    reqwest::Client::new()
        .delete(url)
        .header("mcp-session-id", session)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

fn message_of(answer: &Value) -> &str {
    answer["error"]["message"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn an_initialize_beyond_the_size_limit_is_refused_naming_it() {
    let (url, app) = start_app(Settings::default(), Config::default()).await;
    let mut big = initialize(1);
    let keys: serde_json::Map<String, Value> =
        (0..8_000).map(|n| (format!("k{n}"), json!(n))).collect();
    big["params"]["capabilities"]["experimental"] = Value::Object(keys);
    let (status, refused) = post(&url, None, &big).await;
    assert_eq!(
        (status, refused["error"]["code"].as_i64()),
        (200, Some(-32602))
    );
    assert!(message_of(&refused).contains("max_initialize"), "{refused}");
    assert_eq!(app.sessions().held(), 0, "no session was opened");
}

#[tokio::test]
async fn deleting_a_session_stops_its_waiting_requests_and_frees_it_at_once() {
    let (url, app) = start_app(Settings::default(), Config::default()).await;
    let session = open(&url).await;
    let (_response, _) = asked(&url, &session, &asking(2)).await;
    assert_eq!((app.running().now(), app.sessions().waiting()), (1, 1));
    assert_eq!(delete(&url, &session).await, 200);
    let freed = || app.running().now() == 0 && app.sessions().held() == 0;
    assert!(
        eventually(WITHIN, freed).await,
        "the session outlived its DELETE"
    );
    assert_eq!(app.sessions().waiting(), 0);
}

#[tokio::test]
async fn an_idle_session_is_ended_in_the_background_with_its_work() {
    let limits = limits(|l| l.session_idle = Duration::from_millis(300));
    let (url, app) = start_app(Settings::default(), limits).await;
    let session = open(&url).await;
    let (_response, _) = asked(&url, &session, &asking(2)).await;
    // No request names the session again: the sweeper ends it, not a later lookup.
    let freed = || app.running().now() == 0 && app.sessions().held() == 0;
    assert!(eventually(WITHIN, freed).await, "the idle session lived on");
}

#[tokio::test]
async fn one_principal_cannot_take_every_session() {
    let limits = limits(|l| {
        l.max_sessions = 8;
        l.principal_share = 25;
    });
    let (url, _) = start_app(Settings::default(), limits).await;
    open(&url).await;
    open(&url).await;
    let (status, refused) = post(&url, None, &initialize(3)).await;
    assert_eq!(status, 429, "{refused}");
    assert!(
        message_of(&refused).contains("its share (25% of 8)"),
        "{refused}"
    );
    let other = send(&url, None, Some("Bearer someone"), &initialize(4)).await;
    assert_eq!(
        other.status(),
        200,
        "another principal still gets a session"
    );
}

/// A `GET` stream of `session`.
async fn get_stream(url: &str, session: &str) -> reqwest::Response {
    reqwest::Client::new()
        .get(url)
        .header("mcp-session-id", session)
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn get_streams_are_bounded_apart_from_connections_and_end_when_idle() {
    let limits = limits(|l| {
        l.max_get_streams = 2;
        l.principal_share = 100;
        l.get_stream_idle = Duration::from_millis(400);
    });
    let (url, app) = start_app(Settings::default(), limits).await;
    let sessions = [open(&url).await, open(&url).await, open(&url).await];
    let first = get_stream(&url, &sessions[0]).await;
    let _second = get_stream(&url, &sessions[1]).await;
    assert_eq!(first.status(), 200);
    let third = get_stream(&url, &sessions[2]).await;
    assert_eq!(third.status(), 429, "a third GET stream is refused");
    // Requests still get connections.
    let (status, _) = post(&url, Some(&sessions[2]), &request(5, "ping", json!({}))).await;
    assert_eq!(status, 200);
    // An idle stream ends, and gives its place back.
    let ended = tokio::time::timeout(WITHIN, first.text()).await;
    assert!(ended.is_ok(), "the idle GET stream did not end");
    assert!(eventually(WITHIN, || app.sessions().get_streams() == 0).await);
    assert_eq!(get_stream(&url, &sessions[2]).await.status(), 200);
}

#[tokio::test]
async fn a_cancelled_request_gives_its_slot_back_and_is_cancelled_toward_the_client() {
    let (url, app) = start_app(Settings::default(), limits(|l| l.session_queue = 1)).await;
    let session = open(&url).await;
    // More cancellations than the session's queue holds: each slot comes back.
    for id in 2..6 {
        let (mut response, asked) = asked(&url, &session, &asking(id)).await;
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": id}});
        assert_eq!(
            send(&url, Some(&session), None, &cancel).await.status(),
            202
        );
        let rest = read_until(&mut response, |_| false).await;
        let told = rest
            .iter()
            .find(|m| m["method"] == "notifications/cancelled");
        let told = told.expect("the server's request is cancelled toward the client");
        assert_eq!(told["params"]["requestId"], asked["id"]);
        assert!(eventually(WITHIN, || app.sessions().waiting() == 0).await);
    }
    assert!(eventually(WITHIN, || app.running().now() == 0).await);
}

#[tokio::test]
async fn a_second_request_with_an_id_in_flight_is_refused() {
    let (url, app) = start_app(Settings::default(), Config::default()).await;
    let session = open(&url).await;
    let (_response, _) = asked(&url, &session, &asking(9)).await;
    let (status, refused) = post(&url, Some(&session), &asking(9)).await;
    assert_eq!(
        (status, refused["error"]["code"].as_i64()),
        (200, Some(-32600))
    );
    assert!(message_of(&refused).contains("in use"), "{refused}");
    // The first can still be cancelled.
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 9}});
    send(&url, Some(&session), None, &cancel).await;
    assert!(eventually(WITHIN, || app.running().now() == 0).await);
}

#[tokio::test]
async fn a_session_id_given_twice_is_refused_on_every_method() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let session = open(&url).await;
    let client = reqwest::Client::new();
    let twice = |builder: reqwest::RequestBuilder| {
        builder
            .header("mcp-session-id", &session)
            .header("mcp-session-id", &session)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
    };
    let ping = request(2, "ping", json!({})).to_string();
    let posted = twice(client.post(&url)).body(ping).send().await.unwrap();
    assert_eq!(posted.status(), 400);
    assert!(posted.text().await.unwrap().contains("mcp-session-id"));
    assert_eq!(twice(client.get(&url)).send().await.unwrap().status(), 400);
    assert_eq!(
        twice(client.delete(&url)).send().await.unwrap().status(),
        400
    );
    assert_eq!(delete(&url, &session).await, 200, "the session lived on");
}

#[tokio::test]
async fn no_server_request_goes_out_before_notifications_initialized() {
    let limits = limits(|l| l.input_timeout = Duration::from_millis(300));
    let (url, _) = start_app(Settings::default(), limits).await;
    let opened = send(&url, None, None, &initialize(1)).await;
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    // Answered as plain JSON: nothing, the elicitation included, was sent before the error.
    let sent = send(&url, Some(&session), None, &asking(2)).await;
    assert_eq!(sent.headers()["content-type"], "application/json");
    let answer: Value = serde_json::from_str(&sent.text().await.unwrap()).unwrap();
    assert!(
        message_of(&answer).contains("notifications/initialized"),
        "{answer}"
    );
    // Once the client sent it, the same call asks.
    initialized(&url, &session).await;
    asked(&url, &session, &asking(3)).await;
}

#[tokio::test]
async fn a_legacy_session_gets_no_behaviour_of_a_modern_extension() {
    let (url, app) = start_app(Settings::default(), Config::default()).await;
    let mut init = initialize(1);
    init["params"]["capabilities"]["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
    let opened = send(&url, None, None, &init).await;
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    initialized(&url, &session).await;
    let call = request(
        2,
        "tools/call",
        json!({"name": "test_tool_with_task", "arguments": {}}),
    );
    let (status, answer) = post(&url, Some(&session), &call).await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer["result"].get("task").is_none(), "{answer}");
    assert!(answer["result"].get("resultType").is_none(), "{answer}");
    assert_eq!(app.server.tasks.store().len(), 0, "no task was created");
}

#[tokio::test]
async fn a_modern_request_naming_a_live_session_is_served_as_modern() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let session = open(&url).await;
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list",
        "params": {"_meta": super::meta(json!({}))}});
    let answer = reqwest::Client::new()
        .post(&url)
        .header("mcp-session-id", &session)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/list")
        .body(list.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let body: Value = serde_json::from_str(&answer.text().await.unwrap()).unwrap();
    assert_eq!(body["result"]["resultType"], "complete", "{body}");
}

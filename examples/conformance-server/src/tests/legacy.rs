//! Legacy (2025-11-25) sessions on the modern endpoint: the handshake, the session id's
//! checks, `DELETE`, the legacy-only methods, the modern handlers' answers converted back, the
//! bridge asking the client on the request's stream, and each session bound.

use mcp_server::legacy::LegacyService as _;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::{eventually, start_app};
use mcp_server::Config;
use mcp_server::tasks::Settings;

pub(super) fn initialize(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"sampling": {}, "elicitation": {}},
        "clientInfo": {"name": "legacy-test", "version": "1"}
    }})
}

pub(super) fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// POSTs `body` as a legacy client does: with the session's id (if any), the negotiated
/// version, and `principal` as the bearer credential (if any).
pub(super) async fn send(
    url: &str,
    session: Option<&str>,
    principal: Option<&str>,
    body: &Value,
) -> reqwest::Response {
    let mut req = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(s) = session {
        req = req.header("mcp-session-id", s);
    }
    if let Some(p) = principal {
        req = req.header("authorization", p);
    }
    req.body(body.to_string()).send().await.unwrap()
}

/// [`send`], the status and the JSON-RPC message of the answer (the last one of a stream).
pub(super) async fn post(url: &str, session: Option<&str>, body: &Value) -> (u16, Value) {
    let resp = send(url, session, None, body).await;
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    let last = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap_or(&text)
        .to_owned();
    (status, serde_json::from_str(&last).unwrap_or(Value::Null))
}

/// A new session's id.
pub(super) async fn open(url: &str) -> String {
    let resp = send(url, None, None, &initialize(1)).await;
    assert_eq!(resp.status(), 200);
    let id = resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let body: Value = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    assert_eq!(body["result"]["protocolVersion"], "2025-11-25");
    initialized(url, &id).await;
    id
}

/// Ends the handshake of session `id` (`notifications/initialized`): the server sends no
/// request before it.
pub(super) async fn initialized(url: &str, id: &str) {
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(send(url, Some(id), None, &note).await.status(), 202);
}

/// The JSON-RPC messages of an SSE stream's next chunks, until `want` says stop.
pub(super) async fn read_until(
    resp: &mut reqwest::Response,
    want: impl Fn(&Value) -> bool,
) -> Vec<Value> {
    let mut seen = Vec::new();
    let mut buffer = String::new();
    loop {
        let chunk = tokio::time::timeout(Duration::from_secs(10), resp.chunk())
            .await
            .expect("the stream stalled")
            .unwrap();
        let Some(chunk) = chunk else { return seen };
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let event: String = buffer.drain(..end + 2).collect();
            for data in event.lines().filter_map(|l| l.strip_prefix("data: ")) {
                if let Ok(message) = serde_json::from_str::<Value>(data) {
                    let done = want(&message);
                    seen.push(message);
                    if done {
                        return seen;
                    }
                }
            }
        }
    }
}

/// Sends `call` in `session` and answers each request the server sends on its stream with
/// the result `answer` gives for it, until the call's own answer comes: that answer.
async fn answer_until_done(
    url: &str,
    session: &str,
    call: &Value,
    mut answer: impl FnMut(&Value) -> Value,
) -> Value {
    let mut resp = send(url, Some(session), None, call).await;
    loop {
        let done = |m: &Value| m.get("method").is_some() || m["id"] == call["id"];
        let message = read_until(&mut resp, done).await.pop().unwrap();
        if message.get("method").is_none() {
            return message;
        }
        let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": answer(&message)});
        assert_eq!(send(url, Some(session), None, &reply).await.status(), 202);
    }
}

pub(super) fn limits(change: impl FnOnce(&mut Config)) -> Config {
    let mut limits = Config::default();
    change(&mut limits);
    limits
}

#[tokio::test]
async fn initialize_opens_a_session_that_later_requests_need() {
    let (url, app) = start_app(Settings::default(), Config::default()).await;
    let resp = send(&url, None, None, &initialize(1)).await;
    let id = resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    // 128 random bits, as visible ASCII.
    assert_eq!(id.len(), 32);
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    let body: Value = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    let result = &body["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25");
    assert_eq!(result["capabilities"]["tools"]["listChanged"], true);
    assert!(
        result["capabilities"].get("extensions").is_none(),
        "{result}"
    );
    assert!(result.get("resultType").is_none(), "{result}");
    assert_ne!(open(&url).await, id, "each session has its own id");

    let ping = request(2, "ping", json!({}));
    assert_eq!(
        post(&url, Some(&id), &ping).await,
        (200, json!({"jsonrpc": "2.0", "id": 2, "result": {}}))
    );
    // No session: 400; an unknown one: 404; another principal's: 404.
    assert_eq!(post(&url, None, &ping).await.0, 400);
    assert_eq!(post(&url, Some("0123456789abcdef"), &ping).await.0, 404);
    let other = send(&url, Some(&id), Some("Bearer someone-else"), &ping).await;
    assert_eq!(other.status(), 404);

    // DELETE ends it.
    let client = reqwest::Client::new();
    let deleted = client
        .delete(&url)
        .header("mcp-session-id", &id)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 200);
    assert_eq!(post(&url, Some(&id), &ping).await.0, 404);
    let again = client
        .delete(&url)
        .header("mcp-session-id", &id)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 404);
    assert_eq!(app.sessions().count(), 1);
}

#[tokio::test]
async fn legacy_requests_are_answered_by_the_modern_handlers_without_modern_members() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let id = open(&url).await;
    let (status, list) = post(&url, Some(&id), &request(2, "tools/list", json!({}))).await;
    assert_eq!(status, 200);
    let result = &list["result"];
    assert!(result["tools"].as_array().unwrap().len() > 10, "{result}");
    for member in ["resultType", "ttlMs", "cacheScope"] {
        assert!(result.get(member).is_none(), "{member} in {result}");
    }
    let call = request(
        3,
        "tools/call",
        json!({"name": "test_simple_text", "arguments": {}}),
    );
    let (_, answer) = post(&url, Some(&id), &call).await;
    assert_eq!(answer["result"]["content"][0]["type"], "text");
    assert!(answer["result"].get("resultType").is_none(), "{answer}");

    // setLevel, then a tool's log messages come on its stream, as 2025-11-25 notifications.
    let level = request(4, "logging/setLevel", json!({"level": "debug"}));
    assert_eq!(post(&url, Some(&id), &level).await.1["result"], json!({}));
    let logging = request(
        5,
        "tools/call",
        json!({"name": "test_tool_with_logging", "arguments": {}}),
    );
    let mut resp = send(&url, Some(&id), None, &logging).await;
    let seen = read_until(&mut resp, |m| m.get("id").is_some()).await;
    let logs = seen
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .count();
    assert!(logs >= 3, "{seen:?}");

    // Methods 2026-07-28 removed are served in a session; unknown ones are not found.
    let subscribe = request(
        6,
        "resources/subscribe",
        json!({"uri": "test://static-text"}),
    );
    assert_eq!(
        post(&url, Some(&id), &subscribe).await.1["result"],
        json!({})
    );
    let (_, unknown) = post(&url, Some(&id), &request(7, "no/such", json!({}))).await;
    assert_eq!(unknown["error"]["code"], -32601);
}

/// 2025-11-25 answers a read of an unknown resource with its own code (-32002, "Error
/// Handling" of its resources page), where the modern handler says invalid params; other
/// invalid params stay -32602.
#[tokio::test]
async fn an_unknown_resource_is_resource_not_found_in_a_session() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let id = open(&url).await;
    let read = request(2, "resources/read", json!({"uri": "test://missing"}));
    let (status, answer) = post(&url, Some(&id), &read).await;
    assert_eq!(
        (status, answer["error"]["code"].as_i64()),
        (200, Some(-32002)),
        "{answer}"
    );
    assert_eq!(answer["error"]["data"]["uri"], "test://missing", "{answer}");
    assert_eq!(answer["id"], 2, "{answer}");
    let unknown_tool = json!({"name": "no_such_tool", "arguments": {}});
    let (_, answer) = post(&url, Some(&id), &request(3, "tools/call", unknown_tool)).await;
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
}

/// Every client request the era facts (`mcp::METHOD_FACTS`) say only 2025-11-25 has is
/// answered in a session (`initialize` opens one instead), and not found in 2026-07-28.
#[tokio::test]
async fn the_requests_only_the_legacy_era_has_are_answered_in_a_session_alone() {
    use mcp_runtime::era::{Era, INITIALIZE, MessageKind, MethodFact};
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let id = open(&url).await;
    let legacy_only = MethodFact::only_messages_of(crate::mcp::METHOD_FACTS, Era::Legacy)
        .filter(|f| f.kind == MessageKind::Request && !f.exists_in(Era::Modern))
        .filter(|f| f.method != INITIALIZE);
    let mut answered = 0;
    for (n, fact) in (2..).zip(legacy_only) {
        // Params that each of them reads (the others' members are kept as extra ones).
        let params = json!({"level": "info", "uri": "test://static-text"});
        let (status, answer) = post(&url, Some(&id), &request(n, fact.method, params)).await;
        assert_eq!(
            (status, &answer["result"]),
            (200, &json!({})),
            "{}",
            fact.method
        );
        let modern = json!({"jsonrpc": "2.0", "id": n, "method": fact.method,
                            "params": {"_meta": super::meta(json!({}))}});
        let answer = super::post(&url, &modern, None, &[]).await;
        super::assert_error(&answer, 404, -32601);
        answered += 1;
    }
    assert_eq!(answered, 4);
}

#[tokio::test]
async fn an_input_required_handler_asks_a_legacy_client_on_the_request_stream() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let id = open(&url).await;
    let call = request(
        9,
        "tools/call",
        json!({"name": "test_elicitation", "arguments": {"message": "Who are you?"}}),
    );
    let mut resp = send(&url, Some(&id), None, &call).await;
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let seen = read_until(&mut resp, |m| m.get("method").is_some()).await;
    let asked = seen.last().unwrap();
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    assert_eq!(asked["params"]["message"], "Who are you?");
    let answer = json!({"jsonrpc": "2.0", "id": asked["id"], "result": {
        "action": "accept", "content": {"username": "ada", "email": "ada@example.com"}}});
    let posted = send(&url, Some(&id), None, &answer).await;
    assert_eq!(posted.status(), 202);
    let rest = read_until(&mut resp, |m| m["id"] == 9).await;
    let result = &rest.last().unwrap()["result"];
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("User response: action=accept"), "{text}");
    assert!(text.contains("ada@example.com"), "{text}");
    // requestState and inputRequests stay on the server.
    for message in seen.iter().chain(&rest) {
        let text = message.to_string();
        assert!(
            !text.contains("requestState") && !text.contains("inputRequests"),
            "{text}"
        );
    }
    assert!(result.get("resultType").is_none(), "{result}");
}

#[tokio::test]
async fn a_client_that_never_answers_gets_an_error_after_the_input_timeout() {
    let limits = limits(|l| l.input_timeout = Duration::from_millis(200));
    let (url, app) = start_app(Settings::default(), limits).await;
    let id = open(&url).await;
    let call = request(
        3,
        "tools/call",
        json!({"name": "test_sampling", "arguments": {"prompt": "hi"}}),
    );
    let started = std::time::Instant::now();
    let mut resp = send(&url, Some(&id), None, &call).await;
    let seen = read_until(&mut resp, |m| m["id"] == 3).await;
    assert_eq!(seen[0]["method"], "sampling/createMessage");
    let last = seen.last().unwrap();
    assert_eq!(last["error"]["code"], -32603, "{last}");
    let message = last["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("no answer to sampling/createMessage within 200 ms"),
        "{message}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    let session = app.sessions().find(&id, "anonymous").unwrap();
    assert_eq!(session.waiting(), 0, "the unanswered request is forgotten");
    // The handler is gone too.
    let stopped = eventually(Duration::from_secs(5), || app.running().now() == 0).await;
    assert!(stopped, "the handler outlived its request");
}

#[tokio::test]
async fn sessions_are_capped_and_idle_ones_expire() {
    // Long enough for three requests on a loaded machine.
    const IDLE: Duration = Duration::from_secs(2);
    let limits = limits(|l| {
        l.max_sessions = 2;
        l.principal_share = 100;
        l.session_idle = IDLE;
    });
    let (url, app) = start_app(Settings::default(), limits).await;
    let first = open(&url).await;
    // The first session was last used before its answer came: idle past IDLE from now on.
    let idle_from = tokio::time::Instant::now() + IDLE;
    open(&url).await;
    let (status, refused) = post(&url, None, &initialize(3)).await;
    assert_eq!(status, 429, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("all 2 legacy sessions are in use")
    );
    // The server's clock and this one are the same: from this instant on it has idled past
    // its timeout, by definition rather than by a guess of how long the server takes.
    tokio::time::sleep_until(idle_from).await;
    // Idle past the timeout: unknown, and no longer counted against the cap.
    assert_eq!(
        post(&url, Some(&first), &request(4, "ping", json!({})))
            .await
            .0,
        404
    );
    open(&url).await;
    assert!(app.sessions().count() <= 2);
}

#[tokio::test]
async fn server_requests_waiting_in_one_session_are_bounded() {
    let limits = limits(|l| l.session_queue = 1);
    let (url, _) = start_app(Settings::default(), limits).await;
    let id = open(&url).await;
    let call = |n| {
        request(
            n,
            "tools/call",
            json!({"name": "test_sampling", "arguments": {"prompt": "hi"}}),
        )
    };
    // The first call's request waits for an answer that does not come...
    let mut first = send(&url, Some(&id), None, &call(1)).await;
    read_until(&mut first, |m| m.get("method").is_some()).await;
    // ...so the second finds the queue full and is answered with an error at once.
    let (_, second) = post(&url, Some(&id), &call(2)).await;
    let message = second["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("1 server requests of this session already wait"),
        "{second}"
    );
}

#[tokio::test]
async fn modern_only_refuses_initialize_naming_the_versions_it_serves() {
    let sealer = mcp_runtime::seal::Sealer::new([7; 32]);
    let config = Config::default().modern_only(true);
    let app = super::new_app_with(config, Settings::default(), sealer);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let router = mcp_server::served::router(Arc::clone(&app)).unwrap();
    tokio::spawn(mcp_server::serve(
        listener,
        router,
        app.bounds(),
        std::future::pending(),
    ));
    let (status, answer) = post(&url, None, &initialize(1)).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"]["code"], -32022);
    assert_eq!(
        answer["error"]["data"],
        json!({"supported": ["2026-07-28"], "requested": "2025-11-25"})
    );
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("2026-07-28")
    );
    assert_eq!(app.sessions().count(), 0);
}

#[tokio::test]
async fn every_kind_of_input_and_a_sealed_state_go_through_the_bridge() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let mut init = initialize(1);
    init["params"]["capabilities"]["roots"] = json!({});
    let resp = send(&url, None, None, &init).await;
    let id = resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    initialized(&url, &id).await;
    let call = request(
        5,
        "tools/call",
        json!({"name": "test_input_required_result_multiple_inputs", "arguments": {}}),
    );
    let mut asked = Vec::new();
    let last = answer_until_done(&url, &id, &call, |message| {
        let method = message["method"].as_str().unwrap();
        asked.push(method.to_owned());
        match method {
            "elicitation/create" => json!({"action": "accept", "content": {"name": "Ada"}}),
            "sampling/createMessage" => json!({"role": "assistant", "model": "m",
                "content": {"type": "text", "text": "Hello"}}),
            "roots/list" => json!({"roots": [{"uri": "file:///a"}]}),
            other => panic!("asked {other}"),
        }
    })
    .await;
    asked.sort();
    assert_eq!(
        asked,
        ["elicitation/create", "roots/list", "sampling/createMessage"]
    );
    assert_eq!(
        last["result"]["content"][0]["text"], "name=Ada; greeting=Hello; roots=file:///a",
        "{last}"
    );
}

#[tokio::test]
async fn a_multi_round_tool_gets_each_round_s_own_state_through_the_bridge() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let id = open(&url).await;
    let call = request(
        6,
        "tools/call",
        json!({"name": "test_input_required_result_multi_round", "arguments": {}}),
    );
    let mut asked = Vec::new();
    let last = answer_until_done(&url, &id, &call, |message| {
        assert_eq!(message["method"], "elicitation/create", "{message}");
        let question = message["params"]["message"].as_str().unwrap().to_owned();
        let content = match question.as_str() {
            "Step 1: What is your name?" => json!({"name": "Ada"}),
            "Step 2: What is your favorite color?" => json!({"color": "blue"}),
            other => panic!("asked {other:?}"),
        };
        asked.push(question);
        assert!(asked.len() <= 2, "asked again: {asked:?}");
        json!({"action": "accept", "content": content})
    })
    .await;
    // Round 2 read the state round 1 sealed (the name), round 3 the state of round 2: with
    // round 1's state handed over again, step 1 would be asked again.
    assert_eq!(
        asked,
        [
            "Step 1: What is your name?",
            "Step 2: What is your favorite color?"
        ]
    );
    assert_eq!(
        last["result"]["content"][0]["text"], "Ada's favorite color is blue.",
        "{last}"
    );
}

#[tokio::test]
async fn list_changes_reach_a_session_on_its_get_stream() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let id = open(&url).await;
    let get = || {
        reqwest::Client::new()
            .get(&url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &id)
            .send()
    };
    let mut stream = get().await.unwrap();
    assert_eq!(stream.status(), 200);
    assert_eq!(stream.headers()["content-type"], "text/event-stream");
    let trigger = request(
        2,
        "tools/call",
        json!({"name": "test_trigger_tool_change", "arguments": {}}),
    );
    assert_eq!(post(&url, Some(&id), &trigger).await.0, 200);
    let seen = read_until(&mut stream, |m| m.get("method").is_some()).await;
    assert_eq!(
        seen.last().unwrap(),
        &json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    );
    // Without a session there is no GET stream; with an unknown one, 404.
    let none = reqwest::Client::new().get(&url).send().await.unwrap();
    assert_eq!(none.status(), 405);
    let unknown = reqwest::Client::new()
        .get(&url)
        .header("mcp-session-id", "feed")
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);
}

#[tokio::test]
async fn a_cancelled_legacy_request_stops_its_handler_and_gets_no_answer() {
    let (url, app) = start_app(Settings::default(), Config::default()).await;
    let id = open(&url).await;
    let call = request(
        7,
        "tools/call",
        json!({"name": "slow_compute", "arguments": {"seconds": 60, "label": "x"}}),
    );
    let pending = tokio::spawn({
        let (url, id) = (url.clone(), id.clone());
        async move { send(&url, Some(&id), None, &call).await }
    });
    let session = app.sessions().find(&id, "anonymous").unwrap();
    eventually(Duration::from_secs(5), || session.running() > 0).await;
    assert_eq!(session.running(), 1, "the call is being handled");
    assert_eq!(app.running().now(), 1);
    // Another request id cancels nothing.
    let other = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 8, "reason": "not this one"}});
    assert_eq!(send(&url, Some(&id), None, &other).await.status(), 202);
    assert_eq!(session.running(), 1);
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 7, "reason": "the user gave up"}});
    assert_eq!(send(&url, Some(&id), None, &cancel).await.status(), 202);
    let resp = tokio::time::timeout(Duration::from_secs(5), pending)
        .await
        .expect("the cancelled call's response ended")
        .unwrap();
    assert_eq!(resp.status(), 200);
    let text = tokio::time::timeout(Duration::from_secs(5), resp.text())
        .await
        .expect("the cancelled call's stream ended")
        .unwrap();
    assert!(
        !text.contains("\"id\""),
        "no answer to a cancelled request: {text}"
    );
    let stopped = eventually(Duration::from_secs(5), || app.running().now() == 0).await;
    assert!(stopped, "the handler outlived its cancellation");
    assert_eq!(session.running(), 0);
}

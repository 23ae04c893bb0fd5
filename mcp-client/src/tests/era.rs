//! The client's era decision against scripted servers (no suite needed): the answers the
//! conformance suite's legacy mocks give to the modern probe each lead to `initialize` and a
//! 2025-11-25 session; a modern answer does not. And, in that session, a server's request on a
//! request's stream answered by the input handlers of the modern era.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_runtime::era::Era;
use serde_json::{Value, json};

use super::fixture::{CLIENT_NAME, Mcp, client};
use super::scripted::{Answer, SESSION_ID, Script, Seen, result, serve};
use crate::Client;

/// A 2025-11-25 server whose answer to `server/discover` is `probe`: `initialize` opens a
/// session (tools offered), `tools/list` lists one tool, notifications are accepted.
fn legacy_server(seen: &Seen, probe: Answer) -> Answer {
    match seen.method() {
        "server/discover" => probe,
        "initialize" => Answer::InSession(
            200,
            result(
                seen,
                json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                       "serverInfo": {"name": "legacy", "version": "1.0.0"}}),
            ),
        ),
        "tools/list" => Answer::Json(
            200,
            result(
                seen,
                json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}),
            ),
        ),
        _ => Answer::Json(202, Value::Null),
    }
}

fn error(code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}})
}

/// The suite's `initialize` and `sse-retry` mocks: any request but `initialize` gets `{}`.
fn empty_result(seen: &Seen, _: &[Seen]) -> Answer {
    legacy_server(seen, Answer::Json(200, result(seen, json!({}))))
}

/// The official TypeScript SDK's legacy transport, asked for a version it does not serve.
fn unsupported_version(seen: &Seen, _: &[Seen]) -> Answer {
    let message = "Bad Request: Unsupported protocol version (supported versions: 2025-11-25)";
    legacy_server(seen, Answer::Json(400, error(-32000, message)))
}

/// The same transport with sessions, sent a request outside one.
fn missing_session(seen: &Seen, _: &[Seen]) -> Answer {
    let message = "Invalid or missing session ID";
    legacy_server(seen, Answer::Json(400, error(-32000, message)))
}

/// Connects to `script`'s server and lists its tools; the era found, and the requests seen.
async fn connect_and_list(script: Script) -> (Era, Vec<Seen>) {
    let (url, log) = serve(script).await;
    let mut session = client(&url);
    let connected = session.connect().await.unwrap();
    assert!(connected.capabilities.tools.is_some());
    assert_eq!(session.list_all_tools().await.unwrap().len(), 1);
    session.close().await;
    let seen = log.lock().unwrap().clone();
    (connected.era, seen)
}

/// A session with `script`'s server, connected and found legacy; the server's log.
async fn legacy_session(script: Script) -> (Client<Mcp>, Arc<Mutex<Vec<Seen>>>) {
    let (url, log) = serve(script).await;
    let mut session = client(&url);
    assert_eq!(session.connect().await.unwrap().era, Era::Legacy);
    (session, log)
}

/// The requests of a legacy session after the probe: `initialize` (the client's
/// capabilities, version and name), `notifications/initialized`, then requests that carry the
/// session id and version and no modern `_meta`. The GET stream is open before the first
/// request of the session (the server answers it at once).
fn assert_legacy_session(seen: &[Seen]) {
    assert_eq!(
        methods(seen),
        [
            "server/discover",
            "initialize",
            "notifications/initialized",
            "GET",
            "tools/list",
            "DELETE"
        ]
    );
    let init = &seen[1].body["params"];
    assert_eq!(init["protocolVersion"], "2025-11-25");
    assert_eq!(init["clientInfo"]["name"], CLIENT_NAME);
    assert!(init["capabilities"]["elicitation"].is_object(), "{init}");
    for later in &seen[2..] {
        assert_eq!(later.header("mcp-session-id"), Some(SESSION_ID));
        assert_eq!(later.header("mcp-protocol-version"), Some("2025-11-25"));
        assert!(later.body["params"]["_meta"].is_null(), "{}", later.body);
    }
}

#[tokio::test]
async fn an_empty_result_to_the_probe_means_legacy() {
    let (era, seen) = connect_and_list(empty_result).await;
    assert_eq!(era, Era::Legacy);
    assert_legacy_session(&seen);
}

#[tokio::test]
async fn an_unsupported_version_error_of_code_32000_means_legacy() {
    let (era, seen) = connect_and_list(unsupported_version).await;
    assert_eq!(era, Era::Legacy);
    assert_legacy_session(&seen);
}

#[tokio::test]
async fn a_missing_session_error_means_legacy() {
    let (era, seen) = connect_and_list(missing_session).await;
    assert_eq!(era, Era::Legacy);
    assert_legacy_session(&seen);
}

/// A modern server: `server/discover` answered with its result.
fn modern(seen: &Seen, _: &[Seen]) -> Answer {
    let answer = match seen.method() {
        "server/discover" => json!({"resultType": "complete", "ttlMs": 0,
            "cacheScope": "private", "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {}}}),
        _ => json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "tools": [{"name": "t", "inputSchema": {"type": "object"}}]}),
    };
    Answer::Json(200, result(seen, answer))
}

#[tokio::test]
async fn a_discover_result_means_modern_and_no_initialize() {
    let (era, seen) = connect_and_list(modern).await;
    assert_eq!(era, Era::Modern);
    let methods: Vec<&str> = seen.iter().map(Seen::method).collect();
    assert_eq!(methods, ["server/discover", "tools/list"]);
    assert_eq!(seen[1].header("mcp-session-id"), None);
    assert!(seen[1].body["params"]["_meta"].is_object());
}

/// A legacy server whose `tools/call` stream first asks the client to fill a form (its
/// defaults), then answers the call.
fn asks_on_the_stream(seen: &Seen, _: &[Seen]) -> Answer {
    if seen.method() != "tools/call" {
        return missing_session(seen, &[]);
    }
    let ask = json!({"jsonrpc": "2.0", "id": "ask-1", "method": "elicitation/create",
        "params": {"message": "Name?", "requestedSchema": {"type": "object", "properties": {
            "name": {"type": "string", "default": "Ada"},
            "age": {"type": "integer", "default": 36}}}}});
    let done = result(seen, json!({"content": [{"type": "text", "text": "done"}]}));
    Answer::Sse(vec![
        (Duration::ZERO, format!("id: 1\ndata: {ask}\n\n")),
        (
            Duration::from_millis(300),
            format!("id: 2\ndata: {done}\n\n"),
        ),
    ])
}

#[tokio::test]
async fn a_legacy_servers_request_is_answered_by_the_input_handlers() {
    let (mut session, log) = legacy_session(asks_on_the_stream).await;
    let tool = serde_json::from_value(json!({"name": "t", "inputSchema": {"type": "object"}}));
    let done = session
        .call_listed_tool(&tool.unwrap(), serde_json::Map::new())
        .await
        .unwrap();
    assert_eq!(done.content.len(), 1);
    let seen = log.lock().unwrap().clone();
    let reply = seen
        .iter()
        .find(|s| s.body["id"] == "ask-1")
        .expect("the client answered the server's request");
    assert_eq!(reply.header("mcp-session-id"), Some(SESSION_ID));
    assert_eq!(
        reply.body["result"],
        json!({"action": "accept", "content": {"age": 36, "name": "Ada"}})
    );
}

/// The methods of `seen`, in order.
fn methods(seen: &[Seen]) -> Vec<&str> {
    seen.iter().map(Seen::method).collect()
}

/// A modern server at first, then (from the second probe on) a legacy one that answers
/// requests outside a session with 400 and -32000.
fn turns_legacy(seen: &Seen, earlier: &[Seen]) -> Answer {
    let probed = earlier.iter().any(|s| s.method() == "server/discover");
    match seen.method() {
        "server/discover" if !probed => modern(seen, earlier),
        "tools/list" if seen.header("mcp-session-id").is_none() => {
            Answer::Json(400, error(-32000, "Invalid or missing session ID"))
        }
        _ => missing_session(seen, earlier),
    }
}

#[tokio::test]
async fn an_answer_that_contradicts_the_modern_era_makes_the_client_probe_again() {
    let (url, log) = serve(turns_legacy).await;
    let mut session = client(&url);
    assert_eq!(session.connect().await.unwrap().era, Era::Modern);
    assert_eq!(session.list_all_tools().await.unwrap().len(), 1);
    let seen = log.lock().unwrap().clone();
    assert_eq!(
        methods(&seen),
        [
            "server/discover",
            "tools/list",
            "server/discover",
            "initialize",
            "notifications/initialized",
            "GET",
            "tools/list"
        ]
    );
    assert_eq!(seen[6].header("mcp-session-id"), Some(SESSION_ID));
}

/// A legacy server that forgets the session once: the first `tools/list` in it gets 404.
fn forgets_the_session(seen: &Seen, earlier: &[Seen]) -> Answer {
    let listed = earlier.iter().any(|s| s.method() == "tools/list");
    if seen.method() == "tools/list" && !listed {
        return Answer::Json(404, error(-32001, "Session not found"));
    }
    missing_session(seen, earlier)
}

#[tokio::test]
async fn a_session_the_server_ended_is_opened_again() {
    let (mut session, log) = legacy_session(forgets_the_session).await;
    assert_eq!(session.list_all_tools().await.unwrap().len(), 1);
    let seen = log.lock().unwrap().clone();
    assert_eq!(
        methods(&seen),
        [
            "server/discover",
            "initialize",
            "notifications/initialized",
            "GET",
            "tools/list",
            "initialize",
            "notifications/initialized",
            "GET",
            "tools/list"
        ]
    );
}

/// Whether `seen` opens the session's GET stream.
fn is_get_stream(seen: &Seen) -> bool {
    seen.verb == "GET"
}

fn server_request(id: &str, method: &str) -> String {
    let request = json!({"jsonrpc": "2.0", "id": id, "method": method});
    format!("id: {id}\ndata: {request}\n\n")
}

/// A legacy server that asks on its GET stream, with no request of the client's open:
/// `ping`, then `roots/list`; the stream then ends, and cannot be resumed.
fn asks_on_the_get_stream(seen: &Seen, earlier: &[Seen]) -> Answer {
    if is_get_stream(seen) && seen.header("last-event-id").is_some() {
        return Answer::Json(400, error(-32000, "not resumable"));
    }
    if is_get_stream(seen) {
        return Answer::Sse(vec![
            (Duration::ZERO, server_request("g-1", "ping")),
            (Duration::ZERO, server_request("g-2", "roots/list")),
        ]);
    }
    missing_session(seen, earlier)
}

/// The client's answer to the server's request `id`, once it has come (waits at most 10 s).
async fn answer_to(log: &Mutex<Vec<Seen>>, id: &str) -> Seen {
    for _ in 0..1000 {
        if let Some(answer) = log.lock().unwrap().iter().find(|s| s.body["id"] == id) {
            return answer.clone();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no answer to {id}")
}

#[tokio::test]
async fn the_get_stream_is_read_and_answered_between_requests() {
    let (mut session, log) = legacy_session(asks_on_the_get_stream).await;
    // No request of the client's is open: the answers come from the GET stream's reader.
    let ping = answer_to(&log, "g-1").await;
    assert_eq!(ping.body["result"], json!({}));
    assert_eq!(ping.header("mcp-session-id"), Some(SESSION_ID));
    let roots = answer_to(&log, "g-2").await;
    assert!(roots.body["result"]["roots"].is_array(), "{}", roots.body);
    let seen = log.lock().unwrap().clone();
    let sent: Vec<&str> = seen
        .iter()
        .filter(|s| s.body["id"] != "g-1" && s.body["id"] != "g-2" && !is_get_stream(s))
        .map(Seen::method)
        .collect();
    assert_eq!(
        sent,
        ["server/discover", "initialize", "notifications/initialized"]
    );
    session.close().await;
}

/// A legacy server whose GET stream asks once and then stays open, quiet.
fn quiet_get_stream(seen: &Seen, earlier: &[Seen]) -> Answer {
    if is_get_stream(seen) {
        return Answer::Sse(vec![
            (Duration::ZERO, server_request("g-1", "ping")),
            (Duration::from_secs(3600), server_request("g-2", "ping")),
        ]);
    }
    missing_session(seen, earlier)
}

#[tokio::test]
async fn close_stops_the_get_streams_reader() {
    let (mut session, log) = legacy_session(quiet_get_stream).await;
    answer_to(&log, "g-1").await;
    assert!(session.is_listening(), "the open GET stream is read");
    // The stream would stay open for an hour: close does not wait for it.
    tokio::time::timeout(Duration::from_secs(10), session.close())
        .await
        .expect("close stops the reader");
    assert!(!session.is_listening());
}

/// A legacy server that holds its GET stream's answer, head and all, until the session's
/// first request, `tools/list`, has come (as a server may that writes a stream's head with
/// its first event), then asks on it.
fn holds_the_get_streams_head(seen: &Seen, earlier: &[Seen]) -> Answer {
    if !is_get_stream(seen) {
        return missing_session(seen, earlier);
    }
    let stream = Answer::Sse(vec![
        (Duration::ZERO, server_request("g-1", "ping")),
        (Duration::from_secs(3600), String::new()),
    ]);
    Answer::After("tools/list", Box::new(stream))
}

#[tokio::test]
async fn no_request_of_the_session_waits_for_the_get_streams_answer() {
    let (mut session, log) = legacy_session(holds_the_get_streams_head).await;
    assert_eq!(session.list_all_tools().await.unwrap().len(), 1);
    // A client that waited for the stream's head until it came would have given the stream
    // up (after its idle timeout) before sending `tools/list`, and never read the question
    // on it; this one waited a short time, then sent `tools/list` while still reading.
    let ping = answer_to(&log, "g-1").await;
    assert_eq!(ping.body["result"], json!({}));
    assert!(session.is_listening());
    session.close().await;
}

/// A legacy server whose GET stream sends one event that never ends, larger than the bound.
fn endless_event(seen: &Seen, earlier: &[Seen]) -> Answer {
    if is_get_stream(seen) {
        let line = format!("data: {}", "x".repeat(crate::DEFAULT_MAX_MESSAGE));
        return Answer::Sse(vec![
            (Duration::ZERO, line),
            (Duration::from_secs(3600), "\n\n".to_owned()),
        ]);
    }
    missing_session(seen, earlier)
}

/// Waits until the session's GET stream reader has stopped, for at most ten seconds (the
/// callers then assert that it did).
async fn stops_listening(session: &Client<Mcp>) {
    for _ in 0..1000 {
        if !session.is_listening() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn an_event_over_the_bound_ends_the_get_streams_reading() {
    let (mut session, _log) = legacy_session(endless_event).await;
    stops_listening(&session).await;
    assert!(
        !session.is_listening(),
        "the reader gave up the stream instead of holding more"
    );
    session.close().await;
}

/// A GET stream's first connection: one server request (id `g-1`), then the stream ends after
/// `retry: 10`.
fn asks_then_ends() -> Answer {
    Answer::Sse(vec![(
        Duration::ZERO,
        format!("retry: 10\n{}", server_request("g-1", "ping")),
    )])
}

/// A legacy server whose GET stream asks, then ends with `retry: 10`; resumed from the id it
/// sent, it asks once more on the new stream (which then stays open).
fn resumable_get_stream(seen: &Seen, earlier: &[Seen]) -> Answer {
    if !is_get_stream(seen) {
        return missing_session(seen, earlier);
    }
    match seen.header("last-event-id") {
        None => asks_then_ends(),
        Some(_) => Answer::Sse(vec![
            (Duration::ZERO, server_request("g-2", "ping")),
            (Duration::from_secs(3600), String::new()),
        ]),
    }
}

#[tokio::test]
async fn a_get_stream_that_ends_is_resumed_from_its_last_event_id() {
    let (mut session, log) = legacy_session(resumable_get_stream).await;
    answer_to(&log, "g-2").await;
    let seen = log.lock().unwrap().clone();
    let gets: Vec<Option<&str>> = seen
        .iter()
        .filter(|s| is_get_stream(s))
        .map(|s| s.header("last-event-id"))
        .collect();
    assert_eq!(gets, [None, Some("g-1")]);
    session.close().await;
}

/// A legacy server whose GET stream asks once, then every resume of it ends at once, empty.
fn empty_resumes(seen: &Seen, earlier: &[Seen]) -> Answer {
    if !is_get_stream(seen) {
        return missing_session(seen, earlier);
    }
    match seen.header("last-event-id") {
        None => asks_then_ends(),
        Some(_) => Answer::Sse(Vec::new()),
    }
}

#[tokio::test]
async fn resumes_of_the_get_stream_that_bring_nothing_are_bounded() {
    let (mut session, log) = legacy_session(empty_resumes).await;
    stops_listening(&session).await;
    assert!(!session.is_listening(), "the reader gave up");
    let gets = log
        .lock()
        .unwrap()
        .iter()
        .filter(|s| is_get_stream(s))
        .count();
    assert_eq!(
        gets,
        1 + 3,
        "the stream, then three resumes that brought no event"
    );
    session.close().await;
}

#[tokio::test]
async fn a_second_client_of_a_legacy_origin_opens_its_session_without_probing() {
    let (url, log) = serve(empty_result).await;
    let mut first = client(&url);
    assert_eq!(first.connect().await.unwrap().era, Era::Legacy);
    first.close().await;
    let before = log.lock().unwrap().len();
    let mut second = client(&url);
    assert_eq!(second.connect().await.unwrap().era, Era::Legacy);
    assert_eq!(second.list_all_tools().await.unwrap().len(), 1);
    second.close().await;
    let seen = log.lock().unwrap().clone();
    assert_eq!(
        methods(&seen[before..]),
        [
            "initialize",
            "notifications/initialized",
            "GET",
            "tools/list",
            "DELETE"
        ]
    );
}

/// A legacy server until its first session is deleted, then a modern one (which refuses
/// `initialize`).
fn legacy_then_modern(seen: &Seen, earlier: &[Seen]) -> Answer {
    if !earlier.iter().any(|s| s.verb == "DELETE") {
        return empty_result(seen, earlier);
    }
    match seen.method() {
        "initialize" => Answer::Json(400, error(-32600, "initialize is not a 2026-07-28 method")),
        _ => modern(seen, earlier),
    }
}

#[tokio::test]
async fn a_legacy_origin_that_refuses_initialize_is_probed_again() {
    let (url, log) = serve(legacy_then_modern).await;
    let mut first = client(&url);
    assert_eq!(first.connect().await.unwrap().era, Era::Legacy);
    first.close().await;
    let before = log.lock().unwrap().len();
    let mut second = client(&url);
    assert_eq!(second.connect().await.unwrap().era, Era::Modern);
    assert_eq!(second.list_all_tools().await.unwrap().len(), 1);
    let seen = log.lock().unwrap().clone();
    assert_eq!(
        methods(&seen[before..]),
        ["initialize", "server/discover", "tools/list"]
    );
    assert_eq!(seen.last().unwrap().header("mcp-session-id"), None);
}

#[test]
fn a_url_that_is_not_http_is_an_error() {
    for url in ["", "not a url", "file:///tmp/x", "ftp://example.com/mcp"] {
        match Client::new(url, super::fixture::config()) {
            Err(crate::ClientError::Http(e)) => assert!(e.contains("not an http(s) URL"), "{e}"),
            Err(other) => panic!("{url}: {other}"),
            Ok(_) => panic!("{url}: accepted"),
        }
    }
}

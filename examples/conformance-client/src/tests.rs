//! The client against a scripted HTTP server on a loopback port: re-listing after
//! `HeaderMismatch`, a long call that lives as long as its SSE stream does, request bodies in
//! the order the generated types write their members, and a call answered with a task (polled
//! at the suggested interval, its input requests answered once).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::mcp;
use crate::session::Session;

/// One request the server saw: its HTTP method, headers (names lowercased), JSON body (parsed
/// and as the bytes that came; null when there is none), and when its head arrived.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub(crate) verb: String,
    headers: Vec<(String, String)>,
    pub(crate) body: Value,
    raw: Vec<u8>,
    at: Instant,
}

impl Seen {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC method, or for a request with no body (a GET, a DELETE) its HTTP method.
    pub(crate) fn method(&self) -> &str {
        match &self.body {
            Value::Null => &self.verb,
            body => body["method"].as_str().unwrap_or_default(),
        }
    }
}

/// What the server answers: a JSON body with a status, the same with an `Mcp-Session-Id`
/// ([`SESSION_ID`]), SSE events sent after pauses, or an answer whose every byte (its head
/// too) waits until a request of the given method has come.
pub(crate) enum Answer {
    Json(u16, Value),
    InSession(u16, Value),
    Sse(Vec<(Duration, String)>),
    After(&'static str, Box<Answer>),
}

/// The session id [`Answer::InSession`] gives.
pub(crate) const SESSION_ID: &str = "legacy-session-1";

pub(crate) type Script = fn(&Seen, &[Seen]) -> Answer;

/// Serves `script` on a loopback port (one request per connection); the URL and the log.
pub(crate) async fn serve(script: Script) -> (String, Arc<Mutex<Vec<Seen>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let log = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&log);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let seen = Arc::clone(&seen);
            tokio::spawn(async move { answer(stream, script, seen).await });
        }
    });
    (url, log)
}

async fn answer(mut stream: TcpStream, script: Script, log: Arc<Mutex<Vec<Seen>>>) {
    let Some(seen) = read_request(&mut stream).await else {
        return;
    };
    let earlier = log.lock().unwrap().clone();
    let mut reply = script(&seen, &earlier);
    log.lock().unwrap().push(seen);
    while let Answer::After(method, held) = reply {
        until_seen(&log, method).await;
        reply = *held;
    }
    write_answer(stream, reply).await;
}

/// Waits until `log` holds a request of `method`.
async fn until_seen(log: &Mutex<Vec<Seen>>, method: &str) {
    while !log.lock().unwrap().iter().any(|s| s.method() == method) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Writes `reply` (not [`Answer::After`], which `answer` has waited out) on `stream`.
async fn write_answer(mut stream: TcpStream, reply: Answer) {
    let session = match &reply {
        Answer::InSession(..) => format!("mcp-session-id: {SESSION_ID}\r\n"),
        _ => String::new(),
    };
    let _ = match reply {
        Answer::Json(status, body) | Answer::InSession(status, body) => {
            let body = body.to_string();
            let head = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{session}connection: close\r\n\r\n",
                body.len()
            );
            stream.write_all(format!("{head}{body}").as_bytes()).await
        }
        Answer::Sse(events) => {
            let head =
                "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
            let mut sent = stream.write_all(head.as_bytes()).await;
            for (pause, event) in events {
                tokio::time::sleep(pause).await;
                sent = stream.write_all(event.as_bytes()).await;
            }
            sent
        }
        Answer::After(..) => Ok(()),
    };
}

async fn read_request(stream: &mut TcpStream) -> Option<Seen> {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let mut at = None;
    let end = loop {
        let n = stream.read(&mut buf).await.ok()?;
        if n == 0 {
            return None;
        }
        at.get_or_insert_with(Instant::now);
        data.extend_from_slice(&buf[..n]);
        if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&data[..end]).to_string();
    let verb = head.split(' ').next().unwrap_or_default().to_owned();
    let headers: Vec<(String, String)> = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    while data.len() < end + length {
        let n = stream.read(&mut buf).await.ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
    }
    let raw = data[end..end + length].to_vec();
    // A GET or DELETE has no body.
    let body = match raw.is_empty() {
        true => Value::Null,
        false => serde_json::from_slice(&raw).ok()?,
    };
    Some(Seen {
        verb,
        headers,
        body,
        raw,
        at: at?,
    })
}

pub(crate) fn result(seen: &Seen, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": seen.body["id"], "result": result})
}

fn region_tool(annotated: bool) -> Value {
    let mut region = json!({"type": "string"});
    if annotated {
        region["x-mcp-header"] = json!("Region");
    }
    json!({"name": "deploy", "inputSchema": {"type": "object", "properties": {"region": region}}})
}

fn called() -> Value {
    json!({"resultType": "complete", "content": [{"type": "text", "text": "done"}]})
}

/// The server now annotates `region`: a call without its header is a HeaderMismatch.
fn header_required(seen: &Seen, _: &[Seen]) -> Answer {
    match seen.method() {
        "tools/list" => Answer::Json(
            200,
            result(
                seen,
                json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
                       "tools": [region_tool(true)]}),
            ),
        ),
        _ if seen.header("mcp-param-region") == Some("eu") => {
            Answer::Json(200, result(seen, called()))
        }
        _ => Answer::Json(
            400,
            json!({"jsonrpc": "2.0", "id": seen.body["id"],
                   "error": {"code": -32020, "message": "Header Mcp-Param-Region is missing"}}),
        ),
    }
}

fn args(value: Value) -> serde_json::Map<String, Value> {
    value.as_object().cloned().unwrap()
}

#[tokio::test]
async fn after_a_header_mismatch_the_client_lists_again_and_retries_once() {
    let (url, log) = serve(header_required).await;
    let mut session = Session::new(&url).unwrap();
    let stale: mcp::Tool = serde_json::from_value(region_tool(false)).unwrap();
    let done = session
        .call_tool(&stale, args(json!({"region": "eu"})))
        .await
        .unwrap();
    assert_eq!(done.content.len(), 1);
    let log = log.lock().unwrap();
    let methods: Vec<&str> = log.iter().map(Seen::method).collect();
    assert_eq!(methods, ["tools/call", "tools/list", "tools/call"]);
    assert_ne!(
        log[0].body["id"], log[2].body["id"],
        "the retry takes a new id"
    );
}

/// Always a mismatch: the client retries once, then reports the error.
fn always_mismatch(seen: &Seen, earlier: &[Seen]) -> Answer {
    match seen.method() {
        "tools/list" => header_required(seen, earlier),
        _ => Answer::Json(
            400,
            json!({"jsonrpc": "2.0", "id": seen.body["id"],
                   "error": {"code": -32020, "message": "mismatch"}}),
        ),
    }
}

#[tokio::test]
async fn a_second_header_mismatch_is_an_error() {
    let (url, log) = serve(always_mismatch).await;
    let mut session = Session::new(&url).unwrap();
    let tool: mcp::Tool = serde_json::from_value(region_tool(true)).unwrap();
    let e = session
        .call_tool(&tool, args(json!({"region": "eu"})))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("-32020"), "{e}");
    assert_eq!(log.lock().unwrap().len(), 3);
}

/// A call answered after 1.2 s of pings every 0.2 s.
fn slow_but_alive(seen: &Seen, _: &[Seen]) -> Answer {
    let ping = (Duration::from_millis(200), ": ping\n\n".to_owned());
    let mut events = vec![ping; 6];
    let done = result(seen, called());
    events.push((Duration::from_millis(200), format!("data: {done}\n\n")));
    Answer::Sse(events)
}

/// A call whose stream goes silent for 1.5 s.
fn silent(seen: &Seen, _: &[Seen]) -> Answer {
    let done = result(seen, called());
    Answer::Sse(vec![(
        Duration::from_millis(1500),
        format!("data: {done}\n\n"),
    )])
}

#[tokio::test]
async fn a_long_call_lives_while_its_stream_does() {
    let idle = Duration::from_millis(600);
    let tool: mcp::Tool = serde_json::from_value(region_tool(false)).unwrap();
    let (url, _) = serve(slow_but_alive).await;
    let mut session = Session::with_idle_timeout(&url, idle).unwrap();
    let done = session.call_tool(&tool, args(json!({}))).await;
    assert!(done.is_ok(), "{done:?}");
    let (url, _) = serve(silent).await;
    let mut session = Session::with_idle_timeout(&url, idle).unwrap();
    assert!(session.call_tool(&tool, args(json!({}))).await.is_err());
}

/// Answers `server/discover` (tools offered), `tools/list` (one tool) and `tools/call`.
fn discover_list_call(seen: &Seen, _: &[Seen]) -> Answer {
    let answer = match seen.method() {
        "server/discover" => json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}),
        "tools/list" => json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "tools": [region_tool(true)]}),
        _ => called(),
    };
    Answer::Json(200, result(seen, answer))
}

/// The body of a request as sent: exactly what its generated type writes, so not sorted by
/// member name as a detour through `serde_json::Value` would leave it.
fn assert_generated_order<T>(seen: &Seen, prefix: &str)
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let text = std::str::from_utf8(&seen.raw).unwrap();
    assert!(text.starts_with(prefix), "{text}");
    let typed: T = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&typed).unwrap(), text);
    let sorted = serde_json::from_str::<Value>(text).unwrap().to_string();
    assert_ne!(sorted, text, "the members are not in name order");
}

#[tokio::test]
async fn requests_keep_the_generated_member_order() {
    let (url, log) = serve(discover_list_call).await;
    let mut session = Session::new(&url).unwrap();
    session.discover().await.unwrap();
    let tools = session.list_tools().await.unwrap();
    session
        .call_tool(&tools[0], args(json!({"region": "eu"})))
        .await
        .unwrap();
    let log = log.lock().unwrap();
    assert_generated_order::<mcp::DiscoverRequest>(
        &log[0],
        r#"{"jsonrpc":"2.0","method":"server/discover","id":1,"params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"#,
    );
    assert_generated_order::<mcp::ListToolsRequest>(
        &log[1],
        r#"{"jsonrpc":"2.0","method":"tools/list","id":2,"params":{"#,
    );
    assert_generated_order::<mcp::CallToolRequest>(
        &log[2],
        r#"{"jsonrpc":"2.0","method":"tools/call","id":3,"params":{"#,
    );
}

/// A tool call answered with an SSE stream: two progress notifications, then the result.
fn with_progress(seen: &Seen, _: &[Seen]) -> Answer {
    let token = &seen.body["params"]["_meta"]["progressToken"];
    let note = |p: u32| {
        let n = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                       "params": {"progressToken": token, "progress": p, "total": 2}});
        (Duration::ZERO, format!("event: message\ndata: {n}\n\n"))
    };
    let done = result(seen, called());
    Answer::Sse(vec![
        note(1),
        note(2),
        (Duration::ZERO, format!("event: message\ndata: {done}\n\n")),
    ])
}

#[tokio::test]
async fn a_session_that_asks_for_progress_sends_a_token_per_call() {
    let (url, log) = serve(with_progress).await;
    let tool: mcp::Tool = serde_json::from_value(region_tool(false)).unwrap();
    let mut session = Session::new(&url).unwrap();
    session.call_tool(&tool, args(json!({}))).await.unwrap();
    session.ask_for_progress();
    let done = session.call_tool(&tool, args(json!({}))).await.unwrap();
    assert_eq!(done.content.len(), 1);
    let log = log.lock().unwrap();
    let meta = |i: usize| &log[i].body["params"]["_meta"];
    assert_eq!(meta(0).get("progressToken"), None, "not asked for");
    assert_eq!(meta(1)["progressToken"], "progress-2");
}

const TASKS: &str = "io.modelcontextprotocol/tasks";

/// A task's state as `tasks/get` answers it (`more` adds members).
fn task(seen: &Seen, status: &str, poll_ms: u64, more: Value) -> Answer {
    let mut task = json!({"resultType": "complete", "taskId": "task-1", "status": status,
        "createdAt": "2026-07-28T12:00:00Z", "lastUpdatedAt": "2026-07-28T12:00:01Z",
        "ttlMs": 60000, "pollIntervalMs": poll_ms});
    for (k, v) in more.as_object().unwrap() {
        task[k] = v.clone();
    }
    Answer::Json(200, result(seen, task))
}

/// The answer to `tools/call` that creates task `task-1`.
fn created(seen: &Seen, ttl_ms: Value, poll_ms: u64) -> Answer {
    Answer::Json(
        200,
        result(
            seen,
            json!({"resultType": "task", "taskId": "task-1", "status": "working",
                "createdAt": "2026-07-28T12:00:00Z", "lastUpdatedAt": "2026-07-28T12:00:00Z",
                "ttlMs": ttl_ms, "pollIntervalMs": poll_ms}),
        ),
    )
}

fn count(earlier: &[Seen], method: &str) -> usize {
    earlier.iter().filter(|s| s.method() == method).count()
}

/// `tools/call` answers with a task (poll every 300 ms); `tasks/get` shows it working, then
/// waiting on an elicitation (poll every 200 ms from then on), still waiting once after the
/// answer (the server has not caught up), then completed.
fn task_with_input(seen: &Seen, earlier: &[Seen]) -> Answer {
    match seen.method() {
        "tools/call" => created(seen, json!(60000), 300),
        "tasks/update" => Answer::Json(200, result(seen, json!({"resultType": "complete"}))),
        _ => {
            let waiting = json!({"inputRequests": {"ask-name": {"method": "elicitation/create",
                "params": {"mode": "form", "message": "Your name?", "requestedSchema": {
                    "type": "object", "properties": {"name": {"type": "string"}},
                    "required": ["name"]}}}}});
            match count(earlier, "tasks/get") {
                0 => task(seen, "working", 300, json!({})),
                1 | 2 => task(seen, "input_required", 200, waiting),
                _ => task(
                    seen,
                    "completed",
                    200,
                    json!({"result": {"content": [{"type": "text", "text": "Hello, conformance!"}]}}),
                ),
            }
        }
    }
}

#[tokio::test]
async fn a_task_is_polled_at_its_interval_and_its_input_answered_once() {
    let (url, log) = serve(task_with_input).await;
    let mut session = Session::new(&url).unwrap();
    let tool: mcp::Tool = serde_json::from_value(region_tool(false)).unwrap();
    let done = session.call_tool(&tool, args(json!({}))).await.unwrap();
    let mcp::ContentBlock::TextContent(t) = &done.content[0] else {
        panic!("{done:?}")
    };
    assert_eq!(t.text, "Hello, conformance!");
    let log = log.lock().unwrap();
    let methods: Vec<&str> = log.iter().map(Seen::method).collect();
    assert_eq!(
        methods,
        [
            "tools/call",
            "tasks/get",
            "tasks/get",
            "tasks/update",
            "tasks/get",
            "tasks/get"
        ]
    );
    // Each request wants tasks; each tasks/* names the task in Mcp-Name.
    for s in log.iter() {
        let caps = &s.body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
        assert_eq!(caps["extensions"], json!({TASKS: {}}), "{}", s.body);
        if s.method() != "tools/call" {
            assert_eq!(s.header("mcp-name"), Some("task-1"), "{}", s.body);
            assert_eq!(s.body["params"]["taskId"], "task-1");
        }
    }
    // The answer, once, to the key asked.
    let update = &log[3].body["params"]["inputResponses"];
    assert_eq!(update["ask-name"]["action"], "accept", "{update}");
    assert_eq!(update["ask-name"]["content"]["name"], "conformance");
    // Each poll waits the interval the server last suggested: 300 ms, then 200 ms.
    let gets: Vec<&Seen> = log.iter().filter(|s| s.method() == "tasks/get").collect();
    assert!(gets[0].at - log[0].at >= Duration::from_millis(300));
    assert!(gets[1].at - gets[0].at >= Duration::from_millis(300));
    assert!(gets[2].at - log[3].at >= Duration::from_millis(200));
    assert!(gets[3].at - gets[2].at >= Duration::from_millis(200));
}

/// A task that fails with a JSON-RPC error at the first poll.
fn failing_task(seen: &Seen, _: &[Seen]) -> Answer {
    match seen.method() {
        "tools/call" => created(seen, json!(null), 10),
        _ => task(
            seen,
            "failed",
            10,
            json!({"error": {"code": -32603, "message": "backend gone"}}),
        ),
    }
}

#[tokio::test]
async fn a_failed_task_is_its_json_rpc_error() {
    let (url, _) = serve(failing_task).await;
    let mut session = Session::new(&url).unwrap();
    let tool: mcp::Tool = serde_json::from_value(region_tool(false)).unwrap();
    match session.call_tool(&tool, args(json!({}))).await {
        Err(crate::session::ClientError::Rpc(e)) => {
            assert_eq!((e.code, e.message.as_str()), (-32603, "backend gone"));
        }
        other => panic!("{other:?}"),
    }
}

/// A task answer to `prompts/get`, which the extension does not extend.
fn task_for_a_prompt(seen: &Seen, _: &[Seen]) -> Answer {
    Answer::Json(
        200,
        result(
            seen,
            json!({"resultType": "task", "taskId": "task-1", "status": "working",
                "createdAt": "x", "lastUpdatedAt": "x", "ttlMs": null}),
        ),
    )
}

#[tokio::test]
async fn a_task_answers_only_a_request_that_may_have_one() {
    let (url, _) = serve(task_for_a_prompt).await;
    let mut session = Session::new(&url).unwrap();
    let e = session
        .get_prompt("p", Default::default())
        .await
        .unwrap_err();
    assert!(e.to_string().contains("\"task\""), "{e}");
}

/// A task that never ends within its 300 ms TTL; the cancel is acknowledged.
fn endless_task(seen: &Seen, _: &[Seen]) -> Answer {
    match seen.method() {
        "tools/call" => created(seen, json!(300), 100),
        "tasks/cancel" => Answer::Json(200, result(seen, json!({"resultType": "complete"}))),
        _ => task(seen, "working", 100, json!({})),
    }
}

#[tokio::test]
async fn a_task_that_outlives_its_ttl_is_given_up_and_cancelled() {
    let (url, log) = serve(endless_task).await;
    let mut session = Session::new(&url).unwrap();
    let tool: mcp::Tool = serde_json::from_value(region_tool(false)).unwrap();
    let e = session.call_tool(&tool, args(json!({}))).await.unwrap_err();
    assert!(e.to_string().contains("did not end within 300 ms"), "{e}");
    let log = log.lock().unwrap();
    let last = log.last().unwrap();
    assert_eq!(last.method(), "tasks/cancel");
    assert_eq!(last.header("mcp-name"), Some("task-1"));
    assert!(log.iter().filter(|s| s.method() == "tasks/get").count() >= 1);
}

#[test]
fn a_malformed_scenario_context_is_an_error_not_an_empty_context() {
    use crate::scenario_context;
    assert_eq!(scenario_context(None), Ok(Value::Null));
    let calls = r#"{"toolCalls": [{"name": "t", "arguments": {}}]}"#;
    assert_eq!(
        scenario_context(Some(calls.to_owned())).unwrap()["toolCalls"][0]["name"],
        "t"
    );
    let e = scenario_context(Some("{\"toolCalls\": [".to_owned())).unwrap_err();
    assert!(
        e.starts_with("MCP_CONFORMANCE_CONTEXT is not JSON: "),
        "{e}"
    );
    let e = scenario_context(Some("[1]".to_owned())).unwrap_err();
    assert_eq!(e, "MCP_CONFORMANCE_CONTEXT is not a JSON object: [1]");
}

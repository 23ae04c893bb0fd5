//! The client against a modern scripted server: re-listing after `HeaderMismatch`, a long
//! call that lives as long as its SSE stream does, request bodies in the order the generated
//! types write their members, and a call answered with a task (polled at the suggested
//! interval, its input requests answered once).

use std::time::Duration;

use mcp_client_test_types::mcp;
use serde_json::{Value, json};

use super::fixture::{client, config};
use super::scripted::{Answer, Seen, result, serve};
use crate::Client;

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
    let mut session = client(&url);
    let stale: mcp::Tool = serde_json::from_value(region_tool(false)).unwrap();
    let done = session
        .call_listed_tool(&stale, args(json!({"region": "eu"})))
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
    let mut session = client(&url);
    let tool: mcp::Tool = serde_json::from_value(region_tool(true)).unwrap();
    let e = session
        .call_listed_tool(&tool, args(json!({"region": "eu"})))
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
    let mut session = Client::new(&url, config().with_idle_timeout(idle)).unwrap();
    let done = session.call_listed_tool(&tool, args(json!({}))).await;
    assert!(done.is_ok(), "{done:?}");
    let (url, _) = serve(silent).await;
    let mut session = Client::new(&url, config().with_idle_timeout(idle)).unwrap();
    assert!(
        session
            .call_listed_tool(&tool, args(json!({})))
            .await
            .is_err()
    );
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
    let mut session = client(&url);
    session.discover().await.unwrap();
    let tools = session.list_all_tools().await.unwrap();
    session
        .call_listed_tool(&tools[0], args(json!({"region": "eu"})))
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
    let mut session = client(&url);
    session
        .call_listed_tool(&tool, args(json!({})))
        .await
        .unwrap();
    session.ask_for_progress();
    let done = session
        .call_listed_tool(&tool, args(json!({})))
        .await
        .unwrap();
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
    let mut session = client(&url);
    let tool: mcp::Tool = serde_json::from_value(region_tool(false)).unwrap();
    let done = session
        .call_listed_tool(&tool, args(json!({})))
        .await
        .unwrap();
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
    let mut session = client(&url);
    let tool: mcp::Tool = serde_json::from_value(region_tool(false)).unwrap();
    match session.call_listed_tool(&tool, args(json!({}))).await {
        Err(crate::ClientError::Rpc(e)) => {
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
    let mut session = client(&url);
    let params = mcp::GetPromptRequestParams::new(session.meta(), "p");
    let e = session
        .call::<mcp::GetPromptRequest>(params)
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
    let mut session = client(&url);
    let tool: mcp::Tool = serde_json::from_value(region_tool(false)).unwrap();
    let e = session
        .call_listed_tool(&tool, args(json!({})))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("did not end within 300 ms"), "{e}");
    let log = log.lock().unwrap();
    let last = log.last().unwrap();
    assert_eq!(last.method(), "tasks/cancel");
    assert_eq!(last.header("mcp-name"), Some("task-1"));
    assert!(log.iter().filter(|s| s.method() == "tasks/get").count() >= 1);
}

/// Answers `tools/call` with a result whose text is 64 KiB, as JSON or as one SSE event after
/// a progress notification.
fn large_result(seen: &Seen, _: &[Seen]) -> Answer {
    let text = "x".repeat(64 * 1024);
    let done = result(
        seen,
        json!({"resultType": "complete", "content": [{"type": "text", "text": text}]}),
    );
    if seen.header("x-test-sse").is_some() {
        let note = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                          "params": {"progressToken": 1, "progress": 1}});
        return Answer::Sse(vec![
            (Duration::ZERO, format!("data: {note}\n\n")),
            (Duration::ZERO, format!("data: {done}\n\n")),
        ]);
    }
    Answer::Json(200, done)
}

#[tokio::test]
async fn a_response_larger_than_the_bound_is_refused_json_or_sse() {
    let tool: mcp::Tool = serde_json::from_value(region_tool(false)).unwrap();
    let (url, _) = serve(large_result).await;
    for sse in [false, true] {
        let (mut within, mut over) = (config(), config().with_max_message(16 * 1024));
        if sse {
            within = within.with_header("x-test-sse", "1");
            over = over.with_header("x-test-sse", "1");
        }
        // Within the bound: read.
        let mut session = Client::new(&url, within).unwrap();
        let done = session.call_listed_tool(&tool, args(json!({}))).await;
        assert!(done.is_ok(), "sse {sse}: {done:?}");
        // Over it: refused, saying which bound.
        let mut session = Client::new(&url, over).unwrap();
        let refused = session
            .call_listed_tool(&tool, args(json!({})))
            .await
            .unwrap_err();
        let crate::ClientError::Http(message) = &refused else {
            panic!("sse {sse}: {refused:?}");
        };
        assert!(
            message.contains("passed 16384 bytes"),
            "sse {sse}: {message}"
        );
    }
}

#[tokio::test]
async fn a_typed_tool_call_carries_the_headers_of_the_listed_tool() {
    let (url, log) = serve(header_required).await;
    let mut session = client(&url);
    let params = |session: &Client<_>| {
        mcp::CallToolRequestParams::new(session.meta(), "deploy")
            .with_arguments(args(json!({"region": "eu"})))
    };
    // Before any tools/list the client knows no annotation: no header, refused.
    let first = params(&session);
    assert!(session.call::<mcp::CallToolRequest>(first).await.is_err());
    session.list_all_tools().await.unwrap();
    let second = params(&session);
    let done = session.call::<mcp::CallToolRequest>(second).await.unwrap();
    assert_eq!(done.content.len(), 1);
    let sent = log.lock().unwrap().last().cloned().unwrap();
    assert_eq!(sent.header("mcp-param-region"), Some("eu"));
}

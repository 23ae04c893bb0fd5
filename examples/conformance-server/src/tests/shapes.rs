//! The result and message-shape rules public MCP validators check, each against the real
//! HTTP server on a loopback port, over a sweep of requests that reaches every method, tool,
//! prompt and resource the server offers (plain JSON answers, SSE streams with progress and
//! log notifications, `InputRequiredResult`s and errors):
//!
//! - every result has `resultType`;
//! - its value is a core one or belongs to an extension the server advertised;
//! - a response stream carries notifications and the final response, never a request;
//! - an accepted notification gets `202 Accepted` and no body;
//! - every answer is `application/json` or `text/event-stream`, and a stream ends with its
//!   response;
//! - SSE responses set `X-Accel-Buffering: no`;
//! - `tools/list` (and the other lists) come in a deterministic order;
//!
//! and that the bytes on the wire are what the generated types write, in their member order.

use std::time::Duration;

use mcp_runtime::ResultType;
use mcp_runtime::result_type::accepting;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::{meta, start, start_app};
use crate::mcp;
use mcp_server::tasks::Settings;

/// Longest any one answer may take in these tests (the slowest tool sleeps 100 ms).
const BOUND: Duration = Duration::from_secs(10);

/// Everything the client saw of one POST.
#[derive(Debug)]
struct Exchange {
    /// What was sent, for the messages.
    request: Value,
    status: u16,
    content_type: Option<String>,
    accel_buffering: Option<String>,
    body: String,
}

impl Exchange {
    fn is_sse(&self) -> bool {
        self.content_type
            .as_deref()
            .is_some_and(|c| c.starts_with("text/event-stream"))
    }

    /// The JSON-RPC messages of the answer as their JSON text: the body, or each event's
    /// data.
    fn messages(&self) -> Vec<String> {
        if self.is_sse() {
            sse_data(&self.body)
        } else if self.body.is_empty() {
            Vec::new()
        } else {
            vec![self.body.clone()]
        }
    }

    fn parsed(&self) -> Vec<Value> {
        self.messages()
            .iter()
            .map(|m| serde_json::from_str(m).unwrap_or_else(|e| panic!("{e}: {m}")))
            .collect()
    }
}

/// The data of each event of an SSE body (comments and other fields left out).
fn sse_data(body: &str) -> Vec<String> {
    body.split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(|d| d.strip_prefix(' ').unwrap_or(d))
                .collect();
            (!data.is_empty()).then(|| data.join("\n"))
        })
        .collect()
}

fn client() -> reqwest::Client {
    reqwest::Client::builder().timeout(BOUND).build().unwrap()
}

/// POSTs `request` as a conforming client would (the standard headers, `Mcp-Name` from the
/// body, `Mcp-Param-Region` for the tool that asks for it); the response, its body not read.
async fn send(url: &str, request: &Value) -> reqwest::Response {
    let method = request["method"].as_str().unwrap_or_default().to_owned();
    let params = &request["params"];
    let name = params["name"].as_str().or(params["uri"].as_str());
    let mut post = client()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", &method);
    if let Some(name) = name.filter(|_| request.get("id").is_some()) {
        post = post.header("mcp-name", name);
    }
    if let Some(region) = params["arguments"]["region"].as_str() {
        post = post.header("mcp-param-region", region);
    }
    post.body(request.to_string()).send().await.unwrap()
}

impl Exchange {
    /// What `response` to `request` says before its body (left empty here).
    fn head(request: Value, response: &reqwest::Response) -> Self {
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        Exchange {
            status: response.status().as_u16(),
            content_type: header("content-type"),
            accel_buffering: header("x-accel-buffering"),
            request,
            body: String::new(),
        }
    }
}

/// POSTs `request` and reads the whole answer.
async fn exchange(url: &str, request: Value) -> Exchange {
    let response = send(url, &request).await;
    let mut e = Exchange::head(request, &response);
    // A bounded read to the end (the client's timeout): a stream that did not end fails here.
    e.body = response.text().await.unwrap();
    e
}

/// Reads `response`'s body into `body` until it holds `needle` (bounded by the client's
/// timeout); with `needle` `None`, to the end.
async fn read_until(response: &mut reqwest::Response, body: &mut String, needle: Option<&str>) {
    while !needle.is_some_and(|n| body.contains(n)) {
        match response.chunk().await.unwrap() {
            Some(chunk) => body.push_str(&String::from_utf8_lossy(&chunk)),
            None if needle.is_none() => return,
            None => panic!("the stream ended before {needle:?}: {body}"),
        }
    }
}

/// Every capability a client can declare, so that each input request may be asked.
fn all_caps() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}})
}

/// A request with `_meta` asking for progress and every log message (so that the tools that
/// notify answer with a stream).
fn request(id: i64, method: &str, mut params: Value) -> Value {
    let mut m = meta(all_caps());
    m["progressToken"] = json!(format!("progress-{id}"));
    m["io.modelcontextprotocol/logLevel"] = json!("debug");
    params["_meta"] = m;
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Arguments that a tool of this server accepts.
fn arguments_for(tool: &str) -> Value {
    match tool {
        "add_numbers" => json!({"a": 1, "b": 2}),
        "test_custom_header" => json!({"region": "eu"}),
        _ => json!({}),
    }
}

/// The members of a list result named `key`, read from an exchange.
fn listed(e: &Exchange, key: &str, member: &str) -> Vec<Value> {
    let body: Value = serde_json::from_str(&e.body).unwrap();
    body["result"][key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} in {}", e.body))
        .iter()
        .map(|item| item[member].clone())
        .collect()
}

/// Every method once, every listed tool, prompt and resource (a multi round-trip tool's first
/// answer, its `InputRequiredResult`, is enough here), and a few errors.
async fn sweep(url: &str) -> Vec<Exchange> {
    let mut id = 0;
    let mut next = || {
        id += 1;
        id
    };
    let mut seen = Vec::new();
    for method in [
        "server/discover",
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
    ] {
        seen.push(exchange(url, request(next(), method, json!({}))).await);
    }
    let tools = listed(&seen[1], "tools", "name");
    let prompts = listed(&seen[2], "prompts", "name");
    let mut uris = listed(&seen[3], "resources", "uri");
    uris.push(json!("test://template/42/data"));
    for tool in tools.iter().filter_map(Value::as_str) {
        let params = json!({"name": tool, "arguments": arguments_for(tool)});
        seen.push(exchange(url, request(next(), "tools/call", params)).await);
    }
    for prompt in prompts.iter().filter_map(Value::as_str) {
        let arguments =
            json!({"arg1": "a", "arg2": "b", "resourceUri": "test://embedded-resource"});
        let params = json!({"name": prompt, "arguments": arguments});
        seen.push(exchange(url, request(next(), "prompts/get", params)).await);
    }
    for uri in uris {
        let params = json!({"uri": uri});
        seen.push(exchange(url, request(next(), "resources/read", params)).await);
    }
    let complete = json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
                          "argument": {"name": "arg1", "value": "pa"}});
    seen.push(exchange(url, request(next(), "completion/complete", complete)).await);
    // Errors: unknown method, unknown tool, a resource that is not there, no _meta.
    seen.push(exchange(url, request(next(), "no/such", json!({}))).await);
    let unknown = json!({"name": "no_such_tool", "arguments": {}});
    seen.push(exchange(url, request(next(), "tools/call", unknown)).await);
    let missing = json!({"uri": "test://missing"});
    seen.push(exchange(url, request(next(), "resources/read", missing)).await);
    let bare = json!({"jsonrpc": "2.0", "id": next(), "method": "tools/list", "params": {}});
    seen.push(exchange(url, bare).await);
    seen
}

/// A `subscriptions/listen` stream told of one tool list change, then ended by a shutdown:
/// the acknowledgement, the change notification and the final result.
async fn listen_stream() -> Exchange {
    let (url, app) = start_app(Settings::default(), mcp_server::Config::default()).await;
    let listen = request(
        1,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    );
    let mut response = send(&url, &listen).await;
    let mut e = Exchange::head(listen, &response);
    // The acknowledgement comes once the subscription is in place: then trigger a change,
    // wait for it, and shut down, which ends the stream with the listen result.
    let ack = "notifications/subscriptions/acknowledged";
    read_until(&mut response, &mut e.body, Some(ack)).await;
    let trigger = json!({"name": "test_trigger_tool_change", "arguments": {}});
    let triggered = exchange(&url, request(2, "tools/call", trigger)).await;
    assert_eq!(triggered.status, 200, "{}", triggered.body);
    let changed = "notifications/tools/list_changed";
    read_until(&mut response, &mut e.body, Some(changed)).await;
    app.server.changes.stop();
    read_until(&mut response, &mut e.body, None).await;
    e
}

/// The sweep and the listen stream: every answer these tests look at.
async fn everything() -> Vec<Exchange> {
    let url = start().await;
    let mut all = sweep(&url).await;
    all.push(listen_stream().await);
    all
}

/// The results among `messages`.
fn results(messages: &[Value]) -> impl Iterator<Item = &Value> {
    messages.iter().filter_map(|m| m.get("result"))
}

#[tokio::test]
async fn every_result_has_a_result_type() {
    let all = everything().await;
    let mut count = 0;
    for e in &all {
        for result in results(&e.parsed()) {
            count += 1;
            assert!(
                result["resultType"].is_string(),
                "no resultType answering {}: {result}",
                e.request
            );
        }
    }
    // discover, four lists, every tool, 5 prompts, 3 reads, completion, the listen result.
    assert!(count >= 35, "only {count} results seen");
}

/// The extensions the client advertised in `request`'s `_meta` (its capabilities).
fn client_extensions(request: &Value) -> Vec<String> {
    request["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
        .as_object()
        .map(|e| e.keys().cloned().collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn result_types_are_core_values_or_advertised_extensions() {
    let all = everything().await;
    let mut kinds = std::collections::BTreeSet::new();
    for e in &all {
        // A value of an extension the client advertised would be valid; any other is not
        // (the runtime's acceptance rule, given what this client advertised).
        let advertised = client_extensions(&e.request);
        let advertised: Vec<&str> = advertised.iter().map(String::as_str).collect();
        for result in results(&e.parsed()) {
            let value = result["resultType"].as_str().unwrap_or_default();
            let parsed = accepting(&advertised, || ResultType::parse(value))
                .unwrap_or_else(|err| panic!("{err} answering {}", e.request));
            kinds.insert(parsed.as_str().to_owned());
        }
    }
    // Both core values occur: the rule was checked on each.
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["complete", "input_required"]
    );
}

#[tokio::test]
async fn a_response_stream_carries_no_requests() {
    let all = everything().await;
    let mut notifications = 0;
    for e in all.iter().filter(|e| e.is_sse()) {
        let id = &e.request["id"];
        for m in e.parsed() {
            if m.get("id").is_none() {
                assert!(m["method"].is_string(), "not a notification: {m}");
                notifications += 1;
            } else {
                // Anything with an id is the response to this request: never a request.
                assert!(m.get("method").is_none(), "a request on the stream: {m}");
                assert_eq!(&m["id"], id, "{m}");
                assert!(m.get("result").is_some() != m.get("error").is_some(), "{m}");
            }
        }
    }
    // Progress (3), log messages (3 + 1), the listen acknowledgement and list change.
    assert!(
        notifications >= 9,
        "only {notifications} notifications seen"
    );
    // Input the server needs is asked inside an InputRequiredResult instead.
    let asked = all
        .iter()
        .find(|e| e.request["params"]["name"] == "test_streaming_elicitation")
        .unwrap();
    let answer = &asked.parsed()[0];
    assert_eq!(answer["result"]["resultType"], "input_required", "{answer}");
    assert_eq!(
        answer["result"]["inputRequests"]["confirm"]["method"],
        "elicitation/create"
    );
}

#[tokio::test]
async fn an_accepted_notification_gets_202_and_no_body() {
    let url = start().await;
    let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                           "params": {"requestId": 1, "reason": "no longer needed"}});
    let e = exchange(&url, cancelled).await;
    assert_eq!(e.status, 202);
    assert_eq!(e.body, "", "no body");
    assert_eq!(e.content_type, None, "no body, so no content type");
    // One the server cannot accept (a number for a method name) is an HTTP error instead.
    let bad = json!({"jsonrpc": "2.0", "method": 5});
    let e = exchange(&url, bad).await;
    assert_eq!(e.status, 400, "{}", e.body);
}

#[tokio::test]
async fn answers_are_json_or_sse_and_a_stream_ends_with_its_response() {
    let all = everything().await;
    let mut streams = 0;
    for e in &all {
        let kind = e.content_type.as_deref().unwrap_or_default();
        assert!(
            kind == "application/json" || kind == "text/event-stream",
            "{kind:?} answering {}",
            e.request
        );
        let messages = e.parsed();
        let last = messages.last().unwrap_or_else(|| panic!("empty answer"));
        // The body was read to its end, and what ends it is the response to the request.
        assert_eq!(last["id"], e.request["id"], "{}", e.body);
        assert!(last.get("result").is_some() || last.get("error").is_some());
        if e.is_sse() {
            streams += 1;
            assert!(
                messages.len() > 1,
                "a stream with notifications: {}",
                e.body
            );
        } else {
            assert_eq!(messages.len(), 1);
        }
    }
    // test_tool_with_logging, test_tool_with_progress, test_logging_tool, listen.
    assert!(streams >= 4, "only {streams} streams seen");
}

#[tokio::test]
async fn sse_responses_turn_proxy_buffering_off() {
    let all = everything().await;
    let streams: Vec<&Exchange> = all.iter().filter(|e| e.is_sse()).collect();
    assert!(streams.len() >= 4);
    for e in streams {
        assert_eq!(e.accel_buffering.as_deref(), Some("no"), "{}", e.request);
    }
    // Plain JSON answers need no such header.
    assert!(
        all.iter()
            .filter(|e| !e.is_sse())
            .all(|e| e.accel_buffering.is_none())
    );
}

#[tokio::test]
async fn lists_come_in_a_deterministic_order() {
    let mut answers = Vec::new();
    for _ in 0..2 {
        // A fresh server each time: nothing in the order may depend on the process.
        let url = start().await;
        for _ in 0..2 {
            let mut bodies = Vec::new();
            for method in [
                "tools/list",
                "prompts/list",
                "resources/list",
                "resources/templates/list",
            ] {
                bodies.push(exchange(&url, request(1, method, json!({}))).await.body);
            }
            answers.push(bodies);
        }
    }
    for other in &answers[1..] {
        assert_eq!(other, &answers[0], "the same bytes every time");
    }
    let tools: Value = serde_json::from_str(&answers[0][0]).unwrap();
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();

    let declared: Vec<String> = crate::features::tools()
        .unwrap()
        .list()
        .tools
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(
        names, declared,
        "every tool, in the order the server declares them"
    );
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "each tool once");
}

/// `text` is exactly what the generated type `T` writes for the value it holds: every member
/// where the type puts it, at every depth.
fn assert_written_by<T: Serialize + DeserializeOwned>(text: &str) {
    let typed: T = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(serde_json::to_string(&typed).unwrap(), text);
}

/// `text` is not its members sorted by name, which a detour through `serde_json::Value`
/// (a sorted map) would leave; `prefix` is how the generated type starts it.
fn assert_unsorted(text: &str, prefix: &str) {
    assert!(text.starts_with(prefix), "{text}");
    let sorted = serde_json::from_str::<Value>(text).unwrap().to_string();
    assert_ne!(sorted, text, "the members are not in name order");
}

#[tokio::test]
async fn the_wire_keeps_the_generated_member_order() {
    let url = start().await;
    let e = exchange(&url, request(1, "server/discover", json!({}))).await;
    // jsonrpc, id, result; resultType first in the result, where the type writes it.
    assert_unsorted(
        &e.body,
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","_meta":{"#,
    );
    assert_written_by::<mcp::DiscoverResultResponse>(&e.body);
    let e = exchange(&url, request(2, "tools/list", json!({}))).await;
    assert_written_by::<mcp::ListToolsResultResponse>(&e.body);
    let call = |name: &str| json!({"name": name, "arguments": {}});
    let e = exchange(&url, request(3, "tools/call", call("test_simple_text"))).await;
    assert_written_by::<mcp::CallToolResultResponse>(&e.body);
    let asks = call("test_input_required_result_elicitation");
    let e = exchange(&url, request(4, "tools/call", asks)).await;
    assert_unsorted(
        &e.body,
        r#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"input_required","#,
    );
    assert_written_by::<mcp::CallToolResultResponse>(&e.body);
    // A stream: each notification and the response.
    let e = exchange(
        &url,
        request(5, "tools/call", call("test_tool_with_progress")),
    )
    .await;
    let messages = e.messages();
    let (response, notes) = messages.split_last().unwrap();
    for note in notes {
        assert!(note.starts_with(r#"{"jsonrpc":"2.0","method":"notifications/progress","#));
        assert_written_by::<mcp::ProgressNotification>(note);
    }
    assert_unsorted(
        response,
        r#"{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete","#,
    );
    assert_written_by::<mcp::CallToolResultResponse>(response);
    // An error response.
    let e = exchange(&url, request(6, "no/such", json!({}))).await;
    // (The schema's JSONRPCErrorResponse declares `error` before its optional `id`.)
    assert_unsorted(&e.body, r#"{"jsonrpc":"2.0","error":{"code":-32601,"#);
    assert_written_by::<mcp::JSONRPCErrorResponse>(&e.body);
}

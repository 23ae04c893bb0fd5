//! The generated client trait (`client(true)`) on the client: one method per request, sent in
//! the era the client found, ending with the modern complete result (a legacy server's result
//! converted), the input rounds answered by the configured handler.

use mcp_client_test_types::mcp;
use mcp_runtime::era::Era;
use serde_json::{Value, json};

use super::fixture::client;
use super::scripted::{Answer, SESSION_ID, Seen, result, serve};
use mcp::prelude::*; // the generated trait's methods

/// What both servers complete `completion/complete` with.
fn completion() -> Value {
    json!({"values": ["python", "pytorch"], "total": 2, "hasMore": false})
}

fn template() -> Value {
    json!({"name": "file", "uriTemplate": "file:///{path}"})
}

/// A modern server: `completion/complete`, `resources/templates/list`, and a `prompts/get`
/// that asks for the user's name first.
fn modern(seen: &Seen, _: &[Seen]) -> Answer {
    let answer = match seen.method() {
        "server/discover" => json!({"resultType": "complete", "ttlMs": 0,
            "cacheScope": "private", "supportedVersions": ["2026-07-28"], "capabilities": {}}),
        "completion/complete" => json!({"resultType": "complete", "completion": completion()}),
        "resources/templates/list" => json!({"resultType": "complete", "ttlMs": 0,
            "cacheScope": "private", "resourceTemplates": [template()]}),
        "tasks/get" => json!({"resultType": "complete", "taskId": seen.body["params"]["taskId"],
            "status": "working", "createdAt": "2026-07-28T12:00:00Z",
            "lastUpdatedAt": "2026-07-28T12:00:01Z", "ttlMs": 60000}),
        "prompts/get" if seen.body["params"]["inputResponses"]["name"].is_object() => {
            let name = &seen.body["params"]["inputResponses"]["name"]["content"]["name"];
            json!({"resultType": "complete", "messages": [{"role": "user",
                "content": {"type": "text", "text": format!("Hello, {}", name.as_str().unwrap_or("?"))}}]})
        }
        "prompts/get" => json!({"resultType": "input_required", "inputRequests": {"name":
            {"method": "elicitation/create", "params": {"mode": "form", "message": "Name?",
             "requestedSchema": {"type": "object", "properties":
                {"name": {"type": "string", "default": "Ada"}}}}}}}),
        _ => return Answer::Json(404, Value::Null),
    };
    Answer::Json(200, result(seen, answer))
}

/// A 2025-11-25 server (it answers the probe as an older server does) with the same two
/// methods, its results in that revision's shape.
fn legacy(seen: &Seen, _: &[Seen]) -> Answer {
    let answer = match seen.method() {
        "server/discover" => {
            let refused = json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32000, "message": "Invalid or missing session ID"}});
            return Answer::Json(400, refused);
        }
        "initialize" => {
            let init = json!({"protocolVersion": "2025-11-25", "capabilities": {},
                "serverInfo": {"name": "legacy", "version": "1.0.0"}});
            return Answer::InSession(200, result(seen, init));
        }
        "completion/complete" => json!({"completion": completion()}),
        "resources/templates/list" => json!({"resourceTemplates": [template()]}),
        _ => return Answer::Json(202, Value::Null),
    };
    Answer::Json(200, result(seen, answer))
}

/// `completion/complete` and `resources/templates/list` through the generated methods, their
/// complete results as both servers give them.
async fn complete_and_list(session: &mut crate::Client<super::fixture::Mcp>) {
    let argument = CompleteRequestParamsArgument::new("language", "py");
    let reference = ResourceTemplateReference::new("file:///{path}");
    let params = CompleteRequestParams::new(session.meta(), argument, reference);
    let completed = session.complete(params).await.unwrap();
    assert_eq!(completed.completion.values, ["python", "pytorch"]);
    let listed = session
        .list_resource_templates(PaginatedRequestParams::new(session.meta()))
        .await
        .unwrap();
    assert_eq!(listed.resource_templates[0].uri_template, "file:///{path}");
}

#[tokio::test]
async fn the_generated_methods_send_their_requests_in_the_modern_era() {
    let (url, log) = serve(modern).await;
    let mut session = client(&url);
    assert_eq!(session.connect().await.unwrap().era, Era::Modern);
    complete_and_list(&mut session).await;
    // A request that asks for input first ends with its complete result: the fixture's
    // handler fills the form with its defaults.
    let prompt = session
        .get_prompt(GetPromptRequestParams::new(session.meta(), "greet"))
        .await
        .unwrap();
    let ContentBlock::TextContent(text) = &prompt.messages[0].content else {
        panic!("a text message: {:?}", prompt.messages);
    };
    assert_eq!(text.text, "Hello, Ada");
    // An extension's request: the tasks extension's `tasks/get`.
    let task = session
        .get_task(GetTaskRequestParams::new("task-7").with_meta(session.meta()))
        .await
        .unwrap();
    assert_eq!(
        (task.task_id.as_str(), task.status),
        ("task-7", TaskStatus::Working)
    );
    let seen = log.lock().unwrap().clone();
    let methods: Vec<&str> = seen.iter().map(Seen::method).collect();
    assert_eq!(
        methods,
        [
            "server/discover",
            "completion/complete",
            "resources/templates/list",
            "prompts/get",
            "prompts/get",
            "tasks/get"
        ]
    );
    assert_eq!(seen[1].body["params"]["argument"]["value"], "py");
    assert_ne!(
        seen[3].body["id"], seen[4].body["id"],
        "the retry has a new id"
    );
}

#[tokio::test]
async fn the_generated_methods_send_their_requests_in_a_legacy_session() {
    let (url, log) = serve(legacy).await;
    let mut session = client(&url);
    assert_eq!(session.connect().await.unwrap().era, Era::Legacy);
    complete_and_list(&mut session).await;
    session.close().await;
    let seen = log.lock().unwrap().clone();
    let sent = |method: &str| seen.iter().find(|s| s.method() == method).unwrap().clone();
    let complete = sent("completion/complete");
    assert_eq!(complete.header("mcp-session-id"), Some(SESSION_ID));
    assert!(
        complete.body["params"].get("_meta").is_none(),
        "{}",
        complete.body
    );
    assert_eq!(complete.body["params"]["ref"]["type"], "ref/resource");
    assert_eq!(
        sent("resources/templates/list").header("mcp-session-id"),
        Some(SESSION_ID)
    );
}

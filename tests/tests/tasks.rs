//! The tasks extension (SEP-2663), generated from the official 2026-07-28 schema with
//! `Builder::extension("io.modelcontextprotocol/tasks")`: its types round-trip, `"task"` is read
//! only where the client advertised the extension on the request (MCP-RES-002), a server
//! answers with a task only through the proof that it did, and otherwise refuses with `-32021`.

use mcp_runtime::extension::{Advertised, Extension, ExtensionCapabilities, Reader};
use mcp_runtime::mrtr::CapabilityErrorResponse;
use mcp_runtime::result_type::accepting;
use mcp_runtime::{McpResult, McpResultType, Respond};
use mcp_tests::tasks as mcp;
use serde_json::{Value, json};

/// The SEP's answer to a tools/call that the server runs as a task.
const CREATED: &str = r#"{"jsonrpc": "2.0", "id": 2, "result": {
    "resultType": "task", "taskId": "786512e2-9e0d-44bd-8f29-789f820fe840", "status": "working",
    "statusMessage": "The operation is now in progress.", "createdAt": "2025-11-25T10:30:00Z",
    "lastUpdatedAt": "2025-11-25T10:40:00Z", "ttlMs": 60000, "pollIntervalMs": 5000}}"#;

fn caps_with_tasks() -> mcp::ClientCapabilities {
    let mut caps = mcp::ClientCapabilities::new();
    caps.declare::<mcp::TasksExtension>();
    caps
}

fn call(caps: mcp::ClientCapabilities) -> mcp::CallToolRequest {
    let meta = mcp::RequestMetaObject::new(caps, "2026-07-28");
    mcp::CallToolRequest::new(
        mcp::RequestId::Integer(2),
        mcp::CallToolRequestParams::new(meta, "get_weather"),
    )
}

fn same_json<T: serde::Serialize>(value: &T, text: &str) {
    let back = serde_json::to_value(value).unwrap();
    let input: Value = serde_json::from_str(text).unwrap();
    assert_eq!(mcp_tests::json_diff(&input, &back, String::new()), None);
}

#[test]
fn the_marker_names_the_extension_and_its_value() {
    assert_eq!(mcp::TasksExtension::ID, "io.modelcontextprotocol/tasks");
    assert_eq!(mcp::TasksExtension::RESULT_TYPES, ["task"]);
    assert_eq!(mcp::CreateTaskResult::RESULT_TYPE, "task");
    assert_eq!(mcp::GetTaskResult::RESULT_TYPE, "complete");
    let caps = serde_json::to_value(caps_with_tasks()).unwrap();
    assert_eq!(
        caps,
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
    );
}

#[test]
fn a_task_reads_where_the_client_advertised_the_extension() {
    let caps = caps_with_tasks();
    let reader = Reader::new(&caps).extension::<mcp::TasksExtension>();
    let response: mcp::CallToolResultResponse = reader.from_str(CREATED).unwrap();
    let mcp::CallToolOutcome::Task(created) = &response.result else {
        panic!("{response:?}")
    };
    assert_eq!(created.task_id, "786512e2-9e0d-44bd-8f29-789f820fe840");
    assert_eq!(created.status, mcp::TaskStatus::Working);
    assert_eq!(created.ttl_ms, mcp::TaskTtlMs::Integer(60000));
    assert_eq!(created.poll_interval_ms, Some(5000));
    same_json(&response, CREATED);
    // The reply union, as a client reads it.
    let reply: mcp_runtime::Reply<mcp::CallToolRequest> = reader.from_str(CREATED).unwrap();
    assert!(matches!(reply, mcp::CallToolReply::Result(_)), "{reply:?}");
    // Complete and input_required answers read as before.
    let complete = r#"{"jsonrpc": "2.0", "id": 2, "result": {"content": []}}"#;
    let response: mcp::CallToolResultResponse = reader.from_str(complete).unwrap();
    assert!(matches!(response.result, mcp::CallToolOutcome::Complete(_)));
}

#[test]
fn a_task_is_invalid_where_the_client_did_not_advertise_it() {
    // MCP-RES-002: sent without the extension, "task" is an unknown resultType.
    let plain = mcp::ClientCapabilities::new();
    let reader = Reader::new(&plain).extension::<mcp::TasksExtension>();
    assert!(reader.accepted().is_empty());
    let e = reader
        .from_str::<mcp::CallToolResultResponse>(CREATED)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("\"task\"") && e.contains("did not advertise"),
        "{e}"
    );
    // Nor when the reader is not told of the extension, or reads with plain serde.
    let caps = caps_with_tasks();
    let e = Reader::new(&caps)
        .from_str::<mcp::CallToolResultResponse>(CREATED)
        .unwrap_err();
    assert!(e.to_string().contains("did not advertise"), "{e}");
    assert!(serde_json::from_str::<mcp::CallToolResultResponse>(CREATED).is_err());
    // Another extension advertised does not make "task" valid.
    let mut other = mcp::ClientCapabilities::new();
    other
        .extensions_mut()
        .insert("com.example/other".into(), Default::default());
    let reader = Reader::new(&other).extension::<mcp::TasksExtension>();
    assert!(
        reader
            .from_str::<mcp::CallToolResultResponse>(CREATED)
            .is_err()
    );
}

#[test]
fn a_task_answers_only_the_requests_the_extension_extends() {
    // prompts/get may answer input_required, but not a task: invalid even when advertised.
    let caps = caps_with_tasks();
    let reader = Reader::new(&caps).extension::<mcp::TasksExtension>();
    let text = r#"{"resultType": "task", "taskId": "t", "status": "working",
        "createdAt": "x", "lastUpdatedAt": "x", "ttlMs": null}"#;
    let e = reader
        .from_str::<mcp::GetPromptOutcome>(text)
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"task\""), "{e}");
    assert!(reader.from_str::<mcp::CallToolOutcome>(text).is_ok());
}

#[test]
fn create_task_result_itself_needs_the_extension_accepted() {
    let text = r#"{"resultType": "task", "taskId": "t", "status": "working",
        "createdAt": "x", "lastUpdatedAt": "x", "ttlMs": null}"#;
    let e = serde_json::from_str::<mcp::CreateTaskResult>(text)
        .unwrap_err()
        .to_string();
    assert!(e.contains("did not advertise"), "{e}");
    let r: mcp::CreateTaskResult = accepting(mcp::TasksExtension::RESULT_TYPES, || {
        serde_json::from_str(text)
    })
    .unwrap();
    assert_eq!(r.ttl_ms, mcp::TaskTtlMs::Null(()));
    same_json(&r, text);
    // A missing or another resultType is not a task.
    let missing = r#"{"taskId": "t", "status": "working", "createdAt": "x",
        "lastUpdatedAt": "x", "ttlMs": null}"#;
    assert!(
        accepting(&["task"], || serde_json::from_str::<mcp::CreateTaskResult>(
            missing
        ))
        .is_err()
    );
}

#[test]
fn a_server_answers_with_a_task_only_through_the_proof() {
    let request = call(caps_with_tasks());
    let tasks = Advertised::<mcp::TasksExtension>::check(&request.params.meta.client_capabilities)
        .expect("the request advertises the extension");
    let created = mcp::CreateTaskResult::new(
        "2025-11-25T10:30:00Z",
        "2025-11-25T10:40:00Z",
        mcp::TaskStatus::Working,
        "786512e2-9e0d-44bd-8f29-789f820fe840",
        60000,
    )
    .with_status_message("The operation is now in progress.")
    .with_poll_interval_ms(5000u64);
    let response = request.respond(tasks.grant(created));
    same_json(&response, CREATED);
    // The client that sent the request reads it back.
    let reader =
        Reader::new(&request.params.meta.client_capabilities).extension::<mcp::TasksExtension>();
    let text = serde_json::to_string(&response).unwrap();
    let back: mcp::CallToolResultResponse = reader.from_str(&text).unwrap();
    assert_eq!(back, response);
}

#[test]
fn without_the_extension_the_server_refuses_with_32021() {
    let request = call(mcp::ClientCapabilities::new());
    assert!(
        Advertised::<mcp::TasksExtension>::check(&request.params.meta.client_capabilities)
            .is_none()
    );
    let refusal = mcp::MissingRequiredClientCapabilityError::from_missing_extension::<
        mcp::TasksExtension,
    >(Some(request.id.clone()));
    let wire = serde_json::to_value(&refusal).unwrap();
    assert_eq!(wire["jsonrpc"], "2.0");
    assert_eq!(wire["id"], 2);
    assert_eq!(wire["error"]["code"], -32021);
    assert_eq!(
        wire["error"]["data"],
        json!({"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}})
    );
    let message = wire["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("io.modelcontextprotocol/tasks"),
        "{message}"
    );
    // It reads back as the error response of the spec.
    let back: mcp::MissingRequiredClientCapabilityError = serde_json::from_value(wire).unwrap();
    assert_eq!(back, refusal);
}

#[test]
fn the_tasks_methods_round_trip() {
    let get = r#"{"jsonrpc": "2.0", "id": 3, "method": "tasks/get",
        "params": {"taskId": "786512e2-9e0d-44bd-8f29-789f820fe840"}}"#;
    mcp_tests::roundtrip::<mcp::GetTaskRequest>(get).unwrap();
    let waiting = r#"{"id": 4, "jsonrpc": "2.0", "result": {"resultType": "complete",
        "taskId": "786512e2-9e0d-44bd-8f29-789f820fe840", "status": "input_required",
        "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:50:00Z",
        "ttlMs": 3600000, "pollIntervalMs": 5000,
        "inputRequests": {"name": {"method": "elicitation/create", "params": {"mode": "form",
            "message": "Please enter your name.", "requestedSchema": {"type": "object",
            "properties": {"name": {"type": "string"}}, "required": ["name"]}}}}}}"#;
    mcp_tests::roundtrip::<mcp::GetTaskResultResponse>(waiting).unwrap();
    let r: mcp::GetTaskResultResponse = serde_json::from_str(waiting).unwrap();
    assert_eq!(r.result.status, mcp::TaskStatus::InputRequired);
    assert!(matches!(
        r.result.input_requests.as_ref().unwrap()["name"],
        mcp::InputRequest::ElicitRequest(_)
    ));
    let done = r#"{"jsonrpc": "2.0", "id": 5, "result": {"resultType": "complete",
        "taskId": "t", "status": "completed", "createdAt": "x", "lastUpdatedAt": "y",
        "ttlMs": 3600000, "result": {"content": [{"type": "text", "text": "Failed"}],
        "isError": true}}}"#;
    mcp_tests::roundtrip::<mcp::GetTaskResultResponse>(done).unwrap();
    let update = r#"{"jsonrpc": "2.0", "id": 6, "method": "tasks/update", "params": {
        "taskId": "t", "inputResponses": {"name": {"action": "accept",
        "content": {"input": "Luca"}}}}}"#;
    mcp_tests::roundtrip::<mcp::UpdateTaskRequest>(update).unwrap();
    mcp_tests::roundtrip::<mcp::UpdateTaskResultResponse>(
        r#"{"jsonrpc": "2.0", "id": 6, "result": {"resultType": "complete"}}"#,
    )
    .unwrap();
    mcp_tests::roundtrip::<mcp::CancelTaskRequest>(
        r#"{"jsonrpc": "2.0", "id": 7, "method": "tasks/cancel", "params": {"taskId": "t"}}"#,
    )
    .unwrap();
    mcp_tests::roundtrip::<mcp::CancelTaskResultResponse>(
        r#"{"jsonrpc": "2.0", "id": 7, "result": {"resultType": "complete"}}"#,
    )
    .unwrap();
    let note = r#"{"jsonrpc": "2.0", "method": "notifications/tasks", "params": {
        "taskId": "t", "status": "completed", "createdAt": "x", "lastUpdatedAt": "y",
        "ttlMs": 60000, "pollIntervalMs": 5000,
        "result": {"content": [{"type": "text", "text": "Done."}], "isError": false}}}"#;
    mcp_tests::roundtrip::<mcp::TaskStatusNotification>(note).unwrap();
    // A task status is one of five.
    assert!(serde_json::from_str::<mcp::TaskStatus>(r#""paused""#).is_err());
    // The subscription filter takes task ids.
    let filter: mcp::SubscriptionFilter =
        serde_json::from_str(r#"{"taskIds": ["t1", "t2"]}"#).unwrap();
    assert_eq!(filter.task_ids.unwrap(), ["t1", "t2"]);
}

#[test]
fn the_methods_and_the_notification_have_their_roles() {
    use mcp_runtime::{Notification, Request};
    assert_eq!(<mcp::GetTaskRequest as Request>::METHOD, "tasks/get");
    assert_eq!(<mcp::UpdateTaskRequest as Request>::METHOD, "tasks/update");
    assert_eq!(<mcp::CancelTaskRequest as Request>::METHOD, "tasks/cancel");
    assert_eq!(
        <mcp::TaskStatusNotification as Notification>::METHOD,
        "notifications/tasks"
    );
    fn result_of<R: Request>() -> &'static str {
        std::any::type_name::<R::Result>()
    }
    assert!(result_of::<mcp::GetTaskRequest>().ends_with("GetTaskResult"));
    fn supports<R: mcp_runtime::extension::Supports<mcp::TasksExtension>>() {}
    supports::<mcp::CallToolRequest>();
}

/// A user's own task result and outcome, through the same derive.
#[derive(Debug, PartialEq, McpResult)]
#[mcp(result_type = "task")]
struct MyTask {
    #[mcp(rename = "taskId")]
    task_id: String,
}

// A whole result per variant, read once (as the generated outcomes are).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, PartialEq, McpResult)]
#[mcp(request = mcp::CallToolRequest)]
enum MyOutcome {
    Complete(mcp::CallToolResult),
    #[mcp(result_type = "task")]
    Task(MyTask),
}

#[test]
fn user_types_take_the_task_result_type() {
    assert_eq!(MyTask::RESULT_TYPE, "task");
    let text = r#"{"resultType": "task", "taskId": "t"}"#;
    assert!(serde_json::from_str::<MyTask>(text).is_err());
    assert!(serde_json::from_str::<MyOutcome>(text).is_err());
    let caps = caps_with_tasks();
    let reader = Reader::new(&caps).extension::<mcp::TasksExtension>();
    let outcome: MyOutcome = reader.from_str(text).unwrap();
    assert_eq!(
        outcome,
        MyOutcome::Task(MyTask {
            task_id: "t".into()
        })
    );
    same_json(&outcome, text);
    let complete: MyOutcome = reader.from_str(r#"{"content": []}"#).unwrap();
    assert!(matches!(complete, MyOutcome::Complete(_)));
}

#[test]
fn input_required_first_then_a_task() {
    // SEP-2663 with multi round-trip requests: the server gathers input synchronously
    // (input_required), and answers the retry with a task; the retry carries the capabilities
    // of the original request, so the proof holds for it too.
    use mcp_runtime::mrtr::Retry;
    let original = call(caps_with_tasks());
    let caps = original.params.meta.client_capabilities.clone();
    let reader = Reader::new(&caps).extension::<mcp::TasksExtension>();
    let asked = r#"{"jsonrpc": "2.0", "id": 2, "result": {"resultType": "input_required",
        "requestState": "s1"}}"#;
    let response: mcp::CallToolResultResponse = reader.from_str(asked).unwrap();
    let mcp::CallToolOutcome::InputRequired(answer) = response.result else {
        panic!("input_required")
    };
    let retry = original
        .retry(mcp::RequestId::Integer(3), &answer, Default::default())
        .unwrap();
    assert_eq!(retry.params.request_state.as_deref(), Some("s1"));
    let tasks = Advertised::<mcp::TasksExtension>::check(&retry.params.meta.client_capabilities)
        .expect("the retry advertises what the original did");
    let created = mcp::CreateTaskResult::new("x", "x", mcp::TaskStatus::Working, "t", 1000);
    let text = serde_json::to_string(&retry.respond(tasks.grant(created))).unwrap();
    let response: mcp::CallToolResultResponse = reader.from_str(&text).unwrap();
    assert_eq!(response.id, mcp::RequestId::Integer(3));
    assert!(matches!(response.result, mcp::CallToolOutcome::Task(_)));
}

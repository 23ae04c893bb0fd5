//! Building values with the generated constructors (`new`, `with_<member>`), answering a
//! request with `respond`, reading a reply that may be an error in one call, and the generated
//! prelude: the API issue 11 asks for, checked on the wire.

use mcp_runtime::{Reply, Respond};
use mcp_tests::mcp;
use mcp_tests::mcp::prelude::*;
use serde_json::json;

/// The prelude leaves out `Result`: this signature still means the Rust prelude's.
fn parse(text: &str) -> Result<CallToolRequest, serde_json::Error> {
    serde_json::from_str(text)
}

fn meta() -> RequestMetaObject {
    RequestMetaObject::new(ClientCapabilities::default(), "2026-07-28")
}

#[test]
fn a_request_from_its_required_members() {
    let arguments = mcp_runtime::to_object(&json!({"city": "Paris"})).unwrap();
    let request = CallToolRequest::new(
        RequestId::Integer(1),
        CallToolRequestParams::new(meta(), "weather").with_arguments(arguments),
    );
    assert_eq!(
        serde_json::to_value(&request).unwrap(),
        json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {
                "_meta": {
                    "io.modelcontextprotocol/clientCapabilities": {},
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28"
                },
                "arguments": {"city": "Paris"},
                "name": "weather"
            }
        })
    );
    let text = serde_json::to_string(&request).unwrap();
    assert_eq!(parse(&text).unwrap(), request);
}

#[test]
fn a_text_result_answers_its_request() {
    let request = parse(
        r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo",
            "_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
    )
    .unwrap();
    let result = CallToolResult::new(vec![TextContent::new("hello").into()]).with_is_error(false);
    let response = request.respond(result);
    assert_eq!(
        serde_json::to_value(&response).unwrap(),
        json!({"jsonrpc": "2.0", "id": "a", "result": {
            "resultType": "complete", "content": [{"type": "text", "text": "hello"}], "isError": false
        }})
    );
}

#[test]
fn optional_members_start_unset_and_setters_chain() {
    let tool = Tool::new(ToolInputSchema::new(), "echo")
        .with_title("Echo")
        .with_description("Says it back");
    let value = serde_json::to_value(&tool).unwrap();
    assert_eq!(value["title"], "Echo");
    assert_eq!(value["inputSchema"], json!({"type": "object"}));
    assert!(value.get("annotations").is_none(), "{value}");
    let list = ListToolsResult::new(CacheScope::Public, vec![tool], 60_000u64);
    let list = serde_json::to_value(list).unwrap();
    assert_eq!(
        (&list["resultType"], &list["cacheScope"], &list["ttlMs"]),
        (&json!("complete"), &json!("public"), &json!(60_000))
    );
}

#[test]
fn a_reply_is_the_result_or_the_error() {
    type CallToolReply = Reply<CallToolRequest>;
    let ok: CallToolReply = serde_json::from_value(json!({
        "jsonrpc": "2.0", "id": 1, "result": {"content": []}
    }))
    .unwrap();
    let CallToolReply::Result(ok) = ok else {
        panic!("{ok:?}")
    };
    assert!(matches!(ok.result, CallToolOutcome::Complete(_)));
    let err: CallToolReply = serde_json::from_value(json!({
        "jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "no such tool"}
    }))
    .unwrap();
    let CallToolReply::Error(err) = err else {
        panic!("{err:?}")
    };
    assert_eq!(
        (err.error.code, err.error.message.as_str()),
        (-32602, "no such tool")
    );
    // An unknown resultType is invalid, not silently a complete result.
    let bad = serde_json::from_value::<CallToolReply>(json!({
        "jsonrpc": "2.0", "id": 1, "result": {"resultType": "done", "content": []}
    }));
    assert!(bad.is_err(), "{bad:?}");
}

#[test]
fn notifications_and_errors_from_their_members() {
    let n = ProgressNotification::new(
        ProgressNotificationParams::new(0.5, ProgressToken::String("t".into())).with_total(1.0),
    );
    assert_eq!(
        serde_json::to_value(&n).unwrap(),
        json!({"jsonrpc": "2.0", "method": "notifications/progress",
               "params": {"progress": 0.5, "progressToken": "t", "total": 1.0}})
    );
    let e = mcp::Error::new(-32602, "bad state");
    assert_eq!(
        serde_json::to_value(JSONRPCErrorResponse::new(e).with_id(RequestId::Integer(4))).unwrap(),
        json!({"jsonrpc": "2.0", "error": {"code": -32602, "message": "bad state"}, "id": 4})
    );
}

#[test]
fn an_elicitation_form_from_named_fields() {
    let form = mcp::ElicitRequestFormParamsRequestedSchema::fields()
        .required("name", StringSchema::new().with_description("Your name"))
        .optional("subscribe", BooleanSchema::new())
        .required("age", NumberSchema::new(mcp::NumberSchemaType::Integer))
        .build();
    let wire = serde_json::to_value(&form).unwrap();
    assert_eq!(
        wire,
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "Your name"},
                "subscribe": {"type": "boolean"},
                "age": {"type": "integer"},
            },
            "required": ["name", "age"],
        })
    );
    // A field given again is replaced, and leaves the required list when it turns optional.
    let form = mcp::ElicitRequestFormParamsRequestedSchema::fields()
        .required("name", StringSchema::new())
        .optional("name", BooleanSchema::new())
        .build();
    assert_eq!(form.required, None);
    assert_eq!(form.properties.len(), 1);
}

#[test]
fn a_number_member_takes_any_integer_or_float() {
    let items: usize = 3;
    let params = ProgressNotificationParams::new(items, "t").with_total(10_u64);
    assert_eq!((params.progress, params.total), (3.0, Some(10.0)));
    let half = ProgressNotificationParams::new(0.5_f32, 7).with_total(-1_i64);
    assert_eq!((half.progress, half.total), (0.5, Some(-1.0)));
    let schema = NumberSchema::new(NumberSchemaType::Integer)
        .with_minimum(1_i8)
        .with_default(2_u16);
    let wire = serde_json::to_value(&schema).unwrap();
    assert_eq!(
        wire,
        serde_json::json!({"type": "integer", "minimum": 1.0, "default": 2.0})
    );
}

#[test]
fn a_union_with_a_string_variant_takes_a_str() {
    assert_eq!(ProgressToken::from("t"), ProgressToken::String("t".into()));
    assert_eq!(RequestId::from("r-1"), RequestId::String("r-1".into()));
    let request = CallToolRequest::new("call-1", CallToolRequestParams::new(meta(), "greet"));
    assert_eq!(request.id, RequestId::String("call-1".into()));
}

/// The official 2026-07-28 schema's `$def` `name` as a validator.
fn official(name: &str) -> jsonschema::Validator {
    let path = mcp_tests::schema_dir()
        .join("2026-07-28")
        .join("schema.json");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["$ref"] = json!(format!("#/$defs/{name}"));
    jsonschema::validator_for(&doc).unwrap()
}

/// Strict on write, lenient on read: a resource read may come without its cache hints (the
/// official example of one does), but `new` takes them, so what this crate writes is valid
/// against the official schema, which requires them.
#[test]
fn a_read_result_is_read_without_cache_hints_and_written_with_them() {
    let read: ReadResourceResult =
        serde_json::from_value(json!({"resultType": "complete", "contents": []})).unwrap();
    assert_eq!((read.cache_scope, read.ttl_ms), (None, None));

    let contents = TextResourceContents::new("hello", "test://hello");
    let written = ReadResourceResult::new(CacheScope::Private, vec![contents.into()], 0u64);
    let written = serde_json::to_value(written).unwrap();
    assert_eq!(
        (&written["cacheScope"], &written["ttlMs"]),
        (&json!("private"), &json!(0))
    );
    let validator = official("ReadResourceResult");
    let errors: Vec<String> = validator
        .iter_errors(&written)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{written}: {errors:?}");
    // Without the hints it is not valid there: what `new` no longer writes.
    assert!(!validator.is_valid(&json!({"resultType": "complete", "contents": []})));
}

/// The member each request's `Mcp-Name` header mirrors is generated from the revision's facts
/// (the overlay's `mcp_name`): the three of 2026-07-28, and none for the others.
#[test]
fn the_mcp_name_of_a_request_is_the_member_its_revision_names() {
    use mcp_runtime::Request;
    let call = CallToolRequest::new(
        RequestId::Integer(1),
        CallToolRequestParams::new(meta(), "t"),
    );
    assert_eq!(
        (CallToolRequest::MCP_NAME, call.mcp_name()),
        (Some("name"), Some("t"))
    );
    let read = ReadResourceRequest::new(
        RequestId::Integer(2),
        ReadResourceRequestParams::new(meta(), "file:///a"),
    );
    assert_eq!(
        (ReadResourceRequest::MCP_NAME, read.mcp_name()),
        (Some("uri"), Some("file:///a"))
    );
    assert_eq!(GetPromptRequest::MCP_NAME, Some("name"));
    let complete = CompleteRequest::MCP_NAME;
    assert_eq!(complete, None, "a request its revision names no member of");
    // The tasks extension names the task.
    assert_eq!(
        <mcp_tests::tasks::GetTaskRequest as Request>::MCP_NAME,
        Some("taskId")
    );
}

//! The opt-in `schemars::JsonSchema` derives describe the wire: JSON names, constants and
//! discriminators, the at-least-one-of rule, plain-text descriptions. Every official example
//! and a bounded number of property-test instances of every `$def` validate against the schema
//! schemars makes for the type (the `jsonschema` crate).

mod proptest_support;

use mcp_tests::with_json_schema as mcp;
use proptest_support::Walker;
use serde_json::{Value, json};

/// Instances per `$def` (each checked as made and with an omitted `resultType` left out).
const SAMPLES: usize = 8;

fn schema_of<T: schemars::JsonSchema>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap()
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::validator_for(schema).unwrap()
}

/// The errors of `value` against `schema`, joined (empty when valid).
fn errors(v: &jsonschema::Validator, value: &Value) -> String {
    v.iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect::<Vec<_>>()
        .join("; ")
}

macro_rules! schemas {
    ($($name:ident),* $(,)?) => {
        vec![$((stringify!($name), schema_of::<mcp::$name>())),*]
    };
}

/// Every `$def`'s name and the schema schemars makes for its generated type.
fn every_schema() -> Vec<(&'static str, Value)> {
    schemas!(
        Annotations,
        AudioContent,
        BaseMetadata,
        BlobResourceContents,
        BooleanSchema,
        CacheableResult,
        CallToolRequest,
        CallToolRequestParams,
        CallToolResult,
        CallToolResultResponse,
        CancelledNotification,
        CancelledNotificationParams,
        ClientCapabilities,
        ClientNotification,
        ClientRequest,
        ClientResult,
        CompleteRequest,
        CompleteRequestParams,
        CompleteResult,
        CompleteResultResponse,
        ContentBlock,
        CreateMessageRequest,
        CreateMessageRequestParams,
        CreateMessageResult,
        Cursor,
        DiscoverRequest,
        DiscoverResult,
        DiscoverResultResponse,
        ElicitRequest,
        ElicitRequestFormParams,
        ElicitRequestParams,
        ElicitRequestURLParams,
        ElicitResult,
        EmbeddedResource,
        EmptyResult,
        EnumSchema,
        Error,
        GetPromptRequest,
        GetPromptRequestParams,
        GetPromptResult,
        GetPromptResultResponse,
        HeaderMismatchError,
        Icon,
        Icons,
        ImageContent,
        Implementation,
        InputRequest,
        InputRequests,
        InputRequiredResult,
        InputResponse,
        InputResponseRequestParams,
        InputResponses,
        InternalError,
        InvalidParamsError,
        InvalidRequestError,
        JSONArray,
        JSONObject,
        JSONRPCErrorResponse,
        JSONRPCMessage,
        JSONRPCNotification,
        JSONRPCRequest,
        JSONRPCResponse,
        JSONRPCResultResponse,
        JSONValue,
        LegacyTitledEnumSchema,
        ListPromptsRequest,
        ListPromptsResult,
        ListPromptsResultResponse,
        ListResourceTemplatesRequest,
        ListResourceTemplatesResult,
        ListResourceTemplatesResultResponse,
        ListResourcesRequest,
        ListResourcesResult,
        ListResourcesResultResponse,
        ListRootsRequest,
        ListRootsResult,
        ListToolsRequest,
        ListToolsResult,
        ListToolsResultResponse,
        LoggingLevel,
        LoggingMessageNotification,
        LoggingMessageNotificationParams,
        MetaObject,
        MethodNotFoundError,
        MissingRequiredClientCapabilityError,
        ModelHint,
        ModelPreferences,
        MultiSelectEnumSchema,
        Notification,
        NotificationMetaObject,
        NotificationParams,
        NumberSchema,
        PaginatedRequest,
        PaginatedRequestParams,
        PaginatedResult,
        ParseError,
        PrimitiveSchemaDefinition,
        ProgressNotification,
        ProgressNotificationParams,
        ProgressToken,
        Prompt,
        PromptArgument,
        PromptListChangedNotification,
        PromptMessage,
        PromptReference,
        ReadResourceRequest,
        ReadResourceRequestParams,
        ReadResourceResult,
        ReadResourceResultResponse,
        Request,
        RequestId,
        RequestMetaObject,
        RequestParams,
        Resource,
        ResourceContents,
        ResourceLink,
        ResourceListChangedNotification,
        ResourceRequestParams,
        ResourceTemplate,
        ResourceTemplateReference,
        ResourceUpdatedNotification,
        ResourceUpdatedNotificationParams,
        Result,
        ResultMetaObject,
        ResultType,
        Role,
        Root,
        SamplingMessage,
        SamplingMessageContentBlock,
        ServerCapabilities,
        ServerNotification,
        ServerResult,
        SingleSelectEnumSchema,
        StringSchema,
        SubscriptionFilter,
        SubscriptionsAcknowledgedNotification,
        SubscriptionsAcknowledgedNotificationParams,
        SubscriptionsListenRequest,
        SubscriptionsListenRequestParams,
        SubscriptionsListenResult,
        SubscriptionsListenResultMetaObject,
        SubscriptionsListenResultResponse,
        TextContent,
        TextResourceContents,
        TitledMultiSelectEnumSchema,
        TitledSingleSelectEnumSchema,
        Tool,
        ToolAnnotations,
        ToolChoice,
        ToolListChangedNotification,
        ToolResultContent,
        ToolUseContent,
        UnsupportedProtocolVersionError,
        UntitledMultiSelectEnumSchema,
        UntitledSingleSelectEnumSchema
    )
}

#[test]
fn json_schema_uses_wire_names() {
    let schema = schema_of::<mcp::CallToolRequestParams>();
    let props = schema["properties"].as_object().unwrap();
    assert!(props.contains_key("_meta"), "{schema}");
    assert!(props.contains_key("inputResponses"), "{schema}");
    assert!(!props.contains_key("input_responses"), "{schema}");
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        required.contains(&"name") && required.contains(&"_meta"),
        "{schema}"
    );
}

#[test]
fn constants_and_discriminators_are_in_the_schema() {
    let request = schema_of::<mcp::CallToolRequest>();
    assert_eq!(
        request["properties"]["jsonrpc"]["const"], "2.0",
        "{request}"
    );
    assert_eq!(request["properties"]["method"]["const"], "tools/call");
    let required = request["required"].as_array().unwrap();
    assert!(required.contains(&json!("jsonrpc")) && required.contains(&json!("method")));
    let text = schema_of::<mcp::TextContent>();
    assert_eq!(text["properties"]["type"]["const"], "text");
    let error = schema_of::<mcp::MissingRequiredClientCapabilityErrorError>();
    assert_eq!(error["properties"]["code"]["const"], -32021, "{error}");
    // A complete result may leave resultType out; the input-required one may not.
    let complete = schema_of::<mcp::CallToolResult>();
    assert_eq!(complete["properties"]["resultType"]["const"], "complete");
    assert!(
        !complete["required"]
            .as_array()
            .unwrap()
            .contains(&json!("resultType"))
    );
    let input = schema_of::<mcp::InputRequiredResult>();
    assert_eq!(input["properties"]["resultType"]["const"], "input_required");
    assert_eq!(input["required"], json!(["resultType"]), "{input}");
}

#[test]
fn at_least_one_of_is_an_any_of_required_sets() {
    let schema = schema_of::<mcp::InputRequiredResult>();
    assert_eq!(
        schema["anyOf"],
        json!([{"required": ["inputRequests"]}, {"required": ["requestState"]}]),
        "{schema}"
    );
    let v = validator(&schema);
    let valid = json!({"resultType": "input_required", "requestState": "s"});
    assert_eq!(errors(&v, &valid), "");
    for invalid in [
        json!({"resultType": "input_required"}),
        json!({"requestState": "s"}),
        json!({"resultType": "complete", "requestState": "s"}),
    ] {
        assert!(!v.is_valid(&invalid), "{invalid}");
    }
}

#[test]
fn unions_are_any_of_their_variants_with_their_discriminators() {
    let blocks = schema_of::<mcp::ContentBlock>();
    let v = validator(&blocks);
    assert!(v.is_valid(&json!({"type": "text", "text": "hi"})));
    assert!(!v.is_valid(&json!({"type": "image", "text": "hi"})));
    assert!(!v.is_valid(&json!({"type": "video", "text": "hi"})));
    let outcome = validator(&schema_of::<mcp::CallToolOutcome>());
    assert!(outcome.is_valid(&json!({"content": []})));
    assert!(outcome.is_valid(&json!({"resultType": "input_required", "requestState": "s"})));
    assert!(!outcome.is_valid(&json!({"resultType": "input_required"})));
    assert!(!outcome.is_valid(&json!({"resultType": "success", "content": []})));
    let message = validator(&schema_of::<mcp::JSONRPCMessage>());
    assert!(message.is_valid(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})));
    assert!(!message.is_valid(&json!({"jsonrpc": "1.0", "id": 1, "method": "ping"})));
}

/// Every `description` in `v`, with its JSON pointer.
fn descriptions(v: &Value, at: String, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "description"
                    && let Some(text) = x.as_str()
                {
                    out.push((at.clone(), text.to_owned()));
                }
                descriptions(x, format!("{at}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                descriptions(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn descriptions_are_plain_text() {
    let mut found = Vec::new();
    for (name, schema) in every_schema() {
        descriptions(&schema, name.to_owned(), &mut found);
    }
    let rustdoc: Vec<&(String, String)> = found
        .iter()
        .filter(|(_, d)| {
            d.contains("[`") || d.contains("](") || d.contains("{@link") || d.contains("JSON: `")
        })
        .collect();
    assert!(
        rustdoc.is_empty(),
        "rustdoc syntax in descriptions: {rustdoc:#?}"
    );
    let call_tool = schema_of::<mcp::CallToolResult>();
    assert_eq!(
        call_tool["description"],
        "The result returned by the server for a tools/call request."
    );
    assert!(found.len() > 300, "{} descriptions", found.len());
}

#[test]
fn every_example_and_instance_validates_against_its_json_schema() {
    let walker = Walker::new("2026-07-28");
    let examples = mcp_tests::schema_dir().join("2026-07-28").join("examples");
    let schemas = every_schema();
    let named: Vec<&str> = schemas.iter().map(|(n, _)| *n).collect();
    let missing: Vec<String> = walker
        .defs()
        .into_iter()
        .filter(|d| !named.contains(&d.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "$defs without a JSON Schema check: {missing:?}"
    );
    let (mut examples_checked, mut instances_checked) = (0, 0);
    let mut failures = Vec::new();
    for (name, schema) in &schemas {
        let v = validator(schema);
        for file in example_files(&examples.join(name)) {
            let value: Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let e = errors(&v, &value);
            if !e.is_empty() {
                failures.push(format!("{name} example {}: {e}", file.display()));
            }
            examples_checked += 1;
        }
        for (full, input) in walker.samples(name, SAMPLES) {
            for value in [&full, &input] {
                let e = errors(&v, value);
                if !e.is_empty() {
                    failures.push(format!("{name} instance: {e}\n  {value}"));
                }
            }
            instances_checked += 1;
        }
    }
    println!(
        "{examples_checked} examples and {instances_checked} instances of {} $defs valid",
        schemas.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        examples_checked, 129,
        "the official schema ships 129 examples"
    );
}

fn example_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|f| f.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

//! Property tests of the earlier revisions' types (2024-11-05, 2025-03-26, 2025-06-18,
//! 2025-11-25) against their official schemas (draft-07 up to 2025-06-18, 2020-12 after), the
//! same property as `proptest_schema.rs` for 2026-07-28 (see `proptest_support`), and the
//! behaviour of each overlay patch of those revisions (`schema/README.md`).
//!
//! Exceptions, where the overlay widens the schema (outputs there validate against the
//! patched schema only): the JSON-RPC error's optional id (2024-11-05 to 2025-06-18) and
//! numbers in elicitation answers (2025-06-18, 2025-11-25); `LoggingLevel`'s order changes no
//! instance's validity. `exceptions_are_the_overlay_patches` keeps the list and the overlays
//! in step.

mod proptest_support;

use mcp_tests::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25};
use proptest_support::{Tally, Walker};
use serde_json::json;

/// The overlay patches of each revision: each a place where output may be invalid against the
/// official schema (and must then be valid against the patched one).
const EXCEPTIONS: &[(&str, &[&str])] = &[
    (
        "2024-11-05",
        &[
            "/definitions/LoggingLevel/enum",
            "/definitions/JSONRPCError/required",
        ],
    ),
    (
        "2025-03-26",
        &[
            "/definitions/LoggingLevel/enum",
            "/definitions/JSONRPCError/required",
        ],
    ),
    (
        "2025-06-18",
        &[
            "/definitions/LoggingLevel/enum",
            "/definitions/JSONRPCError/required",
            "/definitions/ElicitResult/properties/content/additionalProperties/type",
        ],
    ),
    (
        "2025-11-25",
        &[
            "/$defs/LoggingLevel/enum",
            "/$defs/ElicitResult/properties/content/additionalProperties/anyOf/1/type",
        ],
    ),
];

fn cases() -> u32 {
    std::env::var("MCP_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16)
}

macro_rules! check_all {
    ($walker:expr, $module:ident, $cases:expr; $($name:ident),* $(,)?) => {{
        let results: Vec<(&str, Result<Tally, String>)> = vec![$(
            (
                stringify!($name),
                $walker.check::<$module::$name>(stringify!($name), $cases),
            ),
        )*];
        results
    }};
}

fn finish(walker: &Walker, results: Vec<(&str, Result<Tally, String>)>) {
    let checked: Vec<&str> = results.iter().map(|(n, _)| *n).collect();
    let missing: Vec<String> = walker
        .defs()
        .into_iter()
        .filter(|d| !checked.contains(&d.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "{}: $defs without a property test: {missing:?}",
        walker.revision
    );
    let mut total = Tally::default();
    let mut failures = Vec::new();
    for (name, r) in results {
        match r {
            Ok(t) => {
                total.cases += t.cases;
                total.needed_exceptions += t.needed_exceptions;
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    println!(
        "{}: {} instances of {} $defs; {} outputs valid only with the exceptions",
        walker.revision,
        total.cases,
        walker.defs().len(),
        total.needed_exceptions
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn exceptions_are_the_overlay_patches() {
    for (rev, listed) in EXCEPTIONS {
        let overlay = mcp_codegen::__internals::Overlay::builtin(rev).unwrap();
        let patched: Vec<&str> = overlay.patches.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            &patched, listed,
            "{rev}: list every overlay patch as an exception"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// What each patch does to the generated types
// ---------------------------------------------------------------------------------------------

/// JSON-RPC's error for an unreadable request has `"id": null` (patch `JSONRPCError/required`).
#[test]
fn error_responses_without_an_id_are_read() {
    let parse_error =
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}});
    let no_id = json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}});
    macro_rules! each {
        ($($m:ident),*) => {$(
            for text in [&parse_error, &no_id] {
                let e: $m::JSONRPCError = serde_json::from_value(text.clone()).unwrap();
                assert!(e.id.is_none(), "{}", stringify!($m));
                // Read as none, written as none.
                let expected = json!({"jsonrpc": "2.0", "error": text["error"].clone()});
                assert_eq!(serde_json::to_value(&e).unwrap(), expected);
                let m: $m::JSONRPCMessage = serde_json::from_value(text.clone()).unwrap();
                assert_eq!(serde_json::to_value(&m).unwrap(), expected, "{}: {m:?}", stringify!($m));
                assert!(format!("{m:?}").contains("JSONRPCError"), "{}: {m:?}", stringify!($m));
            }
            // A response with an id is still read as one.
            let with_id = json!({"jsonrpc": "2.0", "id": 7, "error": {"code": 1, "message": "m"}});
            let e: $m::JSONRPCError = serde_json::from_value(with_id.clone()).unwrap();
            assert_eq!(serde_json::to_value(&e).unwrap(), with_id);
        )*};
    }
    each!(v2024_11_05, v2025_03_26, v2025_06_18);
}

/// A NumberSchema field's answer may be fractional (patch `ElicitResult` content).
#[test]
fn elicitation_answers_may_be_numbers() {
    let answer =
        json!({"action": "accept", "content": {"ratio": 2.5, "count": 3, "name": "x", "ok": true}});
    let r: v2025_06_18::ElicitResult = serde_json::from_value(answer.clone()).unwrap();
    assert_eq!(
        serde_json::to_value(&r).unwrap(),
        answer,
        "3 stays 3, 2.5 stays 2.5"
    );
    let with_list =
        json!({"action": "accept", "content": {"ratio": 0.25, "count": 3, "tags": ["a", "b"]}});
    let r: v2025_11_25::ElicitResult = serde_json::from_value(with_list.clone()).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), with_list);
    let text = serde_json::to_string(&r).unwrap();
    assert!(
        text.contains(r#""count":3"#) && text.contains(r#""ratio":0.25"#),
        "{text}"
    );
}

/// Levels compare by severity (patch `LoggingLevel/enum`).
#[test]
fn logging_levels_compare_by_severity() {
    macro_rules! each {
        ($($m:ident),*) => {$({
            use $m::LoggingLevel as L;
            let order = [L::Debug, L::Info, L::Notice, L::Warning, L::Error, L::Critical, L::Alert, L::Emergency];
            assert!(order.windows(2).all(|w| w[0] < w[1]), "{}", stringify!($m));
            let read: L = serde_json::from_value(json!("warning")).unwrap();
            assert!(read >= L::Notice && read < L::Error);
        })*};
    }
    each!(v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25);
}

#[test]
fn every_def_round_trips_and_validates_v2024_11_05() {
    let walker = Walker::new("2024-11-05");
    let results = check_all!(walker, v2024_11_05, cases();
    Annotated, BlobResourceContents, CallToolRequest, CallToolResult, CancelledNotification,
    ClientCapabilities, ClientNotification, ClientRequest, ClientResult, CompleteRequest,
    CompleteResult, CreateMessageRequest, CreateMessageResult, Cursor, EmbeddedResource,
    EmptyResult, GetPromptRequest, GetPromptResult, ImageContent, Implementation,
    InitializeRequest, InitializeResult, InitializedNotification, JSONRPCError, JSONRPCMessage,
    JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, ListPromptsRequest, ListPromptsResult,
    ListResourceTemplatesRequest, ListResourceTemplatesResult, ListResourcesRequest,
    ListResourcesResult, ListRootsRequest, ListRootsResult, ListToolsRequest, ListToolsResult,
    LoggingLevel, LoggingMessageNotification, ModelHint, ModelPreferences, Notification,
    PaginatedRequest, PaginatedResult, PingRequest, ProgressNotification, ProgressToken, Prompt,
    PromptArgument, PromptListChangedNotification, PromptMessage, PromptReference,
    ReadResourceRequest, ReadResourceResult, Request, RequestId, Resource, ResourceContents,
    ResourceListChangedNotification, ResourceReference, ResourceTemplate,
    ResourceUpdatedNotification, Result, Role, Root, RootsListChangedNotification,
    SamplingMessage, ServerCapabilities, ServerNotification, ServerRequest, ServerResult,
    SetLevelRequest, SubscribeRequest, TextContent, TextResourceContents, Tool,
    ToolListChangedNotification, UnsubscribeRequest
    );
    finish(&walker, results);
}

#[test]
fn every_def_round_trips_and_validates_v2025_03_26() {
    let walker = Walker::new("2025-03-26");
    let results = check_all!(walker, v2025_03_26, cases();
    Annotations, AudioContent, BlobResourceContents, CallToolRequest, CallToolResult,
    CancelledNotification, ClientCapabilities, ClientNotification, ClientRequest, ClientResult,
    CompleteRequest, CompleteResult, CreateMessageRequest, CreateMessageResult, Cursor,
    EmbeddedResource, EmptyResult, GetPromptRequest, GetPromptResult, ImageContent,
    Implementation, InitializeRequest, InitializeResult, InitializedNotification,
    JSONRPCBatchRequest, JSONRPCBatchResponse, JSONRPCError, JSONRPCMessage,
    JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, ListPromptsRequest, ListPromptsResult,
    ListResourceTemplatesRequest, ListResourceTemplatesResult, ListResourcesRequest,
    ListResourcesResult, ListRootsRequest, ListRootsResult, ListToolsRequest, ListToolsResult,
    LoggingLevel, LoggingMessageNotification, ModelHint, ModelPreferences, Notification,
    PaginatedRequest, PaginatedResult, PingRequest, ProgressNotification, ProgressToken, Prompt,
    PromptArgument, PromptListChangedNotification, PromptMessage, PromptReference,
    ReadResourceRequest, ReadResourceResult, Request, RequestId, Resource, ResourceContents,
    ResourceListChangedNotification, ResourceReference, ResourceTemplate,
    ResourceUpdatedNotification, Result, Role, Root, RootsListChangedNotification,
    SamplingMessage, ServerCapabilities, ServerNotification, ServerRequest, ServerResult,
    SetLevelRequest, SubscribeRequest, TextContent, TextResourceContents, Tool, ToolAnnotations,
    ToolListChangedNotification, UnsubscribeRequest
    );
    finish(&walker, results);
}

#[test]
fn every_def_round_trips_and_validates_v2025_06_18() {
    let walker = Walker::new("2025-06-18");
    let results = check_all!(walker, v2025_06_18, cases();
    Annotations, AudioContent, BaseMetadata, BlobResourceContents, BooleanSchema,
    CallToolRequest, CallToolResult, CancelledNotification, ClientCapabilities,
    ClientNotification, ClientRequest, ClientResult, CompleteRequest, CompleteResult,
    ContentBlock, CreateMessageRequest, CreateMessageResult, Cursor, ElicitRequest,
    ElicitResult, EmbeddedResource, EmptyResult, EnumSchema, GetPromptRequest, GetPromptResult,
    ImageContent, Implementation, InitializeRequest, InitializeResult, InitializedNotification,
    JSONRPCError, JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse,
    ListPromptsRequest, ListPromptsResult, ListResourceTemplatesRequest,
    ListResourceTemplatesResult, ListResourcesRequest, ListResourcesResult, ListRootsRequest,
    ListRootsResult, ListToolsRequest, ListToolsResult, LoggingLevel,
    LoggingMessageNotification, ModelHint, ModelPreferences, Notification, NumberSchema,
    PaginatedRequest, PaginatedResult, PingRequest, PrimitiveSchemaDefinition,
    ProgressNotification, ProgressToken, Prompt, PromptArgument, PromptListChangedNotification,
    PromptMessage, PromptReference, ReadResourceRequest, ReadResourceResult, Request, RequestId,
    Resource, ResourceContents, ResourceLink, ResourceListChangedNotification, ResourceTemplate,
    ResourceTemplateReference, ResourceUpdatedNotification, Result, Role, Root,
    RootsListChangedNotification, SamplingMessage, ServerCapabilities, ServerNotification,
    ServerRequest, ServerResult, SetLevelRequest, StringSchema, SubscribeRequest, TextContent,
    TextResourceContents, Tool, ToolAnnotations, ToolListChangedNotification, UnsubscribeRequest
    );
    finish(&walker, results);
}

#[test]
fn every_def_round_trips_and_validates_v2025_11_25() {
    let walker = Walker::new("2025-11-25");
    let results = check_all!(walker, v2025_11_25, cases();
    Annotations, AudioContent, BaseMetadata, BlobResourceContents, BooleanSchema,
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelTaskRequest, CancelTaskResult,
    CancelledNotification, CancelledNotificationParams, ClientCapabilities, ClientNotification,
    ClientRequest, ClientResult, CompleteRequest, CompleteRequestParams, CompleteResult,
    ContentBlock, CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult,
    CreateTaskResult, Cursor, ElicitRequest, ElicitRequestFormParams, ElicitRequestParams,
    ElicitRequestURLParams, ElicitResult, ElicitationCompleteNotification, EmbeddedResource,
    EmptyResult, EnumSchema, Error, GetPromptRequest, GetPromptRequestParams, GetPromptResult,
    GetTaskPayloadRequest, GetTaskPayloadResult, GetTaskRequest, GetTaskResult, Icon, Icons,
    ImageContent, Implementation, InitializeRequest, InitializeRequestParams, InitializeResult,
    InitializedNotification, JSONRPCErrorResponse, JSONRPCMessage, JSONRPCNotification,
    JSONRPCRequest, JSONRPCResponse, JSONRPCResultResponse, LegacyTitledEnumSchema,
    ListPromptsRequest, ListPromptsResult, ListResourceTemplatesRequest,
    ListResourceTemplatesResult, ListResourcesRequest, ListResourcesResult, ListRootsRequest,
    ListRootsResult, ListTasksRequest, ListTasksResult, ListToolsRequest, ListToolsResult,
    LoggingLevel, LoggingMessageNotification, LoggingMessageNotificationParams, ModelHint,
    ModelPreferences, MultiSelectEnumSchema, Notification, NotificationParams, NumberSchema,
    PaginatedRequest, PaginatedRequestParams, PaginatedResult, PingRequest,
    PrimitiveSchemaDefinition, ProgressNotification, ProgressNotificationParams, ProgressToken,
    Prompt, PromptArgument, PromptListChangedNotification, PromptMessage, PromptReference,
    ReadResourceRequest, ReadResourceRequestParams, ReadResourceResult, RelatedTaskMetadata,
    Request, RequestId, RequestParams, Resource, ResourceContents, ResourceLink,
    ResourceListChangedNotification, ResourceRequestParams, ResourceTemplate,
    ResourceTemplateReference, ResourceUpdatedNotification, ResourceUpdatedNotificationParams,
    Result, Role, Root, RootsListChangedNotification, SamplingMessage,
    SamplingMessageContentBlock, ServerCapabilities, ServerNotification, ServerRequest,
    ServerResult, SetLevelRequest, SetLevelRequestParams, SingleSelectEnumSchema, StringSchema,
    SubscribeRequest, SubscribeRequestParams, Task, TaskAugmentedRequestParams, TaskMetadata,
    TaskStatus, TaskStatusNotification, TaskStatusNotificationParams, TextContent,
    TextResourceContents, TitledMultiSelectEnumSchema, TitledSingleSelectEnumSchema, Tool,
    ToolAnnotations, ToolChoice, ToolExecution, ToolListChangedNotification, ToolResultContent,
    ToolUseContent, URLElicitationRequiredError, UnsubscribeRequest, UnsubscribeRequestParams,
    UntitledMultiSelectEnumSchema, UntitledSingleSelectEnumSchema
    );
    finish(&walker, results);
}

//! Property tests of the 2026-07-28 types against the official schema: for every `$def`,
//! instances made by walking the schema (`proptest_support`) are read by the generated type,
//! written back, and the output validates against the official `schema.json` (the `jsonschema`
//! crate, draft 2020-12) and reads back equal. Every `$def` is covered, so every type that
//! appears in a request, response or notification is.
//!
//! Where the prose overrides the schema (SPEC-NOTES), the generated types follow the prose:
//!
//! - made instances follow the prose where it narrows the schema: `resultType` is `"complete"`
//!   on complete results (or missing: it then reads as complete, A.3) and `"input_required"` on
//!   `InputRequiredResult` (a closed set, A.2), which has `inputRequests` or `requestState` (A.6);
//! - outputs validate against the official schema except where the overlay widens it:
//!   [`EXCEPTIONS`]. There they validate against the patched schema.
//!
//! Cases per `$def`: `MCP_PROPTEST_CASES` (default 32); the random numbers are seeded from the
//! `$def`'s name, so every run makes the same instances.

mod proptest_support;

use mcp_tests::{mcp, raw};
use proptest_support::{Tally, Walker};

/// The overlay's patches, each a place where the prose wins over schema.json: output there may
/// be invalid against the official schema (and must then be valid against the patched one).
const EXCEPTIONS: &[(&str, &str)] = &[
    (
        "/$defs/JSONValue",
        "JSON values carry numbers and null, which JSONValue omits (CallToolResult.structuredContent)",
    ),
    (
        "/$defs/LoggingLevel/enum",
        "the same levels in severity order: changes no instance's validity",
    ),
    (
        "/$defs/ElicitResult/properties/content/additionalProperties/anyOf/1/type",
        "elicitation answers may be fractional numbers (a NumberSchema field of type \"number\")",
    ),
];

fn cases() -> u32 {
    std::env::var("MCP_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(32)
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

#[test]
fn exceptions_are_the_overlay_patches() {
    let overlay = mcp_codegen::__internals::Overlay::builtin("2026-07-28").unwrap();
    let patched: Vec<&str> = overlay.patches.iter().map(|p| p.path.as_str()).collect();
    let listed: Vec<&str> = EXCEPTIONS.iter().map(|(p, _)| *p).collect();
    assert_eq!(
        patched, listed,
        "list every overlay patch as an exception, with its reason"
    );
}

/// A NumberSchema field's answer may be fractional (patch `ElicitResult` content); integers
/// stay integers.
#[test]
fn elicitation_answers_may_be_numbers() {
    let answer = serde_json::json!({
        "action": "accept",
        "content": {"ratio": 2.5, "count": 3, "name": "x", "ok": true, "tags": ["a"]}
    });
    let r: mcp::ElicitResult = serde_json::from_value(answer.clone()).unwrap();
    let text = serde_json::to_string(&r).unwrap();
    assert!(
        text.contains(r#""count":3"#) && text.contains(r#""ratio":2.5"#),
        "{text}"
    );
    assert_eq!(serde_json::to_value(&r).unwrap(), answer);
}

/// An optional member whose schema allows `null` keeps a present `null`: a proxy writes back
/// `"data": null` and `"structuredContent": null` as it read them, and a missing member stays
/// missing.
#[test]
fn present_nulls_are_kept_and_missing_members_stay_missing() {
    for text in [
        r#"{"resultType":"complete","content":[],"structuredContent":null}"#,
        r#"{"resultType":"complete","content":[]}"#,
    ] {
        let r: mcp::CallToolResult = serde_json::from_str(text).unwrap();
        assert_eq!(
            r.structured_content.is_some(),
            text.contains("null"),
            "{text}"
        );
        assert_eq!(serde_json::to_string(&r).unwrap(), text);
    }
    let error = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"m","data":null}}"#;
    let e: mcp::JSONRPCErrorResponse = serde_json::from_str(error).unwrap();
    assert_eq!(e.error.data, Some(serde_json::Value::Null));
    let error: serde_json::Value = serde_json::from_str(error).unwrap();
    assert_eq!(serde_json::to_value(&e).unwrap(), error);
    // A member whose schema does not allow null still reads a `null` as missing.
    let r: mcp::CallToolResult = serde_json::from_str(r#"{"content":[],"isError":null}"#).unwrap();
    assert_eq!(r.is_error, None);
}

/// [`check_all!`] over every `$def` of `$module` (the default module, or the one generated with
/// `raw_json`).
macro_rules! check_every_def {
    ($walker:expr, $module:ident, $cases:expr) => {
        check_all!($walker, $module, $cases;
    Annotations, AudioContent, BaseMetadata, BlobResourceContents, BooleanSchema,
    CacheableResult, CallToolRequest, CallToolRequestParams, CallToolResult,
    CallToolResultResponse, CancelledNotification, CancelledNotificationParams,
    ClientCapabilities, ClientNotification, ClientRequest, ClientResult, CompleteRequest,
    CompleteRequestParams, CompleteResult, CompleteResultResponse, ContentBlock,
    CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult, Cursor,
    DiscoverRequest, DiscoverResult, DiscoverResultResponse, ElicitRequest,
    ElicitRequestFormParams, ElicitRequestParams, ElicitRequestURLParams, ElicitResult,
    EmbeddedResource, EmptyResult, EnumSchema, Error, GetPromptRequest, GetPromptRequestParams,
    GetPromptResult, GetPromptResultResponse, HeaderMismatchError, Icon, Icons, ImageContent,
    Implementation, InputRequest, InputRequests, InputRequiredResult, InputResponse,
    InputResponseRequestParams, InputResponses, InternalError, InvalidParamsError,
    InvalidRequestError, JSONArray, JSONObject, JSONRPCErrorResponse, JSONRPCMessage,
    JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, JSONRPCResultResponse, JSONValue,
    LegacyTitledEnumSchema, ListPromptsRequest, ListPromptsResult, ListPromptsResultResponse,
    ListResourceTemplatesRequest, ListResourceTemplatesResult,
    ListResourceTemplatesResultResponse, ListResourcesRequest, ListResourcesResult,
    ListResourcesResultResponse, ListRootsRequest, ListRootsResult, ListToolsRequest,
    ListToolsResult, ListToolsResultResponse, LoggingLevel, LoggingMessageNotification,
    LoggingMessageNotificationParams, MetaObject, MethodNotFoundError,
    MissingRequiredClientCapabilityError, ModelHint, ModelPreferences, MultiSelectEnumSchema,
    Notification, NotificationMetaObject, NotificationParams, NumberSchema, PaginatedRequest,
    PaginatedRequestParams, PaginatedResult, ParseError, PrimitiveSchemaDefinition,
    ProgressNotification, ProgressNotificationParams, ProgressToken, Prompt, PromptArgument,
    PromptListChangedNotification, PromptMessage, PromptReference, ReadResourceRequest,
    ReadResourceRequestParams, ReadResourceResult, ReadResourceResultResponse, Request,
    RequestId, RequestMetaObject, RequestParams, Resource, ResourceContents, ResourceLink,
    ResourceListChangedNotification, ResourceRequestParams, ResourceTemplate,
    ResourceTemplateReference, ResourceUpdatedNotification, ResourceUpdatedNotificationParams,
    Result, ResultMetaObject, ResultType, Role, Root, SamplingMessage,
    SamplingMessageContentBlock, ServerCapabilities, ServerNotification, ServerResult,
    SingleSelectEnumSchema, StringSchema, SubscriptionFilter,
    SubscriptionsAcknowledgedNotification, SubscriptionsAcknowledgedNotificationParams,
    SubscriptionsListenRequest, SubscriptionsListenRequestParams, SubscriptionsListenResult,
    SubscriptionsListenResultMetaObject, SubscriptionsListenResultResponse, TextContent,
    TextResourceContents, TitledMultiSelectEnumSchema, TitledSingleSelectEnumSchema, Tool,
    ToolAnnotations, ToolChoice, ToolListChangedNotification, ToolResultContent, ToolUseContent,
    UnsupportedProtocolVersionError, UntitledMultiSelectEnumSchema,
    UntitledSingleSelectEnumSchema
        )
    };
}

#[test]
fn every_def_round_trips_and_validates() {
    let walker = Walker::new("2026-07-28");
    let results = check_every_def!(walker, mcp, cases());
    check_coverage_and_report(&walker, results);
}

#[test]
fn every_def_round_trips_and_validates_with_raw_json() {
    let walker = Walker::new("2026-07-28");
    let results = check_every_def!(walker, raw, cases());
    check_coverage_and_report(&walker, results);
}

fn check_coverage_and_report(walker: &Walker, results: Vec<(&str, Result<Tally, String>)>) {
    check_coverage(walker, &results);
    report(walker, results);
}

/// Every `$def` has a property test.
fn check_coverage(walker: &Walker, results: &[(&str, Result<Tally, String>)]) {
    let checked: Vec<&str> = results.iter().map(|(n, _)| *n).collect();
    let missing: Vec<String> = walker
        .defs()
        .into_iter()
        .filter(|d| !checked.contains(&d.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "$defs without a property test: {missing:?}"
    );
}

fn report(walker: &Walker, results: Vec<(&str, Result<Tally, String>)>) {
    let mut total = Tally::default();
    let mut failures = Vec::new();
    for (name, r) in results {
        match r {
            Ok(t) => {
                total.cases += t.cases;
                total.needed_exceptions += t.needed_exceptions;
                total.omitted_result_types += t.omitted_result_types;
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    println!(
        "{}: {} instances of {} $defs; {} outputs valid only with the exceptions; {} inputs without resultType",
        walker.revision,
        total.cases,
        walker.defs().len(),
        total.needed_exceptions,
        total.omitted_result_types
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

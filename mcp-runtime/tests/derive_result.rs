//! `#[derive(McpResult)]`: result structs (fixed and field `resultType`) and outcome enums.
#![deny(warnings)]

mod common;

use common::{assert_error, error, map_len, round_trip, written_keys};
use mcp_runtime::result_type::{INPUT_REQUIRED, accepting};
use mcp_runtime::{Extra, McpResult, McpResultType, Request, ResultType};
use serde_json::{Value, json};

#[derive(Debug, Clone, PartialEq, McpResult)]
struct CallToolResult {
    content: Vec<Value>,
    #[mcp(rename = "isError")]
    is_error: Option<bool>,
    #[mcp(extra)]
    extra: Extra,
}

#[derive(Debug, Clone, PartialEq, McpResult)]
#[mcp(result_type = "input_required")]
#[mcp(at_least_one_of("inputRequests", "requestState"))]
struct InputRequiredResult {
    #[mcp(rename = "inputRequests")]
    input_requests: Option<Extra>,
    #[mcp(rename = "requestState")]
    request_state: Option<String>,
    #[mcp(extra)]
    extra: Extra,
}

/// A result type of an extension.
#[derive(Debug, Clone, PartialEq, McpResult)]
#[mcp(result_type = "com.example/deferred")]
struct DeferredResult {
    ticket: String,
}

/// The schema's base `Result`: any resultType, carried in a field.
#[derive(Debug, Clone, PartialEq, McpResult)]
struct Result {
    #[mcp(result_type)]
    result_type: ResultType,
    #[mcp(rename = "_meta")]
    meta: Option<Extra>,
    #[mcp(extra)]
    extra: Extra,
}

/// Constants and resultType together: resultType is written first.
#[derive(Debug, Clone, PartialEq, McpResult)]
#[mcp(constant(name = "kind", value = "k"))]
struct WithConstant {
    value: u8,
}

struct CallToolRequest;

impl Request for CallToolRequest {
    const METHOD: &'static str = "tools/call";
    type Params = ();
    type Result = MyToolOutcome;
}

impl mcp_runtime::MayRequireInput for CallToolRequest {}

#[derive(Debug, Clone, PartialEq, McpResult)]
#[mcp(request = CallToolRequest)]
enum MyToolOutcome {
    Complete(CallToolResult),
    InputRequired(InputRequiredResult),
}

/// An outcome with an extension variant and variants named by attribute.
#[derive(Debug, Clone, PartialEq, McpResult)]
enum ExtendedOutcome {
    #[mcp(result_type = "complete")]
    Done(CallToolResult),
    #[mcp(result_type = "input_required")]
    NeedsInput(InputRequiredResult),
    #[mcp(result_type = "com.example/deferred")]
    Deferred(DeferredResult),
}

// ---------------------------------------------------------------------------------------------
// Fixed resultType
// ---------------------------------------------------------------------------------------------

#[test]
fn implements_result_type_constant() {
    assert_eq!(CallToolResult::RESULT_TYPE, "complete");
    assert_eq!(InputRequiredResult::RESULT_TYPE, INPUT_REQUIRED);
    assert_eq!(DeferredResult::RESULT_TYPE, "com.example/deferred");
    assert_eq!(WithConstant::RESULT_TYPE, "complete");
}

#[test]
fn writes_result_type_first() {
    let r = CallToolResult {
        content: vec![json!({"type": "text", "text": "hi"})],
        is_error: Some(false),
        extra: Extra::new(),
    };
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#"{"resultType":"complete","content":[{"text":"hi","type":"text"}],"isError":false}"#
    );
    assert_eq!(map_len(&r), (Some(3), 3));
    let w = WithConstant { value: 1 };
    assert_eq!(
        serde_json::to_string(&w).unwrap(),
        r#"{"resultType":"complete","kind":"k","value":1}"#
    );
    let i: InputRequiredResult =
        serde_json::from_str(r#"{"requestState":"s","resultType":"input_required"}"#).unwrap();
    assert_eq!(written_keys(&i), ["resultType", "requestState"]);
}

#[test]
fn missing_result_type_reads_as_complete() {
    let r: CallToolResult = serde_json::from_str(r#"{"content":[]}"#).unwrap();
    assert!(r.content.is_empty());
    // ... which is not what an input_required type is.
    assert_error::<InputRequiredResult>(
        r#"{"requestState":"s"}"#,
        &[
            "missing field `resultType`",
            "InputRequiredResult",
            "\"input_required\"",
        ],
    );
}

#[test]
fn own_value_is_accepted_in_any_position() {
    for json in [
        r#"{"resultType":"complete","content":[]}"#,
        r#"{"content":[],"resultType":"complete"}"#,
        r#"{"content":[],"resultType":"complete","isError":true}"#,
    ] {
        round_trip::<CallToolResult>(json);
    }
    round_trip::<InputRequiredResult>(r#"{"requestState":"s","resultType":"input_required"}"#);
}

#[test]
fn other_values_are_rejected_naming_them() {
    assert_error::<CallToolResult>(
        r#"{"resultType":"input_required","content":[]}"#,
        &[r#"resultType "input_required" is not valid for CallToolResult: expected "complete""#],
    );
    for bad in ["success", "Complete", "", "com.example/deferred"] {
        assert_error::<CallToolResult>(
            &format!(r#"{{"content":[],"resultType":"{bad}"}}"#),
            &[&format!(
                r#"resultType "{bad}" is not valid for CallToolResult"#
            )],
        );
    }
    assert_error::<InputRequiredResult>(
        r#"{"resultType":"complete","requestState":"s"}"#,
        &[
            r#"resultType "complete" is not valid for InputRequiredResult: expected "input_required""#,
        ],
    );
}

#[test]
fn non_string_values_are_rejected_naming_them() {
    assert_error::<CallToolResult>(
        r#"{"resultType":null,"content":[]}"#,
        &["invalid type: null, expected resultType string"],
    );
    assert_error::<CallToolResult>(
        r#"{"resultType":1,"content":[]}"#,
        &["invalid type: integer `1`, expected resultType string"],
    );
    assert_error::<CallToolResult>(
        r#"{"resultType":["complete"],"content":[]}"#,
        &["invalid type: sequence, expected resultType string"],
    );
}

#[test]
fn duplicate_result_type_is_rejected() {
    assert_error::<CallToolResult>(
        r#"{"resultType":"complete","content":[],"resultType":"complete"}"#,
        &["duplicate field `resultType`"],
    );
}

#[test]
fn result_type_is_not_an_extra_member() {
    let r: CallToolResult =
        serde_json::from_str(r#"{"resultType":"complete","content":[],"z":1}"#).unwrap();
    assert_eq!(r.extra.len(), 1);
    assert!(!r.extra.contains_key("resultType"));
}

#[test]
fn extension_types_need_the_client_to_have_advertised_the_extension() {
    let json = r#"{"resultType":"com.example/deferred","ticket":"t1"}"#;
    assert_error::<DeferredResult>(
        json,
        &[
            r#"resultType "com.example/deferred" comes from an extension the client did not advertise"#,
        ],
    );
    let d: DeferredResult = accepting(&["com.example/deferred"], || {
        serde_json::from_str(json).unwrap()
    });
    assert_eq!(d.ticket, "t1");
    assert_eq!(serde_json::to_string(&d).unwrap(), json);
    // Accepted only inside the call.
    assert!(serde_json::from_str::<DeferredResult>(json).is_err());
    // Another extension's value is still wrong for this type.
    let other = accepting(&["com.example/other"], || {
        error::<DeferredResult>(r#"{"resultType":"com.example/other","ticket":"t1"}"#)
    });
    assert!(
        other.contains(r#"resultType "com.example/other" is not valid for DeferredResult: expected "com.example/deferred""#),
        "{other}"
    );
}

// ---------------------------------------------------------------------------------------------
// resultType in a field
// ---------------------------------------------------------------------------------------------

#[test]
fn field_mode_reads_and_writes_the_field_first() {
    let r: Result = serde_json::from_str(r#"{"x":1}"#).unwrap();
    assert_eq!(r.result_type, ResultType::Complete);
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#"{"resultType":"complete","x":1}"#
    );
    let r: Result = serde_json::from_str(r#"{"_meta":{},"resultType":"input_required"}"#).unwrap();
    assert_eq!(r.result_type, ResultType::InputRequired);
    assert_eq!(written_keys(&r), ["resultType", "_meta"]);
    assert_eq!(map_len(&r), (Some(2), 2));
    round_trip::<Result>(r#"{"resultType":"input_required","_meta":{"a":1},"b":[]}"#);
}

#[test]
fn field_mode_validates_through_result_type() {
    assert_error::<Result>(r#"{"resultType":"success"}"#, &["\"success\""]);
    assert_error::<Result>(r#"{"resultType":"Complete"}"#, &["\"Complete\""]);
    assert_error::<Result>(r#"{"resultType":null}"#, &["invalid type: null"]);
    assert_error::<Result>(r#"{"resultType":1}"#, &["invalid type: integer `1`"]);
    assert_error::<Result>(
        r#"{"resultType":"complete","resultType":"complete"}"#,
        &["duplicate field `resultType`"],
    );
    let ext = r#"{"resultType":"com.example/deferred"}"#;
    assert_error::<Result>(ext, &["\"com.example/deferred\""]);
    let r: Result = accepting(&["com.example/deferred"], || {
        serde_json::from_str(ext).unwrap()
    });
    assert_eq!(
        r.result_type,
        ResultType::Extension("com.example/deferred".into())
    );
    assert_eq!(serde_json::to_string(&r).unwrap(), ext);
}

// ---------------------------------------------------------------------------------------------
// Outcome enums
// ---------------------------------------------------------------------------------------------

#[test]
fn outcome_complete_streams_into_the_complete_variant() {
    let o: MyToolOutcome =
        serde_json::from_str(r#"{"resultType":"complete","content":[]}"#).unwrap();
    assert_eq!(
        o,
        MyToolOutcome::Complete(CallToolResult {
            content: vec![],
            is_error: None,
            extra: Extra::new(),
        })
    );
}

#[test]
fn outcome_missing_result_type_is_complete() {
    let o: MyToolOutcome = serde_json::from_str(r#"{"content":[{"a":1}],"isError":true}"#).unwrap();
    let MyToolOutcome::Complete(r) = o else {
        panic!("expected Complete, got {o:?}")
    };
    assert_eq!(r.is_error, Some(true));
    assert_eq!(r.content, [json!({"a": 1})]);
    // Written back with its resultType.
    assert_eq!(
        serde_json::to_string(&MyToolOutcome::Complete(r)).unwrap(),
        r#"{"resultType":"complete","content":[{"a":1}],"isError":true}"#
    );
    // `{}` has no resultType, so it is a CallToolResult, which requires `content`.
    assert_error::<MyToolOutcome>("{}", &["missing field `content`"]);
}

fn empty() -> CallToolResult {
    CallToolResult {
        content: vec![],
        is_error: None,
        extra: Extra::new(),
    }
}

#[test]
fn outcome_input_required_keeps_stray_members_in_extra() {
    let o: MyToolOutcome =
        serde_json::from_str(r#"{"resultType":"input_required","requestState":"s","content":[]}"#)
            .unwrap();
    let MyToolOutcome::InputRequired(r) = &o else {
        panic!("expected InputRequired, got {o:?}")
    };
    assert_eq!(r.request_state.as_deref(), Some("s"));
    assert_eq!(r.extra.get("content"), Some(&json!([])));
    round_trip::<MyToolOutcome>(
        r#"{"resultType":"input_required","requestState":"s","content":[]}"#,
    );
}

#[test]
fn outcome_result_type_may_come_anywhere() {
    for json in [
        r#"{"resultType":"input_required","requestState":"s","inputRequests":{}}"#,
        r#"{"requestState":"s","resultType":"input_required","inputRequests":{}}"#,
        r#"{"requestState":"s","inputRequests":{},"resultType":"input_required"}"#,
    ] {
        let o: MyToolOutcome = serde_json::from_str(json).unwrap();
        let MyToolOutcome::InputRequired(r) = o else {
            panic!("{json}: expected InputRequired")
        };
        assert_eq!(r.request_state.as_deref(), Some("s"));
        assert_eq!(r.input_requests, Some(Extra::new()));
        assert!(r.extra.is_empty());
    }
    for json in [
        r#"{"resultType":"complete","content":[],"isError":false}"#,
        r#"{"content":[],"isError":false,"resultType":"complete"}"#,
    ] {
        let o: MyToolOutcome = serde_json::from_str(json).unwrap();
        assert!(matches!(o, MyToolOutcome::Complete(_)), "{json}");
    }
}

/// Keys sorted, as many writers do: every member arrives before `resultType`, and each goes
/// straight into the variant that declares it.
#[test]
fn outcome_late_result_type_streams_members_into_the_variants() {
    let o: MyToolOutcome =
        round_trip(r#"{"content":[1],"isError":true,"resultType":"complete","z":1}"#);
    let MyToolOutcome::Complete(r) = &o else {
        panic!("expected Complete, got {o:?}")
    };
    assert_eq!((r.content.len(), r.is_error), (1, Some(true)));
    assert_eq!(r.extra.get("z"), Some(&json!(1)));
    // Members read for the variant that was not chosen are kept as extra members of the one
    // that was, a present `null` too.
    let o: MyToolOutcome = round_trip(
        r#"{"content":[1],"isError":null,"requestState":"s","resultType":"input_required"}"#,
    );
    let MyToolOutcome::InputRequired(r) = &o else {
        panic!("expected InputRequired, got {o:?}")
    };
    assert_eq!(r.request_state.as_deref(), Some("s"));
    assert_eq!(r.extra.get("content"), Some(&json!([1])));
    assert_eq!(r.extra.get("isError"), Some(&Value::Null));
    // No resultType at all: complete, with the input-required members as extras.
    let o: MyToolOutcome =
        serde_json::from_str(r#"{"inputRequests":{},"requestState":"s","content":[]}"#).unwrap();
    let MyToolOutcome::Complete(r) = &o else {
        panic!("expected Complete, got {o:?}")
    };
    assert_eq!(r.extra.get("requestState"), Some(&json!("s")));
    // The chosen variant's rules still hold.
    assert_error::<MyToolOutcome>(
        r#"{"content":[],"resultType":"input_required"}"#,
        &["at least one of `inputRequests`, `requestState` must be present"],
    );
    assert_error::<MyToolOutcome>(
        r#"{"requestState":"s","requestState":"t","resultType":"input_required"}"#,
        &["duplicate field `requestState`"],
    );
}

/// Read before `resultType`, a member that one variant declares has that variant's type.
#[test]
fn outcome_member_before_result_type_has_the_declaring_variants_type() {
    assert_error::<MyToolOutcome>(
        r#"{"content":5,"requestState":"s","resultType":"input_required"}"#,
        &["invalid type: integer `5`, expected a sequence"],
    );
    let o: MyToolOutcome =
        round_trip(r#"{"resultType":"input_required","requestState":"s","content":5}"#);
    assert!(matches!(o, MyToolOutcome::InputRequired(_)));
}

#[test]
fn outcome_reads_from_a_value_too() {
    let v = json!({"requestState": "s", "resultType": "input_required", "z": [1]});
    let o: MyToolOutcome = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(serde_json::to_value(&o).unwrap(), v);
}

#[test]
fn outcome_rejects_unknown_values_listing_the_accepted_ones() {
    for bad in ["success", "Complete", "com.example/unknown"] {
        assert_error::<MyToolOutcome>(
            &format!(r#"{{"content":[],"resultType":"{bad}"}}"#),
            &[&format!(
                r#"unknown resultType "{bad}" for MyToolOutcome: expected one of "complete", "input_required""#
            )],
        );
    }
    assert_error::<MyToolOutcome>(
        r#"{"content":[],"resultType":null}"#,
        &["invalid type: null, expected resultType string"],
    );
    assert_error::<MyToolOutcome>(
        r#"{"resultType":1,"content":[]}"#,
        &["invalid type: integer `1`, expected resultType string"],
    );
    assert_error::<MyToolOutcome>(r#"[]"#, &["expected a MyToolOutcome object"]);
}

#[test]
fn outcome_errors_of_the_variant_type_are_reported() {
    // From the replayed buffer (the value went through serde_json::Value) ...
    assert_error::<MyToolOutcome>(
        r#"{"content":5,"resultType":"complete"}"#,
        &["invalid type: integer `5`, expected a sequence"],
    );
    // ... and from the live rest of the map.
    assert_error::<MyToolOutcome>(
        r#"{"resultType":"complete","content":5}"#,
        &["invalid type: integer `5`, expected a sequence"],
    );
    assert_error::<MyToolOutcome>(
        r#"{"resultType":"input_required"}"#,
        &["at least one of `inputRequests`, `requestState` must be present"],
    );
    // A second resultType, after the one that chose the variant.
    assert_error::<MyToolOutcome>(
        r#"{"resultType":"complete","content":[],"resultType":"input_required"}"#,
        &["duplicate field `resultType`"],
    );
    // Duplicates across the buffer and the live map.
    assert_error::<MyToolOutcome>(
        r#"{"content":[],"resultType":"complete","content":[]}"#,
        &["duplicate field `content`"],
    );
}

#[test]
fn outcome_extension_variants_are_chosen_only_when_accepted() {
    let json = r#"{"ticket":"t","resultType":"com.example/deferred"}"#;
    assert_error::<ExtendedOutcome>(
        json,
        &[
            r#"resultType "com.example/deferred" comes from an extension the client did not advertise"#,
            r#""complete", "input_required", "com.example/deferred""#,
        ],
    );
    let o: ExtendedOutcome = accepting(&["com.example/deferred"], || {
        serde_json::from_str(json).unwrap()
    });
    assert_eq!(
        o,
        ExtendedOutcome::Deferred(DeferredResult { ticket: "t".into() })
    );
    assert_eq!(
        serde_json::to_string(&o).unwrap(),
        r#"{"resultType":"com.example/deferred","ticket":"t"}"#
    );
    // Variants named by attribute.
    let o: ExtendedOutcome = serde_json::from_str(r#"{"content":[]}"#).unwrap();
    assert!(matches!(o, ExtendedOutcome::Done(_)));
    let o: ExtendedOutcome =
        serde_json::from_str(r#"{"resultType":"input_required","requestState":"s"}"#).unwrap();
    assert!(matches!(o, ExtendedOutcome::NeedsInput(_)));
    assert_error::<ExtendedOutcome>(
        r#"{"resultType":"com.example/other"}"#,
        &[
            r#"unknown resultType "com.example/other" for ExtendedOutcome: expected one of "complete", "input_required", "com.example/deferred""#,
        ],
    );
}

#[test]
fn outcome_has_from_impls_and_serializes_as_the_inner_value() {
    let inner = InputRequiredResult {
        input_requests: None,
        request_state: Some("s".into()),
        extra: Extra::new(),
    };
    let o: MyToolOutcome = inner.clone().into();
    assert_eq!(o, MyToolOutcome::InputRequired(inner.clone()));
    assert_eq!(
        serde_json::to_value(&o).unwrap(),
        serde_json::to_value(&inner).unwrap()
    );
    let c: MyToolOutcome = empty().into();
    assert!(matches!(c, MyToolOutcome::Complete(_)));
    assert_eq!(map_len(&c), (Some(2), 2));
}

#[test]
fn request_result_is_the_outcome() {
    fn result_of<R: Request>() -> &'static str {
        std::any::type_name::<R::Result>()
    }
    assert!(result_of::<CallToolRequest>().ends_with("MyToolOutcome"));
}

// ---------------------------------------------------------------------------------------------
// Result unions: #[mcp(other)], #[mcp(method = "...")], methods(...) and from_method
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, McpResult)]
struct ListToolsResult {
    tools: Vec<Value>,
    #[mcp(extra)]
    extra: Extra,
}

#[derive(Debug, Clone, PartialEq, McpResult)]
struct GetPromptResult {
    messages: Vec<Value>,
}

/// Like the schema's `ServerResult`: the generic `Result` reads what no variant claims.
#[derive(Debug, Clone, PartialEq, McpResult)]
enum ServerResult {
    #[mcp(other)]
    Result(Result),
    #[mcp(method = "tools/list")]
    ListToolsResult(ListToolsResult),
    #[mcp(method = "tools/call")]
    CallToolResult(CallToolResult),
    #[mcp(methods("prompts/get"))]
    GetPromptResult(GetPromptResult),
    #[mcp(
        result_type = "input_required",
        methods("tools/call", "prompts/get", "resources/read")
    )]
    InputRequiredResult(InputRequiredResult),
    #[mcp(result_type = "com.example/deferred", methods("tools/call"))]
    DeferredResult(DeferredResult),
}

/// A result union without `other`: a result without a method is `Done`, an unknown method an
/// error.
#[derive(Debug, Clone, PartialEq, McpResult)]
enum StrictResult {
    #[mcp(result_type = "complete")]
    Done(CallToolResult),
    #[mcp(method = "tools/list", method = "tools/list2")]
    Tools(ListToolsResult),
    #[mcp(result_type = "input_required", methods("tools/call"))]
    NeedsInput(InputRequiredResult),
}

fn generic(result_type: ResultType, extra: Value) -> ServerResult {
    let Value::Object(extra) = extra else {
        panic!("not an object: {extra}")
    };
    ServerResult::Result(Result {
        result_type,
        meta: None,
        extra,
    })
}

fn input_required(state: &str) -> InputRequiredResult {
    InputRequiredResult {
        input_requests: None,
        request_state: Some(state.into()),
        extra: Extra::new(),
    }
}

fn from_method(method: &str, json: &str) -> serde_json::Result<ServerResult> {
    let value: Value = serde_json::from_str(json).unwrap();
    ServerResult::from_method(method, value)
}

#[track_caller]
fn assert_method_error(method: &str, json: &str, part: &str) {
    match from_method(method, json) {
        Ok(v) => panic!("{method} {json} should not read, got {v:?}"),
        Err(e) => assert!(
            e.to_string().contains(part),
            "{method} {json}: {e} does not contain {part:?}"
        ),
    }
}

#[test]
fn union_reads_input_required_by_result_type_in_any_position() {
    for json in [
        r#"{"resultType":"input_required","requestState":"s"}"#,
        r#"{"requestState":"s","resultType":"input_required"}"#,
    ] {
        let r: ServerResult = round_trip(json);
        assert_eq!(r, ServerResult::InputRequiredResult(input_required("s")));
    }
    // A member only the other variant declares, before the tag, is kept (not lost).
    let r: ServerResult =
        round_trip(r#"{"_meta":{"a":1},"requestState":"s","resultType":"input_required"}"#);
    let ServerResult::InputRequiredResult(ir) = r else {
        panic!("{r:?}")
    };
    assert_eq!(ir.extra["_meta"], json!({"a": 1}));
}

#[test]
fn union_reads_complete_and_missing_result_type_as_the_other_variant() {
    for json in [
        r#"{"resultType":"complete","tools":[]}"#,
        r#"{"tools":[],"resultType":"complete"}"#,
    ] {
        let r: ServerResult = round_trip(json);
        assert_eq!(r, generic(ResultType::Complete, json!({"tools": []})));
    }
    let r: ServerResult = serde_json::from_str(r#"{"tools":[],"x":{"y":null}}"#).unwrap();
    assert_eq!(
        r,
        generic(ResultType::Complete, json!({"tools": [], "x": {"y": null}}))
    );
    assert_eq!(
        serde_json::to_value(&r).unwrap(),
        json!({"resultType": "complete", "tools": [], "x": {"y": null}})
    );
}

#[test]
fn union_reads_unclaimed_extension_values_as_the_other_variant_only_when_accepted() {
    let json = r#"{"ticket":"t","resultType":"com.example/task"}"#;
    assert_error::<ServerResult>(
        json,
        &[r#"invalid resultType "com.example/task""#, "advertised"],
    );
    let r: ServerResult = accepting(&["com.example/task"], || round_trip(json));
    assert_eq!(
        r,
        generic(
            ResultType::Extension("com.example/task".into()),
            json!({"ticket": "t"})
        )
    );
    assert_error::<ServerResult>(
        r#"{"resultType":"success"}"#,
        &[r#"invalid resultType "success""#],
    );
    assert_error::<ServerResult>(
        r#"{"resultType":7}"#,
        &["invalid type: integer `7`, expected resultType string"],
    );
}

#[test]
fn union_reads_a_claimed_extension_value_as_its_variant_only_when_accepted() {
    let json = r#"{"resultType":"com.example/deferred","ticket":"t"}"#;
    assert_error::<ServerResult>(
        json,
        &[
            r#"resultType "com.example/deferred" comes from an extension the client did not advertise"#,
        ],
    );
    let r: ServerResult = accepting(&["com.example/deferred"], || round_trip(json));
    assert_eq!(
        r,
        ServerResult::DeferredResult(DeferredResult { ticket: "t".into() })
    );
}

#[test]
fn union_never_reads_a_method_variant_without_the_method() {
    let r: ServerResult = serde_json::from_str(r#"{"content":[]}"#).unwrap();
    assert!(matches!(r, ServerResult::Result(_)), "{r:?}");
    let r: StrictResult = serde_json::from_str(r#"{"content":[]}"#).unwrap();
    assert!(matches!(r, StrictResult::Done(_)), "{r:?}");
    assert_error::<StrictResult>(r#"{"tools":[]}"#, &["missing field `content`"]);
    let r: StrictResult =
        serde_json::from_str(r#"{"resultType":"input_required","requestState":"s"}"#).unwrap();
    assert_eq!(r, StrictResult::NeedsInput(input_required("s")));
    assert_error::<StrictResult>(
        r#"{"resultType":"com.example/x"}"#,
        &[
            r#"unknown resultType "com.example/x" for StrictResult: expected one of "complete", "input_required""#,
        ],
    );
}

#[test]
fn from_method_reads_a_named_method_as_its_variant() {
    let r = from_method("tools/list", r#"{"tools":[{"name":"t"}],"z":1}"#).unwrap();
    let ServerResult::ListToolsResult(l) = &r else {
        panic!("{r:?}")
    };
    assert_eq!((l.tools.len(), &l.extra["z"]), (1, &json!(1)));
    assert_eq!(
        serde_json::to_value(&r).unwrap(),
        json!({"resultType": "complete", "tools": [{"name": "t"}], "z": 1})
    );
    assert_method_error(
        "tools/list",
        r#"{"resultType":"input_required","tools":[]}"#,
        r#"resultType "input_required" is not valid for ListToolsResult: expected "complete""#,
    );
    assert_method_error("tools/list", r#"{}"#, "missing field `tools`");
}

#[test]
fn from_method_dispatches_a_listed_method_by_result_type() {
    for json in [
        r#"{"content":[]}"#,
        r#"{"content":[],"resultType":"complete"}"#,
        r#"{"resultType":"complete","content":[]}"#,
    ] {
        let r = from_method("tools/call", json).unwrap();
        assert!(matches!(r, ServerResult::CallToolResult(_)), "{r:?}");
    }
    for json in [
        r#"{"requestState":"s","content":[],"resultType":"input_required"}"#,
        r#"{"resultType":"input_required","requestState":"s","content":[]}"#,
    ] {
        let r = from_method("tools/call", json).unwrap();
        let ServerResult::InputRequiredResult(ir) = r else {
            panic!("{r:?}")
        };
        assert_eq!(ir.request_state.as_deref(), Some("s"));
        // A member of the complete result is kept by the input-required one, not dropped.
        assert_eq!(ir.extra["content"], json!([]));
    }
    let r = from_method("prompts/get", r#"{"messages":[]}"#).unwrap();
    assert_eq!(
        r,
        ServerResult::GetPromptResult(GetPromptResult { messages: vec![] })
    );
    let r = from_method(
        "prompts/get",
        r#"{"resultType":"input_required","requestState":"p"}"#,
    )
    .unwrap();
    assert_eq!(r, ServerResult::InputRequiredResult(input_required("p")));
    // Listed on input_required only: complete is the other variant.
    let r = from_method("resources/read", r#"{"contents":[]}"#).unwrap();
    assert_eq!(r, generic(ResultType::Complete, json!({"contents": []})));
    let r = from_method(
        "resources/read",
        r#"{"requestState":"r","resultType":"input_required"}"#,
    )
    .unwrap();
    assert_eq!(r, ServerResult::InputRequiredResult(input_required("r")));
}

#[test]
fn from_method_rejects_values_the_method_cannot_answer() {
    assert_method_error(
        "tools/call",
        r#"{"resultType":"success","content":[]}"#,
        r#"unknown resultType "success" for ServerResult: expected one of "complete", "input_required", "com.example/deferred""#,
    );
    // An extension value: only for the methods its variant lists, and only when accepted.
    let deferred = r#"{"resultType":"com.example/deferred","ticket":"t"}"#;
    assert_method_error(
        "tools/call",
        deferred,
        r#"resultType "com.example/deferred" comes from an extension the client did not advertise"#,
    );
    let r = accepting(&["com.example/deferred"], || {
        from_method("tools/call", deferred)
    })
    .unwrap();
    assert_eq!(
        r,
        ServerResult::DeferredResult(DeferredResult { ticket: "t".into() })
    );
    let err = accepting(&["com.example/deferred"], || {
        from_method("prompts/get", deferred)
    })
    .unwrap_err();
    assert!(
        err.to_string().contains(
            r#"unknown resultType "com.example/deferred" for ServerResult: expected one of "complete", "input_required""#
        ),
        "{err}"
    );
    // (From text: a serde_json::Value cannot hold a repeated member.)
    for json in [
        r#"{"resultType":"complete","resultType":"complete","content":[]}"#,
        r#"{"content":[],"resultType":"input_required","resultType":"input_required"}"#,
    ] {
        let mut de = serde_json::Deserializer::from_str(json);
        let err = ServerResult::from_method("tools/call", &mut de).unwrap_err();
        assert!(
            err.to_string().contains("duplicate field `resultType`"),
            "{json}: {err}"
        );
    }
}

#[test]
fn from_method_reads_any_other_method_as_the_other_variant() {
    let r = from_method("ping", r#"{}"#).unwrap();
    assert_eq!(r, generic(ResultType::Complete, json!({})));
    let r = from_method(
        "completion/complete",
        r#"{"completion":{"values":[]},"x":1}"#,
    )
    .unwrap();
    assert_eq!(
        r,
        generic(
            ResultType::Complete,
            json!({"completion": {"values": []}, "x": 1})
        )
    );
    assert_method_error(
        "ping",
        r#"{"resultType":"success"}"#,
        "invalid resultType \"success\"",
    );
    assert_method_error("ping", "[]", "invalid type: sequence");
}

#[test]
fn from_method_without_other_names_an_unknown_method() {
    let value = json!({"tools": []});
    let err = StrictResult::from_method("ping", value.clone()).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"no variant of StrictResult reads the result of method "ping": expected one of "tools/call", "tools/list", "tools/list2""#
    );
    for method in ["tools/list", "tools/list2"] {
        let r = StrictResult::from_method(method, value.clone()).unwrap();
        assert!(matches!(r, StrictResult::Tools(_)), "{r:?}");
    }
    // A listed method with no variant of its own: complete is the enum's complete variant.
    let r = StrictResult::from_method("tools/call", json!({"content": []})).unwrap();
    assert!(matches!(r, StrictResult::Done(_)), "{r:?}");
    let r = StrictResult::from_method(
        "tools/call",
        json!({"resultType": "input_required", "requestState": "s"}),
    )
    .unwrap();
    assert_eq!(r, StrictResult::NeedsInput(input_required("s")));
}

#[test]
fn from_method_takes_any_deserializer() {
    let mut de =
        serde_json::Deserializer::from_str(r#"{"resultType":"input_required","requestState":"s"}"#);
    let r = ServerResult::from_method("tools/call", &mut de).unwrap();
    de.end().unwrap();
    assert_eq!(r, ServerResult::InputRequiredResult(input_required("s")));
    let mut de = serde_json::Deserializer::from_str(r#"{"tools":[]}"#);
    let r = ServerResult::from_method("tools/list", &mut de).unwrap();
    assert!(matches!(r, ServerResult::ListToolsResult(_)), "{r:?}");
}

#[test]
fn union_round_trips_every_variant_and_converts_from_its_types() {
    let variants = [
        ServerResult::from(ListToolsResult {
            tools: vec![json!({"name": "t"})],
            extra: Extra::new(),
        }),
        ServerResult::from(GetPromptResult { messages: vec![] }),
        ServerResult::from(input_required("s")),
        ServerResult::from(DeferredResult { ticket: "t".into() }),
        generic(ResultType::Complete, json!({"a": 1})),
    ];
    let methods = [
        "tools/list",
        "prompts/get",
        "tools/call",
        "tools/call",
        "ping",
    ];
    for (r, method) in variants.into_iter().zip(methods) {
        let value = serde_json::to_value(&r).unwrap();
        let back = accepting(&["com.example/deferred"], || {
            ServerResult::from_method(method, value.clone())
        })
        .unwrap();
        assert_eq!(back, r, "{method} {value}");
        assert_eq!(serde_json::to_value(&back).unwrap(), value);
    }
}

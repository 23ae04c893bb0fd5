//! `#[derive(McpObject)]`: constants, renames, optional / default / required fields, extra
//! members, `at_least_one_of`, and the error messages.
#![deny(warnings)]

mod common;

use common::{assert_error, map_len, round_trip, written_keys};
use mcp_runtime::{Extra, McpObject};
use serde_json::{Value, json};

/// A JSON-RPC request-like object: two constants, a rename, every kind of field, extras.
#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "jsonrpc", value = "2.0"))]
#[mcp(constant(name = "code", value = -32020))]
struct Message {
    id: i64,
    #[mcp(rename = "methodName")]
    method: String,
    /// A raw identifier: the key is `type`.
    r#type: Option<String>,
    #[mcp(default)]
    tags: Vec<String>,
    #[mcp(extra)]
    extra: Extra,
}

/// No extra field: unknown members are skipped.
#[derive(Debug, Clone, PartialEq, McpObject)]
struct Strict {
    name: String,
    size: Option<u32>,
}

/// An optional constant (elicitation's `mode`: missing means form).
#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "mode", value = "form", optional))]
struct FormRequest {
    message: String,
}

#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(at_least_one_of("inputRequests", "requestState"))]
struct NeedsOne {
    #[mcp(rename = "inputRequests")]
    input_requests: Option<Value>,
    #[mcp(rename = "requestState")]
    request_state: Option<String>,
    other: Option<bool>,
}

/// The schema has a type named `Result`; the generated code must not care.
#[derive(Debug, Clone, PartialEq, McpObject)]
struct Result {
    #[mcp(rename = "_meta")]
    meta: Option<Extra>,
    #[mcp(extra)]
    rest: Extra,
}

/// A unit struct is an empty object.
#[derive(Debug, Clone, PartialEq, McpObject)]
struct Empty;

const FULL: &str = r#"{"jsonrpc":"2.0","code":-32020,"id":7,"methodName":"tools/call","type":"t","tags":["a"],"x-custom":{"deep":[1,2]}}"#;

fn message() -> Message {
    serde_json::from_str(FULL).unwrap()
}

#[test]
fn reads_every_kind_of_field() {
    let m = message();
    assert_eq!(m.id, 7);
    assert_eq!(m.method, "tools/call");
    assert_eq!(m.r#type.as_deref(), Some("t"));
    assert_eq!(m.tags, ["a"]);
    assert_eq!(m.extra.len(), 1);
    assert_eq!(m.extra["x-custom"], json!({"deep": [1, 2]}));
}

#[test]
fn round_trips_losslessly() {
    round_trip::<Message>(FULL);
    round_trip::<Message>(r#"{"jsonrpc":"2.0","code":-32020,"id":1,"methodName":"m","tags":[]}"#);
    round_trip::<Strict>(r#"{"name":"n","size":3}"#);
    round_trip::<FormRequest>(r#"{"mode":"form","message":"hi"}"#);
    round_trip::<Result>(r#"{"_meta":{"k":1},"a":[true],"b":null}"#);
    round_trip::<Empty>("{}");
}

#[test]
fn writes_constants_first_then_fields_in_declaration_order_then_extras() {
    let text = serde_json::to_string(&message()).unwrap();
    assert_eq!(
        text,
        r#"{"jsonrpc":"2.0","code":-32020,"id":7,"methodName":"tools/call","type":"t","tags":["a"],"x-custom":{"deep":[1,2]}}"#
    );
    // Key order of the input does not matter.
    let shuffled: Message = serde_json::from_str(
        r#"{"x-custom":{"deep":[1,2]},"tags":["a"],"type":"t","methodName":"tools/call","id":7,"code":-32020,"jsonrpc":"2.0"}"#,
    )
    .unwrap();
    assert_eq!(shuffled, message());
    assert_eq!(
        written_keys(&shuffled),
        [
            "jsonrpc",
            "code",
            "id",
            "methodName",
            "type",
            "tags",
            "x-custom"
        ]
    );
}

#[test]
fn announces_the_exact_number_of_entries() {
    let m = message();
    assert_eq!(map_len(&m), (Some(7), 7));
    let bare = Message {
        r#type: None,
        extra: Extra::new(),
        ..m
    };
    assert_eq!(map_len(&bare), (Some(5), 5));
    assert_eq!(map_len(&Empty), (Some(0), 0));
}

#[test]
fn option_fields_missing_or_null_are_none_and_none_is_not_written() {
    let s: Strict = serde_json::from_str(r#"{"name":"n"}"#).unwrap();
    assert_eq!(s.size, None);
    let s: Strict = serde_json::from_str(r#"{"name":"n","size":null}"#).unwrap();
    assert_eq!(s.size, None);
    assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"name":"n"}"#);
    let s = Strict {
        name: "n".into(),
        size: Some(0),
    };
    assert_eq!(
        serde_json::to_string(&s).unwrap(),
        r#"{"name":"n","size":0}"#
    );
}

#[test]
fn default_fields_read_as_default_when_missing_and_are_always_written() {
    let m: Message =
        serde_json::from_str(r#"{"jsonrpc":"2.0","code":-32020,"id":1,"methodName":"m"}"#).unwrap();
    assert!(m.tags.is_empty());
    assert_eq!(
        serde_json::to_string(&m).unwrap(),
        r#"{"jsonrpc":"2.0","code":-32020,"id":1,"methodName":"m","tags":[]}"#
    );
}

#[test]
fn required_fields_must_be_present() {
    assert_error::<Message>(
        r#"{"jsonrpc":"2.0","code":-32020,"methodName":"m"}"#,
        &["missing field `id`"],
    );
    // The renamed key is what is reported.
    assert_error::<Message>(
        r#"{"jsonrpc":"2.0","code":-32020,"id":1,"method":"m"}"#,
        &["missing field `methodName`"],
    );
    // A required field may not be null.
    assert_error::<Strict>(
        r#"{"name":null}"#,
        &["invalid type: null", "expected a string"],
    );
}

#[test]
fn constants_must_be_present_and_equal() {
    assert_error::<Message>(
        r#"{"code":-32020,"id":1,"methodName":"m"}"#,
        &["missing field `jsonrpc`"],
    );
    assert_error::<Message>(
        r#"{"jsonrpc":"2.0","id":1,"methodName":"m"}"#,
        &["missing field `code`"],
    );
    assert_error::<Message>(
        r#"{"jsonrpc":"1.0","code":-32020,"id":1,"methodName":"m"}"#,
        &[r#"invalid value for `jsonrpc`: expected "2.0", found "1.0""#],
    );
    assert_error::<Message>(
        r#"{"jsonrpc":"2.0","code":-32000,"id":1,"methodName":"m"}"#,
        &["invalid value for `code`: expected -32020, found -32000"],
    );
    assert_error::<Message>(
        r#"{"jsonrpc":"2.0","code":32020,"id":1,"methodName":"m"}"#,
        &["invalid value for `code`: expected -32020, found 32020"],
    );
}

#[test]
fn constants_of_the_wrong_json_type_are_rejected_with_the_found_value() {
    for (found, shown) in [
        ("2", "found 2"),
        ("2.0", "found 2.0"),
        ("null", "found null"),
        ("true", "found true"),
        ("[]", "found an array"),
        (r#"{"v":"2.0"}"#, "found an object"),
    ] {
        let json = format!(r#"{{"jsonrpc":{found},"code":-32020,"id":1,"methodName":"m"}}"#);
        assert_error::<Message>(
            &json,
            &[r#"invalid value for `jsonrpc`: expected "2.0""#, shown],
        );
    }
    assert_error::<Message>(
        r#"{"jsonrpc":"2.0","code":"-32020","id":1,"methodName":"m"}"#,
        &[r#"invalid value for `code`: expected -32020, found "-32020""#],
    );
}

#[test]
fn optional_constants_may_be_missing_but_not_wrong() {
    let f: FormRequest = serde_json::from_str(r#"{"message":"hi"}"#).unwrap();
    assert_eq!(f.message, "hi");
    // Always written.
    assert_eq!(
        serde_json::to_string(&f).unwrap(),
        r#"{"mode":"form","message":"hi"}"#
    );
    assert_error::<FormRequest>(
        r#"{"mode":"url","message":"hi"}"#,
        &[r#"invalid value for `mode`: expected "form", found "url""#],
    );
}

#[test]
fn duplicate_keys_are_rejected() {
    assert_error::<Strict>(r#"{"name":"a","name":"b"}"#, &["duplicate field `name`"]);
    assert_error::<Strict>(
        r#"{"name":"a","size":null,"size":1}"#,
        &["duplicate field `size`"],
    );
    assert_error::<Message>(
        r#"{"jsonrpc":"2.0","jsonrpc":"2.0","code":-32020,"id":1,"methodName":"m"}"#,
        &["duplicate field `jsonrpc`"],
    );
    assert_error::<Message>(
        r#"{"jsonrpc":"2.0","code":-32020,"id":1,"methodName":"m","x":1,"x":2}"#,
        &["duplicate field `x`"],
    );
}

#[test]
fn without_an_extra_field_unknown_members_are_skipped() {
    let s: Strict =
        serde_json::from_str(r#"{"future":{"a":[1,{"b":null}]},"name":"n","more":"x"}"#).unwrap();
    assert_eq!(
        s,
        Strict {
            name: "n".into(),
            size: None
        }
    );
    assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"name":"n"}"#);
}

#[test]
fn extras_never_repeat_a_declared_key_when_written() {
    let mut m = message();
    m.extra.insert("id".into(), json!("shadow"));
    m.extra.insert("jsonrpc".into(), json!("shadow"));
    let text = serde_json::to_string(&m).unwrap();
    assert_eq!(text.matches("\"id\"").count(), 1, "{text}");
    assert_eq!(text.matches("\"jsonrpc\"").count(), 1, "{text}");
    assert!(!text.contains("shadow"), "{text}");
    assert_eq!(map_len(&m), (Some(7), 7));
}

#[test]
fn at_least_one_of_the_listed_members_is_required() {
    assert_error::<NeedsOne>(
        r#"{"other":true}"#,
        &["at least one of `inputRequests`, `requestState` must be present"],
    );
    // null counts as absent.
    assert_error::<NeedsOne>(
        r#"{"inputRequests":null}"#,
        &["at least one of `inputRequests`, `requestState` must be present"],
    );
    round_trip::<NeedsOne>(r#"{"requestState":"s"}"#);
    round_trip::<NeedsOne>(r#"{"inputRequests":{}}"#);
}

#[test]
fn only_objects_are_accepted() {
    assert_error::<Strict>(
        r#""name""#,
        &["invalid type: string", "expected a Strict object"],
    );
    assert_error::<Strict>("[1]", &["expected a Strict object"]);
    assert_error::<Empty>("null", &["expected an Empty object"]);
}

#[test]
fn reads_from_a_value_and_from_borrowed_or_owned_keys() {
    // serde_json::Value hands out owned keys (visit_string); text hands out borrowed ones.
    let value: Value = serde_json::from_str(FULL).unwrap();
    let m: Message = serde_json::from_value(value).unwrap();
    assert_eq!(m, message());
    let bytes: Message = serde_json::from_slice(FULL.as_bytes()).unwrap();
    assert_eq!(bytes, message());
    let reader: Message = serde_json::from_reader(FULL.as_bytes()).unwrap();
    assert_eq!(reader, message());
}

//! `#[derive(McpUnion)]`: unions by tag, by JSON type and by shape.
#![deny(warnings)]

mod common;

use common::{assert_error, round_trip, written_keys};
use mcp_runtime::{Extra, McpObject, McpUnion};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// By tag
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "type", value = "text"))]
struct TextContent {
    text: String,
    #[mcp(extra)]
    extra: Extra,
}

#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "type", value = "image"))]
struct ImageContent {
    data: String,
    #[mcp(rename = "mimeType")]
    mime_type: String,
}

#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "type", value = "audio"))]
struct AudioContent {
    data: String,
}

#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(tag = "type")]
enum ContentBlock {
    #[mcp(tag_value = "text")]
    Text(TextContent),
    #[mcp(tag_value = "image")]
    Image(ImageContent),
    #[mcp(tag_value = "audio")]
    Audio(AudioContent),
}

/// Elicitation: a missing `mode` means form.
#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "mode", value = "form", optional))]
struct FormParams {
    message: String,
}

#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "mode", value = "url"))]
struct UrlParams {
    url: String,
}

#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(tag = "mode")]
enum ElicitParams {
    #[mcp(tag_value = "form", default)]
    Form(FormParams),
    #[mcp(tag_value = "url")]
    Url(UrlParams),
}

#[test]
fn tag_selects_the_variant_wherever_it_is() {
    for json in [
        r#"{"type":"image","data":"AA==","mimeType":"image/png"}"#,
        r#"{"data":"AA==","type":"image","mimeType":"image/png"}"#,
        r#"{"data":"AA==","mimeType":"image/png","type":"image"}"#,
    ] {
        let c: ContentBlock = serde_json::from_str(json).unwrap();
        assert_eq!(
            c,
            ContentBlock::Image(ImageContent {
                data: "AA==".into(),
                mime_type: "image/png".into()
            }),
            "{json}"
        );
    }
}

#[test]
fn tag_round_trips_and_writes_the_tag_first() {
    let c = round_trip::<ContentBlock>(r#"{"type":"text","text":"hi","annotations":{"a":1}}"#);
    assert_eq!(written_keys(&c), ["type", "text", "annotations"]);
    let ContentBlock::Text(t) = &c else {
        panic!("expected Text")
    };
    // The tag was replayed to the variant type (which checks it as its constant) and is not
    // an extra member.
    assert_eq!(t.extra.len(), 1);
    round_trip::<ContentBlock>(r#"{"data":"x","type":"audio"}"#);
}

#[test]
fn tag_unknown_missing_or_not_a_string_is_an_error() {
    assert_error::<ContentBlock>(
        r#"{"type":"foo","text":"hi"}"#,
        &[r#"unknown `type` "foo": expected one of "text", "image", "audio""#],
    );
    assert_error::<ContentBlock>(r#"{"text":"hi"}"#, &["missing field `type`"]);
    assert_error::<ContentBlock>(
        r#"{"type":1,"text":"hi"}"#,
        &["invalid type: integer `1`, expected `type` string"],
    );
    assert_error::<ContentBlock>(r#""text""#, &["expected a ContentBlock object"]);
    // The variant type's own errors come through.
    assert_error::<ContentBlock>(
        r#"{"type":"image","data":"x"}"#,
        &["missing field `mimeType`"],
    );
    assert_error::<ContentBlock>(
        r#"{"data":7,"type":"audio"}"#,
        &["invalid type: integer `7`, expected a string"],
    );
    assert_error::<ContentBlock>(
        r#"{"type":"text","text":"a","type":"text"}"#,
        &["duplicate field `type`"],
    );
}

/// Before the tag, each member goes to the one variant type that declares it (read as its
/// type), or is kept as JSON when several or none do; the chosen variant gets all of them.
#[test]
fn tag_after_the_members_streams_them_into_the_variants() {
    // `text` only Text declares; `mimeType` only Image: kept for Text as an extra member.
    let c: ContentBlock =
        round_trip(r#"{"mimeType":"image/png","text":"hi","type":"text","z":[1]}"#);
    let ContentBlock::Text(t) = &c else {
        panic!("expected Text, got {c:?}")
    };
    assert_eq!(t.text, "hi");
    assert_eq!(t.extra.get("mimeType"), Some(&json!("image/png")));
    assert_eq!(t.extra.get("z"), Some(&json!([1])));
    // `data` both Image and Audio declare: kept as JSON, then read by the one chosen.
    let c: ContentBlock = round_trip(r#"{"data":"AA==","type":"audio"}"#);
    assert_eq!(
        c,
        ContentBlock::Audio(AudioContent {
            data: "AA==".into()
        })
    );
    // Image has no extra field: what it does not declare is dropped, as when it streams.
    let c: ContentBlock =
        serde_json::from_str(r#"{"data":"AA==","mimeType":"image/png","text":"t","type":"image"}"#)
            .unwrap();
    assert!(matches!(c, ContentBlock::Image(_)), "{c:?}");
    // Duplicates are found across what was read before and after the choice.
    assert_error::<ContentBlock>(
        r#"{"text":"a","type":"text","text":"b"}"#,
        &["duplicate field `text`"],
    );
    assert_error::<ContentBlock>(
        r#"{"data":"a","type":"audio","data":"b"}"#,
        &["duplicate field `data`"],
    );
    // With no tag, the default variant gets everything.
    let e: ElicitParams = serde_json::from_str(r#"{"message":"m","url":"u"}"#).unwrap();
    assert_eq!(
        e,
        ElicitParams::Form(FormParams {
            message: "m".into()
        })
    );
}

/// A member kept before the tag and handed to the chosen variant fails as it would have when
/// read in place: the message is the member's, positioned once (in the input, not in the
/// member's own JSON).
#[test]
fn tag_after_a_kept_member_reports_its_error_once() {
    let e = serde_json::from_str::<ContentBlock>(r#"{"data":7,"type":"audio"}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid type: integer `7`, expected a string at line 1 column 25"
    );
}

/// The one known cost of reading in one pass: a member that only one variant declares, read
/// before the tag, must have that variant's type even when another variant is chosen (after
/// the tag it is just an extra member of the chosen one).
#[test]
fn tag_after_a_member_reads_it_as_the_type_of_the_variant_that_declares_it() {
    assert_error::<ContentBlock>(
        r#"{"mimeType":7,"text":"hi","type":"text"}"#,
        &["invalid type: integer `7`, expected a string"],
    );
    let c: ContentBlock = round_trip(r#"{"type":"text","mimeType":7,"text":"hi"}"#);
    assert!(matches!(c, ContentBlock::Text(_)));
}

#[test]
fn tag_default_variant_is_read_when_the_tag_is_missing() {
    let e: ElicitParams = serde_json::from_str(r#"{"message":"hi"}"#).unwrap();
    assert_eq!(
        e,
        ElicitParams::Form(FormParams {
            message: "hi".into()
        })
    );
    // Written with its mode.
    assert_eq!(
        serde_json::to_string(&e).unwrap(),
        r#"{"mode":"form","message":"hi"}"#
    );
    let e: ElicitParams = serde_json::from_str(r#"{"url":"u","mode":"url"}"#).unwrap();
    assert!(matches!(e, ElicitParams::Url(_)));
    // Missing mode is form, and a form lacks `message` here.
    assert_error::<ElicitParams>(r#"{"url":"u"}"#, &["missing field `message`"]);
    assert_error::<ElicitParams>(
        r#"{"mode":"sms"}"#,
        &[r#"unknown `mode` "sms": expected one of "form", "url""#],
    );
}

/// The tag is replayed as a string value that reads like JSON: here into an `Option` field
/// (the generator turns optional constants into one-value enum fields).
#[derive(Debug, Clone, PartialEq, McpObject)]
struct LooseForm {
    mode: Option<String>,
    message: String,
}

#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(tag = "mode")]
enum LooseElicit {
    #[mcp(tag_value = "form", default)]
    Form(LooseForm),
    #[mcp(tag_value = "url")]
    Url(UrlParams),
}

#[test]
fn tag_value_is_replayed_like_a_json_string() {
    for json in [
        r#"{"mode":"form","message":"m"}"#,
        r#"{"message":"m","mode":"form"}"#,
    ] {
        let e: LooseElicit = serde_json::from_str(json).unwrap();
        assert_eq!(
            e,
            LooseElicit::Form(LooseForm {
                mode: Some("form".into()),
                message: "m".into()
            }),
            "{json}"
        );
    }
    let e: LooseElicit = round_trip(r#"{"message":"m"}"#);
    assert!(matches!(e, LooseElicit::Form(LooseForm { mode: None, .. })));
}

#[test]
fn tag_unions_have_from_impls() {
    let c: ContentBlock = AudioContent { data: "d".into() }.into();
    assert!(matches!(c, ContentBlock::Audio(_)));
    let e: ElicitParams = UrlParams { url: "u".into() }.into();
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"mode": "url", "url": "u"})
    );
}

// ---------------------------------------------------------------------------------------------
// By JSON type
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq, Hash, McpUnion)]
#[mcp(by_json_type)]
enum RequestId {
    #[mcp(json = "string")]
    String(String),
    #[mcp(json = "integer")]
    Integer(i64),
}

/// Every JSON type once; `number` does not take integers because `integer` exists.
#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(by_json_type)]
enum Any {
    #[mcp(json = "string")]
    S(String),
    #[mcp(json = "integer")]
    I(i64),
    #[mcp(json = "number")]
    N(f64),
    #[mcp(json = "boolean")]
    B(bool),
    #[mcp(json = "array")]
    A(Vec<Value>),
    #[mcp(json = "object")]
    O(Extra),
    #[mcp(json = "null")]
    Null(()),
}

/// `number` without `integer`: integers are numbers.
#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(by_json_type)]
enum Progress {
    #[mcp(json = "number")]
    Number(f64),
    #[mcp(json = "string")]
    Text(String),
}

/// An object variant that is itself a derived object.
#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(by_json_type)]
enum TextOrContent {
    #[mcp(json = "string")]
    Plain(String),
    #[mcp(json = "object")]
    Block(TextContent),
    #[mcp(json = "array")]
    Many(Vec<TextOrContent>),
}

#[test]
fn json_type_selects_the_variant() {
    assert_eq!(
        serde_json::from_str::<RequestId>(r#""abc""#).unwrap(),
        RequestId::String("abc".into())
    );
    assert_eq!(
        serde_json::from_str::<RequestId>("42").unwrap(),
        RequestId::Integer(42)
    );
    assert_eq!(
        serde_json::from_str::<RequestId>("-7").unwrap(),
        RequestId::Integer(-7)
    );
    round_trip::<RequestId>(r#""a\"b""#);
    round_trip::<RequestId>("0");
    // From a Value (owned strings) too.
    assert_eq!(
        serde_json::from_value::<RequestId>(json!("x")).unwrap(),
        RequestId::String("x".into())
    );
}

#[test]
fn json_type_covers_every_type() {
    let cases = [
        (r#""s""#, Any::S("s".into())),
        ("1", Any::I(1)),
        ("1.5", Any::N(1.5)),
        ("true", Any::B(true)),
        ("[1,\"a\"]", Any::A(vec![json!(1), json!("a")])),
        (
            r#"{"k":null}"#,
            Any::O(json!({"k": null}).as_object().unwrap().clone()),
        ),
        ("null", Any::Null(())),
    ];
    for (json, expected) in cases {
        assert_eq!(round_trip::<Any>(json), expected, "{json}");
    }
}

#[test]
fn number_takes_integers_when_there_is_no_integer_variant() {
    assert_eq!(
        serde_json::from_str::<Progress>("3").unwrap(),
        Progress::Number(3.0)
    );
    assert_eq!(
        serde_json::from_str::<Progress>("-3").unwrap(),
        Progress::Number(-3.0)
    );
    assert_eq!(
        serde_json::from_str::<Progress>("0.25").unwrap(),
        Progress::Number(0.25)
    );
}

#[test]
fn json_type_errors_name_the_expected_types() {
    assert_error::<RequestId>(
        "1.5",
        &["invalid type: floating point `1.5`, expected a JSON string or integer (RequestId)"],
    );
    assert_error::<RequestId>(
        "null",
        &["invalid type: null", "string or integer (RequestId)"],
    );
    assert_error::<RequestId>("[]", &["invalid type: sequence", "string or integer"]);
    assert_error::<RequestId>("{}", &["invalid type: map", "string or integer"]);
    assert_error::<Progress>("true", &["expected a JSON string or number (Progress)"]);
    assert_error::<TextOrContent>(
        "1",
        &["expected a JSON string, array or object (TextOrContent)"],
    );
}

#[test]
fn json_type_arrays_and_objects_stream_into_their_types() {
    let v = round_trip::<TextOrContent>(r#"["a",{"type":"text","text":"b"},["c"]]"#);
    assert_eq!(
        v,
        TextOrContent::Many(vec![
            TextOrContent::Plain("a".into()),
            TextOrContent::Block(TextContent {
                text: "b".into(),
                extra: Extra::new()
            }),
            TextOrContent::Many(vec![TextOrContent::Plain("c".into())]),
        ])
    );
    assert_error::<TextOrContent>(
        r#"{"type":"image","text":"b"}"#,
        &[r#"invalid value for `type`: expected "text", found "image""#],
    );
    let id: RequestId = 5.into();
    assert_eq!(id, RequestId::Integer(5));
}

// ---------------------------------------------------------------------------------------------
// By shape
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "type", value = "string"))]
struct StringSchema {
    #[mcp(rename = "minLength")]
    min_length: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "type", value = "string"))]
struct EnumSchema {
    #[mcp(rename = "enum")]
    values: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "type", value = "string"))]
struct TitledEnumSchema {
    #[mcp(rename = "enum")]
    values: Vec<String>,
    #[mcp(rename = "enumNames")]
    names: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, McpObject)]
struct NumberSchema {
    r#type: String,
    minimum: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, McpObject)]
struct BooleanSchema {
    r#type: String,
    default: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(by_shape)]
enum PrimitiveSchemaDefinition {
    #[mcp(
        when(key = "type", equals = "string"),
        when(has = "enum"),
        when(lacks = "enumNames")
    )]
    Enum(EnumSchema),
    #[mcp(when(key = "type", equals = "string"), when(has = "enum"))]
    TitledEnum(TitledEnumSchema),
    #[mcp(when(key = "type", equals = "string"))]
    String(StringSchema),
    #[mcp(when(key = "type", one_of("integer", "number")))]
    Number(NumberSchema),
    #[mcp(when(key = "type", equals = "boolean"))]
    Boolean(BooleanSchema),
}

/// Non-string predicates, and a catch-all variant (no predicates).
#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(by_shape)]
enum Versioned {
    #[mcp(when(key = "v", equals = 2), when(key = "beta", equals = true))]
    V2Beta(Extra),
    #[mcp(when(key = "v", equals = -1))]
    Legacy(Extra),
    Other(Extra),
}

#[test]
fn shape_picks_the_first_variant_whose_predicates_hold() {
    let s: PrimitiveSchemaDefinition = round_trip(r#"{"type":"string","enum":["a","b"]}"#);
    assert!(matches!(s, PrimitiveSchemaDefinition::Enum(_)), "{s:?}");
    let s: PrimitiveSchemaDefinition =
        round_trip(r#"{"type":"string","enum":["a"],"enumNames":["A"]}"#);
    assert!(
        matches!(s, PrimitiveSchemaDefinition::TitledEnum(_)),
        "{s:?}"
    );
    let s: PrimitiveSchemaDefinition = round_trip(r#"{"type":"string","minLength":2}"#);
    assert!(matches!(s, PrimitiveSchemaDefinition::String(_)), "{s:?}");
    for t in ["integer", "number"] {
        let s: PrimitiveSchemaDefinition =
            round_trip(&format!(r#"{{"type":"{t}","minimum":0.5}}"#));
        assert!(matches!(s, PrimitiveSchemaDefinition::Number(_)), "{s:?}");
    }
    let s: PrimitiveSchemaDefinition = round_trip(r#"{"default":true,"type":"boolean"}"#);
    assert!(matches!(s, PrimitiveSchemaDefinition::Boolean(_)), "{s:?}");
}

#[test]
fn shape_with_no_match_lists_the_variants() {
    assert_error::<PrimitiveSchemaDefinition>(
        r#"{"type":"object"}"#,
        &[
            "no variant of PrimitiveSchemaDefinition matches this object",
            r#"Enum (`type` is "string", has `enum`, lacks `enumNames`)"#,
            r#"Number (`type` is one of "integer", "number")"#,
            r#"Boolean (`type` is "boolean")"#,
        ],
    );
    assert_error::<PrimitiveSchemaDefinition>(
        r#""string""#,
        &["invalid type: string \"string\", expected a JSON object (PrimitiveSchemaDefinition)"],
    );
    assert_error::<PrimitiveSchemaDefinition>("null", &["invalid type: null"]);
    // The chosen variant's errors come through.
    assert_error::<PrimitiveSchemaDefinition>(
        r#"{"type":"string","minLength":"two"}"#,
        &["invalid type: string \"two\", expected u32"],
    );
    assert_error::<PrimitiveSchemaDefinition>(
        r#"{"type":"string","type":"string"}"#,
        &["duplicate field `type`"],
    );
}

#[test]
fn shape_predicates_compare_integers_and_booleans_and_an_empty_list_matches_anything() {
    let v: Versioned = serde_json::from_str(r#"{"beta":true,"v":2}"#).unwrap();
    assert!(matches!(v, Versioned::V2Beta(_)));
    let v: Versioned = serde_json::from_str(r#"{"v":-1}"#).unwrap();
    assert!(matches!(v, Versioned::Legacy(_)));
    for other in [r#"{"v":2}"#, r#"{"v":"2","beta":true}"#, "{}"] {
        let v: Versioned = serde_json::from_str(other).unwrap();
        assert!(matches!(v, Versioned::Other(_)), "{other}");
    }
}

#[test]
fn shape_unions_have_from_impls() {
    let s: PrimitiveSchemaDefinition = StringSchema { min_length: None }.into();
    assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"type":"string"}"#);
}

/// Predicates may look into nested objects with `/`.
#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(by_shape)]
enum MultiSelect {
    #[mcp(when(key = "type", equals = "array"), when(has = "items/enum"))]
    Untitled(Extra),
    #[mcp(when(key = "type", equals = "array"), when(has = "items/anyOf"))]
    Titled(Extra),
}

#[test]
fn shape_predicates_follow_slash_paths() {
    let m: MultiSelect = round_trip(r#"{"type":"array","items":{"type":"string","enum":["a"]}}"#);
    assert!(matches!(m, MultiSelect::Untitled(_)));
    let m: MultiSelect = round_trip(r#"{"type":"array","items":{"anyOf":[]}}"#);
    assert!(matches!(m, MultiSelect::Titled(_)));
    assert_error::<MultiSelect>(
        r#"{"type":"array","items":{}}"#,
        &["Untitled (`type` is \"array\", has `items/enum`)"],
    );
}

//! The generated code is clean under strict lints, with a type named `Result`, raw
//! identifiers, and nothing but `mcp_runtime` (and `serde_json` for `main`) in scope.
#![deny(
    warnings,
    rust_2018_idioms,
    unused_qualifications,
    unreachable_pub,
    missing_docs,
    unused_results,
    trivial_casts,
    trivial_numeric_casts,
    unused_extern_crates,
    clippy::all,
    clippy::pedantic
)]
#![forbid(unsafe_code)]

use mcp_runtime::{Extra, McpObject, McpResult, McpUnion, ResultType};

/// A result with its resultType in a field, named like the schema's base type.
#[derive(Debug, Clone, PartialEq, McpResult)]
pub struct Result {
    /// The resultType.
    #[mcp(result_type)]
    pub result_type: ResultType,
    /// Undeclared members.
    #[mcp(extra)]
    pub extra: Extra,
}

/// A text block.
#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "type", value = "text"), constant(name = "v", value = -1))]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// A raw identifier.
    pub r#type2: Option<String>,
    /// Defaulted.
    #[mcp(default)]
    pub r#ref: Vec<u8>,
}

/// Tagged.
#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(tag = "type")]
pub enum Content {
    /// Text.
    #[mcp(tag_value = "text", default)]
    Text(TextContent),
}

/// By JSON type, every type.
#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(by_json_type)]
pub enum Any {
    /// A string.
    #[mcp(json = "string")]
    S(String),
    /// A number (integers too).
    #[mcp(json = "number")]
    N(f64),
    /// A boolean.
    #[mcp(json = "boolean")]
    B(bool),
    /// An array.
    #[mcp(json = "array")]
    A(Vec<Any>),
    /// An object.
    #[mcp(json = "object")]
    O(Box<Content>),
    /// Null.
    #[mcp(json = "null")]
    Null(()),
}

/// By shape.
#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(by_shape)]
pub enum Shape {
    /// Has text.
    #[mcp(
        when(has = "text"),
        when(key = "n", equals = 1),
        when(key = "b", equals = true)
    )]
    Text(Extra),
    /// Anything else.
    Other(Result),
}

/// A fixed result.
#[derive(Debug, Clone, PartialEq, McpResult)]
#[mcp(result_type = "input_required", at_least_one_of("requestState"))]
pub struct InputRequiredResult {
    /// State.
    #[mcp(rename = "requestState")]
    pub request_state: Option<String>,
}

/// A fixed complete result.
#[derive(Debug, Clone, PartialEq, McpResult)]
pub struct Done {}

/// An outcome with an extension variant.
#[derive(Debug, Clone, PartialEq, McpResult)]
pub enum Outcome {
    /// Complete.
    Complete(Done),
    /// Input required.
    InputRequired(InputRequiredResult),
    /// An extension.
    #[mcp(result_type = "com.example/x")]
    Ext(Ext),
}

/// An extension's result.
#[derive(Debug, Clone, PartialEq, McpResult)]
#[mcp(result_type = "com.example/x")]
pub struct Ext {}

/// A result union, as the generator writes `ServerResult`.
#[derive(Debug, Clone, PartialEq, McpResult)]
pub enum ServerResult {
    /// Any other result.
    #[mcp(other)]
    Result(Result),
    /// A method's complete result.
    #[mcp(method = "a/done")]
    Done(Done),
    /// Input required.
    #[mcp(result_type = "input_required", methods("a/done", "b"))]
    InputRequired(InputRequiredResult),
    /// An extension, for one method.
    #[mcp(result_type = "com.example/x", methods("a/done"))]
    Ext(Ext),
}

fn main() {
    let a: Any =
        serde_json::from_str(r#"[1, "a", true, null, {"v": -1, "text": "t", "type": "text"}]"#)
            .unwrap();
    assert!(matches!(a, Any::A(ref v) if v.len() == 5));
    let o: Outcome =
        serde_json::from_str(r#"{"requestState":"s","resultType":"input_required"}"#).unwrap();
    assert!(matches!(o, Outcome::InputRequired(_)));
    let s: Shape = serde_json::from_str("{}").unwrap();
    assert!(matches!(s, Shape::Other(_)));
    let r = ServerResult::from_method("b", serde_json::json!({"requestState": "s", "resultType": "input_required"}))
        .unwrap();
    assert!(matches!(r, ServerResult::InputRequired(_)));
    let r: ServerResult = serde_json::from_str("{}").unwrap();
    assert!(matches!(r, ServerResult::Result(_)));
}

//! Derive macros for the Model Context Protocol's JSON types: [`McpObject`](macro@McpObject),
//! [`McpResult`](macro@McpResult) and [`McpUnion`](macro@McpUnion).
//!
//! Use them through `mcp_runtime`, which re-exports them and holds what the generated code
//! calls (`mcp_runtime::__private::de`, `mcp_runtime::result_type`). The generated code names nothing but
//! `::mcp_runtime::…` and `::core::…`, so a crate that uses the derives needs only
//! `mcp_runtime` as a dependency; it is warning-free under `#![deny(warnings)]` and clippy, and
//! does not mind a type of the crate being called `Result` or a field being a raw identifier
//! (`r#type`). A crate that re-exports `mcp_runtime` under another path says so with
//! `#[mcp(crate = "path::to::mcp_runtime")]` on the type.
//!
//! All three derives read one attribute, `#[mcp(...)]`:
//!
//! | where | key | derive | meaning |
//! | --- | --- | --- | --- |
//! | struct | `constant(name = "k", value = "v" \| 1 [, optional])` | McpObject, McpResult | member `k` always has value `v` (repeatable) |
//! | struct | `at_least_one_of("a", "b", ...)` | McpObject, McpResult | one of these `Option` members must be present |
//! | struct | `result_type = "..."` | McpResult | the struct's fixed `resultType` (default `"complete"`) |
//! | field | `rename = "jsonName"` | McpObject, McpResult | the JSON key (default: the field name without `r#`) |
//! | field | `default` | McpObject, McpResult | missing reads as `Default::default()` |
//! | field | `extra` | McpObject, McpResult | an `::mcp_runtime::Extra` that keeps undeclared members |
//! | field | `keep_null` | McpObject, McpResult | on `Option<T>`: a present `null` reads as `Some(T)`, not `None` |
//! | field | `result_type` | McpResult | a `::mcp_runtime::ResultType` field carries `resultType` |
//! | enum | `request = Path` | McpResult | the request the outcome answers (checked at compile time) |
//! | variant | `result_type = "..."` | McpResult | the `resultType` that selects the variant |
//! | variant | `method = "m"` / `methods("m", ...)` | McpResult | result union: the complete result of these methods (read by `from_method` only); with `result_type`, the methods that may answer with it |
//! | variant | `other` | McpResult | result union: reads every `resultType` and method no other variant claims |
//! | enum | `tag = "type"` / `by_json_type` / `by_shape` | McpUnion | how the variant is chosen |
//! | variant | `tag_value = "..."` [, `default`] | McpUnion (tag) | the tag value that selects it |
//! | variant | `json = "string"` … | McpUnion (by_json_type) | the JSON type that selects it |
//! | variant | `when(...)`, … | McpUnion (by_shape) | predicates on the object |
//! | any | `crate = "path"` | all | where `mcp_runtime` is |
//!
//! A misused attribute is a compile error at the attribute, saying what to write instead; all
//! errors of one derive are reported together, and the derive still emits placeholder impls so
//! that they are the only errors (no "trait not implemented" cascade where the type is used).
//! Generic types are not supported (protocol types are concrete).
//!
//! Deserializing never buffers what it does not need to: objects stream from the input map,
//! and enums dispatched by a member read the union of their variants' members in one pass
//! (see [`McpUnion`](macro@McpUnion), "How a member before the tag is read"). No enum ever
//! tries its variants in turn.

mod ast;
mod attr;
mod check;
mod delegate;
mod errors;
mod fallback;
mod kind;
mod object;
mod outcome;
mod shell;
mod tagged;
mod union;
mod words;

use ast::Container;
use errors::Errors;
use kind::{Derive, Kind};
use proc_macro::TokenStream;
use quote::quote;
use syn::{DeriveInput, parse_macro_input};

/// A JSON object as a struct with named fields.
///
/// Generates `Serialize` and `Deserialize` (through `::mcp_runtime::__private::serde`).
///
/// # Struct attributes
///
/// - `#[mcp(constant(name = "jsonrpc", value = "2.0"))]`, repeatable: member `jsonrpc` is
///   always `"2.0"`. `value` is a string or an integer literal (`value = -32020`). The constant
///   is not a field. Reading, the member must be present (else ``missing field `jsonrpc` ``)
///   and equal (else ``invalid value for `jsonrpc`: expected "2.0", found "1.0"``, also for a
///   value of another JSON type). Add `optional` (`constant(name = "mode", value = "form",
///   optional)`) to let the member be missing. Writing, every constant is written, in
///   attribute order, before the fields.
/// - `#[mcp(at_least_one_of("inputRequests", "requestState"))]` (JSON keys of `Option`
///   fields): reading fails with ``at least one of `inputRequests`, `requestState` must be
///   present`` when all of them are missing or null (a `null` in a `keep_null` field is present).
/// - `#[mcp(crate = "path")]`: where `mcp_runtime` is (default `::mcp_runtime`).
///
/// # Field attributes and kinds of field
///
/// - `#[mcp(rename = "jsonName")]`: the JSON key; by default the field's name, `r#` stripped.
/// - A field whose type's last path segment is `Option` is optional: missing or `null` reads as
///   `None`, and `None` is not written.
/// - `#[mcp(keep_null)]` on an `Option<T>` field whose `T` reads `null` (such as
///   `serde_json::Value`): a present member is read as `T`, so `"data": null` reads as
///   `Some(Value::Null)` and is written back, and only a missing member is `None`. A proxy that
///   must not change what it passes on wants this; the generator emits it on every optional
///   member whose schema allows `null`.
/// - `#[mcp(default)]`: missing reads as `Default::default()`; the field is always written.
///   (Not on an `Option` field, which is optional already.)
/// - `#[mcp(extra)]`: at most one field, of type `::mcp_runtime::Extra`: every member the
///   struct does not declare is kept there when reading, and written back after the declared
///   fields (a key that the struct declares is not written twice). Without an extra field,
///   undeclared members are skipped.
/// - Any other field is required: ``missing field `name` `` when it is missing.
///
/// A key that appears twice is an error (``duplicate field `name` ``), and so is a JSON key
/// that two fields or constants share (at compile time).
///
/// # Example
///
/// ```
/// use mcp_runtime::{Extra, McpObject};
///
/// #[derive(Debug, PartialEq, McpObject)]
/// #[mcp(constant(name = "jsonrpc", value = "2.0"))]
/// #[mcp(constant(name = "method", value = "notifications/progress"))]
/// struct ProgressNotification {
///     #[mcp(rename = "progressToken")]
///     token: String,
///     progress: f64,
///     total: Option<f64>,
///     #[mcp(default)]
///     labels: Vec<String>,
///     #[mcp(extra)]
///     extra: Extra,
/// }
///
/// let text = r#"{"progress":0.5,"progressToken":"t","method":"notifications/progress","jsonrpc":"2.0","x-trace":7}"#;
/// let n: ProgressNotification = serde_json::from_str(text)?;
/// assert_eq!((n.token.as_str(), n.progress, n.total), ("t", 0.5, None));
/// assert_eq!(n.extra["x-trace"], 7);
///
/// // Constants first, then the fields in declaration order, then the extra members.
/// assert_eq!(
///     serde_json::to_string(&n)?,
///     r#"{"jsonrpc":"2.0","method":"notifications/progress","progressToken":"t","progress":0.5,"labels":[],"x-trace":7}"#
/// );
///
/// let wrong = r#"{"jsonrpc":"1.0","method":"notifications/progress","progressToken":"t","progress":1}"#;
/// let err = serde_json::from_str::<ProgressNotification>(wrong).unwrap_err();
/// assert!(err.to_string().contains(r#"invalid value for `jsonrpc`: expected "2.0", found "1.0""#));
///
/// let missing = r#"{"jsonrpc":"2.0","method":"notifications/progress","progress":1}"#;
/// let err = serde_json::from_str::<ProgressNotification>(missing).unwrap_err();
/// assert!(err.to_string().contains("missing field `progressToken`"));
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// `keep_null` tells a `null` member from a missing one:
///
/// ```
/// use mcp_runtime::McpObject;
/// use serde_json::Value;
///
/// #[derive(Debug, PartialEq, McpObject)]
/// struct Error {
///     message: String,
///     #[mcp(keep_null)]
///     data: Option<Value>,
///     hint: Option<Value>,
/// }
///
/// let e: Error = serde_json::from_str(r#"{"message":"m","data":null,"hint":null}"#)?;
/// assert_eq!((e.data, e.hint), (Some(Value::Null), None));
/// let e: Error = serde_json::from_str(r#"{"message":"m"}"#)?;
/// assert_eq!(e.data, None);
/// let e = Error { message: "m".into(), data: Some(Value::Null), hint: None };
/// assert_eq!(serde_json::to_string(&e)?, r#"{"message":"m","data":null}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// Two fields with one key are rejected when compiling:
///
/// ```compile_fail
/// use mcp_runtime::McpObject;
///
/// #[derive(McpObject)]
/// struct Tool {
///     name: String,
///     #[mcp(rename = "name")]
///     title: String, // error: duplicate JSON key `name`
/// }
/// ```
#[proc_macro_derive(McpObject, attributes(mcp))]
pub fn derive_mcp_object(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input, Derive::Object).into()
}

/// A result: on a struct, an [`McpObject`](macro@McpObject) with the `resultType` rules; on an
/// enum, an outcome whose variant `resultType` selects, or a result union of many methods'
/// results (with `from_method`).
///
/// # On a struct
///
/// Everything [`McpObject`](macro@McpObject) does, with the same attributes, and one of two
/// ways to carry `resultType`:
///
/// - **Fixed** (the default): `#[mcp(result_type = "input_required")]` on the struct, or
///   nothing for `"complete"`. Implements `::mcp_runtime::McpResultType` with that
///   `RESULT_TYPE`. Writing, `"resultType": RESULT_TYPE` is the first member (before the
///   constants). Reading, the `resultType` member (handled by the derive, not a field) must be
///   a string equal to the type's value; a missing member reads as `"complete"`. Any other
///   value is an error that names it, e.g. ``resultType "input_required" is not valid for
///   CallToolResult: expected "complete"``, or `invalid type: null, expected resultType
///   string`. A value that is not a core one (`"complete"`, `"input_required"`) must also be
///   accepted on this thread (`mcp_runtime::result_type::accepting`), else the error is
///   `resultType "com.example/x" comes from an extension the client did not advertise`.
/// - **Field**: exactly one field marked `#[mcp(result_type)]`, of type
///   `::mcp_runtime::ResultType`. It is read from `resultType` (missing reads as
///   `ResultType::Complete`; `ResultType` validates the value) and written first. No
///   `McpResultType` impl then, and no `result_type = "..."` on the struct.
///
/// Any other field or constant keyed `"resultType"` is a compile error.
///
/// ```
/// use mcp_runtime::result_type::accepting;
/// use mcp_runtime::{Extra, McpResult, McpResultType};
///
/// #[derive(Debug, McpResult)]
/// struct CallToolResult {
///     content: Vec<serde_json::Value>,
///     #[mcp(extra)]
///     extra: Extra,
/// }
///
/// #[derive(Debug, McpResult)]
/// #[mcp(result_type = "com.example/deferred")]
/// struct DeferredResult {
///     ticket: String,
/// }
///
/// assert_eq!(CallToolResult::RESULT_TYPE, "complete");
/// let r: CallToolResult = serde_json::from_str(r#"{"content":[]}"#)?;
/// assert_eq!(serde_json::to_string(&r)?, r#"{"resultType":"complete","content":[]}"#);
///
/// let err = serde_json::from_str::<CallToolResult>(r#"{"resultType":"success","content":[]}"#)
///     .unwrap_err();
/// assert!(err.to_string().contains(r#"resultType "success" is not valid for CallToolResult"#));
///
/// // An extension's value is accepted only while the client's extensions are.
/// let deferred = r#"{"resultType":"com.example/deferred","ticket":"t"}"#;
/// assert!(serde_json::from_str::<DeferredResult>(deferred).is_err());
/// let d: DeferredResult = accepting(&["com.example/deferred"], || serde_json::from_str(deferred))?;
/// assert_eq!(d.ticket, "t");
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// # On an enum: an outcome
///
/// Every variant is a one-field tuple variant `V(T)` where `T` derives `McpResult` (fixed
/// mode). A variant's `resultType` is its `#[mcp(result_type = "...")]`, else its name:
/// `Complete` is `"complete"`, `InputRequired` is `"input_required"`. There must be a
/// `"complete"` variant, and no two variants may share a `resultType`. It is checked at compile
/// time that each `T::RESULT_TYPE` is its variant's `resultType`.
///
/// - `#[mcp(request = path::to::Request)]` on the enum: the request this outcome answers. If
///   the enum has an `input_required` variant, the request must implement
///   `::mcp_runtime::MayRequireInput` (the schema allows `InputRequiredResult` in its
///   response); otherwise the variant is a compile error.
/// - Reading streams: the variant is chosen by the value (a missing `resultType` chooses the
///   `"complete"` variant), and the members before `resultType` stream into the variant types
///   as for a tagged [`McpUnion`](macro@McpUnion) (sorted keys cost nothing). An extension
///   variant is chosen only while its value is accepted
///   (`mcp_runtime::result_type::accepting`). Its type may be
///   `mcp_runtime::extension::Granted<T>`, which reads and checks as `T`: generated outcomes
///   hold an extension's result so, and only a server with the proof that the client
///   advertised the extension builds one. Any other value is an error naming it and the
///   enum's values.
/// - Writing writes the variant's value. `From<T>` is implemented for every variant type that
///   no other variant has.
///
/// ```
/// use mcp_runtime::{Extra, MayRequireInput, McpResult, Request};
///
/// #[derive(Debug, McpResult)]
/// struct CallToolResult {
///     content: Vec<serde_json::Value>,
/// }
///
/// #[derive(Debug, McpResult)]
/// #[mcp(result_type = "input_required")]
/// struct InputRequiredResult {
///     #[mcp(rename = "requestState")]
///     request_state: Option<String>,
///     #[mcp(extra)]
///     extra: Extra,
/// }
///
/// struct CallToolRequest;
/// impl Request for CallToolRequest {
///     const METHOD: &'static str = "tools/call";
///     type Params = ();
///     type Result = MyToolOutcome;
/// }
/// impl MayRequireInput for CallToolRequest {}
///
/// #[derive(Debug, McpResult)]
/// #[mcp(request = CallToolRequest)]
/// enum MyToolOutcome {
///     Complete(CallToolResult),
///     InputRequired(InputRequiredResult),
/// }
///
/// let o: MyToolOutcome = serde_json::from_str(r#"{"content":[],"resultType":"complete"}"#)?;
/// assert!(matches!(o, MyToolOutcome::Complete(_)));
///
/// let o: MyToolOutcome =
///     serde_json::from_str(r#"{"resultType":"input_required","requestState":"s","content":[]}"#)?;
/// let MyToolOutcome::InputRequired(r) = o else { unreachable!() };
/// assert_eq!(r.request_state.as_deref(), Some("s"));
/// assert!(r.extra.contains_key("content")); // not a member of InputRequiredResult
///
/// let err = serde_json::from_str::<MyToolOutcome>(r#"{"resultType":"Complete"}"#).unwrap_err();
/// assert!(err.to_string().contains(
///     r#"unknown resultType "Complete" for MyToolOutcome: expected one of "complete", "input_required""#
/// ));
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// A request that the schema never answers with `input_required` cannot have such a variant:
///
/// ```compile_fail
/// use mcp_runtime::{Extra, McpResult, Request};
///
/// #[derive(McpResult)]
/// struct ListToolsResult { tools: Vec<String> }
///
/// #[derive(McpResult)]
/// #[mcp(result_type = "input_required")]
/// struct InputRequiredResult { #[mcp(extra)] extra: Extra }
///
/// struct ListToolsRequest;
/// impl Request for ListToolsRequest {
///     const METHOD: &'static str = "tools/list";
///     type Params = ();
///     type Result = ListToolsResult;
/// }
///
/// #[derive(McpResult)]
/// #[mcp(request = ListToolsRequest)]
/// enum ListToolsOutcome {
///     Complete(ListToolsResult),
///     InputRequired(InputRequiredResult), // error: `ListToolsRequest` may not be answered with `input_required`
/// }
/// ```
///
/// # On an enum: a result union
///
/// A union of the results of many methods (the schema's `ServerResult`), where `resultType`
/// alone cannot tell a `ListToolsResult` from a `CallToolResult`: those are read by
/// `from_method`. An outcome becomes a result union when a variant has one of these
/// attributes (a union takes no `#[mcp(request = ...)]`):
///
/// - `#[mcp(other)]`, on at most one variant, without `result_type`, `method` or `methods`:
///   plain reading sends it every `resultType` value that no variant's `result_type` claims,
///   and a missing `resultType` when no variant claims `"complete"` (then no `"complete"`
///   variant is needed). It streams like any variant (one pass, no `serde_json::Value` round
///   trip), and the value found is handed to its type as its `resultType` member: typically a
///   struct with an `#[mcp(result_type)]` field of type `::mcp_runtime::ResultType`, which
///   accepts `"complete"`, `"input_required"` and advertised extension values and rejects any
///   other (``invalid resultType "success": ...``).
/// - `#[mcp(method = "tools/list")]` (repeatable), or `#[mcp(methods("a", "b"))]`, on a variant
///   without `result_type`: the variant holds the complete result of these methods (its
///   type's `RESULT_TYPE` must be `"complete"`, checked at compile time). Plain reading never
///   chooses it. A method may be named by one such variant only.
/// - `methods(...)` (or `method = ...`) on a variant with a `result_type` other than
///   `"complete"`: the methods whose answer may carry that `resultType`, e.g.
///   `#[mcp(result_type = "input_required", methods("tools/call", "prompts/get"))]`.
///
/// The derive adds an inherent function, generic over the deserializer (so it costs nothing
/// when unused; a `serde_json::Value` is a deserializer too):
///
/// ```text
/// pub fn from_method<'de, D: Deserializer<'de>>(method: &str, deserializer: D) -> Result<Self, D::Error>
/// ```
///
/// - a method listed on variants with a `result_type` is read by `resultType`, streaming as
///   plain reading does: missing or `"complete"` reads the variant that names the method (else
///   the enum's `"complete"` variant, else the `other` one); a listing variant's value reads
///   that variant (an extension value only while accepted); any other value is ``unknown
///   resultType "x" for ServerResult: expected one of "complete", "input_required"``;
/// - a method that a variant names reads that variant's type (which checks `resultType`);
/// - any other method reads the `other` variant's type, or without one is the error ``no
///   variant of ServerResult reads the result of method "x": expected one of ...``.
///
/// Writing writes the variant's value; `From<T>` is implemented as for outcomes.
///
/// ```
/// use mcp_runtime::{Extra, McpResult, ResultType};
///
/// #[derive(Debug, McpResult)]
/// struct Result {
///     #[mcp(result_type)]
///     result_type: ResultType,
///     #[mcp(extra)]
///     extra: Extra,
/// }
///
/// #[derive(Debug, McpResult)]
/// struct ListToolsResult { tools: Vec<serde_json::Value> }
///
/// #[derive(Debug, McpResult)]
/// struct CallToolResult { content: Vec<serde_json::Value> }
///
/// #[derive(Debug, McpResult)]
/// #[mcp(result_type = "input_required")]
/// struct InputRequiredResult {
///     #[mcp(rename = "requestState")]
///     request_state: Option<String>,
/// }
///
/// #[derive(Debug, McpResult)]
/// enum ServerResult {
///     #[mcp(other)]
///     Result(Result),
///     #[mcp(method = "tools/list")]
///     ListToolsResult(ListToolsResult),
///     #[mcp(method = "tools/call")]
///     CallToolResult(CallToolResult),
///     #[mcp(result_type = "input_required", methods("tools/call", "prompts/get"))]
///     InputRequiredResult(InputRequiredResult),
/// }
///
/// // Without the method, only resultType tells: the generic result keeps every member.
/// let r: ServerResult = serde_json::from_str(r#"{"tools":[]}"#)?;
/// let ServerResult::Result(g) = &r else { unreachable!() };
/// assert_eq!((&g.result_type, g.extra.len()), (&ResultType::Complete, 1));
/// assert_eq!(serde_json::to_string(&r)?, r#"{"resultType":"complete","tools":[]}"#);
/// let r: ServerResult = serde_json::from_str(r#"{"requestState":"s","resultType":"input_required"}"#)?;
/// assert!(matches!(r, ServerResult::InputRequiredResult(_)));
///
/// // With it, the concrete result.
/// let r = ServerResult::from_method("tools/list", serde_json::json!({"tools": []}))?;
/// assert!(matches!(r, ServerResult::ListToolsResult(_)));
/// let r = ServerResult::from_method("tools/call", serde_json::json!({"content": []}))?;
/// assert!(matches!(r, ServerResult::CallToolResult(_)));
/// let answer = r#"{"resultType":"input_required","requestState":"s"}"#;
/// let r = ServerResult::from_method("tools/call", &mut serde_json::Deserializer::from_str(answer))?;
/// assert!(matches!(r, ServerResult::InputRequiredResult(_)));
/// let r = ServerResult::from_method("ping", serde_json::json!({}))?;
/// assert!(matches!(r, ServerResult::Result(_)));
///
/// let err = ServerResult::from_method("tools/call", serde_json::json!({"resultType": "done"}))
///     .unwrap_err();
/// assert!(err.to_string().contains(
///     r#"unknown resultType "done" for ServerResult: expected one of "complete", "input_required""#
/// ));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[proc_macro_derive(McpResult, attributes(mcp))]
pub fn derive_mcp_result(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input, Derive::Result).into()
}

/// An `anyOf` union: an enum of one-field tuple variants `V(T)`, with exactly one way of
/// telling them apart.
///
/// Writing writes the variant's value. `From<T>` is implemented for every variant type that no
/// other variant has; for a variant of `::std::boxed::Box<T>` (as generated code spells a large
/// variant it boxes), `From<T>` too.
///
/// # `#[mcp(tag = "type")]`: by the value of a member
///
/// Each variant has `#[mcp(tag_value = "text")]`; at most one may also be `default`, read when
/// the tag member is missing (elicitation: no `mode` means form). The variant's type reads the
/// tag as any member (so it checks the tag as its own constant), then the rest of the input.
/// An unknown value is ``unknown `type` "foo": expected one of "text", "image"``; a missing tag
/// without a default is ``missing field `type` ``. Every variant type derives
/// [`McpObject`](macro@McpObject) or [`McpResult`](macro@McpResult) (or is
/// `::mcp_runtime::Extra`). The enum also implements `mcp_runtime::TaggedUnion`: the tag
/// member and its values, in the variants' order.
///
/// How a member before the tag is read: JSON objects are unordered, and writers that sort keys
/// put `text` before `type`. Such a member is read once, as the type of the one variant that
/// declares it, into that variant's partial value; a member that several variants declare, or
/// none, is kept as JSON. The tag then picks the variant, which gets what was read for it, the
/// other variants' members (written back as JSON: extra members, or dropped if it keeps none),
/// the kept ones, the tag, and the rest of the input. When the tag comes first nothing is kept.
/// The one difference from reading the chosen type alone: a member that only another variant
/// declares, arriving before the tag, must have that variant's type (`{"mimeType":7,
/// "text":"t","type":"text"}` is an error, `{"type":"text","mimeType":7,"text":"t"}` is not).
///
/// ```
/// use mcp_runtime::{McpObject, McpUnion};
///
/// #[derive(Debug, McpObject)]
/// #[mcp(constant(name = "type", value = "text"))]
/// struct TextContent { text: String }
///
/// #[derive(Debug, McpObject)]
/// #[mcp(constant(name = "type", value = "image"))]
/// struct ImageContent { data: String }
///
/// #[derive(Debug, McpUnion)]
/// #[mcp(tag = "type")]
/// enum ContentBlock {
///     #[mcp(tag_value = "text")]
///     Text(TextContent),
///     #[mcp(tag_value = "image")]
///     Image(ImageContent),
/// }
///
/// let c: ContentBlock = serde_json::from_str(r#"{"data":"AA==","type":"image"}"#)?;
/// assert!(matches!(c, ContentBlock::Image(_)));
/// assert_eq!(serde_json::to_string(&c)?, r#"{"type":"image","data":"AA=="}"#);
/// let err = serde_json::from_str::<ContentBlock>(r#"{"type":"video"}"#).unwrap_err();
/// assert!(err.to_string().contains(r#"unknown `type` "video": expected one of "text", "image""#));
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// # `#[mcp(by_json_type)]`: by the JSON type of the value
///
/// Each variant has `#[mcp(json = "...")]`, one of `string`, `integer`, `number`, `boolean`,
/// `array`, `object`, `null`, each at most once. `number` also takes integers when there is no
/// `integer` variant. Any other JSON type is an error naming the expected ones.
///
/// ```
/// use mcp_runtime::McpUnion;
///
/// #[derive(Debug, PartialEq, McpUnion)]
/// #[mcp(by_json_type)]
/// enum RequestId {
///     #[mcp(json = "string")]
///     String(String),
///     #[mcp(json = "integer")]
///     Integer(i64),
/// }
///
/// assert_eq!(serde_json::from_str::<RequestId>("7")?, RequestId::Integer(7));
/// assert_eq!(serde_json::from_str::<RequestId>(r#""a""#)?, RequestId::String("a".into()));
/// let err = serde_json::from_str::<RequestId>("1.5").unwrap_err();
/// assert!(err.to_string().contains("expected a JSON string or integer (RequestId)"));
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// # `#[mcp(by_shape)]`: by predicates on the object
///
/// For unions that have no discriminator. Each variant lists predicates, all of which must
/// hold: `when(key = "type", equals = "string")` (also an integer or `true`/`false`),
/// `when(key = "type", one_of("integer", "number"))`, `when(has = "enum")`,
/// `when(lacks = "enumNames")`. A key containing `/` that the object does not have literally
/// is a path into nested objects (`has = "items/enum"`). A variant without predicates matches
/// any object. The object is read whole, and the **first** variant (in declaration order)
/// whose predicates hold is read from it; if none does, the error is `no variant of
/// PrimitiveSchemaDefinition matches this object` with the list of variants and their
/// predicates.
///
/// ```
/// use mcp_runtime::{Extra, McpUnion};
///
/// #[derive(Debug, McpUnion)]
/// #[mcp(by_shape)]
/// enum PrimitiveSchemaDefinition {
///     #[mcp(when(key = "type", equals = "string"), when(has = "enum"))]
///     Enum(Extra),
///     #[mcp(when(key = "type", equals = "string"))]
///     String(Extra),
///     #[mcp(when(key = "type", one_of("integer", "number")))]
///     Number(Extra),
/// }
///
/// let s: PrimitiveSchemaDefinition = serde_json::from_str(r#"{"type":"string","enum":["a"]}"#)?;
/// assert!(matches!(s, PrimitiveSchemaDefinition::Enum(_)));
/// let err = serde_json::from_str::<PrimitiveSchemaDefinition>(r#"{"type":"boolean"}"#).unwrap_err();
/// assert!(err.to_string().contains("no variant of PrimitiveSchemaDefinition matches this object"));
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// Each variant of a tagged union needs its tag value:
///
/// ```compile_fail
/// use mcp_runtime::McpUnion;
///
/// #[derive(McpUnion)]
/// #[mcp(tag = "type")]
/// enum Content {
///     #[mcp(tag_value = "text")]
///     Text(mcp_runtime::Extra),
///     Image(mcp_runtime::Extra), // error: variant `Image` needs #[mcp(tag_value = "...")]
/// }
/// ```
#[proc_macro_derive(McpUnion, attributes(mcp))]
pub fn derive_mcp_union(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input, Derive::Union).into()
}

/// Parse, check, expand; on error, the errors and the fallback impls.
fn expand(input: &DeriveInput, derive: Derive) -> proc_macro2::TokenStream {
    let errors = Errors::new();
    let cont = Container::from_ast(&errors, input, derive);
    check::check(&errors, &cont);
    let body = match errors.finish() {
        Ok(()) => match cont.kind {
            Kind::Object | Kind::ResultStruct => object::expand(&cont),
            Kind::ResultEnum => outcome::expand(&cont),
            Kind::Union => union::expand(&cont),
        },
        Err(e) => {
            let mut tokens = e.to_compile_error();
            tokens.extend(wrap(fallback::fallback(&cont)));
            return tokens;
        }
    };
    wrap(body)
}

/// Puts the generated items in an anonymous constant, so that their helper names stay private.
fn wrap(items: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_attributes, unused_qualifications)]
        const _: () = {
            #items
        };
    }
}

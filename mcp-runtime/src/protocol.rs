//! Traits that generated code implements from the schema, so that derives and user code can
//! check protocol rules at compile time.

/// A request type of the protocol: a `$def` whose `method` is a constant.
///
/// The generator implements it for every request `$def`; `Result` is the type of the
/// `result` member of the matching `*ResultResponse` (an `…Outcome` enum where the method
/// may answer `input_required`).
pub trait Request {
    /// The JSON-RPC method name, e.g. `"tools/call"`.
    const METHOD: &'static str;
    /// The type of the `params` member.
    type Params;
    /// What a successful response carries in `result`.
    type Result;
    /// The member of `params` that the request's `Mcp-Name` header mirrors on Streamable
    /// HTTP (`name` of `tools/call`, `uri` of `resources/read`, …), if it has one: a fact of
    /// the revision (or the extension) the generator reads from its overlay.
    const MCP_NAME: Option<&'static str> = None;

    /// The value of [`Request::MCP_NAME`] in this request (what its `Mcp-Name` header says).
    fn mcp_name(&self) -> Option<&str> {
        None
    }
}

/// A request whose successful response is built from it, so that the id is never copied by
/// hand: `request.respond(result)`.
///
/// The generator implements it for every request whose `*ResultResponse` takes exactly the
/// request's id and a result.
///
/// ```
/// # use mcp_tests::mcp;
/// use mcp::prelude::*;
///
/// let meta = RequestMetaObject::new(ClientCapabilities::new(), "2026-07-28");
/// let request = CallToolRequest::new(RequestId::Integer(7), CallToolRequestParams::new(meta, "greet"));
/// let result = CallToolResult::new(vec![TextContent::new("Hello!").into()]);
/// let response: CallToolResultResponse = request.respond(result);
/// assert_eq!(response.id, request.id);
/// assert_eq!(serde_json::to_value(&response)?["result"]["resultType"], "complete");
/// # Ok::<(), serde_json::Error>(())
/// ```
pub trait Respond: Request {
    /// The successful response.
    type Response;

    /// The successful response to this request: its id, and `result` (anything that converts
    /// into the request's result type, such as a complete result into an outcome).
    fn respond(&self, result: impl Into<Self::Result>) -> Self::Response;
}

/// A request whose reply, the successful response or an error response, is read in one call:
/// [`Reply<R>`](crate::Reply).
pub trait HasReply: Request {
    /// The union of the successful response and the error response.
    type Reply;
}

/// The JSON-RPC error response, built from its parts: `JSONRPCErrorResponse::from_error(id,
/// code, message, data)`.
///
/// The generator implements it for the revision's error response as a struct literal; the
/// runtime's typed errors (a rejected sealed `requestState`, for one) answer through it.
///
/// ```
/// # use mcp_tests::mcp;
/// use mcp::prelude::*;
/// use mcp_runtime::error_code::{INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND};
///
/// let id = Some(RequestId::Integer(3));
/// let response = JSONRPCErrorResponse::from_error(id.clone(), INVALID_PARAMS, "Unknown tool: wrong".into(), None);
/// assert_eq!(response.error.code, INVALID_PARAMS);
/// assert_eq!(
///     serde_json::to_string(&response)?,
///     r#"{"jsonrpc":"2.0","error":{"code":-32602,"message":"Unknown tool: wrong"},"id":3}"#
/// );
/// // The standard errors by name.
/// assert_eq!(JSONRPCErrorResponse::invalid_params(id.clone(), "Unknown tool: wrong"), response);
/// assert_eq!(JSONRPCErrorResponse::method_not_found(id.clone(), "tools/cal").error.code, METHOD_NOT_FOUND);
/// assert_eq!(JSONRPCErrorResponse::internal_error(id, "disk full").error.code, INTERNAL_ERROR);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub trait ErrorResponse: Sized {
    /// The type of the response's id (an `Option` where the id may be left out).
    type Id;

    /// The error response to the request `id`.
    fn from_error(
        id: Self::Id,
        code: i64,
        message: String,
        data: Option<serde_json::Value>,
    ) -> Self;

    /// [`INVALID_PARAMS`](crate::error_code::INVALID_PARAMS) to the request `id`, with `message`.
    fn invalid_params(id: Self::Id, message: impl Into<String>) -> Self {
        crate::RpcError::invalid_params(message).into_response(id)
    }

    /// [`METHOD_NOT_FOUND`](crate::error_code::METHOD_NOT_FOUND) to the request `id`, naming
    /// `method`.
    fn method_not_found(id: Self::Id, method: &str) -> Self {
        crate::RpcError::method_not_found(method).into_response(id)
    }

    /// [`INTERNAL_ERROR`](crate::error_code::INTERNAL_ERROR) to the request `id`, with `message`.
    fn internal_error(id: Self::Id, message: impl Into<String>) -> Self {
        crate::RpcError::internal_error(message).into_response(id)
    }
}

/// A notification type of the protocol.
pub trait Notification {
    /// The JSON-RPC method name, e.g. `"notifications/progress"`.
    const METHOD: &'static str;
    /// The type of the `params` member.
    type Params;
}

/// Marks the requests a server may answer with an `InputRequiredResult`.
///
/// The generator implements it only for the requests whose `*ResultResponse` in the schema
/// lists `InputRequiredResult` in its `result` union (in 2026-07-28: `tools/call`,
/// `prompts/get` and `resources/read`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` may not be answered with `input_required`",
    label = "this request's result cannot be an InputRequiredResult",
    note = "the generator implements `MayRequireInput` only for requests whose *ResultResponse in the schema lists InputRequiredResult in its result; remove the input_required variant"
)]
pub trait MayRequireInput: Request {}

/// A result type with one fixed `resultType` value.
///
/// Implemented by `#[derive(McpResult)]` on structs: `"complete"` unless the struct says
/// `#[mcp(result_type = "...")]`.
pub trait McpResultType {
    /// The `resultType` this type is written with and accepts when read.
    const RESULT_TYPE: &'static str;
}

/// A union told apart by a tag member (`#[derive(McpUnion)]` with `#[mcp(tag = "...")]`):
/// the member's name and every value that selects a variant, in the order the variants are
/// declared. The derive implements it, so a generated `ClientRequest` lists the methods a
/// client may call without a list kept by hand.
///
/// ```
/// # use mcp_tests::mcp;
/// use mcp_runtime::TaggedUnion;
///
/// assert_eq!(mcp::ClientRequest::TAG, "method");
/// assert!(mcp::ClientRequest::TAG_VALUES.contains(&"tools/call"));
/// assert!(!mcp::ClientRequest::TAG_VALUES.contains(&"initialize")); // a 2025-11-25 method
/// ```
pub trait TaggedUnion {
    /// The member that tells the variants apart (`method`, `type`).
    const TAG: &'static str;
    /// The values of [`TaggedUnion::TAG`] that select a variant.
    const TAG_VALUES: &'static [&'static str];
}

/// A value would have none of the members of which at least one is required (e.g. an
/// `InputRequiredResult` with neither `inputRequests` nor `requestState`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{type_name}: at least one of {} must be present", keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "))]
pub struct AtLeastOneOf {
    /// The type.
    pub type_name: &'static str,
    /// The JSON keys.
    pub keys: &'static [&'static str],
}

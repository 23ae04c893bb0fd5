//! What a generated service trait calls (`mcp_codegen::Builder::server`): the answer to one
//! request from what its method returned, and the default answer of a method a server does
//! not implement. A transport (`mcp-server`) turns the answer into a message and an HTTP status.
//!
//! ```
//! # use mcp_tests::mcp;
//! use mcp::prelude::*;
//! use mcp_runtime::service::{answer, not_served};
//!
//! let meta = RequestMetaObject::new(ClientCapabilities::new(), "2026-07-28");
//! let request = ListToolsRequest::new(4, PaginatedRequestParams::new(meta));
//! let listed = ListToolsResult::new(CacheScope::Public, vec![], 1000_u64);
//! let text = answer(&request, Ok(listed)).unwrap();
//! assert!(text.starts_with(r#"{"jsonrpc":"2.0","id":4,"result":"#), "{text}");
//! let refused = answer(&request, not_served::<ListToolsRequest>()).unwrap_err();
//! assert_eq!(refused.code, mcp_runtime::error_code::METHOD_NOT_FOUND);
//! ```

use serde::Serialize;

use crate::{Request, Respond, Response, RpcError};

/// A request's answer: its successful response as JSON text, or the error it is refused with
/// (the transport writes the error response, with the request's id, and picks the HTTP status).
pub type Answer = Result<String, RpcError>;

/// The answer to `request` for what its method returned.
pub fn answer<R>(request: &R, response: Response<R>) -> Answer
where
    R: Respond,
    R::Response: Serialize,
{
    let response = request.respond(response?);
    serde_json::to_string(&response)
        .map_err(|e| RpcError::internal_error(format!("serializing the response: {e}")))
}

/// What a method a server does not implement answers: method not found (`-32601`).
pub fn not_served<R: Request>() -> Response<R> {
    Err(RpcError::method_not_found(R::METHOD))
}

//! The HTTP status that goes with a JSON-RPC error answered to a POST.

use axum::http::StatusCode;
use mcp_runtime::RpcError;
use mcp_runtime::error_code::{
    HEADER_MISMATCH, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY, PARSE_ERROR, SERVER_ERROR, UNSUPPORTED_PROTOCOL_VERSION,
};

/// The HTTP status of a JSON-RPC error sent as the answer to a POST: the transport's mapping
/// (HeaderMismatch, MissingRequiredClientCapability and UnsupportedProtocolVersion MUST be
/// 400; an unknown method 404); any other code is a result of the exchange (200).
///
/// ```
/// use axum::http::StatusCode;
/// use mcp_runtime::error_code::{HEADER_MISMATCH, METHOD_NOT_FOUND};
///
/// assert_eq!(mcp_server::status_for(HEADER_MISMATCH), StatusCode::BAD_REQUEST);
/// assert_eq!(mcp_server::status_for(METHOD_NOT_FOUND), StatusCode::NOT_FOUND);
/// assert_eq!(mcp_server::status_for(-32002), StatusCode::OK);
/// ```
pub fn status_for(code: i64) -> StatusCode {
    match code {
        PARSE_ERROR | INVALID_REQUEST | INVALID_PARAMS => StatusCode::BAD_REQUEST,
        HEADER_MISMATCH | MISSING_REQUIRED_CLIENT_CAPABILITY | UNSUPPORTED_PROTOCOL_VERSION => {
            StatusCode::BAD_REQUEST
        }
        METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        INTERNAL_ERROR => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::OK,
    }
}

/// The [`RpcError::meaning`] of a bound of the server reached (a task cap, the session cap):
/// the client may retry later, and the answer's HTTP status is 429 Too Many Requests.
pub const BOUND_REACHED: &str = "bound_reached";

/// A bound of the server was reached: [`SERVER_ERROR`] with `message`, known as
/// [`BOUND_REACHED`] (HTTP 429 by [`status_of`]).
pub fn bound_reached(message: impl Into<String>) -> RpcError {
    RpcError::new(SERVER_ERROR, message).means(BOUND_REACHED)
}

/// The HTTP status of `error` answered to a POST: 429 for [`BOUND_REACHED`], else
/// [`status_for`] its code.
///
/// ```
/// use axum::http::StatusCode;
/// use mcp_runtime::RpcError;
///
/// let full = mcp_server::bound_reached("1000 tasks are live");
/// assert_eq!(full.code, -32000);
/// assert_eq!(mcp_server::status_of(&full), StatusCode::TOO_MANY_REQUESTS);
/// assert_eq!(mcp_server::status_of(&RpcError::invalid_params("x")), StatusCode::BAD_REQUEST);
/// ```
pub fn status_of(error: &RpcError) -> StatusCode {
    match error.meaning {
        Some(BOUND_REACHED) => StatusCode::TOO_MANY_REQUESTS,
        _ => status_for(error.code),
    }
}

//! The HTTP status that goes with a JSON-RPC error answered to a POST.

use axum::http::StatusCode;
use mcp_runtime::error_code::{
    HEADER_MISMATCH, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY, PARSE_ERROR, UNSUPPORTED_PROTOCOL_VERSION,
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

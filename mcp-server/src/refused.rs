//! A request refused with a JSON-RPC error: the error (`RpcError`, the handlers' own type),
//! the id of the request it answers, and the HTTP status it is sent with. Written on the wire
//! only when it is sent, from the generated `JSONRPCErrorResponse`, so that the transport can
//! still change it on the way (a legacy edge recodes an era fact's error by
//! [`RpcError::meaning`]).

use axum::http::StatusCode;
use axum::response::Response;
use mcp_runtime::RpcError;

use crate::checks::{error_text, json_response};
use crate::{Schema, status_of};

/// A JSON-RPC error answered to a request, with the HTTP status it goes with.
pub struct Refused<S: Schema> {
    /// The id of the request it answers; none when the request's could not be read.
    pub id: Option<S::RequestId>,
    /// The error.
    pub error: RpcError,
    /// The HTTP status of a POST answered with it ([`status_of`] the error, unless a transport
    /// rule says otherwise).
    pub status: StatusCode,
}

impl<S: Schema> Refused<S> {
    /// `error` answered to the request `id`, with [`status_of`] it.
    pub fn new(id: Option<&S::RequestId>, error: RpcError) -> Self {
        Refused {
            id: id.cloned(),
            status: status_of(&error),
            error,
        }
    }

    /// The same, sent with `status`.
    #[must_use]
    pub fn with_status(mut self, status: StatusCode) -> Self {
        self.status = status;
        self
    }

    /// The error response as JSON text, written from `S::ErrorResponse`.
    pub fn text(&self) -> String {
        error_text::<S>(self.id.as_ref(), self.error.clone())
    }

    /// The error response as an HTTP response with [`Refused::status`].
    pub fn into_response(self) -> Response {
        json_response(self.status, self.text())
    }
}

impl<S: Schema> std::fmt::Debug for Refused<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Refused")
            .field("id", &self.id)
            .field("error", &self.error)
            .field("status", &self.status)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_tests::mcp;

    crate::bind!(Mcp = mcp);

    #[test]
    fn the_status_follows_the_error_unless_set() {
        let id = mcp::RequestId::Integer(9);
        let refused = Refused::<Mcp>::new(Some(&id), RpcError::method_not_found("x/y"));
        assert_eq!(refused.status, StatusCode::NOT_FOUND);
        assert_eq!(
            refused.text(),
            r#"{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found: x/y"},"id":9}"#
        );
        let full = Refused::<Mcp>::new(None, crate::bound_reached("full"));
        assert_eq!(full.status, StatusCode::TOO_MANY_REQUESTS);
        let ok = full.with_status(StatusCode::OK);
        assert_eq!(ok.into_response().status(), StatusCode::OK);
    }
}

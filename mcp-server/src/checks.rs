//! The checks of a request before its body is read as a message, each answered with the
//! JSON-RPC error (a code of `mcp_runtime::error_code`) and the HTTP status the specification
//! gives it, or this crate where it gives none:
//!
//! 1. `Mcp-Session-Id`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, each
//!    `Mcp-Param-{Name}`, `Host`, `Origin` and `Content-Type` come at most once: else
//!    `INVALID_REQUEST`, 400.
//! 2. `Host` and `Origin` name this machine (DNS-rebinding protection, [`check_host`]): else
//!    `INVALID_REQUEST`, 403.
//! 3. `Content-Type` is `application/json`: else `INVALID_REQUEST`, 400.
//! 4. `Accept` lists both `application/json` and `text/event-stream`: else `INVALID_REQUEST`,
//!    406.
//! 5. The body fits the body limit (its `Content-Length` first) and arrives within the body
//!    timeout ([`read_body`]): else `INVALID_REQUEST` with 413 or 408 (400 when reading it
//!    fails).
//!
//! Every error is written from the generated `JSONRPCErrorResponse` ([`Schema::ErrorResponse`]).

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt as _, LengthLimitError, Limited};
use mcp_runtime::RpcError;
use mcp_runtime::error_code::{INTERNAL_ERROR, INVALID_REQUEST};

use crate::headers::{self, header_str};
use crate::{Config, Schema};

/// The media type of a JSON response (and of a POST's body).
pub const JSON: &str = "application/json";
/// The media type of a server-sent event stream.
pub const SSE: &str = "text/event-stream";

/// A response that refuses a request: the JSON-RPC error and its HTTP status.
pub type Refusal = Box<Response>;

/// `body`, the JSON text of one message, as a response with `status`.
pub fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, JSON)], body).into_response()
}

/// The JSON text of the error response to request `id` (none when it could not be read),
/// written from the generated type `S::ErrorResponse`.
pub fn error_text<S: Schema>(id: Option<&S::RequestId>, error: RpcError) -> String {
    let response: S::ErrorResponse = error.into_response(id.cloned());
    serde_json::to_string(&response).unwrap_or_else(|_| unwritable_error())
}

/// The answer when an error response itself cannot be written (a generated type never fails
/// to serialize; this keeps the server from panicking if one ever did).
pub fn unwritable_error() -> String {
    format!(
        r#"{{"jsonrpc":"2.0","error":{{"code":{INTERNAL_ERROR},"message":"the error response could not be written"}}}}"#
    )
}

/// `INVALID_REQUEST` with `message`, no id, sent with `status`.
fn refuse<S: Schema>(status: StatusCode, message: String) -> Refusal {
    let text = error_text::<S>(None, RpcError::new(INVALID_REQUEST, message));
    Box::new(json_response(status, text))
}

/// DNS-rebinding protection: a page on another site that resolves its name to 127.0.0.1 sends
/// its own `Host` and `Origin`; refuse both (403) unless they name an allowed host (each
/// parsed as an authority: `[::1].evil.example` is not `[::1]`).
pub fn check_host<S: Schema>(config: &Config, headers: &HeaderMap) -> Result<(), Refusal> {
    let forbidden = |what: &str| {
        let message = format!("Forbidden: {what} is not an allowed host");
        Err(refuse::<S>(StatusCode::FORBIDDEN, message))
    };
    let allowed = |host: Option<String>| host.is_some_and(|h| config.is_allowed_host(&h));
    match headers.get(header::HOST).map(|v| v.to_str()) {
        Some(Ok(h)) if allowed(headers::host_of_authority(h)) => {}
        Some(h) => return forbidden(&format!("Host {:?}", h.unwrap_or_default())),
        None => return forbidden("a request without Host"),
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let o = origin.to_str().unwrap_or_default();
        if !allowed(headers::host_of_origin(o)) {
            return forbidden(&format!("Origin {o:?}"));
        }
    }
    Ok(())
}

/// Check 1: each routing header (and `Mcp-Session-Id`, `Host`, `Origin`, `Content-Type`)
/// given at most once, else 400. `GET` and `DELETE` run it too.
pub fn check_once<S: Schema>(headers: &HeaderMap) -> Result<(), Refusal> {
    match headers::repeated(headers) {
        Some(name) => {
            let message = format!("Bad Request: the {name} header is given more than once");
            Err(refuse::<S>(StatusCode::BAD_REQUEST, message))
        }
        None => Ok(()),
    }
}

/// The checks of the headers alone, before the body is read: each routing header once (400),
/// the host (403), `Content-Type` JSON (400) and `Accept` listing both response types (406).
pub fn check_headers<S: Schema>(config: &Config, headers: &HeaderMap) -> Result<(), Refusal> {
    check_once::<S>(headers)?;
    check_host::<S>(config, headers)?;
    if !headers::is_json(headers) {
        let message = "Content-Type must be application/json".to_owned();
        return Err(refuse::<S>(StatusCode::BAD_REQUEST, message));
    }
    if !(headers::accepts(headers, JSON) && headers::accepts(headers, SSE)) {
        let message = format!("Not Acceptable: Accept must list both {JSON} and {SSE}");
        return Err(refuse::<S>(StatusCode::NOT_ACCEPTABLE, message));
    }
    Ok(())
}

/// The body, read within `config.body_read` and up to `config.max_body` bytes: 408 or 413
/// otherwise (400 when reading it fails).
pub async fn read_body<S: Schema>(
    config: &Config,
    headers: &HeaderMap,
    body: Body,
) -> Result<Bytes, Refusal> {
    let limit = config.max_body;
    let too_large = || {
        let message = format!("Payload Too Large: the body limit is {limit} bytes");
        refuse::<S>(StatusCode::PAYLOAD_TOO_LARGE, message)
    };
    let declared = header_str(headers, "content-length").and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let reading = Limited::new(body, limit).collect();
    match tokio::time::timeout(config.body_read, reading).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.is::<LengthLimitError>() => Err(too_large()),
        Ok(Err(e)) => Err(refuse::<S>(
            StatusCode::BAD_REQUEST,
            format!("reading the body: {e}"),
        )),
        Err(_) => {
            let message = format!(
                "Request Timeout: the body did not arrive within {} ms",
                config.body_read.as_millis()
            );
            Err(refuse::<S>(StatusCode::REQUEST_TIMEOUT, message))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::headers;
    use mcp_tests::mcp;
    use serde_json::Value;

    crate::bind!(Mcp = mcp);

    /// The status and the JSON-RPC error of a refusal.
    async fn refusal(r: Refusal) -> (StatusCode, Value) {
        let status = r.status();
        let body = r.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&body).unwrap())
    }

    const GOOD: &[(&str, &str)] = &[
        ("host", "127.0.0.1:3000"),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ];

    #[tokio::test]
    async fn each_header_check_has_its_status() {
        let config = Config::default();
        assert!(check_headers::<Mcp>(&config, &headers(GOOD)).is_ok());
        let mut cases: Vec<(Vec<(&str, &str)>, StatusCode)> = Vec::new();
        let with = |extra: (&'static str, &'static str)| {
            let mut h = GOOD.to_vec();
            h.retain(|(k, _)| *k != extra.0);
            h.push(extra);
            h
        };
        let mut twice = GOOD.to_vec();
        twice.push(("mcp-name", "a"));
        twice.push(("mcp-name", "b"));
        cases.push((twice, StatusCode::BAD_REQUEST));
        cases.push((with(("host", "evil.example")), StatusCode::FORBIDDEN));
        cases.push((
            with(("origin", "http://evil.example")),
            StatusCode::FORBIDDEN,
        ));
        cases.push((
            with(("content-type", "text/plain")),
            StatusCode::BAD_REQUEST,
        ));
        cases.push((
            with(("accept", "application/json")),
            StatusCode::NOT_ACCEPTABLE,
        ));
        for (sent, status) in cases {
            let r = check_headers::<Mcp>(&config, &headers(&sent)).unwrap_err();
            let (got, body) = refusal(r).await;
            assert_eq!(got, status, "{sent:?}");
            assert_eq!(body["error"]["code"], INVALID_REQUEST, "{sent:?}");
            assert_eq!(body.get("id"), None, "{sent:?}");
        }
    }

    #[tokio::test]
    async fn an_allowed_host_is_configured() {
        let h = headers(&[("host", "mcp.example"), ("origin", "https://mcp.example")]);
        assert!(check_host::<Mcp>(&Config::default(), &h).is_err());
        let config = Config::default().allow_host("MCP.example");
        assert!(check_host::<Mcp>(&config, &h).is_ok());
        let (status, _) = refusal(check_host::<Mcp>(&config, &HeaderMap::new()).unwrap_err()).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }

    #[tokio::test]
    async fn a_body_over_the_limit_is_413_whether_declared_or_not() {
        let config = Config::default().max_body(4);
        let small = read_body::<Mcp>(&config, &HeaderMap::new(), Body::from("1234")).await;
        assert_eq!(small.unwrap().as_ref(), b"1234");
        let undeclared = read_body::<Mcp>(&config, &HeaderMap::new(), Body::from("12345")).await;
        let (status, body) = refusal(undeclared.unwrap_err()).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("4 bytes")
        );
        let declared = headers(&[("content-length", "100")]);
        let early = read_body::<Mcp>(&config, &declared, Body::empty()).await;
        assert_eq!(
            refusal(early.unwrap_err()).await.0,
            StatusCode::PAYLOAD_TOO_LARGE
        );
    }

    #[test]
    fn an_error_is_written_from_the_generated_type() {
        let id = mcp::RequestId::Integer(3);
        let text = error_text::<Mcp>(Some(&id), RpcError::invalid_params("no"));
        assert_eq!(
            text,
            r#"{"jsonrpc":"2.0","error":{"code":-32602,"message":"no"},"id":3}"#
        );
    }
}

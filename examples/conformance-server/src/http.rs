//! Streamable HTTP, stateless (2026-07-28): one POST per JSON-RPC message at `/mcp`, answered
//! with `application/json`, or with `text/event-stream` when the request's notifications
//! (progress, log messages) or a `subscriptions/listen` stream go with it. Legacy (2025-11-25)
//! sessions share the endpoint: check 7 routes a message by its era (`crate::legacy::route`),
//! and `initialize` or a message of a session goes to `crate::legacy`; `GET` and `DELETE` with
//! an `Mcp-Session-Id` are a session's too (after check 2 alone).
//!
//! Checks 1 to 5 are `mcp_server::checks`' (the transport's, before the body is read as a
//! message); 6 to 16 are this example's: 6 and 8 to 16 are `crate::modern`'s, which stdio
//! shares (`crate::stdio`), asking this module's [`HttpHeaders`] for 12, 14 and 16. Every
//! POST goes through these checks, in this order, each with the error (a code of
//! `mcp_runtime::error_code`) and HTTP status the specification gives it, or this server where
//! it gives none; a modern request goes through all of them:
//!
//! 1. `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, each `Mcp-Param-{Name}`, `Host`,
//!    `Origin` and `Content-Type` come at most once: else `INVALID_REQUEST`, 400.
//! 2. `Host` and `Origin` name this machine (DNS-rebinding protection): else
//!    `INVALID_REQUEST`, 403.
//! 3. `Content-Type` is `application/json`: else `INVALID_REQUEST`, 400.
//! 4. `Accept` lists both `application/json` and `text/event-stream`: else `INVALID_REQUEST`,
//!    406.
//! 5. The body fits the body limit (its `Content-Length` first) and arrives within the body
//!    timeout: else `INVALID_REQUEST` with 413 or 408 (400 when reading it fails).
//! 6. The body is one JSON-RPC message (no batches in 2026-07-28): else `PARSE_ERROR` /
//!    `INVALID_REQUEST`, 400.
//! 7. Its era: `initialize` and a live session's messages leave for `crate::legacy`; an unknown
//!    `Mcp-Session-Id` is `SESSION_NOT_FOUND`, 404; a message with neither a session nor a
//!    `_meta` version but a legacy `MCP-Protocol-Version` is `SERVER_ERROR`, 400 (unless
//!    `--modern-only`).
//! 8. It is a request: a response is `INVALID_REQUEST`, 400 (this server sends no requests);
//!    a notification is accepted with 202 (`INVALID_REQUEST`, 400, if it does not read as one)
//!    and checked no further.
//! 9. `jsonrpc` is `"2.0"` and the id a string or an integer: else `INVALID_REQUEST`, 400.
//! 10. The method exists: else `METHOD_NOT_FOUND`, 404 (the removed `initialize`, `ping`,
//!     `logging/setLevel`, `resources/subscribe`... included).
//! 11. `params._meta` has `io.modelcontextprotocol/protocolVersion` and
//!     `io.modelcontextprotocol/clientCapabilities`: else `INVALID_PARAMS`, 400.
//! 12. The `MCP-Protocol-Version` header is there and equals `_meta`'s: else
//!     `HEADER_MISMATCH`, 400.
//! 13. The version is one this server implements (`crate::MODERN_VERSIONS`): else
//!     `UNSUPPORTED_PROTOCOL_VERSION` with `supported`/`requested`, 400.
//! 14. `Mcp-Method` (and `Mcp-Name` for `tools/call`, `prompts/get`, `resources/read`, and
//!     the task id of `tasks/get`, `tasks/update`, `tasks/cancel`) match the body: else
//!     `HEADER_MISMATCH`, 400.
//! 15. The whole message reads as the generated `ClientRequest`, or as the tasks extension's
//!     request of its method: else `INVALID_PARAMS`, 400. (Answers in a `tasks/update` to keys
//!     the task does not wait on are dropped unread first: the extension says to ignore them.)
//! 16. For `tools/call`, each argument the tool mirrors in a header (`x-mcp-header`) has its
//!     `Mcp-Param-{Name}` header, of valid header characters and equal to the argument once
//!     decoded: else `HEADER_MISMATCH`, 400.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use mcp_runtime::RpcError;
use mcp_runtime::error_code::HEADER_MISMATCH;
use mcp_runtime::param_headers::{ParamHeader, decode, is_valid_value};
use serde_json::Value;

use crate::headers::{self, header_str};
use crate::legacy::Route;
use crate::probe;
use crate::{App, Mcp};
use mcp_server::answer::respond;
use mcp_server::checks::{SSE, check_headers, check_host, json_response, read_body};
use mcp_server::modern::{self, Outcome};
use mcp_server::sse::sse_stream;
use mcp_server::{Named, Refused, Schema};

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/mcp", post(post_mcp).get(get_mcp).delete(delete_mcp))
        .fallback(not_found)
        .with_state(app)
}

fn failure(f: Refused<Mcp>) -> Response {
    f.into_response()
}

/// `GET`: a legacy session's stream; without a session, not allowed.
async fn get_mcp(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    if let Err(r) = check_host::<Mcp>(&app.config, &headers) {
        return *r;
    }
    match header_str(&headers, crate::legacy::SESSION_HEADER) {
        Some(id) => crate::legacy::get(&app, &headers, id),
        None => not_allowed(),
    }
}

/// `DELETE`: ends a legacy session; without a session, not allowed.
async fn delete_mcp(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    if let Err(r) = check_host::<Mcp>(&app.config, &headers) {
        return *r;
    }
    match header_str(&headers, crate::legacy::SESSION_HEADER) {
        Some(id) => crate::legacy::delete(&app, &headers, id),
        None => not_allowed(),
    }
}

fn not_allowed() -> Response {
    // Modern requests are stateless: no standalone GET stream and no session to DELETE.
    (
        StatusCode::METHOD_NOT_ALLOWED,
        [(header::ALLOW, "POST")],
        "Method Not Allowed",
    )
        .into_response()
}

async fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not Found").into_response()
}

async fn post_mcp(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    if let Err(r) = check_headers::<Mcp>(&app.config, &headers) {
        return *r;
    }
    let body = match read_body::<Mcp>(&app.config, &headers, body).await {
        Ok(b) => b,
        Err(r) => return *r,
    };
    let envelope = match modern::read_envelope::<Mcp>(&body) {
        Ok(e) => e,
        Err(f) => return failure(f),
    };
    let principal = headers::principal(&headers);
    match crate::legacy::route(&app, &headers, &envelope, &principal) {
        Route::Modern => {}
        Route::Initialize => return crate::legacy::initialize(&app, &principal, &body),
        Route::Session(session) => {
            drop(envelope);
            return crate::legacy::post(app, session, &headers, &body).await;
        }
        Route::Refuse(f) => return failure(f),
    }
    let outcome = modern::serve(&app, envelope, &body, principal, &HttpHeaders(&headers));
    drop(body);
    match outcome {
        Outcome::Accepted => StatusCode::ACCEPTED.into_response(),
        Outcome::Answer(text) => json_response(StatusCode::OK, text),
        Outcome::Refused(f) => failure(f),
        Outcome::Running { rx, cancel } => respond(rx, cancel).await,
        Outcome::Listen(rx) => sse_stream(rx),
    }
}

/// The headers of a POST, for checks 12, 14 and 16 of a modern request.
struct HttpHeaders<'a>(&'a HeaderMap);

impl modern::Headers for HttpHeaders<'_> {
    fn check_version<S: Schema>(&self, id: &S::RequestId, version: &str) -> Result<(), Refused<S>> {
        check_version_header(self.0, id, version)
    }

    fn check_names<S: Schema>(
        &self,
        id: &S::RequestId,
        method: &str,
        named: Option<Named>,
        params: Option<&probe::Params<'_>>,
    ) -> Result<(), Refused<S>> {
        check_standard_headers(self.0, id, method, named, params)
    }

    fn check_arguments<S: Schema>(
        &self,
        id: &S::RequestId,
        mirrored: &[ParamHeader],
        arguments: Option<&serde_json::Map<String, Value>>,
    ) -> Result<(), Refused<S>> {
        check_param_headers(self.0, id, mirrored, arguments)
    }

    fn streams(&self) -> bool {
        headers::accepts(self.0, SSE)
    }
}

/// `MCP-Protocol-Version`: present, and equal to `_meta`'s protocol version.
fn check_version_header<S: Schema>(
    headers: &HeaderMap,
    id: &S::RequestId,
    version: &str,
) -> Result<(), Refused<S>> {
    match header_str(headers, "mcp-protocol-version") {
        None => Err(Refused::new(
            Some(id),
            RpcError::new(HEADER_MISMATCH, "Missing MCP-Protocol-Version header"),
        )),
        Some(v) if v != version => Err(Refused::new(
            Some(id),
            RpcError::new(
                HEADER_MISMATCH,
                format!(
                    "MCP-Protocol-Version header {v:?} does not match _meta protocolVersion {version:?}"
                ),
            ),
        )),
        Some(_) => Ok(()),
    }
}

/// `Mcp-Method` always, `Mcp-Name` for the methods that name a tool, prompt or resource:
/// present, and equal to the body (values compared exactly, after trimming optional
/// whitespace).
fn check_standard_headers<S: Schema>(
    headers: &HeaderMap,
    id: &S::RequestId,
    method: &str,
    named: Option<Named>,
    params: Option<&probe::Params<'_>>,
) -> Result<(), Refused<S>> {
    match header_str(headers, "mcp-method") {
        None => {
            return Err(Refused::new(
                Some(id),
                RpcError::new(HEADER_MISMATCH, "Missing Mcp-Method header"),
            ));
        }
        Some(m) if m != method => {
            return Err(Refused::new(
                Some(id),
                RpcError::new(
                    HEADER_MISMATCH,
                    format!("Mcp-Method header {m:?} does not match the body's method {method:?}"),
                ),
            ));
        }
        Some(_) => {}
    }
    let (name_member, body_name) = match (named, params) {
        (Some(Named::Name), Some(p)) => ("name", &p.name),
        (Some(Named::Uri), Some(p)) => ("uri", &p.uri),
        (Some(Named::TaskId), Some(p)) => ("taskId", &p.task_id),
        _ => return Ok(()),
    };
    let Some(body_name) = body_name.0.as_deref() else {
        return Ok(()); // the request itself is invalid; check 15 says so
    };
    match header_str(headers, "mcp-name").map(decode) {
        None => {
            return Err(Refused::new(
                Some(id),
                RpcError::new(
                    HEADER_MISMATCH,
                    format!("Missing Mcp-Name header ({method} names {body_name:?})"),
                ),
            ));
        }
        Some(Some(n)) if n == body_name => {}
        Some(_) => {
            return Err(Refused::new(
                Some(id),
                RpcError::new(
                    HEADER_MISMATCH,
                    format!(
                        "Mcp-Name header does not match the body's {name_member} {body_name:?}"
                    ),
                ),
            ));
        }
    }
    // Mcp-Param-* headers are compared with the arguments after the typed read.
    Ok(())
}

/// `Mcp-Param-{Name}` headers: for each argument the tool marks with `x-mcp-header` (at its
/// property path), a value in the body needs the header, made only of valid header
/// characters, with the same value once decoded (numbers compared as numbers).
fn check_param_headers<S: Schema>(
    headers: &HeaderMap,
    id: &S::RequestId,
    mirrored: &[ParamHeader],
    arguments: Option<&serde_json::Map<String, Value>>,
) -> Result<(), Refused<S>> {
    let empty = serde_json::Map::new();
    let arguments = arguments.unwrap_or(&empty);
    for mirrored in mirrored {
        let Some(expected) = mirrored.value_in(arguments).and_then(|v| decode(&v)) else {
            continue;
        };
        let name = mirrored.header_name();
        let sent = headers.get(name.to_ascii_lowercase());
        let why = match sent {
            None => Some("is missing"),
            Some(v) if !is_valid_value(v.as_bytes()) => Some("holds characters a header may not"),
            Some(v) => match v.to_str().ok().map(str::trim).and_then(decode) {
                None => Some("is not valid Base64"),
                Some(v) if same_value(&v, &expected) => None,
                Some(_) => Some("does not match the argument"),
            },
        };
        if let Some(why) = why {
            let path = mirrored.path.join(".");
            return Err(Refused::new(
                Some(id),
                RpcError::new(
                    HEADER_MISMATCH,
                    format!("Header {name} {why} (argument {path})"),
                ),
            ));
        }
    }
    Ok(())
}

/// Whether a header's value and the body's agree: the same text, or the same number.
fn same_value(sent: &str, body: &str) -> bool {
    sent == body || matches!((sent.parse::<f64>(), body.parse::<f64>()), (Ok(a), Ok(b)) if a == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested() -> Vec<ParamHeader> {
        let schema = serde_json::json!({"type": "object", "properties": {
            "target": {"type": "object", "properties": {
                "zone": {"type": "string", "x-mcp-header": "Zone"},
                "size": {"type": "integer", "x-mcp-header": "Size"}
            }}
        }});
        mcp_runtime::param_headers::annotations(schema.as_object().unwrap()).unwrap()
    }

    fn check(sent: &[(&str, &[u8])], arguments: Value) -> Result<(), String> {
        let mut headers = HeaderMap::new();
        for (k, v) in sent {
            headers.insert(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                axum::http::HeaderValue::from_bytes(v).unwrap(),
            );
        }
        let id = crate::mcp::RequestId::Integer(1);
        check_param_headers::<Mcp>(&headers, &id, &nested(), arguments.as_object()).map_err(|f| {
            let body: Value = serde_json::from_str(&f.text()).unwrap();
            body["error"]["message"].as_str().unwrap_or("").to_owned()
        })
    }

    #[test]
    fn nested_arguments_are_checked_at_their_path() {
        let args = serde_json::json!({"target": {"zone": " b ", "size": 3}});
        let zone = mcp_runtime::param_headers::encode(" b ");
        assert_eq!(
            check(
                &[
                    ("mcp-param-zone", zone.as_bytes()),
                    ("mcp-param-size", b"3.0")
                ],
                args.clone()
            ),
            Ok(())
        );
        let missing = check(&[("mcp-param-zone", zone.as_bytes())], args.clone()).unwrap_err();
        assert!(
            missing.contains("Mcp-Param-Size is missing (argument target.size)"),
            "{missing}"
        );
        let wrong = check(&[("mcp-param-zone", b"b"), ("mcp-param-size", b"3")], args).unwrap_err();
        assert!(wrong.contains("does not match"), "{wrong}");
        // No value at the path: no header needed.
        assert_eq!(check(&[], serde_json::json!({"target": {}})), Ok(()));
    }

    #[test]
    fn a_header_with_invalid_characters_is_rejected() {
        let args = serde_json::json!({"target": {"zone": "b"}});
        let e = check(&[("mcp-param-zone", "b\u{e9}".as_bytes())], args).unwrap_err();
        assert!(e.contains("characters a header may not"), "{e}");
    }
}

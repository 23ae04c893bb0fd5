//! Streamable HTTP, stateless (2026-07-28): one POST per JSON-RPC message at `/mcp`, answered
//! with `application/json`, or with `text/event-stream` when the request's notifications
//! (progress, log messages) or a `subscriptions/listen` stream go with it. Legacy (2025-11-25)
//! sessions share the endpoint: check 7 routes a message by its era (`crate::legacy::route`),
//! and `initialize` or a message of a session goes to `crate::legacy`; `GET` and `DELETE` with
//! an `Mcp-Session-Id` are a session's too (after check 2 alone).
//!
//! Checks 1 to 5 are `mcp_server::checks`' (the transport's, before the body is read as a
//! message); 6 to 16 are still this example's. Every POST goes through these checks, in this order, each with the error (a code of
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
use mcp_runtime::error_code::{
    HEADER_MISMATCH, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR,
};
use mcp_runtime::param_headers::{ParamHeader, decode, is_valid_value};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::headers::{self, header_str};
use crate::legacy::Route;
use crate::mcp;
use crate::probe::{self, Unreadable};
use crate::rpc::{Ctx, Msg, Notifier, Refused};
use crate::tasks::{self, TaskRequest};
use crate::work::Cancel;
use crate::{App, MODERN_VERSIONS, Mcp};
use mcp_server::answer::respond;
use mcp_server::checks::{SSE, check_headers, check_host, json_response, read_body};

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/mcp", post(post_mcp).get(get_mcp).delete(delete_mcp))
        .fallback(not_found)
        .with_state(app)
}

/// The methods a client may call, each named by its generated request type.
fn is_known_method(method: &str) -> bool {
    use mcp_runtime::Request as R;
    tasks::methods().contains(&method)
        || [
            <mcp::DiscoverRequest as R>::METHOD,
            <mcp::ListToolsRequest as R>::METHOD,
            <mcp::CallToolRequest as R>::METHOD,
            <mcp::ListPromptsRequest as R>::METHOD,
            <mcp::GetPromptRequest as R>::METHOD,
            <mcp::ListResourcesRequest as R>::METHOD,
            <mcp::ListResourceTemplatesRequest as R>::METHOD,
            <mcp::ReadResourceRequest as R>::METHOD,
            <mcp::SubscriptionsListenRequest as R>::METHOD,
            <mcp::CompleteRequest as R>::METHOD,
        ]
        .contains(&method)
}

fn failure(f: Refused) -> Response {
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
    let envelope = match probe::read(&body) {
        Ok(e) => e,
        Err(Unreadable::Syntax(e)) => {
            return failure(Refused::new(
                None,
                RpcError::new(PARSE_ERROR, format!("Parse error: {e}")),
            ));
        }
        Err(Unreadable::Shape(e)) => {
            return failure(Refused::new(
                None,
                RpcError::new(
                    INVALID_REQUEST,
                    format!(
                        "Invalid Request: one JSON-RPC message per POST (2026-07-28 has no batches): {e}"
                    ),
                ),
            ));
        }
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
    let Some(method) = envelope.method.as_deref() else {
        // A response: in the stateless protocol the server sends no requests to answer.
        return failure(Refused::new(
            None,
            RpcError::new(
                INVALID_REQUEST,
                "Invalid Request: this server sends no requests, so it takes no responses",
            ),
        ));
    };
    let Some(id) = envelope.id.as_ref() else {
        // A notification (e.g. notifications/cancelled): accepted, nothing to answer.
        return match serde_json::from_slice::<mcp::JSONRPCNotification>(&body) {
            Ok(_) => StatusCode::ACCEPTED.into_response(),
            Err(e) => failure(Refused::new(
                None,
                RpcError::new(INVALID_REQUEST, format!("Invalid Request: {e}")),
            )),
        };
    };
    let (Some(id), Some("2.0")) = (id.clone(), envelope.jsonrpc.as_deref()) else {
        return failure(Refused::new(
            None,
            RpcError::new(
                INVALID_REQUEST,
                "Invalid Request: a request has \"jsonrpc\": \"2.0\" and a string or integer id",
            ),
        ));
    };
    if !is_known_method(method) {
        return failure(Refused::new(
            Some(&id),
            RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {method}")),
        ));
    }
    let params = envelope.params.as_ref().map(|p| &p.0);
    let meta: mcp::RequestMetaObject = match params.and_then(|p| p.meta) {
        Some(raw) => match serde_json::from_str(raw.get()) {
            Ok(m) => m,
            Err(e) => {
                return failure(Refused::new(
                    Some(&id),
                    RpcError::new(INVALID_PARAMS, format!("Invalid params: _meta: {e}")),
                ));
            }
        },
        None => {
            return failure(Refused::new(
                Some(&id),
                RpcError::new(
                    INVALID_PARAMS,
                    "Invalid params: every request carries _meta with io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities",
                ),
            ));
        }
    };
    match header_str(&headers, "mcp-protocol-version") {
        None => {
            return failure(Refused::new(
                Some(&id),
                RpcError::new(HEADER_MISMATCH, "Missing MCP-Protocol-Version header"),
            ));
        }
        Some(v) if v != meta.protocol_version => {
            return failure(Refused::new(
                Some(&id),
                RpcError::new(
                    HEADER_MISMATCH,
                    format!(
                        "MCP-Protocol-Version header {v:?} does not match _meta protocolVersion {:?}",
                        meta.protocol_version
                    ),
                ),
            ));
        }
        Some(_) => {}
    }
    if !MODERN_VERSIONS.contains(&meta.protocol_version.as_str()) {
        let message = format!("Unsupported protocol version {:?}", meta.protocol_version);
        let refused = crate::rpc::unsupported_version(&id, &meta.protocol_version, message);
        return failure(refused);
    }
    if let Err(f) = check_standard_headers(&headers, &id, method, params) {
        return failure(f);
    }
    if tasks::methods().contains(&method) {
        return answer_task(app, id, meta, principal, method, &body);
    }
    // The one typed read of the message, from the bytes as sent.
    let request: mcp::ClientRequest = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return failure(invalid_params(&id, e)),
    };
    drop(envelope);
    drop(body);
    if let mcp::ClientRequest::CallToolRequest(call) = &request
        && let Err(f) = check_param_headers(
            &headers,
            &id,
            &crate::features::mirrored_params(&call.params.name),
            call.params.arguments.as_ref(),
        )
    {
        return failure(f);
    }
    if let mcp::ClientRequest::SubscriptionsListenRequest(listen) = request {
        return crate::features::listen(app, principal, &meta, listen).unwrap_or_else(failure);
    }
    let streaming = headers::accepts(&headers, SSE)
        && (meta.progress_token.is_some() || meta.log_level.is_some());
    let (tx, rx) = mpsc::unbounded_channel();
    let running = app.running.enter();
    let ctx = Ctx {
        id,
        notifier: Notifier::new(streaming.then(|| tx.clone()), &meta),
        meta,
        principal,
        app,
    };
    let handler = tokio::spawn(async move {
        let _running = running;
        let done = crate::features::dispatch(ctx, request).await;
        let _ = tx.send(Msg::Done(done));
    });
    respond(rx, Cancel::new(handler.abort_handle())).await
}

fn invalid_params(id: &mcp::RequestId, e: serde_json::Error) -> Refused {
    Refused::new(
        Some(id),
        RpcError::new(INVALID_PARAMS, format!("Invalid params: {e}")),
    )
}

/// Answers a request of the tasks extension (`method`, one of `tasks::methods()`) at once.
fn answer_task(
    app: Arc<App>,
    id: mcp::RequestId,
    meta: mcp::RequestMetaObject,
    principal: String,
    method: &str,
    body: &[u8],
) -> Response {
    let read = if method == <mcp::UpdateTaskRequest as mcp_runtime::Request>::METHOD {
        // Answers to keys the task does not wait on are dropped unread, whatever they hold:
        // the one request read through a `Value`.
        serde_json::from_slice::<Value>(body).and_then(|mut message| {
            tasks::ignore_unasked(&principal, &app.tasks, &mut message);
            TaskRequest::read(method, message)
        })
    } else {
        TaskRequest::from_slice(method, body)
    };
    let request = match read {
        Ok(r) => r,
        Err(e) => return failure(invalid_params(&id, e)),
    };
    let ctx = Ctx {
        id,
        notifier: Notifier::new(None, &meta),
        meta,
        principal,
        app,
    };
    match tasks::dispatch(&ctx, request) {
        Ok(text) => json_response(StatusCode::OK, text),
        Err(f) => failure(f),
    }
}

/// `Mcp-Method` always, `Mcp-Name` for the methods that name a tool, prompt or resource:
/// present, and equal to the body (values compared exactly, after trimming optional
/// whitespace).
fn check_standard_headers(
    headers: &HeaderMap,
    id: &mcp::RequestId,
    method: &str,
    params: Option<&probe::Params<'_>>,
) -> Result<(), Refused> {
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
    let (name_member, body_name) = match (method, params) {
        ("tools/call" | "prompts/get", Some(p)) => ("name", &p.name),
        ("resources/read", Some(p)) => ("uri", &p.uri),
        (m, Some(p)) if tasks::methods().contains(&m) => ("taskId", &p.task_id),
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
fn check_param_headers(
    headers: &HeaderMap,
    id: &mcp::RequestId,
    mirrored: &[ParamHeader],
    arguments: Option<&serde_json::Map<String, Value>>,
) -> Result<(), Refused> {
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
        let id = mcp::RequestId::Integer(1);
        check_param_headers(&headers, &id, &nested(), arguments.as_object()).map_err(|f| {
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

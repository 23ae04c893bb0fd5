//! Streamable HTTP, stateless (2026-07-28): one POST per JSON-RPC message at `/mcp`, answered
//! with `application/json`, or with `text/event-stream` when the request's notifications
//! (progress, log messages) or a `subscriptions/listen` stream go with it.
//!
//! Every request goes through the same checks, in this order, each with the error and HTTP
//! status the specification gives it:
//!
//! 1. `Host` and `Origin` name this machine (DNS-rebinding protection): else 403.
//! 2. The body is one JSON-RPC message (no batches in 2026-07-28): else -32700 / -32600, 400.
//! 3. The method exists: else -32601, 404 (the removed `initialize`, `ping`,
//!    `logging/setLevel`, `resources/subscribe`... included).
//! 4. `params._meta` has `io.modelcontextprotocol/protocolVersion` and
//!    `io.modelcontextprotocol/clientCapabilities`: else -32602, 400.
//! 5. The `MCP-Protocol-Version` header is there and equals `_meta`'s: else -32020, 400.
//! 6. The version is one this server implements: else -32022 with `supported`/`requested`, 400.
//! 7. `Mcp-Method` (and `Mcp-Name` for `tools/call`, `prompts/get`, `resources/read`, and
//!    the task id of `tasks/get`, `tasks/update`, `tasks/cancel`) match the body: else
//!    -32020, 400.
//! 8. The whole message reads as the generated `ClientRequest`, or as the tasks extension's
//!    request of its method: else -32602, 400. (Answers in a `tasks/update` to keys the task
//!    does not wait on are dropped unread first: the extension says to ignore them.)

use std::convert::Infallible;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use mcp_runtime::param_headers::{ParamHeader, decode, is_valid_value};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_stream::StreamExt as _;
use tokio_stream::wrappers::UnboundedReceiverStream;

use crate::mcp;
use crate::rpc::{
    Ctx, Failure, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, Msg, Notifier, PARSE_ERROR,
};
use crate::tasks::{self, TaskRequest};
use crate::{App, SUPPORTED_VERSIONS};

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/mcp", post(post_mcp).get(not_allowed).delete(not_allowed))
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

/// `body` is the JSON text of one message, written from its generated type.
fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn failure(f: Failure) -> Response {
    json_response(f.status, f.body)
}

async fn not_allowed(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    if let Err(r) = check_host(&app, &headers) {
        return *r;
    }
    // Stateless: there is no standalone GET stream and no session to DELETE.
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

/// The host part of a `Host` header value or an origin's authority, lowercased, port removed.
fn host_name(authority: &str) -> String {
    let a = authority.trim().to_ascii_lowercase();
    if a.starts_with('[') {
        // [v6]:port
        return match a.find(']') {
            Some(end) => a[..=end].to_owned(),
            None => a,
        };
    }
    match a.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h.to_owned(),
        _ => a,
    }
}

/// DNS-rebinding protection: a page on another site that resolves its name to 127.0.0.1 sends
/// its own `Host` and `Origin`; refuse both unless they name this machine.
fn check_host(app: &App, headers: &HeaderMap) -> Result<(), Box<Response>> {
    let refuse = |what: &str| {
        let body = Failure::new(
            None,
            INVALID_REQUEST,
            format!("Forbidden: {what} is not an allowed host"),
        )
        .body;
        Err(Box::new(json_response(StatusCode::FORBIDDEN, body)))
    };
    match headers.get(header::HOST).and_then(|v| v.to_str().ok()) {
        Some(h) if app.allowed_hosts.contains(&host_name(h)) => {}
        Some(h) => return refuse(&format!("Host {h:?}")),
        None => return refuse("a request without Host"),
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let o = origin.to_str().unwrap_or_default();
        let authority = o
            .split_once("://")
            .map(|(_, rest)| rest.split('/').next().unwrap_or_default());
        match authority {
            Some(a) if app.allowed_hosts.contains(&host_name(a)) => {}
            _ => return refuse(&format!("Origin {o:?}")),
        }
    }
    Ok(())
}

fn header_str<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
}

fn accepts_sse(headers: &HeaderMap) -> bool {
    header_str(headers, "accept").is_some_and(|a| a.contains("text/event-stream"))
}

async fn post_mcp(State(app): State<Arc<App>>, headers: HeaderMap, body: Bytes) -> Response {
    if let Err(r) = check_host(&app, &headers) {
        return *r;
    }
    let content_type = header_str(&headers, "content-type").unwrap_or_default();
    if !content_type.starts_with("application/json") {
        return failure(Failure::new(
            None,
            INVALID_REQUEST,
            "Content-Type must be application/json",
        ))
        .into_response();
    }
    let message: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return failure(Failure::new(None, PARSE_ERROR, format!("Parse error: {e}"))),
    };
    let Some(object) = message.as_object() else {
        return failure(Failure::new(
            None,
            INVALID_REQUEST,
            "Invalid Request: one JSON-RPC message per POST (2026-07-28 has no batches)",
        ));
    };
    if !object.contains_key("method") {
        // A response: in the stateless protocol the server sends no requests to answer.
        return failure(Failure::new(
            None,
            INVALID_REQUEST,
            "Invalid Request: this server sends no requests, so it takes no responses",
        ));
    }
    if !object.contains_key("id") {
        // A notification (e.g. notifications/cancelled): accepted, nothing to answer.
        return match serde_json::from_value::<mcp::JSONRPCNotification>(message) {
            Ok(_) => StatusCode::ACCEPTED.into_response(),
            Err(e) => failure(Failure::new(
                None,
                INVALID_REQUEST,
                format!("Invalid Request: {e}"),
            )),
        };
    }
    // The envelope first: jsonrpc, id and method, without the params.
    let envelope = match serde_json::from_value::<mcp::JSONRPCRequest>(message) {
        Ok(r) => r,
        Err(e) => {
            return failure(Failure::new(
                None,
                INVALID_REQUEST,
                format!("Invalid Request: {e}"),
            ));
        }
    };
    let id = envelope.id.clone();
    let method = envelope.method.as_str();
    if !is_known_method(method) {
        return failure(Failure::new(
            Some(&id),
            METHOD_NOT_FOUND,
            format!("Method not found: {method}"),
        ));
    }
    let meta_value = envelope
        .params
        .as_ref()
        .and_then(|p| p.get("_meta"))
        .cloned();
    let meta: mcp::RequestMetaObject = match meta_value.map(serde_json::from_value) {
        Some(Ok(m)) => m,
        Some(Err(e)) => {
            return failure(Failure::new(
                Some(&id),
                INVALID_PARAMS,
                format!("Invalid params: _meta: {e}"),
            ));
        }
        None => {
            return failure(Failure::new(
                Some(&id),
                INVALID_PARAMS,
                "Invalid params: every request carries _meta with io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities",
            ));
        }
    };
    match header_str(&headers, "mcp-protocol-version") {
        None => {
            return failure(Failure::header_mismatch(
                Some(&id),
                "Missing MCP-Protocol-Version header",
            ));
        }
        Some(v) if v != meta.protocol_version => {
            return failure(Failure::header_mismatch(
                Some(&id),
                format!(
                    "MCP-Protocol-Version header {v:?} does not match _meta protocolVersion {:?}",
                    meta.protocol_version
                ),
            ));
        }
        Some(_) => {}
    }
    if !SUPPORTED_VERSIONS.contains(&meta.protocol_version.as_str()) {
        let response = mcp::UnsupportedProtocolVersionError::new(
            mcp::UnsupportedProtocolVersionErrorError::new(
                mcp::UnsupportedProtocolVersionErrorErrorData::new(
                    meta.protocol_version.clone(),
                    SUPPORTED_VERSIONS
                        .iter()
                        .map(|v| (*v).to_owned())
                        .collect::<Vec<_>>(),
                ),
                format!("Unsupported protocol version {:?}", meta.protocol_version),
            ),
        )
        .with_id(id.clone());
        return failure(Failure::typed(StatusCode::BAD_REQUEST, &response));
    }
    if let Err(f) = check_standard_headers(&headers, &id, method, envelope.params.as_ref()) {
        return failure(f);
    }
    let principal = header_str(&headers, "authorization")
        .map(str::to_owned)
        .unwrap_or_else(|| "anonymous".to_owned());
    if tasks::methods().contains(&method) {
        return answer_task(app, id, meta, principal, method, &body);
    }
    // Read from the bytes as sent (not from `message`): the generated type sees the JSON text.
    let request: mcp::ClientRequest = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return failure(invalid_params(&id, e)),
    };
    if let mcp::ClientRequest::SubscriptionsListenRequest(listen) = request {
        return crate::features::listen(app, principal, &meta, listen).unwrap_or_else(failure);
    }
    let streaming =
        accepts_sse(&headers) && (meta.progress_token.is_some() || meta.log_level.is_some());
    let (tx, rx) = mpsc::unbounded_channel();
    let ctx = Ctx {
        id,
        notifier: Notifier::new(streaming.then(|| tx.clone()), &meta),
        meta,
        principal,
        app,
    };
    tokio::spawn(async move {
        let done = crate::features::dispatch(ctx, request).await;
        let _ = tx.send(Msg::Done(done));
    });
    respond(rx).await
}

fn invalid_params(id: &mcp::RequestId, e: serde_json::Error) -> Failure {
    Failure::new(Some(id), INVALID_PARAMS, format!("Invalid params: {e}"))
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
    let mut message: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return failure(invalid_params(&id, e)),
    };
    if method == <mcp::UpdateTaskRequest as mcp_runtime::Request>::METHOD {
        tasks::ignore_unasked(&principal, &app.tasks, &mut message);
    }
    let request = match TaskRequest::read(method, message) {
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
    params: Option<&serde_json::Map<String, Value>>,
) -> Result<(), Failure> {
    match header_str(headers, "mcp-method") {
        None => {
            return Err(Failure::header_mismatch(
                Some(id),
                "Missing Mcp-Method header",
            ));
        }
        Some(m) if m != method => {
            return Err(Failure::header_mismatch(
                Some(id),
                format!("Mcp-Method header {m:?} does not match the body's method {method:?}"),
            ));
        }
        Some(_) => {}
    }
    let name_member = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        m if tasks::methods().contains(&m) => "taskId",
        _ => return Ok(()),
    };
    let Some(body_name) = params
        .and_then(|p| p.get(name_member))
        .and_then(Value::as_str)
    else {
        return Ok(()); // the request itself is invalid; step 8 says so
    };
    match header_str(headers, "mcp-name").map(decode) {
        None => {
            return Err(Failure::header_mismatch(
                Some(id),
                format!("Missing Mcp-Name header ({method} names {body_name:?})"),
            ));
        }
        Some(Some(n)) if n == body_name => {}
        Some(_) => {
            return Err(Failure::header_mismatch(
                Some(id),
                format!("Mcp-Name header does not match the body's {name_member} {body_name:?}"),
            ));
        }
    }
    if method == "tools/call" {
        let arguments = params
            .and_then(|p| p.get("arguments"))
            .and_then(Value::as_object);
        let mirrored = crate::features::mirrored_params(body_name);
        check_param_headers(headers, id, &mirrored, arguments)?;
    }
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
) -> Result<(), Failure> {
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
            return Err(Failure::header_mismatch(
                Some(id),
                format!("Header {name} {why} (argument {path})"),
            ));
        }
    }
    Ok(())
}

/// Whether a header's value and the body's agree: the same text, or the same number.
fn same_value(sent: &str, body: &str) -> bool {
    sent == body || matches!((sent.parse::<f64>(), body.parse::<f64>()), (Ok(a), Ok(b)) if a == b)
}

/// The answer to one request: plain JSON when the handler finished before it notified
/// anything (errors then keep their HTTP status), else an SSE stream of its notifications
/// ending with the response.
async fn respond(mut rx: mpsc::UnboundedReceiver<Msg>) -> Response {
    match rx.recv().await {
        None => failure(Failure::new(
            None,
            crate::rpc::INTERNAL_ERROR,
            "the handler stopped without answering",
        )),
        Some(Msg::Done(Ok(body))) => json_response(StatusCode::OK, body),
        Some(Msg::Done(Err(f))) => failure(f),
        Some(Msg::Note(first)) => {
            let first = tokio_stream::once(Msg::Note(first));
            let rest = UnboundedReceiverStream::new(rx);
            // The handler task sends `Done` last and then drops its sender, so the stream
            // ends right after the final response.
            let events = first.chain(rest).map(|m| match m {
                Msg::Note(text) | Msg::Done(Ok(text)) => text,
                Msg::Done(Err(f)) => f.body,
            });
            unbuffered(Sse::new(events.map(event)).into_response())
        }
    }
}

/// One SSE event carrying one JSON-RPC message.
fn event(text: String) -> Result<Event, Infallible> {
    Ok(Event::default().event("message").data(text))
}

/// `X-Accel-Buffering: no` on an SSE response, so that a reverse proxy passes each event on
/// as it comes instead of buffering the stream.
fn unbuffered(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::HeaderName::from_static("x-accel-buffering"),
        header::HeaderValue::from_static("no"),
    );
    response
}

/// An SSE response that stays open (subscriptions/listen), with keep-alive comments; each
/// item is the JSON text of one message.
pub fn sse_stream(rx: mpsc::UnboundedReceiver<String>) -> Response {
    let events = UnboundedReceiverStream::new(rx).map(event);
    unbuffered(
        Sse::new(events)
            .keep_alive(KeepAlive::default())
            .into_response(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names() {
        assert_eq!(host_name("127.0.0.1:8080"), "127.0.0.1");
        assert_eq!(host_name("LOCALHOST"), "localhost");
        assert_eq!(host_name("[::1]:80"), "[::1]");
        assert_eq!(host_name("evil.example.com"), "evil.example.com");
    }

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
            let body: Value = serde_json::from_str(&f.body).unwrap();
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

//! Legacy (2025-11-25) sessions on the same endpoint as the modern requests, served by the
//! same handlers.
//!
//! Which era a POST belongs to is `mcp_runtime::era::classify`'s decision ([`route`]):
//! `initialize` opens a session ([`initialize`]), a message naming a live session is served
//! in it ([`post`]), everything else goes on to the modern checks. In a session:
//!
//! - `ping`, `logging/setLevel`, `resources/subscribe` and `resources/unsubscribe` (methods
//!   2026-07-28 removed) are answered here;
//! - every other request is read as its 2025-11-25 type, converted to the 2026-07-28 type by
//!   the generated conversions (with the session's capabilities and client in `_meta`, as a
//!   modern client sends them with each request), and answered by the modern handler through
//!   `mcp_server::bridge`: an `input_required` answer becomes server-to-client requests on
//!   the request's SSE stream (`mcp_server::legacy::peer`), and the final result is converted back
//!   (`mcp_server::legacy::convert`), as is an error whose code 2025-11-25 writes otherwise (an unknown
//!   resource: the generated `ERROR_CODE_FACTS`);
//! - a JSON-RPC response from the client is handed to the server request waiting on it.
//!
//! Responses that stream, and the `GET` stream, are resumable ([`streams`]): each event has an
//! id naming its stream, a handler may have the connection ended early (`test_reconnection`),
//! and a `GET` with `Last-Event-ID` replays that stream from there and goes on with it.
//!
//! Over stdio (`crate::stdio`) the process is the one session: [`open`] and [`start`] serve
//! it as they serve a session's POSTs, without the HTTP answers.
//!
//! The transport's answers (2025-11-25 `basic/transports`): a request of a session without
//! `Mcp-Session-Id` is refused with 400, one with an id the server does not know (or that
//! another principal opened) with 404; `DELETE` ends a session; `GET` opens its stream.

pub use mcp_server::streams;

use std::sync::Arc;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use mcp_runtime::error_code::{INTERNAL_ERROR, INVALID_PARAMS, SERVER_ERROR};
use mcp_runtime::{Notification, Request, RpcError};
use serde::{Deserialize as _, Serialize};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::probe::Envelope;
use crate::rpc::{Ctx, Msg, Notifier, Refused};
use crate::work::Cancel;
use crate::{App, Mcp, mcp};
use mcp_server::legacy::{OpenError, SessionPeer, convert};

/// A legacy session of this server (`mcp_server::legacy::Session`).
pub type Session = mcp_server::legacy::Session<Mcp>;
/// This server's legacy sessions (`mcp_server::legacy::Sessions`).
pub type Sessions = mcp_server::legacy::Sessions<Mcp>;

use mcp::v2025_11_25 as legacy;

/// The revision a legacy session speaks: the only one before 2026-07-28 generated here.
pub const LEGACY_VERSION: &str = "2025-11-25";
/// The header that names a legacy session.
pub const SESSION_HEADER: &str = mcp_server::http::SESSION_HEADER;
/// Rounds of input one legacy request may take before it is answered with an error.
const MAX_ROUNDS: usize = 8;

/// Where a POST goes (`mcp_server::legacy::Route`).
pub type Route = mcp_server::legacy::Route<Mcp>;
pub use mcp_server::legacy::is_initialize;

/// The era of a POSTed message (`mcp_server::legacy::route`), with the session it names.
pub fn route(
    app: &App,
    headers: &HeaderMap,
    envelope: &Envelope<'_, mcp::RequestId>,
    principal: &str,
) -> Route {
    let modern_only = app.config.modern_only;
    mcp_server::legacy::route(&app.sessions, modern_only, headers, envelope, principal)
}

/// `--modern-only`: `initialize` answered with `UnsupportedProtocolVersion` naming the versions
/// served (400).
fn modern_only(id: &mcp::RequestId, requested: &str) -> Refused {
    let message = format!(
        "Unsupported protocol version {requested:?}: this server serves only {} (no initialize)",
        crate::MODERN_VERSIONS.join(", ")
    );
    mcp_server::modern::unsupported_version(id, requested, crate::MODERN_VERSIONS, message)
}

/// The response to request `id` with `result` (`mcp_server::legacy::convert`).
fn result_text<T: Serialize>(id: &mcp::RequestId, result: T) -> Result<String, Refused> {
    convert::result_text(id, result)
}

/// The capabilities a legacy client is told: those `server/discover` lists, in the
/// 2025-11-25 shape (no extensions, which that revision lacks), and resource subscriptions,
/// a legacy-only method this server answers.
fn legacy_capabilities() -> Result<legacy::ServerCapabilities, String> {
    let mut modern = crate::features::capabilities();
    modern.extensions = None;
    let mut caps = legacy::ServerCapabilities::try_from(modern).map_err(|e| e.to_string())?;
    caps.extra.clear();
    let resources = caps.resources.get_or_insert_with(Default::default);
    resources.subscribe = Some(true);
    Ok(caps)
}

/// `initialize`: a new session for `principal`, its id in `Mcp-Session-Id`.
pub fn initialize(app: &App, principal: &str, body: &[u8]) -> Response {
    match open(app, principal, body) {
        Ok((session, text)) => {
            let mut response = json(StatusCode::OK, text);
            if let Ok(v) = HeaderValue::from_str(&session.id) {
                response.headers_mut().insert(SESSION_HEADER, v);
            }
            response
        }
        Err(f) => f.into_response(),
    }
}

/// `initialize` (`body`): a new session for `principal` and the response that tells of it;
/// refused with the HTTP status of the refusal.
pub fn open(app: &App, principal: &str, body: &[u8]) -> Result<(Arc<Session>, String), Refused> {
    let request: legacy::InitializeRequest =
        serde_json::from_slice(body).map_err(|e| invalid(None, &e.to_string()))?;
    let id = request.id.clone();
    if app.config.modern_only {
        return Err(modern_only(&id, &request.params.protocol_version));
    }
    let capabilities = mcp::ClientCapabilities::try_from(request.params.capabilities)
        .map_err(|e| invalid(Some(&id), &e.to_string()))?;
    let session = app
        .sessions
        .open(principal, capabilities, request.params.client_info)
        .map_err(|e| match e {
            OpenError::Full(n) => {
                let message = format!("Too many sessions: {n} are open; end one (DELETE) or retry");
                in_session(Refused::new(Some(&id), mcp_server::bound_reached(message)))
            }
            OpenError::NoRandomness(e) => {
                in_session(Refused::new(Some(&id), RpcError::new(INTERNAL_ERROR, e)))
            }
        })?;
    // The one revision this server speaks in a session: a client asking another one reads
    // this answer and decides whether to go on.
    let result = legacy_capabilities()
        .map(|caps| {
            legacy::InitializeResult::new(caps, LEGACY_VERSION, crate::server_info())
                .with_instructions(crate::features::INSTRUCTIONS)
        })
        .map_err(|e| in_session(Refused::new(Some(&id), RpcError::new(INTERNAL_ERROR, e))))?;
    let text = result_text(&id, result).map_err(in_session)?;
    Ok((session, text))
}

fn json(status: StatusCode, text: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// A JSON-RPC error of a legacy session: errors are JSON-RPC results of the exchange, sent
/// with 200 (transport refusals are made before this), except a bound reached (429).
fn in_session(mut f: Refused) -> Refused {
    if f.status != StatusCode::TOO_MANY_REQUESTS {
        f.status = StatusCode::OK;
    }
    f
}

fn reply(f: Refused) -> Response {
    in_session(f).into_response()
}

fn invalid(id: Option<&mcp::RequestId>, e: &str) -> Refused {
    in_session(Refused::new(
        id,
        RpcError::new(INVALID_PARAMS, format!("Invalid params: {e}")),
    ))
}

/// What a message of a session comes to.
pub enum Started {
    /// A notification or a response: nothing to answer.
    Accepted,
    /// Answered at once.
    Answer(Result<String, Refused>),
    /// Its handler runs: what it sends (server-to-client requests included), then its
    /// response, come on `rx`; dropping `cancel` before the response stops it.
    Running {
        rx: mpsc::UnboundedReceiver<Msg>,
        cancel: Cancel,
    },
}

/// A message of a live session.
pub async fn post(
    app: Arc<App>,
    session: Arc<Session>,
    headers: &HeaderMap,
    body: &[u8],
) -> Response {
    if let Some(v) = headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok())
        && v.trim() != LEGACY_VERSION
    {
        let message = format!(
            "Bad Request: MCP-Protocol-Version {v:?} is not the session's {LEGACY_VERSION}"
        );
        let mut f = Refused::new(None, RpcError::new(SERVER_ERROR, message));
        f.status = StatusCode::BAD_REQUEST;
        return f.into_response();
    }
    match start(app, Arc::clone(&session), body) {
        Started::Accepted => StatusCode::ACCEPTED.into_response(),
        Started::Answer(Ok(text)) => json(StatusCode::OK, text),
        Started::Answer(Err(f)) => reply(f),
        Started::Running { rx, cancel } => respond(session, rx, cancel).await,
    }
}

/// Serves the message `body` of `session`, whatever carries it: a response to one of the
/// server's requests handed to the request that waits on it, `notifications/cancelled`
/// stopping the request it names, a request started.
pub fn start(app: Arc<App>, session: Arc<Session>, body: &[u8]) -> Started {
    let message: Value = match serde_json::from_slice(body) {
        Ok(m) => m,
        Err(e) => return Started::Answer(Err(invalid(None, &e.to_string()))),
    };
    let method = message.get("method").and_then(Value::as_str);
    let id: Option<mcp::RequestId> = message
        .get("id")
        .and_then(|id| serde_json::from_value(id.clone()).ok());
    match (method, id) {
        (None, _) => {
            // A response to one of the server's requests.
            if let Some(id) = message.get("id").and_then(Value::as_str) {
                session.answer(id, message.clone());
            }
            Started::Accepted
        }
        (Some(m), None) if m == <legacy::CancelledNotification as Notification>::METHOD => {
            if let Some(request) = message.pointer("/params/requestId") {
                session.cancel(request);
            }
            Started::Accepted
        }
        (Some(_), None) => Started::Accepted,
        (Some(method), Some(id)) => {
            let method = method.to_owned();
            request(app, session, id, method, message)
        }
    }
}

/// A request of a session: the legacy-only methods answered here, the rest started with the
/// modern handlers.
fn request(
    app: Arc<App>,
    session: Arc<Session>,
    id: mcp::RequestId,
    method: String,
    message: Value,
) -> Started {
    if let Some(answer) = legacy_only(&session, &id, &method, &message) {
        return Started::Answer(answer);
    }
    let meta = modern_meta(&session, &message);
    let modern = match convert::request_to_modern(&id, message, &meta) {
        Ok(m) => m,
        Err(f) => return Started::Answer(Err(f)),
    };
    let (tx, rx) = mpsc::unbounded_channel();
    let running = app.running.enter();
    // The task waits for its `Tracked` (which lists it for `notifications/cancelled`), so it
    // cannot finish before it is listed; dropped with the task, the guard unlists it.
    let (listed, is_listed) = oneshot::channel();
    let (task_session, task_id, task_tx) = (Arc::clone(&session), id.clone(), tx.clone());
    let handler = tokio::spawn(async move {
        let _running = running;
        let Ok(_tracked) = is_listed.await else {
            return;
        };
        let done = serve(
            app,
            task_session,
            task_id,
            method,
            meta,
            modern,
            task_tx.clone(),
        )
        .await;
        let _ = task_tx.send(Msg::Done(done));
    });
    let _ = listed.send(session.track(&id, handler.abort_handle(), tx));
    Started::Running {
        rx,
        cancel: Cancel::new(handler.abort_handle()),
    }
}

/// The methods 2026-07-28 removed, answered here: `ping`, `logging/setLevel`,
/// `resources/subscribe` and `resources/unsubscribe`; `None` for any other.
fn legacy_only(
    session: &Session,
    id: &mcp::RequestId,
    method: &str,
    message: &Value,
) -> Option<Result<String, Refused>> {
    let empty = || result_text(id, serde_json::Map::new());
    let invalid = |e: serde_json::Error| Err(invalid(Some(id), &e.to_string()));
    Some(match method {
        m if m == <legacy::PingRequest as Request>::METHOD => empty(),
        m if m == <legacy::SetLevelRequest as Request>::METHOD => {
            match legacy::SetLevelRequest::deserialize(message) {
                Ok(r) => {
                    session.set_log_level(r.params.level);
                    empty()
                }
                Err(e) => invalid(e),
            }
        }
        // Only a resource that can change is followed: any other has nothing to report.
        m if m == <legacy::SubscribeRequest as Request>::METHOD => {
            match legacy::SubscribeRequest::deserialize(message) {
                Ok(r) => {
                    if let Some(uri) = crate::features::changing_resource(&r.params.uri) {
                        session.subscribe(uri);
                    }
                    empty()
                }
                Err(e) => invalid(e),
            }
        }
        m if m == <legacy::UnsubscribeRequest as Request>::METHOD => {
            match legacy::UnsubscribeRequest::deserialize(message) {
                Ok(r) => {
                    session.unsubscribe(&r.params.uri);
                    empty()
                }
                Err(e) => invalid(e),
            }
        }
        _ => return None,
    })
}

/// The answer to a request of a session: plain JSON when the handler finished before it sent
/// anything else (as the modern era's responses are), else one of the session's resumable
/// streams, fed by a task of its own until the handler answers or is cancelled.
///
/// `cancel` stops the handler if the client goes away before the stream opens; once it is
/// open, the handler runs on without a connection (its stream resumes, and 2025-11-25 asks
/// for `notifications/cancelled` to cancel), until it answers or a bound stops it.
async fn respond(
    session: Arc<Session>,
    mut rx: mpsc::UnboundedReceiver<Msg>,
    cancel: Cancel,
) -> Response {
    let first = match rx.recv().await {
        Some(m @ (Msg::Note(_) | Msg::EndConnection)) => m,
        Some(Msg::Cancelled) => return streams::response(mpsc::channel(1).1),
        Some(Msg::Done(Ok(body))) => return json(StatusCode::OK, body),
        Some(Msg::Done(Err(f))) => return reply(f),
        None => {
            let f = Refused::new(
                None,
                RpcError::new(INTERNAL_ERROR, "the handler stopped without answering"),
            );
            return reply(f);
        }
    };
    let (number, connection) = session.streams.open();
    tokio::spawn(async move {
        let _cancel = cancel;
        let mut next = Some(first);
        while let Some(m) = next {
            match m {
                Msg::Cancelled => break,
                Msg::EndConnection => session.streams.end_connection(number),
                m @ Msg::Done(_) => {
                    session
                        .streams
                        .send(number, m.into_text().unwrap_or_default());
                    break;
                }
                Msg::Note(text) => session.streams.send(number, text),
            }
            next = rx.recv().await;
        }
        session.streams.finish(number);
    });
    streams::response(connection)
}

/// What a modern client would send in `_meta`, from the session: its capabilities and client,
/// the level `logging/setLevel` set, and the request's own progress token.
fn modern_meta(session: &Session, message: &Value) -> mcp::RequestMetaObject {
    let mut meta = mcp::RequestMetaObject::new(session.capabilities.clone(), LEGACY_VERSION)
        .with_client_info(session.client_info.clone());
    if let Some(level) = session.log_level() {
        meta = meta.with_log_level(level);
    }
    let token: Option<mcp::ProgressToken> = message
        .pointer("/params/_meta/progressToken")
        .and_then(|t| serde_json::from_value(t.clone()).ok());
    if let Some(token) = token {
        meta = meta.with_progress_token(token);
    }
    meta
}

/// Answers a converted request with the modern handler, through the bridge.
async fn serve(
    app: Arc<App>,
    session: Arc<Session>,
    id: mcp::RequestId,
    method: String,
    meta: mcp::RequestMetaObject,
    modern: mcp::ClientRequest,
    tx: mpsc::UnboundedSender<Msg>,
) -> Result<String, Refused> {
    let notifier = Notifier::new(Some(tx.clone()), &meta)
        .legacy()
        .with_logger(crate::rpc::LOGGER);
    let peer = SessionPeer::new(Arc::clone(&session), tx, app.config.input_timeout);
    let handler = |retry: Option<mcp_server::bridge::Retry>| {
        let base = mcp_server::Ctx {
            id: id.clone(),
            meta: meta.clone(),
            principal: session.principal.clone(),
            notifier: notifier.clone(),
        };
        let ctx = Ctx {
            request: base,
            app: Arc::clone(&app),
        };
        let request = convert::with_retry(&modern, retry);
        async move {
            let request = request.map_err(|e| {
                Refused::new(
                    Some(&ctx.id),
                    RpcError::new(INVALID_PARAMS, format!("Invalid params: {e}")),
                )
            })?;
            let id = ctx.id.clone();
            let text = crate::features::dispatch(ctx, request).await?;
            convert::result_of(&id, &text)
        }
    };
    use mcp_server::bridge::{self, BridgeError};
    match bridge::serve(handler, &peer, MAX_ROUNDS).await {
        Ok(result) => convert::result_to_legacy(&id, &method, result),
        Err(BridgeError::Handler(f)) => Err(convert::failure_to_legacy(f)),
        Err(BridgeError::Peer { key, error }) => Err(Refused::new(
            Some(&id),
            RpcError::new(
                INTERNAL_ERROR,
                format!(
                    "the client did not answer the server's request for input {key:?}: {error}"
                ),
            ),
        )),
        Err(e) => Err(Refused::new(
            Some(&id),
            RpcError::new(INTERNAL_ERROR, e.to_string()),
        )),
    }
}

/// `GET` with a session: with `Last-Event-ID`, the stream that event belongs to, resumed
/// ([`streams`]; 400 if it cannot be); without, a new `GET` stream of server messages, taking
/// over from the one before: the list changes, and the updates of the resources the session
/// subscribed to (a legacy client learns of them only here).
pub fn get(app: &Arc<App>, headers: &HeaderMap, id: &str) -> Response {
    let Some(session) = app.sessions.find(id, &crate::headers::principal(headers)) else {
        return (StatusCode::NOT_FOUND, "Session not found").into_response();
    };
    if let Some(last) = headers.get("last-event-id") {
        let resumed = last
            .to_str()
            .map_err(|_| streams::ResumeError::Unreadable)
            .and_then(|last| session.streams.resume(last));
        return match resumed {
            Ok((_, connection)) => streams::response(connection),
            Err(e) => {
                let message = format!("Bad Request: cannot resume: {e}");
                (StatusCode::BAD_REQUEST, message).into_response()
            }
        };
    }
    let (number, connection, mut current) = session.open_get_stream();
    let mut changes = app.changes.subscribe();
    let mut shutdown = app.shutdown.clone();
    tokio::spawn(async move {
        loop {
            let change = tokio::select! {
                // A later GET took over, or the session ended.
                _ = current.changed() => {
                    if *current.borrow_and_update() != number {
                        break;
                    }
                    continue;
                }
                _ = shutdown.changed() => break,
                change = changes.recv() => change,
            };
            let text = match change {
                Ok(change) => change_text(&session, change),
                // Changes were missed: the stream ends rather than skip them.
                Err(_) => break,
            };
            if let Some(text) = text {
                session.streams.send(number, text);
            }
        }
        session.streams.finish(number);
    });
    streams::response(connection)
}

/// The notification that tells `session` of `change`, if it is told of it: the list changes,
/// and the updates of the resources it subscribed to.
pub fn change_text(session: &Session, change: crate::Change) -> Option<String> {
    let text = match change {
        crate::Change::Tools => crate::rpc::to_json(&legacy::ToolListChangedNotification::new()),
        crate::Change::Prompts => {
            crate::rpc::to_json(&legacy::PromptListChangedNotification::new())
        }
        crate::Change::Resource(uri) if session.is_subscribed(uri) => {
            crate::rpc::to_json(&legacy::ResourceUpdatedNotification::new(
                legacy::ResourceUpdatedNotificationParams::new(uri),
            ))
        }
        crate::Change::Resource(_) => return None,
    };
    text.ok()
}

/// `DELETE` with a session: ends it.
pub fn delete(app: &App, headers: &HeaderMap, id: &str) -> Response {
    if app.sessions.end(id, &crate::headers::principal(headers)) {
        StatusCode::OK.into_response()
    } else {
        (StatusCode::NOT_FOUND, "Session not found").into_response()
    }
}

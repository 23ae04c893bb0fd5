//! A legacy session's messages, served with a modern [`Service`]: a response to one of the
//! server's requests handed to the request that waits on it, `notifications/cancelled`
//! stopping the request it names, the methods the modern revision removed answered here
//! ([`LegacyOnly`]), and every other request converted ([`convert`]) and
//! answered by the modern handler through the [`bridge`], its input requests
//! asked of the client on the request's SSE stream ([`SessionPeer`]).
//!
//! Over HTTP ([`post`]) an answer is plain JSON when the handler finished before it sent
//! anything else, else one of the session's resumable streams ([`crate::streams`]); over
//! stdio the same [`start`] serves the process's one session.

use std::sync::Arc;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use mcp_runtime::RpcError;
use mcp_runtime::era::Era;
use mcp_runtime::error_code::{
    INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, SERVER_ERROR, SESSION_NOT_FOUND,
};
use serde_json::{Map, Value};
use tokio::sync::{mpsc, oneshot};

use super::convert;
use super::meta;
use super::peer::SessionPeer;
use super::sessions::{Session, Sessions};
use super::store::StoreError;
use crate::answer::Msg;
use crate::bridge::{self, BridgeError, Retry};
use crate::streams::{self, ResumeError};
use crate::work::Cancel;
use crate::{Config, Ctx, LegacyOnly, LegacySchema, Notifier, Refused, Service};

pub use super::sessions::LEGACY_VERSION;
/// Rounds of input one legacy request may take before it is answered with an error.
pub const MAX_ROUNDS: usize = 8;

/// What a message of a session comes to.
pub enum Started<S: LegacySchema> {
    /// A notification or a response: nothing to answer.
    Accepted,
    /// Answered at once.
    Answer(Result<String, Refused<S>>),
    /// Its handler runs: what it sends (server-to-client requests included), then its
    /// response, come on `rx`; dropping `cancel` before the response stops it.
    Running {
        /// What the handler sends.
        rx: mpsc::UnboundedReceiver<Msg<S>>,
        /// Stops the handler when dropped before its response.
        cancel: Cancel,
    },
}

/// A JSON-RPC error of a legacy session: errors are JSON-RPC results of the exchange, sent
/// with 200 (transport refusals are made before this), except a bound reached (429).
pub fn in_session<S: LegacySchema>(mut f: Refused<S>) -> Refused<S> {
    if f.status != StatusCode::TOO_MANY_REQUESTS {
        f.status = StatusCode::OK;
    }
    f
}

/// Invalid params (`e`) of request `id`, as a session answers them.
pub fn invalid<S: LegacySchema>(id: Option<&S::RequestId>, e: &str) -> Refused<S> {
    let error = RpcError::new(INVALID_PARAMS, format!("Invalid params: {e}"));
    in_session(Refused::new(id, error))
}

/// JSON text as a response of `status`.
pub fn json(status: StatusCode, text: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// A refusal as a session's response.
fn reply<S: LegacySchema>(f: Refused<S>) -> Response {
    in_session(f).into_response()
}

/// The refusal of a POST whose `MCP-Protocol-Version` is not the session's.
fn version_mismatch<S: LegacySchema>(headers: &HeaderMap) -> Option<Refused<S>> {
    let v = headers.get("mcp-protocol-version")?.to_str().ok()?;
    if v.trim() == LEGACY_VERSION {
        return None;
    }
    let message =
        format!("Bad Request: MCP-Protocol-Version {v:?} is not the session's {LEGACY_VERSION}");
    let error = RpcError::new(SERVER_ERROR, message);
    Some(Refused::new(None, error).with_status(StatusCode::BAD_REQUEST))
}

/// A message (`body`) POSTed to live `session`, answered by `service`.
pub async fn post<S: LegacySchema, V: Service<S>>(
    service: Arc<V>,
    config: &Config,
    session: Arc<Session<S>>,
    headers: &HeaderMap,
    body: &[u8],
) -> Response {
    if let Some(f) = version_mismatch::<S>(headers) {
        return f.into_response();
    }
    let message: Value = match serde_json::from_slice(body) {
        Ok(m) => m,
        Err(e) => return reply(invalid::<S>(None, &e.to_string())),
    };
    if session.is_shared()
        && let Some(response) = shared(&*service, &session, &message).await
    {
        return response;
    }
    match start_message(service, config, Arc::clone(&session), message) {
        Started::Accepted => StatusCode::ACCEPTED.into_response(),
        Started::Answer(Ok(text)) => json(StatusCode::OK, text),
        Started::Answer(Err(f)) => reply(f),
        Started::Running { rx, cancel } => respond(session, rx, cancel).await,
    }
}

/// Serves the message `body` of `session`, whatever carries it: a response to one of the
/// server's requests handed to the request that waits on it, `notifications/cancelled`
/// stopping the request it names, a request started.
pub fn start<S: LegacySchema, V: Service<S>>(
    service: Arc<V>,
    config: &Config,
    session: Arc<Session<S>>,
    body: &[u8],
) -> Started<S> {
    let message: Value = match serde_json::from_slice(body) {
        Ok(m) => m,
        Err(e) => return Started::Answer(Err(invalid(None, &e.to_string()))),
    };
    start_message(service, config, session, message)
}

/// [`start`] of a message already read as JSON.
fn start_message<S: LegacySchema, V: Service<S>>(
    service: Arc<V>,
    config: &Config,
    session: Arc<Session<S>>,
    message: Value,
) -> Started<S> {
    let method = message.get("method").and_then(Value::as_str);
    let id: Option<S::RequestId> = message
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
        (Some(m), None) if m == S::LEGACY_CANCELLED => {
            if let Some(request) = message.pointer("/params/requestId") {
                session.cancel(request);
            }
            Started::Accepted
        }
        (Some(m), None) if m == S::LEGACY_INITIALIZED => {
            session.mark_initialized();
            Started::Accepted
        }
        (Some(_), None) => Started::Accepted,
        (Some(method), Some(id)) => {
            let method = method.to_owned();
            request(service, config, session, id, method, message)
        }
    }
}

/// The messages of a shared session that change its record or concern another instance's
/// copy, served with the store ([`super::sessions`]): a response to a server request that
/// waits at another instance (relayed, 202), `notifications/cancelled` of a request running
/// at another instance (relayed, 202), `notifications/initialized`, `logging/setLevel`,
/// `resources/subscribe` and `resources/unsubscribe` (recorded before they are answered, so
/// that the session's next request sees them at any instance). `None` for any other message
/// (served as an unshared session's are). While the store is down these are answered 503.
async fn shared<S: LegacySchema, V: Service<S>>(
    service: &V,
    session: &Session<S>,
    message: &Value,
) -> Option<Response> {
    let method = message.get("method").and_then(Value::as_str);
    let id: Option<S::RequestId> = message
        .get("id")
        .and_then(|id| serde_json::from_value(id.clone()).ok());
    let done = match (method, id) {
        (None, _) => match message.get("id").and_then(Value::as_str) {
            Some(asked) => session
                .answer_anywhere(asked, message.clone())
                .await
                .map(|()| true),
            None => Ok(true),
        },
        (Some(m), None) if m == S::LEGACY_CANCELLED => match message.pointer("/params/requestId") {
            Some(request) => session.cancel_anywhere(request).await.map(|()| true),
            None => Ok(true),
        },
        (Some(m), None) if m == S::LEGACY_INITIALIZED => session.mark_initialized_shared().await,
        (Some(method), Some(id)) => {
            return legacy_only_shared(service, session, &id, method, message).await;
        }
        (Some(_), None) => return None,
    };
    Some(match done {
        Ok(true) => StatusCode::ACCEPTED.into_response(),
        Ok(false) => not_found::<S>(None),
        Err(e) => unavailable::<S>(None, &e),
    })
}

/// [`legacy_only`] of a shared session: what it changes recorded in the store first.
async fn legacy_only_shared<S: LegacySchema, V: Service<S>>(
    service: &V,
    session: &Session<S>,
    id: &S::RequestId,
    method: &str,
    message: &Value,
) -> Option<Response> {
    // An unreadable one is refused by `legacy_only`, as in an unshared session.
    let read = S::legacy_only(method, message)?.ok()?;
    let done = match read {
        LegacyOnly::Ping => return None,
        LegacyOnly::SetLevel(level) => {
            let text = message
                .pointer("/params/level")
                .map(Value::to_string)
                .unwrap_or_default();
            session.set_log_level_shared(level, text).await
        }
        LegacyOnly::Subscribe(uri) if service.changes_resource(&uri) => {
            // Beyond the bounds it is not followed, and answered as an unshared session is.
            session.subscribe_shared(&uri).await.map(|_| true)
        }
        LegacyOnly::Subscribe(_) => Ok(true),
        LegacyOnly::Unsubscribe(uri) => session.unsubscribe_shared(&uri).await.map(|()| true),
    };
    Some(match done {
        Ok(true) => match convert::result_text(id, Map::new()) {
            Ok(text) => json(StatusCode::OK, text),
            Err(f) => reply::<S>(f),
        },
        Ok(false) => not_found::<S>(Some(id)),
        Err(e) => unavailable::<S>(Some(id), &e),
    })
}

/// The answer to a message (of request `id`) naming a session there is no longer (404).
pub fn not_found<S: LegacySchema>(id: Option<&S::RequestId>) -> Response {
    let error = RpcError::new(SESSION_NOT_FOUND, "Session not found");
    Refused::<S>::new(id, error)
        .with_status(StatusCode::NOT_FOUND)
        .into_response()
}

/// The answer to a message (of request `id`) that needed the shared store while it is down:
/// 503, to be retried (`Retry-After: 1`); the error says what failed, not what is stored.
pub fn unavailable<S: LegacySchema>(id: Option<&S::RequestId>, e: &StoreError) -> Response {
    let error = RpcError::new(INTERNAL_ERROR, e.to_string());
    let mut response = Refused::<S>::new(id, error)
        .with_status(StatusCode::SERVICE_UNAVAILABLE)
        .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

/// A request of a session: the legacy-only methods answered here, the rest started with the
/// modern handlers.
fn request<S: LegacySchema, V: Service<S>>(
    service: Arc<V>,
    config: &Config,
    session: Arc<Session<S>>,
    id: S::RequestId,
    method: String,
    message: Value,
) -> Started<S> {
    if let Some(answer) = legacy_only(&*service, &session, &id, &method, &message) {
        return Started::Answer(answer);
    }
    if session.is_running(&id) {
        return Started::Answer(Err(id_in_use(&id)));
    }
    let meta = request_meta(&session, &message);
    let text = match meta::request_text::<S>(&id, message, &session.meta_text()) {
        Ok(text) => text,
        Err(f) => return Started::Answer(Err(f)),
    };
    let (tx, rx) = mpsc::unbounded_channel();
    let running = service.running().map(|r| r.enter());
    // The task waits for its `Tracked` (which lists it for `notifications/cancelled`), so it
    // cannot finish before it is listed; dropped with the task, the guard unlists it.
    let (listed, is_listed) = oneshot::channel();
    let request = Request {
        session: Arc::clone(&session),
        owner: serde_json::to_string(&id).unwrap_or_default(),
        id: id.clone(),
        method,
        meta,
        text,
        tx: tx.clone(),
        timeout: config.input_timeout,
    };
    let handler = tokio::spawn(async move {
        let _running = running;
        let Ok(_tracked) = is_listed.await else {
            return;
        };
        let tx = request.tx.clone();
        let done = serve(service, request).await;
        let _ = tx.send(Msg::Done(done));
    });
    match session.try_track(&id, handler.abort_handle(), tx) {
        Ok(tracked) => {
            let _ = listed.send(tracked);
        }
        // Dropping `listed` ends the handler's task before it starts.
        Err(_) => return Started::Answer(Err(id_in_use(&id))),
    }
    Started::Running {
        rx,
        cancel: Cancel::new(handler.abort_handle()),
    }
}

/// The refusal of a request whose id is in use by a request of the session still being
/// handled (a second one could not be told apart by its response or cancelled).
fn id_in_use<S: LegacySchema>(id: &S::RequestId) -> Refused<S> {
    let text = serde_json::to_string(id).unwrap_or_default();
    let message = format!(
        "Invalid Request: request id {text} is in use by a request of this session being handled"
    );
    in_session(Refused::new(
        Some(id),
        RpcError::new(INVALID_REQUEST, message),
    ))
}

/// The methods the modern revision removed, answered here ([`LegacyOnly`]); `None` for any
/// other. A resource is followed only if `service` says it can change
/// ([`Service::changes_resource`]), and within the session's bounds.
fn legacy_only<S: LegacySchema, V: Service<S>>(
    service: &V,
    session: &Session<S>,
    id: &S::RequestId,
    method: &str,
    message: &Value,
) -> Option<Result<String, Refused<S>>> {
    let read = match S::legacy_only(method, message)? {
        Ok(read) => read,
        Err(e) => return Some(Err(invalid(Some(id), &e))),
    };
    match read {
        LegacyOnly::Ping => {}
        LegacyOnly::SetLevel(level) => session.set_log_level(level),
        LegacyOnly::Subscribe(uri) => {
            if service.changes_resource(&uri) {
                session.subscribe(&uri);
            }
        }
        LegacyOnly::Unsubscribe(uri) => session.unsubscribe(&uri),
    }
    Some(convert::result_text(id, Map::new()))
}

/// What a modern client would send in `_meta`: the session's, shared, unless the request
/// carries a progress token of its own.
fn request_meta<S: LegacySchema>(session: &Session<S>, message: &Value) -> Arc<S::RequestMeta> {
    let meta = session.meta();
    match message.pointer("/params/_meta/progressToken") {
        Some(token) => Arc::new(S::with_progress_token(&meta, token)),
        None => meta,
    }
}

/// A converted request of a session, and where its handler's messages go.
struct Request<S: LegacySchema> {
    session: Arc<Session<S>>,
    /// The key the session lists the request under (its id's JSON text).
    owner: String,
    id: S::RequestId,
    method: String,
    meta: Arc<S::RequestMeta>,
    /// The modern request as JSON text, its `_meta` the session's
    /// ([`meta::request_text`]): read once per round.
    text: String,
    tx: mpsc::UnboundedSender<Msg<S>>,
    timeout: std::time::Duration,
}

/// Answers a converted request with the modern handler, through the bridge.
async fn serve<S: LegacySchema, V: Service<S>>(
    service: Arc<V>,
    r: Request<S>,
) -> Result<String, Refused<S>> {
    let notifier = Notifier::new(Some(r.tx.clone()), &*r.meta)
        .legacy()
        .with_logger(service.logger());
    let peer = SessionPeer::new(
        Arc::clone(&r.session),
        r.owner.clone(),
        r.tx.clone(),
        r.timeout,
    );
    let handler = |retry: Option<Retry>| {
        let ctx = Ctx {
            id: r.id.clone(),
            meta: Arc::clone(&r.meta),
            principal: r.session.principal.clone(),
            era: Era::Legacy,
            notifier: notifier.clone(),
        };
        let request = meta::round::<S::ClientRequest>(&r.text, retry);
        let service = Arc::clone(&service);
        async move {
            let id = ctx.id.clone();
            let request = request.map_err(|e| invalid(Some(&id), &e.to_string()))?;
            let text = service.call(ctx, request).await?;
            convert::result_of(&id, &text)
        }
    };
    let outcome = bridge::serve(handler, &peer, MAX_ROUNDS).await;
    bridged(&r.id, &r.method, outcome)
}

/// The legacy response to request `id` of `method` for what the bridge came to.
fn bridged<S: LegacySchema>(
    id: &S::RequestId,
    method: &str,
    outcome: Result<Value, BridgeError<Refused<S>, String>>,
) -> Result<String, Refused<S>> {
    let internal = |message: String| Refused::new(Some(id), RpcError::new(INTERNAL_ERROR, message));
    match outcome {
        Ok(result) => convert::result_to_legacy(id, method, result),
        Err(BridgeError::Handler(f)) => Err(convert::failure_to_legacy(f)),
        Err(BridgeError::Peer { key, error }) => Err(internal(format!(
            "the client did not answer the server's request for input {key:?}: {error}"
        ))),
        Err(e) => Err(internal(e.to_string())),
    }
}

/// The answer to a request of a session: plain JSON when the handler finished before it sent
/// anything else (as the modern era's responses are), else one of the session's resumable
/// streams, fed by a task of its own until the handler answers or is cancelled.
///
/// `cancel` stops the handler if the client goes away before the stream opens; once it is
/// open, the handler runs on without a connection (its stream resumes, and 2025-11-25 asks
/// for `notifications/cancelled` to cancel), until it answers or a bound stops it.
async fn respond<S: LegacySchema>(
    session: Arc<Session<S>>,
    mut rx: mpsc::UnboundedReceiver<Msg<S>>,
    cancel: Cancel,
) -> Response {
    let first = match rx.recv().await {
        Some(m @ (Msg::Note(_) | Msg::EndConnection)) => m,
        Some(Msg::Cancelled) => return streams::response(mpsc::channel(1).1),
        Some(Msg::Done(Ok(body))) => return json(StatusCode::OK, body),
        Some(Msg::Done(Err(f))) => return reply(f),
        None => {
            let error = RpcError::new(INTERNAL_ERROR, "the handler stopped without answering");
            return reply(Refused::<S>::new(None, error));
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
                    let text = m.into_text().unwrap_or_default();
                    session.streams.send(number, text);
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

/// A `GET` with `Last-Event-ID` (`last`): the stream that event belongs to, resumed
/// ([`streams`]); 400 if it cannot be.
pub fn resume<S: LegacySchema>(session: &Session<S>, last: &HeaderValue) -> Response {
    let resumed = last
        .to_str()
        .map_err(|_| ResumeError::Unreadable)
        .and_then(|last| session.streams.resume(last));
    match resumed {
        Ok((_, connection)) => streams::response(connection),
        Err(e) => {
            let message = format!("Bad Request: cannot resume: {e}");
            (StatusCode::BAD_REQUEST, message).into_response()
        }
    }
}

/// `DELETE` of session `id` by `principal`: ends it; 404 if there is no such session.
pub fn delete<S: LegacySchema>(sessions: &Sessions<S>, principal: &str, id: &str) -> Response {
    if sessions.end(id, principal) {
        StatusCode::OK.into_response()
    } else {
        (StatusCode::NOT_FOUND, "Session not found").into_response()
    }
}

/// [`delete`], of a session that may be shared: its record deleted and every instance's copy
/// ended; 503 while the store is down.
pub async fn delete_anywhere<S: LegacySchema>(
    sessions: &Sessions<S>,
    principal: &str,
    id: &str,
) -> Response {
    match sessions.end_anywhere(id, principal).await {
        Ok(true) => StatusCode::OK.into_response(),
        Ok(false) => (StatusCode::NOT_FOUND, "Session not found").into_response(),
        Err(e) => unavailable::<S>(None, &e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::eras::{Eras, client, mcp};
    use serde_json::json;

    /// A server with no tools, whose resources under `test://fixed/` never change.
    struct NoTools;

    impl Service<Eras> for NoTools {
        async fn call(
            self: Arc<Self>,
            ctx: Ctx<Eras>,
            _request: mcp::ClientRequest,
        ) -> Result<String, Refused<Eras>> {
            let result = json!({"tools": [], "cacheScope": "public", "ttlMs": 5});
            convert::result_text(&ctx.id, result)
        }

        fn versions(&self) -> &[&'static str] {
            &["2026-07-28"]
        }

        fn changes_resource(&self, uri: &str) -> bool {
            !uri.starts_with("test://fixed/")
        }
    }

    fn session() -> Arc<Session<Eras>> {
        let sessions = Sessions::new(Arc::new(Config::default()));
        let (capabilities, info) = client();
        sessions.open("p", capabilities, info).unwrap()
    }

    fn start_with(session: &Arc<Session<Eras>>, message: Value) -> Started<Eras> {
        let body = serde_json::to_vec(&message).unwrap();
        start(
            Arc::new(NoTools),
            &Config::default(),
            Arc::clone(session),
            &body,
        )
    }

    /// The response a message is answered with at once, as JSON.
    fn answered(started: Started<Eras>) -> Result<Value, Refused<Eras>> {
        match started {
            Started::Answer(answer) => answer.map(|t| serde_json::from_str(&t).unwrap()),
            _ => panic!("not answered at once"),
        }
    }

    fn request(id: i64, method: &str, params: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    #[test]
    fn ping_and_set_level_are_answered_in_the_session() {
        let session = session();
        let pong = answered(start_with(&session, request(1, "ping", json!({})))).unwrap();
        assert_eq!(pong["result"], json!({}));
        let set = request(2, "logging/setLevel", json!({"level": "warning"}));
        answered(start_with(&session, set)).unwrap();
        assert_eq!(session.log_level(), Some(mcp::LoggingLevel::Warning));
        let bad = request(3, "logging/setLevel", json!({"level": "loud"}));
        let refused = answered(start_with(&session, bad)).unwrap_err();
        assert_eq!(refused.error.code, INVALID_PARAMS);
        assert_eq!(refused.status, StatusCode::OK);
    }

    #[test]
    fn only_a_resource_that_can_change_is_followed() {
        let session = session();
        let follow = |uri: &str| request(4, "resources/subscribe", json!({"uri": uri}));
        answered(start_with(&session, follow("test://live"))).unwrap();
        answered(start_with(&session, follow("test://fixed/a"))).unwrap();
        assert!(session.is_subscribed("test://live"));
        assert!(!session.is_subscribed("test://fixed/a"));
        let stop = request(5, "resources/unsubscribe", json!({"uri": "test://live"}));
        answered(start_with(&session, stop)).unwrap();
        assert!(!session.is_subscribed("test://live"));
    }

    #[tokio::test]
    async fn a_shared_request_is_answered_by_the_service_in_legacy_types() {
        let session = session();
        let Started::Running {
            mut rx,
            cancel: _cancel,
        } = start_with(&session, request(6, "tools/list", json!({})))
        else {
            panic!("not started");
        };
        let Some(Msg::Done(Ok(text))) = rx.recv().await else {
            panic!("no answer");
        };
        let response: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(response["id"], 6);
        assert_eq!(response["result"], json!({"tools": []}));
    }

    #[test]
    fn notifications_and_responses_are_accepted_and_unknown_methods_not_found() {
        let session = session();
        let (id, mut answer) = session.expect_answer("1").unwrap();
        let response = json!({"jsonrpc": "2.0", "id": id, "result": {}});
        assert!(matches!(start_with(&session, response), Started::Accepted));
        assert!(answer.try_recv().is_ok());
        let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 9}});
        assert!(matches!(start_with(&session, cancelled), Started::Accepted));
        let unknown = request(7, "server/discover", json!({}));
        let refused = answered(start_with(&session, unknown)).unwrap_err();
        assert_eq!(
            refused.error.code,
            mcp_runtime::error_code::METHOD_NOT_FOUND
        );
        let garbage = start(Arc::new(NoTools), &Config::default(), session, b"{");
        assert_eq!(answered(garbage).unwrap_err().error.code, INVALID_PARAMS);
    }
}

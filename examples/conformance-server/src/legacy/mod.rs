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

use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::probe::Envelope;
use crate::rpc::Refused;
use crate::{App, Mcp, mcp};
use mcp_server::legacy::serve::resume;

/// What a message of a session comes to (`mcp_server::legacy::Started`).
pub type Started = mcp_server::legacy::Started<Mcp>;

/// A legacy session of this server (`mcp_server::legacy::Session`).
pub type Session = mcp_server::legacy::Session<Mcp>;
/// This server's legacy sessions (`mcp_server::legacy::Sessions`).
pub type Sessions = mcp_server::legacy::Sessions<Mcp>;

use mcp::v2025_11_25 as legacy;

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

/// `initialize`: a new session for `principal`, its id in `Mcp-Session-Id`
/// (`mcp_server::legacy::initialize`).
pub fn initialize(app: &App, principal: &str, body: &[u8]) -> Response {
    mcp_server::legacy::initialize(app, &app.sessions, &app.config, principal, body)
}

/// `initialize` (`body`): a new session for `principal` and the response that tells of it
/// (`mcp_server::legacy::open`).
pub fn open(app: &App, principal: &str, body: &[u8]) -> Result<(Arc<Session>, String), Refused> {
    mcp_server::legacy::open(app, &app.sessions, &app.config, principal, body)
}

/// A message of a live session (`mcp_server::legacy::post`).
pub async fn post(
    app: Arc<App>,
    session: Arc<Session>,
    headers: &HeaderMap,
    body: &[u8],
) -> Response {
    let config = Arc::clone(&app.config);
    mcp_server::legacy::post(app, &config, session, headers, body).await
}

/// Serves the message `body` of `session`, whatever carries it (`mcp_server::legacy::start`).
pub fn start(app: Arc<App>, session: Arc<Session>, body: &[u8]) -> Started {
    let config = Arc::clone(&app.config);
    mcp_server::legacy::start(app, &config, session, body)
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
        return resume(&session, last);
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

/// `DELETE` with a session: ends it (`mcp_server::legacy::serve::delete`).
pub fn delete(app: &App, headers: &HeaderMap, id: &str) -> Response {
    let principal = crate::headers::principal(headers);
    mcp_server::legacy::serve::delete(&app.sessions, &principal, id)
}

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

use std::sync::Arc;

use tokio::sync::{broadcast, watch};

use crate::rpc::Refused;
use crate::{App, Mcp, mcp};
use mcp_server::legacy::LegacyService;

/// What a message of a session comes to (`mcp_server::legacy::Started`).
pub type Started = mcp_server::legacy::Started<Mcp>;

/// A legacy session of this server (`mcp_server::legacy::Session`).
pub type Session = mcp_server::legacy::Session<Mcp>;
/// This server's legacy sessions (`mcp_server::legacy::Sessions`).
pub type Sessions = mcp_server::legacy::Sessions<Mcp>;

use mcp::v2025_11_25 as legacy;

pub use mcp_server::legacy::is_initialize;

/// `initialize` (`body`): a new session for `principal` and the response that tells of it
/// (`mcp_server::legacy::open`).
pub fn open(app: &App, principal: &str, body: &[u8]) -> Result<(Arc<Session>, String), Refused> {
    mcp_server::legacy::open(app, &app.sessions, &app.config, principal, body)
}

/// Serves the message `body` of `session`, whatever carries it (`mcp_server::legacy::start`).
pub fn start(app: Arc<App>, session: Arc<Session>, body: &[u8]) -> Started {
    let config = Arc::clone(&app.config);
    mcp_server::legacy::start(app, &config, session, body)
}

/// This server's legacy sessions, served by `mcp_server::legacy`; a session's `GET` stream
/// carries the list changes and the updates of the resources the session subscribed to (a
/// legacy client learns of them only here).
impl LegacyService<Mcp> for App {
    fn sessions(&self) -> &Sessions {
        &self.sessions
    }

    fn config(&self) -> &mcp_server::Config {
        &self.config
    }

    async fn feed_get_stream(
        self: Arc<Self>,
        session: Arc<Session>,
        number: u64,
        current: watch::Receiver<u64>,
    ) {
        let changes = self.changes.subscribe();
        let shutdown = self.shutdown.clone();
        follow_changes(&session, number, current, changes, shutdown).await;
        session.streams.finish(number);
    }
}

/// Sends `session`'s GET stream `number` the changes it is told of, until a later GET takes
/// over, the session ends, the server shuts down, or changes were missed (the stream ends
/// rather than skip them).
async fn follow_changes(
    session: &Session,
    number: u64,
    mut current: watch::Receiver<u64>,
    mut changes: broadcast::Receiver<crate::Change>,
    mut shutdown: watch::Receiver<bool>,
) {
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
        let Ok(change) = change else {
            break;
        };
        if let Some(text) = change_text(session, change) {
            session.streams.send(number, text);
        }
    }
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

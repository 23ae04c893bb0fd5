//! This server's legacy (2025-11-25) sessions: `mcp_server::legacy` serves them (the era of a
//! POST, `initialize`, a session's messages converted and answered by the same handlers
//! through the bridge, its resumable streams, `DELETE`, the stdio session) for this server as
//! a `LegacyService`; what is this server's own is here: its session table and configuration,
//! and what a session's `GET` stream (or, over stdio, its output) carries: the list changes,
//! and the updates of the resources the session subscribed to (those that can change:
//! `Service::changes_resource`).

use std::sync::Arc;

use tokio::sync::{broadcast, watch};

use crate::{App, Mcp, mcp};
use mcp_server::legacy::LegacyService;
use mcp_server::stdio::Outgoing;

/// A legacy session of this server (`mcp_server::legacy::Session`).
pub type Session = mcp_server::legacy::Session<Mcp>;
/// This server's legacy sessions (`mcp_server::legacy::Sessions`).
pub type Sessions = mcp_server::legacy::Sessions<Mcp>;

use mcp::v2025_11_25 as legacy;

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

    async fn follow_on_stdio(self: Arc<Self>, session: Arc<Session>, out: Outgoing) {
        let changes = self.changes.subscribe();
        follow_changes_on_stdio(session, changes, out).await;
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

/// Writes the notifications of the changes `session` is told of until the output closes.
async fn follow_changes_on_stdio(
    session: Arc<Session>,
    mut changes: broadcast::Receiver<crate::Change>,
    out: Outgoing,
) {
    loop {
        let change = match changes.recv().await {
            Ok(change) => change,
            Err(broadcast::error::RecvError::Lagged(n)) => {
                eprintln!(
                    "mcp-conformance-server: {n} change notifications missed (stdio output too slow)"
                );
                continue;
            }
            Err(broadcast::error::RecvError::Closed) => return,
        };
        if let Some(text) = change_text(&session, change)
            && out.send(text).await.is_err()
        {
            return;
        }
    }
}

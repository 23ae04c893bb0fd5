//! `--stdio`: the same handlers on standard input and output (`mcp_server::stdio`), in both
//! eras, as the stdio pages of each revision describe.
//!
//! - Modern (2026-07-28): `mcp_server::stdio::Endpoint` serves this server's `Service`: the
//!   checks of a message that need no headers, the dispatch, the notifications as lines.
//! - Legacy (2025-11-25), this module's [`Session`] hook: `initialize` opens the one session
//!   of the process (no session id: the process is the session); from then on every message is the session's, served as
//!   `crate::legacy` serves a session's: the methods 2026-07-28 removed answered there, the
//!   rest converted and answered by the modern handlers through the bridge, whose
//!   server-to-client requests are written as lines; the client's responses, read from the
//!   input, go to the requests waiting on them. The list changes and the updates of the
//!   resources the session subscribed to are written as lines as they happen (what a session's
//!   `GET` stream carries over HTTP).
//!
//! Cancellation (`notifications/cancelled`) and the end of input are the loop's
//! (`mcp_server::stdio`): either stops the handlers' tasks, dropping what they hold.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use mcp_runtime::RpcError;
use mcp_runtime::error_code::INVALID_REQUEST;
use mcp_server::modern::read_envelope;
use mcp_server::stdio::{Answering, Endpoint, Outgoing, PRINCIPAL, forward};
use tokio::sync::broadcast;
use tokio::task::AbortHandle;

use crate::legacy::{self, Started};
use crate::rpc::Refused;
use crate::{App, Mcp, mcp};

/// The legacy session of one stdio connection, if a client opens it.
pub struct Session {
    app: Arc<App>,
    /// The legacy session `initialize` opened, if it did.
    session: OnceLock<Arc<legacy::Session>>,
    /// The task that writes the session's change notifications; stopped with the server.
    changes: Mutex<Option<AbortHandle>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// This server on one stdio connection: its handlers, and its legacy session.
pub fn endpoint(app: Arc<App>) -> Endpoint<Mcp, App> {
    let session = Session::new(Arc::clone(&app));
    Endpoint::new(app, Some(Box::new(session)))
}

impl Session {
    fn new(app: Arc<App>) -> Self {
        Session {
            app,
            session: OnceLock::new(),
            changes: Mutex::new(None),
        }
    }

    /// `initialize`: opens the process's session, and starts writing its change notifications.
    fn initialize(&self, id: Option<&mcp::RequestId>, line: &[u8], out: &Outgoing) -> String {
        let (session, text) = match legacy::open(&self.app, PRINCIPAL, line) {
            Ok(opened) => opened,
            Err(f) => return f.text(),
        };
        if self.session.set(Arc::clone(&session)).is_err() {
            // Another initialize opened the process's session first (both were in flight).
            self.app.sessions.end(&session.id, PRINCIPAL);
            return already_initialized(id);
        }
        let changes = self.app.changes.subscribe();
        let follow = tokio::spawn(follow_changes(session, changes, out.clone()));
        *lock(&self.changes) = Some(follow.abort_handle());
        text
    }

    /// A message of the process's legacy session.
    async fn in_session(
        &self,
        session: &Arc<legacy::Session>,
        line: &[u8],
        out: Outgoing,
    ) -> Option<String> {
        if let Ok(envelope) = read_envelope::<Mcp>(line)
            && legacy::is_initialize::<Mcp>(&envelope)
        {
            return Some(already_initialized(envelope.id.flatten().as_ref()));
        }
        match legacy::start(Arc::clone(&self.app), Arc::clone(session), line) {
            Started::Accepted => None,
            Started::Answer(answer) => Some(answer.unwrap_or_else(|f| f.text())),
            Started::Running { rx, cancel } => forward(rx, &out, cancel).await,
        }
    }
}

impl mcp_server::stdio::Legacy for Session {
    fn serve<'a>(&'a self, line: &'a [u8], out: &Outgoing) -> Option<Answering<'a>> {
        if let Some(session) = self.session.get() {
            return Some(Box::pin(self.in_session(session, line, out.clone())));
        }
        let envelope = read_envelope::<Mcp>(line).ok()?;
        if !legacy::is_initialize::<Mcp>(&envelope) {
            return None;
        }
        let id = envelope.id.flatten();
        let text = self.initialize(id.as_ref(), line, out);
        Some(Box::pin(std::future::ready(Some(text))))
    }
}

/// The answer to an `initialize` (of id `id`) in a process whose session is open.
fn already_initialized(id: Option<&mcp::RequestId>) -> String {
    let error = RpcError::new(INVALID_REQUEST, "Invalid Request: already initialized");
    Refused::new(id, error).text()
}

/// The connection is over (its input ended): the session ends with it.
impl Drop for Session {
    fn drop(&mut self) {
        if let Some(follow) = lock(&self.changes).take() {
            follow.abort();
        }
        if let Some(session) = self.session.get() {
            self.app.sessions.end(&session.id, PRINCIPAL);
        }
    }
}

/// Writes the notifications of the changes `session` is told of until the output closes.
async fn follow_changes(
    session: Arc<legacy::Session>,
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
        if let Some(text) = legacy::change_text(&session, change)
            && out.send(text).await.is_err()
        {
            return;
        }
    }
}

/// Serves `app` on standard input and output until the input ends.
pub async fn serve(app: Arc<App>) -> std::io::Result<()> {
    let config = Arc::clone(&app.config);
    mcp_server::stdio::serve_stdio(endpoint(app), &config).await
}

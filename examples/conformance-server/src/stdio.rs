//! `--stdio`: the same handlers on standard input and output (`mcp_server::stdio`), in both
//! eras, as the stdio pages of each revision describe.
//!
//! - Modern (2026-07-28): every request carries its `_meta`; it goes through the checks of a
//!   message that need no headers and the dispatch (`crate::modern`, with [`NoHeaders`]). Its
//!   notifications (progress, log messages) are written as lines before its response; a
//!   `subscriptions/listen` stream's notifications too, its response when the server ends it.
//! - Legacy (2025-11-25): `initialize` opens the one session of the process (no session id:
//!   the process is the session); from then on every message is the session's, served as
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
use mcp_runtime::error_code::{INTERNAL_ERROR, INVALID_REQUEST};
use mcp_server::modern::{self, NoHeaders, Outcome};
use mcp_server::stdio::{Handler, Message, Outgoing};
use tokio::sync::{broadcast, mpsc};
use tokio::task::AbortHandle;

use crate::legacy::sessions::Session;
use crate::legacy::{self, Started};
use crate::rpc::{Msg, Refused};
use crate::work::Cancel;
use crate::{App, Mcp, mcp};

/// Who a stdio client is: the process that started this one (no credentials on stdio).
pub const PRINCIPAL: &str = "stdio";

/// The server of one stdio connection.
pub struct Server {
    app: Arc<App>,
    /// The legacy session `initialize` opened, if it did.
    session: OnceLock<Arc<Session>>,
    /// The task that writes the session's change notifications; stopped with the server.
    changes: Mutex<Option<AbortHandle>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Server {
    pub fn new(app: Arc<App>) -> Self {
        Server {
            app,
            session: OnceLock::new(),
            changes: Mutex::new(None),
        }
    }

    /// A message of a process with no legacy session: `initialize`, or a modern message.
    async fn sessionless(&self, line: &[u8], out: Outgoing) -> Option<String> {
        let envelope = match modern::read_envelope::<Mcp>(line) {
            Ok(e) => e,
            Err(f) => return Some(f.text()),
        };
        if legacy::is_initialize(&envelope) {
            let id = envelope.id.flatten();
            return Some(self.initialize(id.as_ref(), line, &out));
        }
        let outcome = modern::serve(&self.app, envelope, line, PRINCIPAL.to_owned(), &NoHeaders);
        match outcome {
            Outcome::Accepted => None,
            Outcome::Answer(text) => Some(text),
            Outcome::Refused(f) => Some(f.text()),
            Outcome::Running { rx, cancel } => forward(rx, &out, cancel).await,
            Outcome::Listen(rx) => forward_listen(rx, &out).await,
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
        session: &Arc<Session>,
        line: &[u8],
        out: Outgoing,
    ) -> Option<String> {
        if let Ok(envelope) = modern::read_envelope::<Mcp>(line)
            && legacy::is_initialize(&envelope)
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

/// The answer to an `initialize` (of id `id`) in a process whose session is open.
fn already_initialized(id: Option<&mcp::RequestId>) -> String {
    let error = RpcError::new(INVALID_REQUEST, "Invalid Request: already initialized");
    Refused::new(id, error).text()
}

/// The connection is over (its input ended): the session ends with it.
impl Drop for Server {
    fn drop(&mut self) {
        if let Some(follow) = lock(&self.changes).take() {
            follow.abort();
        }
        if let Some(session) = self.session.get() {
            self.app.sessions.end(&session.id, PRINCIPAL);
        }
    }
}

impl Handler for Server {
    async fn handle(&self, message: Message, out: Outgoing) -> Option<String> {
        match self.session.get() {
            Some(session) => self.in_session(session, &message.line, out).await,
            None => self.sessionless(&message.line, out).await,
        }
    }
}

/// Writes what a handler sends (notifications, server-to-client requests) as it comes, and
/// returns its response; nothing if it was cancelled. `cancel` stops it if this is dropped
/// first (the request was cancelled, or the input ended).
async fn forward(
    mut rx: mpsc::UnboundedReceiver<Msg>,
    out: &Outgoing,
    cancel: Cancel,
) -> Option<String> {
    let _cancel = cancel;
    while let Some(message) = rx.recv().await {
        match message {
            Msg::Note(text) => out.send(text).await.ok()?,
            Msg::Done(done) => return Some(done.unwrap_or_else(|f| f.text())),
            Msg::Cancelled => return None,
            Msg::EndConnection => {}
        }
    }
    let error = RpcError::new(INTERNAL_ERROR, "the handler stopped without answering");
    Some(Refused::new(None, error).text())
}

/// Writes a `subscriptions/listen` stream's notifications as they come, and returns its
/// response (when the server ends it, or the error that ends it) once it comes.
async fn forward_listen(mut rx: mpsc::Receiver<String>, out: &Outgoing) -> Option<String> {
    while let Some(text) = rx.recv().await {
        if !is_notification(&text) {
            return Some(text);
        }
        out.send(text).await.ok()?;
    }
    None
}

/// Whether the message `text` (written by this server) is a notification.
fn is_notification(text: &str) -> bool {
    modern::read_envelope::<Mcp>(text.as_bytes())
        .is_ok_and(|e| e.method.is_some() && e.id.is_none())
}

/// Writes the notifications of the changes `session` is told of until the output closes.
async fn follow_changes(
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
    mcp_server::stdio::serve_stdio(Server::new(app), &config).await
}

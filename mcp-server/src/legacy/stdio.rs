//! The legacy session of a stdio process ([`StdioSession`], the stdio endpoint's
//! [`Legacy`] hook for any [`LegacyService`]): `initialize` opens the
//! one session of the process (no session id: the process is the session); from then on every
//! message is the session's, served as a session's POSTs are ([`start`]), its server-to-client
//! requests written as lines. What a session's `GET` stream carries over HTTP is written as
//! lines as it happens ([`LegacyService::follow_on_stdio`]). The session ends with the
//! connection.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use mcp_runtime::RpcError;
use mcp_runtime::error_code::INVALID_REQUEST;
use tokio::task::AbortHandle;

use super::hook::LegacyService;
use super::initialize::open;
use super::route::is_initialize;
use super::serve::{Started, start};
use super::sessions::Session;
use crate::modern::read_envelope;
use crate::stdio::{Answering, Legacy, Outgoing, PRINCIPAL, forward};
use crate::{LegacySchema, Refused};

/// The legacy session of one stdio connection of the server `V`, if a client opens it.
pub struct StdioSession<S: LegacySchema, V: LegacyService<S>> {
    service: Arc<V>,
    /// The legacy session `initialize` opened, if it did.
    session: OnceLock<Arc<Session<S>>>,
    /// The task that writes the session's notifications; stopped with the connection.
    follow: Mutex<Option<AbortHandle>>,
}

/// A lock, also when a thread panicked holding it.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<S: LegacySchema, V: LegacyService<S>> StdioSession<S, V> {
    /// No session yet, of `service`.
    pub fn new(service: Arc<V>) -> Self {
        StdioSession {
            service,
            session: OnceLock::new(),
            follow: Mutex::new(None),
        }
    }

    /// `initialize` (`line`, of id `id`): opens the process's session, and starts writing its
    /// notifications.
    fn initialize(&self, id: Option<&S::RequestId>, line: &[u8], out: &Outgoing) -> String {
        let service = &*self.service;
        let opened = open(
            service,
            service.sessions(),
            service.config(),
            PRINCIPAL,
            line,
        );
        let (session, text) = match opened {
            Ok(opened) => opened,
            Err(f) => return f.text(),
        };
        if self.session.set(Arc::clone(&session)).is_err() {
            // Another initialize opened the process's session first (both were in flight).
            service.sessions().end(&session.id, PRINCIPAL);
            return already_initialized::<S>(id);
        }
        let follow = Arc::clone(&self.service).follow_on_stdio(session, out.clone());
        *lock(&self.follow) = Some(tokio::spawn(follow).abort_handle());
        text
    }

    /// A message of the process's legacy session.
    async fn in_session(
        &self,
        session: &Arc<Session<S>>,
        line: &[u8],
        out: Outgoing,
    ) -> Option<String> {
        if let Ok(envelope) = read_envelope::<S>(line)
            && is_initialize::<S>(&envelope)
        {
            return Some(already_initialized::<S>(envelope.id.flatten().as_ref()));
        }
        let config = self.service.config().clone();
        match start(
            Arc::clone(&self.service),
            &config,
            Arc::clone(session),
            line,
        ) {
            Started::Accepted => None,
            Started::Answer(answer) => Some(answer.unwrap_or_else(|f| f.text())),
            Started::Running { rx, cancel } => forward(rx, &out, cancel).await,
        }
    }
}

impl<S: LegacySchema, V: LegacyService<S>> Legacy for StdioSession<S, V> {
    fn serve<'a>(&'a self, line: &'a [u8], out: &Outgoing) -> Option<Answering<'a>> {
        if let Some(session) = self.session.get() {
            return Some(Box::pin(self.in_session(session, line, out.clone())));
        }
        let envelope = read_envelope::<S>(line).ok()?;
        if !is_initialize::<S>(&envelope) {
            return None;
        }
        let id = envelope.id.flatten();
        let text = self.initialize(id.as_ref(), line, out);
        Some(Box::pin(std::future::ready(Some(text))))
    }
}

/// The answer to an `initialize` (of id `id`) in a process whose session is open.
fn already_initialized<S: LegacySchema>(id: Option<&S::RequestId>) -> String {
    let error = RpcError::new(INVALID_REQUEST, "Invalid Request: already initialized");
    Refused::<S>::new(id, error).text()
}

/// The connection is over (its input ended): the session ends with it.
impl<S: LegacySchema, V: LegacyService<S>> Drop for StdioSession<S, V> {
    fn drop(&mut self) {
        if let Some(follow) = lock(&self.follow).take() {
            follow.abort();
        }
        if let Some(session) = self.session.get() {
            self.service.sessions().end(&session.id, PRINCIPAL);
        }
    }
}

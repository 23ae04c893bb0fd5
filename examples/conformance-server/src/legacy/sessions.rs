//! The legacy sessions: one per `initialize`, named by an unguessable `Mcp-Session-Id` (128
//! random bits), bound to the principal that opened it, ended by `DELETE` or after
//! [`Config::session_idle`] without a request. At most [`Config::max_sessions`] live at once;
//! each holds at most [`Config::session_queue`] server-to-client requests waiting for their
//! answers, and as many messages for its `GET` stream. Its requests being handled are listed
//! (as many as its open connections) so that `notifications/cancelled` can stop one.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::AbortHandle;

use crate::mcp;
use crate::rpc::Msg;
use mcp_server::Config;

use super::streams::Streams;

/// One legacy session.
pub struct Session {
    pub id: String,
    /// Who opened it; a request of another principal is answered as if it did not exist.
    pub principal: String,
    /// The client's capabilities of `initialize`, as the modern handlers read them.
    pub capabilities: mcp::ClientCapabilities,
    pub client_info: mcp::Implementation,
    /// The level `logging/setLevel` set; no log messages before one is set.
    log_level: Mutex<Option<mcp::LoggingLevel>>,
    last_used: Mutex<Instant>,
    /// The server's requests waiting for the client's answer, by JSON-RPC id.
    pending: Mutex<HashMap<String, oneshot::Sender<Value>>>,
    next_id: AtomicU64,
    /// Which of its streams is the session's `GET` stream (0: none, or the session ended):
    /// each new `GET` takes over from the one before.
    get_stream: watch::Sender<u64>,
    /// Its SSE streams, resumable.
    pub streams: Streams,
    /// The resources it subscribed to (`resources/subscribe`) that can change: at most
    /// `features::CHANGING_RESOURCES`, so bounded whatever the client asks.
    subscriptions: Mutex<HashSet<&'static str>>,
    queue: usize,
    /// The requests being handled, by the JSON text of their id.
    running: Mutex<HashMap<String, Running>>,
}

/// A request of the session being handled: its handler's task, and the sender of its
/// response (to end it with no answer when the client cancels).
struct Running {
    handler: AbortHandle,
    response: mpsc::UnboundedSender<Msg>,
}

/// Keeps a request listed as running until dropped (with its handler's future).
pub struct Tracked {
    session: Arc<Session>,
    key: String,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        lock(&self.session.running).remove(&self.key);
    }
}

/// A lock, also when a thread panicked holding it (the maps stay consistent: every change is
/// one insert or remove).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Why a server-to-client request could not be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueFull(pub usize);

impl Session {
    pub fn log_level(&self) -> Option<mcp::LoggingLevel> {
        *lock(&self.log_level)
    }

    pub fn set_log_level(&self, level: mcp::LoggingLevel) {
        *lock(&self.log_level) = Some(level);
    }

    /// A fresh id for a server-to-client request and the receiver of its answer; refused when
    /// [`Config::session_queue`] requests already wait.
    pub fn expect_answer(&self) -> Result<(String, oneshot::Receiver<Value>), QueueFull> {
        let mut pending = lock(&self.pending);
        if pending.len() >= self.queue {
            return Err(QueueFull(self.queue));
        }
        let id = format!("s-{}", self.next_id.fetch_add(1, Ordering::Relaxed));
        let (tx, rx) = oneshot::channel();
        pending.insert(id.clone(), tx);
        Ok((id, rx))
    }

    /// Forgets a request that will not be answered (timed out, or its handler went away).
    pub fn forget(&self, id: &str) {
        lock(&self.pending).remove(id);
    }

    /// Hands the client's `response` to the request `id` waits on; false if none does.
    pub fn answer(&self, id: &str, response: Value) -> bool {
        match lock(&self.pending).remove(id) {
            Some(tx) => tx.send(response).is_ok(),
            None => false,
        }
    }

    /// How many server-to-client requests wait now.
    pub fn waiting(&self) -> usize {
        lock(&self.pending).len()
    }

    /// Opens a `GET` stream that takes over from any earlier one (which ends): its number,
    /// the receiver of its connection, and a watch of the session's current `GET` stream.
    pub fn open_get_stream(
        &self,
    ) -> (
        u64,
        mpsc::Receiver<super::streams::Sent>,
        watch::Receiver<u64>,
    ) {
        let (number, rx) = self.streams.open();
        let before = self.get_stream.send_replace(number);
        self.streams.finish(before);
        (number, rx, self.get_stream.subscribe())
    }

    /// Ends the session's connections: its `GET` stream's task stops, its streams' readers
    /// see them end.
    fn close(&self) {
        let before = self.get_stream.send_replace(0);
        self.streams.finish(before);
        self.streams.close_all();
    }

    /// Lists request `id` as running in `handler`, answering on `response`, until the returned
    /// guard drops.
    pub fn track(
        self: &Arc<Self>,
        id: &mcp::RequestId,
        handler: AbortHandle,
        response: mpsc::UnboundedSender<Msg>,
    ) -> Tracked {
        let key = serde_json::to_string(id).unwrap_or_default();
        let running = Running { handler, response };
        lock(&self.running).insert(key.clone(), running);
        Tracked {
            session: Arc::clone(self),
            key,
        }
    }

    /// Stops the handler of request `id` (a `requestId` of `notifications/cancelled`) and ends
    /// its response with no answer; false if no such request is running.
    pub fn cancel(&self, id: &Value) -> bool {
        let Some(running) = lock(&self.running).remove(&id.to_string()) else {
            return false;
        };
        running.handler.abort();
        let _ = running.response.send(Msg::Cancelled);
        true
    }

    /// Follows `uri` (`resources/subscribe`): its updates come on the `GET` stream.
    pub fn subscribe(&self, uri: &'static str) {
        lock(&self.subscriptions).insert(uri);
    }

    /// Stops following `uri` (`resources/unsubscribe`).
    pub fn unsubscribe(&self, uri: &str) {
        lock(&self.subscriptions).remove(uri);
    }

    /// Whether the session follows `uri`.
    pub fn is_subscribed(&self, uri: &str) -> bool {
        lock(&self.subscriptions).contains(uri)
    }

    /// How many of the session's requests are being handled now.
    pub fn running(&self) -> usize {
        lock(&self.running).len()
    }
}

/// All live sessions.
pub struct Sessions {
    limits: Arc<Config>,
    live: Mutex<HashMap<String, Arc<Session>>>,
}

/// Why `initialize` opened no session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// [`Config::max_sessions`] are live.
    Full(usize),
    /// The system's random source failed.
    NoRandomness(String),
}

impl Sessions {
    pub fn new(limits: Arc<Config>) -> Self {
        Sessions {
            limits,
            live: Mutex::default(),
        }
    }

    /// Opens a session for `principal`; sessions idle past their timeout are dropped first.
    pub fn open(
        &self,
        principal: &str,
        capabilities: mcp::ClientCapabilities,
        client_info: mcp::Implementation,
    ) -> Result<Arc<Session>, OpenError> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| OpenError::NoRandomness(e.to_string()))?;
        let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let mut live = lock(&self.live);
        let idle = self.limits.session_idle;
        live.retain(|_, s| {
            let keep = lock(&s.last_used).elapsed() < idle;
            if !keep {
                s.close();
            }
            keep
        });
        if live.len() >= self.limits.max_sessions {
            return Err(OpenError::Full(self.limits.max_sessions));
        }
        let session = Arc::new(Session {
            id: id.clone(),
            principal: principal.to_owned(),
            capabilities,
            client_info,
            log_level: Mutex::new(None),
            last_used: Mutex::new(Instant::now()),
            pending: Mutex::default(),
            next_id: AtomicU64::new(1),
            get_stream: watch::Sender::new(0),
            streams: Streams::new(Arc::clone(&self.limits)),
            subscriptions: Mutex::default(),
            queue: self.limits.session_queue,
            running: Mutex::default(),
        });
        live.insert(id, Arc::clone(&session));
        Ok(session)
    }

    /// The live session `id` of `principal`, marked used; `None` if there is none, it idled
    /// out (it is then dropped), or another principal opened it.
    pub fn find(&self, id: &str, principal: &str) -> Option<Arc<Session>> {
        let mut live = lock(&self.live);
        let session = live.get(id)?;
        if lock(&session.last_used).elapsed() >= self.limits.session_idle {
            session.close();
            live.remove(id);
            return None;
        }
        if session.principal != principal {
            return None;
        }
        *lock(&session.last_used) = Instant::now();
        Some(Arc::clone(session))
    }

    /// Ends session `id` of `principal`; false if [`Sessions::find`] would not find it.
    pub fn end(&self, id: &str, principal: &str) -> bool {
        if self.find(id, principal).is_none() {
            return false;
        }
        let ended = lock(&self.live).remove(id);
        ended.inspect(|s| s.close()).is_some()
    }

    /// Some live session (tests of a process with one session: stdio).
    #[cfg(test)]
    pub fn find_any(&self) -> Option<Arc<Session>> {
        lock(&self.live).values().next().cloned()
    }

    /// Sessions live now (idle ones included until the next `open` drops them).
    pub fn count(&self) -> usize {
        lock(&self.live).len()
    }
}

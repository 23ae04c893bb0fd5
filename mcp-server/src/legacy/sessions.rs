//! The legacy sessions: one per `initialize`, named by an unguessable `Mcp-Session-Id` (128
//! random bits), bound to the principal that opened it, ended by `DELETE` or after
//! [`Config::session_idle`] without a request. At most [`Config::max_sessions`] live at once;
//! each holds at most [`Config::session_queue`] server-to-client requests waiting for their
//! answers, and as many messages for its `GET` stream. Its requests being handled are listed
//! (as many as its open connections) so that `notifications/cancelled` can stop one. It
//! follows at most [`MAX_SUBSCRIPTIONS`] resources, each URI at most [`MAX_SUBSCRIBED_URI`]
//! bytes long.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::AbortHandle;

use crate::answer::Msg;
use crate::streams::{Sent, Streams};
use crate::{Config, LegacySchema};

/// The most resources one session follows (`resources/subscribe`).
pub const MAX_SUBSCRIPTIONS: usize = 64;
/// The longest URI, in bytes, a session follows.
pub const MAX_SUBSCRIBED_URI: usize = 2048;

/// One legacy session, of the generated module bound as `S`.
pub struct Session<S: LegacySchema> {
    /// Its `Mcp-Session-Id`: 128 random bits, in hex.
    pub id: String,
    /// Who opened it; a request of another principal is answered as if it did not exist.
    pub principal: String,
    /// The client's capabilities of `initialize`, as the modern handlers read them.
    pub capabilities: S::ClientCapabilities,
    /// The client's name and version of `initialize`.
    pub client_info: S::Implementation,
    /// The level `logging/setLevel` set; no log messages before one is set.
    log_level: Mutex<Option<S::LoggingLevel>>,
    last_used: Mutex<Instant>,
    /// The server's requests waiting for the client's answer, by JSON-RPC id.
    pending: Mutex<HashMap<String, oneshot::Sender<Value>>>,
    next_id: AtomicU64,
    /// Which of its streams is the session's `GET` stream (0: none, or the session ended):
    /// each new `GET` takes over from the one before.
    get_stream: watch::Sender<u64>,
    /// Its SSE streams, resumable.
    pub streams: Streams,
    /// The resources it subscribed to (`resources/subscribe`): at most
    /// [`MAX_SUBSCRIPTIONS`], so bounded whatever the client asks.
    subscriptions: Mutex<HashSet<String>>,
    queue: usize,
    /// The requests being handled, by the JSON text of their id.
    running: Mutex<HashMap<String, Running<S>>>,
}

/// A request of the session being handled: its handler's task, and the sender of its
/// response (to end it with no answer when the client cancels).
struct Running<S: LegacySchema> {
    handler: AbortHandle,
    response: mpsc::UnboundedSender<Msg<S>>,
}

/// Keeps a request listed as running until dropped (with its handler's future).
pub struct Tracked<S: LegacySchema> {
    session: Arc<Session<S>>,
    key: String,
}

impl<S: LegacySchema> Drop for Tracked<S> {
    fn drop(&mut self) {
        lock(&self.session.running).remove(&self.key);
    }
}

/// A lock, also when a thread panicked holding it (the maps stay consistent: every change is
/// one insert or remove).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Why a server-to-client request could not be sent: this many already wait.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueFull(pub usize);

impl<S: LegacySchema> Session<S> {
    /// The level `logging/setLevel` set, if one was.
    pub fn log_level(&self) -> Option<S::LoggingLevel> {
        *lock(&self.log_level)
    }

    /// Sets the lowest level of the log messages the session is sent (`logging/setLevel`).
    pub fn set_log_level(&self, level: S::LoggingLevel) {
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
    pub fn open_get_stream(&self) -> (u64, mpsc::Receiver<Sent>, watch::Receiver<u64>) {
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
        id: &S::RequestId,
        handler: AbortHandle,
        response: mpsc::UnboundedSender<Msg<S>>,
    ) -> Tracked<S> {
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

    /// Follows `uri` (`resources/subscribe`): its updates come on the `GET` stream. False,
    /// and not followed, if the URI is longer than [`MAX_SUBSCRIBED_URI`] or the session
    /// already follows [`MAX_SUBSCRIPTIONS`] others.
    pub fn subscribe(&self, uri: &str) -> bool {
        let mut subscriptions = lock(&self.subscriptions);
        if subscriptions.contains(uri) {
            return true;
        }
        if uri.len() > MAX_SUBSCRIBED_URI || subscriptions.len() >= MAX_SUBSCRIPTIONS {
            return false;
        }
        subscriptions.insert(uri.to_owned())
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
pub struct Sessions<S: LegacySchema> {
    limits: Arc<Config>,
    live: Mutex<HashMap<String, Arc<Session<S>>>>,
}

/// Why `initialize` opened no session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// [`Config::max_sessions`] are live.
    Full(usize),
    /// The system's random source failed.
    NoRandomness(String),
}

impl<S: LegacySchema> Sessions<S> {
    /// No sessions yet, bounded by `limits`.
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
        capabilities: S::ClientCapabilities,
        client_info: S::Implementation,
    ) -> Result<Arc<Session<S>>, OpenError> {
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
    pub fn find(&self, id: &str, principal: &str) -> Option<Arc<Session<S>>> {
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

    /// Some live session: the one of a process that holds one (stdio).
    pub fn find_any(&self) -> Option<Arc<Session<S>>> {
        lock(&self.live).values().next().cloned()
    }

    /// Sessions live now (idle ones included until the next `open` drops them).
    pub fn count(&self) -> usize {
        lock(&self.live).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::eras::{Eras, client};
    use std::time::Duration;

    fn sessions(limits: impl FnOnce(&mut Config)) -> Sessions<Eras> {
        let mut config = Config::default();
        limits(&mut config);
        Sessions::new(Arc::new(config))
    }

    fn open(sessions: &Sessions<Eras>, principal: &str) -> Result<Arc<Session<Eras>>, OpenError> {
        let (capabilities, info) = client();
        sessions.open(principal, capabilities, info)
    }

    #[test]
    fn a_session_is_found_only_by_its_principal() {
        let all = sessions(|_| {});
        let session = open(&all, "alice").unwrap();
        assert_eq!(session.id.len(), 32);
        assert!(all.find(&session.id, "alice").is_some());
        assert!(all.find(&session.id, "mallory").is_none());
        assert!(!all.end(&session.id, "mallory"));
        assert!(all.end(&session.id, "alice"));
        assert!(all.find(&session.id, "alice").is_none());
    }

    #[test]
    fn sessions_are_capped_and_idle_ones_expire() {
        let all = sessions(|c| {
            c.max_sessions = 1;
            c.session_idle = Duration::from_millis(20);
        });
        let first = open(&all, "p").unwrap();
        assert_eq!(open(&all, "p").err(), Some(OpenError::Full(1)));
        std::thread::sleep(Duration::from_millis(30));
        assert!(all.find(&first.id, "p").is_none(), "idled out");
        assert!(open(&all, "p").is_ok());
        assert_eq!(all.count(), 1);
    }

    #[test]
    fn waiting_requests_are_bounded_and_answered_by_id() {
        let all = sessions(|c| c.session_queue = 1);
        let session = open(&all, "p").unwrap();
        let (id, mut answer) = session.expect_answer().unwrap();
        assert_eq!(session.expect_answer().unwrap_err(), QueueFull(1));
        assert!(!session.answer("s-unknown", Value::Null));
        assert!(session.answer(&id, Value::from(7)));
        assert_eq!(answer.try_recv().unwrap(), Value::from(7));
        assert_eq!(session.waiting(), 0);
    }

    #[test]
    fn subscriptions_are_bounded_in_entries_and_bytes() {
        let session = open(&sessions(|_| {}), "p").unwrap();
        assert!(!session.subscribe(&"x".repeat(MAX_SUBSCRIBED_URI + 1)));
        for n in 0..MAX_SUBSCRIPTIONS {
            assert!(session.subscribe(&format!("test://{n}")));
        }
        assert!(session.subscribe("test://0"), "one already followed");
        assert!(!session.subscribe("test://one-too-many"));
        assert!(!session.is_subscribed("test://one-too-many"));
        session.unsubscribe("test://0");
        assert!(!session.is_subscribed("test://0"));
        assert!(session.subscribe("test://one-too-many"));
    }

    #[tokio::test]
    async fn a_cancelled_request_stops_and_ends_with_no_answer() {
        let session = open(&sessions(|_| {}), "p").unwrap();
        let handler = tokio::spawn(std::future::pending::<()>());
        let (tx, mut rx) = mpsc::unbounded_channel();
        let id = crate::test_support::eras::mcp::RequestId::Integer(4);
        let tracked = session.track(&id, handler.abort_handle(), tx);
        assert_eq!(session.running(), 1);
        assert!(!session.cancel(&Value::from(5)));
        assert!(session.cancel(&Value::from(4)));
        assert!(matches!(rx.recv().await, Some(Msg::Cancelled)));
        assert!(handler.await.unwrap_err().is_cancelled());
        drop(tracked);
        assert_eq!(session.running(), 0);
    }

    #[test]
    fn a_new_get_stream_takes_over() {
        let session = open(&sessions(|_| {}), "p").unwrap();
        let (first, _rx, current) = session.open_get_stream();
        let (second, _rx2, _) = session.open_get_stream();
        assert_ne!(first, second);
        assert_eq!(*current.borrow(), second);
    }
}

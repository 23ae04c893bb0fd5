//! The legacy sessions: one per `initialize`, named by an unguessable `Mcp-Session-Id` (128
//! random bits), bound to the principal that opened it, ended by `DELETE` or after
//! [`Config::session_idle`] without a request (swept every second once
//! [`Sessions::expire_in_background`] runs). Ending a session ends its work at once: its
//! handlers are stopped, its waiting server requests dropped, its streams and what they kept
//! for resumption freed.
//!
//! What sessions hold is drawn from pools that principals share ([`crate::shares`]): at most
//! [`Config::max_sessions`] sessions, [`Config::max_get_streams`] `GET` streams and
//! [`Config::max_waiting`] server-to-client requests waiting for answers in all, and at most
//! [`Config::principal_share`] percent of each for one principal. A session counts until its
//! memory is freed, not only until it ends. Each session also holds at most
//! [`Config::session_queue`] waiting requests of its own, follows at most
//! [`MAX_SUBSCRIPTIONS`] resources (each URI at most [`MAX_SUBSCRIBED_URI`] bytes long), and
//! lists its requests being handled (one per id: a second request with an id in use is
//! refused) so that `notifications/cancelled` can stop one, which also cancels the server's
//! requests that one was waiting on.
//!
//! Several instances of a server behind one address share their sessions through a store
//! (`Sessions::with_redis`, feature `redis`): the session's record, its subscriptions, and
//! [`Config::max_sessions`] with its principal shares are then the store's, counted over every
//! instance; each instance keeps its own copy of what runs there, and the pools of `GET`
//! streams and waiting server requests stay each instance's own (they hold its connections
//! and memory), one `GET` stream per session over all of them.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::AbortHandle;
use tokio::time::Instant;

use super::meta::MetaText;
use super::store::{Note, Store, StoreError};
use crate::answer::Msg;
use crate::shares::{Exhausted, Pool, Share};
use crate::streams::{Sent, Streams};
use crate::{Config, LegacySchema};

/// The revision a legacy session speaks.
pub const LEGACY_VERSION: &str = "2025-11-25";

/// The most resources one session follows (`resources/subscribe`).
pub const MAX_SUBSCRIPTIONS: usize = 64;
/// The longest URI, in bytes, a session follows.
pub const MAX_SUBSCRIBED_URI: usize = 2048;

/// How often a request of a shared session waiting for `notifications/initialized` reads the
/// session's record.
const RECHECK_INITIALIZED: Duration = Duration::from_millis(500);

/// One legacy session, of the generated module bound as `S`.
pub struct Session<S: LegacySchema> {
    /// Its `Mcp-Session-Id`: 128 random bits, in hex.
    pub id: String,
    /// Who opened it; a request of another principal is answered as if it did not exist.
    pub principal: String,
    /// The modern `_meta` its requests carry (the client's capabilities and info of
    /// `initialize`, the level `logging/setLevel` set): kept once, shared by every request.
    meta: Mutex<SessionMeta<S>>,
    last_used: Mutex<Instant>,
    /// Whether the client sent `notifications/initialized`: the server sends it no request
    /// before.
    initialized: watch::Sender<bool>,
    /// The server's requests waiting for the client's answer, by JSON-RPC id.
    pending: Mutex<HashMap<String, Pending>>,
    next_id: AtomicU64,
    /// Which of its streams is the session's `GET` stream (0: none, or the session ended):
    /// each new `GET` takes over from the one before, and its share of
    /// [`Config::max_get_streams`].
    get_stream: watch::Sender<u64>,
    get_share: Mutex<Option<Share>>,
    /// Its SSE streams, resumable.
    pub streams: Streams,
    /// The resources it subscribed to (`resources/subscribe`): at most
    /// [`MAX_SUBSCRIPTIONS`], so bounded whatever the client asks.
    subscriptions: Mutex<HashSet<String>>,
    queue: usize,
    /// The requests being handled, by the JSON text of their id.
    running: Mutex<HashMap<String, Running<S>>>,
    /// Set once the session ended: nothing new starts in it.
    ended: AtomicBool,
    pools: Pools,
    /// Its share of [`Config::max_sessions`], given back when the session's memory is freed
    /// (none for a shared session: the store counts those).
    _slot: Option<Share>,
    /// The store that holds the session's record, when it is shared by several instances
    /// (this is then this instance's copy of it: `Sessions::with_redis`).
    pub(super) store: Option<Arc<Store>>,
    /// A shared session: the JSON text of the level its meta was made with (the record's).
    level_text: Mutex<Option<String>>,
}

/// A session's modern `_meta`, typed and as JSON text, each made once (and again only by
/// `logging/setLevel`), so that a request reads them without copying or writing them again.
struct SessionMeta<S: LegacySchema> {
    typed: Arc<S::RequestMeta>,
    text: Arc<MetaText>,
    level: Option<S::LoggingLevel>,
}

impl<S: LegacySchema> SessionMeta<S> {
    fn new(typed: S::RequestMeta, level: Option<S::LoggingLevel>) -> Self {
        let text = MetaText::new(&typed, &S::stub_meta(LEGACY_VERSION));
        SessionMeta {
            typed: Arc::new(typed),
            text: Arc::new(text),
            level,
        }
    }
}

/// A server-to-client request waiting for its answer: where the answer goes, the request of
/// the session it was asked for, and its share of [`Config::max_waiting`].
struct Pending {
    answer: oneshot::Sender<Value>,
    owner: String,
    _share: Share,
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

/// The key of a request id in a session's lists: its JSON text.
fn key_of<T: serde::Serialize + ?Sized>(id: &T) -> String {
    serde_json::to_string(id).unwrap_or_default()
}

/// Why a server-to-client request could not be sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueueFull {
    /// This many already wait in the session ([`Config::session_queue`]).
    #[error("{0} server requests of this session already wait for answers")]
    Session(usize),
    /// The pool of waiting requests, or the principal's share of it, is used up.
    #[error("{0}")]
    Pool(Exhausted),
    /// The session ended.
    #[error("the session ended")]
    Ended,
}

/// A request id already used by a request of the session still being handled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("request id {0} is already in use by a request being handled in this session")]
pub struct IdInUse(pub String);

impl<S: LegacySchema> Session<S> {
    /// The level `logging/setLevel` set, if one was.
    pub fn log_level(&self) -> Option<S::LoggingLevel> {
        lock(&self.meta).level
    }

    /// Sets the lowest level of the log messages the session is sent (`logging/setLevel`).
    pub fn set_log_level(&self, level: S::LoggingLevel) {
        let mut meta = lock(&self.meta);
        let typed = S::with_log_level(&meta.typed, level);
        *meta = SessionMeta::new(typed, Some(level));
    }

    /// The modern `_meta` of the session's requests (shared, not copied).
    pub fn meta(&self) -> Arc<S::RequestMeta> {
        Arc::clone(&lock(&self.meta).typed)
    }

    /// [`Session::meta`] as JSON text (shared, not copied).
    pub fn meta_text(&self) -> Arc<MetaText> {
        Arc::clone(&lock(&self.meta).text)
    }

    /// The client sent `notifications/initialized`: the server may now send it requests.
    pub fn mark_initialized(&self) {
        self.initialized.send_replace(true);
    }

    /// Waits until the client sent `notifications/initialized` (at once if it did). A shared
    /// session is told when it was sent at another instance, and also reads its record now
    /// and then, in case that note was lost.
    pub async fn initialized(&self) {
        let mut initialized = self.initialized.subscribe();
        let Some(store) = &self.store else {
            let _ = initialized.wait_for(|done| *done).await;
            return;
        };
        loop {
            let told = tokio::time::timeout(RECHECK_INITIALIZED, initialized.wait_for(|d| *d));
            if told.await.is_ok() {
                return;
            }
            if let Ok(true) = store.is_initialized(&self.id).await {
                self.mark_initialized();
                return;
            }
        }
    }

    /// Whether the session ended (`DELETE`, idle expiry, or the end of its stdio connection).
    pub fn has_ended(&self) -> bool {
        self.ended.load(Ordering::Acquire)
    }

    /// A fresh id for a server-to-client request asked for the session's request `owner` (the
    /// key [`Session::try_track`] listed it under), and the receiver of its answer; refused when
    /// [`Config::session_queue`] requests already wait, when the principal's share of
    /// [`Config::max_waiting`] is used, or when the session ended.
    pub fn expect_answer(
        &self,
        owner: &str,
    ) -> Result<(String, oneshot::Receiver<Value>), QueueFull> {
        let mut pending = lock(&self.pending);
        if self.has_ended() {
            return Err(QueueFull::Ended);
        }
        if pending.len() >= self.queue {
            return Err(QueueFull::Session(self.queue));
        }
        let share = self
            .pools
            .waiting
            .take(&self.principal)
            .map_err(QueueFull::Pool)?;
        let n = self.next_id.fetch_add(1, Ordering::Relaxed);
        // A shared session's server requests are asked from several instances: each names
        // its own.
        let id = match &self.store {
            Some(store) => format!("s-{}-{n}", store.instance()),
            None => format!("s-{n}"),
        };
        let (answer, rx) = oneshot::channel();
        let owner = owner.to_owned();
        pending.insert(
            id.clone(),
            Pending {
                answer,
                owner,
                _share: share,
            },
        );
        Ok((id, rx))
    }

    /// Forgets a request that will not be answered (timed out, or its handler went away);
    /// true if it was still waiting.
    pub fn forget(&self, id: &str) -> bool {
        lock(&self.pending).remove(id).is_some()
    }

    /// Hands the client's `response` to the request `id` waits on; false if none does.
    pub fn answer(&self, id: &str, response: Value) -> bool {
        match lock(&self.pending).remove(id) {
            Some(pending) => pending.answer.send(response).is_ok(),
            None => false,
        }
    }

    /// How many server-to-client requests wait now.
    pub fn waiting(&self) -> usize {
        lock(&self.pending).len()
    }

    /// Opens a `GET` stream that takes over from any earlier one (which ends) and its share
    /// of [`Config::max_get_streams`]: its number, the receiver of its connection, and a
    /// watch of the session's current `GET` stream. Refused when the session has no `GET`
    /// stream and the pool, or the principal's share of it, is used up.
    pub fn open_get_stream(
        &self,
    ) -> Result<(u64, mpsc::Receiver<Sent>, watch::Receiver<u64>), Exhausted> {
        let mut share = lock(&self.get_share);
        if share.is_none() {
            *share = Some(self.pools.get_streams.take(&self.principal)?);
        }
        let (number, rx) = self.streams.open();
        let before = self.get_stream.send_replace(number);
        self.streams.finish(before);
        Ok((number, rx, self.get_stream.subscribe()))
    }

    /// Ends `GET` stream `number`; if it is still the session's `GET` stream (no later `GET`
    /// took over), its share of [`Config::max_get_streams`] is given back.
    pub fn finish_get_stream(&self, number: u64) {
        self.streams.finish(number);
        let mut share = lock(&self.get_share);
        let current = self.get_stream.send_if_modified(|current| {
            let is_current = *current == number;
            if is_current {
                *current = 0;
            }
            is_current
        });
        if current {
            *share = None;
        }
    }

    /// Ends the session: its `GET` stream's task stops, its streams' readers see them end and
    /// what they kept is dropped, its handlers are stopped (their responses end with no
    /// answer), its waiting server requests are dropped (their waits end), and it follows
    /// nothing. Its memory is freed once the last task that held it let it go.
    fn close(&self) {
        self.ended.store(true, Ordering::Release);
        self.get_stream.send_replace(0);
        *lock(&self.get_share) = None;
        self.streams.close_all();
        let running: Vec<Running<S>> = lock(&self.running).drain().map(|(_, r)| r).collect();
        for running in running {
            running.handler.abort();
            let _ = running.response.send(Msg::Cancelled);
        }
        lock(&self.pending).clear();
        lock(&self.subscriptions).clear();
    }

    /// Lists request `id` as running in `handler`, answering on `response`, until the returned
    /// guard drops; refused if a request with that id is being handled, or the session ended.
    pub fn try_track(
        self: &Arc<Self>,
        id: &S::RequestId,
        handler: AbortHandle,
        response: mpsc::UnboundedSender<Msg<S>>,
    ) -> Result<Tracked<S>, IdInUse> {
        let key = key_of(id);
        let mut running = lock(&self.running);
        if running.contains_key(&key) || self.has_ended() {
            return Err(IdInUse(key));
        }
        running.insert(key.clone(), Running { handler, response });
        Ok(Tracked {
            session: Arc::clone(self),
            key,
        })
    }

    /// Whether a request with id `id` is being handled.
    pub fn is_running(&self, id: &S::RequestId) -> bool {
        lock(&self.running).contains_key(&key_of(id))
    }

    /// Stops the handler of request `id` (a `requestId` of `notifications/cancelled`) and ends
    /// its response with no answer, after telling the client that the server's requests it
    /// waited on are cancelled too (`notifications/cancelled` for each, on its stream); false
    /// if no such request is running.
    pub fn cancel(&self, id: &Value) -> bool {
        let key = key_of(id);
        let Some(running) = lock(&self.running).remove(&key) else {
            return false;
        };
        running.handler.abort();
        for asked in self.forget_owned_by(&key) {
            if let Some(text) =
                S::cancel_notification(&asked, "the request that asked was cancelled")
            {
                let _ = running.response.send(Msg::Note(text));
            }
        }
        let _ = running.response.send(Msg::Cancelled);
        true
    }

    /// Forgets the server's requests asked for the session's request `owner`: their ids.
    fn forget_owned_by(&self, owner: &str) -> Vec<String> {
        let mut pending = lock(&self.pending);
        let ids: Vec<String> = pending
            .iter()
            .filter(|(_, p)| p.owner == owner)
            .map(|(id, _)| id.clone())
            .collect();
        for id in &ids {
            pending.remove(id);
        }
        ids
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

    /// Whether the session had no request for `idle`.
    fn idle_for(&self, idle: Duration) -> bool {
        lock(&self.last_used).elapsed() >= idle
    }

    /// Whether this instance does anything for the session now: a request handled, a server
    /// request waiting, a `GET` stream open.
    fn has_work(&self) -> bool {
        self.running() > 0 || self.waiting() > 0 || *self.get_stream.borrow() != 0
    }

    /// Whether the session's record is in a store that several instances share.
    pub fn is_shared(&self) -> bool {
        self.store.is_some()
    }

    /// The store of a shared session.
    fn shared(&self) -> Result<&Store, StoreError> {
        self.store
            .as_deref()
            .ok_or_else(|| StoreError("the session is not shared".to_owned()))
    }

    /// The client's response to the server's request `id`: handed to the request that waits
    /// for it here, else (a shared session) to every instance, where the one whose request
    /// waits for it takes it.
    pub async fn answer_anywhere(&self, id: &str, response: Value) -> Result<(), StoreError> {
        let here = lock(&self.pending).contains_key(id);
        if here || self.store.is_none() {
            self.answer(id, response);
            return Ok(());
        }
        let note = Note::Answer {
            s: self.id.clone(),
            p: self.principal.clone(),
            id: id.to_owned(),
            m: response,
        };
        self.shared()?.publish(&note).await
    }

    /// `notifications/cancelled` of request `request`: it stops here if it runs here, else
    /// (a shared session) wherever it runs.
    pub async fn cancel_anywhere(&self, request: &Value) -> Result<(), StoreError> {
        if self.cancel(request) || self.store.is_none() {
            return Ok(());
        }
        let note = Note::Cancel {
            s: self.id.clone(),
            p: self.principal.clone(),
            r: request.clone(),
        };
        self.shared()?.publish(&note).await
    }

    /// `notifications/initialized` of a shared session: recorded, then told to every
    /// instance (a request waiting for it at another one goes on); false if the session is
    /// gone.
    pub async fn mark_initialized_shared(&self) -> Result<bool, StoreError> {
        let store = self.shared()?;
        if !store.set_initialized(&self.id).await? {
            return Ok(false);
        }
        self.mark_initialized();
        let note = Note::Initialized {
            s: self.id.clone(),
            p: self.principal.clone(),
        };
        // Recorded: an instance that misses the note reads it at the session's next request.
        let _ = store.publish(&note).await;
        Ok(true)
    }

    /// `logging/setLevel` of a shared session: the level (`text`, its JSON) recorded, then
    /// told to every instance; false if the session is gone.
    pub async fn set_log_level_shared(
        &self,
        level: S::LoggingLevel,
        text: String,
    ) -> Result<bool, StoreError> {
        let store = self.shared()?;
        if !store.set_level(&self.id, &text).await? {
            return Ok(false);
        }
        self.set_log_level(level);
        *lock(&self.level_text) = Some(text.clone());
        let note = Note::Level {
            s: self.id.clone(),
            p: self.principal.clone(),
            l: text,
        };
        let _ = store.publish(&note).await;
        Ok(true)
    }

    /// `resources/subscribe` of a shared session, within the bounds of [`Session::subscribe`]
    /// counted in the store.
    pub async fn subscribe_shared(&self, uri: &str) -> Result<bool, StoreError> {
        if uri.len() > MAX_SUBSCRIBED_URI {
            return Ok(false);
        }
        self.shared()?.subscribe(&self.id, uri).await
    }

    /// `resources/unsubscribe` of a shared session.
    pub async fn unsubscribe_shared(&self, uri: &str) -> Result<(), StoreError> {
        self.shared()?.unsubscribe(&self.id, uri).await
    }

    /// Whether the session follows `uri`: its own list, or a shared session's in the store
    /// (subscribed at any instance).
    pub async fn follows(&self, uri: &str) -> Result<bool, StoreError> {
        match &self.store {
            Some(store) => store.is_subscribed(&self.id, uri).await,
            None => Ok(self.is_subscribed(uri)),
        }
    }

    /// Brings this copy of a shared session up to its record: the level `level` (JSON
    /// text) set at any instance, and whether the client sent `notifications/initialized`.
    pub(super) fn refresh(&self, level: Option<&str>, initialized: bool) {
        if initialized {
            self.initialized
                .send_if_modified(|done| !std::mem::replace(done, true));
        }
        let Some(text) = level else { return };
        let mut known = lock(&self.level_text);
        if known.as_deref() == Some(text) {
            return;
        }
        if let Some(level) = read_level::<S>(text) {
            self.set_log_level(level);
            *known = Some(text.to_owned());
        }
    }
}

/// A level's JSON text (as a record keeps it) read as the schema's level (the severities
/// are the same in both eras).
fn read_level<S: LegacySchema>(text: &str) -> Option<S::LoggingLevel> {
    serde_json::from_str(text).ok()
}

/// The pools the sessions of one server draw from.
#[derive(Clone)]
struct Pools {
    sessions: Arc<Pool>,
    get_streams: Arc<Pool>,
    waiting: Arc<Pool>,
}

impl Pools {
    fn new(limits: &Config) -> Self {
        let share = limits.principal_share;
        Pools {
            sessions: Pool::new("legacy sessions", limits.max_sessions, share),
            get_streams: Pool::new("legacy GET streams", limits.get_streams_bound(), share),
            waiting: Pool::new(
                "server requests awaiting answers",
                limits.max_waiting,
                share,
            ),
        }
    }
}

type Live<S> = Mutex<HashMap<String, Arc<Session<S>>>>;

/// All live sessions: with a shared store (`Sessions::with_redis`), this instance's copies
/// of the sessions its requests named.
pub struct Sessions<S: LegacySchema> {
    limits: Arc<Config>,
    live: Arc<Live<S>>,
    pools: Pools,
    sweeping: AtomicBool,
    /// The store of the sessions' records, if several instances share them.
    store: Option<Arc<Store>>,
    /// The number of this instance's first stream in each session: apart from every other
    /// instance's when the sessions are shared (a resumed stream is found by its number).
    first_stream: u64,
}

/// Why `initialize` opened no session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// [`Config::max_sessions`] are open (or not yet freed), or the principal holds its share
    /// of them.
    Exhausted(Exhausted),
    /// The system's random source failed.
    NoRandomness(String),
    /// The shared store could not be used (`Sessions::with_redis`).
    Unavailable(StoreError),
}

/// How often [`Sessions::expire_in_background`] looks for idle sessions.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

impl<S: LegacySchema> Sessions<S> {
    /// No sessions yet, bounded by `limits`.
    pub fn new(limits: Arc<Config>) -> Self {
        let pools = Pools::new(&limits);
        Sessions {
            limits,
            live: Arc::default(),
            pools,
            sweeping: AtomicBool::new(false),
            store: None,
            first_stream: 1,
        }
    }

    /// A session `id` of `principal` whose requests carry `meta`, holding `slot`.
    fn session(
        &self,
        id: String,
        principal: &str,
        meta: S::RequestMeta,
        slot: Option<Share>,
    ) -> Session<S> {
        Session {
            id,
            principal: principal.to_owned(),
            meta: Mutex::new(SessionMeta::new(meta, None)),
            last_used: Mutex::new(Instant::now()),
            initialized: watch::Sender::new(false),
            pending: Mutex::default(),
            next_id: AtomicU64::new(1),
            get_stream: watch::Sender::new(0),
            get_share: Mutex::new(None),
            streams: Streams::numbered_from(Arc::clone(&self.limits), self.first_stream),
            subscriptions: Mutex::default(),
            queue: self.limits.session_queue,
            running: Mutex::default(),
            ended: AtomicBool::new(false),
            pools: self.pools.clone(),
            _slot: slot,
            store: self.store.clone(),
            level_text: Mutex::new(None),
        }
    }

    /// Whether the sessions' records are in a store that several instances share.
    pub fn is_shared(&self) -> bool {
        self.store.is_some()
    }

    /// Opens a session for `principal`; sessions idle past their timeout are ended first.
    pub fn open(
        &self,
        principal: &str,
        capabilities: S::ClientCapabilities,
        client_info: S::Implementation,
    ) -> Result<Arc<Session<S>>, OpenError> {
        let id = random_id()?;
        sweep(&self.live, self.limits.session_idle);
        let slot = self
            .pools
            .sessions
            .take(principal)
            .map_err(OpenError::Exhausted)?;
        let meta = S::session_meta(capabilities, client_info, LEGACY_VERSION);
        let mut session = self.session(id.clone(), principal, meta, Some(slot));
        // A session of this process alone (stdio) even when the others are shared.
        session.store = None;
        let session = Arc::new(session);
        lock(&self.live).insert(id, Arc::clone(&session));
        Ok(session)
    }

    /// The live session `id` of `principal`, marked used; `None` if there is none, it idled
    /// out (it is then ended), or another principal opened it.
    pub fn find(&self, id: &str, principal: &str) -> Option<Arc<Session<S>>> {
        let mut live = lock(&self.live);
        let session = live.get(id)?;
        if session.idle_for(self.limits.session_idle) {
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

    /// Ends session `id` of `principal` ([`Session`]: its work stops at once); false if
    /// [`Sessions::find`] would not find it.
    pub fn end(&self, id: &str, principal: &str) -> bool {
        if self.find(id, principal).is_none() {
            return false;
        }
        let ended = lock(&self.live).remove(id);
        ended.inspect(|s| s.close()).is_some()
    }

    /// Ends the sessions idle for [`Config::session_idle`] every second from now on, in a task
    /// of the current tokio runtime that stops when these sessions are dropped (the first call
    /// starts it; the others do nothing). Without it, idle sessions are ended when a request
    /// or an `initialize` finds them.
    pub fn expire_in_background(&self) {
        if self.sweeping.swap(true, Ordering::AcqRel) {
            return;
        }
        if let Some(store) = &self.store {
            self.expire_shared_in_background(Arc::clone(store));
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            self.sweeping.store(false, Ordering::Release);
            return;
        };
        let live: Weak<Live<S>> = Arc::downgrade(&self.live);
        let idle = self.limits.session_idle;
        runtime.spawn(async move {
            let mut every = tokio::time::interval(SWEEP_EVERY);
            loop {
                every.tick().await;
                let Some(live) = live.upgrade() else { return };
                sweep(&live, idle);
            }
        });
    }

    /// Some live session: the one of a process that holds one (stdio).
    pub fn find_any(&self) -> Option<Arc<Session<S>>> {
        lock(&self.live).values().next().cloned()
    }

    /// Sessions live now (idle ones included until they are swept).
    pub fn count(&self) -> usize {
        lock(&self.live).len()
    }

    /// Sessions that hold memory now: the live ones and the ended ones some task still holds
    /// (what [`Config::max_sessions`] bounds).
    pub fn held(&self) -> usize {
        self.pools.sessions.in_use()
    }

    /// `GET` streams open now, in all sessions.
    pub fn get_streams(&self) -> usize {
        self.pools.get_streams.in_use()
    }

    /// Server-to-client requests waiting for answers now, in all sessions.
    pub fn waiting(&self) -> usize {
        self.pools.waiting.in_use()
    }
}

/// A new session id: 128 random bits, in hex.
fn random_id() -> Result<String, OpenError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| OpenError::NoRandomness(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Ends and drops the sessions of `live` idle for `idle`.
fn sweep<S: LegacySchema>(live: &Live<S>, idle: Duration) {
    lock(live).retain(|_, s| {
        let keep = !s.idle_for(idle);
        if !keep {
            s.close();
        }
        keep
    });
}

mod shared;

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

    #[test]
    fn a_kept_level_reads_back_as_the_schema_s_level_and_anything_else_as_none() {
        for text in ["\"debug\"", "\"warning\"", "\"emergency\""] {
            let level = read_level::<Eras>(text).expect(text);
            assert_eq!(serde_json::to_string(&level).unwrap(), text);
        }
        for text in ["\"loud\"", "3", "", "{\"level\": \"debug\"}"] {
            assert!(read_level::<Eras>(text).is_none(), "{text}");
        }
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
        assert!(matches!(
            open(&all, "p").err(),
            Some(OpenError::Exhausted(Exhausted::Full { total: 1, .. }))
        ));
        std::thread::sleep(Duration::from_millis(30));
        assert!(all.find(&first.id, "p").is_none(), "idled out");
        assert!(
            open(&all, "p").is_err(),
            "counted until its memory is freed"
        );
        drop(first);
        assert!(open(&all, "p").is_ok());
        assert_eq!(all.count(), 1);
    }

    #[test]
    fn waiting_requests_are_bounded_and_answered_by_id() {
        let all = sessions(|c| c.session_queue = 1);
        let session = open(&all, "p").unwrap();
        let (id, mut answer) = session.expect_answer("1").unwrap();
        assert_eq!(
            session.expect_answer("1").unwrap_err(),
            QueueFull::Session(1)
        );
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
        let tracked = session
            .try_track(&id, handler.abort_handle(), tx.clone())
            .unwrap();
        assert_eq!(session.running(), 1);
        let again = tokio::spawn(std::future::pending::<()>());
        assert!(
            session.try_track(&id, again.abort_handle(), tx).is_err(),
            "id in use"
        );
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
        let (first, _rx, current) = session.open_get_stream().unwrap();
        let (second, _rx2, _) = session.open_get_stream().unwrap();
        assert_ne!(first, second);
        assert_eq!(*current.borrow(), second);
    }

    #[test]
    fn a_principal_takes_its_share_of_sessions_and_the_others_the_rest() {
        let all = sessions(|c| {
            c.max_sessions = 8;
            c.principal_share = 25;
        });
        let mine: Vec<_> = (0..2).map(|_| open(&all, "anonymous").unwrap()).collect();
        let refused = open(&all, "anonymous").err().unwrap();
        assert!(matches!(
            refused,
            OpenError::Exhausted(Exhausted::Share { held: 2, .. })
        ));
        assert!(
            open(&all, "Bearer alice").is_ok(),
            "another principal still gets one"
        );
        assert!(all.end(&mine[0].id, "anonymous"));
        assert_eq!(
            all.held(),
            3,
            "an ended session counts until its memory is freed"
        );
        drop(mine);
        assert_eq!(all.held(), 2);
        assert!(open(&all, "anonymous").is_ok());
    }

    #[test]
    fn get_streams_are_a_shared_pool_and_a_takeover_keeps_its_share() {
        let all = sessions(|c| {
            c.max_get_streams = 4;
            c.principal_share = 25;
        });
        let first = open(&all, "p").unwrap();
        let second = open(&all, "p").unwrap();
        let (number, _rx, _) = first.open_get_stream().unwrap();
        let (again, _rx2, _) = first.open_get_stream().unwrap();
        assert_eq!(
            all.get_streams(),
            1,
            "the new GET took over the first's share"
        );
        first.finish_get_stream(number);
        assert_eq!(
            all.get_streams(),
            1,
            "finishing a replaced stream gives nothing back"
        );
        assert!(
            second.open_get_stream().is_err(),
            "the principal's share is 1 of 4"
        );
        first.finish_get_stream(again);
        assert_eq!(all.get_streams(), 0);
        assert!(second.open_get_stream().is_ok());
    }

    #[test]
    fn get_streams_never_take_every_connection() {
        // The default pool (256) and share (25%), with 24 connections.
        let all = sessions(|c| {
            c.max_connections = 24;
            c.max_sessions = 64;
        });
        let mut held = Vec::new();
        let refused = loop {
            let session = open(&all, "greedy").unwrap();
            match session.open_get_stream() {
                Ok(stream) => held.push((session, stream)),
                Err(e) => break e,
            }
        };
        assert!(refused.to_string().contains("GET streams"), "{refused}");
        assert_eq!(
            all.get_streams(),
            5,
            "25% of the 18 that 24 connections leave"
        );
        // Every principal together still leaves connections for an `initialize`.
        for p in 0..20 {
            let session = open(&all, &format!("p{p}")).unwrap();
            if let Ok(stream) = session.open_get_stream() {
                held.push((session, stream));
            }
        }
        assert_eq!(all.get_streams(), 18);
        assert!(24 - all.get_streams() >= 6);
    }

    #[test]
    fn waiting_requests_are_a_shared_pool() {
        let all = sessions(|c| {
            c.max_waiting = 4;
            c.principal_share = 50;
        });
        let session = open(&all, "p").unwrap();
        let _a = session.expect_answer("1").unwrap();
        let _b = session.expect_answer("1").unwrap();
        assert!(matches!(
            session.expect_answer("1"),
            Err(QueueFull::Pool(_))
        ));
        let other = open(&all, "q").unwrap();
        assert!(other.expect_answer("1").is_ok());
    }

    #[tokio::test]
    async fn ending_a_session_stops_its_work_and_frees_its_pools() {
        let all = sessions(|_| {});
        let session = open(&all, "p").unwrap();
        let handler = tokio::spawn(std::future::pending::<()>());
        let (tx, mut rx) = mpsc::unbounded_channel();
        let id = crate::test_support::eras::mcp::RequestId::Integer(1);
        let tracked = session.try_track(&id, handler.abort_handle(), tx).unwrap();
        let (_, mut answer) = session.expect_answer("1").unwrap();
        let (number, _connection, _) = session.open_get_stream().unwrap();
        session.streams.send(number, "x".repeat(1000));
        assert!(all.end(&session.id, "p"));
        assert!(handler.await.unwrap_err().is_cancelled());
        assert!(matches!(rx.recv().await, Some(Msg::Cancelled)));
        assert!(
            answer.try_recv().is_err(),
            "the waiting request was dropped"
        );
        assert_eq!((all.waiting(), all.get_streams()), (0, 0));
        assert_eq!(session.streams.kept_bytes(), 0);
        assert!(session.expect_answer("1").is_err(), "nothing new starts");
        drop(tracked);
        drop(session);
        assert_eq!(all.held(), 0);
    }

    #[tokio::test]
    async fn cancelling_a_request_cancels_the_server_requests_it_waits_on() {
        let session = open(&sessions(|_| {}), "p").unwrap();
        let handler = tokio::spawn(std::future::pending::<()>());
        let (tx, mut rx) = mpsc::unbounded_channel();
        let id = crate::test_support::eras::mcp::RequestId::Integer(7);
        let _tracked = session.try_track(&id, handler.abort_handle(), tx).unwrap();
        let (asked, _answer) = session.expect_answer("7").unwrap();
        let (_, _other) = session.expect_answer("8").unwrap();
        assert!(session.cancel(&Value::from(7)));
        let Some(Msg::Note(text)) = rx.recv().await else {
            panic!("no cancellation sent");
        };
        let note: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(note["method"], "notifications/cancelled");
        assert_eq!(note["params"]["requestId"], asked.as_str());
        assert!(matches!(rx.recv().await, Some(Msg::Cancelled)));
        assert_eq!(
            session.waiting(),
            1,
            "only the cancelled request's slot came back"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn idle_sessions_are_ended_in_the_background() {
        let all = sessions(|c| c.session_idle = Duration::from_secs(5));
        all.expire_in_background();
        let session = open(&all, "p").unwrap();
        tokio::time::sleep(Duration::from_secs(7)).await;
        assert!(session.has_ended());
        assert_eq!(all.count(), 0);
    }
}

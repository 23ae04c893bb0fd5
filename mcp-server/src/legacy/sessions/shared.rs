//! Sessions shared by several instances of a server through a store ([`Store`], feature
//! `redis`): a session's record (its principal, the client's `initialize`, its level, whether
//! it sent `notifications/initialized`, what it subscribed to) lives in the store, where every
//! instance finds it, and [`Config::max_sessions`] and [`Config::principal_share`] are counted
//! over all of them. What is live stays where it runs: each instance keeps its own copy of a
//! session its requests named (its handlers, its SSE streams, its server requests waiting for
//! answers, its `GET` stream), made from the record, brought up to it at each request, and
//! told by the other instances ([`Note`]) of what concerns it: an answer POSTed elsewhere to
//! one of its server requests, a `notifications/cancelled` of a request it runs, a level
//! set, `notifications/initialized`, the session's end (`DELETE`). A stream resumed at another
//! instance (`Last-Event-ID`) is relayed from the one that holds it ([`Relay`]).
//!
//! While the store is down, a request that needs it fails at once with a clear error
//! ([`StoreError`]); nothing waits for it, and nothing is restarted when it is back.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc};

use super::{LEGACY_VERSION, Live, OpenError, Session, Sessions, lock, random_id};
use crate::LegacySchema;
use crate::legacy::store::{Note, Relay, Store, StoreError, Touched};
use crate::streams::{ResumeError, Sent};

/// How long a resume at an instance that does not hold the stream waits for the one that
/// does to answer.
const RELAY_WAIT: Duration = Duration::from_secs(2);

/// How often idle copies of shared sessions are checked against the store.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

impl<S: LegacySchema> Sessions<S> {
    /// No sessions yet, bounded by `limits`, their records in `redis`, shared with every
    /// other instance of the server that uses the same Redis (and key prefix): a client
    /// reaches its session at any of them. Fails when Redis cannot be reached now.
    #[cfg(feature = "redis")]
    pub async fn with_redis(
        limits: Arc<crate::Config>,
        redis: Arc<crate::redis::Redis>,
    ) -> Result<Self, crate::redis::Unavailable> {
        let store = Arc::new(Store::new(redis, &limits));
        let notes = store
            .notes()
            .await
            .map_err(|e| crate::redis::Unavailable(e.0))?;
        let mut sessions = Sessions::new(limits);
        sessions.first_stream = (u64::from(random_tag()) << 32) | 1;
        sessions.store = Some(Arc::clone(&store));
        let live = Arc::downgrade(&sessions.live);
        tokio::spawn(hear(notes, live, store, sessions.first_stream >> 32));
        // Every instance sweeps its copies, also one that never opens a session itself.
        sessions.expire_in_background();
        Ok(sessions)
    }

    /// Opens a session for `principal`: in the store when the sessions are shared (within
    /// the bounds, counted over every instance), else as [`Sessions::open`].
    pub async fn open_anywhere(
        &self,
        principal: &str,
        capabilities: S::ClientCapabilities,
        client_info: S::Implementation,
    ) -> Result<Arc<Session<S>>, OpenError> {
        let Some(store) = &self.store else {
            return self.open(principal, capabilities, client_info);
        };
        let id = random_id()?;
        let meta = S::session_meta(capabilities, client_info, LEGACY_VERSION);
        let text = serde_json::to_string(&meta)
            .map_err(|e| OpenError::Unavailable(StoreError(e.to_string())))?;
        store
            .open(&id, principal, &text)
            .await
            .map_err(OpenError::Unavailable)?
            .map_err(OpenError::Exhausted)?;
        let session = Arc::new(self.session(id.clone(), principal, meta, None));
        lock(&self.live).insert(id, Arc::clone(&session));
        Ok(session)
    }

    /// The session `id` of `principal`, marked used: with a shared store, its record renewed
    /// and this instance's copy of it (made now if there is none) brought up to it; `None`
    /// if there is no such session (or another principal's). Without a store, as
    /// [`Sessions::find`].
    pub async fn find_anywhere(
        &self,
        id: &str,
        principal: &str,
    ) -> Result<Option<Arc<Session<S>>>, StoreError> {
        let Some(store) = &self.store else {
            return Ok(self.find(id, principal));
        };
        let local = lock(&self.live)
            .get(id)
            .filter(|s| s.principal == principal && !s.has_ended())
            .cloned();
        let (level, initialized, meta) = match store.touch(id, principal, local.is_none()).await? {
            Touched::Found {
                level,
                initialized,
                meta,
            } => (level, initialized, meta),
            Touched::Gone => {
                self.drop_copy(id);
                return Ok(None);
            }
            Touched::Other => return Ok(None),
        };
        let session = match local {
            Some(session) => session,
            None => {
                let meta = meta
                    .as_deref()
                    .and_then(|m| serde_json::from_str::<S::RequestMeta>(m).ok())
                    .ok_or_else(|| StoreError("a session record is unreadable".to_owned()))?;
                let made = Arc::new(self.session(id.to_owned(), principal, meta, None));
                let mut live = lock(&self.live);
                match live.get(id) {
                    Some(s) if s.principal == principal && !s.has_ended() => Arc::clone(s),
                    _ => {
                        live.insert(id.to_owned(), Arc::clone(&made));
                        made
                    }
                }
            }
        };
        session.refresh(level.as_deref(), initialized);
        *lock(&session.last_used) = tokio::time::Instant::now();
        Ok(Some(session))
    }

    /// Ends session `id` of `principal` (its work stops at once): with a shared store, its
    /// record is deleted and every instance ends its copy. False if there is no such session.
    pub async fn end_anywhere(&self, id: &str, principal: &str) -> Result<bool, StoreError> {
        let Some(store) = &self.store else {
            return Ok(self.end(id, principal));
        };
        if !store.end(id, principal).await? {
            return Ok(false);
        }
        self.drop_copy(id);
        // Deleted: a copy that misses the note ends at its next request or sweep.
        let note = Note::Ended {
            s: id.to_owned(),
            p: principal.to_owned(),
        };
        let _ = store.publish(&note).await;
        Ok(true)
    }

    /// Tells the other instances that `session`'s `GET` stream opened here: theirs end.
    pub async fn took_over_get_stream(&self, session: &Session<S>) {
        if let Some(store) = &self.store {
            let note = Note::GetStream {
                s: session.id.clone(),
                p: session.principal.clone(),
                at: store.instance().to_owned(),
            };
            // Not told (the store is down): each instance's stream ends when it idles.
            let _ = store.publish(&note).await;
        }
    }

    /// Ends this instance's copy of session `id`, if it has one.
    fn drop_copy(&self, id: &str) {
        end_copy(&self.live, id);
    }

    /// Resumes, from the instance that holds it, the stream of session `session` that event
    /// `last` belongs to: the events after it, then the stream's later ones, relayed through
    /// the store. Refused when no instance holds that stream or it cannot be resumed.
    pub async fn resume_elsewhere(
        &self,
        session: &Session<S>,
        last: &str,
    ) -> Result<mpsc::Receiver<Sent>, String> {
        let Some(store) = &self.store else {
            return Err(ResumeError::Unreadable.to_string());
        };
        let token = random_id().map_err(|_| "no random token".to_owned())?;
        let mut relays = store.relays().await.map_err(|e| e.to_string())?;
        let note = Note::Resume {
            s: session.id.clone(),
            p: session.principal.clone(),
            last: last.to_owned(),
            to: store.instance().to_owned(),
            token: token.clone(),
        };
        store.publish(&note).await.map_err(|e| e.to_string())?;
        let opened = tokio::time::timeout(RELAY_WAIT, async {
            loop {
                match next_relay(&mut relays, &token).await {
                    Some(Relay::Opened { .. }) => return Ok(()),
                    Some(Relay::Refused { why, .. }) => return Err(why),
                    Some(_) => {}
                    None => return Err("the relay of the stream broke".to_owned()),
                }
            }
        })
        .await;
        match opened {
            Ok(Ok(())) => {}
            Ok(Err(why)) => return Err(why),
            Err(_) => {
                return Err(format!(
                    "no instance holds the stream of event {last:?} (it ended longer ago than the resume window, or its instance stopped)"
                ));
            }
        }
        let capacity = self.limits.replay_events.saturating_mul(2).max(1);
        let (tx, rx) = mpsc::channel(capacity);
        tokio::spawn(async move {
            while let Some(relay) = next_relay(&mut relays, &token).await {
                let Relay::Event {
                    id, data, retry, ..
                } = relay
                else {
                    break;
                };
                let sent = Sent {
                    id,
                    data: data.into(),
                    retry: retry.map(Duration::from_millis),
                };
                // A client that does not keep up resumes again, from the last event it read.
                if tx.try_send(sent).is_err() {
                    break;
                }
            }
        });
        Ok(rx)
    }

    /// Ends, every second, the copies of shared sessions idle here for
    /// [`Config::session_idle`](crate::Config::session_idle) whose session ended (or idled
    /// out) in the store, and those that do nothing here (another request makes a new copy);
    /// nothing is ended while the store cannot tell.
    pub(super) fn expire_shared_in_background(&self, store: Arc<Store>) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            self.sweeping.store(false, Ordering::Release);
            return;
        };
        let live: Weak<Live<S>> = Arc::downgrade(&self.live);
        let idle = self.limits.session_idle;
        runtime.spawn(async move {
            let mut every = tokio::time::interval(SWEEP_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(live) = live.upgrade() else { return };
                let idle: Vec<Arc<Session<S>>> = lock(&live)
                    .values()
                    .filter(|s| s.idle_for(idle))
                    .cloned()
                    .collect();
                if idle.is_empty() {
                    continue;
                }
                let ids: Vec<String> = idle.iter().map(|s| s.id.clone()).collect();
                let Ok(alive) = store.alive(&ids).await else {
                    continue;
                };
                for (session, alive) in idle.iter().zip(alive) {
                    if !alive || !session.has_work() {
                        end_copy(&live, &session.id);
                    }
                }
            }
        });
    }
}

/// Ends the copy of session `id` in `live`, if there is one.
fn end_copy<S: LegacySchema>(live: &Live<S>, id: &str) {
    let ended = lock(live).remove(id);
    if let Some(session) = ended {
        session.close();
    }
}

#[cfg(feature = "redis")]
/// A random tag for an instance's stream numbers: 31 bits, not zero.
fn random_tag() -> u32 {
    let mut bytes = [0u8; 4];
    let _ = getrandom::fill(&mut bytes);
    (u32::from_le_bytes(bytes) & 0x7fff_ffff).max(1)
}

/// The next relay of `token` this instance hears; `None` once the channel broke (or lagged:
/// a relay with a gap is no relay).
async fn next_relay(relays: &mut broadcast::Receiver<Arc<[u8]>>, token: &str) -> Option<Relay> {
    loop {
        let payload = relays.recv().await.ok()?;
        match serde_json::from_slice::<Relay>(&payload) {
            Ok(relay) if relay.token() == token => return Some(relay),
            _ => {}
        }
    }
}

#[cfg(feature = "redis")]
/// Applies the notes of every instance to this instance's copies (`live`), until the
/// sessions are dropped. `tag` is what this instance's stream numbers start with.
async fn hear<S: LegacySchema>(
    mut notes: broadcast::Receiver<Arc<[u8]>>,
    live: Weak<Live<S>>,
    store: Arc<Store>,
    tag: u64,
) {
    loop {
        let payload = match notes.recv().await {
            Ok(payload) => payload,
            // Missed notes: an answer or a cancellation lost ends as a timeout would; a
            // level, an `initialized` or an end is read from the store at the next request.
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let Some(live) = live.upgrade() else { return };
        let Ok(note) = serde_json::from_slice::<Note>(&payload) else {
            continue;
        };
        apply(&live, &store, tag, note);
    }
}

#[cfg(feature = "redis")]
/// The copy of session `s` of principal `p`, if this instance has one.
fn copy_of<S: LegacySchema>(live: &Live<S>, s: &str, p: &str) -> Option<Arc<Session<S>>> {
    lock(live).get(s).filter(|c| c.principal == p).cloned()
}

#[cfg(feature = "redis")]
/// Applies one note to this instance's copy of its session.
fn apply<S: LegacySchema>(live: &Arc<Live<S>>, store: &Arc<Store>, tag: u64, note: Note) {
    match note {
        Note::Answer { s, p, id, m } => {
            if let Some(session) = copy_of(live, &s, &p) {
                session.answer(&id, m);
            }
        }
        Note::Cancel { s, p, r } => {
            if let Some(session) = copy_of(live, &s, &p) {
                session.cancel(&r);
            }
        }
        Note::Ended { s, p } => {
            if copy_of(live, &s, &p).is_some() {
                tokio::spawn(end_if_gone(Arc::downgrade(live), Arc::clone(store), s));
            }
        }
        Note::Level { s, p, l } => {
            if let Some(session) = copy_of(live, &s, &p) {
                session.refresh(Some(&l), false);
            }
        }
        Note::GetStream { s, p, at } if at != store.instance() => {
            if let Some(session) = copy_of(live, &s, &p) {
                let current = *session.get_stream.borrow();
                if current != 0 {
                    session.finish_get_stream(current);
                }
            }
        }
        Note::GetStream { .. } => {}
        Note::Initialized { s, p } => {
            if let Some(session) = copy_of(live, &s, &p) {
                session.mark_initialized();
            }
        }
        Note::Resume {
            s,
            p,
            last,
            to,
            token,
        } => {
            let ours = last
                .trim()
                .split_once('-')
                .and_then(|(n, _)| n.parse::<u64>().ok())
                .is_some_and(|n| n >> 32 == tag);
            if !ours {
                return;
            }
            let resumed = match copy_of(live, &s, &p) {
                Some(session) => session.streams.resume(&last).map_err(|e| e.to_string()),
                None => Err("the session is not held where its stream was".to_owned()),
            };
            tokio::spawn(relay(Arc::clone(store), to, token, resumed));
        }
    }
}

#[cfg(feature = "redis")]
/// Ends this instance's copy of session `s` if its record is gone from the store (a note said
/// it ended: the record says whether it did). Nothing is ended while the store cannot tell.
async fn end_if_gone<S: LegacySchema>(live: Weak<Live<S>>, store: Arc<Store>, s: String) {
    let Ok(alive) = store.alive(std::slice::from_ref(&s)).await else {
        return;
    };
    if alive.first() == Some(&false)
        && let Some(live) = live.upgrade()
    {
        end_copy(&live, &s);
    }
}

#[cfg(feature = "redis")]
/// Relays a stream resumed here (`resumed`) to instance `to`, under `token`.
async fn relay(
    store: Arc<Store>,
    to: String,
    token: String,
    resumed: Result<(u64, mpsc::Receiver<Sent>), String>,
) {
    let mut connection = match resumed {
        Ok((_, connection)) => connection,
        Err(why) => {
            let _ = store.relay(&to, &Relay::Refused { token, why }).await;
            return;
        }
    };
    let opened = Relay::Opened {
        token: token.clone(),
    };
    if store.relay(&to, &opened).await.is_err() {
        return;
    }
    while let Some(sent) = connection.recv().await {
        let event = Relay::Event {
            token: token.clone(),
            id: sent.id,
            data: sent.data.to_string(),
            retry: sent
                .retry
                .map(|r| u64::try_from(r.as_millis()).unwrap_or(u64::MAX)),
        };
        if store.relay(&to, &event).await.is_err() {
            return;
        }
    }
    let _ = store.relay(&to, &Relay::Closed { token }).await;
}

#[cfg(all(test, feature = "redis"))]
mod tests;

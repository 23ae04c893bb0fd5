//! [`RedisStore`]: tasks in a Redis that several instances of a server share (feature
//! `redis`).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use ::redis::Script;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, oneshot};
use tokio::task::AbortHandle;

use super::{
    Answers, BoxFuture, NotCreated, Settings, Status, TaskError, TaskState, TaskStore, Unavailable,
    Update, millis,
};
use crate::redis::Redis;

#[cfg(test)]
mod tests;

/// The channel of the tasks' changes.
const CHANNEL: &str = "tasks";
/// The kind of a task's record key.
const RECORD: &str = "task";
/// The kind of the key of a principal's live tasks.
const OF_PRINCIPAL: &str = "tasks-of";
/// The key of all live tasks: `<prefix>:tasks:<"all" escaped>`.
const ALL: (&str, &str) = ("tasks", "all");
/// How many changes a slow listener may fall behind before it misses some.
const UPDATE_BUFFER: usize = 256;
/// How many times a change is tried when other changes of the task come between.
const ATTEMPTS: usize = 8;
/// Why a task whose owner stopped ended.
const LOST: &str =
    "The server instance that ran this task stopped before it ended; its work cannot go on.";

/// Creates a record if the principal and the store have room, and renews the heartbeat of
/// the instance that creates it (its owner): a Redis that came back empty holds no record of
/// a live instance without its heartbeat, which would end the task failed at once.
/// KEYS: the record, the principal's set, the set of all, the owner's heartbeat.
/// ARGV: the record, the TTL in ms, max per principal, max in all, the id, the heartbeat's
/// TTL in ms.
/// Returns `{0, 0}` when created, `{1, held}` when the principal is full, `{2, held}` when
/// the store is, `{3, 0}` when the id is taken.
const INSERT: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return {3, 0} end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local mine = redis.call('ZCARD', KEYS[2])
if mine >= tonumber(ARGV[3]) then return {1, mine} end
local all = redis.call('ZCARD', KEYS[3])
if all >= tonumber(ARGV[4]) then return {2, all} end
redis.call('SET', KEYS[4], 1, 'PX', tonumber(ARGV[6]))
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
for i = 2, 3 do
  redis.call('ZADD', KEYS[i], now + ttl, ARGV[5])
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return {0, 0}
";

/// Replaces a record if it still holds what was read, keeping its TTL.
/// KEYS: the record. ARGV: what it held, what it is to hold. Returns 1 if replaced, else 0.
const SWAP: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
";

/// A task as Redis holds it.
#[derive(Serialize, Deserialize)]
#[serde(bound(
    serialize = "T: Serialize, T::InputResponse: Serialize",
    deserialize = "T: DeserializeOwned, T::InputResponse: DeserializeOwned"
))]
struct Record<T: TaskState> {
    principal: String,
    /// The instance that runs its work ([`Redis::instance`]).
    owner: String,
    task: T,
    /// Its latest round of input requests, counted from 1 (0: none yet).
    round: u64,
    /// The answers of that round: those received so far while it is `input_required`, then
    /// the whole round's, kept until the next round.
    answered: Answers<T>,
}

/// A change, as published on [`CHANNEL`].
#[derive(Serialize, Deserialize)]
#[serde(bound(serialize = "T: Serialize", deserialize = "T: DeserializeOwned"))]
struct Event<T> {
    id: String,
    principal: String,
    round: u64,
    task: T,
}

/// A task whose work runs in this instance.
struct Running<T: TaskState> {
    expires: Instant,
    worker: Option<AbortHandle>,
    waiter: Option<Waiter<T>>,
}

/// Work waiting for the answers of a round.
struct Waiter<T: TaskState> {
    /// The round it waits on, once the store has it.
    round: Option<u64>,
    answers: oneshot::Sender<Answers<T>>,
}

impl<T: TaskState> Running<T> {
    /// Ends the work (if it still runs) and any wait for input.
    fn stop(self) {
        if let Some(worker) = self.worker {
            worker.abort();
        }
    }
}

/// Who asks for a change: a client (a principal, who sees only its own tasks), or the work of
/// the task, in this instance.
#[derive(Clone, Copy)]
enum Who<'a> {
    Principal(&'a str),
    Work,
}

/// Tasks in a Redis shared by the instances of a server ([`RedisStore::start`]), so that a
/// client may reach any instance about any task.
///
/// - **Records.** A task is one key, `<prefix>:task:<id>` ([`Redis::key`]: an id a client
///   sends is escaped, never a key as sent), holding JSON: its principal, the instance that
///   runs its work (its owner), the task, the round of input requests it is in and the answers
///   of that round. It expires with the task's TTL (`PX`), and every change keeps that TTL.
/// - **Bounds.** A Lua script creates a record only while the principal has fewer than
///   `max_per_principal` live tasks and the store fewer than `max_total`: they are counted in
///   two sorted sets (the principal's, and all), ids scored by their expiry, expired ones
///   removed first; both sets expire with their last task.
/// - **Changes.** Every change reads the record, changes it, and writes it back only if it is
///   still what was read (a compare-and-set script), tried again on a conflict. A record of
///   another principal is not found, exactly like an unknown id.
/// - **Events.** Every change is published on the channel `tasks` (the task as it now stands);
///   each instance hands what it hears to its own listeners ([`TaskStore::subscribe`]), so that
///   a listen stream at one instance follows a task changed at another. The owner hands the
///   answers of a complete round to its waiting work, and stops the work of a task that ended
///   (cancelled at another instance). A message may be lost (an instance reconnecting): the
///   owner also reads the records of the tasks it runs every `sweep_every`, and acts on them.
/// - **Lost instances.** An owner renews its heartbeat ([`Redis::is_alive`]); when a request
///   finds a task that has not ended whose owner's heartbeat has lapsed, the task ends `failed`
///   ([`TaskState::set_failed`]) and the change is published: it is never silently lost.
/// - **Errors.** Redis down or slow is [`Unavailable`] for the request (within the
///   connection's response timeout); it says nothing of any stored task. The work of a task
///   whose changes cannot be written tries again until the task's TTL elapses.
pub struct RedisStore<T: TaskState> {
    redis: Arc<Redis>,
    settings: Settings,
    running: Mutex<HashMap<String, Running<T>>>,
    updates: broadcast::Sender<Update<T>>,
    insert: Script,
    swap: Script,
}

impl<T> RedisStore<T>
where
    T: TaskState + Serialize + DeserializeOwned,
    T::InputRequest: Clone,
    T::InputResponse: Clone + Sync + Serialize + DeserializeOwned,
{
    /// The store in `redis` with `settings` (the same at every instance): it listens to the
    /// changes made at every instance, and (every `settings.sweep_every`) checks the tasks
    /// whose work runs here, until it is dropped. Fails when Redis cannot be reached now.
    pub async fn start(
        redis: Arc<Redis>,
        settings: Settings,
    ) -> Result<Arc<Self>, crate::redis::Unavailable> {
        let events = redis.listen(CHANNEL).await?;
        let (updates, _) = broadcast::channel(UPDATE_BUFFER);
        let store = Arc::new(RedisStore {
            redis,
            settings,
            running: Mutex::new(HashMap::new()),
            updates,
            insert: Script::new(INSERT),
            swap: Script::new(SWAP),
        });
        follow_events(Arc::downgrade(&store), events, settings.sweep_every);
        Ok(store)
    }

    fn running(&self) -> MutexGuard<'_, HashMap<String, Running<T>>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn key(&self, id: &str) -> String {
        self.redis.key(RECORD, id)
    }

    /// The record at `key`, as stored.
    async fn read(&self, key: &str) -> Result<Option<String>, Unavailable> {
        let mut commands = self.redis.commands();
        ::redis::cmd("GET")
            .arg(key)
            .query_async(&mut commands)
            .await
            .map_err(down)
    }

    /// Reads task `id` for `who`, ends it failed if its owner stopped, then applies `change`
    /// and writes it back if it changed anything (stamped, published, and acted on here if its
    /// work runs here). What `change` returns.
    async fn modify<R: Send>(
        &self,
        who: Who<'_>,
        id: &str,
        mut change: impl FnMut(&mut Record<T>) -> R + Send,
    ) -> Result<R, TaskError> {
        let key = self.key(id);
        for _ in 0..ATTEMPTS {
            let Some(stored) = self.read(&key).await? else {
                return Err(TaskError::NotFound);
            };
            let mut record = parse::<Record<T>>(&stored)?;
            if let Who::Principal(principal) = who
                && record.principal != principal
            {
                return Err(TaskError::NotFound);
            }
            let before = json(&record)?;
            // One time for the change: what `change` returns (the task, for `get`) shows the
            // stamp the record is written with.
            let now = super::timestamp();
            if self.lost(&record).await? {
                *record.task.input_requests() = None;
                record.task.set_failed(LOST.to_owned());
                record.task.set_last_updated(now.clone());
            }
            let out = change(&mut record);
            if json(&record)? == before {
                return Ok(out);
            }
            record.task.set_last_updated(now);
            let new = json(&record)?;
            let mut commands = self.redis.commands();
            let swapped: i64 = self
                .swap
                .key(&key)
                .arg(&stored)
                .arg(&new)
                .invoke_async(&mut commands)
                .await
                .map_err(down)?;
            if swapped == 1 {
                self.follow(id, &record);
                self.tell(id, &record).await;
                return Ok(out);
            }
        }
        Err(Unavailable("a task changed too often to be changed".to_owned()).into())
    }

    /// Whether `record` has not ended though the instance that runs its work stopped.
    async fn lost(&self, record: &Record<T>) -> Result<bool, Unavailable> {
        if record.task.status().is_terminal() || record.owner == self.redis.instance() {
            return Ok(false);
        }
        Ok(!self.redis.is_alive(&record.owner).await?)
    }

    /// Publishes the change of task `id` (not published if Redis fails now: the owner reads
    /// its record at its next sweep, and clients poll).
    async fn tell(&self, id: &str, record: &Record<T>) {
        let event = Event {
            id: id.to_owned(),
            principal: record.principal.clone(),
            round: record.round,
            task: record.task.clone(),
        };
        if let Ok(payload) = serde_json::to_vec(&event) {
            let _ = self.redis.publish(CHANNEL, &payload).await;
        }
    }

    /// Acts on task `id` as `record` has it, if its work runs here: stops the work of a task
    /// that ended, hands the answers of a complete round to the work waiting on it.
    fn follow(&self, id: &str, record: &Record<T>) {
        let mut running = self.running();
        let Some(entry) = running.get_mut(id) else {
            return;
        };
        let status = record.task.status();
        if status.is_terminal() {
            if let Some(entry) = running.remove(id) {
                entry.stop();
            }
            return;
        }
        let answered = status != Status::InputRequired
            && entry
                .waiter
                .as_ref()
                .is_some_and(|w| w.round == Some(record.round));
        if answered && let Some(waiter) = entry.waiter.take() {
            let _ = waiter.answers.send(record.answered.clone());
        }
    }

    /// A change heard on the channel: a hint, checked against the task's record before
    /// anything is done. Told to this instance's listeners if the record is there and of the
    /// principal the change names; acted on as the record (not the message) has it if the
    /// task's work runs here: a change published by another client of the Redis stops no work
    /// whose record has not ended.
    async fn heard(&self, payload: &[u8]) {
        let Ok(event) = serde_json::from_slice::<Event<T>>(payload) else {
            return;
        };
        let Ok(Some(stored)) = self.read(&self.key(&event.id)).await else {
            // Gone, or Redis down: the sweep acts on the tasks that run here.
            return;
        };
        let Ok(record) = parse::<Record<T>>(&stored) else {
            return;
        };
        if record.principal != event.principal {
            return;
        }
        let _ = self.updates.send(Update {
            principal: event.principal,
            task: event.task,
        });
        self.follow(&event.id, &record);
    }

    /// Stops the work of the tasks that expired, and acts on the records of the others whose
    /// work runs here (a change whose message was lost; a record lost with Redis's data).
    async fn sweep(&self) {
        let now = Instant::now();
        let ids: Vec<String> = {
            let mut running = self.running();
            let expired: Vec<String> = running
                .iter()
                .filter(|(_, e)| e.expires <= now)
                .map(|(id, _)| id.clone())
                .collect();
            for id in expired {
                if let Some(entry) = running.remove(&id) {
                    entry.stop();
                }
            }
            running.keys().cloned().collect()
        };
        if ids.is_empty() {
            return;
        }
        let keys: Vec<String> = ids.iter().map(|id| self.key(id)).collect();
        let mut commands = self.redis.commands();
        let Ok(stored) = ::redis::cmd("MGET")
            .arg(&keys)
            .query_async::<Vec<Option<String>>>(&mut commands)
            .await
        else {
            return;
        };
        for (id, stored) in ids.iter().zip(stored) {
            match stored.map(|s| parse::<Record<T>>(&s)) {
                Some(Ok(record)) => self.follow(id, &record),
                Some(Err(_)) => {}
                // Gone (Redis lost it): nobody can follow it any more.
                None => {
                    if let Some(entry) = self.running().remove(id) {
                        entry.stop();
                    }
                }
            }
        }
    }

    /// After the work of task `id` failed to reach the store: waits `pause` (doubled for the
    /// next time, up to 2 s) and says whether to try again, which it does until the task's TTL
    /// elapses.
    async fn again(&self, id: &str, pause: &mut Duration) -> bool {
        let expires = self.running().get(id).map(|e| e.expires);
        if expires.is_none_or(|e| Instant::now() + *pause >= e) {
            return false;
        }
        tokio::time::sleep(*pause).await;
        *pause = (*pause * 2).min(Duration::from_secs(2));
        true
    }

    async fn insert_task(&self, principal: &str, id: &str, task: T) -> Result<(), NotCreated> {
        let record = Record {
            principal: principal.to_owned(),
            owner: self.redis.instance().to_owned(),
            task,
            round: 0,
            answered: Answers::<T>::new(),
        };
        let mut commands = self.redis.commands();
        let (code, held): (u8, usize) = self
            .insert
            .key(self.key(id))
            .key(self.redis.key(OF_PRINCIPAL, principal))
            .key(self.redis.key(ALL.0, ALL.1))
            .key(self.redis.heartbeat_key(self.redis.instance()))
            .arg(json(&record)?)
            .arg(millis(self.settings.ttl).max(1))
            .arg(self.settings.max_per_principal)
            .arg(self.settings.max_total)
            .arg(id)
            .arg(self.redis.heartbeat_ttl_ms().max(1))
            .invoke_async(&mut commands)
            .await
            .map_err(down)?;
        match code {
            0 => {
                let entry = Running {
                    expires: Instant::now() + self.settings.ttl,
                    worker: None,
                    waiter: None,
                };
                self.running().insert(id.to_owned(), entry);
                Ok(())
            }
            1 => Err(NotCreated::PrincipalFull(held)),
            2 => Err(NotCreated::ServerFull(held)),
            _ => Err(Unavailable("a new task's id is taken".to_owned()).into()),
        }
    }

    async fn known_tasks(
        &self,
        principal: &str,
        ids: &[String],
    ) -> Result<Vec<String>, Unavailable> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = ids.iter().map(|id| self.key(id)).collect();
        let mut commands = self.redis.commands();
        let stored: Vec<Option<String>> = ::redis::cmd("MGET")
            .arg(&keys)
            .query_async(&mut commands)
            .await
            .map_err(down)?;
        let mut known = Vec::new();
        let mut alive = HashMap::<String, bool>::new();
        for (id, stored) in ids.iter().zip(stored) {
            let Some(stored) = stored else { continue };
            let record = parse::<Record<T>>(&stored)?;
            if record.principal != principal {
                continue;
            }
            if !record.task.status().is_terminal() && record.owner != self.redis.instance() {
                let owner_alive = match alive.get(&record.owner) {
                    Some(a) => *a,
                    None => {
                        let a = self.redis.is_alive(&record.owner).await?;
                        alive.insert(record.owner.clone(), a);
                        a
                    }
                };
                if !owner_alive {
                    // Ends it failed (and says so) before anyone follows it.
                    match self.modify(Who::Principal(principal), id, |_| ()).await {
                        Ok(()) | Err(TaskError::NotFound) => {}
                        Err(TaskError::Unavailable(e)) => return Err(e),
                    }
                }
            }
            known.push(id.clone());
        }
        Ok(known)
    }

    async fn ask_for(
        &self,
        id: &str,
        requests: BTreeMap<String, T::InputRequest>,
        why: &str,
    ) -> oneshot::Receiver<Answers<T>> {
        let (tx, rx) = oneshot::channel();
        match self.running().get_mut(id) {
            Some(entry) => {
                entry.waiter = Some(Waiter {
                    round: None,
                    answers: tx,
                })
            }
            None => return rx, // ended: closed
        }
        let mut pause = Duration::from_millis(100);
        let asked = loop {
            let asked = self
                .modify(Who::Work, id, |r| {
                    if r.task.status().is_terminal() {
                        return false;
                    }
                    r.round += 1;
                    r.answered = Answers::<T>::new();
                    r.task.set_status(Status::InputRequired, why.to_owned());
                    *r.task.input_requests() = Some(requests.clone());
                    // Set before the record is written, so that no answer can come first.
                    if let Some(waiter) = self.running().get_mut(id).and_then(|e| e.waiter.as_mut())
                    {
                        waiter.round = Some(r.round);
                    }
                    true
                })
                .await;
            match asked {
                Err(TaskError::Unavailable(_)) if self.again(id, &mut pause).await => continue,
                other => break other,
            }
        };
        if asked != Ok(true)
            && let Some(entry) = self.running().get_mut(id)
        {
            entry.waiter = None;
        }
        rx
    }

    async fn finish_with(&self, id: &str, outcome: T::Outcome) {
        // The work ends here: nothing left to stop, nobody waiting for answers.
        if let Some(entry) = self.running().get_mut(id) {
            entry.worker = None;
            entry.waiter = None;
        }
        let mut outcome = Some(outcome);
        let mut ended: Option<T> = None;
        let mut pause = Duration::from_millis(100);
        loop {
            let done = self
                .modify(Who::Work, id, |r| {
                    if r.task.status().is_terminal() {
                        return;
                    }
                    if let Some(outcome) = outcome.take() {
                        let mut task = r.task.clone();
                        *task.input_requests() = None;
                        task.set_outcome(outcome);
                        ended = Some(task);
                    }
                    if let Some(task) = &ended {
                        r.task = task.clone();
                    }
                })
                .await;
            match done {
                Err(TaskError::Unavailable(_)) if self.again(id, &mut pause).await => continue,
                _ => break,
            }
        }
        self.running().remove(id);
    }
}

impl<T> TaskStore<T> for RedisStore<T>
where
    T: TaskState + Serialize + DeserializeOwned,
    T::InputRequest: Clone,
    T::InputResponse: Clone + Sync + Serialize + DeserializeOwned,
{
    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn insert<'a>(
        &'a self,
        principal: &'a str,
        id: &'a str,
        task: T,
    ) -> BoxFuture<'a, Result<(), NotCreated>> {
        Box::pin(self.insert_task(principal, id, task))
    }

    fn attach_work(&self, id: &str, work: AbortHandle) {
        match self.running().get_mut(id) {
            Some(entry) => entry.worker = Some(work),
            // Ended (cancelled, or expired) before its work was attached.
            None => work.abort(),
        }
    }

    fn get<'a>(&'a self, principal: &'a str, id: &'a str) -> BoxFuture<'a, Result<T, TaskError>> {
        Box::pin(self.modify(Who::Principal(principal), id, |r| r.task.clone()))
    }

    fn update<'a>(
        &'a self,
        principal: &'a str,
        id: &'a str,
        answers: Answers<T>,
    ) -> BoxFuture<'a, Result<(), TaskError>> {
        Box::pin(self.modify(Who::Principal(principal), id, move |r| {
            let Some(outstanding) = r.task.input_requests().as_mut() else {
                return;
            };
            for (key, answer) in &answers {
                if outstanding.remove(key).is_some() {
                    r.answered.insert(key.clone(), answer.clone());
                }
            }
            if outstanding.is_empty() {
                *r.task.input_requests() = None;
                let message = "Input received; the work goes on.".to_owned();
                r.task.set_status(Status::Working, message);
            }
        }))
    }

    fn cancel<'a>(
        &'a self,
        principal: &'a str,
        id: &'a str,
    ) -> BoxFuture<'a, Result<(), TaskError>> {
        Box::pin(self.modify(Who::Principal(principal), id, |r| {
            if r.task.status().is_terminal() {
                return;
            }
            let message = "Cancelled at the client's request.".to_owned();
            r.task.set_status(Status::Cancelled, message);
            *r.task.input_requests() = None;
        }))
    }

    fn known<'a>(
        &'a self,
        principal: &'a str,
        ids: &'a [String],
    ) -> BoxFuture<'a, Result<Vec<String>, Unavailable>> {
        Box::pin(self.known_tasks(principal, ids))
    }

    fn subscribe(&self) -> broadcast::Receiver<Update<T>> {
        self.updates.subscribe()
    }

    fn ask<'a>(
        &'a self,
        id: &'a str,
        requests: BTreeMap<String, T::InputRequest>,
        why: &'a str,
    ) -> BoxFuture<'a, oneshot::Receiver<Answers<T>>> {
        Box::pin(self.ask_for(id, requests, why))
    }

    fn finish<'a>(&'a self, id: &'a str, outcome: T::Outcome) -> BoxFuture<'a, ()> {
        Box::pin(self.finish_with(id, outcome))
    }

    fn len(&self) -> usize {
        self.running().len()
    }
}

/// Hands what the channel brings to `store`, and sweeps it every `every`, until it is dropped.
fn follow_events<T>(
    store: Weak<RedisStore<T>>,
    mut events: broadcast::Receiver<Arc<[u8]>>,
    every: Duration,
) where
    T: TaskState + Serialize + DeserializeOwned,
    T::InputRequest: Clone,
    T::InputResponse: Clone + Sync + Serialize + DeserializeOwned,
{
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                heard = events.recv() => {
                    let payload = match heard {
                        Ok(payload) => payload,
                        // Missed messages: the sweep reads the records of the work run here.
                        Err(RecvError::Lagged(_)) => continue,
                        Err(RecvError::Closed) => break,
                    };
                    let Some(store) = store.upgrade() else { break };
                    store.heard(&payload).await;
                }
                _ = ticks.tick() => {
                    let Some(store) = store.upgrade() else { break };
                    store.sweep().await;
                }
            }
        }
    });
}

/// A Redis error as the store's: the request fails [`Unavailable`].
fn down(e: ::redis::RedisError) -> Unavailable {
    crate::redis::Unavailable::from(e).into()
}

fn json(value: &impl Serialize) -> Result<String, Unavailable> {
    serde_json::to_string(value).map_err(|_| Unavailable("a task could not be written".to_owned()))
}

/// A stored record; one that cannot be read (written by another version) is an error that
/// says nothing of what it holds.
fn parse<R: DeserializeOwned>(stored: &str) -> Result<R, Unavailable> {
    serde_json::from_str(stored)
        .map_err(|_| Unavailable("a stored task could not be read".to_owned()))
}

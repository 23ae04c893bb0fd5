//! The task store: every task's state as the generated `DetailedTask`, who owns it, when it
//! expires, and the work behind it. Tasks live in memory for their `ttlMs`; each change is
//! published for the `subscriptions/listen` streams that follow the task.
//!
//! Bounded: at most `max_per_principal` tasks of one principal and `max_total` in all; a
//! `tools/call` that would create one more is refused (`SERVER_ERROR`, HTTP 429) until some
//! expire.
//! Expired tasks are invisible at once and removed (their work stopped) by a background sweep
//! every `sweep_every`, never inside a request; until then they still count.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{broadcast, oneshot};
use tokio::task::AbortHandle;

use crate::mcp;

/// How long a task lives and how often its client should poll.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// From creation; the task is discarded (and its work stopped) once it elapses.
    pub ttl: Duration,
    /// Suggested to clients as `pollIntervalMs`.
    pub poll_interval: Duration,
    /// Live tasks of one principal.
    pub max_per_principal: usize,
    /// Live tasks in all.
    pub max_total: usize,
    /// How often expired tasks are removed.
    pub sweep_every: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            ttl: Duration::from_secs(300),
            poll_interval: Duration::from_millis(200),
            max_per_principal: 1_000,
            max_total: 10_000,
            sweep_every: Duration::from_secs(1),
        }
    }
}

/// How a task's work ends: the tool's result (a tool error included), or the JSON-RPC error
/// the request would have been answered with.
pub type Outcome = Result<mcp::CallToolResult, mcp::Error>;

/// A task's new state, published on every change.
#[derive(Debug, Clone)]
pub struct Update {
    pub principal: String,
    pub task: mcp::DetailedTask,
}

/// No such task for this principal: never created, expired, or someone else's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotFound;

/// Why a task was not created.
#[derive(Debug)]
pub enum NotCreated {
    /// No randomness for its id.
    NoId(getrandom::Error),
    /// The principal has `max_per_principal` live tasks.
    PrincipalFull(usize),
    /// The server has `max_total` live tasks.
    ServerFull(usize),
}

impl std::fmt::Display for NotCreated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotCreated::NoId(e) => write!(f, "no task id: {e}"),
            NotCreated::PrincipalFull(n) => write!(
                f,
                "Too many tasks: you have {n} live tasks, the most one principal may have; \
                 wait until some end and expire"
            ),
            NotCreated::ServerFull(n) => write!(
                f,
                "Too many tasks: the server holds {n} live tasks, the most it keeps; try later"
            ),
        }
    }
}

struct Entry {
    principal: String,
    expires: Instant,
    task: mcp::DetailedTask,
    /// The answers to the current round of input requests, kept until every key has one.
    answered: mcp::InputResponses,
    /// Hands the answers to the waiting work once the round is complete.
    waiter: Option<oneshot::Sender<mcp::InputResponses>>,
    worker: Option<AbortHandle>,
}

impl Entry {
    fn is_terminal(&self) -> bool {
        is_terminal(self.task.status)
    }

    /// Ends the work (if it still runs) and any wait for input.
    fn stop(&mut self) {
        if let Some(worker) = self.worker.take() {
            worker.abort();
        }
        self.waiter = None;
    }
}

/// `completed`, `failed` and `cancelled` are final.
pub fn is_terminal(status: mcp::TaskStatus) -> bool {
    matches!(
        status,
        mcp::TaskStatus::Completed | mcp::TaskStatus::Failed | mcp::TaskStatus::Cancelled
    )
}

/// The tasks by id, and how many each principal has (expired ones included until swept).
#[derive(Default)]
struct Tasks {
    by_id: HashMap<String, Entry>,
    per_principal: HashMap<String, usize>,
}

impl Tasks {
    /// The live task `id` (not expired), if `principal`'s.
    fn of(&mut self, principal: &str, id: &str) -> Option<&mut Entry> {
        let now = Instant::now();
        self.by_id
            .get_mut(id)
            .filter(|e| e.principal == principal && e.expires > now)
    }

    /// Removes the tasks whose TTL has elapsed, stopping their work.
    fn sweep(&mut self, now: Instant) {
        let counts = &mut self.per_principal;
        self.by_id.retain(|_, e| {
            let keep = e.expires > now;
            if !keep {
                e.stop();
                if let Some(n) = counts.get_mut(&e.principal) {
                    *n -= 1;
                    if *n == 0 {
                        counts.remove(&e.principal);
                    }
                }
            }
            keep
        });
    }
}

pub struct Store {
    settings: Settings,
    tasks: Mutex<Tasks>,
    updates: broadcast::Sender<Update>,
}

impl Store {
    pub fn new(settings: Settings) -> Self {
        let (updates, _) = broadcast::channel(256);
        Store {
            settings,
            tasks: Mutex::new(Tasks::default()),
            updates,
        }
    }

    /// A store with its sweeper running (in the current Tokio runtime), which ends when the
    /// store is dropped.
    pub fn start(settings: Settings) -> Arc<Self> {
        let store = Arc::new(Store::new(settings));
        let weak = Arc::downgrade(&store);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(settings.sweep_every);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(store) = weak.upgrade() else { break };
                store.sweep();
            }
        });
        store
    }

    /// Removes the expired tasks now (the sweeper calls this).
    pub fn sweep(&self) {
        self.lock().sweep(Instant::now());
    }

    /// How many tasks the store holds, expired ones not yet swept included.
    pub fn len(&self) -> usize {
        self.lock().by_id.len()
    }

    /// Every later change of every task.
    pub fn subscribe(&self) -> broadcast::Receiver<Update> {
        self.updates.subscribe()
    }

    /// The tasks (expired ones may still be there: lookups go through [`Tasks::of`]).
    fn lock(&self) -> MutexGuard<'_, Tasks> {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Creates a task owned by `principal` and starts `work` on it. The task is in the store
    /// (a `tasks/get` finds it) before its first state is returned. Fails when the principal
    /// or the server holds as many tasks as it may, or without randomness for its id.
    pub fn create<F, Fut>(
        self: &Arc<Self>,
        principal: &str,
        work: F,
    ) -> Result<mcp::DetailedTask, NotCreated>
    where
        F: FnOnce(Worker) -> Fut,
        Fut: Future<Output = Outcome> + Send + 'static,
    {
        let id = task_id().map_err(NotCreated::NoId)?;
        let now = timestamp();
        let ttl_ms = i64::try_from(millis(self.settings.ttl)).unwrap_or(i64::MAX);
        let poll_ms = millis(self.settings.poll_interval);
        let task = mcp::DetailedTask::new(
            now.clone(),
            now,
            mcp::TaskStatus::Working,
            id.clone(),
            mcp::TaskTtlMs::Integer(ttl_ms),
        )
        .with_poll_interval_ms(poll_ms)
        .with_status_message("The work is in progress.");
        let entry = Entry {
            principal: principal.to_owned(),
            expires: Instant::now() + self.settings.ttl,
            task: task.clone(),
            answered: mcp::InputResponses::new(),
            waiter: None,
            worker: None,
        };
        {
            let mut tasks = self.lock();
            let mine = tasks.per_principal.get(principal).copied().unwrap_or(0);
            if mine >= self.settings.max_per_principal {
                return Err(NotCreated::PrincipalFull(mine));
            }
            if tasks.by_id.len() >= self.settings.max_total {
                return Err(NotCreated::ServerFull(tasks.by_id.len()));
            }
            *tasks.per_principal.entry(principal.to_owned()).or_default() += 1;
            tasks.by_id.insert(id.clone(), entry);
        }
        let worker = Worker {
            store: Arc::clone(self),
            id: id.clone(),
        };
        let finisher = worker.clone();
        let running = work(worker);
        let handle = tokio::spawn(async move {
            let outcome = running.await;
            finisher.finish(outcome);
        });
        if let Some(e) = self.lock().by_id.get_mut(&id) {
            e.worker = Some(handle.abort_handle());
        }
        Ok(task)
    }

    /// The task `id` of `principal`, as it stands.
    pub fn get(&self, principal: &str, id: &str) -> Result<mcp::DetailedTask, NotFound> {
        self.lock()
            .of(principal, id)
            .map(|e| e.task.clone())
            .ok_or(NotFound)
    }

    /// The keys of the input requests task `id` still waits on (none when it waits on none).
    pub fn outstanding(&self, principal: &str, id: &str) -> Result<Vec<String>, NotFound> {
        let task = self.get(principal, id)?;
        Ok(task
            .input_requests
            .iter()
            .flatten()
            .map(|(k, _)| k.clone())
            .collect())
    }

    /// Takes the answers to outstanding input requests (others are ignored). Once every
    /// outstanding request has an answer, the task is `working` again and its work gets the
    /// answers.
    pub fn update(
        &self,
        principal: &str,
        id: &str,
        responses: mcp::InputResponses,
    ) -> Result<(), NotFound> {
        let mut tasks = self.lock();
        let entry = tasks.of(principal, id).ok_or(NotFound)?;
        let Some(outstanding) = entry.task.input_requests.as_mut() else {
            return Ok(());
        };
        let mut changed = false;
        for (key, response) in responses {
            if outstanding.remove(&key).is_some() {
                entry.answered.insert(key, response);
                changed = true;
            }
        }
        if !changed {
            return Ok(());
        }
        if outstanding.is_empty() {
            entry.task.input_requests = None;
            entry.task.status = mcp::TaskStatus::Working;
            entry.task.status_message = Some("Input received; the work goes on.".to_owned());
            let answers = std::mem::take(&mut entry.answered);
            if let Some(waiter) = entry.waiter.take() {
                let _ = waiter.send(answers);
            }
        }
        self.publish(entry);
        Ok(())
    }

    /// Cancels task `id`: its work stops and it ends `cancelled`, unless it already ended.
    pub fn cancel(&self, principal: &str, id: &str) -> Result<(), NotFound> {
        let mut tasks = self.lock();
        let entry = tasks.of(principal, id).ok_or(NotFound)?;
        if entry.is_terminal() {
            return Ok(());
        }
        entry.stop();
        entry.task.status = mcp::TaskStatus::Cancelled;
        entry.task.status_message = Some("Cancelled at the client's request.".to_owned());
        entry.task.input_requests = None;
        self.publish(entry);
        Ok(())
    }

    /// Of `ids`, those that name a task of `principal`.
    pub fn known(&self, principal: &str, ids: &[String]) -> Vec<String> {
        let mut tasks = self.lock();
        ids.iter()
            .filter(|id| tasks.of(principal, id).is_some())
            .cloned()
            .collect()
    }

    /// Stamps the change and tells the listeners.
    fn publish(&self, entry: &mut Entry) {
        entry.task.last_updated_at = timestamp();
        let _ = self.updates.send(Update {
            principal: entry.principal.clone(),
            task: entry.task.clone(),
        });
    }

    /// Applies `change` to task `id` if it has not ended.
    fn change(&self, id: &str, change: impl FnOnce(&mut Entry)) {
        let mut tasks = self.lock();
        let now = Instant::now();
        let live = tasks.by_id.get_mut(id).filter(|e| e.expires > now);
        if let Some(entry) = live.filter(|e| !e.is_terminal()) {
            change(entry);
            self.publish(entry);
        }
    }
}

/// What a task's work holds: the way to ask its client for input.
#[derive(Clone)]
pub struct Worker {
    store: Arc<Store>,
    id: String,
}

impl Worker {
    /// Puts the task in `input_required` with `requests` (keys never used before in this
    /// task) and waits until the client answered every one of them through `tasks/update`.
    /// `None` if the task ended meanwhile (cancelled, or expired).
    pub async fn ask(
        &self,
        requests: mcp::InputRequests,
        why: &str,
    ) -> Option<mcp::InputResponses> {
        let (tx, rx) = oneshot::channel();
        self.store.change(&self.id, |e| {
            e.task.status = mcp::TaskStatus::InputRequired;
            e.task.status_message = Some(why.to_owned());
            e.task.input_requests = Some(requests);
            e.answered = mcp::InputResponses::new();
            e.waiter = Some(tx);
        });
        rx.await.ok()
    }

    /// Records how the work ended: `completed` with the result, or `failed` with the error.
    fn finish(&self, outcome: Outcome) {
        self.store.change(&self.id, |e| {
            e.worker = None;
            e.waiter = None;
            e.task.input_requests = None;
            match outcome {
                Ok(result) => {
                    e.task.status = mcp::TaskStatus::Completed;
                    e.task.status_message = Some("The work is done.".to_owned());
                    e.task.result = Some(object(&result));
                }
                Err(error) => {
                    e.task.status = mcp::TaskStatus::Failed;
                    e.task.status_message = Some(format!("The work failed: {}", error.message));
                    e.task.error = Some(object(&error));
                }
            }
        });
    }
}

/// A duration in whole milliseconds, as the protocol's integers count them.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `value` as the JSON object a task inlines (a result or an error).
fn object<T: Serialize>(value: &T) -> mcp::JSONObject {
    serde_json::to_value(value)
        .and_then(serde_json::from_value)
        .unwrap_or_default()
}

/// A fresh task id: 128 random bits, so that ids can be neither guessed nor enumerated.
fn task_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Now, as an ISO 8601 timestamp in UTC with milliseconds.
fn timestamp() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

//! The tasks extension's server side (`io.modelcontextprotocol/tasks`): tasks kept for their
//! TTL by unguessable id, owned by the principal that created them, their work run on the
//! server and asked for input through the task (`input_required` with `inputRequests`, answered
//! by `tasks/update`).
//!
//! The crate knows no schema: a task is any [`TaskState`] (the generated `DetailedTask`
//! implements it), and where tasks live is a [`TaskStore`]. [`MemoryStore`] is the default, in
//! process and bounded; a store shared by several instances implements the same trait (with
//! the feature `redis`, `RedisStore`: any instance answers for any task). The methods a remote
//! store must reach are asynchronous and may fail [`Unavailable`]. [`create`] starts a task's
//! work, which asks for input through its [`Worker`].
//!
//! ```
//! use std::collections::BTreeMap;
//! use mcp_server::tasks::{self, MemoryStore, Settings, Status, TaskError, TaskState, TaskStore};
//!
//! // A task of a schema (the generated `DetailedTask` in a real server).
//! #[derive(Clone, Debug)]
//! struct Task { id: String, status: Status, asked: Option<BTreeMap<String, String>>, result: Option<u32> }
//!
//! impl TaskState for Task {
//!     type InputRequest = String;
//!     type InputResponse = String;
//!     type Outcome = Result<u32, String>;
//!     fn working(id: &str, _now: &str, _ttl_ms: i64, _poll_ms: u64) -> Self {
//!         Task { id: id.to_owned(), status: Status::Working, asked: None, result: None }
//!     }
//!     fn status(&self) -> Status { self.status }
//!     fn set_status(&mut self, status: Status, _message: String) { self.status = status }
//!     fn input_requests(&mut self) -> &mut Option<BTreeMap<String, String>> { &mut self.asked }
//!     fn set_outcome(&mut self, outcome: Result<u32, String>) {
//!         self.status = if outcome.is_ok() { Status::Completed } else { Status::Failed };
//!         self.result = outcome.ok();
//!     }
//!     fn set_last_updated(&mut self, _now: String) {}
//! }
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let store = MemoryStore::<Task>::start(Settings::default());
//! let task = tasks::create(store.clone(), "alice", |worker| async move {
//!     let answers = worker.ask(BTreeMap::from([("n".into(), "How many?".into())]), "asking").await;
//!     answers.and_then(|a| a["n"].parse().ok()).ok_or_else(|| "no answer".to_owned())
//! })
//! .await?;
//! while store.get("alice", &task.id).await?.status != Status::InputRequired {
//!     tokio::task::yield_now().await;
//! }
//! store.update("alice", &task.id, BTreeMap::from([("n".into(), "7".into())])).await?;
//! while store.get("alice", &task.id).await?.status != Status::Completed {
//!     tokio::task::yield_now().await;
//! }
//! assert_eq!(store.get("alice", &task.id).await?.result, Some(7));
//! // Someone else's task is not found.
//! assert_eq!(store.get("bob", &task.id).await.unwrap_err(), TaskError::NotFound);
//! # Ok::<(), Box<dyn std::error::Error>>(()) }).unwrap();
//! ```

mod memory;
#[cfg(feature = "redis")]
mod redis;
pub mod serve;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, oneshot};
use tokio::task::AbortHandle;

pub use memory::MemoryStore;
#[cfg(feature = "redis")]
pub use redis::RedisStore;

/// What a [`TaskStore`]'s asynchronous methods return: a boxed future, so that the trait
/// stays object safe.
pub type BoxFuture<'a, R> = Pin<Box<dyn Future<Output = R> + Send + 'a>>;

/// How long a task lives, how often its client should poll, and how many a store keeps.
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
    /// Five minutes of life, a poll every 200 ms, 1,000 tasks per principal and 10,000 in
    /// all, expired ones removed every second.
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

/// Where a task stands (the extension's `TaskStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Its work runs.
    Working,
    /// Its work waits for the answers to its input requests.
    InputRequired,
    /// Ended with a result.
    Completed,
    /// Ended with an error.
    Failed,
    /// Ended by its client.
    Cancelled,
}

impl Status {
    /// `completed`, `failed` and `cancelled` are final.
    pub fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }
}

/// A task's state as a schema defines it (the generated `DetailedTask`): what the store reads
/// and changes in it.
pub trait TaskState: Clone + Send + Sync + 'static {
    /// One input request of the multi round-trip (the generated `InputRequest`).
    type InputRequest: Send + Sync + 'static;
    /// One answer to an input request (the generated `InputResponse`).
    type InputResponse: Send + 'static;
    /// How the work ends: its result, or the error the request would have been answered with.
    type Outcome: Send + 'static;

    /// A new task `id`, `working`, created at `now` (ISO 8601), that lives `ttl_ms` and asks
    /// to be polled every `poll_interval_ms`.
    fn working(id: &str, now: &str, ttl_ms: i64, poll_interval_ms: u64) -> Self;
    /// Its status.
    fn status(&self) -> Status;
    /// Sets its status and the message that says why.
    fn set_status(&mut self, status: Status, message: String);
    /// The input requests it waits on (`None`: it waits on none).
    fn input_requests(&mut self) -> &mut Option<BTreeMap<String, Self::InputRequest>>;
    /// Ends it with `outcome`: `completed` with the result, or `failed` with the error.
    fn set_outcome(&mut self, outcome: Self::Outcome);
    /// Ends it `failed` for a reason outside its work, which `message` says (the instance that
    /// ran it stopped). By default only its status and message change; a schema whose failed
    /// tasks carry an error sets it here.
    fn set_failed(&mut self, message: String) {
        self.set_status(Status::Failed, message);
    }
    /// Stamps its last change at `now` (ISO 8601).
    fn set_last_updated(&mut self, now: String);
}

/// The answers to a task's input requests, by the requests' keys.
pub type Answers<T> = BTreeMap<String, <T as TaskState>::InputResponse>;

/// A task's new state, published on every change.
#[derive(Debug, Clone)]
pub struct Update<T> {
    /// Whose task it is (only they may hear of it).
    pub principal: String,
    /// The task as it now stands.
    pub task: T,
}

/// The store could not be reached or used (a shared store whose server is down or slow).
/// The text says why, for the server's logs; it holds no stored data. A request that needed
/// the store fails with it and may be tried again.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the task store is unavailable: {0}")]
pub struct Unavailable(pub String);

#[cfg(feature = "redis")]
impl From<crate::redis::Unavailable> for Unavailable {
    fn from(e: crate::redis::Unavailable) -> Self {
        Unavailable(e.0)
    }
}

/// Why a request about a task failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskError {
    /// No such task for this principal: never created, expired, or someone else's (the same
    /// error whichever, so that an id tells nothing of another principal's tasks).
    #[error("task not found: the id is unknown, its TTL has elapsed, or it is not yours")]
    NotFound,
    /// The store is unavailable.
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

/// Why a task was not created.
#[derive(Debug, thiserror::Error)]
pub enum NotCreated {
    /// No randomness for its id.
    #[error("no task id: {0}")]
    NoId(getrandom::Error),
    /// The principal has `max_per_principal` live tasks.
    #[error(
        "Too many tasks: you have {0} live tasks, the most one principal may have; wait until some end and expire"
    )]
    PrincipalFull(usize),
    /// The store has `max_total` live tasks.
    #[error("Too many tasks: the server holds {0} live tasks, the most it keeps; try later")]
    ServerFull(usize),
    /// The store is unavailable.
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

/// Where tasks live. Every lookup is by principal and id: a task of another principal, or
/// one whose TTL has elapsed, is [`TaskError::NotFound`]. Object safe, so that a server holds
/// `Arc<dyn TaskStore<T>>` and the store is chosen at start-up.
///
/// What a shared store must reach is asynchronous ([`BoxFuture`]) and may fail
/// [`Unavailable`]; the work of a task (attached with [`TaskStore::attach_work`]) and the
/// answers it waits on stay in the instance that runs it, and [`TaskStore::subscribe`] hears
/// the changes made by any instance.
pub trait TaskStore<T: TaskState>: Send + Sync + 'static {
    /// The store's bounds and lifetimes.
    fn settings(&self) -> &Settings;
    /// Keeps `task` (just made by [`TaskState::working`]) for `principal`, its work run by
    /// this instance, or refuses it when the principal or the store holds as many tasks as it
    /// may.
    fn insert<'a>(
        &'a self,
        principal: &'a str,
        id: &'a str,
        task: T,
    ) -> BoxFuture<'a, Result<(), NotCreated>>;
    /// Ties the work running task `id` (in this instance) to it: stopped when the task is
    /// cancelled, expires or otherwise ends.
    fn attach_work(&self, id: &str, work: AbortHandle);
    /// The task `id` of `principal`, as it stands.
    fn get<'a>(&'a self, principal: &'a str, id: &'a str) -> BoxFuture<'a, Result<T, TaskError>>;
    /// Takes the answers to the task's outstanding input requests (others are ignored). Once
    /// every outstanding request has an answer, the task is `working` again and its work gets
    /// the answers.
    fn update<'a>(
        &'a self,
        principal: &'a str,
        id: &'a str,
        answers: Answers<T>,
    ) -> BoxFuture<'a, Result<(), TaskError>>;
    /// Cancels the task: its work stops and it ends `cancelled`, unless it already ended.
    fn cancel<'a>(
        &'a self,
        principal: &'a str,
        id: &'a str,
    ) -> BoxFuture<'a, Result<(), TaskError>>;
    /// Of `ids`, those that name a live task of `principal`.
    fn known<'a>(
        &'a self,
        principal: &'a str,
        ids: &'a [String],
    ) -> BoxFuture<'a, Result<Vec<String>, Unavailable>>;
    /// Every later change of every task, made by any instance, each heard once.
    fn subscribe(&self) -> broadcast::Receiver<Update<T>>;
    /// Puts task `id` (whose work runs in this instance) in `input_required` with `requests`
    /// and returns where the answers will come once every request has one (closed if the task
    /// ends first).
    fn ask<'a>(
        &'a self,
        id: &'a str,
        requests: BTreeMap<String, T::InputRequest>,
        why: &'a str,
    ) -> BoxFuture<'a, oneshot::Receiver<Answers<T>>>;
    /// Ends task `id` (whose work runs in this instance) with its work's outcome, unless it
    /// already ended.
    fn finish<'a>(&'a self, id: &'a str, outcome: T::Outcome) -> BoxFuture<'a, ()>;
    /// How many tasks this instance holds: all of an in-process store's, expired ones not yet
    /// removed included; of a shared store, those whose work runs here.
    fn len(&self) -> usize;
    /// Whether it holds none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The keys of the input requests task `id` still waits on.
    fn outstanding<'a>(
        &'a self,
        principal: &'a str,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Vec<String>, TaskError>> {
        Box::pin(async move {
            let mut task = self.get(principal, id).await?;
            Ok(task
                .input_requests()
                .iter()
                .flatten()
                .map(|(k, _)| k.clone())
                .collect())
        })
    }
}

/// Creates a task owned by `principal` in `store` and starts `work` on it (in the current
/// Tokio runtime). The task is in the store (a `tasks/get` finds it) before its first state is
/// returned. Fails when the principal or the store holds as many tasks as it may, when the
/// store is unavailable, or without randomness for its id.
pub async fn create<T, F, W>(
    store: Arc<dyn TaskStore<T>>,
    principal: &str,
    work: F,
) -> Result<T, NotCreated>
where
    T: TaskState,
    F: FnOnce(Worker<T>) -> W,
    W: Future<Output = T::Outcome> + Send + 'static,
{
    let id = task_id().map_err(NotCreated::NoId)?;
    let settings = *store.settings();
    let ttl_ms = i64::try_from(millis(settings.ttl)).unwrap_or(i64::MAX);
    let mut task = T::working(&id, &timestamp(), ttl_ms, millis(settings.poll_interval));
    task.set_status(Status::Working, "The work is in progress.".to_owned());
    store.insert(principal, &id, task.clone()).await?;
    let worker = Worker {
        store: Arc::clone(&store),
        id: id.clone(),
    };
    let finisher = worker.clone();
    let running = work(worker);
    let handle = tokio::spawn(async move {
        let outcome = running.await;
        finisher.store.finish(&finisher.id, outcome).await;
    });
    store.attach_work(&id, handle.abort_handle());
    Ok(task)
}

/// What a task's work holds: the way to ask its client for input.
pub struct Worker<T: TaskState> {
    store: Arc<dyn TaskStore<T>>,
    id: String,
}

impl<T: TaskState> Clone for Worker<T> {
    fn clone(&self) -> Self {
        Worker {
            store: Arc::clone(&self.store),
            id: self.id.clone(),
        }
    }
}

impl<T: TaskState> Worker<T> {
    /// The task's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Puts the task in `input_required` with `requests` (keys never used before in this
    /// task), saying `why`, and waits until the client answered every one of them through
    /// `tasks/update`. `None` if the task ended meanwhile (cancelled, or expired), or if the
    /// store could not be told of the requests before the task's TTL elapsed.
    pub async fn ask(
        &self,
        requests: BTreeMap<String, T::InputRequest>,
        why: &str,
    ) -> Option<Answers<T>> {
        self.store.ask(&self.id, requests, why).await.await.ok()
    }
}

/// A duration in whole milliseconds, as the protocol's integers count them.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A fresh task id: 128 random bits, so that ids can be neither guessed nor enumerated.
fn task_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Now, as an ISO 8601 timestamp in UTC with milliseconds.
pub(crate) fn timestamp() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

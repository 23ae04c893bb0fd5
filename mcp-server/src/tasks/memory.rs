//! [`MemoryStore`]: tasks in this process's memory, bounded.
//!
//! At most `max_per_principal` tasks of one principal and `max_total` in all; creating one
//! more is refused until some expire. Expired tasks are invisible at once and removed (their
//! work stopped) by a background sweep every `sweep_every`, never inside a request; until then
//! they still count.

use std::collections::{BTreeMap, HashMap};
use std::future::ready;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use tokio::sync::{broadcast, oneshot};
use tokio::task::AbortHandle;

use super::{
    Answers, BoxFuture, NotCreated, Settings, Status, TaskError, TaskState, TaskStore, Unavailable,
    Update,
};

/// How many changes a slow listener may fall behind before it misses some.
const UPDATE_BUFFER: usize = 256;

/// Tasks kept in memory for their TTL, with a sweeper ([`MemoryStore::start`]).
pub struct MemoryStore<T: TaskState> {
    settings: Settings,
    tasks: Mutex<Tasks<T>>,
    updates: broadcast::Sender<Update<T>>,
}

struct Entry<T: TaskState> {
    principal: String,
    expires: Instant,
    task: T,
    /// The answers to the current round of input requests, kept until every key has one.
    answered: Answers<T>,
    /// Hands the answers to the waiting work once the round is complete.
    waiter: Option<oneshot::Sender<Answers<T>>>,
    worker: Option<AbortHandle>,
}

impl<T: TaskState> Entry<T> {
    fn is_terminal(&self) -> bool {
        self.task.status().is_terminal()
    }

    /// Ends the work (if it still runs) and any wait for input.
    fn stop(&mut self) {
        if let Some(worker) = self.worker.take() {
            worker.abort();
        }
        self.waiter = None;
    }
}

/// The tasks by id, and how many each principal has (expired ones included until swept).
struct Tasks<T: TaskState> {
    by_id: HashMap<String, Entry<T>>,
    per_principal: HashMap<String, usize>,
}

impl<T: TaskState> Tasks<T> {
    /// The live task `id` (not expired), if `principal`'s.
    fn of(&mut self, principal: &str, id: &str) -> Option<&mut Entry<T>> {
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

impl<T: TaskState> MemoryStore<T> {
    /// An empty store; nothing removes expired tasks but [`MemoryStore::sweep`].
    pub fn new(settings: Settings) -> Self {
        let (updates, _) = broadcast::channel(UPDATE_BUFFER);
        MemoryStore {
            settings,
            tasks: Mutex::new(Tasks {
                by_id: HashMap::new(),
                per_principal: HashMap::new(),
            }),
            updates,
        }
    }

    /// An empty store with its sweeper running (in the current Tokio runtime), which ends
    /// when the store is dropped.
    pub fn start(settings: Settings) -> Arc<Self> {
        let store = Arc::new(MemoryStore::new(settings));
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

    /// The tasks (expired ones may still be there: lookups go through [`Tasks::of`]).
    fn lock(&self) -> MutexGuard<'_, Tasks<T>> {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stamps the change and tells the listeners.
    fn publish(&self, entry: &mut Entry<T>) {
        entry.task.set_last_updated(super::timestamp());
        let _ = self.updates.send(Update {
            principal: entry.principal.clone(),
            task: entry.task.clone(),
        });
    }

    /// Applies `change` to task `id` if it is live and has not ended.
    fn change(&self, id: &str, change: impl FnOnce(&mut Entry<T>)) {
        let mut tasks = self.lock();
        let now = Instant::now();
        let live = tasks.by_id.get_mut(id).filter(|e| e.expires > now);
        if let Some(entry) = live.filter(|e| !e.is_terminal()) {
            change(entry);
            self.publish(entry);
        }
    }
}

impl<T: TaskState> MemoryStore<T> {
    fn insert_now(&self, principal: &str, id: &str, task: T) -> Result<(), NotCreated> {
        let mut tasks = self.lock();
        let mine = tasks.per_principal.get(principal).copied().unwrap_or(0);
        if mine >= self.settings.max_per_principal {
            return Err(NotCreated::PrincipalFull(mine));
        }
        if tasks.by_id.len() >= self.settings.max_total {
            return Err(NotCreated::ServerFull(tasks.by_id.len()));
        }
        *tasks.per_principal.entry(principal.to_owned()).or_default() += 1;
        let entry = Entry {
            principal: principal.to_owned(),
            expires: Instant::now() + self.settings.ttl,
            task,
            answered: Answers::<T>::new(),
            waiter: None,
            worker: None,
        };
        tasks.by_id.insert(id.to_owned(), entry);
        Ok(())
    }

    fn update_now(&self, principal: &str, id: &str, answers: Answers<T>) -> Result<(), TaskError> {
        let mut tasks = self.lock();
        let entry = tasks.of(principal, id).ok_or(TaskError::NotFound)?;
        let Some(outstanding) = entry.task.input_requests().as_mut() else {
            return Ok(());
        };
        let mut changed = false;
        for (key, answer) in answers {
            if outstanding.remove(&key).is_some() {
                entry.answered.insert(key, answer);
                changed = true;
            }
        }
        if !changed {
            return Ok(());
        }
        if outstanding.is_empty() {
            *entry.task.input_requests() = None;
            let message = "Input received; the work goes on.".to_owned();
            entry.task.set_status(Status::Working, message);
            let answers = std::mem::take(&mut entry.answered);
            if let Some(waiter) = entry.waiter.take() {
                let _ = waiter.send(answers);
            }
        }
        self.publish(entry);
        Ok(())
    }

    fn cancel_now(&self, principal: &str, id: &str) -> Result<(), TaskError> {
        let mut tasks = self.lock();
        let entry = tasks.of(principal, id).ok_or(TaskError::NotFound)?;
        if entry.is_terminal() {
            return Ok(());
        }
        entry.stop();
        let message = "Cancelled at the client's request.".to_owned();
        entry.task.set_status(Status::Cancelled, message);
        *entry.task.input_requests() = None;
        self.publish(entry);
        Ok(())
    }
}

/// Every method does its work at once, under the store's lock; the futures are ready.
impl<T: TaskState> TaskStore<T> for MemoryStore<T> {
    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn insert<'a>(
        &'a self,
        principal: &'a str,
        id: &'a str,
        task: T,
    ) -> BoxFuture<'a, Result<(), NotCreated>> {
        Box::pin(ready(self.insert_now(principal, id, task)))
    }

    fn attach_work(&self, id: &str, work: AbortHandle) {
        match self.lock().by_id.get_mut(id) {
            // Ended (cancelled) before its work was attached: the work stops at once.
            Some(e) if e.is_terminal() => work.abort(),
            Some(e) => e.worker = Some(work),
            None => work.abort(),
        }
    }

    fn get<'a>(&'a self, principal: &'a str, id: &'a str) -> BoxFuture<'a, Result<T, TaskError>> {
        let task = self.lock().of(principal, id).map(|e| e.task.clone());
        Box::pin(ready(task.ok_or(TaskError::NotFound)))
    }

    fn update<'a>(
        &'a self,
        principal: &'a str,
        id: &'a str,
        answers: Answers<T>,
    ) -> BoxFuture<'a, Result<(), TaskError>> {
        Box::pin(ready(self.update_now(principal, id, answers)))
    }

    fn cancel<'a>(
        &'a self,
        principal: &'a str,
        id: &'a str,
    ) -> BoxFuture<'a, Result<(), TaskError>> {
        Box::pin(ready(self.cancel_now(principal, id)))
    }

    fn known<'a>(
        &'a self,
        principal: &'a str,
        ids: &'a [String],
    ) -> BoxFuture<'a, Result<Vec<String>, Unavailable>> {
        let mut tasks = self.lock();
        let known = ids
            .iter()
            .filter(|id| tasks.of(principal, id).is_some())
            .cloned()
            .collect();
        Box::pin(ready(Ok(known)))
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
        let (tx, rx) = oneshot::channel();
        self.change(id, |e| {
            e.task.set_status(Status::InputRequired, why.to_owned());
            *e.task.input_requests() = Some(requests);
            e.answered = Answers::<T>::new();
            e.waiter = Some(tx);
        });
        Box::pin(ready(rx))
    }

    fn finish<'a>(&'a self, id: &'a str, outcome: T::Outcome) -> BoxFuture<'a, ()> {
        self.change(id, |e| {
            e.worker = None;
            e.waiter = None;
            *e.task.input_requests() = None;
            e.task.set_outcome(outcome);
        });
        Box::pin(ready(()))
    }

    fn len(&self) -> usize {
        self.lock().by_id.len()
    }
}

//! The in-memory store: bounds, expiry, ownership, input rounds, cancellation.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::*;

#[derive(Clone, Debug)]
struct Task {
    id: String,
    status: Status,
    message: String,
    asked: Option<BTreeMap<String, String>>,
    result: Option<Result<u32, String>>,
    updated: Option<String>,
}

impl TaskState for Task {
    type InputRequest = String;
    type InputResponse = String;
    type Outcome = Result<u32, String>;
    fn working(id: &str, now: &str, _ttl_ms: i64, _poll_ms: u64) -> Self {
        Task {
            id: id.to_owned(),
            status: Status::Working,
            message: String::new(),
            asked: None,
            result: None,
            updated: Some(now.to_owned()),
        }
    }
    fn status(&self) -> Status {
        self.status
    }
    fn set_status(&mut self, status: Status, message: String) {
        self.status = status;
        self.message = message;
    }
    fn input_requests(&mut self) -> &mut Option<BTreeMap<String, String>> {
        &mut self.asked
    }
    fn set_outcome(&mut self, outcome: Result<u32, String>) {
        self.status = match outcome {
            Ok(_) => Status::Completed,
            Err(_) => Status::Failed,
        };
        self.result = Some(outcome);
    }
    fn set_last_updated(&mut self, now: String) {
        self.updated = Some(now);
    }
}

fn settings() -> Settings {
    Settings {
        ttl: Duration::from_secs(60),
        poll_interval: Duration::from_millis(10),
        max_per_principal: 2,
        max_total: 3,
        sweep_every: Duration::from_millis(20),
    }
}

/// Work that never ends on its own.
async fn forever(_: Worker<Task>) -> Result<u32, String> {
    std::future::pending().await
}

/// Waits (at most five seconds) until task `id` of `who` is in `status`.
async fn until(store: &MemoryStore<Task>, who: &str, id: &str, status: Status) -> Task {
    for _ in 0..500 {
        if let Ok(task) = store.get(who, id).await
            && task.status == status
        {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "task {id} never reached {status:?}: {:?}",
        store.get(who, id).await
    );
}

#[tokio::test]
async fn creation_is_bounded_per_principal_and_in_all() {
    let store = MemoryStore::<Task>::start(settings());
    tasks_of(&store, "a", 2).await;
    let full = create(store.clone(), "a", forever).await.unwrap_err();
    assert!(matches!(full, NotCreated::PrincipalFull(2)), "{full}");
    tasks_of(&store, "b", 1).await;
    let full = create(store.clone(), "c", forever).await.unwrap_err();
    assert!(matches!(full, NotCreated::ServerFull(3)), "{full}");
    assert_eq!(store.len(), 3);
}

async fn tasks_of(store: &Arc<MemoryStore<Task>>, who: &str, n: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for _ in 0..n {
        ids.push(create(store.clone(), who, forever).await.unwrap().id);
    }
    ids
}

#[tokio::test]
async fn a_task_is_its_owners_only_and_ids_are_unguessable() {
    let store = MemoryStore::<Task>::start(settings());
    let ids = tasks_of(&store, "a", 2).await;
    assert_ne!(ids[0], ids[1]);
    assert_eq!(ids[0].len(), 32);
    assert!(store.get("a", &ids[0]).await.is_ok());
    assert_eq!(
        store.get("b", &ids[0]).await.unwrap_err(),
        TaskError::NotFound
    );
    assert_eq!(store.cancel("b", &ids[0]).await, Err(TaskError::NotFound));
    assert_eq!(
        store.known("a", &[ids[1].clone(), "x".into()]).await,
        Ok(vec![ids[1].clone()])
    );
    assert!(store.known("b", &ids).await.unwrap().is_empty());
}

#[tokio::test]
async fn expired_tasks_vanish_at_once_and_are_swept_with_their_work() {
    let stopped = Arc::new(AtomicBool::new(false));
    let mut short = settings();
    short.ttl = Duration::from_millis(100);
    let store = MemoryStore::<Task>::start(short);
    let flag = Arc::clone(&stopped);
    let id = create(store.clone(), "a", move |_| watched(flag))
        .await
        .unwrap()
        .id;
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert_eq!(store.get("a", &id).await.unwrap_err(), TaskError::NotFound);
    for _ in 0..100 {
        if store.is_empty() && stopped.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(store.is_empty());
    assert!(
        stopped.load(Ordering::SeqCst),
        "the expired task's work still runs"
    );
    // Its place is free again.
    tasks_of(&store, "a", 2).await;
}

/// Work that never ends and sets `flag` when stopped (its future dropped, run or not).
fn watched(flag: Arc<AtomicBool>) -> impl Future<Output = Result<u32, String>> {
    let guard = SetOnDrop(flag);
    async move {
        let _guard = guard;
        std::future::pending().await
    }
}

/// Sets the flag when the work's future is dropped (stopped).
struct SetOnDrop(Arc<AtomicBool>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[tokio::test]
async fn input_rounds_take_only_the_outstanding_answers() {
    let store = MemoryStore::<Task>::start(settings());
    let id = create(store.clone(), "a", |w| async move {
        let asked = BTreeMap::from([("x".into(), "X?".into()), ("y".into(), "Y?".into())]);
        let answers = w.ask(asked, "two questions").await.ok_or("ended")?;
        Ok(answers
            .values()
            .map(|v| v.parse::<u32>().unwrap_or(0))
            .sum())
    })
    .await
    .unwrap()
    .id;
    let task = until(&store, "a", &id, Status::InputRequired).await;
    assert_eq!(task.message, "two questions");
    assert_eq!(store.outstanding("a", &id).await.unwrap(), ["x", "y"]);
    // An answer to a key not asked is ignored; one of two keeps the task waiting.
    let one = BTreeMap::from([("x".into(), "2".into()), ("z".into(), "100".into())]);
    store.update("a", &id, one).await.unwrap();
    assert_eq!(store.outstanding("a", &id).await.unwrap(), ["y"]);
    let task = store.get("a", &id).await.unwrap();
    assert_eq!(task.status, Status::InputRequired);
    store
        .update("a", &id, BTreeMap::from([("y".into(), "3".into())]))
        .await
        .unwrap();
    let done = until(&store, "a", &id, Status::Completed).await;
    assert_eq!(done.result, Some(Ok(5)));
    assert_eq!(done.asked, None);
}

#[tokio::test]
async fn cancelling_stops_the_work_and_is_final() {
    let stopped = Arc::new(AtomicBool::new(false));
    let store = MemoryStore::<Task>::start(settings());
    let mut updates = store.subscribe();
    let flag = Arc::clone(&stopped);
    let id = create(store.clone(), "a", move |_| watched(flag))
        .await
        .unwrap()
        .id;
    store.cancel("a", &id).await.unwrap();
    let update = updates.recv().await.unwrap();
    assert_eq!(
        (update.principal.as_str(), update.task.status),
        ("a", Status::Cancelled)
    );
    for _ in 0..100 {
        if stopped.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        stopped.load(Ordering::SeqCst),
        "the cancelled task's work still runs"
    );
    // Final: a second cancel changes nothing, and the work's end is not recorded.
    store.cancel("a", &id).await.unwrap();
    store.finish(&id, Ok(1)).await;
    let task = store.get("a", &id).await.unwrap();
    assert_eq!(task.status, Status::Cancelled);
}

#[tokio::test]
async fn a_failed_work_ends_the_task_failed() {
    let store = MemoryStore::<Task>::start(settings());
    let id = create(store.clone(), "a", |_| async { Err("broken".to_owned()) })
        .await
        .unwrap()
        .id;
    let task = until(&store, "a", &id, Status::Failed).await;
    assert_eq!(task.result, Some(Err("broken".into())));
    assert!(task.updated.is_some_and(|t| t.ends_with('Z')));
}

//! The Redis store against a `redis-server` of each test's own, with two instances (two
//! connections, two stores) on it: a task followed at the instance that did not create it,
//! the bounds counted in Redis, a TTL on every key, an instance that stops, Redis that stops,
//! and ids and principals that must not reach a task or a key.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ::redis::AsyncCommands;
use serde::{Deserialize, Serialize};

use super::*;
use crate::redis::test_server::RedisServer;
use crate::tasks::{Worker, create};

/// A task of a schema, as Redis can hold it.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Task {
    id: String,
    status: String,
    message: String,
    asked: Option<BTreeMap<String, String>>,
    result: Option<Result<u32, String>>,
    updated: String,
}

const STATUSES: [(&str, Status); 5] = [
    ("working", Status::Working),
    ("input_required", Status::InputRequired),
    ("completed", Status::Completed),
    ("failed", Status::Failed),
    ("cancelled", Status::Cancelled),
];

impl TaskState for Task {
    type InputRequest = String;
    type InputResponse = String;
    type Outcome = Result<u32, String>;
    fn working(id: &str, now: &str, _ttl_ms: i64, _poll_ms: u64) -> Self {
        Task {
            id: id.to_owned(),
            status: "working".to_owned(),
            message: String::new(),
            asked: None,
            result: None,
            updated: now.to_owned(),
        }
    }
    fn status(&self) -> Status {
        STATUSES
            .iter()
            .find(|(name, _)| *name == self.status)
            .map_or(Status::Working, |(_, s)| *s)
    }
    fn set_status(&mut self, status: Status, message: String) {
        let name = STATUSES.iter().find(|(_, s)| *s == status).map(|(n, _)| n);
        self.status = name.copied().unwrap_or("working").to_owned();
        self.message = message;
    }
    fn input_requests(&mut self) -> &mut Option<BTreeMap<String, String>> {
        &mut self.asked
    }
    fn set_outcome(&mut self, outcome: Result<u32, String>) {
        let status = match outcome {
            Ok(_) => Status::Completed,
            Err(_) => Status::Failed,
        };
        self.set_status(status, "ended".to_owned());
        self.result = Some(outcome);
    }
    fn set_last_updated(&mut self, now: String) {
        self.updated = now;
    }
}

type Store = Arc<RedisStore<Task>>;

fn settings() -> Settings {
    Settings {
        ttl: Duration::from_secs(60),
        poll_interval: Duration::from_millis(10),
        max_per_principal: 2,
        max_total: 3,
        sweep_every: Duration::from_millis(100),
    }
}

/// Short deadlines and a prefix of the test's own; heartbeats that outlast a loaded machine's
/// stalls (an instance whose heartbeat lapses has its tasks failed).
fn redis_settings(prefix: &str) -> crate::redis::Settings {
    crate::redis::Settings {
        prefix: prefix.to_owned(),
        response_timeout: Duration::from_millis(500),
        connection_timeout: Duration::from_millis(300),
        heartbeat_every: Duration::from_millis(100),
        heartbeat_ttl: Duration::from_secs(3),
    }
}

/// An instance: its own connection to `server`, and its store.
async fn instance(server: &RedisServer, prefix: &str, settings: Settings) -> Store {
    let redis = Redis::connect_with(&server.url(), redis_settings(prefix))
        .await
        .unwrap();
    RedisStore::start(redis, settings).await.unwrap()
}

/// Two instances on one Redis.
async fn two(server: &RedisServer, prefix: &str) -> (Store, Store) {
    let a = instance(server, prefix, settings()).await;
    let b = instance(server, prefix, settings()).await;
    (a, b)
}

fn dyn_store(store: &Store) -> Arc<dyn TaskStore<Task>> {
    Arc::clone(store) as Arc<dyn TaskStore<Task>>
}

/// Work that never ends on its own.
async fn forever(_: Worker<Task>) -> Result<u32, String> {
    std::future::pending().await
}

/// Work that never ends and sets `flag` when stopped (its future dropped).
fn watched(flag: Arc<AtomicBool>) -> impl Future<Output = Result<u32, String>> {
    struct SetOnDrop(Arc<AtomicBool>);
    impl Drop for SetOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let guard = SetOnDrop(flag);
    async move {
        let _guard = guard;
        std::future::pending().await
    }
}

/// Work that asks for `x` and `y` and ends with their sum.
async fn adds(w: Worker<Task>) -> Result<u32, String> {
    let asked = BTreeMap::from([("x".into(), "X?".into()), ("y".into(), "Y?".into())]);
    let answers = w.ask(asked, "two questions").await.ok_or("ended")?;
    Ok(answers
        .values()
        .map(|v| v.parse::<u32>().unwrap_or(0))
        .sum())
}

/// Waits (at most five seconds) until task `id` of `who` is in `status`, as `store` reads it.
async fn until(store: &Store, who: &str, id: &str, status: Status) -> Task {
    for _ in 0..500 {
        if let Ok(task) = store.get(who, id).await
            && task.status() == status
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

/// Waits (at most five seconds) until `flag` is set.
async fn set_soon(flag: &AtomicBool) -> bool {
    for _ in 0..500 {
        if flag.load(Ordering::SeqCst) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

/// The keys under `prefix`, each with its remaining TTL in ms.
async fn keys(server: &RedisServer, prefix: &str) -> Vec<(String, i64)> {
    let client = ::redis::Client::open(server.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = conn.keys(format!("{prefix}:*")).await.unwrap();
    let mut ttls = Vec::new();
    for key in keys {
        let ttl: i64 = ::redis::cmd("PTTL")
            .arg(&key)
            .query_async(&mut conn)
            .await
            .unwrap();
        ttls.push((key, ttl));
    }
    ttls.sort();
    ttls
}

#[tokio::test]
async fn a_task_created_at_one_instance_is_followed_and_answered_at_another() {
    let server = RedisServer::start();
    let (a, b) = two(&server, "follow").await;
    let mut heard_at_b = b.subscribe();
    let id = create(dyn_store(&a), "alice", adds).await.unwrap().id;
    assert_eq!(a.len(), 1, "the work runs at a");
    assert_eq!(b.len(), 0);
    let task = until(&b, "alice", &id, Status::InputRequired).await;
    assert_eq!(task.message, "two questions");
    // One answer of two (and one to a key not asked) at b: still waiting on the other.
    let one = BTreeMap::from([("x".into(), "2".into()), ("z".into(), "100".into())]);
    b.update("alice", &id, one).await.unwrap();
    assert_eq!(b.outstanding("alice", &id).await.unwrap(), ["y"]);
    assert_eq!(a.outstanding("alice", &id).await.unwrap(), ["y"]);
    // The last answer at b reaches the work at a.
    let y = BTreeMap::from([("y".into(), "3".into())]);
    b.update("alice", &id, y).await.unwrap();
    let done = until(&b, "alice", &id, Status::Completed).await;
    assert_eq!(done.result, Some(Ok(5)));
    assert_eq!(done.asked, None);
    assert!(
        set_soon_len(&a, 0).await,
        "the ended work is still counted at a"
    );
    // b heard every change made at a, once each, in order.
    let mut heard = Vec::new();
    while let Ok(Ok(update)) =
        tokio::time::timeout(Duration::from_millis(300), heard_at_b.recv()).await
    {
        assert_eq!(update.principal, "alice");
        heard.push(update.task.status);
    }
    assert_eq!(
        heard,
        ["input_required", "input_required", "working", "completed"]
    );
}

/// Waits (at most five seconds) until `store` runs `n` tasks' work.
async fn set_soon_len(store: &Store, n: usize) -> bool {
    for _ in 0..500 {
        if store.len() == n {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test]
async fn a_task_cancelled_at_another_instance_stops_its_work() {
    let server = RedisServer::start();
    let (a, b) = two(&server, "cancel").await;
    let stopped = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stopped);
    let id = create(dyn_store(&a), "alice", move |_| watched(flag))
        .await
        .unwrap()
        .id;
    b.cancel("alice", &id).await.unwrap();
    assert!(
        set_soon(&stopped).await,
        "the cancelled task's work runs on"
    );
    assert_eq!(a.get("alice", &id).await.unwrap().status, "cancelled");
    assert_eq!(a.len(), 0);
    // Final: cancelling again changes nothing; the work's end would not be recorded.
    b.cancel("alice", &id).await.unwrap();
    a.finish(&id, Ok(1)).await;
    assert_eq!(b.get("alice", &id).await.unwrap().status, "cancelled");
}

#[tokio::test]
async fn a_forged_terminal_event_stops_no_work_whose_record_runs_on() {
    let server = RedisServer::start();
    let (a, _b) = two(&server, "forged").await;
    let stopped = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stopped);
    let id = create(dyn_store(&a), "alice", move |_| watched(flag))
        .await
        .unwrap()
        .id;
    // Another client of the Redis publishes "cancelled" for the task, straight on the channel,
    // under the task's own principal and under another's.
    let client = ::redis::Client::open(server.url()).unwrap();
    let mut neighbour = client.get_multiplexed_async_connection().await.unwrap();
    for principal in ["alice", "mallory"] {
        let mut task = Task::working(&id, "now", 1, 1);
        task.set_status(Status::Cancelled, "forged".to_owned());
        let event = Event {
            id: id.clone(),
            principal: principal.to_owned(),
            round: 0,
            task,
        };
        let payload = serde_json::to_vec(&event).unwrap();
        let heard: i64 = neighbour
            .publish(format!("forged:channel:{CHANNEL}"), payload)
            .await
            .unwrap();
        assert!(heard >= 2, "both instances listen: {heard}");
    }
    assert!(
        !set_soon(&stopped).await,
        "a forged event stopped the work of a task whose record runs on"
    );
    assert_eq!(a.len(), 1);
    assert_eq!(a.get("alice", &id).await.unwrap().status, "working");
    // The real cancellation still stops it.
    a.cancel("alice", &id).await.unwrap();
    assert!(
        set_soon(&stopped).await,
        "the cancelled task's work runs on"
    );
}

#[tokio::test]
async fn the_bounds_are_counted_in_redis_across_instances() {
    let server = RedisServer::start();
    let (a, b) = two(&server, "bounds").await;
    create(dyn_store(&a), "alice", forever).await.unwrap();
    create(dyn_store(&b), "alice", forever).await.unwrap();
    let full = create(dyn_store(&a), "alice", forever).await.unwrap_err();
    assert!(matches!(full, NotCreated::PrincipalFull(2)), "{full}");
    create(dyn_store(&b), "bob", forever).await.unwrap();
    let full = create(dyn_store(&a), "carol", forever).await.unwrap_err();
    assert!(matches!(full, NotCreated::ServerFull(3)), "{full}");
}

#[tokio::test]
async fn expired_tasks_free_their_place_and_their_work_stops() {
    let server = RedisServer::start();
    let short = Settings {
        ttl: Duration::from_millis(300),
        ..settings()
    };
    let a = instance(&server, "expiry", short).await;
    let b = instance(&server, "expiry", short).await;
    let stopped = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stopped);
    let id = create(dyn_store(&a), "alice", move |_| watched(flag))
        .await
        .unwrap()
        .id;
    create(dyn_store(&b), "alice", forever).await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(b.get("alice", &id).await.unwrap_err(), TaskError::NotFound);
    assert!(set_soon(&stopped).await, "the expired task's work runs on");
    assert!(set_soon_len(&a, 0).await);
    create(dyn_store(&a), "alice", forever).await.unwrap();
    create(dyn_store(&b), "alice", forever).await.unwrap();
}

#[tokio::test]
async fn every_key_has_a_ttl_and_client_text_is_escaped_in_keys() {
    let server = RedisServer::start();
    let (a, b) = two(&server, "ttl").await;
    let principal = "mallory:*{x}";
    let id = create(dyn_store(&a), principal, adds).await.unwrap().id;
    until(&b, principal, &id, Status::InputRequired).await;
    b.update(principal, &id, BTreeMap::from([("x".into(), "1".into())]))
        .await
        .unwrap();
    create(dyn_store(&b), "bob", forever).await.unwrap();
    let keys = keys(&server, "ttl").await;
    let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
    assert!(
        names.contains(&format!("ttl:task:{id}").as_str()),
        "{names:?}"
    );
    let of_principal = format!("ttl:tasks-of:{}", crate::redis::escape(principal));
    assert!(names.contains(&of_principal.as_str()), "{names:?}");
    assert!(names.contains(&"ttl:tasks:~616c6c"), "{names:?}");
    for (key, ttl) in &keys {
        assert!(*ttl > 0, "{key} has no TTL ({ttl})");
        assert!(!key.contains('*') && !key.contains('{'), "{key}");
    }
    // Two tasks, two principals' sets, the set of all, two instances' heartbeats.
    assert_eq!(keys.len(), 7, "{names:?}");
}

#[tokio::test]
async fn another_principals_task_and_odd_ids_are_not_found_and_touch_nothing() {
    let server = RedisServer::start();
    let (a, b) = two(&server, "owned").await;
    let id = create(dyn_store(&a), "alice", adds).await.unwrap().id;
    until(&a, "alice", &id, Status::InputRequired).await;
    let before = keys(&server, "owned").await.len();
    let answer = || BTreeMap::from([("x".into(), "1".into()), ("y".into(), "2".into())]);
    assert_eq!(b.get("bob", &id).await.unwrap_err(), TaskError::NotFound);
    assert_eq!(
        b.update("bob", &id, answer()).await,
        Err(TaskError::NotFound)
    );
    assert_eq!(b.cancel("bob", &id).await, Err(TaskError::NotFound));
    assert_eq!(b.outstanding("bob", &id).await, Err(TaskError::NotFound));
    assert_eq!(b.known("bob", std::slice::from_ref(&id)).await, Ok(vec![]));
    for odd in ["*", "a:b", "", "../task", "ttl:task:x", &id.to_uppercase()] {
        assert_eq!(
            b.get("alice", odd).await.unwrap_err(),
            TaskError::NotFound,
            "{odd}"
        );
        let updated = b.update("alice", odd, answer()).await;
        assert_eq!(updated, Err(TaskError::NotFound), "{odd}");
        assert_eq!(
            b.cancel("alice", odd).await,
            Err(TaskError::NotFound),
            "{odd}"
        );
        assert_eq!(b.known("alice", &[odd.to_owned()]).await, Ok(vec![]));
    }
    // Nothing changed: still waiting on both answers, and no key was made.
    assert_eq!(a.outstanding("alice", &id).await.unwrap(), ["x", "y"]);
    assert_eq!(keys(&server, "owned").await.len(), before);
    assert_eq!(
        b.known("alice", &[id.clone(), "*".into()]).await,
        Ok(vec![id])
    );
}

/// A task whose instance stops (its runtime, with its connection, work and heartbeat, gone)
/// while the task waits for input ends failed at the next look from another instance.
#[test]
fn a_task_of_an_instance_that_stopped_ends_failed() {
    let server = RedisServer::start();
    let url = server.url();
    let gone = tokio::runtime::Runtime::new().unwrap();
    let id = gone.block_on(async {
        let short = crate::redis::Settings {
            heartbeat_ttl: Duration::from_millis(400),
            ..redis_settings("lost")
        };
        let redis = Redis::connect_with(&url, short).await.unwrap();
        let a: Store = RedisStore::start(redis, settings()).await.unwrap();
        let id = create(dyn_store(&a), "alice", adds).await.unwrap().id;
        until(&a, "alice", &id, Status::InputRequired).await;
        id
    });
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let b = instance(&server, "lost", settings()).await;
        let mut heard = b.subscribe();
        // While a runs, its task waits.
        let task = b.get("alice", &id).await.unwrap();
        assert_eq!(task.status(), Status::InputRequired);
        gone.shutdown_background();
        tokio::time::sleep(Duration::from_millis(600)).await; // its heartbeat lapses
        let failed = b.get("alice", &id).await.unwrap();
        assert_eq!(failed.status(), Status::Failed, "{failed:?}");
        assert!(failed.message.contains("stopped"), "{}", failed.message);
        assert_eq!(failed.asked, None);
        // Said once, to everyone listening.
        let update = tokio::time::timeout(Duration::from_secs(2), heard.recv())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(update.task.status(), Status::Failed);
        // Final: an answer now is ignored.
        let late = BTreeMap::from([("x".into(), "1".into())]);
        b.update("alice", &id, late).await.unwrap();
        assert_eq!(b.get("alice", &id).await.unwrap().status(), Status::Failed);
        assert_eq!(
            b.known("alice", std::slice::from_ref(&id)).await,
            Ok(vec![id.clone()])
        );
    });
}

#[tokio::test]
async fn a_listen_lookup_ends_a_lost_task_failed_too() {
    let server = RedisServer::start();
    let b = instance(&server, "lost-known", settings()).await;
    // A task whose owner never beat: as if it had stopped long ago.
    let task = Task::working("0123456789abcdef0123456789abcdef", "now", 1, 1);
    let record = Record {
        principal: "alice".to_owned(),
        owner: "00000000deadbeef".to_owned(),
        task,
        round: 0,
        answered: Answers::<Task>::new(),
    };
    let client = ::redis::Client::open(server.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let () = conn
        .pset_ex(
            "lost-known:task:0123456789abcdef0123456789abcdef",
            serde_json::to_string(&record).unwrap(),
            60_000,
        )
        .await
        .unwrap();
    let id = "0123456789abcdef0123456789abcdef".to_owned();
    assert_eq!(
        b.known("alice", std::slice::from_ref(&id)).await,
        Ok(vec![id.clone()])
    );
    let task = b.get("alice", &id).await.unwrap();
    assert_eq!(task.status(), Status::Failed);
}

#[tokio::test]
async fn while_redis_is_down_requests_fail_at_once_and_work_again_after() {
    let mut server = RedisServer::start();
    let (a, b) = two(&server, "down").await;
    let id = create(dyn_store(&a), "alice", forever).await.unwrap().id;
    server.stop();
    let unavailable = |r: Result<(), TaskError>| matches!(r, Err(TaskError::Unavailable(_)));
    let started = std::time::Instant::now();
    let refused = create(dyn_store(&a), "alice", forever).await.unwrap_err();
    assert!(matches!(refused, NotCreated::Unavailable(_)), "{refused}");
    assert!(unavailable(b.get("alice", &id).await.map(drop)));
    assert!(unavailable(b.cancel("alice", &id).await));
    assert!(unavailable(
        b.update("alice", &id, Answers::<Task>::new()).await
    ));
    assert!(b.known("alice", std::slice::from_ref(&id)).await.is_err());
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // The error says the store is unavailable, nothing of any task.
    let error = b.get("alice", &id).await.unwrap_err().to_string();
    assert!(
        error.starts_with("the task store is unavailable"),
        "{error}"
    );
    assert!(!error.contains(&id), "{error}");
    // Back (empty: this Redis keeps nothing): everything works again, the channel too.
    server.restart();
    let mut heard_at_b = b.subscribe();
    let mut created = None;
    for _ in 0..50 {
        if let Ok(task) = create(dyn_store(&a), "alice", adds).await {
            created = Some(task.id);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let id = created.expect("no task created after Redis came back");
    until(&b, "alice", &id, Status::InputRequired).await;
    // The channel's subscription is renewed once its connection is back: a probe is heard
    // (it names a task and principal that are in the store: others are not passed on).
    let probe = Event {
        id: id.clone(),
        principal: "alice".to_owned(),
        round: 0,
        task: Task::working("probe", "now", 1, 1),
    };
    let probe = serde_json::to_vec(&probe).unwrap();
    let mut back = false;
    for _ in 0..50 {
        let _ = a.redis.publish(CHANNEL, &probe).await;
        let heard = tokio::time::timeout(Duration::from_millis(100), heard_at_b.recv()).await;
        if let Ok(Ok(update)) = heard
            && update.task.id == "probe"
        {
            back = true;
            break;
        }
    }
    assert!(back, "the channel did not come back with Redis");
    b.update("alice", &id, BTreeMap::from([("x".into(), "1".into())]))
        .await
        .unwrap();
    let changed = async {
        loop {
            let update = heard_at_b.recv().await.unwrap();
            if update.task.id == id {
                break update.task;
            }
        }
    };
    let changed = tokio::time::timeout(Duration::from_secs(2), changed)
        .await
        .unwrap();
    assert_eq!(changed.asked.map(|a| a.len()), Some(1));
    b.update("alice", &id, BTreeMap::from([("y".into(), "2".into())]))
        .await
        .unwrap();
    assert_eq!(
        until(&b, "alice", &id, Status::Completed).await.result,
        Some(Ok(3))
    );
}

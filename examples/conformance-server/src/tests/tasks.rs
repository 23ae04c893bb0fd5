//! The tasks extension end to end: a task's life (created, polled, completed or failed),
//! its TTL, cancellation, input requests answered with `tasks/update`, a multi round-trip
//! before the task, the `-32021` refusals, the task id in `Mcp-Name`, tasks bound to their
//! principal, and status notifications on `subscriptions/listen`; and two instances that
//! share their tasks through one Redis (`Tasks::share`), with Redis stopped and
//! started again under them.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{assert_error, call, meta, post, send, start, start_with};
use mcp_server::tasks::Settings;

const TASKS: &str = "io.modelcontextprotocol/tasks";

/// Capabilities that advertise the extension (and form elicitation).
fn with_tasks() -> Value {
    json!({"elicitation": {}, "extensions": {TASKS: {}}})
}

/// A `tasks/*` request's body (`more` adds params).
fn task_body(method: &str, task_id: &str, caps: Value, more: Value) -> Value {
    let mut params = json!({"taskId": task_id, "_meta": meta(caps)});
    for (k, v) in more.as_object().unwrap() {
        params[k] = v.clone();
    }
    json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
}

/// A `tasks/*` request, sent with the task id in `Mcp-Name`.
async fn task_request(
    url: &str,
    method: &str,
    task_id: &str,
    caps: Value,
    more: Value,
) -> (u16, Value) {
    let body = task_body(method, task_id, caps, more);
    post(url, &body, Some(task_id), &[]).await
}

async fn get(url: &str, task_id: &str) -> Value {
    let (status, r) = task_request(url, "tasks/get", task_id, with_tasks(), json!({})).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["result"]["resultType"], "complete", "{r}");
    r["result"].clone()
}

/// `tasks/update` with `responses`; asserts the empty acknowledgement.
async fn update(url: &str, task_id: &str, responses: Value) {
    let more = json!({"inputResponses": responses});
    let (status, r) = task_request(url, "tasks/update", task_id, with_tasks(), more).await;
    assert_eq!(status, 200, "{r}");
    let ack = r["result"].as_object().unwrap();
    assert_eq!(ack["resultType"], "complete", "{r}");
    assert!(ack.keys().all(|k| k == "resultType" || k == "_meta"), "{r}");
}

/// The keys of the input requests a task waits on.
fn waiting_on(task: &Value) -> Vec<String> {
    task["inputRequests"]
        .as_object()
        .map(|r| r.keys().cloned().collect())
        .unwrap_or_default()
}

/// Calls `tool` with `args` advertising the extension; the `CreateTaskResult`.
async fn create(url: &str, tool: &str, args: Value) -> Value {
    let (status, r) = post(
        url,
        &call(1, tool, with_tasks(), json!({"arguments": args})),
        Some(tool),
        &[],
    )
    .await;
    assert_eq!(status, 200, "{r}");
    let created = r["result"].clone();
    assert_eq!(created["resultType"], "task", "{r}");
    created
}

/// Polls `tasks/get` every 50 ms until `done` holds (5 s at most); the state it saw last.
async fn poll_until(url: &str, task_id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let task = get(url, task_id).await;
        if done(&task) {
            return task;
        }
        assert!(Instant::now() < until, "still {task}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Creates a task with `tool` and polls it until its status is `status`; its id and state.
async fn run_until(url: &str, tool: &str, args: Value, status: &'static str) -> (String, Value) {
    let created = create(url, tool, args).await;
    let id = created["taskId"].as_str().unwrap().to_owned();
    let task = poll_until(url, &id, status_is(status)).await;
    (id, task)
}

fn status_is(status: &'static str) -> impl Fn(&Value) -> bool {
    move |t| t["status"] == status
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn discover_advertises_the_extension() {
    let url = start().await;
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta(json!({}))}});
    let (_, r) = post(&url, &discover, None, &[]).await;
    // Declared with no settings; the skills extension is declared beside it (tests/skills.rs).
    assert_eq!(r["result"]["capabilities"]["extensions"][TASKS], json!({}));
}

#[tokio::test]
async fn a_task_is_created_polled_and_completed() {
    let url = start().await;
    let created = create(&url, "slow_compute", json!({"seconds": 0.3, "label": "t1"})).await;
    let id = created["taskId"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 32, "128 random bits: {id}");
    assert_eq!(created["status"], "working");
    assert!(created["ttlMs"].as_u64().unwrap() > 0);
    assert!(created["pollIntervalMs"].as_u64().is_some());
    assert!(created["createdAt"].as_str().unwrap().ends_with('Z'));
    for absent in ["result", "error", "inputRequests", "requestState", "task"] {
        assert!(created.get(absent).is_none(), "{absent} in {created}");
    }
    // Found at once (created before the answer), still working.
    let working = get(&url, &id).await;
    assert_eq!(
        (working["taskId"].as_str(), &working["status"]),
        (Some(id.as_str()), &json!("working"))
    );
    assert!(working.get("result").is_none());
    let done = poll_until(&url, &id, status_is("completed")).await;
    assert_eq!(text(&done["result"]), "t1: computed after 0.3 s", "{done}");
    assert!(done.get("error").is_none());
    assert_ne!(done["lastUpdatedAt"], done["createdAt"]);
    // A tool error completes the task; a JSON-RPC error fails it.
    let (_, done) = run_until(&url, "failing_job", json!({}), "completed").await;
    assert_eq!(done["result"]["isError"], true, "{done}");
    let (_, failed) = run_until(&url, "protocol_error_job", json!({}), "failed").await;
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    assert!(failed["error"]["message"].is_string());
    assert!(failed.get("result").is_none());
}

#[tokio::test]
async fn a_task_is_gone_once_its_ttl_has_elapsed() {
    // Long enough for two tasks to be created and one polled to its end on a loaded machine.
    const TTL: Duration = Duration::from_secs(3);
    let url = start_with(Settings {
        ttl: TTL,
        poll_interval: Duration::from_millis(50),
        ..Settings::default()
    })
    .await;
    let quick = create(&url, "slow_compute", json!({"seconds": 0})).await;
    assert_eq!(quick["ttlMs"], 3000);
    assert_eq!(quick["pollIntervalMs"], 50);
    let quick = quick["taskId"].as_str().unwrap().to_owned();
    let running = create(&url, "slow_compute", json!({"seconds": 60})).await;
    // Both were created before this answer came, so both have expired TTL after it (the
    // server's clock is this one).
    let expired_from = tokio::time::Instant::now() + TTL;
    let running = running["taskId"].as_str().unwrap().to_owned();
    // Kept for the TTL, finished or not.
    poll_until(&url, &quick, status_is("completed")).await;
    assert_eq!(get(&url, &running).await["status"], "working");
    tokio::time::sleep_until(expired_from).await;
    for id in [&quick, &running] {
        assert_error(
            &task_request(&url, "tasks/get", id, with_tasks(), json!({})).await,
            400,
            -32602,
        );
    }
}

#[tokio::test]
async fn cancel_is_an_empty_ack_and_the_task_ends_cancelled() {
    let url = start().await;
    let created = create(&url, "slow_compute", json!({"seconds": 60})).await;
    let id = created["taskId"].as_str().unwrap().to_owned();
    let (status, r) = task_request(&url, "tasks/cancel", &id, with_tasks(), json!({})).await;
    assert_eq!(status, 200, "{r}");
    let ack = r["result"].as_object().unwrap();
    assert_eq!(ack["resultType"], "complete");
    assert!(ack.keys().all(|k| k == "resultType" || k == "_meta"), "{r}");
    let task = get(&url, &id).await;
    assert_eq!(task["status"], "cancelled", "{task}");
    // Again on the ended task: the same ack, nothing changes.
    let (_, again) = task_request(&url, "tasks/cancel", &id, with_tasks(), json!({})).await;
    assert_eq!(again["result"]["resultType"], "complete", "{again}");
    assert_eq!(get(&url, &id).await["lastUpdatedAt"], task["lastUpdatedAt"]);
    // An unknown task: -32602, for every method.
    for (method, more) in [
        ("tasks/get", json!({})),
        ("tasks/cancel", json!({})),
        ("tasks/update", json!({"inputResponses": {}})),
    ] {
        assert_error(
            &task_request(&url, method, "no-such-task", with_tasks(), more).await,
            400,
            -32602,
        );
    }
}

#[tokio::test]
async fn input_requests_of_a_task_are_answered_with_tasks_update() {
    let url = start().await;
    let (id, waiting) = run_until(
        &url,
        "confirm_delete",
        json!({"filename": "a.txt"}),
        "input_required",
    )
    .await;
    assert_eq!(waiting_on(&waiting), ["confirm"], "{waiting}");
    assert_eq!(
        waiting["inputRequests"]["confirm"]["method"],
        "elicitation/create"
    );
    // Answers to keys the task does not wait on are ignored, whatever they hold.
    update(&url, &id, json!({"unknown-key": {"ignored": true}})).await;
    assert_eq!(get(&url, &id).await["status"], "input_required");
    let answer = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    update(&url, &id, answer).await;
    let done = poll_until(&url, &id, status_is("completed")).await;
    assert_eq!(text(&done["result"]), "Deleted a.txt");
    assert!(done.get("inputRequests").is_none());
}

#[tokio::test]
async fn two_input_requests_may_be_answered_one_at_a_time() {
    let url = start().await;
    let (id, waiting) = run_until(&url, "multi_input", json!({}), "input_required").await;
    assert_eq!(waiting_on(&waiting), ["confirm", "name"]);
    let name = json!({"name": {"action": "accept", "content": {"name": "Ada"}}});
    update(&url, &id, name).await;
    let partial = get(&url, &id).await;
    assert_eq!(partial["status"], "input_required");
    assert_eq!(waiting_on(&partial), ["confirm"], "{partial}");
    let confirm = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    update(&url, &id, confirm).await;
    let done = poll_until(&url, &id, status_is("completed")).await;
    assert_eq!(text(&done["result"]), "name=Ada; confirm=true");
}

#[tokio::test]
async fn a_multi_round_trip_comes_before_the_task() {
    let url = start().await;
    let tool = "test_tool_with_task";
    let (_, r) = post(
        &url,
        &call(1, tool, with_tasks(), json!({})),
        Some(tool),
        &[],
    )
    .await;
    assert_eq!(r["result"]["resultType"], "input_required", "{r}");
    assert!(r["result"].get("taskId").is_none());
    let answer = json!({"user_name": {"action": "accept", "content": {"name": "Alice"}}});
    let retry = call(2, tool, with_tasks(), json!({"inputResponses": answer}));
    let (_, r) = post(&url, &retry, Some(tool), &[]).await;
    let created = &r["result"];
    assert_eq!(created["resultType"], "task", "{r}");
    assert!(created.get("requestState").is_none() && created.get("inputRequests").is_none());
    let done = poll_until(
        &url,
        created["taskId"].as_str().unwrap(),
        status_is("completed"),
    )
    .await;
    assert_eq!(text(&done["result"]), "Hello, Alice!");
}

#[tokio::test]
async fn without_the_extension_a_task_is_refused_with_32021() {
    let url = start().await;
    let required = json!({"requiredCapabilities": {"extensions": {TASKS: {}}}});
    // A tool that only runs as a task.
    for tool in ["failing_job", "confirm_delete", "test_tool_with_task"] {
        let answer = post(
            &url,
            &call(1, tool, json!({"elicitation": {}}), json!({})),
            Some(tool),
            &[],
        )
        .await;
        assert_error(&answer, 400, -32021);
        let r = &answer.1;
        assert_eq!(r["error"]["data"], required, "{r}");
    }
    // The tasks methods.
    for (method, more) in [
        ("tasks/get", json!({})),
        ("tasks/update", json!({"inputResponses": {}})),
        ("tasks/cancel", json!({})),
    ] {
        let answer = task_request(&url, method, "any", json!({}), more).await;
        assert_error(&answer, 400, -32021);
        let r = &answer.1;
        assert_eq!(r["error"]["data"], required, "{r}");
    }
    // A tool that may run either way runs within the request.
    let args = json!({"arguments": {"seconds": 0, "label": "sync"}});
    let (status, r) = post(
        &url,
        &call(2, "slow_compute", json!({}), args),
        Some("slow_compute"),
        &[],
    )
    .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["result"]["resultType"], "complete");
    assert_eq!(text(&r["result"]), "sync: computed after 0 s");
    // The input requests of a task are gated by the capabilities too.
    let no_elicitation = call(
        3,
        "confirm_delete",
        json!({"extensions": {TASKS: {}}}),
        json!({"arguments": {"filename": "f"}}),
    );
    let answer = post(&url, &no_elicitation, Some("confirm_delete"), &[]).await;
    assert_error(&answer, 400, -32021);
    assert_eq!(
        answer.1["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {}})
    );
}

#[tokio::test]
async fn the_task_id_travels_in_mcp_name() {
    let url = start().await;
    let created = create(&url, "slow_compute", json!({"seconds": 60})).await;
    let id = created["taskId"].as_str().unwrap();
    let body = task_body("tasks/get", id, with_tasks(), json!({}));
    assert_error(
        &post(&url, &body, Some("another-task"), &[]).await,
        400,
        -32020,
    );
    assert_error(&post(&url, &body, None, &[]).await, 400, -32020);
    let (status, _) = post(&url, &body, Some(id), &[]).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_task_is_its_principals_only() {
    let url = start().await;
    let created = create(&url, "slow_compute", json!({"seconds": 60})).await;
    let id = created["taskId"].as_str().unwrap();
    let body = task_body("tasks/cancel", id, with_tasks(), json!({}));
    let someone_else = [("authorization", "Bearer someone-else")];
    assert_error(
        &post(&url, &body, Some(id), &someone_else).await,
        400,
        -32602,
    );
    assert_eq!(get(&url, id).await["status"], "working");
}

/// Reads SSE events from `response` until one satisfies `last` (5 s at most).
async fn events_until(
    mut response: reqwest::Response,
    last: impl Fn(&Value) -> bool,
) -> Vec<Value> {
    let mut text = String::new();
    let until = Instant::now() + Duration::from_secs(5);
    let mut found: Vec<Value> = Vec::new();
    while !found.last().is_some_and(&last) && Instant::now() < until {
        let Ok(Ok(Some(chunk))) =
            tokio::time::timeout(Duration::from_secs(5), response.chunk()).await
        else {
            break;
        };
        text.push_str(&String::from_utf8_lossy(&chunk));
        found = text
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .collect();
    }
    found
}

async fn listen(url: &str, caps: Value, task_ids: &[&str]) -> reqwest::Response {
    let body = json!({"jsonrpc": "2.0", "id": "sub-1", "method": "subscriptions/listen",
        "params": {"notifications": {"taskIds": task_ids}, "_meta": meta(caps)}});
    send(url, &body, None, &[]).await
}

#[tokio::test]
async fn status_notifications_follow_the_tasks_listed_on_listen() {
    let url = start().await;
    let created = create(&url, "confirm_delete", json!({"filename": "n.txt"})).await;
    let id = created["taskId"].as_str().unwrap().to_owned();
    let stream = listen(&url, with_tasks(), &[&id, "unknown-task"]).await;
    assert_eq!(stream.status(), 200);
    let reading = tokio::spawn(events_until(stream, |n| {
        n["params"]["status"] == "completed"
    }));
    // The stream follows the task from the moment its response began (the updates are
    // subscribed to before the acknowledgement is sent).
    poll_until(&url, &id, status_is("input_required")).await;
    let answer = json!({"confirm": {"action": "accept", "content": {"confirm": false}}});
    update(&url, &id, answer).await;
    poll_until(&url, &id, status_is("completed")).await;
    let seen = reading.await.unwrap();
    assert_eq!(
        seen[0]["method"], "notifications/subscriptions/acknowledged",
        "{seen:?}"
    );
    assert_eq!(
        seen[0]["params"]["notifications"]["taskIds"],
        json!([id]),
        "only the known task"
    );
    let statuses: Vec<&Value> = seen[1..].iter().map(|n| &n["params"]["status"]).collect();
    assert!(
        seen[1..]
            .iter()
            .all(|n| n["method"] == "notifications/tasks" && n["params"]["taskId"] == id.as_str()),
        "{seen:?}"
    );
    assert!(
        seen[1..]
            .iter()
            .all(|n| n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "sub-1"),
        "{seen:?}"
    );
    // Raised for input (unless the listen came after it), then working, then completed.
    assert_eq!(statuses.last(), Some(&&json!("completed")), "{seen:?}");
    assert_eq!(
        text(&seen.last().unwrap()["params"]["result"]),
        "Kept n.txt"
    );
}

#[tokio::test]
async fn listening_to_tasks_needs_the_extension() {
    let url = start().await;
    let response = listen(&url, json!({}), &["some-task"]).await;
    assert_eq!(response.status(), 400);
    let r: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
    assert_eq!(r["error"]["code"], -32021, "{r}");
}

/// `slow_compute` with `seconds` out of range is a tool error (`isError: true`) answered
/// within the request, with or without the extension: no task is made for it.
#[tokio::test]
async fn invalid_arguments_of_a_task_tool_are_a_tool_error() {
    let url = start().await;
    for (id, caps) in [(1, with_tasks()), (2, json!({}))] {
        for seconds in [json!(-1), json!(3601)] {
            let args = json!({"arguments": {"seconds": seconds}});
            let body = call(id, "slow_compute", caps.clone(), args);
            let (status, r) = post(&url, &body, Some("slow_compute"), &[]).await;
            assert_eq!(status, 200, "{r}");
            let result = &r["result"];
            assert_eq!(result["resultType"], "complete", "{r}");
            assert_eq!(result["isError"], true, "{r}");
            assert!(result.get("taskId").is_none(), "{r}");
            assert_eq!(
                text(result),
                "slow_compute needs seconds between 0 and 3600",
                "{r}"
            );
        }
    }
}

/// A `redis-server` of the test's own on a free loopback port, without persistence, killed
/// when dropped (`.ci/run` installs it).
struct RedisServer {
    port: u16,
    child: Option<std::process::Child>,
}

impl RedisServer {
    fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let mut server = RedisServer { port, child: None };
        server.restart();
        server
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn restart(&mut self) {
        self.stop();
        let child = std::process::Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--loglevel", "warning"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server (apt-get install -y redis-server)");
        self.child = Some(child);
        let until = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < until, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// An instance whose tasks live in the Redis at `url`: the server as `main` builds it, its
/// in-memory store replaced by the shared one.
async fn shared_instance(url: &str) -> String {
    let settings = mcp_server::redis::Settings {
        prefix: "shared".to_owned(),
        response_timeout: Duration::from_millis(500),
        connection_timeout: Duration::from_millis(300),
        ..mcp_server::redis::Settings::default()
    };
    let redis = mcp_server::redis::Redis::connect_with(url, settings)
        .await
        .unwrap();
    let app = super::new_app(Settings::default(), mcp_server::Config::default());
    app.server.tasks.share(redis).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = mcp_server::served::router(Arc::clone(&app)).unwrap();
    let forever = std::future::pending::<()>();
    tokio::spawn(mcp_server::serve(listener, router, app.bounds(), forever));
    format!("http://{addr}/mcp")
}

#[tokio::test]
async fn instances_sharing_a_store_answer_for_each_others_tasks() {
    let redis = RedisServer::start();
    let a = shared_instance(&redis.url()).await;
    let b = shared_instance(&redis.url()).await;
    // Created at a, followed on a listen stream at b, answered at b, done at a.
    let created = create(&a, "confirm_delete", json!({"filename": "s.txt"})).await;
    let id = created["taskId"].as_str().unwrap().to_owned();
    let stream = listen(&b, with_tasks(), &[&id]).await;
    let reading = tokio::spawn(events_until(stream, |n| {
        n["params"]["status"] == "completed"
    }));
    poll_until(&b, &id, status_is("input_required")).await;
    let answer = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    update(&b, &id, answer).await;
    let done = poll_until(&a, &id, status_is("completed")).await;
    assert_eq!(text(&done["result"]), "Deleted s.txt");
    let seen = reading.await.unwrap();
    assert_eq!(seen[0]["params"]["notifications"]["taskIds"], json!([id]));
    let last = seen.last().unwrap();
    assert_eq!(last["params"]["status"], "completed", "{seen:?}");
    assert_eq!(text(&last["params"]["result"]), "Deleted s.txt");
    // Cancelled at b: ended at a.
    let created = create(&a, "slow_compute", json!({"seconds": 60})).await;
    let id = created["taskId"].as_str().unwrap().to_owned();
    let (status, r) = task_request(&b, "tasks/cancel", &id, with_tasks(), json!({})).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(get(&a, &id).await["status"], "cancelled");
    // Another principal's task is not found at either.
    let body = task_body("tasks/get", &id, with_tasks(), json!({}));
    let someone_else = [("authorization", "Bearer someone-else")];
    assert_error(
        &post(&b, &body, Some(&id), &someone_else).await,
        400,
        -32602,
    );
}

#[tokio::test]
async fn while_the_shared_store_is_down_task_requests_get_a_clear_error() {
    let mut redis = RedisServer::start();
    let a = shared_instance(&redis.url()).await;
    let created = create(&a, "slow_compute", json!({"seconds": 60})).await;
    let id = created["taskId"].as_str().unwrap().to_owned();
    redis.stop();
    let unavailable = "Internal error: the task store is unavailable; try again";
    let started = Instant::now();
    for (method, more) in [
        ("tasks/get", json!({})),
        ("tasks/update", json!({"inputResponses": {}})),
        ("tasks/cancel", json!({})),
    ] {
        let answer = task_request(&a, method, &id, with_tasks(), more).await;
        assert_error(&answer, 500, -32603);
        assert_eq!(answer.1["error"]["message"], unavailable, "{method}");
    }
    let call_it = call(
        1,
        "slow_compute",
        with_tasks(),
        json!({"arguments": {"seconds": 1}}),
    );
    let answer = post(&a, &call_it, Some("slow_compute"), &[]).await;
    assert_error(&answer, 500, -32603);
    assert_eq!(answer.1["error"]["message"], unavailable);
    // A listen stream that follows a task: that error, alone.
    let stream = listen(&a, with_tasks(), &[&id]).await;
    let seen = events_until(stream, |m| m.get("error").is_some()).await;
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["error"]["message"], unavailable);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // Back (empty: this Redis keeps nothing): tasks are made and followed again.
    redis.restart();
    let mut again = None;
    for _ in 0..50 {
        let (status, r) = post(&a, &call_it, Some("slow_compute"), &[]).await;
        if status == 200 {
            again = Some(r["result"]["taskId"].as_str().unwrap().to_owned());
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let again = again.expect("no task made once Redis was back");
    poll_until(&a, &again, status_is("completed")).await;
}

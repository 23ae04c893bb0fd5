//! Instances that share one Redis (`--store redis://…`, or `MCP_STORE`), as processes, under
//! the faults issue 34 names: an instance killed while a task it started runs (the others
//! end the task failed, saying why); Redis stopped and started again under running instances
//! (a clear error at once while it is down, service again once it is back, no restart); a
//! Redis unreachable at start (a clear startup error); a change triggered at one instance
//! heard once per change by the `subscriptions/listen` streams held at the others; a legacy
//! session opened at one instance, used at another and ended at a third; a session and a task
//! of a bearer credential that leave neither it nor its hex in any key, value or published
//! note (principals are keyed hashes, `--principal-key`).
//!
//! Each server is the built binary on a free loopback port, each Redis a `redis-server` of the
//! test's own (no persistence) on a free loopback port; all are killed when their test ends,
//! also when it fails (drop guards).

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const TASKS: &str = "io.modelcontextprotocol/tasks";

/// The error a task request gets while the task store is down.
const TASKS_UNAVAILABLE: &str = "Internal error: the task store is unavailable; try again";

/// How long a request that needs a Redis that is down may take to be refused.
const REFUSED_WITHIN: Duration = Duration::from_secs(5);

/// How long the instances may take to serve again once Redis is back.
const BACK_WITHIN: Duration = Duration::from_secs(10);

/// A loopback port nothing listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// A `redis-server` of the test's own, without persistence, killed when dropped.
struct RedisServer {
    port: u16,
    child: Option<Child>,
}

impl RedisServer {
    /// Starts one on a free loopback port; returns once it accepts connections.
    fn start() -> Self {
        let mut server = RedisServer {
            port: free_port(),
            child: None,
        };
        server.restart();
        server
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills it: its data is gone.
    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it (again) on its port, empty; returns once it accepts connections.
    fn restart(&mut self) {
        self.stop();
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--loglevel", "warning"])
            .stdout(Stdio::null())
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

/// A running server process, killed on drop; what it wrote on stderr is kept, for failures.
struct Server {
    child: Child,
    url: String,
    log: Arc<Mutex<Vec<String>>>,
}

/// The principal key of every instance these tests start (`MCP_PRINCIPAL_KEY`).
const PRINCIPAL_KEY: &str = "7e57000000000000000000000000000000000000000000000000000000007e57";

impl Server {
    /// The server sharing the Redis at `store` (`--store`), on a free loopback port; returns
    /// once it listens.
    fn start(store: &str) -> Server {
        Server::start_with(&["--store", store], &[])
    }

    /// The server started with `args` and `env` on a free loopback port (`MCP_STORE` unset
    /// unless `env` sets it); returns once it listens.
    fn start_with(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-conformance-server"));
        command
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .env_remove("MCP_STORE")
            .env_remove("MCP_SEAL_KEYS")
            // The instances of one test name principals alike (`--principal-key`).
            .env("MCP_PRINCIPAL_KEY", PRINCIPAL_KEY)
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("the server starts");
        let stderr = child.stderr.take().expect("stderr is piped");
        let mut lines = BufReader::new(stderr).lines();
        let mut said = Vec::new();
        let url = loop {
            let Some(Ok(line)) = lines.next() else {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the server stopped before listening: {said:?}");
            };
            let listening = line.split("listening on ").nth(1).map(str::to_owned);
            said.push(line);
            if let Some(url) = listening {
                break url.trim().to_owned();
            }
        };
        let log = Arc::new(Mutex::new(said));
        let kept = Arc::clone(&log);
        // Keeps reading stderr, so that the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                kept.lock().unwrap().push(line);
            }
        });
        Server { child, url, log }
    }

    /// Whether the process still runs.
    fn is_running(&mut self) -> bool {
        self.child
            .try_wait()
            .expect("the process's status")
            .is_none()
    }

    /// SIGKILL: the process stops at once, without any shutdown of its own.
    fn kill(&mut self) {
        self.child.kill().expect("the process is killed");
        self.child.wait().expect("the process is reaped");
    }

    /// What it wrote on stderr so far.
    fn log(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A client for requests that are answered (a stalled one fails the test, never hangs it).
fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

/// The JSON-RPC message of an answer: the body, or the last `data:` line of an SSE body.
fn message_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| {
        text.lines()
            .rev()
            .find_map(|l| l.strip_prefix("data:"))
            .and_then(|d| serde_json::from_str(d.trim()).ok())
            .unwrap_or(Value::Null)
    })
}

fn meta(caps: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
    })
}

/// Capabilities that advertise the tasks extension.
fn with_tasks() -> Value {
    json!({"extensions": {TASKS: {}}})
}

/// A modern request with the standard headers (`name` for `Mcp-Name`), as it comes.
async fn send(client: &reqwest::Client, url: &str, body: &Value, name: &str) -> reqwest::Response {
    client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", body["method"].as_str().unwrap())
        .header("mcp-name", name)
        .body(body.to_string())
        .send()
        .await
        .expect("an answer")
}

/// A modern request: the HTTP status and the JSON-RPC answer.
async fn post(url: &str, body: &Value, name: &str) -> (u16, Value) {
    let response = send(&client(), url, body, name).await;
    let status = response.status().as_u16();
    (status, message_of(&response.text().await.unwrap()))
}

/// `tools/call` of `tool` with `arguments`, advertising the extension.
fn call(tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments, "_meta": meta(with_tasks())}})
}

/// A task of `slow_compute` that works for `seconds`, created at `url`: the answer.
async fn try_create(url: &str, seconds: u64) -> (u16, Value) {
    let body = call(
        "slow_compute",
        json!({"seconds": seconds, "label": "shared"}),
    );
    post(url, &body, "slow_compute").await
}

/// [`try_create`], which must succeed: the task's id.
async fn create(url: &str, seconds: u64) -> String {
    let (status, r) = try_create(url, seconds).await;
    assert_eq!(
        (status, &r["result"]["resultType"]),
        (200, &json!("task")),
        "{r}"
    );
    r["result"]["taskId"].as_str().unwrap().to_owned()
}

/// `tasks/get`, `tasks/cancel` (…) of task `id` at `url`: the answer.
async fn task_request(url: &str, method: &str, id: &str) -> (u16, Value) {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method,
        "params": {"taskId": id, "_meta": meta(with_tasks())}});
    post(url, &body, id).await
}

/// `tasks/get` of task `id` at `url`, which must succeed: the task.
async fn get(url: &str, id: &str) -> Value {
    let (status, r) = task_request(url, "tasks/get", id).await;
    assert_eq!(status, 200, "{r}");
    r["result"].clone()
}

/// Asserts that `answer` is the `INTERNAL_ERROR` of a store that is down, with a server
/// error status (`statuses`), and that it came within [`REFUSED_WITHIN`] of `asked`.
#[track_caller]
fn assert_unavailable(what: &str, answer: &(u16, Value), statuses: &[u16], asked: Instant) {
    let (status, r) = answer;
    assert!(statuses.contains(status), "{what}: {status} {r}");
    assert_eq!(r["error"]["code"], -32603, "{what}: {r}");
    let message = r["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("unavailable"), "{what}: {r}");
    assert!(
        asked.elapsed() < REFUSED_WITHIN,
        "{what}: refused after {:?}",
        asked.elapsed()
    );
}

/// A legacy (2025-11-25) request in session `session` (if any): the response as it comes.
async fn legacy_send(url: &str, session: Option<&str>, body: &Value) -> reqwest::Response {
    let mut request = client()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(s) = session {
        request = request.header("mcp-session-id", s);
    }
    request
        .body(body.to_string())
        .send()
        .await
        .expect("an answer")
}

/// A legacy request: the HTTP status and the JSON-RPC answer.
async fn legacy_post(url: &str, session: Option<&str>, body: &Value) -> (u16, Value) {
    let response = legacy_send(url, session, body).await;
    let status = response.status().as_u16();
    (status, message_of(&response.text().await.unwrap()))
}

fn legacy_request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn initialize() -> Value {
    legacy_request(
        1,
        "initialize",
        json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "shared-store-test", "version": "1"}
        }),
    )
}

/// Opens a legacy session at `url` (`initialize`, then `notifications/initialized`): its id,
/// or the refusal of `initialize` (its status and answer).
async fn try_open(url: &str) -> Result<String, (u16, Value)> {
    let response = legacy_send(url, None, &initialize()).await;
    let status = response.status().as_u16();
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    let answer = message_of(&response.text().await.unwrap());
    let Some(session) = session.filter(|_| status == 200) else {
        return Err((status, answer));
    };
    assert_eq!(
        answer["result"]["protocolVersion"], "2025-11-25",
        "{answer}"
    );
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let noted = legacy_send(url, Some(&session), &note).await;
    assert_eq!(noted.status(), 202, "notifications/initialized");
    Ok(session)
}

/// `ping` in session `session` at `url`: the HTTP status.
async fn ping(url: &str, session: &str) -> u16 {
    legacy_post(url, Some(session), &legacy_request(9, "ping", json!({})))
        .await
        .0
}

/// Polls `attempt` every 200 ms until it gives a value, at most `within`; that value.
async fn poll<T, F>(what: &str, within: Duration, mut attempt: impl FnMut() -> F) -> T
where
    F: std::future::Future<Output = Result<T, String>>,
{
    let until = Instant::now() + within;
    loop {
        let last = match attempt().await {
            Ok(value) => return value,
            Err(last) => last,
        };
        assert!(
            Instant::now() < until,
            "{what} not within {within:?}: {last}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// An open SSE response, read message by message.
struct Stream {
    response: reqwest::Response,
    buffer: String,
}

impl Stream {
    /// The next JSON-RPC message, if one comes before `until`; keep-alive comments are
    /// skipped.
    async fn next_before(&mut self, until: Instant) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                let data: Vec<&str> = event
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim)
                    .collect();
                if let Ok(message) = serde_json::from_str(&data.join("\n")) {
                    return Some(message);
                }
                continue;
            }
            let left = until.checked_duration_since(Instant::now())?;
            let chunk = tokio::time::timeout(left, self.response.chunk()).await;
            let Ok(Ok(Some(chunk))) = chunk else {
                return None;
            };
            self.buffer
                .push_str(&String::from_utf8_lossy(&chunk).replace("\r\n", "\n"));
        }
    }
}

/// A `subscriptions/listen` stream of tool list changes at `url`, once acknowledged.
async fn listen_to_tools(url: &str) -> Stream {
    let body = json!({"jsonrpc": "2.0", "id": "tools-sub", "method": "subscriptions/listen",
        "params": {"notifications": {"toolsListChanged": true}, "_meta": meta(json!({}))}});
    // No overall deadline: the stream stays open; each read has its own.
    let response = send(&reqwest::Client::new(), url, &body, "subscriptions/listen").await;
    assert_eq!(response.status(), 200, "listen at {url}");
    let mut stream = Stream {
        response,
        buffer: String::new(),
    };
    let until = Instant::now() + Duration::from_secs(10);
    let ack = stream.next_before(until).await;
    let ack = ack.unwrap_or_else(|| panic!("no acknowledgement at {url}"));
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(ack["params"]["notifications"]["toolsListChanged"], true);
    stream
}

#[tokio::test]
async fn an_instance_killed_while_its_task_runs_leaves_a_task_the_others_answer_for() {
    let redis = RedisServer::start();
    let mut a = Server::start(&redis.url());
    let b = Server::start(&redis.url());
    let id = create(&a.url, 60).await;
    assert_eq!(get(&b.url, &id).await["status"], "working");

    a.kill();
    let failed = poll("the task failed at B", Duration::from_secs(10), || async {
        let task = get(&b.url, &id).await;
        match task["status"].as_str() {
            Some("working") => Err(task.to_string()),
            _ => Ok(task),
        }
    })
    .await;
    assert_eq!(failed["status"], "failed", "{failed}\n{}", b.log());
    let message = failed["statusMessage"].as_str().unwrap_or_default();
    assert!(
        message.contains("instance") && message.contains("stopped"),
        "{failed}"
    );
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    assert_eq!(failed["error"]["message"], message, "{failed}");

    // Cancelled afterwards: acknowledged, and the task stays as it ended.
    let (status, r) = task_request(&b.url, "tasks/cancel", &id).await;
    assert_eq!(
        (status, &r["result"]["resultType"]),
        (200, &json!("complete")),
        "{r}"
    );
    let after = get(&b.url, &id).await;
    assert_eq!(after["status"], "failed", "{after}");
    assert_eq!(after["statusMessage"], failed["statusMessage"], "{after}");
    assert_eq!(after["lastUpdatedAt"], failed["lastUpdatedAt"], "{after}");
}

#[tokio::test]
async fn redis_stopped_and_started_again_under_running_instances() {
    let mut redis = RedisServer::start();
    let mut a = Server::start(&redis.url());
    let mut b = Server::start(&redis.url());
    let before = create(&a.url, 60).await;

    redis.stop();
    let asked = Instant::now();
    let answer = task_request(&a.url, "tasks/get", &before).await;
    assert_unavailable("tasks/get", &answer, &[500, 503], asked);
    assert_eq!(answer.1["error"]["message"], TASKS_UNAVAILABLE);
    let asked = Instant::now();
    let answer = try_create(&a.url, 1).await;
    assert_unavailable("a task tool", &answer, &[500, 503], asked);
    assert_eq!(answer.1["error"]["message"], TASKS_UNAVAILABLE);
    let asked = Instant::now();
    let answer = try_open(&a.url)
        .await
        .expect_err("no session without Redis");
    assert_unavailable("initialize", &answer, &[500, 503], asked);
    assert!(a.is_running(), "A stopped: {}", a.log());
    assert!(b.is_running(), "B stopped: {}", b.log());

    redis.restart();
    // The first task A makes once Redis is back is B's to answer for at once: A is alive.
    let at_a = poll("a task at A", BACK_WITHIN, || async {
        match try_create(&a.url, 60).await {
            (200, r) => Ok(r["result"]["taskId"].as_str().unwrap().to_owned()),
            (status, r) => Err(format!("{status} {r}")),
        }
    })
    .await;
    let seen_at_b = poll("A's task read at B", BACK_WITHIN, || async {
        match task_request(&b.url, "tasks/get", &at_a).await {
            (200, r) => Ok(r["result"].clone()),
            (status, r) => Err(format!("{status} {r}")),
        }
    })
    .await;
    assert_eq!(seen_at_b["taskId"], at_a.as_str(), "{seen_at_b}");
    assert_eq!(seen_at_b["status"], "working", "{seen_at_b}\n{}", b.log());
    for (name, url) in [("A", &a.url), ("B", &b.url)] {
        let id = poll(&format!("a task at {name}"), BACK_WITHIN, || async {
            match try_create(url, 0).await {
                (200, r) => Ok(r["result"]["taskId"].as_str().unwrap().to_owned()),
                (status, r) => Err(format!("{status} {r}")),
            }
        })
        .await;
        let done = poll(&format!("the task at {name} done"), BACK_WITHIN, || async {
            let task = get(url, &id).await;
            match task["status"].as_str() {
                Some("completed") => Ok(task),
                _ => Err(task.to_string()),
            }
        })
        .await;
        assert_eq!(
            done["result"]["content"][0]["text"],
            "shared: computed after 0 s"
        );
    }
    // New legacy sessions at both, each reached at the other.
    let mut sessions = Vec::new();
    for (name, url) in [("A", &a.url), ("B", &b.url)] {
        let session = poll(&format!("a session at {name}"), BACK_WITHIN, || async {
            try_open(url)
                .await
                .map_err(|(status, r)| format!("{status} {r}"))
        })
        .await;
        sessions.push(session);
    }
    assert_eq!(ping(&b.url, &sessions[0]).await, 200);
    assert_eq!(ping(&a.url, &sessions[1]).await, 200);
    // The task created before Redis stopped went with its data.
    let (status, r) = task_request(&b.url, "tasks/get", &before).await;
    assert_eq!((status, &r["error"]["code"]), (400, &json!(-32602)), "{r}");
    assert!(a.is_running() && b.is_running());
}

#[test]
fn a_redis_unreachable_at_start_is_a_clear_startup_error() {
    let url = format!("redis://127.0.0.1:{}", free_port());
    let child = Command::new(env!("CARGO_BIN_EXE_mcp-conformance-server"))
        .args(["--listen", "127.0.0.1:0", "--store", &url])
        .env_remove("MCP_STORE")
        .env("MCP_PRINCIPAL_KEY", PRINCIPAL_KEY)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    // Killed if it does not stop by itself (the test then fails).
    let mut server = Server {
        child,
        url: String::new(),
        log: Arc::default(),
    };
    let until = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < until, "still running after 10 s");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    let mut pipe = server.child.stderr.take().unwrap();
    std::io::Read::read_to_string(&mut pipe, &mut stderr).unwrap();
    assert!(!status.success(), "{status}: {stderr}");
    assert!(
        stderr.contains(&format!("--store {url}")) && stderr.contains("unavailable"),
        "{stderr}"
    );
    assert!(!stderr.contains("listening on"), "{stderr}");
}

#[tokio::test]
async fn a_change_at_one_instance_reaches_the_listen_streams_at_the_others_once() {
    const CHANGES: usize = 3;
    let redis = RedisServer::start();
    let a = Server::start(&redis.url());
    let b = Server::start(&redis.url());
    // The third from the environment variable instead of the flag.
    let c = Server::start_with(&[], &[("MCP_STORE", &redis.url())]);
    assert!(
        c.log()
            .contains("sharing legacy sessions, changes, tasks through Redis")
    );
    let mut streams = vec![listen_to_tools(&a.url).await, listen_to_tools(&b.url).await];
    let trigger = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "test_trigger_tool_change", "arguments": {}, "_meta": meta(json!({}))}});
    for _ in 0..CHANGES {
        let (status, r) = post(&c.url, &trigger, "test_trigger_tool_change").await;
        assert_eq!(status, 200, "{r}");
    }
    for (name, stream) in ["A", "B"].into_iter().zip(&mut streams) {
        let mut seen = Vec::new();
        let mut until = Instant::now() + Duration::from_secs(10);
        while let Some(message) = stream.next_before(until).await {
            seen.push(message);
            if seen.len() == CHANGES {
                // Then a second with nothing more.
                until = Instant::now() + Duration::from_secs(1);
            }
        }
        assert_eq!(seen.len(), CHANGES, "at {name}: {seen:?}");
        for message in &seen {
            assert_eq!(
                message["method"], "notifications/tools/list_changed",
                "at {name}: {seen:?}"
            );
            assert_eq!(
                message["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
                "tools-sub"
            );
        }
    }
}

#[tokio::test]
async fn a_legacy_session_is_opened_used_and_ended_at_different_instances() {
    let redis = RedisServer::start();
    let a = Server::start(&redis.url());
    let b = Server::start(&redis.url());
    let c = Server::start(&redis.url());
    let session = try_open(&a.url).await.expect("a session at A");
    let call = legacy_request(
        2,
        "tools/call",
        json!({"name": "test_simple_text", "arguments": {}}),
    );
    let (status, answer) = legacy_post(&b.url, Some(&session), &call).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["id"], 2, "{answer}");
    assert_eq!(answer["result"]["content"][0]["type"], "text", "{answer}");
    assert_eq!(ping(&a.url, &session).await, 200);

    let deleted = client()
        .delete(&c.url)
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 200);
    assert_eq!(ping(&a.url, &session).await, 404);
    assert_eq!(ping(&b.url, &session).await, 404);
    assert_eq!(legacy_post(&a.url, Some(&session), &call).await.0, 404);
}

/// `redis-cli` against the Redis at `port` with `args`: what it printed (`--raw`).
fn redis_cli(port: u16, args: &[&str]) -> String {
    let out = Command::new("redis-cli")
        .args(["-p", &port.to_string(), "--raw"])
        .args(args)
        .output()
        .expect("redis-cli (it comes with redis-server)");
    assert!(out.status.success(), "redis-cli {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every key of the Redis at `port` with its type and everything it holds, one text.
fn dump(port: u16) -> String {
    let mut all = String::new();
    for key in redis_cli(port, &["--scan"]).lines() {
        let kind = redis_cli(port, &["TYPE", key]);
        let held = match kind.trim() {
            "string" => redis_cli(port, &["GET", key]),
            "hash" => redis_cli(port, &["HGETALL", key]),
            "list" => redis_cli(port, &["LRANGE", key, "0", "-1"]),
            "set" => redis_cli(port, &["SMEMBERS", key]),
            "zset" => redis_cli(port, &["ZRANGE", key, "0", "-1", "WITHSCORES"]),
            "stream" => redis_cli(port, &["XRANGE", key, "-", "+"]),
            other => panic!("{key}: a key of type {other:?} this test does not read"),
        };
        all.push_str(&format!("{key} ({}): {held}\n", kind.trim()));
    }
    all
}

/// Whether `text` holds `secret` or its hex (either case).
fn shows(text: &str, secret: &str) -> bool {
    let hex: String = secret.bytes().map(|b| format!("{b:02x}")).collect();
    let lower = text.to_ascii_lowercase();
    text.contains(secret) || lower.contains(&hex)
}

#[tokio::test]
async fn no_credential_reaches_redis_as_sent_or_in_hex() {
    let redis = RedisServer::start();
    let a = Server::start(&redis.url());
    let b = Server::start(&redis.url());
    let secret = format!("s3cr3t-{}", std::process::id());
    let authorization = format!("Bearer {secret}");
    // Every command Redis runs (writes, key names, published notes), as it runs them.
    let mut monitor = Command::new("redis-cli")
        .args(["-p", &redis.port.to_string(), "MONITOR"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("redis-cli MONITOR");
    let monitored = monitor.stdout.take().unwrap();
    let seen = std::thread::spawn(move || std::io::read_to_string(monitored).unwrap_or_default());
    std::thread::sleep(Duration::from_millis(200));
    let with_credential = |request: reqwest::RequestBuilder| {
        request
            .header("authorization", &authorization)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
    };

    // A legacy session of the credential: opened at A, used at B (a level set, published).
    let opened = with_credential(client().post(&a.url))
        .header("mcp-protocol-version", "2025-11-25")
        .body(initialize().to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(opened.status(), 200);
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let in_session = |url: &str, body: Value| {
        with_credential(client().post(url))
            .header("mcp-protocol-version", "2025-11-25")
            .header("mcp-session-id", &session)
            .body(body.to_string())
            .send()
    };
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(in_session(&b.url, note).await.unwrap().status(), 202);
    let level = legacy_request(2, "logging/setLevel", json!({"level": "debug"}));
    assert_eq!(in_session(&b.url, level).await.unwrap().status(), 200);

    // A task of the credential: created at A, read and cancelled at B.
    let modern = |url: &str, body: &Value, name: &str| {
        with_credential(client().post(url))
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", body["method"].as_str().unwrap())
            .header("mcp-name", name)
            .body(body.to_string())
            .send()
    };
    let body = call("slow_compute", json!({"seconds": 30, "label": "secret"}));
    let created = modern(&a.url, &body, "slow_compute").await.unwrap();
    let created = message_of(&created.text().await.unwrap());
    let task = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_owned();
    for method in ["tasks/get", "tasks/cancel"] {
        let body = json!({"jsonrpc": "2.0", "id": 7, "method": method,
            "params": {"taskId": task, "_meta": meta(with_tasks())}});
        let answer = modern(&b.url, &body, &task).await.unwrap();
        assert_eq!(answer.status(), 200, "{method}");
    }
    // The task is the credential's: another principal does not find it.
    assert_eq!(
        task_request(&b.url, "tasks/get", &task).await.1["error"]["code"],
        -32602
    );

    let stored = dump(redis.port);
    assert!(
        stored.contains("credential:"),
        "the principals are stored: {stored}"
    );
    assert!(
        !shows(&stored, &secret),
        "the credential is in Redis: {stored}"
    );

    // Ended: the note says so (with its principal).
    let ended = with_credential(client().delete(&a.url))
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), 200);
    std::thread::sleep(Duration::from_millis(200));
    let _ = monitor.kill();
    let _ = monitor.wait();
    let commands = seen.join().unwrap();
    assert!(
        commands.contains("PUBLISH"),
        "the monitor saw the notes: {commands}"
    );
    assert!(commands.contains("\\\"t\\\":\\\"ended\\\""), "{commands}");
    assert!(
        !shows(&commands, &secret),
        "a command carried the credential: {commands}"
    );
}

//! The tasks extension (`io.modelcontextprotocol/tasks`) served by `Served::tasks`: tools
//! answered with a task for a client that advertised the extension (and within the request,
//! or refused, otherwise), `tasks/get`, `tasks/update` and `tasks/cancel` on the principal's
//! own tasks, input asked through a task, task status followed on `subscriptions/listen`,
//! and the `--task-*` options.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt as _;
use mcp_runtime::error_code::{INTERNAL_ERROR, INVALID_PARAMS, MISSING_REQUIRED_CLIENT_CAPABILITY};
use mcp_server::options::Options;
use mcp_server::tasks::serve::{TaskWorker, Tasks};
use mcp_server::tools::Tools;
use mcp_server::{Ctx, Served};
use mcp_tests::eras_tasks as mcp;
use serde_json::{Value, json};
use tower::ServiceExt as _;

mod support;
use support::{modern, send};

mcp_server::bind!(Mcp = mcp, legacy = mcp::v2025_11_25);
mcp_server::bind_server!(Mcp = mcp);
mcp_server::bind_tasks!(Mcp = mcp);

/// A server of no method of its own: its tools come from the router, its tasks from `Served`.
struct Quiet;

impl mcp::Server<Ctx<Mcp>> for Quiet {}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Compute {
    seconds: f64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArguments {}

fn text(s: impl Into<String>) -> mcp::CallToolResult {
    mcp::CallToolResult::new(vec![mcp::TextContent::new(s.into()).into()])
}

/// An elicitation asking for a confirmation.
fn confirmation() -> mcp::InputRequest {
    serde_json::from_value(json!({"method": "elicitation/create", "params": {
        "message": "Delete?",
        "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}}
    }}))
    .unwrap()
}

/// Its tools: `slow_compute` (a task when the client can take one), `confirm` (only a task:
/// asks for a confirmation through it) and `failing_job` (only a task: fails).
fn served(tasks: &Tasks<Mcp>) -> Served<Mcp, Quiet> {
    let tools = Tools::<Mcp, Ctx<Mcp>>::new()
        .add_optional_task(
            "slow_compute",
            "Waits, then answers",
            tasks,
            |a: Compute| async move {
                tokio::time::sleep(Duration::from_secs_f64(a.seconds)).await;
                Ok(text(format!("computed after {} s", a.seconds)))
            },
        )
        .unwrap()
        .add_task(
            "confirm",
            "Asks for a confirmation",
            tasks,
            |_: NoArguments, worker: TaskWorker<Mcp>| async move {
                let asked = [("confirm".to_owned(), confirmation())].into();
                match worker.ask(asked, "Waiting for the confirmation").await {
                    Some(answers) => Ok(text(format!(
                        "answered: {:?}",
                        answers.keys().collect::<Vec<_>>()
                    ))),
                    None => Err(mcp::Error::new(INTERNAL_ERROR, "the task ended")),
                }
            },
        )
        .unwrap()
        .add_task("failing_job", "Fails", tasks, |_: NoArguments, _| async {
            Err(mcp::Error::new(
                INTERNAL_ERROR,
                "the job's backend went away",
            ))
        })
        .unwrap();
    let info = mcp::Implementation::new("worked", "1.0.0");
    Served::<Mcp, _>::new(Quiet, info)
        .tools(tools)
        .tasks(tasks.clone())
}

fn app() -> axum::Router {
    mcp_server::served::router(Arc::new(served(&Tasks::new()))).unwrap()
}

/// A request's `_meta`, advertising the tasks extension if `tasks`.
fn meta(tasks: bool) -> Value {
    let extensions = if tasks {
        json!({"io.modelcontextprotocol/tasks": {}})
    } else {
        json!({})
    };
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"extensions": extensions}})
}

/// A modern request of `method` with `params`.
fn request(method: &str, mut params: Value, tasks: bool) -> Value {
    params["_meta"] = meta(tasks);
    json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
}

/// The `Mcp-Name` of `message`: the tool's name or the task id.
fn name(message: &Value) -> Option<String> {
    let params = &message["params"];
    let named = params.get("name").or_else(|| params.get("taskId"))?;
    named.as_str().map(str::to_owned)
}

/// `message` sent as `principal` (its `Authorization` header).
fn sent_as(principal: &str, message: &Value) -> Request<Body> {
    let mut request = modern(message, name(message).as_deref());
    let value = format!("Bearer {principal}").parse().unwrap();
    request.headers_mut().insert("authorization", value);
    request
}

/// The answer to `message` sent as `principal`.
async fn ask_as(app: &axum::Router, principal: &str, message: &Value) -> Value {
    let (status, _, answer) = send(app, sent_as(principal, message)).await;
    let expected = if answer.get("result").is_some() {
        StatusCode::OK
    } else {
        status
    };
    assert_eq!(status, expected, "{answer}");
    answer
}

async fn ask(app: &axum::Router, message: &Value) -> Value {
    ask_as(app, "alice", message).await
}

async fn call(app: &axum::Router, tool: &str, arguments: Value, tasks: bool) -> Value {
    let params = json!({"name": tool, "arguments": arguments});
    ask(app, &request("tools/call", params, tasks)).await
}

/// The id of the task `answer` created.
fn task_id(answer: &Value) -> String {
    assert_eq!(answer["result"]["resultType"], "task", "{answer}");
    answer["result"]["taskId"].as_str().unwrap().to_owned()
}

async fn get(app: &axum::Router, id: &str) -> Value {
    ask(app, &request("tasks/get", json!({"taskId": id}), true)).await
}

/// `tasks/get` until the task's status is `status`.
async fn until(app: &axum::Router, id: &str, status: &str) -> Value {
    for _ in 0..300 {
        let answer = get(app, id).await;
        if answer["result"]["status"] == status {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {id} never {status}: {}", get(app, id).await)
}

fn code(answer: &Value) -> i64 {
    answer["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("no error: {answer}"))
}

#[tokio::test]
async fn discover_declares_the_extension() {
    let answer = ask(&app(), &request("server/discover", json!({}), false)).await;
    let capabilities = &answer["result"]["capabilities"];
    assert_eq!(
        capabilities["extensions"]["io.modelcontextprotocol/tasks"],
        json!({}),
        "{answer}"
    );
    assert!(capabilities["tools"].is_object(), "{answer}");
}

#[tokio::test]
async fn an_optional_task_tool_is_a_task_with_the_extension_and_inline_without() {
    let app = app();
    let inline = call(&app, "slow_compute", json!({"seconds": 0}), false).await;
    assert_eq!(
        inline["result"]["content"][0]["text"], "computed after 0 s",
        "{inline}"
    );
    assert_ne!(inline["result"]["resultType"], "task", "{inline}");

    let created = call(&app, "slow_compute", json!({"seconds": 0.05}), true).await;
    let id = task_id(&created);
    assert_eq!(id.len(), 32, "{created}");
    assert!(
        created["result"]["ttlMs"].as_i64().unwrap() > 0,
        "{created}"
    );
    // Every modern result names the server.
    assert_eq!(
        created["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "worked",
        "{created}"
    );
    let done = until(&app, &id, "completed").await;
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "computed after 0.05 s",
        "{done}"
    );
}

#[tokio::test]
async fn a_task_only_tool_is_refused_without_the_extension() {
    let answer = call(&app(), "confirm", json!({}), false).await;
    assert_eq!(
        code(&answer),
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        "{answer}"
    );
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("io.modelcontextprotocol/tasks"),
        "{answer}"
    );
    // Arguments that do not fit are a tool error before any task.
    let bad = call(&app(), "slow_compute", json!({"seconds": "x"}), true).await;
    assert_eq!(bad["result"]["isError"], true, "{bad}");
}

#[tokio::test]
async fn a_failing_job_ends_failed_with_its_error() {
    let app = app();
    let id = task_id(&call(&app, "failing_job", json!({}), true).await);
    let failed = until(&app, &id, "failed").await;
    assert_eq!(
        failed["result"]["error"]["code"], INTERNAL_ERROR,
        "{failed}"
    );
    assert_eq!(
        failed["result"]["error"]["message"], "the job's backend went away",
        "{failed}"
    );
}

#[tokio::test]
async fn the_task_methods_need_the_extension_and_a_task_of_ones_own() {
    let app = app();
    let id = task_id(&call(&app, "slow_compute", json!({"seconds": 5}), true).await);
    let without = ask(&app, &request("tasks/get", json!({"taskId": id}), false)).await;
    assert_eq!(
        code(&without),
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        "{without}"
    );
    let unknown = get(&app, "0123456789abcdef0123456789abcdef").await;
    assert_eq!(code(&unknown), INVALID_PARAMS, "{unknown}");
    let get_other = request("tasks/get", json!({"taskId": id}), true);
    let theirs = ask_as(&app, "mallory", &get_other).await;
    assert_eq!(code(&theirs), INVALID_PARAMS, "{theirs}");
    // The same refusal, whichever the reason.
    assert_eq!(theirs["error"]["message"], unknown["error"]["message"]);
    let cancel_other = request("tasks/cancel", json!({"taskId": id}), true);
    assert_eq!(
        code(&ask_as(&app, "mallory", &cancel_other).await),
        INVALID_PARAMS
    );
    // Still working: the other principal changed nothing.
    assert_eq!(get(&app, &id).await["result"]["status"], "working");
}

#[tokio::test]
async fn tasks_cancel_ends_the_task_cancelled() {
    let app = app();
    let id = task_id(&call(&app, "slow_compute", json!({"seconds": 5}), true).await);
    let cancelled = ask(&app, &request("tasks/cancel", json!({"taskId": id}), true)).await;
    assert!(cancelled["result"].is_object(), "{cancelled}");
    let got = get(&app, &id).await;
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
}

#[tokio::test]
async fn input_is_asked_through_the_task_and_answered_by_tasks_update() {
    let app = app();
    let id = task_id(&call(&app, "confirm", json!({}), true).await);
    let waiting = until(&app, &id, "input_required").await;
    let asked = &waiting["result"]["inputRequests"]["confirm"];
    assert_eq!(asked["method"], "elicitation/create", "{waiting}");
    // An answer to a key the task does not wait on is ignored, whatever it holds.
    let responses = json!({
        "confirm": {"action": "accept", "content": {"confirm": true}},
        "unasked": "not an answer at all"
    });
    let update = request(
        "tasks/update",
        json!({"taskId": id, "inputResponses": responses}),
        true,
    );
    let updated = ask(&app, &update).await;
    assert!(updated["result"].is_object(), "{updated}");
    let done = until(&app, &id, "completed").await;
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "answered: [\"confirm\"]",
        "{done}"
    );
}

/// An open response: its SSE body, read message by message.
struct Listening {
    body: Body,
    pending: String,
}

impl Listening {
    async fn open(app: &axum::Router, request: Request<Body>) -> (StatusCode, Listening) {
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let body = response.into_body();
        let pending = String::new();
        (status, Listening { body, pending })
    }

    /// The next message: the `data:` of the next event, or the whole body that is no stream.
    async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let event: String = self.pending.drain(..end + 2).collect();
                let data: String = event
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim)
                    .collect();
                if !data.is_empty() {
                    return Some(serde_json::from_str(&data).unwrap());
                }
                continue;
            }
            let frame = tokio::time::timeout(Duration::from_secs(5), self.body.frame())
                .await
                .expect("a message within 5 s");
            match frame {
                None if self.pending.trim().is_empty() => return None,
                None => {
                    return Some(
                        serde_json::from_str(std::mem::take(&mut self.pending).trim()).unwrap(),
                    );
                }
                Some(frame) => {
                    if let Ok(data) = frame.unwrap().into_data() {
                        self.pending.push_str(std::str::from_utf8(&data).unwrap());
                    }
                }
            }
        }
    }
}

#[tokio::test]
async fn a_listen_stream_follows_the_status_of_its_principals_tasks() {
    let app = app();
    let id = task_id(&call(&app, "confirm", json!({}), true).await);
    until(&app, &id, "input_required").await;
    let unknown = "0123456789abcdef0123456789abcdef";
    let filter = json!({"notifications": {"taskIds": [id, unknown]}});
    let listen = request("subscriptions/listen", filter.clone(), true);
    let (status, mut stream) = Listening::open(&app, sent_as("alice", &listen)).await;
    assert_eq!(status, StatusCode::OK);
    let ack = stream.next().await.unwrap();
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    // Only the principal's own live task is followed.
    assert_eq!(
        ack["params"]["notifications"]["taskIds"],
        json!([id]),
        "{ack}"
    );
    let update = request(
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"confirm": {"action": "decline"}}}),
        true,
    );
    ask(&app, &update).await;
    let mut statuses = Vec::new();
    while statuses.last().map(String::as_str) != Some("completed") {
        let note = stream.next().await.unwrap();
        assert_eq!(note["method"], "notifications/tasks", "{note}");
        assert_eq!(note["params"]["taskId"], id.as_str(), "{note}");
        assert_eq!(
            note["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 1,
            "{note}"
        );
        statuses.push(note["params"]["status"].as_str().unwrap().to_owned());
    }
    assert_eq!(statuses, ["working", "completed"]);

    // Another principal's stream names the task and follows nothing.
    let (_, mut theirs) = Listening::open(&app, sent_as("mallory", &listen)).await;
    let ack = theirs.next().await.unwrap();
    assert_eq!(
        ack["params"]["notifications"]["taskIds"],
        json!([]),
        "{ack}"
    );

    // Without the extension on the request, task ids are refused.
    let without = request("subscriptions/listen", filter, false);
    let (_, mut refused) = Listening::open(&app, sent_as("alice", &without)).await;
    let answer = refused.next().await.unwrap();
    assert_eq!(
        code(&answer),
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        "{answer}"
    );
}

fn options(extra: &[&str]) -> Options {
    let line = ["--listen", "127.0.0.1:0"].iter().chain(extra);
    Options::parse(line.map(|a| (*a).to_owned())).unwrap()
}

#[tokio::test]
async fn the_task_options_apply_with_tasks_and_are_refused_without() {
    let tasks = Tasks::<Mcp>::new();
    let line = [
        "--max-tasks",
        "3",
        "--max-tasks-per-principal",
        "2",
        "--task-ttl-ms",
        "60000",
    ];
    let started = mcp_server::served::start(served(&tasks), options(&line), std::future::pending())
        .await
        .unwrap();
    assert!(started.address.is_some());
    let settings = tasks.settings();
    assert_eq!(settings.max_total, 3);
    assert_eq!(settings.max_per_principal, 2);
    assert_eq!(settings.ttl, Duration::from_secs(60));

    let info = mcp::Implementation::new("plain", "1.0.0");
    let plain = Served::<Mcp, _>::new(Quiet, info);
    let refused = mcp_server::served::start(
        plain,
        options(&["--max-tasks", "3"]),
        std::future::pending(),
    )
    .await
    .err()
    .unwrap();
    assert!(
        refused
            .to_string()
            .starts_with("--max-tasks: this server serves no tasks"),
        "{refused}"
    );
}

#[tokio::test]
async fn a_principal_is_refused_more_tasks_than_its_bound() {
    let tasks = Tasks::<Mcp>::with_settings(mcp_server::tasks::Settings {
        max_per_principal: 1,
        ..Default::default()
    });
    let app = mcp_server::served::router(Arc::new(served(&tasks))).unwrap();
    task_id(&call(&app, "slow_compute", json!({"seconds": 5}), true).await);
    let second = call(&app, "slow_compute", json!({"seconds": 5}), true).await;
    assert!(
        second["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Too many tasks"),
        "{second}"
    );
}

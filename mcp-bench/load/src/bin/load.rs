//! The load generator of the load benchmark: operations over Streamable HTTP from
//! `--concurrency` workers, each on its own keep-alive HTTP/1.1 connection, for `--seconds`
//! after a warm-up of `--warmup` seconds.
//!
//! `--workload call` (the default): an operation is one `tools/call test_simple_text`.
//! `--workload task` (modern only): an operation is a task's life as a client sees it, a
//! `tools/call slow_compute` with `seconds` 0 advertising the tasks extension
//! (`io.modelcontextprotocol/tasks`), answered with a task (`resultType` `task` and its
//! `taskId`), then `tasks/get` of that id, again at once (no poll interval), until the task is
//! `completed` with the tool's text for this operation's label; its latency is the whole.
//!
//! `--era modern` sends 2026-07-28 requests (every request carries its `_meta` and the
//! `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers); `--era legacy` opens one
//! 2025-11-25 session per worker (`initialize`, `notifications/initialized`) and calls the tool
//! in it. Every answer is checked (HTTP 200 and the tool's text in the body; for a task every
//! answer's JSON): a run with any failed operation exits non-zero, so a server that answers
//! errors fast cannot look fast. An answer with `Connection: close` (a proxy's
//! `keepalive_requests`) makes the worker open a new connection for its next request, within
//! that request's latency (counted in `reconnections`).
//!
//! Prints one JSON object: operations, the HTTP requests they took, seconds, operations per
//! second (`rps`: requests per second for `call`), latency percentiles (µs) of operations, and
//! for `task` the mean number of `tasks/get` per operation.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;

/// What every successful answer holds (the tool's text).
const TEXT: &str = "This is a simple text response for testing.";
const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";
/// The task tool of `--workload task`, its arguments, and the extension it needs.
const TASK_TOOL: &str = "slow_compute";
const TASKS: &str = "io.modelcontextprotocol/tasks";
/// An operation of `--workload task` whose task is not completed within this fails.
const TASK_DEADLINE: Duration = Duration::from_secs(10);

#[derive(Clone, Copy, PartialEq)]
enum Era {
    Modern,
    Legacy,
}

#[derive(Clone, Copy, PartialEq)]
enum Workload {
    /// One `tools/call` of `test_simple_text`.
    Call,
    /// A task created by a `tools/call`, then `tasks/get` until it is completed.
    Task,
}

struct Args {
    url: String,
    authority: String,
    path: String,
    era: Era,
    workload: Workload,
    concurrency: usize,
    warmup: Duration,
    seconds: Duration,
}

fn parse_args() -> Result<Args, String> {
    let mut url = None;
    let mut era = Era::Modern;
    let mut workload = Workload::Call;
    let mut concurrency = 1;
    let mut warmup = Duration::from_secs(1);
    let mut seconds = Duration::from_secs(5);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--url" => url = Some(value()?),
            "--era" => {
                era = match value()?.as_str() {
                    "modern" => Era::Modern,
                    "legacy" => Era::Legacy,
                    other => return Err(format!("--era {other}: modern or legacy")),
                }
            }
            "--workload" => {
                workload = match value()?.as_str() {
                    "call" => Workload::Call,
                    "task" => Workload::Task,
                    other => return Err(format!("--workload {other}: call or task")),
                }
            }
            "--concurrency" => concurrency = number(&value()?)?,
            "--warmup" => warmup = Duration::from_secs_f64(number::<f64>(&value()?)?),
            "--seconds" => seconds = Duration::from_secs_f64(number::<f64>(&value()?)?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let url = url.ok_or("--url is required")?;
    if era == Era::Legacy && workload == Workload::Task {
        return Err("--workload task is modern only (tasks are a 2026-07-28 extension)".into());
    }
    let rest = url
        .strip_prefix("http://")
        .ok_or("--url must be http://host:port/path")?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    Ok(Args {
        authority: authority.to_owned(),
        path: if path.is_empty() { "/" } else { path }.to_owned(),
        url,
        era,
        workload,
        concurrency: concurrency.max(1),
        warmup,
        seconds,
    })
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{text:?} is not a number"))
}

/// One worker's connection and, in the legacy era, its session.
struct Connection {
    sender: SendRequest<Full<Bytes>>,
    session: Option<String>,
    /// The last answer said `Connection: close` (nginx does after `keepalive_requests`, 1,000
    /// by default): the next request opens a new connection, as an HTTP client does.
    closing: bool,
    /// How many times it was opened again.
    reopened: u64,
}

/// What one request came back with: its body, or why it failed.
async fn post(
    args: &Args,
    connection: &mut Connection,
    headers: &[(&str, &str)],
    body: String,
) -> Result<(StatusCode, hyper::HeaderMap, Bytes), String> {
    let mut request = Request::post(args.path.as_str())
        .header("host", args.authority.as_str())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    if let Some(session) = &connection.session {
        request = request.header("mcp-session-id", session.as_str());
    }
    let request = request
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    if connection.closing {
        connection.sender = handshake(args).await?;
        connection.closing = false;
        connection.reopened += 1;
    }
    connection
        .sender
        .ready()
        .await
        .map_err(|e| format!("connection: {e}"))?;
    let response = connection
        .sender
        .send_request(request)
        .await
        .map_err(|e| format!("request: {e}"))?;
    let (parts, body) = response.into_parts();
    connection.closing = parts
        .headers
        .get(hyper::header::CONNECTION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("close"));
    let body = body
        .collect()
        .await
        .map_err(|e| format!("body: {e}"))?
        .to_bytes();
    Ok((parts.status, parts.headers, body))
}

async fn connect(args: &Args) -> Result<Connection, String> {
    Ok(Connection {
        sender: handshake(args).await?,
        session: None,
        closing: false,
        reopened: 0,
    })
}

/// A new keep-alive HTTP/1.1 connection to the server.
async fn handshake(args: &Args) -> Result<SendRequest<Full<Bytes>>, String> {
    let stream = tokio::net::TcpStream::connect(&args.authority)
        .await
        .map_err(|e| format!("connecting to {}: {e}", args.url))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(connection);
    Ok(sender)
}

/// Opens a 2025-11-25 session on `connection`: `initialize`, then `notifications/initialized`.
async fn open_session(args: &Args, connection: &mut Connection) -> Result<(), String> {
    let initialize = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{LEGACY}","capabilities":{{}},"clientInfo":{{"name":"mcp-load","version":"0.0.0"}}}}}}"#
    );
    let (status, headers, body) = post(args, connection, &[], initialize).await?;
    let session = headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| {
            format!(
                "initialize: HTTP {status}, no Mcp-Session-Id: {}",
                String::from_utf8_lossy(&body)
            )
        })?;
    connection.session = Some(session.to_owned());
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned();
    let version = [("mcp-protocol-version", LEGACY)];
    let (status, _, body) = post(args, connection, &version, initialized).await?;
    if status != StatusCode::ACCEPTED {
        return Err(format!(
            "notifications/initialized: HTTP {status}: {}",
            String::from_utf8_lossy(&body)
        ));
    }
    Ok(())
}

/// One `tools/call` of the worker's era, checked.
async fn call(args: &Args, connection: &mut Connection, id: u64) -> Result<(), String> {
    let (headers, body): (&[(&str, &str)], String) = match args.era {
        Era::Modern => (
            &[
                ("mcp-protocol-version", MODERN),
                ("mcp-method", "tools/call"),
                ("mcp-name", "test_simple_text"),
            ],
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"test_simple_text","arguments":{{}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
            ),
        ),
        Era::Legacy => (
            &[("mcp-protocol-version", LEGACY)],
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"test_simple_text","arguments":{{}}}}}}"#
            ),
        ),
    };
    let (status, _, body) = post(args, connection, headers, body).await?;
    let text = String::from_utf8_lossy(&body);
    if status != StatusCode::OK || !text.contains(TEXT) {
        return Err(format!("tools/call: HTTP {status}: {text}"));
    }
    Ok(())
}

/// The JSON-RPC answer in `body` (a JSON body, or the last `data:` line of an SSE one): its
/// `result`, checked to be an HTTP 200 with no `error`.
fn result_of(what: &str, status: StatusCode, body: &[u8]) -> Result<Value, String> {
    let failed = || format!("{what}: HTTP {status}: {}", String::from_utf8_lossy(body));
    if status != StatusCode::OK {
        return Err(failed());
    }
    let json = if body.first() == Some(&b'{') {
        body
    } else {
        body.split(|b| *b == b'\n')
            .filter_map(|line| line.strip_prefix(b"data:"))
            .next_back()
            .ok_or_else(failed)?
    };
    let mut answer: Value = serde_json::from_slice(json).map_err(|_| failed())?;
    match answer.get_mut("result") {
        Some(result) if result.is_object() => Ok(result.take()),
        _ => Err(failed()),
    }
}

/// The `_meta` of a modern request whose client advertises the tasks extension.
fn task_meta() -> String {
    format!(
        r#"{{"io.modelcontextprotocol/protocolVersion":"{MODERN}","io.modelcontextprotocol/clientCapabilities":{{"extensions":{{"{TASKS}":{{}}}}}}}}"#
    )
}

/// One operation of `--workload task`, checked: `tools/call slow_compute` (0 s, this
/// operation's `label`) answered with a task, then `tasks/get` until it is completed with the
/// tool's text. Returns how many `tasks/get` it took.
async fn task(
    args: &Args,
    connection: &mut Connection,
    id: u64,
    label: &str,
) -> Result<u64, String> {
    let started = Instant::now();
    let meta = task_meta();
    let create = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{TASK_TOOL}","arguments":{{"seconds":0,"label":"{label}"}},"_meta":{meta}}}}}"#
    );
    let headers = [
        ("mcp-protocol-version", MODERN),
        ("mcp-method", "tools/call"),
        ("mcp-name", TASK_TOOL),
    ];
    let (status, _, body) = post(args, connection, &headers, create).await?;
    let created = result_of("tools/call (task)", status, &body)?;
    let task_id = match (
        created.get("resultType").and_then(Value::as_str),
        created.get("taskId").and_then(Value::as_str),
        created.get("status").and_then(Value::as_str),
    ) {
        (Some("task"), Some(task_id), Some("working" | "completed")) if !task_id.is_empty() => {
            task_id.to_owned()
        }
        _ => return Err(format!("tools/call (task): not a working task: {created}")),
    };
    let expected = format!("{label}: computed after 0 s");
    let headers = [
        ("mcp-protocol-version", MODERN),
        ("mcp-method", "tasks/get"),
        ("mcp-name", task_id.as_str()),
    ];
    let mut gets = 0;
    loop {
        gets += 1;
        let get = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tasks/get","params":{{"taskId":"{task_id}","_meta":{meta}}}}}"#
        );
        let (status, _, body) = post(args, connection, &headers, get).await?;
        let task = result_of("tasks/get", status, &body)?;
        let same = task.get("taskId").and_then(Value::as_str) == Some(task_id.as_str());
        let complete = task.get("resultType").and_then(Value::as_str) == Some("complete");
        match task.get("status").and_then(Value::as_str) {
            Some("working") if same && complete => {}
            Some("completed") if same && complete => {
                let text = task
                    .pointer("/result/content/0/text")
                    .and_then(Value::as_str);
                if text != Some(expected.as_str()) {
                    return Err(format!("tasks/get: completed without {expected:?}: {task}"));
                }
                return Ok(gets);
            }
            _ => return Err(format!("tasks/get {task_id}: {task}")),
        }
        if started.elapsed() > TASK_DEADLINE {
            return Err(format!(
                "task {task_id} not completed within {TASK_DEADLINE:?} ({gets} tasks/get)"
            ));
        }
    }
}

/// What the workers measured together.
#[derive(Default)]
struct Totals {
    /// `tasks/get` requests of the measured operations (`--workload task`).
    gets: AtomicU64,
    /// Connections opened again after the server's `Connection: close`.
    reopened: AtomicU64,
    failures: AtomicU64,
    first_failure: std::sync::Mutex<Option<String>>,
}

/// Runs operations until `end`; returns the latencies (µs) of those that started after
/// `measured_from` and ended by `end`.
async fn worker(
    number: usize,
    args: Arc<Args>,
    totals: Arc<Totals>,
    measured_from: Instant,
    end: Instant,
) -> Vec<u32> {
    let mut latencies = Vec::new();
    let fail = |e: String| {
        totals.failures.fetch_add(1, Ordering::Relaxed);
        let mut first = totals
            .first_failure
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        first.get_or_insert(e);
    };
    let mut connection = match connect(&args).await {
        Ok(c) => c,
        Err(e) => {
            fail(e);
            return latencies;
        }
    };
    if args.era == Era::Legacy
        && let Err(e) = open_session(&args, &mut connection).await
    {
        fail(e);
        return latencies;
    }
    let mut id = 1;
    let result = loop {
        let started = Instant::now();
        if started >= end {
            break Ok(());
        }
        id += 1;
        let done = match args.workload {
            Workload::Call => call(&args, &mut connection, id).await.map(|()| 0),
            Workload::Task => {
                let label = format!("load-{number}-{id}");
                task(&args, &mut connection, id, &label).await
            }
        };
        match done {
            Ok(gets) if started >= measured_from && Instant::now() <= end => {
                let micros = started.elapsed().as_micros();
                latencies.push(u32::try_from(micros).unwrap_or(u32::MAX));
                totals.gets.fetch_add(gets, Ordering::Relaxed);
            }
            Ok(_) => {}
            Err(e) => break Err(e),
        }
    };
    totals
        .reopened
        .fetch_add(connection.reopened, Ordering::Relaxed);
    if let Err(e) = result {
        fail(e);
    }
    latencies
}

fn percentile(sorted: &[u32], p: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

#[tokio::main(worker_threads = 2)]
async fn main() -> std::process::ExitCode {
    let args = match parse_args() {
        Ok(a) => Arc::new(a),
        Err(e) => {
            eprintln!(
                "load: {e}\nusage: load --url http://HOST:PORT/PATH [--era modern|legacy] [--workload call|task] [--concurrency N] [--warmup S] [--seconds S]"
            );
            return std::process::ExitCode::from(2);
        }
    };
    let totals = Arc::new(Totals::default());
    let measured_from = Instant::now() + args.warmup;
    let end = measured_from + args.seconds;
    let workers: Vec<_> = (0..args.concurrency)
        .map(|number| {
            tokio::spawn(worker(
                number,
                Arc::clone(&args),
                Arc::clone(&totals),
                measured_from,
                end,
            ))
        })
        .collect();
    let mut latencies = Vec::new();
    for w in workers {
        latencies.extend(w.await.unwrap_or_default());
    }
    latencies.sort_unstable();
    let failures = totals.failures.load(Ordering::Relaxed);
    let seconds = args.seconds.as_secs_f64();
    let operations = latencies.len() as u64;
    let gets = totals.gets.load(Ordering::Relaxed);
    // An operation is one request (call), or a create and its gets (task).
    let requests = operations + gets;
    let mut report = serde_json::json!({
        "era": if args.era == Era::Modern { "modern" } else { "legacy" },
        "workload": if args.workload == Workload::Call { "call" } else { "task" },
        "concurrency": args.concurrency,
        "operations": operations,
        "requests": requests,
        "seconds": seconds,
        "rps": operations as f64 / seconds,
        "p50_us": percentile(&latencies, 0.5),
        "p99_us": percentile(&latencies, 0.99),
        "reconnections": totals.reopened.load(Ordering::Relaxed),
        "failures": failures,
    });
    if args.workload == Workload::Task {
        report["gets_per_operation"] = (gets as f64 / operations.max(1) as f64).into();
    }
    println!("{report}");
    if failures > 0 {
        let first = totals
            .first_failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        eprintln!(
            "load: {failures} failed operation(s), the first: {}",
            first.unwrap_or_default()
        );
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}

//! The client over the stdio framing against scripted servers, in-process (a duplex pipe) and
//! spawned (this test binary run again as the server, [`stdio_fixture_process`]): a modern
//! server (the probe answered, `input_required` answered and retried), a legacy one that
//! rejects the probe (then `initialize`, and its own request on the same pipe answered), a
//! legacy one that ignores the probe (taken for legacy after the probe timeout), and a server
//! that cannot be started.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

use super::fixture::{Mcp, config};
use crate::{Client, ClientError, Era, stdio};

/// What the scripted server saw, every message in order.
type Log = Arc<Mutex<Vec<Value>>>;

/// The server's side of the pipe: its input lines, its output, and the log.
struct Server {
    lines: tokio::io::Lines<BufReader<Box<dyn AsyncRead + Unpin + Send>>>,
    out: Box<dyn AsyncWrite + Unpin + Send>,
    log: Log,
}

impl Server {
    /// The next message the client wrote (logged); `None` once the client closed its side.
    async fn next(&mut self) -> Option<Value> {
        let line = self.lines.next_line().await.ok()??;
        let message: Value = serde_json::from_str(&line).expect("the client writes JSON lines");
        self.log.lock().unwrap().push(message.clone());
        Some(message)
    }

    async fn send(&mut self, message: Value) {
        let line = format!("{message}\n");
        self.out.write_all(line.as_bytes()).await.unwrap();
        self.out.flush().await.unwrap();
    }

    async fn answer(&mut self, request: &Value, result: Value) {
        let id = request["id"].clone();
        self.send(json!({"jsonrpc": "2.0", "id": id, "result": result}))
            .await;
    }

    async fn fail(&mut self, request: &Value, code: i64, message: &str) {
        let id = request["id"].clone();
        self.send(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}))
            .await;
    }
}

/// A client over a duplex pipe to the server `script` runs; the client and the server's log.
fn pipe<F, Fut>(script: F) -> (Client<Mcp>, Log)
where
    F: FnOnce(Server) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    pipe_with(script, config())
}

/// [`pipe`] with the client's `config`.
fn pipe_with<F, Fut>(script: F, config: crate::Config<Mcp>) -> (Client<Mcp>, Log)
where
    F: FnOnce(Server) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    // One pipe each way, as a process's stdin and stdout are.
    let (to_server, from_client) = tokio::io::duplex(64 * 1024);
    let (to_client, from_server) = tokio::io::duplex(64 * 1024);
    let log = Log::default();
    let server = Server {
        lines: BufReader::new(Box::new(from_client) as Box<_>).lines(),
        out: Box::new(to_client),
        log: Arc::clone(&log),
    };
    tokio::spawn(script(server));
    let config = config.with_probe_timeout(Duration::from_millis(300));
    let client = stdio::connect_streams(from_server, to_server, config).unwrap();
    (client, log)
}

fn tool() -> Value {
    json!({"name": "greet", "inputSchema": {"type": "object"}})
}

fn form() -> Value {
    json!({"mode": "form", "message": "Your name?", "requestedSchema": {"type": "object",
        "properties": {"name": {"type": "string", "default": "Ada"}}, "required": ["name"]}})
}

/// A 2026-07-28 server: the probe answered; `tools/call` first asks for a name
/// (`input_required`), then greets with the name the retry carries.
async fn modern(mut s: Server) {
    while let Some(m) = s.next().await {
        match m["method"].as_str().unwrap_or_default() {
            "server/discover" => {
                let found = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
                    "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}});
                s.answer(&m, found).await;
            }
            "tools/list" => {
                let listed = json!({"resultType": "complete", "ttlMs": 0,
                    "cacheScope": "private", "tools": [tool()]});
                s.answer(&m, listed).await;
            }
            "tools/call" => match m["params"]["inputResponses"]["name"]["content"]["name"].as_str()
            {
                Some(name) => {
                    let text = format!("Hello, {name}!");
                    let done = json!({"resultType": "complete",
                        "content": [{"type": "text", "text": text}]});
                    s.answer(&m, done).await;
                }
                None => {
                    let elicit = json!({"method": "elicitation/create", "params": form()});
                    let ask = json!({"resultType": "input_required",
                        "inputRequests": {"name": elicit}, "requestState": "round-1"});
                    s.answer(&m, ask).await;
                }
            },
            _ => s.fail(&m, -32601, "Method not found").await,
        }
    }
}

/// The text of a call's first content block.
fn first_text(result: &mcp_client_test_types::mcp::CallToolResult) -> &str {
    match &result.content[0] {
        mcp_client_test_types::mcp::ContentBlock::TextContent(t) => &t.text,
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_modern_stdio_server_is_discovered_and_its_input_rounds_answered() {
    let (mut client, log) = pipe(modern);
    let connected = client.connect().await.unwrap();
    assert_eq!(connected.era, Era::Modern);
    greet(&mut client).await;
    client.close().await;
    let log = log.lock().unwrap();
    let methods: Vec<&str> = log.iter().filter_map(|m| m["method"].as_str()).collect();
    assert_eq!(
        methods,
        ["server/discover", "tools/list", "tools/call", "tools/call"]
    );
    for m in log.iter() {
        let meta = &m["params"]["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
    }
    assert_eq!(log[3]["params"]["requestState"], "round-1");
    assert_ne!(log[2]["id"], log[3]["id"], "the retry takes a new id");
}

/// A 2025-11-25 server: the probe rejected (`-32601`, as a legacy server answers a request
/// before `initialize`), `initialize` answered; `tools/call` asks the client for a name with a
/// request of its own on the same pipe, then greets with the answer.
async fn legacy(mut s: Server, answers_the_probe: bool) {
    while let Some(m) = s.next().await {
        match m["method"].as_str() {
            Some("server/discover") if answers_the_probe => {
                s.fail(&m, -32601, "Method not found").await;
            }
            Some("server/discover") => {}
            Some("initialize") => {
                let init = json!({"protocolVersion": "2025-11-25",
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "legacy-stdio", "version": "1.0.0"}});
                s.answer(&m, init).await;
            }
            Some("notifications/initialized") => {}
            Some("tools/list") => s.answer(&m, json!({"tools": [tool()]})).await,
            Some("tools/call") => {
                let mut params = form();
                params.as_object_mut().unwrap().remove("mode");
                s.send(
                    json!({"jsonrpc": "2.0", "id": "s-1", "method": "elicitation/create",
                    "params": params}),
                )
                .await;
                let Some(reply) = s.next().await else { return };
                let name = reply["result"]["content"]["name"].as_str().unwrap_or("?");
                let text = format!("Hello, {name}!");
                s.answer(&m, json!({"content": [{"type": "text", "text": text}]}))
                    .await;
            }
            _ => {}
        }
    }
}

/// Connects to a legacy server, lists and calls its tool; the server's log.
async fn legacy_run(answers_the_probe: bool) -> Vec<Value> {
    let (mut client, log) = pipe(move |s| legacy(s, answers_the_probe));
    let connected = client.connect().await.unwrap();
    assert_eq!(connected.era, Era::Legacy);
    assert_eq!(connected.versions, ["2025-11-25"]);
    greet(&mut client).await;
    client.close().await;
    log.lock().unwrap().clone()
}

/// The messages of a legacy run after the probe: `initialize`, `notifications/initialized`,
/// the requests without the modern `_meta`, and the answer to the server's request.
fn assert_legacy(log: &[Value]) {
    let methods: Vec<&str> = log
        .iter()
        .map(|m| m["method"].as_str().unwrap_or("(response)"))
        .collect();
    assert_eq!(
        methods,
        [
            "server/discover",
            "initialize",
            "notifications/initialized",
            "tools/list",
            "tools/call",
            "(response)"
        ]
    );
    assert_eq!(log[1]["params"]["protocolVersion"], "2025-11-25");
    for m in &log[2..] {
        assert!(m["params"]["_meta"].is_null(), "{m}");
    }
    assert_eq!(log[5]["id"], "s-1");
    assert_eq!(log[5]["result"]["action"], "accept");
}

#[tokio::test]
async fn a_legacy_stdio_server_gets_initialize_and_its_requests_are_answered_on_the_pipe() {
    assert_legacy(&legacy_run(true).await);
}

#[tokio::test]
async fn a_stdio_server_that_does_not_answer_the_probe_is_legacy() {
    assert_legacy(&legacy_run(false).await);
}

#[tokio::test]
async fn a_server_that_cannot_start_is_an_error() {
    let command = std::process::Command::new("/nonexistent/mcp-server");
    match stdio::spawn(command, config()) {
        Err(ClientError::Stdio(e)) => assert!(e.contains("starting the server"), "{e}"),
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("started"),
    }
}

#[tokio::test]
async fn the_configured_log_gets_a_line_for_what_the_client_does() {
    let lines: Arc<Mutex<Vec<String>>> = Arc::default();
    let kept = Arc::clone(&lines);
    let logged = config().with_log(move |line| kept.lock().unwrap().push(line.to_string()));
    let (mut client, _) = pipe_with(|s| legacy(s, true), logged);
    client.connect().await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    client
        .call_listed_tool(&tools[0], Default::default())
        .await
        .unwrap();
    client.close().await;
    let lines = lines.lock().unwrap();
    assert!(lines[0].starts_with("legacy server ("), "{lines:?}");
    assert!(lines.contains(&"server request elicitation/create: answering".to_owned()));
}

/// The environment variable that makes [`stdio_fixture_process`] serve, and which era.
const FIXTURE_ERA: &str = "MCP_CLIENT_STDIO_FIXTURE";

/// The stdio fixture server when this test binary is run as a child process by the spawn
/// tests (with [`FIXTURE_ERA`] set to `modern` or `legacy`): it serves the same scripts on its
/// own stdin and stdout until its stdin ends. Ignored in a test run: it is the child's entry
/// point, not a test.
#[tokio::test]
#[ignore = "the stdio fixture server, run as a child process by the spawn tests"]
async fn stdio_fixture_process() {
    let era = std::env::var(FIXTURE_ERA).expect("run by the spawn tests");
    let server = Server {
        lines: BufReader::new(Box::new(tokio::io::stdin()) as Box<_>).lines(),
        out: Box::new(tokio::io::stdout()),
        log: Log::default(),
    };
    match era.as_str() {
        "modern" => modern(server).await,
        _ => legacy(server, true).await,
    }
}

/// A client of this test binary run as the stdio fixture server of `era`.
fn spawned(era: &str) -> Client<Mcp> {
    let mut command = std::process::Command::new(std::env::current_exe().unwrap());
    command
        .args(["tests::stdio::stdio_fixture_process", "--exact"])
        .args(["--ignored", "--quiet", "--test-threads=1"])
        .env(FIXTURE_ERA, era);
    stdio::spawn(command, config()).unwrap()
}

#[tokio::test]
async fn a_spawned_modern_server_is_spoken_to_on_its_stdio_and_exits_when_closed() {
    let mut client = spawned("modern");
    assert_eq!(client.connect().await.unwrap().era, Era::Modern);
    greet_then_close(client).await;
}

/// Calls the fixture's one tool, which greets the name its elicitation is answered with.
async fn greet(client: &mut Client<Mcp>) {
    let tools = client.list_all_tools().await.unwrap();
    let done = client
        .call_listed_tool(&tools[0], Default::default())
        .await
        .unwrap();
    assert_eq!(first_text(&done), "Hello, Ada!");
}

/// [`greet`], then closes the server's stdin, after which the server exits.
async fn greet_then_close(mut client: Client<Mcp>) {
    greet(&mut client).await;
    tokio::time::timeout(Duration::from_secs(10), client.close())
        .await
        .expect("the server exits once its stdin is closed");
}

#[tokio::test]
async fn a_spawned_legacy_server_is_initialized_and_its_requests_answered_on_its_stdio() {
    let mut client = spawned("legacy");
    let connected = client.connect().await.unwrap();
    assert_eq!(connected.era, Era::Legacy);
    assert_eq!(connected.server.as_deref(), Some("legacy-stdio"));
    greet_then_close(client).await;
}

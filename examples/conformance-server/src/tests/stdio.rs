//! `--stdio` in process, over in-memory pipes: the loop of `mcp_server::stdio` with this
//! server's handler (`crate::stdio`), in each era: a modern request with its notifications and
//! the checks of its message, a legacy session with its server-to-client requests through the
//! bridge and its change notifications, cancellation and the end of input.

use mcp_server::legacy::LegacyService as _;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tokio::task::JoinHandle;

use super::{eventually, meta};
use mcp_server::Config;
use mcp_server::tasks::Settings;

struct Client {
    input: DuplexStream,
    output: Lines<BufReader<DuplexStream>>,
    served: JoinHandle<std::io::Result<()>>,
    app: Arc<crate::App>,
}

fn start() -> Client {
    let app = super::new_app(Settings::default(), Config::default());
    let (input, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, output) = tokio::io::duplex(1 << 16);
    let server = mcp_server::served::stdio_endpoint(Arc::clone(&app)).unwrap();
    let config = Arc::clone(app.bounds());
    let served = tokio::spawn(async move {
        mcp_server::stdio::serve(server_input, server_output, server, &config).await
    });
    Client {
        input,
        output: BufReader::new(output).lines(),
        served,
        app,
    }
}

impl Client {
    async fn send(&mut self, message: &Value) {
        let line = format!("{message}\n");
        self.input.write_all(line.as_bytes()).await.unwrap();
    }

    /// The next message the server wrote.
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), self.output.next_line())
            .await
            .expect("a line within 10 s")
            .unwrap()
            .expect("a line before the end of output");
        serde_json::from_str(&line).unwrap()
    }

    /// The next message that is not a notification.
    async fn next_answer(&mut self) -> Value {
        loop {
            let message = self.next().await;
            if message.get("id").is_some() {
                return message;
            }
        }
    }
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// A modern request's params: `params` with the `_meta` every request carries, and `extra`
/// members of `_meta`.
fn modern(mut params: Value, extra: Value) -> Value {
    let mut m = meta(json!({}));
    m.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    params["_meta"] = m;
    params
}

fn initialize(id: i64) -> Value {
    request(
        id,
        "initialize",
        json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "stdio-test", "version": "1"}
        }),
    )
}

fn text_of(result: &Value) -> &str {
    result["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or("")
}

#[tokio::test]
async fn a_modern_call_writes_its_progress_before_its_response() {
    let mut client = start();
    let params = modern(
        json!({"name": "test_tool_with_progress", "arguments": {}}),
        json!({"progressToken": "p"}),
    );
    client.send(&request(1, "tools/call", params)).await;
    let mut progress = Vec::new();
    let answer = loop {
        let message = client.next().await;
        if message["method"] == "notifications/progress" {
            assert_eq!(message["params"]["progressToken"], "p");
            progress.push(message["params"]["progress"].as_f64().unwrap());
            continue;
        }
        break message;
    };
    assert_eq!(progress, [0.0, 50.0, 100.0]);
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["resultType"], "complete");
}

#[tokio::test]
async fn a_modern_message_goes_through_the_checks_of_its_body() {
    let mut client = start();
    // Check 11: no _meta.
    client.send(&request(1, "tools/list", json!({}))).await;
    let no_meta = client.next().await;
    assert_eq!(
        (no_meta["id"].clone(), no_meta["error"]["code"].clone()),
        (json!(1), json!(-32602))
    );
    // Check 10: the removed ping is no method of 2026-07-28.
    client
        .send(&request(2, "ping", modern(json!({}), json!({}))))
        .await;
    assert_eq!(client.next().await["error"]["code"], -32601);
    // Check 13: a version this server does not implement.
    let mut params = modern(json!({}), json!({}));
    params["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    client.send(&request(3, "tools/list", params)).await;
    let unsupported = client.next().await;
    assert_eq!(unsupported["error"]["code"], -32022);
    assert_eq!(
        unsupported["error"]["data"]["supported"],
        json!(["2026-07-28"])
    );
    // Check 15: params that do not read as the request.
    let bad = modern(json!({"name": 7}), json!({}));
    client.send(&request(4, "tools/call", bad)).await;
    assert_eq!(client.next().await["error"]["code"], -32602);
    // A notification is accepted, with nothing written for it; then a good request.
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    client
        .send(&request(5, "tools/list", modern(json!({}), json!({}))))
        .await;
    let tools = client.next().await;
    assert_eq!(tools["id"], 5);
    assert!(tools["result"]["tools"].as_array().unwrap().len() > 10);
}

#[tokio::test]
async fn a_legacy_session_asks_its_client_through_the_bridge() {
    let mut client = start();
    client.send(&initialize(1)).await;
    let opened = client.next().await;
    assert_eq!(opened["result"]["protocolVersion"], "2025-11-25");
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    client.send(&request(2, "tools/list", json!({}))).await;
    let tools = client.next().await;
    assert_eq!(tools["id"], 2);
    assert!(
        tools["result"].get("resultType").is_none(),
        "a 2025-11-25 result"
    );
    let call = json!({"name": "test_elicitation", "arguments": {"message": "Who?"}});
    client.send(&request(3, "tools/call", call)).await;
    let asked = client.next().await;
    assert_eq!(asked["method"], "elicitation/create");
    assert_eq!(asked["params"]["message"], "Who?");
    let content = json!({"username": "Ada", "email": "ada@example.com"});
    client
        .send(&json!({"jsonrpc": "2.0", "id": asked["id"],
            "result": {"action": "accept", "content": content}}))
        .await;
    let answer = client.next().await;
    assert_eq!(answer["id"], 3);
    assert!(text_of(&answer).contains("action=accept"), "{answer}");
    // A second initialize: the process has its session.
    client.send(&initialize(4)).await;
    let again = client.next().await;
    assert_eq!(
        (again["id"].clone(), again["error"]["code"].clone()),
        (json!(4), json!(-32600))
    );
    // The list changes come as lines, as on a session's GET stream.
    let trigger = json!({"name": "test_trigger_tool_change", "arguments": {}});
    client.send(&request(5, "tools/call", trigger)).await;
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let message = client.next().await;
        seen.push(
            message["method"]
                .as_str()
                .map_or("answer".to_owned(), str::to_owned),
        );
    }
    assert!(
        seen.contains(&"notifications/tools/list_changed".to_owned()),
        "{seen:?}"
    );
}

#[tokio::test]
async fn a_cancelled_request_is_stopped_and_not_answered() {
    let mut client = start();
    let slow = json!({"name": "slow_compute", "arguments": {"seconds": 60, "label": "x"}});
    client
        .send(&request(7, "tools/call", modern(slow, json!({}))))
        .await;
    let app = Arc::clone(&client.app);
    assert!(eventually(Duration::from_secs(5), || app.running().now() == 1).await);
    client
        .send(
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 7, "reason": "gave up"}}),
        )
        .await;
    assert!(eventually(Duration::from_secs(5), || app.running().now() == 0).await);
    // The next line is the next request's answer: nothing was written for the cancelled one.
    client
        .send(&request(8, "tools/list", modern(json!({}), json!({}))))
        .await;
    assert_eq!(client.next_answer().await["id"], 8);
}

#[tokio::test]
async fn a_request_cancelled_while_it_asks_its_client_frees_the_server_request() {
    let mut client = start();
    client.send(&initialize(1)).await;
    assert_eq!(client.next().await["id"], 1);
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    let call = json!({"name": "test_elicitation", "arguments": {"message": "Who?"}});
    client.send(&request(2, "tools/call", call)).await;
    assert_eq!(client.next().await["method"], "elicitation/create");
    let session = client
        .app
        .sessions()
        .find_any()
        .expect("the process's session");
    assert_eq!(session.waiting(), 1);
    client
        .send(
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 2}}),
        )
        .await;
    let app = Arc::clone(&client.app);
    assert!(eventually(Duration::from_secs(5), || app.running().now() == 0).await);
    assert_eq!(
        session.waiting(),
        0,
        "the cancelled request's elicitation is forgotten"
    );
    client.send(&request(3, "ping", json!({}))).await;
    assert_eq!(client.next().await["id"], 3);
}

#[tokio::test]
async fn the_end_of_input_ends_the_work_in_flight() {
    let mut client = start();
    client.send(&initialize(1)).await;
    assert_eq!(client.next().await["id"], 1);
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    let call = json!({"name": "test_elicitation", "arguments": {"message": "Who?"}});
    client.send(&request(2, "tools/call", call)).await;
    assert_eq!(client.next().await["method"], "elicitation/create");
    let app = Arc::clone(&client.app);
    assert_eq!(app.running().now(), 1);
    drop(client.input);
    let served = tokio::time::timeout(Duration::from_secs(5), client.served).await;
    assert!(matches!(served, Ok(Ok(Ok(())))), "{served:?}");
    assert!(eventually(Duration::from_secs(5), || app.running().now() == 0).await);
    assert!(
        eventually(Duration::from_secs(5), || app.sessions().count() == 0).await,
        "the session ends with its connection"
    );
    assert_eq!(client.output.next_line().await.unwrap(), None);
}

//! The bounds of `mcp_server::Config` (options in `mcp_server::options`) on a loopback port, each pushed past its limit by a short
//! flood that stops by itself: routing headers given twice, `Accept`, `Content-Type` and
//! `Host` parsed, the body limit and the three timeouts, the connection cap, cancellation when
//! the client goes away, an unread listen stream and one that falls behind the shared change
//! buffer, and the task caps and background sweep.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

use super::{assert_error, call, eventually, meta, post, serve_app, serve_app_until, start_app};
use mcp_server::Config;
use mcp_server::changes::{Change, Changes};
use mcp_server::tasks::Settings;

/// `host:port` of a server URL.
fn addr(url: &str) -> &str {
    url.trim_start_matches("http://").trim_end_matches("/mcp")
}

/// A valid `tools/call` of `test_simple_text` as raw HTTP/1.1, with `extra` header lines
/// (each `name: value`) after the standard ones.
fn simple_call(extra: &[&str]) -> String {
    raw_call("test_simple_text", json!({}), extra)
}

/// A `tools/call` of `tool` with `arguments` as raw HTTP/1.1, with `extra` header lines.
fn raw_call(tool: &str, arguments: Value, extra: &[&str]) -> String {
    let body = call(1, tool, json!({}), json!({"arguments": arguments})).to_string();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\nmcp-protocol-version: 2026-07-28\r\n\
         mcp-method: tools/call\r\nmcp-name: {tool}\r\nconnection: close\r\n",
    );
    for line in extra {
        head.push_str(line);
        head.push_str("\r\n");
    }
    format!("{head}content-length: {}\r\n\r\n{body}", body.len())
}

/// Everything the server sends back on a fresh connection after `request`, until it closes
/// the connection or `wait` has passed.
async fn exchange(url: &str, request: &[u8], wait: Duration) -> String {
    let mut stream = TcpStream::connect(addr(url)).await.unwrap();
    stream.write_all(request).await.unwrap();
    read_until_closed(&mut stream, wait).await.0
}

/// What `stream` brings until it is closed (`true`) or `wait` has passed (`false`).
async fn read_until_closed(stream: &mut TcpStream, wait: Duration) -> (String, bool) {
    let mut got = Vec::new();
    let until = Instant::now() + wait;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&got).into_owned(), true),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), false),
        }
    }
}

/// The status code of a raw HTTP response.
fn status(response: &str) -> Option<u16> {
    response.split(' ').nth(1).and_then(|s| s.parse().ok())
}

const SECOND: Duration = Duration::from_secs(1);

#[tokio::test]
async fn a_routing_header_given_twice_is_refused_with_400() {
    let (url, _app) = start_app(Settings::default(), Config::default()).await;
    let once = exchange(&url, simple_call(&[]).as_bytes(), 5 * SECOND).await;
    assert_eq!(status(&once), Some(200), "{once}");
    for twice in [
        "mcp-name: evil_tool",
        "mcp-method: tools/list",
        "mcp-protocol-version: 2026-07-28",
        "host: evil.example",
        "content-type: application/json",
    ] {
        let answer = exchange(&url, simple_call(&[twice]).as_bytes(), 5 * SECOND).await;
        assert_eq!(status(&answer), Some(400), "{twice}: {answer}");
        assert!(answer.contains("more than once"), "{answer}");
    }
    let origins = ["origin: http://localhost", "origin: http://localhost"];
    let answer = exchange(&url, simple_call(&origins).as_bytes(), 5 * SECOND).await;
    assert_eq!(status(&answer), Some(400), "{answer}");
    let params = ["mcp-param-region: a", "mcp-param-region: b"];
    let answer = exchange(&url, simple_call(&params).as_bytes(), 5 * SECOND).await;
    assert_eq!(status(&answer), Some(400), "{answer}");
}

#[tokio::test]
async fn accept_content_type_and_host_are_read_as_the_transport_says() {
    let (url, _app) = start_app(Settings::default(), Config::default()).await;
    let body = call(1, "test_simple_text", json!({}), json!({}));
    let name = Some("test_simple_text");
    assert_eq!(post(&url, &body, name, &[]).await.0, 200);
    let json_only = post(&url, &body, name, &[("accept", "application/json")]).await;
    assert_error(&json_only, 406, -32600);
    let wildcard = post(&url, &body, name, &[("accept", "*/*")]).await;
    assert_eq!(wildcard.0, 200, "{}", wildcard.1);
    let jsonx = post(&url, &body, name, &[("content-type", "application/jsonx")]).await;
    assert_error(&jsonx, 400, -32600);
    let request = simple_call(&[]).replace("host: 127.0.0.1", "host: [::1].evil.example");
    let answer = exchange(&url, request.as_bytes(), 5 * SECOND).await;
    assert_eq!(status(&answer), Some(403), "{answer}");
    let request = simple_call(&["origin: http://[::1].evil.example"]);
    let answer = exchange(&url, request.as_bytes(), 5 * SECOND).await;
    assert_eq!(status(&answer), Some(403), "{answer}");
}

#[tokio::test]
async fn the_body_limit_and_the_body_timeout_hold() {
    let limits = Config {
        max_body: 1000,
        body_read: Duration::from_millis(300),
        ..Config::default()
    };
    let (url, _app) = start_app(Settings::default(), limits).await;
    let padding = "x".repeat(2000);
    let big = call(
        1,
        "test_simple_text",
        json!({}),
        json!({"padding": padding}),
    );
    let answer = post(&url, &big, Some("test_simple_text"), &[]).await;
    assert_error(&answer, 413, -32600);
    // A body that stops coming: 408 once the body timeout has passed.
    let started = Instant::now();
    let head = simple_call(&[]);
    let cut = head.len() - 20;
    let answer = exchange(&url, &head.as_bytes()[..cut], 5 * SECOND).await;
    assert_eq!(status(&answer), Some(408), "{answer}");
    assert!(started.elapsed() < 3 * SECOND);
}

#[tokio::test]
async fn a_slow_head_and_an_idle_connection_are_closed() {
    let limits = Config {
        header_read: Duration::from_millis(300),
        ..Config::default()
    };
    let (url, _app) = start_app(Settings::default(), limits).await;
    // Half a request head, then nothing.
    let mut slow = TcpStream::connect(addr(&url)).await.unwrap();
    slow.write_all(b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n")
        .await
        .unwrap();
    let (_, closed) = read_until_closed(&mut slow, 3 * SECOND).await;
    assert!(closed, "a connection dripping its head stays open");
    // One request on a keep-alive connection, then idle.
    let mut idle = TcpStream::connect(addr(&url)).await.unwrap();
    let keep_alive = simple_call(&[]).replace("connection: close\r\n", "");
    idle.write_all(keep_alive.as_bytes()).await.unwrap();
    let (answer, closed) = read_until_closed(&mut idle, 3 * SECOND).await;
    assert_eq!(status(&answer), Some(200), "{answer}");
    assert!(closed, "an idle keep-alive connection stays open");
}

#[tokio::test]
async fn connections_beyond_the_cap_wait_until_one_closes() {
    let limits = Config {
        max_connections: 2,
        ..Config::default()
    };
    let (url, _app) = start_app(Settings::default(), limits).await;
    let first = TcpStream::connect(addr(&url)).await.unwrap();
    let _second = TcpStream::connect(addr(&url)).await.unwrap();
    let mut third = TcpStream::connect(addr(&url)).await.unwrap();
    third.write_all(simple_call(&[]).as_bytes()).await.unwrap();
    let (nothing, _) = read_until_closed(&mut third, Duration::from_millis(500)).await;
    assert_eq!(nothing, "", "served beyond the cap");
    drop(first);
    let (answer, _) = read_until_closed(&mut third, 5 * SECOND).await;
    assert_eq!(status(&answer), Some(200), "{answer}");
}

#[tokio::test]
async fn closing_the_connection_cancels_the_call() {
    let (url, app) = start_app(Settings::default(), Config::default()).await;
    let request = raw_call("slow_compute", json!({"seconds": 60}), &[]);
    let mut client = TcpStream::connect(addr(&url)).await.unwrap();
    client.write_all(request.as_bytes()).await.unwrap();
    eventually(5 * SECOND, || app.running().now() > 0).await;
    assert_eq!(app.running().now(), 1, "the call never started");
    drop(client);
    let stopped = eventually(5 * SECOND, || app.running().now() == 0).await;
    assert!(stopped, "the call outlived its connection");
}

/// A `subscriptions/listen` request for tool-list changes as raw HTTP/1.1, id `"sub"`.
fn listen_request() -> String {
    let body = json!({"jsonrpc": "2.0", "id": "sub", "method": "subscriptions/listen",
        "params": {"notifications": {"toolsListChanged": true}, "_meta": meta(json!({}))}})
    .to_string();
    format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\nmcp-protocol-version: 2026-07-28\r\n\
         mcp-method: subscriptions/listen\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Waits (at most 5 s) until `app` has a listen stream following its changes.
async fn until_listening(app: &crate::App) {
    eventually(5 * SECOND, || app.server.changes.feeds() > 0).await;
}

/// The JSON-RPC messages of an SSE stream's `data:` lines, and how many of them are tool-list
/// changes.
fn listen_events(text: &str) -> (Vec<Value>, usize) {
    let events: Vec<Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str(d.trim()).ok())
        .collect();
    let changes = events
        .iter()
        .filter(|e| e["method"] == "notifications/tools/list_changed")
        .count();
    (events, changes)
}
#[tokio::test]
async fn an_unread_listen_stream_ends_with_an_error_instead_of_growing() {
    let limits = Config {
        listen_queue: 16,
        ..Config::default()
    };
    // Small kernel buffers on both sides, set (so not grown by the kernel's autotuning) and
    // read back: what the stream delivers beyond the queue is what they can hold.
    let listening = tokio::net::TcpSocket::new_v4().unwrap();
    listening.set_send_buffer_size(4096).unwrap();
    listening.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let server_sends = listening.send_buffer_size().unwrap() as usize;
    let (url, app) = serve_app(listening.listen(16).unwrap(), Settings::default(), limits);
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let client_receives = socket.recv_buffer_size().unwrap() as usize;
    let mut stream = socket.connect(addr(&url).parse().unwrap()).await.unwrap();
    stream.write_all(listen_request().as_bytes()).await.unwrap();
    until_listening(&app).await;
    // Far more changes than the socket buffers and the queue hold, in batches the forwarding
    // task keeps up with (so that the queue, not the change buffer, is what fills).
    const CHANGES: usize = 60_000;
    for _ in 0..CHANGES / 100 {
        for _ in 0..100 {
            app.server.changes.send(Change::Tools);
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let (text, closed) = read_until_closed(&mut stream, 20 * SECOND).await;
    assert!(closed, "the stream did not end");
    let (events, delivered) = listen_events(&text);
    // The queue's 16, what the two kernel buffers hold (in events of the smallest size that
    // came), and one event each that the server's writer and the forwarding task hold.
    let smallest = text
        .split("\n\n")
        .filter(|event| event.contains("notifications/tools/list_changed"))
        .map(str::len)
        .min()
        .unwrap();
    let bound = 16 + (server_sends + client_receives).div_ceil(smallest) + 2;
    assert!(
        delivered <= bound,
        "{delivered} changes delivered, at most {bound} expected ({server_sends} + \
         {client_receives} bytes of kernel buffers, events of {smallest} bytes or more)"
    );
    let last = events.last().unwrap();
    assert_eq!(last["id"], "sub", "{last}");
    assert_eq!(last["error"]["code"], -32000, "{last}");
}

#[tokio::test]
async fn a_listen_stream_behind_the_change_buffer_ends_with_an_error_instead_of_skipping() {
    let (url, app) = start_app(Settings::default(), Config::default()).await;
    let mut stream = TcpStream::connect(addr(&url)).await.unwrap();
    stream.write_all(listen_request().as_bytes()).await.unwrap();
    until_listening(&app).await;
    // More changes than the shared buffer keeps, sent without yielding: on this test's
    // single-threaded runtime the stream's forwarding task reads none of them in between, so
    // it finds the oldest gone (before: it skipped them and went on).
    const MORE: usize = 10;
    for _ in 0..Changes::DEFAULT_BUFFER + MORE {
        app.server.changes.send(Change::Tools);
    }
    let (text, closed) = read_until_closed(&mut stream, 5 * SECOND).await;
    assert!(closed, "the stream did not end: {text}");
    let (events, delivered) = listen_events(&text);
    assert_eq!(delivered, 0, "changes were delivered after a gap: {text}");
    let last = events.last().unwrap();
    assert_eq!(last["id"], "sub", "{last}");
    assert_eq!(last["error"]["code"], -32000, "{last}");
    let message = last["error"]["message"].as_str().unwrap();
    assert!(message.contains(&format!("{MORE} or more")), "{message}");
}

/// A `tools/call` of `slow_compute` as a task, for `principal`.
async fn create_task(url: &str, principal: &str) -> (u16, Value) {
    let caps = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    let body = call(
        1,
        "slow_compute",
        caps,
        json!({"arguments": {"seconds": 60}}),
    );
    let bearer = format!("Bearer {principal}");
    post(
        url,
        &body,
        Some("slow_compute"),
        &[("authorization", &bearer)],
    )
    .await
}

#[tokio::test]
async fn tasks_are_capped_per_principal_and_in_all() {
    let settings = Settings {
        max_per_principal: 3,
        max_total: 5,
        ..Settings::default()
    };
    let (url, app) = start_app(settings, Config::default()).await;
    for _ in 0..3 {
        let (status, r) = create_task(&url, "a").await;
        assert!(status == 200 && r["result"]["taskId"].is_string(), "{r}");
    }
    let refused = create_task(&url, "a").await;
    assert_error(&refused, 429, -32000);
    for _ in 0..2 {
        assert_eq!(create_task(&url, "b").await.0, 200);
    }
    let full = create_task(&url, "c").await;
    assert_error(&full, 429, -32000);
    assert_eq!(app.server.tasks.store().len(), 5);
}

#[tokio::test]
async fn expired_tasks_are_swept_in_the_background_and_free_their_slots() {
    let settings = Settings {
        ttl: Duration::from_millis(200),
        max_per_principal: 1,
        sweep_every: Duration::from_millis(50),
        ..Settings::default()
    };
    let (url, app) = start_app(settings, Config::default()).await;
    assert_eq!(create_task(&url, "a").await.0, 200);
    // Gone without any request to sweep it (an expired task counts until it is swept).
    assert!(eventually(10 * SECOND, || app.server.tasks.store().is_empty()).await);
    assert_eq!(create_task(&url, "a").await.0, 200, "the slot came back");
}

/// The server as `main` runs it, with an accept loop that stops when the returned sender is
/// used: its URL, its state, the sender, and the loop's task (done once the loop has returned).
async fn start_stoppable(
    limits: Config,
) -> (
    String,
    std::sync::Arc<crate::App>,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (trigger, shutdown) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async move {
        let _ = shutdown.await;
    };
    let (url, app, serving) = serve_app_until(listener, Settings::default(), limits, shutdown);
    (url, app, trigger, serving)
}

#[tokio::test]
async fn a_shutdown_waits_for_a_response_in_progress_within_the_grace() {
    let limits = Config {
        shutdown_grace: 30 * SECOND,
        ..Config::default()
    };
    let (url, app, trigger, serving) = start_stoppable(limits).await;
    let request = raw_call("slow_compute", json!({"seconds": 1}), &[]);
    let mut client = TcpStream::connect(addr(&url)).await.unwrap();
    client.write_all(request.as_bytes()).await.unwrap();
    assert!(eventually(5 * SECOND, || app.running().now() > 0).await);
    let _ = trigger.send(());
    // The call in progress is answered in full, then the loop returns, long before the grace.
    let (answer, closed) = read_until_closed(&mut client, 20 * SECOND).await;
    assert!(closed && status(&answer) == Some(200), "{answer}");
    assert!(answer.contains("\"result\""), "{answer}");
    tokio::time::timeout(20 * SECOND, serving)
        .await
        .expect("the loop returned once its last connection closed")
        .unwrap();
    // No new connection is accepted after the shutdown.
    assert!(TcpStream::connect(addr(&url)).await.is_err());
}

#[tokio::test]
async fn a_shutdown_stops_waiting_for_connections_after_the_grace() {
    let grace = Duration::from_millis(300);
    let limits = Config {
        shutdown_grace: grace,
        ..Config::default()
    };
    let (url, app, trigger, serving) = start_stoppable(limits).await;
    let request = raw_call("slow_compute", json!({"seconds": 60}), &[]);
    let mut client = TcpStream::connect(addr(&url)).await.unwrap();
    client.write_all(request.as_bytes()).await.unwrap();
    assert!(eventually(5 * SECOND, || app.running().now() > 0).await);
    let stopping = Instant::now();
    let _ = trigger.send(());
    tokio::time::timeout(20 * SECOND, serving)
        .await
        .expect("the loop returned after the grace, not after the call")
        .unwrap();
    // It waited the grace for the call, and not the call's minute.
    assert!(stopping.elapsed() >= grace, "{:?}", stopping.elapsed());
    assert!(stopping.elapsed() < 30 * SECOND, "{:?}", stopping.elapsed());
}

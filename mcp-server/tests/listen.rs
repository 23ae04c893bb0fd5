//! `subscriptions/listen` served by `mcp_server::Served` from its `Changes` (no listen code
//! of the server's own): a stream is told what its filter asks for, a client that does not
//! read is ended with an error, and a server without changes does not serve listen.

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use http_body_util::BodyExt as _;
use mcp_server::changes::{Change, Changes};
use mcp_server::{Config, Ctx, Served};
use mcp_tests::eras as mcp;
use serde_json::{Value, json};
use tower::ServiceExt as _;

mod support;
use support::modern;

mcp_server::bind!(Mcp = mcp, legacy = mcp::v2025_11_25);
mcp_server::bind_server!(Mcp = mcp);

/// Implements nothing: what it serves, `Served` serves.
struct Quiet;

impl mcp::Server<Ctx<Mcp>> for Quiet {}

/// Offers tool and prompt list changes and resource subscriptions.
fn capabilities() -> mcp::ServerCapabilities {
    mcp::ServerCapabilities::new()
        .with_tools(mcp::ServerCapabilitiesTools::new().with_list_changed(true))
        .with_prompts(mcp::ServerCapabilitiesPrompts::new().with_list_changed(true))
        .with_resources(mcp::ServerCapabilitiesResources::new().with_subscribe(true))
}

/// The router of a `Quiet` server with `changes` (if any), at most `queue` notifications
/// waiting for a listen stream.
fn app(changes: Option<&Arc<Changes>>, queue: usize) -> axum::Router {
    let info = mcp::Implementation::new("quiet", "1.0.0");
    let mut served = Served::<Mcp, _>::new(Quiet, info)
        .capabilities(capabilities())
        .config(Config::default().listen_queue(queue));
    if let Some(changes) = changes {
        served = served.changes(Arc::clone(changes));
    }
    mcp_server::served::router(Arc::new(served)).unwrap()
}

/// A `subscriptions/listen` of id `id` asking for `notifications` (a `SubscriptionFilter`).
fn listen(id: u64, notifications: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
        "params": {"notifications": notifications,
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}}}})
}

/// An open response: its status and its SSE body, read message by message.
struct Stream {
    status: StatusCode,
    body: axum::body::Body,
    pending: String,
}

impl Stream {
    async fn open(app: &axum::Router, request: &Value) -> Stream {
        let response = app.clone().oneshot(modern(request, None)).await.unwrap();
        Stream {
            status: response.status(),
            body: response.into_body(),
            pending: String::new(),
        }
    }

    /// The next message (the `data:` of the next SSE event, or a whole JSON body), or `None`
    /// when the body ends.
    async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let event: String = self.pending.drain(..end + 2).collect();
                let data: String = event
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim)
                    .collect();
                if data.is_empty() {
                    continue;
                }
                return Some(serde_json::from_str(&data).unwrap());
            }
            let frame = tokio::time::timeout(Duration::from_secs(5), self.body.frame())
                .await
                .expect("a message within 5 s");
            match frame {
                // A body that is no SSE stream (a refusal) is one JSON message.
                None if self.pending.trim().is_empty() => return None,
                None => {
                    let whole = std::mem::take(&mut self.pending);
                    return Some(serde_json::from_str(whole.trim()).unwrap());
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

/// Waits until `changes` has a feed more than `before` (the stream opened subscribed).
async fn feed_opened(changes: &Changes, before: usize) {
    for _ in 0..500 {
        if changes.feeds() > before {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no listen stream subscribed to the changes");
}

#[tokio::test]
async fn a_listen_stream_is_told_the_list_change_it_asked_for() {
    let changes = Arc::new(Changes::default());
    let app = app(Some(&changes), 8);
    let before = changes.feeds();
    let asked = json!({"toolsListChanged": true, "resourcesListChanged": true});
    let mut stream = Stream::open(&app, &listen(7, asked)).await;
    assert_eq!(stream.status, StatusCode::OK);
    feed_opened(&changes, before).await;

    let ack = stream.next().await.unwrap();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7,
        "{ack}"
    );
    // Resource list changes are not offered (no `resources.listChanged`): not honoured.
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true})
    );

    changes.send(Change::Prompts);
    changes.send(Change::Resources);
    changes.send(Change::Tools);
    let told = stream.next().await.unwrap();
    assert_eq!(told["method"], "notifications/tools/list_changed", "{told}");
    assert_eq!(
        told["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );

    // The server stops: the stream ends with the listen request's result, naming the server.
    changes.stop();
    let done = stream.next().await.unwrap();
    assert_eq!(done["id"], 7, "{done}");
    let meta = &done["result"]["_meta"];
    assert_eq!(meta["io.modelcontextprotocol/subscriptionId"], 7, "{done}");
    assert_eq!(
        meta["io.modelcontextprotocol/serverInfo"]["name"], "quiet",
        "{done}"
    );
    assert_eq!(stream.next().await, None);
}

#[tokio::test]
async fn a_resource_subscription_is_told_of_its_uri_only() {
    let changes = Arc::new(Changes::default());
    let app = app(Some(&changes), 8);
    let before = changes.feeds();
    let asked = json!({"resourceSubscriptions": ["file:///a", "file:///a"]});
    let mut stream = Stream::open(&app, &listen(3, asked)).await;
    feed_opened(&changes, before).await;
    let ack = stream.next().await.unwrap();
    assert_eq!(
        ack["params"]["notifications"],
        json!({"resourceSubscriptions": ["file:///a"]})
    );

    changes.send(Change::Resource("file:///b".into()));
    changes.send(Change::Tools);
    changes.send(Change::Resource("file:///a".into()));
    let told = stream.next().await.unwrap();
    assert_eq!(told["method"], "notifications/resources/updated", "{told}");
    assert_eq!(told["params"]["uri"], "file:///a");
    assert_eq!(
        told["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        3
    );
}

#[tokio::test]
async fn a_client_that_does_not_read_is_ended_after_the_queue() {
    const QUEUE: usize = 3;
    let changes = Arc::new(Changes::default());
    let app = app(Some(&changes), QUEUE);
    let before = changes.feeds();
    let mut stream = Stream::open(&app, &listen(5, json!({"toolsListChanged": true}))).await;
    feed_opened(&changes, before).await;
    // Nothing is read while ten changes come.
    for _ in 0..10 {
        changes.send(Change::Tools);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;

    let mut messages = Vec::new();
    while let Some(message) = stream.next().await {
        messages.push(message);
    }
    let (last, queued) = messages.split_last().expect("messages");
    assert_eq!(last["id"], 5, "{last}");
    assert_eq!(last["error"]["code"], -32000, "{last}");
    let message = last["error"]["message"].as_str().unwrap();
    assert!(message.contains("read too slowly"), "{message}");
    // The acknowledgement and the changes queued before it: no more than the queue holds.
    assert!(queued.len() <= QUEUE, "{messages:?}");
    assert_eq!(
        queued[0]["method"],
        "notifications/subscriptions/acknowledged"
    );
    assert!(
        queued[1..]
            .iter()
            .all(|m| m["method"] == "notifications/tools/list_changed")
    );
}

#[tokio::test]
async fn without_changes_listen_is_not_found() {
    let mut stream =
        Stream::open(&app(None, 8), &listen(9, json!({"toolsListChanged": true}))).await;
    let refused = stream.next().await.unwrap_or(Value::Null);
    assert_eq!(refused["id"], 9, "{refused}");
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
}

#[tokio::test]
async fn with_changes_the_listen_queue_option_starts_and_shutdown_stops_the_changes() {
    let changes = Arc::new(Changes::default());
    let served = || {
        let info = mcp::Implementation::new("quiet", "1.0.0");
        Served::<Mcp, _>::new(Quiet, info).capabilities(capabilities())
    };
    let line = ["--listen", "127.0.0.1:0", "--listen-queue", "4"].map(str::to_owned);
    let options = || mcp_server::options::Options::parse(line.clone()).unwrap();

    // Without changes the option would be ignored: refused.
    let start = mcp_server::served::start(served(), options(), std::future::pending());
    let refused = start.await.err().expect("refused");
    assert!(
        refused.to_string().starts_with("--listen-queue:"),
        "{refused}"
    );

    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async move {
        let _ = stopped.await;
    };
    let with_changes = served().changes(Arc::clone(&changes));
    let started = mcp_server::served::start(with_changes, options(), shutdown)
        .await
        .expect("started");
    let serving = tokio::spawn(started.serving);
    let mut feed = changes.subscribe();
    stop.send(()).unwrap();
    let next = tokio::time::timeout(Duration::from_secs(5), feed.next()).await;
    assert_eq!(
        next.expect("stopped within 5 s"),
        mcp_server::changes::Next::Stopped
    );
    serving.await.unwrap().unwrap();
}

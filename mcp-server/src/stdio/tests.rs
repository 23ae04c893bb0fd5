//! The stdio loop over in-memory pipes, with a handler of methods made for the tests:
//! `echo` answers at once, `notes` sends two notifications first, `wait` answers when the
//! test releases it (and reports when its work is dropped), a notification is counted.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, DuplexStream, Lines};
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

use super::*;

/// What the tests watch of their handler: notifications seen, work dropped, releases.
struct Watch {
    notifications: AtomicUsize,
    dropped: AtomicUsize,
    release: Semaphore,
}

impl Default for Watch {
    fn default() -> Self {
        Watch {
            notifications: AtomicUsize::new(0),
            dropped: AtomicUsize::new(0),
            release: Semaphore::new(0),
        }
    }
}

/// Counts a `wait` handler's work as dropped when it ends, answered or aborted.
struct Dropped(Arc<Watch>);

impl Drop for Dropped {
    fn drop(&mut self) {
        self.0.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

fn response(id: &Value, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// The method of the notification that cancels a request, in these tests.
const CANCELLED: &str = "notifications/cancelled";

/// A closure handler (the blanket implementation of [`Handler`]) whose requests
/// [`CANCELLED`] cancels.
struct Cancellable<H>(H);

impl<H: Handler> Handler for Cancellable<H> {
    fn handle(
        &self,
        message: Message,
        out: Outgoing,
    ) -> impl std::future::Future<Output = Option<String>> + Send {
        self.0.handle(message, out)
    }

    fn cancel_method(&self) -> Option<&'static str> {
        Some(CANCELLED)
    }
}

/// The test handler.
fn handler(watch: Arc<Watch>) -> impl Handler {
    Cancellable(move |message: Message, out: Outgoing| {
        let watch = Arc::clone(&watch);
        async move {
            let value: Value = serde_json::from_slice(&message.line).ok()?;
            if message.kind != Kind::Request {
                watch.notifications.fetch_add(1, Ordering::SeqCst);
                return None;
            }
            let id = value["id"].clone();
            match value["method"].as_str()? {
                "notes" => {
                    for n in 0..2 {
                        let note = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"n": n}});
                        out.send(note.to_string()).await.ok()?;
                    }
                }
                "wait" => {
                    let _dropped = Dropped(Arc::clone(&watch));
                    watch.release.acquire().await.ok()?.forget();
                }
                _ => {}
            }
            Some(response(&id, json!({"method": value["method"]})))
        }
    })
}

struct Client {
    input: DuplexStream,
    output: Lines<BufReader<DuplexStream>>,
    served: JoinHandle<io::Result<()>>,
    watch: Arc<Watch>,
}

fn start(config: Config) -> Client {
    let (input, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, output) = tokio::io::duplex(1 << 16);
    let watch = Arc::new(Watch::default());
    let handler = handler(Arc::clone(&watch));
    let served =
        tokio::spawn(async move { serve(server_input, server_output, handler, &config).await });
    Client {
        input,
        output: BufReader::new(output).lines(),
        served,
        watch,
    }
}

impl Client {
    async fn send(&mut self, line: &str) {
        self.input.write_all(line.as_bytes()).await.unwrap();
        self.input.write_all(b"\n").await.unwrap();
    }

    async fn request(&mut self, id: i64, method: &str) {
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method}).to_string();
        self.send(&line).await;
    }

    async fn cancel(&mut self, id: i64) {
        let line = json!({"jsonrpc": "2.0", "method": CANCELLED, "params": {"requestId": id}});
        self.send(&line.to_string()).await;
    }

    /// The next line the server wrote, as JSON.
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), self.output.next_line())
            .await
            .expect("a line within 5 s")
            .unwrap()
            .expect("a line before the end");
        serde_json::from_str(&line).unwrap()
    }

    /// Waits until `n` `wait` handlers' work has been dropped.
    async fn dropped(&self, n: usize) {
        for _ in 0..500 {
            if self.watch.dropped.load(Ordering::SeqCst) == n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("dropped {:?}", self.watch.dropped);
    }
}

#[tokio::test]
async fn a_request_is_answered_on_a_line() {
    let mut client = start(Config::default());
    client.request(1, "echo").await;
    let answer = client.next().await;
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["method"], "echo");
    // A notification goes to the handler; nothing is written for it.
    client
        .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    client.send("   ").await;
    client.request(2, "echo").await;
    assert_eq!(client.next().await["id"], 2);
    assert_eq!(client.watch.notifications.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn notifications_come_before_the_response() {
    let mut client = start(Config::default());
    client.request(7, "notes").await;
    assert_eq!(client.next().await["params"]["n"], 0);
    assert_eq!(client.next().await["params"]["n"], 1);
    assert_eq!(client.next().await["id"], 7);
}

#[tokio::test]
async fn a_response_after_notifications_waits_the_gap_and_no_other_does() {
    let gap = Duration::from_millis(300);
    let mut client = start(Config::default().response_gap(gap));
    let sent = std::time::Instant::now();
    client.request(1, "notes").await;
    client.request(2, "echo").await;
    let mut order = Vec::new();
    for _ in 0..4 {
        let message = client.next().await;
        order.push(message["id"].as_i64().unwrap_or(0));
    }
    // The notifications (no id) and the answer of the request that sent none, in either
    // order, then the answer of the one that did, after the gap.
    assert_eq!(order.iter().filter(|id| **id == 0).count(), 2, "{order:?}");
    assert!(order.contains(&2), "{order:?}");
    assert_eq!(order.last(), Some(&1), "{order:?}");
    assert!(sent.elapsed() >= gap);
}

#[tokio::test]
async fn an_overlong_line_is_refused_and_skipped() {
    let mut client = start(Config::default().max_body(64));
    let long = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"echo","params":{{"x":"{}"}}}}"#,
        "a".repeat(100_000)
    );
    client.send(&long).await;
    let refused = client.next().await;
    assert_eq!(refused["id"], Value::Null);
    assert_eq!(refused["error"]["code"], INVALID_REQUEST);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("longer than 64 bytes")
    );
    // The next line is read as its own message.
    client.request(2, "echo").await;
    assert_eq!(client.next().await["id"], 2);
}

#[tokio::test]
async fn unreadable_lines_are_answered_with_a_null_id() {
    let mut client = start(Config::default());
    client.send(r#"{"jsonrpc":"2.0","id":1,"#).await;
    let parse = client.next().await;
    assert_eq!(parse["id"], Value::Null);
    assert_eq!(parse["error"]["code"], PARSE_ERROR);
    client
        .send(r#"[{"jsonrpc":"2.0","id":1,"method":"echo"}]"#)
        .await;
    let batch = client.next().await;
    assert_eq!(batch["id"], Value::Null);
    assert_eq!(batch["error"]["code"], INVALID_REQUEST);
}

#[tokio::test]
async fn a_cancelled_request_stops_and_is_not_answered() {
    let mut client = start(Config::default());
    client.request(1, "wait").await;
    client.request(2, "echo").await;
    assert_eq!(client.next().await["id"], 2);
    client.cancel(1).await;
    client.dropped(1).await;
    // A release now finds no handler waiting: the next line is the next request's answer.
    client.watch.release.add_permits(1);
    client.request(3, "echo").await;
    assert_eq!(client.next().await["id"], 3);
}

#[tokio::test]
async fn end_of_input_ends_the_work_in_flight() {
    let mut client = start(Config::default());
    client.request(1, "wait").await;
    client.request(2, "echo").await;
    assert_eq!(client.next().await["id"], 2);
    drop(client.input);
    let served = tokio::time::timeout(Duration::from_secs(5), client.served).await;
    assert!(matches!(served, Ok(Ok(Ok(())))), "{served:?}");
    assert_eq!(client.watch.dropped.load(Ordering::SeqCst), 1);
    assert_eq!(client.output.next_line().await.unwrap(), None);
}

#[tokio::test]
async fn requests_beyond_the_bound_are_refused_until_one_ends() {
    let mut client = start(Config::default().max_in_flight(2));
    client.request(1, "wait").await;
    client.request(2, "wait").await;
    client.request(3, "wait").await;
    let refused = client.next().await;
    assert_eq!(refused["id"], 3);
    assert_eq!(refused["error"]["code"], -32000);
    // The same id again, while it is in flight: refused.
    client.request(2, "echo").await;
    let duplicate = client.next().await;
    assert_eq!(duplicate["id"], 2);
    assert_eq!(duplicate["error"]["code"], INVALID_REQUEST);
    // One answered: a slot is free again.
    client.watch.release.add_permits(1);
    let first = client.next().await;
    assert!(first["id"] == 1 || first["id"] == 2, "{first}");
    client.dropped(1).await;
    client.request(4, "echo").await;
    assert_eq!(client.next().await["id"], 4);
}

#[tokio::test]
async fn a_cancelled_request_stays_listed_until_its_task_has_ended() {
    let in_flight = InFlight::default();
    let (started, mut running) = mpsc::channel::<()>(1);
    let guard = Listed {
        in_flight: in_flight.clone(),
        key: "1".to_owned(),
    };
    let task = tokio::spawn(async move {
        let _listed = guard;
        let _started = started;
        std::future::pending::<()>().await
    });
    lock(&in_flight.0).insert("1".to_owned(), task.abort_handle());
    assert!(in_flight.cancel("1"));
    // Aborted, not yet dropped (nothing has run since: a current-thread runtime).
    assert_eq!(in_flight.len(), 1, "listed until its task has ended");
    // Its task ends (the channel's sender is dropped with it), and only then is it unlisted.
    assert_eq!(running.recv().await, None);
    assert!(task.await.unwrap_err().is_cancelled());
    assert_eq!(in_flight.len(), 0);
    assert!(!in_flight.cancel("1"));
}

#[tokio::test]
async fn lines_are_read_within_their_bound() {
    let input: &[u8] = b"{\"a\":1}\r\n\n0123456789abcdef\nlast";
    let mut reader = BufReader::with_capacity(4, input);
    let mut lines = Vec::new();
    loop {
        match read_line(&mut reader, 8).await.unwrap() {
            Line::Eof => break,
            line => lines.push(line),
        }
    }
    assert_eq!(
        lines,
        [
            Line::Text(b"{\"a\":1}".to_vec()),
            Line::Text(Vec::new()),
            Line::TooLong,
            Line::Text(b"last".to_vec()),
        ]
    );
}

#[test]
fn a_line_out_has_no_newline_inside() {
    assert_eq!(one_line("{\"a\":\n1}".to_owned()), "{\"a\": 1}\n");
}

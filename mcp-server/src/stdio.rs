//! The stdio transport: newline-delimited JSON-RPC over a byte stream (the process's standard
//! input and output by default, or any `AsyncRead`/`AsyncWrite` pair), schema-free.
//!
//! [`serve`] reads one message per line and hands it to a [`Handler`]:
//!
//! - a line is bounded by [`Config::max_body`] bytes: a longer one is answered with an
//!   `INVALID_REQUEST` error (its id unknown, so `null`) and skipped as it is read, never
//!   buffered whole; blank lines are skipped;
//! - a line that is not JSON is answered with `PARSE_ERROR`, one that is not a JSON-RPC
//!   message (an array, a number) with `INVALID_REQUEST`, both with a `null` id;
//! - a request runs in a task of its own, at most [`Config::max_in_flight`] at once (one more,
//!   or one whose id is already in flight, is answered with an error at once); its handler
//!   sends notifications (and server-to-client requests) through its [`Outgoing`] and returns
//!   its final response, written after them;
//! - `notifications/cancelled` aborts the request it names (its handler's future is dropped,
//!   and nothing more is written for it); other notifications, and responses, are handed to the
//!   handler in order, on the reading task (a handler answers them promptly);
//! - every line out is written by one writer task, whole, so messages never interleave; the
//!   response of a request that sent messages before it is written once they are, after
//!   [`Config::response_gap`];
//! - at end of input all work in flight is aborted, what is queued is written (for at most
//!   [`Config::shutdown_grace`]) and [`serve`] returns.
//!
//! Nothing is written to the output but JSON-RPC messages: logs belong on stderr.
//!
//! A [`Service`](crate::Service) is served with [`Endpoint`] (the checks of a modern message,
//! and a hook for the process's legacy session); a handler is otherwise any `Fn(Message, Outgoing) -> impl Future<Output = Option<String>>` (or a type
//! that implements [`Handler`]); [`serve_stdio`] serves it on the process's stdin and stdout:
//!
//! ```
//! use mcp_server::stdio::{Kind, Message, Outgoing};
//! use serde_json::{Value, json};
//! use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> std::io::Result<()> {
//! // Answers every request with its method, after a notification.
//! let echo = |message: Message, out: Outgoing| async move {
//!     let request: Value = serde_json::from_slice(&message.line).ok()?;
//!     if message.kind != Kind::Request {
//!         return None;
//!     }
//!     let note = json!({"jsonrpc": "2.0", "method": "notifications/message"});
//!     out.send(note.to_string()).await.ok()?;
//!     Some(json!({"jsonrpc": "2.0", "id": request["id"], "result": {}}).to_string())
//! };
//! let (mut client, server_input) = tokio::io::duplex(4096);
//! let (server_output, replies) = tokio::io::duplex(4096);
//! let config = mcp_server::Config::default();
//! let server = tokio::spawn(async move {
//!     mcp_server::stdio::serve(server_input, server_output, echo, &config).await
//! });
//! client.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}\n").await?;
//! let mut lines = BufReader::new(replies).lines();
//! assert!(lines.next_line().await?.unwrap().contains("notifications/message"));
//! assert_eq!(lines.next_line().await?.unwrap(), r#"{"id":1,"jsonrpc":"2.0","result":{}}"#);
//! drop(client); // the end of input: the loop returns
//! server.await??;
//! # Ok(())
//! # }
//! ```

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use mcp_runtime::RpcError;
use mcp_runtime::error_code::{INVALID_REQUEST, PARSE_ERROR};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::AbortHandle;

use crate::Config;
use crate::probe::{self, Unreadable};

mod endpoint;
pub use endpoint::{Answering, Endpoint, Legacy, PRINCIPAL, forward};

/// Lines queued for the writer: a handler that sends faster than the output is read waits.
const OUT_QUEUE: usize = 64;

/// What a message is, as the loop read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A request (a `method` and a non-null `id`): its handler runs in a task of its own.
    Request,
    /// A notification (a `method`, no `id`).
    Notification,
    /// Anything else: a response to a server-to-client request (or a message the handler
    /// refuses itself).
    Other,
}

/// One message read from the input: its line, without the newline.
#[derive(Debug, Clone)]
pub struct Message {
    /// The line as read (one JSON object).
    pub line: Vec<u8>,
    /// What it is.
    pub kind: Kind,
}

/// What the writer is asked for.
#[derive(Debug)]
enum Out {
    /// A message to write as a line.
    Line(String),
    /// Flush what came before, then say so.
    Flushed(oneshot::Sender<()>),
}

/// The sink of one connection's output: each line sent is written whole, in order.
#[derive(Debug, Clone)]
pub struct Outgoing {
    queue: mpsc::Sender<Out>,
    /// Whether anything was sent through this sink (or a clone of it): one per request.
    sent: Arc<AtomicBool>,
}

/// The output is closed: nothing more can be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Closed;

impl Outgoing {
    fn new(queue: mpsc::Sender<Out>) -> Self {
        Outgoing {
            queue,
            sent: Arc::default(),
        }
    }

    /// Queues `message` (one JSON-RPC message as JSON text) to be written as a line; waits
    /// while the writer's queue is full.
    pub async fn send(&self, message: String) -> Result<(), Closed> {
        self.sent.store(true, Ordering::Relaxed);
        self.queue
            .send(Out::Line(message))
            .await
            .map_err(|_| Closed)
    }

    /// The same output, with a record of its own of what is sent (for one request).
    fn for_request(&self) -> Self {
        Outgoing::new(self.queue.clone())
    }

    /// Whether anything was sent through this sink.
    fn has_sent(&self) -> bool {
        self.sent.load(Ordering::Relaxed)
    }

    /// Waits until what was queued before has been written and flushed.
    async fn flushed(&self) -> Result<(), Closed> {
        let (done, written) = oneshot::channel();
        self.queue
            .send(Out::Flushed(done))
            .await
            .map_err(|_| Closed)?;
        written.await.map_err(|_| Closed)
    }

    /// Waits, before a request's response, until what the request sent before it is written
    /// and `gap` has passed (see [`Config::response_gap`]); at once if it sent nothing.
    async fn settle(&self, gap: Duration) {
        if self.has_sent() && !gap.is_zero() && self.flushed().await.is_ok() {
            tokio::time::sleep(gap).await;
        }
    }
}

/// What serves the messages of a connection.
pub trait Handler: Send + Sync + 'static {
    /// Handles `message`; notifications and server-to-client requests go out through `out`.
    /// Returns the final response as JSON text, or nothing (a notification, a response).
    fn handle(
        &self,
        message: Message,
        out: Outgoing,
    ) -> impl Future<Output = Option<String>> + Send;

    /// The method of the notification that cancels a request in flight (the generated
    /// `CancelledNotification`'s), if the handler's requests may be cancelled; by default none.
    fn cancel_method(&self) -> Option<&'static str> {
        None
    }
}

impl<F, Fut> Handler for F
where
    F: Fn(Message, Outgoing) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Option<String>> + Send,
{
    fn handle(
        &self,
        message: Message,
        out: Outgoing,
    ) -> impl Future<Output = Option<String>> + Send {
        self(message, out)
    }
}

/// A line read from the input.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A line within the bound (without its newline, or a `\r` before it).
    Text(Vec<u8>),
    /// A line longer than the bound, skipped.
    TooLong,
    /// End of input.
    Eof,
}

/// Reads the next line of `input` into a buffer of at most `max` bytes; the rest of a longer
/// line is read and dropped as it comes.
async fn read_line<R: AsyncBufRead + Unpin>(input: &mut R, max: usize) -> io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::Eof,
                (false, false) if line.len() > max => Line::TooLong,
                (false, false) => Line::Text(line),
            });
        }
        let (chunk, ends) = match available.iter().position(|b| *b == b'\n') {
            Some(at) => (&available[..at], true),
            None => (available, false),
        };
        too_long = too_long || line.len() + chunk.len() > max.saturating_add(1);
        if !too_long {
            line.extend_from_slice(chunk);
        }
        let used = chunk.len() + usize::from(ends);
        input.consume(used);
        if ends {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(if too_long || line.len() > max {
                Line::TooLong
            } else {
                Line::Text(line)
            });
        }
    }
}

/// An error response written by the loop itself.
#[derive(Serialize)]
struct ErrorResponse<'a> {
    jsonrpc: &'static str,
    id: &'a Value,
    error: ErrorObject<'a>,
}

#[derive(Serialize)]
struct ErrorObject<'a> {
    code: i64,
    message: &'a str,
}

/// The error response to request `id` (`null` when unknown) for `error`, as JSON text.
fn error_text(id: &Value, error: &RpcError) -> String {
    let response = ErrorResponse {
        jsonrpc: "2.0",
        id,
        error: ErrorObject {
            code: error.code,
            message: &error.message,
        },
    };
    serde_json::to_string(&response).unwrap_or_default()
}

/// `params` of `notifications/cancelled`: the id of the request to stop.
#[derive(Deserialize)]
struct CancelledParams {
    #[serde(rename = "requestId")]
    request_id: Value,
}

/// How the loop reads a line.
enum Read {
    /// Answered with this error at once (unreadable).
    Refuse(String),
    /// A request with this id.
    Request(Value),
    /// `notifications/cancelled` naming this request (if it names one).
    Cancel(Option<Value>),
    /// Another notification.
    Notification,
    /// Anything else (a response).
    Other,
}

/// What `line` is, from its envelope alone (`cancel`: the method of a cancellation).
fn classify(line: &[u8], cancel: Option<&str>) -> Read {
    let envelope = match probe::read::<Value>(line) {
        Ok(e) => e,
        Err(Unreadable::Syntax(e)) => {
            let error = RpcError::new(PARSE_ERROR, format!("Parse error: {e}"));
            return Read::Refuse(error_text(&Value::Null, &error));
        }
        Err(Unreadable::Shape(e)) => {
            let message = format!("Invalid Request: one JSON-RPC message per line: {e}");
            let error = RpcError::new(INVALID_REQUEST, message);
            return Read::Refuse(error_text(&Value::Null, &error));
        }
    };
    match (envelope.method.as_deref(), envelope.id) {
        (Some(method), None) if Some(method) == cancel => Read::Cancel(cancelled_id(line)),
        (Some(_), None) => Read::Notification,
        (Some(_), Some(Some(id))) => Read::Request(id),
        _ => Read::Other,
    }
}

/// The `requestId` of a `notifications/cancelled` line, if it has one.
fn cancelled_id(line: &[u8]) -> Option<Value> {
    #[derive(Deserialize)]
    struct Cancelled {
        params: CancelledParams,
    }
    serde_json::from_slice::<Cancelled>(line)
        .ok()
        .map(|c| c.params.request_id)
}

/// A lock, also when a thread panicked holding it (every change is one insert or remove).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The requests in flight, by the JSON text of their id. A request stays listed until its task
/// has ended (its [`Listed`] guard is dropped with it), a cancelled one too: the bound counts
/// the tasks alive, and an id is never listed twice at once.
#[derive(Default, Clone)]
struct InFlight(Arc<Mutex<HashMap<String, AbortHandle>>>);

/// Unlists its request when dropped (with its task's future: it answered, or was aborted).
struct Listed {
    in_flight: InFlight,
    key: String,
}

impl Drop for Listed {
    fn drop(&mut self) {
        lock(&self.in_flight.0).remove(&self.key);
    }
}

impl InFlight {
    /// Stops the request of `key` (it is unlisted once its task has ended); false if it is
    /// not in flight.
    fn cancel(&self, key: &str) -> bool {
        match lock(&self.0).get(key) {
            Some(task) => {
                task.abort();
                true
            }
            None => false,
        }
    }

    /// Stops every request in flight.
    fn cancel_all(&self) {
        for task in lock(&self.0).values() {
            task.abort();
        }
    }

    /// How many requests are listed.
    #[cfg(test)]
    fn len(&self) -> usize {
        lock(&self.0).len()
    }
}

/// The loop of one connection: its handler, the requests in flight and the writer's queue.
struct Connection<H> {
    handler: Arc<H>,
    in_flight: InFlight,
    out: Outgoing,
    max_in_flight: usize,
    response_gap: Duration,
}

impl<H: Handler> Connection<H> {
    /// Serves one line.
    async fn serve_line(&self, line: Vec<u8>) -> Result<(), Closed> {
        match classify(&line, self.handler.cancel_method()) {
            Read::Refuse(text) => self.out.send(text).await,
            Read::Request(id) => self.start(id, line).await,
            Read::Cancel(id) => {
                if let Some(id) = id {
                    self.in_flight.cancel(&id.to_string());
                }
                Ok(())
            }
            Read::Notification => self.hand_over(line, Kind::Notification).await,
            Read::Other => self.hand_over(line, Kind::Other).await,
        }
    }

    /// A notification or a response, handled on the reading task.
    async fn hand_over(&self, line: Vec<u8>, kind: Kind) -> Result<(), Closed> {
        let message = Message { line, kind };
        match self.handler.handle(message, self.out.clone()).await {
            Some(text) => self.out.send(text).await,
            None => Ok(()),
        }
    }

    /// A request: its handler in a task of its own, listed as in flight until it ends; refused
    /// at once when the bound is reached or its id is already in flight.
    async fn start(&self, id: Value, line: Vec<u8>) -> Result<(), Closed> {
        match self.admit(&id, line) {
            Ok(()) => Ok(()),
            Err(error) => self.out.send(error_text(&id, &error)).await,
        }
    }

    /// Spawns the handler of request `id` and lists it, unless the bound is reached or the id
    /// is in flight already.
    fn admit(&self, id: &Value, line: Vec<u8>) -> Result<(), RpcError> {
        let key = id.to_string();
        let mut listed = lock(&self.in_flight.0);
        if listed.contains_key(&key) {
            let message = format!("Invalid Request: a request with id {key} is already in flight");
            return Err(RpcError::new(INVALID_REQUEST, message));
        }
        if listed.len() >= self.max_in_flight {
            return Err(crate::bound_reached(format!(
                "Too many requests in flight: {} are being handled; retry when one is answered",
                self.max_in_flight
            )));
        }
        let (handler, out) = (Arc::clone(&self.handler), self.out.for_request());
        let guard = Listed {
            in_flight: self.in_flight.clone(),
            key: key.clone(),
        };
        let gap = self.response_gap;
        // Listed before it can end: its guard unlists it under the lock held here. Unlisted
        // before its response is queued, so a client that reads the response has a free slot.
        let task = tokio::spawn(async move {
            let message = Message {
                line,
                kind: Kind::Request,
            };
            let Some(answer) = handler.handle(message, out.clone()).await else {
                return;
            };
            out.settle(gap).await;
            drop(guard);
            let _ = out.send(answer).await;
        });
        listed.insert(key, task.abort_handle());
        Ok(())
    }
}

/// Writes each queued message as a line, flushing when the queue is empty, until every sender
/// is gone or `finish` says so (then what is queued is written first).
async fn write_lines<W: AsyncWrite + Unpin>(
    mut output: W,
    mut queue: mpsc::Receiver<Out>,
    mut finish: watch::Receiver<bool>,
) -> io::Result<()> {
    loop {
        let next = tokio::select! {
            biased;
            m = queue.recv() => m,
            _ = finish.wait_for(|f| *f) => queue.try_recv().ok(),
        };
        match next {
            None => return output.flush().await,
            Some(Out::Line(message)) => {
                output.write_all(one_line(message).as_bytes()).await?;
                if queue.is_empty() {
                    output.flush().await?;
                }
            }
            Some(Out::Flushed(done)) => {
                output.flush().await?;
                let _ = done.send(());
            }
        }
    }
}

/// `message` with a newline at its end and none inside (a raw newline or carriage return in
/// JSON text is whitespace between tokens, so a space keeps it the same message).
fn one_line(message: String) -> String {
    let mut line = if message.contains(['\n', '\r']) {
        message.replace(['\n', '\r'], " ")
    } else {
        message
    };
    line.push('\n');
    line
}

/// Serves the connection of `input` and `output` with `handler` until end of input (or a read
/// error, returned), or until the output is closed.
pub async fn serve<R, W, H>(input: R, output: W, handler: H, config: &Config) -> io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
    H: Handler,
{
    let (tx, rx) = mpsc::channel(OUT_QUEUE);
    let (finish, finishing) = watch::channel(false);
    let mut writer = tokio::spawn(write_lines(output, rx, finishing));
    let connection = Connection {
        handler: Arc::new(handler),
        in_flight: InFlight::default(),
        out: Outgoing::new(tx),
        max_in_flight: config.max_in_flight,
        response_gap: config.response_gap,
    };
    let mut input = BufReader::new(input);
    let read = loop {
        let line = tokio::select! {
            line = read_line(&mut input, config.max_body) => line,
            // The writer stopped: the output is closed, nothing more can be answered.
            _ = &mut writer => break Ok(()),
        };
        let served = match line {
            Ok(Line::Eof) => break Ok(()),
            Err(e) => break Err(e),
            Ok(Line::TooLong) => connection.out.send(too_long(config.max_body)).await,
            Ok(Line::Text(text)) if text.trim_ascii().is_empty() => Ok(()),
            Ok(Line::Text(text)) => connection.serve_line(text).await,
        };
        if served.is_err() {
            break Ok(());
        }
    };
    connection.in_flight.cancel_all();
    drop(connection);
    let _ = finish.send(true);
    if !writer.is_finished() {
        let _ = tokio::time::timeout(config.shutdown_grace, &mut writer).await;
        writer.abort();
    }
    read
}

/// The error answered to a line longer than `max` bytes.
fn too_long(max: usize) -> String {
    let message = format!("Invalid Request: a message longer than {max} bytes");
    error_text(&Value::Null, &RpcError::new(INVALID_REQUEST, message))
}

/// [`serve`] on the process's standard input and output.
pub async fn serve_stdio<H: Handler>(handler: H, config: &Config) -> io::Result<()> {
    serve(tokio::io::stdin(), tokio::io::stdout(), handler, config).await
}

#[cfg(test)]
mod tests;

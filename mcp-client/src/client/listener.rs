//! The GET stream of a legacy session, opened and read by a task of its own from `initialize`
//! until the session ends, whether or not a request of the client's is open: a server may send
//! its own requests there at any time (2025-11-25 `basic/transports`, "Listening for Messages
//! from the Server"), and they are answered as they come, by the same input handlers as the
//! requests on a request's stream; its notifications are logged.
//!
//! Opening waits for the GET's answer for at most [`OPEN_WAIT`], then the session goes on
//! while the task still waits: a server that sends requests of its own on the stream needs it
//! open before the session's first request (the TypeScript SDK's transport drops a message
//! meant for a GET stream that is not open yet), but a server may hold the stream's head until
//! its first event (Node.js's `http` writes a response's head with its first bytes; the
//! TypeScript SDK's first event on a quiet stream is a keep-alive after 15 s).
//!
//! A stream that ends after an event with an id is resumed with `Last-Event-ID` after the
//! server's `retry`, as a request's stream is.
//!
//! Bounded: one event at a time (a server request is answered before the next event is read),
//! an event (or a line) larger than the configured bound (`Config::with_max_message`) ends the reading instead of being
//! buffered on, and at most [`MAX_RECONNECTS`] resumes in a row that bring no event. Stopped cleanly by [`Listener::stop`]: the task finishes the answer it is
//! sending, then drops the stream (its connection closes); dropped without `stop`, it is
//! aborted.

use std::time::Duration;

use serde_json::Value;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::ClientError;
use crate::binding::Binding;
use crate::config::Respond;
use crate::legacy::{self, Link};
use crate::sse;
use crate::sse::{DEFAULT_RETRY, MAX_RECONNECTS};

/// How long [`Listener::stop`] lets the task finish the answer it is sending.
const STOP_WAIT: Duration = Duration::from_secs(5);
/// How long [`Listener::open`] waits for the server's answer to the GET.
const OPEN_WAIT: Duration = Duration::from_secs(1);

/// Where a legacy session's messages go: the client, the endpoint, the session's headers,
/// and the handler that answers the server's requests.
pub(super) struct Outbox<B: Binding> {
    pub http: reqwest::Client,
    pub url: String,
    pub link: Option<Link>,
    /// The configured headers of every request.
    pub headers: Vec<(String, String)>,
    pub log: crate::Log,
    pub respond: Respond<B>,
    /// The largest event the GET stream may send (`Config::with_max_message`).
    pub max_message: usize,
    /// The authorizer of the client's requests, if it has one.
    pub auth: crate::send::Auth,
}

impl<B: Binding> Outbox<B> {
    /// `builder` with the configured headers and the legacy session's (after `initialize`).
    pub fn in_session(&self, mut builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        for (k, v) in &self.headers {
            builder = builder.header(k.as_str(), v.as_str());
        }
        if let Some(link) = &self.link {
            if let Some(id) = &link.session_id {
                builder = builder.header("mcp-session-id", id);
            }
            builder = builder.header("mcp-protocol-version", &link.version);
        }
        builder
    }

    /// POSTs a message of the session.
    pub async fn send(&self, body: Vec<u8>) -> Result<reqwest::Response, ClientError> {
        let post = self
            .in_session(self.http.post(&self.url))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body);
        crate::send::send(&self.auth, &self.url, post).await
    }

    /// POSTs a notification or a response of the session (answered with 2xx).
    pub async fn notify(&self, body: Vec<u8>) -> Result<(), ClientError> {
        let status = self.send(body).await?.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(ClientError::Http(format!(
                "HTTP {status} to a notification or response"
            )));
        }
        Ok(())
    }

    /// A message the server sent that is not a response: its request answered (POSTed back),
    /// its notification logged. Nothing for a response; `false` if `message` is one.
    pub async fn serve(&self, message: &Value, data: &str) -> Result<bool, ClientError> {
        let method = message.get("method").and_then(Value::as_str);
        match (method, message.get("id")) {
            (Some(method), Some(_)) => {
                note!(self.log, "server request {method}: answering");
                let reply = legacy::answer_request::<B>(message.clone(), &*self.respond);
                self.notify(reply.to_string().into_bytes()).await?;
                Ok(true)
            }
            (Some(method), None) => {
                note!(self.log, "notification {method}");
                crate::answer::log_progress_event(&self.log, data);
                Ok(true)
            }
            (None, _) => Ok(false),
        }
    }
}

/// The task reading a session's GET stream.
pub(super) struct Listener {
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Listener {
    /// Opens the session's GET stream and reads it, in a task of its own; returns once the
    /// server has answered the GET, or after [`OPEN_WAIT`] while the task still waits.
    pub async fn open<B: Binding>(outbox: Outbox<B>) -> Self {
        let (stop, stopped) = oneshot::channel();
        let (answered, answer) = oneshot::channel();
        let task = tokio::spawn(listen(outbox, stopped, answered));
        let listener = Listener {
            stop: Some(stop),
            task,
        };
        let _ = tokio::time::timeout(OPEN_WAIT, answer).await;
        listener
    }

    /// Stops the task: it finishes the answer it is sending (for at most [`STOP_WAIT`]; then
    /// it is aborted), and the stream's connection closes.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        // Aborted by `drop` if it has not finished by then.
        let _ = tokio::time::timeout(STOP_WAIT, &mut self.task).await;
    }

    /// Whether the task still opens or reads the stream.
    #[cfg(test)]
    pub fn is_reading(&self) -> bool {
        !self.task.is_finished()
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        // Nothing happens if the task has finished (or `stop` awaited it).
        self.task.abort();
    }
}

/// Opens the GET stream, says so on `answered` once the server has answered, and reads it
/// ([`read`]); nothing to read when the server offers no stream (405, or any other answer
/// that is not an SSE stream) or `stopped` fires first.
async fn listen<B: Binding>(
    outbox: Outbox<B>,
    mut stopped: oneshot::Receiver<()>,
    answered: oneshot::Sender<()>,
) {
    let opened = tokio::select! {
        _ = &mut stopped => return,
        opened = get_stream(&outbox, None) => opened,
    };
    let _ = answered.send(());
    if let Some(resp) = opened {
        read(resp, outbox, stopped).await;
    }
}

/// Reads the stream until it ends, fails, holds an event over the bound, or `stopped` fires;
/// a stream that ends after an event with an id is resumed ([`resume`]).
async fn read<B: Binding>(
    mut resp: reqwest::Response,
    outbox: Outbox<B>,
    mut stopped: oneshot::Receiver<()>,
) {
    let mut events = sse::Events::default();
    let mut reconnects = 0;
    loop {
        let chunk = tokio::select! {
            _ = &mut stopped => return,
            chunk = resp.chunk() => chunk,
        };
        let chunk = match chunk {
            Ok(Some(chunk)) => chunk,
            Ok(None) | Err(_) => {
                let Some(resumed) = resume(&outbox, &events, &mut reconnects, &mut stopped).await
                else {
                    return;
                };
                resp = resumed;
                continue;
            }
        };
        let completed = events.push(&chunk);
        if let Err(e) = crate::body::check_event(&events, &completed, outbox.max_message) {
            return note!(outbox.log, "the GET stream: {e}");
        }
        for data in completed {
            reconnects = 0;
            // A priming event carries no data; anything else that is not JSON is skipped.
            let Ok(message) = serde_json::from_str::<Value>(&data) else {
                continue;
            };
            if let Err(e) = outbox.serve(&message, &data).await {
                note!(outbox.log, "answering on the GET stream: {e}");
            }
        }
    }
}

/// After the GET stream ended: the stream resumed with `Last-Event-ID` once the `retry` the
/// server asked for has passed, if it sent an event id, fewer than [`MAX_RECONNECTS`] resumes
/// in a row brought no event, the server accepts, and `stopped` has not fired meanwhile (nor
/// while the server's answer is awaited).
async fn resume<B: Binding>(
    outbox: &Outbox<B>,
    events: &sse::Events,
    reconnects: &mut usize,
    stopped: &mut oneshot::Receiver<()>,
) -> Option<reqwest::Response> {
    let Some(last) = events.last_id.as_deref() else {
        note!(outbox.log, "the GET stream ended");
        return None;
    };
    if *reconnects == MAX_RECONNECTS {
        note!(
            outbox.log,
            "the GET stream ended {MAX_RECONNECTS} times with no event: no longer read"
        );
        return None;
    }
    *reconnects += 1;
    let wait = events.retry.unwrap_or(DEFAULT_RETRY);
    note!(
        outbox.log,
        "the GET stream ended: resuming after {wait:?} from {last:?}"
    );
    tokio::select! {
        _ = &mut *stopped => return None,
        () = tokio::time::sleep(wait) => {}
    }
    tokio::select! {
        _ = stopped => None,
        resumed = get_stream(outbox, Some(last)) => resumed,
    }
}

/// GETs the session's stream (resumed from `last`, the `Last-Event-ID`, if given); `None`,
/// with the reason logged, when the answer is not an SSE stream or the request fails.
async fn get_stream<B: Binding>(
    outbox: &Outbox<B>,
    last: Option<&str>,
) -> Option<reqwest::Response> {
    let mut get = outbox
        .in_session(outbox.http.get(&outbox.url))
        .header("accept", "text/event-stream");
    if let Some(last) = last {
        get = get.header("last-event-id", last);
    }
    let what = match last {
        Some(_) => "resuming the GET stream",
        None => "no GET stream",
    };
    match crate::send::send(&outbox.auth, &outbox.url, get).await {
        Ok(resp) if resp.status().is_success() && sse::is_sse(&resp) => Some(resp),
        Ok(resp) => {
            note!(outbox.log, "{what}: HTTP {}", resp.status().as_u16());
            None
        }
        Err(e) => {
            note!(outbox.log, "{what}: {e}");
            None
        }
    }
}

//! The SSE streams of one legacy session, kept so that a client can resume them (2025-11-25
//! `basic/transports`, "Resumability and Redelivery").
//!
//! Every event the server sends on a session's stream (a request's response stream or the
//! `GET` stream) has the id `<stream>-<sequence>`: the stream's number in the session, then
//! the event's place in that stream. A `GET` with `Last-Event-ID` names both, so a resume
//! replays only the stream the id came from, from the event after it, and then goes on with
//! that stream's later events on the new connection.
//!
//! A stream outlives its connection: the server may end a connection early after an event
//! with `retry:` ([`Streams::end_connection`]), and a client whose connection broke finds
//! the stream's later events waiting. What is kept is bounded ([`Config`]): the last
//! [`Config::replay_events`] events of each stream, finished streams for
//! [`Config::resume_window`], at most [`Config::resumable_streams`] finished streams per
//! session (the oldest go first), and at most [`Config::replay_bytes`] of events per session
//! (the oldest finished streams go first, then the oldest events). A resume that would miss
//! events a bound dropped is refused rather than served with a gap. An event's text is shared
//! between what is kept and the connection that sends it, never copied.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::body::Body;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_stream::StreamExt as _;
use tokio_stream::wrappers::ReceiverStream;

use crate::Config;

/// How long a client waits before reconnecting to a stream whose connection the server
/// ended (the `retry:` field sent just before).
pub const RECONNECT_AFTER: Duration = Duration::from_millis(200);

/// One event as sent: its id, its data (a JSON-RPC message, or empty for an event that only
/// gives the client an id to resume from), and the reconnection delay if it carries one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// `<stream>-<sequence>`.
    pub id: String,
    /// The JSON-RPC message, or empty.
    pub data: Arc<str>,
    /// The `retry:` field, before the server ends the connection.
    pub retry: Option<Duration>,
}

/// One stream: its last events and the connection reading it now, if any.
struct Log {
    kept: VecDeque<(u64, Sent)>,
    next: u64,
    live: Option<mpsc::Sender<Sent>>,
    /// When the stream ended (its request was answered, or a later `GET` took over).
    finished: Option<Instant>,
}

struct Inner {
    next_stream: u64,
    logs: HashMap<u64, Log>,
    /// The bytes of the events kept, all streams together.
    bytes: usize,
}

/// The streams of one session.
pub struct Streams {
    limits: Arc<Config>,
    inner: Mutex<Inner>,
}

/// Why a `Last-Event-ID` cannot be resumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResumeError {
    /// Not of the form `<stream>-<sequence>`.
    Unreadable,
    /// No stream of this session has that number now (never had, or it ended longer than
    /// [`Config::resume_window`] ago, or more recent finished streams pushed it out).
    Gone(u64),
    /// The events after the id are no longer all kept ([`Config::replay_events`]).
    Dropped {
        /// The stream named.
        stream: u64,
        /// The sequence number of its oldest event still kept.
        first_kept: u64,
    },
}

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResumeError::Unreadable => write!(f, "Last-Event-ID is not an event id of this server"),
            ResumeError::Gone(n) => write!(f, "stream {n} of this session is no longer resumable"),
            ResumeError::Dropped { stream, first_kept } => write!(
                f,
                "stream {stream} keeps its events from {stream}-{first_kept} on; earlier ones were dropped"
            ),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The stream and sequence numbers of an event id.
fn parse_id(id: &str) -> Option<(u64, u64)> {
    let (stream, sequence) = id.trim().split_once('-')?;
    Some((stream.parse().ok()?, sequence.parse().ok()?))
}

impl Log {
    fn new(live: mpsc::Sender<Sent>) -> Self {
        Log {
            kept: VecDeque::new(),
            next: 1,
            live: Some(live),
            finished: None,
        }
    }

    /// Keeps one event (dropping the oldest beyond `replay`) and passes it to the connection,
    /// which is let go if it does not keep up (its client can resume). The change in the
    /// bytes kept: those of the event, less those of the events dropped.
    fn record(
        &mut self,
        number: u64,
        data: String,
        retry: Option<Duration>,
        replay: usize,
    ) -> isize {
        let sent = Sent {
            id: format!("{number}-{}", self.next),
            data: data.into(),
            retry,
        };
        let mut change = size(&sent).cast_signed();
        self.kept.push_back((self.next, sent.clone()));
        self.next += 1;
        while self.kept.len() > replay {
            change -= self.pop_oldest().cast_signed();
        }
        if let Some(live) = &self.live
            && live.try_send(sent).is_err()
        {
            self.live = None;
        }
        change
    }

    /// Drops the oldest event kept: its bytes (0 if none is kept).
    fn pop_oldest(&mut self) -> usize {
        self.kept.pop_front().map_or(0, |(_, sent)| size(&sent))
    }

    /// The bytes of the events kept.
    fn bytes(&self) -> usize {
        self.kept.iter().map(|(_, sent)| size(sent)).sum()
    }
}

/// The bytes an event holds.
fn size(sent: &Sent) -> usize {
    sent.data.len() + sent.id.len()
}

impl Streams {
    /// No streams yet, bounded by `limits` (`replay_events`, `resume_window`,
    /// `resumable_streams`).
    pub fn new(limits: Arc<Config>) -> Self {
        Streams {
            limits,
            inner: Mutex::new(Inner {
                next_stream: 1,
                logs: HashMap::new(),
                bytes: 0,
            }),
        }
    }

    /// No streams yet, numbered from `first` on: the instances that share a legacy session
    /// number its streams apart, so that an event id names the instance that holds the stream.
    pub fn numbered_from(limits: Arc<Config>, first: u64) -> Self {
        let streams = Streams::new(limits);
        lock(&streams.inner).next_stream = first.max(1);
        streams
    }

    /// A channel for one connection: room for a whole replay and as many events after it.
    fn connection(&self) -> (mpsc::Sender<Sent>, mpsc::Receiver<Sent>) {
        mpsc::channel(self.limits.replay_events.saturating_mul(2).max(1))
    }

    /// A new stream, read by the connection whose receiver comes with its number.
    pub fn open(&self) -> (u64, mpsc::Receiver<Sent>) {
        let (tx, rx) = self.connection();
        let mut inner = lock(&self.inner);
        self.prune(&mut inner);
        let number = inner.next_stream;
        inner.next_stream += 1;
        inner.logs.insert(number, Log::new(tx));
        (number, rx)
    }

    /// Drops finished streams older than the resume window, then the oldest finished ones
    /// beyond the count kept.
    fn prune(&self, inner: &mut Inner) {
        let window = self.limits.resume_window;
        let expired: Vec<u64> = inner
            .logs
            .iter()
            .filter(|(_, log)| log.finished.is_some_and(|t| t.elapsed() >= window))
            .map(|(n, _)| *n)
            .collect();
        for n in expired {
            inner.remove(n);
        }
        let finished = inner.finished_oldest_first();
        let excess = finished.len().saturating_sub(self.limits.resumable_streams);
        for n in finished.into_iter().take(excess) {
            inner.remove(n);
        }
    }

    /// Drops what is kept beyond [`Config::replay_bytes`]: the oldest finished streams first,
    /// then the oldest events of the stream that keeps the most.
    fn trim_bytes(&self, inner: &mut Inner) {
        let budget = self.limits.replay_bytes;
        let mut finished = inner.finished_oldest_first().into_iter();
        while inner.bytes > budget {
            if let Some(n) = finished.next() {
                inner.remove(n);
                continue;
            }
            let largest = inner.logs.values_mut().max_by_key(|log| log.kept.len());
            let dropped = largest.map_or(0, Log::pop_oldest);
            if dropped == 0 {
                break;
            }
            inner.bytes -= dropped;
        }
    }

    /// Sends one JSON-RPC message on stream `number` (kept for a resume whether or not a
    /// connection reads the stream now).
    pub fn send(&self, number: u64, data: String) {
        self.record(number, data, None);
    }

    /// Records an event on stream `number` (if it is kept) and trims what is kept to the
    /// bounds.
    fn record(&self, number: u64, data: String, retry: Option<Duration>) {
        let replay = self.limits.replay_events;
        let mut inner = lock(&self.inner);
        let Some(log) = inner.logs.get_mut(&number) else {
            return;
        };
        let change = log.record(number, data, retry, replay);
        inner.bytes = inner.bytes.saturating_add_signed(change);
        self.trim_bytes(&mut inner);
    }

    /// Ends the connection reading stream `number` but not the stream: an event with no
    /// message, an id to resume from and `retry:`, then the connection closes.
    pub fn end_connection(&self, number: u64) {
        self.record(number, String::new(), Some(RECONNECT_AFTER));
        if let Some(log) = lock(&self.inner).logs.get_mut(&number) {
            log.live = None;
        }
    }

    /// Ends stream `number`: its connection closes after the events it holds, and the stream
    /// stays resumable for [`Config::resume_window`].
    pub fn finish(&self, number: u64) {
        if let Some(log) = lock(&self.inner).logs.get_mut(&number) {
            log.live = None;
            log.finished.get_or_insert_with(Instant::now);
        }
    }

    /// Ends every stream's connection and drops what was kept for resumption (the session
    /// ended).
    pub fn close_all(&self) {
        let mut inner = lock(&self.inner);
        inner.logs.clear();
        inner.bytes = 0;
    }

    /// Resumes the stream that event `last_id` belongs to on a new connection: the events
    /// after it first, then the stream's later events (none if it has finished). A
    /// connection that read the stream before is let go.
    pub fn resume(&self, last_id: &str) -> Result<(u64, mpsc::Receiver<Sent>), ResumeError> {
        let (number, sequence) = parse_id(last_id).ok_or(ResumeError::Unreadable)?;
        let (tx, rx) = self.connection();
        let mut inner = lock(&self.inner);
        self.prune(&mut inner);
        let log = inner
            .logs
            .get_mut(&number)
            .filter(|log| sequence < log.next)
            .ok_or(ResumeError::Gone(number))?;
        let first_kept = log.kept.front().map_or(log.next, |(s, _)| *s);
        if first_kept > sequence + 1 {
            return Err(ResumeError::Dropped {
                stream: number,
                first_kept,
            });
        }
        for (_, sent) in log.kept.iter().filter(|(s, _)| *s > sequence) {
            // Room for all of them: the channel holds twice the events kept.
            let _ = tx.try_send(sent.clone());
        }
        log.live = log.finished.is_none().then_some(tx);
        Ok((number, rx))
    }

    /// How many streams the session keeps now (live and finished).
    pub fn kept(&self) -> usize {
        lock(&self.inner).logs.len()
    }

    /// The bytes of the events kept now, all streams together.
    pub fn kept_bytes(&self) -> usize {
        lock(&self.inner).bytes
    }
}

impl Inner {
    /// Drops stream `n` and what it kept.
    fn remove(&mut self, n: u64) {
        if let Some(log) = self.logs.remove(&n) {
            self.bytes = self.bytes.saturating_sub(log.bytes());
        }
    }

    /// The finished streams, the oldest first.
    fn finished_oldest_first(&self) -> Vec<u64> {
        let mut finished: Vec<(Instant, u64)> = self
            .logs
            .iter()
            .filter_map(|(n, log)| log.finished.map(|t| (t, *n)))
            .collect();
        finished.sort_unstable();
        finished.into_iter().map(|(_, n)| n).collect()
    }
}

/// A keep-alive comment is sent when a stream has been quiet this long (as for
/// `subscriptions/listen` streams).
const KEEP_ALIVE: Duration = Duration::from_secs(15);

impl Sent {
    /// The event as SSE text. The data is always written, as `data:` lines, also when empty:
    /// an event with no `data` line is not dispatched by an SSE reader, and the client then
    /// never learns the id it should resume from.
    fn to_sse(&self) -> String {
        let mut text = format!("id: {}\n", self.id);
        if let Some(retry) = self.retry {
            text.push_str(&format!("retry: {}\n", retry.as_millis()));
        }
        for line in self.data.split('\n') {
            text.push_str("data: ");
            text.push_str(line.trim_end_matches('\r'));
            text.push('\n');
        }
        text.push('\n');
        text
    }
}

/// The SSE response that a connection's receiver feeds, with keep-alive comments.
pub fn response(rx: mpsc::Receiver<Sent>) -> Response {
    let quiet = tokio::time::interval_at(Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
    let body = ReceiverStream::new(rx)
        .timeout_repeating(quiet)
        .map(|sent| {
            let text = match sent {
                Ok(sent) => sent.to_sse(),
                Err(_quiet) => ":\n\n".to_owned(),
            };
            Ok::<_, std::convert::Infallible>(text)
        });
    let response = (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(body),
    )
        .into_response();
    crate::sse::unbuffered(response)
}

#[cfg(test)]
mod tests;

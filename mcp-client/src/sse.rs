//! Server-sent events read as their bytes arrive (the `text/event-stream` format of the HTML
//! standard, as Streamable HTTP uses it): the `data` of each complete event, and the `id` and
//! `retry` fields a client needs to resume a stream that ended early.

use std::time::Duration;

/// How many times a legacy request's SSE stream that ends before its response is resumed (and
/// the GET stream, in a row with no event).
pub(crate) const MAX_RECONNECTS: usize = 3;
/// How long the client waits before resuming a stream when the server named no `retry`.
pub(crate) const DEFAULT_RETRY: Duration = Duration::from_secs(1);

/// Whether `resp` is an SSE stream (by its content type).
pub(crate) fn is_sse(resp: &reqwest::Response) -> bool {
    resp.headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("text/event-stream"))
}

/// The state of one SSE stream (kept across a reconnection, which resumes it).
#[derive(Debug, Default)]
pub(crate) struct Events {
    /// Bytes of a line not yet ended.
    pending: Vec<u8>,
    /// The `data` lines of the event being read.
    data: Vec<String>,
    /// The last event id the server sent: the `Last-Event-ID` of a reconnection.
    pub(crate) last_id: Option<String>,
    /// The reconnection delay the server last asked for.
    pub(crate) retry: Option<Duration>,
}

impl Events {
    /// Bytes held for an event not yet complete (its data lines and a line not yet ended).
    pub(crate) fn buffered(&self) -> usize {
        self.pending.len() + self.data.iter().map(String::len).sum::<usize>()
    }

    /// Reads `chunk` and returns the data of each event it completes (empty data, such as a
    /// priming event's, included).
    pub(crate) fn push(&mut self, chunk: &[u8]) -> Vec<String> {
        self.pending.extend_from_slice(chunk);
        let mut complete = Vec::new();
        while let Some(end) = self.pending.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line);
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if !self.data.is_empty() {
                    complete.push(self.data.join("\n"));
                    self.data.clear();
                }
                continue;
            }
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "data" => self.data.push(value.to_owned()),
                "id" if !value.contains('\0') => self.last_id = Some(value.to_owned()),
                "retry" => {
                    if let Ok(ms) = value.parse::<u64>() {
                        self.retry = Some(Duration::from_millis(ms));
                    }
                }
                // `event`, comments (an empty field name) and unknown fields change nothing here.
                _ => {}
            }
        }
        complete
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_split_across_chunks_keep_their_id_and_retry() {
        let mut events = Events::default();
        assert!(events.push(b"id: e-1\nretry: 500\nda").is_empty());
        assert_eq!(
            events.push(b"ta: \n\nevent: message\r\ndata: {\"a\":"),
            [""]
        );
        assert_eq!(events.push(b"\r\ndata: 1}\r\n\r\n"), ["{\"a\":\n1}"]);
        assert_eq!(events.last_id.as_deref(), Some("e-1"));
        assert_eq!(events.retry, Some(Duration::from_millis(500)));
        assert_eq!(events.buffered(), 0);
        assert!(events.push(b"data: 12\ndata: 3").is_empty());
        assert_eq!(events.buffered(), "12".len() + "data: 3".len());
    }
}

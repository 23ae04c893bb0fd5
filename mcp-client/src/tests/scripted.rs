//! A scripted HTTP server on a loopback port: each request answered by a function of it and
//! of the requests before it, every request logged.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request the server saw: its HTTP method, headers (names lowercased), JSON body (parsed
/// and as the bytes that came; null when there is none), and when its head arrived.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub(crate) verb: String,
    headers: Vec<(String, String)>,
    pub(crate) body: Value,
    pub(crate) raw: Vec<u8>,
    pub(crate) at: Instant,
}

impl Seen {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC method, or for a request with no body (a GET, a DELETE) its HTTP method.
    pub(crate) fn method(&self) -> &str {
        match &self.body {
            Value::Null => &self.verb,
            body => body["method"].as_str().unwrap_or_default(),
        }
    }
}

/// What the server answers: a JSON body with a status, the same with an `Mcp-Session-Id`
/// ([`SESSION_ID`]), SSE events sent after pauses, or an answer whose every byte (its head
/// too) waits until a request of the given method has come.
pub(crate) enum Answer {
    Json(u16, Value),
    InSession(u16, Value),
    Sse(Vec<(Duration, String)>),
    After(&'static str, Box<Answer>),
}

/// The session id [`Answer::InSession`] gives.
pub(crate) const SESSION_ID: &str = "legacy-session-1";

pub(crate) type Script = fn(&Seen, &[Seen]) -> Answer;

/// Serves `script` on a loopback port (one request per connection); the URL and the log.
pub(crate) async fn serve(script: Script) -> (String, Arc<Mutex<Vec<Seen>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let log = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&log);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let seen = Arc::clone(&seen);
            tokio::spawn(async move { answer(stream, script, seen).await });
        }
    });
    (url, log)
}

async fn answer(mut stream: TcpStream, script: Script, log: Arc<Mutex<Vec<Seen>>>) {
    let Some(seen) = read_request(&mut stream).await else {
        return;
    };
    let earlier = log.lock().unwrap().clone();
    let mut reply = script(&seen, &earlier);
    log.lock().unwrap().push(seen);
    while let Answer::After(method, held) = reply {
        until_seen(&log, method).await;
        reply = *held;
    }
    write_answer(stream, reply).await;
}

/// Waits until `log` holds a request of `method`.
async fn until_seen(log: &Mutex<Vec<Seen>>, method: &str) {
    while !log.lock().unwrap().iter().any(|s| s.method() == method) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Writes `reply` (not [`Answer::After`], which `answer` has waited out) on `stream`.
async fn write_answer(mut stream: TcpStream, reply: Answer) {
    let session = match &reply {
        Answer::InSession(..) => format!("mcp-session-id: {SESSION_ID}\r\n"),
        _ => String::new(),
    };
    let _ = match reply {
        Answer::Json(status, body) | Answer::InSession(status, body) => {
            let body = body.to_string();
            let head = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{session}connection: close\r\n\r\n",
                body.len()
            );
            stream.write_all(format!("{head}{body}").as_bytes()).await
        }
        Answer::Sse(events) => {
            let head =
                "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
            let mut sent = stream.write_all(head.as_bytes()).await;
            for (pause, event) in events {
                tokio::time::sleep(pause).await;
                sent = stream.write_all(event.as_bytes()).await;
            }
            sent
        }
        Answer::After(..) => Ok(()),
    };
}

async fn read_request(stream: &mut TcpStream) -> Option<Seen> {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let mut at = None;
    let end = loop {
        let n = stream.read(&mut buf).await.ok()?;
        if n == 0 {
            return None;
        }
        at.get_or_insert_with(Instant::now);
        data.extend_from_slice(&buf[..n]);
        if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&data[..end]).to_string();
    let verb = head.split(' ').next().unwrap_or_default().to_owned();
    let headers: Vec<(String, String)> = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    while data.len() < end + length {
        let n = stream.read(&mut buf).await.ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
    }
    let raw = data[end..end + length].to_vec();
    // A GET or DELETE has no body.
    let body = match raw.is_empty() {
        true => Value::Null,
        false => serde_json::from_slice(&raw).ok()?,
    };
    Some(Seen {
        verb,
        headers,
        body,
        raw,
        at: at?,
    })
}

pub(crate) fn result(seen: &Seen, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": seen.body["id"], "result": result})
}

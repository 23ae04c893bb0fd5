//! The user agent of desktop hosts: the authorization URL is handed to a function that opens
//! the browser, and the browser's return is read on a listener of the loopback interface.
//!
//! Anything on the machine can reach that listener (another process, the browser fetching a
//! favicon or prefetching a page), so the receiver takes only the request that carries the
//! `state` of the authorization URL it was given, on the callback path; any other is answered
//! (404, or 400) and the wait goes on. Connections are served side by side, each given a
//! deadline to send its request and at most [`MAX_CONNECTIONS`] at once (more wait in the
//! listen backlog), so that one that is slow, idle or hostile stalls no other.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

use super::{AuthError, UserAgent, Visit};

/// The path of the redirect URI.
const CALLBACK_PATH: &str = "/callback";

/// The largest request head read; a longer one is answered 400.
const MAX_HEAD: usize = 8 * 1024;

/// How long a connection may take to send its request head before it is closed unanswered.
const CONNECTION_DEADLINE: Duration = Duration::from_secs(10);

/// How many connections are served at once; those beyond wait in the listen backlog until
/// one ends (each ends within [`CONNECTION_DEADLINE`]).
const MAX_CONNECTIONS: usize = 16;

/// How long the receiver pauses after a failed `accept` (a connection reset before it was
/// taken, no file descriptor left) before it accepts again.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// A user agent for desktop hosts: the authorization URL is handed to `open` (which starts
/// the user's browser), and the browser's return to the redirect URI
/// (`http://127.0.0.1:<port>/callback`) is read by a listener on the loopback interface, for
/// at most the wait given (5 minutes by default).
///
/// Only the return that carries the `state` of the authorization URL ends the wait: a request
/// to another path is answered 404, one to the callback path without that `state` (or not a
/// `GET`) 400, and the receiver goes on waiting. Connections are served concurrently, each
/// given 10 s to send its request, at most 16 at once (more wait in the listen backlog until
/// one ends). An authorization URL without a `state` is refused before the browser is opened.
pub struct Loopback {
    listener: tokio::sync::Mutex<TcpListener>,
    /// `http://127.0.0.1:<port>`.
    origin: String,
    redirect_uri: String,
    open: Arc<dyn Fn(&str) + Send + Sync>,
    wait: Duration,
    connection_deadline: Duration,
    max_connections: usize,
}

impl Loopback {
    /// Listens on `127.0.0.1:port` (0: a free port) and opens each authorization URL with
    /// `open`. Must be called within a Tokio runtime.
    pub fn bind(port: u16, open: impl Fn(&str) + Send + Sync + 'static) -> std::io::Result<Self> {
        let std_listener = std::net::TcpListener::bind(("127.0.0.1", port))?;
        std_listener.set_nonblocking(true)?;
        let port = std_listener.local_addr()?.port();
        let origin = format!("http://127.0.0.1:{port}");
        Ok(Loopback {
            listener: tokio::sync::Mutex::new(TcpListener::from_std(std_listener)?),
            redirect_uri: format!("{origin}{CALLBACK_PATH}"),
            origin,
            open: Arc::new(open),
            wait: Duration::from_secs(300),
            connection_deadline: CONNECTION_DEADLINE,
            max_connections: MAX_CONNECTIONS,
        })
    }

    /// How long a visit waits for the browser to come back.
    #[must_use]
    pub fn with_wait(mut self, wait: Duration) -> Self {
        self.wait = wait;
        self
    }

    /// The request target of the browser's return (the callback path with `state`), each
    /// connection served as it comes and answered with a page.
    async fn callback(&self, state: &str) -> Result<String, AuthError> {
        let listener = self.listener.lock().await;
        let mut serving = JoinSet::new();
        loop {
            tokio::select! {
                accepted = listener.accept(), if serving.len() < self.max_connections => {
                    match accepted {
                        Ok((conn, _)) => {
                            let deadline = self.connection_deadline;
                            serving.spawn(serve(conn, state.to_owned(), deadline));
                        }
                        // The listener stands; the failure was the connection's or passing.
                        Err(_) => tokio::time::sleep(ACCEPT_PAUSE).await,
                    }
                }
                Some(served) = serving.join_next() => {
                    if let Ok(Some(target)) = served {
                        // The other connections are aborted as `serving` drops.
                        return Ok(format!("{}{target}", self.origin));
                    }
                }
            }
        }
    }
}

impl UserAgent for Loopback {
    fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    fn visit<'a>(&'a self, _http: &'a reqwest::Client, authorization_url: &'a str) -> Visit<'a> {
        Box::pin(async move {
            let state = state_of(authorization_url)?;
            (self.open)(authorization_url);
            tokio::time::timeout(self.wait, self.callback(&state))
                .await
                .map_err(|_| {
                    AuthError::Denied("the browser did not come back in time".to_owned())
                })?
        })
    }
}

/// The one `state` parameter of `authorization_url`: what tells the browser's return from
/// any other request to the listener.
fn state_of(authorization_url: &str) -> Result<String, AuthError> {
    let refused = |why: &str| {
        AuthError::Denied(format!(
            "the authorization URL {authorization_url:?} {why}: the loopback receiver could \
             not tell the browser's return from another request"
        ))
    };
    let url = url::Url::parse(authorization_url).map_err(|e| refused(&e.to_string()))?;
    let mut states = url.query_pairs().filter(|(k, _)| k == "state");
    match (states.next(), states.next()) {
        (Some((_, state)), None) if !state.is_empty() => Ok(state.into_owned()),
        (None, _) => Err(refused("carries no state")),
        _ => Err(refused("carries no single, non-empty state")),
    }
}

/// Serves one connection: its request head read within `deadline` (else it is closed
/// unanswered), then answered; the request target when it is the browser's return.
async fn serve(mut conn: TcpStream, state: String, deadline: Duration) -> Option<String> {
    let head = tokio::time::timeout(deadline, read_head(&mut conn))
        .await
        .ok()?;
    let verdict = Verdict::of(&head, &state);
    // The page is a courtesy: the code is read whether or not it reaches the browser.
    let page = verdict.page();
    let _ = tokio::time::timeout(deadline, conn.write_all(page.as_bytes())).await;
    match verdict {
        Verdict::Return(target) => Some(target),
        _ => None,
    }
}

/// A request head (up to the blank line), at most [`MAX_HEAD`] bytes of it; less when the
/// connection ends first.
async fn read_head(conn: &mut TcpStream) -> Vec<u8> {
    let mut head = Vec::new();
    let mut chunk = [0u8; 1024];
    while head.len() < MAX_HEAD && !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match conn.read(&mut chunk).await {
            Ok(n) if n > 0 => head.extend_from_slice(&chunk[..n]),
            _ => break,
        }
    }
    head
}

/// What a request to the listener is.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// The browser's return: `GET` on the callback path with the flow's `state` (the request
    /// target).
    Return(String),
    /// The callback path without the flow's `state`.
    WrongState,
    /// Another path.
    NotFound,
    /// Not a `GET` with an origin-form target, or a head too long.
    BadRequest,
}

impl Verdict {
    /// Judges the request whose head is `head`, for the flow whose state is `state`.
    fn of(head: &[u8], state: &str) -> Verdict {
        let Some(end) = head.windows(2).position(|w| w == b"\r\n") else {
            return Verdict::BadRequest;
        };
        let Ok(line) = std::str::from_utf8(&head[..end]) else {
            return Verdict::BadRequest;
        };
        let mut parts = line.split(' ');
        let (Some("GET"), Some(target), Some(_version), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Verdict::BadRequest;
        };
        if !target.starts_with('/') {
            return Verdict::BadRequest;
        }
        // The path as it came, not normalised: `/callback` and nothing else.
        if target.split('?').next() != Some(CALLBACK_PATH) {
            return Verdict::NotFound;
        }
        let Ok(url) = url::Url::parse(&format!("http://loopback{target}")) else {
            return Verdict::BadRequest;
        };
        let mut states = url.query_pairs().filter(|(k, _)| k == "state");
        match (states.next(), states.next()) {
            (Some((_, came)), None) if came == state => Verdict::Return(target.to_owned()),
            _ => Verdict::WrongState,
        }
    }

    /// The answer to the request: a status and a line of text.
    fn page(&self) -> String {
        let (status, body) = match self {
            Verdict::Return(_) => ("200 OK", "Authorization done: you may close this window."),
            Verdict::WrongState => (
                "400 Bad Request",
                "Not the return of this application's authorization (another state).",
            ),
            Verdict::NotFound => ("404 Not Found", "Not the authorization callback."),
            Verdict::BadRequest => ("400 Bad Request", "Not a request of the callback."),
        };
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: text/plain\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
    }
}

#[cfg(test)]
mod tests;

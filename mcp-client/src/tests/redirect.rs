//! Redirects: the client follows them within its server's origin only, and nothing it sends
//! (a `Config::with_header` header, a token, the `Mcp-Session-Id`, a body) reaches another
//! origin. Two loopback listeners on different ports are two origins.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::fixture;
use crate::ClientError;
use crate::client::MAX_REDIRECTS;
use crate::client::redirect::same_origin;

/// One request a listener saw: its path and everything that came (head and body).
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub(crate) path: String,
    pub(crate) raw: String,
}

/// A listener on a loopback port answering each request with what `route` gives for its
/// path (a status, and a `Location` if any); its origin and the log of what it saw.
pub(crate) async fn listen(
    route: impl Fn(&str) -> (u16, Option<String>) + Send + Sync + 'static,
) -> (String, Arc<Mutex<Vec<Request>>>) {
    let route = Arc::new(route);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let log = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&log);
    tokio::spawn(async move {
        while let Ok((mut conn, _)) = listener.accept().await {
            let (seen, route) = (Arc::clone(&seen), Arc::clone(&route));
            tokio::spawn(async move {
                let Some(request) = read(&mut conn).await else {
                    return;
                };
                let (status, location) = route(&request.path);
                seen.lock().unwrap().push(request);
                let location = location
                    .map(|l| format!("location: {l}\r\n"))
                    .unwrap_or_default();
                let body = r#"{"reached":true}"#;
                let answer = format!(
                    "HTTP/1.1 {status} X\r\n{location}content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = conn.write_all(answer.as_bytes()).await;
            });
        }
    });
    (origin, log)
}

/// A request's head and its body (as long as its `content-length` says).
async fn read(conn: &mut tokio::net::TcpStream) -> Option<Request> {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let end = loop {
        let n = conn.read(&mut buf).await.ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
        if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&data[..end]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    while data.len() < end + length {
        let n = conn.read(&mut buf).await.ok()?;
        if n == 0 {
            break;
        }
        data.extend_from_slice(&buf[..n]);
    }
    let raw = String::from_utf8_lossy(&data).into_owned();
    let path = raw.split(' ').nth(1).unwrap_or_default().to_owned();
    Some(Request { path, raw })
}

/// The first listener's route: every request redirected, with the status its path names
/// (`/302`, `/307`, `/308`), to `/mcp` at the origin `elsewhere`.
pub(crate) fn to(
    elsewhere: &str,
) -> impl Fn(&str) -> (u16, Option<String>) + Send + Sync + 'static {
    let target = format!("{elsewhere}/mcp");
    move |path| {
        let status = path.trim_start_matches('/').parse().unwrap_or(307);
        (status, Some(target.clone()))
    }
}

/// The second listener's route: a plain success.
pub(crate) fn reached(_: &str) -> (u16, Option<String>) {
    (200, None)
}

/// Secrets the tests send: none may show in what the second listener saw.
const SECRETS: [&str; 4] = [
    "x-api-key",
    "custom-secret-1",
    "bearer token-1",
    "session-1",
];

#[tokio::test]
async fn the_client_follows_no_redirect_to_another_origin() {
    let (elsewhere, second) = listen(reached).await;
    let (origin, first) = listen(to(&elsewhere)).await;
    for status in [302, 307, 308] {
        let config = fixture::config()
            .with_header("X-Api-Key", "custom-secret-1")
            .with_header("Authorization", "Bearer token-1");
        let mut client = crate::Client::new(&format!("{origin}/{status}"), config).unwrap();
        let error = match client.connect().await {
            Ok(connected) => panic!(
                "{status}: connected through the redirect: {:?}",
                connected.era
            ),
            Err(ClientError::Http(e)) => e,
            Err(other) => panic!("{status}: not an HTTP error: {other}"),
        };
        assert!(
            error.contains("another origin") && error.contains(&elsewhere),
            "{status}: {error}"
        );
    }
    let first = first.lock().unwrap().clone();
    assert!(!first.is_empty(), "the first server saw no request");
    for request in &first {
        let raw = request.raw.to_ascii_lowercase();
        assert!(raw.contains("custom-secret-1") && raw.contains("bearer token-1"));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let second = second.lock().unwrap();
    assert!(second.is_empty(), "the other origin saw {second:?}");
}

/// A client with the client's redirect policy, and a request carrying all the client sends
/// its server: a custom header, a token, a session id, a body.
fn loaded(client: &reqwest::Client, url: &str) -> reqwest::RequestBuilder {
    client
        .post(url)
        .header("x-api-key", "custom-secret-1")
        .header("authorization", "Bearer token-1")
        .header("mcp-session-id", "session-1")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"secret":"body-1"}}"#)
}

#[tokio::test]
async fn no_header_token_session_or_body_reaches_another_origin() {
    let (elsewhere, second) = listen(reached).await;
    let (origin, first) = listen(to(&elsewhere)).await;
    let http = reqwest::Client::builder()
        .redirect(same_origin())
        .build()
        .unwrap();
    for status in [301, 302, 303, 307, 308] {
        let sent = loaded(&http, &format!("{origin}/{status}")).send().await;
        let error = sent.expect_err("a redirect to another origin is an error");
        assert!(error.is_redirect(), "{status}: {error}");
        let failed = crate::ClientError::unanswered(&error).to_string();
        assert!(failed.contains("another origin"), "{status}: {failed}");
    }
    assert_eq!(first.lock().unwrap().len(), 5);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let second = second.lock().unwrap();
    for request in second.iter() {
        for secret in SECRETS.iter().chain(&["body-1"]) {
            assert!(
                !request.raw.to_ascii_lowercase().contains(secret),
                "{secret} reached the other origin: {request:?}"
            );
        }
    }
    assert!(second.is_empty(), "the other origin saw {second:?}");
}

/// A route within one origin: `/moved` to `/here` (307), `/loop` to itself, `/here` answered.
fn within(path: &str) -> (u16, Option<String>) {
    match path {
        "/moved" => (307, Some("/here".to_owned())),
        "/loop" => (308, Some("/loop".to_owned())),
        _ => (200, None),
    }
}

#[tokio::test]
async fn a_redirect_within_the_origin_is_followed_a_bounded_number_of_times() {
    let (origin, seen) = listen(within).await;
    let http = reqwest::Client::builder()
        .redirect(same_origin())
        .build()
        .unwrap();
    let resp = loaded(&http, &format!("{origin}/moved"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.url().path(), "/here");
    {
        let seen = seen.lock().unwrap();
        let here = seen.iter().find(|r| r.path == "/here").expect("followed");
        // A 307 within the origin keeps the method, the headers and the body.
        assert!(here.raw.starts_with("POST "), "{here:?}");
        assert!(here.raw.contains("body-1") && here.raw.contains("custom-secret-1"));
    }
    seen.lock().unwrap().clear();
    let error = loaded(&http, &format!("{origin}/loop"))
        .send()
        .await
        .unwrap_err();
    assert!(error.is_redirect(), "{error}");
    let failed = crate::ClientError::unanswered(&error).to_string();
    assert!(failed.contains("redirects"), "{failed}");
    assert_eq!(seen.lock().unwrap().len(), MAX_REDIRECTS + 1);
}

//! The loopback receiver against a browser and against what else may reach its port: stray
//! requests, idle connections, more connections than it serves at once.

use std::time::Instant;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::*;

/// The authorization URL the tests' flow visits: its `state` is `s1`.
const AUTHORIZE: &str = "http://as.example/authorize?response_type=code&state=s1&x=1";

/// An agent on a free port that records the URLs it opens.
fn agent() -> (Loopback, std::sync::mpsc::Receiver<String>) {
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let agent = Loopback::bind(0, move |url| {
        let _ = tx.send(url.to_owned());
    })
    .unwrap();
    (agent, rx)
}

/// The `host:port` of the agent's listener.
fn address(agent: &Loopback) -> String {
    agent.origin.trim_start_matches("http://").to_owned()
}

/// Sends `head` (a request line; the rest of the head is added) to `address` and returns the
/// status of the answer.
async fn ask(address: &str, request_line: &str) -> u16 {
    let mut conn = TcpStream::connect(address).await.unwrap();
    let head = format!("{request_line}\r\nhost: {address}\r\n\r\n");
    conn.write_all(head.as_bytes()).await.unwrap();
    let mut answer = String::new();
    conn.read_to_string(&mut answer).await.unwrap();
    answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"))
}

#[tokio::test]
async fn the_loopback_agent_reads_the_browser_return() {
    let (agent, opened) = agent();
    let redirect = agent.redirect_uri().to_owned();
    let http = reqwest::Client::new();
    let browser = {
        let http = http.clone();
        let redirect = redirect.clone();
        tokio::spawn(async move {
            // The browser: a wrong path first, then the return with the code.
            let origin = redirect.trim_end_matches("/callback");
            let favicon = http.get(format!("{origin}/favicon.ico")).send().await;
            let back = http
                .get(format!("{redirect}?code=c1&state=s1"))
                .send()
                .await;
            (
                favicon.unwrap().status().as_u16(),
                back.unwrap().status().as_u16(),
            )
        })
    };
    let came = agent.visit(&http, AUTHORIZE).await.unwrap();
    assert_eq!(came, format!("{redirect}?code=c1&state=s1"));
    assert_eq!(opened.recv().unwrap(), AUTHORIZE);
    assert_eq!(browser.await.unwrap(), (404, 200));
}

#[tokio::test]
async fn stray_requests_and_an_idle_connection_neither_end_nor_stall_the_flow() {
    let (agent, _opened) = agent();
    let address = address(&agent);
    // Opened first, and it never sends a byte (a receiver serving connections one by one
    // would wait its 10 s deadline out before anything else).
    let idle = TcpStream::connect(&address).await.unwrap();
    let started = Instant::now();
    let others = {
        let address = address.clone();
        tokio::spawn(async move {
            let mut statuses = Vec::new();
            for line in [
                "GET /callback?code=evil&state=wrong HTTP/1.1",
                "GET /callback?code=evil HTTP/1.1",
                "GET /callback?code=evil&state=s1&state=wrong HTTP/1.1",
                "GET /favicon.ico HTTP/1.1",
                "GET /callbackx?code=evil&state=s1 HTTP/1.1",
                "POST /callback?code=evil&state=s1 HTTP/1.1",
                "GET http://elsewhere/callback?code=evil&state=s1 HTTP/1.1",
                "GET /callback?code=c1&state=s1 HTTP/1.1",
            ] {
                statuses.push(ask(&address, line).await);
            }
            statuses
        })
    };
    let came = agent
        .visit(&reqwest::Client::new(), AUTHORIZE)
        .await
        .unwrap();
    assert_eq!(came, format!("{}?code=c1&state=s1", agent.redirect_uri()));
    assert_eq!(
        others.await.unwrap(),
        [400, 400, 400, 404, 404, 400, 400, 200]
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the idle connection stalled the flow: {:?}",
        started.elapsed()
    );
    drop(idle);
}

#[tokio::test]
async fn connections_beyond_the_bound_wait_until_idle_ones_are_closed() {
    let (mut agent, _opened) = agent();
    agent.max_connections = 2;
    agent.connection_deadline = Duration::from_millis(300);
    let address = address(&agent);
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(TcpStream::connect(&address).await.unwrap());
    }
    let browser = {
        let address = address.clone();
        tokio::spawn(async move { ask(&address, "GET /callback?code=c1&state=s1 HTTP/1.1").await })
    };
    let came = tokio::time::timeout(
        Duration::from_secs(5),
        agent.visit(&reqwest::Client::new(), AUTHORIZE),
    )
    .await
    .expect("the browser's return was served once the idle connections timed out")
    .unwrap();
    assert!(came.ends_with("/callback?code=c1&state=s1"), "{came}");
    assert_eq!(browser.await.unwrap(), 200);
    // Each idle connection was closed unanswered by its deadline.
    for mut conn in idle {
        let mut rest = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(2), conn.read_to_end(&mut rest));
        assert!(matches!(read.await, Ok(Ok(0))), "answered {rest:?}");
    }
}

#[tokio::test]
async fn the_visit_ends_after_its_wait_without_the_right_return() {
    let (agent, _opened) = agent();
    let agent = agent.with_wait(Duration::from_millis(500));
    let address = address(&agent);
    let stray =
        tokio::spawn(
            async move { ask(&address, "GET /callback?code=evil&state=wrong HTTP/1.1").await },
        );
    let error = agent
        .visit(&reqwest::Client::new(), AUTHORIZE)
        .await
        .unwrap_err();
    assert!(error.to_string().contains("in time"), "{error}");
    assert_eq!(stray.await.unwrap(), 400);
}

#[tokio::test]
async fn an_authorization_url_without_one_state_is_refused_before_the_browser_opens() {
    let (agent, opened) = agent();
    for url in [
        "http://as.example/authorize?x=1",
        "http://as.example/authorize?state=",
        "http://as.example/authorize?state=a&state=b",
        "not a url",
    ] {
        let error = agent.visit(&reqwest::Client::new(), url).await.unwrap_err();
        assert!(
            error.to_string().contains("state") || url == "not a url",
            "{error}"
        );
    }
    assert!(opened.try_recv().is_err(), "the browser was opened");
}

#[test]
fn verdicts_of_request_heads() {
    let of = |head: &[u8]| Verdict::of(head, "s1");
    assert_eq!(
        of(b"GET /callback?state=s1&code=c HTTP/1.1\r\n\r\n"),
        Verdict::Return("/callback?state=s1&code=c".into())
    );
    assert_eq!(
        of(b"GET /callback?state=s%31&code=c HTTP/1.1\r\n\r\n"),
        Verdict::Return("/callback?state=s%31&code=c".into())
    );
    assert_eq!(
        of(b"GET /callback?state=s2 HTTP/1.1\r\n"),
        Verdict::WrongState
    );
    assert_eq!(
        of(b"GET /callback/?state=s1 HTTP/1.1\r\n"),
        Verdict::NotFound
    );
    assert_eq!(
        of(b"GET /a/../callback?state=s1 HTTP/1.1\r\n"),
        Verdict::NotFound
    );
    assert_eq!(
        of(b"GET /%63allback?state=s1 HTTP/1.1\r\n"),
        Verdict::NotFound
    );
    assert_eq!(of(b"GET /callback?state=s1"), Verdict::BadRequest);
    assert_eq!(
        of(b"GET  /callback?state=s1 HTTP/1.1\r\n"),
        Verdict::BadRequest
    );
    assert_eq!(of(b"\xff\xfe\r\n"), Verdict::BadRequest);
    assert_eq!(of(b""), Verdict::BadRequest);
}

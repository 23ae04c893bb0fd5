//! A server of the Quickstart's shape (`Served::new((), info).tools(tools)`, started by
//! `served::start` as `served::run` does) given each group of `mcp_server::options`: every
//! option it parses takes effect, or the start fails naming it.

use std::net::SocketAddr;
use std::time::Duration;

use mcp_server::options::Options;
use mcp_server::tools::{Call, Tools};
use mcp_server::{Config, Ctx, Served};
use mcp_tests::eras as mcp;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

mod support;

mcp_server::bind!(Mcp = mcp, legacy = mcp::v2025_11_25);
mcp_server::bind_server!(Mcp = mcp);

/// The arguments of `hello`: none.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Nothing {}

/// One tool, `hello`, answering "hello".
fn served() -> Served<Mcp, ()> {
    let hello = |_: Call<Mcp, Ctx<Mcp>, Nothing>| std::future::ready(Ok("hello".to_owned()));
    let tools = Tools::new().add("hello", "Says hello", hello).unwrap();
    Served::new((), mcp::Implementation::new("quick", "1.0.0")).tools(tools)
}

/// The command line `--listen 127.0.0.1:0` and `args`, read.
fn options(args: &[&str]) -> Options {
    let mut line = vec!["--listen", "127.0.0.1:0"];
    line.extend_from_slice(args);
    Options::parse(line.iter().map(|a| (*a).to_owned())).unwrap()
}

/// `served` started with `options`, serving in the background: its address.
async fn start(served: Served<Mcp, ()>, options: Options) -> std::io::Result<SocketAddr> {
    let started = mcp_server::served::start(served, options, std::future::pending()).await?;
    tokio::spawn(started.serving);
    Ok(started.address.expect("an HTTP address"))
}

/// Why starting with `options` failed.
async fn refused(served: Served<Mcp, ()>, options: Options) -> String {
    match start(served, options).await {
        Ok(address) => panic!("started at {address}"),
        Err(e) => {
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{e}");
            e.to_string()
        }
    }
}

/// An answer: its status, its headers (lowercased names) and its body.
struct Answer {
    status: u16,
    head: String,
    body: String,
}

/// POSTs `body` to `/mcp` at `address` as `host`, with `headers` besides the usual ones.
async fn post(address: SocketAddr, host: &str, headers: &[(&str, &str)], body: &str) -> Answer {
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nhost: {host}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\nconnection: close\r\n\
         content-length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).await.unwrap();
        text
    };
    let text = tokio::time::timeout(Duration::from_secs(10), exchange)
        .await
        .expect("an answer within 10 s");
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    Answer {
        status,
        head: head.to_ascii_lowercase(),
        body: body.to_owned(),
    }
}

const LIST: &str = r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {}}}}"#;

const MODERN: [(&str, &str); 2] = [
    ("mcp-protocol-version", "2026-07-28"),
    ("mcp-method", "tools/list"),
];

/// `tools/list` at `address` as `host`, with `headers` besides the modern ones.
async fn list(address: SocketAddr, host: &str, headers: &[(&str, &str)]) -> Answer {
    let mut all = MODERN.to_vec();
    all.extend_from_slice(headers);
    post(address, host, &all, LIST).await
}

const INITIALIZE: &str = r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {},
    "clientInfo": {"name": "old", "version": "1"}}}"#;

#[tokio::test]
async fn without_options_the_server_answers_anyone_on_a_local_host() {
    let address = start(served(), options(&[])).await.unwrap();
    let answer = list(address, "127.0.0.1", &[]).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(answer.body.contains("\"hello\""), "{}", answer.body);
}

#[tokio::test]
async fn auth_options_make_the_endpoint_a_protected_resource() {
    let jwks = std::env::temp_dir().join(format!("mcp-options-jwks-{}.json", std::process::id()));
    std::fs::write(
        &jwks,
        r#"{"keys": [{"kty": "EC", "crv": "P-256", "kid": "k1",
            "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
            "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM"}]}"#,
    )
    .unwrap();
    let jwks_path = jwks.to_str().unwrap();
    let args = [
        "--auth-issuer",
        "https://auth.example.com",
        "--auth-jwks",
        jwks_path,
        "--auth-scopes",
        "mcp:read",
    ];
    let address = start(served(), options(&args)).await.unwrap();
    std::fs::remove_file(&jwks).unwrap();
    let anonymous = list(address, "127.0.0.1", &[]).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.body);
    assert!(
        anonymous
            .head
            .contains("www-authenticate: bearer resource_metadata="),
        "{}",
        anonymous.head
    );
    assert!(
        anonymous.head.contains("scope=\"mcp:read\""),
        "{}",
        anonymous.head
    );
    let forged = list(
        address,
        "127.0.0.1",
        &[("authorization", "Bearer not.a.jwt")],
    )
    .await;
    assert_eq!(forged.status, 401);
    assert!(forged.head.contains("invalid_token"), "{}", forged.head);
}

#[tokio::test]
async fn bounds_and_switches_are_applied() {
    // --max-body-bytes: the 200-byte request is too large.
    let address = start(served(), options(&["--max-body-bytes", "64"]))
        .await
        .unwrap();
    assert_eq!(list(address, "127.0.0.1", &[]).await.status, 413);
    // --allow-host: a host that is not local is answered only when allowed.
    let address = start(served(), options(&[])).await.unwrap();
    assert_eq!(list(address, "mcp.example", &[]).await.status, 403);
    let allowed = start(served(), options(&["--allow-host", "mcp.example"]))
        .await
        .unwrap();
    assert_eq!(list(allowed, "mcp.example", &[]).await.status, 200);
    // --modern-only: a legacy initialize opens no session.
    let opened = post(address, "127.0.0.1", &[], INITIALIZE).await;
    assert_eq!(opened.status, 200, "{}", opened.body);
    assert!(opened.head.contains("mcp-session-id:"), "{}", opened.head);
    let modern_only = start(served(), options(&["--modern-only"])).await.unwrap();
    let refused = post(modern_only, "127.0.0.1", &[], INITIALIZE).await;
    assert!(
        !refused.head.contains("mcp-session-id:"),
        "{}",
        refused.head
    );
    assert!(refused.body.contains("\"error\""), "{}", refused.body);
}

#[tokio::test]
async fn bounds_of_what_the_server_does_not_serve_stop_the_start() {
    let tasks = refused(served(), options(&["--max-tasks", "3"])).await;
    assert!(
        tasks.starts_with("--max-tasks: this server serves no tasks"),
        "{tasks}"
    );
    let listen = refused(served(), options(&["--listen-queue", "4"])).await;
    assert!(listen.starts_with("--listen-queue:"), "{listen}");
}

#[tokio::test]
async fn a_configuration_set_twice_stops_the_start() {
    let configured = served().config(Config::default().max_body(1000));
    let why = refused(configured, options(&["--max-connections", "9"])).await;
    assert!(why.contains("set options.config instead"), "{why}");
    // The same configuration both ways is no conflict.
    let same = served().config(Config::default().max_body(64));
    let address = start(same, options(&["--max-body-bytes", "64"]))
        .await
        .unwrap();
    assert_eq!(list(address, "127.0.0.1", &[]).await.status, 413);
}

#[cfg(feature = "seal")]
#[tokio::test]
async fn sealing_options_no_sealer_was_made_from_stop_the_start() {
    let unused = options(&["--seal-ttl-s", "60"]);
    let why = refused(served(), unused).await;
    assert!(why.starts_with("--seal-ttl-s: no sealer was made"), "{why}");
    let used = options(&["--seal-ttl-s", "60"]);
    let sealer = used.seal.sealer().unwrap();
    assert_eq!(sealer.ttl(), Duration::from_secs(60));
    start(served(), used).await.unwrap();
}

#[cfg(feature = "redis")]
#[tokio::test]
async fn a_store_shares_the_legacy_sessions_between_instances() {
    let redis = support::RedisServer::start();
    let url = format!("redis://127.0.0.1:{}", redis.1);
    // The instances name a credential's principal with the same key.
    let key = std::env::temp_dir().join(format!("mcp-options-key-{}", std::process::id()));
    std::fs::write(&key, "5a".repeat(32)).unwrap();
    let shared = ["--store", &url, "--principal-key", key.to_str().unwrap()];
    let a = start(served(), options(&shared)).await.unwrap();
    let b = start(served(), options(&shared)).await.unwrap();
    std::fs::remove_file(&key).unwrap();
    let opened = post(a, "127.0.0.1", &[], INITIALIZE).await;
    let session = opened
        .head
        .lines()
        .find_map(|l| l.strip_prefix("mcp-session-id: "))
        .expect("a session id")
        .trim()
        .to_owned();
    let call = r#"{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "hello", "arguments": {}}}"#;
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let answer = post(b, "127.0.0.1", &headers, call).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(answer.body.contains("hello"), "{}", answer.body);
    // Without the store, the other instance does not know the session.
    let alone = start(served(), options(&[])).await.unwrap();
    assert_eq!(post(alone, "127.0.0.1", &headers, call).await.status, 404);
}

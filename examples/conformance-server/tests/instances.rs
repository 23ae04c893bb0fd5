//! Several instances of the server behind one address: processes that share a key ring (one
//! from `--seal-keys <file>`, one from `MCP_SEAL_KEYS`) answer each other's sealed
//! `requestState`, through a round-robin TCP proxy on loopback as a load balancer would send
//! them; a process with a key of its own refuses them (`unknown-key`); a state is refused to
//! any principal but the one it was sealed for (`other-principal`); `--seal-ttl-s` sets when a
//! state expires.
//!
//! Each server is the built binary, started on a free loopback port and killed when its test
//! ends; the proxy stops with its test's runtime.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A running server process, killed on drop.
struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The key every instance names a credential's principal with: instances that share a seal
/// key ring must share it too (`--principal-key`, here through its variable).
const PRINCIPAL_KEY: &str = "7e57000000000000000000000000000000000000000000000000000000000001";

/// Starts the server with `args` and `env` on a free loopback port; returns once it listens.
fn server(args: &[&str], env: &[(&str, &str)]) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-conformance-server"));
    command
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .env_remove("MCP_SEAL_KEYS")
        .env("MCP_PRINCIPAL_KEY", PRINCIPAL_KEY)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("the server starts");
    let stderr = child.stderr.take().expect("stderr is piped");
    let mut lines = BufReader::new(stderr).lines();
    let mut said = Vec::new();
    let url = loop {
        let Some(Ok(line)) = lines.next() else {
            let _ = child.kill();
            panic!("the server stopped before listening: {said:?}");
        };
        if let Some(url) = line.split("listening on ").nth(1) {
            break url.trim().to_owned();
        }
        said.push(line);
    };
    // Keep reading stderr so that the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Server { child, url }
}

/// A round-robin TCP proxy on a free loopback port in front of `backends` (`host:port`): each
/// new connection goes to the next backend. Returns its URL and the count of connections.
async fn proxy(backends: Vec<String>) -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            let n = seen.fetch_add(1, Ordering::SeqCst);
            let backend = backends[n % backends.len()].clone();
            tokio::spawn(async move {
                if let Ok(mut outbound) = tokio::net::TcpStream::connect(backend).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    (format!("http://{addr}/mcp"), count)
}

fn host_port(url: &str) -> String {
    url.trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned()
}

const TOOL: &str = "test_input_required_result_request_state";

/// The tool call of round 1 (`more` empty) or of the retry.
fn call(id: i64, more: Value) -> Value {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
    });
    let mut params = json!({"name": TOOL, "arguments": {}, "_meta": meta});
    for (k, v) in more.as_object().unwrap() {
        params[k] = v.clone();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// POSTs `body` as `alice` on a new connection; the JSON answer.
async fn post(url: &str, body: &Value) -> Value {
    post_as("alice", url, body).await
}

/// POSTs `body` as `principal` (its bearer credential) on a new connection; the JSON answer.
async fn post_as(principal: &str, url: &str, body: &Value) -> Value {
    let response = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", TOOL)
        .header("authorization", format!("Bearer {principal}"))
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    serde_json::from_str(&response.text().await.unwrap()).unwrap()
}

/// Round 1 at `first`: the sealed state it returns.
async fn round_one(first: &str) -> String {
    let r = post(first, &call(1, json!({}))).await;
    assert_eq!(r["result"]["resultType"], "input_required", "{r}");
    r["result"]["requestState"].as_str().unwrap().to_owned()
}

/// The retry with `state` at `url`: the answer.
async fn retry(url: &str, state: &str) -> Value {
    retry_as("alice", url, state).await
}

/// The retry with `state` at `url`, sent by `principal`: the answer.
async fn retry_as(principal: &str, url: &str, state: &str) -> Value {
    let answer = json!({"confirm": {"action": "accept", "content": {"ok": true}}});
    let body = call(2, json!({"inputResponses": answer, "requestState": state}));
    post_as(principal, url, &body).await
}

#[track_caller]
fn assert_completes(r: &Value) {
    let text = r["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("state-ok"), "{r}");
}

#[track_caller]
fn assert_refused(r: &Value, reason: &str) {
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert_eq!(r["error"]["data"]["reason"], reason, "{r}");
}

fn key_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const CURRENT: &str = "3f1c5a0e9b7d2c4e6a8f0b1d3c5e7a9f2b4d6c8e0a1f3b5d7c9e1a2b4c6d8e0f";
const PREVIOUS: &str = "0c2e4a6b8d0f1e3c5a7b9d1f3e5c7a9b0d2f4e6c8a0b1d3f5e7c9a1b3d5f7e9a";

#[tokio::test]
async fn two_instances_behind_one_address_share_the_key_ring() {
    let ring = format!("# current\n{CURRENT}\n# previous\n{PREVIOUS}\n");
    let file = key_file("instances-ring.txt", &ring);
    let a = server(&["--seal-keys", file.to_str().unwrap()], &[]);
    let b = server(&[], &[("MCP_SEAL_KEYS", &format!("{CURRENT},{PREVIOUS}"))]);
    let (url, connections) = proxy(vec![host_port(&a.url), host_port(&b.url)]).await;

    // Round 1 goes to one instance, the retry to the other, both through the one address.
    for _ in 0..2 {
        let state = round_one(&url).await;
        assert_completes(&retry(&url, &state).await);
    }
    assert_eq!(connections.load(Ordering::SeqCst), 4);

    // Directly: a state sealed by A opens at B and the other way round.
    assert_completes(&retry(&b.url, &round_one(&a.url).await).await);
    assert_completes(&retry(&a.url, &round_one(&b.url).await).await);

    // After a rotation (the previous key now current), the instances still open the states
    // sealed before it.
    let sealed_before = round_one(&a.url).await;
    let rotated = server(&[], &[("MCP_SEAL_KEYS", &format!("{PREVIOUS},{CURRENT}"))]);
    assert_completes(&retry(&rotated.url, &sealed_before).await);
    assert_completes(&retry(&a.url, &round_one(&rotated.url).await).await);

    // An instance with a key of its own (none given) refuses them: the key is unknown there.
    let alone = server(&[], &[]);
    assert_refused(
        &retry(&alone.url, &round_one(&a.url).await).await,
        "unknown-key",
    );
    assert_refused(
        &retry(&a.url, &round_one(&alone.url).await).await,
        "unknown-key",
    );
}

#[tokio::test]
async fn a_state_is_refused_to_another_principal() {
    let env = [("MCP_SEAL_KEYS", CURRENT)];
    let a = server(&[], &env);
    let b = server(&[], &env);
    let state = round_one(&a.url).await;
    // Another bearer, at the instance that sealed it and at one that shares its ring.
    assert_refused(&retry_as("bob", &a.url, &state).await, "other-principal");
    assert_refused(&retry_as("bob", &b.url, &state).await, "other-principal");
    // The binding is to the credential as sent: one that differs only in case is another.
    assert_refused(&retry_as("Alice", &b.url, &state).await, "other-principal");
    // Its own principal still gets the answer: the refusals spent nothing.
    assert_completes(&retry(&b.url, &state).await);
}

/// The TTL `short` is started with, in seconds: long enough for round 1 and one retry on a
/// loaded machine, short enough to wait for.
const SHORT_TTL: Duration = Duration::from_secs(3);

#[tokio::test]
async fn seal_ttl_and_mode_are_configurable() {
    let env = [("MCP_SEAL_KEYS", CURRENT)];
    let ttl = SHORT_TTL.as_secs().to_string();
    let short = server(&["--seal-ttl-s", &ttl, "--seal-mode", "hmac"], &env);
    let other = server(&[], &env);
    let asked = Instant::now();
    let state = round_one(&short.url).await;
    // Sealed in HMAC mode by one, opened by the other (which seals in AEAD mode).
    assert_completes(&retry(&other.url, &state).await);
    // Retried until refused: never before the TTL has passed since round 1 was sent (the
    // state was sealed after that), and within a generous deadline after it.
    let refused = loop {
        let r = retry(&other.url, &state).await;
        if r.get("error").is_some() {
            break r;
        }
        assert_completes(&r);
        assert!(asked.elapsed() < SHORT_TTL * 10, "the state never expired");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        asked.elapsed() >= SHORT_TTL,
        "refused after {:?}: {refused}",
        asked.elapsed()
    );
    assert_refused(&refused, "expired");
    assert_refused(&retry(&short.url, &state).await, "expired");
}

#[test]
fn bad_key_rings_are_refused_at_start() {
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-conformance-server"));
        command
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .env_remove("MCP_SEAL_KEYS")
            .env("MCP_PRINCIPAL_KEY", PRINCIPAL_KEY);
        for (k, v) in env {
            command.env(k, v);
        }
        let out = command.output().unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let short = run(&[], &[("MCP_SEAL_KEYS", "abcd")]);
    assert!(
        short.contains("MCP_SEAL_KEYS: line 1: a key is 64 hex digits"),
        "{short}"
    );
    assert!(!short.contains("abcd"), "the key is not echoed: {short}");
    let empty = key_file("instances-empty.txt", "# no key yet\n");
    let e = run(&["--seal-keys", empty.to_str().unwrap()], &[]);
    assert!(e.contains("no key given"), "{e}");
    let e = run(&["--seal-keys", "/nonexistent/ring"], &[]);
    assert!(e.contains("--seal-keys /nonexistent/ring"), "{e}");
    let e = run(&["--seal-mode", "rot13"], &[]);
    assert!(e.contains("--seal-mode needs aead or hmac"), "{e}");
    let e = run(&["--seal-ttl-s", "0"], &[]);
    assert!(e.contains("--seal-ttl-s 0: not a positive integer"), "{e}");
}

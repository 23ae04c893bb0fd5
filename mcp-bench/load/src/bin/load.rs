//! The load generator of the load benchmark: `tools/call test_simple_text` over Streamable HTTP
//! from `--concurrency` workers, each on its own keep-alive HTTP/1.1 connection, for
//! `--seconds` after a warm-up of `--warmup` seconds.
//!
//! `--era modern` sends 2026-07-28 requests (every request carries its `_meta` and the
//! `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers); `--era legacy` opens one
//! 2025-11-25 session per worker (`initialize`, `notifications/initialized`) and calls the tool
//! in it. Every answer is checked (HTTP 200 and the tool's text in the body): a run with any
//! failed request exits non-zero, so a server that answers errors fast cannot look fast.
//!
//! Prints one JSON object: requests, seconds, requests per second, latency percentiles (µs).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;

/// What every successful answer holds (the tool's text).
const TEXT: &str = "This is a simple text response for testing.";
const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

#[derive(Clone, Copy, PartialEq)]
enum Era {
    Modern,
    Legacy,
}

struct Args {
    url: String,
    authority: String,
    path: String,
    era: Era,
    concurrency: usize,
    warmup: Duration,
    seconds: Duration,
}

fn parse_args() -> Result<Args, String> {
    let mut url = None;
    let mut era = Era::Modern;
    let mut concurrency = 1;
    let mut warmup = Duration::from_secs(1);
    let mut seconds = Duration::from_secs(5);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--url" => url = Some(value()?),
            "--era" => {
                era = match value()?.as_str() {
                    "modern" => Era::Modern,
                    "legacy" => Era::Legacy,
                    other => return Err(format!("--era {other}: modern or legacy")),
                }
            }
            "--concurrency" => concurrency = number(&value()?)?,
            "--warmup" => warmup = Duration::from_secs_f64(number::<f64>(&value()?)?),
            "--seconds" => seconds = Duration::from_secs_f64(number::<f64>(&value()?)?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let url = url.ok_or("--url is required")?;
    let rest = url
        .strip_prefix("http://")
        .ok_or("--url must be http://host:port/path")?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    Ok(Args {
        authority: authority.to_owned(),
        path: if path.is_empty() { "/" } else { path }.to_owned(),
        url,
        era,
        concurrency: concurrency.max(1),
        warmup,
        seconds,
    })
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{text:?} is not a number"))
}

/// One worker's connection and, in the legacy era, its session.
struct Connection {
    sender: SendRequest<Full<Bytes>>,
    session: Option<String>,
}

/// What one request came back with: its body, or why it failed.
async fn post(
    args: &Args,
    connection: &mut Connection,
    headers: &[(&str, &str)],
    body: String,
) -> Result<(StatusCode, hyper::HeaderMap, Bytes), String> {
    let mut request = Request::post(args.path.as_str())
        .header("host", args.authority.as_str())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    if let Some(session) = &connection.session {
        request = request.header("mcp-session-id", session.as_str());
    }
    let request = request
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    connection
        .sender
        .ready()
        .await
        .map_err(|e| format!("connection: {e}"))?;
    let response = connection
        .sender
        .send_request(request)
        .await
        .map_err(|e| format!("request: {e}"))?;
    let (parts, body) = response.into_parts();
    let body = body
        .collect()
        .await
        .map_err(|e| format!("body: {e}"))?
        .to_bytes();
    Ok((parts.status, parts.headers, body))
}

async fn connect(args: &Args) -> Result<Connection, String> {
    let stream = tokio::net::TcpStream::connect(&args.authority)
        .await
        .map_err(|e| format!("connecting to {}: {e}", args.url))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(connection);
    Ok(Connection {
        sender,
        session: None,
    })
}

/// Opens a 2025-11-25 session on `connection`: `initialize`, then `notifications/initialized`.
async fn open_session(args: &Args, connection: &mut Connection) -> Result<(), String> {
    let initialize = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{LEGACY}","capabilities":{{}},"clientInfo":{{"name":"mcp-load","version":"0.0.0"}}}}}}"#
    );
    let (status, headers, body) = post(args, connection, &[], initialize).await?;
    let session = headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| {
            format!(
                "initialize: HTTP {status}, no Mcp-Session-Id: {}",
                String::from_utf8_lossy(&body)
            )
        })?;
    connection.session = Some(session.to_owned());
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned();
    let version = [("mcp-protocol-version", LEGACY)];
    let (status, _, body) = post(args, connection, &version, initialized).await?;
    if status != StatusCode::ACCEPTED {
        return Err(format!(
            "notifications/initialized: HTTP {status}: {}",
            String::from_utf8_lossy(&body)
        ));
    }
    Ok(())
}

/// One `tools/call` of the worker's era, checked.
async fn call(args: &Args, connection: &mut Connection, id: u64) -> Result<(), String> {
    let (headers, body): (&[(&str, &str)], String) = match args.era {
        Era::Modern => (
            &[
                ("mcp-protocol-version", MODERN),
                ("mcp-method", "tools/call"),
                ("mcp-name", "test_simple_text"),
            ],
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"test_simple_text","arguments":{{}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
            ),
        ),
        Era::Legacy => (
            &[("mcp-protocol-version", LEGACY)],
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"test_simple_text","arguments":{{}}}}}}"#
            ),
        ),
    };
    let (status, _, body) = post(args, connection, headers, body).await?;
    let text = String::from_utf8_lossy(&body);
    if status != StatusCode::OK || !text.contains(TEXT) {
        return Err(format!("tools/call: HTTP {status}: {text}"));
    }
    Ok(())
}

/// What the workers measured together.
#[derive(Default)]
struct Totals {
    failures: AtomicU64,
    first_failure: std::sync::Mutex<Option<String>>,
}

/// Calls until `end`; returns the latencies (µs) of the calls that started after `measured_from`.
async fn worker(
    args: Arc<Args>,
    totals: Arc<Totals>,
    measured_from: Instant,
    end: Instant,
) -> Vec<u32> {
    let mut latencies = Vec::new();
    let fail = |e: String| {
        totals.failures.fetch_add(1, Ordering::Relaxed);
        let mut first = totals
            .first_failure
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        first.get_or_insert(e);
    };
    let mut connection = match connect(&args).await {
        Ok(c) => c,
        Err(e) => {
            fail(e);
            return latencies;
        }
    };
    if args.era == Era::Legacy
        && let Err(e) = open_session(&args, &mut connection).await
    {
        fail(e);
        return latencies;
    }
    let mut id = 1;
    loop {
        let started = Instant::now();
        if started >= end {
            return latencies;
        }
        id += 1;
        match call(&args, &mut connection, id).await {
            Ok(()) if started >= measured_from && Instant::now() <= end => {
                let micros = started.elapsed().as_micros();
                latencies.push(u32::try_from(micros).unwrap_or(u32::MAX));
            }
            Ok(()) => {}
            Err(e) => {
                fail(e);
                return latencies;
            }
        }
    }
}

fn percentile(sorted: &[u32], p: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

#[tokio::main(worker_threads = 2)]
async fn main() -> std::process::ExitCode {
    let args = match parse_args() {
        Ok(a) => Arc::new(a),
        Err(e) => {
            eprintln!(
                "load: {e}\nusage: load --url http://HOST:PORT/PATH [--era modern|legacy] [--concurrency N] [--warmup S] [--seconds S]"
            );
            return std::process::ExitCode::from(2);
        }
    };
    let totals = Arc::new(Totals::default());
    let measured_from = Instant::now() + args.warmup;
    let end = measured_from + args.seconds;
    let workers: Vec<_> = (0..args.concurrency)
        .map(|_| {
            tokio::spawn(worker(
                Arc::clone(&args),
                Arc::clone(&totals),
                measured_from,
                end,
            ))
        })
        .collect();
    let mut latencies = Vec::new();
    for w in workers {
        latencies.extend(w.await.unwrap_or_default());
    }
    latencies.sort_unstable();
    let failures = totals.failures.load(Ordering::Relaxed);
    let seconds = args.seconds.as_secs_f64();
    println!(
        "{}",
        serde_json::json!({
            "era": if args.era == Era::Modern { "modern" } else { "legacy" },
            "concurrency": args.concurrency,
            "requests": latencies.len(),
            "seconds": seconds,
            "rps": latencies.len() as f64 / seconds,
            "p50_us": percentile(&latencies, 0.5),
            "p99_us": percentile(&latencies, 0.99),
            "failures": failures,
        })
    );
    if failures > 0 {
        let first = totals
            .first_failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        eprintln!(
            "load: {failures} failed request(s), the first: {}",
            first.unwrap_or_default()
        );
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}

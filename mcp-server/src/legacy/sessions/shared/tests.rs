//! Two instances of a server, each with its own session table and its own connection to one
//! `redis-server` of the test's own, served by the HTTP endpoint: what a client does at one
//! is seen at the other, as behind a balancer that sends each request to the next instance.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use http_body_util::BodyExt as _;
use serde_json::{Value, json};
use tower::ServiceExt as _;

use crate::changes::{Change, Changes};
use crate::legacy::{HttpSessions, Initialize, LegacyService, Sessions};
use crate::redis::test_server::RedisServer;
use crate::redis::{Redis, Settings};
use crate::test_support::eras::{Eras, mcp};
use crate::{Config, Ctx, Refused, Service};

/// One instance: its service (sessions, changes, handlers waiting now) and its endpoint.
struct Instance {
    server: Arc<Server>,
    app: Router,
}

struct Server {
    sessions: Sessions<Eras>,
    config: Arc<Config>,
    changes: Changes,
    /// Handlers of `wait` running now.
    waiting: Arc<AtomicUsize>,
}

/// Counts a `wait` handler while it runs.
struct Waiting(Arc<AtomicUsize>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A tool result of `text`.
fn text_result(id: &mcp::RequestId, text: &str) -> Result<String, Refused<Eras>> {
    let result = json!({"content": [{"type": "text", "text": text}]});
    crate::legacy::convert::result_text(id, result)
}

impl Service<Eras> for Server {
    async fn call(
        self: Arc<Self>,
        ctx: Ctx<Eras>,
        request: mcp::ClientRequest,
    ) -> Result<String, Refused<Eras>> {
        let request = serde_json::to_value(&request).unwrap();
        if request["method"] == "tools/list" {
            let result = json!({"tools": [], "cacheScope": "public", "ttlMs": 5});
            return crate::legacy::convert::result_text(&ctx.id, result);
        }
        match request["params"]["name"].as_str() {
            // Asks the client for its roots (a server-to-client request), then tells them.
            Some("ask") => match request["params"].get("inputResponses") {
                None => {
                    let asking = json!({"resultType": "input_required", "inputRequests": {
                        "roots": {"method": "roots/list"}}});
                    crate::legacy::convert::result_text(&ctx.id, asking)
                }
                Some(answers) => {
                    let uri = answers["roots"]["roots"][0]["uri"]
                        .as_str()
                        .unwrap_or("none");
                    text_result(&ctx.id, uri)
                }
            },
            // Runs until stopped.
            Some("wait") => {
                self.waiting.fetch_add(1, Ordering::SeqCst);
                let _counted = Waiting(Arc::clone(&self.waiting));
                std::future::pending::<()>().await;
                unreachable!()
            }
            // Ends the client's connection, then answers on the stream it resumes.
            Some("reconnect") => {
                ctx.notifier.end_connection();
                tokio::time::sleep(Duration::from_millis(300)).await;
                text_result(&ctx.id, "reconnected")
            }
            _ => Err(ctx.fail(mcp_runtime::RpcError::method_not_found("other"))),
        }
    }

    fn versions(&self) -> &[&'static str] {
        &["2026-07-28"]
    }
}

impl Initialize<Eras> for Server {
    fn capabilities(&self) -> mcp::ServerCapabilities {
        mcp::ServerCapabilities::new()
            .with_tools(mcp::ServerCapabilitiesTools::default())
            .with_resources(mcp::ServerCapabilitiesResources::default())
    }

    fn server_info(&self) -> mcp::Implementation {
        mcp::Implementation::new("shared", "1.0")
    }
}

impl LegacyService<Eras> for Server {
    fn sessions(&self) -> &Sessions<Eras> {
        &self.sessions
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn changes(&self) -> Option<&Changes> {
        Some(&self.changes)
    }
}

/// Settings of one test: its own prefix, and deadlines short enough for a test.
fn settings(prefix: &str) -> Settings {
    Settings {
        prefix: prefix.to_owned(),
        response_timeout: Duration::from_millis(500),
        connection_timeout: Duration::from_millis(300),
        ..Settings::default()
    }
}

/// An instance of `config` on the Redis of `url`.
async fn instance(url: &str, prefix: &str, config: Config) -> Instance {
    let config = Arc::new(config);
    let redis = Redis::connect_with(url, settings(prefix)).await.unwrap();
    let server = Arc::new(Server {
        sessions: Sessions::with_redis(Arc::clone(&config), redis)
            .await
            .unwrap(),
        config: Arc::clone(&config),
        changes: Changes::default(),
        waiting: Arc::default(),
    });
    let legacy: Arc<dyn crate::http::Legacy<Eras>> = Arc::new(HttpSessions(Arc::clone(&server)));
    let app = Router::new().route_service(
        "/mcp",
        crate::http::endpoint(Arc::clone(&server), config, Some(legacy)),
    );
    Instance { server, app }
}

/// Two instances on one Redis (the test's `prefix`).
async fn two(server: &RedisServer, prefix: &str, config: Config) -> (Instance, Instance) {
    let a = instance(&server.url(), prefix, config.clone()).await;
    let b = instance(&server.url(), prefix, config).await;
    (a, b)
}

/// A legacy request: `method`, in session `session`, of `principal` (`None`: anonymous).
fn request(
    method: &str,
    session: Option<&str>,
    principal: Option<&str>,
    message: Option<&Value>,
) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri("/mcp")
        .header("host", "localhost")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(id) = session {
        request = request
            .header("mcp-session-id", id)
            .header("mcp-protocol-version", "2025-11-25");
    }
    if let Some(principal) = principal {
        request = request.header("authorization", principal);
    }
    let body = message.map_or_else(Body::empty, |m| Body::from(m.to_string()));
    request.body(body).unwrap()
}

impl Instance {
    async fn send(&self, request: Request<Body>) -> Response<Body> {
        self.app.clone().oneshot(request).await.unwrap()
    }

    async fn post(&self, session: Option<&str>, message: &Value) -> Response<Body> {
        self.send(request("POST", session, None, Some(message)))
            .await
    }

    /// `initialize` of `principal`: the session's id.
    async fn open(&self, principal: Option<&str>) -> Result<String, StatusCode> {
        let opened = self
            .send(request("POST", None, principal, Some(&initialize())))
            .await;
        if opened.status() != StatusCode::OK {
            return Err(opened.status());
        }
        Ok(opened.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned())
    }
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {"roots": {}},
            "clientInfo": {"name": "old", "version": "1"}}})
}

fn call(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn initialized() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
}

async fn json_of(response: Response<Body>) -> Value {
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

/// The SSE events (their `data`, as JSON) of `body` until one satisfies `until`, or the body
/// ends, or 5 s pass.
async fn events_until(body: &mut Body, until: impl Fn(&Value) -> bool) -> Vec<Value> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    let mut text = String::new();
    let mut events = Vec::new();
    loop {
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Ok(Some(Ok(frame))) => frame,
            _ => return events,
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        text.push_str(std::str::from_utf8(&data).unwrap());
        while let Some(end) = text.find("\n\n") {
            let event: String = text.drain(..end + 2).collect();
            let data: String = event
                .lines()
                .filter_map(|l| l.strip_prefix("data: "))
                .collect();
            let id = event
                .lines()
                .find_map(|l| l.strip_prefix("id: "))
                .unwrap_or("");
            let value = serde_json::from_str(&data).unwrap_or(Value::Null);
            let done = until(&value);
            events.push(json!({"id": id, "data": value}));
            if done {
                return events;
            }
        }
    }
}

/// Waits (at most 5 s) until `check` holds.
async fn eventually(mut check: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if check() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    check()
}

#[tokio::test]
async fn a_session_opened_at_one_instance_is_served_at_another() {
    let redis = RedisServer::start();
    let (a, b) = two(&redis, "served", Config::default()).await;
    let id = a.open(None).await.unwrap();

    let listed = b.post(Some(&id), &call(2, "tools/list", json!({}))).await;
    assert_eq!(listed.status(), StatusCode::OK);
    assert_eq!(json_of(listed).await["result"]["tools"], json!([]));
    assert_eq!(
        b.post(Some(&id), &initialized()).await.status(),
        StatusCode::ACCEPTED
    );

    // The level set at A applies to B's next request (and B's copy is told at once).
    let set = call(3, "logging/setLevel", json!({"level": "warning"}));
    assert_eq!(a.post(Some(&id), &set).await.status(), StatusCode::OK);
    let at_b = b.server.sessions.find_anywhere(&id, "anonymous").await;
    let at_b = at_b.unwrap().unwrap();
    assert_eq!(at_b.log_level(), Some(mcp::LoggingLevel::Warning));
    let again = call(4, "logging/setLevel", json!({"level": "error"}));
    assert_eq!(a.post(Some(&id), &again).await.status(), StatusCode::OK);
    assert!(eventually(|| at_b.log_level() == Some(mcp::LoggingLevel::Error)).await);
    // `notifications/initialized` sent at B is A's too.
    let at_a = a.server.sessions.find_anywhere(&id, "anonymous").await;
    let at_a = at_a.unwrap().unwrap();
    tokio::time::timeout(Duration::from_secs(1), at_a.initialized())
        .await
        .expect("initialized at A");

    // Another principal's request naming the session finds nothing, at either instance.
    let list = call(5, "tools/list", json!({}));
    for instance in [&a, &b] {
        let foreign = request("POST", Some(&id), Some("Bearer mallory"), Some(&list));
        let refused = instance.send(foreign).await;
        assert_eq!(refused.status(), StatusCode::NOT_FOUND);
        assert_eq!(json_of(refused).await["error"]["code"], -32001);
        let get = request("GET", Some(&id), Some("Bearer mallory"), None);
        assert_eq!(instance.send(get).await.status(), StatusCode::NOT_FOUND);
        let delete = request("DELETE", Some(&id), Some("Bearer mallory"), None);
        assert_eq!(instance.send(delete).await.status(), StatusCode::NOT_FOUND);
    }
    let unknown = b.post(Some("0123"), &list).await;
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    // The session is still its own principal's.
    let listed = b.post(Some(&id), &call(6, "tools/list", json!({}))).await;
    assert_eq!(listed.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_subscription_made_at_one_instance_is_followed_on_a_stream_at_another() {
    let redis = RedisServer::start();
    let (a, b) = two(&redis, "followed", Config::default()).await;
    let id = a.open(None).await.unwrap();
    let subscribe = call(2, "resources/subscribe", json!({"uri": "test://watched"}));
    assert_eq!(b.post(Some(&id), &subscribe).await.status(), StatusCode::OK);

    let stream = a.send(request("GET", Some(&id), None, None)).await;
    assert_eq!(stream.status(), StatusCode::OK);
    let mut body = stream.into_body();
    // Wait until A's feed listens before telling it of changes.
    assert!(eventually(|| a.server.changes.feeds() == 1).await);
    a.server
        .changes
        .send(Change::Resource("test://other".into()));
    a.server
        .changes
        .send(Change::Resource("test://watched".into()));
    let events = events_until(&mut body, |e| {
        e["method"] == "notifications/resources/updated"
    })
    .await;
    let updated: Vec<&Value> = events
        .iter()
        .filter(|e| e["data"]["method"] == "notifications/resources/updated")
        .collect();
    assert_eq!(updated.len(), 1, "{events:?}");
    assert_eq!(updated[0]["data"]["params"]["uri"], "test://watched");

    // Unsubscribed at B: no longer followed at A.
    let unsubscribe = call(3, "resources/unsubscribe", json!({"uri": "test://watched"}));
    assert_eq!(
        b.post(Some(&id), &unsubscribe).await.status(),
        StatusCode::OK
    );
    let session = a.server.sessions.find_anywhere(&id, "anonymous").await;
    assert!(
        !session
            .unwrap()
            .unwrap()
            .follows("test://watched")
            .await
            .unwrap()
    );
}

#[tokio::test]
async fn a_server_request_sent_at_one_instance_is_answered_at_another() {
    let redis = RedisServer::start();
    let (a, b) = two(&redis, "answered", Config::default()).await;
    let id = a.open(None).await.unwrap();
    assert_eq!(
        b.post(Some(&id), &initialized()).await.status(),
        StatusCode::ACCEPTED
    );
    let asked = a
        .post(Some(&id), &call(2, "tools/call", json!({"name": "ask"})))
        .await;
    assert_eq!(asked.headers()["content-type"], "text/event-stream");
    let mut body = asked.into_body();
    let events = events_until(&mut body, |e| e["method"] == "roots/list").await;
    let request = &events.last().expect("the server's request")["data"];
    assert_eq!(request["method"], "roots/list");
    let asked_id = request["id"].as_str().unwrap().to_owned();

    let roots = json!({"jsonrpc": "2.0", "id": asked_id,
        "result": {"roots": [{"uri": "file:///answered-at-b"}]}});
    assert_eq!(
        b.post(Some(&id), &roots).await.status(),
        StatusCode::ACCEPTED
    );
    let events = events_until(&mut body, |e| e["id"] == 2).await;
    let answer = &events.last().expect("the answer")["data"];
    assert_eq!(
        answer["result"]["content"][0]["text"], "file:///answered-at-b",
        "{events:?}"
    );
}

/// Starts `wait` at `at` (its response read in a task of its own).
async fn start_waiting(at: &Instance, session: &str, request: i64) {
    let app = at.app.clone();
    let message = call(request, "tools/call", json!({"name": "wait"}));
    let post = request_of(session, &message);
    tokio::spawn(async move { app.oneshot(post).await });
    let waiting = Arc::clone(&at.server.waiting);
    let before = waiting.load(Ordering::SeqCst);
    assert!(eventually(|| waiting.load(Ordering::SeqCst) > before).await);
}

fn request_of(session: &str, message: &Value) -> Request<Body> {
    request("POST", Some(session), None, Some(message))
}

#[tokio::test]
async fn a_cancel_or_a_delete_at_one_instance_stops_the_work_at_another() {
    let redis = RedisServer::start();
    let (a, b) = two(&redis, "stopped", Config::default()).await;
    let id = a.open(None).await.unwrap();
    start_waiting(&a, &id, 7).await;
    let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 7}});
    assert_eq!(
        b.post(Some(&id), &cancelled).await.status(),
        StatusCode::ACCEPTED
    );
    let waiting = Arc::clone(&a.server.waiting);
    assert!(eventually(|| waiting.load(Ordering::SeqCst) == 0).await);

    start_waiting(&a, &id, 8).await;
    let ended = b.send(request("DELETE", Some(&id), None, None)).await;
    assert_eq!(ended.status(), StatusCode::OK);
    assert!(eventually(|| waiting.load(Ordering::SeqCst) == 0).await);
    let list = call(9, "tools/list", json!({}));
    assert_eq!(
        a.post(Some(&id), &list).await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(a.server.sessions.count(), 0, "A's copy ended");
}

#[tokio::test]
async fn a_forged_end_note_ends_no_session_whose_record_lives() {
    let redis = RedisServer::start();
    let (a, _b) = two(&redis, "forged", Config::default()).await;
    let id = a.open(None).await.unwrap();
    start_waiting(&a, &id, 7).await;
    // Another client of the Redis says the session ended, straight on the notes' channel, as
    // the old note (no principal) and under the session's principal.
    let client = ::redis::Client::open(redis.url()).unwrap();
    let mut neighbour = client.get_multiplexed_async_connection().await.unwrap();
    let notes = [
        json!({"t": "ended", "s": id}),
        json!({"t": "ended", "s": id, "p": "anonymous"}),
    ];
    for note in notes {
        let heard: i64 = ::redis::cmd("PUBLISH")
            .arg("forged:channel:legacy-sessions")
            .arg(note.to_string())
            .query_async(&mut neighbour)
            .await
            .unwrap();
        assert!(heard >= 2, "both instances listen: {heard}");
    }
    let waiting = Arc::clone(&a.server.waiting);
    let stopped = eventually(|| waiting.load(Ordering::SeqCst) == 0).await;
    assert!(!stopped, "a forged note stopped the session's work");
    let list = call(9, "tools/list", json!({}));
    assert_eq!(a.post(Some(&id), &list).await.status(), StatusCode::OK);
    assert_eq!(a.server.sessions.count(), 1);
    // A real DELETE still ends it, and its work.
    let ended = a.send(request("DELETE", Some(&id), None, None)).await;
    assert_eq!(ended.status(), StatusCode::OK);
    assert!(eventually(|| waiting.load(Ordering::SeqCst) == 0).await);
}

#[tokio::test]
async fn sessions_are_counted_across_instances() {
    let redis = RedisServer::start();
    let config = Config::default().max_sessions(4).principal_share(50);
    let (a, b) = two(&redis, "counted", config).await;
    a.open(None).await.unwrap();
    b.open(None).await.unwrap();
    assert_eq!(a.open(None).await, Err(StatusCode::TOO_MANY_REQUESTS));
    assert_eq!(b.open(None).await, Err(StatusCode::TOO_MANY_REQUESTS));
    let other = b.open(Some("Bearer bob")).await.unwrap();
    a.open(Some("Bearer bob")).await.unwrap();
    assert_eq!(
        a.open(Some("Bearer carol")).await,
        Err(StatusCode::TOO_MANY_REQUESTS),
        "all 4 taken"
    );
    let ended = a.send(request("DELETE", Some(&other), Some("Bearer bob"), None));
    assert_eq!(ended.await.status(), StatusCode::OK);
    assert!(b.open(Some("Bearer carol")).await.is_ok());
}

#[tokio::test]
async fn every_key_has_a_ttl_and_a_client_sent_part_is_escaped() {
    let redis = RedisServer::start();
    let (a, b) = two(&redis, "ttl", Config::default()).await;
    let id = a.open(Some("Bearer a:b*")).await.unwrap();
    let principal = Some("Bearer a:b*");
    let messages = [
        initialized(),
        call(2, "logging/setLevel", json!({"level": "debug"})),
        call(3, "resources/subscribe", json!({"uri": "test://*:x"})),
    ];
    for message in &messages {
        let sent = b
            .send(request("POST", Some(&id), principal, Some(message)))
            .await;
        assert!(sent.status().is_success(), "{}", sent.status());
    }
    assert_eq!(
        b.post(Some("x:*"), &call(4, "tools/list", json!({})))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    let connection = Redis::connect_with(&redis.url(), settings("ttl"))
        .await
        .unwrap();
    let mut commands = connection.commands();
    let keys: Vec<String> = ::redis::cmd("KEYS")
        .arg("*")
        .query_async(&mut commands)
        .await
        .unwrap();
    assert!(keys.len() >= 5, "{keys:?}");
    for key in &keys {
        let ttl: i64 = ::redis::cmd("PTTL")
            .arg(key)
            .query_async(&mut commands)
            .await
            .unwrap();
        assert!(ttl > 0, "{key} has no TTL ({ttl})");
        assert!(
            !key.contains("a:b") && !key.contains('*'),
            "{key}: a client's text unescaped"
        );
    }
}

#[tokio::test]
async fn while_redis_is_down_requests_fail_at_once_and_work_again_when_it_is_back() {
    let mut redis = RedisServer::start();
    let (a, b) = two(&redis, "down", Config::default()).await;
    let id = a.open(None).await.unwrap();
    redis.stop();

    let started = Instant::now();
    let list = call(2, "tools/list", json!({}));
    let refused = b.post(Some(&id), &list).await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    let error = json_of(refused).await;
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unavailable"),
        "{error}"
    );
    assert_eq!(error["id"], 2);
    assert_eq!(
        a.send(request("POST", None, None, Some(&initialize())))
            .await
            .status(),
        StatusCode::SERVICE_UNAVAILABLE
    );
    let get = b.send(request("GET", Some(&id), None, None)).await;
    assert_eq!(get.status(), StatusCode::SERVICE_UNAVAILABLE);
    let delete = b.send(request("DELETE", Some(&id), None, None)).await;
    assert_eq!(delete.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(started.elapsed() < Duration::from_secs(10), "no hang");

    redis.restart();
    let deadline = Instant::now() + Duration::from_secs(10);
    let id = loop {
        match a.open(None).await {
            Ok(id) => break id,
            Err(status) => {
                assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
                assert!(Instant::now() < deadline, "Redis is back, sessions are not");
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let listed = b.post(Some(&id), &list).await;
    assert_eq!(listed.status(), StatusCode::OK);
    // The notes are heard again: a cancel at A stops the work at B.
    start_waiting(&b, &id, 3).await;
    let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 3}});
    let waiting = Arc::clone(&b.server.waiting);
    let deadline = Instant::now() + Duration::from_secs(10);
    while waiting.load(Ordering::SeqCst) > 0 {
        assert!(Instant::now() < deadline, "the cancel never reached B");
        a.post(Some(&id), &cancelled).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn a_stream_is_resumed_at_another_instance() {
    let redis = RedisServer::start();
    let (a, b) = two(&redis, "resumed", Config::default()).await;
    let id = a.open(None).await.unwrap();
    let started = a
        .post(
            Some(&id),
            &call(2, "tools/call", json!({"name": "reconnect"})),
        )
        .await;
    assert_eq!(started.headers()["content-type"], "text/event-stream");
    let mut body = started.into_body();
    let events = events_until(&mut body, |_| false).await;
    let last = events.last().expect("an event before the connection ended");
    let last_id = last["id"].as_str().unwrap().to_owned();
    assert!(
        !events.iter().any(|e| e["data"]["id"] == 2),
        "answered later"
    );

    let mut resume = request("GET", Some(&id), None, None);
    resume
        .headers_mut()
        .insert("last-event-id", last_id.parse().unwrap());
    let resumed = b.send(resume).await;
    assert_eq!(resumed.status(), StatusCode::OK);
    let mut body = resumed.into_body();
    let events = events_until(&mut body, |e| e["id"] == 2).await;
    let answer = &events.last().expect("the answer")["data"];
    assert_eq!(answer["result"]["content"][0]["text"], "reconnected");

    // A stream no instance holds is refused, not waited on forever.
    let mut gone = request("GET", Some(&id), None, None);
    gone.headers_mut()
        .insert("last-event-id", "99-1".parse().unwrap());
    assert_eq!(b.send(gone).await.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_get_stream_opened_at_one_instance_takes_over_from_the_one_at_another() {
    let redis = RedisServer::start();
    let config = Config::default().max_get_streams(4).principal_share(25);
    let (a, b) = two(&redis, "takeover", config).await;
    let id = a.open(None).await.unwrap();
    let first = a.send(request("GET", Some(&id), None, None)).await;
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(a.server.sessions.get_streams(), 1);
    let second = b.send(request("GET", Some(&id), None, None)).await;
    assert_eq!(second.status(), StatusCode::OK);
    let mut body = first.into_body();
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(_)) = body.frame().await {}
    })
    .await;
    assert!(ended.is_ok(), "A's GET stream ended");
    assert_eq!(
        a.server.sessions.get_streams(),
        0,
        "and gave back its share"
    );
    assert_eq!(b.server.sessions.get_streams(), 1);
}

#[tokio::test]
async fn a_request_waiting_for_initialized_reads_the_record_when_the_note_is_lost() {
    let redis = RedisServer::start();
    let (a, _b) = two(&redis, "lost", Config::default()).await;
    let id = a.open(None).await.unwrap();
    let session = a.server.sessions.find_anywhere(&id, "anonymous").await;
    let session = session.unwrap().unwrap();
    let waiting = tokio::spawn({
        let session = Arc::clone(&session);
        async move { session.initialized().await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Recorded as another instance would, but no note told.
    let store = session.store.clone().unwrap();
    assert!(store.set_initialized(&id).await.unwrap());
    tokio::time::timeout(Duration::from_secs(3), waiting)
        .await
        .expect("read from the record")
        .unwrap();
}

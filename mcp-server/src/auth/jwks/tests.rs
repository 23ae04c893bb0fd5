//! A JWKS fetched from a loopback server that changes its set: fetched again on its schedule,
//! kept for a bounded time while fetches fail, and refused over plain http elsewhere.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode, get_current_timestamp};
use serde_json::json;

use super::{FetchError, Jwks, Schedule};
use crate::auth::{JwtValidator, Rejected, TokenValidator};

const ISSUER: &str = "https://auth.example.com";
const RESOURCE: &str = "https://mcp.example.com/mcp";

fn key(name: &str) -> EncodingKey {
    let path = format!("{}/tests/keys/{name}", env!("CARGO_MANIFEST_DIR"));
    let pem = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    EncodingKey::from_ec_pem(&pem)
        .or_else(|_| EncodingKey::from_rsa_pem(&pem))
        .unwrap()
}

/// The two keys of the rotation: `k1` (P-256, ES256) and `k2` (RSA, RS256).
fn k1() -> (EncodingKey, Algorithm, &'static str) {
    (key("ec.pem"), Algorithm::ES256, "k1")
}

fn k2() -> (EncodingKey, Algorithm, &'static str) {
    (key("rsa.pem"), Algorithm::RS256, "k2")
}

/// The JWKS of `keys`.
fn set(keys: &[(EncodingKey, Algorithm, &str)]) -> String {
    let keys = keys
        .iter()
        .map(|(key, alg, kid)| {
            let mut jwk = Jwk::from_encoding_key(key, *alg).unwrap();
            jwk.common.key_id = Some((*kid).to_owned());
            jwk
        })
        .collect();
    serde_json::to_string(&JwkSet { keys }).unwrap()
}

/// A token signed by `key`, valid for ten minutes.
fn token((key, alg, kid): &(EncodingKey, Algorithm, &str)) -> String {
    let now = get_current_timestamp();
    let claims = json!({"iss": ISSUER, "sub": "alice", "aud": RESOURCE, "exp": now + 600});
    let mut header = Header::new(*alg);
    header.kid = Some((*kid).to_owned());
    encode(&header, &claims, key).unwrap()
}

/// What the loopback authorization server answers at `/jwks`.
struct Answer {
    status: StatusCode,
    body: String,
    cache_control: Option<&'static str>,
}

/// A loopback server answering `/jwks` with `answer` as it is at each request: its URL and
/// the number of requests it has had.
async fn serve(answer: Arc<Mutex<Answer>>) -> (String, Arc<Mutex<usize>>) {
    let fetches = Arc::new(Mutex::new(0));
    let count = Arc::clone(&fetches);
    let app = axum::Router::new().route(
        "/jwks",
        axum::routing::get(move || {
            *count.lock().unwrap() += 1;
            let answer = answer.lock().unwrap();
            let mut response = (answer.status, answer.body.clone()).into_response();
            if let Some(value) = answer.cache_control {
                let value = HeaderValue::from_static(value);
                response.headers_mut().insert(header::CACHE_CONTROL, value);
            }
            async move { response }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/jwks", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, fetches)
}

use axum::response::IntoResponse;

/// A schedule in milliseconds, for tests that must not sleep long.
fn quick(max_lifetime_ms: u64, max_stale_ms: u64) -> Schedule {
    Schedule {
        default_lifetime: Duration::from_secs(3600),
        min_lifetime: Duration::ZERO,
        max_lifetime: Duration::from_millis(max_lifetime_ms),
        min_interval: Duration::ZERO,
        max_stale: Duration::from_millis(max_stale_ms),
    }
}

#[tokio::test]
async fn a_key_the_set_drops_stops_verifying_once_its_lifetime_is_over() {
    let answer = Arc::new(Mutex::new(Answer {
        status: StatusCode::OK,
        body: set(&[k1()]),
        cache_control: Some("max-age=3600"),
    }));
    let (url, fetches) = serve(Arc::clone(&answer)).await;
    // max-age asks for an hour; the ceiling makes it 200 ms. No unknown-kid refetch
    // (a long min_interval), so only the schedule can bring k2 in.
    let schedule = Schedule {
        min_interval: Duration::from_secs(3600),
        ..quick(200, 3_600_000)
    };
    let jwks = Jwks::fetch_with(&url, schedule).await.unwrap();
    let validator = JwtValidator::new(ISSUER, RESOURCE, jwks);
    let (old, new) = (token(&k1()), token(&k2()));
    assert!(validator.validate(&old).await.is_ok());

    // The server rotates: k1 out, k2 in. Within the set's lifetime nothing changes.
    answer.lock().unwrap().body = set(&[k2()]);
    assert!(validator.validate(&old).await.is_ok());
    assert_eq!(validator.validate(&new).await, Err(Rejected::UnknownKey));
    assert_eq!(*fetches.lock().unwrap(), 1);

    // Past it, the set is fetched again: k1 is refused, k2 accepted.
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert_eq!(validator.validate(&old).await, Err(Rejected::UnknownKey));
    assert!(validator.validate(&new).await.is_ok());
    assert_eq!(*fetches.lock().unwrap(), 2);
}

#[tokio::test]
async fn a_failing_refetch_keeps_the_last_good_set_for_a_bounded_time() {
    let answer = Arc::new(Mutex::new(Answer {
        status: StatusCode::OK,
        body: set(&[k1()]),
        cache_control: None,
    }));
    let (url, _) = serve(Arc::clone(&answer)).await;
    // Lifetime 100 ms (the default, an hour, above the ceiling); kept 300 ms more.
    let jwks = Jwks::fetch_with(&url, quick(100, 300)).await.unwrap();
    let validator = JwtValidator::new(ISSUER, RESOURCE, jwks);
    let old = token(&k1());

    // The server fails, then answers what is not a key set, then more than the limit.
    answer.lock().unwrap().status = StatusCode::INTERNAL_SERVER_ERROR;
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert!(validator.validate(&old).await.is_ok(), "kept after a 500");
    *answer.lock().unwrap() = Answer {
        status: StatusCode::OK,
        body: "{\"keys\": 5}".to_owned(),
        cache_control: None,
    };
    assert!(
        validator.validate(&old).await.is_ok(),
        "kept after a non-set"
    );
    answer.lock().unwrap().body =
        format!("{{\"keys\": [], \"pad\": \"{}\"}}", "x".repeat(300 * 1024));
    assert!(
        validator.validate(&old).await.is_ok(),
        "kept after a huge set"
    );

    // Past lifetime + max_stale with fetches still failing: no key verifies.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(validator.validate(&old).await, Err(Rejected::UnknownKey));
    assert!(validator.jwks().keys().is_empty());

    // The server recovers: the next due fetch brings the keys back.
    answer.lock().unwrap().body = set(&[k1()]);
    assert!(validator.validate(&old).await.is_ok());
}

#[tokio::test]
async fn a_dropped_set_is_fetched_again_no_more_often_than_the_min_interval() {
    let answer = Arc::new(Mutex::new(Answer {
        status: StatusCode::OK,
        body: set(&[k1()]),
        cache_control: None,
    }));
    let (url, fetches) = serve(Arc::clone(&answer)).await;
    let schedule = Schedule {
        min_interval: Duration::from_secs(3600),
        ..quick(50, 50)
    };
    let jwks = Jwks::fetch_with(&url, schedule).await.unwrap();
    let validator = JwtValidator::new(ISSUER, RESOURCE, jwks);
    let old = token(&k1());
    answer.lock().unwrap().status = StatusCode::SERVICE_UNAVAILABLE;
    tokio::time::sleep(Duration::from_millis(150)).await;
    // The first request past the set's lifetime and stale time fetches, fails, drops the set;
    // the ones after it, known key or not, do not make the server fetch again.
    for _ in 0..5 {
        assert_eq!(validator.validate(&old).await, Err(Rejected::UnknownKey));
        assert_eq!(
            validator.validate(&token(&k2())).await,
            Err(Rejected::UnknownKey)
        );
    }
    assert_eq!(*fetches.lock().unwrap(), 2);
}

#[tokio::test]
async fn plain_http_to_a_host_that_is_not_loopback_is_refused_before_any_request() {
    for url in [
        "http://auth.example.com/jwks",
        "ftp://127.0.0.1/jwks",
        "not a url",
    ] {
        let refused = Jwks::fetch(url).await.unwrap_err();
        assert!(
            matches!(refused, FetchError::Url { .. }),
            "{url}: {refused}"
        );
    }
    let refused = Jwks::fetch("http://auth.example.com/jwks")
        .await
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "the JWKS URL http://auth.example.com/jwks: a JWKS is fetched over https (plain http to loopback only)"
    );
}

#[tokio::test]
async fn an_https_url_is_fetched_with_tls() {
    // A loopback TCP server that is not TLS: the client speaks TLS to it (a ClientHello),
    // so the fetch fails in the handshake, not for want of TLS support in the build.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let hello = tokio::spawn(async move {
        use tokio::io::AsyncReadExt;
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut first = [0u8; 1];
        socket.read_exact(&mut first).await.unwrap();
        first[0]
    });
    let refused = Jwks::fetch(&format!("https://127.0.0.1:{port}/jwks"))
        .await
        .unwrap_err();
    assert!(matches!(refused, FetchError::Http { .. }), "{refused}");
    // 0x16: a TLS handshake record.
    let first = tokio::time::timeout(Duration::from_secs(5), hello).await;
    assert_eq!(first.expect("no connection made").unwrap(), 0x16);
}

//! The endpoint as an OAuth 2.1 protected resource (`mcp_server::auth`, `--auth-*`): the
//! probe of bad tokens (each 401 with the same challenge and body, nothing of the reason),
//! valid tokens served in both eras, the protected resource metadata, 403
//! `insufficient_scope` for a tool that needs more, and the principal taken from the token's
//! subject (a legacy session follows its subject across tokens, and no other subject).
//! Tokens are signed with mcp-server's test-only keys (`mcp-server/tests/keys`).

use std::sync::Arc;

use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode, get_current_timestamp};
use mcp_server::Config;
use mcp_server::auth::{Auth, Jwks, JwtValidator, KeySet};
use serde_json::{Value, json};

use super::legacy::{initialize, request};
use super::{call, meta, send, serve_app};
use mcp_server::tasks::Settings;

const ISSUER: &str = "https://auth.example.test";

/// The fixed bodies of the challenges (mcp_server::auth's).
const INVALID_BODY: &str =
    r#"{"error":"invalid_token","error_description":"The access token is not valid"}"#;
const MISSING_BODY: &str =
    r#"{"error":"unauthorized","error_description":"This resource needs a bearer token"}"#;

fn pem(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../mcp-server/tests/keys/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn rsa() -> EncodingKey {
    EncodingKey::from_rsa_pem(&pem("rsa.pem")).unwrap()
}

fn ec() -> EncodingKey {
    EncodingKey::from_ec_pem(&pem("ec.pem")).unwrap()
}

/// The JWKS the server trusts: `rsa-1` (RS256) and `ec-1` (ES256).
fn jwks() -> Value {
    let named = |key: &EncodingKey, alg, kid: &str| {
        let mut jwk = Jwk::from_encoding_key(key, alg).unwrap();
        jwk.common.key_id = Some(kid.to_owned());
        jwk
    };
    let keys = vec![
        named(&rsa(), Algorithm::RS256, "rsa-1"),
        named(&ec(), Algorithm::ES256, "ec-1"),
    ];
    serde_json::to_value(JwkSet { keys }).unwrap()
}

/// A protected server: tokens of [`ISSUER`] for its endpoint's URL, challenge scope
/// `mcp:read`, `test_simple_text` needing `mcp:write`. Its endpoint URL.
async fn start_protected() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let keys = KeySet::from_value(&jwks()).unwrap();
    let validator = JwtValidator::new(ISSUER, &url, Jwks::fixed(keys));
    let auth = Auth::new(validator, &url)
        .unwrap()
        .authorization_server(ISSUER)
        .scopes_supported(["mcp:read", "mcp:write"])
        .challenge_scopes(["mcp:read"])
        .tool_scope("test_simple_text", "mcp:write");
    let (served, _) = serve_app(listener, Settings::default(), Config::default().auth(auth));
    assert_eq!(served, url);
    url
}

/// Claims valid now for `url`, of subject `sub` with `scope`.
fn claims(url: &str, sub: &str, scope: &str) -> Value {
    let now = get_current_timestamp();
    json!({"iss": ISSUER, "sub": sub, "aud": url, "exp": now + 600, "iat": now, "scope": scope})
}

fn sign(alg: Algorithm, kid: &str, key: &EncodingKey, claims: &Value) -> String {
    let mut header = Header::new(alg);
    header.kid = Some(kid.to_owned());
    encode(&header, claims, key).unwrap()
}

/// A valid RS256 token of `sub` with `scope`, for `url`.
fn token(url: &str, sub: &str, scope: &str) -> String {
    sign(Algorithm::RS256, "rsa-1", &rsa(), &claims(url, sub, scope))
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

fn discover() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta(json!({}))}})
}

fn prm_url(url: &str) -> String {
    url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")
}

fn www(response: &reqwest::Response) -> String {
    response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

/// base64url without padding, for the hand-made tokens.
fn b64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

#[tokio::test]
async fn every_bad_token_is_401_invalid_token_and_says_nothing_more() {
    let url = start_protected().await;
    let now = get_current_timestamp();
    let with = |change: &dyn Fn(&mut Value)| {
        let mut c = claims(&url, "alice", "mcp:read");
        change(&mut c);
        c
    };
    let other = EncodingKey::from_rsa_pem(&pem("rsa-other.pem")).unwrap();
    let hmac = EncodingKey::from_secret(&pem("rsa.pub.pem")).unwrap();
    let good = claims(&url, "alice", "mcp:read");
    let none = format!(
        "{}.{}.",
        b64(br#"{"alg":"none","typ":"JWT"}"#),
        b64(good.to_string().as_bytes())
    );
    let bad: Vec<(&str, String)> = vec![
        (
            "expired",
            token_of(&with(&|c| c["exp"] = json!(now - 3600))),
        ),
        (
            "not yet valid",
            token_of(&with(&|c| c["nbf"] = json!(now + 3600))),
        ),
        (
            "wrong audience",
            token_of(&with(&|c| c["aud"] = json!("http://127.0.0.1:1/mcp"))),
        ),
        (
            "wrong issuer",
            token_of(&with(&|c| c["iss"] = json!("https://evil.example"))),
        ),
        (
            "wrong signature",
            sign(Algorithm::RS256, "rsa-1", &other, &good),
        ),
        (
            "unknown kid",
            sign(Algorithm::RS256, "rsa-9", &rsa(), &good),
        ),
        ("alg none", none),
        (
            "HS256 with the public key",
            sign(Algorithm::HS256, "rsa-1", &hmac, &good),
        ),
        ("malformed", "not.a.jwt".to_owned()),
        ("oversized", "a".repeat(9 * 1024)),
    ];
    let expected = format!(
        "Bearer error=\"invalid_token\", resource_metadata=\"{}\", scope=\"mcp:read\"",
        prm_url(&url)
    );
    for (what, token) in &bad {
        let response = send(
            &url,
            &discover(),
            None,
            &[("authorization", &bearer(token))],
        )
        .await;
        assert_eq!(response.status(), 401, "{what}");
        assert_eq!(www(&response), expected, "{what}");
        assert_eq!(response.text().await.unwrap(), INVALID_BODY, "{what}");
    }
    // No token, or another scheme: challenged without an error code.
    let missing = format!(
        "Bearer resource_metadata=\"{}\", scope=\"mcp:read\"",
        prm_url(&url)
    );
    for (what, extra) in [
        ("missing header", vec![]),
        (
            "wrong scheme",
            vec![("authorization", "Basic YWxpY2U6c2VjcmV0")],
        ),
    ] {
        let response = send(&url, &discover(), None, &extra).await;
        assert_eq!(response.status(), 401, "{what}");
        assert_eq!(www(&response), missing, "{what}");
        assert_eq!(response.text().await.unwrap(), MISSING_BODY, "{what}");
    }
    // GET and DELETE need a token too.
    let client = reqwest::Client::new();
    for response in [
        client
            .get(&url)
            .header("mcp-session-id", "x")
            .send()
            .await
            .unwrap(),
        client
            .delete(&url)
            .header("mcp-session-id", "x")
            .send()
            .await
            .unwrap(),
    ] {
        assert_eq!(response.status(), 401);
        assert_eq!(www(&response), missing);
    }
    // The valid token goes through (ES256 too).
    let es = sign(Algorithm::ES256, "ec-1", &ec(), &good);
    for token in [token_of(&good), es] {
        let response = send(
            &url,
            &discover(),
            None,
            &[("authorization", &bearer(&token))],
        )
        .await;
        assert_eq!(response.status(), 200);
    }
}

fn token_of(claims: &Value) -> String {
    sign(Algorithm::RS256, "rsa-1", &rsa(), claims)
}

#[tokio::test]
async fn the_protected_resource_metadata_is_served_at_both_well_known_paths() {
    let url = start_protected().await;
    let root = url.replace("/mcp", "/.well-known/oauth-protected-resource");
    for at in [prm_url(&url), root] {
        let response = reqwest::get(&at).await.unwrap();
        assert_eq!(response.status(), 200, "{at}");
        assert_eq!(response.headers()["content-type"], "application/json");
        let document: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
        assert_eq!(
            document,
            json!({
                "resource": url,
                "authorization_servers": [ISSUER],
                "scopes_supported": ["mcp:read", "mcp:write"],
                "bearer_methods_supported": ["header"],
            }),
            "{at}"
        );
    }
}

#[tokio::test]
async fn a_tool_that_needs_more_scope_is_403_insufficient_scope_in_both_eras() {
    let url = start_protected().await;
    let reader = bearer(&token(&url, "alice", "mcp:read"));
    let writer = bearer(&token(&url, "alice", "mcp:read mcp:write"));
    let expected = format!(
        "Bearer error=\"insufficient_scope\", scope=\"mcp:read mcp:write\", resource_metadata=\"{}\"",
        prm_url(&url)
    );
    let body = call(1, "test_simple_text", json!({}), json!({}));
    let name = Some("test_simple_text");
    let refused = send(&url, &body, name, &[("authorization", &reader)]).await;
    assert_eq!(refused.status(), 403);
    assert_eq!(www(&refused), expected);
    // Another tool needs no more than a token.
    let other = call(2, "test_image_content", json!({}), json!({}));
    let served = send(
        &url,
        &other,
        Some("test_image_content"),
        &[("authorization", &reader)],
    )
    .await;
    assert_eq!(served.status(), 200);
    let served = send(&url, &body, name, &[("authorization", &writer)]).await;
    assert_eq!(served.status(), 200);
    let answer: Value = serde_json::from_str(&served.text().await.unwrap()).unwrap();
    assert_eq!(answer["result"]["content"][0]["type"], "text", "{answer}");

    // A legacy session: the same rule for its tools/call.
    let session = open_session(&url, &reader).await;
    let legacy_call = request(
        3,
        "tools/call",
        json!({"name": "test_simple_text", "arguments": {}}),
    );
    let refused = legacy_send(&url, Some(&session), &reader, &legacy_call).await;
    assert_eq!(refused.status(), 403);
    assert_eq!(www(&refused), expected);
    // The same subject with more scope: the same session, served.
    let served = legacy_send(&url, Some(&session), &writer, &legacy_call).await;
    assert_eq!(served.status(), 200);
    assert!(served.text().await.unwrap().contains("\"result\""));
}

/// POSTs `body` as a legacy client with `authorization`.
async fn legacy_send(
    url: &str,
    session: Option<&str>,
    authorization: &str,
    body: &Value,
) -> reqwest::Response {
    super::legacy::send(url, session, Some(authorization), body).await
}

/// A legacy session opened (and initialized) with `authorization`.
async fn open_session(url: &str, authorization: &str) -> String {
    let response = legacy_send(url, None, authorization, &initialize(1)).await;
    assert_eq!(response.status(), 200);
    let id = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let answer: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
    assert_eq!(answer["result"]["protocolVersion"], "2025-11-25");
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = legacy_send(url, Some(&id), authorization, &note).await;
    assert_eq!(response.status(), 202);
    id
}

#[tokio::test]
async fn a_legacy_session_follows_its_subject_across_tokens_and_no_one_else() {
    let url = start_protected().await;
    let first = bearer(&token(&url, "alice", "mcp:read"));
    // Another token of the same subject (other claims, so other bytes).
    let mut later = claims(&url, "alice", "mcp:read");
    later["exp"] = json!(get_current_timestamp() + 1200);
    let second = bearer(&token_of(&later));
    assert_ne!(first, second);
    let mallory = bearer(&token(&url, "mallory", "mcp:read mcp:write"));

    // Without a token, a legacy initialize is challenged like any request.
    let refused = super::legacy::send(&url, None, None, &initialize(1)).await;
    assert_eq!(refused.status(), 401);

    let session = open_session(&url, &first).await;
    let list = request(2, "tools/list", json!({}));
    let served = legacy_send(&url, Some(&session), &second, &list).await;
    assert_eq!(served.status(), 200);
    assert!(served.text().await.unwrap().contains("test_simple_text"));

    // Another subject does not find the session, whatever its scopes.
    let refused = legacy_send(&url, Some(&session), &mallory, &list).await;
    assert_eq!(refused.status(), 404);
    let client = reqwest::Client::new();
    let delete = |authorization: &str| {
        client
            .delete(&url)
            .header("mcp-session-id", &session)
            .header("authorization", authorization)
            .send()
    };
    assert_eq!(delete(&mallory).await.unwrap().status(), 404);
    // Its subject ends it, with either token.
    assert!(delete(&second).await.unwrap().status().is_success());
    let gone = legacy_send(&url, Some(&session), &first, &list).await;
    assert_eq!(gone.status(), 404);
}

#[tokio::test]
async fn without_auth_nothing_is_asked_and_no_metadata_is_served() {
    let (url, _) = super::start_app(Settings::default(), Config::default()).await;
    let response = send(&url, &discover(), None, &[]).await;
    assert_eq!(response.status(), 200);
    let metadata = reqwest::get(prm_url(&url)).await.unwrap();
    assert_eq!(metadata.status(), 404);
}

#[tokio::test]
async fn a_fetched_jwks_is_fetched_again_for_an_unknown_kid_and_no_sooner_than_allowed() {
    use std::sync::Mutex;
    use std::time::Duration;
    // The authorization server's JWKS endpoint: `ec-1` first; `rsa-1` is added later.
    let all = jwks();
    let served = Arc::new(Mutex::new(json!({"keys": [all["keys"][1]]})));
    let fetches = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (doc, count) = (Arc::clone(&served), Arc::clone(&fetches));
    let app = axum::Router::new().route(
        "/jwks",
        axum::routing::get(move || {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let body = doc.lock().unwrap().to_string();
            async move { body }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let jwks_url = format!("http://{}/jwks", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let resource = "http://127.0.0.1:1/mcp";
    let validator = |interval| {
        let url = jwks_url.clone();
        async move {
            let jwks = Jwks::fetch_every(&url, interval).await.unwrap();
            JwtValidator::new(ISSUER, resource, jwks)
        }
    };
    use mcp_server::auth::{Rejected, TokenValidator};
    let rsa_token = token(resource, "alice", "");

    // A long interval: the unknown kid does not make it fetch again.
    let patient = validator(Duration::from_secs(3600)).await;
    assert_eq!(fetches.load(std::sync::atomic::Ordering::SeqCst), 1);
    *served.lock().unwrap() = all.clone();
    let refused = patient.validate(&rsa_token).await.unwrap_err();
    assert_eq!(refused, Rejected::UnknownKey);
    assert_eq!(fetches.load(std::sync::atomic::Ordering::SeqCst), 1);

    // No wait: the unknown kid fetches the rotated set, and the token is accepted.
    *served.lock().unwrap() = json!({"keys": [all["keys"][1]]});
    let eager = validator(Duration::ZERO).await;
    *served.lock().unwrap() = all;
    let grant = eager.validate(&rsa_token).await.unwrap();
    assert_eq!(grant.principal, format!("{ISSUER}#alice"));
    assert_eq!(fetches.load(std::sync::atomic::Ordering::SeqCst), 3);
}

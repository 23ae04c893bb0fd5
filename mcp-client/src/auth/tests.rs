//! The flow end to end on loopback. One axum process plays the protected MCP endpoint
//! (`/mcp`) and its authorization servers (`/{name}/…`, each its own issuer
//! `http://127.0.0.1:port/{name}`); it misbehaves as each test's [`Config`] says and records
//! what it saw in [`Seen`], which the tests check for what the client did and did not do.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use base64::Engine as _;
use oauth2::{PkceCodeChallenge, PkceCodeVerifier};
use serde_json::{Value, json};

use super::*;
use crate::ClientError;

/// The redirect URI the client registers; the headless agent never contacts it.
const REDIRECT: &str = "http://127.0.0.1:1/callback";

/// The `iss` of the authorization response.
#[derive(Clone)]
enum Iss {
    /// The issuer's.
    Issuer,
    /// None.
    Absent,
    /// This one.
    Value(String),
}

/// How the mock behaves; the default behaves well.
#[derive(Clone)]
struct Config {
    /// The authorization server the resource metadata names; its tokens are the valid ones.
    current_as: String,
    /// The resource metadata's `resource` (the endpoint's URL when `None`).
    resource: Option<String>,
    /// The issuer the authorization server metadata claims (its own when `None`).
    claimed_issuer: Option<String>,
    /// The `scope` of the 401 challenge.
    challenge_scope: Option<String>,
    /// The scopes a token needs, else 403 `insufficient_scope` naming the missing ones.
    required_scopes: Vec<String>,
    /// 403 `insufficient_scope` to every request, token or not.
    always_forbid: bool,
    /// 403 with no challenge (a refusal that is not about scope) to every request.
    forbid_plainly: bool,
    /// `/token` checks the verifier against another challenge than the one sent (an
    /// authorization code that went elsewhere).
    swap_challenge: bool,
    /// 401 to the next request with a valid token.
    reject_once: bool,
    /// The authorization servers' `scopes_supported`.
    scopes_supported: Option<Vec<String>>,
    /// Their `token_endpoint_auth_methods_supported`.
    auth_methods: Vec<String>,
    /// Their `authorization_response_iss_parameter_supported`.
    iss_supported: bool,
    /// The redirect's `iss`.
    iss: Iss,
    /// Where `/authorize` redirects (the `redirect_uri` asked for when `None`).
    redirect_to: Option<String>,
    /// The redirect's `state` (the one asked for when `None`).
    state: Option<String>,
    /// Whether token responses carry a refresh token.
    refresh_tokens: bool,
    /// The challenge's `resource_metadata` (the mock's own document when `None`).
    challenge_metadata: Option<String>,
    /// The authorization server the resource metadata names (`current_as`'s issuer when
    /// `None`).
    named_issuer: Option<String>,
    /// The `token_endpoint` the authorization server metadata names (its own when `None`).
    token_endpoint: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            current_as: "as1".to_owned(),
            resource: None,
            claimed_issuer: None,
            challenge_scope: None,
            required_scopes: Vec::new(),
            always_forbid: false,
            forbid_plainly: false,
            swap_challenge: false,
            reject_once: false,
            scopes_supported: None,
            auth_methods: vec!["none".to_owned()],
            iss_supported: true,
            iss: Iss::Issuer,
            redirect_to: None,
            state: None,
            refresh_tokens: false,
            challenge_metadata: None,
            named_issuer: None,
            token_endpoint: None,
        }
    }
}

/// One request to an authorization server endpoint.
#[derive(Clone, Debug)]
struct Call {
    /// The authorization server's name.
    at: String,
    /// Its query or form parameters.
    params: HashMap<String, String>,
    /// Its `Authorization` header.
    authorization: Option<String>,
}

impl Call {
    fn param(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }
}

/// What the mock saw.
#[derive(Clone, Debug, Default)]
struct Seen {
    /// Every request's path, in order.
    paths: Vec<String>,
    /// The `Authorization` header of each request to `/mcp`.
    mcp_auth: Vec<Option<String>>,
    authorize: Vec<Call>,
    token: Vec<Call>,
    /// Each registration: the authorization server and the client id it gave.
    registered: Vec<(String, String)>,
    /// The access tokens issued, in order.
    issued: Vec<String>,
    /// Whether each code's `code_verifier` matched its S256 `code_challenge`.
    pkce: Vec<bool>,
}

impl Seen {
    fn hits(&self, path: &str) -> usize {
        self.paths.iter().filter(|p| *p == path).count()
    }
}

#[derive(Default)]
struct Inner {
    config: Config,
    seen: Seen,
    /// Codes issued: the authorization server and the authorization request.
    codes: HashMap<String, Call>,
    /// Access tokens issued: their authorization server and scopes.
    tokens: HashMap<String, (String, Vec<String>)>,
    /// Refresh tokens issued: the same.
    refresh: HashMap<String, (String, Vec<String>)>,
    next: usize,
}

struct Mock {
    base: String,
    inner: Mutex<Inner>,
}

impl Mock {
    async fn start(config: Config) -> Arc<Mock> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mock = Arc::new(Mock {
            base: format!("http://{}", listener.local_addr().unwrap()),
            inner: Mutex::new(Inner {
                config,
                ..Inner::default()
            }),
        });
        let app = Router::new()
            .route("/mcp", post(mcp))
            .route(
                "/.well-known/oauth-protected-resource/mcp",
                get(resource_metadata),
            )
            .route(
                "/.well-known/oauth-authorization-server/{name}",
                get(server_metadata),
            )
            .route("/{name}/authorize", get(authorize))
            .route("/{name}/token", post(token))
            .route("/{name}/register", post(register))
            .layer(middleware::from_fn_with_state(mock.clone(), record))
            .with_state(mock.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        mock
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap()
    }

    fn endpoint(&self) -> String {
        format!("{}/mcp", self.base)
    }

    fn issuer(&self, name: &str) -> String {
        format!("{}/{name}", self.base)
    }

    fn seen(&self) -> Seen {
        self.lock().seen.clone()
    }

    fn configure(&self, change: impl FnOnce(&mut Config)) {
        change(&mut self.lock().config);
    }

    /// Issues an access token (and a refresh token when configured) at `at` for `scopes`.
    fn issue(&self, inner: &mut Inner, at: &str, scopes: Vec<String>) -> Response {
        inner.next += 1;
        let access = format!("{at}-access-{}", inner.next);
        let mut body = json!({"access_token": access, "token_type": "Bearer"});
        if !scopes.is_empty() {
            body["scope"] = json!(scopes.join(" "));
        }
        if inner.config.refresh_tokens {
            let refresh = format!("{at}-refresh-{}", inner.next);
            body["refresh_token"] = json!(refresh);
            inner
                .refresh
                .insert(refresh, (at.to_owned(), scopes.clone()));
        }
        inner.seen.issued.push(access.clone());
        inner.tokens.insert(access, (at.to_owned(), scopes));
        Json(body).into_response()
    }
}

fn header_of(headers: &HeaderMap, name: header::HeaderName) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// A `Bearer` challenge with `status`, naming the resource metadata `config` says.
fn refusal(
    mock: &Mock,
    config: &Config,
    status: StatusCode,
    scope: Option<&str>,
    error: Option<&str>,
) -> Response {
    let metadata = (config.challenge_metadata.clone())
        .unwrap_or_else(|| format!("{}/.well-known/oauth-protected-resource/mcp", mock.base));
    let mut value = format!(r#"Bearer resource_metadata="{metadata}""#);
    if let Some(error) = error {
        value += &format!(r#", error="{error}""#);
    }
    if let Some(scope) = scope {
        value += &format!(r#", scope="{scope}""#);
    }
    (status, [(header::WWW_AUTHENTICATE, value)]).into_response()
}

fn oauth_error(error: &str) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({ "error": error }))).into_response()
}

async fn record(State(mock): State<Arc<Mock>>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    mock.lock().seen.paths.push(path);
    next.run(request).await
}

/// The protected endpoint: 200 with a valid token of the current authorization server that
/// has the required scopes; 401 or 403 otherwise, as configured.
async fn mcp(State(mock): State<Arc<Mock>>, headers: HeaderMap) -> Response {
    let mut inner = mock.lock();
    let sent = header_of(&headers, header::AUTHORIZATION);
    inner.seen.mcp_auth.push(sent.clone());
    if inner.config.forbid_plainly {
        return (StatusCode::FORBIDDEN, "forbidden origin").into_response();
    }
    if inner.config.always_forbid {
        return refusal(
            &mock,
            &inner.config,
            StatusCode::FORBIDDEN,
            Some("x"),
            Some("insufficient_scope"),
        );
    }
    let granted = sent
        .as_deref()
        .and_then(|s| s.strip_prefix("Bearer "))
        .and_then(|t| inner.tokens.get(t))
        .filter(|(at, _)| *at == inner.config.current_as)
        .map(|(_, scopes)| scopes.clone());
    let Some(granted) = granted else {
        let scope = inner.config.challenge_scope.clone();
        return refusal(
            &mock,
            &inner.config,
            StatusCode::UNAUTHORIZED,
            scope.as_deref(),
            None,
        );
    };
    if inner.config.reject_once {
        inner.config.reject_once = false;
        return refusal(
            &mock,
            &inner.config,
            StatusCode::UNAUTHORIZED,
            None,
            Some("invalid_token"),
        );
    }
    let missing: Vec<String> = (inner.config.required_scopes.iter())
        .filter(|s| !granted.contains(s))
        .cloned()
        .collect();
    if !missing.is_empty() {
        return refusal(
            &mock,
            &inner.config,
            StatusCode::FORBIDDEN,
            Some(&missing.join(" ")),
            Some("insufficient_scope"),
        );
    }
    Json(json!({"jsonrpc": "2.0", "id": 1, "result": {}})).into_response()
}

async fn resource_metadata(State(mock): State<Arc<Mock>>) -> Json<Value> {
    let config = mock.lock().config.clone();
    Json(json!({
        "resource": config.resource.unwrap_or_else(|| mock.endpoint()),
        "authorization_servers": [config.named_issuer.unwrap_or_else(|| mock.issuer(&config.current_as))],
    }))
}

async fn server_metadata(State(mock): State<Arc<Mock>>, Path(name): Path<String>) -> Json<Value> {
    let config = mock.lock().config.clone();
    let endpoint = |what: &str| format!("{}/{what}", mock.issuer(&name));
    Json(json!({
        "issuer": config.claimed_issuer.unwrap_or_else(|| mock.issuer(&name)),
        "authorization_endpoint": endpoint("authorize"),
        "token_endpoint": config.token_endpoint.unwrap_or_else(|| endpoint("token")),
        "registration_endpoint": endpoint("register"),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": config.auth_methods,
        "scopes_supported": config.scopes_supported,
        "authorization_response_iss_parameter_supported": config.iss_supported,
    }))
}

/// Approves at once: a code, redirected with `state` and `iss` (or what the test says).
async fn authorize(
    State(mock): State<Arc<Mock>>,
    Path(name): Path<String>,
    Query(params): Query<HashMap<String, String>>,
) -> Response {
    let mut inner = mock.lock();
    let call = Call {
        at: name.clone(),
        params,
        authorization: None,
    };
    inner.seen.authorize.push(call.clone());
    let config = inner.config.clone();
    let Some(target) = config.redirect_to.as_deref().or(call.param("redirect_uri")) else {
        return oauth_error("invalid_request");
    };
    let mut location = url::Url::parse(target).unwrap();
    inner.next += 1;
    let code = format!("{name}-code-{}", inner.next);
    {
        let mut query = location.query_pairs_mut();
        query.append_pair("code", &code);
        let state = config.state.as_deref().or(call.param("state"));
        query.append_pair("state", state.unwrap_or_default());
        let iss = match &config.iss {
            Iss::Issuer => Some(mock.issuer(&name)),
            Iss::Absent => None,
            Iss::Value(iss) => Some(iss.clone()),
        };
        if let Some(iss) = iss {
            query.append_pair("iss", &iss);
        }
    }
    inner.codes.insert(code, call);
    (
        StatusCode::FOUND,
        [(header::LOCATION, location.to_string())],
    )
        .into_response()
}

/// The token endpoint: a code of this server whose verifier matches its S256 challenge, or a
/// refresh token of this server.
async fn token(
    State(mock): State<Arc<Mock>>,
    Path(name): Path<String>,
    headers: HeaderMap,
    Form(params): Form<HashMap<String, String>>,
) -> Response {
    let mut inner = mock.lock();
    let call = Call {
        at: name.clone(),
        params,
        authorization: header_of(&headers, header::AUTHORIZATION),
    };
    inner.seen.token.push(call.clone());
    match call.param("grant_type") {
        Some("authorization_code") => {
            let asked = call.param("code").and_then(|c| inner.codes.remove(c));
            let Some(asked) = asked.filter(|a| a.at == name) else {
                return oauth_error("invalid_grant");
            };
            let verifier =
                PkceCodeVerifier::new(call.param("code_verifier").unwrap_or_default().to_owned());
            let computed = PkceCodeChallenge::from_code_verifier_sha256(&verifier);
            let stored = match inner.config.swap_challenge {
                true => Some("another-challenge"),
                false => asked.param("code_challenge"),
            };
            let matched = asked.param("code_challenge_method") == Some("S256")
                && stored == Some(computed.as_str());
            inner.seen.pkce.push(matched);
            if !matched {
                return oauth_error("invalid_grant");
            }
            let scopes = challenge::split_scopes(asked.param("scope"));
            mock.issue(&mut inner, &name, scopes)
        }
        Some("refresh_token") => {
            let known = call
                .param("refresh_token")
                .and_then(|r| inner.refresh.get(r));
            match known.filter(|(at, _)| *at == name).cloned() {
                Some((_, scopes)) => mock.issue(&mut inner, &name, scopes),
                None => oauth_error("invalid_grant"),
            }
        }
        _ => oauth_error("unsupported_grant_type"),
    }
}

/// Dynamic registration: a public client `{name}-client-{n}`.
async fn register(
    State(mock): State<Arc<Mock>>,
    Path(name): Path<String>,
    Json(body): Json<Value>,
) -> Response {
    let mut inner = mock.lock();
    inner.next += 1;
    let client_id = format!("{name}-client-{}", inner.next);
    inner.seen.registered.push((name, client_id.clone()));
    let answer = json!({
        "client_id": client_id,
        "redirect_uris": body["redirect_uris"],
        "token_endpoint_auth_method": "none",
    });
    (StatusCode::CREATED, Json(answer)).into_response()
}

// The client side.

fn settings() -> Settings {
    Settings::new("auth-tests", Headless::new(REDIRECT))
}

/// Sends a request to the mock's endpoint through `auth`: the status and body.
async fn call(auth: &Authorizer, mock: &Mock) -> Result<(u16, String), ClientError> {
    let url = mock.endpoint();
    let request = reqwest::Client::new()
        .post(&url)
        .header("content-type", "application/json")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    let resp = auth.send(&url, request).await?;
    let status = resp.status().as_u16();
    Ok((status, resp.text().await.unwrap()))
}

/// The authorization error a request ends with.
async fn refused(auth: &Authorizer, mock: &Mock) -> AuthError {
    match call(auth, mock).await {
        Err(ClientError::Auth(e)) => e,
        other => panic!("expected an authorization error, got {other:?}"),
    }
}

/// Asserts the mock never saw a request to any of `paths` (relative to the base).
fn never_hit(seen: &Seen, paths: &[&str]) {
    for path in paths {
        assert_eq!(seen.hits(path), 0, "{path} was requested: {:?}", seen.paths);
    }
}

async fn started(config: Config) -> (Arc<Mock>, Arc<Authorizer>) {
    let mock = Mock::start(config).await;
    (mock, Authorizer::new(settings()).unwrap())
}

#[tokio::test]
async fn one_flow_then_the_token_is_sent_and_reused() {
    let mock = Mock::start(Config::default()).await;
    // A resource identifier the client must send as written (a parsed URL would gain a "/").
    let resource = mock.base.clone();
    mock.configure(|c| c.resource = Some(resource.clone()));
    let auth = Authorizer::new(settings()).unwrap();

    let (status, body) = call(&auth, &mock).await.unwrap();
    assert_eq!(status, 200);
    assert!(body.contains(r#""result""#), "{body}");
    let seen = mock.seen();
    assert_eq!(seen.issued.len(), 1);
    let bearer = Some(format!("Bearer {}", seen.issued[0]));
    assert_eq!(
        seen.mcp_auth,
        [None, bearer.clone()],
        "the retried request carries the issued token"
    );
    assert_eq!(seen.registered.len(), 1);
    let client_id = seen.registered[0].1.as_str();
    assert_eq!(seen.authorize.len(), 1);
    assert_eq!(seen.token.len(), 1);
    assert_eq!(seen.pkce, [true], "the verifier matches the S256 challenge");
    let (asked, exchanged) = (&seen.authorize[0], &seen.token[0]);
    assert_eq!(asked.param("code_challenge_method"), Some("S256"));
    assert_eq!(asked.param("response_type"), Some("code"));
    assert_eq!(asked.param("redirect_uri"), Some(REDIRECT));
    assert_eq!(asked.param("client_id"), Some(client_id));
    assert_eq!(asked.param("resource"), Some(resource.as_str()));
    assert_eq!(exchanged.param("resource"), Some(resource.as_str()));
    assert_eq!(exchanged.param("grant_type"), Some("authorization_code"));
    assert_eq!(exchanged.param("client_id"), Some(client_id));

    let (status, _) = call(&auth, &mock).await.unwrap();
    assert_eq!(status, 200);
    let seen = mock.seen();
    assert_eq!(seen.mcp_auth.last(), Some(&bearer), "the token is reused");
    assert_eq!(seen.hits("/mcp"), 3, "the second request is sent once");
    assert_eq!(seen.authorize.len(), 1, "no second flow");
    assert_eq!(seen.token.len(), 1);
    assert_eq!(seen.hits("/.well-known/oauth-authorization-server/as1"), 1);
}

#[tokio::test]
async fn metadata_naming_another_issuer_is_refused() {
    let mock = Mock::start(Config::default()).await;
    let other = mock.issuer("other");
    mock.configure(|c| c.claimed_issuer = Some(other.clone()));
    let auth = Authorizer::new(settings()).unwrap();

    let e = refused(&auth, &mock).await;
    assert_eq!(
        e,
        AuthError::IssuerMismatch {
            expected: mock.issuer("as1"),
            found: other
        }
    );
    never_hit(
        &mock.seen(),
        &["/as1/register", "/as1/authorize", "/as1/token"],
    );
    assert_eq!(mock.seen().hits("/mcp"), 1);
}

#[tokio::test]
async fn resource_metadata_naming_another_origin_is_refused() {
    let mock = Mock::start(Config::default()).await;
    let port = mock.base.rsplit(':').next().unwrap().to_owned();
    let elsewhere = format!("http://127.0.0.2:{port}/mcp");
    mock.configure(|c| c.resource = Some(elsewhere.clone()));
    let auth = Authorizer::new(settings()).unwrap();

    let e = refused(&auth, &mock).await;
    assert_eq!(
        e,
        AuthError::ResourceMismatch {
            server: mock.endpoint(),
            resource: elsewhere
        }
    );
    let seen = mock.seen();
    never_hit(
        &seen,
        &[
            "/.well-known/oauth-authorization-server/as1",
            "/as1/register",
            "/as1/authorize",
            "/as1/token",
        ],
    );
}

#[tokio::test]
async fn a_promised_iss_that_does_not_come_is_refused() {
    let (mock, auth) = started(Config {
        iss_supported: true,
        iss: Iss::Absent,
        ..Config::default()
    })
    .await;

    assert_eq!(refused(&auth, &mock).await, AuthError::IssMissing);
    let seen = mock.seen();
    assert_eq!(seen.authorize.len(), 1);
    never_hit(&seen, &["/as1/token"]);
    assert_eq!(auth.tokens(&mock.endpoint()), None);
}

#[tokio::test]
async fn an_iss_other_than_the_issuer_is_refused_without_normalisation() {
    let mock = Mock::start(Config::default()).await;
    let issuer = mock.issuer("as1");
    for wrong in ["http://127.0.0.1:1/as1".to_owned(), format!("{issuer}/")] {
        mock.configure(|c| c.iss = Iss::Value(wrong.clone()));
        let auth = Authorizer::new(settings()).unwrap();
        assert_eq!(
            refused(&auth, &mock).await,
            AuthError::IssMismatch {
                expected: issuer.clone(),
                found: wrong
            }
        );
    }
    let seen = mock.seen();
    assert_eq!(seen.authorize.len(), 2);
    never_hit(&seen, &["/as1/token"]);
}

#[tokio::test]
async fn a_redirect_to_another_origin_is_refused() {
    let (mock, auth) = started(Config {
        redirect_to: Some("http://127.0.0.2:1/elsewhere".to_owned()),
        ..Config::default()
    })
    .await;

    assert_eq!(refused(&auth, &mock).await, AuthError::ForeignRedirect);
    let seen = mock.seen();
    assert_eq!(seen.authorize.len(), 1);
    never_hit(&seen, &["/as1/token"]);
}

#[tokio::test]
async fn a_redirect_with_another_state_is_refused() {
    let (mock, auth) = started(Config {
        state: Some("forged".to_owned()),
        ..Config::default()
    })
    .await;

    assert_eq!(refused(&auth, &mock).await, AuthError::StateMismatch);
    let seen = mock.seen();
    assert_eq!(seen.authorize.len(), 1);
    assert_ne!(seen.authorize[0].param("state"), Some("forged"));
    never_hit(&seen, &["/as1/token"]);
}

#[tokio::test]
async fn a_step_up_asks_for_the_union_of_the_scopes() {
    let (mock, auth) = started(Config {
        challenge_scope: Some("a".to_owned()),
        ..Config::default()
    })
    .await;

    assert_eq!(call(&auth, &mock).await.unwrap().0, 200);
    mock.configure(|c| c.required_scopes = vec!["b".to_owned()]);
    assert_eq!(call(&auth, &mock).await.unwrap().0, 200);

    let seen = mock.seen();
    let scopes: Vec<_> = seen.authorize.iter().map(|a| a.param("scope")).collect();
    assert_eq!(scopes, [Some("a"), Some("a b")]);
    let grants: Vec<_> = seen.token.iter().map(|t| t.param("grant_type")).collect();
    assert_eq!(grants, [Some("authorization_code"); 2]);
    assert_eq!(seen.registered.len(), 1, "the identity is kept");
    assert_eq!(
        auth.tokens(&mock.endpoint()).map(|t| t.scopes),
        Some(vec!["a".to_owned(), "b".to_owned()])
    );
}

#[tokio::test]
async fn a_request_gives_up_after_three_authorizations() {
    let (mock, auth) = started(Config {
        always_forbid: true,
        ..Config::default()
    })
    .await;

    assert_eq!(
        refused(&auth, &mock).await,
        AuthError::RetryLimit {
            status: 403,
            attempts: 3
        }
    );
    let seen = mock.seen();
    assert_eq!(seen.authorize.len(), 3);
    assert_eq!(
        seen.hits("/mcp"),
        4,
        "the first send and one per authorization"
    );
}

#[tokio::test]
async fn a_code_whose_verifier_does_not_match_gets_no_token() {
    let (mock, auth) = started(Config {
        swap_challenge: true,
        ..Config::default()
    })
    .await;

    assert!(matches!(
        refused(&auth, &mock).await,
        AuthError::Token(e) if e.starts_with("invalid_grant")
    ));
    let seen = mock.seen();
    assert_eq!(seen.pkce, [false]);
    assert_eq!(seen.token.len(), 1, "no second exchange of the code");
    assert_eq!(seen.hits("/mcp"), 1, "nothing sent again without a token");
}

#[tokio::test]
async fn a_403_without_a_scope_challenge_is_the_answer_not_a_flow() {
    let (mock, auth) = started(Config {
        forbid_plainly: true,
        ..Config::default()
    })
    .await;

    let (status, body) = call(&auth, &mock).await.expect("the server's own answer");
    assert_eq!((status, body.as_str()), (403, "forbidden origin"));
    let seen = mock.seen();
    assert_eq!(seen.hits("/mcp"), 1);
    never_hit(
        &seen,
        &[
            "/.well-known/oauth-protected-resource/mcp",
            "/as1/authorize",
        ],
    );
}

#[tokio::test]
async fn a_rejected_token_is_refreshed_without_a_new_authorization() {
    let (mock, auth) = started(Config {
        refresh_tokens: true,
        ..Config::default()
    })
    .await;

    assert_eq!(call(&auth, &mock).await.unwrap().0, 200);
    let first = auth.tokens(&mock.endpoint()).unwrap();
    let refresh_token = first.refresh_token.clone().expect("a refresh token");
    mock.configure(|c| c.reject_once = true);
    assert_eq!(call(&auth, &mock).await.unwrap().0, 200);

    let seen = mock.seen();
    assert_eq!(seen.authorize.len(), 1, "no new authorization");
    assert_eq!(seen.token.len(), 2);
    let refresh = &seen.token[1];
    assert_eq!(refresh.param("grant_type"), Some("refresh_token"));
    assert_eq!(refresh.param("refresh_token"), Some(refresh_token.as_str()));
    assert_eq!(refresh.param("resource"), Some(mock.endpoint().as_str()));
    assert_eq!(
        refresh.param("client_id"),
        Some(seen.registered[0].1.as_str())
    );
    let bearer = |i: usize| Some(format!("Bearer {}", seen.issued[i]));
    assert_eq!(seen.mcp_auth, [None, bearer(0), bearer(0), bearer(1)]);
}

#[tokio::test]
async fn a_new_authorization_server_gets_a_new_registration() {
    let (mock, auth) = started(Config {
        refresh_tokens: true,
        ..Config::default()
    })
    .await;

    assert_eq!(call(&auth, &mock).await.unwrap().0, 200);
    let (_, first_client) = mock.seen().registered[0].clone();
    // The server moves: its metadata names as2, and only as2's tokens are valid.
    mock.configure(|c| c.current_as = "as2".to_owned());
    assert_eq!(call(&auth, &mock).await.unwrap().0, 200);

    let seen = mock.seen();
    let at_as2 =
        |calls: &[Call]| -> Vec<Call> { calls.iter().filter(|c| c.at == "as2").cloned().collect() };
    assert_eq!(seen.registered.len(), 2);
    let (at, new_client) = seen.registered[1].clone();
    assert_eq!(at, "as2", "registered at the new issuer");
    assert_ne!(new_client, first_client);
    let authorize = at_as2(&seen.authorize);
    let token = at_as2(&seen.token);
    assert_eq!(authorize.len(), 1);
    assert_eq!(token.len(), 1);
    for c in authorize.iter().chain(&token) {
        assert_eq!(c.param("client_id"), Some(new_client.as_str()), "{c:?}");
        assert_eq!(c.authorization, None, "{c:?}");
        assert!(
            !c.params.values().any(|v| v.starts_with("as1-")),
            "nothing of as1 (client id, tokens) is shown to as2: {c:?}"
        );
    }
    assert_eq!(
        token[0].param("grant_type"),
        Some("authorization_code"),
        "as1's refresh token is not used at as2"
    );
    assert_eq!(seen.token.len(), 2);
    let last = seen.issued.last().unwrap();
    assert!(last.starts_with("as2-"), "{last}");
    assert_eq!(seen.mcp_auth.last(), Some(&Some(format!("Bearer {last}"))));
    let tokens = auth.tokens(&mock.endpoint()).unwrap();
    assert_eq!(tokens.issuer, mock.issuer("as2"));
}

#[tokio::test]
async fn offline_access_is_asked_for_only_where_it_is_offered() {
    for (offered, asked) in [
        (vec!["a", "offline_access"], "a offline_access"),
        (vec!["a"], "a"),
    ] {
        let (mock, auth) = started(Config {
            challenge_scope: Some("a".to_owned()),
            scopes_supported: Some(offered.iter().map(|s| s.to_string()).collect()),
            ..Config::default()
        })
        .await;
        assert_eq!(call(&auth, &mock).await.unwrap().0, 200);
        let seen = mock.seen();
        assert_eq!(seen.authorize.len(), 1);
        assert_eq!(seen.authorize[0].param("scope"), Some(asked), "{offered:?}");
    }
}

#[tokio::test]
async fn pre_registered_credentials_authenticate_with_basic() {
    let mock = Mock::start(Config {
        auth_methods: vec!["client_secret_basic".to_owned()],
        ..Config::default()
    })
    .await;
    let auth = Authorizer::new(settings().with_pre_registered(PreRegistered {
        issuer: Some(mock.issuer("as1")),
        client_id: "pre-id".to_owned(),
        client_secret: Some("pre-secret".to_owned()),
    }))
    .unwrap();

    assert_eq!(call(&auth, &mock).await.unwrap().0, 200);
    let seen = mock.seen();
    never_hit(&seen, &["/as1/register"]);
    assert_eq!(seen.authorize.len(), 1);
    assert_eq!(seen.authorize[0].param("client_id"), Some("pre-id"));
    assert_eq!(seen.token.len(), 1);
    let exchanged = &seen.token[0];
    let basic = exchanged
        .authorization
        .as_deref()
        .and_then(|h| h.strip_prefix("Basic "))
        .expect("a Basic Authorization header");
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(basic)
        .unwrap();
    assert_eq!(String::from_utf8(decoded).unwrap(), "pre-id:pre-secret");
    assert_eq!(
        exchanged.param("client_secret"),
        None,
        "the secret is not in the form"
    );
}

// One authorizer, several servers: what a flow learns stays with its server.

/// A store the test shares with the authorizers (a host's store kept across runs).
struct Shared(Arc<MemoryStore>);

impl TokenStore for Shared {
    fn load(&self, resource: &str) -> Option<Tokens> {
        self.0.load(resource)
    }
    fn save(&self, resource: &str, tokens: Tokens) {
        self.0.save(resource, tokens);
    }
    fn clear(&self, resource: &str) {
        self.0.clear(resource);
    }
}

/// Makes the tokens kept for `mock`'s endpoint about to expire (as if time had passed).
fn age(store: &MemoryStore, mock: &Mock) {
    let mut tokens = store.load(&mock.endpoint()).expect("tokens kept");
    tokens.expires_at = Some(std::time::SystemTime::now());
    store.save(&mock.endpoint(), tokens);
}

/// A mock whose authorization server `name` issues refresh tokens.
async fn refreshing(name: &str) -> Arc<Mock> {
    Mock::start(Config {
        current_as: name.to_owned(),
        refresh_tokens: true,
        ..Config::default()
    })
    .await
}

/// Asserts no request `seen` at an authorization server carried anything of `other`'s
/// (client id, code, refresh token), and the MCP endpoint got only tokens of `own`.
fn only_own(seen: &Seen, own: &str, other: &str) {
    for c in seen.authorize.iter().chain(&seen.token) {
        assert!(
            !c.params.values().any(|v| v.starts_with(other)),
            "{other}'s value sent to {own}: {c:?}"
        );
    }
    for sent in seen.mcp_auth.iter().flatten() {
        assert!(
            sent.starts_with(&format!("Bearer {own}-access-")),
            "{sent} sent to {own}'s server"
        );
    }
}

#[tokio::test]
async fn one_authorizer_refreshes_each_servers_token_at_its_own_issuer() {
    let (x, y) = (refreshing("asx").await, refreshing("asy").await);
    let store = Arc::new(MemoryStore::default());
    let auth = Authorizer::new(settings().with_store(Shared(store.clone()))).unwrap();

    assert_eq!(call(&auth, &x).await.unwrap().0, 200);
    assert_eq!(call(&auth, &y).await.unwrap().0, 200);
    let refresh_token = |mock: &Mock| store.load(&mock.endpoint()).unwrap().refresh_token;
    let kept = [refresh_token(&x), refresh_token(&y)];
    // Both tokens about to expire: each is refreshed before it is sent, Y's flow ran last.
    age(&store, &x);
    age(&store, &y);
    assert_eq!(call(&auth, &x).await.unwrap().0, 200);
    assert_eq!(call(&auth, &y).await.unwrap().0, 200);

    for (mock, own, other, kept) in [(&x, "asx", "asy", &kept[0]), (&y, "asy", "asx", &kept[1])] {
        let seen = mock.seen();
        only_own(&seen, own, other);
        assert_eq!(seen.authorize.len(), 1, "one authorization at {own}");
        let grants: Vec<_> = seen.token.iter().map(|t| t.param("grant_type")).collect();
        assert_eq!(grants, [Some("authorization_code"), Some("refresh_token")]);
        let refresh = &seen.token[1];
        let kept = kept.as_deref().expect("a refresh token");
        assert!(kept.starts_with(&format!("{own}-refresh-")), "{kept}");
        assert_eq!(refresh.param("refresh_token"), Some(kept));
        assert_eq!(refresh.param("resource"), Some(mock.endpoint().as_str()));
        assert_eq!(
            refresh.param("client_id"),
            Some(seen.registered[0].1.as_str())
        );
        let bearer = |i: usize| Some(format!("Bearer {}", seen.issued[i]));
        assert_eq!(seen.mcp_auth, [None, bearer(0), bearer(1)]);
    }
}

#[tokio::test]
async fn kept_tokens_without_flow_state_are_refreshed_only_at_their_own_issuer() {
    let (x, y) = (refreshing("asx").await, refreshing("asy").await);
    let store = Arc::new(MemoryStore::default());
    let first = Authorizer::new(settings().with_store(Shared(store.clone()))).unwrap();
    assert_eq!(call(&first, &x).await.unwrap().0, 200);
    let kept = store.load(&x.endpoint()).unwrap();

    // Another run with the same store: X's tokens kept, its flow state gone, Y's flow last.
    let second = Authorizer::new(settings().with_store(Shared(store.clone()))).unwrap();
    assert_eq!(call(&second, &y).await.unwrap().0, 200);
    age(&store, &x);
    assert_eq!(call(&second, &x).await.unwrap().0, 200, "sent as it is");
    // X refuses it: the flow finds X still names asx, and refreshes it there.
    x.configure(|c| c.reject_once = true);
    assert_eq!(call(&second, &x).await.unwrap().0, 200);

    only_own(&y.seen(), "asy", "asx");
    let seen = x.seen();
    only_own(&seen, "asx", "asy");
    assert_eq!(seen.authorize.len(), 1, "no second authorization at asx");
    let grants: Vec<_> = seen.token.iter().map(|t| t.param("grant_type")).collect();
    assert_eq!(grants, [Some("authorization_code"), Some("refresh_token")]);
    assert_eq!(
        seen.token[1].param("refresh_token"),
        kept.refresh_token.as_deref()
    );
    let bearer = |i: usize| Some(format!("Bearer {}", seen.issued[i]));
    assert_eq!(
        seen.mcp_auth,
        [None, bearer(0), bearer(0), bearer(0), bearer(1)]
    );
}

#[tokio::test]
async fn a_step_up_joins_only_the_scopes_asked_for_the_same_server() {
    let scoped = |name: &str, scope: &str| Config {
        current_as: name.to_owned(),
        challenge_scope: Some(scope.to_owned()),
        ..Config::default()
    };
    let x = Mock::start(scoped("asx", "a")).await;
    let y = Mock::start(scoped("asy", "b")).await;
    let auth = Authorizer::new(settings()).unwrap();

    assert_eq!(call(&auth, &x).await.unwrap().0, 200);
    assert_eq!(call(&auth, &y).await.unwrap().0, 200);
    x.configure(|c| c.required_scopes = vec!["c".to_owned()]);
    assert_eq!(call(&auth, &x).await.unwrap().0, 200);

    let asked = |mock: &Mock| -> Vec<Option<String>> {
        let seen = mock.seen();
        (seen.authorize.iter())
            .map(|a| a.param("scope").map(str::to_owned))
            .collect()
    };
    assert_eq!(asked(&x), [Some("a".to_owned()), Some("a c".to_owned())]);
    assert_eq!(asked(&y), [Some("b".to_owned())]);
    assert_eq!(
        auth.tokens(&x.endpoint()).map(|t| t.scopes),
        Some(vec!["a".to_owned(), "c".to_owned()])
    );
}

// Pre-registered credentials.

#[test]
fn a_pre_registered_secret_without_an_issuer_is_refused() {
    let settings = settings().with_pre_registered(PreRegistered {
        issuer: None,
        client_id: "pre-id".to_owned(),
        client_secret: Some("pre-secret".to_owned()),
    });
    match Authorizer::new(settings) {
        Err(AuthError::Settings(e)) => {
            assert!(e.contains("\"pre-id\""), "{e}");
            assert!(!e.contains("pre-secret"), "{e}");
        }
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("a secret without an issuer was accepted"),
    }
}

#[test]
fn an_issuerless_secret_belongs_to_no_authorization_server() {
    let creds = |issuer: Option<&str>, secret: Option<&str>| PreRegistered {
        issuer: issuer.map(str::to_owned),
        client_id: "id".to_owned(),
        client_secret: secret.map(str::to_owned),
    };
    let evil = "https://evil.example";
    assert!(!creds(None, Some("s")).belongs_to(evil));
    assert!(creds(None, None).belongs_to(evil));
    assert!(!creds(Some("https://as.example"), Some("s")).belongs_to(evil));
    assert!(creds(Some(evil), Some("s")).belongs_to(evil));
}

#[tokio::test]
async fn a_public_pre_registered_client_without_an_issuer_is_used_where_the_server_says() {
    let mock = Mock::start(Config::default()).await;
    let auth = Authorizer::new(settings().with_pre_registered(PreRegistered {
        issuer: None,
        client_id: "public-id".to_owned(),
        client_secret: None,
    }))
    .unwrap();

    assert_eq!(call(&auth, &mock).await.unwrap().0, 200);
    let seen = mock.seen();
    never_hit(&seen, &["/as1/register"]);
    assert_eq!(seen.authorize[0].param("client_id"), Some("public-id"));
    assert_eq!(seen.token[0].param("client_id"), Some("public-id"));
    assert_eq!(seen.token[0].authorization, None);
}

// Plain HTTP outside loopback.

#[tokio::test]
async fn resource_metadata_named_over_plain_http_is_not_fetched() {
    let url = "http://meta.example.com/.well-known/oauth-protected-resource";
    let (mock, auth) = started(Config {
        challenge_metadata: Some(url.to_owned()),
        ..Config::default()
    })
    .await;

    assert_eq!(
        refused(&auth, &mock).await,
        AuthError::InsecureUrl {
            what: "resource_metadata".to_owned(),
            url: url.to_owned()
        }
    );
    assert_eq!(mock.seen().paths, ["/mcp"], "nothing but the first request");
}

#[tokio::test]
async fn an_authorization_server_over_plain_http_is_not_used() {
    let issuer = "http://auth.example.com";
    let (mock, auth) = started(Config {
        named_issuer: Some(issuer.to_owned()),
        ..Config::default()
    })
    .await;

    assert_eq!(
        refused(&auth, &mock).await,
        AuthError::InsecureUrl {
            what: "issuer".to_owned(),
            url: issuer.to_owned()
        }
    );
    assert_eq!(
        mock.seen().paths,
        ["/mcp", "/.well-known/oauth-protected-resource/mcp"]
    );
}

#[tokio::test]
async fn a_token_endpoint_over_plain_http_is_not_used() {
    let endpoint = "http://auth.example.com/token";
    let (mock, auth) = started(Config {
        token_endpoint: Some(endpoint.to_owned()),
        ..Config::default()
    })
    .await;

    assert_eq!(
        refused(&auth, &mock).await,
        AuthError::InsecureUrl {
            what: "token_endpoint".to_owned(),
            url: endpoint.to_owned()
        }
    );
    never_hit(
        &mock.seen(),
        &["/as1/register", "/as1/authorize", "/as1/token"],
    );
}

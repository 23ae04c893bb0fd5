//! Streamable HTTP, stateless (2026-07-28): one POST per JSON-RPC message at the endpoint,
//! answered with `application/json`, or with `text/event-stream` when the request's
//! notifications (progress, log messages) or a `subscriptions/listen` stream go with it, for
//! any [`Service`]. [`endpoint`] builds the endpoint as an axum service that mounts under any
//! path (`Router::new().route_service("/api/mcp", endpoint(…))`); [`router`] mounts it at [`PATH`],
//! and [`serve`] serves that on a listener in one call. Legacy (2025-11-25) sessions may
//! share the endpoint through a [`Legacy`] hook: check 7 asks it where a message goes
//! ([`Legacy::route`]), and `GET` and `DELETE` with an `Mcp-Session-Id` go to it too (after
//! check 2 alone); without one, `GET` and `DELETE` are not allowed (405).
//!
//! Checks 1 to 5 are [`crate::checks`]' (before the body is read as a message); 6 and 8 to 16
//! are [`crate::modern`]'s, which stdio shares, asking this module's headers for 12, 14 and
//! 16. Every POST goes through these checks, in this order, each with the error (a code of
//! `mcp_runtime::error_code`) and HTTP status the specification gives it, or this server where
//! it gives none; a modern request goes through all of them:
//!
//! 0. With [`Config::auth`], a bearer token the validator accepts (`POST`, `GET` and `DELETE`):
//!    else 401 with its challenge ([`crate::auth`]); after check 6, a `tools/call` of a tool
//!    given scopes needs them: else 403 `insufficient_scope`.
//! 1. `Mcp-Session-Id`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, each
//!    `Mcp-Param-{Name}`, `Host`, `Origin` and `Content-Type` come at most once: else
//!    `INVALID_REQUEST`, 400 (`GET` and `DELETE` too).
//! 2. `Host` and `Origin` name this machine (DNS-rebinding protection): else
//!    `INVALID_REQUEST`, 403.
//! 3. `Content-Type` is `application/json`: else `INVALID_REQUEST`, 400.
//! 4. `Accept` lists both `application/json` and `text/event-stream`: else `INVALID_REQUEST`,
//!    406.
//! 5. The body fits the body limit (its `Content-Length` first) and arrives within the body
//!    timeout: else `INVALID_REQUEST` with 413 or 408 (400 when reading it fails).
//! 6. The body is one JSON-RPC message (no batches in 2026-07-28): else `PARSE_ERROR` /
//!    `INVALID_REQUEST`, 400.
//! 7. Its era ([`Legacy::route`]): `initialize` and a live session's messages leave for the
//!    legacy sessions, which may refuse a message (an unknown `Mcp-Session-Id`, a legacy
//!    `MCP-Protocol-Version` without a session).
//! 8. It is a request: a response is `INVALID_REQUEST`, 400 (this server sends no requests);
//!    a notification is accepted with 202 (`INVALID_REQUEST`, 400, if it does not read as one)
//!    and checked no further.
//! 9. `jsonrpc` is `"2.0"` and the id a string or an integer: else `INVALID_REQUEST`, 400.
//! 10. The method exists: else `METHOD_NOT_FOUND`, 404 (the removed `initialize`, `ping`,
//!     `logging/setLevel`, `resources/subscribe`... included).
//! 11. `params._meta` has `io.modelcontextprotocol/protocolVersion` and
//!     `io.modelcontextprotocol/clientCapabilities`: else `INVALID_PARAMS`, 400.
//! 12. The `MCP-Protocol-Version` header is there and equals `_meta`'s: else
//!     `HEADER_MISMATCH`, 400.
//! 13. The version is one the service implements ([`Service::versions`]): else
//!     `UNSUPPORTED_PROTOCOL_VERSION` with `supported`/`requested`, 400.
//! 14. `Mcp-Method` (and `Mcp-Name` for the methods that name a tool, prompt or resource,
//!     [`Named`], and those an extension names so) match the body: else
//!     `HEADER_MISMATCH`, 400.
//! 15. The whole message reads as the generated `ClientRequest` (or the extension's hook reads
//!     it): else `INVALID_PARAMS`, 400.
//! 16. For `tools/call`, each argument the tool mirrors in a header (`x-mcp-header`,
//!     [`Service::mirrored_params`]) has its
//!     `Mcp-Param-{Name}` header, of valid header characters and equal to the argument once
//!     decoded: else `HEADER_MISMATCH`, 400.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, post};
use mcp_runtime::RpcError;
use mcp_runtime::error_code::HEADER_MISMATCH;
use mcp_runtime::param_headers::{ParamHeader, decode, is_valid_value};
use serde_json::Value;
use tokio::net::TcpListener;

use crate::answer::respond;
use crate::auth::{self, Auth, Grant};
use crate::checks::{SSE, check_headers, check_host, check_once, json_response, read_body};
use crate::headers::{self, header_str};
use crate::modern::{self, Outcome, Read};
use crate::sse::sse_stream;
use crate::{Config, Named, Refused, Schema, Service, probe};

/// Where [`router`] and [`serve`] mount the endpoint.
pub const PATH: &str = "/mcp";

/// The header that names a legacy session.
pub const SESSION_HEADER: &str = "mcp-session-id";

/// A response on its way: what a legacy session answers a POST with.
pub type Answering = Pin<Box<dyn Future<Output = Response> + Send>>;

/// Where a POST goes after check 7.
pub enum Route<S: Schema> {
    /// On to the modern checks and the service.
    Modern,
    /// Answered by the legacy sessions (`initialize`, or a message of a session).
    Legacy(Answering),
    /// Refused before it is read further.
    Refuse(Refused<S>),
}

/// Legacy (2025-11-25) sessions on the same endpoint as the modern requests: asked where each
/// POST goes (check 7), and given the `GET` and `DELETE` requests that name a session.
pub trait Legacy<S: Schema>: Send + Sync + 'static {
    /// Check 7: where the POST of `headers` and `body` (its `envelope` read) from `principal`
    /// goes.
    fn route(
        &self,
        headers: &HeaderMap,
        envelope: &Read<'_, S>,
        principal: &str,
        body: &Bytes,
    ) -> Route<S>;

    /// `GET` naming the session `id`, from `principal`: its stream.
    fn get(&self, headers: &HeaderMap, id: &str, principal: &str) -> Answering;

    /// `DELETE` naming the session `id`, from `principal`: ends it.
    fn delete(&self, id: &str, principal: &str) -> Answering;
}

/// What the endpoint serves with: the service, the configuration, the legacy sessions.
struct Endpoint<S: Schema, V> {
    service: Arc<V>,
    config: Arc<Config>,
    legacy: Option<Arc<dyn Legacy<S>>>,
}

impl<S: Schema, V> Clone for Endpoint<S, V> {
    fn clone(&self) -> Self {
        Endpoint {
            service: Arc::clone(&self.service),
            config: Arc::clone(&self.config),
            legacy: self.legacy.clone(),
        }
    }
}

/// The Streamable HTTP endpoint of `service`, whatever its path (mount it with `route_service`
/// or `nest_service`): `POST` with checks 1 to 16, `GET` and `DELETE` for the `legacy`
/// sessions if there are any (else 405), any other method 405.
pub fn endpoint<S: Schema, V: Service<S>>(
    service: Arc<V>,
    config: Arc<Config>,
    legacy: Option<Arc<dyn Legacy<S>>>,
) -> MethodRouter {
    let endpoint = Endpoint {
        service,
        config,
        legacy,
    };
    post(post_mcp::<S, V>)
        .get(get_mcp::<S, V>)
        .delete(delete_mcp::<S, V>)
        .with_state(endpoint)
}

/// A `Router` with the [`endpoint`] of `service` at [`PATH`] (that path exactly), with
/// [`Config::auth`] the protected resource metadata at its well-known paths
/// ([`auth::metadata_router`]), and 404 on any other path.
pub fn router<S: Schema, V: Service<S>>(
    service: Arc<V>,
    config: Arc<Config>,
    legacy: Option<Arc<dyn Legacy<S>>>,
) -> Router {
    let metadata = config.auth.as_deref().map(auth::metadata_router);
    let router = Router::new().route_service(PATH, endpoint(service, config, legacy));
    match metadata {
        Some(metadata) => router.merge(metadata),
        None => router,
    }
    .fallback(not_found)
}

/// Serves `service` at [`PATH`] on `listener` ([`router`] with [`crate::serve`]) until
/// `shutdown` resolves.
pub fn serve<S, V, F>(
    listener: TcpListener,
    service: Arc<V>,
    config: Arc<Config>,
    legacy: Option<Arc<dyn Legacy<S>>>,
    shutdown: F,
) -> impl Future<Output = ()> + use<S, V, F>
where
    S: Schema,
    V: Service<S>,
    F: Future<Output = ()>,
{
    let router = router(service, Arc::clone(&config), legacy);
    crate::serve(listener, router, &config, shutdown)
}

async fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not Found").into_response()
}

/// `GET`: a legacy session's stream; without a session, not allowed.
async fn get_mcp<S: Schema, V: Service<S>>(
    State(endpoint): State<Endpoint<S, V>>,
    headers: HeaderMap,
) -> Response {
    let caller = match caller(&endpoint.config, &headers).await {
        Ok(c) => c,
        Err(r) => return *r,
    };
    in_session(&endpoint, &headers, |legacy, id| {
        legacy.get(&headers, id, caller.principal())
    })
    .await
}

/// `DELETE`: ends a legacy session; without a session, not allowed.
async fn delete_mcp<S: Schema, V: Service<S>>(
    State(endpoint): State<Endpoint<S, V>>,
    headers: HeaderMap,
) -> Response {
    let caller = match caller(&endpoint.config, &headers).await {
        Ok(c) => c,
        Err(r) => return *r,
    };
    in_session(&endpoint, &headers, |legacy, id| {
        legacy.delete(id, caller.principal())
    })
    .await
}

/// Who asks: what sessions, sealed states and tasks are bound to.
enum Caller {
    /// The grant of a validated token (with [`Config::auth`]): its principal, and its scopes.
    Granted(Grant),
    /// [`headers::principal`] (no token is validated).
    Unchecked(String),
}

impl Caller {
    /// The principal.
    fn principal(&self) -> &str {
        match self {
            Caller::Granted(grant) => &grant.principal,
            Caller::Unchecked(principal) => principal,
        }
    }

    /// The principal, taken.
    fn into_principal(self) -> String {
        match self {
            Caller::Granted(grant) => grant.principal,
            Caller::Unchecked(principal) => principal,
        }
    }
}

/// The caller of a request: with [`Config::auth`], the grant of its bearer token (or the 401
/// that answers a request without a valid one); without, [`headers::principal`].
async fn caller(config: &Config, headers: &HeaderMap) -> Result<Caller, Box<Response>> {
    match &config.auth {
        Some(auth) => Ok(Caller::Granted(auth::authenticate(auth, headers).await?)),
        None => Ok(Caller::Unchecked(headers::principal(
            headers,
            &config.principal_key,
        ))),
    }
}

/// A `GET` or `DELETE`, after check 1 (each routing header once) and the `Host`/`Origin`
/// check: `answer`ed by the legacy session the
/// request names; not allowed without one (or without legacy sessions).
fn in_session<S: Schema, V: Service<S>>(
    endpoint: &Endpoint<S, V>,
    headers: &HeaderMap,
    answer: impl FnOnce(&dyn Legacy<S>, &str) -> Answering,
) -> Answering {
    if let Err(r) =
        check_once::<S>(headers).and_then(|()| check_host::<S>(&endpoint.config, headers))
    {
        return Box::pin(std::future::ready(*r));
    }
    match (header_str(headers, SESSION_HEADER), &endpoint.legacy) {
        (Some(id), Some(legacy)) => answer(legacy.as_ref(), id),
        _ => Box::pin(std::future::ready(not_allowed())),
    }
}

fn not_allowed() -> Response {
    // Modern requests are stateless: no standalone GET stream and no session to DELETE.
    (
        StatusCode::METHOD_NOT_ALLOWED,
        [(header::ALLOW, "POST")],
        "Method Not Allowed",
    )
        .into_response()
}

/// `POST`: checks 1 to 7 here, then the modern message's checks and dispatch.
async fn post_mcp<S: Schema, V: Service<S>>(
    State(endpoint): State<Endpoint<S, V>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let caller = match caller(&endpoint.config, &headers).await {
        Ok(c) => c,
        Err(r) => return *r,
    };
    if let Err(r) = check_headers::<S>(&endpoint.config, &headers) {
        return *r;
    }
    let body = match read_body::<S>(&endpoint.config, &headers, body).await {
        Ok(b) => b,
        Err(r) => return *r,
    };
    let envelope = match modern::read_envelope::<S>(&body) {
        Ok(e) => e,
        Err(f) => return f.into_response(),
    };
    if let (Some(auth), Caller::Granted(grant)) = (&endpoint.config.auth, &caller)
        && let Err(r) = authorize::<S>(auth, grant, &envelope)
    {
        return *r;
    }
    let principal = caller.into_principal();
    if let Some(legacy) = &endpoint.legacy {
        match legacy.route(&headers, &envelope, &principal, &body) {
            Route::Modern => {}
            Route::Legacy(answering) => {
                drop(envelope);
                return answering.await;
            }
            Route::Refuse(f) => return f.into_response(),
        }
    }
    let outcome = modern::serve(
        &endpoint.service,
        envelope,
        &body,
        principal,
        &HttpHeaders(&headers),
    );
    drop(body);
    match outcome {
        Outcome::Accepted => StatusCode::ACCEPTED.into_response(),
        Outcome::Answer(text) => json_response(StatusCode::OK, text),
        Outcome::Refused(f) => f.into_response(),
        Outcome::Running { rx, cancel } => respond(rx, cancel).await,
        Outcome::Listen(rx) => sse_stream(rx),
    }
}

/// A `tools/call` (of either era: both come as the same JSON-RPC request) of a tool that
/// needs scopes `grant` lacks is answered 403 ([`Auth::tool_scope`]).
fn authorize<S: Schema>(
    auth: &Auth,
    grant: &Grant,
    envelope: &Read<'_, S>,
) -> Result<(), Box<Response>> {
    if envelope.method.as_deref() != Some(S::CALL_TOOL) {
        return Ok(());
    }
    let tool = envelope.params.as_ref().and_then(|p| p.0.name.0.as_deref());
    match tool {
        Some(tool) => auth::authorize_tool(auth, grant, tool),
        None => Ok(()), // not a valid call: refused by its checks
    }
}

/// The headers of a POST, for checks 12, 14 and 16 of a modern request.
struct HttpHeaders<'a>(&'a HeaderMap);

impl modern::Headers for HttpHeaders<'_> {
    fn check_version<S: Schema>(&self, id: &S::RequestId, version: &str) -> Result<(), Refused<S>> {
        check_version_header(self.0, id, version)
    }

    fn check_names<S: Schema>(
        &self,
        id: &S::RequestId,
        method: &str,
        named: Option<Named>,
        params: Option<&probe::Params<'_>>,
    ) -> Result<(), Refused<S>> {
        check_standard_headers(self.0, id, method, named, params)
    }

    fn check_arguments<S: Schema>(
        &self,
        id: &S::RequestId,
        mirrored: &[ParamHeader],
        arguments: Option<&serde_json::Map<String, Value>>,
    ) -> Result<(), Refused<S>> {
        check_param_headers(self.0, id, mirrored, arguments)
    }

    fn streams(&self) -> bool {
        headers::accepts(self.0, SSE)
    }
}

/// `MCP-Protocol-Version`: present, and equal to `_meta`'s protocol version.
fn check_version_header<S: Schema>(
    headers: &HeaderMap,
    id: &S::RequestId,
    version: &str,
) -> Result<(), Refused<S>> {
    match header_str(headers, "mcp-protocol-version") {
        None => Err(Refused::new(
            Some(id),
            RpcError::new(HEADER_MISMATCH, "Missing MCP-Protocol-Version header"),
        )),
        Some(v) if v != version => Err(Refused::new(
            Some(id),
            RpcError::new(
                HEADER_MISMATCH,
                format!(
                    "MCP-Protocol-Version header {v:?} does not match _meta protocolVersion {version:?}"
                ),
            ),
        )),
        Some(_) => Ok(()),
    }
}

/// `Mcp-Method` always, `Mcp-Name` for the methods that name a tool, prompt or resource:
/// present, and equal to the body (values compared exactly, after trimming optional
/// whitespace).
fn check_standard_headers<S: Schema>(
    headers: &HeaderMap,
    id: &S::RequestId,
    method: &str,
    named: Option<Named>,
    params: Option<&probe::Params<'_>>,
) -> Result<(), Refused<S>> {
    match header_str(headers, "mcp-method") {
        None => {
            return Err(Refused::new(
                Some(id),
                RpcError::new(HEADER_MISMATCH, "Missing Mcp-Method header"),
            ));
        }
        Some(m) if m != method => {
            return Err(Refused::new(
                Some(id),
                RpcError::new(
                    HEADER_MISMATCH,
                    format!("Mcp-Method header {m:?} does not match the body's method {method:?}"),
                ),
            ));
        }
        Some(_) => {}
    }
    let (name_member, body_name) = match (named, params) {
        (Some(Named::Name), Some(p)) => ("name", &p.name),
        (Some(Named::Uri), Some(p)) => ("uri", &p.uri),
        (Some(Named::TaskId), Some(p)) => ("taskId", &p.task_id),
        _ => return Ok(()),
    };
    let Some(body_name) = body_name.0.as_deref() else {
        return Ok(()); // the request itself is invalid; check 15 says so
    };
    match header_str(headers, "mcp-name").map(decode) {
        None => {
            return Err(Refused::new(
                Some(id),
                RpcError::new(
                    HEADER_MISMATCH,
                    format!("Missing Mcp-Name header ({method} names {body_name:?})"),
                ),
            ));
        }
        Some(Some(n)) if n == body_name => {}
        Some(_) => {
            return Err(Refused::new(
                Some(id),
                RpcError::new(
                    HEADER_MISMATCH,
                    format!(
                        "Mcp-Name header does not match the body's {name_member} {body_name:?}"
                    ),
                ),
            ));
        }
    }
    // Mcp-Param-* headers are compared with the arguments after the typed read.
    Ok(())
}

/// `Mcp-Param-{Name}` headers: for each argument the tool marks with `x-mcp-header` (at its
/// property path), a value in the body needs the header, made only of valid header
/// characters, with the same value once decoded (numbers compared as numbers).
fn check_param_headers<S: Schema>(
    headers: &HeaderMap,
    id: &S::RequestId,
    mirrored: &[ParamHeader],
    arguments: Option<&serde_json::Map<String, Value>>,
) -> Result<(), Refused<S>> {
    let empty = serde_json::Map::new();
    let arguments = arguments.unwrap_or(&empty);
    for mirrored in mirrored {
        let Some(expected) = mirrored.value_in(arguments).and_then(|v| decode(&v)) else {
            continue;
        };
        let name = mirrored.header_name();
        let sent = headers.get(name.to_ascii_lowercase());
        let why = match sent {
            None => Some("is missing"),
            Some(v) if !is_valid_value(v.as_bytes()) => Some("holds characters a header may not"),
            Some(v) => match v.to_str().ok().map(str::trim).and_then(decode) {
                None => Some("is not valid Base64"),
                Some(v) if same_value(&v, &expected) => None,
                Some(_) => Some("does not match the argument"),
            },
        };
        if let Some(why) = why {
            let path = mirrored.path.join(".");
            return Err(Refused::new(
                Some(id),
                RpcError::new(
                    HEADER_MISMATCH,
                    format!("Header {name} {why} (argument {path})"),
                ),
            ));
        }
    }
    Ok(())
}

/// Whether a header's value and the body's agree: the same text, or the same number.
fn same_value(sent: &str, body: &str) -> bool {
    sent == body || matches!((sent.parse::<f64>(), body.parse::<f64>()), (Ok(a), Ok(b)) if a == b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_tests::mcp;

    crate::bind!(Mcp = mcp);

    fn nested() -> Vec<ParamHeader> {
        let schema = serde_json::json!({"type": "object", "properties": {
            "target": {"type": "object", "properties": {
                "zone": {"type": "string", "x-mcp-header": "Zone"},
                "size": {"type": "integer", "x-mcp-header": "Size"}
            }}
        }});
        mcp_runtime::param_headers::annotations(schema.as_object().unwrap()).unwrap()
    }

    fn check(sent: &[(&str, &[u8])], arguments: Value) -> Result<(), String> {
        let mut headers = HeaderMap::new();
        for (k, v) in sent {
            headers.insert(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                axum::http::HeaderValue::from_bytes(v).unwrap(),
            );
        }
        let id = mcp::RequestId::Integer(1);
        check_param_headers::<Mcp>(&headers, &id, &nested(), arguments.as_object()).map_err(|f| {
            let body: Value = serde_json::from_str(&f.text()).unwrap();
            body["error"]["message"].as_str().unwrap_or("").to_owned()
        })
    }

    #[test]
    fn nested_arguments_are_checked_at_their_path() {
        let args = serde_json::json!({"target": {"zone": " b ", "size": 3}});
        let zone = mcp_runtime::param_headers::encode(" b ");
        assert_eq!(
            check(
                &[
                    ("mcp-param-zone", zone.as_bytes()),
                    ("mcp-param-size", b"3.0")
                ],
                args.clone()
            ),
            Ok(())
        );
        let missing = check(&[("mcp-param-zone", zone.as_bytes())], args.clone()).unwrap_err();
        assert!(
            missing.contains("Mcp-Param-Size is missing (argument target.size)"),
            "{missing}"
        );
        let wrong = check(&[("mcp-param-zone", b"b"), ("mcp-param-size", b"3")], args).unwrap_err();
        assert!(wrong.contains("does not match"), "{wrong}");
        // No value at the path: no header needed.
        assert_eq!(check(&[], serde_json::json!({"target": {}})), Ok(()));
    }

    #[test]
    fn a_header_with_invalid_characters_is_rejected() {
        let args = serde_json::json!({"target": {"zone": "b"}});
        let e = check(&[("mcp-param-zone", "b\u{e9}".as_bytes())], args).unwrap_err();
        assert!(e.contains("characters a header may not"), "{e}");
    }
}

//! `initialize`: a new legacy session for a principal, and the response that tells the client
//! of it (the legacy `InitializeResult`, with what the server offers: [`Initialize`]).

use std::sync::Arc;

use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use mcp_runtime::RpcError;
use mcp_runtime::error_code::INTERNAL_ERROR;

use super::convert::result_text;
use super::serve::{LEGACY_VERSION, in_session, invalid, json};
use super::sessions::{OpenError, Session, Sessions};
use crate::http::SESSION_HEADER;
use crate::modern::read_envelope;
use crate::{Config, LegacySchema, Refused, Service, bound_reached};

/// What `initialize` tells a legacy client of the server.
pub trait Initialize<S: LegacySchema> {
    /// What the server offers, as `server/discover` lists it (modern capabilities; the
    /// legacy client is told them in its revision's shape).
    fn capabilities(&self) -> S::ServerCapabilities;
    /// The server's name and version.
    fn server_info(&self) -> S::Implementation;
    /// Instructions for the client's model, if any.
    fn instructions(&self) -> Option<&str> {
        None
    }
}

/// `initialize` (`body`) of `principal` as an HTTP response: the session's id in
/// `Mcp-Session-Id`, or the refusal with its status.
pub fn initialize<S, V>(
    service: &V,
    sessions: &Sessions<S>,
    config: &Config,
    principal: &str,
    body: &[u8],
) -> Response
where
    S: LegacySchema,
    V: Service<S> + Initialize<S>,
{
    opened(open(service, sessions, config, principal, body))
}

/// [`initialize`], of sessions that may be shared ([`Sessions::open_anywhere`]): 503 while
/// their store is down.
pub async fn initialize_anywhere<S, V>(
    service: &V,
    sessions: &Sessions<S>,
    config: &Config,
    principal: &str,
    body: &[u8],
) -> Response
where
    S: LegacySchema,
    V: Service<S> + Initialize<S>,
{
    let read = match read(service, config, body) {
        Ok(read) => read,
        Err(f) => return f.into_response(),
    };
    let (id, capabilities, client_info) = read;
    let session = sessions
        .open_anywhere(principal, capabilities, client_info)
        .await
        .map_err(|e| refusal(&id, e));
    opened(session.and_then(|session| Ok((session, result(service, &id)?))))
}

/// The response of an `initialize` that opened a session (its id in `Mcp-Session-Id`), or
/// of its refusal.
fn opened<S: LegacySchema>(opened: Result<(Arc<Session<S>>, String), Refused<S>>) -> Response {
    match opened {
        Ok((session, text)) => {
            let mut response = json(StatusCode::OK, text);
            if let Ok(v) = HeaderValue::from_str(&session.id) {
                response.headers_mut().insert(SESSION_HEADER, v);
            }
            response
        }
        Err(f) => f.into_response(),
    }
}

/// `initialize` (`body`): a new session for `principal` and the response that tells of it;
/// refused with the HTTP status of the refusal ([`Config::modern_only`]: the versions served,
/// 400).
pub fn open<S, V>(
    service: &V,
    sessions: &Sessions<S>,
    config: &Config,
    principal: &str,
    body: &[u8],
) -> Result<(Arc<Session<S>>, String), Refused<S>>
where
    S: LegacySchema,
    V: Service<S> + Initialize<S>,
{
    let (id, capabilities, client_info) = read(service, config, body)?;
    let session = sessions
        .open(principal, capabilities, client_info)
        .map_err(|e| refusal(&id, e))?;
    Ok((session, result(service, &id)?))
}

/// What opening a session needs of `initialize` (`body`): its id, the client's capabilities
/// and info; refused with the HTTP status of the refusal ([`Config::modern_only`]: the
/// versions served, 400).
#[allow(clippy::type_complexity)]
fn read<S, V>(
    service: &V,
    config: &Config,
    body: &[u8],
) -> Result<(S::RequestId, S::ClientCapabilities, S::Implementation), Refused<S>>
where
    S: LegacySchema,
    V: Service<S> + Initialize<S>,
{
    too_large(config, body)?;
    let request = S::read_initialize(body).map_err(|e| invalid(None, &e))?;
    let id = request.id;
    if config.modern_only {
        return Err(modern_only(service, &id, &request.protocol_version));
    }
    let capabilities = request.capabilities.map_err(|e| invalid(Some(&id), &e))?;
    Ok((id, capabilities, request.client_info))
}

/// The response to `initialize` `id` that opened a session: the server's offer.
fn result<S, V>(service: &V, id: &S::RequestId) -> Result<String, Refused<S>>
where
    S: LegacySchema,
    V: Service<S> + Initialize<S>,
{
    // The one revision this server speaks in a session: a client asking another one reads
    // this answer and decides whether to go on.
    let internal = |e: String| in_session(Refused::new(Some(id), RpcError::new(INTERNAL_ERROR, e)));
    let result = S::initialize_result(
        service.capabilities(),
        service.server_info(),
        LEGACY_VERSION,
        service.instructions(),
    )
    .map_err(internal)?;
    result_text(id, result).map_err(in_session)
}

/// Why no session was opened, as the refusal of `initialize` `id`, with its status: 429 for a
/// bound, 503 while the shared store is down.
fn refusal<S: LegacySchema>(id: &S::RequestId, e: OpenError) -> Refused<S> {
    match e {
        OpenError::Unavailable(e) => {
            Refused::new(Some(id), RpcError::new(INTERNAL_ERROR, e.to_string()))
                .with_status(StatusCode::SERVICE_UNAVAILABLE)
        }
        e => in_session(not_opened(id, e)),
    }
}

/// The refusal of an `initialize` larger than [`Config::max_initialize`], before it is parsed:
/// what a session keeps of it is read by each of its requests, so it is bounded apart from
/// the body limit.
fn too_large<S: LegacySchema>(config: &Config, body: &[u8]) -> Result<(), Refused<S>> {
    if body.len() <= config.max_initialize {
        return Ok(());
    }
    let id = read_envelope::<S>(body).ok().and_then(|e| e.id.flatten());
    let message = format!(
        "initialize is {} bytes, more than the {} this server accepts (max_initialize); declare fewer capabilities",
        body.len(),
        config.max_initialize
    );
    Err(invalid(id.as_ref(), &message))
}

/// Why no session was opened, as the refusal of `initialize` `id`.
fn not_opened<S: LegacySchema>(id: &S::RequestId, e: OpenError) -> Refused<S> {
    match e {
        OpenError::Exhausted(e) => {
            let message = format!("Too many sessions: {e}; end one (DELETE) or retry");
            Refused::new(Some(id), bound_reached(message))
        }
        OpenError::NoRandomness(e) => Refused::new(Some(id), RpcError::new(INTERNAL_ERROR, e)),
        OpenError::Unavailable(e) => {
            Refused::new(Some(id), RpcError::new(INTERNAL_ERROR, e.to_string()))
        }
    }
}

/// [`Config::modern_only`]: `initialize` answered with `UnsupportedProtocolVersion` naming the
/// versions served (400).
fn modern_only<S: LegacySchema, V: Service<S>>(
    service: &V,
    id: &S::RequestId,
    requested: &str,
) -> Refused<S> {
    let versions = service.versions();
    let message = format!(
        "Unsupported protocol version {requested:?}: this server serves only {} (no initialize)",
        versions.join(", ")
    );
    crate::modern::unsupported_version(id, requested, versions, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::eras::{Eras, mcp};
    use serde_json::{Value, json};

    /// A server with tools and resources, and no handlers.
    struct Fixture;

    impl Service<Eras> for Fixture {
        async fn call(
            self: Arc<Self>,
            ctx: Ctx,
            _request: mcp::ClientRequest,
        ) -> Result<String, Refused<Eras>> {
            Err(ctx.fail(RpcError::internal_error("no handlers")))
        }

        fn versions(&self) -> &[&'static str] {
            &["2026-07-28"]
        }
    }

    type Ctx = crate::Ctx<Eras>;

    impl Initialize<Eras> for Fixture {
        fn capabilities(&self) -> mcp::ServerCapabilities {
            mcp::ServerCapabilities::new()
                .with_tools(mcp::ServerCapabilitiesTools::default())
                .with_resources(mcp::ServerCapabilitiesResources::default())
        }

        fn server_info(&self) -> mcp::Implementation {
            mcp::Implementation::new("fixture", "1.0")
        }

        fn instructions(&self) -> Option<&str> {
            Some("be brief")
        }
    }

    fn body(version: &str) -> Vec<u8> {
        serde_json::to_vec(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {},
                "clientInfo": {"name": "c", "version": "1"}}
        }))
        .unwrap()
    }

    fn opened(config: &Config, body: &[u8]) -> Result<(Arc<Session<Eras>>, String), Refused<Eras>> {
        let sessions = Sessions::new(Arc::new(config.clone()));
        open(&Fixture, &sessions, config, "p", body)
    }

    /// The refusal of an `initialize` that must not open a session.
    fn refused(config: &Config, body: &[u8]) -> Refused<Eras> {
        match opened(config, body) {
            Err(f) => f,
            Ok(_) => panic!("a session opened"),
        }
    }

    #[test]
    fn initialize_tells_the_legacy_version_capabilities_and_info() {
        let (session, text) = opened(&Config::default(), &body("2025-11-25")).unwrap();
        assert_eq!(session.principal, "p");
        let response: Value = serde_json::from_str(&text).unwrap();
        let result = &response["result"];
        assert_eq!(result["protocolVersion"], LEGACY_VERSION);
        assert_eq!(result["serverInfo"]["name"], "fixture");
        assert_eq!(result["instructions"], "be brief");
        assert_eq!(result["capabilities"]["resources"]["subscribe"], true);
    }

    #[test]
    fn modern_only_refuses_initialize_with_the_versions_served() {
        let config = Config {
            modern_only: true,
            ..Config::default()
        };
        let refused = refused(&config, &body("2025-11-25"));
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        assert!(refused.error.message.contains("2026-07-28"));
    }

    #[test]
    fn an_initialize_beyond_the_limit_is_refused_naming_it() {
        let config = Config::default().max_initialize(200);
        let mut big = serde_json::from_slice::<Value>(&body("2025-11-25")).unwrap();
        big["params"]["capabilities"]["experimental"] = json!({"k": "x".repeat(200)});
        let refused = refused(&config, &serde_json::to_vec(&big).unwrap());
        assert_eq!(refused.error.code, mcp_runtime::error_code::INVALID_PARAMS);
        assert!(
            refused.error.message.contains("max_initialize"),
            "{}",
            refused.error.message
        );
        assert!(refused.text().contains("\"id\":1"), "{}", refused.text());
        assert!(opened(&config, &body("2025-11-25")).is_ok());
    }

    #[test]
    fn a_legacy_session_gets_no_extension() {
        let mut declared = serde_json::from_slice::<Value>(&body("2025-11-25")).unwrap();
        declared["params"]["capabilities"]["extensions"] =
            json!({"io.modelcontextprotocol/tasks": {}});
        let (session, _) =
            opened(&Config::default(), &serde_json::to_vec(&declared).unwrap()).unwrap();
        assert!(session.meta().client_capabilities.extensions.is_none());
    }

    #[test]
    fn an_unreadable_initialize_or_a_full_table_is_refused() {
        let unreadable = refused(&Config::default(), b"{\"id\": 1}");
        assert_eq!(unreadable.status, StatusCode::OK);
        let config = Config {
            max_sessions: 0,
            ..Config::default()
        };
        let full = refused(&config, &body("2025-11-25"));
        assert_eq!(full.status, StatusCode::TOO_MANY_REQUESTS);
    }
}

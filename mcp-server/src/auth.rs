//! The protected-resource role of the Streamable HTTP endpoint (MCP "Authorization", OAuth
//! 2.1 with RFC 6750 bearer tokens and RFC 9728 protected resource metadata). With
//! [`Config::auth`](crate::Config::auth) set to an [`Auth`]:
//!
//! - every `POST`, `GET` and `DELETE` at the endpoint needs `Authorization: Bearer <token>`
//!   that the [`TokenValidator`] accepts; without one it is answered 401 with
//!   `WWW-Authenticate: Bearer resource_metadata="<metadata URL>"` (and `scope="…"` with
//!   [`Auth::challenge_scopes`]), with a refused one 401 with `error="invalid_token"` too, and
//!   a fixed body whatever the reason (the reason, [`Rejected`], is for the server alone);
//! - a `tools/call` (a modern request or a legacy session's message alike) of a tool given
//!   scopes with [`Auth::tool_scope`] needs them all: else 403 with
//!   `error="insufficient_scope"` and `scope` listing the scopes held and needed;
//! - the principal everything is bound to (legacy sessions, sealed `requestState`, tasks) is
//!   the token's [`Grant::principal`], its subject, not the token: a refreshed token keeps the
//!   sessions and tasks of the one before, another subject's token cannot reach them;
//! - the metadata document is served at `/.well-known/oauth-protected-resource` followed by
//!   the resource URI's path, and at the root well-known path ([`metadata_router`], merged by
//!   [`crate::http::router`]).
//!
//! Tokens are never logged, kept or passed on. stdio carries no token: a server on stdio
//! takes its credentials from its environment, and [`Config::auth`](crate::Config::auth)
//! does not apply there.
//!
//! [`JwtValidator`] is the validator for JWT access tokens signed by the keys of the
//! authorization server's JWKS ([`Jwks`], fixed or, with the `jwks-http` feature, fetched
//! from an https URL — plain http to loopback only — and fetched again on a `Schedule`:
//! when its `Cache-Control: max-age`, held within 1 minute and 1 day, else 10 minutes, is
//! over, and for a token naming an unknown key at most every 30 s; a key the authorization
//! server drops stops verifying once the set's lifetime is over). With
//! [`JwtValidator::require_typ`] it also requires the header's `typ` (RFC 9068's `at+jwt`).
//!
//! What a server writes to be protected (README.md, "Protecting a server"):
//!
//! ```
//! use std::sync::Arc;
//! use mcp_server::auth::{Auth, Jwks, JwtValidator, KeySet};
//! # use mcp_runtime::Response;
//! # use mcp_tests::eras as mcp;
//! # mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
//! # mcp_server::bind_server!(Mcp = mcp);
//! # struct Hello;
//! # impl mcp::Server<mcp_server::Ctx<Mcp>> for Hello {
//! #     async fn call_tool(
//! #         &self,
//! #         _ctx: mcp_server::Ctx<Mcp>,
//! #         params: &mcp::CallToolRequestParams,
//! #     ) -> Response<mcp::CallToolRequest> {
//! #         let text = mcp::TextContent::new(format!("Hello from {}", params.name));
//! #         Ok(mcp::CallToolResult::new(vec![text.into()]).into())
//! #     }
//! # }
//! # let jwks_json = r#"{"keys": [{"kty": "EC", "crv": "P-256", "kid": "k1",
//! #     "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
//! #     "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM"}]}"#;
//! # // readme-fence: auth-server
//! let issuer = "https://auth.example.com";
//! let resource = "https://mcp.example.com/mcp"; // the URL clients reach the endpoint at
//! // The authorization server's keys: a JWKS document (or, with the `jwks-http` feature,
//! // `Jwks::fetch("https://auth.example.com/jwks").await?`).
//! let keys = KeySet::from_json(jwks_json)?;
//! let validator = JwtValidator::new(issuer, resource, Jwks::fixed(keys));
//! let auth = Auth::new(validator, resource)?
//!     .authorization_server(issuer)
//!     .scopes_supported(["mcp:read", "mcp:write"])
//!     .challenge_scopes(["mcp:read"])
//!     .tool_scope("delete_note", "mcp:write");
//! let config = mcp_server::Config::default()
//!     .allow_host("mcp.example.com")
//!     .auth(auth);
//! # let info = mcp::Implementation::new("hello", "1.0.0");
//! # let capabilities = mcp::ServerCapabilities::new().with_tools(mcp::ServerCapabilitiesTools::new());
//! let served = mcp_server::Served::<Mcp, _>::new(Hello, info)
//!     .capabilities(capabilities)
//!     .config(config);
//! // `/mcp`, and the metadata at `/.well-known/oauth-protected-resource/mcp`.
//! let router = mcp_server::served::router(Arc::new(served))?;
//! # // end of readme-fence
//! # let _ = router;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A server that mounts [`crate::http::endpoint`] at a path of its own merges the metadata
//! routes itself, the resource URI naming that path:
//! `Router::new().route_service("/api/mcp", endpoint(…)).merge(auth::metadata_router(&auth))`.

mod bearer;
mod challenge;
mod grant;
mod jwks;
mod jwt;
mod keys;
mod metadata;
mod settings;

pub use bearer::{Credential, credential};
pub(crate) use challenge::{authenticate, authorize_tool};
pub use grant::{Grant, Rejected, TokenValidator, Validating};
/// The signature algorithms of [`JwtValidator::algorithms`].
pub use jsonwebtoken::Algorithm;
pub use jwks::Jwks;
#[cfg(feature = "jwks-http")]
pub use jwks::{FetchError, Schedule};
pub use jwt::JwtValidator;
pub use keys::{KeySet, KeySetError, MAX_KEYS};
pub use metadata::metadata_router;
pub use settings::{Auth, AuthError, WELL_KNOWN};

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
//! authorization server's JWKS ([`Jwks`], fixed or, with the `jwks-http` feature, fetched).

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
#[cfg(feature = "jwks-http")]
pub use jwks::FetchError;
pub use jwks::Jwks;
pub use jwt::JwtValidator;
pub use keys::{KeySet, KeySetError, MAX_KEYS};
pub use metadata::metadata_router;
pub use settings::{Auth, AuthError, WELL_KNOWN};

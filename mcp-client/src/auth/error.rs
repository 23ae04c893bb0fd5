//! Why authorization failed; each refusal the flow makes has its own variant.

use std::fmt;

/// Why the client could not get (or use) a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthError {
    /// An HTTP exchange of the flow failed (no connection, a timeout, a document too large).
    Http(String),
    /// A metadata document is missing or does not read (or names no authorization server).
    Metadata(String),
    /// A URL of the flow is neither `https` nor `http` on a loopback host (127.0.0.0/8, `::1`,
    /// `localhost`), or is a loopback one named by a server that is not: nothing is sent to it.
    /// Held to this: the protected resource metadata's location, the authorization server's
    /// issuer, its metadata and its authorization, token and registration endpoints.
    InsecureUrl {
        /// What the URL is (`resource_metadata`, `issuer`, `token_endpoint`...).
        what: String,
        /// The URL.
        url: String,
    },
    /// The resource metadata names another resource than this server: the flow stops before
    /// any authorization request (RFC 9728 section 3.3).
    ResourceMismatch {
        /// The server's URL.
        server: String,
        /// The resource the metadata names.
        resource: String,
    },
    /// The authorization server's metadata names another issuer than the one it was looked
    /// up for (RFC 8414 section 3.3): its endpoints are not used.
    IssuerMismatch {
        /// The issuer the document was looked up for.
        expected: String,
        /// The issuer it names.
        found: String,
    },
    /// The authorization response's `iss` is not the issuer's (RFC 9207): the code is not
    /// exchanged.
    IssMismatch {
        /// The issuer.
        expected: String,
        /// The `iss` that came.
        found: String,
    },
    /// The authorization server says its responses carry `iss`, and this one did not.
    IssMissing,
    /// The authorization response's `state` is not the one sent.
    StateMismatch,
    /// The authorization server redirected elsewhere than the client's redirect URI.
    ForeignRedirect,
    /// The authorization was refused (an `error` in the redirect, no redirect, no code).
    Denied(String),
    /// The authorization server offers no way for this client to identify itself (no
    /// pre-registered credentials, no metadata document support, no registration endpoint).
    NoClientIdentity(String),
    /// Dynamic client registration failed.
    Registration(String),
    /// The token endpoint refused or answered something unreadable.
    Token(String),
    /// [`Settings`](super::Settings) that cannot be used safely, refused by
    /// [`Authorizer::new`](super::Authorizer::new): pre-registered credentials with a secret
    /// that name no issuer (the secret would go to whichever authorization server a server
    /// names).
    Settings(String),
    /// The server still answered 401 or 403 after this many authorizations for one request.
    RetryLimit {
        /// The last status.
        status: u16,
        /// How many authorizations were made.
        attempts: usize,
    },
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthError::Http(e) => write!(f, "{e}"),
            AuthError::Metadata(e) => write!(f, "metadata: {e}"),
            AuthError::InsecureUrl { what, url } => write!(
                f,
                "{what} {url:?} is neither https nor http on a loopback host (or is a loopback \
                 one named by a server that is not)"
            ),
            AuthError::ResourceMismatch { server, resource } => write!(
                f,
                "the resource metadata names {resource:?}, which is not the server {server:?}"
            ),
            AuthError::IssuerMismatch { expected, found } => write!(
                f,
                "the authorization server metadata of {expected:?} names the issuer {found:?}"
            ),
            AuthError::IssMismatch { expected, found } => write!(
                f,
                "the authorization response came from {found:?}, not the issuer {expected:?}"
            ),
            AuthError::IssMissing => write!(
                f,
                "the authorization response has no iss, which the authorization server promised"
            ),
            AuthError::StateMismatch => write!(f, "the authorization response's state is not ours"),
            AuthError::ForeignRedirect => {
                write!(
                    f,
                    "the authorization server redirected outside the redirect URI"
                )
            }
            AuthError::Denied(e) => write!(f, "authorization refused: {e}"),
            AuthError::NoClientIdentity(issuer) => {
                write!(f, "no way to identify this client at {issuer:?}")
            }
            AuthError::Registration(e) => write!(f, "client registration: {e}"),
            AuthError::Token(e) => write!(f, "the token endpoint: {e}"),
            AuthError::Settings(e) => write!(f, "authorizer settings: {e}"),
            AuthError::RetryLimit { status, attempts } => write!(
                f,
                "HTTP {status} after {attempts} authorization(s) for one request"
            ),
        }
    }
}

impl std::error::Error for AuthError {}

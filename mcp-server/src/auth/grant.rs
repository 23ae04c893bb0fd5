//! What a validated token grants ([`Grant`]), why a token was refused ([`Rejected`]), and the
//! trait a server's token validation implements ([`TokenValidator`]).

use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;

/// What a valid access token grants: who it speaks for and what it may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// The subject the token speaks for, as one string that names it across issuers (the
    /// JWT validator writes `<issuer>#<subject>`). Never the token itself: everything the
    /// server binds to a principal (legacy sessions, sealed `requestState`, tasks) is bound
    /// to this, so two tokens of the same subject share them, and a refreshed token keeps them.
    pub principal: String,
    /// The scopes the token carries.
    pub scopes: BTreeSet<String>,
}

impl Grant {
    /// A grant to `principal` of `scopes`.
    pub fn new<I: Into<String>>(
        principal: impl Into<String>,
        scopes: impl IntoIterator<Item = I>,
    ) -> Self {
        Grant {
            principal: principal.into(),
            scopes: scopes.into_iter().map(Into::into).collect(),
        }
    }

    /// Whether the grant carries every scope of `needed`.
    pub fn has_all<'a>(&self, needed: impl IntoIterator<Item = &'a String>) -> bool {
        needed.into_iter().all(|s| self.scopes.contains(s))
    }
}

/// Why a token was refused: for the server's logs and tests only. The HTTP answer is the
/// same for every reason (401, `error="invalid_token"`, a fixed body), so that a client
/// learns nothing about the token's claims or the server's keys. No variant holds the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Rejected {
    /// Longer than the validator reads.
    #[error("the token is longer than {0} bytes")]
    TooLarge(usize),
    /// Not a token of the expected form (a JWT's three parts, its header or claims unreadable,
    /// a claim of the wrong type).
    #[error("the token is malformed: {0}")]
    Malformed(String),
    /// Signed with an algorithm the validator does not accept (`none`, HMAC, or one not
    /// allowed), or one its key is not for.
    #[error("the token's algorithm is not accepted")]
    Algorithm,
    /// Its header's `typ` is missing or not the one the validator requires.
    #[error("the token's type (typ) is not the one required")]
    Type,
    /// Names a key (`kid`) the key set does not hold, or names none where several could do.
    #[error("the token's key is unknown")]
    UnknownKey,
    /// The signature does not verify.
    #[error("the token's signature does not verify")]
    Signature,
    /// `exp` has passed.
    #[error("the token has expired")]
    Expired,
    /// `nbf` has not come yet.
    #[error("the token is not valid yet")]
    NotYetValid,
    /// `iss` is not the issuer the server trusts.
    #[error("the token's issuer is not trusted")]
    Issuer,
    /// `aud` does not name this server's resource.
    #[error("the token is not for this resource")]
    Audience,
    /// A claim the server needs (`exp`, `iss`, `aud`, `sub`) is missing.
    #[error("the token lacks the claim {0}")]
    MissingClaim(String),
    /// Any other reason a validator gives.
    #[error("{0}")]
    Other(String),
}

/// A token's validation under way: its [`Grant`], or why it was refused.
pub type Validating<'a> = Pin<Box<dyn Future<Output = Result<Grant, Rejected>> + Send + 'a>>;

/// How a server validates the bearer tokens it is sent: a JWT checked against the keys of its
/// authorization server ([`JwtValidator`](super::JwtValidator)), an introspection request, a
/// table of test tokens... Object-safe: the endpoint holds it as `Arc<dyn TokenValidator>`.
///
/// An implementation checks at least that the token was issued for this server (its
/// audience is the server's resource URI), by an authorization server it trusts, and has not
/// expired; and it must neither log the token nor send it to any other service than the one
/// that issued it.
///
/// ```
/// use mcp_server::auth::{Grant, Rejected, TokenValidator, Validating};
///
/// /// One fixed token, for a test.
/// struct Fixed;
///
/// impl TokenValidator for Fixed {
///     fn validate<'a>(&'a self, token: &'a str) -> Validating<'a> {
///         Box::pin(async move {
///             match token {
///                 "let-me-in" => Ok(Grant::new("test#alice", ["read"])),
///                 _ => Err(Rejected::Other("not the test token".into())),
///             }
///         })
///     }
/// }
/// ```
pub trait TokenValidator: Send + Sync + 'static {
    /// What `token` (the credential of an `Authorization: Bearer` header) grants, or why it is
    /// refused.
    fn validate<'a>(&'a self, token: &'a str) -> Validating<'a>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grant_has_the_scopes_it_was_given() {
        let grant = Grant::new("iss#sub", ["a", "b"]);
        assert!(grant.has_all(&["a".to_owned()]));
        assert!(grant.has_all(&[]));
        assert!(!grant.has_all(&["a".to_owned(), "c".to_owned()]));
    }

    #[test]
    fn a_refusal_never_says_more_than_its_reason() {
        assert_eq!(
            Rejected::TooLarge(8192).to_string(),
            "the token is longer than 8192 bytes"
        );
        assert_eq!(
            Rejected::Audience.to_string(),
            "the token is not for this resource"
        );
    }
}

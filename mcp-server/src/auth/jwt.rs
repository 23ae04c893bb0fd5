//! [`JwtValidator`]: access tokens that are JWTs signed by a key of the authorization
//! server's JWKS. Checked, in this order: the token's length (before anything is parsed),
//! its header (an asymmetric algorithm this validator allows: never `none`, never HMAC; the
//! `typ` required, with [`JwtValidator::require_typ`]), its key (by `kid`, of a type that
//! verifies that algorithm), the signature, then the claims: `exp` (required) and `nbf`
//! within the leeway, `iss` equal to the trusted issuer, `aud` naming this server's resource
//! URI, `sub` present. Its scopes are the `scope` claim (space separated) and the `scp` claim
//! (an array, or space separated).

use std::time::Duration;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation, decode, decode_header};
use serde::Deserialize;

use super::grant::{Grant, Rejected, TokenValidator, Validating};
use super::jwks::Jwks;
use super::keys::{KeySet, Lookup};

/// A [`TokenValidator`] of JWTs signed by the keys of a JWKS.
///
/// ```
/// use mcp_server::auth::{Jwks, JwtValidator, KeySet};
///
/// let jwks = r#"{"keys": [{"kty": "EC", "crv": "P-256", "kid": "k1", "alg": "ES256",
///     "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
///     "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM"}]}"#;
/// let validator = JwtValidator::new(
///     "https://auth.example.com",
///     "https://mcp.example.com/mcp",
///     Jwks::fixed(KeySet::from_json(jwks).unwrap()),
/// );
/// assert_eq!(validator.issuer(), "https://auth.example.com");
/// ```
#[derive(Debug)]
pub struct JwtValidator {
    issuer: String,
    resource: String,
    jwks: Jwks,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
    max_token: usize,
    /// The `typ` required in the header, in its short form ([`media_type`]).
    typ: Option<String>,
}

/// The claims read beyond the ones `jsonwebtoken` checks (`iss` is checked to be the
/// validator's issuer, so it is not read again).
#[derive(Deserialize)]
struct Claims {
    #[serde(default)]
    sub: Option<String>,
    #[serde(default)]
    scope: Option<Scopes>,
    #[serde(default)]
    scp: Option<Scopes>,
}

/// A scope claim: space-separated text (RFC 9068's `scope`) or an array of scopes.
#[derive(Deserialize)]
#[serde(untagged)]
enum Scopes {
    Text(String),
    List(Vec<String>),
}

impl Scopes {
    fn into_iter(self) -> impl Iterator<Item = String> {
        let list = match self {
            Scopes::Text(text) => text.split_ascii_whitespace().map(str::to_owned).collect(),
            Scopes::List(list) => list,
        };
        list.into_iter().filter(|s| !s.is_empty())
    }
}

impl JwtValidator {
    /// The longest token read by default, in bytes.
    pub const MAX_TOKEN: usize = 8 * 1024;

    /// The clock skew allowed by default on `exp` and `nbf`.
    pub const LEEWAY: Duration = Duration::from_secs(30);

    /// The algorithms allowed by default: RS256, PS256, ES256 and EdDSA.
    pub const ALGORITHMS: &[Algorithm] = &[
        Algorithm::RS256,
        Algorithm::PS256,
        Algorithm::ES256,
        Algorithm::EdDSA,
    ];

    /// Tokens issued by `issuer` (their `iss`, exactly) for `resource` (this server's
    /// canonical URI, which their `aud` must name exactly), signed by a key of `jwks`.
    pub fn new(issuer: &str, resource: &str, jwks: Jwks) -> JwtValidator {
        ensure_provider();
        JwtValidator {
            issuer: issuer.to_owned(),
            resource: resource.to_owned(),
            jwks,
            algorithms: Self::ALGORITHMS.to_vec(),
            leeway: Self::LEEWAY,
            max_token: Self::MAX_TOKEN,
            typ: None,
        }
    }

    /// The same validator, refusing tokens whose header's `typ` is not `typ` (none is
    /// required by default). Media types are compared as RFC 7515 and RFC 9068 say: without
    /// regard to case, `application/` left out or not (`at+jwt`, `AT+JWT` and
    /// `application/at+jwt` are the same). RFC 9068 access tokens carry `at+jwt`.
    ///
    /// ```
    /// use mcp_server::auth::{Jwks, JwtValidator, KeySet};
    /// # let jwks = r#"{"keys": [{"kty": "EC", "crv": "P-256", "kid": "k1",
    /// #     "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
    /// #     "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM"}]}"#;
    /// let keys = Jwks::fixed(KeySet::from_json(jwks).unwrap());
    /// let (issuer, resource) = ("https://auth.example.com", "https://mcp.example.com/mcp");
    /// let validator = JwtValidator::new(issuer, resource, keys).require_typ("application/at+jwt");
    /// assert_eq!(validator.required_typ(), Some("at+jwt"));
    /// ```
    #[must_use]
    pub fn require_typ(mut self, typ: &str) -> Self {
        self.typ = Some(media_type(typ.trim()));
        self
    }

    /// The `typ` required, in its short form (`at+jwt`), if one is.
    pub fn required_typ(&self) -> Option<&str> {
        self.typ.as_deref()
    }

    /// The same validator, allowing these algorithms only; HMAC ones are left out whatever
    /// is asked (a JWKS's public key must never serve as a shared secret).
    #[must_use]
    pub fn algorithms(mut self, algorithms: &[Algorithm]) -> Self {
        self.algorithms = algorithms
            .iter()
            .copied()
            .filter(|a| !matches!(a, Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512))
            .collect();
        self
    }

    /// The same validator, allowing `leeway` of clock skew on `exp` and `nbf`.
    #[must_use]
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The same validator, refusing tokens longer than `bytes` before parsing them.
    #[must_use]
    pub fn max_token(mut self, bytes: usize) -> Self {
        self.max_token = bytes;
        self
    }

    /// The issuer trusted.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The resource URI tokens must be issued for.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The keys trusted, and where they come from.
    pub fn jwks(&self) -> &Jwks {
        &self.jwks
    }

    /// `token` checked with `keys`: its grant, or why not (`Err(None)`: its key is unknown).
    fn check(&self, token: &str, keys: &KeySet) -> Result<Grant, Option<Rejected>> {
        let header = decode_header(token).map_err(|e| Some(rejected(e.kind())))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(Some(Rejected::Algorithm));
        }
        if let Some(typ) = &self.typ
            && header.typ.as_deref().map(media_type).as_ref() != Some(typ)
        {
            return Err(Some(Rejected::Type));
        }
        let key = match keys.find(header.kid.as_deref(), header.alg) {
            Lookup::Found(key) => key,
            Lookup::WrongAlgorithm => return Err(Some(Rejected::Algorithm)),
            Lookup::Unknown => return Err(None),
        };
        let mut validation = Validation::new(header.alg);
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.resource]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let data =
            decode::<Claims>(token, key, &validation).map_err(|e| Some(rejected(e.kind())))?;
        let Claims { sub, scope, scp } = data.claims;
        let sub = sub.ok_or_else(|| Some(Rejected::MissingClaim("sub".to_owned())))?;
        let scopes = scope.into_iter().chain(scp).flat_map(Scopes::into_iter);
        Ok(Grant::new(format!("{}#{sub}", self.issuer), scopes))
    }
}

impl TokenValidator for JwtValidator {
    fn validate<'a>(&'a self, token: &'a str) -> Validating<'a> {
        Box::pin(async move {
            if token.len() > self.max_token {
                return Err(Rejected::TooLarge(self.max_token));
            }
            // Fetched again first if their lifetime is over.
            let keys = self.jwks.current().await;
            match self.check(token, &keys) {
                Ok(grant) => Ok(grant),
                Err(Some(rejected)) => Err(rejected),
                // A key the set does not hold: fetched again (rate-limited), tried once more
                // if the set changed.
                Err(None) => match self.jwks.refresh_for_unknown_key(&keys).await {
                    Some(keys) => self
                        .check(token, &keys)
                        .map_err(|rejected| rejected.unwrap_or(Rejected::UnknownKey)),
                    None => Err(Rejected::UnknownKey),
                },
            }
        })
    }
}

/// A media type in the short form a JWT's `typ` may take: in lower case, without
/// `application/` when what follows has no `/` (RFC 7515, section 4.1.9).
fn media_type(typ: &str) -> String {
    let typ = typ.to_ascii_lowercase();
    match typ.strip_prefix("application/") {
        Some(short) if !short.contains('/') => short.to_owned(),
        _ => typ,
    }
}

/// Why `jsonwebtoken` refused a token, as a [`Rejected`] (never its message, which may quote
/// the token's content).
fn rejected(kind: &ErrorKind) -> Rejected {
    match kind {
        ErrorKind::ExpiredSignature => Rejected::Expired,
        ErrorKind::ImmatureSignature => Rejected::NotYetValid,
        ErrorKind::InvalidIssuer => Rejected::Issuer,
        ErrorKind::InvalidAudience => Rejected::Audience,
        ErrorKind::InvalidSignature => Rejected::Signature,
        ErrorKind::MissingRequiredClaim(claim) => Rejected::MissingClaim(claim.clone()),
        ErrorKind::InvalidAlgorithm
        | ErrorKind::MissingAlgorithm
        | ErrorKind::InvalidAlgorithmName
        | ErrorKind::UnsupportedAlgorithm => Rejected::Algorithm,
        ErrorKind::InvalidClaimFormat(claim) => {
            Rejected::Malformed(format!("the claim {claim} is not of its type"))
        }
        ErrorKind::Base64(_) => Rejected::Malformed("a part is not base64url".to_owned()),
        ErrorKind::Json(_) | ErrorKind::Utf8(_) => {
            Rejected::Malformed("a part is not the JSON it should be".to_owned())
        }
        ErrorKind::InvalidToken => Rejected::Malformed("not three parts".to_owned()),
        _ => Rejected::Malformed("unreadable".to_owned()),
    }
}

/// `jsonwebtoken`'s pure-Rust crypto as the process's provider, unless one is chosen
/// already (when both of its crypto features are on, none is chosen by itself).
fn ensure_provider() {
    if jsonwebtoken::crypto::CryptoProvider::try_get_default().is_none() {
        let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
    }
}

#[cfg(test)]
mod tests;

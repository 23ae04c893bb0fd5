//! A JSON Web Key Set (RFC 7517) read into the verification keys a JWT may name: only
//! signature keys of the asymmetric families (RSA, P-256 and P-384, Ed25519). Symmetric
//! (`oct`) keys, encryption keys and keys of other types are left out, so no token can be
//! checked with a shared secret whatever its header says.

use std::path::Path;

use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde_json::Value;

/// The most keys a set is read with: the rest are left out.
pub const MAX_KEYS: usize = 64;

/// Why a key set was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeySetError {
    /// The text is not JSON, or not an object with a `keys` array.
    #[error("not a JWKS (an object with a \"keys\" array): {0}")]
    Shape(String),
    /// The set holds no key this server verifies signatures with.
    #[error("the JWKS holds no RSA, P-256, P-384 or Ed25519 signature key")]
    NoKey,
    /// Its file could not be read.
    #[error("reading the JWKS file {path}: {error}")]
    File {
        /// The file.
        path: String,
        /// Why.
        error: String,
    },
}

/// The kind of a verification key, which decides the algorithms it verifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Rsa,
    P256,
    P384,
    Ed25519,
}

impl Kind {
    /// Whether a key of this kind verifies `alg` (RS*/PS* with RSA, ES256 with P-256, ES384
    /// with P-384, EdDSA with Ed25519; never HMAC).
    fn verifies(self, alg: Algorithm) -> bool {
        use Algorithm::*;
        match self {
            Kind::Rsa => matches!(alg, RS256 | RS384 | RS512 | PS256 | PS384 | PS512),
            Kind::P256 => alg == ES256,
            Kind::P384 => alg == ES384,
            Kind::Ed25519 => alg == EdDSA,
        }
    }
}

/// One verification key of a set.
struct Key {
    kid: Option<String>,
    /// The key's `alg`, if it names one: then it verifies that algorithm only.
    alg: Option<Algorithm>,
    kind: Kind,
    decoding: DecodingKey,
}

impl Key {
    fn verifies(&self, alg: Algorithm) -> bool {
        self.kind.verifies(alg) && self.alg.is_none_or(|a| a == alg)
    }
}

/// The verification keys of a JWKS.
pub struct KeySet {
    keys: Vec<Key>,
}

impl std::fmt::Debug for KeySet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kids: Vec<_> = self
            .keys
            .iter()
            .map(|k| (k.kid.as_deref(), k.kind))
            .collect();
        f.debug_struct("KeySet").field("keys", &kids).finish()
    }
}

/// Which key a token's header leads to.
pub(crate) enum Lookup<'a> {
    /// This key verifies the token's algorithm.
    Found(&'a DecodingKey),
    /// The named key is in the set but does not verify the token's algorithm.
    WrongAlgorithm,
    /// No such key (or no `kid` and not exactly one key that could verify it).
    Unknown,
}

impl KeySet {
    /// The keys of the JWKS `text`.
    pub fn from_json(text: &str) -> Result<KeySet, KeySetError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| KeySetError::Shape(e.to_string()))?;
        KeySet::from_value(&value)
    }

    /// The keys of the JWKS in the file at `path`.
    pub fn from_file(path: &Path) -> Result<KeySet, KeySetError> {
        let text = std::fs::read_to_string(path).map_err(|e| KeySetError::File {
            path: path.display().to_string(),
            error: e.to_string(),
        })?;
        KeySet::from_json(&text).map_err(|e| KeySetError::File {
            path: path.display().to_string(),
            error: e.to_string(),
        })
    }

    /// The keys of the JWKS `value`: each member of `keys` that is a signature key of an
    /// asymmetric family (the others are left out, as are keys beyond [`MAX_KEYS`]).
    pub fn from_value(value: &Value) -> Result<KeySet, KeySetError> {
        let keys = value
            .get("keys")
            .and_then(Value::as_array)
            .ok_or_else(|| KeySetError::Shape("no \"keys\" array".to_owned()))?;
        let keys: Vec<Key> = keys.iter().filter_map(read_key).take(MAX_KEYS).collect();
        if keys.is_empty() {
            return Err(KeySetError::NoKey);
        }
        Ok(KeySet { keys })
    }

    /// How many verification keys the set holds.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the set holds none (never, for a set that was read; a fetched set dropped
    /// because its fetches have failed for too long is empty).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// A set with no key, which verifies no token.
    #[cfg(feature = "jwks-http")]
    pub(crate) fn empty() -> KeySet {
        KeySet { keys: Vec::new() }
    }

    /// The key for a token signed with `alg` that names `kid`.
    pub(crate) fn find(&self, kid: Option<&str>, alg: Algorithm) -> Lookup<'_> {
        match kid {
            Some(kid) => match self.keys.iter().find(|k| k.kid.as_deref() == Some(kid)) {
                Some(key) if key.verifies(alg) => Lookup::Found(&key.decoding),
                Some(_) => Lookup::WrongAlgorithm,
                None => Lookup::Unknown,
            },
            None => {
                let mut fitting = self.keys.iter().filter(|k| k.verifies(alg));
                match (fitting.next(), fitting.next()) {
                    (Some(key), None) => Lookup::Found(&key.decoding),
                    _ => Lookup::Unknown,
                }
            }
        }
    }
}

/// A signature key of an asymmetric family, or none.
fn read_key(value: &Value) -> Option<Key> {
    let jwk: Jwk = serde_json::from_value(value.clone()).ok()?;
    if matches!(
        jwk.common.public_key_use,
        Some(PublicKeyUse::Encryption | PublicKeyUse::Other(_))
    ) {
        return None;
    }
    let kind = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => Kind::Rsa,
        AlgorithmParameters::EllipticCurve(p) => match p.curve {
            EllipticCurve::P256 => Kind::P256,
            EllipticCurve::P384 => Kind::P384,
            _ => return None,
        },
        AlgorithmParameters::OctetKeyPair(p) if p.curve == EllipticCurve::Ed25519 => Kind::Ed25519,
        _ => return None, // `oct` (HMAC secrets) and anything else
    };
    let alg = match jwk.common.key_algorithm {
        None => None,
        Some(a) => Some(Algorithm::try_from(a).ok().filter(|a| kind.verifies(*a))?),
    };
    let decoding = DecodingKey::from_jwk(&jwk).ok()?;
    Some(Key {
        kid: jwk.common.key_id,
        alg,
        kind,
        decoding,
    })
}

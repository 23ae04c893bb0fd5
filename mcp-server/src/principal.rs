//! Who asks when the endpoint validates no token (no [`Config::auth`](crate::Config::auth)):
//! a keyed hash of the request's `Authorization` header, never the header itself, so that a
//! credential is not kept in memory maps, written to a shared store (records, key names,
//! published notes) or shown in a log. The key ([`PrincipalKey`]) is the same at every
//! instance that shares a store or a seal key ring (`--principal-key`, `$MCP_PRINCIPAL_KEY`:
//! a `requestState` sealed at one instance, or before a restart, names the same principal),
//! else one random key per process.
//!
//! A request without the header is [`ANONYMOUS`], a name no header hashes to: a client that
//! sends `Authorization: anonymous` is another principal than one that sends none.
//!
//! ```
//! use mcp_server::principal::{ANONYMOUS, PrincipalKey};
//!
//! let key = PrincipalKey::from_hex(&"07".repeat(32)).unwrap();
//! let alice = key.principal_of(Some("Bearer s3cr3t"));
//! assert!(alice.starts_with("credential:") && !alice.contains("s3cr3t"));
//! assert_eq!(alice, key.principal_of(Some("Bearer s3cr3t")));
//! assert_ne!(key.principal_of(Some("anonymous")), ANONYMOUS);
//! assert_eq!(key.principal_of(None), ANONYMOUS);
//! ```

use std::fmt;
use std::sync::{Arc, OnceLock};

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The principal of a request that carries no `Authorization` header. No credential's
/// principal is this: those all start with [`CREDENTIAL_PREFIX`].
pub const ANONYMOUS: &str = "anonymous";

/// What the principal of a credential starts with (then 64 lowercase hex digits).
pub const CREDENTIAL_PREFIX: &str = "credential:";

/// Bytes in a key: 256 bits, 64 hex digits as written in a key file.
pub const KEY_BYTES: usize = 32;

/// The key of the keyed hash that names a credential's principal (HMAC-SHA-256). Compared by
/// value; its [`Debug`] form shows no key material.
#[derive(Clone, PartialEq, Eq)]
pub struct PrincipalKey(Arc<[u8; KEY_BYTES]>);

impl fmt::Debug for PrincipalKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PrincipalKey(..)")
    }
}

/// Why a principal key could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// The text is not 64 hex digits.
    #[error("a principal key is 64 hex digits (32 bytes)")]
    NotHex,
    /// The operating system gave no random bytes.
    #[error("no random key: {0}")]
    NoRandom(String),
}

impl PrincipalKey {
    /// The key of `bytes`.
    pub fn new(bytes: [u8; KEY_BYTES]) -> Self {
        PrincipalKey(Arc::new(bytes))
    }

    /// The key written as 64 hex digits (surrounding whitespace ignored), as in a key file or
    /// `$MCP_PRINCIPAL_KEY`.
    pub fn from_hex(text: &str) -> Result<Self, KeyError> {
        let mut bytes = [0u8; KEY_BYTES];
        let decoded =
            base16ct::mixed::decode(text.trim(), &mut bytes).map_err(|_| KeyError::NotHex)?;
        if decoded.len() != KEY_BYTES {
            return Err(KeyError::NotHex);
        }
        Ok(PrincipalKey::new(bytes))
    }

    /// A fresh random key.
    pub fn random() -> Result<Self, KeyError> {
        let mut bytes = [0u8; KEY_BYTES];
        getrandom::fill(&mut bytes).map_err(|e| KeyError::NoRandom(e.to_string()))?;
        Ok(PrincipalKey::new(bytes))
    }

    /// This process's own random key, the same for every [`Config::default`](crate::Config):
    /// principals named with it mean nothing to another process.
    pub fn of_process() -> Self {
        static KEY: OnceLock<PrincipalKey> = OnceLock::new();
        KEY.get_or_init(|| {
            // Without the OS's random source a server cannot be safe anyway; a key that
            // differs per process still keeps the credentials out of what is stored.
            PrincipalKey::random().unwrap_or_else(|_| {
                let seed = format!("{:?}{}", std::time::SystemTime::now(), std::process::id());
                PrincipalKey::new(hmac_of(&[0; KEY_BYTES], seed.as_bytes()))
            })
        })
        .clone()
    }

    /// The principal of a request whose `Authorization` header is `credential` (as sent,
    /// trimmed): [`CREDENTIAL_PREFIX`] and the hex of its HMAC-SHA-256 under this key;
    /// [`ANONYMOUS`] without one.
    pub fn principal_of(&self, credential: Option<&str>) -> String {
        match credential {
            None => ANONYMOUS.to_owned(),
            Some(credential) => {
                let mac = hmac_of(&self.0, credential.as_bytes());
                format!(
                    "{CREDENTIAL_PREFIX}{}",
                    base16ct::lower::encode_string(&mac)
                )
            }
        }
    }
}

/// HMAC-SHA-256 of `message` under `key`.
fn hmac_of(key: &[u8; KEY_BYTES], message: &[u8]) -> [u8; 32] {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key)
        .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
    mac.update(message);
    mac.finalize().into_bytes().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anonymous_and_an_anonymous_header_are_different_principals() {
        let key = PrincipalKey::random().unwrap();
        let named = key.principal_of(Some("anonymous"));
        assert_ne!(named, key.principal_of(None));
        assert_ne!(named, ANONYMOUS);
        assert!(!ANONYMOUS.starts_with(CREDENTIAL_PREFIX));
    }

    #[test]
    fn a_principal_hides_its_credential_and_depends_on_the_key() {
        let a = PrincipalKey::from_hex(&"ab".repeat(32)).unwrap();
        let b = PrincipalKey::from_hex(&"cd".repeat(32)).unwrap();
        let secret = "Bearer s3cr3t-token";
        let hex_secret = base16ct::lower::encode_string(secret.as_bytes());
        let principal = a.principal_of(Some(secret));
        assert!(!principal.contains("s3cr3t") && !principal.contains(&hex_secret));
        assert_eq!(principal.len(), CREDENTIAL_PREFIX.len() + 64);
        assert_eq!(principal, a.principal_of(Some(secret)));
        assert_ne!(principal, b.principal_of(Some(secret)));
        assert_ne!(principal, a.principal_of(Some("Bearer other")));
        assert!(!format!("{a:?}").contains("ab"));
    }

    #[test]
    fn a_key_is_64_hex_digits() {
        assert!(PrincipalKey::from_hex(&format!(" {}\n", "0f".repeat(32))).is_ok());
        for bad in [
            "",
            "0f",
            &"0f".repeat(33),
            &"zz".repeat(32),
            &"0f".repeat(31),
        ] {
            assert_eq!(PrincipalKey::from_hex(bad), Err(KeyError::NotHex), "{bad}");
        }
        assert_eq!(PrincipalKey::of_process(), PrincipalKey::of_process());
        assert_ne!(PrincipalKey::random().unwrap(), PrincipalKey::of_process());
    }
}

//! Where tokens live between requests (and between runs, with a store of the user's own).

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;
use std::time::SystemTime;

/// The tokens one authorization server issued for one resource.
#[derive(Clone, PartialEq, Eq)]
pub struct Tokens {
    /// The bearer token sent to the server.
    pub access_token: String,
    /// The refresh token, when one was issued.
    pub refresh_token: Option<String>,
    /// When the access token expires, when the server said.
    pub expires_at: Option<SystemTime>,
    /// The scopes granted (as the token response said, else as asked for).
    pub scopes: Vec<String>,
    /// The issuer of the authorization server that issued them: tokens of another one are
    /// never sent after the server moves.
    pub issuer: String,
}

impl fmt::Debug for Tokens {
    /// Never the tokens themselves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tokens")
            .field("access_token", &"<redacted>")
            .field(
                "refresh_token",
                &self.refresh_token.as_ref().map(|_| "<redacted>"),
            )
            .field("expires_at", &self.expires_at)
            .field("scopes", &self.scopes)
            .field("issuer", &self.issuer)
            .finish()
    }
}

impl Tokens {
    /// Whether the access token expires within `margin` (never when no expiry was given).
    pub fn expires_within(&self, margin: std::time::Duration) -> bool {
        self.expires_at
            .is_some_and(|at| at <= SystemTime::now() + margin)
    }
}

/// Keeps tokens by resource (the server's URL); [`MemoryStore`] is the default. A store that
/// writes them down must keep them as secret as a password.
pub trait TokenStore: Send + Sync {
    /// The tokens kept for `resource`.
    fn load(&self, resource: &str) -> Option<Tokens>;
    /// Keeps `tokens` for `resource`, replacing what was kept.
    fn save(&self, resource: &str, tokens: Tokens);
    /// Forgets the tokens of `resource`.
    fn clear(&self, resource: &str);
}

/// Tokens kept in memory for the life of the process.
#[derive(Debug, Default)]
pub struct MemoryStore {
    tokens: Mutex<HashMap<String, Tokens>>,
}

impl TokenStore for MemoryStore {
    fn load(&self, resource: &str) -> Option<Tokens> {
        self.tokens.lock().ok()?.get(resource).cloned()
    }

    fn save(&self, resource: &str, tokens: Tokens) {
        if let Ok(mut kept) = self.tokens.lock() {
            kept.insert(resource.to_owned(), tokens);
        }
    }

    fn clear(&self, resource: &str) {
        if let Ok(mut kept) = self.tokens.lock() {
            kept.remove(resource);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_a_token() {
        let tokens = Tokens {
            access_token: "secret-access".into(),
            refresh_token: Some("secret-refresh".into()),
            expires_at: None,
            scopes: vec!["a".into()],
            issuer: "https://as".into(),
        };
        let shown = format!("{tokens:?}");
        assert!(!shown.contains("secret"), "{shown}");
        let store = MemoryStore::default();
        store.save("r", tokens.clone());
        assert_eq!(store.load("r"), Some(tokens));
        store.clear("r");
        assert_eq!(store.load("r"), None);
    }
}

//! Where a JWT validator's keys come from ([`Jwks`]): a set given once (a JSON value or file),
//! or, with the `jwks-http` feature, an https URL (plain http on loopback only) fetched at
//! start and fetched again:
//!
//! - on a schedule: when the set's lifetime is over, the answer's `Cache-Control: max-age`
//!   held between `Schedule::min_lifetime` and `Schedule::max_lifetime` (1 minute and
//!   1 day by default; `Schedule::default_lifetime`, 10 minutes, when it gives none), so a
//!   key the authorization server drops stops verifying within that lifetime;
//! - when a token names a key the set does not hold (a key rotation), at most once per
//!   `Schedule::min_interval` (30 s) whatever tokens come, so that made-up `kid`s cannot
//!   turn the server into a client that floods its authorization server.
//!
//! One fetch runs at a time. The request that finds the set's lifetime over fetches it (and
//! waits for that fetch, at most its timeout of 10 s); requests that come meanwhile use the
//! set as it is. A fetch that fails (or answers something that is not a key set, or more
//! than 256 KiB) keeps the last good set, tried again after `Schedule::min_interval`, for
//! at most `Schedule::max_stale` (1 hour) past its lifetime: after that no token verifies
//! until a fetch succeeds.

use std::sync::{Arc, RwLock};

use super::keys::KeySet;

#[cfg(feature = "jwks-http")]
mod origin;
#[cfg(feature = "jwks-http")]
mod remote;
#[cfg(feature = "jwks-http")]
mod schedule;
#[cfg(all(test, feature = "jwks-http"))]
mod tests;

#[cfg(feature = "jwks-http")]
pub use remote::FetchError;
#[cfg(feature = "jwks-http")]
pub use schedule::Schedule;

/// The keys a JWT validator trusts, and where they come from.
pub struct Jwks {
    current: RwLock<Arc<KeySet>>,
    #[cfg(feature = "jwks-http")]
    remote: Option<remote::Remote>,
}

impl std::fmt::Debug for Jwks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jwks").field("keys", &self.keys()).finish()
    }
}

impl Jwks {
    /// How long after a fetch the next one may be made, when a token names an unknown key
    /// (the default `Schedule::min_interval` of a fetched set).
    pub const REFETCH_INTERVAL: std::time::Duration = std::time::Duration::from_secs(30);

    /// A key set given once, never fetched again.
    pub fn fixed(keys: KeySet) -> Jwks {
        Jwks {
            current: RwLock::new(Arc::new(keys)),
            #[cfg(feature = "jwks-http")]
            remote: None,
        }
    }

    /// The keys now (none at all, for a fetched set whose fetches have failed for longer
    /// than `Schedule::max_stale` past its lifetime).
    pub fn keys(&self) -> Arc<KeySet> {
        let keys = self.current.read().unwrap_or_else(|e| e.into_inner());
        Arc::clone(&keys)
    }

    /// Replaces the keys.
    #[cfg(feature = "jwks-http")]
    fn set_keys(&self, keys: KeySet) {
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(keys);
    }

    /// The keys to check a token with: fetched again first if they come from a URL and their
    /// lifetime is over (unless another fetch is running: then the keys as they are).
    pub(crate) async fn current(&self) -> Arc<KeySet> {
        #[cfg(feature = "jwks-http")]
        if let Some(remote) = &self.remote {
            remote.refresh_if_due(self).await;
        }
        self.keys()
    }

    /// The keys after a token named a key `seen` does not hold: fetched again if they come
    /// from a URL and the last fetch is older than `Schedule::min_interval`. `None` when
    /// they are still `seen` (nothing new to try the token with).
    pub(crate) async fn refresh_for_unknown_key(&self, seen: &Arc<KeySet>) -> Option<Arc<KeySet>> {
        #[cfg(feature = "jwks-http")]
        if let Some(remote) = &self.remote {
            remote.refresh_for_unknown_key(self).await;
        }
        let now = self.keys();
        (!Arc::ptr_eq(&now, seen)).then_some(now)
    }
}

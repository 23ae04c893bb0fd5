//! Where a JWT validator's keys come from ([`Jwks`]): a set given once (a JSON value or file),
//! or, with the `jwks-http` feature, an http(s) URL fetched at start and fetched again when a
//! token names a key the set does not hold (a key rotation), at most once per
//! [`Jwks::REFETCH_INTERVAL`] whatever tokens come, so that made-up `kid`s cannot turn the
//! server into a client that floods its authorization server.

use std::sync::{Arc, RwLock};

use super::keys::KeySet;

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
    /// How long after a fetch the next one may be made, when a token names an unknown key.
    pub const REFETCH_INTERVAL: std::time::Duration = std::time::Duration::from_secs(30);

    /// A key set given once, never fetched again.
    pub fn fixed(keys: KeySet) -> Jwks {
        Jwks {
            current: RwLock::new(Arc::new(keys)),
            #[cfg(feature = "jwks-http")]
            remote: None,
        }
    }

    /// The keys now.
    pub fn keys(&self) -> Arc<KeySet> {
        let keys = self.current.read().unwrap_or_else(|e| e.into_inner());
        Arc::clone(&keys)
    }

    /// Fetches the keys again if they come from a URL and the last fetch is older than
    /// [`Jwks::REFETCH_INTERVAL`]: whether the keys changed. A failed fetch keeps the keys.
    pub(crate) async fn refresh(&self) -> bool {
        #[cfg(feature = "jwks-http")]
        if let Some(remote) = &self.remote {
            let Some(keys) = remote.refetch().await else {
                return false;
            };
            *self.current.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(keys);
            return true;
        }
        false
    }
}

#[cfg(feature = "jwks-http")]
mod remote {
    use std::time::{Duration, Instant};

    use super::{Jwks, KeySet};
    use crate::auth::keys::KeySetError;

    /// The largest JWKS document read.
    const MAX_DOCUMENT: usize = 256 * 1024;

    /// How long one fetch may take.
    const TIMEOUT: Duration = Duration::from_secs(10);

    /// A JWKS URL and when it was last fetched.
    pub(super) struct Remote {
        url: String,
        client: reqwest::Client,
        /// The last fetch; held while one runs, so that one fetch at a time is made.
        last: tokio::sync::Mutex<Instant>,
        interval: Duration,
    }

    /// Why a JWKS URL was not read.
    #[derive(Debug, thiserror::Error)]
    pub enum FetchError {
        /// The request failed, or its answer was not 200.
        #[error("fetching the JWKS at {url}: {error}")]
        Http {
            /// The URL.
            url: String,
            /// Why.
            error: String,
        },
        /// The answer was not a key set.
        #[error("the JWKS at {url}: {error}")]
        Keys {
            /// The URL.
            url: String,
            /// Why.
            error: KeySetError,
        },
    }

    impl Jwks {
        /// The key set at `url` (http, or https when reqwest has a TLS feature on), fetched
        /// now, and again when a token names an unknown key (at most once per
        /// [`Jwks::REFETCH_INTERVAL`]).
        pub async fn fetch(url: &str) -> Result<Jwks, FetchError> {
            Jwks::fetch_every(url, Jwks::REFETCH_INTERVAL).await
        }

        /// [`Jwks::fetch`], fetching again at most once per `interval`.
        pub async fn fetch_every(url: &str, interval: Duration) -> Result<Jwks, FetchError> {
            let client = reqwest::Client::builder()
                .timeout(TIMEOUT)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .map_err(|e| FetchError::Http {
                    url: url.to_owned(),
                    error: e.to_string(),
                })?;
            let keys = get(&client, url).await?;
            let mut jwks = Jwks::fixed(keys);
            jwks.remote = Some(Remote {
                url: url.to_owned(),
                client,
                last: tokio::sync::Mutex::new(Instant::now()),
                interval,
            });
            Ok(jwks)
        }
    }

    impl Remote {
        /// The keys fetched again, if the last fetch is old enough and this one works.
        pub(super) async fn refetch(&self) -> Option<KeySet> {
            let mut last = self.last.lock().await;
            if last.elapsed() < self.interval {
                return None;
            }
            *last = Instant::now();
            get(&self.client, &self.url).await.ok()
        }
    }

    /// The key set at `url`, read up to [`MAX_DOCUMENT`] bytes.
    async fn get(client: &reqwest::Client, url: &str) -> Result<KeySet, FetchError> {
        let http = |error: String| FetchError::Http {
            url: url.to_owned(),
            error,
        };
        let mut response = client
            .get(url)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(|e| http(e.to_string()))?;
        if !response.status().is_success() {
            return Err(http(format!("status {}", response.status())));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| http(e.to_string()))? {
            if body.len() + chunk.len() > MAX_DOCUMENT {
                return Err(http(format!("larger than {MAX_DOCUMENT} bytes")));
            }
            body.extend_from_slice(&chunk);
        }
        let text = String::from_utf8(body).map_err(|_| http("not UTF-8".to_owned()))?;
        KeySet::from_json(&text).map_err(|error| FetchError::Keys {
            url: url.to_owned(),
            error,
        })
    }
}

#[cfg(feature = "jwks-http")]
pub use remote::FetchError;

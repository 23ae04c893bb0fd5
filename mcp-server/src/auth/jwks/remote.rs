//! A JWKS fetched from a URL ([`Jwks::fetch`], [`Jwks::fetch_with`]): the fetch itself
//! (bounded in time and size, no redirects), and when it is made again ([`Remote`]).

use std::time::Duration;

use reqwest::Url;
use tokio::time::Instant;

use super::{Jwks, Schedule, origin};
use crate::auth::keys::{KeySet, KeySetError};

/// The largest JWKS document read.
const MAX_DOCUMENT: usize = 256 * 1024;

/// How long one fetch may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// A JWKS URL, and when it was and will be fetched.
pub(super) struct Remote {
    url: Url,
    client: reqwest::Client,
    schedule: Schedule,
    /// Held while a fetch runs, so that one fetch at a time is made.
    times: tokio::sync::Mutex<Times>,
}

/// When a set was fetched and is to be fetched again.
struct Times {
    /// The start of the last fetch, whether it worked or not.
    tried: Instant,
    /// When the next fetch is made: the end of the set's lifetime, or after a failed fetch
    /// the next try.
    due: Instant,
    /// The end of the last good set's lifetime plus [`Schedule::max_stale`]: a failed fetch
    /// past it drops the set.
    keep_until: Instant,
}

impl Times {
    /// The times after a set fetched at `now` with this `lifetime`.
    fn fetched(now: Instant, lifetime: Duration, schedule: &Schedule) -> Times {
        let due = later(now, lifetime);
        Times {
            tried: now,
            due,
            keep_until: later(due, schedule.max_stale),
        }
    }
}

/// `instant` plus `duration`, or some 30 years for a duration too long to add.
fn later(instant: Instant, duration: Duration) -> Instant {
    instant
        .checked_add(duration)
        .or_else(|| instant.checked_add(Duration::from_secs(30 * 365 * 86400)))
        .unwrap_or(instant)
}

/// Why a JWKS URL was not read.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// The URL is not one a JWKS is fetched from: not a URL, or plain http to a host that is
    /// not loopback (a JWKS is fetched over https).
    #[error("the JWKS URL {url}: {error}")]
    Url {
        /// The URL.
        url: String,
        /// Why.
        error: String,
    },
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
    /// The key set at `url` (https; plain http to a loopback host only), fetched now, and
    /// again on the default [`Schedule`]: when its lifetime is over (its `Cache-Control:
    /// max-age` within 1 minute and 1 day, else 10 minutes), and when a token names an
    /// unknown key (at most once per [`Jwks::REFETCH_INTERVAL`]).
    pub async fn fetch(url: &str) -> Result<Jwks, FetchError> {
        Jwks::fetch_with(url, Schedule::default()).await
    }

    /// [`Jwks::fetch`], fetching again for an unknown key at most once per `interval` (the
    /// [`Schedule::min_interval`] of the default schedule).
    pub async fn fetch_every(url: &str, interval: Duration) -> Result<Jwks, FetchError> {
        let schedule = Schedule {
            min_interval: interval,
            ..Schedule::default()
        };
        Jwks::fetch_with(url, schedule).await
    }

    /// [`Jwks::fetch`] on the given `schedule`.
    pub async fn fetch_with(url: &str, schedule: Schedule) -> Result<Jwks, FetchError> {
        let refused = |error: String| FetchError::Url {
            url: url.to_owned(),
            error,
        };
        let parsed = Url::parse(url).map_err(|e| refused(e.to_string()))?;
        if let Some(why) = origin::refused(&parsed) {
            return Err(refused(why.to_owned()));
        }
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| FetchError::Http {
                url: url.to_owned(),
                error: e.to_string(),
            })?;
        let now = Instant::now();
        let fetched = get(&client, &parsed, &schedule).await?;
        let mut jwks = Jwks::fixed(fetched.keys);
        jwks.remote = Some(Remote {
            url: parsed,
            client,
            schedule,
            times: tokio::sync::Mutex::new(Times::fetched(now, fetched.lifetime, &schedule)),
        });
        Ok(jwks)
    }
}

impl Remote {
    /// Fetches `jwks`'s set again if its lifetime is over and no other fetch is running.
    pub(super) async fn refresh_if_due(&self, jwks: &Jwks) {
        let Ok(mut times) = self.times.try_lock() else {
            return; // another request is fetching: the set as it is meanwhile
        };
        if Instant::now() >= times.due {
            self.fetch_into(jwks, &mut times).await;
        }
    }

    /// Fetches `jwks`'s set again (after the fetch running, if one is) unless the last fetch
    /// is more recent than [`Schedule::min_interval`].
    pub(super) async fn refresh_for_unknown_key(&self, jwks: &Jwks) {
        let mut times = self.times.lock().await;
        if times.tried.elapsed() >= self.schedule.min_interval {
            self.fetch_into(jwks, &mut times).await;
        }
    }

    /// Fetches the set into `jwks`. A failure keeps the set, tried again after
    /// [`Schedule::min_interval`], until [`Times::keep_until`]: past it, the set is dropped.
    async fn fetch_into(&self, jwks: &Jwks, times: &mut Times) {
        let now = Instant::now();
        times.tried = now;
        match get(&self.client, &self.url, &self.schedule).await {
            Ok(fetched) => {
                jwks.set_keys(fetched.keys);
                *times = Times::fetched(now, fetched.lifetime, &self.schedule);
            }
            Err(_) => {
                if Instant::now() >= times.keep_until {
                    jwks.set_keys(KeySet::empty());
                }
                // Tried again after min_interval, or at keep_until if that comes first; once
                // the set is dropped, no more often than every min_interval either.
                let retry = later(now, self.schedule.min_interval);
                times.due = if now < times.keep_until {
                    retry.min(times.keep_until)
                } else {
                    retry
                };
            }
        }
    }
}

/// A key set read from its URL, and how long it may be kept.
struct Fetched {
    keys: KeySet,
    lifetime: Duration,
}

/// The key set at `url`, read up to [`MAX_DOCUMENT`] bytes, with its lifetime on `schedule`.
async fn get(
    client: &reqwest::Client,
    url: &Url,
    schedule: &Schedule,
) -> Result<Fetched, FetchError> {
    let http = |error: String| FetchError::Http {
        url: url.to_string(),
        error,
    };
    let mut response = client
        .get(url.clone())
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|e| http(e.to_string()))?;
    if !response.status().is_success() {
        return Err(http(format!("status {}", response.status())));
    }
    let cache_control = response.headers().get_all(reqwest::header::CACHE_CONTROL);
    let lifetime = schedule.lifetime(cache_control.iter().filter_map(|v| v.to_str().ok()));
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| http(e.to_string()))? {
        if body.len() + chunk.len() > MAX_DOCUMENT {
            return Err(http(format!("larger than {MAX_DOCUMENT} bytes")));
        }
        body.extend_from_slice(&chunk);
    }
    let text = String::from_utf8(body).map_err(|_| http("not UTF-8".to_owned()))?;
    let keys = KeySet::from_json(&text).map_err(|error| FetchError::Keys {
        url: url.to_string(),
        error,
    })?;
    Ok(Fetched { keys, lifetime })
}

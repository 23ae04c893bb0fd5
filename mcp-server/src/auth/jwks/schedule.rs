//! [`Schedule`]: when a fetched JWKS is fetched again, and how long its last good set is kept
//! while fetches fail; and a set's lifetime read from its answer's `Cache-Control`.

use std::time::Duration;

/// When a JWKS fetched from a URL is fetched again ([`Jwks::fetch_with`](super::Jwks::fetch_with)).
///
/// ```
/// use std::time::Duration;
/// use mcp_server::auth::Schedule;
///
/// let schedule = Schedule {
///     default_lifetime: Duration::from_secs(300),
///     ..Schedule::default()
/// };
/// assert_eq!(schedule.max_lifetime, Duration::from_secs(24 * 3600));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// A set's lifetime when its answer gives no `Cache-Control: max-age` (10 minutes).
    pub default_lifetime: Duration,
    /// The shortest lifetime, whatever `max-age` says (`max-age=0` and `no-cache` included):
    /// 1 minute.
    pub min_lifetime: Duration,
    /// The longest lifetime, whatever `max-age` says: 1 day.
    pub max_lifetime: Duration,
    /// The least time between two fetches made for a token naming an unknown key, or after
    /// a failed fetch: 30 seconds ([`Jwks::REFETCH_INTERVAL`](super::Jwks::REFETCH_INTERVAL)).
    pub min_interval: Duration,
    /// How long past its lifetime the last good set is kept while fetches fail: 1 hour.
    /// After that no token verifies until a fetch succeeds.
    pub max_stale: Duration,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule {
            default_lifetime: Duration::from_secs(10 * 60),
            min_lifetime: Duration::from_secs(60),
            max_lifetime: Duration::from_secs(24 * 3600),
            min_interval: super::Jwks::REFETCH_INTERVAL,
            max_stale: Duration::from_secs(3600),
        }
    }
}

impl Schedule {
    /// The lifetime of a set whose answer carried the `Cache-Control` values `cache_control`:
    /// its `max-age` (`no-cache` and `no-store` count as 0), or the default, held between
    /// the shortest and the longest lifetime.
    pub(super) fn lifetime<'a>(
        &self,
        cache_control: impl IntoIterator<Item = &'a str>,
    ) -> Duration {
        let max_age = cache_control
            .into_iter()
            .flat_map(|value| value.split(','))
            .filter_map(max_age)
            .min();
        let lifetime = max_age.map_or(self.default_lifetime, Duration::from_secs);
        lifetime.min(self.max_lifetime).max(self.min_lifetime)
    }
}

/// The seconds a `Cache-Control` directive lets the answer be kept, if it says: `max-age=N`
/// (`N` possibly quoted; a number too large for a `u64` is as good as forever), 0 for
/// `no-cache` and `no-store`.
fn max_age(directive: &str) -> Option<u64> {
    let (name, value) = match directive.split_once('=') {
        Some((name, value)) => (name.trim(), Some(value.trim())),
        None => (directive.trim(), None),
    };
    if name.eq_ignore_ascii_case("no-cache") || name.eq_ignore_ascii_case("no-store") {
        return Some(0);
    }
    if !name.eq_ignore_ascii_case("max-age") {
        return None;
    }
    let digits = value?.trim_matches('"');
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse().unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lifetime(values: &[&str]) -> Duration {
        Schedule::default().lifetime(values.iter().copied())
    }

    #[test]
    fn max_age_is_honoured_between_the_floor_and_the_ceiling() {
        assert_eq!(lifetime(&["public, max-age=300"]), Duration::from_secs(300));
        assert_eq!(lifetime(&["MAX-AGE=\"120\""]), Duration::from_secs(120));
        // Below the floor, above the ceiling, beyond u64.
        assert_eq!(lifetime(&["max-age=5"]), Duration::from_secs(60));
        assert_eq!(lifetime(&["max-age=999999999"]), Duration::from_secs(86400));
        assert_eq!(
            lifetime(&["max-age=99999999999999999999999"]),
            Duration::from_secs(86400)
        );
        // Nothing usable: the default.
        for nothing in [
            &[][..],
            &["public"],
            &["max-age=soon"],
            &["max-age="],
            &["max-age=-5"],
        ] {
            assert_eq!(lifetime(nothing), Duration::from_secs(600), "{nothing:?}");
        }
        // no-cache / no-store: as short as allowed; the shortest of several max-ages.
        assert_eq!(lifetime(&["no-store"]), Duration::from_secs(60));
        assert_eq!(
            lifetime(&["max-age=900", "max-age=400"]),
            Duration::from_secs(400)
        );
        // The bounds are the caller's.
        let custom = Schedule {
            min_lifetime: Duration::ZERO,
            max_lifetime: Duration::from_secs(10),
            ..Schedule::default()
        };
        assert_eq!(custom.lifetime(["max-age=0"]), Duration::ZERO);
        assert_eq!(custom.lifetime(["max-age=60"]), Duration::from_secs(10));
    }
}

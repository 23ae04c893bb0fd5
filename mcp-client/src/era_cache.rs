//! The era found for each origin, kept for the life of the process (2026-07-28 `versioning`,
//! "Backward Compatibility": the client caches the era per origin and probes again when an
//! answer contradicts it): a second client of a legacy server's origin opens its session
//! without probing first. On stdio the era is the client's own (one process, one server).

use std::sync::{LazyLock, Mutex, PoisonError};

use mcp_runtime::era::{Era, EraCache};

/// The eras found, by origin (`scheme://host:port`).
static ERAS: LazyLock<Mutex<EraCache<String>>> = LazyLock::new(Mutex::default);

/// The origin of `url` (`scheme://host:port`), or `None` if it is not a URL with one.
pub(crate) fn origin(url: &str) -> Option<String> {
    let url = reqwest::Url::parse(url).ok()?;
    let origin = url.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// The era last found at `origin`, if any and not since contradicted.
pub(crate) fn cached(origin: &str) -> Option<Era> {
    ERAS.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .era(origin)
}

/// Keeps the era a probe found at `origin`.
pub(crate) fn remember(origin: &str, era: Era) {
    ERAS.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remember(origin.to_owned(), era);
}

/// Forgets the era of `origin` (an answer contradicted it).
pub(crate) fn forget(origin: &str) {
    ERAS.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .forget(origin);
}

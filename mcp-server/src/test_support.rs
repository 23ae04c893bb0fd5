//! What the crate's unit tests share.

use axum::http::{HeaderMap, HeaderName, HeaderValue};

/// A header map of `pairs`, in order, a name given twice kept twice.
pub(crate) fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (k, v) in pairs {
        map.append(
            HeaderName::from_bytes(k.as_bytes()).unwrap(),
            HeaderValue::from_str(v).unwrap(),
        );
    }
    map
}

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

/// The two-revision module of the tests, bound with its legacy revision (legacy sessions).
pub(crate) mod eras {
    /// The modern revision with the module's error code facts, as a generated module's root.
    pub(crate) mod mcp {
        pub(crate) use mcp_tests::eras::ERROR_CODE_FACTS;
        pub(crate) use mcp_tests::eras::v2026_07_28::*;
    }

    crate::bind!(pub(crate) Eras = crate::test_support::eras::mcp, legacy = mcp_tests::eras::v2025_11_25);

    /// A client that declares no capabilities.
    pub(crate) fn client() -> (mcp::ClientCapabilities, mcp::Implementation) {
        let info = mcp::Implementation::new("test-client", "1.0");
        (mcp::ClientCapabilities::default(), info)
    }
}

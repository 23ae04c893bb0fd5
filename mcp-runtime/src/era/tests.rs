//! Each rule of era detection: the server's classification, the client's probe on both
//! transports (the conformance suite's legacy mocks among the answers), and the cache's
//! re-probing.

use mcp_tests::mcp;
use serde_json::{Value, json};

use super::*;

const MODERN: &str = "2026-07-28";

// ----- the server side -----

fn http(header: Option<&str>) -> Transport<'_> {
    Transport::Http {
        protocol_version: header,
    }
}

fn request<'a>(
    method: &'a str,
    meta: Option<&'a str>,
    transport: Transport<'a>,
    session: Session,
) -> Incoming<'a> {
    Incoming {
        kind: Kind::Request { method },
        meta_version: meta,
        transport,
        session,
    }
}

#[test]
fn initialize_is_legacy_unless_it_carries_the_modern_meta() {
    for transport in [Transport::Stdio, http(None), http(Some("2025-11-25"))] {
        for session in [Session::None, Session::Known, Session::Unknown] {
            let incoming = request(INITIALIZE, None, transport, session);
            assert_eq!(
                classify(&incoming),
                Classified::Legacy(Legacy::Initialize),
                "{incoming:?}"
            );
        }
    }
    // With the modern `_meta` (and header), a modern request whose method the era lacks.
    for transport in [Transport::Stdio, http(Some(MODERN))] {
        let incoming = request(INITIALIZE, Some(MODERN), transport, Session::None);
        assert_eq!(
            classify(&incoming),
            Classified::Modern {
                version: Some(MODERN)
            },
            "{incoming:?}"
        );
    }
    // A notification named `initialize` is not the handshake.
    let notification = Incoming {
        kind: Kind::Notification { method: INITIALIZE },
        ..request(INITIALIZE, None, Transport::Stdio, Session::None)
    };
    assert_ne!(
        classify(&notification),
        Classified::Legacy(Legacy::Initialize)
    );
}

#[test]
fn every_message_of_a_live_legacy_session_is_legacy() {
    let kinds = [
        Kind::Request {
            method: "tools/call",
        },
        Kind::Notification {
            method: "notifications/initialized",
        },
        Kind::Response,
    ];
    for kind in kinds {
        for transport in [Transport::Stdio, http(Some("2025-11-25")), http(None)] {
            let incoming = Incoming {
                kind,
                meta_version: None,
                transport,
                session: Session::Known,
            };
            assert_eq!(classify(&incoming), Classified::Legacy(Legacy::Session));
        }
    }
}

#[test]
fn a_request_with_meta_is_modern_on_http_only_with_the_matching_header() {
    let modern = Classified::Modern {
        version: Some(MODERN),
    };
    let on = |transport| {
        classify(&request(
            "tools/list",
            Some(MODERN),
            transport,
            Session::None,
        ))
    };
    assert_eq!(on(Transport::Stdio), modern);
    assert_eq!(on(http(Some(MODERN))), modern);
    assert_eq!(
        on(http(None)),
        Classified::Neither(Unclassified::MissingHeader)
    );
    assert_eq!(
        on(http(Some("2025-11-25"))),
        Classified::Neither(Unclassified::HeaderMismatch {
            header: "2025-11-25",
            meta: MODERN
        })
    );
    // An unknown version is still modern-shaped: supporting it is the caller's check (-32022).
    let odd = request(
        "tools/list",
        Some("1900-01-01"),
        http(Some("1900-01-01")),
        Session::None,
    );
    assert_eq!(
        classify(&odd),
        Classified::Modern {
            version: Some("1900-01-01")
        }
    );
    // A modern request ignores an Mcp-Session-Id the server does not know.
    let stale = request(
        "tools/list",
        Some(MODERN),
        http(Some(MODERN)),
        Session::Unknown,
    );
    assert_eq!(classify(&stale), modern);
}

#[test]
fn a_notification_outside_a_session_is_modern() {
    let notification = |meta, transport, session| Incoming {
        kind: Kind::Notification {
            method: "notifications/cancelled",
        },
        meta_version: meta,
        transport,
        session,
    };
    assert_eq!(
        classify(&notification(None, Transport::Stdio, Session::None)),
        Classified::Modern { version: None }
    );
    assert_eq!(
        classify(&notification(None, http(Some(MODERN)), Session::None)),
        Classified::Modern {
            version: Some(MODERN)
        }
    );
    assert_eq!(
        classify(&notification(None, http(None), Session::None)),
        Classified::Neither(Unclassified::MissingHeader)
    );
    assert_eq!(
        classify(&notification(Some(MODERN), http(Some("x")), Session::None)),
        Classified::Neither(Unclassified::HeaderMismatch {
            header: "x",
            meta: MODERN
        })
    );
    // With an unknown session and no _meta version: the session is gone.
    assert_eq!(
        classify(&notification(
            None,
            http(Some("2025-11-25")),
            Session::Unknown
        )),
        Classified::Neither(Unclassified::UnknownSession)
    );
}

#[test]
fn what_is_neither_says_why() {
    // A legacy request sent with no session, and a modern one without its _meta.
    assert_eq!(
        classify(&request(
            "tools/list",
            None,
            http(Some("2025-11-25")),
            Session::None
        )),
        Classified::Neither(Unclassified::NoVersion {
            header: Some("2025-11-25")
        })
    );
    assert_eq!(
        classify(&request(
            "tools/list",
            None,
            Transport::Stdio,
            Session::None
        )),
        Classified::Neither(Unclassified::NoVersion { header: None })
    );
    // A session the server does not know (2025-11-25: answered with 404).
    assert_eq!(
        classify(&request(
            "tools/list",
            None,
            http(Some("2025-11-25")),
            Session::Unknown
        )),
        Classified::Neither(Unclassified::UnknownSession)
    );
    // A response outside a session.
    let response = Incoming {
        kind: Kind::Response,
        ..request("", None, Transport::Stdio, Session::None)
    };
    assert_eq!(
        classify(&response),
        Classified::Neither(Unclassified::StrayResponse)
    );
}

fn read(message: &Value) -> Option<(Kind<'_>, Option<&str>)> {
    Incoming::read(message, Transport::Stdio, Session::None).map(|i| (i.kind, i.meta_version))
}

#[test]
fn incoming_is_read_from_the_message() {
    let meta = json!({"_meta": {PROTOCOL_VERSION_META: MODERN}});
    assert_eq!(
        read(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": meta})),
        Some((
            Kind::Request {
                method: "tools/list"
            },
            Some(MODERN)
        ))
    );
    assert_eq!(
        read(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled"})),
        Some((
            Kind::Notification {
                method: "notifications/cancelled"
            },
            None
        ))
    );
    assert_eq!(
        read(&json!({"jsonrpc": "2.0", "id": 1, "result": {}})),
        Some((Kind::Response, None))
    );
    // A version that is not a string is no version.
    let odd =
        json!({"id": 1, "method": "m", "params": {"_meta": {PROTOCOL_VERSION_META: 20260728}}});
    assert_eq!(read(&odd), Some((Kind::Request { method: "m" }, None)));
    for not_a_message in [json!([]), json!("x"), json!({"jsonrpc": "2.0"})] {
        assert_eq!(read(&not_a_message), None, "{not_a_message}");
    }
}

// ----- the client side -----

type Found = Probe<mcp::DiscoverResult>;

fn discover_result() -> Value {
    json!({
        "resultType": "complete",
        "supportedVersions": [MODERN],
        "capabilities": {},
        "serverInfo": {"name": "s", "version": "1"},
        "ttlMs": 0,
        "cacheScope": "public",
    })
}

fn response(member: &str, value: Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": 1, member: value})
        .to_string()
        .into_bytes()
}

fn error(code: i64, data: Option<Value>) -> Vec<u8> {
    let mut error = json!({"code": code, "message": "whatever the server says"});
    if let Some(data) = data {
        error["data"] = data;
    }
    response("error", error)
}

fn unsupported() -> Vec<u8> {
    error(
        UNSUPPORTED_PROTOCOL_VERSION,
        Some(json!({"supported": ["2027-01-01", "2025-11-25"], "requested": MODERN})),
    )
}

fn missing_capability() -> Vec<u8> {
    error(
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        Some(json!({"requiredCapabilities": {"sampling": {}}})),
    )
}

/// The probe's answer on both transports (HTTP with `status`).
fn both(status: u16, body: &[u8]) -> [Found; 2] {
    [
        probe(&Answer::Http { status, body }),
        probe(&Answer::Stdio(body)),
    ]
}

#[test]
fn a_discover_result_is_modern() {
    let body = response("result", discover_result());
    for found in both(200, &body) {
        let Probe::Result(result) = &found else {
            panic!("{found:?}")
        };
        assert_eq!(result.supported_versions, [MODERN]);
        assert_eq!(found.era(), Era::Modern);
    }
}

#[test]
fn a_recognised_modern_error_is_modern_on_both_transports() {
    let Probe::ModernError(ModernError::UnsupportedProtocolVersion {
        supported,
        requested,
    }) = probe::<mcp::DiscoverResult>(&Answer::Http {
        status: 400,
        body: &unsupported(),
    })
    else {
        panic!("-32022 not recognised")
    };
    assert_eq!(
        (supported.as_slice(), requested.as_str()),
        (
            &["2027-01-01".to_owned(), "2025-11-25".to_owned()][..],
            MODERN
        )
    );
    for body in [
        error(HEADER_MISMATCH, None),
        missing_capability(),
        unsupported(),
    ] {
        for found in both(400, &body) {
            assert!(matches!(found, Probe::ModernError(_)), "{found:?}");
            assert_eq!(found.era(), Era::Modern);
        }
    }
    let Probe::ModernError(ModernError::MissingRequiredClientCapability { required }) =
        probe::<mcp::DiscoverResult>(&Answer::Stdio(&missing_capability()))
    else {
        panic!("-32021 not recognised")
    };
    assert_eq!(required, json!({"sampling": {}}));
}

#[test]
fn the_conformance_suites_legacy_mocks_are_legacy() {
    let empty = response("result", json!({}));
    let unsupported_legacy = response(
        "error",
        json!({"code": -32000, "message": "Bad Request: Unsupported protocol version (supported versions: 2025-11-25)"}),
    );
    let no_session = response(
        "error",
        json!({"code": -32000, "message": "Bad Request: Invalid or missing session ID"}),
    );
    assert_eq!(
        probe::<mcp::DiscoverResult>(&Answer::Http {
            status: 200,
            body: &empty
        }),
        Probe::Legacy(LegacySign::UnexpectedResult { status: Some(200) })
    );
    for body in [unsupported_legacy, no_session] {
        assert_eq!(
            probe::<mcp::DiscoverResult>(&Answer::Http {
                status: 400,
                body: &body
            }),
            Probe::Legacy(LegacySign::OtherError {
                status: Some(400),
                code: Some(-32000)
            })
        );
    }
}

#[test]
fn any_other_answer_is_legacy() {
    // The message text never counts: a -32000 that says "Unsupported protocol version".
    let worded = response(
        "error",
        json!({"code": -32000, "message": "Unsupported protocol version"}),
    );
    // Common legacy answers before initialize, and no error code at all.
    let method_not_found = error(-32601, None);
    let invalid_params = error(-32602, None);
    let no_code = response("error", json!({"message": "no"}));
    for body in [&worded, &method_not_found, &invalid_params, &no_code] {
        for found in both(400, body) {
            assert!(
                matches!(found, Probe::Legacy(LegacySign::OtherError { .. })),
                "{found:?}"
            );
        }
    }
    // A modern code without the data its schema requires is not recognised.
    for body in [
        error(UNSUPPORTED_PROTOCOL_VERSION, None),
        error(
            UNSUPPORTED_PROTOCOL_VERSION,
            Some(json!({"supported": "2026-07-28", "requested": "x"})),
        ),
        error(
            UNSUPPORTED_PROTOCOL_VERSION,
            Some(json!({"supported": [1], "requested": "x"})),
        ),
        error(MISSING_REQUIRED_CLIENT_CAPABILITY, Some(json!({}))),
        response("error", json!({"code": HEADER_MISMATCH})),
    ] {
        for found in both(400, &body) {
            assert!(matches!(found, Probe::Legacy(_)), "{found:?}");
        }
    }
    // Not JSON-RPC: an empty body (a 404 or 405 of a server without the endpoint), HTML,
    // a JSON-RPC message with neither result nor error.
    for body in [
        &b""[..],
        b"<html>Not Found</html>",
        br#"{"jsonrpc":"2.0","id":1}"#,
        b"[]",
    ] {
        for status in [404, 405, 400, 200] {
            assert_eq!(
                probe::<mcp::DiscoverResult>(&Answer::Http { status, body }),
                Probe::Legacy(LegacySign::NotJsonRpc {
                    status: Some(status)
                })
            );
        }
        assert_eq!(
            probe::<mcp::DiscoverResult>(&Answer::Stdio(body)),
            Probe::Legacy(LegacySign::NotJsonRpc { status: None })
        );
    }
    // A DiscoverResult, but with an error status, is not a successful probe.
    let discovered = response("result", discover_result());
    assert_eq!(
        probe::<mcp::DiscoverResult>(&Answer::Http {
            status: 500,
            body: &discovered
        }),
        Probe::Legacy(LegacySign::UnexpectedResult { status: Some(500) })
    );
    // stdio: no answer in time.
    assert_eq!(
        probe::<mcp::DiscoverResult>(&Answer::NoResponse),
        Probe::Legacy(LegacySign::NoResponse)
    );
}

#[test]
fn a_modern_error_is_modern_whatever_the_status() {
    for status in [200, 400, 404, 500] {
        let found: Found = probe(&Answer::Http {
            status,
            body: &unsupported(),
        });
        assert_eq!(found.era(), Era::Modern, "{status}");
    }
}

// ----- the cache -----

fn http_answer(status: u16, body: &[u8]) -> Answer<'_> {
    Answer::Http { status, body }
}

#[test]
fn a_modern_belief_fails_on_a_fallback_status_without_a_modern_error() {
    let legacy_error = error(-32000, None);
    for status in [400, 404, 405] {
        assert!(contradicts(
            Era::Modern,
            "tools/list",
            &http_answer(status, &legacy_error)
        ));
        assert!(contradicts(
            Era::Modern,
            "tools/list",
            &http_answer(status, b"")
        ));
        assert!(!contradicts(
            Era::Modern,
            "tools/list",
            &http_answer(status, &unsupported())
        ));
        assert!(!contradicts(
            Era::Modern,
            "tools/call",
            &http_answer(status, &error(HEADER_MISMATCH, None))
        ));
    }
    // Success, and statuses that are not about the era, hold.
    let ok = response("result", json!({"tools": []}));
    for (status, body) in [
        (200, &ok),
        (401, &legacy_error),
        (403, &legacy_error),
        (429, &legacy_error),
        (500, &legacy_error),
    ] {
        assert!(
            !contradicts(Era::Modern, "tools/list", &http_answer(status, body)),
            "{status}"
        );
    }
    // stdio: a response holds (errors included); silence fails.
    assert!(!contradicts(
        Era::Modern,
        "tools/list",
        &Answer::Stdio(&error(-32601, None))
    ));
    assert!(contradicts(Era::Modern, "tools/list", &Answer::NoResponse));
}

#[test]
fn a_legacy_belief_fails_on_a_modern_error_or_a_rejected_initialize() {
    // A modern error on any request.
    assert!(contradicts(
        Era::Legacy,
        "tools/list",
        &http_answer(400, &unsupported())
    ));
    assert!(contradicts(
        Era::Legacy,
        "tools/list",
        &Answer::Stdio(&error(HEADER_MISMATCH, None))
    ));
    // initialize rejected in any way: an error, an error status, silence.
    for answer in [
        http_answer(400, &error(-32600, None)),
        http_answer(404, b""),
        Answer::Stdio(&error(-32601, None)),
        Answer::NoResponse,
    ] {
        assert!(contradicts(Era::Legacy, INITIALIZE, &answer), "{answer:?}");
        // Other requests fail as requests do, within the session.
        assert!(
            !contradicts(Era::Legacy, "tools/list", &answer),
            "{answer:?}"
        );
    }
    let initialized = response(
        "result",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}),
    );
    assert!(!contradicts(
        Era::Legacy,
        INITIALIZE,
        &http_answer(200, &initialized)
    ));
}

#[test]
fn the_cache_keeps_an_era_per_key_until_an_answer_contradicts_it() {
    let mut cache = EraCache::new();
    let (a, b) = ("http://127.0.0.1:1", "http://127.0.0.1:2");
    assert_eq!(cache.era(a), None);
    // Nothing cached: nothing to contradict.
    assert!(cache.check(a, "tools/list", &Answer::NoResponse));
    cache.remember(a.to_owned(), Era::Modern);
    cache.remember(b.to_owned(), Era::Legacy);
    assert!(cache.check(
        a,
        "tools/list",
        &http_answer(200, &response("result", json!({})))
    ));
    assert_eq!(cache.era(a), Some(Era::Modern));
    assert!(!cache.check(a, "tools/list", &http_answer(400, &error(-32000, None))));
    assert_eq!(cache.era(a), None);
    // The other origin is untouched.
    assert_eq!(cache.era(b), Some(Era::Legacy));
    assert!(!cache.check(b, INITIALIZE, &http_answer(400, &unsupported())));
    assert_eq!(cache.era(b), None);

    // stdio: one entry per server process (here its id); a new process is a new key.
    let mut processes = EraCache::new();
    processes.remember(4242_u32, Era::Legacy);
    processes.forget(&4242);
    assert_eq!(processes.era(&4242), None);
}

//! Which era a message belongs to (`mcp_runtime::era::classify`), read before it is read as
//! the types of either: `initialize` opens a legacy session, a message naming a live session
//! is served in it, everything else goes on to the modern checks. The transport's refusals
//! (2025-11-25 `basic/transports`): a session's request without `Mcp-Session-Id` is refused
//! with 400, one naming a session the server does not know (or that another principal
//! opened) with 404.

use std::sync::Arc;

use axum::http::{HeaderMap, HeaderValue, StatusCode};
use mcp_runtime::RpcError;
use mcp_runtime::era::{self, Classified, Incoming, Kind, Legacy, Transport, Unclassified};
use mcp_runtime::error_code::{SERVER_ERROR, SESSION_NOT_FOUND};
use serde::Deserialize;

use super::sessions::{Session, Sessions};
use crate::http::SESSION_HEADER;
use crate::modern::Read;
use crate::{LegacySchema, Refused};

/// Where a POST goes.
pub enum Route<S: LegacySchema> {
    /// The modern checks and handlers.
    Modern,
    /// `initialize`: a new session.
    Initialize,
    /// A message of this live session.
    Session(Arc<Session<S>>),
    /// A message of the session of this id, to be looked up in the store the sessions share
    /// ([`Sessions::find_anywhere`]): not found there, it is refused as an unknown session is.
    Shared(String),
    /// Refused before it is read further.
    Refuse(Refused<S>),
}

/// The `_meta` protocol version of the message, if a string (the modern marker).
#[derive(Deserialize)]
struct MetaVersion {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion")]
    version: Option<String>,
}

/// The value of header `name`, if it is text.
fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .and_then(|v: &HeaderValue| v.to_str().ok())
}

/// The era of a POSTed message of `principal`, with the session it names among `sessions`;
/// with `modern_only`, a message declaring a legacy version is not asked for a session.
pub fn route<S: LegacySchema>(
    sessions: &Sessions<S>,
    modern_only: bool,
    headers: &HeaderMap,
    envelope: &Read<'_, S>,
    principal: &str,
) -> Route<S> {
    let named = header(headers, SESSION_HEADER).map(str::trim);
    let (session, found) = match named {
        None => (era::Session::None, None),
        // Classified as a live session's: if it is not one, the lookup refuses it as
        // classifying it unknown would have (an unknown session's message is refused exactly
        // when a known one's would be served).
        Some(_) if sessions.is_shared() => (era::Session::Known, None),
        Some(id) => match sessions.find(id, principal) {
            Some(s) => (era::Session::Known, Some(s)),
            None => (era::Session::Unknown, None),
        },
    };
    let transport = Transport::Http {
        protocol_version: header(headers, "mcp-protocol-version").map(str::trim),
    };
    let meta = meta_version::<S>(envelope);
    let incoming = incoming::<S>(envelope, meta.as_ref(), transport, session);
    let id = envelope.id.clone().flatten();
    match era::classify(&incoming) {
        Classified::Legacy(Legacy::Initialize) => Route::Initialize,
        Classified::Legacy(Legacy::Session) => match (found, named) {
            (Some(session), _) => Route::Session(session),
            (None, Some(id)) if sessions.is_shared() => Route::Shared(id.to_owned()),
            (None, _) => Route::Modern,
        },
        Classified::Neither(Unclassified::UnknownSession) => {
            let error = RpcError::new(SESSION_NOT_FOUND, "Session not found");
            Route::Refuse(Refused::new(id.as_ref(), error).with_status(StatusCode::NOT_FOUND))
        }
        Classified::Neither(Unclassified::NoVersion { header: Some(v) })
            if !modern_only && is_legacy_version(v) =>
        {
            let message = "Bad Request: no Mcp-Session-Id (send initialize first)";
            let error = RpcError::new(SERVER_ERROR, message);
            Route::Refuse(Refused::new(id.as_ref(), error).with_status(StatusCode::BAD_REQUEST))
        }
        _ => Route::Modern,
    }
}

/// The `_meta` protocol version of `envelope`'s params, if it declares one.
fn meta_version<S: LegacySchema>(envelope: &Read<'_, S>) -> Option<MetaVersion> {
    envelope
        .params
        .as_ref()
        .and_then(|p| p.0.meta)
        .and_then(|raw| serde_json::from_str(raw.get()).ok())
}

/// What `mcp_runtime::era::classify` reads of a message (`meta` is [`meta_version`]'s).
fn incoming<'a, S: LegacySchema>(
    envelope: &'a Read<'_, S>,
    meta: Option<&'a MetaVersion>,
    transport: Transport<'a>,
    session: era::Session,
) -> Incoming<'a> {
    let kind = match (envelope.method.as_deref(), envelope.id.is_some()) {
        (Some(method), true) => Kind::Request { method },
        (Some(method), false) => Kind::Notification { method },
        (None, _) => Kind::Response,
    };
    Incoming {
        kind,
        meta_version: meta.and_then(|m| m.version.as_deref()),
        transport,
        session,
    }
}

/// Whether a message of a process with no legacy session open (stdio) is the `initialize`
/// that opens one (`mcp_runtime::era::classify`); every other message is a modern one.
pub fn is_initialize<S: LegacySchema>(envelope: &Read<'_, S>) -> bool {
    let meta = meta_version::<S>(envelope);
    let incoming = incoming::<S>(
        envelope,
        meta.as_ref(),
        Transport::Stdio,
        era::Session::None,
    );
    era::classify(&incoming) == Classified::Legacy(Legacy::Initialize)
}

/// Dated revisions before 2026-07-28 (the ones with the `initialize` handshake).
fn is_legacy_version(version: &str) -> bool {
    version.len() == 10 && version < "2026-07-28"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::modern::read_envelope;
    use crate::test_support::eras::{Eras, client};
    use crate::test_support::headers;

    const INITIALIZE: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
    const LIST: &[u8] = br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

    fn route_of(sessions: &Sessions<Eras>, pairs: &[(&str, &str)], body: &[u8]) -> Route<Eras> {
        let envelope = read_envelope::<Eras>(body).unwrap();
        route(sessions, false, &headers(pairs), &envelope, "p")
    }

    fn status(route: Route<Eras>) -> Option<StatusCode> {
        match route {
            Route::Refuse(f) => Some(f.status),
            _ => None,
        }
    }

    #[test]
    fn initialize_opens_and_a_known_session_is_served_in_it() {
        let sessions = Sessions::new(Arc::new(Config::default()));
        assert!(matches!(
            route_of(&sessions, &[], INITIALIZE),
            Route::Initialize
        ));
        let (capabilities, info) = client();
        let open = sessions.open("p", capabilities, info).unwrap();
        let named = [(SESSION_HEADER, open.id.as_str())];
        assert!(matches!(route_of(&sessions, &named, LIST), Route::Session(s) if s.id == open.id));
    }

    #[test]
    fn an_unknown_session_is_404_and_a_legacy_request_without_one_400() {
        let sessions = Sessions::new(Arc::new(Config::default()));
        let unknown = route_of(&sessions, &[(SESSION_HEADER, "nope")], LIST);
        assert_eq!(status(unknown), Some(StatusCode::NOT_FOUND));
        let version = [("mcp-protocol-version", "2025-11-25")];
        let unnamed = route_of(&sessions, &version, LIST);
        assert_eq!(status(unnamed), Some(StatusCode::BAD_REQUEST));
        let envelope = read_envelope::<Eras>(LIST).unwrap();
        let modern_only = route(&sessions, true, &headers(&version), &envelope, "p");
        assert!(matches!(modern_only, Route::Modern));
    }

    #[test]
    fn over_stdio_only_initialize_opens_a_session() {
        assert!(is_initialize::<Eras>(
            &read_envelope::<Eras>(INITIALIZE).unwrap()
        ));
        assert!(!is_initialize::<Eras>(
            &read_envelope::<Eras>(LIST).unwrap()
        ));
    }
}

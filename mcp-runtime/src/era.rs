//! Which era a peer speaks: *legacy* (an `initialize` handshake and a session, revisions up to
//! 2025-11-25) or *modern* (the protocol version, capabilities and identity on every request,
//! 2026-07-28 and later). The decisions of the 2026-07-28 specification, "Versioning", section
//! "Backward Compatibility with Initialization-Based Versions", and the "Backward
//! Compatibility" sections of its stdio and Streamable HTTP transport pages, as plain
//! functions that do no I/O:
//!
//! - a dual-era **server** classifies each incoming message with [`classify`]: legacy (an
//!   `initialize` request without the modern `_meta`, or a message of a legacy session),
//!   modern (the `_meta` protocol
//!   version, and on HTTP the `MCP-Protocol-Version` header that matches it), or neither (an
//!   [`Unclassified`] the caller answers with an error);
//! - a dual-era **client** reads the answer to its modern probe with [`probe`]: the expected
//!   result or a recognised modern error ([`ModernError`]: the codes [`HEADER_MISMATCH`],
//!   [`MISSING_REQUIRED_CLIENT_CAPABILITY`], [`UNSUPPORTED_PROTOCOL_VERSION`]) means modern,
//!   anything else legacy ([`LegacySign`]), by code and shape, never by message text;
//! - the client keeps the era it found in an [`EraCache`] (per origin on HTTP, per server
//!   process or configuration on stdio) and probes again when [`EraCache::check`] finds that an
//!   answer contradicts it.
//!
//! - the generated code of two revisions (`Builder::schema` called once per revision) converts
//!   between their types through [`convert()`] and [`widen()`]: the value written as JSON, a
//!   `resultType` the target does not know dropped where it holds what its absence means, the
//!   rest read by the target type (members it lacks kept in its lossless `extra`);
//! - the same module lists the era facts the schemas cannot state (methods one era lacks or
//!   carries another way, what replaces them, changed error codes) as tables of
//!   [`MethodFact`] and [`ErrorCodeFact`], read with [`MethodFact::find`],
//!   [`ErrorCodeFact::translate`] and, for an error known by its meaning,
//!   [`ErrorCodeFact::translate_named`].
//!
//! The era is decided before a message can be read into the types of either revision (which
//! differ), so the functions take what the transport has at that point: the message as a
//! [`serde_json::Value`] or its bytes, and the HTTP status and header. The only generated type
//! they need is the result the probe expects, taken as any `T: DeserializeOwned` (a generated
//! `DiscoverResult`).
//!
//! ```
//! # use mcp_tests::mcp;
//! use mcp_runtime::era::{self, Answer, Era, EraCache, Probe};
//!
//! // A legacy server's answer to `server/discover` on Streamable HTTP.
//! let body = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Bad Request: Unsupported protocol version"}}"#;
//! let answer = Answer::Http { status: 400, body };
//! let found = era::probe::<mcp::DiscoverResult>(&answer);
//! assert!(matches!(found, Probe::Legacy(_)));
//!
//! let mut cache = EraCache::new();
//! cache.remember("http://127.0.0.1:8080".to_owned(), found.era());
//! assert_eq!(cache.era("http://127.0.0.1:8080"), Some(Era::Legacy));
//! ```

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error_code::MISSING_REQUIRED_CLIENT_CAPABILITY;

/// The method of the legacy handshake.
pub const INITIALIZE: &str = "initialize";
/// The `_meta` key of a modern request's protocol version.
pub const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";
/// The Streamable HTTP header that repeats a request's protocol version.
pub const PROTOCOL_VERSION_HEADER: &str = "MCP-Protocol-Version";
/// `HeaderMismatchError` and `UnsupportedProtocolVersionError`'s codes, from
/// [`crate::error_code`].
pub use crate::error_code::{HEADER_MISMATCH, UNSUPPORTED_PROTOCOL_VERSION};

/// The two eras of the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// An `initialize` handshake opens a session (revisions 2025-11-25 and earlier).
    Legacy,
    /// Every request carries its protocol version in `_meta` (2026-07-28 and later).
    Modern,
}

// ----- the server side -----

/// What kind of JSON-RPC message came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind<'a> {
    /// A request (it has an `id` and a `method`).
    Request {
        /// Its method.
        method: &'a str,
    },
    /// A notification (a `method` and no `id`).
    Notification {
        /// Its method.
        method: &'a str,
    },
    /// A response (an `id` and no `method`): only legacy clients send them, to a server's
    /// requests.
    Response,
}

/// The transport a message came on, with what it adds to the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport<'a> {
    /// stdio: everything is in the message.
    Stdio,
    /// Streamable HTTP, with the value of the `MCP-Protocol-Version` header if sent.
    Http {
        /// The `MCP-Protocol-Version` header.
        protocol_version: Option<&'a str>,
    },
}

/// The legacy session a message names, as the server's session store knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Session {
    /// No session: no `Mcp-Session-Id` header (HTTP), or a process not opened by `initialize`
    /// (stdio).
    None,
    /// A live legacy session: a known `Mcp-Session-Id` (HTTP), or a process opened by
    /// `initialize` (stdio, where the legacy era is scoped to the process).
    Known,
    /// An `Mcp-Session-Id` the server does not know (never issued, expired or ended).
    Unknown,
}

/// What the server knows of an incoming message when it decides its era.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Incoming<'a> {
    /// The kind of message.
    pub kind: Kind<'a>,
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]` when it is a string.
    pub meta_version: Option<&'a str>,
    /// The transport, with its header.
    pub transport: Transport<'a>,
    /// The session the message names.
    pub session: Session,
}

impl<'a> Incoming<'a> {
    /// Reads the kind and the `_meta` protocol version from a JSON-RPC `message`; `None` when
    /// it is not a JSON-RPC message at all (not an object, or neither a `method` nor an `id`),
    /// which the caller answers as it answers unreadable input.
    ///
    /// ```
    /// use mcp_runtime::era::{Incoming, Kind, Session, Transport};
    /// use serde_json::json;
    ///
    /// let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
    ///     "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
    /// let incoming = Incoming::read(&message, Transport::Stdio, Session::None).unwrap();
    /// assert_eq!(incoming.kind, Kind::Request { method: "tools/list" });
    /// assert_eq!(incoming.meta_version, Some("2026-07-28"));
    /// ```
    pub fn read(message: &'a Value, transport: Transport<'a>, session: Session) -> Option<Self> {
        let object = message.as_object()?;
        let method = object.get("method").and_then(Value::as_str);
        let kind = match (method, object.contains_key("id")) {
            (Some(method), true) => Kind::Request { method },
            (Some(method), false) => Kind::Notification { method },
            (None, true) => Kind::Response,
            (None, false) => return None,
        };
        Some(Incoming {
            kind,
            meta_version: meta_version(message),
            transport,
            session,
        })
    }
}

/// The `_meta` protocol version of a JSON-RPC message (`params._meta[...]`), if a string.
pub fn meta_version(message: &Value) -> Option<&str> {
    message
        .get("params")?
        .get("_meta")?
        .get(PROTOCOL_VERSION_META)?
        .as_str()
}

/// Why a message is served in the legacy era.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Legacy {
    /// An `initialize` request without the modern `_meta`: it opens a legacy session (HTTP)
    /// or the process's legacy era (stdio).
    Initialize,
    /// A message of a live legacy session.
    Session,
}

/// The era a server serves a message in, or why it can serve it in neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classified<'a> {
    /// Served by the legacy revision the session negotiated.
    Legacy(Legacy),
    /// Served statelessly by the modern revision. Whether the server serves `version` in the
    /// modern era is the caller's next check (`UnsupportedProtocolVersionError`,
    /// [`UNSUPPORTED_PROTOCOL_VERSION`], if not).
    Modern {
        /// The version the message declares in `_meta` (always, for a request); for a
        /// notification without one, the HTTP header's, and `None` on stdio.
        version: Option<&'a str>,
    },
    /// Neither era: an error the caller answers.
    Neither(Unclassified<'a>),
}

/// Why a message belongs to neither era, and so what the caller answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unclassified<'a> {
    /// A request that is not `initialize`, names no live session and has no `_meta` protocol
    /// version: a modern request without its required `_meta` (invalid params for a modern
    /// server),
    /// or a legacy request sent outside a session. `header` is the `MCP-Protocol-Version`
    /// header if one came (a legacy client sends its negotiated version there).
    NoVersion {
        /// The `MCP-Protocol-Version` header.
        header: Option<&'a str>,
    },
    /// HTTP: a modern message without the `MCP-Protocol-Version` header (`HeaderMismatch`,
    /// [`HEADER_MISMATCH`], status 400).
    MissingHeader,
    /// HTTP: the header and the `_meta` version differ (`HeaderMismatch`, [`HEADER_MISMATCH`],
    /// status 400).
    HeaderMismatch {
        /// The `MCP-Protocol-Version` header.
        header: &'a str,
        /// The `_meta` protocol version.
        meta: &'a str,
    },
    /// HTTP: an `Mcp-Session-Id` the server does not know, on a message that is not modern.
    /// 2025-11-25 answers it with status 404, after which the client opens a new session.
    UnknownSession,
    /// A response outside a legacy session: a modern client never sends one.
    StrayResponse,
}

/// The era a dual-era server serves `incoming` in. The rules, in order:
///
/// 1. an `initialize` request without a `_meta` protocol version is legacy (it opens the
///    session); one that carries the modern `_meta` is a modern request (2026-07-28
///    "Versioning": a request with the modern per-request `_meta` is served statelessly), for
///    a method the modern era does not have;
/// 2. a message of a live legacy session is legacy, unless it is a request or notification
///    with a `_meta` protocol version;
/// 3. a request or notification with a `_meta` protocol version is modern, whatever session
///    it names (`Mcp-Session-Id` does not exist in 2026-07-28, whose requests are stateless),
///    on HTTP only if the `MCP-Protocol-Version` header is there and equal to it (else
///    [`HEADER_MISMATCH`]);
/// 4. a notification with no session and no `_meta` version is modern (a modern
///    notification need not declare a version in its body; on HTTP the header is still
///    required on every POST);
/// 5. anything else is [`Classified::Neither`]: an unknown session, a response outside a
///    session, or a request with no `_meta` version.
///
/// ```
/// use mcp_runtime::era::{classify, Classified, Incoming, Kind, Legacy, Session, Transport, Unclassified};
///
/// let http = |header| Transport::Http { protocol_version: header };
/// let initialize = Incoming {
///     kind: Kind::Request { method: "initialize" },
///     meta_version: None,
///     transport: http(Some("2025-11-25")),
///     session: Session::None,
/// };
/// assert_eq!(classify(&initialize), Classified::Legacy(Legacy::Initialize));
///
/// let modern = Incoming { kind: Kind::Request { method: "tools/list" }, meta_version: Some("2026-07-28"), ..initialize };
/// assert_eq!(classify(&Incoming { transport: http(Some("2026-07-28")), ..modern }), Classified::Modern { version: Some("2026-07-28") });
/// assert_eq!(classify(&Incoming { transport: http(None), ..modern }), Classified::Neither(Unclassified::MissingHeader));
///
/// // A modern request stays modern when it names a live legacy session.
/// let in_session = Incoming { transport: http(Some("2026-07-28")), session: Session::Known, ..modern };
/// assert_eq!(classify(&in_session), Classified::Modern { version: Some("2026-07-28") });
/// let legacy = Incoming { meta_version: None, transport: http(Some("2025-11-25")), ..in_session };
/// assert_eq!(classify(&legacy), Classified::Legacy(Legacy::Session));
/// ```
pub fn classify<'a>(incoming: &Incoming<'a>) -> Classified<'a> {
    if let (Kind::Request { method: INITIALIZE }, None) = (incoming.kind, incoming.meta_version) {
        return Classified::Legacy(Legacy::Initialize);
    }
    let declares_modern = matches!(
        incoming.kind,
        Kind::Request { .. } | Kind::Notification { .. }
    ) && incoming.meta_version.is_some();
    if incoming.session == Session::Known && !declares_modern {
        return Classified::Legacy(Legacy::Session);
    }
    // `Some(header)` on HTTP, where the header is required; `None` on stdio.
    let header = match incoming.transport {
        Transport::Stdio => None,
        Transport::Http { protocol_version } => Some(protocol_version),
    };
    match (incoming.kind, incoming.meta_version) {
        (Kind::Request { .. } | Kind::Notification { .. }, Some(meta)) => modern(meta, header),
        (Kind::Notification { .. }, None) if incoming.session == Session::None => match header {
            None => Classified::Modern { version: None },
            Some(None) => Classified::Neither(Unclassified::MissingHeader),
            Some(Some(version)) => Classified::Modern {
                version: Some(version),
            },
        },
        _ if incoming.session == Session::Unknown => {
            Classified::Neither(Unclassified::UnknownSession)
        }
        (Kind::Response, _) => Classified::Neither(Unclassified::StrayResponse),
        _ => Classified::Neither(Unclassified::NoVersion {
            header: header.flatten(),
        }),
    }
}

/// A message that declares `meta` in `_meta`: modern, if the header (HTTP only: `Some`)
/// repeats it.
fn modern<'a>(meta: &'a str, header: Option<Option<&'a str>>) -> Classified<'a> {
    match header {
        Some(None) => Classified::Neither(Unclassified::MissingHeader),
        Some(Some(header)) if header != meta => {
            Classified::Neither(Unclassified::HeaderMismatch { header, meta })
        }
        _ => Classified::Modern {
            version: Some(meta),
        },
    }
}

// ----- the client side -----

/// The answer a client got to a request, as the transport delivers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer<'a> {
    /// Streamable HTTP: the status and the JSON-RPC response the body carried (the JSON body,
    /// or the response taken from an SSE stream; empty if there was none).
    Http {
        /// The HTTP status code.
        status: u16,
        /// The JSON-RPC response.
        body: &'a [u8],
    },
    /// stdio: the line of the JSON-RPC response to the request.
    Stdio(&'a [u8]),
    /// stdio: no response within the client's timeout, or the server closed its output.
    NoResponse,
}

impl<'a> Answer<'a> {
    fn body(&self) -> Option<&'a [u8]> {
        match *self {
            Answer::Http { body, .. } | Answer::Stdio(body) => Some(body),
            Answer::NoResponse => None,
        }
    }

    fn status(&self) -> Option<u16> {
        match *self {
            Answer::Http { status, .. } => Some(status),
            _ => None,
        }
    }
}

/// A recognised modern JSON-RPC error: one of the codes the 2026-07-28 revision defines,
/// with the `data` its schema requires.
#[derive(Debug, Clone, PartialEq)]
pub enum ModernError {
    /// [`HEADER_MISMATCH`], `HeaderMismatchError`: correct the headers and send again.
    HeaderMismatch,
    /// [`MISSING_REQUIRED_CLIENT_CAPABILITY`], `MissingRequiredClientCapabilityError`
    /// (`data.requiredCapabilities`).
    MissingRequiredClientCapability {
        /// `data.requiredCapabilities`.
        required: Value,
    },
    /// [`UNSUPPORTED_PROTOCOL_VERSION`], `UnsupportedProtocolVersionError`: retry with one of
    /// `supported`.
    UnsupportedProtocolVersion {
        /// `data.supported`: the versions the server serves.
        supported: Vec<String>,
        /// `data.requested`: the version the request declared.
        requested: String,
    },
}

impl ModernError {
    /// Recognises the `error` member of a JSON-RPC error response, by its code and the shape
    /// of its `data` (never its message): `None` when it is not a modern error.
    ///
    /// ```
    /// use mcp_runtime::era::ModernError;
    /// use mcp_runtime::error_code::UNSUPPORTED_PROTOCOL_VERSION;
    /// use serde_json::json;
    ///
    /// let error = json!({"code": UNSUPPORTED_PROTOCOL_VERSION, "message": "Unsupported protocol version",
    ///     "data": {"supported": ["2026-07-28"], "requested": "1900-01-01"}});
    /// assert!(matches!(ModernError::recognise(&error), Some(ModernError::UnsupportedProtocolVersion { .. })));
    /// // The same code without the data its schema requires is not recognised.
    /// assert_eq!(ModernError::recognise(&json!({"code": UNSUPPORTED_PROTOCOL_VERSION, "message": "?"})), None);
    /// ```
    pub fn recognise(error: &Value) -> Option<Self> {
        error.get("message")?.as_str()?;
        let data = error.get("data");
        match error.get("code")?.as_i64()? {
            HEADER_MISMATCH => Some(ModernError::HeaderMismatch),
            MISSING_REQUIRED_CLIENT_CAPABILITY => {
                let required = data?.get("requiredCapabilities")?;
                required
                    .is_object()
                    .then(|| ModernError::MissingRequiredClientCapability {
                        required: required.clone(),
                    })
            }
            UNSUPPORTED_PROTOCOL_VERSION => {
                let data = data?;
                let supported = data
                    .get("supported")?
                    .as_array()?
                    .iter()
                    .map(|v| v.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()?;
                let requested = data.get("requested")?.as_str()?.to_owned();
                Some(ModernError::UnsupportedProtocolVersion {
                    supported,
                    requested,
                })
            }
            _ => None,
        }
    }
}

/// What in a probe's answer says the server is legacy: anything that is neither the expected
/// result nor a recognised modern error.
#[derive(Debug, Clone, PartialEq)]
pub enum LegacySign {
    /// No response in time (stdio).
    NoResponse,
    /// No JSON-RPC response: an empty or unreadable body, or JSON that is not a response.
    NotJsonRpc {
        /// The HTTP status (HTTP only).
        status: Option<u16>,
    },
    /// A `result` that is not the expected result, e.g. `{}` for `server/discover`.
    UnexpectedResult {
        /// The HTTP status (HTTP only).
        status: Option<u16>,
    },
    /// A JSON-RPC error that is not a recognised modern error, e.g. a legacy server's
    /// [`SERVER_ERROR`](crate::error_code::SERVER_ERROR) or
    /// [`METHOD_NOT_FOUND`](crate::error_code::METHOD_NOT_FOUND).
    OtherError {
        /// The HTTP status (HTTP only).
        status: Option<u16>,
        /// The error's code (`None` if it has none that is an integer).
        code: Option<i64>,
    },
}

/// The era a probe found, with what it found.
#[derive(Debug, Clone, PartialEq)]
pub enum Probe<T> {
    /// The server answered the probe with the expected result.
    Result(T),
    /// The server answered with a recognised modern error: it is modern (retry as the error
    /// says, do not fall back).
    ModernError(ModernError),
    /// The server is legacy: fall back to `initialize`.
    Legacy(LegacySign),
}

impl<T> Probe<T> {
    /// The era this outcome means.
    pub fn era(&self) -> Era {
        match self {
            Probe::Result(_) | Probe::ModernError(_) => Era::Modern,
            Probe::Legacy(_) => Era::Legacy,
        }
    }
}

/// Reads the answer to a client's modern probe: `server/discover` with the client's
/// preferred version in `_meta` (stdio, and the spec's recommendation on HTTP), or on HTTP the
/// first modern request. `T` is the result that request expects (`mcp::DiscoverResult` for
/// the discover probe): a result that reads as `T` means modern, and so does a recognised
/// modern error ([`ModernError`]) whatever the status; anything else means legacy, including
/// a 2xx whose result is not a `T`, a [`SERVER_ERROR`](crate::error_code::SERVER_ERROR) or
/// [`METHOD_NOT_FOUND`](crate::error_code::METHOD_NOT_FOUND) error, an empty body, and no
/// response at all.
///
/// A `T` with required members makes a sharper probe: a legacy server may answer an
/// era-ambiguous request such as `tools/list` as if in a session, which is why the discover
/// probe is the one to use.
///
/// ```
/// # use mcp_tests::mcp;
/// use mcp_runtime::era::{probe, Answer, LegacySign, ModernError, Probe};
/// use mcp_runtime::error_code::SERVER_ERROR;
///
/// // The conformance suite's legacy mocks.
/// let empty = Answer::Http { status: 200, body: br#"{"jsonrpc":"2.0","id":1,"result":{}}"# };
/// assert_eq!(probe::<mcp::DiscoverResult>(&empty), Probe::Legacy(LegacySign::UnexpectedResult { status: Some(200) }));
/// let session = Answer::Http { status: 400, body: br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Invalid or missing session ID"}}"# };
/// assert!(matches!(probe::<mcp::DiscoverResult>(&session), Probe::Legacy(LegacySign::OtherError { code: Some(SERVER_ERROR), .. })));
///
/// // A modern server that serves other versions.
/// let other = Answer::Stdio(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2027-01-01"],"requested":"2026-07-28"}}}"#);
/// let Probe::ModernError(ModernError::UnsupportedProtocolVersion { supported, .. }) = probe::<mcp::DiscoverResult>(&other) else { panic!() };
/// assert_eq!(supported, ["2027-01-01"]);
/// ```
pub fn probe<T: DeserializeOwned>(answer: &Answer<'_>) -> Probe<T> {
    let status = answer.status();
    let Some(body) = answer.body() else {
        return Probe::Legacy(LegacySign::NoResponse);
    };
    let not_json_rpc = || Probe::Legacy(LegacySign::NotJsonRpc { status });
    let Ok(Value::Object(mut response)) = serde_json::from_slice::<Value>(body) else {
        return not_json_rpc();
    };
    if let Some(error) = response.get("error") {
        return match ModernError::recognise(error) {
            Some(modern) => Probe::ModernError(modern),
            None => Probe::Legacy(LegacySign::OtherError {
                status,
                code: error.get("code").and_then(Value::as_i64),
            }),
        };
    }
    let Some(result) = response.remove("result") else {
        return not_json_rpc();
    };
    let success = status.is_none_or(|s| (200..300).contains(&s));
    match serde_json::from_value::<T>(result) {
        Ok(result) if success => Probe::Result(result),
        _ => Probe::Legacy(LegacySign::UnexpectedResult { status }),
    }
}

/// Whether `answer`, to a request the client sent believing the server speaks `era`,
/// contradicts that belief, so that the client must probe again. The rules:
///
/// - believed **modern**: on HTTP, status 400, 404 or 405 with a body that is not a
///   recognised modern error (the statuses after which the HTTP page falls back; a modern
///   server answers a well-formed modern request with a modern error there, or with
///   [`METHOD_NOT_FOUND`](crate::error_code::METHOD_NOT_FOUND) to an unknown method, which a
///   re-probe then confirms as modern); on stdio, no response (a legacy server may stay
///   silent before `initialize`). A 2xx, any other status (401, 403, 429, 5xx: not about the
///   era) and any stdio error response hold.
/// - believed **legacy**: a recognised modern error on any request, or any error or no
///   response to `initialize` (a modern-only server rejects it, naming its versions).
///
/// A client sends `method` with the answer, because only `initialize` is judged apart.
pub fn contradicts(era: Era, method: &str, answer: &Answer<'_>) -> bool {
    let error = answer
        .body()
        .and_then(|b| serde_json::from_slice::<Value>(b).ok())
        .and_then(|mut v| v.get_mut("error").map(Value::take));
    let modern_error = error.as_ref().and_then(ModernError::recognise).is_some();
    match era {
        Era::Modern => match answer {
            Answer::Http { status, .. } => matches!(status, 400 | 404 | 405) && !modern_error,
            Answer::Stdio(_) => false,
            Answer::NoResponse => true,
        },
        Era::Legacy => {
            let failed = error.is_some()
                || matches!(answer, Answer::NoResponse)
                || answer.status().is_some_and(|s| !(200..300).contains(&s));
            modern_error || (method == INITIALIZE && failed)
        }
    }
}

/// The era of each server a client talks to: keyed by origin on Streamable HTTP (scheme, host
/// and port, e.g. `url::Url::origin().ascii_serialization()`), by server process or the
/// configuration that starts it on stdio. The spec says to cache the era for the lifetime of
/// that process or origin and to re-probe when the cached assumption fails:
/// [`check`](EraCache::check) forgets an era that an answer contradicts ([`contradicts`]), so
/// the next request finds none and probes.
///
/// ```
/// use mcp_runtime::era::{Answer, Era, EraCache};
///
/// let origin = "http://127.0.0.1:8080";
/// let mut cache = EraCache::new();
/// cache.remember(origin.to_owned(), Era::Modern);
/// // A legacy server now answers a modern request: 400 with no modern error.
/// let body = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}"#;
/// assert!(!cache.check(origin, "tools/list", &Answer::Http { status: 400, body }));
/// assert_eq!(cache.era(origin), None); // probe again
/// ```
#[derive(Debug, Clone)]
pub struct EraCache<K> {
    eras: HashMap<K, Era>,
}

impl<K: Eq + Hash> Default for EraCache<K> {
    fn default() -> Self {
        EraCache {
            eras: HashMap::new(),
        }
    }
}

impl<K: Eq + Hash> EraCache<K> {
    /// An empty cache: every server is probed once.
    pub fn new() -> Self {
        Self::default()
    }

    /// The era found for `key`, if any and not since contradicted.
    pub fn era<Q>(&self, key: &Q) -> Option<Era>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.eras.get(key).copied()
    }

    /// Keeps the era a probe found for `key`.
    pub fn remember(&mut self, key: K, era: Era) {
        self.eras.insert(key, era);
    }

    /// Forgets the era of `key` (its process ended, or its configuration changed).
    pub fn forget<Q>(&mut self, key: &Q)
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.eras.remove(key);
    }

    /// Checks `answer` to `method`, sent to `key` under its cached era: `true` if the era
    /// still holds (or none is cached), `false` if the answer [`contradicts`] it, in which
    /// case the era is forgotten and the caller probes again.
    pub fn check<Q>(&mut self, key: &Q, method: &str, answer: &Answer<'_>) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let Some(era) = self.era(key) else {
            return true;
        };
        if contradicts(era, method, answer) {
            self.forget(key);
            return false;
        }
        true
    }
}

mod convert;
mod facts;
#[cfg(test)]
mod tests;

pub use convert::{Direction, EraError, convert, widen};
pub use facts::{Carried, ErrorCodeFact, MessageKind, MethodFact, RESOURCE_NOT_FOUND, Replacement};

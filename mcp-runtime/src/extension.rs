//! Protocol extensions (SEP-2133) that add `resultType` values, written once for every
//! generated extension: which values a client accepts when it reads a response, and the typed
//! proof a server needs before it may answer with an extension's result.
//!
//! An extension's `resultType` value counts only where the client advertised the extension in
//! the capabilities it sent with that request (`capabilities.extensions.<id>`); anywhere else
//! it is invalid. The generator (with `Builder::extension`) implements the traits below:
//! [`Extension`] for a marker type per extension (e.g. `TasksExtension`),
//! [`ExtensionCapabilities`] for the client capabilities, [`ExtensionResult`] for the
//! extension's result types and [`Supports`] for the requests it extends.
//!
//! - A client reads a response with a [`Reader`] made from the capabilities it sent: an
//!   extension value is accepted only when those capabilities advertise its extension.
//! - A server gets an [`Advertised`] proof from the request's capabilities, and only that
//!   proof turns an extension result into a [`Granted`] value, the only type the outcome's
//!   extension variant holds. Without the proof, the answer does not compile; the typed
//!   `MissingRequiredClientCapability` refusal is
//!   [`CapabilityErrorResponse::from_missing_extension`](crate::mrtr::CapabilityErrorResponse::from_missing_extension).
//!
//! A server with the tasks extension (generated with
//! `Builder::extension("io.modelcontextprotocol/tasks")`), and the client that reads its answer:
//!
//! ```
//! # use mcp_tests::tasks as mcp;
//! use mcp::prelude::*;
//! use mcp_runtime::extension::{Advertised, Reader};
//! use mcp_runtime::{Response, RpcError};
//!
//! /// Runs every call as a task when the client can take one, else refuses with
//! /// `MissingRequiredClientCapability`.
//! fn answer(request: &CallToolRequest) -> Response<CallToolRequest> {
//!     let caps = &request.params.meta.client_capabilities;
//!     let Some(tasks) = Advertised::<TasksExtension>::check(caps) else {
//!         return Err(RpcError::missing_extension::<TasksExtension>());
//!     };
//!     let now = "2026-07-28T10:30:00Z";
//!     let created = CreateTaskResult::new(now, now, TaskStatus::Working, "task-1", 3_600_000)
//!         .with_poll_interval_ms(5000u64);
//!     Ok(tasks.grant(created).into())
//! }
//!
//! // The client advertises the extension on the request...
//! let mut caps = ClientCapabilities::new();
//! caps.declare::<TasksExtension>();
//! let meta = RequestMetaObject::new(caps.clone(), "2026-07-28");
//! let request = CallToolRequest::new(RequestId::Integer(1), CallToolRequestParams::new(meta, "report"));
//! let wire = serde_json::to_string(&request.reply(answer(&request)))?;
//! // ...and reads the answer with the extensions it advertised on it.
//! let response: CallToolResultResponse = Reader::new(&caps).extension::<TasksExtension>().from_str(&wire)?;
//! let CallToolOutcome::Task(created) = response.result else { panic!("a task") };
//! assert_eq!(created.task_id, "task-1");
//!
//! // Without the extension: `MissingRequiredClientCapability`, naming it in
//! // requiredCapabilities.extensions.
//! let meta = RequestMetaObject::new(ClientCapabilities::new(), "2026-07-28");
//! let request = CallToolRequest::new(RequestId::Integer(2), CallToolRequestParams::new(meta, "report"));
//! let refusal = serde_json::to_value(request.reply(answer(&request)))?;
//! assert_eq!(refusal["error"]["code"], mcp_runtime::error_code::MISSING_REQUIRED_CLIENT_CAPABILITY);
//! assert_eq!(
//!     refusal["error"]["data"]["requiredCapabilities"],
//!     serde_json::json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
//! );
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! The traits on hand-written types:
//!
//! ```
//! use std::collections::BTreeMap;
//! use mcp_runtime::extension::{Advertised, Extension, ExtensionCapabilities};
//!
//! struct Deferred;
//! impl Extension for Deferred {
//!     const ID: &'static str = "com.example/deferred";
//!     const RESULT_TYPES: &'static [&'static str] = &["deferred"];
//! }
//!
//! #[derive(Default)]
//! struct Caps(Option<BTreeMap<String, ()>>);
//! impl ExtensionCapabilities for Caps {
//!     type Settings = ();
//!     fn extensions(&self) -> Option<&BTreeMap<String, ()>> {
//!         self.0.as_ref()
//!     }
//!     fn extensions_mut(&mut self) -> &mut BTreeMap<String, ()> {
//!         self.0.get_or_insert_default()
//!     }
//! }
//!
//! assert!(Advertised::<Deferred>::check(&Caps::default()).is_none());
//! let mut caps = Caps::default();
//! caps.declare::<Deferred>();
//! assert!(Advertised::<Deferred>::check(&caps).is_some());
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use serde::de::DeserializeOwned;

use crate::result_type::accepting;

/// An extension that adds `resultType` values: the generator implements it for a marker type
/// per enabled extension.
pub trait Extension {
    /// The extension's identifier, its key in `capabilities.extensions`
    /// (`"io.modelcontextprotocol/tasks"`).
    const ID: &'static str;
    /// The `resultType` values it defines (`["task"]`).
    const RESULT_TYPES: &'static [&'static str];
}

/// The client capabilities: where a client advertises extensions (`extensions`, keyed by
/// identifier, each with its settings object).
pub trait ExtensionCapabilities: Default {
    /// An extension's settings object (empty: supported, no settings).
    type Settings: Default;

    /// The advertised extensions, if any.
    fn extensions(&self) -> Option<&BTreeMap<String, Self::Settings>>;

    /// The advertised extensions, created empty when unset.
    fn extensions_mut(&mut self) -> &mut BTreeMap<String, Self::Settings>;

    /// Whether these capabilities advertise extension `E`.
    fn declares<E: Extension>(&self) -> bool {
        self.extensions().is_some_and(|e| e.contains_key(E::ID))
    }

    /// The settings these capabilities declare extension `E` with, if they declare it.
    fn settings<E: Extension>(&self) -> Option<&Self::Settings> {
        self.extensions().and_then(|e| e.get(E::ID))
    }

    /// Advertises extension `E` (with empty settings, unless it is already there).
    fn declare<E: Extension>(&mut self) {
        self.extensions_mut().entry(E::ID.to_owned()).or_default();
    }
}

/// A result type an extension defines (e.g. `CreateTaskResult`), which only a [`Granted`]
/// value puts into an outcome.
pub trait ExtensionResult {
    /// The extension.
    type Extension: Extension;
}

/// A request whose outcome has a variant for extension `E`'s result: the requests the
/// extension says it extends (for the tasks extension, `tools/call`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a request the `{E}` extension extends",
    label = "its outcome has no variant for this extension's result",
    note = "the extension's file under schema/extensions/ lists the requests it extends (`supports`)"
)]
pub trait Supports<E: Extension>: crate::Request {}

/// Proof that the capabilities a client sent with a request advertise extension `E`: the only
/// way to a [`Granted`] extension result. Obtained from those capabilities with
/// [`Advertised::check`].
///
/// The proof names the extension, not the request: take it from the capabilities of the
/// request being answered (in 2026-07-28, `request.params.meta.client_capabilities`), since
/// capabilities are declared per request and a server must not infer them from another one.
pub struct Advertised<E> {
    extension: PhantomData<fn() -> E>,
}

impl<E: Extension> Advertised<E> {
    /// The proof, when `capabilities` (those the client sent with the request being answered)
    /// advertise `E`.
    pub fn check<C: ExtensionCapabilities>(capabilities: &C) -> Option<Self> {
        capabilities.declares::<E>().then_some(Advertised {
            extension: PhantomData,
        })
    }

    /// `result`, allowed into the outcome of the request whose capabilities gave this proof.
    pub fn grant<T: ExtensionResult<Extension = E>>(&self, result: T) -> Granted<T> {
        Granted(result)
    }
}

impl<E> fmt::Debug for Advertised<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Advertised")
    }
}

/// An extension result the client may receive: built by [`Advertised::grant`] on the server,
/// or read on the client while the extension is accepted (see [`Reader`]). The variant of an
/// outcome for an extension's result holds this type, so that no answer can carry the result
/// without the proof. It reads and writes exactly as `T` and dereferences to it.
///
/// Reading one is the only other way to a value, and `T` refuses an extension's `resultType`
/// unless it is accepted on the thread: outside a [`Reader`], only an explicit
/// [`accepting`] gets one from JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Granted<T>(T);

impl<T> Granted<T> {
    /// The result.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Granted<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: crate::McpResultType> crate::McpResultType for Granted<T> {
    const RESULT_TYPE: &'static str = T::RESULT_TYPE;
}

impl<T: serde::Serialize> serde::Serialize for Granted<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// Reading checks the `resultType`: an extension's value reads only while it is accepted
/// (what [`Reader`] sets up from the client's capabilities).
impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Granted<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Granted)
    }
}

impl<T: crate::de::Fields> crate::de::Fields for Granted<T> {
    type Key = T::Key;
    type Partial = T::Partial;
    const KEEPS_EXTRA: bool = T::KEEPS_EXTRA;

    fn partial() -> Self::Partial {
        T::partial()
    }

    fn key(name: &str) -> Option<Self::Key> {
        T::key(name)
    }

    fn read<'de, D: serde::Deserializer<'de>>(
        partial: &mut Self::Partial,
        key: Self::Key,
        value: D,
    ) -> Result<(), D::Error> {
        T::read(partial, key, value)
    }

    fn other<Er: serde::de::Error>(
        partial: &mut Self::Partial,
        key: String,
        value: serde_json::Value,
    ) -> Result<(), Er> {
        T::other(partial, key, value)
    }

    fn finish<Er: serde::de::Error, R>(
        partial: Self::Partial,
        wrap: impl FnOnce(Self) -> R,
    ) -> Result<R, Er> {
        T::finish(partial, |t| wrap(Granted(t)))
    }

    fn entries<Er: serde::de::Error>(
        partial: Self::Partial,
        out: &mut crate::de::Buffer,
    ) -> Result<(), Er> {
        T::entries(partial, out)
    }
}

#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for Granted<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// How a client reads a response: with the `resultType` values of the extensions it advertised
/// on that request accepted, and no others.
///
/// ```
/// # use mcp_tests::tasks as mcp;
/// use mcp::prelude::*;
/// use mcp_runtime::extension::{ExtensionCapabilities, Reader};
///
/// let task = r#"{"jsonrpc": "2.0", "id": 1, "result": {"resultType": "task", "taskId": "t1",
///     "status": "working", "createdAt": "2026-01-01T00:00:00Z",
///     "lastUpdatedAt": "2026-01-01T00:00:00Z", "ttlMs": null}}"#;
///
/// // Sent without the extension: "task" is invalid.
/// let plain = ClientCapabilities::new();
/// let read = Reader::new(&plain).extension::<TasksExtension>();
/// assert!(read.from_str::<CallToolResultResponse>(task).is_err());
///
/// // Sent with it: the outcome's Task variant.
/// let mut caps = ClientCapabilities::new();
/// caps.declare::<TasksExtension>();
/// let read = Reader::new(&caps).extension::<TasksExtension>();
/// let response: CallToolResultResponse = read.from_str(task)?;
/// let CallToolOutcome::Task(created) = response.result else { panic!("a task") };
/// assert_eq!(created.task_id, "t1");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug)]
pub struct Reader<'c, C> {
    capabilities: &'c C,
    accepted: Vec<&'static str>,
}

impl<'c, C: ExtensionCapabilities> Reader<'c, C> {
    /// A reader for a response to a request sent with `capabilities`: no extension value is
    /// accepted until [`Reader::extension`] names the extensions the client knows.
    pub fn new(capabilities: &'c C) -> Self {
        Reader {
            capabilities,
            accepted: Vec::new(),
        }
    }

    /// Accepts extension `E`'s `resultType` values, if the capabilities advertise `E`.
    #[must_use]
    pub fn extension<E: Extension>(mut self) -> Self {
        if self.capabilities.declares::<E>() {
            self.accepted.extend_from_slice(E::RESULT_TYPES);
        }
        self
    }

    /// The accepted extension values.
    pub fn accepted(&self) -> &[&'static str] {
        &self.accepted
    }

    /// Runs `f` (a read) with the accepted values set on this thread.
    pub fn read<R>(&self, f: impl FnOnce() -> R) -> R {
        accepting(&self.accepted, f)
    }

    /// Reads `text` as `T`.
    pub fn from_str<T: DeserializeOwned>(&self, text: &str) -> serde_json::Result<T> {
        self.read(|| serde_json::from_str(text))
    }

    /// Reads `bytes` as `T`.
    pub fn from_slice<T: DeserializeOwned>(&self, bytes: &[u8]) -> serde_json::Result<T> {
        self.read(|| serde_json::from_slice(bytes))
    }

    /// Reads `value` as `T`.
    pub fn from_value<T: DeserializeOwned>(
        &self,
        value: serde_json::Value,
    ) -> serde_json::Result<T> {
        self.read(|| serde_json::from_value(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result_type::is_accepted;

    struct Ext;
    impl Extension for Ext {
        const ID: &'static str = "com.example/ext";
        const RESULT_TYPES: &'static [&'static str] = &["ext"];
    }

    #[derive(Default)]
    struct Caps(Option<BTreeMap<String, u8>>);
    impl ExtensionCapabilities for Caps {
        type Settings = u8;
        fn extensions(&self) -> Option<&BTreeMap<String, u8>> {
            self.0.as_ref()
        }
        fn extensions_mut(&mut self) -> &mut BTreeMap<String, u8> {
            self.0.get_or_insert_default()
        }
    }

    #[test]
    fn declares_reads_the_extension_key_only() {
        let mut caps = Caps::default();
        assert!(!caps.declares::<Ext>());
        caps.extensions_mut().insert("com.example/other".into(), 0);
        assert!(!caps.declares::<Ext>());
        caps.declare::<Ext>();
        assert!(caps.declares::<Ext>());
        // Declaring again keeps the settings.
        caps.extensions_mut().insert(Ext::ID.into(), 7);
        caps.declare::<Ext>();
        assert_eq!(caps.extensions().unwrap()[Ext::ID], 7);
    }

    #[test]
    fn reader_accepts_only_advertised_extensions() {
        let plain = Caps::default();
        let reader = Reader::new(&plain).extension::<Ext>();
        assert!(reader.accepted().is_empty());
        assert!(!reader.read(|| is_accepted("ext")));
        let mut caps = Caps::default();
        caps.declare::<Ext>();
        let reader = Reader::new(&caps).extension::<Ext>();
        assert_eq!(reader.accepted(), ["ext"]);
        assert!(reader.read(|| is_accepted("ext")));
        assert!(!is_accepted("ext"), "only while reading");
    }

    #[test]
    fn advertised_only_from_capabilities_that_declare_it() {
        assert!(Advertised::<Ext>::check(&Caps::default()).is_none());
        let mut caps = Caps::default();
        caps.declare::<Ext>();
        assert!(Advertised::<Ext>::check(&caps).is_some());
    }
}

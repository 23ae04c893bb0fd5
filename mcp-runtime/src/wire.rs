//! Reading and writing a type's JSON through code compiled once, in the crate that defines
//! the type.
//!
//! `serde_json::from_slice::<T>` is generic: the crate that calls it compiles `T`'s reader
//! (and everything `T` contains) in its own build. In a release build, where cargo shares no
//! generic code between crates, every crate that reads a message compiles the reader of the
//! message again, on each rebuild. [`Wire`] moves that work into the generated module's crate:
//! with `mcp_codegen::Builder::precompile(true)` each message type implements it with a
//! reader that is not generic, so a crate that calls [`Wire::from_json_slice`] compiles a
//! call, not a reader. Writing stays generic ([`Wire::to_json_vec`] is `serde_json::to_vec`,
//! compiled where it is called): a writer is a small part of the code a message costs, and
//! compiled in the caller it is exactly `serde_json`'s (BENCHMARKS.md, section 11e). The
//! bytes read and written are exactly those of `serde_json`.
//!
//! ```
//! use mcp_runtime::Wire;
//!
//! /// A message type as the generated code implements it.
//! #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
//! struct Ping {
//!     id: i64,
//! }
//!
//! impl Wire for Ping {
//!     fn from_json_slice(json: &[u8]) -> serde_json::Result<Self> {
//!         mcp_runtime::wire::read(json)
//!     }
//! }
//!
//! let ping = Ping::from_json_str(r#"{"id":7}"#).unwrap();
//! assert_eq!(ping, Ping { id: 7 });
//! assert_eq!(ping.to_json_string().unwrap(), r#"{"id":7}"#);
//! let error = Ping::from_json_str(r#"{"id":"7"}"#).unwrap_err();
//! assert!(error.to_string().contains("line 1 column 9"), "{error}");
//! ```

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A type whose JSON reader is compiled where the type is defined (see the [module
/// docs](self)). Only [`Wire::from_json_slice`] is compiled there; [`Wire::from_json_str`]
/// calls it, and the writers are `serde_json`'s, compiled where they are called.
pub trait Wire: Sized + Serialize {
    /// Reads one value of the type from JSON bytes, as `serde_json::from_slice` does.
    fn from_json_slice(json: &[u8]) -> serde_json::Result<Self>;

    /// Writes the value as compact JSON, as `serde_json::to_vec` does (it is that call).
    fn to_json_vec(&self) -> serde_json::Result<Vec<u8>> {
        serde_json::to_vec(self)
    }

    /// Reads one value of the type from JSON text.
    fn from_json_str(json: &str) -> serde_json::Result<Self> {
        Self::from_json_slice(json.as_bytes())
    }

    /// Writes the value as compact JSON text, as `serde_json::to_string` does (it is that
    /// call).
    fn to_json_string(&self) -> serde_json::Result<String> {
        serde_json::to_string(self)
    }
}

/// What the generated [`Wire::from_json_slice`] calls: `serde_json::from_slice`, instantiated
/// in the caller (the generated module's crate).
pub fn read<T: DeserializeOwned>(json: &[u8]) -> serde_json::Result<T> {
    serde_json::from_slice(json)
}

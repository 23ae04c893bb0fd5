//! Reading and writing a type's JSON through code compiled once, in the crate that defines
//! the type.
//!
//! `serde_json::from_slice::<T>` is generic: the crate that calls it compiles `T`'s reader
//! (and everything `T` contains) in its own build. In a release build, where cargo shares no
//! generic code between crates, every crate that reads a message compiles the reader of the
//! message again, on each rebuild. [`Wire`] moves that work into the generated module's crate:
//! with `mcp_codegen::Builder::precompile(true)` each message type implements it with
//! functions that are not generic, so a crate that calls [`Wire::from_json_slice`] compiles a
//! call, not a reader. The bytes read and written are exactly those of `serde_json`.
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
//!     fn to_json_vec(&self) -> serde_json::Result<Vec<u8>> {
//!         mcp_runtime::wire::write(self)
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

/// A type whose JSON reader and writer are compiled where the type is defined (see the
/// [module docs](self)). Only the two byte-level functions are compiled there; the text
/// functions call them.
pub trait Wire: Sized {
    /// Reads one value of the type from JSON bytes, as `serde_json::from_slice` does.
    fn from_json_slice(json: &[u8]) -> serde_json::Result<Self>;

    /// Writes the value as compact JSON, as `serde_json::to_vec` does.
    fn to_json_vec(&self) -> serde_json::Result<Vec<u8>>;

    /// Reads one value of the type from JSON text.
    fn from_json_str(json: &str) -> serde_json::Result<Self> {
        Self::from_json_slice(json.as_bytes())
    }

    /// Writes the value as compact JSON text.
    fn to_json_string(&self) -> serde_json::Result<String> {
        let bytes = self.to_json_vec()?;
        String::from_utf8(bytes).map_err(|e| serde::ser::Error::custom(e.utf8_error()))
    }
}

/// What the generated [`Wire::from_json_slice`] calls: `serde_json::from_slice`, instantiated
/// in the caller (the generated module's crate).
pub fn read<T: DeserializeOwned>(json: &[u8]) -> serde_json::Result<T> {
    serde_json::from_slice(json)
}

/// What the generated [`Wire::to_json_vec`] calls: `serde_json::to_vec`, instantiated in the
/// caller (the generated module's crate).
pub fn write<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    serde_json::to_vec(value)
}

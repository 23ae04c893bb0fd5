//! Loading: reads a schema file, parses it, finds its definitions and fingerprints it.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::Error;

/// A parsed schema file.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// Where it was read from.
    pub path: PathBuf,
    /// The document.
    pub root: Value,
    /// `$defs` (draft 2020-12) or `definitions` (draft-07).
    pub defs_key: &'static str,
    /// Hex SHA-256 of the file's bytes.
    pub sha256: String,
}

/// Reads and parses `path`.
pub fn load(path: &Path) -> Result<Loaded, Error> {
    let bytes = std::fs::read(path).map_err(|source| Error::Read {
        path: path.to_owned(),
        source,
    })?;
    parse(path, &bytes)
}

/// Parses schema bytes read from `path`.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Loaded, Error> {
    let root: Value = serde_json::from_slice(bytes).map_err(|e| Error::Json {
        path: path.to_owned(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let schema_err = |pointer: &str, message: &str| Error::Schema {
        path: path.to_owned(),
        pointer: pointer.to_owned(),
        message: message.to_owned(),
    };
    let Some(top) = root.as_object() else {
        return Err(schema_err("", "the schema must be a JSON object"));
    };
    let defs_key = match (top.get("$defs"), top.get("definitions")) {
        (Some(_), Some(_)) => {
            return Err(schema_err("", "the schema has both $defs and definitions"));
        }
        (Some(Value::Object(_)), None) => "$defs",
        (None, Some(Value::Object(_))) => "definitions",
        (Some(_), None) => return Err(schema_err("/$defs", "$defs must be an object")),
        (None, Some(_)) => return Err(schema_err("/definitions", "definitions must be an object")),
        (None, None) => {
            return Err(schema_err(
                "",
                "the schema has no $defs (or definitions) to generate types from",
            ));
        }
    };
    let sha256 = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(Loaded {
        path: path.to_owned(),
        root,
        defs_key,
        sha256,
    })
}

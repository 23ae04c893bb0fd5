//! Loading: reads a schema file, parses it, finds its definitions and fingerprints it.

use std::collections::HashSet;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::Error;

/// Where the schema comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A file on disk, read when generating (and named in `cargo:rerun-if-changed`).
    File(PathBuf),
    /// Bytes in memory, named for errors and the header.
    Memory { name: PathBuf, bytes: Vec<u8> },
}

impl Source {
    /// The name errors and the header give the schema.
    pub fn path(&self) -> &Path {
        match self {
            Source::File(path) | Source::Memory { name: path, .. } => path,
        }
    }

    /// Reads (a file) and parses the schema.
    pub fn load(&self) -> Result<Loaded, Error> {
        match self {
            Source::File(path) => load(path),
            Source::Memory { name, bytes } => parse(name, bytes),
        }
    }
}

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
    /// Hex SHA-256 of the document's canonical JSON text (see [`fingerprint`]): the same for a
    /// re-indented, minified or CRLF copy.
    pub fingerprint: String,
}

/// Reads and parses `path`.
pub fn load(path: &Path) -> Result<Loaded, Error> {
    parse(path, &read_bounded(path)?)
}

/// The largest schema or overlay file the generator reads: 16 MiB (the official schemas are
/// under 200 KB). A larger file, or an endless one such as `/dev/zero`, is refused after that
/// many bytes instead of being read until memory runs out.
pub const MAX_FILE_SIZE: u64 = 16 << 20;

/// The bytes of `path`, refused past [`MAX_FILE_SIZE`].
pub fn read_bounded(path: &Path) -> Result<Vec<u8>, Error> {
    let read_err = |source| Error::Read {
        path: path.to_owned(),
        source,
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(read_err)?
        .take(MAX_FILE_SIZE + 1)
        .read_to_end(&mut bytes)
        .map_err(read_err)?;
    if bytes.len() as u64 > MAX_FILE_SIZE {
        return Err(Error::TooLarge {
            path: path.to_owned(),
            limit: MAX_FILE_SIZE,
        });
    }
    Ok(bytes)
}

/// How deeply objects and arrays may nest in a schema file. Deeper files are refused with the
/// JSON pointer of the first node past the limit (serde_json's own limit, 128, would refuse
/// a 200-deep `anyOf` with a line and column only); the limit keeps the recursive stages that
/// follow within the generator's stack (see `Builder`).
pub const MAX_NESTING: usize = 1024;

/// Parses schema bytes read from `path`.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Loaded, Error> {
    let schema_err = |pointer: &str, message: &str| Error::Schema {
        path: path.to_owned(),
        pointer: pointer.to_owned(),
        message: message.to_owned(),
    };
    match shape(bytes, MAX_NESTING) {
        Some(Shape::TooDeep(pointer)) => {
            return Err(schema_err(
                &pointer,
                &format!("the schema nests objects and arrays more than {MAX_NESTING} deep here"),
            ));
        }
        Some(Shape::DuplicateKey(pointer)) => {
            return Err(schema_err(
                &pointer,
                "this key appears more than once in its object (a JSON parser would keep one \
                 of them silently)",
            ));
        }
        None => {}
    }
    let json_err = |e: serde_json::Error| Error::Json {
        path: path.to_owned(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    // `too_deep` bounds the nesting instead.
    de.disable_recursion_limit();
    let root = <Value as serde::Deserialize>::deserialize(&mut de).map_err(json_err)?;
    de.end().map_err(json_err)?;
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
    let sha256 = hex(&Sha256::digest(bytes));
    let fingerprint = fingerprint(&root);
    Ok(Loaded {
        path: path.to_owned(),
        root,
        defs_key,
        sha256,
        fingerprint,
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of `root`'s canonical JSON text: object keys sorted, no whitespace, strings
/// and numbers as serde_json writes them. What a schema says, not how its file is laid out:
/// indentation, key order and line endings do not change it.
pub fn fingerprint(root: &Value) -> String {
    let mut text = String::new();
    canonical(root, &mut text);
    hex(&Sha256::digest(text.as_bytes()))
}

/// Appends `value`'s canonical text (recursion bounded by [`MAX_NESTING`]).
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(members) => {
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(&members[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// What the structural scan of a schema file found wrong, at a JSON pointer.
#[derive(Debug, PartialEq, Eq)]
enum Shape {
    /// The first object or array nested deeper than allowed.
    TooDeep(String),
    /// The second occurrence of a key in one object (serde_json would keep the last silently).
    DuplicateKey(String),
}

/// The first object or array nested more than `max` deep in `bytes`, or the first key that
/// appears twice in one object, with its JSON pointer, found by a scan that keeps its own
/// stack. Text that is not JSON gives `None` (the parser reports it).
fn shape(bytes: &[u8], max: usize) -> Option<Shape> {
    enum Frame {
        /// The current key, whether the next string is a key, and the keys seen so far.
        Object(String, bool, HashSet<String>),
        /// The current index.
        Array(usize),
    }
    let pointer = |stack: &[Frame]| {
        stack
            .iter()
            .map(|f| match f {
                Frame::Object(k, ..) => crate::model::pointer::join("", k),
                Frame::Array(i) => format!("/{i}"),
            })
            .collect::<String>()
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let raw = bytes.get(start..=i)?;
                if let Some(Frame::Object(key, expect_key @ true, seen)) = stack.last_mut() {
                    *key = serde_json::from_slice(raw).ok()?;
                    *expect_key = false;
                    if !seen.insert(key.clone()) {
                        return Some(Shape::DuplicateKey(pointer(&stack)));
                    }
                }
            }
            b'{' | b'[' => {
                if stack.len() >= max {
                    return Some(Shape::TooDeep(pointer(&stack)));
                }
                stack.push(if bytes[i] == b'{' {
                    Frame::Object(String::new(), true, HashSet::new())
                } else {
                    Frame::Array(0)
                });
            }
            b'}' | b']' => {
                stack.pop()?;
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object(_, expect_key, _)) => *expect_key = true,
                None => return None,
            },
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn too_deep(bytes: &[u8], max: usize) -> Option<String> {
        match shape(bytes, max)? {
            Shape::TooDeep(pointer) => Some(pointer),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn too_deep_names_the_pointer() {
        let text = br#"{"a": [1, {"b~/": [[{"c": 2}]]}]}"#;
        assert_eq!(too_deep(text, 10), None);
        assert_eq!(too_deep(text, 4).as_deref(), Some("/a/1/b~0~1/0"));
        assert_eq!(too_deep(text, 1).as_deref(), Some("/a"));
        assert_eq!(
            too_deep(br#"{"x\"y": {"z": {}}}"#, 2).as_deref(),
            Some("/x\"y/z")
        );
        assert_eq!(too_deep(b"{", 5), None);
        assert_eq!(too_deep(b"]]", 5), None);
    }

    #[test]
    fn duplicate_keys_name_the_pointer() {
        let dup = |text: &str| match shape(text.as_bytes(), 100) {
            Some(Shape::DuplicateKey(pointer)) => Some(pointer),
            None => None,
            other => panic!("{other:?}"),
        };
        assert_eq!(dup(r#"{"a": 1, "a": 2}"#).as_deref(), Some("/a"));
        assert_eq!(
            dup(r#"{"$defs": {"A": {"type": "string", "x/y": 1, "type": "object"}}}"#).as_deref(),
            Some("/$defs/A/type")
        );
        assert_eq!(
            dup(r#"{"l": [{"k": 1}, {"k": 2, "m": {"~": 1, "~": 2}}]}"#).as_deref(),
            Some("/l/1/m/~0")
        );
        // The same key in sibling or nested objects, and as a string value, is fine.
        assert_eq!(
            dup(r#"{"a": {"a": {"a": "a"}}, "b": {"a": 1}, "c": ["a", "a"]}"#),
            None
        );
        // Escapes are decoded before comparing: "\u0061" is "a".
        assert_eq!(dup(r#"{"a": 1, "\u0061": 2}"#).as_deref(), Some("/a"));
    }

    #[test]
    fn nesting_past_serde_json_default_limit_loads() {
        let mut text = String::from(r#"{"$defs": {"A": "#);
        for _ in 0..300 {
            text.push_str(r#"{"items": "#);
        }
        text.push_str("{}");
        text.push_str(&"}".repeat(302));
        let loaded = parse(Path::new("deep.json"), text.as_bytes()).unwrap();
        assert_eq!(loaded.defs_key, "$defs");
        let deeper = format!(
            "{}{}",
            "[".repeat(MAX_NESTING + 1),
            "]".repeat(MAX_NESTING + 1)
        );
        let err = parse(Path::new("deeper.json"), deeper.as_bytes()).unwrap_err();
        assert_eq!(err.pointer(), Some("/0".repeat(MAX_NESTING).as_str()));
    }
}

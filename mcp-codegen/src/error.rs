//! The one error type of the generator: every failure names the file and, where it comes from
//! the schema's content, the JSON pointer of the offending node.

use std::path::{Path, PathBuf};

/// What went wrong while generating, and where.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The schema or overlay file could not be read.
    #[error("{}: cannot read file: {source}", path.display())]
    Read {
        /// The file that could not be read.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid JSON.
    #[error("{}: invalid JSON at line {line}, column {column}: {message}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line of the syntax error.
        line: usize,
        /// 1-based column of the syntax error.
        column: usize,
        /// What serde_json said.
        message: String,
    },
    /// The schema's content is wrong or unsupported at `pointer`.
    #[error("{}: #{pointer}: {message}", path.display())]
    Schema {
        /// The file.
        path: PathBuf,
        /// JSON pointer of the offending node, e.g. `/$defs/Foo/properties/bar`.
        pointer: String,
        /// What is wrong there.
        message: String,
    },
    /// The overlay is wrong at `key`, or names what the schema lacks there.
    #[error("{}: {}{message}", overlay_name(file.as_deref()), crate::overlay::key_prefix(key))]
    Overlay {
        /// The overlay file; `None` for a built-in overlay.
        file: Option<PathBuf>,
        /// JSON pointer into the overlay document of the offending key, e.g.
        /// `/at_least_one_of/Fooo`.
        key: String,
        /// What is wrong there.
        message: String,
    },
    /// The output file could not be written.
    #[error("{}: cannot write output: {source}", path.display())]
    Write {
        /// The output file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The generated tokens did not parse as a Rust file (a bug in the generator).
    #[error("internal error: generated code does not parse: {0}")]
    Internal(String),
    /// `Builder::revision` (or `--revision`) names a revision without a built-in overlay.
    #[error("no built-in overlay for revision {revision:?}: the known revisions are {}", known.join(", "))]
    UnknownRevision {
        /// The revision asked for.
        revision: String,
        /// The revisions that have one.
        known: Vec<&'static str>,
    },
    /// `Builder::extension` (or `--extension`) names an extension the generator does not have.
    #[error("unknown extension {name:?}: the known extensions are {}", known.join(", "))]
    UnknownExtension {
        /// The identifier asked for.
        name: String,
        /// The identifiers of the built-in extensions.
        known: Vec<&'static str>,
    },
    /// An extension cannot be enabled on this schema.
    #[error("extension {id}: {message}")]
    Extension {
        /// The extension's identifier.
        id: String,
        /// Why.
        message: String,
    },
    /// Several schemas (one per revision) that cannot be generated side by side.
    #[error("several schemas: {0}")]
    Eras(String),
    /// The builder was used without a schema.
    #[error("no schema given: call Builder::schema(path) before generate")]
    NoSchema,
}

impl Error {
    /// The JSON pointer the error refers to, when it refers to a node of the schema.
    pub fn pointer(&self) -> Option<&str> {
        match self {
            Error::Schema { pointer, .. } => Some(pointer),
            _ => None,
        }
    }
}

/// A schema error not yet tied to a file: the lowering stages raise these, the builder adds
/// the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// JSON pointer of the offending node.
    pub pointer: String,
    /// What is wrong there.
    pub message: String,
}

impl SchemaError {
    /// An error at `pointer`.
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        SchemaError {
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// Ties the error to the file it was found in.
    pub fn in_file(self, path: impl Into<PathBuf>) -> Error {
        Error::Schema {
            path: path.into(),
            pointer: self.pointer,
            message: self.message,
        }
    }
}

/// The result of a stage that reads the schema.
pub type SchemaResult<T> = std::result::Result<T, SchemaError>;

/// Escapes one reference token of a JSON pointer (RFC 6901).
pub(crate) fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// How an overlay is named in messages: `overlay <file>`, or `built-in overlay`.
fn overlay_name(file: Option<&Path>) -> String {
    match file {
        Some(f) => format!("overlay {}", f.display()),
        None => "built-in overlay".to_owned(),
    }
}

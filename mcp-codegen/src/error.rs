//! The one error type of the generator: every failure names the file and, where it comes from
//! the schema's content, the JSON pointer of the offending node.

use std::path::{Path, PathBuf};

use crate::model::pointer;

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
    #[error("{}: {}{message}", overlay_name(file.as_deref()), key_prefix(key))]
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
    /// The schema or overlay file is larger than the generator reads (an endless file such as
    /// `/dev/zero` included).
    #[error("{}: larger than {} MiB, the most a schema or overlay file may be", path.display(), limit >> 20)]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit, in bytes.
        limit: u64,
    },
    /// The output file is one of the input files (the schema or the overlay): writing it would
    /// destroy the input.
    #[error("{}: the output would overwrite the {input} it is generated from", path.display())]
    OutputIsInput {
        /// The output path as given.
        path: PathBuf,
        /// Which input it is: `schema` or `overlay`.
        input: &'static str,
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
        /// Why it cannot be enabled.
        message: String,
    },
    /// The era facts (`schema/eras.json`) are wrong at `key`, or disagree with a schema.
    #[error("schema/eras.json: #{key}: {message}")]
    EraFacts {
        /// JSON pointer into the facts file of the offending key, e.g. `/methods/3/modern`.
        key: String,
        /// What is wrong there.
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

/// How an overlay is named in messages: `overlay <file>`, or `built-in overlay`.
fn overlay_name(file: Option<&Path>) -> String {
    match file {
        Some(f) => format!("overlay {}", f.display()),
        None => "built-in overlay".to_owned(),
    }
}

/// A mistake in an overlay, at `key`, not yet tied to the overlay's file (the builder adds
/// it with [`OverlayError::in_file`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", key_prefix(key))]
pub struct OverlayError {
    /// JSON pointer into the overlay document of the offending key, e.g.
    /// `/at_least_one_of/Fooo`; empty for the document itself.
    pub key: String,
    /// What is wrong there.
    pub message: String,
    /// 1-based line and column in the text, when the error was found while parsing it.
    pub position: Option<(usize, usize)>,
}

impl OverlayError {
    /// An error at `key`.
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> Self {
        OverlayError {
            key: key.into(),
            message: message.into(),
            position: None,
        }
    }

    /// Ties the error to the overlay's file (`None`: the built-in overlay). Errors found while
    /// parsing a file are [`Error::Json`], with the line and column and the key in the message;
    /// the others are [`Error::Overlay`].
    pub fn in_file(self, file: Option<PathBuf>) -> Error {
        let described = self.to_string();
        match (file, self.position) {
            (Some(path), Some((line, column))) => Error::Json {
                path,
                line,
                column,
                message: described,
            },
            (file, _) => Error::Overlay {
                file,
                key: self.key,
                message: match self.position {
                    Some((line, column)) => {
                        format!("{} (line {line}, column {column})", self.message)
                    }
                    None => self.message,
                },
            },
        }
    }

    pub(crate) fn from_serde(e: serde_path_to_error::Error<serde_json::Error>) -> Self {
        let mut key = String::new();
        for segment in e.path().iter() {
            match segment {
                serde_path_to_error::Segment::Seq { index } => {
                    key = pointer::join(&key, &index.to_string());
                }
                serde_path_to_error::Segment::Map { key: k } => key = pointer::join(&key, k),
                serde_path_to_error::Segment::Enum { variant } => {
                    key = pointer::join(&key, variant);
                }
                // Only for values serde buffers (untagged enums, flatten): none here.
                serde_path_to_error::Segment::Unknown => key += "/?",
            }
        }
        let inner = e.into_inner();
        let (line, column) = (inner.line(), inner.column());
        // serde_json's message ends with the position, which the error carries on its own.
        let mut message = inner.to_string();
        let suffix = format!(" at line {line} column {column}");
        if let Some(stripped) = message.strip_suffix(&suffix) {
            message = stripped.to_owned();
        }
        OverlayError {
            key,
            message,
            position: Some((line, column)),
        }
    }
}

/// `"{key}: "`, or nothing for the document itself.
pub(crate) fn key_prefix(key: &str) -> String {
    if key.is_empty() {
        String::new()
    } else {
        format!("{key}: ")
    }
}

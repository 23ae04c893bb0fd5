//! Where lowering is in the schema: the JSON pointer of the schema at hand and how deep the
//! recursion has gone, carried together from call to call.

use super::MAX_DEPTH;
use crate::error::{SchemaError, SchemaResult};
use crate::model::pointer;

/// A position in the schema document: a JSON pointer and the recursion depth that reached
/// it. Lowering refuses to go deeper than [`MAX_DEPTH`] (a hostile schema's `$ref` chains).
#[derive(Debug, Clone)]
pub(super) struct Cursor {
    pointer: String,
    depth: usize,
}

impl Cursor {
    /// At the definition `name` under the definitions key `defs_key`, depth 0.
    pub fn def(defs_key: &str, name: &str) -> Cursor {
        Cursor {
            pointer: pointer::def(defs_key, name),
            depth: 0,
        }
    }

    /// The JSON pointer of the schema here.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// At the keyword, member or index `token` of the schema here, at the same depth.
    pub fn at(&self, token: &str) -> Cursor {
        Cursor {
            pointer: pointer::join(&self.pointer, token),
            depth: self.depth,
        }
    }

    /// At `token` of the schema here (see [`Cursor::at`]), one level deeper.
    pub fn child(&self, token: &str) -> Cursor {
        self.at(token).deeper()
    }

    /// At the same schema, one level deeper.
    pub fn deeper(&self) -> Cursor {
        Cursor {
            pointer: self.pointer.clone(),
            depth: self.depth + 1,
        }
    }

    /// At `pointer` elsewhere in the document (a flattened union member, a `$ref`'s target),
    /// at the same depth.
    pub fn relocated(&self, pointer: String) -> Cursor {
        Cursor {
            pointer,
            depth: self.depth,
        }
    }

    /// An error about the schema here.
    pub fn error(&self, message: impl Into<String>) -> SchemaError {
        SchemaError::new(self.pointer.clone(), message)
    }

    /// `Err` with `message` here when the recursion has gone past [`MAX_DEPTH`].
    pub fn check_depth(&self, message: &str) -> SchemaResult<()> {
        if self.depth > MAX_DEPTH {
            return Err(self.error(message));
        }
        Ok(())
    }
}

//! Patches: RFC 6902-style corrections of single schema nodes, written in the overlay of a
//! revision and in the file of an extension, and applied to the loaded schema before anything
//! reads it. A failing patch names its owner (the overlay, or the extension by identifier and
//! file) and its index in that file.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::error::{SchemaError, SchemaResult};
use crate::model::pointer::{join, unescape_token};

/// The operation of a [`Patch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PatchOp {
    /// `"replace"`: the node must exist; it becomes `value`.
    Replace,
    /// `"add"`: the member is set to `value`, whether or not it existed.
    Add,
    /// `"remove"`: the node must exist; it is removed. No `value`.
    Remove,
}

impl PatchOp {
    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            PatchOp::Replace => "replace",
            PatchOp::Add => "add",
            PatchOp::Remove => "remove",
        }
    }
}

/// An RFC 6902-style patch of one schema node. As read from a file, `value` is present
/// exactly when `op` is `replace` or `add`.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "RawPatch")]
pub struct Patch {
    /// What the patch does to the node at `path`.
    pub op: PatchOp,
    /// JSON pointer of the node (at least one reference token).
    pub path: String,
    /// The new node (`replace`, `add`; a `null` value is a value).
    pub value: Option<Value>,
    /// Why the schema is wrong.
    pub why: String,
    /// The specification passage (page and section) that says so.
    pub source: String,
}

/// A patch as written, before `value` is checked against `op`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPatch {
    op: PatchOp,
    path: String,
    #[serde(default, deserialize_with = "present")]
    value: Option<Value>,
    why: String,
    source: String,
}

/// `Some` for any value that is there, `null` included (`Option<Value>` would read `null` as
/// absent).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

impl TryFrom<RawPatch> for Patch {
    type Error = String;

    fn try_from(raw: RawPatch) -> Result<Self, String> {
        crate::model::pointer::check(&raw.path).map_err(|e| format!("`path`: {e}"))?;
        if raw.path.is_empty() {
            return Err("`path`: a patch cannot replace the whole schema".into());
        }
        match (raw.op, &raw.value) {
            (PatchOp::Replace, None) => return Err("a `replace` patch needs a `value`".into()),
            (PatchOp::Add, None) => return Err("an `add` patch needs a `value`".into()),
            (PatchOp::Remove, Some(_)) => {
                return Err("a `remove` patch takes no `value`".into());
            }
            _ => {}
        }
        Ok(Patch {
            op: raw.op,
            path: raw.path,
            value: raw.value,
            why: raw.why,
            source: raw.source,
        })
    }
}

/// Applies `patches`, in order, to `root`. `owner` names their file in errors (`overlay`,
/// `extension io.modelcontextprotocol/tasks (schema/extensions/...)`).
pub fn apply(patches: &[Patch], root: &mut Value, owner: &str) -> SchemaResult<()> {
    for (i, patch) in patches.iter().enumerate() {
        apply_one(root, patch, i, owner)?;
    }
    Ok(())
}

/// Applies one patch, `/patches/{index}` of `owner`'s file. The errors are the schema's: the
/// node the patch is for is not there.
fn apply_one(root: &mut Value, patch: &Patch, index: usize, owner: &str) -> SchemaResult<()> {
    let at = format!("{owner} patch /patches/{index}");
    let (parent_ptr, last) = match patch.path.rfind('/') {
        Some(i) => (&patch.path[..i], &patch.path[i + 1..]),
        None => {
            return Err(SchemaError::new(
                &patch.path,
                format!("{at}: the path is not a JSON pointer"),
            ));
        }
    };
    let key = unescape_token(last);
    let parent = root
        .pointer_mut(parent_ptr)
        .and_then(Value::as_object_mut)
        .ok_or_else(|| {
            SchemaError::new(
                parent_ptr,
                format!("{at} for {}: no such object", patch.path),
            )
        })?;
    match patch.op {
        PatchOp::Replace | PatchOp::Add => {
            if patch.op == PatchOp::Replace && !parent.contains_key(&key) {
                return Err(SchemaError::new(
                    join(parent_ptr, &key),
                    format!("{at} replaces a node that does not exist"),
                ));
            }
            // A parsed patch always has its value; a `Patch` built in code may not.
            let value = patch
                .value
                .clone()
                .ok_or_else(|| SchemaError::new(&patch.path, format!("{at} has no value")))?;
            parent.insert(key, value);
        }
        PatchOp::Remove => {
            parent.remove(&key).ok_or_else(|| {
                SchemaError::new(
                    &patch.path,
                    format!("{at} removes a node that does not exist"),
                )
            })?;
        }
    }
    Ok(())
}

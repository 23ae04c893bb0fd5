//! The project's overlay: per protocol revision, the rules and patches schema.json cannot
//! express (see `schema/README.md`). One JSON file per revision, embedded in the generator.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use crate::error::{SchemaError, SchemaResult, escape_token};

/// The overlays that ship with the generator, by revision.
const BUILTIN: &[(&str, &str)] = &[
    ("2024-11-05", include_str!("../../schema/2024-11-05.json")),
    ("2025-03-26", include_str!("../../schema/2025-03-26.json")),
    ("2025-06-18", include_str!("../../schema/2025-06-18.json")),
    ("2025-11-25", include_str!("../../schema/2025-11-25.json")),
    ("2026-07-28", include_str!("../../schema/2026-07-28.json")),
];

/// One revision's overlay.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    /// The protocol revision, e.g. `2026-07-28`.
    pub revision: String,
    /// SHA-256 of the official schema.json this overlay was written for (revision detection).
    #[serde(default)]
    pub schema_sha256: Option<String>,
    /// Corrections applied to the schema before lowering.
    #[serde(default)]
    pub patches: Vec<Patch>,
    /// `$def`s replaced by a hand-written runtime type.
    #[serde(default)]
    pub rust_types: BTreeMap<String, RustType>,
    /// Which results are which.
    #[serde(default)]
    pub results: Option<Results>,
    /// `$def` -> JSON keys of which at least one must be present.
    #[serde(default)]
    pub at_least_one_of: BTreeMap<String, AtLeastOneOf>,
    /// Which `$def`s take part in multi round-trip requests.
    #[serde(default)]
    pub input_requests: Option<InputRequestNames>,
    /// Input request kinds and the client capabilities each needs.
    #[serde(default)]
    pub input_capabilities: Option<InputCapabilities>,
}

/// The `$def`s of multi round-trip requests.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputRequestNames {
    /// The input-required result (`InputRequiredResult`).
    pub result: String,
    /// The map of input requests (`InputRequests`).
    pub map: String,
    /// One input request (`InputRequest`).
    pub request: String,
    /// The map of responses (`InputResponses`).
    pub responses: String,
    /// One response (`InputResponse`).
    pub response: String,
    /// The client's capabilities (`ClientCapabilities`).
    pub capabilities: String,
    /// The error response for a missing capability.
    pub missing_capability_error: String,
    /// Why.
    pub why: String,
    /// Where the spec says so.
    pub source: String,
}

/// The capability rules of input requests.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputCapabilities {
    /// The rules.
    pub rules: Vec<CapabilityRule>,
    /// Why.
    pub why: String,
    /// Where the spec says so.
    pub source: String,
}

/// One capability rule (see `mcp_runtime::capability::Rule`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapabilityRule {
    /// The input request's method.
    pub method: String,
    /// When it applies (always, when absent).
    #[serde(default)]
    pub when: Option<CapabilityWhen>,
    /// The capability needed, dotted.
    pub needs: String,
    /// A capability that, declared as an empty object, also satisfies the rule.
    #[serde(default)]
    pub or_empty: Option<String>,
    /// `must` (default) or `should`.
    #[serde(default)]
    pub level: Option<String>,
    /// Why.
    pub why: String,
}

/// The condition of a capability rule.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapabilityWhen {
    /// JSON pointer into the request, with `one_of`.
    #[serde(default)]
    pub pointer: Option<String>,
    /// Values (null: missing) of the member at `pointer`.
    #[serde(default)]
    pub one_of: Option<Vec<Option<String>>>,
    /// Pointers of which any present makes the rule apply.
    #[serde(default)]
    pub any_present: Option<Vec<String>>,
}

/// An RFC 6902-style patch of one schema node.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    /// `replace`, `add` or `remove`.
    pub op: String,
    /// JSON pointer of the node.
    pub path: String,
    /// The new node (`replace`, `add`).
    #[serde(default)]
    pub value: Option<Value>,
    /// Why the schema is wrong.
    pub why: String,
    /// Where the spec says so.
    pub source: String,
}

/// A `$def` implemented by the runtime.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RustType {
    /// Full path of the Rust type.
    pub path: String,
    /// Why.
    pub why: String,
    /// Where the spec says so.
    pub source: String,
}

/// The result rules of a revision with `resultType`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Results {
    /// The `$def` that answers `input_required`.
    pub input_required: String,
    /// Result `$def`s whose fixed `resultType` is not `"complete"`.
    #[serde(default)]
    pub fixed: BTreeMap<String, String>,
    /// Why.
    pub why: String,
    /// Where the spec says so.
    pub source: String,
}

/// A rule that at least one of some members must be present.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AtLeastOneOf {
    /// The JSON keys.
    pub keys: Vec<String>,
    /// Why.
    pub why: String,
    /// Where the spec says so.
    pub source: String,
}

impl Overlay {
    /// The built-in overlay for `revision`, if there is one.
    pub fn builtin(revision: &str) -> Option<Overlay> {
        BUILTIN
            .iter()
            .find(|(r, _)| *r == revision)
            .map(|(_, text)| serde_json::from_str(text).expect("built-in overlays are valid"))
    }

    /// The built-in overlay written for the schema with this SHA-256.
    pub fn for_sha256(sha256: &str) -> Option<Overlay> {
        BUILTIN
            .iter()
            .map(|(_, text)| {
                serde_json::from_str::<Overlay>(text).expect("built-in overlays are valid")
            })
            .find(|o| o.schema_sha256.as_deref() == Some(sha256))
    }

    /// Parses an overlay file's text.
    pub fn parse(text: &str) -> std::result::Result<Overlay, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Applies the patches to `root`.
    pub fn apply(&self, root: &mut Value) -> SchemaResult<()> {
        for patch in &self.patches {
            apply_one(root, patch)?;
        }
        Ok(())
    }
}

fn apply_one(root: &mut Value, patch: &Patch) -> SchemaResult<()> {
    let (parent_ptr, last) = match patch.path.rfind('/') {
        Some(i) => (&patch.path[..i], &patch.path[i + 1..]),
        None => {
            return Err(SchemaError::new(
                &patch.path,
                "overlay patch path is not a JSON pointer",
            ));
        }
    };
    let key = last.replace("~1", "/").replace("~0", "~");
    let parent = root
        .pointer_mut(parent_ptr)
        .and_then(Value::as_object_mut)
        .ok_or_else(|| {
            SchemaError::new(
                parent_ptr,
                format!("overlay patch for {}: no such object", patch.path),
            )
        })?;
    match patch.op.as_str() {
        "replace" | "add" => {
            if patch.op == "replace" && !parent.contains_key(&key) {
                return Err(SchemaError::new(
                    format!("{parent_ptr}/{}", escape_token(&key)),
                    "overlay patch replaces a node that does not exist",
                ));
            }
            let value = patch
                .value
                .clone()
                .ok_or_else(|| SchemaError::new(&patch.path, "overlay patch without a value"))?;
            parent.insert(key, value);
        }
        "remove" => {
            parent.remove(&key).ok_or_else(|| {
                SchemaError::new(
                    &patch.path,
                    "overlay patch removes a node that does not exist",
                )
            })?;
        }
        other => {
            return Err(SchemaError::new(
                &patch.path,
                format!("unknown overlay op {other:?}"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_overlays_parse() {
        for (rev, text) in BUILTIN {
            let o: Overlay = serde_json::from_str(text).unwrap();
            assert_eq!(&o.revision, rev);
        }
    }

    #[test]
    fn json_value_patch_makes_it_any() {
        let mut root = serde_json::json!({"$defs": {
            "JSONValue": {"anyOf": [{"type": "string"}]},
            "ReadResourceResult": {"required": ["cacheScope", "contents", "resultType", "ttlMs"]},
            "LoggingLevel": {"enum": ["alert", "debug"]},
            "ElicitResult": {"properties": {"content": {"additionalProperties": {"anyOf": [
                {"type": "array"}, {"type": ["string", "integer", "boolean"]}
            ]}}}}
        }});
        Overlay::builtin("2026-07-28")
            .unwrap()
            .apply(&mut root)
            .unwrap();
        assert_eq!(root["$defs"]["JSONValue"], serde_json::json!({}));
        assert_eq!(
            root["$defs"]["ReadResourceResult"]["required"],
            serde_json::json!(["contents", "resultType"])
        );
        assert_eq!(
            root["$defs"]["ElicitResult"]["properties"]["content"]["additionalProperties"]["anyOf"]
                [1]["type"],
            serde_json::json!(["string", "integer", "number", "boolean"])
        );
    }

    /// Every built-in overlay names the SHA-256 of its official schema and applies to it; the
    /// patched nodes hold the patches' values.
    #[test]
    fn builtin_overlays_apply_to_their_official_schemas() {
        let dir = std::path::PathBuf::from(env!("MCP_SCHEMA_DIR"));
        for (rev, _) in BUILTIN {
            let path = dir.join(rev).join("schema.json");
            let loaded = crate::load::load(&path).unwrap();
            let overlay = Overlay::builtin(rev).unwrap();
            assert_eq!(
                overlay.schema_sha256.as_deref(),
                Some(loaded.sha256.as_str()),
                "{rev}: schema_sha256"
            );
            assert_eq!(
                Overlay::for_sha256(&loaded.sha256).map(|o| o.revision),
                Some(rev.to_string())
            );
            let mut root = loaded.root;
            overlay.apply(&mut root).unwrap();
            for patch in &overlay.patches {
                assert_eq!(
                    root.pointer(&patch.path),
                    patch.value.as_ref(),
                    "{rev}: {}",
                    patch.path
                );
            }
        }
    }

    /// The patches of the earlier revisions, by revision: LoggingLevel in severity order
    /// everywhere, the JSON-RPC error's id optional where it was required, numbers in
    /// elicitation answers where NumberSchema allows them.
    #[test]
    fn earlier_revisions_patches() {
        let paths = |rev: &str| -> Vec<String> {
            Overlay::builtin(rev)
                .unwrap()
                .patches
                .into_iter()
                .map(|p| p.path)
                .collect()
        };
        assert_eq!(
            paths("2024-11-05"),
            [
                "/definitions/LoggingLevel/enum",
                "/definitions/JSONRPCError/required"
            ]
        );
        assert_eq!(paths("2025-03-26"), paths("2024-11-05"));
        assert_eq!(
            paths("2025-06-18"),
            [
                "/definitions/LoggingLevel/enum",
                "/definitions/JSONRPCError/required",
                "/definitions/ElicitResult/properties/content/additionalProperties/type"
            ]
        );
        assert_eq!(
            paths("2025-11-25"),
            [
                "/$defs/LoggingLevel/enum",
                "/$defs/ElicitResult/properties/content/additionalProperties/anyOf/1/type"
            ]
        );
        for rev in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
            let o = Overlay::builtin(rev).unwrap();
            assert!(o.results.is_none(), "{rev} has no resultType");
            assert!(
                o.rust_types.is_empty() && o.input_requests.is_none(),
                "{rev}"
            );
            let levels = &o.patches[0].value;
            assert_eq!(
                levels.as_ref().unwrap()[0],
                "debug",
                "{rev}: least severe first"
            );
        }
    }

    #[test]
    fn patch_of_missing_node_is_an_error() {
        let mut root = serde_json::json!({"$defs": {}});
        let err = Overlay::builtin("2026-07-28")
            .unwrap()
            .apply(&mut root)
            .unwrap_err();
        assert_eq!(err.pointer, "/$defs/JSONValue");
    }
}

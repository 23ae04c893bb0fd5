//! Protocol extensions (SEP-2133) that the generator can add to a revision: each is a project
//! file under `schema/extensions/` with the extension's `$defs` (written from its
//! specification) and the facts schema.json cannot say (the `resultType` values it adds, the
//! responses whose result it extends, patches to core definitions). Enabled with
//! `Builder::extension`, it enters the same pipeline as the core schema: its definitions are
//! merged into the schema's, its patches applied, and its result values join the overlay's.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::error::{OverlayError, SchemaError, SchemaResult};
use crate::input::mcp_name::McpName;
use crate::input::patch::{self, Patch};
use crate::model::pointer;

/// The extensions that ship with the generator, by identifier (files reached through the
/// `mcp-codegen/schema` symlink, as the overlays are).
const BUILTIN: &[(&str, &str)] = &[
    (
        "io.modelcontextprotocol/tasks",
        include_str!("../../schema/extensions/io.modelcontextprotocol-tasks.json"),
    ),
    (
        "io.modelcontextprotocol/skills",
        include_str!("../../schema/extensions/io.modelcontextprotocol-skills.json"),
    ),
];

/// Where the built-in extension files live in the repository, for messages.
const FOLDER: &str = "schema/extensions";

/// One extension's file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtensionDef {
    /// The identifier, its key in `capabilities.extensions`.
    pub id: String,
    /// The protocol revisions it is defined for.
    pub revisions: Vec<String>,
    /// The reason for this entry, in the project's own words.
    pub why: String,
    /// Where its specification is.
    pub source: String,
    /// Its result `$def`s and the `resultType` value of each.
    pub result_types: BTreeMap<String, String>,
    /// The `*ResultResponse` `$def`s whose `result` may be one of its results.
    pub extends: Vec<String>,
    /// Why those.
    pub extends_why: String,
    /// The capabilities `$def` in which a peer declares the extension, when it is not the
    /// client's (the skills extension is declared by the server, in `ServerCapabilities`).
    #[serde(default)]
    pub declared_in: Option<String>,
    /// Corrections to the core definitions the extension needs.
    #[serde(default)]
    pub patches: Vec<Patch>,
    /// Its request `$def`s whose `Mcp-Name` header mirrors a member of their `params`.
    #[serde(default)]
    pub mcp_name: BTreeMap<String, McpName>,
    /// Its definitions, merged into the schema's; `$ref`s name core and extension
    /// definitions alike (`#/$defs/Result`).
    #[serde(rename = "$defs")]
    pub defs: Map<String, Value>,
}

/// What the protocol model needs of an enabled extension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enabled {
    /// The identifier, its key in `capabilities.extensions`.
    pub id: String,
    /// Its result `$def`s and their `resultType` values.
    pub result_types: BTreeMap<String, String>,
    /// The `*ResultResponse` `$def`s it extends.
    pub extends: Vec<String>,
    /// What it is for (the file's `why`).
    pub why: String,
    /// Its own `$def`s, in name order.
    pub defs: Vec<String>,
    /// The capabilities `$def` that declares it, when it is not the client's.
    pub declared_in: Option<String>,
    /// Its requests whose `Mcp-Name` header mirrors a member of their `params`: `$def` ->
    /// member.
    pub mcp_name: BTreeMap<String, String>,
}

impl ExtensionDef {
    /// The built-in extension `id`, if there is one. Each built-in text is parsed by the unit
    /// test `builtin_extensions_parse`, so the `expect` cannot fire in a tested build.
    pub fn builtin(id: &str) -> Option<ExtensionDef> {
        BUILTIN
            .iter()
            .find(|(known, _)| *known == id)
            .map(|(_, text)| ExtensionDef::parse(text).expect("built-in extensions are valid"))
    }

    /// The identifiers of the built-in extensions.
    pub fn known() -> Vec<&'static str> {
        BUILTIN.iter().map(|(id, _)| *id).collect()
    }

    /// Parses an extension file; the error names the key.
    pub fn parse(text: &str) -> Result<ExtensionDef, OverlayError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let def: ExtensionDef =
            serde_path_to_error::deserialize(&mut de).map_err(OverlayError::from_serde)?;
        for name in def.result_types.keys() {
            if !def.defs.contains_key(name) {
                return Err(OverlayError::new(
                    pointer::join("/result_types", name),
                    format!("the extension defines no $def named {name:?}"),
                ));
            }
        }
        Ok(def)
    }

    /// What the protocol model needs.
    pub fn enabled(&self) -> Enabled {
        Enabled {
            id: self.id.clone(),
            result_types: self.result_types.clone(),
            extends: self.extends.clone(),
            why: self.why.clone(),
            defs: self.defs.keys().cloned().collect(),
            declared_in: self.declared_in.clone(),
            mcp_name: self
                .mcp_name
                .iter()
                .map(|(def, named)| (def.clone(), named.member.clone()))
                .collect(),
        }
    }

    /// Adds the extension to a (patched) schema: its definitions (a name the schema already
    /// has is an error), its patches, and each of its results to the `result` union of the
    /// responses it extends.
    pub fn apply(&self, root: &mut Value, defs_key: &str) -> SchemaResult<()> {
        let at = |name: &str| pointer::def(defs_key, name);
        let Some(defs) = root.get_mut(defs_key).and_then(Value::as_object_mut) else {
            return Err(SchemaError::new(
                pointer::defs(defs_key),
                "the schema has no definitions to add the extension to",
            ));
        };
        for (name, def) in &self.defs {
            if defs.contains_key(name) {
                return Err(SchemaError::new(
                    at(name),
                    format!(
                        "the extension {} defines {name:?}, which the schema already has",
                        self.id
                    ),
                ));
            }
            defs.insert(name.clone(), def.clone());
        }
        for response in &self.extends {
            let union = defs
                .get_mut(response)
                .and_then(|d| d.pointer_mut("/properties/result/anyOf"))
                .and_then(Value::as_array_mut)
                .ok_or_else(|| {
                    SchemaError::new(
                        format!("{}/properties/result/anyOf", at(response)),
                        format!(
                            "the extension {} extends {response:?}, which has no result union",
                            self.id
                        ),
                    )
                })?;
            for result in self.result_types.keys() {
                let reference = pointer::reference(defs_key, result);
                union.push(serde_json::json!({ "$ref": reference }));
            }
        }
        if let Some(named) = self.mcp_name.keys().find(|n| !self.defs.contains_key(*n)) {
            return Err(SchemaError::new(
                at(named),
                format!(
                    "the extension {} gives the Mcp-Name member of {named:?} (mcp_name), which it does not define",
                    self.id
                ),
            ));
        }
        if let Some(holder) = &self.declared_in
            && !defs.contains_key(holder)
        {
            return Err(SchemaError::new(
                at(holder),
                format!(
                    "the extension {} is declared in {holder:?} (declared_in), which the schema does not define",
                    self.id
                ),
            ));
        }
        let owner = format!("extension {} ({FOLDER}/{})", self.id, file_name(&self.id));
        patch::apply(&self.patches, root, &owner)
    }
}

/// The file name of the extension `id`: its identifier with `/` as `-`.
fn file_name(id: &str) -> String {
    format!("{}.json", id.replace('/', "-"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn builtin_extensions_parse() {
        for (id, text) in BUILTIN {
            let def = ExtensionDef::parse(text).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(&def.id, id);
        }
    }

    #[test]
    fn apply_merges_definitions_and_extends_result_unions() {
        let mut root = json!({"$defs": {
            "R": {"properties": {"result": {"anyOf": [{"$ref": "#/$defs/A"}]}}},
            "SubscriptionFilter": {"properties": {}}
        }});
        let def = ExtensionDef::builtin("io.modelcontextprotocol/tasks").unwrap();
        let def = ExtensionDef {
            extends: vec!["R".into()],
            ..def
        };
        def.apply(&mut root, "$defs").unwrap();
        assert_eq!(
            root["$defs"]["R"]["properties"]["result"]["anyOf"],
            json!([{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/CreateTaskResult"}])
        );
        assert!(root["$defs"]["Task"].is_object());
        assert!(root["$defs"]["SubscriptionFilter"]["properties"]["taskIds"].is_object());
    }

    #[test]
    fn a_name_the_schema_has_is_refused() {
        let mut root = json!({"$defs": {"Task": {}, "CallToolResultResponse": {}}});
        let def = ExtensionDef::builtin("io.modelcontextprotocol/tasks").unwrap();
        let e = def.apply(&mut root, "$defs").unwrap_err();
        assert_eq!(e.pointer, "/$defs/Task");
        assert!(e.message.contains("already has"), "{}", e.message);
    }

    #[test]
    fn a_response_without_a_union_is_refused() {
        let mut root = json!({"$defs": {"CallToolResultResponse": {"properties": {}}}});
        let def = ExtensionDef::builtin("io.modelcontextprotocol/tasks").unwrap();
        let e = def.apply(&mut root, "$defs").unwrap_err();
        assert_eq!(
            e.pointer,
            "/$defs/CallToolResultResponse/properties/result/anyOf"
        );
    }

    #[test]
    fn a_failing_patch_names_the_extension_and_its_file() {
        let def = ExtensionDef::builtin("io.modelcontextprotocol/tasks").unwrap();
        let mut root = json!({"$defs": {}});
        for response in &def.extends {
            root["$defs"][response] = json!({"properties": {"result": {"anyOf": []}}});
        }
        // No `SubscriptionFilter`: the extension's patch of it has nothing to patch.
        let e = def.apply(&mut root, "$defs").unwrap_err();
        assert!(
            e.message.starts_with(
                "extension io.modelcontextprotocol/tasks (schema/extensions/io.modelcontextprotocol-tasks.json) patch /patches/0"
            ),
            "{}",
            e.message
        );
    }

    #[test]
    fn the_skills_extension_is_declared_by_the_server() {
        let def = ExtensionDef::builtin("io.modelcontextprotocol/skills").unwrap();
        assert_eq!(
            def.enabled().declared_in.as_deref(),
            Some("ServerCapabilities")
        );
        assert!(def.result_types.is_empty() && def.extends.is_empty());
        let mut root = json!({"$defs": {"ServerCapabilities": {"type": "object"}}});
        def.apply(&mut root, "$defs").unwrap();
        assert!(root["$defs"]["Skill"].is_object());
        assert!(root["$defs"]["ReadResourceDirectoryRequest"].is_object());
    }

    #[test]
    fn a_declaring_capabilities_def_the_schema_lacks_is_refused() {
        let def = ExtensionDef::builtin("io.modelcontextprotocol/skills").unwrap();
        let mut root = json!({"$defs": {}});
        let e = def.apply(&mut root, "$defs").unwrap_err();
        assert_eq!(e.pointer, "/$defs/ServerCapabilities");
        assert!(e.message.contains("declared_in"), "{}", e.message);
    }

    #[test]
    fn result_types_must_name_own_definitions() {
        let text = r#"{"id": "x/y", "revisions": [], "why": "", "source": "",
            "result_types": {"Nope": "nope"}, "extends": [], "extends_why": "", "$defs": {}}"#;
        let e = ExtensionDef::parse(text).unwrap_err();
        assert_eq!(e.key, "/result_types/Nope");
    }
}

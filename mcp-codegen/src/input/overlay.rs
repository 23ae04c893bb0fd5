//! The project's overlay: per protocol revision, the rules and patches schema.json cannot
//! express (see `schema/README.md`). One JSON file per revision, embedded in the generator;
//! a user may pass their own (`Builder::overlay`).
//!
//! The overlay is typed when it is read: operations, levels and conditions are enums, Rust
//! paths are parsed with syn, and every mistake (an unknown key or value, a patch without its
//! value, an empty condition, a path that is not Rust) is an [`OverlayError`] naming the key,
//! a JSON pointer into the overlay document. [`Overlay::check_names`] then checks the `$def`
//! names the overlay mentions against the schema.

use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::error::{OverlayError, SchemaResult};
use crate::input::extensions::ExtensionDef;
use crate::input::mcp_name::McpName;
use crate::input::patch::Patch;
use crate::model::names::RustPath;
use crate::model::pointer;

/// The overlays that ship with the generator, by revision. `mcp-codegen/schema` is a symlink to
/// the workspace's `schema/` folder, the one source of the overlays; `cargo package` copies the
/// files it points to into the package, so a published crate carries them.
const BUILTIN: &[(&str, &str)] = &[
    ("2024-11-05", include_str!("../../schema/2024-11-05.json")),
    ("2025-03-26", include_str!("../../schema/2025-03-26.json")),
    ("2025-06-18", include_str!("../../schema/2025-06-18.json")),
    ("2025-11-25", include_str!("../../schema/2025-11-25.json")),
    ("2026-07-28", include_str!("../../schema/2026-07-28.json")),
];

/// What picks a built-in overlay: its revision and the schema it was written for. The
/// identities are read once per process; an overlay itself is parsed when picked (its parsed
/// Rust paths hold syn spans, which cannot be shared between threads).
#[derive(Deserialize)]
struct Identity {
    revision: String,
    #[serde(default)]
    schema_sha256: Option<String>,
    #[serde(default)]
    schema_fingerprint: Option<String>,
}

/// The identities of the built-in overlays with their texts, in [`BUILTIN`]'s order.
fn builtin_identities() -> &'static [(Identity, &'static str)] {
    static READ: OnceLock<Vec<(Identity, &'static str)>> = OnceLock::new();
    READ.get_or_init(|| {
        BUILTIN
            .iter()
            .map(|(_, text)| {
                let identity = serde_json::from_str(text).expect("built-in overlays are valid");
                (identity, *text)
            })
            .collect()
    })
}

/// The built-in overlay whose identity satisfies `picks`, parsed.
fn builtin_where(picks: impl Fn(&Identity) -> bool) -> Option<Overlay> {
    builtin_identities()
        .iter()
        .find(|(identity, _)| picks(identity))
        .map(|(_, text)| Overlay::parse(text).expect("built-in overlays are valid"))
}

/// One revision's overlay.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    /// The protocol revision, e.g. `2026-07-28`.
    pub revision: String,
    /// SHA-256 of the official schema.json this overlay was written for (revision detection).
    #[serde(default)]
    pub schema_sha256: Option<String>,
    /// The canonical fingerprint of that schema (`load::fingerprint`): recognises a copy saved
    /// with other formatting.
    #[serde(default)]
    pub schema_fingerprint: Option<String>,
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
    /// `$def` -> required members a reader accepts missing, which a writer still writes.
    #[serde(default)]
    pub lenient_on_read: BTreeMap<String, LenientOnRead>,
    /// Request `$def` -> the member of its `params` its `Mcp-Name` header mirrors.
    #[serde(default)]
    pub mcp_name: BTreeMap<String, McpName>,
    /// Which `$def`s take part in multi round-trip requests.
    #[serde(default)]
    pub input_requests: Option<InputRequestNames>,
    /// Input request kinds and the client capabilities each needs (only with
    /// `input_requests`, which the generated checks belong to).
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
    /// The reason for this entry, in the project's own words.
    pub why: String,
    /// The specification passage (page and section) that says so.
    pub source: String,
}

/// The capability rules of input requests.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputCapabilities {
    /// One rule per kind (and mode) of input request.
    pub rules: Vec<CapabilityRule>,
    /// The reason for this entry, in the project's own words.
    pub why: String,
    /// The specification passage (page and section) that says so.
    pub source: String,
}

/// One capability rule (see `mcp_runtime::capability::Rule`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapabilityRule {
    /// The input request's method.
    pub method: String,
    /// When it applies: always, when absent.
    #[serde(default)]
    pub when: Option<CapabilityWhen>,
    /// The capability needed, dotted.
    pub needs: String,
    /// A capability that, declared as an empty object, also satisfies the rule.
    #[serde(default)]
    pub or_empty: Option<String>,
    /// How strong the rule is: `"must"` (the default when the key is absent) or `"should"`.
    #[serde(default)]
    pub level: Level,
    /// The reason for this entry, in the project's own words.
    pub why: String,
}

/// How strong a capability rule is (`mcp_runtime::capability::Level`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// `"must"`: breaking the rule is an error.
    #[default]
    Must,
    /// `"should"`: breaking the rule is allowed, but not recommended.
    Should,
}

/// The condition of a capability rule: on the wire, either `{"pointer": ..., "one_of": [...]}`
/// or `{"any_present": [...]}`. Nothing else: an empty object (which would read as "always")
/// or one mixing both forms is an error; a rule that always applies leaves `when` out.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "RawWhen")]
pub enum CapabilityWhen {
    /// The member of the request at `pointer` has one of `values` (`None`: the member is
    /// missing). Wire keys: `pointer`, `one_of`.
    OneOf {
        /// JSON pointer into the request.
        pointer: String,
        /// The values, at least one.
        values: Vec<Option<String>>,
    },
    /// Any of these JSON pointers into the request is present (at least one). Wire key:
    /// `any_present`.
    AnyPresent(Vec<String>),
}

/// `when` as written, before its form is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWhen {
    #[serde(default)]
    pointer: Option<String>,
    #[serde(default)]
    one_of: Option<Vec<Option<String>>>,
    #[serde(default)]
    any_present: Option<Vec<String>>,
}

impl TryFrom<RawWhen> for CapabilityWhen {
    type Error = String;

    fn try_from(raw: RawWhen) -> Result<Self, String> {
        const FORMS: &str =
            "a `when` is either {\"pointer\": ..., \"one_of\": [...]} or {\"any_present\": [...]}";
        match raw {
            RawWhen {
                pointer: Some(pointer),
                one_of: Some(values),
                any_present: None,
            } => {
                pointer::check(&pointer).map_err(|e| format!("`pointer`: {e}"))?;
                if values.is_empty() {
                    return Err("`one_of` is empty: the rule would never apply".into());
                }
                Ok(CapabilityWhen::OneOf { pointer, values })
            }
            RawWhen {
                pointer: None,
                one_of: None,
                any_present: Some(pointers),
            } => {
                if pointers.is_empty() {
                    return Err("`any_present` is empty: the rule would never apply".into());
                }
                for (i, p) in pointers.iter().enumerate() {
                    pointer::check(p).map_err(|e| format!("`any_present` item {i}: {e}"))?;
                }
                Ok(CapabilityWhen::AnyPresent(pointers))
            }
            RawWhen {
                pointer: None,
                one_of: None,
                any_present: None,
            } => Err(format!(
                "empty `when`: {FORMS}; a rule that always applies leaves `when` out"
            )),
            RawWhen {
                any_present: Some(_),
                ..
            } => Err(format!(
                "`when` mixes `any_present` with `pointer`/`one_of`: {FORMS}"
            )),
            RawWhen {
                pointer: Some(_), ..
            } => Err(format!("`pointer` without `one_of`: {FORMS}")),
            RawWhen {
                one_of: Some(_), ..
            } => Err(format!("`one_of` without `pointer`: {FORMS}")),
        }
    }
}

/// A `$def` implemented by the runtime.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RustType {
    /// Full path of the Rust type, e.g. `::mcp_runtime::ResultType`.
    pub path: RustPath,
    /// The reason for this entry, in the project's own words.
    pub why: String,
    /// The specification passage (page and section) that says so.
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
    /// The reason for this entry, in the project's own words.
    pub why: String,
    /// The specification passage (page and section) that says so.
    pub source: String,
}

/// A rule that at least one of some members must be present.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AtLeastOneOf {
    /// The JSON keys of the members, at least one of which must be present.
    pub keys: Vec<String>,
    /// The reason for this entry, in the project's own words.
    pub why: String,
    /// The specification passage (page and section) that says so.
    pub source: String,
}

/// Required members that a reader accepts missing (peers leave them out) and a writer still
/// writes: the generated field is optional, the generated `new` takes it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LenientOnRead {
    /// The JSON keys of the members (each required by the schema).
    pub keys: Vec<String>,
    /// The reason for this entry, in the project's own words.
    pub why: String,
    /// The specification passage (page and section) that says so.
    pub source: String,
}

impl Overlay {
    /// The built-in overlay for `revision`, if there is one.
    ///
    /// The built-in texts are compiled in, and the unit test `builtin_overlays_parse` parses
    /// every one of them with [`Overlay::parse`] (and
    /// `builtin_overlays_apply_to_their_official_schemas` checks their names against the
    /// official schemas), so the `expect` cannot fire in a tested build: a `Result` would hand
    /// every caller an error that cannot happen.
    pub fn builtin(revision: &str) -> Option<Overlay> {
        builtin_where(|o| o.revision == revision)
    }

    /// The built-in overlay written for the schema with this SHA-256.
    pub fn for_sha256(sha256: &str) -> Option<Overlay> {
        builtin_where(|o| o.schema_sha256.as_deref() == Some(sha256))
    }

    /// The built-in overlay written for the schema with this content fingerprint, however its
    /// file is formatted.
    pub fn for_fingerprint(fingerprint: &str) -> Option<Overlay> {
        builtin_where(|o| o.schema_fingerprint.as_deref() == Some(fingerprint))
    }

    /// The revisions that have a built-in overlay.
    pub fn known_revisions() -> Vec<&'static str> {
        BUILTIN.iter().map(|(r, _)| *r).collect()
    }

    /// Parses an overlay file's text: the JSON, every key and value (see the types), and the
    /// keys that depend on each other. The error names the key, a JSON pointer into `text`.
    pub fn parse(text: &str) -> Result<Overlay, OverlayError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let overlay: Overlay =
            serde_path_to_error::deserialize(&mut de).map_err(OverlayError::from_serde)?;
        de.end().map_err(|e| OverlayError {
            key: String::new(),
            message: "trailing characters after the overlay".into(),
            position: Some((e.line(), e.column())),
        })?;
        overlay.validate()?;
        Ok(overlay)
    }

    /// What serde cannot check: keys that only make sense together.
    fn validate(&self) -> Result<(), OverlayError> {
        if self.input_capabilities.is_some() && self.input_requests.is_none() {
            return Err(OverlayError::new(
                "/input_capabilities",
                "`input_capabilities` without `input_requests`: the capability checks are \
                 generated for the input requests `input_requests` names, so these rules would \
                 be ignored",
            ));
        }
        Ok(())
    }

    /// Checks that every `$def` the overlay names is in `defs` (the schema's `$defs` or
    /// `definitions`, patched): the keys of `rust_types`, `results.fixed` and
    /// `at_least_one_of`, `lenient_on_read`, `mcp_name`, `results.input_required`, and every
    /// name in `input_requests`. The
    /// error names the first missing one and its key in the overlay.
    pub fn check_names(&self, defs: &Map<String, Value>) -> Result<(), OverlayError> {
        let mut named: Vec<(String, &str)> = Vec::new();
        for name in self.rust_types.keys() {
            named.push((pointer::join("/rust_types", name), name));
        }
        if let Some(r) = &self.results {
            named.push(("/results/input_required".into(), &r.input_required));
            for name in r.fixed.keys() {
                named.push((pointer::join("/results/fixed", name), name));
            }
        }
        for name in self.at_least_one_of.keys() {
            named.push((pointer::join("/at_least_one_of", name), name));
        }
        for name in self.lenient_on_read.keys() {
            named.push((pointer::join("/lenient_on_read", name), name));
        }
        for name in self.mcp_name.keys() {
            named.push((pointer::join("/mcp_name", name), name));
        }
        if let Some(n) = &self.input_requests {
            for (key, name) in [
                ("result", &n.result),
                ("map", &n.map),
                ("request", &n.request),
                ("responses", &n.responses),
                ("response", &n.response),
                ("capabilities", &n.capabilities),
                ("missing_capability_error", &n.missing_capability_error),
            ] {
                named.push((format!("/input_requests/{key}"), name));
            }
        }
        match named
            .into_iter()
            .find(|(_, name)| !defs.contains_key(*name))
        {
            Some((key, name)) => Err(OverlayError::new(
                key,
                format!("the schema has no $def named {name:?}"),
            )),
            None => Ok(()),
        }
    }

    /// Checks that `extension` can be enabled on this revision: it must be defined for it,
    /// and the revision must have `resultType` rules (its results join them in the protocol
    /// model).
    pub fn check_extension(&self, extension: &ExtensionDef) -> Result<(), OverlayError> {
        if !extension.revisions.contains(&self.revision) {
            return Err(OverlayError::new(
                "/revision",
                format!(
                    "the extension {} is defined for revision {}, not {}",
                    extension.id,
                    extension.revisions.join(", "),
                    self.revision
                ),
            ));
        }
        if self.results.is_none() {
            return Err(OverlayError::new(
                "/results",
                format!(
                    "the extension {} adds resultType values, but revision {} has no resultType rules",
                    extension.id, self.revision
                ),
            ));
        }
        Ok(())
    }

    /// Applies the patches to `root` (errors name them `overlay patch /patches/<i>`).
    pub fn apply(&self, root: &mut Value) -> SchemaResult<()> {
        crate::input::patch::apply(&self.patches, root, "overlay")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::input::patch::PatchOp;

    #[test]
    fn builtin_overlays_parse() {
        for ((rev, text), (identity, _)) in BUILTIN.iter().zip(builtin_identities()) {
            let o = Overlay::parse(text).unwrap_or_else(|e| panic!("{rev}: {e}"));
            assert_eq!(&o.revision, rev);
            assert_eq!(identity.revision, o.revision);
            assert_eq!(identity.schema_sha256, o.schema_sha256);
            assert_eq!(identity.schema_fingerprint, o.schema_fingerprint);
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
        // The cache hints stay required (a writer writes them); `lenient_on_read` lets a
        // reader go without.
        assert_eq!(
            root["$defs"]["ReadResourceResult"]["required"],
            serde_json::json!(["cacheScope", "contents", "resultType", "ttlMs"])
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
            let loaded = crate::input::load::load(&path).unwrap();
            let overlay = Overlay::builtin(rev).unwrap();
            assert_eq!(
                overlay.schema_sha256.as_deref(),
                Some(loaded.sha256.as_str()),
                "{rev}: schema_sha256"
            );
            assert_eq!(
                overlay.schema_fingerprint.as_deref(),
                Some(loaded.fingerprint.as_str()),
                "{rev}: schema_fingerprint"
            );
            assert_eq!(
                Overlay::for_fingerprint(&loaded.fingerprint).map(|o| o.revision),
                Some(rev.to_string())
            );
            assert_eq!(
                Overlay::for_sha256(&loaded.sha256).map(|o| o.revision),
                Some(rev.to_string())
            );
            let mut root = loaded.root;
            overlay.apply(&mut root).unwrap();
            let defs = root[loaded.defs_key].as_object().unwrap();
            overlay
                .check_names(defs)
                .unwrap_or_else(|e| panic!("{rev}: {e}"));
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
        assert!(
            err.message.contains("/patches/0") && err.message.contains("does not exist"),
            "{}",
            err.message
        );
    }

    use serde_json::json;

    /// A valid overlay using every key, for the tests below to break one key at a time.
    fn full() -> Value {
        json!({
            "revision": "x",
            "patches": [
                {"op": "replace", "path": "/$defs/A", "value": {}, "why": "w", "source": "s"},
                {"op": "add", "path": "/$defs/B", "value": null, "why": "w", "source": "s"},
                {"op": "remove", "path": "/$defs/C", "why": "w", "source": "s"}
            ],
            "rust_types": {"ResultType": {"path": "::mcp_runtime::ResultType", "why": "w", "source": "s"}},
            "results": {"input_required": "IR", "fixed": {"IR": "input_required"}, "why": "w", "source": "s"},
            "at_least_one_of": {"IR": {"keys": ["a", "b"], "why": "w", "source": "s"}},
            "input_requests": {
                "result": "IR", "map": "Map", "request": "Req", "responses": "Resps",
                "response": "Resp", "capabilities": "Caps", "missing_capability_error": "Missing",
                "why": "w", "source": "s"
            },
            "input_capabilities": {"why": "w", "source": "s", "rules": [
                {"method": "m", "needs": "n", "why": "w"},
                {"method": "m", "when": {"pointer": "/params/mode", "one_of": [null, "form"]},
                 "needs": "n.form", "or_empty": "n", "level": "should", "why": "w"},
                {"method": "m", "when": {"any_present": ["/params/tools"]}, "needs": "n.tools",
                 "level": "must", "why": "w"}
            ]}
        })
    }

    /// The `$defs` `full()` names.
    fn full_defs() -> Map<String, Value> {
        [
            "ResultType",
            "IR",
            "Map",
            "Req",
            "Resps",
            "Resp",
            "Caps",
            "Missing",
        ]
        .into_iter()
        .map(|n| (n.to_owned(), json!({})))
        .collect()
    }

    /// Parses `full()` changed by `edit`, expecting an error at `key` whose message holds
    /// every one of `words`.
    fn parse_error(edit: impl FnOnce(&mut Value), key: &str, words: &[&str]) -> OverlayError {
        let mut v = full();
        edit(&mut v);
        let text = serde_json::to_string_pretty(&v).unwrap();
        let err = Overlay::parse(&text).unwrap_err();
        assert_eq!(err.key, key, "{err}");
        let shown = err.to_string();
        assert!(shown.starts_with(&format!("{key}: ")), "{shown}");
        for w in words {
            assert!(shown.contains(w), "expected {w:?} in: {shown}");
        }
        err
    }

    #[test]
    fn full_overlay_is_typed() {
        let o = Overlay::parse(&full().to_string()).unwrap();
        let ops: Vec<PatchOp> = o.patches.iter().map(|p| p.op).collect();
        assert_eq!(ops, [PatchOp::Replace, PatchOp::Add, PatchOp::Remove]);
        assert_eq!(
            o.patches[1].value,
            Some(Value::Null),
            "a null value is a value"
        );
        assert_eq!(o.patches[2].value, None);
        let rules = &o.input_capabilities.as_ref().unwrap().rules;
        let levels: Vec<Level> = rules.iter().map(|r| r.level).collect();
        assert_eq!(levels, [Level::Must, Level::Should, Level::Must]);
        assert_eq!(rules[0].when, None);
        assert_eq!(
            rules[1].when,
            Some(CapabilityWhen::OneOf {
                pointer: "/params/mode".into(),
                values: vec![None, Some("form".into())]
            })
        );
        assert_eq!(
            rules[2].when,
            Some(CapabilityWhen::AnyPresent(vec!["/params/tools".into()]))
        );
        let path = &o.rust_types["ResultType"].path;
        assert_eq!(path.to_string(), "::mcp_runtime::ResultType");
        assert_eq!(
            quote::ToTokens::to_token_stream(path).to_string(),
            ":: mcp_runtime :: ResultType"
        );
        assert_eq!(path.path().segments.len(), 2);
        o.check_names(&full_defs()).unwrap();
    }

    /// The built-in 2026-07-28 overlay's one SHOULD rule is read as such, and its conditions
    /// keep their forms.
    #[test]
    fn builtin_levels_and_conditions() {
        let o = Overlay::builtin("2026-07-28").unwrap();
        let rules = &o.input_capabilities.unwrap().rules;
        let should: Vec<&str> = rules
            .iter()
            .filter(|r| r.level == Level::Should)
            .map(|r| r.needs.as_str())
            .collect();
        assert_eq!(should, ["sampling.context"]);
        assert!(matches!(
            &rules[4].when,
            Some(CapabilityWhen::AnyPresent(p)) if p == &["/params/tools", "/params/toolChoice"]
        ));
        assert_eq!(rules.iter().filter(|r| r.when.is_none()).count(), 3);
    }

    #[test]
    fn unknown_op() {
        parse_error(
            |v| v["patches"][0]["op"] = json!("replac"),
            "/patches/0/op",
            &[
                "unknown variant `replac`",
                "expected one of `replace`, `add`, `remove`",
            ],
        );
    }

    #[test]
    fn replace_or_add_without_value() {
        parse_error(
            |v| {
                v["patches"][0].as_object_mut().unwrap().remove("value");
            },
            "/patches/0",
            &["a `replace` patch needs a `value`"],
        );
        parse_error(
            |v| {
                v["patches"][1].as_object_mut().unwrap().remove("value");
            },
            "/patches/1",
            &["an `add` patch needs a `value`"],
        );
    }

    #[test]
    fn remove_with_value() {
        for value in [json!(1), Value::Null] {
            parse_error(
                |v| v["patches"][2]["value"] = value,
                "/patches/2",
                &["a `remove` patch takes no `value`"],
            );
        }
    }

    #[test]
    fn patch_path_not_a_pointer() {
        parse_error(
            |v| v["patches"][0]["path"] = json!("$defs/A"),
            "/patches/0",
            &["`path`", "\"$defs/A\" is not a JSON pointer"],
        );
        parse_error(
            |v| v["patches"][0]["path"] = json!("/$defs/~2"),
            "/patches/0",
            &["`~` must be followed by `0` or `1`"],
        );
        parse_error(
            |v| v["patches"][0]["path"] = json!(""),
            "/patches/0",
            &["cannot replace the whole schema"],
        );
    }

    #[test]
    fn bad_level() {
        parse_error(
            |v| v["input_capabilities"]["rules"][1]["level"] = json!("shoud"),
            "/input_capabilities/rules/1/level",
            &["unknown variant `shoud`", "expected `must` or `should`"],
        );
        parse_error(
            |v| v["input_capabilities"]["rules"][1]["level"] = json!("SHOULD"),
            "/input_capabilities/rules/1/level",
            &["unknown variant `SHOULD`"],
        );
    }

    #[test]
    fn empty_when() {
        parse_error(
            |v| v["input_capabilities"]["rules"][1]["when"] = json!({}),
            "/input_capabilities/rules/1/when",
            &["empty `when`", "leaves `when` out"],
        );
    }

    #[test]
    fn mixed_when() {
        parse_error(
            |v| v["input_capabilities"]["rules"][1]["when"]["any_present"] = json!(["/params/x"]),
            "/input_capabilities/rules/1/when",
            &["mixes `any_present` with `pointer`/`one_of`"],
        );
    }

    #[test]
    fn incomplete_or_empty_when() {
        let rule = "/input_capabilities/rules/1/when";
        parse_error(
            |v| {
                v["input_capabilities"]["rules"][1]["when"]
                    .as_object_mut()
                    .unwrap()
                    .remove("one_of");
            },
            rule,
            &["`pointer` without `one_of`"],
        );
        parse_error(
            |v| {
                v["input_capabilities"]["rules"][1]["when"]
                    .as_object_mut()
                    .unwrap()
                    .remove("pointer");
            },
            rule,
            &["`one_of` without `pointer`"],
        );
        parse_error(
            |v| v["input_capabilities"]["rules"][1]["when"]["one_of"] = json!([]),
            rule,
            &["`one_of` is empty"],
        );
        parse_error(
            |v| v["input_capabilities"]["rules"][2]["when"]["any_present"] = json!([]),
            "/input_capabilities/rules/2/when",
            &["`any_present` is empty"],
        );
        parse_error(
            |v| v["input_capabilities"]["rules"][1]["when"]["pointer"] = json!("params/mode"),
            rule,
            &["`pointer`", "\"params/mode\" is not a JSON pointer"],
        );
        parse_error(
            |v| v["input_capabilities"]["rules"][2]["when"]["any_present"] = json!(["/a", "b"]),
            "/input_capabilities/rules/2/when",
            &["`any_present` item 1", "\"b\" is not a JSON pointer"],
        );
        parse_error(
            |v| v["input_capabilities"]["rules"][1]["when"]["poiner"] = json!("/x"),
            "/input_capabilities/rules/1/when/poiner",
            &["unknown field `poiner`"],
        );
    }

    #[test]
    fn bad_rust_path() {
        for bad in ["::foo::", "a b", "", "foo::", "1abc", "a::<"] {
            parse_error(
                |v| v["rust_types"]["ResultType"]["path"] = json!(bad),
                "/rust_types/ResultType/path",
                &["is not a Rust path"],
            );
        }
        parse_error(
            |v| v["rust_types"]["ResultType"]["path"] = json!(3),
            "/rust_types/ResultType/path",
            &["invalid type: integer `3`, expected a string"],
        );
        for good in ["ResultType", "crate::Foo", " ::a::B ", "Vec<u8>"] {
            assert!(RustPath::parse(good).is_ok(), "{good}");
        }
    }

    #[test]
    fn unknown_keys() {
        let err = parse_error(
            |v| v["nonsense"] = json!(1),
            "/nonsense",
            &["unknown field `nonsense`", "expected one of `revision`"],
        );
        assert!(err.position.is_some());
        parse_error(
            |v| v["patches"][0]["vaule"] = json!(1),
            "/patches/0/vaule",
            &["unknown field `vaule`"],
        );
        parse_error(
            |v| v["input_capabilities"]["rules"][0]["levl"] = json!("should"),
            "/input_capabilities/rules/0/levl",
            &["unknown field `levl`"],
        );
        parse_error(
            |v| {
                v["input_capabilities"]["rules"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("needs");
            },
            "/input_capabilities/rules/0",
            &["missing field `needs`"],
        );
    }

    #[test]
    fn capabilities_without_input_requests() {
        let err = parse_error(
            |v| {
                v.as_object_mut().unwrap().remove("input_requests");
            },
            "/input_capabilities",
            &["without `input_requests`"],
        );
        assert_eq!(err.position, None);
    }

    #[test]
    fn syntax_errors_keep_their_position() {
        let err = Overlay::parse("{\n  \"revision\": \"x\",\n}").unwrap_err();
        assert_eq!(err.position, Some((3, 1)), "{err}");
        let err = Overlay::parse("{\"revision\": \"x\"} {}").unwrap_err();
        assert_eq!(err.position, Some((1, 19)), "{err}");
        assert!(err.message.contains("trailing characters"), "{err}");
    }

    /// Every place that names a `$def`: renamed to one the schema lacks, the error names the
    /// key and the name.
    #[test]
    fn unknown_names() {
        let base = Overlay::parse(&full().to_string()).unwrap();
        base.check_names(&full_defs()).unwrap();
        type Edit = fn(&mut Overlay);
        let cases: &[(&str, Edit)] = &[
            ("/rust_types/Fooo", |o| {
                let rt = o.rust_types["ResultType"].clone();
                o.rust_types.insert("Fooo".into(), rt);
            }),
            ("/results/input_required", |o| {
                o.results.as_mut().unwrap().input_required = "Fooo".into()
            }),
            ("/results/fixed/Fooo", |o| {
                let fixed = &mut o.results.as_mut().unwrap().fixed;
                fixed.insert("Fooo".into(), "input_required".into());
            }),
            ("/at_least_one_of/Fooo", |o| {
                let rule = o.at_least_one_of["IR"].clone();
                o.at_least_one_of.insert("Fooo".into(), rule);
            }),
            ("/input_requests/result", |o| {
                o.input_requests.as_mut().unwrap().result = "Fooo".into()
            }),
            ("/input_requests/map", |o| {
                o.input_requests.as_mut().unwrap().map = "Fooo".into()
            }),
            ("/input_requests/request", |o| {
                o.input_requests.as_mut().unwrap().request = "Fooo".into()
            }),
            ("/input_requests/responses", |o| {
                o.input_requests.as_mut().unwrap().responses = "Fooo".into()
            }),
            ("/input_requests/response", |o| {
                o.input_requests.as_mut().unwrap().response = "Fooo".into()
            }),
            ("/input_requests/capabilities", |o| {
                o.input_requests.as_mut().unwrap().capabilities = "Fooo".into()
            }),
            ("/input_requests/missing_capability_error", |o| {
                o.input_requests.as_mut().unwrap().missing_capability_error = "Fooo".into()
            }),
        ];
        for (key, edit) in cases {
            let mut o = base.clone();
            edit(&mut o);
            let err = o.check_names(&full_defs()).unwrap_err();
            assert_eq!(&err.key, key);
            assert_eq!(
                err.to_string(),
                format!("{key}: the schema has no $def named \"Fooo\"")
            );
        }
        // The key is a JSON pointer: a `/` in a name is escaped.
        let mut o = base.clone();
        let rule = o.at_least_one_of["IR"].clone();
        o.at_least_one_of.insert("a/b~c".into(), rule);
        let err = o.check_names(&full_defs()).unwrap_err();
        assert_eq!(err.key, "/at_least_one_of/a~1b~0c");
    }

    #[test]
    fn errors_name_the_file() {
        let err = OverlayError::new(
            "/at_least_one_of/Fooo",
            "the schema has no $def named \"Fooo\"",
        );
        assert_eq!(
            err.clone()
                .in_file(Some("schema/x.json".into()))
                .to_string(),
            "overlay schema/x.json: /at_least_one_of/Fooo: the schema has no $def named \"Fooo\""
        );
        assert_eq!(
            err.in_file(None).to_string(),
            "built-in overlay: /at_least_one_of/Fooo: the schema has no $def named \"Fooo\""
        );
        let parse = Overlay::parse("{\"revision\": \"x\",\n \"patches\": [{\"op\": \"x\"}]}")
            .unwrap_err()
            .in_file(Some("my.json".into()));
        assert!(matches!(parse, Error::Json { line: 2, .. }), "{parse:?}");
        assert_eq!(
            parse.to_string(),
            "my.json: invalid JSON at line 2, column 23: /patches/0/op: unknown variant `x`, expected one of `replace`, `add`, `remove`"
        );
    }
}

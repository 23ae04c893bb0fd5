//! The roles of enabled extensions: a marker type per extension (its identifier, its
//! `resultType` values, its result types and the requests it extends), and where the client
//! capabilities advertise extensions. Emission turns them into `mcp_runtime::extension` impls.

use std::collections::BTreeMap;

use crate::input::extensions::Enabled;
use crate::model::ir::{ExtensionCapabilitiesRole, ExtensionRole, Markers, Ty, Types};
use crate::model::names::{RustName, SchemaName, first_free};
use crate::rules::protocol::Protocol;

/// The member of the client capabilities that lists advertised extensions by identifier
/// (SEP-2133).
const EXTENSIONS: &str = "extensions";

/// The roles of every extension enabled (none without one), their marker types named apart
/// from `types`.
pub fn assign(
    types: &Types,
    protocol: &Protocol,
    rust_of: &BTreeMap<SchemaName, RustName>,
) -> Markers {
    if protocol.extensions.is_empty() {
        return Markers::default();
    }
    let mut roles = Vec::new();
    for extension in &protocol.extensions {
        let results: Vec<(RustName, String)> = extension
            .result_types
            .iter()
            .filter_map(|(def, value)| {
                let ty = rust_of.get(&SchemaName::new(def.clone()))?;
                Some((ty.clone(), value.clone()))
            })
            .collect();
        let supported = protocol
            .outcomes
            .values()
            .filter(|o| {
                o.extensions
                    .iter()
                    .any(|d| extension.result_types.contains_key(d.as_str()))
            })
            .filter_map(|o| rust_of.get(o.request.as_ref()?).cloned())
            .collect();
        let ty = marker_name(types, &roles, &extension.id);
        let docs = marker_docs(extension, &results);
        let defs = extension
            .defs
            .iter()
            .filter_map(|def| rust_of.get(&SchemaName::new(def.clone())).cloned())
            .collect();
        roles.push(ExtensionRole {
            ty,
            id: extension.id.clone(),
            results,
            supported,
            defs,
            docs,
        });
    }
    Markers {
        extensions: roles,
        capabilities: declaring(types, protocol, rust_of),
    }
}

/// Every capabilities type that declares an enabled extension: the client capabilities the
/// protocol model names, then each other `$def` an extension names as where it is declared
/// (`declared_in`), once each.
fn declaring(
    types: &Types,
    protocol: &Protocol,
    rust_of: &BTreeMap<SchemaName, RustName>,
) -> Vec<ExtensionCapabilitiesRole> {
    let client = protocol.input_requests.as_ref().map(|i| &i.capabilities);
    let others = protocol
        .extensions
        .iter()
        .filter_map(|e| e.declared_in.as_deref())
        .map(SchemaName::new);
    let mut defs: Vec<SchemaName> = client.cloned().into_iter().collect();
    for def in others {
        if !defs.contains(&def) {
            defs.push(def);
        }
    }
    defs.iter()
        .filter_map(|def| capabilities(types, def, rust_of))
        .collect()
}

/// `TasksExtension` for `io.modelcontextprotocol/tasks`: the identifier's last segment, in
/// PascalCase, suffixed; numbered when a type already has the name.
fn marker_name(types: &Types, taken: &[ExtensionRole], id: &str) -> RustName {
    let word = id.rsplit('/').next().unwrap_or(id);
    let hint = RustName::pascal(word).suffixed("Extension");
    let is_taken = |n: &RustName| types.contains_key(n) || taken.iter().any(|r| &r.ty == n);
    first_free(&hint, |h, i| h.suffixed(i), is_taken)
}

/// The optional map of extensions of capabilities `$def` `def`, when it has one.
fn capabilities(
    types: &Types,
    def: &SchemaName,
    rust_of: &BTreeMap<SchemaName, RustName>,
) -> Option<ExtensionCapabilitiesRole> {
    let ty = rust_of.get(def)?;
    let field = types
        .structure(ty)?
        .field(EXTENSIONS)
        .filter(|f| !f.required)?;
    let Ty::Map(settings) = types.resolve(&field.ty).clone() else {
        return None;
    };
    Some(ExtensionCapabilitiesRole {
        ty: ty.clone(),
        field: field.rust.clone(),
        settings: *settings,
    })
}

/// The marker's docs: the extension, why it is there, and what its `resultType` values are
/// bound to (when it adds any).
fn marker_docs(extension: &Enabled, results: &[(RustName, String)]) -> String {
    let head = format!(
        "The extension `{}`, enabled when this module was generated. {}",
        extension.id, extension.why
    );
    if results.is_empty() {
        return format!(
            "{head}\n\nIt adds no `resultType` value: its methods answer `complete` results."
        );
    }
    let values: Vec<String> = results.iter().map(|(_, v)| format!("`\"{v}\"`")).collect();
    format!(
        "{head}\n\nIts `resultType` values ({}) are read only where the client advertised it on the request (`mcp_runtime::extension::Reader`), and a server answers with its results only through the proof that the client did (`mcp_runtime::extension::Advertised`).",
        values.join(", ")
    )
}

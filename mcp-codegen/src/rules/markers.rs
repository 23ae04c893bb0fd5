//! The roles of enabled extensions: a marker type per extension (its identifier, its
//! `resultType` values, its result types and the requests it extends), and where the client
//! capabilities advertise extensions. Emission turns them into `mcp_runtime::extension` impls.

use std::collections::BTreeMap;

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
        let docs = format!(
            "The extension `{}`, enabled when this module was generated. {}\n\nIts `resultType` values ({}) are read only where the client advertised it on the request (`mcp_runtime::extension::Reader`), and a server answers with its results only through the proof that the client did (`mcp_runtime::extension::Advertised`).",
            extension.id,
            extension.why,
            results
                .iter()
                .map(|(_, v)| format!("`\"{v}\"`"))
                .collect::<Vec<_>>()
                .join(", "),
        );
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
        capabilities: capabilities(types, protocol, rust_of),
    }
}

/// `TasksExtension` for `io.modelcontextprotocol/tasks`: the identifier's last segment, in
/// PascalCase, suffixed; numbered when a type already has the name.
fn marker_name(types: &Types, taken: &[ExtensionRole], id: &str) -> RustName {
    let word = id.rsplit('/').next().unwrap_or(id);
    let hint = RustName::pascal(word).suffixed("Extension");
    let is_taken = |n: &RustName| types.contains_key(n) || taken.iter().any(|r| &r.ty == n);
    first_free(&hint, |h, i| h.suffixed(i), is_taken)
}

/// The client capabilities' optional map of extensions, when the protocol model names the
/// capabilities type and it has one.
fn capabilities(
    types: &Types,
    protocol: &Protocol,
    rust_of: &BTreeMap<SchemaName, RustName>,
) -> Option<ExtensionCapabilitiesRole> {
    let def = &protocol.input_requests.as_ref()?.capabilities;
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

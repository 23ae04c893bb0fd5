//! The client pass: with `Builder::client`, the requests a client sends, as the methods of a
//! client trait ([`ClientRole`]): the variants of the schema's union of client requests
//! (`ClientRequest`) whose response is built from the request, a method each named as the
//! service trait's (`CallToolRequest`: `call_tool`), that takes its params and ends with the
//! complete result: the request's result, or where the result is read by `resultType` (an
//! outcome), the variant read for `"complete"`. Then the requests of each enabled extension
//! (the tasks extension's `tasks/get`, `tasks/update`, `tasks/cancel`): in a revision without
//! server-to-client requests, every request is a client's.

use crate::error::SchemaError;
use crate::model::ir::{
    ClientMethod, ClientRole, Kind, Markers, RequestRole, ResultSelect, Roles, Ty, Types,
};
use crate::model::names::RustName;
use crate::rules::protocol::COMPLETE;
use crate::rules::service::{client_requests, method_name};

/// The client trait of `types` (whose roles are `roles`, extensions `markers`, definitions
/// under `defs_key`): an error, at the union's pointer, when the schema has no union of
/// client requests read by their method, or an outcome with no complete variant.
pub fn select(
    types: &Types,
    roles: &Roles,
    markers: &Markers,
    defs_key: &str,
) -> Result<ClientRole, SchemaError> {
    let requests = client_requests(types, roles, defs_key, "no client trait")?;
    let extended = markers
        .extensions
        .iter()
        .flat_map(|e| &e.defs)
        .filter_map(|def| {
            let role = roles.requests.iter().find(|r| &r.ty == def)?;
            role.response.is_some().then_some(role)
        });
    let methods = requests
        .answered
        .iter()
        .map(|(_, role)| *role)
        .chain(extended)
        .map(|role| {
            let done = done(types, role).ok_or_else(|| {
                requests.refused(&format!(
                    "the result of {} has no variant read for resultType \"{COMPLETE}\"",
                    role.ty.unraw()
                ))
            })?;
            Ok(ClientMethod {
                name: method_name(role),
                request: role.ty.clone(),
                params: role.params.clone(),
                done,
            })
        })
        .collect::<Result<_, SchemaError>>()?;
    Ok(ClientRole {
        name: RustName::pascal("Client"),
        methods,
    })
}

/// What a call of `role`'s request ends with: its result, or the complete variant of an
/// outcome read by `resultType`.
fn done(types: &Types, role: &RequestRole) -> Option<Ty> {
    let Ty::Named(result) = &role.result else {
        return Some(role.result.clone());
    };
    let Some(Kind::Results(outcome)) = types.get(result).map(|def| &def.kind) else {
        return Some(role.result.clone());
    };
    outcome.variants.iter().find_map(|v| match &v.select {
        ResultSelect::ResultType { value, .. } if value == COMPLETE => {
            Some(Ty::Named(v.ty.clone()))
        }
        _ => None,
    })
}

//! Which types get their JSON reader and writer compiled with the module
//! (`Builder::precompile`): the messages, found by the roles the IR already assigns, never
//! by name. A message is a request, its response and reply, a notification, the error
//! response, a union all of whose variants are messages, or a union no other type holds (the
//! top of the type graph, such as the union of every JSON-RPC message). What they contain is
//! compiled with them; what is not a message keeps the usual generic reader, compiled where
//! it is used.

use std::collections::BTreeSet;

use crate::model::ir::{Kind, Roles, RustName, Types};

/// The messages among `types`, found by their `roles`, in name order.
pub fn select(types: &Types, roles: &Roles) -> Vec<RustName> {
    let mut chosen = role_types(roles);
    chosen.extend(tops(types));
    add_unions_of(types, &mut chosen);
    chosen.retain(|name| types.contains_key(name));
    chosen.into_iter().collect()
}

/// The requests with their responses and replies, the notifications and the error response.
fn role_types(roles: &Roles) -> BTreeSet<RustName> {
    let mut out = BTreeSet::new();
    for request in &roles.requests {
        out.insert(request.ty.clone());
        out.extend(request.response.iter().map(|r| r.ty.clone()));
        out.extend(request.reply.iter().cloned());
    }
    out.extend(roles.notifications.iter().map(|n| n.ty.clone()));
    out.extend(roles.error_response.iter().map(|e| e.build.ty.clone()));
    out
}

/// The unions no other type holds (a struct no type holds is most often a base definition
/// whose members the others copy).
fn tops(types: &Types) -> BTreeSet<RustName> {
    let held: BTreeSet<&RustName> = types.values().flat_map(|d| d.kind.references()).collect();
    types
        .values()
        .filter(|d| matches!(d.kind, Kind::Union(_)))
        .filter(|d| !held.contains(&d.name))
        .map(|d| d.name.clone())
        .collect()
}

/// Adds every union whose variants are all chosen, until no more is added.
fn add_unions_of(types: &Types, chosen: &mut BTreeSet<RustName>) {
    loop {
        let more: Vec<RustName> = types
            .values()
            .filter(|d| !chosen.contains(&d.name))
            .filter(|d| match &d.kind {
                Kind::Union(u) => {
                    let held = d.kind.references();
                    !u.variants.is_empty()
                        && held.len() == u.variants.len()
                        && held.iter().all(|r| chosen.contains(*r))
                }
                _ => false,
            })
            .map(|d| d.name.clone())
            .collect();
        if more.is_empty() {
            return;
        }
        chosen.extend(more);
    }
}

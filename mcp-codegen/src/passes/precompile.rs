//! Which types get their JSON reader and writer compiled with the module
//! (`Builder::precompile`): the messages, found by the roles the IR already assigns, never
//! by name. A message is a request, its response and reply, a notification, the error
//! response, a union all of whose variants are messages, or a union no other type holds (the
//! top of the type graph, such as the union of every JSON-RPC message). What they contain is
//! compiled with them; what is not a message keeps the usual generic reader, compiled where
//! it is used.

use std::collections::BTreeSet;

use crate::model::ir::{Kind, Module, RustName};

/// Fills `module.precompiled` with the module's messages, in name order.
pub fn select(module: &mut Module) {
    let mut chosen = role_types(module);
    chosen.extend(tops(module));
    add_unions_of(module, &mut chosen);
    chosen.retain(|name| module.types.contains_key(name));
    module.precompiled = chosen.into_iter().collect();
}

/// The requests with their responses and replies, the notifications and the error response.
fn role_types(module: &Module) -> BTreeSet<RustName> {
    let mut out = BTreeSet::new();
    for request in &module.requests {
        out.insert(request.ty.clone());
        out.extend(request.response.iter().map(|r| r.ty.clone()));
        out.extend(request.reply.iter().cloned());
    }
    out.extend(module.notifications.iter().map(|n| n.ty.clone()));
    out.extend(module.error_response.iter().map(|e| e.build.ty.clone()));
    out
}

/// The unions no other type holds (a struct no type holds is most often a base definition
/// whose members the others copy).
fn tops(module: &Module) -> BTreeSet<RustName> {
    let held: BTreeSet<&RustName> = module
        .types
        .values()
        .flat_map(|d| d.kind.references())
        .collect();
    module
        .types
        .values()
        .filter(|d| matches!(d.kind, Kind::Union(_)))
        .filter(|d| !held.contains(&d.name))
        .map(|d| d.name.clone())
        .collect()
}

/// Adds every union whose variants are all chosen, until no more is added.
fn add_unions_of(module: &Module, chosen: &mut BTreeSet<RustName>) {
    loop {
        let more: Vec<RustName> = module
            .types
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

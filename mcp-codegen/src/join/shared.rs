//! The types two revisions share: the same structure (descriptions aside), every type they
//! reference shared too, and no protocol role in either revision (a role's trait impls are
//! written per revision, so a type that plays one stays in each revision's module), but for
//! the JSON-RPC error response when both revisions build it alike (its one impl serves both).

use std::collections::{BTreeMap, BTreeSet};

use crate::model::ir::{Module, RustName, TypeDef};

/// The names of the types `a` and `b` share.
pub fn shared(a: &Module, b: &Module) -> BTreeSet<RustName> {
    let mut roles = role_subjects(a);
    roles.extend(role_subjects(b));
    // The same error response built the same way in both: its impl, written once, serves both.
    if let (Some(x), Some(y)) = (&a.roles.error_response, &b.roles.error_response)
        && x == y
    {
        roles.remove(&x.build.ty);
    }
    let mut set: BTreeSet<RustName> = a
        .types
        .iter()
        .filter(|(name, def)| {
            !roles.contains(*name)
                && b.types
                    .get(*name)
                    .is_some_and(|d| same_shape((a, def), (b, d)))
        })
        .map(|(name, _)| name.clone())
        .collect();
    // The largest set closed under references (aliases followed, as the shapes compared):
    // drop what references a type outside it until nothing changes.
    let references: BTreeMap<RustName, Vec<RustName>> = set
        .iter()
        .map(|name| {
            let shape = a.types.shape(&a.types[name].kind);
            (
                name.clone(),
                shape.references().into_iter().cloned().collect(),
            )
        })
        .collect();
    loop {
        let kept: BTreeSet<RustName> = set
            .iter()
            .filter(|name| references[*name].iter().all(|r| set.contains(r)))
            .cloned()
            .collect();
        if kept.len() == set.len() {
            return kept;
        }
        set = kept;
    }
}

/// Whether two definitions of a name have the same structure, descriptions aside and aliases
/// followed (each in its own module).
fn same_shape(a: (&Module, &TypeDef), b: (&Module, &TypeDef)) -> bool {
    a.0.types.shape(&a.1.kind) == b.0.types.shape(&b.1.kind)
}

/// The types a protocol role's trait impls are written for.
fn role_subjects(m: &Module) -> BTreeSet<RustName> {
    let mut out = BTreeSet::new();
    out.extend(m.roles.requests.iter().map(|r| r.ty.clone()));
    out.extend(m.roles.notifications.iter().map(|n| n.ty.clone()));
    out.extend(m.roles.object_schemas.iter().map(|o| o.ty.clone()));
    out.extend(m.roles.error_response.iter().map(|e| e.build.ty.clone()));
    out.extend(m.markers.capabilities.iter().map(|c| c.ty.clone()));
    for e in &m.markers.extensions {
        out.extend(e.results.iter().map(|(ty, _)| ty.clone()));
        out.extend(e.supported.iter().cloned());
    }
    if let Some(i) = &m.roles.input {
        out.extend([i.result.clone(), i.request.clone(), i.response.clone()]);
        out.extend(
            i.capability_error
                .iter()
                .map(|c| c.response.build.ty.clone()),
        );
    }
    out
}

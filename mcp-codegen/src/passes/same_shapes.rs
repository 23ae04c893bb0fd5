//! Inline types of the same structure, generated once. A schema often repeats one inline
//! object under many members (each request's `_meta` in revision 2025-11-25, a task's `ttl`):
//! lowering names each after its place, so without this pass each would be a Rust type of its
//! own, with its own derives to compile, although every one of them reads and writes the same
//! JSON. Here each group of inline types that are the value of a member of the same name and
//! have one structure (descriptions aside, aliases followed: [`Types::shape`]) keeps one
//! struct, enum or union, named by the group's shortest name (the earliest in name order among
//! equals), and every other name of the group becomes an alias of it, so that each name the
//! schema's places give still names the type. Members of different names stay apart even when
//! their objects look alike (a server's `prompts` capability is not its `tools` one), and a
//! type of a `$def` keeps its own definition: two definitions the schema names apart stay two
//! types.

use std::collections::BTreeMap;

use crate::model::ir::{Kind, RustName, Types};
use crate::model::pointer;

/// Merges the inline types of `module` that have the same structure; `inline` tells an inline
/// type from a `$def`'s by its JSON pointer. Repeats until nothing merges, since types that
/// differed only in members of merged types are now the same too (each round makes at least
/// one type an alias, so the rounds end; each groups the types in one pass).
pub fn merge(types: &mut Types, inline: impl Fn(&str) -> bool) {
    loop {
        let groups = groups(types, &inline);
        if groups.is_empty() {
            return;
        }
        for (keep, others) in groups {
            for name in others {
                alias(types, &name, &keep);
            }
        }
    }
}

/// The groups of inline types of one member name and one structure with more than one
/// member, each as the name that keeps the definition and the others.
fn groups(types: &Types, inline: &impl Fn(&str) -> bool) -> Vec<(RustName, Vec<RustName>)> {
    // The structure's debug text is the key: equal structures print alike, and the map keeps
    // the output independent of anything but the module.
    let mut by_shape: BTreeMap<(String, String), Vec<&RustName>> = BTreeMap::new();
    for (name, def) in types {
        if inline(&def.pointer) && mergeable(&def.kind) {
            let member = pointer::last_token(&def.pointer);
            let shape = format!("{:?}", types.shape(&def.kind));
            by_shape.entry((member, shape)).or_default().push(name);
        }
    }
    by_shape
        .into_values()
        .filter_map(|mut group| {
            group.sort_by_key(|n| (n.as_str().len(), n.as_str()));
            let (keep, others) = group.split_first()?;
            (!others.is_empty()).then(|| {
                (
                    (*keep).clone(),
                    others.iter().map(|n| (*n).clone()).collect(),
                )
            })
        })
        .collect()
}

/// Whether a kind of item is merged: structs, string enums and unions (an alias already
/// names another type; a set of results is a protocol role's).
fn mergeable(kind: &Kind) -> bool {
    matches!(kind, Kind::Struct(_) | Kind::StringEnum(_) | Kind::Union(_))
}

/// Makes `name` an alias of `keep`, its docs saying so.
fn alias(types: &mut Types, name: &RustName, keep: &RustName) {
    let Some(def) = types.get_mut(name) else {
        return;
    };
    def.kind = Kind::Alias(crate::model::ir::Ty::Named(keep.clone()));
    let note = format!(
        "The same type as [`{}`]: this member of the schema has the same structure.",
        keep.unraw()
    );
    def.docs = Some(match def.docs.take() {
        Some(docs) => format!("{docs}\n\n{note}"),
        None => note,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::{Field, Struct, Ty, TypeDef};

    fn name(n: &str) -> RustName {
        RustName::pascal(n)
    }

    /// A struct at `pointer` with one optional member `x` of type `ty`.
    fn def(n: &str, pointer: &str, ty: Ty, docs: &str) -> TypeDef {
        TypeDef {
            name: name(n),
            pointer: pointer.to_owned(),
            docs: Some(docs.to_owned()),
            kind: Kind::Struct(Struct {
                fields: vec![Field::for_test("x", ty, false)],
                ..Struct::default()
            }),
        }
    }

    fn module(defs: Vec<TypeDef>) -> Types {
        defs.into_iter().map(|d| (d.name.clone(), d)).collect()
    }

    fn merged(m: Types) -> Types {
        let mut m = m;
        merge(&mut m, |p| crate::model::pointer::within_def(p, "$defs"));
        m
    }

    fn alias_of(m: &Types, n: &str) -> Option<String> {
        match &m[&name(n)].kind {
            Kind::Alias(Ty::Named(target)) => Some(target.as_str().to_owned()),
            _ => None,
        }
    }

    #[test]
    fn the_same_member_of_the_same_shape_is_one_type_named_by_the_shortest_name() {
        let m = merged(module(vec![
            def(
                "CallParamsMeta",
                "/$defs/Call/properties/_meta",
                Ty::String,
                "a",
            ),
            def(
                "ParamsMeta",
                "/$defs/Params/properties/_meta",
                Ty::String,
                "b",
            ),
            def(
                "ListParamsMeta",
                "/$defs/List/properties/_meta",
                Ty::String,
                "c",
            ),
        ]));
        assert_eq!(alias_of(&m, "ParamsMeta"), None);
        assert_eq!(
            alias_of(&m, "CallParamsMeta").as_deref(),
            Some("ParamsMeta")
        );
        assert_eq!(
            alias_of(&m, "ListParamsMeta").as_deref(),
            Some("ParamsMeta")
        );
        let docs = m[&name("ListParamsMeta")].docs.clone().unwrap();
        assert!(docs.starts_with("c\n\n"), "{docs}");
        assert!(docs.contains("[`ParamsMeta`]"), "{docs}");
    }

    #[test]
    fn different_members_different_shapes_and_definitions_stay_apart() {
        let m = merged(module(vec![
            def("ARoots", "/$defs/A/properties/roots", Ty::Bool, ""),
            def("APrompts", "/$defs/A/properties/prompts", Ty::Bool, ""),
            def("BRoots", "/$defs/B/properties/roots", Ty::String, ""),
            def("Named", "/$defs/Named", Ty::Bool, ""),
            def("Other", "/$defs/Other", Ty::Bool, ""),
        ]));
        for n in ["ARoots", "APrompts", "BRoots", "Named", "Other"] {
            assert_eq!(alias_of(&m, n), None, "{n}");
        }
    }

    #[test]
    fn holders_of_merged_types_merge_in_turn() {
        let m = merged(module(vec![
            def(
                "AMeta",
                "/$defs/A/properties/p/properties/_meta",
                Ty::Bool,
                "",
            ),
            def(
                "BMeta",
                "/$defs/B/properties/p/properties/_meta",
                Ty::Bool,
                "",
            ),
            def(
                "AParams",
                "/$defs/A/properties/p",
                Ty::Named(name("AMeta")),
                "",
            ),
            def(
                "BParams",
                "/$defs/B/properties/p",
                Ty::Named(name("BMeta")),
                "",
            ),
        ]));
        assert_eq!(alias_of(&m, "BMeta").as_deref(), Some("AMeta"));
        assert_eq!(alias_of(&m, "BParams").as_deref(), Some("AParams"));
    }
}

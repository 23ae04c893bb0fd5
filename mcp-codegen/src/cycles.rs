//! Breaks recursive containment: a type that holds itself by value (directly or through
//! other types) gets a `Box` on the field or variant that closes the cycle. Then bounds
//! sizes: a `Box` on the edges to huge types, and on the large members of a result whose
//! `resultType` is fixed to another value than `complete` (see [`LEAN_ABOVE`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::error::{SchemaError, SchemaResult};
use crate::ir::{Kind, Module, ResultMode, RustName, Ty};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Active,
    Done,
}

/// Boxes the edges that close cycles; a cycle made only of aliases is an error.
///
/// The depth-first search keeps its own stack: a chain of `$ref`s as long as the schema has
/// `$def`s (10,000 and more) must not overflow the thread's stack.
pub fn break_cycles(module: &mut Module) -> SchemaResult<()> {
    struct Frame {
        name: RustName,
        edges: Vec<(usize, RustName)>,
        next: usize,
    }
    let names: Vec<RustName> = module.types.keys().cloned().collect();
    let mut marks: BTreeMap<RustName, Mark> = BTreeMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    for root in names {
        if marks.contains_key(&root) {
            continue;
        }
        let Some(def) = module.types.get(&root) else {
            continue;
        };
        marks.insert(root.clone(), Mark::Active);
        stack.push(Frame {
            edges: edges(&def.kind),
            name: root,
            next: 0,
        });
        while let Some(top) = stack.last_mut() {
            let Some((slot, target)) = top.edges.get(top.next).cloned() else {
                marks.insert(top.name.clone(), Mark::Done);
                stack.pop();
                continue;
            };
            top.next += 1;
            match marks.get(&target) {
                Some(Mark::Done) => {}
                Some(Mark::Active) => box_slot(module, &top.name, slot)?,
                None => {
                    if let Some(def) = module.types.get(&target) {
                        marks.insert(target.clone(), Mark::Active);
                        let edges = edges(&def.kind);
                        stack.push(Frame {
                            name: target,
                            edges,
                            next: 0,
                        });
                    }
                }
            }
        }
    }
    bound_sizes(module);
    Ok(())
}

/// Above this estimated size (bytes) a type is held through a `Box` by the structs and unions
/// that contain it. Types that hold others by value add up their sizes: a schema whose `$def`s
/// each hold the next and a union of another (hostile, or merely large) gives types of
/// megabytes, which overflow a thread's stack when read. The official schemas' types stay far
/// below it.
const BOX_ABOVE: usize = 64 << 10;

/// Above this estimated size (bytes) a member of a result with a fixed `resultType` other than
/// `complete` (`InputRequiredResult`, an extension's `CreateTaskResult`) is boxed. Such a
/// result is a variant of every outcome enum of its requests, the user's own included, beside
/// results that may be small (a user's struct of one `String`): clippy's `large_enum_variant`
/// fires there at 200 bytes of difference, and `InputRequiredResult` held its `_meta` (a
/// `ResultMetaObject` with the server's `Implementation`, about 190 bytes) inline, 272 bytes in
/// all. Its members in a box, it is 80 bytes, and no user boxes it or allows the lint.
const LEAN_ABOVE: usize = 64;

/// After `break_cycles` the by-value edges form a DAG: walks it bottom-up (with its own stack),
/// estimating each type's size, and boxes the edges to types larger than [`BOX_ABOVE`] (or
/// than [`LEAN_ABOVE`], from a result with a fixed `resultType`).
fn bound_sizes(module: &mut Module) {
    let names: Vec<RustName> = module.types.keys().cloned().collect();
    let mut sizes: BTreeMap<RustName, usize> = BTreeMap::new();
    let mut entered: BTreeSet<RustName> = BTreeSet::new();
    for root in names {
        let mut stack = vec![(root, false)];
        while let Some((name, children_done)) = stack.pop() {
            if sizes.contains_key(&name) {
                continue;
            }
            let Some(def) = module.types.get(&name) else {
                continue;
            };
            let edges = edges(&def.kind);
            if !children_done {
                if !entered.insert(name.clone()) {
                    // Reached again before finishing: only through a boxed edge, not here.
                    continue;
                }
                stack.push((name, true));
                for (_, target) in edges.into_iter().rev() {
                    if !sizes.contains_key(&target) {
                        stack.push((target, false));
                    }
                }
                continue;
            }
            let boxable = matches!(def.kind, Kind::Struct(_) | Kind::Union(_));
            let above = match &def.kind {
                Kind::Struct(s) if matches!(s.result, Some(ResultMode::Fixed(_))) => LEAN_ABOVE,
                _ => BOX_ABOVE,
            };
            for (slot, target) in edges {
                if boxable && sizes.get(&target).is_some_and(|s| *s > above) {
                    box_slot(module, &name, slot).expect("structs and unions can box");
                }
            }
            let size = kind_size(&module.types[&name].kind, &sizes);
            sizes.insert(name, size);
        }
    }
}

/// A rough size in bytes (what matters is how sizes add up, not the exact layout).
fn kind_size(kind: &Kind, sizes: &BTreeMap<RustName, usize>) -> usize {
    let ty = |t: &Ty| ty_size(t, sizes);
    match kind {
        Kind::Struct(s) => {
            8 + 24
                + s.fields
                    .iter()
                    .map(|f| ty(&f.ty) + if f.required { 0 } else { 8 })
                    .sum::<usize>()
        }
        Kind::Union(u) => 8 + u.variants.iter().map(|v| ty(&v.ty)).max().unwrap_or(0),
        Kind::Alias(t) => ty(t),
        Kind::Results(r) => {
            8 + r
                .variants
                .iter()
                .map(|v| sizes.get(&v.ty).copied().unwrap_or(8))
                .max()
                .unwrap_or(0)
        }
        Kind::StringEnum(_) => 1,
    }
}

fn ty_size(t: &Ty, sizes: &BTreeMap<RustName, usize>) -> usize {
    match t {
        Ty::Named(n) => sizes.get(n).copied().unwrap_or(8),
        Ty::Path(_) | Ty::Value => 32,
        Ty::Raw => 16,
        Ty::String | Ty::Object | Ty::Vec(_) | Ty::Map(_) => 24,
        Ty::Bool => 1,
        Ty::I64 | Ty::U64 | Ty::F64 => 8,
        Ty::Unit => 0,
        Ty::Boxed(_) => 8,
    }
}

/// The by-value edges of one type: (index of the slot, target).
fn edges(kind: &Kind) -> Vec<(usize, RustName)> {
    let named = |t: &Ty| t.by_value().cloned();
    match kind {
        Kind::Struct(s) => s
            .fields
            .iter()
            .enumerate()
            .filter_map(|(i, f)| Some((i, named(&f.ty)?)))
            .collect(),
        Kind::Union(u) => u
            .variants
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((i, named(&v.ty)?)))
            .collect(),
        Kind::Alias(t) => named(t).map(|n| vec![(0, n)]).unwrap_or_default(),
        Kind::Results(r) => r
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| (i, v.ty.clone()))
            .collect(),
        Kind::StringEnum(_) => Vec::new(),
    }
}

fn box_slot(module: &mut Module, name: &RustName, slot: usize) -> SchemaResult<()> {
    let Some(def) = module.types.get_mut(name) else {
        return Ok(());
    };
    let ty = match &mut def.kind {
        Kind::Struct(s) => &mut s.fields[slot].ty,
        Kind::Union(u) => &mut u.variants[slot].ty,
        Kind::Alias(_) | Kind::Results(_) | Kind::StringEnum(_) => {
            return Err(SchemaError::new(
                def.pointer.clone(),
                format!(
                    "`{name}` refers to itself through $refs alone: there is no type to generate"
                ),
            ));
        }
    };
    let inner = std::mem::replace(ty, Ty::Value);
    *ty = Ty::Boxed(Box::new(inner));
    Ok(())
}

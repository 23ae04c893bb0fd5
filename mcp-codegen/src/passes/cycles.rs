//! Breaks recursive containment: a type that holds itself by value (directly or through
//! other types) gets a `Box` on the field or variant that closes the cycle. (How large the
//! types that remain may be is the `sizes` pass's rule.)

use std::collections::BTreeMap;

use crate::error::{SchemaError, SchemaResult};
use crate::model::ir::{Kind, RustName, Ty, Types};
use crate::passes::layout::by_value;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Active,
    Done,
}

/// What [`break_cycles`] returns: no type holds itself by value any more. The passes that
/// walk the types by value after it (`sizes::bound`) take it, so they cannot run before it.
#[derive(Debug, Clone, Copy)]
pub struct Acyclic(());

/// Boxes the edges that close cycles; a cycle made only of aliases is an error.
///
/// The depth-first search keeps its own stack: a chain of `$ref`s as long as the schema has
/// `$def`s (10,000 and more) must not overflow the thread's stack.
pub fn break_cycles(types: &mut Types) -> SchemaResult<Acyclic> {
    struct Frame {
        name: RustName,
        edges: Vec<(usize, RustName)>,
        next: usize,
    }
    let names: Vec<RustName> = types.keys().cloned().collect();
    let mut marks: BTreeMap<RustName, Mark> = BTreeMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    for root in names {
        if marks.contains_key(&root) {
            continue;
        }
        let Some(def) = types.get(&root) else {
            continue;
        };
        marks.insert(root.clone(), Mark::Active);
        stack.push(Frame {
            edges: by_value(&def.kind),
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
                Some(Mark::Active) => box_slot(types, &top.name, slot)?,
                None => {
                    if let Some(def) = types.get(&target) {
                        marks.insert(target.clone(), Mark::Active);
                        let edges = by_value(&def.kind);
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
    Ok(Acyclic(()))
}

fn box_slot(types: &mut Types, name: &RustName, slot: usize) -> SchemaResult<()> {
    let Some(def) = types.get_mut(name) else {
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

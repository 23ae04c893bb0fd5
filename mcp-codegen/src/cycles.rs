//! Breaks recursive containment: a type that holds itself by value (directly or through
//! other types) gets a `Box` on the field or variant that closes the cycle.

use std::collections::BTreeMap;

use crate::error::{SchemaError, SchemaResult};
use crate::ir::{Kind, Module, Ty};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Active,
    Done,
}

/// Boxes the edges that close cycles; a cycle made only of aliases is an error.
pub fn break_cycles(module: &mut Module) -> SchemaResult<()> {
    let names: Vec<String> = module.types.keys().cloned().collect();
    let mut marks: BTreeMap<String, Mark> = BTreeMap::new();
    for name in names {
        visit(module, &name, &mut marks)?;
    }
    Ok(())
}

/// The by-value edges of one type: (index of the slot, target).
fn edges(kind: &Kind) -> Vec<(usize, String)> {
    let named = |t: &Ty| t.by_value().map(str::to_owned);
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
        Kind::Outcome(o) => vec![(0, o.complete.clone()), (1, o.input_required.clone())],
        Kind::StringEnum(_) => Vec::new(),
    }
}

fn visit(module: &mut Module, name: &str, marks: &mut BTreeMap<String, Mark>) -> SchemaResult<()> {
    if marks.contains_key(name) {
        return Ok(());
    }
    let Some(def) = module.types.get(name) else {
        return Ok(());
    };
    marks.insert(name.to_owned(), Mark::Active);
    for (slot, target) in edges(&def.kind) {
        match marks.get(&target) {
            Some(Mark::Done) => {}
            Some(Mark::Active) => box_slot(module, name, slot)?,
            None => visit(module, &target, marks)?,
        }
    }
    marks.insert(name.to_owned(), Mark::Done);
    Ok(())
}

fn box_slot(module: &mut Module, name: &str, slot: usize) -> SchemaResult<()> {
    let def = module.types.get_mut(name).expect("visited types exist");
    let ty = match &mut def.kind {
        Kind::Struct(s) => &mut s.fields[slot].ty,
        Kind::Union(u) => &mut u.variants[slot].ty,
        Kind::Alias(_) | Kind::Outcome(_) | Kind::StringEnum(_) => {
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

//! The join of two revisions' IRs (issue 19, "two eras"): which types are the same in both
//! (generated once, reachable under both revisions' modules), and for every other type name
//! the two revisions have in common, how a value converts in each direction. Decided from the
//! IR alone (a type's structure and everything it references, descriptions aside), never from
//! a per-type list. What the schemas cannot say of the two eras is read in [`era_facts`];
//! the whole run with two schemas (each lowered, joined, emitted into one file) is
//! [`side_by_side`].

mod compare;
pub mod era_facts;
mod notes;
mod shared;
pub mod side_by_side;

pub use notes::annotate;

use std::collections::BTreeSet;

use crate::model::ir::{Kind, Module, RustName};

/// One revision's IR, named by its revision.
#[derive(Debug, Clone, Copy)]
pub struct Era<'m> {
    /// The revision (e.g. `2025-11-25`).
    pub revision: &'m str,
    /// Its IR.
    pub module: &'m Module,
}

/// What the comparison of two revisions found.
#[derive(Debug, Clone, PartialEq)]
pub struct Join {
    /// The types identical in both, everything they reference included.
    pub shared: BTreeSet<RustName>,
    /// The other type names both revisions define, in name order: as a type of their own in
    /// at least one of them (a name that is an alias in the other converts to the alias's
    /// target there, as `ClientResult`, a union in 2025-11-25 and `Result` in 2026-07-28).
    pub pairs: Vec<Pair>,
}

/// A type name both revisions define differently.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The name.
    pub name: RustName,
    /// From the older revision to the newer.
    pub forward: Conversion,
    /// From the newer revision to the older.
    pub backward: Conversion,
}

/// One direction of a [`Pair`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Conversion {
    /// Why a value may not convert, one entry per member (empty: every value converts).
    pub partial: Vec<String>,
    /// Where results sit whose `resultType` the target does not declare (member keys from
    /// the root, `*` for the items of an array or the values of a map).
    pub defaults: Vec<Vec<String>>,
}

impl Conversion {
    /// Whether every value converts.
    pub fn total(&self) -> bool {
        self.partial.is_empty()
    }
}

/// Joins the older revision `old` with the newer `new`.
pub fn join(old: Era<'_>, new: Era<'_>) -> Join {
    let shared = shared::shared(old.module, new.module);
    let names: Vec<RustName> = old
        .module
        .types
        .iter()
        .filter(|(name, _)| !shared.contains(*name))
        .filter(|(name, def)| {
            new.module
                .types
                .get(*name)
                .is_some_and(|d| own_type(&def.kind) || own_type(&d.kind))
        })
        .map(|(name, _)| name.clone())
        .collect();
    let mut forward = compare::Compare::new(old, new, &shared);
    let mut backward = compare::Compare::new(new, old, &shared);
    forward.settle(&names);
    backward.settle(&names);
    let pairs = names
        .into_iter()
        .map(|name| Pair {
            forward: forward.conversion(&name),
            backward: backward.conversion(&name),
            name,
        })
        .collect();
    Join { shared, pairs }
}

/// Whether a type is a Rust type of its own (an alias's conversions are its target's).
fn own_type(kind: &Kind) -> bool {
    !matches!(kind, Kind::Alias(_))
}

//! What the docs say of two revisions side by side: each shared type names the revisions that
//! share it, and each revision's overview lists what it shares, what it defines differently
//! and what only it defines.

use std::collections::BTreeSet;

use super::{Era, Join};
use crate::model::ir::{Kind, Module, RustName};

/// Adds the shared types' notes to `new` (where they are defined) and a section to both
/// overviews.
pub fn annotate(old: (&str, &mut Module), new: (&str, &mut Module), join: &Join) {
    let (old_rev, old_module) = old;
    let (new_rev, new_module) = new;
    let note = format!(
        "Shared by revisions {old_rev} and {new_rev}: identical in both (descriptions aside), everything it references included, so both revisions' modules name this one type."
    );
    for name in &join.shared {
        if let Some(def) = new_module.types.get_mut(name) {
            match &mut def.kind {
                Kind::Struct(s) => s.notes.push(note.clone()),
                _ => {
                    if let Some(docs) = &mut def.docs {
                        docs.push_str("\n\n");
                        docs.push_str(&note);
                    }
                }
            }
        }
    }
    let section = |this: Era<'_>, other: Era<'_>| overview(this, other, join);
    let old_section = section(
        Era {
            revision: old_rev,
            module: old_module,
        },
        Era {
            revision: new_rev,
            module: new_module,
        },
    );
    let new_section = section(
        Era {
            revision: new_rev,
            module: new_module,
        },
        Era {
            revision: old_rev,
            module: old_module,
        },
    );
    old_module.overview.push_str(&old_section);
    new_module.overview.push_str(&new_section);
}

/// The overview section of `this` revision beside `other`.
fn overview(this: Era<'_>, other: Era<'_>, join: &Join) -> String {
    let changed: BTreeSet<&RustName> = join.pairs.iter().map(|p| &p.name).collect();
    let only: Vec<&RustName> = this
        .module
        .types
        .keys()
        .filter(|n| !other.module.types.contains_key(*n))
        .collect();
    let (this_rev, other_rev) = (this.revision, other.revision);
    format!(
        "\n\n# Beside revision {other_rev}\n\n\
         Shared with {other_rev} ({} types, the same Rust types in both modules): {}.\n\n\
         Defined differently in {other_rev} ({} types; each converts to the other revision's type of the same name with `From` where every value converts, else `TryFrom`): {}.\n\n\
         Only in {this_rev} ({} types): {}.",
        join.shared.len(),
        listed(join.shared.iter()),
        changed.len(),
        listed(changed.into_iter()),
        only.len(),
        listed(only.into_iter()),
    )
}

/// `` `A`, `B` `` (or "none").
fn listed<'n>(names: impl Iterator<Item = &'n RustName>) -> String {
    let items: Vec<String> = names.map(|n| format!("`{}`", n.unraw())).collect();
    if items.is_empty() {
        "none".to_owned()
    } else {
        items.join(", ")
    }
}

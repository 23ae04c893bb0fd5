//! Estimates the memory layout (size, alignment, and whether `Option` can hide in a spare
//! value) of every generated type, from its IR alone, on a 64-bit target. The estimate is an
//! upper bound of `std::mem::size_of`: it follows what rustc does where that is certain (field
//! reordering, the spare values of `String`, `Vec`, `Box`, `bool` and of an enum's tag; a
//! `BTreeMap` has none left) and assumes the worst elsewhere (an enum of data always pays for
//! a tag of its own). The tests crate checks it against `size_of` for every type generated
//! from each official schema (`tests/tests/sizes.rs`).

use std::collections::{BTreeMap, BTreeSet};

use crate::model::ir::{Kind, ResultMode, RustName, Struct, Ty, Types};

/// A pointer, a length, an `i64`: the alignment of everything that is not a byte.
const WORD: usize = 8;

/// The estimated layout of one type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Size in bytes.
    pub size: usize,
    /// Alignment in bytes (1 or [`WORD`]).
    pub align: usize,
    /// Whether the type has a value no instance uses, so that `Option` of it is no larger.
    pub niche: bool,
}

impl Layout {
    const fn word_multiple(words: usize, niche: bool) -> Layout {
        Layout {
            size: words * WORD,
            align: WORD,
            niche,
        }
    }

    /// `Option` of this layout.
    pub fn optional(self) -> Layout {
        if self.niche {
            return self;
        }
        Layout {
            size: round_up(self.size + self.align, self.align),
            align: self.align,
            niche: true,
        }
    }
}

/// Estimated layouts by type name; a name missing from it (a type the module does not
/// define) counts as a word.
pub type Layouts = BTreeMap<RustName, Layout>;

/// The layout of `t` as a struct member or enum payload, given the layouts of the types it
/// names.
pub fn of_ty(t: &Ty, known: &Layouts) -> Layout {
    match t {
        Ty::Named(n) => known
            .get(n)
            .copied()
            .unwrap_or(Layout::word_multiple(1, false)),
        // A runtime type named by the overlay: as large as a JSON value, no spare value assumed.
        Ty::Path(_) => Layout::word_multiple(4, false),
        // serde_json::Value: a tag byte with spare values beside a 24-byte payload.
        Ty::Value => Layout::word_multiple(4, true),
        // A boxed str: pointer and length.
        Ty::Raw => Layout::word_multiple(2, true),
        Ty::String | Ty::Vec(_) => Layout::word_multiple(3, true),
        // A BTreeMap's one spare value (a null root) already tells an empty map.
        Ty::Map(_) | Ty::Object => Layout::word_multiple(3, false),
        Ty::Boxed(_) => Layout::word_multiple(1, true),
        Ty::Bool => Layout {
            size: 1,
            align: 1,
            niche: true,
        },
        Ty::I64 | Ty::U64 | Ty::F64 => Layout::word_multiple(1, false),
        Ty::Unit => Layout {
            size: 0,
            align: 1,
            niche: false,
        },
    }
}

/// The layout of a member of type `t`, `Option` of it when not `required`.
pub fn of_member(t: &Ty, required: bool, known: &Layouts) -> Layout {
    let l = of_ty(t, known);
    if required { l } else { l.optional() }
}

/// The layout of a type of kind `kind`, given the layouts of the types it names.
pub fn of_kind(kind: &Kind, known: &Layouts) -> Layout {
    match kind {
        Kind::Struct(s) => of_struct(s, known),
        Kind::Union(u) => tagged(u.variants.iter().map(|v| of_ty(&v.ty, known))),
        // A variant holds the result, or the runtime's wrapper of it (no larger).
        Kind::Results(r) => tagged(
            r.variants
                .iter()
                .map(|v| of_ty(&Ty::Named(v.ty.clone()), known)),
        ),
        Kind::Alias(t) => of_ty(t, known),
        Kind::StringEnum(values) => match values.len() {
            0 | 1 => Layout {
                size: 0,
                align: 1,
                niche: false,
            },
            _ => Layout {
                size: 1,
                align: 1,
                niche: values.len() < 256,
            },
        },
    }
}

/// The layout of struct `s`: its declared members, the result-type field, the bag of kept
/// members (the constants have no field).
pub fn of_struct(s: &Struct, known: &Layouts) -> Layout {
    let result = match &s.result {
        Some(ResultMode::Field(f)) => Some(of_member(&f.ty, f.required, known)),
        _ => None,
    };
    let extra = s.extra.as_ref().map(|_| of_ty(&Ty::Object, known));
    let members = s.fields.iter().map(|f| of_member(&f.ty, f.required, known));
    record(members.chain(result).chain(extra))
}

/// A struct of `members`: rustc orders them so that only the end is padded.
fn record(members: impl Iterator<Item = Layout>) -> Layout {
    let (mut size, mut align, mut niche) = (0, 1, false);
    for m in members {
        size += m.size;
        align = align.max(m.align);
        niche |= m.niche;
    }
    Layout {
        size: round_up(size, align),
        align,
        niche,
    }
}

/// An enum with a payload per variant: the largest payload and a tag word (rustc often hides
/// the tag in a payload's spare values; the estimate does not count on it).
fn tagged(payloads: impl Iterator<Item = Layout>) -> Layout {
    let largest = payloads.map(|p| p.size).max().unwrap_or(0);
    Layout::word_multiple(round_up(largest, WORD) / WORD + 1, true)
}

fn round_up(size: usize, align: usize) -> usize {
    size.div_ceil(align) * align
}

/// The types `kind` holds by value (not behind a `Vec`, a map or a `Box`), each with the
/// index of its member or variant.
pub fn by_value(kind: &Kind) -> Vec<(usize, RustName)> {
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

/// The module's type names, each after every type it holds by value (the by-value edges form
/// no cycle once `cycles` has boxed them; an edge back to a type still being visited is
/// skipped). The walk keeps its own stack: a chain of `$ref`s may be as long as the schema
/// has `$def`s.
pub fn bottom_up(types: &Types) -> Vec<RustName> {
    let mut order = Vec::with_capacity(types.len());
    let mut entered: BTreeSet<&RustName> = BTreeSet::new();
    for root in types.keys() {
        let mut stack = vec![(root.clone(), false)];
        while let Some((name, children_done)) = stack.pop() {
            if children_done {
                order.push(name);
                continue;
            }
            let Some((key, def)) = types.get_key_value(&name) else {
                continue;
            };
            if !entered.insert(key) {
                continue;
            }
            stack.push((name, true));
            for (_, target) in by_value(&def.kind).into_iter().rev() {
                if !entered.contains(&target) {
                    stack.push((target, false));
                }
            }
        }
    }
    order
}

/// The estimated layout of every type of `module`.
pub fn estimate(types: &Types) -> Layouts {
    let mut known = Layouts::new();
    for name in bottom_up(types) {
        let layout = of_kind(&types[&name].kind, &known);
        known.insert(name, layout);
    }
    known
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::{Field, TypeDef, Union, UnionMode, Variant};

    fn field(name: &str, ty: Ty, required: bool) -> Field {
        Field::for_test(name, ty, required)
    }

    #[test]
    fn optional_members_cost_nothing_where_a_spare_value_exists() {
        let known = Layouts::new();
        let size = |t: Ty, required| of_member(&t, required, &known).size;
        assert_eq!(size(Ty::String, false), 24);
        assert_eq!(size(Ty::Boxed(Box::new(Ty::String)), false), 8);
        assert_eq!(size(Ty::Bool, false), 1);
        assert_eq!(size(Ty::I64, false), 16);
        assert_eq!(size(Ty::Unit, false), 1);
    }

    #[test]
    fn a_struct_pads_only_its_end_and_an_enum_pays_a_tag() {
        let s = Struct {
            fields: vec![
                field("a", Ty::Bool, true),
                field("b", Ty::I64, true),
                field("c", Ty::Bool, true),
            ],
            ..Struct::default()
        };
        let known = Layouts::new();
        assert_eq!(of_kind(&Kind::Struct(s), &known).size, 16);
        let u = Union {
            mode: UnionMode::JsonType,
            variants: vec![Variant {
                name: RustName::pascal("s"),
                ty: Ty::String,
                select: crate::model::ir::Select::JsonType("string".to_owned()),
            }],
        };
        assert_eq!(of_kind(&Kind::Union(u), &known).size, 32);
    }

    #[test]
    fn bottom_up_puts_what_a_type_holds_first() {
        let def = |name: &str, kind| TypeDef {
            name: RustName::pascal(name),
            pointer: String::new(),
            docs: None,
            kind,
        };
        let holds = |other: &str| {
            Kind::Struct(Struct {
                fields: vec![field("x", Ty::Named(RustName::pascal(other)), true)],
                ..Struct::default()
            })
        };
        let mut types = Types::default();
        for d in [
            def("A", holds("B")),
            def("B", holds("C")),
            def("C", Kind::Alias(Ty::String)),
        ] {
            types.insert(d.name.clone(), d);
        }
        let order: Vec<String> = bottom_up(&types).iter().map(|n| n.to_string()).collect();
        assert_eq!(order, ["C", "B", "A"]);
        assert_eq!(estimate(&types)[&RustName::pascal("A")].size, 24);
    }
}

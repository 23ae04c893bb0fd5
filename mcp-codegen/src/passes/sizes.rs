//! Keeps the generated types as small as clippy's default thresholds ask of the code that
//! holds them, so that a user writes no `Box` and allows no lint:
//!
//! - an error response, its error object and the object's data are kept under
//!   [`ERR_LIMIT`] bytes (`result_large_err` fires from 128 bytes: a handler's
//!   `Result<_, JSONRPCErrorResponse>`);
//! - a request, a notification and a result are kept at [`VARIANT_GAP`] bytes or under, so
//!   that each may sit in the user's own enum beside any other variant, even an empty one
//!   (`large_enum_variant` fires at more than 200 bytes between the largest and the
//!   second-largest variant: an enum of requests and a unit variant; an outcome enum of a
//!   small result of the user's and `InputRequiredResult`).
//!
//!   Such a type over its limit has its largest members boxed (those held by value and larger
//!   than [`WORTH_A_BOX`]) until it is within it; one made of strings and numbers alone stays
//!   as it is (a `String` is not boxed). The types only held inside these (parameters, content
//!   blocks, capabilities) are not shrunk for it: they are reached through the boxed member,
//!   or sit in a `Vec`. A successful response is not held whole either: it is built from its
//!   request and a result when it is sent, and its result read where it arrives;
//! - a union whose largest variant exceeds the second-largest by more than [`VARIANT_GAP`]
//!   bytes has that variant boxed (what `large_enum_variant` asks of the enum itself);
//! - a member or variant larger than [`HUGE`] is boxed wherever it is (a schema whose types
//!   each hold the next would otherwise give values of megabytes, which overflow a thread's
//!   stack when read).
//!
//! Sizes are [`layout`]'s estimates, an upper bound of the real ones. A boxed member is still
//! set with its value (the constructors and `with_` methods box it), read through the `Box`
//! (`Deref`), and serialized as the value it holds.

use std::collections::BTreeMap;

use crate::model::ir::{Kind, Roles, RustName, Struct, Ty, Types, Union};
use crate::passes::cycles::Acyclic;
use crate::passes::layout::{self, Layouts};
use crate::rules::jsonrpc_errors;

/// clippy's `result_large_err` threshold (`large-error-threshold`): an `Err` of this many
/// bytes or more is reported.
pub const ERR_LIMIT: usize = 128;

/// clippy's `large_enum_variant` threshold (`enum-variant-size-threshold`): a largest variant
/// more than this many bytes larger than the second-largest is reported.
pub const VARIANT_GAP: usize = 200;

/// A member is boxed to bring its holder within its limit only when larger than this (a box
/// saves its size less a pointer, and costs an allocation wherever the member is set).
const WORTH_A_BOX: usize = 64;

/// Above this size a member or variant is boxed whatever its holder.
const HUGE: usize = 64 << 10;

/// Boxes members and variants of `types`, each type after the types it holds by value. Takes
/// the `roles` (they name the types a user holds whole) and the proof that no type holds
/// itself by value, so it runs after both passes.
pub fn bound(types: &mut Types, roles: &Roles, _: Acyclic) {
    let limits = held_whole(types, roles);
    let mut known = Layouts::new();
    for name in layout::bottom_up(types) {
        let Some(def) = types.get_mut(&name) else {
            continue;
        };
        match &mut def.kind {
            Kind::Struct(s) => {
                let most = limits.get(&name).copied().unwrap_or(HUGE);
                shrink_struct(s, most, &known);
            }
            Kind::Union(u) => shrink_union(u, &known),
            Kind::Alias(_) | Kind::Results(_) | Kind::StringEnum(_) => {}
        }
        known.insert(name, layout::of_kind(&def.kind, &known));
    }
}

/// The types a user holds whole, in a variable, an enum of their own or a `Result`, with the
/// largest size each may have: the error responses with their parts, under [`ERR_LIMIT`];
/// the requests, notifications and results (the structs read by `resultType`), at most
/// [`VARIANT_GAP`].
pub fn held_whole(types: &Types, roles: &Roles) -> BTreeMap<RustName, usize> {
    let requests = roles.requests.iter().map(|r| r.ty.clone());
    let notifications = roles.notifications.iter().map(|n| n.ty.clone());
    let results = types.iter().filter_map(|(name, def)| match &def.kind {
        Kind::Struct(s) if s.result.is_some() => Some(name.clone()),
        _ => None,
    });
    let messages = requests.chain(notifications).chain(results);
    let mut limits: BTreeMap<RustName, usize> = messages.map(|n| (n, VARIANT_GAP)).collect();
    for error in jsonrpc_errors::payloads(types) {
        limits.insert(error, ERR_LIMIT - 1);
    }
    limits
}

/// Boxes the largest member worth a box while `s` is larger than `most` bytes, and every
/// member larger than [`HUGE`].
fn shrink_struct(s: &mut Struct, most: usize, known: &Layouts) {
    loop {
        let size = layout::of_struct(s, known).size;
        let largest = s
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| f.ty.by_value().is_some())
            .map(|(i, f)| (layout::of_member(&f.ty, f.required, known).size, i))
            // The largest; of equals, the first in schema order.
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        match largest {
            Some((member, i)) if member > HUGE || (size > most && member > WORTH_A_BOX) => {
                box_ty(&mut s.fields[i].ty);
            }
            _ => return,
        }
    }
}

/// Boxes the largest variant while clippy would report it or it is [`HUGE`].
fn shrink_union(u: &mut Union, known: &Layouts) {
    loop {
        let mut sizes: Vec<(usize, usize)> = u
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| (layout::of_ty(&v.ty, known).size, i))
            .collect();
        // Largest first; of equals, the first in schema order.
        sizes.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let Some(&(largest, i)) = sizes.first() else {
            return;
        };
        let second = sizes.get(1).map(|s| s.0);
        let reported = second.is_some_and(|second| largest - second > VARIANT_GAP);
        let ty = &mut u.variants[i].ty;
        if !(reported || largest > HUGE) || ty.by_value().is_none() {
            return;
        }
        box_ty(ty);
    }
}

fn box_ty(ty: &mut Ty) {
    let inner = std::mem::replace(ty, Ty::Unit);
    *ty = Ty::Boxed(Box::new(inner));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::{Field, ResultMode, Select, TypeDef, UnionMode, Variant};
    use crate::model::names::RustName;

    fn field(name: &str, ty: Ty, required: bool) -> Field {
        Field::for_test(name, ty, required)
    }

    fn named(name: &str) -> Ty {
        Ty::Named(RustName::pascal(name))
    }

    fn strings(n: usize) -> Kind {
        Kind::Struct(Struct {
            fields: (0..n)
                .map(|i| field(&format!("s{i}"), Ty::String, true))
                .collect(),
            ..Struct::default()
        })
    }

    fn module(defs: Vec<(&str, Kind)>) -> Types {
        let mut module = Types::default();
        for (name, kind) in defs {
            let name = RustName::pascal(name);
            let def = TypeDef {
                name: name.clone(),
                pointer: String::new(),
                docs: None,
                kind,
            };
            module.insert(name, def);
        }
        module
    }

    fn fields(module: &Types, name: &str) -> Vec<Ty> {
        match &module[&RustName::pascal(name)].kind {
            Kind::Struct(s) => s.fields.iter().map(|f| f.ty.clone()).collect(),
            Kind::Union(u) => u.variants.iter().map(|v| v.ty.clone()).collect(),
            _ => Vec::new(),
        }
    }

    fn boxed(ty: Ty) -> Ty {
        Ty::Boxed(Box::new(ty))
    }

    /// A struct of 24 + 96 + 72 + 48 = 240 bytes, a result when `result`.
    fn holder(result: bool) -> Vec<(&'static str, Kind)> {
        let holder = Struct {
            fields: vec![
                field("s", Ty::String, true),
                field("big", named("Big"), true),
                field("mid", named("Mid"), false),
                field("small", named("Small"), true),
            ],
            result: result.then_some(ResultMode::Default),
            ..Struct::default()
        };
        vec![
            ("Big", strings(4)),
            ("Mid", strings(3)),
            ("Small", strings(2)),
            ("Holder", Kind::Struct(holder)),
        ]
    }

    #[test]
    fn a_large_result_boxes_its_largest_members_until_within_the_variant_gap() {
        // Boxing the 96-byte member leaves 152 bytes: the others stay.
        let mut m = module(holder(true));
        let acyclic = crate::passes::cycles::break_cycles(&mut m).unwrap();
        bound(&mut m, &Roles::default(), acyclic);
        assert_eq!(
            fields(&m, "Holder"),
            [
                Ty::String,
                boxed(named("Big")),
                named("Mid"),
                named("Small")
            ]
        );
        assert!(layout::estimate(&m)[&RustName::pascal("Holder")].size <= VARIANT_GAP);
    }

    #[test]
    fn a_struct_no_user_holds_whole_or_made_of_strings_stays_as_it_is() {
        for defs in [holder(false), vec![("Strings", strings(8))]] {
            let mut m = module(defs);
            let before = m.clone();
            let acyclic = crate::passes::cycles::break_cycles(&mut m).unwrap();
            bound(&mut m, &Roles::default(), acyclic);
            assert_eq!(m, before);
        }
    }

    #[test]
    fn members_of_error_responses_are_boxed() {
        // A JSON-RPC error response (`error` of an object with `message`) whose error's data
        // holds 240 bytes of capabilities: the data boxes them (to 104 bytes), the error its
        // data (to 104 bytes), the response its error (to 48 bytes).
        let object = |fields: Vec<Field>| {
            Kind::Struct(Struct {
                fields,
                ..Struct::default()
            })
        };
        let with_strings = |mut fields: Vec<Field>, n: usize| {
            fields.extend((0..n).map(|i| field(&format!("s{i}"), Ty::String, true)));
            object(fields)
        };
        let mut m = module(vec![
            ("Caps", strings(10)),
            (
                "Data",
                with_strings(vec![field("caps", named("Caps"), true)], 4),
            ),
            (
                "Failure",
                with_strings(
                    vec![
                        field("message", Ty::String, true),
                        field("data", named("Data"), true),
                    ],
                    3,
                ),
            ),
            (
                "Refusal",
                with_strings(
                    vec![
                        field("id", Ty::I64, false),
                        field("error", named("Failure"), true),
                    ],
                    1,
                ),
            ),
        ]);
        let acyclic = crate::passes::cycles::break_cycles(&mut m).unwrap();
        bound(&mut m, &Roles::default(), acyclic);
        let first = |name: &str, n: usize| fields(&m, name).into_iter().take(n).collect::<Vec<_>>();
        assert_eq!(first("Data", 1), [boxed(named("Caps"))]);
        assert_eq!(first("Failure", 2), [Ty::String, boxed(named("Data"))]);
        assert_eq!(first("Refusal", 2), [Ty::I64, boxed(named("Failure"))]);
        let sizes = layout::estimate(&m);
        for name in ["Data", "Failure", "Refusal"] {
            assert!(sizes[&RustName::pascal(name)].size < ERR_LIMIT, "{name}");
        }
    }

    #[test]
    fn a_union_boxes_the_variant_clippy_would_report() {
        let union = |a: &str, b: &str| {
            let variant = |name: &str| Variant {
                name: RustName::pascal(name),
                ty: named(name),
                select: Select::JsonType("object".to_owned()),
            };
            Kind::Union(Union {
                mode: UnionMode::Shape,
                variants: vec![variant(a), variant(b)],
            })
        };
        // 24 and 240 bytes (the 240-byte struct of strings cannot shrink): 216 apart.
        // 24 and 216: 192 apart, not reported.
        let mut m = module(vec![
            ("One", strings(1)),
            ("Ten", strings(10)),
            ("Nine", strings(9)),
            ("Far", union("One", "Ten")),
            ("Near", union("One", "Nine")),
        ]);
        let acyclic = crate::passes::cycles::break_cycles(&mut m).unwrap();
        bound(&mut m, &Roles::default(), acyclic);
        assert_eq!(fields(&m, "Far"), [named("One"), boxed(named("Ten"))]);
        assert_eq!(fields(&m, "Near"), [named("One"), named("Nine")]);
    }
}

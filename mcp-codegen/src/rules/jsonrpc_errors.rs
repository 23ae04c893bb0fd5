//! How the error responses are built from their parts: the JSON-RPC error response from an
//! id, a code, a message and data, and the missing-capability error response from an id, a
//! message and the capabilities the client lacks. Each is a [`Literal`] read off the schema's
//! shapes; a shape that does not fit (a required member the parts do not fill, a member of
//! another type) gives none, and nothing is emitted for it.

use std::collections::BTreeMap;

use crate::model::ir::{
    CapabilityErrorBuild, CapabilityRule, ErrorBuild, Literal, Part, Slot, Step, Struct, Ty, Types,
};
use crate::model::names::{RustName, SchemaName};

/// The `$def`s of the JSON-RPC error response, by revision.
pub const ERROR_RESPONSES: &[&str] = &["JSONRPCErrorResponse", "JSONRPCError"];

/// JSON-RPC's members of an error response and of its error object.
const ID: &str = "id";
const ERROR: &str = "error";
const CODE: &str = "code";
const MESSAGE: &str = "message";
const DATA: &str = "data";
/// The member of the missing-capability error's data that lists the capabilities.
const REQUIRED_CAPABILITIES: &str = "requiredCapabilities";

/// One member of a literal to fill: by JSON key, with the type it must have and its part.
struct Want<'a> {
    json: &'a str,
    ty: Option<Ty>,
    required: bool,
    part: Part,
}

/// The JSON-RPC error response of the revision, built from every part.
pub fn error_response(
    types: &Types,
    rust_of: &BTreeMap<SchemaName, RustName>,
) -> Option<ErrorBuild> {
    let name = ERROR_RESPONSES
        .iter()
        .filter_map(|d| rust_of.get(*d))
        .find(|n| types.contains_key(*n))?;
    let (response, error) = error_member(types, name)?;
    let error = literal(
        types,
        &error,
        vec![
            param(CODE, Ty::I64, true, Slot::Code),
            param(MESSAGE, Ty::String, true, Slot::Message),
            data_param(types, &error),
        ],
    )?;
    with_id(types, response, error)
}

/// The missing-capability error response `name`, and how each rule's capability is set in
/// `capabilities`.
pub fn capability_error(
    types: &Types,
    name: &RustName,
    capabilities: &RustName,
    rules: &[CapabilityRule],
) -> Option<CapabilityErrorBuild> {
    let (response, error) = error_member(types, name)?;
    let data = types
        .structure(&error)?
        .field(DATA)
        .filter(|f| f.required)?;
    let Ty::Named(data_ty) = &data.ty else {
        return None;
    };
    let data = literal(
        types,
        data_ty,
        vec![param(
            REQUIRED_CAPABILITIES,
            Ty::Named(capabilities.clone()),
            true,
            Slot::Required,
        )],
    )?;
    let error = literal(
        types,
        &error,
        vec![
            param(MESSAGE, Ty::String, true, Slot::Message),
            Want {
                json: DATA,
                ty: None,
                required: true,
                part: Part::Literal(data),
            },
        ],
    )?;
    let mut requires: Vec<(String, Vec<Step>)> = Vec::new();
    for rule in rules {
        if requires.iter().any(|(needs, _)| *needs == rule.needs) {
            continue;
        }
        // A capability no member can hold has no arm: the message names it.
        if let Some(steps) = steps(types, capabilities, &rule.needs) {
            requires.push((rule.needs.clone(), steps));
        }
    }
    Some(CapabilityErrorBuild {
        response: with_id(types, response, error)?,
        capabilities: capabilities.clone(),
        requires,
    })
}

/// The types of the module's error responses and their parts: each struct with a required
/// `error` member that is a JSON-RPC error object (a struct with a `message` member), the
/// generic error response and each typed one; that member's type; and the type of the error
/// object's `data` member when it is a generated one.
pub fn payloads(types: &Types) -> Vec<RustName> {
    let mut out = Vec::new();
    for name in types.keys() {
        let Some((response, error)) = error_member(types, name) else {
            continue;
        };
        let Some(object) = types
            .structure(&error)
            .filter(|s| s.field(MESSAGE).is_some())
        else {
            continue;
        };
        let data = object.field(DATA).and_then(|f| f.ty.by_value()).cloned();
        out.extend([response, error].into_iter().chain(data));
    }
    out
}

/// The response struct `name` and the type of its required `error` member.
fn error_member(types: &Types, name: &RustName) -> Option<(RustName, RustName)> {
    let error = types.structure(name)?.field(ERROR).filter(|f| f.required)?;
    match &error.ty {
        Ty::Named(e) => Some((name.clone(), e.clone())),
        _ => None,
    }
}

/// The response `ty` from its id parameter and `error`.
fn with_id(types: &Types, ty: RustName, error: Literal) -> Option<ErrorBuild> {
    let id = types.structure(&ty)?.field(ID)?;
    let (id_ty, id_optional) = (id.ty.clone(), !id.required);
    let build = literal(
        types,
        &ty,
        vec![
            Want {
                json: ID,
                ty: Some(id_ty.clone()),
                required: !id_optional,
                part: Part::Param(Slot::Id),
            },
            Want {
                json: ERROR,
                ty: None,
                required: true,
                part: Part::Literal(error),
            },
        ],
    )?;
    Some(ErrorBuild {
        id: id_ty,
        id_optional,
        build,
    })
}

/// The error's optional `data` from the `Value` parameter: as is, or converted into the raw
/// JSON type of a raw member.
fn data_param<'a>(types: &Types, error: &RustName) -> Want<'a> {
    let is_raw = types
        .structure(error)
        .and_then(|s| s.field(DATA))
        .is_some_and(|f| f.ty == Ty::Raw);
    if !is_raw {
        return param(DATA, Ty::Value, false, Slot::Data);
    }
    Want {
        json: DATA,
        ty: Some(Ty::Raw),
        required: false,
        part: Part::ParamInto(Slot::Data),
    }
}

fn param(json: &str, ty: Ty, required: bool, slot: Slot) -> Want<'_> {
    Want {
        json,
        ty: Some(ty),
        required,
        part: Part::Param(slot),
    }
}

/// The literal of struct `ty` with `wants` filled: each must be a member of the wanted type
/// and presence, and every other member optional.
fn literal(types: &Types, ty: &RustName, wants: Vec<Want<'_>>) -> Option<Literal> {
    let s = types.structure(ty)?;
    let mut parts = Vec::new();
    for want in wants {
        let f = s.field(want.json)?;
        let fits = f.required == want.required && want.ty.as_ref().is_none_or(|t| *t == f.ty);
        if !fits {
            return None;
        }
        parts.push((f.rust.clone(), want.part));
    }
    let others_optional = s
        .fields
        .iter()
        .all(|f| !f.required || parts.iter().any(|(n, _)| *n == f.rust));
    others_optional.then(|| Literal {
        ty: ty.clone(),
        parts,
    })
}

/// The steps that set the dotted capability `needs` in `capabilities`: through optional
/// members of structs whose members are all optional (so they have a default), keys of
/// maps, and at the end a key of any JSON object (set to an empty object).
fn steps(types: &Types, capabilities: &RustName, needs: &str) -> Option<Vec<Step>> {
    let mut at = Ty::Named(capabilities.clone());
    let mut steps = Vec::new();
    let parts: Vec<&str> = needs.split('.').collect();
    for (i, part) in parts.iter().copied().enumerate() {
        match types.resolve(&at).clone() {
            Ty::Object if i + 1 == parts.len() => {
                steps.push(Step::ObjectKey(part.to_owned()));
                return Some(steps);
            }
            Ty::Named(name) => {
                let s = types.structure(&name).filter(|s| all_optional(s))?;
                let f = s.field(part).filter(|f| !f.required)?;
                steps.push(Step::Member(f.rust.clone()));
                at = f.ty.clone();
            }
            Ty::Map(item) => {
                steps.push(Step::Key(part.to_owned()));
                at = *item;
            }
            _ => return None,
        }
    }
    defaultable(types, &at).then_some(steps)
}

/// Whether the value a path ends at has a default: a struct of optional members, a map, any
/// object.
fn defaultable(types: &Types, ty: &Ty) -> bool {
    match types.resolve(ty) {
        Ty::Named(name) => types.structure(name).is_some_and(all_optional),
        Ty::Map(_) | Ty::Object => true,
        _ => false,
    }
}

fn all_optional(s: &Struct) -> bool {
    s.fields.iter().all(|f| !f.required)
}

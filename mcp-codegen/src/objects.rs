//! The structs that describe a JSON object schema (an elicitation form's requested schema):
//! a required map `properties` of property schemas, an optional list `required` of names,
//! every other member optional. Read off the shapes, in JSON Schema's own words; the runtime's
//! `ObjectSchema` builds them from named fields.

use crate::ir::{Kind, Module, ObjectSchemaRole, Struct, Ty};

/// JSON Schema's members of an object schema.
const PROPERTIES: &str = "properties";
const REQUIRED: &str = "required";

/// Every struct of `module` with the shape of an object schema, in name order.
pub fn object_schemas(module: &Module) -> Vec<ObjectSchemaRole> {
    module
        .types
        .iter()
        .filter_map(|(name, def)| match &def.kind {
            Kind::Struct(s) if !s.sealed => {
                role(s).map(|(properties, property, required)| ObjectSchemaRole {
                    ty: name.clone(),
                    properties,
                    property,
                    required,
                })
            }
            _ => None,
        })
        .collect()
}

fn role(s: &Struct) -> Option<(crate::names::RustName, Ty, crate::names::RustName)> {
    let properties = s.field(PROPERTIES).filter(|f| f.required)?;
    let Ty::Map(property) = &properties.ty else {
        return None;
    };
    let required = s
        .field(REQUIRED)
        .filter(|f| !f.required && f.ty == Ty::Vec(Box::new(Ty::String)))?;
    let others_optional = s.fields.iter().all(|f| !f.required || f.json == PROPERTIES);
    others_optional.then(|| {
        (
            properties.rust.clone(),
            (**property).clone(),
            required.rust.clone(),
        )
    })
}

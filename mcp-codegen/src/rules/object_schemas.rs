//! The structs that describe a JSON object schema (an elicitation form's requested schema):
//! a required map `properties` of property schemas, an optional list `required` of names,
//! every other member optional. Read off the shapes, in JSON Schema's own words; the runtime's
//! `ObjectSchema` builds them from named fields.

use crate::model::ir::{Kind, ObjectSchemaRole, Struct, Ty, Types};

/// JSON Schema's members of an object schema.
const PROPERTIES: &str = "properties";
const REQUIRED: &str = "required";

/// Every struct of `module` with the shape of an object schema, in name order.
pub fn object_schemas(types: &Types) -> Vec<ObjectSchemaRole> {
    types
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

fn role(
    s: &Struct,
) -> Option<(
    crate::model::names::RustName,
    Ty,
    crate::model::names::RustName,
)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::{Field, TypeDef};
    use crate::model::names::RustName;

    fn member(json: &str, ty: Ty, required: bool) -> Field {
        Field {
            json: json.to_owned(),
            rust: RustName::field(json),
            ty,
            required,
            written: required,
            docs: None,
        }
    }

    fn module(fields: Vec<Field>) -> Types {
        let name = RustName::pascal("Form");
        let def = TypeDef {
            name: name.clone(),
            pointer: "/$defs/Form".to_owned(),
            docs: None,
            kind: Kind::Struct(Struct {
                fields,
                ..Struct::default()
            }),
        };
        [(name, def)].into_iter().collect()
    }

    fn properties() -> Field {
        member("properties", Ty::Map(Box::new(Ty::Value)), true)
    }

    fn required() -> Field {
        member("required", Ty::Vec(Box::new(Ty::String)), false)
    }

    #[test]
    fn a_map_of_properties_and_a_list_of_names_is_an_object_schema() {
        let found = object_schemas(&module(vec![properties(), required()]));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].property, Ty::Value);
        assert_eq!(found[0].required, RustName::field("required"));
    }

    #[test]
    fn another_required_member_or_another_shape_is_not() {
        let title = member("title", Ty::String, true);
        assert!(object_schemas(&module(vec![properties(), required(), title])).is_empty());
        let flag = member("required", Ty::Bool, false);
        assert!(object_schemas(&module(vec![properties(), flag])).is_empty());
        let optional = member("properties", Ty::Map(Box::new(Ty::Value)), false);
        assert!(object_schemas(&module(vec![optional, required()])).is_empty());
    }
}

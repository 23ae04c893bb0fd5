//! The intermediate representation: one [`TypeDef`] per generated Rust item, independent of
//! JSON Schema syntax and of Rust tokens.

use std::collections::BTreeMap;

/// Every type to generate, keyed (and so ordered) by Rust name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Module {
    /// The type definitions, in name order (the output order, so output is deterministic).
    pub types: BTreeMap<String, TypeDef>,
}

/// One generated item.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    /// The Rust name.
    pub name: String,
    /// JSON pointer of the schema node it comes from.
    pub pointer: String,
    /// The schema's description.
    pub docs: Option<String>,
    /// What kind of item it is.
    pub kind: Kind,
}

/// The shape of a generated item.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A JSON object with known members.
    Struct(Struct),
    /// A closed set of strings.
    StringEnum(Vec<EnumValue>),
    /// An anyOf / oneOf, or a multi-type `type` list.
    Union(Union),
    /// `pub type Name = ...;`
    Alias(Ty),
    /// An outcome enum: the result union of a method that may answer `input_required`.
    Outcome(Outcome),
}

/// A struct for a JSON object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Struct {
    /// Members with a constant value: checked when read, written when serialized.
    pub constants: Vec<Constant>,
    /// The declared members, in schema order.
    pub fields: Vec<Field>,
    /// The Rust name of the field that keeps undeclared members, if lossless.
    pub extra: Option<String>,
    /// Set for result types.
    pub result: Option<ResultMode>,
    /// JSON keys of which at least one must be present.
    pub at_least_one_of: Vec<String>,
    /// Fields are private with accessors, and construction goes through `new`.
    pub sealed: bool,
}

/// How a result struct treats `resultType`.
#[derive(Debug, Clone, PartialEq)]
pub enum ResultMode {
    /// The type has one fixed value (e.g. `"complete"`).
    Fixed(String),
    /// The value is carried in a field of type `ResultType`.
    Field(String),
}

/// A member with a `const` value.
#[derive(Debug, Clone, PartialEq)]
pub struct Constant {
    /// The JSON key.
    pub json: String,
    /// The value.
    pub value: ConstValue,
    /// Whether the member may be missing.
    pub optional: bool,
}

/// A constant's value.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstValue {
    /// A string constant.
    Str(String),
    /// An integer constant.
    Int(i64),
}

/// A declared member.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The JSON key.
    pub json: String,
    /// The Rust field name.
    pub rust: String,
    /// The field's type, without the `Option` of an optional member.
    pub ty: Ty,
    /// Whether the member must be present.
    pub required: bool,
    /// The schema's description.
    pub docs: Option<String>,
}

/// One value of a string enum.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumValue {
    /// The wire value.
    pub json: String,
    /// The Rust variant name.
    pub rust: String,
}

/// A union type.
#[derive(Debug, Clone, PartialEq)]
pub struct Union {
    /// How a value picks its variant.
    pub mode: UnionMode,
    /// The variants, in the order the schema lists them (shape unions: the order they are tried).
    pub variants: Vec<Variant>,
}

/// How a union is read.
#[derive(Debug, Clone, PartialEq)]
pub enum UnionMode {
    /// By the constant value of one member.
    Tag(String),
    /// By the JSON type of the value.
    JsonType,
    /// By predicates on the object's members (unions with no discriminator).
    Shape,
    /// A union of result types: by `resultType`, the generic result taking every complete one.
    Results,
}

/// One variant of a union.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// The Rust variant name.
    pub name: String,
    /// The wrapped type.
    pub ty: Ty,
    /// What selects it.
    pub select: Select,
}

/// What selects a union variant.
#[derive(Debug, Clone, PartialEq)]
pub enum Select {
    /// The tag value, and whether a missing tag selects this variant.
    Tag {
        /// The constant.
        value: String,
        /// Selected when the tag is missing.
        default: bool,
    },
    /// The JSON type (`"string"`, `"integer"`, `"number"`, `"boolean"`, `"array"`, `"object"`,
    /// `"null"`).
    JsonType(String),
    /// Every predicate must hold.
    Shape(Vec<Predicate>),
    /// Union of results: the wrapped type's resultType.
    Result,
}

/// A test on an object's members.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Predicate {
    /// The member equals a string.
    Equals(String, String),
    /// The member is one of these strings.
    OneOf(String, Vec<String>),
    /// The member is present.
    Has(String),
    /// The member is absent.
    Lacks(String),
}

/// An outcome enum: `Complete(<X>Result)` or `InputRequired(InputRequiredResult)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The request type it answers.
    pub request: Option<String>,
    /// The complete result type.
    pub complete: String,
    /// The input-required result type.
    pub input_required: String,
}

/// A field or alias type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ty {
    /// A generated type.
    Named(String),
    /// A type outside the generated module, by full path (e.g. `::mcp_runtime::ResultType`).
    Path(String),
    /// `String`.
    String,
    /// `bool`.
    Bool,
    /// `i64`.
    I64,
    /// `u64` (integers with `minimum >= 0`).
    U64,
    /// `f64`.
    F64,
    /// Any JSON value.
    Value,
    /// Any JSON object.
    Object,
    /// `()` for `type: null`.
    Unit,
    /// `Vec<T>`.
    Vec(Box<Ty>),
    /// `BTreeMap<String, T>`.
    Map(Box<Ty>),
    /// `Box<T>`: breaks a recursive containment.
    Boxed(Box<Ty>),
}

impl Module {
    /// Whether a value of `ty` can be read from JSON `null`: any JSON value, `()`, an alias of
    /// one, or a union with a variant for `null`. An optional member of such a type keeps a
    /// present `null` (`#[mcp(keep_null)]`) instead of reading it as missing.
    pub fn accepts_null(&self, ty: &Ty) -> bool {
        let mut seen = std::collections::BTreeSet::new();
        let mut ty = ty;
        loop {
            match ty {
                Ty::Value | Ty::Unit => return true,
                Ty::Boxed(inner) => ty = inner,
                Ty::Named(name) => {
                    if !seen.insert(name.as_str()) {
                        return false;
                    }
                    match self.types.get(name).map(|d| &d.kind) {
                        Some(Kind::Alias(target)) => ty = target,
                        Some(Kind::Union(u)) => {
                            return u
                                .variants
                                .iter()
                                .any(|v| matches!(&v.select, Select::JsonType(t) if t == "null"));
                        }
                        _ => return false,
                    }
                }
                _ => return false,
            }
        }
    }
}

impl Ty {
    /// The generated types this one holds by value (not behind a Vec, map or Box).
    pub fn by_value(&self) -> Option<&str> {
        match self {
            Ty::Named(n) => Some(n),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(name: &str, kind: Kind) -> (String, TypeDef) {
        let def = TypeDef {
            name: name.to_owned(),
            pointer: format!("/$defs/{name}"),
            docs: None,
            kind,
        };
        (name.to_owned(), def)
    }

    fn variant(name: &str, ty: Ty, json: &str) -> Variant {
        Variant {
            name: name.to_owned(),
            ty,
            select: Select::JsonType(json.to_owned()),
        }
    }

    #[test]
    fn accepts_null_follows_aliases_and_json_type_unions() {
        let union = |with_null: bool| {
            let mut variants = vec![variant("String", Ty::String, "string")];
            if with_null {
                variants.push(variant("Null", Ty::Unit, "null"));
            }
            Kind::Union(Union {
                mode: UnionMode::JsonType,
                variants,
            })
        };
        let module = Module {
            types: [
                def("JSONValue", Kind::Alias(Ty::Value)),
                def("Again", Kind::Alias(Ty::Named("JSONValue".into()))),
                def("Loop", Kind::Alias(Ty::Named("Loop".into()))),
                def("Nullable", union(true)),
                def("NotNullable", union(false)),
                def("Object", Kind::Struct(Struct::default())),
            ]
            .into_iter()
            .collect(),
        };
        let named = |n: &str| Ty::Named(n.to_owned());
        for yes in [
            Ty::Value,
            Ty::Unit,
            named("JSONValue"),
            named("Again"),
            Ty::Boxed(Box::new(named("Nullable"))),
        ] {
            assert!(module.accepts_null(&yes), "{yes:?}");
        }
        for no in [
            Ty::String,
            Ty::Object,
            Ty::Vec(Box::new(Ty::Value)),
            named("Loop"),
            named("NotNullable"),
            named("Object"),
            named("Missing"),
        ] {
            assert!(!module.accepts_null(&no), "{no:?}");
        }
    }
}

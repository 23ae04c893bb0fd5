//! Lowering: JSON Schema (patched, `$ref`s by name) to the IR. One [`TypeDef`] per `$def`,
//! plus named types for the anonymous objects, enums and unions inside them. This module is the
//! pass itself (a `$def`'s kind, a member's type, inline enums, the recursion guard); objects
//! are lowered in `structs`, unions in `unions`.

mod cursor;
pub mod dispatch;
mod opaque;
mod structs;
mod unions;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::error::{SchemaError, SchemaResult};
use crate::input::keywords;
use crate::model::ir::{
    ConstValue, Constant, EnumValue, Field, Kind, ResultMode, Select, Struct, Ty, TypeDef, Types,
    Union, UnionMode, Variant,
};
use crate::model::names::{RustName, first_free};
use crate::model::pointer::{self, join};
use crate::passes::def_names::DefNames;
use crate::rules::protocol::{Protocol, ResultKind};
use crate::rules::results;
use cursor::Cursor;
use dispatch::{JsonType, Member, json_type_of, merge_array_members, shaped, string_enum, tagged};

/// How deep lowering may recurse before the generator refuses the schema (a guard against
/// hostile input): deeper than any schema the loader accepts ([`crate::input::load::MAX_NESTING`])
/// nests, so only `$ref`s that chain (or cycle) through allOf and union members reach it.
const MAX_DEPTH: usize = 2 * crate::input::load::MAX_NESTING;

/// Switches that change what is lowered.
#[derive(Debug, Clone)]
pub struct Options {
    /// Keep undeclared members in an `extra` field.
    pub lossless: bool,
    /// Members holding JSON the protocol does not interpret are raw text (see `opaque`).
    pub raw_json: bool,
}

/// Lowers the `$defs` of one schema.
pub struct Lowerer<'a> {
    defs: &'a Map<String, Value>,
    defs_key: &'a str,
    protocol: &'a Protocol,
    options: &'a Options,
    /// The Rust names of the `$def`s and outcome enums.
    names: &'a DefNames,
    types: Types,
    /// Inline enums shared by value set -> name.
    enums: BTreeMap<Vec<String>, RustName>,
    /// How often each inline enum value set occurs.
    enum_counts: BTreeMap<Vec<String>, usize>,
    /// Named unions by their list of `$ref`s, so an inline copy reuses the name.
    unions: BTreeMap<Vec<String>, RustName>,
}

fn obj<'v>(v: &'v Value, pointer: &str) -> SchemaResult<&'v Map<String, Value>> {
    match v {
        Value::Object(m) => Ok(m),
        Value::Bool(true) => Ok(empty_map()),
        _ => Err(SchemaError::new(pointer, "expected a schema object")),
    }
}

fn empty_map() -> &'static Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Map::new)
}

fn description(s: &Map<String, Value>) -> Option<String> {
    s.get("description")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

impl<'a> Lowerer<'a> {
    /// Prepares lowering of `defs` (the object under `defs_key`), whose `$def`s and outcome
    /// enums `names` has named.
    pub fn new(
        defs: &'a Map<String, Value>,
        defs_key: &'a str,
        protocol: &'a Protocol,
        names: &'a DefNames,
        options: &'a Options,
    ) -> Self {
        let mut l = Lowerer {
            defs,
            defs_key,
            protocol,
            options,
            names,
            types: Types::default(),
            enums: BTreeMap::new(),
            enum_counts: BTreeMap::new(),
            unions: BTreeMap::new(),
        };
        l.index();
        l
    }

    /// Pre-pass: counts inline enums and indexes named unions.
    fn index(&mut self) {
        fn walk(v: &Value, counts: &mut BTreeMap<Vec<String>, usize>, depth: usize) {
            if depth > MAX_DEPTH {
                return;
            }
            match v {
                Value::Object(m) => {
                    if let Some(values) = string_enum(m) {
                        *counts.entry(values).or_default() += 1;
                    }
                    for x in m.values() {
                        walk(x, counts, depth + 1);
                    }
                }
                Value::Array(a) => a.iter().for_each(|x| walk(x, counts, depth + 1)),
                _ => {}
            }
        }
        for def in self.defs.values() {
            if let Some(m) = def.as_object() {
                for x in m.values() {
                    walk(x, &mut self.enum_counts, 0);
                }
            }
        }
        for (name, def) in self.defs {
            if let Some(refs) = def
                .get("anyOf")
                .or_else(|| def.get("oneOf"))
                .and_then(|a| ref_list(a, self.defs_key))
            {
                self.unions
                    .entry(refs)
                    .or_insert_with(|| self.names.rust_of[name.as_str()].clone());
            }
        }
    }

    /// Lowers every `$def` and outcome enum and returns their types (what they are to the
    /// protocol is for the passes after this one).
    pub fn lower(mut self) -> SchemaResult<Types> {
        for (name, def) in self.defs {
            let at = Cursor::def(self.defs_key, name);
            let rust = self.names.rust_of[name.as_str()].clone();
            let s = obj(def, at.pointer())?;
            let docs = description(s);
            let kind = match self.protocol.rust_types.get(name.as_str()) {
                Some(path) => Kind::Alias(Ty::Path(path.clone())),
                None => self.def_kind(s, &at, &rust, Some(name))?,
            };
            self.insert(TypeDef {
                name: rust,
                pointer: at.pointer().to_owned(),
                docs,
                kind,
            });
        }
        for (response, o) in &self.protocol.outcomes {
            let pointer = pointer::def(self.defs_key, response.as_str());
            let def = results::outcome(
                self.protocol,
                &self.names.rust_of,
                &self.names.outcome_of[response],
                o,
                format!("{pointer}/properties/result"),
            );
            self.insert(def);
        }
        Ok(self.types)
    }

    fn insert(&mut self, def: TypeDef) {
        self.types.insert(def.name.clone(), def);
    }

    /// A fresh Rust name for an anonymous type, based on `hint`.
    fn fresh(&self, hint: RustName) -> RustName {
        let taken = |n: &RustName| self.types.contains_key(n) || self.names.taken.contains(n);
        first_free(&hint, |h, i| h.suffixed(i), taken)
    }

    fn resolve_ref(&self, target: &str, pointer: &str) -> SchemaResult<&'a str> {
        let Some(name) = pointer::referenced_def(target, self.defs_key) else {
            return Err(SchemaError::new(
                pointer,
                format!(
                    "unsupported $ref {target:?}: only references to #/{}/<name> are supported",
                    self.defs_key
                ),
            ));
        };
        self.defs
            .get_key_value(&name)
            .map(|(k, _)| k.as_str())
            .ok_or_else(|| {
                SchemaError::new(
                    pointer,
                    format!("unresolvable $ref {target:?}: there is no $def named {name:?}"),
                )
            })
    }

    /// The kind of a named type (a `$def` or a type made for an anonymous schema).
    fn def_kind(
        &mut self,
        s: &Map<String, Value>,
        at: &Cursor,
        rust: &RustName,
        def: Option<&str>,
    ) -> SchemaResult<Kind> {
        at.check_depth("schema nests too deeply")?;
        let pointer = at.pointer();
        keywords::check(s, pointer)?;
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let target = self.resolve_ref(r, pointer)?;
            return Ok(Kind::Alias(Ty::Named(self.names.rust_of[target].clone())));
        }
        if let Some(any) = s.get("anyOf").or_else(|| s.get("oneOf")) {
            let key = if s.contains_key("anyOf") {
                "anyOf"
            } else {
                "oneOf"
            };
            return self.union_kind(any, &at.at(key), rust);
        }
        if let Some(all) = s.get("allOf") {
            let merged = self.merge_all_of(all, &at.at("allOf"))?;
            let m = merged.as_object().expect("merge gives an object");
            return Ok(Kind::Struct(self.lower_struct(m, at, rust, def)?));
        }
        if let Some(values) = string_enum(s) {
            return Ok(Kind::StringEnum(enum_values(&values)));
        }
        if s.contains_key("enum") {
            return Err(SchemaError::new(
                join(pointer, "enum"),
                "unsupported enum: only enums of strings are supported",
            ));
        }
        if s.contains_key("const") {
            return Err(SchemaError::new(
                join(pointer, "const"),
                "unsupported const outside an object member",
            ));
        }
        match s.get("type") {
            Some(Value::Array(types)) => {
                let members = self.type_list_members(types, &join(pointer, "type"))?;
                self.json_type_union(members, pointer, rust)
            }
            Some(Value::String(t)) if t == "object" => self.object_kind(s, at, rust, def),
            None if s.contains_key("properties") || s.contains_key("additionalProperties") => {
                self.object_kind(s, at, rust, def)
            }
            _ => Ok(Kind::Alias(self.ty_of(
                &Value::Object(s.clone()),
                &at.deeper(),
                rust,
            )?)),
        }
    }

    /// The Rust type of a member or item schema; anonymous objects, enums and unions become
    /// named types built from `hint`.
    fn ty_of(&mut self, v: &Value, at: &Cursor, hint: &RustName) -> SchemaResult<Ty> {
        at.check_depth("schema nests too deeply")?;
        let pointer = at.pointer();
        let s = obj(v, pointer)?;
        keywords::check(s, pointer)?;
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let target = self.resolve_ref(r, pointer)?;
            return Ok(Ty::Named(self.names.rust_of[target].clone()));
        }
        if let Some(values) = string_enum(s) {
            return Ok(Ty::Named(self.inline_enum(values, pointer, hint, s)));
        }
        if let Some(refs) = s
            .get("anyOf")
            .or_else(|| s.get("oneOf"))
            .and_then(|a| ref_list(a, self.defs_key))
        {
            if let Some(name) = self.unions.get(&refs) {
                return Ok(Ty::Named(name.clone()));
            }
            // An anonymous union of $refs: later identical ones share its name.
            let ty = self.named_inline(s, at, hint)?;
            if let Ty::Named(name) = &ty {
                self.unions.insert(refs, name.clone());
            }
            return Ok(ty);
        }
        let structural = ["anyOf", "oneOf", "allOf", "enum", "const"];
        if structural.iter().any(|k| s.contains_key(*k)) || structs::declares_members(s) {
            return self.named_inline(s, at, hint);
        }
        match s.get("type") {
            None => {
                if s.contains_key("additionalProperties") || s.contains_key("properties") {
                    return self.map_ty(s, at, hint);
                }
                if s.contains_key("items") {
                    return Err(SchemaError::new(pointer, "`items` without `type: array`"));
                }
                Ok(Ty::Value)
            }
            Some(Value::String(t)) => match t.as_str() {
                "string" => Ok(Ty::String),
                "boolean" => Ok(Ty::Bool),
                "number" => Ok(Ty::F64),
                "null" => Ok(Ty::Unit),
                "integer" => Ok(if keywords::unsigned_integer(s) {
                    Ty::U64
                } else {
                    Ty::I64
                }),
                "array" => {
                    let items = match s.get("items") {
                        None => Ty::Value,
                        Some(items) => {
                            self.ty_of(items, &at.child("items"), &hint.suffixed("Item"))?
                        }
                    };
                    Ok(Ty::Vec(Box::new(items)))
                }
                "object" => self.map_ty(s, at, hint),
                other => Err(SchemaError::new(
                    join(pointer, "type"),
                    format!("unknown type {other:?}"),
                )),
            },
            Some(Value::Array(_)) => self.named_inline(s, at, hint),
            Some(_) => Err(SchemaError::new(
                join(pointer, "type"),
                "type must be a string or an array of strings",
            )),
        }
    }

    fn named_inline(
        &mut self,
        s: &Map<String, Value>,
        at: &Cursor,
        hint: &RustName,
    ) -> SchemaResult<Ty> {
        let pointer = at.pointer();
        let name = self.fresh(hint.clone());
        // Reserve the name before lowering the inside, which may name more types.
        self.insert(TypeDef {
            name: name.clone(),
            pointer: pointer.to_owned(),
            docs: None,
            kind: Kind::Alias(Ty::Value),
        });
        let kind = self.def_kind(s, &at.deeper(), &name, None)?;
        self.insert(TypeDef {
            name: name.clone(),
            pointer: pointer.to_owned(),
            docs: description(s),
            kind,
        });
        Ok(Ty::Named(name))
    }

    fn inline_enum(
        &mut self,
        values: Vec<String>,
        pointer: &str,
        hint: &RustName,
        s: &Map<String, Value>,
    ) -> RustName {
        if let Some(name) = self.enums.get(&values) {
            return name.clone();
        }
        let shared = self.enum_counts.get(&values).copied().unwrap_or(0) > 1;
        // A shared enum is named after its member (`cacheScope` -> `CacheScope`).
        let member = pointer::last_token(pointer);
        let name = if shared
            && !member.is_empty()
            && !member.chars().all(|c| c.is_ascii_digit())
            && member != "items"
        {
            self.fresh(RustName::pascal(&member))
        } else {
            self.fresh(hint.clone())
        };
        self.enums.insert(values.clone(), name.clone());
        let docs = if shared { None } else { description(s) };
        self.insert(TypeDef {
            name: name.clone(),
            pointer: pointer.to_owned(),
            docs,
            kind: Kind::StringEnum(enum_values(&values)),
        });
        name
    }
}

fn enum_values(values: &[String]) -> Vec<EnumValue> {
    let mut used = BTreeSet::new();
    values
        .iter()
        .map(|v| {
            let mut rust = RustName::pascal(v);
            while !used.insert(rust.clone()) {
                rust = rust.suffixed("_");
            }
            EnumValue {
                json: v.clone(),
                rust,
            }
        })
        .collect()
}

/// The `$def` names of an anyOf that lists only `$ref`s.
fn ref_list(any: &Value, defs_key: &str) -> Option<Vec<String>> {
    any.as_array()?
        .iter()
        .map(|v| pointer::referenced_def(v.get("$ref")?.as_str()?, defs_key))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::Predicate;
    use crate::model::names::SchemaName;
    use serde_json::json;

    fn ty(m: &Types, name: &str) -> Kind {
        m[&RustName::of_def(&SchemaName::new(name))].kind.clone()
    }

    fn lower(defs: Value) -> SchemaResult<Types> {
        let defs = defs.as_object().unwrap().clone();
        let protocol = Protocol::default();
        let options = Options {
            lossless: true,
            raw_json: false,
        };
        let names = DefNames::assign(&defs, "$defs", &protocol)?;
        Lowerer::new(&defs, "$defs", &protocol, &names, &options).lower()
    }

    #[test]
    fn tag_union_with_default() {
        let m = lower(json!({
            "A": {"type": "object", "properties": {"mode": {"const": "a", "type": "string"}}},
            "B": {"type": "object", "properties": {"mode": {"const": "b", "type": "string"}}, "required": ["mode"]},
            "U": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}
        }))
        .unwrap();
        let Kind::Union(u) = ty(&m, "U") else {
            panic!()
        };
        assert_eq!(u.mode, UnionMode::Tag("mode".into()));
        assert_eq!(
            u.variants[0].select,
            Select::Tag {
                value: "a".into(),
                default: true
            }
        );
        assert_eq!(
            u.variants[1].select,
            Select::Tag {
                value: "b".into(),
                default: false
            }
        );
    }

    #[test]
    fn json_type_union_of_type_list() {
        let m = lower(json!({"Id": {"type": ["string", "integer"]}})).unwrap();
        let Kind::Union(u) = ty(&m, "Id") else {
            panic!()
        };
        assert_eq!(u.mode, UnionMode::JsonType);
        assert_eq!(
            u.variants
                .iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>(),
            ["String", "Integer"]
        );
    }

    #[test]
    fn shape_union_prefers_the_specific() {
        let m = lower(json!({
            "N": {"type": "object", "properties": {"method": {"type": "string"}}, "required": ["method"]},
            "R": {"type": "object", "properties": {"method": {"type": "string"}, "id": {"type": "string"}}, "required": ["method", "id"]},
            "U": {"anyOf": [{"$ref": "#/$defs/N"}, {"$ref": "#/$defs/R"}]}
        }))
        .unwrap();
        let Kind::Union(u) = ty(&m, "U") else {
            panic!()
        };
        assert_eq!(u.mode, UnionMode::Shape);
        assert_eq!(u.variants[0].name.as_str(), "R");
        assert_eq!(
            u.variants[1].select,
            Select::Shape(vec![
                Predicate::Has("method".into()),
                Predicate::Lacks("id".into())
            ])
        );
    }

    /// The members' types of struct `name`, by JSON key.
    fn member_types(m: &Types, name: &str) -> Vec<(String, Ty)> {
        let Kind::Struct(s) = ty(m, name) else {
            panic!("{name} is not a struct")
        };
        s.fields.into_iter().map(|f| (f.json, f.ty)).collect()
    }

    #[test]
    fn an_object_declaring_no_member_is_the_map_however_it_is_spelled() {
        let m = lower(json!({"Caps": {"type": "object", "properties": {
            "bare": {"type": "object"},
            "open": {"type": "object", "additionalProperties": {}},
            "empty": {"type": "object", "properties": {}},
            "emptyOpen": {"type": "object", "properties": {}, "additionalProperties": true},
            "untyped": {"properties": {}}
        }}}))
        .unwrap();
        let types = member_types(&m, "Caps");
        assert!(types.iter().all(|(_, t)| *t == Ty::Object), "{types:?}");
        assert_eq!(m.len(), 1, "no type is generated for them");
    }

    #[test]
    fn an_object_with_members_or_closed_is_still_a_struct() {
        let m = lower(json!({"Caps": {"type": "object", "properties": {
            "members": {"type": "object", "properties": {"x": {"type": "string"}}},
            "required": {"type": "object", "properties": {}, "required": ["x"]},
            "closed": {"type": "object", "properties": {}, "additionalProperties": false}
        }}}))
        .unwrap();
        for (key, t) in member_types(&m, "Caps") {
            let Ty::Named(name) = t else {
                panic!("{key}: {t:?}")
            };
            assert!(matches!(m[&name].kind, Kind::Struct(_)), "{key}");
        }
    }

    #[test]
    fn collision_of_def_names_is_an_error() {
        let err = lower(json!({"a-b": {"type": "string"}, "a_b": {"type": "string"}})).unwrap_err();
        assert_eq!(err.pointer, "/$defs/a_b");
    }

    #[test]
    fn unknown_ref_is_an_error() {
        let err =
            lower(json!({"A": {"type": "object", "properties": {"x": {"$ref": "#/$defs/Nope"}}}}))
                .unwrap_err();
        assert_eq!(err.pointer, "/$defs/A/properties/x");
        assert!(err.message.contains("unresolvable"), "{}", err.message);
    }
}

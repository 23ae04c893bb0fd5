//! Lowering: JSON Schema (patched, `$ref`s by name) to the IR. One [`TypeDef`] per `$def`,
//! plus named types for the anonymous objects, enums and unions inside them.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::error::{SchemaError, SchemaResult, escape_token};
use crate::ir::{
    ConstValue, Constant, EnumValue, Field, Kind, Module, ResultMode, Select, Struct, Ty, TypeDef,
    Union, UnionMode, Variant,
};
use crate::keywords;
use crate::names::RustName;
use crate::naming::DefNames;
use crate::opaque;
use crate::protocol::{Protocol, ResultKind};
use crate::results;
use crate::union_dispatch::{
    JsonType, Member, json_type_of, merge_array_members, shaped, string_enum, tagged,
};

/// How deep lowering may recurse before the generator refuses the schema (a guard against
/// hostile input): deeper than any schema the loader accepts ([`crate::load::MAX_NESTING`])
/// nests, so only `$ref`s that chain (or cycle) through allOf and union members reach it.
const MAX_DEPTH: usize = 2 * crate::load::MAX_NESTING;

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
    module: Module,
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

/// One member of an object schema, where it is.
struct MemberAt<'s> {
    key: &'s String,
    pointer: String,
    /// Its schema; none for a required member the schema does not declare.
    schema: Option<&'s Value>,
    required: bool,
}

/// What a member lowers to.
enum Lowered {
    Field(Field),
    Constant(Constant),
}

/// The field names of one struct so far, so that each new one is made unique.
#[derive(Default)]
struct FieldNames(BTreeSet<RustName>);

impl FieldNames {
    /// `base`, or `base_2`, `base_3`, ... when taken.
    fn unique(&mut self, base: RustName) -> RustName {
        let mut name = base.clone();
        let mut i = 2usize;
        while self.0.contains(&name) {
            name = base.numbered(i);
            i += 1;
        }
        self.0.insert(name.clone());
        name
    }
}

/// The `properties` of an object schema (none: empty).
fn properties<'s>(
    s: &'s Map<String, Value>,
    pointer: &str,
) -> SchemaResult<&'s Map<String, Value>> {
    match s.get("properties") {
        None => Ok(empty_map()),
        Some(Value::Object(p)) => Ok(p),
        Some(_) => Err(SchemaError::new(
            join(pointer, "properties"),
            "properties must be an object",
        )),
    }
}

/// The `required` keys of an object schema.
fn required_keys(s: &Map<String, Value>, pointer: &str) -> SchemaResult<BTreeSet<String>> {
    let list = match s.get("required") {
        None => return Ok(BTreeSet::new()),
        Some(Value::Array(r)) => r,
        Some(_) => {
            return Err(SchemaError::new(
                join(pointer, "required"),
                "required must be an array",
            ));
        }
    };
    list.iter()
        .enumerate()
        .map(|(i, k)| {
            k.as_str().map(str::to_owned).ok_or_else(|| {
                SchemaError::new(
                    join(&join(pointer, "required"), &i.to_string()),
                    "required lists a non-string",
                )
            })
        })
        .collect()
}

/// A member's constant value: a string or an integer.
fn const_value(c: &Value, pointer: &str) -> SchemaResult<ConstValue> {
    match c {
        Value::String(v) => Ok(ConstValue::Str(v.clone())),
        Value::Number(n) => n
            .as_i64()
            .map(ConstValue::Int)
            .ok_or_else(|| unsupported_const(pointer)),
        _ => Err(unsupported_const(pointer)),
    }
}

fn unsupported_const(pointer: &str) -> SchemaError {
    SchemaError::new(
        join(pointer, "const"),
        "unsupported const: only string and integer constants are supported",
    )
}

fn join(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", escape_token(token))
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
            module: Module::default(),
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

    /// Lowers every `$def` and outcome enum and returns the module of their types (its roles
    /// and overview are the passes after this one).
    pub fn lower(mut self) -> SchemaResult<Module> {
        for (name, def) in self.defs {
            let pointer = join(&format!("/{}", self.defs_key), name);
            let rust = self.names.rust_of[name.as_str()].clone();
            let s = obj(def, &pointer)?;
            let docs = description(s);
            let kind = match self.protocol.rust_types.get(name.as_str()) {
                Some(path) => Kind::Alias(Ty::Path(path.clone())),
                None => self.def_kind(s, &pointer, &rust, Some(name), 0)?,
            };
            self.insert(TypeDef {
                name: rust,
                pointer,
                docs,
                kind,
            });
        }
        for (response, o) in &self.protocol.outcomes {
            let pointer = join(&format!("/{}", self.defs_key), response.as_str());
            let def = results::outcome(
                self.protocol,
                &self.names.rust_of,
                &self.names.outcome_of[response],
                o,
                format!("{pointer}/properties/result"),
            );
            self.insert(def);
        }
        Ok(self.module)
    }

    fn insert(&mut self, def: TypeDef) {
        self.module.types.insert(def.name.clone(), def);
    }

    /// A fresh Rust name for an anonymous type, based on `hint`.
    fn fresh(&self, hint: RustName) -> RustName {
        let taken =
            |n: &RustName| self.module.types.contains_key(n) || self.names.taken.contains(n);
        let mut name = hint.clone();
        let mut i = 2usize;
        while taken(&name) {
            name = hint.suffixed(i);
            i += 1;
        }
        name
    }

    fn resolve_ref(&self, target: &str, pointer: &str) -> SchemaResult<&'a str> {
        let prefix = format!("#/{}/", self.defs_key);
        let Some(name) = target.strip_prefix(&prefix) else {
            return Err(SchemaError::new(
                pointer,
                format!(
                    "unsupported $ref {target:?}: only references to {prefix}<name> are supported"
                ),
            ));
        };
        let name = crate::pointer::unescape_token(name);
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

    /// Follows `$ref`s (and single-member allOf) to the schema of an object, if it is one.
    fn object_schema(
        &self,
        s: &Map<String, Value>,
        pointer: &str,
        depth: usize,
    ) -> SchemaResult<Option<Value>> {
        if depth > MAX_DEPTH {
            return Err(SchemaError::new(
                pointer,
                "schema nests too deeply (or $refs form a cycle)",
            ));
        }
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let name = self.resolve_ref(r, pointer)?;
            let target = obj(&self.defs[name], pointer)?;
            return self.object_schema(
                target,
                &join(&format!("/{}", self.defs_key), name),
                depth + 1,
            );
        }
        if let Some(all) = s.get("allOf") {
            return self
                .merge_all_of(all, &join(pointer, "allOf"), depth + 1)
                .map(Some);
        }
        let is_object =
            s.get("type").and_then(Value::as_str) == Some("object") || s.contains_key("properties");
        Ok(is_object.then(|| Value::Object(s.clone())))
    }

    /// Merges the object schemas of an allOf into one.
    fn merge_all_of(&self, all: &Value, pointer: &str, depth: usize) -> SchemaResult<Value> {
        let list = all
            .as_array()
            .ok_or_else(|| SchemaError::new(pointer, "allOf must be an array"))?;
        let mut properties = Map::new();
        let mut required: Vec<Value> = Vec::new();
        for (i, member) in list.iter().enumerate() {
            let p = join(pointer, &i.to_string());
            let m = obj(member, &p)?;
            keywords::check(m, &p)?;
            let Some(Value::Object(o)) = self.object_schema(m, &p, depth + 1)? else {
                return Err(SchemaError::new(
                    p,
                    "unsupported allOf member: only object schemas can be merged",
                ));
            };
            if let Some(Value::Object(props)) = o.get("properties") {
                for (k, v) in props {
                    let merged = match (properties.remove(k), v) {
                        (Some(Value::Object(mut old)), Value::Object(new)) => {
                            // A refinement (e.g. `code: const -32020`) replaces the type keywords.
                            if new.contains_key("const")
                                || new.contains_key("$ref")
                                || new.contains_key("properties")
                            {
                                for key in [
                                    "type",
                                    "$ref",
                                    "anyOf",
                                    "enum",
                                    "properties",
                                    "required",
                                    "items",
                                ] {
                                    old.remove(key);
                                }
                            }
                            old.extend(new.clone());
                            Value::Object(old)
                        }
                        (_, v) => v.clone(),
                    };
                    properties.insert(k.clone(), merged);
                }
            }
            if let Some(Value::Array(r)) = o.get("required") {
                for k in r {
                    if !required.contains(k) {
                        required.push(k.clone());
                    }
                }
            }
        }
        let mut out = Map::new();
        out.insert("type".into(), "object".into());
        out.insert("properties".into(), Value::Object(properties));
        out.insert("required".into(), Value::Array(required));
        Ok(Value::Object(out))
    }

    /// The kind of a named type (a `$def` or a type made for an anonymous schema).
    fn def_kind(
        &mut self,
        s: &Map<String, Value>,
        pointer: &str,
        rust: &RustName,
        def: Option<&str>,
        depth: usize,
    ) -> SchemaResult<Kind> {
        if depth > MAX_DEPTH {
            return Err(SchemaError::new(pointer, "schema nests too deeply"));
        }
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
            return self.union_kind(any, &join(pointer, key), rust, depth);
        }
        if let Some(all) = s.get("allOf") {
            let merged = self.merge_all_of(all, &join(pointer, "allOf"), depth)?;
            let m = merged.as_object().expect("merge gives an object");
            return Ok(Kind::Struct(
                self.lower_struct(m, pointer, rust, def, depth)?,
            ));
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
            Some(Value::String(t)) if t == "object" => {
                self.object_kind(s, pointer, rust, def, depth)
            }
            None if s.contains_key("properties") || s.contains_key("additionalProperties") => {
                self.object_kind(s, pointer, rust, def, depth)
            }
            _ => Ok(Kind::Alias(self.ty_of(
                &Value::Object(s.clone()),
                pointer,
                rust,
                depth + 1,
            )?)),
        }
    }

    fn object_kind(
        &mut self,
        s: &Map<String, Value>,
        pointer: &str,
        rust: &RustName,
        def: Option<&str>,
        depth: usize,
    ) -> SchemaResult<Kind> {
        if s.contains_key("properties")
            || def.is_some_and(|d| self.protocol.results.contains_key(d))
        {
            return Ok(Kind::Struct(
                self.lower_struct(s, pointer, rust, def, depth)?,
            ));
        }
        Ok(Kind::Alias(self.map_ty(s, pointer, rust, depth)?))
    }

    /// The map type of an object schema without `properties`.
    fn map_ty(
        &mut self,
        s: &Map<String, Value>,
        pointer: &str,
        hint: &RustName,
        depth: usize,
    ) -> SchemaResult<Ty> {
        match s.get("additionalProperties") {
            None | Some(Value::Bool(true)) => Ok(Ty::Object),
            Some(Value::Object(m)) if m.keys().all(|k| k == "description") => Ok(Ty::Object),
            Some(Value::Bool(false)) => Ok(Ty::Object),
            Some(v) => {
                let inner = self.ty_of(
                    v,
                    &join(pointer, "additionalProperties"),
                    &hint.suffixed("Value"),
                    depth + 1,
                )?;
                Ok(Ty::Map(Box::new(inner)))
            }
        }
    }

    fn lower_struct(
        &mut self,
        s: &Map<String, Value>,
        pointer: &str,
        rust: &RustName,
        def: Option<&str>,
        depth: usize,
    ) -> SchemaResult<Struct> {
        let props = properties(s, pointer)?;
        let required = required_keys(s, pointer)?;
        let result = def.and_then(|d| self.protocol.results.get(d)).cloned();
        let mut st = Struct::default();
        let mut names = FieldNames::default();
        let props_ptr = join(pointer, "properties");
        // Declared members in schema order, then required members the schema does not declare.
        let undeclared = required.iter().filter(|k| !props.contains_key(*k));
        for key in props.keys().chain(undeclared) {
            let member = MemberAt {
                key,
                pointer: join(&props_ptr, key),
                schema: props.get(key),
                required: required.contains(key),
            };
            if key == crate::protocol::RESULT_TYPE && result.is_some() {
                if let Some(ResultKind::Generic) = result {
                    let rust = names.unique(RustName::field(key));
                    st.result = Some(ResultMode::Field(results::result_type_field(rust)));
                }
                continue;
            }
            match self.member(&member, rust, def, depth)? {
                Lowered::Field(mut f) => {
                    f.rust = names.unique(f.rust);
                    st.fields.push(f);
                }
                Lowered::Constant(c) => st.constants.push(c),
            }
        }
        if let Some(ResultKind::Fixed(v)) = &result {
            st.result = Some(results::fixed_mode(v));
            st.notes.push(results::fixed_note(v));
        }
        if self.options.lossless {
            st.extra = Some(names.unique(RustName::field("extra")));
        }
        self.seal(&mut st, pointer, def)?;
        Ok(st)
    }

    /// One member of an object: a constant, or a field (named before the struct makes its
    /// name unique).
    fn member(
        &mut self,
        m: &MemberAt<'_>,
        rust: &RustName,
        def: Option<&str>,
        depth: usize,
    ) -> SchemaResult<Lowered> {
        let field = |ty: Ty, required: bool, docs: Option<String>| {
            Lowered::Field(Field {
                json: m.key.clone(),
                rust: RustName::field(m.key),
                ty,
                required,
                docs,
            })
        };
        let Some(schema) = m.schema else {
            // Required but not declared: any JSON value.
            return Ok(field(Ty::Value, true, None));
        };
        let ps = obj(schema, &m.pointer)?;
        let hint = rust.suffixed(RustName::pascal(m.key).unraw());
        if let (Some(Value::String(c)), false) = (ps.get("const"), m.required) {
            // An optional string constant is a field of a one-value enum, so that a member
            // left out stays left out when written back.
            keywords::check(ps, &m.pointer)?;
            let name = self.inline_enum(vec![c.clone()], &m.pointer, &hint, ps);
            return Ok(field(Ty::Named(name), false, description(ps)));
        }
        if let Some(c) = ps.get("const") {
            keywords::check(ps, &m.pointer)?;
            return Ok(Lowered::Constant(Constant {
                json: m.key.clone(),
                value: const_value(c, &m.pointer)?,
                optional: !m.required,
            }));
        }
        let outcome = def
            .and_then(|d| self.names.outcome_of.get(d))
            .filter(|_| m.key == results::RESPONSE_RESULT);
        let ty = match outcome {
            Some(o) => Ty::Named(o.clone()),
            None if self.options.raw_json && opaque::is_opaque(ps) => {
                keywords::check(ps, &m.pointer)?;
                Ty::Raw
            }
            None => self.ty_of(schema, &m.pointer, &hint, depth + 1)?,
        };
        Ok(field(ty, m.required, description(ps)))
    }

    /// Applies the overlay's at-least-one-of rule of `def`: the fields become private, set
    /// through a checked constructor.
    fn seal(&self, st: &mut Struct, pointer: &str, def: Option<&str>) -> SchemaResult<()> {
        let Some(keys) = def.and_then(|d| self.protocol.at_least_one_of.get(d)) else {
            return Ok(());
        };
        for k in keys {
            if !st.fields.iter().any(|f| &f.json == k && !f.required) {
                return Err(SchemaError::new(
                    pointer.to_owned(),
                    format!(
                        "the overlay's at_least_one_of names `{k}`, which is not an optional member here"
                    ),
                ));
            }
        }
        st.at_least_one_of = keys.clone();
        st.sealed = true;
        Ok(())
    }

    /// The Rust type of a member or item schema; anonymous objects, enums and unions become
    /// named types built from `hint`.
    fn ty_of(
        &mut self,
        v: &Value,
        pointer: &str,
        hint: &RustName,
        depth: usize,
    ) -> SchemaResult<Ty> {
        if depth > MAX_DEPTH {
            return Err(SchemaError::new(pointer, "schema nests too deeply"));
        }
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
            let ty = self.named_inline(s, pointer, hint, depth)?;
            if let Ty::Named(name) = &ty {
                self.unions.insert(refs, name.clone());
            }
            return Ok(ty);
        }
        let structural = ["anyOf", "oneOf", "allOf", "enum", "const", "properties"];
        if structural.iter().any(|k| s.contains_key(*k)) {
            return self.named_inline(s, pointer, hint, depth);
        }
        match s.get("type") {
            None => {
                if s.contains_key("additionalProperties") {
                    return self.map_ty(s, pointer, hint, depth);
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
                "integer" => {
                    let unsigned = s
                        .get("minimum")
                        .and_then(Value::as_f64)
                        .is_some_and(|m| m >= 0.0)
                        || s.get("exclusiveMinimum")
                            .and_then(Value::as_f64)
                            .is_some_and(|m| m >= -1.0);
                    Ok(if unsigned { Ty::U64 } else { Ty::I64 })
                }
                "array" => {
                    let items = match s.get("items") {
                        None => Ty::Value,
                        Some(items) => self.ty_of(
                            items,
                            &join(pointer, "items"),
                            &hint.suffixed("Item"),
                            depth + 1,
                        )?,
                    };
                    Ok(Ty::Vec(Box::new(items)))
                }
                "object" => self.map_ty(s, pointer, hint, depth),
                other => Err(SchemaError::new(
                    join(pointer, "type"),
                    format!("unknown type {other:?}"),
                )),
            },
            Some(Value::Array(_)) => self.named_inline(s, pointer, hint, depth),
            Some(_) => Err(SchemaError::new(
                join(pointer, "type"),
                "type must be a string or an array of strings",
            )),
        }
    }

    fn named_inline(
        &mut self,
        s: &Map<String, Value>,
        pointer: &str,
        hint: &RustName,
        depth: usize,
    ) -> SchemaResult<Ty> {
        let name = self.fresh(hint.clone());
        // Reserve the name before lowering the inside, which may name more types.
        self.insert(TypeDef {
            name: name.clone(),
            pointer: pointer.to_owned(),
            docs: None,
            kind: Kind::Alias(Ty::Value),
        });
        let kind = self.def_kind(s, pointer, &name, None, depth + 1)?;
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
        let member = pointer.rsplit('/').next().unwrap_or_default();
        let name = if shared
            && !member.is_empty()
            && !member.chars().all(|c| c.is_ascii_digit())
            && member != "items"
        {
            self.fresh(RustName::pascal(&crate::pointer::unescape_token(member)))
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

    fn type_list_members<'s>(
        &self,
        types: &[Value],
        pointer: &str,
    ) -> SchemaResult<Vec<Member<'s>>> {
        let mut out = Vec::new();
        for (i, t) in types.iter().enumerate() {
            let p = join(pointer, &i.to_string());
            let jt = t
                .as_str()
                .and_then(JsonType::parse)
                .ok_or_else(|| SchemaError::new(&p, "unknown JSON type"))?;
            out.push(Member {
                name: RustName::pascal(jt.variant()),
                ty: jt.ty(),
                object: None,
                json: Some(jt),
                def: None,
            });
        }
        Ok(out)
    }

    fn union_kind(
        &mut self,
        any: &Value,
        pointer: &str,
        rust: &RustName,
        depth: usize,
    ) -> SchemaResult<Kind> {
        let list = any
            .as_array()
            .ok_or_else(|| SchemaError::new(pointer, "anyOf must be an array"))?;
        if list.is_empty() {
            return Err(SchemaError::new(pointer, "an empty anyOf matches nothing"));
        }
        let (flat, pointers) = match flatten_any_of(list, pointer) {
            Some((values, pointers)) => (Some(values), pointers),
            None => (None, Vec::new()),
        };
        let list = flat.as_deref().unwrap_or(list);
        // Each member with its index in `list`, whose pointer it keeps.
        let merged = merge_array_members(list);
        let indexed: Vec<(usize, &Value)> = match &merged {
            Some(m) => m.iter().map(|(at, v)| (*at, v)).collect(),
            None => list.iter().enumerate().collect(),
        };
        let mut members: Vec<Member<'a>> = Vec::new();
        for (i, (at, v)) in indexed.into_iter().enumerate() {
            let p = pointers
                .get(at)
                .cloned()
                .unwrap_or_else(|| join(pointer, &at.to_string()));
            let s = obj(v, &p)?;
            keywords::check(s, &p)?;
            if let Some(r) = s.get("$ref").and_then(Value::as_str) {
                let target = self.resolve_ref(r, &p)?;
                let tdef = obj(&self.defs[target], &p)?;
                let object = self.object_schema(tdef, &p, depth + 1)?;
                let json = json_type_of(tdef, object.is_some());
                members.push(Member {
                    name: self.names.rust_of[target].clone(),
                    ty: Ty::Named(self.names.rust_of[target].clone()),
                    object,
                    json,
                    def: Some(target),
                });
            } else if let Some(Value::Array(types)) = s.get("type") {
                members.extend(self.type_list_members(types, &join(&p, "type"))?);
            } else {
                let object = self.object_schema(s, &p, depth + 1)?;
                let json = json_type_of(s, object.is_some());
                let name = json
                    .map(|j| RustName::pascal(j.variant()))
                    .unwrap_or_else(|| RustName::pascal("Variant").suffixed(i));
                let ty = self.ty_of(v, &p, &rust.suffixed(name.unraw()), depth + 1)?;
                members.push(Member {
                    name,
                    ty,
                    object,
                    json,
                    def: None,
                });
            }
        }
        let mut defs_seen = BTreeSet::new();
        for m in &members {
            if m.def.is_some() && !defs_seen.insert(m.name.clone()) {
                return Err(SchemaError::new(
                    pointer,
                    format!("the union lists `{}` twice", m.name),
                ));
            }
        }
        // Anonymous members named like another member (two of one JSON type, or one named like
        // a `$def` in the list) get a numbered name no other member has: told apart (or
        // refused) below.
        let mut taken: BTreeSet<RustName> = members.iter().map(|m| m.name.clone()).collect();
        let mut seen = BTreeSet::new();
        for (i, m) in members.iter_mut().enumerate() {
            let clash =
                m.def.is_none() && (!seen.insert(m.name.clone()) || defs_seen.contains(&m.name));
            if clash {
                let name = (i..)
                    .map(|k| m.name.suffixed(k))
                    .find(|n| !taken.contains(n))
                    .expect("some number is free");
                taken.insert(name.clone());
                seen.insert(name.clone());
                m.name = name;
            }
        }
        if members
            .iter()
            .any(|m| m.def.is_some_and(|d| self.protocol.results.contains_key(d)))
        {
            return results::union_of_results(
                self.protocol,
                &self.names.rust_of,
                &members,
                pointer,
            );
        }
        if members.iter().all(|m| m.object.is_some()) {
            if let Some(u) = tagged(&members) {
                return Ok(Kind::Union(u));
            }
            return Ok(Kind::Union(shaped(&members)));
        }
        self.json_type_union(members, pointer, rust)
    }

    fn json_type_union(
        &mut self,
        members: Vec<Member<'a>>,
        pointer: &str,
        rust: &RustName,
    ) -> SchemaResult<Kind> {
        let mut by_type: BTreeMap<JsonType, Vec<Member<'a>>> = BTreeMap::new();
        for m in members {
            let Some(j) = m.json else {
                return Err(SchemaError::new(
                    pointer,
                    format!(
                        "cannot tell the members of this union apart: `{}` has no JSON type, constant tag or required members to dispatch on",
                        m.name
                    ),
                ));
            };
            by_type.entry(j).or_default().push(m);
        }
        let mut variants = Vec::new();
        for (j, group) in by_type {
            if group.len() == 1 {
                let m = group.into_iter().next().expect("one");
                variants.push(Variant {
                    name: m.name,
                    ty: m.ty,
                    select: Select::JsonType(j.name().to_owned()),
                });
                continue;
            }
            if j != JsonType::Object {
                return Err(SchemaError::new(
                    pointer,
                    format!(
                        "cannot tell the members of this union apart: several are of JSON type {}",
                        j.name()
                    ),
                ));
            }
            // Several objects: an inner union of the objects (reusing a named one if identical).
            let refs: Vec<String> = group
                .iter()
                .filter_map(|m| m.def.map(str::to_owned))
                .collect();
            let inner = match self.unions.get(&refs).filter(|_| refs.len() == group.len()) {
                Some(n) => n.clone(),
                None => {
                    let name = self.fresh(rust.suffixed("Object"));
                    let u = tagged(&group).unwrap_or_else(|| shaped(&group));
                    self.insert(TypeDef {
                        name: name.clone(),
                        pointer: pointer.to_owned(),
                        docs: None,
                        kind: Kind::Union(u),
                    });
                    name
                }
            };
            variants.push(Variant {
                name: RustName::pascal(JsonType::Object.variant()),
                ty: Ty::Named(inner),
                select: Select::JsonType("object".to_owned()),
            });
        }
        Ok(Kind::Union(Union {
            mode: UnionMode::JsonType,
            variants,
        }))
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

/// The members of an anyOf with the members of anyOfs nested in it spliced in (an anyOf of
/// anyOfs matches what the flat list matches), with the pointer of each; `None` when no member
/// is a plain nested anyOf. Keeps its own stack: the nesting may be hundreds deep.
fn flatten_any_of(list: &[Value], pointer: &str) -> Option<(Vec<Value>, Vec<String>)> {
    let plain_any_of = |v: &Value| {
        v.as_object().is_some_and(|m| {
            m.get("anyOf").is_some_and(Value::is_array)
                && m.keys()
                    .all(|k| matches!(k.as_str(), "anyOf" | "description" | "title" | "$comment"))
        })
    };
    if !list.iter().any(plain_any_of) {
        return None;
    }
    let (mut values, mut pointers) = (Vec::new(), Vec::new());
    let mut stack: Vec<(&Value, String)> = list
        .iter()
        .enumerate()
        .rev()
        .map(|(i, v)| (v, join(pointer, &i.to_string())))
        .collect();
    while let Some((v, p)) = stack.pop() {
        if plain_any_of(v) {
            let inner = v["anyOf"].as_array().expect("checked");
            let base = join(&p, "anyOf");
            stack.extend(
                inner
                    .iter()
                    .enumerate()
                    .rev()
                    .map(|(i, x)| (x, join(&base, &i.to_string()))),
            );
        } else {
            values.push(v.clone());
            pointers.push(p);
        }
    }
    Some((values, pointers))
}

/// The `$def` names of an anyOf that lists only `$ref`s.
fn ref_list(any: &Value, defs_key: &str) -> Option<Vec<String>> {
    let prefix = format!("#/{defs_key}/");
    any.as_array()?
        .iter()
        .map(|v| {
            v.get("$ref")?
                .as_str()?
                .strip_prefix(&prefix)
                .map(str::to_owned)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Predicate;
    use crate::names::SchemaName;
    use serde_json::json;

    fn ty(m: &Module, name: &str) -> Kind {
        m.types[&RustName::of_def(&SchemaName::new(name))]
            .kind
            .clone()
    }

    fn lower(defs: Value) -> SchemaResult<Module> {
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

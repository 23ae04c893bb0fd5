//! Lowering objects: an object schema (its `properties`, `required`, `allOf`, constants and
//! `additionalProperties`) to a struct or a map, and the overlay-given at-least-one-of rule
//! (from the protocol model) that seals a struct.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::*;

/// One member of an object schema, where it is.
struct MemberAt<'s> {
    key: &'s String,
    at: Cursor,
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
        let name = first_free(&base, RustName::numbered, |n| self.0.contains(n));
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

/// Whether an object schema with `properties` says anything a struct would hold: members
/// (`properties` that is not an empty object, a `required` that is not an empty list) or that
/// it is closed (`additionalProperties: false`). One that says none
/// (`{"type": "object", "properties": {}}`) is any object, as one without `properties` is:
/// both are the map type, however the schema spells it.
pub(super) fn declares_members(s: &Map<String, Value>) -> bool {
    let non_empty = |key: &str| match s.get(key) {
        None => false,
        Some(Value::Object(o)) => !o.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(_) => true,
    };
    s.contains_key("properties")
        && (non_empty("properties")
            || non_empty("required")
            || s.get("additionalProperties") == Some(&Value::Bool(false)))
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

impl<'a> Lowerer<'a> {
    /// Follows `$ref`s (and single-member allOf) to the schema of an object, if it is one.
    pub(super) fn object_schema(
        &self,
        s: &Map<String, Value>,
        at: &Cursor,
    ) -> SchemaResult<Option<Value>> {
        at.check_depth("schema nests too deeply (or $refs form a cycle)")?;
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let name = self.resolve_ref(r, at.pointer())?;
            let target = obj(&self.defs[name], at.pointer())?;
            let there = at.relocated(pointer::def(self.defs_key, name)).deeper();
            return self.object_schema(target, &there);
        }
        if let Some(all) = s.get("allOf") {
            return self.merge_all_of(all, &at.child("allOf")).map(Some);
        }
        let is_object =
            s.get("type").and_then(Value::as_str) == Some("object") || s.contains_key("properties");
        Ok(is_object.then(|| Value::Object(s.clone())))
    }

    /// Merges the object schemas of an allOf into one.
    pub(super) fn merge_all_of(&self, all: &Value, at: &Cursor) -> SchemaResult<Value> {
        let list = all
            .as_array()
            .ok_or_else(|| at.error("allOf must be an array"))?;
        let mut properties = Map::new();
        let mut required: Vec<Value> = Vec::new();
        for (i, member) in list.iter().enumerate() {
            let p = at.at(&i.to_string());
            let m = obj(member, p.pointer())?;
            keywords::check(m, p.pointer())?;
            let Some(Value::Object(o)) = self.object_schema(m, &p.deeper())? else {
                return Err(p.error("unsupported allOf member: only object schemas can be merged"));
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

    pub(super) fn object_kind(
        &mut self,
        s: &Map<String, Value>,
        at: &Cursor,
        rust: &RustName,
        def: Option<&str>,
    ) -> SchemaResult<Kind> {
        if declares_members(s) || def.is_some_and(|d| self.protocol.results.contains_key(d)) {
            return Ok(Kind::Struct(self.lower_struct(s, at, rust, def)?));
        }
        Ok(Kind::Alias(self.map_ty(s, at, rust)?))
    }

    /// The map type of an object schema without `properties`.
    pub(super) fn map_ty(
        &mut self,
        s: &Map<String, Value>,
        at: &Cursor,
        hint: &RustName,
    ) -> SchemaResult<Ty> {
        match s.get("additionalProperties") {
            None | Some(Value::Bool(true)) => Ok(Ty::Object),
            Some(Value::Object(m)) if m.keys().all(|k| k == "description") => Ok(Ty::Object),
            Some(Value::Bool(false)) => Ok(Ty::Object),
            Some(v) => {
                let at = at.child("additionalProperties");
                let inner = self.ty_of(v, &at, &hint.suffixed("Value"))?;
                Ok(Ty::Map(Box::new(inner)))
            }
        }
    }

    pub(super) fn lower_struct(
        &mut self,
        s: &Map<String, Value>,
        at: &Cursor,
        rust: &RustName,
        def: Option<&str>,
    ) -> SchemaResult<Struct> {
        let props = properties(s, at.pointer())?;
        let required = required_keys(s, at.pointer())?;
        let lenient = self.lenient_on_read(def, props, &required, at.pointer())?;
        let result = def.and_then(|d| self.protocol.results.get(d)).cloned();
        let mut st = Struct::default();
        let mut names = FieldNames::default();
        let props_at = at.at("properties");
        // Declared members in schema order, then required members the schema does not declare.
        let undeclared = required.iter().filter(|k| !props.contains_key(*k));
        for key in props.keys().chain(undeclared) {
            let member = MemberAt {
                key,
                at: props_at.at(key),
                schema: props.get(key),
                required: required.contains(key) && !lenient.contains(key),
            };
            if key == crate::rules::protocol::RESULT_TYPE && result.is_some() {
                if let Some(ResultKind::Generic) = result {
                    let rust = names.unique(RustName::field(key));
                    st.result = Some(ResultMode::Field(results::result_type_field(rust)));
                }
                continue;
            }
            match self.member(&member, rust, def)? {
                Lowered::Field(mut f) => {
                    f.rust = names.unique(f.rust);
                    f.written |= lenient.contains(key);
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
        self.seal(&mut st, at.pointer(), def)?;
        Ok(st)
    }

    /// One member of an object: a constant, or a field (named before the struct makes its
    /// name unique).
    fn member(
        &mut self,
        m: &MemberAt<'_>,
        rust: &RustName,
        def: Option<&str>,
    ) -> SchemaResult<Lowered> {
        let pointer = m.at.pointer();
        let field = |ty: Ty, required: bool, docs: Option<String>| {
            Lowered::Field(Field {
                json: m.key.clone(),
                rust: RustName::field(m.key),
                ty,
                required,
                written: required,
                docs,
            })
        };
        let Some(schema) = m.schema else {
            // Required but not declared: any JSON value.
            return Ok(field(Ty::Value, true, None));
        };
        let ps = obj(schema, pointer)?;
        let hint = rust.suffixed(RustName::pascal(m.key).unraw());
        if let (Some(Value::String(c)), false) = (ps.get("const"), m.required) {
            // An optional string constant is a field of a one-value enum, so that a member
            // left out stays left out when written back.
            keywords::check(ps, pointer)?;
            let name = self.inline_enum(vec![c.clone()], pointer, &hint, ps);
            return Ok(field(Ty::Named(name), false, description(ps)));
        }
        if let Some(c) = ps.get("const") {
            keywords::check(ps, pointer)?;
            return Ok(Lowered::Constant(Constant {
                json: m.key.clone(),
                value: const_value(c, pointer)?,
                optional: !m.required,
            }));
        }
        let outcome = def
            .and_then(|d| self.names.outcome_of.get(d))
            .filter(|_| m.key == results::RESPONSE_RESULT);
        let ty = match outcome {
            Some(o) => Ty::Named(o.clone()),
            None if self.options.raw_json && opaque::is_opaque(ps) => {
                keywords::check(ps, pointer)?;
                Ty::Raw
            }
            None => self.ty_of(schema, &m.at.deeper(), &hint)?,
        };
        Ok(field(ty, m.required, description(ps)))
    }

    /// The members of `def` the overlay's `lenient_on_read` names: each a declared, required
    /// member of a struct without an at-least-one-of rule, or the error says which is not.
    fn lenient_on_read(
        &self,
        def: Option<&str>,
        props: &Map<String, Value>,
        required: &BTreeSet<String>,
        pointer: &str,
    ) -> SchemaResult<Vec<String>> {
        let Some(keys) = def.and_then(|d| self.protocol.lenient_on_read.get(d)) else {
            return Ok(Vec::new());
        };
        let refused = |why: String| Err(SchemaError::new(pointer.to_owned(), why));
        if def.is_some_and(|d| self.protocol.at_least_one_of.contains_key(d)) {
            return refused(
                "the overlay names this $def in both lenient_on_read and at_least_one_of, which \
                 cannot be combined"
                    .to_owned(),
            );
        }
        for k in keys {
            if !props.contains_key(k) || !required.contains(k) {
                return refused(format!(
                    "the overlay's lenient_on_read names `{k}`, which is not a declared required member here"
                ));
            }
        }
        Ok(keys.clone())
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
}

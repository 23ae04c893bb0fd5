//! How a union's members are told apart: by a constant tag, by JSON type, or (where the
//! schema gives no discriminator) by the members present. Pure functions on resolved members;
//! the lowering stage resolves `$ref`s and builds the members.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::model::ir::{Predicate, Select, Ty, Union, UnionMode, Variant};
use crate::model::names::RustName;

/// The JSON type a union member accepts, for dispatch by JSON type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum JsonType {
    Object,
    Array,
    String,
    Integer,
    Number,
    Boolean,
    Null,
}

impl JsonType {
    pub(crate) fn parse(s: &str) -> Option<JsonType> {
        Some(match s {
            "object" => JsonType::Object,
            "array" => JsonType::Array,
            "string" => JsonType::String,
            "integer" => JsonType::Integer,
            "number" => JsonType::Number,
            "boolean" => JsonType::Boolean,
            "null" => JsonType::Null,
            _ => return None,
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            JsonType::Object => "object",
            JsonType::Array => "array",
            JsonType::String => "string",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::Boolean => "boolean",
            JsonType::Null => "null",
        }
    }

    pub(crate) fn variant(self) -> &'static str {
        match self {
            JsonType::Object => "Object",
            JsonType::Array => "Array",
            JsonType::String => "String",
            JsonType::Integer => "Integer",
            JsonType::Number => "Number",
            JsonType::Boolean => "Boolean",
            JsonType::Null => "Null",
        }
    }

    pub(crate) fn ty(self) -> Ty {
        match self {
            JsonType::Object => Ty::Object,
            JsonType::Array => Ty::Vec(Box::new(Ty::Value)),
            JsonType::String => Ty::String,
            JsonType::Integer => Ty::I64,
            JsonType::Number => Ty::F64,
            JsonType::Boolean => Ty::Bool,
            JsonType::Null => Ty::Unit,
        }
    }
}

/// The values of a string `enum`, sorted as the schema lists them.
pub(crate) fn string_enum(s: &Map<String, Value>) -> Option<Vec<String>> {
    let values = s.get("enum")?.as_array()?;
    values
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// A union member, resolved.
pub(crate) struct Member<'s> {
    pub(crate) name: RustName,
    pub(crate) ty: Ty,
    /// The object schema behind it (after `$ref`s and allOf), when it is an object.
    pub(crate) object: Option<Value>,
    pub(crate) json: Option<JsonType>,
    /// The `$def` it refers to, if any.
    pub(crate) def: Option<&'s str>,
}

/// Several array members whose items are unions (JSON-RPC batch requests and batch
/// responses) cannot be told apart by JSON type: they become one array member whose items are
/// the union of all their items, each item then read by its own discriminator. Each member of
/// the result comes with the index in `list` it stands for (the merged array: the first
/// array's), so that errors point at the member the schema wrote.
pub(crate) fn merge_array_members(list: &[Value]) -> Option<Vec<(usize, Value)>> {
    let is_union_array = |v: &Value| {
        v.get("type").and_then(Value::as_str) == Some("array")
            && v.get("items")
                .is_some_and(|i| i.get("anyOf").is_some_and(Value::is_array))
    };
    let arrays: Vec<usize> = (0..list.len())
        .filter(|&i| is_union_array(&list[i]))
        .collect();
    if arrays.len() < 2 {
        return None;
    }
    let mut items: Vec<Value> = Vec::new();
    for &i in &arrays {
        for member in list[i]["items"]["anyOf"].as_array().into_iter().flatten() {
            if !items.contains(member) {
                items.push(member.clone());
            }
        }
    }
    let merged = serde_json::json!({"type": "array", "items": {"anyOf": items}});
    let mut out = Vec::new();
    for (i, v) in list.iter().enumerate() {
        if i == arrays[0] {
            out.push((i, merged.clone()));
        } else if !arrays.contains(&i) {
            out.push((i, v.clone()));
        }
    }
    Some(out)
}

pub(crate) fn json_type_of(s: &Map<String, Value>, is_object: bool) -> Option<JsonType> {
    if is_object {
        return Some(JsonType::Object);
    }
    match s.get("type") {
        Some(Value::String(t)) => JsonType::parse(t),
        None if s.contains_key("items") => Some(JsonType::Array),
        _ => None,
    }
}

pub(crate) fn consts(o: &Value) -> BTreeMap<String, String> {
    o.get("properties")
        .and_then(Value::as_object)
        .map(|p| {
            p.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.get("const")?.as_str()?.to_owned())))
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) fn required(o: &Value) -> BTreeSet<String> {
    o.get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) fn declared(o: &Value) -> BTreeSet<String> {
    o.get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

/// A tagged union, if every member has a distinct constant under one key (`method`, `type`,
/// `mode`, then any other), at most one member not requiring it (the default).
pub(crate) fn tagged(members: &[Member<'_>]) -> Option<Union> {
    let all: Vec<BTreeMap<String, String>> = members
        .iter()
        .map(|m| consts(m.object.as_ref().expect("object")))
        .collect();
    let mut keys: Vec<String> = all
        .first()?
        .keys()
        .filter(|k| all.iter().all(|c| c.contains_key(*k)))
        .cloned()
        .collect();
    keys.sort_by_key(|k| {
        (
            ["method", "type", "mode"]
                .iter()
                .position(|p| p == k)
                .unwrap_or(3),
            k.clone(),
        )
    });
    'key: for key in keys {
        let values: BTreeSet<&String> = all.iter().map(|c| &c[&key]).collect();
        if values.len() != members.len() {
            continue;
        }
        let mut variants = Vec::new();
        let mut defaults = 0;
        for (m, c) in members.iter().zip(&all) {
            let default = !required(m.object.as_ref().expect("object")).contains(&key);
            defaults += usize::from(default);
            if defaults > 1 {
                continue 'key;
            }
            variants.push(Variant {
                name: m.name.clone(),
                ty: m.ty.clone(),
                select: Select::Tag {
                    value: c[&key].clone(),
                    default,
                },
            });
        }
        return Some(Union {
            mode: UnionMode::Tag(key),
            variants,
        });
    }
    None
}

/// A union read by the members present: each variant gets the predicates its required members
/// and constants give, plus `lacks` predicates that tell it from any variant whose predicates
/// include its own; the most specific variants are tried first.
pub(crate) fn shaped(members: &[Member<'_>]) -> Union {
    struct Info {
        positives: BTreeSet<Predicate>,
        required: BTreeSet<String>,
        declared: BTreeSet<String>,
        object: Value,
    }
    let infos: Vec<Info> = members
        .iter()
        .map(|m| {
            let o = m.object.clone().expect("object");
            let req = required(&o);
            let cs = consts(&o);
            let mut positives = BTreeSet::new();
            for k in &req {
                let prop = o.get("properties").and_then(|p| p.get(k));
                if let Some(v) = cs.get(k) {
                    positives.insert(Predicate::Equals(k.clone(), v.clone()));
                } else if let Some(values) = prop.and_then(Value::as_object).and_then(string_enum) {
                    positives.insert(Predicate::OneOf(k.clone(), values));
                } else {
                    positives.insert(Predicate::Has(k.clone()));
                }
            }
            Info {
                positives,
                required: req,
                declared: declared(&o),
                object: o,
            }
        })
        .collect();
    let mut variants: Vec<(usize, Variant)> = Vec::new();
    for (i, m) in members.iter().enumerate() {
        let me = &infos[i];
        let mut preds: Vec<Predicate> = me.positives.iter().cloned().collect();
        let mut lacks = BTreeSet::new();
        for (j, other) in infos.iter().enumerate() {
            if i == j || !other.positives.is_superset(&me.positives) {
                continue;
            }
            let same = other.positives == me.positives;
            for k in &other.required {
                if !me.declared.contains(k) {
                    lacks.insert(k.clone());
                }
            }
            if same {
                for k in other.declared.difference(&me.declared) {
                    lacks.insert(k.clone());
                }
                if other.declared == me.declared {
                    // Same members: look one level down, at required members of nested objects.
                    for k in me.required.intersection(&other.required) {
                        let mine = nested_required(&me.object, k);
                        let theirs = nested_required(&other.object, k);
                        for x in mine.difference(&theirs) {
                            preds.push(Predicate::Has(format!("{k}/{x}")));
                        }
                    }
                }
            }
        }
        preds.extend(lacks.into_iter().map(Predicate::Lacks));
        variants.push((
            i,
            Variant {
                name: m.name.clone(),
                ty: m.ty.clone(),
                select: Select::Shape(preds),
            },
        ));
    }
    // Most specific first: more positive predicates, then schema order.
    variants.sort_by_key(|(i, v)| {
        let n = match &v.select {
            Select::Shape(p) => p
                .iter()
                .filter(|p| !matches!(p, Predicate::Lacks(_)))
                .count(),
            _ => 0,
        };
        (std::cmp::Reverse(n), *i)
    });
    Union {
        mode: UnionMode::Shape,
        variants: variants.into_iter().map(|(_, v)| v).collect(),
    }
}

pub(crate) fn nested_required(o: &Value, key: &str) -> BTreeSet<String> {
    o.get("properties")
        .and_then(|p| p.get(key))
        .map(required)
        .unwrap_or_default()
}

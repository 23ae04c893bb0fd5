//! Which JSON Schema keywords the generator understands, each classified once: structural
//! (shapes the type), describing and other annotations, validation (ignored), type-shaping
//! validation (`minimum` makes an integer unsigned), identifying; and which combinations it
//! refuses; and the few structural keywords that a schema the protocol does not interpret
//! may have (see `opaque`). Every other module asks these functions, never a list of its own.

use serde_json::{Map, Value};

use crate::error::{SchemaError, SchemaResult};

/// Keywords that shape the generated type.
const STRUCTURAL: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
];

/// Keywords for readers only: the text that documents a schema.
const DESCRIBING: &[&str] = &["description", "title", "$comment"];

/// Annotations that are not text: they say something of a value but do not constrain it.
const OTHER_ANNOTATIONS: &[&str] = &["default", "examples", "deprecated", "readOnly", "writeOnly"];

/// Validation keywords the generated types do not check and that do not change the Rust type.
const VALIDATION: &[&str] = &[
    "format",
    "maximum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "multipleOf",
];

/// Validation keywords that do change the Rust type: a lower bound that excludes negative
/// numbers makes an integer unsigned (see [`unsigned_integer`]).
const TYPE_SHAPING: &[&str] = &["minimum", "exclusiveMinimum"];

/// Keywords that identify a schema or describe encoded content, not the value's shape.
const IDENTIFYING: &[&str] = &["$schema", "$id", "contentEncoding", "contentMediaType"];

/// Every class of keyword the generator knows, the one list of them.
const CLASSES: [&[&str]; 6] = [
    STRUCTURAL,
    DESCRIBING,
    OTHER_ANNOTATIONS,
    VALIDATION,
    TYPE_SHAPING,
    IDENTIFYING,
];

/// The structural keywords an open object may have besides annotations (an object whose
/// members the protocol does not type): a part of [`STRUCTURAL`].
const OPEN_OBJECT: &[&str] = &["type", "additionalProperties", "properties", "required"];

/// The structural keywords a string member of an open object may have besides annotations:
/// a part of [`STRUCTURAL`].
const OPEN_OBJECT_STRING: &[&str] = &["type", "const"];

/// Whether the generator knows `key` (it either shapes the type or may be ignored safely).
pub fn is_known(key: &str) -> bool {
    CLASSES.iter().any(|list| list.contains(&key))
}

/// Whether `key` only annotates (documents or says something of a value without constraining
/// it): a schema of annotations alone accepts any value.
pub fn is_annotation(key: &str) -> bool {
    DESCRIBING.contains(&key) || OTHER_ANNOTATIONS.contains(&key)
}

/// Whether `key` is text for readers only (`description`, `title`, `$comment`).
pub fn is_describing(key: &str) -> bool {
    DESCRIBING.contains(&key)
}

/// Whether `schema` has annotations alone (`{}`, or only a `description`): it accepts any value.
pub fn annotations_only(schema: &Map<String, Value>) -> bool {
    only_annotations_and(schema, &[])
}

/// Whether `schema` has no keyword but annotations and those an open object may have
/// (`type`, `additionalProperties`, `properties`, `required`).
pub fn open_object_keywords_only(schema: &Map<String, Value>) -> bool {
    only_annotations_and(schema, OPEN_OBJECT)
}

/// Whether `schema` has no keyword but annotations and those a string member of an open
/// object may have (`type`, `const`).
pub fn open_object_string_keywords_only(schema: &Map<String, Value>) -> bool {
    only_annotations_and(schema, OPEN_OBJECT_STRING)
}

/// Whether every keyword of `schema` is an annotation or one of `allowed`.
fn only_annotations_and(schema: &Map<String, Value>, allowed: &[&str]) -> bool {
    schema
        .keys()
        .all(|k| is_annotation(k) || allowed.contains(&k.as_str()))
}

/// Whether an integer schema excludes negative numbers (`minimum >= 0` or
/// `exclusiveMinimum >= -1`), so that its Rust type is unsigned.
pub fn unsigned_integer(schema: &Map<String, Value>) -> bool {
    let at_least = |key: &str, bound: f64| {
        schema
            .get(key)
            .and_then(Value::as_f64)
            .is_some_and(|m| m >= bound)
    };
    at_least("minimum", 0.0) || at_least("exclusiveMinimum", -1.0)
}

/// Checks that `schema` uses only known keywords, in a combination the generator supports.
pub fn check(schema: &Map<String, Value>, pointer: &str) -> SchemaResult<()> {
    for key in schema.keys() {
        if !is_known(key) {
            return Err(SchemaError::new(
                pointer,
                format!(
                    "unsupported keyword `{key}`: the generator cannot express it in a Rust type"
                ),
            ));
        }
    }
    if schema.get("$ref").is_some_and(|r| !r.is_string()) {
        return Err(SchemaError::new(
            format!("{pointer}/$ref"),
            "$ref must be a string",
        ));
    }
    let families = [
        ("$ref", schema.contains_key("$ref")),
        (
            "anyOf/oneOf",
            schema.contains_key("anyOf") || schema.contains_key("oneOf"),
        ),
        ("allOf", schema.contains_key("allOf")),
        ("enum", schema.contains_key("enum")),
        ("const", schema.contains_key("const")),
        (
            "properties/additionalProperties/items",
            schema.contains_key("properties")
                || schema.contains_key("additionalProperties")
                || schema.contains_key("items"),
        ),
    ];
    let present: Vec<&str> = families
        .iter()
        .filter(|(_, p)| *p)
        .map(|(n, _)| *n)
        .collect();
    if present.len() > 1 {
        return Err(SchemaError::new(
            pointer,
            format!(
                "unsupported keyword combination: {} in one schema",
                present.join(" with ")
            ),
        ));
    }
    if schema.contains_key("anyOf") && schema.contains_key("oneOf") {
        return Err(SchemaError::new(
            pointer,
            "unsupported keyword combination: anyOf with oneOf in one schema",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Each keyword has one class: no list repeats another's word.
    #[test]
    fn every_keyword_has_one_class() {
        let mut seen = std::collections::BTreeSet::new();
        for key in CLASSES.iter().flat_map(|l| l.iter()) {
            assert!(seen.insert(*key), "{key} is in two lists");
            assert!(is_known(key));
        }
        assert!(!is_known("if"));
        assert!(is_annotation("default") && is_annotation("title"));
        assert!(!is_annotation("minimum") && !is_annotation("format"));
        assert!(is_describing("$comment") && !is_describing("default"));
    }

    /// The open object's keywords are structural ones, not a class of their own.
    #[test]
    fn open_object_keywords_are_structural() {
        for key in OPEN_OBJECT.iter().chain(OPEN_OBJECT_STRING) {
            assert!(STRUCTURAL.contains(key), "{key}");
        }
        let schema = json!({"type": "object", "description": "d", "minProperties": 1});
        assert!(!open_object_keywords_only(schema.as_object().unwrap()));
        assert!(annotations_only(json!({"title": "t"}).as_object().unwrap()));
    }

    #[test]
    fn a_lower_bound_makes_an_integer_unsigned() {
        let unsigned = |v: serde_json::Value| unsigned_integer(v.as_object().unwrap());
        assert!(unsigned(json!({"minimum": 0})));
        assert!(unsigned(json!({"exclusiveMinimum": -1})));
        assert!(!unsigned(json!({"minimum": -1})));
        assert!(!unsigned(json!({"exclusiveMinimum": -2})));
        assert!(!unsigned(json!({"maximum": 10})));
    }
}

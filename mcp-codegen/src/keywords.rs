//! Which JSON Schema keywords the generator understands, and which combinations it refuses.

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

/// Keywords that only annotate or validate; they do not change the Rust type.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "$comment",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
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
    "$schema",
    "$id",
    "contentEncoding",
    "contentMediaType",
];

/// Checks that `schema` uses only known keywords, in a combination the generator supports.
pub fn check(schema: &Map<String, Value>, pointer: &str) -> SchemaResult<()> {
    for key in schema.keys() {
        if !STRUCTURAL.contains(&key.as_str()) && !ANNOTATIONS.contains(&key.as_str()) {
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

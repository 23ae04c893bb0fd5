//! Which members hold JSON that the protocol does not interpret, kept as raw text (the
//! runtime's `RawJson`) when [`crate::Builder::raw_json`] is on. Read off the member's own
//! schema after the overlay's patches (the overlay is what makes `JSONValue` any value), never
//! off a name:
//!
//! - **any JSON value**: a schema with no keyword but annotations (`{}`, or only a
//!   `description`);
//! - **an open object**: `type: "object"` whose `additionalProperties` is any value (`{}`)
//!   and whose declared `properties`, if any, are only strings (`type: "string"`, perhaps a
//!   `const`): the protocol types nothing inside it.
//!
//! A `$ref` is not followed: a member of a named type keeps that type.

use serde_json::{Map, Value};

use crate::input::keywords;

/// Whether a member with schema `s` holds JSON the protocol does not interpret.
pub fn is_opaque(s: &Map<String, Value>) -> bool {
    any_value(s) || open_object(s)
}

/// `{}`: annotations at most.
fn any_value(s: &Map<String, Value>) -> bool {
    keywords::annotations_only(s)
}

fn open_object(s: &Map<String, Value>) -> bool {
    let additional_any = s
        .get("additionalProperties")
        .and_then(Value::as_object)
        .is_some_and(any_value);
    let strings = match s.get("properties") {
        None => true,
        Some(Value::Object(p)) => p.values().all(string_leaf),
        Some(_) => false,
    };
    type_is(s, "object") && additional_any && strings && keywords::open_object_keywords_only(s)
}

fn string_leaf(schema: &Value) -> bool {
    schema
        .as_object()
        .is_some_and(|s| type_is(s, "string") && keywords::open_object_string_keywords_only(s))
}

fn type_is(s: &Map<String, Value>, name: &str) -> bool {
    s.get("type").and_then(Value::as_str) == Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn opaque(v: Value) -> bool {
        v.as_object().is_some_and(is_opaque)
    }

    #[test]
    fn any_value_is_opaque() {
        assert!(opaque(json!({})));
        assert!(opaque(json!({"description": "anything"})));
        assert!(!opaque(json!({"type": "string"})));
        assert!(!opaque(json!({"$ref": "#/$defs/JSONValue"})));
    }

    #[test]
    fn open_objects_with_string_members_are_opaque() {
        assert!(opaque(
            json!({"type": "object", "additionalProperties": {}})
        ));
        let schema = json!({
            "type": "object",
            "additionalProperties": {},
            "properties": {"$schema": {"type": "string"}, "type": {"type": "string", "const": "object"}},
            "required": ["type"]
        });
        assert!(opaque(schema));
    }

    #[test]
    fn typed_or_closed_objects_are_not() {
        assert!(!opaque(json!({"type": "object"})));
        assert!(!opaque(
            json!({"type": "object", "additionalProperties": {"type": "string"}})
        ));
        assert!(!opaque(
            json!({"type": "object", "additionalProperties": false})
        ));
        let nested = json!({
            "type": "object",
            "additionalProperties": {},
            "properties": {"_meta": {"$ref": "#/$defs/MetaObject"}}
        });
        assert!(!opaque(nested));
        let refined = json!({"type": "object", "additionalProperties": {}, "minProperties": 1});
        assert!(!opaque(refined));
    }
}

//! JSON Schema of the generated types (feature `schemars`): what `#[derive(JsonSchema)]`
//! cannot see, because it is in the `#[mcp(...)]` attributes rather than in the fields.
//!
//! A generated struct that derives `schemars::JsonSchema` has one `#[schemars(transform =
//! ...)]` per `#[mcp(...)]` fact, each adding to the derived object schema:
//!
//! - each constant member, as a property with `const` (in `required` unless the member may be
//!   missing);
//! - the `resultType` member of a result type with one value (required unless that value is
//!   `"complete"`, which a missing member means);
//! - an at-least-one-of rule, as an `anyOf` of `required` sets.
//!
//! ```
//! use mcp_runtime::json_schema::{at_least_one_of, constant};
//! use schemars::transform::Transform;
//!
//! let mut schema = schemars::json_schema!({"type": "object", "properties": {}});
//! constant("jsonrpc", "2.0").transform(&mut schema);
//! at_least_one_of(&["a", "b"]).transform(&mut schema);
//! let v = schema.as_value();
//! assert_eq!(v["properties"]["jsonrpc"]["const"], "2.0");
//! assert_eq!(v["required"], serde_json::json!(["jsonrpc"]));
//! assert_eq!(v["anyOf"], serde_json::json!([{"required": ["a"]}, {"required": ["b"]}]));
//! ```

use schemars::transform::Transform;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::{Map, Value, json};

#[cfg(test)]
use crate::McpResult;
use crate::McpResultType;
use crate::result_type::{COMPLETE, ResultType};

/// The value of a constant member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstValue {
    /// A string.
    Str(&'static str),
    /// An integer.
    Int(i64),
}

impl From<&'static str> for ConstValue {
    fn from(value: &'static str) -> Self {
        ConstValue::Str(value)
    }
}

impl From<i64> for ConstValue {
    fn from(value: i64) -> Self {
        ConstValue::Int(value)
    }
}

/// A member whose value is fixed: a `schemars::transform::Transform` that adds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Constant {
    /// The JSON key.
    pub name: &'static str,
    /// The value.
    pub value: ConstValue,
    /// Whether the member may be missing.
    pub optional: bool,
}

/// Member `name` is always `value`.
pub fn constant(name: &'static str, value: impl Into<ConstValue>) -> Constant {
    Constant {
        name,
        value: value.into(),
        optional: false,
    }
}

/// Member `name` is `value` when present.
pub fn optional(name: &'static str, value: impl Into<ConstValue>) -> Constant {
    Constant {
        optional: true,
        ..constant(name, value)
    }
}

impl Transform for Constant {
    fn transform(&mut self, schema: &mut Schema) {
        let value = match self.value {
            ConstValue::Str(s) => json!(s),
            ConstValue::Int(i) => json!(i),
        };
        if let Some(object) = schema.as_object_mut() {
            add_constant(object, self.name, value, !self.optional);
        }
    }
}

/// The `resultType` member of result type `T` (whose value is `T::RESULT_TYPE`): required
/// unless the value is `"complete"`, which a missing member means.
pub fn result_type<T: McpResultType>(schema: &mut Schema) {
    let value = T::RESULT_TYPE;
    if let Some(object) = schema.as_object_mut() {
        add_constant(object, "resultType", json!(value), value != COMPLETE);
    }
}

/// At least one of these keys must be present: a `schemars::transform::Transform` that adds
/// an `anyOf` of `required` sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtLeastOneOf(pub &'static [&'static str]);

/// At least one of `keys` must be present.
pub fn at_least_one_of(keys: &'static [&'static str]) -> AtLeastOneOf {
    AtLeastOneOf(keys)
}

impl Transform for AtLeastOneOf {
    fn transform(&mut self, schema: &mut Schema) {
        if let Some(object) = schema.as_object_mut()
            && !self.0.is_empty()
        {
            add_any_of(object, any_required(self.0));
        }
    }
}

/// Adds property `key` with the constant `value` (and its JSON type), required or not.
fn add_constant(object: &mut Map<String, Value>, key: &str, value: Value, required: bool) {
    let ty = if value.is_string() {
        "string"
    } else {
        "integer"
    };
    let properties = object
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(p) = properties.as_object_mut() {
        p.insert(key.to_owned(), json!({"type": ty, "const": value}));
    }
    if required {
        let list = object
            .entry("required")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Some(list) = list.as_array_mut()
            && !list.iter().any(|k| k == key)
        {
            list.push(json!(key));
        }
    }
}

/// `[{"required": [k1]}, {"required": [k2]}, ...]`.
fn any_required(keys: &[&str]) -> Value {
    keys.iter().map(|k| json!({"required": [k]})).collect()
}

/// Adds `anyOf`, beside an `anyOf` already there (both must hold: an `allOf` of the two).
fn add_any_of(object: &mut Map<String, Value>, any_of: Value) {
    match object.remove("anyOf") {
        None => {
            object.insert("anyOf".to_owned(), any_of);
        }
        Some(existing) => {
            let all = object
                .entry("allOf")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Some(all) = all.as_array_mut() {
                all.push(json!({"anyOf": existing}));
                all.push(json!({"anyOf": any_of}));
            }
        }
    }
}

/// A `resultType` value: a string (`"complete"`, `"input_required"`, or an extension's value).
impl JsonSchema for ResultType {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ResultType".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string"})
    }
}

/// Raw JSON text: any JSON value, as for a [`Value`] (code generated with `raw_json(true)`).
#[cfg(feature = "raw_json")]
impl JsonSchema for crate::RawJson {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        Value::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        Value::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(McpResult)]
    struct Done {}

    #[derive(McpResult)]
    #[mcp(result_type = "input_required")]
    struct More {}

    #[test]
    fn result_type_complete_may_be_missing() {
        let mut done = json_schema!({"type": "object"});
        result_type::<Done>(&mut done);
        let mut more = json_schema!({"type": "object"});
        result_type::<More>(&mut more);
        let (done, more) = (done.as_value(), more.as_value());
        assert_eq!(done["properties"]["resultType"]["const"], "complete");
        assert!(done.get("required").is_none(), "{done}");
        assert_eq!(more["properties"]["resultType"]["const"], "input_required");
        assert_eq!(more["required"], json!(["resultType"]));
    }

    #[cfg(feature = "raw_json")]
    #[test]
    fn raw_json_is_any_value() {
        let raw = schemars::schema_for!(crate::RawJson);
        assert_eq!(raw.as_value(), schemars::schema_for!(Value).as_value());
        assert!(
            raw.as_bool().is_some() || raw.get("type").is_none(),
            "{raw:?}"
        );
    }

    #[test]
    fn integer_constants_and_a_second_any_of() {
        let mut schema = json_schema!({"type": "object", "anyOf": [{"required": ["x"]}]});
        optional("code", -32021).transform(&mut schema);
        at_least_one_of(&["a"]).transform(&mut schema);
        let v = schema.as_value();
        assert_eq!(
            v["properties"]["code"],
            json!({"type": "integer", "const": -32021})
        );
        assert!(v.get("required").is_none(), "{v}");
        assert_eq!(v["allOf"][1], json!({"anyOf": [{"required": ["a"]}]}));
        assert!(v.get("anyOf").is_none(), "{v}");
    }
}

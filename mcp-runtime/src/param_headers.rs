//! The `Mcp-Param-{Name}` headers of Streamable HTTP (revision 2026-07-28): a tool's
//! `inputSchema` marks arguments with `x-mcp-header`, the client mirrors their values into
//! headers, and the server checks that each header matches the body.
//!
//! Written once for clients and servers:
//!
//! - [`annotations`] reads a tool's annotations, or says why the tool is invalid (a client
//!   must then leave the tool out of its list): an annotation must sit on a property reached
//!   from the root through `properties` keys only (never through `items`, a composition or
//!   conditional keyword, `$ref` or `$defs`), on a `string`, `integer` or `boolean` property,
//!   with a name that is an HTTP token, unique regardless of case.
//! - [`ParamHeader::value_in`] reads the value at the annotation's property path in the call's
//!   arguments, written as a header value: plain when it is visible ASCII without surrounding
//!   whitespace, else `=?base64?…?=` ([`encode`]; a plain value that looks like that form is
//!   encoded too, so that [`decode`] is never ambiguous).
//!
//! ```
//! use mcp_runtime::param_headers::{annotations, decode};
//! use serde_json::json;
//!
//! let schema = json!({"type": "object", "properties": {
//!     "region": {"type": "string", "x-mcp-header": "Region"},
//!     "target": {"type": "object", "properties": {
//!         "zone": {"type": "string", "x-mcp-header": "Zone"}
//!     }}
//! }});
//! let headers = annotations(schema.as_object().unwrap())?;
//! let arguments = json!({"region": "us-west1", "target": {"zone": " b "}});
//! let arguments = arguments.as_object().unwrap();
//! assert_eq!(headers[0].header_name(), "Mcp-Param-Region");
//! assert_eq!(headers[0].value_in(arguments).as_deref(), Some("us-west1"));
//! assert_eq!(headers[1].value_in(arguments).as_deref(), Some("=?base64?IGIg?="));
//! assert_eq!(decode("=?base64?IGIg?=").as_deref(), Some(" b "));
//!
//! let nested_in_items = json!({"type": "object", "properties": {"list": {
//!     "type": "array", "items": {"type": "string", "x-mcp-header": "Item"}
//! }}});
//! assert!(annotations(nested_in_items.as_object().unwrap()).is_err());
//! # Ok::<(), mcp_runtime::param_headers::InvalidAnnotation>(())
//! ```

use std::collections::BTreeSet;
use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value};

/// The schema member that marks a property for mirroring.
pub const ANNOTATION: &str = "x-mcp-header";
/// The prefix of every mirrored parameter's header name.
pub const HEADER_PREFIX: &str = "Mcp-Param-";
const SENTINEL_START: &str = "=?base64?";
const SENTINEL_END: &str = "?=";

/// The largest integer JavaScript represents exactly (2^53 - 1): a mirrored integer must lie
/// within ±this.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// Schema keywords whose value is one subschema.
const ONE_SCHEMA: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
/// Schema keywords whose value is an array of subschemas.
const SCHEMA_ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Schema keywords whose value maps names to subschemas (`properties` aside).
const SCHEMA_MAPS: &[&str] = &[
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];
/// The keyword of the one path an annotation may take.
const PROPERTIES: &str = "properties";
/// The property types an annotation may sit on.
const MIRRORED_TYPES: &[&str] = &["string", "integer", "boolean"];

/// One mirrored argument: the property path from the arguments' root, and the name part of
/// its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    /// The property names, outermost first.
    pub path: Vec<String>,
    /// The `x-mcp-header` value.
    pub name: String,
}

/// Why a tool's annotations make it invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidAnnotation {
    /// Where the annotation is: a JSON pointer into the `inputSchema`.
    pub pointer: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for InvalidAnnotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{ANNOTATION} at {}: {}", self.pointer, self.reason)
    }
}

impl std::error::Error for InvalidAnnotation {}

impl ParamHeader {
    /// The full header name, `Mcp-Param-{name}`.
    pub fn header_name(&self) -> String {
        format!("{HEADER_PREFIX}{}", self.name)
    }

    /// The argument's value at this path, as the header carries it; none when no value (or
    /// `null`) is there, so that the header is left out.
    pub fn value_in(&self, arguments: &Map<String, Value>) -> Option<String> {
        let (last, outer) = self.path.split_last()?;
        let mut object = arguments;
        for step in outer {
            object = object.get(step)?.as_object()?;
        }
        match object.get(last)? {
            Value::Null => None,
            Value::String(s) => Some(encode(s)),
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(n) => Some(n.to_string()),
            other => Some(encode(&other.to_string())),
        }
    }
}

/// Every `x-mcp-header` annotation of the tool input schema `schema`, in property order, or
/// the first one that makes the tool invalid.
pub fn annotations(schema: &Map<String, Value>) -> Result<Vec<ParamHeader>, InvalidAnnotation> {
    let mut found = Vec::new();
    walk(schema, &mut Vec::new(), true, "", &mut found)?;
    let mut seen = BTreeSet::new();
    for (pointer, header) in &found {
        if !seen.insert(header.name.to_ascii_lowercase()) {
            return Err(invalid(pointer, "the name repeats another, ignoring case"));
        }
    }
    Ok(found.into_iter().map(|(_, h)| h).collect())
}

/// Visits `schema` at `pointer`: `path` is its property path while every step so far was a
/// `properties` key (`reachable`).
fn walk(
    schema: &Map<String, Value>,
    path: &mut Vec<String>,
    reachable: bool,
    pointer: &str,
    found: &mut Vec<(String, ParamHeader)>,
) -> Result<(), InvalidAnnotation> {
    if let Some(name) = schema.get(ANNOTATION) {
        let at = format!("{pointer}/{ANNOTATION}");
        if !reachable || path.is_empty() {
            return Err(invalid(
                &at,
                "only a property reached from the root through `properties` alone may be mirrored",
            ));
        }
        let name = checked_name(name, schema).map_err(|reason| invalid(&at, &reason))?;
        let header = ParamHeader {
            path: path.clone(),
            name,
        };
        found.push((at, header));
    }
    for (key, value) in schema {
        let at = format!("{pointer}/{}", escape(key));
        if key == PROPERTIES {
            for (name, sub) in value.as_object().into_iter().flatten() {
                path.push(name.clone());
                let result = sub_schema(
                    sub,
                    path,
                    reachable,
                    &format!("{at}/{}", escape(name)),
                    found,
                );
                path.pop();
                result?;
            }
        } else if ONE_SCHEMA.contains(&key.as_str()) {
            sub_schema(value, path, false, &at, found)?;
        } else if SCHEMA_ARRAYS.contains(&key.as_str()) {
            for (i, sub) in value.as_array().into_iter().flatten().enumerate() {
                sub_schema(sub, path, false, &format!("{at}/{i}"), found)?;
            }
        } else if SCHEMA_MAPS.contains(&key.as_str()) {
            for (name, sub) in value.as_object().into_iter().flatten() {
                sub_schema(sub, path, false, &format!("{at}/{}", escape(name)), found)?;
            }
        }
    }
    Ok(())
}

fn sub_schema(
    value: &Value,
    path: &mut Vec<String>,
    reachable: bool,
    pointer: &str,
    found: &mut Vec<(String, ParamHeader)>,
) -> Result<(), InvalidAnnotation> {
    match value.as_object() {
        Some(schema) => walk(schema, path, reachable, pointer, found),
        None => Ok(()),
    }
}

/// The annotation's name, if it is a non-empty HTTP token on a property of a mirrored type.
fn checked_name(name: &Value, schema: &Map<String, Value>) -> Result<String, String> {
    let Some(name) = name.as_str().filter(|n| is_token(n)) else {
        return Err(format!(
            "{name} is not an HTTP token (RFC 9110 tchar, at least one)"
        ));
    };
    match schema.get("type").and_then(Value::as_str) {
        Some(t) if MIRRORED_TYPES.contains(&t) => Ok(name.to_owned()),
        other => Err(format!(
            "the property's type is {}, not one of {MIRRORED_TYPES:?}",
            other.map_or_else(|| "not a single type".to_owned(), |t| format!("{t:?}"))
        )),
    }
}

fn invalid(pointer: &str, reason: &str) -> InvalidAnnotation {
    InvalidAnnotation {
        pointer: pointer.to_owned(),
        reason: reason.to_owned(),
    }
}

/// A JSON pointer token (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// An HTTP token (RFC 9110 section 5.6.2): one or more tchar.
pub fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// A value as a header carries it: as is when it is visible ASCII and spaces with no
/// whitespace at either end and does not look encoded, else `=?base64?<Base64 of its
/// UTF-8>?=`. The same rule applies to `Mcp-Name`.
pub fn encode(value: &str) -> String {
    let visible = value.bytes().all(|b| (0x20..=0x7e).contains(&b));
    let trimmed = value.trim_matches([' ', '\t']) == value;
    let looks_encoded = value.starts_with(SENTINEL_START) && value.ends_with(SENTINEL_END);
    if visible && trimmed && !looks_encoded {
        value.to_owned()
    } else {
        format!(
            "{SENTINEL_START}{}{SENTINEL_END}",
            STANDARD.encode(value.as_bytes())
        )
    }
}

/// A header value as sent: the decoded text of `=?base64?…?=`, else the value itself; none
/// when the Base64 or its UTF-8 is malformed.
pub fn decode(value: &str) -> Option<String> {
    match value
        .strip_prefix(SENTINEL_START)
        .and_then(|rest| rest.strip_suffix(SENTINEL_END))
    {
        Some(b64) => STANDARD
            .decode(b64)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok()),
        None => Some(value.to_owned()),
    }
}

/// Whether a received header value holds only what a header value may (visible ASCII, space
/// and tab).
pub fn is_valid_value(value: &[u8]) -> bool {
    value
        .iter()
        .all(|&b| b == b'\t' || (0x20..=0x7e).contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers(schema: Value) -> Result<Vec<ParamHeader>, InvalidAnnotation> {
        annotations(schema.as_object().unwrap())
    }

    fn with_property(property: Value) -> Value {
        json!({"type": "object", "properties": {"p": property}})
    }

    #[test]
    fn encoding_follows_the_table_of_the_transport() {
        assert_eq!(encode("us-west1"), "us-west1");
        assert_eq!(encode("us west 1"), "us west 1");
        assert_eq!(encode(""), "");
        assert_eq!(encode(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode("\tindented"), "=?base64?CWluZGVudGVk?=");
        assert_eq!(encode("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(encode("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        // A plain value that looks encoded is encoded, so that decoding is unambiguous.
        assert_eq!(
            encode("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        for v in ["=?base64?literal?=", " x", "世界", "a\r\nb", "plain"] {
            assert_eq!(decode(&encode(v)).as_deref(), Some(v));
        }
        assert_eq!(
            decode("=?base64?SGVsbG8").as_deref(),
            Some("=?base64?SGVsbG8")
        );
        assert_eq!(decode("=?base64?!!!?="), None);
    }

    #[test]
    fn nested_properties_are_mirrored_by_their_path() {
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {
                "b": {"type": "object", "properties": {
                    "c": {"type": "integer", "x-mcp-header": "Deep"}
                }}
            }},
            "flag": {"type": "boolean", "x-mcp-header": "Flag"}
        }});
        let found = headers(schema).unwrap();
        assert_eq!(found[0].path, ["a", "b", "c"]);
        let args = json!({"a": {"b": {"c": 42}}, "flag": false});
        let args = args.as_object().unwrap();
        assert_eq!(found[0].value_in(args).as_deref(), Some("42"));
        assert_eq!(found[1].value_in(args).as_deref(), Some("false"));
        let missing = json!({"a": {"b": null}, "flag": null});
        assert_eq!(found[0].value_in(missing.as_object().unwrap()), None);
        assert_eq!(found[1].value_in(missing.as_object().unwrap()), None);
    }

    #[test]
    fn an_annotation_off_the_properties_chain_makes_the_tool_invalid() {
        let annotated = json!({"type": "string", "x-mcp-header": "X"});
        for schema in [
            with_property(json!({"type": "array", "items": annotated})),
            with_property(json!({"allOf": [annotated]})),
            with_property(json!({"anyOf": [annotated]})),
            with_property(json!({"oneOf": [annotated]})),
            with_property(json!({"not": annotated})),
            with_property(json!({"if": annotated, "then": {}, "else": {}})),
            with_property(json!({"type": "object", "additionalProperties": annotated})),
            json!({"type": "object", "$defs": {"d": annotated}, "properties": {"p": {"$ref": "#/$defs/d"}}}),
            json!({"type": "object", "properties": {"p": {"type": "object", "then": {"properties": {"q": annotated}}}}}),
            json!({"type": "string", "x-mcp-header": "Root"}),
        ] {
            let e = headers(schema.clone()).unwrap_err();
            assert!(e.reason.contains("`properties` alone"), "{schema}: {e}");
        }
    }

    #[test]
    fn bad_names_types_and_repeats_make_the_tool_invalid() {
        for property in [
            json!({"type": "string", "x-mcp-header": ""}),
            json!({"type": "string", "x-mcp-header": "My Region"}),
            json!({"type": "string", "x-mcp-header": "Region:Primary"}),
            json!({"type": "string", "x-mcp-header": "Région"}),
            json!({"type": "string", "x-mcp-header": "Region\t1"}),
            json!({"type": "string", "x-mcp-header": 7}),
            json!({"type": "number", "x-mcp-header": "Score"}),
            json!({"type": "object", "x-mcp-header": "Data"}),
            json!({"type": "null", "x-mcp-header": "Nil"}),
            json!({"type": ["string", "null"], "x-mcp-header": "Maybe"}),
        ] {
            assert!(
                headers(with_property(property.clone())).is_err(),
                "{property}"
            );
        }
        let repeated = json!({"type": "object", "properties": {
            "a": {"type": "string", "x-mcp-header": "MyField"},
            "b": {"type": "string", "x-mcp-header": "myfield"}
        }});
        let e = headers(repeated).unwrap_err();
        assert_eq!(e.pointer, "/properties/b/x-mcp-header");
    }

    #[test]
    fn annotations_inside_values_are_data() {
        let schema = json!({"type": "object", "properties": {"p": {
            "type": "object",
            "default": {"x-mcp-header": "NotAnAnnotation"},
            "examples": [{"x-mcp-header": "Nor"}]
        }}});
        assert_eq!(headers(schema).unwrap(), []);
    }

    #[test]
    fn header_values_are_checked_for_invalid_characters() {
        assert!(is_valid_value(b"us-west1 \t=?base64?AA==?="));
        assert!(!is_valid_value(b"a\r\nInjected: 1"));
        assert!(!is_valid_value("é".as_bytes()));
    }
}

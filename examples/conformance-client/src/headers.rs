//! The HTTP headers that mirror parts of the body (SEP-2243): `Mcp-Name`, and `Mcp-Param-{Name}`
//! for the tool arguments whose schema carries an `x-mcp-header` annotation.

use std::collections::BTreeSet;

use base64::Engine as _;
use serde_json::Value;

use crate::mcp;

/// A header value: as is when it is printable ASCII without surrounding whitespace, else
/// `=?base64?<Base64 of its UTF-8>?=`.
pub fn encode(value: &str) -> String {
    let plain = value.bytes().all(|b| (0x20..=0x7e).contains(&b)) && value.trim() == value;
    if plain {
        value.to_owned()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(value.as_bytes())
        )
    }
}

/// An HTTP token (RFC 9110 section 5.6.2): what a header name may be made of.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// The `(argument, header name)` pairs of `tool`'s `x-mcp-header` annotations, or why the
/// tool is invalid: an annotation that is empty, not a token, on a parameter that is not a
/// string, integer or boolean, or that repeats another (case-insensitively). A client must not
/// call such a tool.
pub fn mirrored(tool: &mcp::Tool) -> Result<Vec<(String, String)>, String> {
    let Some(props) = tool
        .input_schema
        .extra
        .get("properties")
        .and_then(Value::as_object)
    else {
        return Ok(Vec::new());
    };
    let mut seen = BTreeSet::new();
    let mut pairs = Vec::new();
    for (param, schema) in props {
        let Some(h) = schema.get("x-mcp-header") else {
            continue;
        };
        let Some(h) = h.as_str().filter(|h| is_token(h)) else {
            return Err(format!(
                "x-mcp-header of {param:?} is not a valid header name: {h}"
            ));
        };
        match schema.get("type").and_then(Value::as_str) {
            Some("string" | "integer" | "boolean") => {}
            other => {
                return Err(format!(
                    "x-mcp-header {h:?} is on {param:?} of type {other:?}; only string, integer and boolean parameters may be mirrored"
                ));
            }
        }
        if !seen.insert(h.to_ascii_lowercase()) {
            return Err(format!("x-mcp-header {h:?} is used twice"));
        }
        pairs.push((param.clone(), h.to_owned()));
    }
    Ok(pairs)
}

/// The `Mcp-Param-*` headers for calling `tool` with `arguments` (null or absent arguments
/// send no header).
pub fn param_headers(
    tool: &mcp::Tool,
    arguments: &serde_json::Map<String, Value>,
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (param, header) in mirrored(tool)? {
        let value = match arguments.get(&param) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => encode(s),
            Some(Value::Bool(b)) => b.to_string(),
            Some(Value::Number(n)) => n.to_string(),
            Some(other) => encode(&other.to_string()),
        };
        out.push((format!("Mcp-Param-{header}"), value));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding() {
        assert_eq!(encode("us-west1"), "us-west1");
        assert_eq!(encode("us west 1"), "us west 1");
        assert_eq!(encode(""), "");
        assert_eq!(encode(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode("\tindented"), "=?base64?CWluZGVudGVk?=");
        assert_eq!(encode("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(encode("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
    }

    fn tool(props: Value) -> mcp::Tool {
        serde_json::from_value(serde_json::json!({
            "name": "t", "inputSchema": {"type": "object", "properties": props}
        }))
        .unwrap()
    }

    #[test]
    fn invalid_annotations() {
        for props in [
            serde_json::json!({"v": {"type": "string", "x-mcp-header": ""}}),
            serde_json::json!({"v": {"type": "object", "x-mcp-header": "Data"}}),
            serde_json::json!({"v": {"type": "number", "x-mcp-header": "Score"}}),
            serde_json::json!({"v": {"type": "string", "x-mcp-header": "My Region"}}),
            serde_json::json!({"v": {"type": "string", "x-mcp-header": "Region:Primary"}}),
            serde_json::json!({"v": {"type": "string", "x-mcp-header": "Région"}}),
            serde_json::json!({"a": {"type": "string", "x-mcp-header": "MyField"}, "b": {"type": "string", "x-mcp-header": "myfield"}}),
        ] {
            assert!(mirrored(&tool(props.clone())).is_err(), "{props}");
        }
        let ok = tool(
            serde_json::json!({"region": {"type": "string", "x-mcp-header": "Region"}, "q": {"type": "string"}}),
        );
        assert_eq!(
            mirrored(&ok).unwrap(),
            vec![("region".to_owned(), "Region".to_owned())]
        );
    }
}

//! The HTTP headers that mirror parts of the body (SEP-2243): `Mcp-Name`, and `Mcp-Param-{Name}`
//! for the tool arguments whose schema carries an `x-mcp-header` annotation. The rules
//! (where an annotation may sit, how a value is encoded) are `mcp_runtime::param_headers`.

use mcp_runtime::param_headers::{self, InvalidAnnotation, ParamHeader};
use serde_json::{Map, Value};

pub use param_headers::encode;

/// The mirrored arguments of a tool whose `inputSchema` is `schema`, or why the tool is
/// invalid (a client then leaves it out of its list of tools and never calls it).
///
/// ```
/// let schema = serde_json::json!({"type": "object", "properties": {
///     "region": {"type": "string", "x-mcp-header": "Region"}}});
/// let mirrored = mcp_client::headers::mirrored(schema.as_object().unwrap()).unwrap();
/// assert_eq!(mirrored[0].header_name(), "Mcp-Param-Region");
/// ```
pub fn mirrored(schema: &Map<String, Value>) -> Result<Vec<ParamHeader>, InvalidAnnotation> {
    param_headers::annotations(schema)
}

/// The `Mcp-Param-*` headers for calling the tool whose `inputSchema` is `schema` with
/// `arguments` (a null or absent value sends no header).
pub fn param_headers(
    schema: &Map<String, Value>,
    arguments: &Map<String, Value>,
) -> Result<Vec<(String, String)>, InvalidAnnotation> {
    Ok(mirrored(schema)?
        .iter()
        .filter_map(|h| Some((h.header_name(), h.value_in(arguments)?)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_client_test_types::mcp;
    use serde_json::json;

    fn tool(schema: Value) -> mcp::Tool {
        serde_json::from_value(json!({"name": "t", "inputSchema": schema})).unwrap()
    }

    #[test]
    fn nested_arguments_and_the_sentinel_are_mirrored() {
        let t = tool(json!({"type": "object", "properties": {
            "target": {"type": "object", "properties": {"zone": {"type": "string", "x-mcp-header": "Zone"}}},
            "raw": {"type": "string", "x-mcp-header": "Raw"},
            "query": {"type": "string"}
        }}));
        let args = json!({"target": {"zone": "b"}, "raw": "=?base64?x?=", "query": "q"});
        assert_eq!(
            param_headers(&t.input_schema.extra, args.as_object().unwrap()).unwrap(),
            [
                ("Mcp-Param-Raw".to_owned(), encode("=?base64?x?=")),
                ("Mcp-Param-Zone".to_owned(), "b".to_owned()),
            ]
        );
        assert_ne!(encode("=?base64?x?="), "=?base64?x?=");
    }

    #[test]
    fn a_tool_annotated_under_items_or_ref_is_left_out() {
        let under_items = tool(json!({"type": "object", "properties": {"l": {
            "type": "array", "items": {"type": "string", "x-mcp-header": "L"}
        }}}));
        assert!(mirrored(&under_items.input_schema.extra).is_err());
        let through_ref = tool(json!({"type": "object",
            "$defs": {"s": {"type": "string", "x-mcp-header": "S"}},
            "properties": {"p": {"$ref": "#/$defs/s"}}}));
        assert!(mirrored(&through_ref.input_schema.extra).is_err());
    }
}

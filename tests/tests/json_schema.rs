//! The opt-in `schemars::JsonSchema` derives describe the JSON names, not the Rust ones.

use mcp_tests::with_json_schema as mcp;

#[test]
fn json_schema_uses_wire_names() {
    let schema = serde_json::to_value(schemars::schema_for!(mcp::CallToolRequestParams)).unwrap();
    let props = schema["properties"].as_object().unwrap();
    assert!(props.contains_key("_meta"), "{schema}");
    assert!(props.contains_key("inputResponses"), "{schema}");
    assert!(!props.contains_key("input_responses"), "{schema}");
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        required.contains(&"name") && required.contains(&"_meta"),
        "{schema}"
    );
}

//! [`RawJson`] members read and written through the derives: by a struct, by a union that
//! reads members before its discriminator, by a union by shape, from text, bytes and a reader.
#![cfg(feature = "raw_json")]
#![deny(warnings)]

use mcp_runtime::{Extra, McpObject, McpUnion, RawJson};
use serde_json::json;

#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "type", value = "tool"))]
struct Tool {
    name: String,
    #[mcp(rename = "inputSchema")]
    input_schema: RawJson,
    #[mcp(rename = "outputSchema")]
    output_schema: Option<RawJson>,
    #[mcp(extra)]
    extra: Extra,
}

#[derive(Debug, Clone, PartialEq, McpObject)]
#[mcp(constant(name = "type", value = "call"))]
struct Call {
    name: String,
    arguments: Option<RawJson>,
}

#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(tag = "type")]
enum Item {
    #[mcp(tag_value = "tool")]
    Tool(Tool),
    #[mcp(tag_value = "call")]
    Call(Call),
}

#[derive(Debug, Clone, PartialEq, McpUnion)]
#[mcp(by_shape)]
enum Shaped {
    #[mcp(when(has = "inputSchema"))]
    Tool(Tool),
    Other(Extra),
}

const TOOL: &str = r#"{"type":"tool","name":"t","inputSchema":{ "type" : "object","properties":{"a":{"type":"number","default":1.50}} },"outputSchema":[1, 2]}"#;

fn readers(text: &str) -> Vec<Tool> {
    vec![
        serde_json::from_str(text).unwrap(),
        serde_json::from_slice(text.as_bytes()).unwrap(),
        serde_json::from_reader(text.as_bytes()).unwrap(),
    ]
}

#[test]
fn a_struct_keeps_the_member_text_from_every_reader() {
    for tool in readers(TOOL) {
        assert_eq!(
            tool.input_schema.get(),
            r#"{ "type" : "object","properties":{"a":{"type":"number","default":1.50}} }"#
        );
        assert_eq!(
            tool.output_schema.as_ref().map(RawJson::get),
            Some("[1, 2]")
        );
        assert_eq!(serde_json::to_string(&tool).unwrap(), TOOL);
    }
}

#[test]
fn a_tagged_union_hands_raw_members_read_before_its_tag() {
    let text = r#"{"name":"t","inputSchema":{"b":2, "a":1},"type":"tool"}"#;
    let item: Item = serde_json::from_str(text).unwrap();
    let Item::Tool(tool) = &item else {
        panic!("{item:?}")
    };
    assert_eq!(tool.input_schema, json!({"a": 1, "b": 2}));
    let again: Item = serde_json::from_slice(text.as_bytes()).unwrap();
    assert_eq!(again, item);
    let call: Item =
        serde_json::from_str(r#"{"type":"call","name":"c","arguments":{"x":[true]}}"#).unwrap();
    assert!(
        matches!(&call, Item::Call(c) if c.arguments.as_ref().map(RawJson::get) == Some(r#"{"x":[true]}"#))
    );
}

#[test]
fn a_union_by_shape_reads_raw_members() {
    let shaped: Shaped = serde_json::from_str(TOOL).unwrap();
    let Shaped::Tool(tool) = shaped else {
        panic!("a tool")
    };
    assert_eq!(
        tool.input_schema.to_value().unwrap()["properties"]["a"]["default"],
        1.5
    );
}

#[test]
fn invalid_raw_members_are_errors() {
    let text = r#"{"type":"tool","name":"t","inputSchema":{"a":}}"#;
    assert!(serde_json::from_str::<Tool>(text).is_err());
    assert!(serde_json::from_slice::<Item>(text.as_bytes()).is_err());
}

#[test]
fn values_build_raw_members() {
    let tool = Tool {
        name: "t".into(),
        input_schema: json!({"type": "object"}).into(),
        output_schema: Some(RawJson::from_serialize(&[1, 2]).unwrap()),
        extra: Extra::new(),
    };
    let text = serde_json::to_string(&tool).unwrap();
    assert_eq!(
        text,
        r#"{"type":"tool","name":"t","inputSchema":{"type":"object"},"outputSchema":[1,2]}"#
    );
    assert_eq!(serde_json::from_str::<Tool>(&text).unwrap(), tool);
}

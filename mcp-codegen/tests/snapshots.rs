//! Snapshots of the generator's output on small hand-written schemas.

use mcp_codegen::Builder;

fn generate(schema: &str) -> String {
    let dir = std::env::temp_dir().join(format!("mcp-codegen-snap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!(
        "{:x}.json",
        schema.len() * 31 + schema.bytes().map(usize::from).sum::<usize>()
    ));
    std::fs::write(&path, schema).unwrap();
    let text = Builder::new()
        .schema(&path)
        .cargo_metadata(false)
        .generate_string()
        .unwrap()
        .text;
    // The header names a hash of the file; keep the snapshot about the code.
    text.split_once("\n\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or(text)
}

#[test]
fn object_with_constants_optional_members_and_docs() {
    insta::assert_snapshot!(generate(
        r##"{"$defs": {
            "PingRequest": {
                "description": "A ping. See {@link Pong}.",
                "type": "object",
                "properties": {
                    "jsonrpc": {"const": "2.0", "type": "string"},
                    "method": {"const": "ping", "type": "string"},
                    "id": {"type": ["string", "integer"]},
                    "_meta": {"type": "object"},
                    "io.example/traceId": {"type": "string", "description": "Trace id."},
                    "count": {"type": "integer", "minimum": 0},
                    "type": {"type": "string"}
                },
                "required": ["jsonrpc", "method", "id"]
            },
            "Pong": {"type": "object", "properties": {"at": {"type": "number"}}}
        }}"##
    ));
}

#[test]
fn tagged_json_type_and_shape_unions() {
    insta::assert_snapshot!(generate(
        r##"{"$defs": {
            "Text": {"type": "object", "properties": {"type": {"const": "text", "type": "string"}, "text": {"type": "string"}}, "required": ["type", "text"]},
            "Image": {"type": "object", "properties": {"type": {"const": "image", "type": "string"}, "data": {"type": "string"}}, "required": ["type", "data"]},
            "Content": {"anyOf": [{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Image"}]},
            "Value": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": ["string", "boolean"]}]},
            "Req": {"type": "object", "properties": {"id": {"type": "string"}, "method": {"type": "string"}}, "required": ["id", "method"]},
            "Note": {"type": "object", "properties": {"method": {"type": "string"}}, "required": ["method"]},
            "Message": {"anyOf": [{"$ref": "#/$defs/Note"}, {"$ref": "#/$defs/Req"}]}
        }}"##
    ));
}

#[test]
fn enums_maps_recursion_and_keywords() {
    insta::assert_snapshot!(generate(
        r##"{"$defs": {
            "Level": {"type": "string", "enum": ["debug", "info", "error"], "description": "How loud."},
            "Node": {"type": "object", "properties": {
                "child": {"$ref": "#/$defs/Node"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "self": {"type": "boolean"},
                "fooBar": {"type": "string"},
                "foo_bar": {"type": "string"},
                "mode": {"type": "string", "enum": ["a", "b"]}
            }}
        }}"##
    ));
}

//! The overlay's `mcp_name`: the member of a request's params that its `Mcp-Name` header
//! mirrors becomes the generated `Request::MCP_NAME` and `mcp_name()`; naming a member that is
//! not a required string of required params is an error at the request's `$def`.

use std::path::PathBuf;

use mcp_codegen::Builder;

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-codegen-mcp-name-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const SCHEMA: &str = r##"{"$defs": {
    "FindRequest": {"type": "object", "required": ["method", "params"], "properties": {
        "method": {"const": "things/find", "type": "string"},
        "params": {"$ref": "#/$defs/FindParams"}}},
    "FindParams": {"type": "object", "required": ["thing"], "properties": {
        "thing": {"type": "string"}, "note": {"type": "string"}, "count": {"type": "integer"}}}
}}"##;

fn generate(member: &str) -> Result<String, mcp_codegen::Error> {
    let overlay = format!(
        r#"{{"revision": "x", "mcp_name": {{"FindRequest": {{"member": "{member}", "why": "w", "source": "s"}}}}}}"#
    );
    Builder::new()
        .schema(write(&format!("schema-{member}.json"), SCHEMA))
        .overlay(write(&format!("overlay-{member}.json"), &overlay))
        .cargo_metadata(false)
        .generate_string()
        .map(|generated| generated.text)
}

#[test]
fn the_named_member_is_the_request_s_mcp_name() {
    let code = generate("thing").unwrap();
    let squeezed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        squeezed.contains(
            "const MCP_NAME: ::core::option::Option<&'static str> = ::core::option::Option::Some( \"thing\", );"
        ),
        "{code}"
    );
    assert!(
        squeezed.contains("::core::option::Option::Some(self.params.thing.as_str())"),
        "{code}"
    );
}

#[test]
fn the_named_member_must_be_a_required_string_of_the_params() {
    for member in ["note", "count", "missing"] {
        let err = generate(member).unwrap_err();
        assert_eq!(err.pointer(), Some("/$defs/FindRequest"), "{member}: {err}");
        assert!(
            err.to_string()
                .contains("not a required string member of its params"),
            "{member}: {err}"
        );
    }
}

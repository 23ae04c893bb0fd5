//! `Builder::server`: the service trait of the requests a client sends, one method each, and
//! its dispatch; refused, at the union's pointer, where the schema has no union of requests.

use std::path::PathBuf;

fn official(revision: &str) -> PathBuf {
    PathBuf::from(env!("MCP_SCHEMA_DIR"))
        .join(revision)
        .join("schema.json")
}

#[test]
fn the_trait_has_a_method_per_client_request_and_only_when_asked_for() {
    let generate = |server: bool| {
        mcp_codegen::Builder::new()
            .schema(official("2026-07-28"))
            .server(server)
            .cargo_metadata(false)
            .generate_string()
            .unwrap()
            .text
    };
    let text = generate(true);
    assert!(text.contains("pub trait Server<"), "no trait");
    assert!(text.contains("pub const REVISION: &str = \"2026-07-28\";"));
    assert!(text.contains("pub async fn serve<S, C>("));
    for method in [
        "call_tool",
        "list_tools",
        "get_prompt",
        "list_prompts",
        "read_resource",
        "list_resources",
        "list_resource_templates",
        "complete",
        "discover",
    ] {
        assert!(text.contains(&format!("fn {method}(")), "no {method}");
    }
    assert!(text.contains("params: &CallToolRequestParams"));
    assert!(text.contains("::mcp_runtime::Response<CallToolRequest>"));
    assert!(!generate(false).contains("pub trait Server<"));
}

#[test]
fn with_two_revisions_only_the_newer_has_the_trait() {
    let text = mcp_codegen::Builder::new()
        .schema(official("2025-11-25"))
        .schema(official("2026-07-28"))
        .server(true)
        .cargo_metadata(false)
        .generate_string()
        .unwrap()
        .text;
    assert_eq!(text.matches("pub trait Server<").count(), 1);
    let newer = text.find("pub mod v2026_07_28").unwrap();
    assert!(text.find("pub trait Server<").unwrap() > newer);
}

#[test]
fn a_schema_without_a_union_of_client_requests_is_refused_at_its_pointer() {
    let schema = r#"{"$defs": {"Ping": {"type": "object", "properties": {}}}}"#;
    let error = mcp_codegen::Builder::new()
        .schema_str(schema)
        .server(true)
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err()
        .to_string();
    assert!(error.contains("#/$defs/ClientRequest"), "{error}");
    assert!(error.contains("no service trait"), "{error}");
}

//! `Builder::client`: the client trait of the requests a client sends, one method each ending
//! with the request's complete result; refused, at the union's pointer, where the schema has
//! no union of requests.

use std::path::PathBuf;

fn official(revision: &str) -> PathBuf {
    PathBuf::from(env!("MCP_SCHEMA_DIR"))
        .join(revision)
        .join("schema.json")
}

fn generate(client: bool, extension: Option<&str>) -> String {
    let mut builder = mcp_codegen::Builder::new();
    builder
        .schema(official("2026-07-28"))
        .client(client)
        .cargo_metadata(false);
    if let Some(id) = extension {
        builder.extension(id);
    }
    builder.generate_string().unwrap().text
}

#[test]
fn the_trait_has_a_method_per_client_request_and_only_when_asked_for() {
    let text = generate(true, None);
    assert!(text.contains("pub trait Client: ::mcp_runtime::client::Caller"));
    assert!(text.contains(
        "impl<T: ::mcp_runtime::client::Caller + ?::core::marker::Sized> Client for T {}"
    ));
    for (method, request) in [
        ("call_tool", "CallToolRequest"),
        ("list_tools", "ListToolsRequest"),
        ("get_prompt", "GetPromptRequest"),
        ("read_resource", "ReadResourceRequest"),
        ("list_resource_templates", "ListResourceTemplatesRequest"),
        ("complete", "CompleteRequest"),
        ("discover", "DiscoverRequest"),
    ] {
        assert!(text.contains(&format!("fn {method}(")), "no {method}");
        let bound = format!("Self: ::mcp_runtime::client::Calls<{request}>");
        assert!(text.contains(&bound), "{method}: no {bound}");
    }
    // The prelude brings the methods into scope, not the name.
    assert!(text.contains("pub use super::Client as _;"));
    let without = generate(false, None);
    assert!(!without.contains("pub trait Client"));
    assert!(!without.contains("::mcp_runtime::client::Call for"));
}

/// Where a request may ask for input first (or, with the tasks extension, answer with a
/// task), the call ends with the complete variant of its outcome; elsewhere with its result.
#[test]
fn a_call_ends_with_the_complete_result() {
    for text in [
        generate(true, None),
        generate(true, Some("io.modelcontextprotocol/tasks")),
    ] {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for (request, done) in [
            ("CallToolRequest", "CallToolResult"),
            ("GetPromptRequest", "GetPromptResult"),
            ("ReadResourceRequest", "ReadResourceResult"),
            ("ListToolsRequest", "ListToolsResult"),
            ("CompleteRequest", "CompleteResult"),
        ] {
            let call =
                format!("impl ::mcp_runtime::client::Call for {request} {{ type Done = {done}; }}");
            assert!(text.contains(&call), "{request}: {call}");
        }
        assert!(!text.contains("type Done = CallToolOutcome"));
    }
}

#[test]
fn with_two_revisions_only_the_newer_has_the_trait() {
    let text = mcp_codegen::Builder::new()
        .schema(official("2025-11-25"))
        .schema(official("2026-07-28"))
        .client(true)
        .cargo_metadata(false)
        .generate_string()
        .unwrap()
        .text;
    assert_eq!(text.matches("pub trait Client:").count(), 1);
    let newer = text.find("pub mod v2026_07_28").unwrap();
    assert!(text.find("pub trait Client:").unwrap() > newer);
}

#[test]
fn a_schema_without_a_union_of_client_requests_is_refused_at_its_pointer() {
    let schema = r#"{"$defs": {"Ping": {"type": "object", "properties": {}}}}"#;
    let error = mcp_codegen::Builder::new()
        .schema_str(schema)
        .client(true)
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err()
        .to_string();
    assert!(error.contains("#/$defs/ClientRequest"), "{error}");
    assert!(error.contains("no client trait"), "{error}");
}

/// An enabled extension's requests are methods too (the tasks extension's `tasks/*`).
#[test]
fn an_extension_s_requests_are_methods_of_the_trait() {
    let with = generate(true, Some("io.modelcontextprotocol/tasks"));
    for (method, request) in [
        ("get_task", "GetTaskRequest"),
        ("update_task", "UpdateTaskRequest"),
        ("cancel_task", "CancelTaskRequest"),
    ] {
        assert!(with.contains(&format!("fn {method}(")), "no {method}");
        assert!(with.contains(&format!("::mcp_runtime::client::Call for {request}")));
    }
    assert!(!generate(true, None).contains("fn get_task("));
}

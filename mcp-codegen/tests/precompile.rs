//! `Builder::precompile` (`--precompile`): the messages, and only they, get their reader and
//! writer compiled with the module; off, the output is what it always was.

use std::path::PathBuf;

fn official(revision: &str) -> PathBuf {
    PathBuf::from(env!("MCP_SCHEMA_DIR"))
        .join(revision)
        .join("schema.json")
}

fn generate(revisions: &[&str], precompile: bool) -> String {
    let mut b = mcp_codegen::Builder::new();
    for r in revisions {
        b.schema(official(r));
    }
    b.cargo_metadata(false).precompile(precompile);
    b.generate_string().unwrap().text
}

/// The types the output implements `mcp_runtime::Wire` for, in output order.
fn wired(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("impl ::mcp_runtime::Wire for "))
        .map(|rest| rest.trim_end_matches(" {"))
        .collect()
}

#[test]
fn the_messages_and_only_they_are_precompiled() {
    let text = generate(&["2026-07-28"], true);
    let wired = wired(&text);
    for message in [
        "CallToolRequest",
        "CallToolResultResponse",
        "CallToolReply",
        "JSONRPCErrorResponse",
        "JSONRPCMessage",
        "ClientRequest",
        "ClientNotification",
        "ServerNotification",
        "ProgressNotification",
        "InputRequest",
    ] {
        assert!(
            wired.contains(&message),
            "{message} is not precompiled: {wired:?}"
        );
    }
    for part in [
        "TextContent",
        "Tool",
        "CallToolResult",
        "CallToolRequestParams",
        "Role",
    ] {
        assert!(!wired.contains(&part), "{part} is precompiled");
    }
    let mut sorted = wired.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), wired.len(), "a type is wired twice");
}

#[test]
fn off_by_default_and_the_output_is_unchanged() {
    let plain = generate(&["2026-07-28"], false);
    assert!(wired(&plain).is_empty());
    let mut b = mcp_codegen::Builder::new();
    b.schema(official("2026-07-28")).cargo_metadata(false);
    assert_eq!(b.generate_string().unwrap().text, plain);
}

#[test]
fn with_two_revisions_each_revision_module_has_its_own_messages_wired() {
    let text = generate(&["2025-11-25", "2026-07-28"], true);
    let (legacy, modern) = text.split_once("pub mod v2026_07_28").unwrap();
    assert!(wired(legacy).contains(&"InitializeRequest"));
    assert!(wired(legacy).contains(&"JSONRPCMessage"));
    assert!(wired(modern).contains(&"DiscoverRequest"));
    assert!(wired(modern).contains(&"JSONRPCMessage"));
    let all = wired(&text);
    assert!(all.len() > wired(modern).len());
}

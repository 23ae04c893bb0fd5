//! The same `tools/call` handler with rust-mcp-schema 2.0's 2026-07-28 types (see
//! handler_ours.rs), without its `schema_utils` feature (as the benchmarks build it; with it,
//! `CallToolResult::text_content` saves the struct literal).

// --- handler: begin
use rust_mcp_schema::{CallToolRequest, CallToolResult, CallToolResultResponse, TextContent};

fn handle(text: &str) -> serde_json::Result<String> {
    let request: CallToolRequest = serde_json::from_str(text)?;
    let params = &request.params;
    let (text, is_error) = match params.name.as_str() {
        "greet" => {
            let arguments = params.arguments.as_ref();
            let who = arguments
                .and_then(|a| a.get("name")?.as_str())
                .unwrap_or("world");
            (format!("Hello, {who}!"), None)
        }
        other => (format!("no tool {other}"), Some(true)),
    };
    let result = CallToolResult {
        content: vec![TextContent::new(text, None, None).into()],
        is_error,
        meta: None,
        result_type: "complete".to_owned(),
        structured_content: None,
    };
    serde_json::to_string(&CallToolResultResponse::new(request.id, result.into()))
}
// --- handler: end

fn main() -> serde_json::Result<()> {
    println!("{}", handle(mcp_bench::handler::REQUEST)?);
    Ok(())
}

//! The same `tools/call` handler three ways (README, "The same handler three ways"): reads a
//! request, answers `greet` with one text block, and any other tool with a tool error. This
//! one uses the types mcp-codegen generates.

use mcp_bench::mcp;

// --- handler: begin (the README's snippet, kept equal to it by tests/tests/readme.rs)
use mcp::prelude::*;

fn handle(text: &str) -> serde_json::Result<String> {
    let request: CallToolRequest = serde_json::from_str(text)?;
    let params = &request.params;
    let result = match params.name.as_str() {
        "greet" => {
            let arguments = params.arguments.as_ref();
            let who = arguments
                .and_then(|a| a.get("name")?.as_str())
                .unwrap_or("world");
            CallToolResult::new(vec![TextContent::new(format!("Hello, {who}!")).into()])
        }
        other => CallToolResult::new(vec![TextContent::new(format!("no tool {other}")).into()])
            .with_is_error(true),
    };
    serde_json::to_string(&request.respond(result))
}
// --- handler: end

fn main() -> serde_json::Result<()> {
    println!("{}", handle(mcp_bench::handler::REQUEST)?);
    Ok(())
}

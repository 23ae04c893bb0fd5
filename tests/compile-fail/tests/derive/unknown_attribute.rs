use mcp_runtime::{McpObject, McpResult};

#[derive(McpObject)]
struct Tool {
    #[mcp(renamed = "inputSchema")]
    input_schema: String,
}

#[derive(McpResult)]
#[mcp(tag = "type")]
enum Outcome {
    Complete(CallToolResult),
}

#[derive(McpResult)]
struct CallToolResult {}

fn main() {
    // No cascade: the impls exist even though the derive failed.
    let _ = serde_json::to_string(&Tool {
        input_schema: String::new(),
    });
}

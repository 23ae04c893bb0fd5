use mcp_runtime::McpResult;

#[derive(McpResult)]
struct CallToolResult {}

#[derive(McpResult)]
enum Outcome {
    Complete(CallToolResult),
    #[mcp(result_type = "complete")]
    AlsoComplete(CallToolResult),
}

fn main() {}

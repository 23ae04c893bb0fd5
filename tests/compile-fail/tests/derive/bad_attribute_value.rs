use mcp_runtime::{McpObject, McpResult};

#[derive(McpObject)]
#[mcp(constant(name = "version", value = 1.5))]
#[mcp(constant(name = "jsonrpc"))]
struct Message {
    #[mcp(rename)]
    id: i64,
    #[mcp(default = true)]
    tags: Vec<String>,
}

#[derive(McpResult)]
#[mcp(result_type = complete)]
struct CallToolResult {}

#[derive(McpResult)]
enum Outcome {
    #[mcp(result_type = "")]
    Complete(CallToolResult),
    Finished(CallToolResult),
}

fn main() {}

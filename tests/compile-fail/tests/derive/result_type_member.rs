use mcp_runtime::McpResult;

#[derive(McpResult)]
struct CallToolResult {
    #[mcp(rename = "resultType")]
    kind: String,
    content: Vec<String>,
}

fn main() {}

use mcp_runtime::{McpResult, McpUnion};

#[derive(McpResult)]
struct CallToolResult {}

#[derive(McpResult)]
enum Outcome {
    Complete(CallToolResult),
    InputRequired { state: String },
}

#[derive(McpUnion)]
#[mcp(by_json_type)]
enum RequestId {
    #[mcp(json = "string")]
    String(String, String),
    #[mcp(json = "integer")]
    Integer,
}

fn main() {}

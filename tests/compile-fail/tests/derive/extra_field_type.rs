use mcp_runtime::McpObject;
use std::collections::HashMap;

#[derive(McpObject)]
struct Tool {
    name: String,
    #[mcp(extra)]
    extra: HashMap<String, String>,
}

fn main() {}

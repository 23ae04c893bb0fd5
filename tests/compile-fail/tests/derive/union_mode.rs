use mcp_runtime::McpUnion;

#[derive(McpUnion)]
enum NoMode {
    A(String),
}

#[derive(McpUnion)]
#[mcp(by_json_type, by_shape)]
enum TwoModes {
    #[mcp(json = "string", tag_value = "a")]
    A(String),
    #[mcp(json = "str")]
    B(String),
}

fn main() {}

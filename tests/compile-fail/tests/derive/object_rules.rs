use mcp_runtime::{Extra, McpObject};

// Every broken rule is reported, each at the item that breaks it.
#[derive(McpObject)]
#[mcp(constant(name = "id", value = "x"))]
#[mcp(at_least_one_of("inputRequests", "name"))]
struct Broken {
    id: i64,
    name: String,
    #[mcp(default)]
    size: Option<u32>,
    #[mcp(keep_null)]
    count: u32,
    #[mcp(extra)]
    extra: Extra,
    #[mcp(extra)]
    more: Extra,
}

fn main() {}

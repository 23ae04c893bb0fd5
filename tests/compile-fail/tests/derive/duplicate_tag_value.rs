use mcp_runtime::{McpObject, McpUnion};

#[derive(McpObject)]
#[mcp(constant(name = "type", value = "text"))]
struct TextContent {
    text: String,
}

#[derive(McpObject)]
#[mcp(constant(name = "type", value = "text"))]
struct RichText {
    html: String,
}

#[derive(McpUnion)]
#[mcp(tag = "type")]
enum ContentBlock {
    #[mcp(tag_value = "text", default)]
    Text(TextContent),
    #[mcp(tag_value = "text", default)]
    Rich(RichText),
}

fn main() {}

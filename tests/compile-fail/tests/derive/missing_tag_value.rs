use mcp_runtime::{McpObject, McpUnion};

#[derive(McpObject)]
#[mcp(constant(name = "type", value = "text"))]
struct TextContent {
    text: String,
}

#[derive(McpObject)]
#[mcp(constant(name = "type", value = "image"))]
struct ImageContent {
    data: String,
}

#[derive(McpUnion)]
#[mcp(tag = "type")]
enum ContentBlock {
    #[mcp(tag_value = "text")]
    Text(TextContent),
    Image(ImageContent),
}

fn main() {}

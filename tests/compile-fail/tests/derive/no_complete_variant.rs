use mcp_runtime::{Extra, McpResult};

#[derive(McpResult)]
#[mcp(result_type = "input_required")]
struct InputRequiredResult {
    #[mcp(extra)]
    extra: Extra,
}

#[derive(McpResult)]
enum OnlyInput {
    InputRequired(InputRequiredResult),
}

fn main() {}

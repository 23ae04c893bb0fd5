use mcp_runtime::{Extra, McpResult};

#[derive(McpResult)]
#[mcp(result_type = "input_required")]
struct InputRequiredResult {
    #[mcp(extra)]
    extra: Extra,
}

// The variant says complete, its type says input_required.
#[derive(McpResult)]
enum Outcome {
    Complete(InputRequiredResult),
}

fn main() {}

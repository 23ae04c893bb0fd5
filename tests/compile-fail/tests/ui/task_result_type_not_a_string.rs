// `result_type` takes a string literal.
use mcp_runtime::McpResult;

#[derive(Debug, McpResult)]
#[mcp(result_type = task)]
struct MyTask {
    id: String,
}

fn main() {}

// A variant marked resultType "task" must hold a result type whose RESULT_TYPE is "task".
use mcp_runtime::McpResult;
use mcp_compile_fail::tasks as mcp;

#[derive(Debug, McpResult)]
#[mcp(request = mcp::CallToolRequest)]
enum CallToolOutcome {
    Complete(mcp::CallToolResult),
    #[mcp(result_type = "task")]
    Task(mcp::CallToolResult),
}

fn main() {}

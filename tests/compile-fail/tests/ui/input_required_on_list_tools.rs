use mcp_runtime::McpResult;
use mcp_compile_fail::mcp;

#[derive(Debug, McpResult)]
#[mcp(request = mcp::ListToolsRequest)]
enum ListToolsOutcome {
    Complete(mcp::ListToolsResult),
    InputRequired(mcp::InputRequiredResult),
}

fn main() {}

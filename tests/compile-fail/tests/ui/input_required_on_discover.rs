use mcp_runtime::McpResult;
use mcp_compile_fail::mcp;

#[derive(Debug, McpResult)]
#[mcp(request = mcp::DiscoverRequest)]
enum DiscoverOutcome {
    Complete(mcp::DiscoverResult),
    InputRequired(mcp::InputRequiredResult),
}

fn main() {}

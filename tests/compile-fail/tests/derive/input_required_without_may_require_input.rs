use mcp_runtime::{Extra, McpResult, Request};

#[derive(McpResult)]
struct ListToolsResult {
    tools: Vec<String>,
}

#[derive(McpResult)]
#[mcp(result_type = "input_required")]
struct InputRequiredResult {
    #[mcp(extra)]
    extra: Extra,
}

/// A request that the schema never answers with input_required: it implements `Request` but
/// not `MayRequireInput`.
struct ListToolsRequest;

impl Request for ListToolsRequest {
    const METHOD: &'static str = "tools/list";
    type Params = ();
    type Result = ListToolsResult;
}

#[derive(McpResult)]
#[mcp(request = ListToolsRequest)]
enum ListToolsOutcome {
    Complete(ListToolsResult),
    InputRequired(InputRequiredResult),
}

fn main() {}

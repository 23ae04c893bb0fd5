#![deny(warnings)]

use mcp_runtime::{Extra, MayRequireInput, McpResult, Request};

#[derive(Debug, Clone, PartialEq, McpResult)]
struct CallToolResult {
    content: Vec<serde_json::Value>,
}

#[derive(Debug, Clone, PartialEq, McpResult)]
#[mcp(
    result_type = "input_required",
    at_least_one_of("inputRequests", "requestState")
)]
struct InputRequiredResult {
    #[mcp(rename = "inputRequests")]
    input_requests: Option<Extra>,
    #[mcp(rename = "requestState")]
    request_state: Option<String>,
    #[mcp(extra)]
    extra: Extra,
}

struct CallToolRequest;

impl Request for CallToolRequest {
    const METHOD: &'static str = "tools/call";
    type Params = ();
    type Result = MyToolOutcome;
}

impl MayRequireInput for CallToolRequest {}

#[derive(Debug, Clone, PartialEq, McpResult)]
#[mcp(request = CallToolRequest)]
enum MyToolOutcome {
    Complete(CallToolResult),
    InputRequired(InputRequiredResult),
}

fn main() {
    let o: MyToolOutcome =
        serde_json::from_str(r#"{"resultType":"input_required","requestState":"s"}"#).unwrap();
    assert!(matches!(o, MyToolOutcome::InputRequired(_)));
    let o: MyToolOutcome = serde_json::from_str(r#"{"content":[]}"#).unwrap();
    assert!(matches!(o, MyToolOutcome::Complete(_)));
}

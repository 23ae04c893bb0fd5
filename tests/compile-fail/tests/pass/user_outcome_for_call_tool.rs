use mcp_runtime::McpResult;
use mcp_compile_fail::mcp;

#[derive(Debug, Clone, PartialEq, McpResult)]
#[mcp(request = mcp::CallToolRequest)]
enum MyToolOutcome {
    Complete(mcp::CallToolResult),
    InputRequired(mcp::InputRequiredResult),
}

fn main() {
    let o: MyToolOutcome = serde_json::from_str(r#"{"resultType":"input_required","requestState":"s"}"#).unwrap();
    assert!(matches!(o, MyToolOutcome::InputRequired(_)));
    let o: MyToolOutcome = serde_json::from_str(r#"{"content":[]}"#).unwrap();
    assert!(matches!(o, MyToolOutcome::Complete(_)));
}

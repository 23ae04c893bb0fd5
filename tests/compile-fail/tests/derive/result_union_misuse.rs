use mcp_runtime::{Extra, McpResult, Request, ResultType};

#[derive(McpResult)]
struct Result {
    #[mcp(result_type)]
    result_type: ResultType,
    #[mcp(extra)]
    extra: Extra,
}

#[derive(McpResult)]
struct ListToolsResult {}

#[derive(McpResult)]
struct CallToolResult {}

#[derive(McpResult)]
#[mcp(result_type = "input_required")]
struct InputRequiredResult {}

#[derive(McpResult)]
enum TwoOthers {
    #[mcp(other)]
    Result(Result),
    #[mcp(other)]
    Again(Result),
}

#[derive(McpResult)]
enum OtherWithResultType {
    #[mcp(other, result_type = "complete")]
    Result(Result),
}

#[derive(McpResult)]
enum OtherWithMethod {
    #[mcp(other, method = "ping")]
    Ping(Result),
}

#[derive(McpResult)]
enum MethodTwice {
    #[mcp(other)]
    Result(Result),
    #[mcp(method = "tools/list")]
    ListToolsResult(ListToolsResult),
    #[mcp(methods("tools/call", "tools/list"))]
    CallToolResult(CallToolResult),
    #[mcp(result_type = "input_required", methods("tools/call", "tools/call"))]
    InputRequiredResult(InputRequiredResult),
}

#[derive(McpResult)]
enum MethodsOnComplete {
    #[mcp(result_type = "complete", methods("tools/call"))]
    Complete(CallToolResult),
}

#[derive(McpResult)]
enum BadValues {
    #[mcp(methods = "tools/list")]
    A(ListToolsResult),
    #[mcp(method = "")]
    B(CallToolResult),
    #[mcp(methods())]
    C(CallToolResult),
    #[mcp(other = true)]
    D(Result),
}

struct CallToolRequest;

impl Request for CallToolRequest {
    const METHOD: &'static str = "tools/call";
    type Params = ();
    type Result = Result;
}

#[derive(McpResult)]
#[mcp(request = CallToolRequest)]
enum OutcomeWithOther {
    Complete(CallToolResult),
    #[mcp(other)]
    Result(Result),
}

#[derive(McpResult)]
#[mcp(method = "tools/list")]
struct MethodOnStruct {}

#[derive(McpResult)]
enum MethodVariantOfAnotherResultType {
    #[mcp(other)]
    Result(Result),
    #[mcp(method = "tools/call")]
    InputRequired(InputRequiredResult),
}

fn main() {
    // The fallback keeps from_method, so that its callers see no second error.
    let _ = TwoOthers::from_method("tools/list", mcp_runtime::__private::serde_json::Value::Null);
}

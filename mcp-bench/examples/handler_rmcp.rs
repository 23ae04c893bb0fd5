//! The same `tools/call` handler with rmcp 3.11's model types (see handler_ours.rs).

// --- handler: begin
use rmcp::model::{CallToolRequest, CallToolResult, ContentBlock, JsonRpcRequest, JsonRpcResponse};

fn handle(text: &str) -> serde_json::Result<String> {
    let request: JsonRpcRequest<CallToolRequest> = serde_json::from_str(text)?;
    let params = &request.request.params;
    let result = match params.name.as_ref() {
        "greet" => {
            let arguments = params.arguments.as_ref();
            let who = arguments
                .and_then(|a| a.get("name")?.as_str())
                .unwrap_or("world");
            CallToolResult::success(vec![ContentBlock::text(format!("Hello, {who}!"))])
        }
        other => CallToolResult::error(vec![ContentBlock::text(format!("no tool {other}"))]),
    };
    let response = JsonRpcResponse {
        jsonrpc: Default::default(),
        id: request.id,
        result,
    };
    serde_json::to_string(&response)
}
// --- handler: end

fn main() -> serde_json::Result<()> {
    println!("{}", handle(mcp_bench::handler::REQUEST)?);
    Ok(())
}

//! Builders of the values every feature answers with (content blocks, tool and prompt
//! results, tool input schemas), shared by the plain tools and prompts (`features`), the
//! tools that ask first (`asking`, `mrtr`) and the tasks' tools. `Served` names the server in
//! every result's `_meta`.

use serde_json::{Value, json};

use crate::mcp;

/// A text content block.
pub fn text(s: impl Into<String>) -> mcp::ContentBlock {
    mcp::TextContent::new(s).into()
}

/// A complete tool result.
pub fn tool_result(content: Vec<mcp::ContentBlock>) -> mcp::CallToolOutcome {
    mcp::CallToolResult::new(content).into()
}

/// A tool result of one text block (what a task's work ends with).
pub fn text_result(s: impl Into<String>) -> mcp::CallToolResult {
    mcp::CallToolResult::new(vec![text(s)])
}

/// A tool's answer of one text block.
pub fn told(s: impl Into<String>) -> Result<mcp::CallToolOutcome, mcp_runtime::RpcError> {
    Ok(tool_result(vec![text(s)]))
}

/// The answer to arguments that fail a tool's own validation: a tool result with
/// `isError: true` that says what is wrong, so that the model can correct the call. A
/// protocol error (`INVALID_PARAMS`) is for an unknown tool or a malformed request, not for this
/// (2026-07-28 tools.mdx, "Error Handling").
pub fn tool_input_error(message: impl Into<String>) -> mcp::CallToolOutcome {
    text_result(message).with_is_error(true).into()
}

/// A tool's input schema: an object with `properties` and the `required` names.
pub fn schema(properties: Value, required: &[&str]) -> Value {
    match required {
        [] => json!({"type": "object", "properties": properties}),
        _ => json!({"type": "object", "properties": properties, "required": required}),
    }
}

/// The input schema of a tool of no arguments.
pub fn no_arguments() -> Value {
    schema(json!({}), &[])
}

/// The argument `key` of a call, as a string.
pub fn string_arg<'a>(params: &'a mcp::CallToolRequestParams, key: &str) -> Option<&'a str> {
    params.arguments.as_ref()?.get(key)?.as_str()
}

/// A prompt message from the user.
pub fn user(content: mcp::ContentBlock) -> mcp::PromptMessage {
    mcp::PromptMessage::new(content, mcp::Role::User)
}

/// A complete prompt result.
pub fn prompt_result(messages: Vec<mcp::PromptMessage>) -> mcp::GetPromptOutcome {
    mcp::GetPromptResult::new(messages).into()
}

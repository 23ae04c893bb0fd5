//! Builders of the values every feature answers with (content blocks, tool and prompt
//! results, tool declarations), shared by the plain tools and prompts (`features`), the
//! tools that ask first (`asking`, `mrtr`) and the tasks' tools.

use serde_json::{Value, json};

use crate::{mcp, result_meta};

/// A text content block.
pub fn text(s: impl Into<String>) -> mcp::ContentBlock {
    mcp::TextContent::new(s).into()
}

/// A complete tool result with the server's result `_meta`.
pub fn tool_result(content: Vec<mcp::ContentBlock>) -> mcp::CallToolOutcome {
    mcp::CallToolResult::new(content)
        .with_meta(result_meta())
        .into()
}

/// The answer to arguments that fail a tool's own validation: a tool result with
/// `isError: true` that says what is wrong, so that the model can correct the call. A
/// protocol error (`INVALID_PARAMS`) is for an unknown tool or a malformed request, not for this
/// (2026-07-28 tools.mdx, "Error Handling").
pub fn tool_input_error(message: impl Into<String>) -> mcp::CallToolOutcome {
    mcp::CallToolResult::new(vec![text(message)])
        .with_meta(result_meta())
        .with_is_error(true)
        .into()
}

/// A tool's input schema: an object with `properties` and the `required` names.
pub fn schema(properties: Value, required: &[&str]) -> mcp::ToolInputSchema {
    // `properties` and `required` are not declared members of ToolInputSchema: they are kept
    // in its bag of undeclared members.
    let mut schema = mcp::ToolInputSchema::new();
    schema.extra.insert("properties".to_owned(), properties);
    if !required.is_empty() {
        schema.extra.insert("required".to_owned(), json!(required));
    }
    schema
}

/// A prompt message from the user.
pub fn user(content: mcp::ContentBlock) -> mcp::PromptMessage {
    mcp::PromptMessage::new(content, mcp::Role::User)
}

/// A complete prompt result with the server's result `_meta`.
pub fn prompt_result(messages: Vec<mcp::PromptMessage>) -> mcp::GetPromptOutcome {
    mcp::GetPromptResult::new(messages)
        .with_meta(result_meta())
        .into()
}

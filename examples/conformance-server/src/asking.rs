//! Tools that ask the client for input, written once in the modern style (an
//! `InputRequiredResult`, completed on the retry): the ones the 2025-11-25 suite calls. A
//! modern client answers their input requests itself; in a legacy session the bridge
//! (`mcp_server::legacy`, `mcp_server::bridge`) sends them to the client as server-to-client requests.

use mcp_runtime::error_code::INTERNAL_ERROR;
use serde_json::{Value, json};

use crate::content::{schema, text, tool, tool_result};
use crate::mcp;
use crate::mrtr::{answers, finish, round, said, sample};
use crate::rpc::Ctx;
use mcp_runtime::RpcError;

const SAMPLING: &str = "test_sampling";
const ELICITATION: &str = "test_elicitation";
const DEFAULTS: &str = "test_elicitation_sep1034_defaults";
const ENUMS: &str = "test_elicitation_sep1330_enums";
/// The key of each tool's one input request.
const KEY: &str = "input";

pub fn is_asking_tool(name: &str) -> bool {
    [SAMPLING, ELICITATION, DEFAULTS, ENUMS].contains(&name)
}

/// The tools' descriptions, for `tools/list`.
pub fn tools() -> Vec<mcp::Tool> {
    let string = |d: &str| json!({"type": "string", "description": d});
    vec![
        tool(
            SAMPLING,
            "Asks the client's LLM to answer the prompt",
            schema(json!({"prompt": string("The prompt")}), &["prompt"]),
        ),
        tool(
            ELICITATION,
            "Asks the user for a name and an email address",
            schema(
                json!({"message": string("The message shown")}),
                &["message"],
            ),
        ),
        tool(
            DEFAULTS,
            "Asks the user with a form whose fields have defaults",
            schema(json!({}), &[]),
        ),
        tool(
            ENUMS,
            "Asks the user with a form of every kind of enumeration",
            schema(json!({}), &[]),
        ),
    ]
}

/// A form-mode elicitation from its schema's JSON (a fixture's literal).
fn form(message: &str, requested: Value) -> Result<mcp::ElicitRequest, RpcError> {
    let requested: mcp::ElicitRequestFormParamsRequestedSchema = serde_json::from_value(requested)
        .map_err(|e| RpcError::new(INTERNAL_ERROR, format!("the form: {e}")))?;
    Ok(mcp::ElicitRequest::new(mcp::ElicitRequestFormParams::new(
        message, requested,
    )))
}

fn argument<'a>(r: &'a mcp::CallToolRequest, name: &str) -> &'a str {
    r.params
        .arguments
        .as_ref()
        .and_then(|a| a.get(name))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// The elicitation's outcome as the tools report it.
fn elicited(answer: &mcp::ElicitResult) -> String {
    let content = serde_json::to_string(&answer.content).unwrap_or_default();
    format!("action={}, content={content}", answer.action)
}

pub fn call_tool(ctx: &Ctx, r: &mcp::CallToolRequest) -> Result<mcp::CallToolOutcome, RpcError> {
    let name = r.params.name.as_str();
    let answer = match (name, answers(r.params.input_responses.as_ref()).get(KEY)) {
        (SAMPLING, Some(mcp::InputResponse::CreateMessageResult(answer))) => {
            Some(format!("LLM response: {}", said(answer)))
        }
        (ELICITATION, Some(mcp::InputResponse::ElicitResult(answer))) => {
            Some(format!("User response: {}", elicited(answer)))
        }
        (DEFAULTS | ENUMS, Some(mcp::InputResponse::ElicitResult(answer))) => {
            Some(format!("Elicitation completed: {}", elicited(answer)))
        }
        _ => None,
    };
    if let Some(answer) = answer {
        return Ok(tool_result(vec![text(answer)]));
    }
    let mut round = round(ctx);
    match name {
        SAMPLING => round.ask(KEY, sample(argument(r, "prompt"), 100))?,
        ELICITATION => round.ask(KEY, form(argument(r, "message"), contact())?)?,
        DEFAULTS => round.ask(KEY, form("Check your details", defaults())?)?,
        _ => round.ask(KEY, form("Choose", enums())?)?,
    };
    Ok(mcp::CallToolOutcome::InputRequired(finish(round)?))
}

fn contact() -> Value {
    json!({"type": "object", "properties": {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"}
    }, "required": ["username", "email"]})
}

/// A field of each primitive type, each with a default (SEP-1034).
fn defaults() -> Value {
    json!({"type": "object", "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
        "verified": {"type": "boolean", "default": true}
    }})
}

/// The five kinds of enumeration (SEP-1330): untitled and titled, single and multiple choice,
/// and the deprecated `enumNames`.
fn enums() -> Value {
    let titled = |prefix: &str, titles: [&str; 3]| -> Vec<Value> {
        titles
            .iter()
            .enumerate()
            .map(|(i, t)| json!({"const": format!("{prefix}{}", i + 1), "title": t}))
            .collect()
    };
    json!({"type": "object", "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {"type": "string", "oneOf": titled("value", ["First Option", "Second Option", "Third Option"])},
        "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"]},
        "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
        "titledMulti": {"type": "array", "items": {"anyOf": titled("value", ["First Choice", "Second Choice", "Third Choice"])}}
    }})
}

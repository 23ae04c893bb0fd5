//! Tools that ask the client for input, written once in the modern style (an
//! `InputRequiredResult`, completed on the retry): the ones the 2025-11-25 suite calls. A
//! modern client answers their input requests itself; in a legacy session the bridge
//! (`mcp_server::legacy`, `mcp_server::bridge`) sends them to the client as server-to-client requests.

use mcp_runtime::error_code::INTERNAL_ERROR;
use serde_json::{Value, json};

use mcp_server::tools::ToolError;

use crate::content::{no_arguments, schema, string_arg, told};
use crate::features::{ToolCall, ToolRouter};
use crate::mrtr::{answers, input_required, round, sample};
use crate::{Ctx, mcp};
use mcp_runtime::RpcError;
use mcp_runtime::mrtr::Answers;

const SAMPLING: &str = "test_sampling";
const ELICITATION: &str = "test_elicitation";
const DEFAULTS: &str = "test_elicitation_sep1034_defaults";
const ENUMS: &str = "test_elicitation_sep1330_enums";
/// The key of each tool's one input request.
const KEY: &str = "input";

/// The tools, each with its function, after those `routes` holds.
pub fn tools(routes: ToolRouter) -> Result<ToolRouter, ToolError> {
    let string = |d: &str| json!({"type": "string", "description": d});
    routes
        .add_with_schema(
            SAMPLING,
            "Asks the client's LLM to answer the prompt",
            schema(json!({"prompt": string("The prompt")}), &["prompt"]),
            async |call: ToolCall| {
                let (ctx, p) = (&call.ctx, &call.params);
                let ask = || Ok(sample(argument(p, "prompt"), 100).into());
                ask_once(ctx, p, ask, |answers| {
                    let answer = answers.sampled(KEY)?.text_or_note();
                    Some(format!("LLM response: {answer}"))
                })
            },
        )?
        .add_with_schema(
            ELICITATION,
            "Asks the user for a name and an email address",
            schema(
                json!({"message": string("The message shown")}),
                &["message"],
            ),
            async |call: ToolCall| {
                let (ctx, p) = (&call.ctx, &call.params);
                let ask = || Ok(form(argument(p, "message"), contact())?.into());
                ask_once(ctx, p, ask, |answers| {
                    elicited(answers).map(|a| format!("User response: {a}"))
                })
            },
        )?
        .add_with_schema(
            DEFAULTS,
            "Asks the user with a form whose fields have defaults",
            no_arguments(),
            async |call: ToolCall| {
                let ask = || Ok(form("Check your details", defaults())?.into());
                ask_once(&call.ctx, &call.params, ask, completed)
            },
        )?
        .add_with_schema(
            ENUMS,
            "Asks the user with a form of every kind of enumeration",
            no_arguments(),
            async |call: ToolCall| {
                let ask = || Ok(form("Choose", enums())?.into());
                ask_once(&call.ctx, &call.params, ask, completed)
            },
        )
}

/// Asks what `ask` builds at [`KEY`], unless the retry brought an answer `report` reports.
fn ask_once(
    ctx: &Ctx,
    p: &mcp::CallToolRequestParams,
    ask: impl FnOnce() -> Result<mcp::InputRequest, RpcError>,
    report: impl FnOnce(&Answers<'_, mcp::InputResponse>) -> Option<String>,
) -> Result<mcp::CallToolOutcome, RpcError> {
    if let Some(answer) = report(&answers(p.input_responses.as_ref())) {
        return told(answer);
    }
    let mut round = round(ctx);
    round.ask(KEY, ask()?)?;
    input_required(round)
}

/// How the form tools report a completed elicitation.
fn completed(answers: &Answers<'_, mcp::InputResponse>) -> Option<String> {
    elicited(answers).map(|a| format!("Elicitation completed: {a}"))
}

/// A form-mode elicitation from its schema's JSON (a fixture's literal).
fn form(message: &str, requested: Value) -> Result<mcp::ElicitRequest, RpcError> {
    let requested: mcp::ElicitRequestFormParamsRequestedSchema = serde_json::from_value(requested)
        .map_err(|e| RpcError::new(INTERNAL_ERROR, format!("the form: {e}")))?;
    Ok(mcp::ElicitRequest::new(mcp::ElicitRequestFormParams::new(
        message, requested,
    )))
}

fn argument<'a>(p: &'a mcp::CallToolRequestParams, name: &str) -> &'a str {
    string_arg(p, name).unwrap_or("")
}

/// The elicitation's outcome at [`KEY`] as the tools report it, if there is one.
fn elicited(answers: &Answers<'_, mcp::InputResponse>) -> Option<String> {
    let Some(mcp::InputResponse::ElicitResult(answer)) = answers.get(KEY) else {
        return None;
    };
    let content = serde_json::to_string(&answer.content).unwrap_or_default();
    Some(format!("action={}, content={content}", answer.action))
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

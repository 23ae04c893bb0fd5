//! Tools that ask the client for input, written once in the modern style (an
//! `InputRequiredResult`, completed on the retry): the ones the 2025-11-25 suite calls. A
//! modern client answers their input requests itself; in a legacy session the bridge
//! (`mcp_server::legacy`, `mcp_server::bridge`) sends them to the client as server-to-client requests.

use mcp_runtime::error_code::INTERNAL_ERROR;
use serde_json::{Value, json};

use mcp_server::tools::ToolError;

use crate::content::{schema, text, tool_result};
use crate::mcp;
use crate::mrtr::{answers, finish, round, said, sample};
use crate::rpc::{Ctx, ToolRoutes};
use mcp_runtime::RpcError;

const SAMPLING: &str = "test_sampling";
const ELICITATION: &str = "test_elicitation";
const DEFAULTS: &str = "test_elicitation_sep1034_defaults";
const ENUMS: &str = "test_elicitation_sep1330_enums";
/// The key of each tool's one input request.
const KEY: &str = "input";

/// The tools, each with its function, after those `routes` holds.
pub fn tools(routes: ToolRoutes) -> Result<ToolRoutes, ToolError> {
    let string = |d: &str| json!({"type": "string", "description": d});
    routes
        .tool(
            SAMPLING,
            "Asks the client's LLM to answer the prompt",
            schema(json!({"prompt": string("The prompt")}), &["prompt"]),
            async |ctx, p| {
                let ask = || Ok(sample(argument(&p, "prompt"), 100).into());
                ask_once(&ctx, &p, ask, |answer| match answer {
                    mcp::InputResponse::CreateMessageResult(answer) => {
                        Some(format!("LLM response: {}", said(answer)))
                    }
                    _ => None,
                })
            },
        )?
        .tool(
            ELICITATION,
            "Asks the user for a name and an email address",
            schema(
                json!({"message": string("The message shown")}),
                &["message"],
            ),
            async |ctx, p| {
                let ask = || Ok(form(argument(&p, "message"), contact())?.into());
                ask_once(&ctx, &p, ask, |answer| {
                    elicited(answer).map(|a| format!("User response: {a}"))
                })
            },
        )?
        .plain(
            DEFAULTS,
            "Asks the user with a form whose fields have defaults",
            async |ctx, p| {
                let ask = || Ok(form("Check your details", defaults())?.into());
                ask_once(&ctx, &p, ask, completed)
            },
        )?
        .plain(
            ENUMS,
            "Asks the user with a form of every kind of enumeration",
            async |ctx, p| {
                let ask = || Ok(form("Choose", enums())?.into());
                ask_once(&ctx, &p, ask, completed)
            },
        )
}

/// Asks what `ask` builds at [`KEY`], unless the retry brought an answer `told` reports.
fn ask_once(
    ctx: &Ctx,
    p: &mcp::CallToolRequestParams,
    ask: impl FnOnce() -> Result<mcp::InputRequest, RpcError>,
    told: impl FnOnce(&mcp::InputResponse) -> Option<String>,
) -> Result<mcp::CallToolOutcome, RpcError> {
    if let Some(answer) = answers(p.input_responses.as_ref()).get(KEY).and_then(told) {
        return Ok(tool_result(vec![text(answer)]));
    }
    let mut round = round(ctx);
    round.ask(KEY, ask()?)?;
    Ok(mcp::CallToolOutcome::InputRequired(finish(round)?))
}

/// How the form tools report a completed elicitation.
fn completed(answer: &mcp::InputResponse) -> Option<String> {
    elicited(answer).map(|a| format!("Elicitation completed: {a}"))
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
    crate::features::string_arg(p, name).unwrap_or("")
}

/// An elicitation's outcome as the tools report it, if `answer` is one.
fn elicited(answer: &mcp::InputResponse) -> Option<String> {
    let mcp::InputResponse::ElicitResult(answer) = answer else {
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

//! The tools that run as tasks, the fixtures of the suite's `tasks-*` scenarios. Each says
//! whether it needs a task: `slow_compute` runs as one only for a client that advertised the
//! extension (and in the request otherwise); the others can only run as one, so a request
//! without the extension is refused with `MISSING_REQUIRED_CLIENT_CAPABILITY`.

use std::sync::Arc;
use std::time::Duration;

use mcp_runtime::error_code::{INTERNAL_ERROR, INVALID_PARAMS};
use serde_json::{Map, Value, json};

use super::store::{NotCreated, Outcome, Worker};
use super::{Proof, advertised, created};
use crate::content::{schema, text, tool, tool_input_error};
use crate::mcp;
use crate::mrtr::{
    ConfirmField, NameField, answers, ask_name, boolean_field, elicit, round, string_field,
};
use crate::rpc::Ctx;
use mcp_runtime::RpcError;

const SLOW_COMPUTE: &str = "slow_compute";
const FAILING_JOB: &str = "failing_job";
const PROTOCOL_ERROR_JOB: &str = "protocol_error_job";
const CONFIRM_DELETE: &str = "confirm_delete";
const MULTI_INPUT: &str = "multi_input";
const TOOL_WITH_TASK: &str = "test_tool_with_task";

/// The tools that run as tasks, in the order `tools/list` gives them.
pub fn tools() -> Vec<mcp::Tool> {
    vec![
        tool(
            SLOW_COMPUTE,
            "Waits `seconds` seconds, then answers; a task for a client that advertised the tasks extension",
            schema(
                json!({"seconds": {"type": "number", "minimum": 0}, "label": {"type": "string"}}),
                &["seconds"],
            ),
        ),
        tool(
            FAILING_JOB,
            "Always a task: ends after about a second with a tool error (isError)",
            schema(json!({}), &[]),
        ),
        tool(
            PROTOCOL_ERROR_JOB,
            "Always a task: ends failed, with a JSON-RPC internal error",
            schema(json!({}), &[]),
        ),
        tool(
            CONFIRM_DELETE,
            "Always a task: asks for a confirmation (input_required) before it deletes the file",
            schema(json!({"filename": {"type": "string"}}), &["filename"]),
        ),
        tool(
            MULTI_INPUT,
            "Always a task: asks for two inputs at once, answered together or one by one",
            schema(json!({}), &[]),
        ),
        tool(
            TOOL_WITH_TASK,
            "Asks the user's name in an InputRequiredResult, then always continues as a task",
            schema(json!({}), &[]),
        ),
    ]
}

/// Whether `name` is one of [`tools`].
pub fn is_task_tool(name: &str) -> bool {
    tools().iter().any(|t| t.name == name)
}

/// Calls one of [`tools`]: a `CreateTaskResult` for a client that advertised the extension;
/// otherwise `slow_compute` runs within the request and the others are refused.
pub async fn call_tool(
    ctx: &Ctx,
    r: &mcp::CallToolRequest,
) -> Result<mcp::CallToolOutcome, RpcError> {
    let name = r.params.name.as_str();
    let no_arguments = Map::new();
    let args = r.params.arguments.as_ref().unwrap_or(&no_arguments);
    let Some(proof) = advertised(ctx) else {
        if name == SLOW_COMPUTE {
            return Ok(match compute_args(args) {
                Ok((seconds, label)) => complete(slow_compute(seconds, label).await),
                Err(message) => tool_input_error(message),
            });
        }
        return Err(RpcError::missing_extension::<mcp::TasksExtension>());
    };
    match name {
        SLOW_COMPUTE => match compute_args(args) {
            Ok((seconds, label)) => {
                start(ctx, &proof, move |_| async move {
                    Ok(slow_compute(seconds, label).await)
                })
                .await
            }
            // Checked before a task is made: the answer is the tool error, within the request.
            Err(message) => Ok(tool_input_error(message)),
        },
        FAILING_JOB => {
            start(ctx, &proof, |_| async {
                tokio::time::sleep(Duration::from_secs(1)).await;
                Ok(
                    mcp::CallToolResult::new(vec![text("The job failed: nothing to process")])
                        .with_is_error(true),
                )
            })
            .await
        }
        PROTOCOL_ERROR_JOB => {
            start(ctx, &proof, |_| async {
                tokio::time::sleep(Duration::from_millis(200)).await;
                Err(mcp::Error::new(
                    INTERNAL_ERROR,
                    "Internal error: the job's backend went away",
                ))
            })
            .await
        }
        CONFIRM_DELETE => {
            let filename = string_arg(args, "filename")
                .unwrap_or("(unnamed)")
                .to_owned();
            let mut round = round(ctx);
            round.ask(
                "confirm",
                elicit(
                    &format!("Delete {filename}?"),
                    vec![("confirm", boolean_field("Delete the file"))],
                ),
            )?;
            let requests = round.requests();
            start(ctx, &proof, move |w| confirm_delete(w, requests, filename)).await
        }
        MULTI_INPUT => {
            let mut round = round(ctx);
            round.ask(
                "name",
                elicit("Your name?", vec![("name", string_field("Your name"))]),
            )?;
            round.ask(
                "confirm",
                elicit("Go ahead?", vec![("confirm", boolean_field("Go ahead"))]),
            )?;
            let requests = round.requests();
            start(ctx, &proof, move |w| multi_input(w, requests)).await
        }
        TOOL_WITH_TASK => tool_with_task(ctx, r, &proof).await,
        other => Err(RpcError::new(
            INVALID_PARAMS,
            format!("Unknown tool: {other}"),
        )),
    }
}

/// Creates the task running `work` and answers with it, through the proof.
async fn start<F, Fut>(ctx: &Ctx, proof: &Proof, work: F) -> Result<mcp::CallToolOutcome, RpcError>
where
    F: FnOnce(Worker) -> Fut,
    Fut: std::future::Future<Output = Outcome> + Send + 'static,
{
    let task = mcp_server::tasks::create(Arc::clone(&ctx.app.tasks), &ctx.principal, work)
        .await
        .map_err(|e| match e {
            NotCreated::NoId(_) => RpcError::new(INTERNAL_ERROR, e.to_string()),
            NotCreated::PrincipalFull(_) | NotCreated::ServerFull(_) => {
                mcp_server::bound_reached(e.to_string())
            }
            NotCreated::Unavailable(e) => super::unavailable_after(&e),
        })?;
    Ok(mcp::CallToolOutcome::Task(proof.grant(created(&task))))
}

fn complete(result: mcp::CallToolResult) -> mcp::CallToolOutcome {
    result.with_meta(crate::result_meta()).into()
}

fn string_arg<'a>(args: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

/// `seconds` (a number from 0 to an hour) and `label` of `slow_compute`, or what is wrong
/// with them (answered as a tool error, not a protocol error).
fn compute_args(args: &Map<String, Value>) -> Result<(f64, String), &'static str> {
    let seconds = args.get("seconds").and_then(Value::as_f64).unwrap_or(0.0);
    if !(0.0..=3600.0).contains(&seconds) {
        return Err("slow_compute needs seconds between 0 and 3600");
    }
    let label = string_arg(args, "label").unwrap_or("compute").to_owned();
    Ok((seconds, label))
}

async fn slow_compute(seconds: f64, label: String) -> mcp::CallToolResult {
    tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
    mcp::CallToolResult::new(vec![text(format!("{label}: computed after {seconds} s"))])
}

/// The task ended while the work waited for input; nobody reads this outcome.
fn ended() -> Outcome {
    Err(mcp::Error::new(INTERNAL_ERROR, "the task ended"))
}

async fn confirm_delete(w: Worker, requests: mcp::InputRequests, filename: String) -> Outcome {
    let Some(given) = w.ask(requests, "Waiting for the confirmation").await else {
        return ended();
    };
    let confirmed = answers(Some(&given))
        .accepted::<ConfirmField>("confirm")
        .ok()
        .flatten()
        .and_then(|a| a.confirm)
        .unwrap_or(false);
    let verdict = if confirmed { "Deleted" } else { "Kept" };
    Ok(mcp::CallToolResult::new(vec![text(format!(
        "{verdict} {filename}"
    ))]))
}

async fn multi_input(w: Worker, requests: mcp::InputRequests) -> Outcome {
    let Some(given) = w.ask(requests, "Waiting for two inputs").await else {
        return ended();
    };
    let given = answers(Some(&given));
    let name = given.accepted::<NameField>("name").ok().flatten();
    let confirm = given.accepted::<ConfirmField>("confirm").ok().flatten();
    Ok(mcp::CallToolResult::new(vec![text(format!(
        "name={}; confirm={}",
        name.and_then(|a| a.name).unwrap_or_default(),
        confirm
            .and_then(|a| a.confirm)
            .map(|c| c.to_string())
            .unwrap_or_default()
    ))]))
}

/// Multi round-trip first, then a task: the name is asked in an `InputRequiredResult` (all
/// input gathered before the task exists), and the retry that brings it creates the task.
async fn tool_with_task(
    ctx: &Ctx,
    r: &mcp::CallToolRequest,
    proof: &Proof,
) -> Result<mcp::CallToolOutcome, RpcError> {
    let answers = answers(r.params.input_responses.as_ref());
    if let Some(answer) = answers.elicited::<NameField>("user_name")? {
        let name = answer
            .accepted()
            .and_then(|a| a.name)
            .unwrap_or_else(|| "stranger".to_owned());
        return start(ctx, proof, move |_| async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            Ok(mcp::CallToolResult::new(vec![text(format!(
                "Hello, {name}!"
            ))]))
        })
        .await;
    }
    Ok(mcp::CallToolOutcome::InputRequired(ask_name(ctx)?))
}

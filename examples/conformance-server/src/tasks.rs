//! The tools that run as tasks (`Served::tasks`, the tasks extension), the fixtures of the
//! suite's `tasks-*` scenarios. Each says whether it needs a task: `slow_compute` runs as one
//! only for a client that advertised the extension (and in the request otherwise); the others
//! can only run as one, so a request without the extension is refused with
//! `MISSING_REQUIRED_CLIENT_CAPABILITY`.

use std::collections::BTreeMap;
use std::time::Duration;

use mcp_runtime::RpcError;
use mcp_runtime::error_code::INTERNAL_ERROR;
use mcp_server::tasks::serve::TaskWorker;
use mcp_server::tools::ToolError;
use serde_json::json;

use crate::content::{no_arguments, schema, string_arg, text_result, tool_input_error};
use crate::features::{ToolCall, ToolRouter};
use crate::mrtr::{
    ConfirmField, NameField, answers, ask_name, boolean_field, elicit, round, string_field,
};
use crate::{Ctx, Mcp, mcp};

/// The input requests of one round, by key.
type Requests = BTreeMap<String, mcp::InputRequest>;

const SLOW_COMPUTE: &str = "slow_compute";
const FAILING_JOB: &str = "failing_job";
const PROTOCOL_ERROR_JOB: &str = "protocol_error_job";
const CONFIRM_DELETE: &str = "confirm_delete";
const MULTI_INPUT: &str = "multi_input";
const TOOL_WITH_TASK: &str = "test_tool_with_task";

/// The tasks of this server's module.
type Tasks = mcp_server::tasks::serve::Tasks<Mcp>;

/// The proof that the request advertised the extension.
type Proof = mcp_server::tasks::serve::Proof<Mcp>;

/// What a task's work holds: the way to ask its client for input.
type Worker = TaskWorker<Mcp>;

/// How a task's work ends: the tool's result (a tool error included), or the JSON-RPC error
/// the request would have been answered with.
type Outcome = Result<mcp::CallToolResult, mcp::Error>;

/// What a tool of this module answers.
type Answer = Result<mcp::CallToolOutcome, RpcError>;

/// The tools that run as tasks, each with its function, after those `routes` holds.
pub fn tools(routes: ToolRouter) -> Result<ToolRouter, ToolError> {
    routes
        .add_with_schema(
            SLOW_COMPUTE,
            "Waits `seconds` seconds, then answers; a task for a client that advertised the tasks extension",
            schema(
                json!({"seconds": {"type": "number", "minimum": 0}, "label": {"type": "string"}}),
                &["seconds"],
            ),
            async |call: ToolCall| {
                // Checked before a task is made: the answer is the tool error, within the request.
                let (seconds, label) = match compute_args(&call.params) {
                    Ok(args) => args,
                    Err(message) => return Ok(tool_input_error(message)),
                };
                match Tasks::advertised(&call.ctx) {
                    Some(proof) => {
                        let work = move |_| async move { Ok(slow_compute(seconds, label).await) };
                        start(&call.ctx, &proof, work).await
                    }
                    None => Ok(slow_compute(seconds, label).await.into()),
                }
            },
        )?
        .add_with_schema(
            FAILING_JOB,
            "Always a task: ends after about a second with a tool error (isError)",
            no_arguments(),
            async |call: ToolCall| {
                let (ctx, proof) = (&call.ctx, Tasks::required(&call.ctx)?);
                start(ctx, &proof, |_| async {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    Ok(text_result("The job failed: nothing to process").with_is_error(true))
                })
                .await
            },
        )?
        .add_with_schema(
            PROTOCOL_ERROR_JOB,
            "Always a task: ends failed, with a JSON-RPC internal error",
            no_arguments(),
            async |call: ToolCall| {
                let (ctx, proof) = (&call.ctx, Tasks::required(&call.ctx)?);
                start(ctx, &proof, |_| async {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    Err(mcp::Error::new(
                        INTERNAL_ERROR,
                        "Internal error: the job's backend went away",
                    ))
                })
                .await
            },
        )?
        .add_with_schema(
            CONFIRM_DELETE,
            "Always a task: asks for a confirmation (input_required) before it deletes the file",
            schema(json!({"filename": {"type": "string"}}), &["filename"]),
            async |call: ToolCall| {
                let (ctx, p) = (&call.ctx, &call.params);
                let proof = Tasks::required(ctx)?;
                let filename = string_arg(p, "filename").unwrap_or("(unnamed)").to_owned();
                let mut round = round(ctx);
                let field = boolean_field("Delete the file");
                round.ask("confirm", elicit(&format!("Delete {filename}?"), "confirm", field))?;
                let requests = round.requests();
                start(ctx, &proof, move |w| confirm_delete(w, requests, filename)).await
            },
        )?
        .add_with_schema(
            MULTI_INPUT,
            "Always a task: asks for two inputs at once, answered together or one by one",
            no_arguments(),
            async |call: ToolCall| {
                let (ctx, proof) = (&call.ctx, Tasks::required(&call.ctx)?);
                let mut round = round(ctx);
                let name = elicit("Your name?", "name", string_field("Your name"));
                round.ask("name", name)?;
                let confirm = elicit("Go ahead?", "confirm", boolean_field("Go ahead"));
                round.ask("confirm", confirm)?;
                let requests = round.requests();
                start(ctx, &proof, move |w| multi_input(w, requests)).await
            },
        )?
        .add_with_schema(
            TOOL_WITH_TASK,
            "Asks the user's name in an InputRequiredResult, then always continues as a task",
            no_arguments(),
            async |call: ToolCall| {
                let (ctx, p) = (&call.ctx, &call.params);
                let proof = Tasks::required(ctx)?;
                tool_with_task(ctx, p, &proof).await
            },
        )
}

/// Creates the task running `work` and answers with it, through the proof.
async fn start<F, Fut>(ctx: &Ctx, proof: &Proof, work: F) -> Answer
where
    F: FnOnce(Worker) -> Fut,
    Fut: std::future::Future<Output = Outcome> + Send + 'static,
{
    ctx.state.tasks.create(ctx, proof, work).await
}

/// `seconds` (a number from 0 to an hour) and `label` of `slow_compute`, or what is wrong
/// with them (answered as a tool error, not a protocol error).
fn compute_args(p: &mcp::CallToolRequestParams) -> Result<(f64, String), &'static str> {
    let seconds = p
        .arguments
        .as_ref()
        .and_then(|a| a.get("seconds")?.as_f64());
    let seconds = seconds.unwrap_or(0.0);
    if !(0.0..=3600.0).contains(&seconds) {
        return Err("slow_compute needs seconds between 0 and 3600");
    }
    let label = string_arg(p, "label").unwrap_or("compute").to_owned();
    Ok((seconds, label))
}

async fn slow_compute(seconds: f64, label: String) -> mcp::CallToolResult {
    tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
    text_result(format!("{label}: computed after {seconds} s"))
}

/// The task ended while the work waited for input; nobody reads this outcome.
fn ended() -> Outcome {
    Err(mcp::Error::new(INTERNAL_ERROR, "the task ended"))
}

async fn confirm_delete(w: Worker, requests: Requests, filename: String) -> Outcome {
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
    Ok(text_result(format!("{verdict} {filename}")))
}

async fn multi_input(w: Worker, requests: Requests) -> Outcome {
    let Some(given) = w.ask(requests, "Waiting for two inputs").await else {
        return ended();
    };
    let given = answers(Some(&given));
    let name = given.accepted::<NameField>("name").ok().flatten();
    let name = name.and_then(|a| a.name).unwrap_or_default();
    let confirm = given.accepted::<ConfirmField>("confirm").ok().flatten();
    let confirm = confirm.and_then(|a| a.confirm).map(|c| c.to_string());
    let confirm = confirm.unwrap_or_default();
    Ok(text_result(format!("name={name}; confirm={confirm}")))
}

/// Multi round-trip first, then a task: the name is asked in an `InputRequiredResult` (all
/// input gathered before the task exists), and the retry that brings it creates the task.
async fn tool_with_task(ctx: &Ctx, p: &mcp::CallToolRequestParams, proof: &Proof) -> Answer {
    let answers = answers(p.input_responses.as_ref());
    if let Some(answer) = answers.elicited::<NameField>("user_name")? {
        let name = answer
            .accepted()
            .and_then(|a| a.name)
            .unwrap_or_else(|| "stranger".to_owned());
        return start(ctx, proof, move |_| async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            Ok(text_result(format!("Hello, {name}!")))
        })
        .await;
    }
    Ok(mcp::CallToolOutcome::InputRequired(ask_name(ctx)?))
}

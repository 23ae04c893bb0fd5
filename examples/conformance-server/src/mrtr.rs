//! Multi round-trip requests (SEP-2322): the tools and the prompt that answer with an
//! `InputRequiredResult` first and complete on the retry, written with `mcp_runtime::mrtr`'s
//! helpers:
//!
//! - a [`Round`] of input requests refuses a request the client's capabilities do not allow
//!   (the `MissingRequiredClientCapabilityError`, HTTP 400);
//! - the retry's answers are read by key ([`Answers`]), an elicitation's accepted content as a
//!   typed value ([`Elicited`]); a missing answer is asked again, answers to keys that were
//!   not asked are ignored (and `inputResponses` that are not responses at all were already
//!   refused with `INVALID_PARAMS` when the request was read);
//! - whatever a later round needs comes back in `requestState`, a [`SealedState`] bound to the
//!   principal, an expiry and the request (method, tool name and arguments); a state that
//!   fails verification is answered with `INVALID_PARAMS`.
//!
//! What stays here builds the generated request types (a form, a sampling request).

use mcp_runtime::ObjectSchema as _;
use mcp_runtime::RpcError;
use mcp_runtime::mrtr::{Answers, Elicited, Round, Sampled, SealedState};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use mcp_server::tools::ToolError;

use crate::content::{no_arguments, prompt_result, text, told, user};
use crate::features::{ToolCall, ToolRouter};
use crate::{Ctx, mcp};

// ----- building input requests -----

pub fn string_field(description: &str) -> mcp::PrimitiveSchemaDefinition {
    mcp::StringSchema::new()
        .with_description(description)
        .into()
}

pub fn boolean_field(description: &str) -> mcp::PrimitiveSchemaDefinition {
    mcp::BooleanSchema::new()
        .with_description(description)
        .into()
}

/// A form-mode elicitation asking for the required field `name`, of schema `field`.
pub fn elicit(
    message: &str,
    name: &str,
    field: mcp::PrimitiveSchemaDefinition,
) -> mcp::ElicitRequest {
    let form = mcp::ElicitRequestFormParamsRequestedSchema::fields().required(name, field);
    mcp::ElicitRequest::new(mcp::ElicitRequestFormParams::new(message, form.build()))
}

/// A sampling request of one user message.
pub fn sample(prompt: &str, max_tokens: i64) -> mcp::CreateMessageRequest {
    let content = mcp::SamplingMessageContentBlock::from(mcp::TextContent::new(prompt));
    mcp::CreateMessageRequest::new(mcp::CreateMessageRequestParams::new(
        max_tokens,
        vec![mcp::SamplingMessage::new(content, mcp::Role::User)],
    ))
}

fn list_roots() -> mcp::ListRootsRequest {
    mcp::ListRootsRequest::default()
}

/// The question the sampling tools ask the client's model.
fn capital_question() -> mcp::CreateMessageRequest {
    sample("What is the capital of France?", 100)
}

/// The user's name, asked at `user_name` (field `name`).
fn name_request() -> mcp::ElicitRequest {
    elicit("What is your name?", "name", string_field("Your name"))
}

/// An empty round for the client of `ctx`.
pub fn round(ctx: &Ctx) -> Round<mcp::InputRequiredResult> {
    Round::new(&ctx.meta.client_capabilities)
}

/// What the round asks, as a tool's outcome.
pub fn input_required(round: Round<mcp::InputRequiredResult>) -> Answer {
    Ok(mcp::CallToolOutcome::InputRequired(round.finish()?))
}

/// One round asking the user's name (field `name`) at `user_name`.
pub fn ask_name(ctx: &Ctx) -> Result<mcp::InputRequiredResult, RpcError> {
    let mut round = round(ctx);
    round.ask("user_name", name_request())?;
    round.finish()
}

// ----- reading responses -----

/// The answers of the request's `inputResponses`.
pub fn answers(responses: Option<&mcp::InputResponses>) -> Answers<'_, mcp::InputResponse> {
    Answers::new(responses)
}

/// The accepted content of a form with a `name` field.
#[derive(Deserialize)]
pub struct NameField {
    pub name: Option<String>,
}

/// The accepted content of a form with a `confirm` field.
#[derive(Deserialize)]
pub struct ConfirmField {
    pub confirm: Option<bool>,
}

/// The model's answer at `key`, as text.
pub fn sampled(answers: &Answers<'_, mcp::InputResponse>, key: &str) -> Option<String> {
    answers.sampled(key).map(Sampled::text_or_note)
}

// ----- sealed state -----

/// The state of the `tools/call` of `p` by this principal, sealed by the server's sealer.
fn sealed<'c>(ctx: &'c Ctx, p: &Params) -> Result<SealedState<'c>, RpcError> {
    SealedState::bind::<mcp::CallToolRequest>(&ctx.state.sealer, &ctx.principal, p)
}

// ----- the tools -----

/// The params of a `tools/call`.
type Params = mcp::CallToolRequestParams;

/// What a tool of this module answers.
type Answer = Result<mcp::CallToolOutcome, RpcError>;

/// A tool of this module.
type Handler = fn(&Ctx, &Params) -> Answer;

/// The tools that answer with an `InputRequiredResult` first, each with its function, after
/// those `routes` holds.
pub fn tools(routes: ToolRouter) -> Result<ToolRouter, ToolError> {
    let tools: [(&str, &str, Handler); 10] = [
        (
            "test_missing_capability",
            "Needs the client's sampling capability (MissingRequiredClientCapability without it)",
            missing_capability,
        ),
        (
            "test_streaming_elicitation",
            "Asks for input through an InputRequiredResult, never a request on the stream",
            streaming_elicitation,
        ),
        (
            "test_input_required_result_elicitation",
            "MRTR: asks the user's name (elicitation)",
            elicitation,
        ),
        (
            "test_input_required_result_sampling",
            "MRTR: asks the client's LLM (sampling)",
            sampling,
        ),
        (
            "test_input_required_result_list_roots",
            "MRTR: asks for the client's roots",
            list_roots_tool,
        ),
        (
            "test_input_required_result_request_state",
            "MRTR: confirmation with sealed requestState",
            confirm_with_state,
        ),
        (
            "test_input_required_result_multiple_inputs",
            "MRTR: elicitation, sampling and roots in one round",
            multiple_inputs,
        ),
        (
            "test_input_required_result_multi_round",
            "MRTR: two rounds, requestState evolving",
            multi_round,
        ),
        (
            "test_input_required_result_tampered_state",
            "MRTR: rejects a requestState that fails verification",
            confirm_with_state,
        ),
        (
            "test_input_required_result_capabilities",
            "MRTR: asks only for what the client's capabilities allow",
            capabilities,
        ),
    ];
    tools
        .into_iter()
        .try_fold(routes, |routes, (name, description, answer)| {
            routes.add_with_schema(name, description, no_arguments(), move |call: ToolCall| {
                std::future::ready(answer(&call.ctx, &call.params))
            })
        })
}

fn missing_capability(ctx: &Ctx, p: &Params) -> Answer {
    if let Some(answer) = sampled(&answers(p.input_responses.as_ref()), "probe") {
        return told(format!("LLM response: {answer}"));
    }
    let mut round = round(ctx);
    round.ask("probe", sample("Say hello", 20))?;
    input_required(round)
}

fn streaming_elicitation(ctx: &Ctx, p: &Params) -> Answer {
    let answers = answers(p.input_responses.as_ref());
    let mut round = round(ctx);
    let ask = elicit("Confirm?", "ok", boolean_field("OK?"));
    match round.elicited_or_ask::<IgnoredAny>(&answers, "confirm", ask)? {
        Some(answer) => told(format!("confirmed: action={}", answer.action())),
        None => input_required(round),
    }
}

fn elicitation(ctx: &Ctx, p: &Params) -> Answer {
    let answers = answers(p.input_responses.as_ref());
    let mut round = round(ctx);
    match round.elicited_or_ask::<NameField>(&answers, "user_name", name_request())? {
        Some(Elicited::Accepted(NameField { name: Some(name) })) => told(format!("Hello, {name}!")),
        Some(answer) => told(format!("No name given (action={}).", answer.action())),
        None => input_required(round),
    }
}

fn sampling(ctx: &Ctx, p: &Params) -> Answer {
    let answers = answers(p.input_responses.as_ref());
    if let Some(answer) = sampled(&answers, "capital_question") {
        return told(format!("The LLM says: {answer}"));
    }
    let mut round = round(ctx);
    round.ask("capital_question", capital_question())?;
    input_required(round)
}

fn list_roots_tool(ctx: &Ctx, p: &Params) -> Answer {
    if let Some(uris) = answers(p.input_responses.as_ref()).root_uris("client_roots") {
        return told(format!(
            "The client has {} root(s): {}",
            uris.len(),
            uris.join(", ")
        ));
    }
    let mut round = round(ctx);
    round.ask("client_roots", list_roots())?;
    input_required(round)
}

/// Asks each kind of input only if the client can answer it.
fn capabilities(ctx: &Ctx, p: &Params) -> Answer {
    let answers = answers(p.input_responses.as_ref());
    let mut round = round(ctx);
    let kinds: [(&str, mcp::InputRequest); 3] = [
        ("user_name", name_request().into()),
        ("capital_question", capital_question().into()),
        ("client_roots", list_roots().into()),
    ];
    let mut asked = Vec::new();
    let mut refusal = None;
    for (key, request) in kinds {
        match round.ask(key, request) {
            Ok(_) => asked.push(key),
            Err(e) => refusal = Some(e),
        }
    }
    let Some(_) = asked.first() else {
        return Err(
            refusal.map_or_else(|| RpcError::internal_error("nothing asked"), RpcError::from)
        );
    };
    if answers.has_all(&asked) {
        return told(format!(
            "Received {} (asked only what the client's capabilities allow)",
            asked.join(", ")
        ));
    }
    input_required(round)
}

/// The sealed state of [`confirm_with_state`] and [`multiple_inputs`]: the step it was sealed at.
#[derive(Serialize, Deserialize)]
struct Step {
    step: String,
}

/// Round 1 asks for a confirmation and seals `{"step": "confirm"}`; round 2 completes only
/// with a state that verifies (a modified one is an `INVALID_PARAMS` error) and an answer.
fn confirm_with_state(ctx: &Ctx, p: &Params) -> Answer {
    #[derive(Deserialize)]
    struct Confirmed {
        ok: Option<bool>,
    }
    let sealed = sealed(ctx, p)?;
    let state: Option<Step> = sealed.open(p.request_state.as_deref())?;
    let answers = answers(p.input_responses.as_ref());
    if let (Some(state), Some(answer)) = (&state, answers.elicited::<Confirmed>("confirm")?)
        && state.step == "confirm"
    {
        let ok = answer.accepted().and_then(|a| a.ok).unwrap_or(false);
        return told(format!(
            "state-ok: the sealed requestState verified; confirmed={ok}"
        ));
    }
    let mut round = round(ctx);
    let ask = elicit("Please confirm", "ok", boolean_field("Confirm"));
    round.ask("confirm", ask)?;
    round.state(sealed.seal(&Step {
        step: "confirm".into(),
    })?);
    input_required(round)
}

/// Elicitation, sampling and roots in one round, with state; round 2 asks again for whatever
/// is still missing.
fn multiple_inputs(ctx: &Ctx, p: &Params) -> Answer {
    let sealed = sealed(ctx, p)?;
    let state: Option<Step> = sealed.open(p.request_state.as_deref())?;
    let answers = answers(p.input_responses.as_ref());
    let name = answers
        .accepted::<NameField>("user_name")?
        .and_then(|a| a.name);
    let greeting = sampled(&answers, "greeting");
    let uris = answers.root_uris("client_roots");
    if let (Some(_), Some(name), Some(greeting), Some(uris)) = (&state, &name, &greeting, &uris) {
        return told(format!(
            "name={name}; greeting={greeting}; roots={}",
            uris.join(", ")
        ));
    }
    let mut round = round(ctx);
    if state.is_none() || name.is_none() {
        round.ask("user_name", name_request())?;
    }
    if state.is_none() || greeting.is_none() {
        round.ask("greeting", sample("Generate a greeting", 50))?;
    }
    if state.is_none() || uris.is_none() {
        round.ask("client_roots", list_roots())?;
    }
    round.state(sealed.seal(&Step { step: "all".into() })?);
    input_required(round)
}

/// The sealed state of [`multi_round`]: the round it was sealed at, and the name once given.
#[derive(Serialize, Deserialize)]
struct MultiRound {
    round: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

/// Three rounds: name, then colour (the name travels in the sealed state), then the result.
fn multi_round(ctx: &Ctx, p: &Params) -> Answer {
    #[derive(Deserialize)]
    struct Color {
        color: Option<String>,
    }
    let sealed = sealed(ctx, p)?;
    let state: Option<MultiRound> = sealed.open(p.request_state.as_deref())?;
    let answers = answers(p.input_responses.as_ref());
    let name = match state {
        Some(MultiRound { round: 2, name }) => {
            let name = name.unwrap_or_default();
            if let Some(color) = answers.accepted::<Color>("step2")?.and_then(|a| a.color) {
                return told(format!("{name}'s favorite color is {color}."));
            }
            Some(name)
        }
        Some(MultiRound { round: 1, .. }) => {
            answers.accepted::<NameField>("step1")?.and_then(|a| a.name)
        }
        _ => None,
    };
    let mut round = round(ctx);
    let next = match name {
        Some(_) => {
            let color = string_field("Your favorite color");
            round.ask(
                "step2",
                elicit("Step 2: What is your favorite color?", "color", color),
            )?;
            MultiRound { round: 2, name }
        }
        None => {
            let name_field = string_field("Your name");
            round.ask(
                "step1",
                elicit("Step 1: What is your name?", "name", name_field),
            )?;
            MultiRound { round: 1, name }
        }
    };
    round.state(sealed.seal(&next)?);
    input_required(round)
}

/// `prompts/get` of `test_input_required_result_prompt`: asks for the context, then renders.
pub fn get_prompt(
    ctx: &Ctx,
    p: &mcp::GetPromptRequestParams,
) -> Result<mcp::GetPromptOutcome, RpcError> {
    #[derive(Deserialize)]
    struct Context {
        context: Option<String>,
    }
    let answers = answers(p.input_responses.as_ref());
    let mut round = round(ctx);
    let ask = elicit(
        "What context should the prompt use?",
        "context",
        string_field("The context"),
    );
    match round.elicited_or_ask::<Context>(&answers, "user_context", ask)? {
        Some(answer) => {
            let context = answer
                .accepted()
                .and_then(|a| a.context)
                .unwrap_or_else(|| "(none given)".to_owned());
            Ok(prompt_result(vec![user(text(format!(
                "Use this context: {context}"
            )))]))
        }
        None => Ok(mcp::GetPromptOutcome::InputRequired(round.finish()?)),
    }
}

//! Multi round-trip requests (SEP-2322): the tools and the prompt that answer with an
//! `InputRequiredResult` first and complete on the retry.
//!
//! - Input requests go through the generated `InputRequestsBuilder`, which refuses a request
//!   the client's capabilities do not allow; a refusal becomes the
//!   `MissingRequiredClientCapabilityError` (HTTP 400).
//! - Whatever a later round needs comes back in `requestState`, sealed by
//!   `mcp_runtime::seal` and bound to the principal, an expiry and the request (method, tool
//!   name and arguments); a state that fails verification is answered with `INVALID_PARAMS`.
//! - A retry whose `inputResponses` lack an answer gets a new `InputRequiredResult` asking
//!   again; answers to keys that were not asked are ignored; `inputResponses` that are not
//!   responses at all were already refused with `INVALID_PARAMS` when the request was
//!   read.

use mcp_runtime::ObjectSchema as _;
use mcp_runtime::error_code::{INTERNAL_ERROR, INVALID_PARAMS};
use mcp_runtime::seal::{Binding, SealError};
use serde_json::{Value, json};

use crate::content::{prompt_result, text, tool_result, user};
use crate::mcp;
use crate::rpc::Ctx;
use mcp_runtime::RpcError;

const TOOLS: &[&str] = &[
    "test_missing_capability",
    "test_streaming_elicitation",
    "test_input_required_result_elicitation",
    "test_input_required_result_sampling",
    "test_input_required_result_list_roots",
    "test_input_required_result_request_state",
    "test_input_required_result_multiple_inputs",
    "test_input_required_result_multi_round",
    "test_input_required_result_tampered_state",
    "test_input_required_result_capabilities",
];

pub fn is_mrtr_tool(name: &str) -> bool {
    TOOLS.contains(&name)
}

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

/// A form-mode elicitation asking for the required `fields`.
pub fn elicit(
    message: &str,
    fields: Vec<(&str, mcp::PrimitiveSchemaDefinition)>,
) -> mcp::ElicitRequest {
    let form = fields.into_iter().fold(
        mcp::ElicitRequestFormParamsRequestedSchema::fields(),
        |form, (name, field)| form.required(name, field),
    );
    mcp::ElicitRequest::new(mcp::ElicitRequestFormParams::new(message, form.build()))
}

fn sample(prompt: &str, max_tokens: i64) -> mcp::CreateMessageRequest {
    let content = mcp::SamplingMessageContentBlock::from(mcp::TextContent::new(prompt));
    mcp::CreateMessageRequest::new(mcp::CreateMessageRequestParams::new(
        max_tokens,
        vec![mcp::SamplingMessage::new(content, mcp::Role::User)],
    ))
}

fn list_roots() -> mcp::ListRootsRequest {
    mcp::ListRootsRequest::default()
}

/// One round of input requests, checked against the client's declared capabilities.
pub struct Round {
    builder: mcp::InputRequestsBuilder,
}

impl Round {
    pub fn new(ctx: &Ctx) -> Self {
        Round {
            builder: mcp::InputRequestsBuilder::new(&ctx.meta.client_capabilities),
        }
    }

    /// Asks `request` at `key`; a capability the client lacks is the
    /// `MISSING_REQUIRED_CLIENT_CAPABILITY` error.
    pub fn ask(
        &mut self,
        key: &str,
        request: impl Into<mcp::InputRequest>,
    ) -> Result<(), RpcError> {
        self.builder
            .insert(key, request)
            .map(|_| ())
            .map_err(RpcError::from)
    }

    /// Asks `request` at `key` if the client's capabilities allow it; the refusal otherwise.
    fn ask_if_allowed(
        &mut self,
        key: &str,
        request: impl Into<mcp::InputRequest>,
    ) -> Result<(), mcp_runtime::capability::CapabilityError> {
        self.builder.insert(key, request).map(|_| ())
    }

    /// Asks the user's name (field `name`) at `user_name`.
    pub fn ask_name(&mut self) -> Result<(), RpcError> {
        self.ask(
            "user_name",
            elicit(
                "What is your name?",
                vec![("name", string_field("Your name"))],
            ),
        )
    }

    /// The input requests asked, for a task to raise (`tasks/get` shows them).
    pub fn requests(self) -> mcp::InputRequests {
        self.builder.build()
    }

    pub fn finish(self, state: Option<String>) -> Result<mcp::InputRequiredResult, RpcError> {
        let requests = self.builder.build();
        let requests = (!requests.is_empty()).then_some(requests);
        mcp::InputRequiredResult::new(requests, state)
            .map(|r| r.with_meta(crate::result_meta()))
            .map_err(|e| RpcError::new(INTERNAL_ERROR, e.to_string()))
    }
}

/// One round asking the user's name (see [`Round::ask_name`]).
pub fn ask_name(ctx: &Ctx) -> Result<mcp::InputRequiredResult, RpcError> {
    let mut round = Round::new(ctx);
    round.ask_name()?;
    round.finish(None)
}

// ----- reading responses -----

fn response<'r>(
    responses: Option<&'r mcp::InputResponses>,
    key: &str,
) -> Option<&'r mcp::InputResponse> {
    responses.and_then(|r| r.get(key))
}

pub fn elicited<'r>(
    responses: Option<&'r mcp::InputResponses>,
    key: &str,
) -> Option<&'r mcp::ElicitResult> {
    match response(responses, key)? {
        mcp::InputResponse::ElicitResult(r) => Some(r),
        _ => None,
    }
}

fn sampled(responses: Option<&mcp::InputResponses>, key: &str) -> Option<String> {
    match response(responses, key)? {
        mcp::InputResponse::CreateMessageResult(r) => Some(match &r.content {
            mcp::CreateMessageResultContent::Object(
                mcp::SamplingMessageContentBlock::TextContent(t),
            ) => t.text.clone(),
            _ => format!("(non-text answer from {})", r.model),
        }),
        _ => None,
    }
}

fn roots(responses: Option<&mcp::InputResponses>, key: &str) -> Option<Vec<String>> {
    match response(responses, key)? {
        mcp::InputResponse::ListRootsResult(r) => {
            Some(r.roots.iter().map(|r| r.uri.clone()).collect())
        }
        _ => None,
    }
}

/// The accepted value of `field`, as text; `None` when the user declined or cancelled.
pub fn field(result: &mcp::ElicitResult, field: &str) -> Option<String> {
    if result.action != mcp::ElicitResultAction::Accept {
        return None;
    }
    Some(match result.content.as_ref()?.get(field)? {
        mcp::ElicitResultContentValue::String(s) => s.clone(),
        mcp::ElicitResultContentValue::Integer(i) => i.to_string(),
        mcp::ElicitResultContentValue::Number(n) => n.to_string(),
        mcp::ElicitResultContentValue::Boolean(b) => b.to_string(),
        mcp::ElicitResultContentValue::Array(a) => a.join(", "),
    })
}

// ----- sealed state -----

/// The request a state is bound to: `tools/call` (or `prompts/get`) of this name with these
/// arguments, by this principal.
fn tool_binding(ctx: &Ctx, r: &mcp::CallToolRequest) -> Binding {
    let salient = json!({
        "name": r.params.name,
        "arguments": r.params.arguments.clone().unwrap_or_default(),
    });
    Binding::for_request::<mcp::CallToolRequest>(&ctx.principal, &salient)
}

fn seal(ctx: &Ctx, binding: &Binding, state: &Value) -> String {
    ctx.app.sealer.seal(binding, state.to_string().as_bytes())
}

/// The state the client echoed, verified; `Ok(None)` when there is none.
fn open(ctx: &Ctx, binding: &Binding, token: Option<&String>) -> Result<Option<Value>, RpcError> {
    let Some(token) = token else {
        return Ok(None);
    };
    let reject = RpcError::from;
    let bytes = ctx.app.sealer.open(binding, token).map_err(reject)?;
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|_| reject(SealError::Tampered))
}

// ----- the tools -----

fn input_required(r: mcp::InputRequiredResult) -> mcp::CallToolOutcome {
    mcp::CallToolOutcome::InputRequired(r)
}

pub fn call_tool(ctx: &Ctx, r: &mcp::CallToolRequest) -> Result<mcp::CallToolOutcome, RpcError> {
    let responses = r.params.input_responses.as_ref();
    let name_field = || vec![("name", string_field("Your name"))];
    match r.params.name.as_str() {
        "test_missing_capability" => {
            if let Some(answer) = sampled(responses, "probe") {
                return Ok(tool_result(vec![text(format!("LLM response: {answer}"))]));
            }
            let mut round = Round::new(ctx);
            round.ask("probe", sample("Say hello", 20))?;
            Ok(input_required(round.finish(None)?))
        }
        "test_streaming_elicitation" => {
            if let Some(answer) = elicited(responses, "confirm") {
                return Ok(tool_result(vec![text(format!(
                    "confirmed: action={}",
                    answer.action
                ))]));
            }
            let mut round = Round::new(ctx);
            round.ask(
                "confirm",
                elicit("Confirm?", vec![("ok", boolean_field("OK?"))]),
            )?;
            Ok(input_required(round.finish(None)?))
        }
        "test_input_required_result_elicitation" => {
            if let Some(answer) = elicited(responses, "user_name") {
                return Ok(tool_result(vec![text(match field(answer, "name") {
                    Some(name) => format!("Hello, {name}!"),
                    None => format!("No name given (action={}).", answer.action),
                })]));
            }
            Ok(input_required(ask_name(ctx)?))
        }
        "test_input_required_result_sampling" => {
            if let Some(answer) = sampled(responses, "capital_question") {
                return Ok(tool_result(vec![text(format!("The LLM says: {answer}"))]));
            }
            let mut round = Round::new(ctx);
            round.ask(
                "capital_question",
                sample("What is the capital of France?", 100),
            )?;
            Ok(input_required(round.finish(None)?))
        }
        "test_input_required_result_list_roots" => {
            if let Some(uris) = roots(responses, "client_roots") {
                return Ok(tool_result(vec![text(format!(
                    "The client has {} root(s): {}",
                    uris.len(),
                    uris.join(", ")
                ))]));
            }
            let mut round = Round::new(ctx);
            round.ask("client_roots", list_roots())?;
            Ok(input_required(round.finish(None)?))
        }
        "test_input_required_result_request_state"
        | "test_input_required_result_tampered_state" => confirm_with_state(ctx, r),
        "test_input_required_result_multiple_inputs" => multiple_inputs(ctx, r),
        "test_input_required_result_multi_round" => multi_round(ctx, r),
        "test_input_required_result_capabilities" => {
            // Ask each kind of input only if the client can answer it.
            let mut round = Round::new(ctx);
            let mut asked = Vec::new();
            let mut refusal = None;
            let kinds: [(&str, mcp::InputRequest); 3] = [
                (
                    "user_name",
                    elicit("What is your name?", name_field()).into(),
                ),
                (
                    "capital_question",
                    sample("What is the capital of France?", 100).into(),
                ),
                ("client_roots", list_roots().into()),
            ];
            for (key, request) in kinds {
                match round.ask_if_allowed(key, request) {
                    Ok(()) => asked.push(key),
                    Err(e) => refusal = Some(e),
                }
            }
            if asked.is_empty() {
                let e = refusal.expect("three refusals");
                return Err(RpcError::from(e));
            }
            if asked.iter().all(|k| response(responses, k).is_some()) {
                return Ok(tool_result(vec![text(format!(
                    "Received {} (asked only what the client's capabilities allow)",
                    asked.join(", ")
                ))]));
            }
            Ok(input_required(round.finish(None)?))
        }
        other => Err(RpcError::new(
            INVALID_PARAMS,
            format!("Unknown tool: {other}"),
        )),
    }
}

/// Round 1 asks for a confirmation and seals `{"step": "confirm"}`; round 2 completes only
/// with a state that verifies (a modified one is an `INVALID_PARAMS` error) and an answer.
fn confirm_with_state(
    ctx: &Ctx,
    r: &mcp::CallToolRequest,
) -> Result<mcp::CallToolOutcome, RpcError> {
    let binding = tool_binding(ctx, r);
    let state = open(ctx, &binding, r.params.request_state.as_ref())?;
    let answer = elicited(r.params.input_responses.as_ref(), "confirm");
    if let (Some(state), Some(answer)) = (&state, answer)
        && state["step"] == "confirm"
    {
        let ok = field(answer, "ok").unwrap_or_else(|| "false".to_owned());
        return Ok(tool_result(vec![text(format!(
            "state-ok: the sealed requestState verified; confirmed={ok}"
        ))]));
    }
    let mut round = Round::new(ctx);
    round.ask(
        "confirm",
        elicit("Please confirm", vec![("ok", boolean_field("Confirm"))]),
    )?;
    let token = seal(ctx, &binding, &json!({"step": "confirm"}));
    Ok(input_required(round.finish(Some(token))?))
}

/// Elicitation, sampling and roots in one round, with state; round 2 asks again for whatever
/// is still missing.
fn multiple_inputs(ctx: &Ctx, r: &mcp::CallToolRequest) -> Result<mcp::CallToolOutcome, RpcError> {
    let binding = tool_binding(ctx, r);
    let state = open(ctx, &binding, r.params.request_state.as_ref())?;
    let responses = r.params.input_responses.as_ref();
    let name = elicited(responses, "user_name").and_then(|a| field(a, "name"));
    let greeting = sampled(responses, "greeting");
    let uris = roots(responses, "client_roots");
    if let (Some(_), Some(name), Some(greeting), Some(uris)) = (&state, &name, &greeting, &uris) {
        return Ok(tool_result(vec![text(format!(
            "name={name}; greeting={greeting}; roots={}",
            uris.join(", ")
        ))]));
    }
    let mut round = Round::new(ctx);
    if state.is_none() || name.is_none() {
        round.ask_name()?;
    }
    if state.is_none() || greeting.is_none() {
        round.ask("greeting", sample("Generate a greeting", 50))?;
    }
    if state.is_none() || uris.is_none() {
        round.ask("client_roots", list_roots())?;
    }
    let token = seal(ctx, &binding, &json!({"step": "all"}));
    Ok(input_required(round.finish(Some(token))?))
}

/// Three rounds: name, then colour (the name travels in the sealed state), then the result.
fn multi_round(ctx: &Ctx, r: &mcp::CallToolRequest) -> Result<mcp::CallToolOutcome, RpcError> {
    let binding = tool_binding(ctx, r);
    let state = open(ctx, &binding, r.params.request_state.as_ref())?;
    let responses = r.params.input_responses.as_ref();
    let mut round = Round::new(ctx);
    match state.as_ref().and_then(|s| s["round"].as_u64()) {
        Some(2) => {
            let name = state
                .as_ref()
                .and_then(|s| s["name"].as_str())
                .unwrap_or_default()
                .to_owned();
            if let Some(color) = elicited(responses, "step2").and_then(|a| field(a, "color")) {
                return Ok(tool_result(vec![text(format!(
                    "{name}'s favorite color is {color}."
                ))]));
            }
            round.ask(
                "step2",
                elicit(
                    "Step 2: What is your favorite color?",
                    vec![("color", string_field("Your favorite color"))],
                ),
            )?;
            let token = seal(ctx, &binding, &json!({"round": 2, "name": name}));
            Ok(input_required(round.finish(Some(token))?))
        }
        Some(1)
            if elicited(responses, "step1")
                .and_then(|a| field(a, "name"))
                .is_some() =>
        {
            let name = elicited(responses, "step1").and_then(|a| field(a, "name"));
            round.ask(
                "step2",
                elicit(
                    "Step 2: What is your favorite color?",
                    vec![("color", string_field("Your favorite color"))],
                ),
            )?;
            let token = seal(ctx, &binding, &json!({"round": 2, "name": name}));
            Ok(input_required(round.finish(Some(token))?))
        }
        _ => {
            round.ask(
                "step1",
                elicit(
                    "Step 1: What is your name?",
                    vec![("name", string_field("Your name"))],
                ),
            )?;
            let token = seal(ctx, &binding, &json!({"round": 1}));
            Ok(input_required(round.finish(Some(token))?))
        }
    }
}

/// `prompts/get` of `test_input_required_result_prompt`: asks for the context, then renders.
pub fn get_prompt(ctx: &Ctx, r: &mcp::GetPromptRequest) -> Result<mcp::GetPromptOutcome, RpcError> {
    let responses = r.params.input_responses.as_ref();
    if let Some(answer) = elicited(responses, "user_context") {
        let context = field(answer, "context").unwrap_or_else(|| "(none given)".to_owned());
        return Ok(prompt_result(vec![user(text(format!(
            "Use this context: {context}"
        )))]));
    }
    let mut round = Round::new(ctx);
    round.ask(
        "user_context",
        elicit(
            "What context should the prompt use?",
            vec![("context", string_field("The context"))],
        ),
    )?;
    Ok(mcp::GetPromptOutcome::InputRequired(round.finish(None)?))
}

//! What a user writes with the generated types, in the shapes the README shows: handlers that
//! return one type, a form from a struct, a sealed state, the client's retry, a result type of
//! its own, and the errors a handler may return. CI runs `cargo clippy --all-targets -- -D
//! warnings` on it (a workspace member): nothing here boxes a generated type or allows a lint.
//! Two lints fired on such code before the generator kept the types small: `large_enum_variant`
//! on a user's outcome enum (`InputRequiredResult` was 272 bytes beside a 24-byte result of the
//! user's) and `result_large_err` on a handler returning a generated error response (which
//! `Response<R>` avoids: its error, `RpcError`, is 64 bytes).

pub mod mcp {
    include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
}

use mcp::prelude::*;
use mcp_runtime::extension::Advertised;
use mcp_runtime::form;
use mcp_runtime::seal::{Binding, Sealer};
use mcp_runtime::{Response, RpcError};

/// The `tools/call` request of `book`, from a client with `capabilities`.
pub fn book_request(id: i64, class: &str, capabilities: ClientCapabilities) -> CallToolRequest {
    let meta = RequestMetaObject::new(capabilities, "2026-07-28");
    let mut arguments = serde_json::Map::new();
    arguments.insert("class".into(), class.into());
    let params = CallToolRequestParams::new(meta, "book").with_arguments(arguments);
    CallToolRequest::new(id, params)
}

/// The form the server asks the user to fill in, and the answer read back.
#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
pub struct Seat {
    /// Seat, e.g. 4C
    pub seat: String,
    /// How many seats
    pub count: Option<u8>,
}

/// `tools/call` of `book`: asks which seat first (an elicitation form, the state sealed), then
/// books it on the retry. Every refusal converts with `?`.
pub fn book(
    sealer: &Sealer,
    principal: &str,
    request: &CallToolRequest,
) -> Response<CallToolRequest> {
    let params = &request.params;
    if params.name != "book" {
        return Err(RpcError::invalid_params(format!("no tool {}", params.name)));
    }
    let salient = serde_json::json!({ "name": params.name, "arguments": params.arguments });
    let binding = Binding::for_request::<CallToolRequest>(principal, &salient);
    if let Some(state) = &params.request_state {
        sealer.open(&binding, state)?;
        let answer = params.input_responses.as_ref().and_then(|r| r.get("seat"));
        if let Some(InputResponse::ElicitResult(answer)) = answer
            && answer.action == ElicitResultAction::Accept
            && let Some(content) = &answer.content
        {
            let seat: Seat = form::read(content)?;
            let text = format!("Booked {} seat(s) {}.", seat.count.unwrap_or(1), seat.seat);
            return Ok(CallToolResult::new(vec![TextContent::new(text).into()]).into());
        }
    }
    let mut requests = mcp::InputRequestsBuilder::new(&params.meta.client_capabilities);
    let seat: ElicitRequestFormParamsRequestedSchema = form::schema::<_, Seat>()?;
    let ask = ElicitRequest::new(ElicitRequestFormParams::new("Which seat?", seat));
    requests.insert("seat", ask)?;
    let state = sealer.seal(&binding, b"asked-seat");
    Ok(
        mcp::InputRequiredResult::from_input_requests(requests.build())
            .with_request_state(state)
            .into(),
    )
}

/// The message to send for `request`: its result or its error, with its id.
pub fn serve(sealer: &Sealer, principal: &str, request: &CallToolRequest) -> CallToolResponse {
    request.reply(book(sealer, principal, request))
}

/// The client's retry after `input_required`: the seat as the answer to every question.
pub fn answer_and_retry(
    sent: &CallToolRequest,
    asked: &mcp::InputRequiredResult,
    next_id: i64,
    seat: &str,
) -> Result<CallToolRequest, mcp_runtime::retry::RetryError> {
    let mut responses = InputResponses::new();
    for key in asked.input_requests().into_iter().flat_map(|r| r.keys()) {
        let value = ElicitResultContentValue::String(seat.into());
        let result =
            ElicitResult::new(ElicitResultAction::Accept).with_content([("seat".into(), value)]);
        responses.insert(key.clone(), result.into());
    }
    sent.retry(next_id.into(), asked, responses)
}

/// A result of the user's own, with the protocol's `resultType` rules.
#[derive(Debug, Clone, PartialEq, mcp_runtime::McpResult)]
pub struct Booking {
    pub seat: String,
}

/// What `tools/call` of `book` may answer, read by `resultType`.
#[derive(Debug, Clone, PartialEq, mcp_runtime::McpResult)]
#[mcp(request = CallToolRequest)]
pub enum BookingOutcome {
    Complete(Booking),
    InputRequired(mcp::InputRequiredResult),
}

/// The requests this server takes, read into one enum of the generated request types (their
/// sizes are close enough that clippy's `large_enum_variant` does not fire).
#[derive(Debug)]
pub enum Incoming {
    Call(CallToolRequest),
    List(ListToolsRequest),
    Read(ReadResourceRequest),
}

/// A task when the client advertised the tasks extension, else the extension's `-32021`.
pub fn answer_with_task(request: &CallToolRequest) -> Response<CallToolRequest> {
    let caps = &request.params.meta.client_capabilities;
    let Some(tasks) = Advertised::<TasksExtension>::check(caps) else {
        return Err(RpcError::missing_extension::<TasksExtension>());
    };
    let now = "2026-07-28T10:30:00Z";
    let created = CreateTaskResult::new(now, now, TaskStatus::Working, "task-1", 3_600_000)
        .with_poll_interval_ms(5000u64);
    Ok(tasks.grant(created).into())
}

/// The same handler's outcome as the user's own enum, with a task variant.
#[derive(Debug, Clone, PartialEq, mcp_runtime::McpResult)]
#[mcp(request = CallToolRequest)]
pub enum TaskOutcome {
    Complete(Booking),
    InputRequired(mcp::InputRequiredResult),
    #[mcp(result_type = "task")]
    Task(CreateTaskResult),
}

/// Progress of a long call, counted in items (integers into the `number` members).
pub fn progress(token: &str, done: usize, total: u64) -> ProgressNotification {
    let params = ProgressNotificationParams::new(done, token).with_total(total);
    ProgressNotification::new(params)
}

/// A form with an integer member, built field by field.
pub fn count_form(max: u32) -> ElicitRequestFormParamsRequestedSchema {
    let count = NumberSchema::new(NumberSchemaType::Integer)
        .with_minimum(1)
        .with_maximum(max);
    ElicitRequestFormParamsRequestedSchema::fields()
        .required("count", count)
        .build()
}

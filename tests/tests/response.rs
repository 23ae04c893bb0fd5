//! One response type per request (`mcp_runtime::Response<R>`): a handler returns the result or
//! a JSON-RPC error, `?` converts the runtime's refusals, and `reply` writes the message with
//! the request's id on either side. Also the infallible constructors of `InputRequiredResult`.

use mcp_runtime::response::{Response, RpcError};
use mcp_runtime::seal::{Binding, Sealer};
use mcp_tests::mcp;
use mcp_tests::mcp::prelude::*;
use serde_json::{Value, json};

fn call(
    id: i64,
    name: &str,
    capabilities: ClientCapabilities,
    state: Option<&str>,
) -> CallToolRequest {
    let meta = RequestMetaObject::new(capabilities, "2026-07-28");
    let mut params = CallToolRequestParams::new(meta, name);
    if let Some(state) = state {
        params = params.with_request_state(state);
    }
    CallToolRequest::new(id, params)
}

fn binding(principal: &str, request: &CallToolRequest) -> Binding {
    Binding::for_request::<CallToolRequest>(principal, &json!({ "name": request.params.name }))
}

/// A handler in the shape the README shows: every refusal through `?`.
fn handle(
    sealer: &Sealer,
    principal: &str,
    request: &CallToolRequest,
) -> Response<CallToolRequest> {
    let params = &request.params;
    match params.name.as_str() {
        "ask" => {}
        "fail" => return Err(RpcError::internal_error("the disk is full")),
        other => return Err(RpcError::invalid_params(format!("Unknown tool: {other}"))),
    }
    if let Some(state) = &params.request_state {
        let opened = sealer.open(&binding(principal, request), state)?;
        let text = String::from_utf8_lossy(&opened).into_owned();
        return Ok(CallToolResult::new(vec![TextContent::new(text).into()]).into());
    }
    let mut requests = mcp::InputRequestsBuilder::new(&params.meta.client_capabilities);
    let form =
        ElicitRequestFormParamsRequestedSchema::fields().required("seat", StringSchema::new());
    requests.insert(
        "seat",
        ElicitRequest::new(ElicitRequestFormParams::new("Seat?", form.build())),
    )?;
    let state = sealer.seal(&binding(principal, request), b"asked");
    Ok(
        mcp::InputRequiredResult::from_input_requests(requests.build())
            .with_request_state(state)
            .into(),
    )
}

fn wire(request: &CallToolRequest, response: Response<CallToolRequest>) -> Value {
    let reply: CallToolReply = request.reply(response);
    serde_json::to_value(reply).unwrap()
}

fn can_elicit() -> ClientCapabilities {
    ClientCapabilities::new().with_elicitation(ClientCapabilitiesElicitation::new())
}

#[test]
fn a_result_is_written_with_the_request_id() {
    let sealer = Sealer::new([1; 32]);
    let first = call(7, "ask", can_elicit(), None);
    let asked = wire(&first, handle(&sealer, "alice", &first));
    assert_eq!(asked["id"], 7);
    assert_eq!(asked["result"]["resultType"], "input_required");
    assert!(
        asked["result"]["inputRequests"]["seat"].is_object(),
        "{asked}"
    );
    let state = asked["result"]["requestState"].as_str().unwrap();

    let retry = call(8, "ask", can_elicit(), Some(state));
    let done = wire(&retry, handle(&sealer, "alice", &retry));
    assert_eq!(done["id"], 8);
    assert_eq!(done["result"]["content"][0]["text"], "asked");
}

#[test]
fn each_refusal_is_its_json_rpc_error_with_the_request_id() {
    let sealer = Sealer::new([1; 32]);
    let cannot = call(1, "ask", ClientCapabilities::new(), None);
    let refused = wire(&cannot, handle(&sealer, "alice", &cannot));
    assert_eq!(refused["id"], 1);
    assert_eq!(refused["error"]["code"], -32021);
    assert_eq!(
        refused["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {}})
    );

    let first = call(2, "ask", can_elicit(), None);
    let asked = wire(&first, handle(&sealer, "alice", &first));
    let state = asked["result"]["requestState"].as_str().unwrap();
    let stolen = call(3, "ask", can_elicit(), Some(state));
    let rejected = wire(&stolen, handle(&sealer, "mallory", &stolen));
    assert_eq!(rejected["id"], 3);
    assert_eq!(rejected["error"]["code"], -32602);
    assert_eq!(rejected["error"]["data"]["reason"], "other-principal");

    let unknown = call(4, "nope", can_elicit(), None);
    let invalid = wire(&unknown, handle(&sealer, "alice", &unknown));
    assert_eq!(
        invalid["error"],
        json!({"code": -32602, "message": "Unknown tool: nope"})
    );
    let fail = call(5, "fail", can_elicit(), None);
    assert_eq!(
        wire(&fail, handle(&sealer, "alice", &fail))["error"]["code"],
        -32603
    );
}

#[test]
fn the_error_response_alone_carries_the_id_too() {
    let request = call(9, "x", ClientCapabilities::new(), None);
    let error: JSONRPCErrorResponse = request.refuse(RpcError::method_not_found("tools/cal"));
    assert_eq!(error.id, Some(RequestId::Integer(9)));
    assert_eq!(error.error.code, -32601);
    assert_eq!(error.error.message, "Method not found: tools/cal");
}

#[test]
fn a_missing_extension_names_it() {
    use mcp_tests::tasks::TasksExtension;
    let error = RpcError::missing_extension::<TasksExtension>();
    assert_eq!(error.code, -32021);
    assert_eq!(
        error.data,
        Some(
            json!({"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}})
        )
    );
}

#[test]
fn input_required_results_from_either_member_cannot_fail() {
    let state = mcp::InputRequiredResult::from_request_state("s");
    assert_eq!(state.request_state().map(String::as_str), Some("s"));
    assert!(state.input_requests().is_none());
    let both = mcp::InputRequiredResult::from_input_requests(InputRequests::new())
        .with_request_state("t".to_owned());
    assert_eq!(
        serde_json::to_value(&both).unwrap(),
        json!({"resultType": "input_required", "inputRequests": {}, "requestState": "t"})
    );
}

//! The user's code run end to end: ask, answer, book; the refusals as their JSON-RPC errors,
//! through `Response<R>` and as the generated error responses; messages read into the user's
//! enum; the user's outcome enums read by `resultType`; integers in `number` members. And the
//! sizes that keep such code clean under clippy without a `Box` written by the user.

use mcp_runtime::seal::Sealer;
use mcp_user_code::mcp::prelude::*;
use mcp_user_code::{
    Booking, BookingOutcome, Incoming, Refusal, Seat, admit, answer_and_retry, answer_with_task,
    book, book_request, check_version, count_form, progress, read_incoming, result_of, serve,
};

fn can_elicit() -> ClientCapabilities {
    ClientCapabilities::new().with_elicitation(ClientCapabilitiesElicitation::new())
}

#[test]
fn ask_then_book() {
    let sealer = Sealer::new([7; 32]);
    let first = book_request(1, "window", can_elicit());
    let Ok(CallToolOutcome::InputRequired(asked)) = book(&sealer, "alice", &first) else {
        panic!("the server asks first");
    };
    let form = serde_json::to_value(asked.input_requests()).unwrap();
    let requested = &form["seat"]["params"]["requestedSchema"];
    assert_eq!(requested["required"], serde_json::json!(["seat"]));
    assert_eq!(requested["properties"]["count"]["type"], "integer");

    let retry = answer_and_retry(&first, &asked, 2, "4C").unwrap();
    let wire = serde_json::to_value(serve(&sealer, "alice", &retry)).unwrap();
    assert_eq!(wire["id"], 2);
    assert_eq!(wire["result"]["content"][0]["text"], "Booked 1 seat(s) 4C.");
}

#[test]
fn refusals_are_json_rpc_errors_with_the_request_id() {
    let sealer = Sealer::new([7; 32]);
    let first = book_request(1, "window", can_elicit());
    let Ok(CallToolOutcome::InputRequired(asked)) = book(&sealer, "alice", &first) else {
        panic!("the server asks first");
    };
    let retry = answer_and_retry(&first, &asked, 2, "4C").unwrap();
    // Another principal presents alice's state: -32602 with the reason.
    let wire = serde_json::to_value(serve(&sealer, "mallory", &retry)).unwrap();
    assert_eq!(wire["id"], 2);
    assert_eq!(wire["error"]["code"], -32602);
    assert_eq!(wire["error"]["data"]["reason"], "other-principal");
    // A client that cannot elicit: -32021 naming the capability.
    let cannot = book_request(3, "window", ClientCapabilities::new());
    let wire = serde_json::to_value(serve(&sealer, "alice", &cannot)).unwrap();
    assert_eq!(wire["error"]["code"], -32021);
    assert_eq!(
        wire["error"]["data"]["requiredCapabilities"],
        serde_json::json!({"elicitation": {}})
    );
    // The tasks extension not advertised: -32021 naming the extension.
    let Err(error) = answer_with_task(&cannot) else {
        panic!("a task for a client without the extension");
    };
    assert_eq!(error.code, -32021);
}

#[test]
fn an_answer_that_does_not_fit_names_the_member() {
    let sealer = Sealer::new([7; 32]);
    let first = book_request(1, "window", can_elicit());
    let Ok(CallToolOutcome::InputRequired(asked)) = book(&sealer, "alice", &first) else {
        panic!("the server asks first");
    };
    let mut responses = InputResponses::new();
    let wrong = ElicitResultContentValue::Boolean(true);
    let result =
        ElicitResult::new(ElicitResultAction::Accept).with_content([("seat".into(), wrong)]);
    responses.insert("seat".into(), result.into());
    let retry = first.retry(2.into(), &asked, responses).unwrap();
    let Err(error) = book(&sealer, "alice", &retry) else {
        panic!("a boolean seat was read");
    };
    assert_eq!(error.code, -32602);
    assert!(error.message.contains("`seat`"), "{}", error.message);
}

#[test]
fn the_users_outcome_reads_by_result_type() {
    let outcome: BookingOutcome = serde_json::from_str(r#"{"seat":"4C"}"#).unwrap();
    assert_eq!(
        outcome,
        BookingOutcome::Complete(Booking { seat: "4C".into() })
    );
    let asked = r#"{"resultType":"input_required","requestState":"s"}"#;
    let outcome: BookingOutcome = serde_json::from_str(asked).unwrap();
    let BookingOutcome::InputRequired(asked) = outcome else {
        panic!("input_required read as complete");
    };
    assert_eq!(asked.request_state().map(String::as_str), Some("s"));
    let seat: Seat = mcp_runtime::form::read(&[("seat".to_owned(), "4C")].into()).unwrap();
    assert_eq!(
        seat,
        Seat {
            seat: "4C".into(),
            count: None
        }
    );
}

#[test]
fn integers_set_number_members() {
    let wire = serde_json::to_value(progress("t", 3, 10)).unwrap();
    assert_eq!(wire["params"]["progress"], 3.0);
    assert_eq!(wire["params"]["total"], 10.0);
    assert_eq!(wire["params"]["progressToken"], "t");
    let form = serde_json::to_value(count_form(4)).unwrap();
    assert_eq!(form["properties"]["count"]["maximum"], 4.0);
}

#[test]
fn the_checks_refuse_with_their_typed_error_responses() {
    let request = book_request(5, "window", ClientCapabilities::new());
    let wire = |refusal: Refusal| match refusal {
        Refusal::Rpc(e) => serde_json::to_value(e),
        Refusal::Capability(e) => serde_json::to_value(e),
        Refusal::Version(e) => serde_json::to_value(e),
        Refusal::Header(e) => serde_json::to_value(e),
    };
    let header = wire(admit("tools/list", &request).unwrap_err()).unwrap();
    assert_eq!(header["error"]["code"], -32020);
    assert_eq!(header["id"], 5);
    let capability = wire(admit("tools/call", &request).unwrap_err()).unwrap();
    assert_eq!(capability["jsonrpc"], "2.0");
    assert_eq!(capability["error"]["code"], -32021);
    assert_eq!(
        capability["error"]["data"]["requiredCapabilities"],
        serde_json::json!({"elicitation": {}})
    );
    let Err(Refusal::Version(version)) =
        check_version(&request, &["2025-11-25"]).map_err(Refusal::from)
    else {
        panic!("2026-07-28 is not listed");
    };
    assert_eq!(version.error.data.requested, "2026-07-28");
    assert_eq!(version.error.data.supported, ["2025-11-25"]);
    let mut other = book_request(6, "window", can_elicit());
    other.params.name = "nap".into();
    let Err(Refusal::Rpc(unknown)) = admit("tools/call", &other) else {
        panic!("an unknown tool is admitted");
    };
    assert_eq!(unknown.error.code, -32602);
    let ok = book_request(7, "window", can_elicit());
    assert!(admit("tools/call", &ok).is_ok());
}

#[test]
fn messages_read_into_the_users_enum_and_errors_out_of_responses() {
    let call = serde_json::to_string(&book_request(1, "aisle", can_elicit())).unwrap();
    let Ok(Incoming::Call(read)) = read_incoming(&call) else {
        panic!("a tools/call read as something else");
    };
    assert_eq!(read.params.meta.protocol_version, "2026-07-28");
    let Err(unknown) = read_incoming(r#"{"jsonrpc":"2.0","id":3,"method":"x/y"}"#) else {
        panic!("an unknown method is read");
    };
    assert_eq!(unknown.error.code, -32601);
    assert_eq!(serde_json::to_value(&unknown).unwrap()["id"], 3);
    let Err(object) = result_of(JSONRPCResponse::JSONRPCErrorResponse(unknown)) else {
        panic!("an error response read as a result");
    };
    assert_eq!(object.code, -32601);
    let Err(broken) = read_incoming("{") else {
        panic!("a broken body is read");
    };
    assert_eq!(broken.error.code, -32700);
}

/// clippy's `large_enum_variant` fires at more than 200 bytes between the largest and the
/// second-largest variant, `result_large_err` at an `Err` of 128 bytes: the generated types a
/// user holds whole stay below (no `Box` written here, nor in the code above).
#[test]
fn what_a_user_holds_stays_under_clippys_thresholds() {
    use mcp_user_code::mcp;
    use std::mem::size_of;
    let errors = [
        (
            "JSONRPCErrorResponse",
            size_of::<mcp::JSONRPCErrorResponse>(),
        ),
        ("Error", size_of::<mcp::Error>()),
        (
            "MissingRequiredClientCapabilityError",
            size_of::<mcp::MissingRequiredClientCapabilityError>(),
        ),
        (
            "MissingRequiredClientCapabilityErrorError",
            size_of::<mcp::MissingRequiredClientCapabilityErrorError>(),
        ),
        (
            "MissingRequiredClientCapabilityErrorErrorData",
            size_of::<mcp::MissingRequiredClientCapabilityErrorErrorData>(),
        ),
        (
            "UnsupportedProtocolVersionError",
            size_of::<mcp::UnsupportedProtocolVersionError>(),
        ),
        (
            "UnsupportedProtocolVersionErrorErrorData",
            size_of::<mcp::UnsupportedProtocolVersionErrorErrorData>(),
        ),
        ("HeaderMismatchError", size_of::<mcp::HeaderMismatchError>()),
        ("InvalidParamsError", size_of::<mcp::InvalidParamsError>()),
        ("RpcError", size_of::<mcp_runtime::RpcError>()),
        ("Refusal", size_of::<Refusal>()),
    ];
    for (name, size) in errors {
        assert!(size < 128, "{name}: {size} bytes");
    }
    let held = [
        ("CallToolRequest", size_of::<mcp::CallToolRequest>()),
        ("CompleteRequest", size_of::<mcp::CompleteRequest>()),
        ("ListToolsRequest", size_of::<mcp::ListToolsRequest>()),
        ("DiscoverRequest", size_of::<mcp::DiscoverRequest>()),
        (
            "CancelledNotification",
            size_of::<mcp::CancelledNotification>(),
        ),
        (
            "ProgressNotification",
            size_of::<mcp::ProgressNotification>(),
        ),
        ("CallToolResult", size_of::<mcp::CallToolResult>()),
        ("ListToolsResult", size_of::<mcp::ListToolsResult>()),
        ("DiscoverResult", size_of::<mcp::DiscoverResult>()),
        ("InputRequiredResult", size_of::<mcp::InputRequiredResult>()),
        ("CreateTaskResult", size_of::<mcp::CreateTaskResult>()),
    ];
    // Beside an empty variant (`Incoming::Closed`, `Answer::Nothing`).
    for (name, size) in held {
        assert!(size <= 200, "{name}: {size} bytes");
    }
    let smallest_result = size_of::<Booking>();
    assert!(size_of::<mcp::InputRequiredResult>() <= smallest_result + 200);
}

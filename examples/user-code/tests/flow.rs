//! The user's code run end to end: ask, answer, book; the refusals as their JSON-RPC errors;
//! the user's outcome enums read by `resultType`; integers in `number` members. And the sizes
//! that keep such code clean under clippy without a `Box` written by the user.

use mcp_runtime::seal::Sealer;
use mcp_user_code::mcp::prelude::*;
use mcp_user_code::{
    Booking, BookingOutcome, Seat, answer_and_retry, answer_with_task, book, book_request,
    count_form, progress, serve,
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

/// clippy's `large_enum_variant` fires at 200 bytes between the largest and the second
/// largest variant, `result_large_err` at an `Err` of 128 bytes: the generated results that
/// sit beside a user's own in an outcome enum, and a handler's error, stay below.
#[test]
fn what_a_user_holds_stays_under_clippys_thresholds() {
    let smallest_result = std::mem::size_of::<Booking>();
    assert!(std::mem::size_of::<mcp_user_code::mcp::InputRequiredResult>() < smallest_result + 200);
    assert!(std::mem::size_of::<CreateTaskResult>() < smallest_result + 200);
    assert!(std::mem::size_of::<mcp_runtime::RpcError>() < 128);
}

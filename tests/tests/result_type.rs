//! resultType dispatch on the generated types (SPEC-NOTES A.1-A.5): read by `resultType`,
//! never by shape; a missing value means "complete"; anything else is an error unless it comes
//! from an extension the client advertised.

use mcp_runtime::ResultType;
use mcp_runtime::result_type::accepting;
use mcp_tests::mcp;
use serde_json::json;

fn err<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> String {
    match serde_json::from_str::<T>(text) {
        Ok(v) => panic!("{text} was accepted as {v:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn complete_result_reads_complete_and_missing() {
    let r: mcp::CallToolResult =
        serde_json::from_str(r#"{"resultType":"complete","content":[]}"#).unwrap();
    assert!(r.content.is_empty());
    let r: mcp::CallToolResult = serde_json::from_str(r#"{"content":[]}"#).unwrap();
    assert!(r.content.is_empty(), "a missing resultType means complete");
}

#[test]
fn complete_result_rejects_every_other_value_naming_it() {
    for (value, shown) in [
        (r#""input_required""#, "input_required"),
        (r#""success""#, "success"),
        (r#""Complete""#, "Complete"),
        ("null", "null"),
        ("1", "1"),
    ] {
        let e = err::<mcp::CallToolResult>(&format!(r#"{{"resultType":{value},"content":[]}}"#));
        assert!(e.contains(shown), "the error for {value} names it: {e}");
    }
}

#[test]
fn results_write_result_type_first() {
    let r: mcp::CallToolResult = serde_json::from_str(r#"{"content":[],"isError":false}"#).unwrap();
    let text = serde_json::to_string(&r).unwrap();
    assert!(text.starts_with(r#"{"resultType":"complete""#), "{text}");
    let ir = mcp::InputRequiredResult::new(None, Some("s".into())).unwrap();
    let text = serde_json::to_string(&ir).unwrap();
    assert!(
        text.starts_with(r#"{"resultType":"input_required""#),
        "{text}"
    );
}

#[test]
fn outcome_dispatches_by_result_type_not_shape() {
    let o: mcp::CallToolOutcome =
        serde_json::from_str(r#"{"resultType":"complete","content":[]}"#).unwrap();
    assert!(matches!(o, mcp::CallToolOutcome::Complete(_)), "{o:?}");
    let o: mcp::CallToolOutcome =
        serde_json::from_str(r#"{"resultType":"input_required","requestState":"s","content":[]}"#)
            .unwrap();
    let mcp::CallToolOutcome::InputRequired(ir) = o else {
        panic!("{o:?}")
    };
    assert_eq!(ir.request_state().map(String::as_str), Some("s"));
    assert!(
        ir.extra().contains_key("content"),
        "the stray member is kept, not interpreted"
    );
    // Keys sorted, resultType after the content: still by resultType.
    let o: mcp::CallToolOutcome = serde_json::from_str(
        r#"{"content":[{"type":"text","text":"hi"}],"resultType":"complete"}"#,
    )
    .unwrap();
    assert!(
        matches!(o, mcp::CallToolOutcome::Complete(ref r) if r.content.len() == 1),
        "{o:?}"
    );
    let o: mcp::CallToolOutcome = serde_json::from_str(r#"{"content":[]}"#).unwrap();
    assert!(
        matches!(o, mcp::CallToolOutcome::Complete(_)),
        "missing means complete: {o:?}"
    );
}

#[test]
fn all_optional_input_required_shape_is_not_guessed() {
    // Every member of InputRequiredResult is optional; a complete result must not become one.
    let o: mcp::CallToolOutcome =
        serde_json::from_str(r#"{"resultType":"complete","content":[],"requestState":"x"}"#)
            .unwrap();
    let mcp::CallToolOutcome::Complete(r) = o else {
        panic!("a stray requestState on a complete result is not input_required")
    };
    assert_eq!(r.extra.get("requestState"), Some(&json!("x")));
}

#[test]
fn outcome_rejects_unknown_values() {
    for value in [
        r#""success""#,
        "null",
        "1",
        r#""Complete""#,
        r#""INPUT_REQUIRED""#,
    ] {
        let e = err::<mcp::CallToolOutcome>(&format!(r#"{{"resultType":{value},"content":[]}}"#));
        assert!(e.contains(value.trim_matches('"')), "{e}");
    }
}

#[test]
fn methods_that_may_not_require_input_reject_input_required() {
    let e = err::<mcp::ListToolsResult>(
        r#"{"resultType":"input_required","tools":[],"ttlMs":0,"cacheScope":"public"}"#,
    );
    assert!(e.contains("input_required"), "{e}");
    let e = err::<mcp::DiscoverResult>(
        r#"{"resultType":"input_required","supportedVersions":[],"capabilities":{},"ttlMs":0,"cacheScope":"public"}"#,
    );
    assert!(e.contains("input_required"), "{e}");
    let e = err::<mcp::ListToolsResultResponse>(
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s"}}"#,
    );
    assert!(e.contains("input_required"), "{e}");
}

#[test]
fn response_types_of_input_required_methods_carry_outcomes() {
    let r: mcp::CallToolResultResponse = serde_json::from_str(
        r#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","requestState":"abc"}}"#,
    )
    .unwrap();
    assert!(matches!(r.result, mcp::CallToolOutcome::InputRequired(_)));
    let r: mcp::GetPromptResultResponse =
        serde_json::from_str(r#"{"jsonrpc":"2.0","id":"a","result":{"messages":[]}}"#).unwrap();
    assert!(matches!(r.result, mcp::GetPromptOutcome::Complete(_)));
    let r: mcp::ReadResourceResultResponse = serde_json::from_str(
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}}}"#,
    )
    .unwrap();
    assert!(matches!(
        r.result,
        mcp::ReadResourceOutcome::InputRequired(_)
    ));
}

#[test]
fn errors_are_told_apart_before_result_type() {
    let r: mcp::JSONRPCResponse = serde_json::from_str(
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}}"#,
    )
    .unwrap();
    assert!(
        matches!(r, mcp::JSONRPCResponse::JSONRPCErrorResponse(_)),
        "{r:?}"
    );
    let r: mcp::JSONRPCResponse = serde_json::from_str(
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s"}}"#,
    )
    .unwrap();
    let mcp::JSONRPCResponse::JSONRPCResultResponse(r) = r else {
        panic!()
    };
    assert_eq!(r.result.result_type, ResultType::InputRequired);
}

#[test]
fn extension_values_need_the_client_to_advertise_them() {
    let text = r#"{"resultType":"com.example/deferred","ticket":"t1"}"#;
    let e = err::<mcp::Result>(text);
    assert!(e.contains("com.example/deferred"), "{e}");
    let r: mcp::Result =
        accepting(&["com.example/deferred"], || serde_json::from_str(text)).unwrap();
    assert_eq!(
        r.result_type,
        ResultType::Extension("com.example/deferred".into())
    );
    assert_eq!(
        serde_json::to_value(&r).unwrap(),
        serde_json::from_str::<serde_json::Value>(text).unwrap()
    );
    // An accepted extension value is still not a CallToolResult.
    let e = accepting(&["com.example/deferred"], || {
        err::<mcp::CallToolOutcome>(text)
    });
    assert!(e.contains("com.example/deferred"), "{e}");
}

#[test]
fn input_required_result_needs_requests_or_state() {
    let e = err::<mcp::InputRequiredResult>(r#"{"resultType":"input_required"}"#);
    assert!(
        e.contains("inputRequests") && e.contains("requestState"),
        "{e}"
    );
    let e = err::<mcp::CallToolOutcome>(r#"{"resultType":"input_required","content":[]}"#);
    assert!(
        e.contains("inputRequests") && e.contains("requestState"),
        "{e}"
    );
    let e = mcp::InputRequiredResult::new(None, None).unwrap_err();
    assert!(
        e.to_string()
            .contains("at least one of `inputRequests`, `requestState`"),
        "{e}"
    );
    assert!(mcp::InputRequiredResult::new(None, Some("s".into())).is_ok());
    assert!(mcp::InputRequiredResult::new(Some(Default::default()), None).is_ok());
}

#[test]
fn the_mrtr_example_reads_as_input_required() {
    let dir = mcp_tests::schema_dir().join("2026-07-28/examples/InputRequiredResult");
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let o: mcp::CallToolOutcome = serde_json::from_str(&text).unwrap();
        let mcp::CallToolOutcome::InputRequired(ir) = o else {
            panic!("{text}")
        };
        assert!(ir.request_state().is_some() || ir.input_requests().is_some());
    }
    let text = std::fs::read_to_string(
        mcp_tests::schema_dir()
            .join("2026-07-28/examples/InputRequiredResult/input-required-result-with-elicitation-and-sampling-and-request-state.json"),
    )
    .unwrap();
    let ir: mcp::InputRequiredResult = serde_json::from_str(&text).unwrap();
    let requests = ir.input_requests().unwrap();
    assert!(matches!(
        requests["github_login"],
        mcp::InputRequest::ElicitRequest(_)
    ));
    assert!(matches!(
        requests["capital_of_france"],
        mcp::InputRequest::CreateMessageRequest(_)
    ));
}

#[test]
fn server_result_union_reads_by_result_type_and_by_method() {
    let r: mcp::ServerResult =
        serde_json::from_str(r#"{"resultType":"input_required","requestState":"s"}"#).unwrap();
    assert!(
        matches!(r, mcp::ServerResult::InputRequiredResult(_)),
        "{r:?}"
    );
    let r: mcp::ServerResult =
        serde_json::from_str(r#"{"resultType":"complete","tools":[]}"#).unwrap();
    assert!(matches!(r, mcp::ServerResult::Result(_)), "{r:?}");
    let v = json!({"resultType": "complete", "tools": [], "ttlMs": 5, "cacheScope": "private"});
    let r = mcp::ServerResult::from_method("tools/list", v).unwrap();
    assert!(matches!(r, mcp::ServerResult::ListToolsResult(_)), "{r:?}");
    let r = mcp::ServerResult::from_method(
        "tools/call",
        json!({"resultType": "input_required", "requestState": "s"}),
    )
    .unwrap();
    assert!(
        matches!(r, mcp::ServerResult::InputRequiredResult(_)),
        "{r:?}"
    );
    assert!(
        mcp::ServerResult::from_method(
            "tools/list",
            json!({"resultType": "input_required", "requestState": "s"})
        )
        .is_err()
    );
}

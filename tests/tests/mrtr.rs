//! Capability-gated input requests (SPEC-NOTES B) and the retry of a multi round-trip request
//! (SPEC-NOTES A.8).

use mcp_runtime::capability::{CapabilityError, Level};
use mcp_runtime::mrtr::InputError;
use mcp_runtime::prelude::*;
use mcp_runtime::retry::RetryError;
use mcp_tests::mcp;
use serde_json::{Value, json};

fn caps(v: Value) -> mcp::ClientCapabilities {
    serde_json::from_value(v).unwrap()
}

fn request(v: Value) -> mcp::InputRequest {
    serde_json::from_value(v).unwrap()
}

fn form(mode: Option<&str>) -> mcp::InputRequest {
    let mut params = json!({"message": "name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}});
    if let Some(m) = mode {
        params["mode"] = json!(m);
    }
    request(json!({"method": "elicitation/create", "params": params}))
}

fn url() -> mcp::InputRequest {
    request(
        json!({"method": "elicitation/create", "params": {"mode": "url", "message": "log in", "url": "https://example.com/login", "elicitationId": "e1"}}),
    )
}

fn sampling(extra: Value) -> mcp::InputRequest {
    let mut params = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10});
    for (k, v) in extra.as_object().unwrap() {
        params[k] = v.clone();
    }
    request(json!({"method": "sampling/createMessage", "params": params}))
}

fn roots() -> mcp::InputRequest {
    request(json!({"method": "roots/list"}))
}

/// The capability the builder says is missing, or None when it accepts the request.
/// The refusal an input error must be.
fn refusal(e: impl Into<InputError>) -> CapabilityError {
    match e.into() {
        InputError::Refused(e) => e,
        InputError::Json(e) => panic!("not a refusal: {e}"),
    }
}

fn refused(c: &Value, r: mcp::InputRequest) -> Option<String> {
    let mut b = mcp::InputRequestsBuilder::new(&caps(c.clone()));
    match b.insert("k", r) {
        Ok(_) => None,
        Err(e) => {
            let e = refusal(e);
            assert_eq!(e.refusals[0].key, "k");
            Some(
                e.refusals
                    .iter()
                    .map(|r| r.capability.clone())
                    .collect::<Vec<_>>()
                    .join(","),
            )
        }
    }
}

#[test]
fn capability_matrix() {
    let none = json!({});
    let empty_elicitation = json!({"elicitation": {}});
    let form_only = json!({"elicitation": {"form": {}}});
    let url_only = json!({"elicitation": {"url": {}}});
    let both = json!({"elicitation": {"form": {}, "url": {}}});
    let sampling_plain = json!({"sampling": {}});
    let sampling_tools = json!({"sampling": {"tools": {}}});
    let sampling_context = json!({"sampling": {"context": {}}});
    let with_roots = json!({"roots": {}});

    let cases: Vec<(&str, &Value, mcp::InputRequest, Option<&str>)> = vec![
        ("form, no caps", &none, form(None), Some("elicitation")),
        (
            "form without mode, {}",
            &empty_elicitation,
            form(None),
            None,
        ),
        (
            "form with mode, {}",
            &empty_elicitation,
            form(Some("form")),
            None,
        ),
        ("form, form", &form_only, form(None), None),
        (
            "form, url only",
            &url_only,
            form(Some("form")),
            Some("elicitation.form"),
        ),
        (
            "form without mode, url only",
            &url_only,
            form(None),
            Some("elicitation.form"),
        ),
        ("form, both", &both, form(None), None),
        ("url, no caps", &none, url(), Some("elicitation")),
        (
            "url, {}",
            &empty_elicitation,
            url(),
            Some("elicitation.url"),
        ),
        ("url, form only", &form_only, url(), Some("elicitation.url")),
        ("url, url", &url_only, url(), None),
        ("url, both", &both, url(), None),
        (
            "sampling, none",
            &none,
            sampling(json!({})),
            Some("sampling"),
        ),
        (
            "sampling, sampling",
            &sampling_plain,
            sampling(json!({})),
            None,
        ),
        (
            "sampling tools, sampling",
            &sampling_plain,
            sampling(json!({"tools": []})),
            Some("sampling.tools"),
        ),
        (
            "sampling toolChoice, sampling",
            &sampling_plain,
            sampling(json!({"toolChoice": {"mode": "auto"}})),
            Some("sampling.tools"),
        ),
        (
            "sampling tools, sampling.tools",
            &sampling_tools,
            sampling(json!({"tools": []})),
            None,
        ),
        (
            "sampling context, sampling",
            &sampling_plain,
            sampling(json!({"includeContext": "thisServer"})),
            Some("sampling.context"),
        ),
        (
            "sampling allServers, sampling",
            &sampling_plain,
            sampling(json!({"includeContext": "allServers"})),
            Some("sampling.context"),
        ),
        (
            "sampling context none, sampling",
            &sampling_plain,
            sampling(json!({"includeContext": "none"})),
            None,
        ),
        (
            "sampling context, sampling.context",
            &sampling_context,
            sampling(json!({"includeContext": "thisServer"})),
            None,
        ),
        ("roots, none", &none, roots(), Some("roots")),
        ("roots, sampling", &sampling_plain, roots(), Some("roots")),
        ("roots, roots", &with_roots, roots(), None),
        (
            "elicitation, roots",
            &with_roots,
            form(None),
            Some("elicitation"),
        ),
    ];
    for (name, c, r, want) in cases {
        assert_eq!(refused(c, r).as_deref(), want, "{name}");
    }
}

#[test]
fn should_rules_can_be_allowed_explicitly() {
    let c = caps(json!({"sampling": {}}));
    let mut strict = mcp::InputRequestsBuilder::new(&c);
    let e = refusal(
        strict
            .insert("s", sampling(json!({"includeContext": "thisServer"})))
            .unwrap_err(),
    );
    assert_eq!(e.refusals[0].level, Level::Should);
    assert!(e.to_string().contains("SHOULD"), "{e}");
    let mut lenient = mcp::InputRequestsBuilder::new(&c).allow_should_rules();
    lenient
        .insert("s", sampling(json!({"includeContext": "thisServer"})))
        .unwrap();
    // MUST rules stay.
    assert!(lenient.insert("t", sampling(json!({"tools": []}))).is_err());
    assert_eq!(lenient.build().len(), 1);
}

#[test]
fn refusal_names_key_kind_and_capability_and_becomes_32021() {
    let mut b = mcp::InputRequestsBuilder::new(&caps(json!({"elicitation": {}})));
    let e = refusal(b.insert("login", url()).unwrap_err());
    let msg = e.to_string();
    assert!(
        msg.contains("\"login\"")
            && msg.contains("elicitation/create")
            && msg.contains("elicitation.url"),
        "{msg}"
    );
    assert_eq!(
        e.required_capabilities(),
        json!({"elicitation": {"url": {}}})
    );
    let resp = mcp::MissingRequiredClientCapabilityError::from_capability_error(
        Some(mcp::RequestId::Integer(3)),
        &e,
    );
    let url = resp
        .error
        .data
        .required_capabilities
        .elicitation
        .as_ref()
        .and_then(|e| e.url.as_ref());
    assert_eq!(url, Some(&Default::default()));
    assert_eq!(resp.error.message, e.message());
    let v = serde_json::to_value(&resp).unwrap();
    assert_eq!(v["error"]["code"], json!(-32021));
    assert_eq!(
        v["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {"url": {}}})
    );
    assert_eq!(v["id"], json!(3));
}

#[test]
fn a_missing_capability_is_refused_once_at_the_level_the_client_lacks() {
    let mut b = mcp::InputRequestsBuilder::new(&caps(json!({})));
    let e = refusal(b.insert("ask", form(Some("form"))).unwrap_err());
    let resp = mcp::MissingRequiredClientCapabilityError::from_capability_error(None, &e);
    let v = serde_json::to_value(&resp).unwrap();
    assert_eq!(
        v["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {}})
    );
    assert_eq!(e.refusals.len(), 1, "{e}");
    assert!(v.get("id").is_none(), "{v}");
}

#[test]
fn a_capability_of_no_member_is_named_in_the_message_only() {
    let e = CapabilityError {
        refusals: vec![mcp_runtime::capability::Refusal {
            key: "k".into(),
            method: "x/y".into(),
            capability: "nowhere.deep".into(),
            level: Level::Must,
        }],
    };
    let resp = mcp::MissingRequiredClientCapabilityError::from_capability_error(None, &e);
    assert_eq!(
        *resp.error.data.required_capabilities,
        mcp::ClientCapabilities::new()
    );
    assert!(
        resp.error.message.contains("`nowhere.deep`"),
        "{}",
        resp.error.message
    );
}

#[test]
fn a_rejected_sealed_state_is_a_typed_invalid_params_response() {
    use mcp_runtime::seal::{Binding, SealError, Sealer};
    let sealer = Sealer::new([9; 32]);
    let call = call();
    let binding = Binding::for_request::<mcp::CallToolRequest>("alice", &json!({"name": "t"}));
    let token = sealer.seal(&binding, b"state");
    let other = Binding::for_request::<mcp::CallToolRequest>("mallory", &json!({"name": "t"}));
    let error = sealer.open(&other, &token).unwrap_err();
    assert_eq!(error, SealError::OtherPrincipal);
    let resp: mcp::JSONRPCErrorResponse = error.response(Some(call.id.clone()));
    assert_eq!(resp.error.code, mcp_runtime::seal::INVALID_PARAMS);
    assert_eq!(resp.id, Some(call.id));
    assert_eq!(resp.error.data, Some(json!({"reason": "other-principal"})));
    let wire = serde_json::to_value(&resp).unwrap();
    assert_eq!(wire["error"], error.error_object());
    assert_eq!(wire["jsonrpc"], "2.0");
}

#[test]
fn client_side_check_reports_every_offending_key() {
    let mut requests = mcp::InputRequests::new();
    requests.insert("a".into(), url());
    requests.insert("b".into(), roots());
    requests.insert("c".into(), form(None));
    let ir = mcp::InputRequiredResult::new(Some(requests), None).unwrap();
    let e = refusal(
        ir.check_capabilities(&caps(json!({"elicitation": {"form": {}}})))
            .unwrap_err(),
    );
    let keys: Vec<(&str, &str)> = e
        .refusals
        .iter()
        .map(|r| (r.key.as_str(), r.capability.as_str()))
        .collect();
    assert_eq!(keys, [("a", "elicitation.url"), ("b", "roots")]);
    assert!(
        ir.check_capabilities(&caps(
            json!({"elicitation": {"form": {}, "url": {}}, "roots": {}})
        ))
        .is_ok()
    );
}

fn call() -> mcp::CallToolRequest {
    serde_json::from_value(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "weather", "arguments": {"city": "Paris"},
                   "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                             "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}}
    }))
    .unwrap()
}

fn elicit_result() -> mcp::InputResponse {
    serde_json::from_value(json!({"action": "accept", "content": {"name": "octocat"}})).unwrap()
}

fn roots_result() -> mcp::InputResponse {
    serde_json::from_value(json!({"roots": []})).unwrap()
}

#[test]
fn retry_copies_state_and_needs_matching_responses() {
    let original = call();
    let mut requests = mcp::InputRequests::new();
    requests.insert("login".into(), form(None));
    let answer =
        mcp::InputRequiredResult::new(Some(requests), Some("opaque-state==".into())).unwrap();

    let mut responses = mcp::InputResponses::new();
    responses.insert("login".into(), elicit_result());
    let retry = original
        .retry(mcp::RequestId::Integer(2), &answer, responses.clone())
        .unwrap();
    assert_eq!(retry.id, mcp::RequestId::Integer(2));
    assert_eq!(
        retry.params.request_state.as_deref(),
        Some("opaque-state==")
    );
    assert_eq!(retry.params.input_responses.as_ref(), Some(&responses));
    assert_eq!(retry.params.name, "weather");
    assert_eq!(retry.params.arguments, original.params.arguments);

    assert_eq!(
        original
            .retry(mcp::RequestId::Integer(1), &answer, responses.clone())
            .unwrap_err(),
        RetryError::SameId
    );
    assert_eq!(
        original
            .retry(
                mcp::RequestId::Integer(2),
                &answer,
                mcp::InputResponses::new()
            )
            .unwrap_err(),
        RetryError::MissingResponse {
            key: "login".into(),
            method: "elicitation/create".into()
        }
    );
    let mut wrong = mcp::InputResponses::new();
    wrong.insert("login".into(), roots_result());
    assert_eq!(
        original
            .retry(mcp::RequestId::Integer(2), &answer, wrong)
            .unwrap_err(),
        RetryError::WrongKind {
            key: "login".into(),
            method: "elicitation/create".into(),
            expected: "ElicitResult"
        }
    );
    let mut extra = responses.clone();
    extra.insert("other".into(), roots_result());
    assert_eq!(
        original
            .retry(mcp::RequestId::Integer(2), &answer, extra)
            .unwrap_err(),
        RetryError::UnexpectedResponse {
            key: "other".into()
        }
    );
}

#[test]
fn retry_sends_no_state_when_none_came() {
    let mut requests = mcp::InputRequests::new();
    requests.insert("r".into(), roots());
    let answer = mcp::InputRequiredResult::new(Some(requests), None).unwrap();
    let mut responses = mcp::InputResponses::new();
    responses.insert("r".into(), roots_result());
    let retry = call()
        .retry(mcp::RequestId::String("x".into()), &answer, responses)
        .unwrap();
    assert_eq!(retry.params.request_state, None);
    let text = serde_json::to_string(&retry).unwrap();
    assert!(!text.contains("requestState"), "{text}");

    // State only: the retry echoes it and carries no inputResponses.
    let answer = mcp::InputRequiredResult::new(None, Some("s1".into())).unwrap();
    let retry = call()
        .retry(
            mcp::RequestId::Integer(9),
            &answer,
            mcp::InputResponses::new(),
        )
        .unwrap();
    assert_eq!(retry.params.request_state.as_deref(), Some("s1"));
    assert_eq!(retry.params.input_responses, None);
}

#[test]
fn input_requests_are_only_the_three_kinds_by_method() {
    for method in ["tools/list", "ping", "initialize", "notifications/progress"] {
        let e =
            serde_json::from_value::<mcp::InputRequest>(json!({"method": method, "params": {}}))
                .unwrap_err();
        assert!(e.to_string().contains(method), "{e}");
    }
    let e = serde_json::from_value::<mcp::InputRequest>(json!({"params": {}})).unwrap_err();
    assert!(e.to_string().contains("method"), "{e}");
    assert_eq!(roots().method(), "roots/list");
    assert_eq!(url().method(), "elicitation/create");
    assert_eq!(sampling(json!({})).method(), "sampling/createMessage");
}

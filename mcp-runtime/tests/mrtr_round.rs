//! `mcp_runtime::mrtr::round` on a module generated from the 2026-07-28 schema: a round refused
//! for a capability the client lacks, answers read by key, a missing answer asked again, and
//! (feature `seal`) the sealed request state refused when changed, expired, or bound to
//! another request or principal.

use std::collections::BTreeMap;

use mcp_runtime::error_code::{INTERNAL_ERROR, INVALID_PARAMS, MISSING_REQUIRED_CLIENT_CAPABILITY};
use mcp_runtime::mrtr::{Answers, Elicited, Round, Sampled};
use mcp_tests::mcp;
use serde::Deserialize;

type Result = mcp::InputRequiredResult;

#[derive(Debug, Deserialize, PartialEq)]
struct Name {
    name: String,
}

fn can_elicit() -> mcp::ClientCapabilities {
    mcp::ClientCapabilities::new().with_elicitation(mcp::ClientCapabilitiesElicitation::new())
}

fn ask_name() -> mcp::ElicitRequest {
    let form = <mcp::ElicitRequestFormParamsRequestedSchema as mcp_runtime::ObjectSchema>::fields()
        .required("name", mcp::StringSchema::new());
    mcp::ElicitRequest::new(mcp::ElicitRequestFormParams::new("Name?", form.build()))
}

fn roots() -> mcp::ListRootsRequest {
    mcp::ListRootsRequest::default()
}

fn responses(entries: Vec<(&str, mcp::InputResponse)>) -> mcp::InputResponses {
    entries
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
}

fn accepted(name: &str) -> mcp::InputResponse {
    let content = BTreeMap::from([(
        "name".to_owned(),
        mcp::ElicitResultContentValue::String(name.into()),
    )]);
    mcp::InputResponse::ElicitResult(
        mcp::ElicitResult::new(mcp::ElicitResultAction::Accept).with_content(content),
    )
}

#[test]
fn a_request_the_client_cannot_answer_is_refused_with_the_capability_it_needs() {
    let mut round = Round::<Result>::new(&mcp::ClientCapabilities::new());
    let refused = round.ask("user_name", ask_name()).unwrap_err();
    let error = mcp_runtime::RpcError::from(refused);
    assert_eq!(error.code, MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(
        error.data.unwrap()["requiredCapabilities"],
        serde_json::json!({"elicitation": {}})
    );
    // Nothing was asked, so there is nothing to answer with either.
    assert!(round.is_empty());
    assert_eq!(round.finish().unwrap_err().code, INTERNAL_ERROR);

    // What the client can answer is still asked.
    let mut round = Round::<Result>::new(&can_elicit());
    round.ask("user_name", ask_name()).unwrap();
    assert!(round.ask("client_roots", roots()).is_err());
    let result = round.finish().unwrap();
    let asked: Vec<_> = result.input_requests().unwrap().keys().cloned().collect();
    assert_eq!(asked, ["user_name"]);
    assert_eq!(
        serde_json::to_value(&result).unwrap()["resultType"],
        "input_required"
    );
}

#[test]
fn an_answer_is_read_by_key_as_a_typed_value() {
    let given = responses(vec![
        ("user_name", accepted("Ada")),
        (
            "other",
            mcp::InputResponse::ElicitResult(mcp::ElicitResult::new(
                mcp::ElicitResultAction::Decline,
            )),
        ),
        (
            "client_roots",
            mcp::InputResponse::ListRootsResult(mcp::ListRootsResult::new(vec![])),
        ),
    ]);
    let answers = Answers::new(Some(&given));
    assert_eq!(
        answers.elicited::<Name>("user_name").unwrap(),
        Some(Elicited::Accepted(Name { name: "Ada".into() }))
    );
    assert_eq!(
        answers.elicited::<Name>("other").unwrap(),
        Some(Elicited::Declined)
    );
    assert_eq!(
        answers.accepted::<Name>("user_name").unwrap().unwrap().name,
        "Ada"
    );
    assert_eq!(answers.accepted::<Name>("other").unwrap(), None, "declined");
    // Another kind of answer, or none, is no elicitation's answer.
    assert_eq!(answers.elicited::<Name>("client_roots").unwrap(), None);
    assert_eq!(answers.elicited::<Name>("absent").unwrap(), None);
    assert!(answers.has_all(&["user_name", "client_roots"]));
    assert!(!answers.has_all(&["user_name", "absent"]));
    // Accepted content that does not fit is the client's error.
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Age {
        age: i64,
    }
    assert_eq!(
        answers.elicited::<Age>("user_name").unwrap_err().code,
        INVALID_PARAMS
    );
}

/// A sampling answer of `content`, by the model `m1`.
fn sampled(content: serde_json::Value) -> mcp::InputResponse {
    let json = serde_json::json!({"role": "assistant", "model": "m1", "content": content});
    serde_json::from_value(json).unwrap()
}

#[test]
fn sampling_and_roots_answers_are_read_by_key_and_kind() {
    let text = serde_json::json!({"type": "text", "text": "Paris"});
    let image = serde_json::json!({"type": "image", "data": "AA==", "mimeType": "image/png"});
    let roots =
        serde_json::json!({"roots": [{"uri": "file:///a"}, {"uri": "file:///b", "name": "b"}]});
    let given = responses(vec![
        ("capital", sampled(text.clone())),
        ("one_block", sampled(serde_json::json!([text]))),
        ("picture", sampled(image)),
        ("roots", serde_json::from_value(roots).unwrap()),
        ("name", accepted("Ada")),
    ]);
    let answers = Answers::new(Some(&given));
    let paris = Sampled {
        model: "m1".into(),
        text: Some("Paris".into()),
    };
    assert_eq!(answers.sampled("capital"), Some(paris.clone()));
    assert_eq!(answers.sampled("one_block"), Some(paris));
    let picture = answers.sampled("picture").unwrap();
    assert_eq!(picture.text, None);
    assert_eq!(picture.text_or_note(), "(non-text answer from m1)");
    assert_eq!(
        answers.root_uris("roots"),
        Some(vec!["file:///a".to_owned(), "file:///b".to_owned()])
    );
    // Another kind of answer at the key, or none, is no answer of this kind.
    assert_eq!(answers.sampled("roots"), None);
    assert_eq!(answers.sampled("name"), None);
    assert_eq!(answers.root_uris("capital"), None);
    assert_eq!(answers.root_uris("missing"), None);
}

#[test]
fn a_missing_answer_is_asked_again_and_a_given_one_is_not() {
    let given = responses(vec![("user_name", accepted("Ada"))]);
    let answers = Answers::new(Some(&given));
    let mut round = Round::<Result>::new(&can_elicit());
    let name = round
        .elicited_or_ask::<Name>(&answers, "user_name", ask_name())
        .unwrap();
    assert_eq!(name.and_then(Elicited::accepted).unwrap().name, "Ada");
    let color = round
        .elicited_or_ask::<Name>(&answers, "color", ask_name())
        .unwrap();
    assert_eq!(color, None);
    let result = round.finish().unwrap();
    let asked: Vec<_> = result.input_requests().unwrap().keys().cloned().collect();
    assert_eq!(asked, ["color"], "only the missing answer is asked again");

    // A first round: nothing answered, everything asked.
    let none = Answers::<mcp::InputResponse>::new(None);
    let mut round = Round::<Result>::new(&can_elicit());
    assert!(
        round
            .answer_or_ask(&none, "user_name", ask_name())
            .unwrap()
            .is_none()
    );
    assert!(!round.is_empty());
}

#[cfg(feature = "seal")]
mod sealed {
    use std::time::{Duration, SystemTime};

    use mcp_runtime::error_code::INVALID_PARAMS;
    use mcp_runtime::mrtr::{Round, SealedState};
    use mcp_runtime::seal::Sealer;
    use mcp_tests::mcp;
    use serde_json::{Value, json};

    fn params(name: &str, seat: &str) -> mcp::CallToolRequestParams {
        let meta = mcp::RequestMetaObject::new(mcp::ClientCapabilities::new(), "2026-07-28");
        let arguments = json!({"seat": seat}).as_object().unwrap().clone();
        mcp::CallToolRequestParams::new(meta, name).with_arguments(arguments)
    }

    fn bind<'s>(
        sealer: &'s Sealer,
        principal: &str,
        p: &mcp::CallToolRequestParams,
    ) -> SealedState<'s> {
        SealedState::bind::<mcp::CallToolRequest>(sealer, principal, p).unwrap()
    }

    #[track_caller]
    fn refused(state: &SealedState<'_>, token: &str, reason: &str) {
        let error = state.open::<Value>(Some(token)).unwrap_err();
        assert_eq!(error.code, INVALID_PARAMS);
        assert_eq!(error.data.unwrap()["reason"], reason);
    }

    #[test]
    fn a_state_opens_on_the_retry_of_the_same_request() {
        let sealer = Sealer::new([1; 32]);
        let state = bind(&sealer, "alice", &params("book", "4C"));
        assert_eq!(
            state.open::<Value>(None).unwrap(),
            None,
            "a first round has none"
        );
        let token = state.seal(&json!({"round": 2, "name": "Ada"})).unwrap();
        // The retry: new _meta, inputResponses and requestState do not change the binding.
        let retry = params("book", "4C")
            .with_request_state(token.clone())
            .with_input_responses(mcp::InputResponses::new());
        let opened: Value = bind(&sealer, "alice", &retry)
            .open(Some(&token))
            .unwrap()
            .unwrap();
        assert_eq!(opened["name"], "Ada");
        // The token is what a round sends as its requestState.
        let mut round = Round::<mcp::InputRequiredResult>::new(&mcp::ClientCapabilities::new());
        round.state(token.clone());
        assert_eq!(round.finish().unwrap().request_state(), Some(&token));
    }

    #[test]
    fn a_tampered_state_is_refused() {
        let sealer = Sealer::new([1; 32]);
        let state = bind(&sealer, "alice", &params("book", "4C"));
        let token = state.seal(&json!({"round": 1})).unwrap();
        let mut changed = token.clone().into_bytes();
        let last = changed.len() - 1;
        changed[last] = if changed[last] == b'A' { b'B' } else { b'A' };
        refused(&state, &String::from_utf8(changed).unwrap(), "tampered");
        refused(&state, "not a token", "malformed");
    }

    #[test]
    fn a_state_of_another_request_or_principal_is_refused() {
        let sealer = Sealer::new([1; 32]);
        let token = bind(&sealer, "alice", &params("book", "4C"))
            .seal(&json!({"round": 1}))
            .unwrap();
        refused(
            &bind(&sealer, "alice", &params("book", "9F")),
            &token,
            "other-request",
        );
        refused(
            &bind(&sealer, "alice", &params("cancel", "4C")),
            &token,
            "other-request",
        );
        refused(
            &bind(&sealer, "mallory", &params("book", "4C")),
            &token,
            "other-principal",
        );
        let prompt = mcp::GetPromptRequestParams::new(
            mcp::RequestMetaObject::new(mcp::ClientCapabilities::new(), "2026-07-28"),
            "book",
        );
        let other_method =
            SealedState::bind::<mcp::GetPromptRequest>(&sealer, "alice", &prompt).unwrap();
        refused(&other_method, &token, "other-request");
    }

    #[test]
    fn an_expired_state_is_refused() {
        let sealer = Sealer::new([1; 32]).with_ttl(Duration::from_secs(60));
        let state = bind(&sealer, "alice", &params("book", "4C"));
        let an_hour_ago = SystemTime::now() - Duration::from_secs(3600);
        let token = sealer.seal_at(state.binding(), br#"{"round":1}"#, an_hour_ago);
        refused(&state, &token, "expired");
    }
}

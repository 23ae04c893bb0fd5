//! The bridge between a handler written for the modern era and a legacy (2025-11-25) session:
//! a handler that answers `input_required` is served to a legacy client unchanged.
//!
//! In 2026-07-28 a request that needs something from the client is answered with an
//! `InputRequiredResult` (`resultType: "input_required"`, `inputRequests`, perhaps a
//! `requestState`), and the client sends the request again with `inputResponses` and the
//! state. A 2025-11-25 client knows none of this: there the server sends its own requests
//! (`elicitation/create`, `sampling/createMessage`, `roots/list`) to the client while the
//! client's request is open, and answers that request once. [`serve`] runs the modern rounds
//! on the server's side:
//!
//! 1. it calls the handler (first with no [`Retry`]);
//! 2. while the answer is `input_required`, it asks the [`Peer`] each input request (the
//!    server's transport sends it to the legacy client as a request of its own, and waits for
//!    the answer), gathers the answers into `inputResponses` by key, and calls the handler
//!    again with them and the `requestState` of the last answer, which never leaves the
//!    server;
//! 3. it returns the first answer that is not `input_required`.
//!
//! Rounds are bounded ([`serve`]'s `max_rounds`), and a client that does not answer is the
//! [`Peer`]'s to time out: its error ends the bridge with [`BridgeError::Peer`], which the
//! server answers as an error instead of waiting on.
//!
//! The bridge reads results as JSON values: it needs only the members the protocol defines
//! for the multi round-trip (`resultType`, `inputRequests`, `requestState`), so it works with
//! any generated revision; the conversions between a revision's input requests and the legacy
//! server-to-client requests are the [`Peer`]'s (the generated `From`/`TryFrom` impls).
//!
//! ```
//! use mcp_server::bridge::{self, Peer, Retry};
//! use serde_json::{Value, json};
//!
//! /// A client that answers every input request with the same elicitation result.
//! struct Accepting;
//! impl Peer for Accepting {
//!     type Error = String;
//!     async fn ask(&self, _key: &str, _request: Value) -> Result<Value, String> {
//!         Ok(json!({"action": "accept", "content": {"name": "Ada"}}))
//!     }
//! }
//!
//! let handler = |retry: Option<Retry>| async move {
//!     match retry {
//!         None => Ok::<_, ()>(json!({"resultType": "input_required", "inputRequests": {
//!             "name": {"method": "elicitation/create", "params": {"message": "Name?"}}}})),
//!         Some(r) => Ok(json!({"content": [{"type": "text",
//!             "text": format!("Hello, {}", r.input_responses["name"]["content"]["name"])}]})),
//!     }
//! };
//! # let waker = std::task::Waker::noop();
//! # let mut cx = std::task::Context::from_waker(&waker);
//! let mut answer = std::pin::pin!(bridge::serve(handler, &Accepting, 4));
//! # let std::task::Poll::Ready(answer) = answer.as_mut().poll(&mut cx) else { panic!() };
//! assert_eq!(answer.unwrap()["content"][0]["text"], "Hello, \"Ada\"");
//! ```

use std::future::Future;

use serde_json::{Map, Value};

use mcp_runtime::result_type::INPUT_REQUIRED;

/// The member a result's kind is read from.
const RESULT_TYPE: &str = "resultType";
/// The input requests of an `input_required` answer, by key.
const INPUT_REQUESTS: &str = "inputRequests";
/// The state an `input_required` answer asks to have sent back.
const REQUEST_STATE: &str = "requestState";

/// What a handler is called with on a round after the first: what the modern client would
/// have sent in its retry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Retry {
    /// The client's answers, by the key of the input request each answers (`inputResponses`).
    pub input_responses: Map<String, Value>,
    /// The `requestState` of the previous answer, exactly as the handler wrote it.
    pub request_state: Option<String>,
}

/// The legacy client, as the bridge sees it: something that can be asked one input request
/// and answers it (or fails, or does not answer in time).
pub trait Peer {
    /// Why an input request got no answer (the client's error, a timeout, a closed session).
    type Error;

    /// Sends `request` (one entry of `inputRequests`, `{"method": ..., "params": ...}`, at
    /// `key`) to the client and resolves to its result, as the input response the handler
    /// reads.
    fn ask(&self, key: &str, request: Value) -> impl Future<Output = Result<Value, Self::Error>>;
}

/// Why the bridge gave up.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BridgeError<H, P> {
    /// The handler failed; its error, unchanged.
    #[error("the handler failed")]
    Handler(H),
    /// The client did not answer the input request at `key`.
    #[error("the client did not answer the input request {key:?}")]
    Peer {
        /// The request's key in `inputRequests`.
        key: String,
        /// The peer's error.
        error: P,
    },
    /// The handler was still asking for input after this many rounds.
    #[error("the handler still asked for input after {0} rounds")]
    Rounds(usize),
    /// An `input_required` answer with an `inputRequests` that is not an object, a
    /// `requestState` that is not a string, or neither of the two (the protocol requires at
    /// least one).
    #[error("the handler's input_required answer is malformed: {0}")]
    Malformed(&'static str),
}

/// Serves one request of a legacy session with a handler that may answer `input_required`:
/// `handler` is called with `None`, then with each round's [`Retry`], until it answers
/// something else (returned) or `max_rounds` rounds asked for input.
pub async fn serve<H, F, Fut, P>(
    mut handler: F,
    peer: &P,
    max_rounds: usize,
) -> Result<Value, BridgeError<H, P::Error>>
where
    F: FnMut(Option<Retry>) -> Fut,
    Fut: Future<Output = Result<Value, H>>,
    P: Peer,
{
    let mut answer = handler(None).await.map_err(BridgeError::Handler)?;
    for _ in 0..max_rounds {
        let Some(Asked {
            requests,
            request_state,
        }) = input_required(&mut answer)?
        else {
            return Ok(answer);
        };
        let mut input_responses = Map::new();
        for (key, request) in requests {
            let response = peer
                .ask(&key, request)
                .await
                .map_err(|error| BridgeError::Peer {
                    key: key.clone(),
                    error,
                })?;
            input_responses.insert(key, response);
        }
        let retry = Retry {
            input_responses,
            request_state,
        };
        answer = handler(Some(retry)).await.map_err(BridgeError::Handler)?;
    }
    match input_required(&mut answer)? {
        None => Ok(answer),
        Some(_) => Err(BridgeError::Rounds(max_rounds)),
    }
}

/// What an `input_required` answer asks: its input requests by key, and its state.
struct Asked {
    requests: Map<String, Value>,
    request_state: Option<String>,
}

/// What `answer` asks if it is `input_required` (taken out of it).
fn input_required<H, P>(answer: &mut Value) -> Result<Option<Asked>, BridgeError<H, P>> {
    if answer.get(RESULT_TYPE).and_then(Value::as_str) != Some(INPUT_REQUIRED) {
        return Ok(None);
    }
    if answer.get(INPUT_REQUESTS).is_none() && answer.get(REQUEST_STATE).is_none() {
        return Err(BridgeError::Malformed(
            "neither inputRequests nor requestState is present",
        ));
    }
    let requests = match answer.get_mut(INPUT_REQUESTS).map(Value::take) {
        None => Map::new(),
        Some(Value::Object(requests)) => requests,
        Some(_) => return Err(BridgeError::Malformed("inputRequests is not an object")),
    };
    let state = match answer.get_mut(REQUEST_STATE).map(Value::take) {
        None => None,
        Some(Value::String(state)) => Some(state),
        Some(_) => return Err(BridgeError::Malformed("requestState is not a string")),
    };
    Ok(Some(Asked {
        requests,
        request_state: state,
    }))
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::task::{Context, Poll, Waker};

    use serde_json::json;

    use super::*;

    /// Runs a future that never waits (the peers and handlers here answer at once).
    fn run<T>(future: impl Future<Output = T>) -> T {
        let mut future = std::pin::pin!(future);
        let mut cx = Context::from_waker(Waker::noop());
        match future.as_mut().poll(&mut cx) {
            Poll::Ready(v) => v,
            Poll::Pending => panic!("the test future waited"),
        }
    }

    /// A client that records what it is asked and answers from a script (an error when the
    /// script has no answer for the key: a client that never answers, timed out).
    struct Scripted {
        asked: RefCell<Vec<(String, Value)>>,
        answers: Map<String, Value>,
    }

    impl Scripted {
        fn new(answers: Value) -> Self {
            Scripted {
                asked: RefCell::default(),
                answers: answers.as_object().cloned().unwrap_or_default(),
            }
        }
    }

    impl Peer for Scripted {
        type Error = &'static str;
        async fn ask(&self, key: &str, request: Value) -> Result<Value, &'static str> {
            self.asked.borrow_mut().push((key.to_owned(), request));
            self.answers.get(key).cloned().ok_or("timed out")
        }
    }

    fn asking(requests: Value, state: Option<&str>) -> Value {
        let mut answer = json!({"resultType": "input_required", "inputRequests": requests});
        if let Some(state) = state {
            answer["requestState"] = json!(state);
        }
        answer
    }

    #[test]
    fn a_complete_answer_is_returned_without_asking() {
        let peer = Scripted::new(json!({}));
        let answer = run(serve(
            |_| async { Ok::<_, ()>(json!({"content": []})) },
            &peer,
            3,
        ));
        assert_eq!(answer, Ok(json!({"content": []})));
        assert!(peer.asked.borrow().is_empty());
    }

    #[test]
    fn each_input_request_is_asked_and_the_answers_and_state_come_back_to_the_handler() {
        let peer = Scripted::new(json!({
            "name": {"action": "accept", "content": {"name": "Ada"}},
            "roots": {"roots": [{"uri": "file:///a"}]}
        }));
        let calls = RefCell::new(Vec::new());
        let handler = |retry: Option<Retry>| {
            calls.borrow_mut().push(retry.clone());
            async move {
                Ok::<_, ()>(match retry {
                    None => asking(
                        json!({"name": {"method": "elicitation/create"}, "roots": {"method": "roots/list"}}),
                        Some("sealed-1"),
                    ),
                    Some(_) => json!({"resultType": "complete", "content": []}),
                })
            }
        };
        let answer = run(serve(handler, &peer, 3)).unwrap();
        assert_eq!(answer["resultType"], "complete");
        let asked: Vec<String> = peer.asked.borrow().iter().map(|(k, _)| k.clone()).collect();
        assert_eq!(asked, ["name", "roots"]);
        assert_eq!(peer.asked.borrow()[1].1, json!({"method": "roots/list"}));
        let calls = calls.borrow();
        let retry = calls[1].as_ref().unwrap();
        assert_eq!(retry.request_state.as_deref(), Some("sealed-1"));
        assert_eq!(retry.input_responses["name"]["content"]["name"], "Ada");
        assert_eq!(retry.input_responses.len(), 2);
    }

    #[test]
    fn a_client_that_does_not_answer_ends_the_bridge_with_the_peer_error() {
        let peer = Scripted::new(json!({}));
        let calls = RefCell::new(0);
        let handler = |_| {
            *calls.borrow_mut() += 1;
            async {
                Ok::<_, ()>(asking(
                    json!({"q": {"method": "sampling/createMessage"}}),
                    None,
                ))
            }
        };
        let e = run(serve(handler, &peer, 3)).unwrap_err();
        assert_eq!(
            e,
            BridgeError::Peer {
                key: "q".to_owned(),
                error: "timed out"
            }
        );
        assert_eq!(*calls.borrow(), 1, "the handler is not called again");
    }

    #[test]
    fn rounds_are_bounded() {
        let peer = Scripted::new(json!({"q": {"roots": []}}));
        let handler =
            |_| async { Ok::<_, ()>(asking(json!({"q": {"method": "roots/list"}}), Some("s"))) };
        assert_eq!(
            run(serve(handler, &peer, 2)).unwrap_err(),
            BridgeError::Rounds(2)
        );
        assert_eq!(peer.asked.borrow().len(), 2);
    }

    #[test]
    fn a_state_only_round_calls_the_handler_again_without_asking() {
        let peer = Scripted::new(json!({}));
        let handler = |retry: Option<Retry>| async move {
            Ok::<_, ()>(match retry {
                None => json!({"resultType": "input_required", "requestState": "step-2"}),
                Some(r) => json!({"state": r.request_state}),
            })
        };
        assert_eq!(
            run(serve(handler, &peer, 2)).unwrap(),
            json!({"state": "step-2"})
        );
    }

    #[test]
    fn every_round_hands_the_handler_the_state_of_the_answer_before_it() {
        let peer = Scripted::new(json!({"q": {"action": "accept", "content": {}}}));
        let seen = RefCell::new(Vec::new());
        let handler = |retry: Option<Retry>| {
            let state = retry.and_then(|r| r.request_state);
            seen.borrow_mut().push(state.clone());
            let next = match state.as_deref() {
                None => Some("s1"),
                Some("s1") => Some("s2"),
                _ => None,
            };
            async move {
                Ok::<_, ()>(match next {
                    Some(next) => {
                        asking(json!({"q": {"method": "elicitation/create"}}), Some(next))
                    }
                    None => json!({"content": []}),
                })
            }
        };
        assert_eq!(run(serve(handler, &peer, 4)), Ok(json!({"content": []})));
        assert_eq!(
            *seen.borrow(),
            [None, Some("s1".to_owned()), Some("s2".to_owned())]
        );
    }

    #[test]
    fn a_round_without_state_hands_over_none_not_an_older_state() {
        let peer = Scripted::new(json!({"q": {"action": "accept", "content": {}}}));
        let seen = RefCell::new(Vec::new());
        let handler = |retry: Option<Retry>| {
            let state = retry.map(|r| r.request_state);
            let round = seen.borrow().len();
            seen.borrow_mut().push(state);
            async move {
                let ask = json!({"q": {"method": "elicitation/create"}});
                Ok::<_, ()>(match round {
                    0 => asking(ask, Some("s1")),
                    1 => asking(ask, None),
                    _ => json!({"content": []}),
                })
            }
        };
        assert_eq!(run(serve(handler, &peer, 4)), Ok(json!({"content": []})));
        assert_eq!(
            *seen.borrow(),
            [None, Some(Some("s1".to_owned())), Some(None)]
        );
    }

    #[test]
    fn an_input_required_answer_with_neither_member_is_refused() {
        let peer = Scripted::new(json!({}));
        let calls = RefCell::new(0);
        let handler = |_| {
            *calls.borrow_mut() += 1;
            async { Ok::<_, ()>(json!({"resultType": "input_required"})) }
        };
        assert_eq!(
            run(serve(handler, &peer, 3)),
            Err(BridgeError::Malformed(
                "neither inputRequests nor requestState is present"
            ))
        );
        assert_eq!(*calls.borrow(), 1, "the handler is not called again");
        assert!(peer.asked.borrow().is_empty());
    }

    #[test]
    fn malformed_input_requests_and_handler_errors_are_reported() {
        let peer = Scripted::new(json!({}));
        let bad =
            |_| async { Ok::<_, ()>(json!({"resultType": "input_required", "inputRequests": []})) };
        assert!(matches!(
            run(serve(bad, &peer, 2)),
            Err(BridgeError::Malformed(_))
        ));
        let failing = |_| async { Err::<Value, _>("boom") };
        assert_eq!(
            run(serve(failing, &peer, 2)),
            Err(BridgeError::Handler("boom"))
        );
    }
}

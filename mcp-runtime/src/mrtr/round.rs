//! What a handler of a request that may answer `input_required` writes and reads, round after
//! round: a [`Round`] of input requests, gated by the client's capabilities, that ends in the
//! input-required result; the [`Answers`] of a retry, read by key (an elicitation's accepted
//! content as a typed value, [`Elicited`]); and, with the feature `seal`, a `SealedState`
//! that carries what a later round needs in `requestState`, bound to the principal and the
//! request.
//!
//! A handler reads the answers first, then asks in a new round for whatever is still missing
//! (the specification answers a missing answer with a new input-required result, and ignores
//! answers to keys that were not asked):
//!
//! ```
//! # use mcp_tests::mcp;
//! use mcp::prelude::*;
//! use mcp_runtime::mrtr::{Answers, Elicited, Round};
//! use mcp_runtime::response::Response;
//!
//! #[derive(serde::Deserialize)]
//! struct Name {
//!     name: String,
//! }
//!
//! /// `tools/call` of `greet`: asks the user's name, and greets them on the retry.
//! fn greet(request: &CallToolRequest) -> Response<CallToolRequest> {
//!     let params = &request.params;
//!     let answers = Answers::new(params.input_responses.as_ref());
//!     let mut round = Round::<mcp::InputRequiredResult>::new(&params.meta.client_capabilities);
//!     let form = ElicitRequestFormParamsRequestedSchema::fields()
//!         .required("name", StringSchema::new().with_description("Your name"));
//!     let ask = ElicitRequest::new(ElicitRequestFormParams::new("What is your name?", form.build()));
//!     // The answer if there is one; otherwise the request is asked (again) in this round.
//!     let text = match round.elicited_or_ask::<Name>(&answers, "user_name", ask)? {
//!         Some(Elicited::Accepted(Name { name })) => format!("Hello, {name}!"),
//!         Some(_) => "Hello, stranger!".to_owned(),
//!         None => return Ok(round.finish()?.into()),
//!     };
//!     Ok(CallToolResult::new(vec![TextContent::new(text).into()]).into())
//! }
//!
//! // Round 1: a client that can elicit is asked the name.
//! let capabilities = ClientCapabilities::new().with_elicitation(ClientCapabilitiesElicitation::new());
//! let meta = RequestMetaObject::new(capabilities, "2026-07-28");
//! let first = CallToolRequest::new(RequestId::Integer(1), CallToolRequestParams::new(meta, "greet"));
//! let CallToolOutcome::InputRequired(asked) = greet(&first)? else { panic!("input required") };
//! assert!(asked.input_requests().unwrap().contains_key("user_name"));
//!
//! // Round 2: the retry carries the answer, and the tool completes.
//! let answer = ElicitResult::new(ElicitResultAction::Accept)
//!     .with_content([("name".to_owned(), ElicitResultContentValue::String("Ada".into()))]);
//! let retry = first.with_input(
//!     RequestId::Integer(2),
//!     Some([("user_name".to_owned(), InputResponse::ElicitResult(answer))].into()),
//!     None,
//! );
//! let CallToolOutcome::Complete(done) = greet(&retry)? else { panic!("complete") };
//! assert_eq!(serde_json::to_value(&done)?["content"][0]["text"], "Hello, Ada!");
//!
//! // A client that cannot elicit is refused with MISSING_REQUIRED_CLIENT_CAPABILITY.
//! let meta = RequestMetaObject::new(ClientCapabilities::new(), "2026-07-28");
//! let bare = CallToolRequest::new(RequestId::Integer(3), CallToolRequestParams::new(meta, "greet"));
//! let refused = greet(&bare).unwrap_err();
//! assert_eq!(refused.code, mcp_runtime::error_code::MISSING_REQUIRED_CLIENT_CAPABILITY);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Everything here is generic over the traits the generator implements ([`InputRequired`],
//! [`InputResponse`], [`Request`](crate::Request), serde's): the values it cannot name (the
//! input-required result, an elicitation's answer) are read and written through their JSON
//! form, which every generated revision shares.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{InputRequestsBuilder, InputRequired, InputResponse};
use crate::McpResultType;
use crate::capability::CapabilityError;
use crate::response::RpcError;

/// One round of input requests, each checked against the client's capabilities as it is
/// asked (through the generated `InputRequestsBuilder`), and the request state to send with
/// them: what a handler answers `input_required` with ([`Round::finish`]).
///
/// `R` is the generated input-required result (`mcp::InputRequiredResult`).
pub struct Round<R: InputRequired> {
    requests: InputRequestsBuilder<R>,
    state: Option<R::State>,
}

impl<R: InputRequired> fmt::Debug for Round<R>
where
    R::Request: fmt::Debug,
    R::State: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round")
            .field("requests", &self.requests)
            .field("state", &self.state)
            .finish()
    }
}

impl<R: InputRequired> Round<R> {
    /// An empty round for a client with these capabilities (the request's
    /// `_meta.io.modelcontextprotocol/clientCapabilities`).
    pub fn new(capabilities: &R::Capabilities) -> Self {
        Round::from_builder(InputRequestsBuilder::new(capabilities))
    }

    /// A round that fills `requests` (a builder made with other settings, such as
    /// [`InputRequestsBuilder::allow_should_rules`]).
    pub fn from_builder(requests: InputRequestsBuilder<R>) -> Self {
        Round {
            requests,
            state: None,
        }
    }

    /// Asks `request` at `key`, or says which capability the client lacks for it: `?` turns
    /// the refusal into the `MISSING_REQUIRED_CLIENT_CAPABILITY` error of a handler's
    /// [`Response`](crate::response::Response). Match on it instead to ask only what the
    /// client can answer.
    pub fn ask(
        &mut self,
        key: impl Into<String>,
        request: impl Into<R::Request>,
    ) -> Result<&mut Self, CapabilityError> {
        self.requests.insert(key, request)?;
        Ok(self)
    }

    /// The answer at `key` if the retry carries one; otherwise asks `request` at `key` in this
    /// round and gives `None` (a needed answer that is missing is asked again).
    pub fn answer_or_ask<'a>(
        &mut self,
        answers: &Answers<'a, R::Response>,
        key: &str,
        request: impl Into<R::Request>,
    ) -> Result<Option<&'a R::Response>, CapabilityError> {
        match answers.get(key) {
            Some(answer) => Ok(Some(answer)),
            None => self.ask(key, request).map(|_| None),
        }
    }

    /// [`Answers::elicited`] at `key` if the retry carries an elicitation's answer there;
    /// otherwise asks `request` at `key` in this round and gives `None`. A declined or
    /// cancelled elicitation is an answer: it is not asked again.
    pub fn elicited_or_ask<T: DeserializeOwned>(
        &mut self,
        answers: &Answers<'_, R::Response>,
        key: &str,
        request: impl Into<R::Request>,
    ) -> Result<Option<Elicited<T>>, RpcError>
    where
        R::Response: Serialize,
    {
        match answers.elicited(key)? {
            Some(answer) => Ok(Some(answer)),
            None => {
                self.ask(key, request)?;
                Ok(None)
            }
        }
    }

    /// Sends `state` as the round's `requestState` (a token sealed by `SealedState::seal`,
    /// feature `seal`, where it influences what the request does).
    pub fn state(&mut self, state: impl Into<R::State>) -> &mut Self {
        self.state = Some(state.into());
        self
    }

    /// Whether nothing was asked in this round (the handler has every answer it needs).
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }

    /// The input requests asked, by key (for a task to ask them through its status instead).
    pub fn requests(self) -> BTreeMap<String, R::Request> {
        self.requests.build()
    }

    /// The input-required result of this round: its input requests (none when nothing was
    /// asked) and its request state. A round with neither is an internal error, since the
    /// result must carry at least one of them.
    pub fn finish(self) -> Result<R, RpcError>
    where
        R: McpResultType + DeserializeOwned,
        R::State: Serialize,
    {
        let requests = self.requests.build();
        if requests.is_empty() && self.state.is_none() {
            return Err(RpcError::internal_error(
                "an input-required result needs input requests or a request state",
            ));
        }
        let mut result = Map::new();
        result.insert("resultType".into(), R::RESULT_TYPE.into());
        let unwritable = |e: serde_json::Error| {
            RpcError::internal_error(format!("writing the input-required result: {e}"))
        };
        if !requests.is_empty() {
            let requests = serde_json::to_value(&requests).map_err(unwritable)?;
            result.insert("inputRequests".into(), requests);
        }
        if let Some(state) = &self.state {
            let state = serde_json::to_value(state).map_err(unwritable)?;
            result.insert("requestState".into(), state);
        }
        serde_json::from_value(Value::Object(result)).map_err(unwritable)
    }
}

/// The input responses of a retry (its `inputResponses`), read by key. Answers to keys that
/// were not asked are never looked at, as the specification asks.
pub struct Answers<'a, S> {
    responses: Option<&'a BTreeMap<String, S>>,
}

impl<S> Clone for Answers<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Answers<'_, S> {}

impl<S: fmt::Debug> fmt::Debug for Answers<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Answers").field(&self.responses).finish()
    }
}

impl<'a, S> Answers<'a, S> {
    /// The request's `inputResponses` (none on a first round).
    pub fn new(responses: Option<&'a BTreeMap<String, S>>) -> Self {
        Answers { responses }
    }

    /// The response at `key`, of whatever kind.
    pub fn get(&self, key: &str) -> Option<&'a S> {
        self.responses.and_then(|r| r.get(key))
    }

    /// Whether there is a response at every one of `keys`.
    pub fn has_all(&self, keys: &[&str]) -> bool {
        keys.iter().all(|k| self.get(k).is_some())
    }
}

impl<'a, S: InputResponse + Serialize> Answers<'a, S> {
    /// The elicitation's answer at `key`: [`Elicited::Accepted`] with its `content` read as a
    /// `T` (no content reads as an empty object, so a `T` of optional members still reads),
    /// [`Elicited::Declined`] or [`Elicited::Cancelled`]; `None` when there is no answer at
    /// `key`, or one of another kind (a sampling or roots result).
    ///
    /// Accepted content that does not fit `T` is the client's error: `INVALID_PARAMS`, naming
    /// the key.
    pub fn elicited<T: DeserializeOwned>(
        &self,
        key: &str,
    ) -> Result<Option<Elicited<T>>, RpcError> {
        let Some(mut json) = self.object(key) else {
            return Ok(None);
        };
        let action = json.get("action").and_then(Value::as_str);
        Ok(Some(match action {
            Some("accept") => {
                let content = json
                    .remove("content")
                    .unwrap_or_else(|| Value::Object(Map::new()));
                let value = serde_json::from_value(content).map_err(|e| {
                    RpcError::invalid_params(format!(
                        "inputResponses[{key:?}]: the accepted content does not fit: {e}"
                    ))
                })?;
                Elicited::Accepted(value)
            }
            Some("decline") => Elicited::Declined,
            Some("cancel") => Elicited::Cancelled,
            _ => return Ok(None),
        }))
    }

    /// The accepted content of the elicitation at `key` read as a `T` ([`Answers::elicited`]);
    /// `None` when it was declined or cancelled, or when there is no elicitation's answer at
    /// `key`.
    pub fn accepted<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, RpcError> {
        Ok(self.elicited(key)?.and_then(Elicited::accepted))
    }

    /// The answer at `key` as a JSON object, which the readers below take apart by kind.
    fn object(&self, key: &str) -> Option<Map<String, Value>> {
        match serde_json::to_value(self.get(key)?) {
            Ok(Value::Object(json)) => Some(json),
            _ => None,
        }
    }

    /// The sampling answer at `key` (a result with a `model` and a `content`); `None` when
    /// there is no answer at `key`, or one of another kind.
    pub fn sampled(&self, key: &str) -> Option<Sampled> {
        let mut json = self.object(key)?;
        let Some(Value::String(model)) = json.remove("model") else {
            return None;
        };
        let text = match json.remove("content")? {
            Value::Array(mut blocks) if blocks.len() == 1 => blocks.pop().and_then(block_text),
            Value::Array(_) => None,
            block => block_text(block),
        };
        Some(Sampled { model, text })
    }

    /// The URIs of the roots answered at `key` (a result with `roots`), in the client's order;
    /// `None` when there is no answer at `key`, or one of another kind.
    pub fn root_uris(&self, key: &str) -> Option<Vec<String>> {
        let mut json = self.object(key)?;
        let Some(Value::Array(roots)) = json.remove("roots") else {
            return None;
        };
        let uri = |mut root: Value| match root.get_mut("uri").map(Value::take) {
            Some(Value::String(uri)) => Some(uri),
            _ => None,
        };
        roots.into_iter().map(uri).collect()
    }
}

/// What the client's model answered a sampling request ([`Answers::sampled`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sampled {
    /// The model that answered.
    pub model: String,
    /// The answer's text, when its content is one text block.
    pub text: Option<String>,
}

impl Sampled {
    /// The answer's text, or a note naming the model when it answered with something else.
    pub fn text_or_note(self) -> String {
        self.text
            .unwrap_or_else(|| format!("(non-text answer from {})", self.model))
    }
}

/// The text of a content block of type `text`.
fn block_text(block: Value) -> Option<String> {
    let Value::Object(mut block) = block else {
        return None;
    };
    if block.get("type").and_then(Value::as_str) != Some("text") {
        return None;
    }
    match block.remove("text") {
        Some(Value::String(text)) => Some(text),
        _ => None,
    }
}

/// What the user did with an elicitation ([`Answers::elicited`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elicited<T> {
    /// They submitted the form: its content.
    Accepted(T),
    /// They explicitly declined.
    Declined,
    /// They dismissed it without choosing.
    Cancelled,
}

impl<T> Elicited<T> {
    /// The accepted content, if they accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicited::Accepted(value) => Some(value),
            _ => None,
        }
    }

    /// The action's wire name: `accept`, `decline` or `cancel`.
    pub fn action(&self) -> &'static str {
        match self {
            Elicited::Accepted(_) => "accept",
            Elicited::Declined => "decline",
            Elicited::Cancelled => "cancel",
        }
    }
}

#[cfg(feature = "seal")]
pub use sealed::SealedState;

#[cfg(feature = "seal")]
mod sealed {
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use serde_json::Value;

    use crate::Request;
    use crate::response::RpcError;
    use crate::seal::{Binding, SealError, Sealer};

    /// The members of a request's params that change from round to round, left out of its
    /// binding.
    const ROUND_MEMBERS: [&str; 3] = ["_meta", "inputResponses", "requestState"];

    /// The request state of one request, sealed by a [`Sealer`] and bound to the principal
    /// and to the request (its method and every member of its params except those a retry
    /// changes: `_meta`, `inputResponses`, `requestState`; for `tools/call`, the tool's name
    /// and arguments).
    ///
    /// [`SealedState::open`] refuses a state that was changed, that expired, or that was
    /// sealed for another principal or another request with `INVALID_PARAMS`
    /// (`data.reason` saying which).
    ///
    /// ```
    /// # use mcp_tests::mcp;
    /// use mcp::prelude::*;
    /// use mcp_runtime::mrtr::SealedState;
    /// use mcp_runtime::seal::Sealer;
    ///
    /// let sealer = Sealer::new([7; 32]);
    /// let meta = RequestMetaObject::new(ClientCapabilities::new(), "2026-07-28");
    /// let params = CallToolRequestParams::new(meta, "book");
    /// let state = SealedState::bind::<CallToolRequest>(&sealer, "alice", &params)?;
    /// let token = state.seal(&serde_json::json!({"round": 1}))?;
    /// // The retry, the token echoed: it opens for the same principal and request.
    /// let round: Option<serde_json::Value> = state.open(Some(&token))?;
    /// assert_eq!(round.unwrap()["round"], 1);
    /// // Another principal: refused.
    /// let mallory = SealedState::bind::<CallToolRequest>(&sealer, "mallory", &params)?;
    /// let refused = mallory.open::<serde_json::Value>(Some(&token)).unwrap_err();
    /// assert_eq!(refused.data.unwrap()["reason"], "other-principal");
    /// # Ok::<(), mcp_runtime::RpcError>(())
    /// ```
    pub struct SealedState<'s> {
        sealer: &'s Sealer,
        binding: Binding,
    }

    impl std::fmt::Debug for SealedState<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("SealedState")
                .field("sealer", self.sealer)
                .field("binding", &self.binding)
                .finish()
        }
    }

    impl<'s> SealedState<'s> {
        /// The state of the request `Q` with these `params`, asked by `principal` (the
        /// authenticated identity), sealed and opened by `sealer`.
        pub fn bind<Q: Request>(
            sealer: &'s Sealer,
            principal: &str,
            params: &Q::Params,
        ) -> Result<Self, RpcError>
        where
            Q::Params: Serialize,
        {
            let mut salient = serde_json::to_value(params).map_err(|e| {
                RpcError::internal_error(format!("reading the request's params: {e}"))
            })?;
            if let Value::Object(members) = &mut salient {
                for member in ROUND_MEMBERS {
                    members.remove(member);
                }
            }
            Ok(SealedState {
                sealer,
                binding: Binding::for_request::<Q>(principal, &salient),
            })
        }

        /// What the state is bound to.
        pub fn binding(&self) -> &Binding {
            &self.binding
        }

        /// `state`, sealed: the token to send as the round's `requestState`
        /// ([`Round::state`](super::Round::state)).
        pub fn seal<T: Serialize>(&self, state: &T) -> Result<String, RpcError> {
            let bytes = serde_json::to_vec(state)
                .map_err(|e| RpcError::internal_error(format!("writing the request state: {e}")))?;
            Ok(self.sealer.seal(&self.binding, &bytes))
        }

        /// The state the client echoed (the request's `requestState`), verified and read as a
        /// `T`; `None` when there is none (a first round). A state that fails verification,
        /// expired, was sealed for another principal or request, or does not read as a `T` is
        /// `INVALID_PARAMS`.
        pub fn open<T: DeserializeOwned>(
            &self,
            token: Option<&str>,
        ) -> Result<Option<T>, RpcError> {
            let Some(token) = token else {
                return Ok(None);
            };
            let bytes = self.sealer.open(&self.binding, token)?;
            let state = serde_json::from_slice(&bytes).map_err(|_| SealError::Tampered)?;
            Ok(Some(state))
        }
    }
}

//! Multi round-trip requests, written once for every generated schema: the capability-gated
//! builder of `inputRequests`, the capability check of an input-required answer, the retry of a
//! request with the client's input responses, and the `MissingRequiredClientCapability` error
//! response
//! ([`MISSING_REQUIRED_CLIENT_CAPABILITY`](crate::error_code::MISSING_REQUIRED_CLIENT_CAPABILITY)).
//!
//! The generator implements the small traits below for the types of each revision
//! ([`InputRequired`] for `InputRequiredResult`, [`InputRequest`] and [`InputResponse`] for
//! the unions of input requests and responses, [`Retry`] for the requests that may answer
//! `input_required`, [`CapabilityErrorResponse`] for the error response); the behaviour is
//! here, generic over them. Bring the traits into scope with `use mcp_runtime::prelude::*;`.
//!
//! A handler asks and reads through [`Round`], [`Answers`] and [`Elicited`], and carries its
//! state across rounds in a `SealedState` (feature `seal`): see [`round`] for a tool that asks
//! the user's name and completes on the retry.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::capability::{self, CapabilityError, Rule};
use crate::extension::{Extension, ExtensionCapabilities};
use crate::retry::RetryError;

pub mod round;
#[cfg(feature = "seal")]
pub use round::SealedState;
pub use round::{Answers, Elicited, Round, Sampled};

/// One input request (the union of the request kinds a server may ask the client for).
pub trait InputRequest: Serialize {
    /// The request's method.
    fn method(&self) -> &'static str;

    /// The name of the response type that answers it, where the schema pairs one.
    fn expected_response(&self) -> Option<&'static str>;
}

/// One input response (the union of the results a client sends back).
pub trait InputResponse {
    /// The name of the response's type.
    fn type_name(&self) -> &'static str;
}

/// The input-required result: its input requests, its request state, and the capability rules
/// that gate its input requests.
pub trait InputRequired {
    /// One input request.
    type Request: InputRequest;
    /// One input response.
    type Response: InputResponse;
    /// The client's capabilities.
    type Capabilities: Serialize;
    /// The opaque request state.
    type State: Clone;

    /// Which client capability each kind (and mode) of input request needs.
    const RULES: &'static [Rule];

    /// The input requests, by key.
    fn input_requests(&self) -> Option<&BTreeMap<String, Self::Request>>;

    /// The request state, to be sent back exactly.
    fn request_state(&self) -> Option<&Self::State>;

    /// Checks every input request against the client's capabilities and reports each one
    /// they do not allow, with the capability it needs.
    fn check_capabilities(&self, capabilities: &Self::Capabilities) -> Result<(), InputError> {
        let caps = serde_json::to_value(capabilities)?;
        let mut refusals = Vec::new();
        for (key, request) in self.input_requests().into_iter().flatten() {
            let json = serde_json::to_value(request)?;
            refusals.extend(capability::check(key, &json, &caps, Self::RULES, false));
        }
        Ok(capability::into_result(refusals)?)
    }
}

/// Why an input request cannot be sent.
#[derive(Debug)]
pub enum InputError {
    /// The client's capabilities do not allow it.
    Refused(CapabilityError),
    /// A value could not be turned into JSON to be checked.
    Json(serde_json::Error),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Refused(e) => e.fmt(f),
            InputError::Json(e) => write!(f, "cannot check the input request: {e}"),
        }
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputError::Refused(e) => Some(e),
            InputError::Json(e) => Some(e),
        }
    }
}

impl From<CapabilityError> for InputError {
    fn from(e: CapabilityError) -> Self {
        InputError::Refused(e)
    }
}

impl From<serde_json::Error> for InputError {
    fn from(e: serde_json::Error) -> Self {
        InputError::Json(e)
    }
}

/// Fills an `inputRequests` map, refusing every entry that the client's capabilities do not
/// allow: the way for a server to build an input-required answer. The generated module names
/// it for its revision (`InputRequestsBuilder`).
pub struct InputRequestsBuilder<R: InputRequired> {
    capabilities: Value,
    allow_should: bool,
    requests: BTreeMap<String, R::Request>,
}

impl<R: InputRequired> fmt::Debug for InputRequestsBuilder<R>
where
    R::Request: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InputRequestsBuilder")
            .field("capabilities", &self.capabilities)
            .field("allow_should", &self.allow_should)
            .field("requests", &self.requests)
            .finish()
    }
}

impl<R: InputRequired> Clone for InputRequestsBuilder<R>
where
    R::Request: Clone,
{
    fn clone(&self) -> Self {
        InputRequestsBuilder {
            capabilities: self.capabilities.clone(),
            allow_should: self.allow_should,
            requests: self.requests.clone(),
        }
    }
}

impl<R: InputRequired> InputRequestsBuilder<R> {
    /// A builder for a client with these capabilities.
    ///
    /// Generated capabilities always serialize; were they not to, the builder would check
    /// against no capability at all, refusing every request a rule gates (it fails closed).
    pub fn new(capabilities: &R::Capabilities) -> Self {
        InputRequestsBuilder {
            capabilities: serde_json::to_value(capabilities).unwrap_or(Value::Null),
            allow_should: false,
            requests: BTreeMap::new(),
        }
    }

    /// Also accepts requests that break only a SHOULD rule (sampling with `includeContext`
    /// `thisServer` / `allServers` without `sampling.context`).
    #[must_use]
    pub fn allow_should_rules(mut self) -> Self {
        self.allow_should = true;
        self
    }

    /// Adds `request` under `key`, or says which capability the client lacks for it (the only
    /// way it can fail; `?` turns the error into the `MissingRequiredClientCapability` answer
    /// of a
    /// [`Response`](crate::response::Response)).
    pub fn insert(
        &mut self,
        key: impl Into<String>,
        request: impl Into<R::Request>,
    ) -> Result<&mut Self, CapabilityError> {
        let (key, request) = (key.into(), request.into());
        let refusals = match serde_json::to_value(&request) {
            Ok(json) => {
                capability::check(&key, &json, &self.capabilities, R::RULES, self.allow_should)
            }
            // A generated request always serializes; were it not to, every rule of its method
            // refuses it (fails closed).
            Err(_) => unverifiable(&key, request.method(), R::RULES),
        };
        capability::into_result(refusals)?;
        self.requests.insert(key, request);
        Ok(self)
    }

    /// Whether no request was added.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }

    /// The map, for the `inputRequests` of an input-required result.
    pub fn build(self) -> BTreeMap<String, R::Request> {
        self.requests
    }
}

/// Every rule of `method`, as refusals: for a request that could not be checked.
fn unverifiable(key: &str, method: &str, rules: &[Rule]) -> Vec<capability::Refusal> {
    let refusals = rules
        .iter()
        .filter(|r| r.method == method)
        .map(|r| capability::Refusal {
            key: key.to_owned(),
            method: method.to_owned(),
            capability: r.needs.to_owned(),
            level: r.level,
        });
    refusals.collect()
}

/// A request that may answer `input_required` and is retried with the client's input
/// responses.
pub trait Retry: Clone {
    /// The JSON-RPC id's type.
    type Id: PartialEq;
    /// The input-required answer it is retried after.
    type Answer: InputRequired;

    /// The request's JSON-RPC id.
    fn id(&self) -> &Self::Id;

    /// This request with a new id, the responses and the state set (the members a retry
    /// changes; everything else is kept).
    fn with_input(
        &self,
        id: Self::Id,
        responses: Option<BTreeMap<String, <Self::Answer as InputRequired>::Response>>,
        state: Option<<Self::Answer as InputRequired>::State>,
    ) -> Self;

    /// Builds the retry of this request after the server answered `answer`: a new JSON-RPC
    /// `id`, the client's `responses` to every `inputRequests` entry (each of the kind its
    /// request asks for; none for keys not asked), and `requestState` copied exactly (none
    /// when none came).
    fn retry(
        &self,
        id: Self::Id,
        answer: &Self::Answer,
        responses: BTreeMap<String, <Self::Answer as InputRequired>::Response>,
    ) -> Result<Self, RetryError> {
        if &id == self.id() {
            return Err(RetryError::SameId);
        }
        let requests = answer.input_requests();
        check_input_responses(requests, &responses)?;
        let responses = (!responses.is_empty() || requests.is_some()).then_some(responses);
        Ok(self.with_input(id, responses, answer.request_state().cloned()))
    }
}

/// Checks the responses of a retry against the requests they answer: one for every request,
/// of the kind it asks for, and none for a key that was not asked.
pub fn check_input_responses<Q: InputRequest, S: InputResponse>(
    requests: Option<&BTreeMap<String, Q>>,
    responses: &BTreeMap<String, S>,
) -> Result<(), RetryError> {
    for (key, request) in requests.into_iter().flatten() {
        let Some(response) = responses.get(key) else {
            return Err(RetryError::MissingResponse {
                key: key.clone(),
                method: request.method().to_owned(),
            });
        };
        if let Some(expected) = request.expected_response()
            && response.type_name() != expected
        {
            return Err(RetryError::WrongKind {
                key: key.clone(),
                method: request.method().to_owned(),
                expected,
            });
        }
    }
    match responses
        .keys()
        .find(|key| !requests.is_some_and(|r| r.contains_key(*key)))
    {
        Some(key) => Err(RetryError::UnexpectedResponse { key: key.clone() }),
        None => Ok(()),
    }
}

/// The protocol's error response for input requests the client's capabilities do not allow
/// ([`MISSING_REQUIRED_CLIENT_CAPABILITY`](crate::error_code::MISSING_REQUIRED_CLIENT_CAPABILITY),
/// with `data.requiredCapabilities`), built from its parts.
///
/// The generator implements it for the revision's missing-capability error: `require` fills
/// in each capability its rules name, `from_parts` is a struct literal.
///
/// ```
/// # use mcp_tests::mcp;
/// use mcp::prelude::*;
///
/// // The client declared no capability; a URL-mode elicitation needs `elicitation.url`.
/// let mut builder = mcp::InputRequestsBuilder::new(&ClientCapabilities::new());
/// let ask = ElicitRequest::new(ElicitRequestURLParams::new("Sign in", "https://example.com/login"));
/// let Err(refused) = builder.insert("login", ask) else { panic!() };
/// let response =
///     MissingRequiredClientCapabilityError::from_capability_error(Some(RequestId::Integer(4)), &refused);
/// let wire = serde_json::to_value(&response)?;
/// assert_eq!(wire["error"]["code"], mcp_runtime::error_code::MISSING_REQUIRED_CLIENT_CAPABILITY);
/// // Refused once, at the level the client lacks.
/// assert_eq!(wire["error"]["data"]["requiredCapabilities"], serde_json::json!({"elicitation": {}}));
/// # Ok::<(), serde_json::Error>(())
/// ```
pub trait CapabilityErrorResponse: Sized {
    /// The type of the response's id (an `Option` where the id may be left out).
    type Id;
    /// The client capabilities type.
    type Capabilities: Default;

    /// Adds the capability `needs` (a rule's dotted path, such as `elicitation.url`) to
    /// `capabilities`; false when the type has no member at that path.
    fn require(capabilities: &mut Self::Capabilities, needs: &str) -> bool;

    /// The response to the request `id`, with `message` and the `required` capabilities.
    fn from_parts(id: Self::Id, message: String, required: Self::Capabilities) -> Self;

    /// The error response to the request `id` for `error`: every refused capability in
    /// `data.requiredCapabilities` (each once, at the level the client lacks) and named in the
    /// message. A capability that no member of the capabilities type can hold (one from rules
    /// of another revision) is named in the message only.
    fn from_capability_error(id: Self::Id, error: &CapabilityError) -> Self {
        let mut required = Self::Capabilities::default();
        for refusal in &error.refusals {
            Self::require(&mut required, &refusal.capability);
        }
        Self::from_parts(id, error.message(), required)
    }

    /// The error response to the request `id` that only an answer of extension `E` can serve,
    /// sent without `E` in its capabilities: `data.requiredCapabilities` is
    /// `{"extensions": {"<E::ID>": {}}}` (for the tasks extension, SEP-2663).
    fn from_missing_extension<E: Extension>(id: Self::Id) -> Self
    where
        Self::Capabilities: ExtensionCapabilities,
    {
        let mut required = Self::Capabilities::default();
        required.declare::<E>();
        let message = format!(
            "Missing required client capability: the extension `{}`",
            E::ID
        );
        Self::from_parts(id, message, required)
    }
}

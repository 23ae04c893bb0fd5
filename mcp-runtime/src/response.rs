//! One return type for a request handler: [`Response<R>`] holds the result of request `R` or
//! any JSON-RPC error ([`RpcError`], without the request's id), and the runtime's refusals
//! convert into that error, so `?` works inside the handler. The request then writes the
//! message: [`Refuse::reply`] adds its id to either side and gives the generated reply union
//! (`mcp::CallToolReply` for a `tools/call`).
//!
//! | refusal | code ([`error_code`](crate::error_code)) | conversion |
//! | --- | --- | --- |
//! | [`CapabilityError`], [`InputError`] (an input request the client cannot take) | [`MISSING_REQUIRED_CLIENT_CAPABILITY`] | `From` |
//! | `SealError` (feature `seal`: a rejected `requestState`) | [`INVALID_PARAMS`] | `From` |
//! | a missing extension (the tasks extension's refusal) | [`MISSING_REQUIRED_CLIENT_CAPABILITY`] | [`RpcError::missing_extension`] |
//! | an unknown method, invalid params, an internal error | [`METHOD_NOT_FOUND`], [`INVALID_PARAMS`], [`INTERNAL_ERROR`] | [`RpcError::method_not_found`], [`RpcError::invalid_params`], [`RpcError::internal_error`] |
//!
//! ```
//! # use mcp_tests::mcp;
//! use mcp::prelude::*;
//! use mcp_runtime::response::{Response, RpcError};
//!
//! /// `tools/call`: one tool; anything else is invalid params.
//! fn call(request: &CallToolRequest) -> Response<CallToolRequest> {
//!     let params = &request.params;
//!     if params.name != "greet" {
//!         return Err(RpcError::invalid_params(format!("Unknown tool: {}", params.name)));
//!     }
//!     let mut requests = mcp::InputRequestsBuilder::new(&params.meta.client_capabilities);
//!     let form = ElicitRequestFormParamsRequestedSchema::fields().required("name", StringSchema::new());
//!     requests.insert("name", ElicitRequest::new(ElicitRequestFormParams::new("Name?", form.build())))?; // refused: the client cannot elicit
//!     Ok(mcp::InputRequiredResult::from_input_requests(requests.build()).into())
//! }
//!
//! let meta = RequestMetaObject::new(ClientCapabilities::new(), "2026-07-28");
//! let request = CallToolRequest::new(RequestId::Integer(5), CallToolRequestParams::new(meta, "greet"));
//! let reply: CallToolReply = request.reply(call(&request));
//! let wire = serde_json::to_value(&reply)?;
//! assert_eq!(wire["id"], 5);
//! assert_eq!(wire["error"]["code"], mcp_runtime::error_code::MISSING_REQUIRED_CLIENT_CAPABILITY);
//! assert_eq!(wire["error"]["data"]["requiredCapabilities"], serde_json::json!({"elicitation": {}}));
//! # Ok::<(), serde_json::Error>(())
//! ```

use std::fmt;

use serde_json::Value;

use crate::capability::CapabilityError;
use crate::error_code::MISSING_REQUIRED_CLIENT_CAPABILITY;
use crate::extension::Extension;
use crate::mrtr::InputError;
use crate::protocol::{ErrorResponse, Request, Respond};

/// The standard errors' codes, from [`crate::error_code`], where they were first named.
pub use crate::error_code::{INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND};

/// What a handler of request `R` answers: the request's result (for `tools/call`, a
/// `CallToolOutcome`: a complete or an input-required result, each converting with `.into()`),
/// or a JSON-RPC error. [`Refuse::reply`] turns it into the message to send.
pub type Response<R> = Result<<R as Request>::Result, RpcError>;

/// A JSON-RPC error without the id of the request it answers: the `error` member of an error
/// response. The runtime's refusals convert into it (see the [module](self) docs).
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The error code.
    pub code: i64,
    /// The message.
    pub message: String,
    /// Anything more the receiver may read (`data`).
    pub data: Option<Value>,
    /// What this error is beyond its code, for the transport (never written on the wire): the
    /// name of an entry of the generated `ERROR_CODE_FACTS` when its code differs between the
    /// eras (`resource_not_found`: a legacy edge recodes it with
    /// [`ErrorCodeFact::translate_named`](crate::era::ErrorCodeFact::translate_named)), or a
    /// transport's own name (a bound reached, answered with HTTP 429). See [`RpcError::means`].
    pub meaning: Option<&'static str>,
}

impl RpcError {
    /// An error with `code` and `message`, no data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
            meaning: None,
        }
    }

    /// The same error, known to be `name` ([`RpcError::meaning`]).
    ///
    /// ```
    /// use mcp_runtime::era::{Era, ErrorCodeFact};
    /// use mcp_runtime::RpcError;
    ///
    /// let facts = [ErrorCodeFact { name: "resource_not_found", legacy: -32002, modern: -32602, note: "", source: "" }];
    /// let error = RpcError::invalid_params("Resource not found").means("resource_not_found");
    /// let legacy = ErrorCodeFact::translate_named(&facts, error.meaning.unwrap(), error.code, Era::Modern, Era::Legacy);
    /// assert_eq!(legacy, -32002);
    /// ```
    #[must_use]
    pub fn means(mut self, name: &'static str) -> Self {
        self.meaning = Some(name);
        self
    }

    /// The same error with `data` set.
    #[must_use]
    pub fn with_data(mut self, data: impl Into<Value>) -> Self {
        self.data = Some(data.into());
        self
    }

    /// [`INVALID_PARAMS`], with `message`.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        RpcError::new(INVALID_PARAMS, message)
    }

    /// [`METHOD_NOT_FOUND`], naming `method`.
    pub fn method_not_found(method: &str) -> Self {
        RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {method}"))
    }

    /// [`INTERNAL_ERROR`], with `message`.
    pub fn internal_error(message: impl Into<String>) -> Self {
        RpcError::new(INTERNAL_ERROR, message)
    }

    /// [`MISSING_REQUIRED_CLIENT_CAPABILITY`] for a request that only an answer of extension `E`
    /// can serve, sent without `E` in its capabilities: `data.requiredCapabilities` is
    /// `{"extensions": {"<E::ID>": {}}}`.
    pub fn missing_extension<E: Extension>() -> Self {
        let message = format!(
            "Missing required client capability: the extension `{}`",
            E::ID
        );
        let required = serde_json::json!({ "extensions": { E::ID: {} } });
        RpcError::new(MISSING_REQUIRED_CLIENT_CAPABILITY, message)
            .with_data(serde_json::json!({ "requiredCapabilities": required }))
    }

    /// The error response of type `T` (the generated `JSONRPCErrorResponse`) to the request
    /// `id`.
    pub fn into_response<T: ErrorResponse>(self, id: T::Id) -> T {
        T::from_error(id, self.code, self.message, self.data)
    }
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for RpcError {}

/// An error with no id: what the runtime's typed errors build through
/// [`ErrorResponse::from_error`] when the id is added later.
impl ErrorResponse for RpcError {
    type Id = ();

    fn from_error((): (), code: i64, message: String, data: Option<Value>) -> Self {
        RpcError {
            code,
            message,
            data,
            meaning: None,
        }
    }
}

/// [`MISSING_REQUIRED_CLIENT_CAPABILITY`], every refused capability in
/// `data.requiredCapabilities` and named in the message.
impl From<CapabilityError> for RpcError {
    fn from(error: CapabilityError) -> Self {
        let data = serde_json::json!({ "requiredCapabilities": error.required_capabilities() });
        RpcError::new(MISSING_REQUIRED_CLIENT_CAPABILITY, error.message()).with_data(data)
    }
}

/// [`MISSING_REQUIRED_CLIENT_CAPABILITY`] for a refused input request; [`INTERNAL_ERROR`] when
/// it could not be checked.
impl From<InputError> for RpcError {
    fn from(error: InputError) -> Self {
        match error {
            InputError::Refused(refused) => refused.into(),
            InputError::Json(e) => RpcError::internal_error(e.to_string()),
        }
    }
}

/// [`INVALID_PARAMS`] for a rejected `requestState`, `data.reason` saying why.
#[cfg(feature = "seal")]
impl From<crate::seal::SealError> for RpcError {
    fn from(error: crate::seal::SealError) -> Self {
        error.response::<RpcError>(())
    }
}

/// A request that is answered with a result or a JSON-RPC error: the message to send from a
/// handler's [`Response`], the id copied on either side.
///
/// The generator implements it for every request whose reply union it generates (`Error` is
/// the revision's `JSONRPCErrorResponse`).
pub trait Refuse: Respond {
    /// The error response.
    type Error: ErrorResponse;
    /// What is sent: the successful response or the error response (the reply union).
    type Message: From<Self::Response> + From<Self::Error>;

    /// The id of an error response to this request (this request's id).
    fn error_id(&self) -> <Self::Error as ErrorResponse>::Id;

    /// The error response to this request for `error`.
    fn refuse(&self, error: RpcError) -> Self::Error {
        error.into_response(self.error_id())
    }

    /// The message to send for what the handler answered: `respond` for a result, `refuse`
    /// for an error.
    fn reply(&self, response: Response<Self>) -> Self::Message {
        match response {
            Ok(result) => self.respond(result).into(),
            Err(error) => self.refuse(error).into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::Refusal;

    #[test]
    fn helpers_carry_the_standard_codes() {
        assert_eq!(RpcError::invalid_params("bad").code, -32602);
        let missing = RpcError::method_not_found("tools/cal");
        assert_eq!(missing.code, -32601);
        assert_eq!(missing.message, "Method not found: tools/cal");
        assert_eq!(RpcError::internal_error("oops").code, -32603);
    }

    #[test]
    fn a_capability_refusal_names_what_is_missing() {
        let error = CapabilityError {
            refusals: vec![Refusal {
                key: "login".into(),
                method: "elicitation/create".into(),
                capability: "elicitation.url".into(),
                level: crate::capability::Level::Must,
            }],
        };
        let rpc = RpcError::from(error);
        assert_eq!(rpc.code, -32021);
        assert_eq!(
            rpc.data,
            Some(serde_json::json!({"requiredCapabilities": {"elicitation": {"url": {}}}}))
        );
        assert!(rpc.message.contains("elicitation.url"), "{}", rpc.message);
    }

    #[cfg(feature = "seal")]
    #[test]
    fn a_rejected_state_is_invalid_params_with_its_reason() {
        let rpc = RpcError::from(crate::seal::SealError::OtherPrincipal);
        assert_eq!(rpc.code, -32602);
        assert_eq!(
            rpc.data,
            Some(serde_json::json!({"reason": "other-principal"}))
        );
    }
}

//! The retry of a multi round-trip request: what can be wrong with the responses a client
//! sends back for an `InputRequiredResult`.
//!
//! [`Retry::retry`](crate::mrtr::Retry::retry), which the requests that may answer
//! `input_required` implement, builds the retried request: it copies `requestState` exactly
//! (and sends none when none came), requires a response of the matching kind for every
//! `inputRequests` key, refuses responses for keys that were not asked, and takes a new
//! JSON-RPC id from the caller.

use std::fmt;

/// Why a retry cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetryError {
    /// An `inputRequests` key has no response.
    MissingResponse {
        /// The key.
        key: String,
        /// The method of the request at that key.
        method: String,
    },
    /// The response at a key is not the result of the request's method.
    WrongKind {
        /// The key.
        key: String,
        /// The method of the request at that key.
        method: String,
        /// The response type expected for that method.
        expected: &'static str,
    },
    /// A response for a key the server did not ask for.
    UnexpectedResponse {
        /// The key.
        key: String,
    },
    /// The retry must use a new JSON-RPC id, not the original request's.
    SameId,
}

impl fmt::Display for RetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetryError::MissingResponse { key, method } => {
                write!(
                    f,
                    "inputResponses has no response for inputRequests[{key:?}] ({method})"
                )
            }
            RetryError::WrongKind {
                key,
                method,
                expected,
            } => write!(
                f,
                "inputResponses[{key:?}] must be a {expected}, the result of the {method} request at that key"
            ),
            RetryError::UnexpectedResponse { key } => {
                write!(
                    f,
                    "inputResponses[{key:?}] answers no request: the server did not ask for it"
                )
            }
            RetryError::SameId => f.write_str("the retried request needs a new JSON-RPC id"),
        }
    }
}

impl std::error::Error for RetryError {}

//! The `resultType` discriminator: its core values, and which extension values a decoder
//! accepts.
//!
//! A result whose `resultType` is neither `"complete"` nor `"input_required"` is invalid
//! unless it comes from an extension the client advertised. Serde's `Deserialize` carries no
//! context, so the accepted extension values are set for the current thread while decoding:
//!
//! ```
//! use mcp_runtime::result_type::{accepting, is_accepted};
//! assert!(!is_accepted("com.example/deferred"));
//! accepting(&["com.example/deferred"], || {
//!     assert!(is_accepted("com.example/deferred"));
//! });
//! assert!(!is_accepted("com.example/deferred"));
//! ```

use std::cell::RefCell;

/// The value a result without `resultType` is read as (results of earlier revisions).
pub const COMPLETE: &str = "complete";
/// The value of an [`InputRequiredResult`](https://modelcontextprotocol.io) answer.
pub const INPUT_REQUIRED: &str = "input_required";

thread_local! {
    static ACCEPTED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with `values` accepted as extension `resultType`s on this thread (in addition to
/// any accepted by an enclosing call). Restores the previous set afterwards, even on panic.
pub fn accepting<R>(values: &[&str], f: impl FnOnce() -> R) -> R {
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            ACCEPTED.with(|a| a.borrow_mut().truncate(self.0));
        }
    }
    let guard = ACCEPTED.with(|a| {
        let mut a = a.borrow_mut();
        let len = a.len();
        a.extend(values.iter().map(|v| (*v).to_owned()));
        Restore(len)
    });
    let out = f();
    drop(guard);
    out
}

/// Whether `value` is a core `resultType` or an extension value accepted on this thread.
pub fn is_accepted(value: &str) -> bool {
    value == COMPLETE
        || value == INPUT_REQUIRED
        || ACCEPTED.with(|a| a.borrow().iter().any(|v| v == value))
}

/// A `resultType` value: one of the core values, or an accepted extension value.
///
/// Deserializing rejects any other string (and any non-string) with an error naming the value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum ResultType {
    /// `"complete"`: the result holds the final content. Also what a missing field means.
    #[default]
    Complete,
    /// `"input_required"`: the result is an `InputRequiredResult`.
    InputRequired,
    /// A value defined by an extension the client advertised.
    Extension(String),
}

impl ResultType {
    /// The wire value.
    pub fn as_str(&self) -> &str {
        match self {
            ResultType::Complete => COMPLETE,
            ResultType::InputRequired => INPUT_REQUIRED,
            ResultType::Extension(v) => v,
        }
    }

    /// Reads a wire value, applying the acceptance rule.
    pub fn parse(value: &str) -> Result<Self, InvalidResultType> {
        match value {
            COMPLETE => Ok(ResultType::Complete),
            INPUT_REQUIRED => Ok(ResultType::InputRequired),
            v if is_accepted(v) => Ok(ResultType::Extension(v.to_owned())),
            v => Err(InvalidResultType(v.to_owned())),
        }
    }
}

impl std::fmt::Display for ResultType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `resultType` that is neither a core value nor an accepted extension value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid resultType {0:?}: expected \"complete\", \"input_required\" or an extension value the client advertised"
)]
pub struct InvalidResultType(pub String);

impl serde::Serialize for ResultType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for ResultType {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = ResultType;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a resultType string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ResultType, E> {
                ResultType::parse(v).map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

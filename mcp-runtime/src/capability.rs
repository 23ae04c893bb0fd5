//! Capability gating of input requests: a server may put an `elicitation/create`,
//! `sampling/createMessage` or `roots/list` request into `inputRequests` only if the client
//! declared the capability it needs (and the sub-capability for its mode or parameters).
//!
//! The rules are data: the generator emits them from the revision's overlay
//! (`schema/<revision>.json`, entry `input_capabilities`) as a `&[Rule]`, and
//! [`InputRequestsBuilder`](crate::mrtr::InputRequestsBuilder) and
//! [`InputRequired::check_capabilities`](crate::mrtr::InputRequired::check_capabilities)
//! evaluate them here, on the JSON form of the request and of the client's capabilities.
//!
//! ```
//! use mcp_runtime::capability::{check, Level, Rule, When};
//! use serde_json::json;
//!
//! const RULES: &[Rule] = &[Rule {
//!     method: "roots/list",
//!     when: When::Always,
//!     needs: "roots",
//!     or_empty: None,
//!     level: Level::Must,
//! }];
//! let request = json!({"method": "roots/list"});
//! assert!(check("r1", &request, &json!({"roots": {}}), RULES, false).is_empty());
//! let refused = check("r1", &request, &json!({}), RULES, false);
//! assert_eq!(refused[0].capability, "roots");
//! ```

use std::fmt;

use serde_json::{Map, Value};

/// How binding a rule is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The specification says MUST NOT send without the capability.
    Must,
    /// The specification says SHOULD NOT: refused unless the caller explicitly allows it.
    Should,
}

/// When a rule applies to a request of its method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Always.
    Always,
    /// The member at `pointer` (JSON pointer into the request) is one of `values`; `None`
    /// stands for a missing member.
    OneOf {
        /// JSON pointer into the request, e.g. `/params/mode`.
        pointer: &'static str,
        /// The values that make the rule apply.
        values: &'static [Option<&'static str>],
    },
    /// Any of the members at these pointers is present.
    AnyPresent(&'static [&'static str]),
}

/// One capability rule: requests of `method` for which `when` holds need the client
/// capability `needs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The input request's method.
    pub method: &'static str,
    /// When the rule applies.
    pub when: When,
    /// The capability needed, as a dotted path into `ClientCapabilities` (`elicitation.url`).
    pub needs: &'static str,
    /// An alternative: this capability declared as an empty object also satisfies the rule
    /// (`"elicitation": {}` means form mode).
    pub or_empty: Option<&'static str>,
    /// MUST or SHOULD.
    pub level: Level,
}

/// One input request the client's capabilities do not allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The request's key in `inputRequests`.
    pub key: String,
    /// Its method.
    pub method: String,
    /// The capability it needs (dotted path).
    pub capability: String,
    /// MUST or SHOULD.
    pub level: Level,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let must = match self.level {
            Level::Must => "",
            Level::Should => " (a SHOULD rule: allow it explicitly to send anyway)",
        };
        write!(
            f,
            "inputRequests[{:?}]: {} needs the client capability `{}`, which the client did not declare{must}",
            self.key, self.method, self.capability
        )
    }
}

/// Every input request that the client's capabilities do not allow.
///
/// It converts to the specification's `MissingRequiredClientCapabilityError`
/// ([`MISSING_REQUIRED_CLIENT_CAPABILITY`]):
/// [`CapabilityError::error_object`] is its `error` member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapabilityError {
    /// The refusals, in key order.
    pub refusals: Vec<Refusal>,
}

/// The JSON-RPC error code of `MissingRequiredClientCapabilityError`, from
/// [`crate::error_code`].
pub use crate::error_code::MISSING_REQUIRED_CLIENT_CAPABILITY;

impl fmt::Display for CapabilityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.refusals.iter().map(Refusal::to_string).collect();
        f.write_str(&parts.join("; "))
    }
}

impl std::error::Error for CapabilityError {}

impl CapabilityError {
    /// The capabilities the server requires, as a `ClientCapabilities` object
    /// (`{"elicitation": {"url": {}}}`).
    pub fn required_capabilities(&self) -> Value {
        let mut root = Map::new();
        for r in &self.refusals {
            let mut node = &mut root;
            for part in r.capability.split('.') {
                node = node
                    .entry(part.to_owned())
                    .or_insert_with(|| Value::Object(Map::new()))
                    .as_object_mut()
                    .expect("built only from objects");
            }
        }
        Value::Object(root)
    }

    /// The error message of a `MissingRequiredClientCapabilityError` response, naming every
    /// refused capability.
    pub fn message(&self) -> String {
        format!("Missing required client capability: {self}")
    }

    /// The `error` member of a `MissingRequiredClientCapabilityError` response.
    pub fn error_object(&self) -> Value {
        serde_json::json!({
            "code": MISSING_REQUIRED_CLIENT_CAPABILITY,
            "message": self.message(),
            "data": { "requiredCapabilities": self.required_capabilities() },
        })
    }
}

fn lookup<'v>(caps: &'v Value, dotted: &str) -> Option<&'v Value> {
    dotted
        .split('.')
        .try_fold(caps, |v, part| v.get(part))
        .filter(|v| !v.is_null())
}

fn applies(when: &When, request: &Value) -> bool {
    match when {
        When::Always => true,
        When::OneOf { pointer, values } => {
            let found = request.pointer(pointer).filter(|v| !v.is_null());
            values.iter().any(|want| match (want, found) {
                (None, None) => true,
                (Some(w), Some(Value::String(s))) => w == s,
                _ => false,
            })
        }
        When::AnyPresent(pointers) => pointers
            .iter()
            .any(|p| request.pointer(p).is_some_and(|v| !v.is_null())),
    }
}

/// The refusals for one input request (`request` is its JSON form, with `method`), given the
/// client's capabilities in JSON form. SHOULD rules are skipped when `allow_should`. A
/// capability is refused once, at the level the client lacks: without `elicitation` at all, a
/// form request is refused for `elicitation`, not also for `elicitation.form`.
pub fn check(
    key: &str,
    request: &Value,
    caps: &Value,
    rules: &[Rule],
    allow_should: bool,
) -> Vec<Refusal> {
    let method = request
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let refusals = rules
        .iter()
        .filter(|r| r.method == method && applies(&r.when, request))
        .filter(|r| !(allow_should && r.level == Level::Should))
        .filter(|r| {
            let declared = lookup(caps, r.needs).is_some();
            let empty_alternative = r
                .or_empty
                .and_then(|alt| lookup(caps, alt))
                .is_some_and(|v| v.as_object().is_some_and(Map::is_empty));
            !(declared || empty_alternative)
        })
        .map(|r| Refusal {
            key: key.to_owned(),
            method: method.to_owned(),
            capability: r.needs.to_owned(),
            level: r.level,
        })
        .collect();
    outermost(refusals)
}

/// The refusals less those under another refused capability (`elicitation.form` when
/// `elicitation` is refused too).
fn outermost(refusals: Vec<Refusal>) -> Vec<Refusal> {
    let under = |inner: &str, outer: &str| {
        inner
            .strip_prefix(outer)
            .is_some_and(|rest| rest.starts_with('.'))
    };
    let kept: Vec<bool> = refusals
        .iter()
        .map(|r| !refusals.iter().any(|o| under(&r.capability, &o.capability)))
        .collect();
    refusals
        .into_iter()
        .zip(kept)
        .filter_map(|(r, keep)| keep.then_some(r))
        .collect()
}

/// Collects refusals into a result.
pub fn into_result(refusals: Vec<Refusal>) -> Result<(), CapabilityError> {
    if refusals.is_empty() {
        Ok(())
    } else {
        Err(CapabilityError { refusals })
    }
}

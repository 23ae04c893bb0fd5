//! What a host with no user to ask (a test harness, a batch job, an agent, a CLI) needs besides
//! its answers to form elicitations ([`crate::elicit`]): the capabilities it declares for the
//! kinds of input request it answers ([`capabilities`]), and placeholder arguments for the tools
//! and prompts it calls without given ones ([`tool_arguments`], [`prompt_arguments`]), each
//! required member given a value of its declared type. Generic over the bound module: `bind!`
//! implements [`HeadlessBinding`].
//!
//! ```
//! use mcp_client::headless::{self, Declared};
//! use mcp_client_test_types::mcp;
//! use serde_json::json;
//!
//! mcp_client::bind!(Mcp = mcp);
//!
//! // A host that answers elicitations (form and URL), sampling and roots declares them all.
//! let capabilities = headless::capabilities::<Mcp>(Declared::ALL);
//! assert!(capabilities.sampling.is_some() && capabilities.roots.is_some());
//!
//! // A tool called without given arguments: a value for each required member.
//! let schema = json!({"type": "object", "required": ["city", "days"], "properties": {
//!     "city": {"type": "string"}, "days": {"type": "integer"}, "units": {"type": "string"}}});
//! let schema: mcp::ToolInputSchema = serde_json::from_value(schema)?;
//! let tool = mcp::Tool::new(schema, "forecast");
//! let arguments = headless::tool_arguments::<Mcp>(&tool);
//! assert_eq!(json!(arguments), json!({"city": "conformance", "days": 1}));
//!
//! // A prompt: its required arguments only, and none at all for a prompt that requires none.
//! let prompt = mcp::Prompt::new("review").with_arguments(vec![
//!     mcp::PromptArgument::new("code").with_required(true),
//!     mcp::PromptArgument::new("style"),
//! ]);
//! let arguments = headless::prompt_arguments::<Mcp>(&prompt).unwrap();
//! assert_eq!(arguments.into_iter().collect::<Vec<_>>(), [("code".into(), "conformance".into())]);
//! assert_eq!(headless::prompt_arguments::<Mcp>(&mcp::Prompt::new("hello")), None);
//! # Ok::<(), serde_json::Error>(())
//! ```

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::binding::Binding;

/// The text a placeholder string argument holds (and a form field of a string without a
/// format, in [`crate::elicit::default_for`]).
pub const PLACEHOLDER_TEXT: &str = "conformance";

/// The kinds of input request a host answers, as [`capabilities`] declares them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Declared {
    /// Form elicitations (`elicitation.form`).
    pub form: bool,
    /// URL elicitations (`elicitation.url`).
    pub url: bool,
    /// Sampling, without tools (`sampling`).
    pub sampling: bool,
    /// Roots (`roots`).
    pub roots: bool,
}

impl Declared {
    /// Every kind: form and URL elicitations, sampling and roots.
    pub const ALL: Declared = Declared {
        form: true,
        url: true,
        sampling: true,
        roots: true,
    };
}

/// The generated types a headless host's helpers read and build. Implemented by
/// [`bind!`](crate::bind).
pub trait HeadlessBinding: Binding {
    /// A prompt's definition, as `prompts/list` gives it (`Prompt`).
    type Prompt;

    /// See [`capabilities`].
    fn capabilities(declared: Declared) -> Self::Capabilities;
    /// The names of the arguments `prompt` declares required.
    fn required_prompt_arguments(prompt: &Self::Prompt) -> Vec<String>;
}

/// The client capabilities that declare the kinds of input request `declared` names, and
/// nothing else (the tasks extension a client declares itself where a call needs it). The
/// handler given to [`Config::new`](crate::Config::new) must answer each kind declared.
pub fn capabilities<B: HeadlessBinding>(declared: Declared) -> B::Capabilities {
    B::capabilities(declared)
}

/// Placeholder arguments for a tool whose `inputSchema` is `schema`: a value of the declared
/// type for each member of `required` (`1` for a number or an integer, `true`, `{}`, `[]`,
/// `null`, and [`PLACEHOLDER_TEXT`] for a string or a member of no single declared type);
/// optional members are left out.
pub fn arguments(schema: &Map<String, Value>) -> Map<String, Value> {
    let properties = schema.get("properties").and_then(Value::as_object);
    let required = schema.get("required").and_then(Value::as_array);
    let mut arguments = Map::new();
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let declared = properties
            .and_then(|p| p.get(name))
            .and_then(|s| s.get("type"))
            .and_then(Value::as_str);
        let value = match declared {
            Some("integer" | "number") => json!(1),
            Some("boolean") => json!(true),
            Some("object") => json!({}),
            Some("array") => json!([]),
            Some("null") => Value::Null,
            _ => json!(PLACEHOLDER_TEXT),
        };
        arguments.insert(name.to_owned(), value);
    }
    arguments
}

/// Placeholder arguments for `tool`, from its `inputSchema` (see [`arguments`]).
pub fn tool_arguments<B: Binding>(tool: &B::Tool) -> Map<String, Value> {
    arguments(B::tool_schema(tool))
}

/// Placeholder arguments for `prompt`: [`PLACEHOLDER_TEXT`] for each argument it declares
/// required; `None` when it requires none (a `prompts/get` then carries no `arguments`).
pub fn prompt_arguments<B: HeadlessBinding>(
    prompt: &B::Prompt,
) -> Option<BTreeMap<String, String>> {
    let required = B::required_prompt_arguments(prompt);
    let arguments = required
        .into_iter()
        .map(|name| (name, PLACEHOLDER_TEXT.to_owned()));
    Some(arguments.collect()).filter(|a: &BTreeMap<_, _>| !a.is_empty())
}

/// The [`HeadlessBinding`] impl of `bind!`.
#[doc(hidden)]
#[macro_export]
macro_rules! __bind_headless {
    ($b:ident, $m:ident) => {
        impl $crate::headless::HeadlessBinding for $b {
            type Prompt = $m::Prompt;

            fn capabilities(declared: $crate::headless::Declared) -> $m::ClientCapabilities {
                let mut capabilities = $m::ClientCapabilities::new();
                if declared.form || declared.url {
                    let mut elicitation = $m::ClientCapabilitiesElicitation::new();
                    if declared.form {
                        elicitation = elicitation.with_form($m::JSONObject::new());
                    }
                    if declared.url {
                        elicitation = elicitation.with_url($m::JSONObject::new());
                    }
                    capabilities = capabilities.with_elicitation(elicitation);
                }
                if declared.roots {
                    capabilities =
                        capabilities.with_roots($crate::__private::serde_json::Map::new());
                }
                if declared.sampling {
                    capabilities =
                        capabilities.with_sampling($m::ClientCapabilitiesSampling::new());
                }
                capabilities
            }

            fn required_prompt_arguments(
                prompt: &$m::Prompt,
            ) -> ::std::vec::Vec<::std::string::String> {
                prompt
                    .arguments
                    .iter()
                    .flatten()
                    .filter(|a| a.required == ::core::option::Option::Some(true))
                    .map(|a| a.name.clone())
                    .collect()
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use mcp_client_test_types::mcp;
    use serde_json::{Value, json};

    use super::{Declared, arguments, capabilities, prompt_arguments};

    crate::bind!(Mcp = mcp);

    fn schema(value: Value) -> serde_json::Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn each_required_member_gets_a_value_of_its_type_and_optional_ones_none() {
        let schema = schema(json!({"type": "object",
            "required": ["s", "i", "n", "b", "o", "a", "z", "untyped", "undeclared"],
            "properties": {
                "s": {"type": "string"}, "i": {"type": "integer"}, "n": {"type": "number"},
                "b": {"type": "boolean"}, "o": {"type": "object"}, "a": {"type": "array"},
                "z": {"type": "null"}, "untyped": {}, "optional": {"type": "integer"}}}));
        assert_eq!(
            Value::Object(arguments(&schema)),
            json!({"s": "conformance", "i": 1, "n": 1, "b": true, "o": {}, "a": [], "z": null,
                   "untyped": "conformance", "undeclared": "conformance"})
        );
    }

    #[test]
    fn a_schema_that_requires_nothing_gets_no_arguments() {
        assert!(arguments(&schema(json!({"type": "object"}))).is_empty());
        let optional = json!({"type": "object", "properties": {"x": {"type": "string"}}});
        assert!(arguments(&schema(optional)).is_empty());
        let odd = json!({"type": "object", "required": "x", "properties": []});
        assert!(
            arguments(&schema(odd)).is_empty(),
            "a malformed `required` names nothing"
        );
    }

    #[test]
    fn capabilities_declare_what_is_answered_and_nothing_else() {
        let all = serde_json::to_value(capabilities::<Mcp>(Declared::ALL)).unwrap();
        assert_eq!(
            all,
            json!({"elicitation": {"form": {}, "url": {}}, "roots": {}, "sampling": {}})
        );
        let form = Declared {
            form: true,
            ..Declared::default()
        };
        let form = serde_json::to_value(capabilities::<Mcp>(form)).unwrap();
        assert_eq!(form, json!({"elicitation": {"form": {}}}));
        let none = serde_json::to_value(capabilities::<Mcp>(Declared::default())).unwrap();
        assert_eq!(none, json!({}));
    }

    #[test]
    fn a_prompt_gets_its_required_arguments_only() {
        let prompt = mcp::Prompt::new("p").with_arguments(vec![
            mcp::PromptArgument::new("a").with_required(true),
            mcp::PromptArgument::new("b").with_required(false),
            mcp::PromptArgument::new("c"),
        ]);
        let got = prompt_arguments::<Mcp>(&prompt).unwrap();
        assert_eq!(
            got.into_iter().collect::<Vec<_>>(),
            [("a".to_owned(), "conformance".to_owned())]
        );
        let optional = mcp::Prompt::new("q").with_arguments(vec![mcp::PromptArgument::new("c")]);
        assert_eq!(prompt_arguments::<Mcp>(&optional), None);
        assert_eq!(prompt_arguments::<Mcp>(&mcp::Prompt::new("r")), None);
    }
}

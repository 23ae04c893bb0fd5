//! Prompts without boilerplate: a [`Prompts`] router that answers `prompts/list` and
//! dispatches `prompts/get` by name to plain `async` functions, each taking its arguments as a
//! struct deriving `serde::Deserialize` and `schemars::JsonSchema` whose members are strings
//! (a prompt's arguments are strings): the prompt's listed `arguments` are that struct's
//! members, with their doc comments as descriptions and the members that are not an `Option`
//! as required. Arguments that do not fit, and an unknown prompt, are the protocol error
//! `-32602`, as the specification asks.
//!
//! [`Served::prompts`](crate::Served::prompts) puts a router in front of a server's
//! `prompts/list` and `prompts/get` (and advertises the `prompts` capability).
//!
//! ```
//! use mcp_server::prompts::{Get, Prompts};
//! use mcp_tests::eras as mcp;
//!
//! mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
//! mcp_server::bind_server!(Mcp = mcp);
//!
//! /// The arguments of `review`.
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Review {
//!     /// The code to review.
//!     code: String,
//! }
//!
//! let prompts = Prompts::<Mcp, mcp_server::Ctx<Mcp>>::new().add(
//!     "review",
//!     "Asks for a code review",
//!     async |get: Get<Mcp, _, Review>| Ok(format!("Please review:\n{}", get.args.code)),
//! )?;
//! let info = mcp::Implementation::new("reviewer", "1.0.0");
//! let _served = mcp_server::Served::<Mcp, _>::new((), info).prompts(prompts); // advertises `prompts`
//! # Ok::<(), mcp_server::prompts::PromptError>(())
//! ```

use std::fmt;
use std::future::Future;

use mcp_runtime::RpcError;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::LegacySchema;
use crate::routers::{self, ByName, Invoked, WithState, object_schema};

/// What the router needs of the generated module: implemented by
/// [`bind_server!`](crate::bind_server).
pub trait PromptTypes: LegacySchema {
    /// A prompt as `prompts/list` lists it (`Prompt`).
    type Prompt: Clone + Send + Sync + 'static;
    /// The params of `prompts/get` (`GetPromptRequestParams`).
    type GetParams: Clone + Send + Sync + 'static;
    /// What `prompts/get` answers (`GetPromptOutcome`).
    type GetOutcome: Send + 'static;
    /// What `prompts/list` answers (`ListPromptsResult`).
    type ListResult: Send + 'static;

    /// The prompt `name` with `description` and `arguments` (a JSON array of the listed
    /// arguments), or why it cannot be one.
    fn prompt(name: &str, description: &str, arguments: Value) -> Result<Self::Prompt, String>;
    /// The name of the prompt `params` get.
    fn prompt_name(params: &Self::GetParams) -> &str;
    /// The arguments `params` carry, as a JSON object of strings (none: empty).
    fn arguments(params: &Self::GetParams) -> Map<String, Value>;
    /// A result of one user message holding `text`.
    fn text_outcome(text: String) -> Self::GetOutcome;
    /// The list of `prompts`.
    fn list_result(prompts: Vec<Self::Prompt>) -> Self::ListResult;
    /// `capabilities` with the `prompts` capability added; whether they had it already.
    fn advertise_prompts(capabilities: &mut Self::ServerCapabilities) -> bool;
}

/// What a prompt function may answer: a text (`String`, `&'static str`: one user message), or
/// the generated `GetPromptResult` / `GetPromptOutcome` (implemented by
/// [`bind_server!`](crate::bind_server)).
pub trait PromptOutput<S: PromptTypes> {
    /// The answer as the outcome of `prompts/get`.
    fn into_outcome(self) -> S::GetOutcome;
}

impl<S: PromptTypes> PromptOutput<S> for String {
    fn into_outcome(self) -> S::GetOutcome {
        S::text_outcome(self)
    }
}

impl<S: PromptTypes> PromptOutput<S> for &'static str {
    fn into_outcome(self) -> S::GetOutcome {
        S::text_outcome(self.to_owned())
    }
}

/// One get of a prompt: the context of the request, the arguments read, and the request's
/// params (`prompts/get`'s).
pub type Get<S, C, A> = Invoked<C, A, <S as PromptTypes>::GetParams>;

type Answer<S> = Result<<S as PromptTypes>::GetOutcome, RpcError>;
type Handler<S, C> =
    routers::Handler<C, <S as PromptTypes>::GetParams, <S as PromptTypes>::GetOutcome>;

/// Prompts by name, each a function, listed in the order they were added.
pub struct Prompts<S: PromptTypes, C> {
    table: ByName<S::Prompt, Handler<S, C>>,
}

/// A prompt that cannot be added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PromptError {
    /// Two prompts of one name.
    #[error("prompt {0:?} added twice")]
    Duplicate(String),
    /// The argument type is not an object of strings, or the prompt not a valid one.
    #[error("prompt {name:?}: {why}")]
    Schema {
        /// The prompt.
        name: String,
        /// What is wrong.
        why: String,
    },
}

impl<S: PromptTypes, C: Send + 'static> Default for Prompts<S, C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: PromptTypes, C: Send + 'static> Prompts<S, C> {
    /// No prompts yet.
    pub fn new() -> Self {
        Prompts {
            table: ByName::new(),
        }
    }

    /// Adds the prompt `name`, described by `description`, answered by `function`, whose
    /// arguments are an `A` (a struct of strings: its members are the listed arguments).
    pub fn add<A, F, Fut, O>(
        mut self,
        name: &str,
        description: &str,
        function: F,
    ) -> Result<Self, PromptError>
    where
        A: DeserializeOwned + schemars::JsonSchema + Send + 'static,
        F: Fn(Get<S, C, A>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, RpcError>> + Send + 'static,
        O: PromptOutput<S> + 'static,
    {
        let refused = |why: String| PromptError::Schema {
            name: name.to_owned(),
            why,
        };
        if self.table.contains(name) {
            return Err(PromptError::Duplicate(name.to_owned()));
        }
        let arguments = listed_arguments(&object_schema::<A>()).map_err(refused)?;
        let prompt = S::prompt(name, description, arguments).map_err(refused)?;
        let read = |params: &S::GetParams| read_arguments::<S, A>(params).map_err(Err);
        let handler = routers::handler(read, function, O::into_outcome);
        self.table.insert(name, prompt, handler);
        Ok(self)
    }

    /// Whether there are no prompts.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// `prompts/list`: every prompt.
    pub fn list(&self) -> S::ListResult {
        S::list_result(self.table.listed())
    }

    /// `prompts/get`: the prompt `params` names; an unknown prompt is `-32602`.
    pub fn get(
        &self,
        ctx: C,
        params: &S::GetParams,
    ) -> impl Future<Output = Answer<S>> + Send + use<S, C> {
        let name = S::prompt_name(params);
        self.table.dispatch("prompt", name, ctx, params.clone())
    }
}

impl<S: PromptTypes, C: 'static, T: Clone + Send + Sync + 'static> Prompts<S, WithState<C, T>> {
    /// The router with `state` handed to every prompt function (in its context,
    /// [`WithState::state`]), as [`Tools::with_state`](crate::tools::Tools::with_state).
    pub fn with_state(self, state: T) -> Prompts<S, C> {
        Prompts {
            table: self
                .table
                .map_handlers(|handler| routers::with_state(handler, state.clone())),
        }
    }
}

impl<S: PromptTypes, C> fmt::Debug for Prompts<S, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prompts")
            .field("names", &self.table)
            .finish()
    }
}

/// The listed arguments of a prompt whose argument type has the JSON Schema `schema`: one per
/// member (its description, and whether it is required); an error for a member that is not a
/// string.
fn listed_arguments(schema: &Value) -> Result<Value, String> {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let empty = Map::new();
    let members = schema["properties"].as_object().unwrap_or(&empty);
    let mut listed = Vec::with_capacity(members.len());
    for (name, member) in members {
        if !holds_strings(member) {
            return Err(format!(
                "argument {name:?} is not a string (a prompt's arguments are strings)"
            ));
        }
        let mut argument = json!({"name": name, "required": required.contains(&name.as_str())});
        if let Some(description) = member.get("description") {
            argument["description"] = description.clone();
        }
        listed.push(argument);
    }
    Ok(Value::Array(listed))
}

/// Whether a member's schema admits only strings (and, for an `Option`, null).
fn holds_strings(member: &Value) -> bool {
    match &member["type"] {
        Value::String(t) => t == "string",
        Value::Array(types) => {
            types.iter().all(|t| t == "string" || t == "null")
                && types.iter().any(|t| t == "string")
        }
        _ => false,
    }
}

/// The arguments of `params` read as an `A`: `-32602` naming the prompt and what is wrong.
fn read_arguments<S: PromptTypes, A: DeserializeOwned>(
    params: &S::GetParams,
) -> Result<A, RpcError> {
    serde_json::from_value(Value::Object(S::arguments(params))).map_err(|e| {
        RpcError::invalid_params(format!(
            "Invalid arguments for prompt {}: {e}",
            S::prompt_name(params)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listed_arguments_are_the_members_with_their_descriptions() {
        let schema = json!({"type": "object", "required": ["city"], "properties": {
            "city": {"type": "string", "description": "Where"},
            "unit": {"type": ["string", "null"]}}});
        let listed = listed_arguments(&schema).unwrap();
        assert_eq!(
            listed,
            json!([{"name": "city", "required": true, "description": "Where"},
                   {"name": "unit", "required": false}])
        );
        let numeric = json!({"properties": {"days": {"type": "integer"}}});
        let refused = listed_arguments(&numeric).unwrap_err();
        assert!(refused.contains("\"days\" is not a string"), "{refused}");
    }
}

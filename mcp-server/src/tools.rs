//! Tools without boilerplate: a [`Tools`] router that answers `tools/list` and dispatches
//! `tools/call` by name to plain `async` functions, each taking its arguments as a struct
//! deriving `serde::Deserialize` and `schemars::JsonSchema` (the tool's `inputSchema` is that
//! struct's JSON Schema). Arguments that do not fit are told to the model as a tool error
//! (`isError`), as the specification asks of tool input errors; an unknown tool is the
//! protocol error `-32602`.
//!
//! [`Served::tools`](crate::Served::tools) puts a router in front of a server's
//! `tools/list` and `tools/call` (and advertises the `tools` capability).

use std::collections::HashMap;
use std::fmt;
use std::future::Future;

use mcp_runtime::RpcError;
use mcp_runtime::param_headers::{self, ParamHeader};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::LegacySchema;
use crate::routers::{self, ByName, Invoked, WithState, object_schema};

/// What the router needs of the generated module: implemented by
/// [`bind_server!`](crate::bind_server).
pub trait ToolTypes: LegacySchema {
    /// A tool as `tools/list` lists it (`Tool`).
    type Tool: Clone + Send + Sync + 'static;
    /// The params of `tools/call` (`CallToolRequestParams`).
    type CallParams: Clone + Send + Sync + 'static;
    /// What `tools/call` answers (`CallToolOutcome`).
    type CallOutcome: Send + 'static;
    /// What `tools/list` answers (`ListToolsResult`).
    type ListResult: Send + 'static;

    /// The tool `name` with `description` and `input_schema`, or why it cannot be one.
    fn tool(name: &str, description: &str, input_schema: Value) -> Result<Self::Tool, String>;
    /// The name of the tool `params` call.
    fn tool_name(params: &Self::CallParams) -> &str;
    /// The arguments `params` carry (none: an empty object).
    fn arguments(params: &Self::CallParams) -> Option<&Map<String, Value>>;
    /// A result of one text block, a tool error if `is_error`.
    fn text_outcome(text: String, is_error: bool) -> Self::CallOutcome;
    /// The list of `tools`.
    fn list_result(tools: Vec<Self::Tool>) -> Self::ListResult;
    /// `capabilities` with the `tools` capability added; whether they had it already.
    fn advertise_tools(capabilities: &mut Self::ServerCapabilities) -> bool;
}

/// What a tool function may answer: a text (`String`, `&'static str`), a tool error
/// ([`ToolFailed`]), either (`Result<String, ToolFailed>`), or the generated `CallToolResult` / `CallToolOutcome` (implemented by
/// [`bind_server!`](crate::bind_server)).
pub trait ToolOutput<S: ToolTypes> {
    /// The answer as the outcome of `tools/call`.
    fn into_outcome(self) -> S::CallOutcome;
}

impl<S: ToolTypes> ToolOutput<S> for String {
    fn into_outcome(self) -> S::CallOutcome {
        S::text_outcome(self, false)
    }
}

impl<S: ToolTypes> ToolOutput<S> for &'static str {
    fn into_outcome(self) -> S::CallOutcome {
        S::text_outcome(self.to_owned(), false)
    }
}

/// A tool that ran and failed: told to the model as a tool error (`isError`), not a protocol
/// error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolFailed(pub String);

impl<S: ToolTypes> ToolOutput<S> for ToolFailed {
    fn into_outcome(self) -> S::CallOutcome {
        S::text_outcome(self.0, true)
    }
}

/// A text, or a tool error.
impl<S: ToolTypes, O: ToolOutput<S>> ToolOutput<S> for Result<O, ToolFailed> {
    fn into_outcome(self) -> S::CallOutcome {
        self.map_or_else(|failed| S::text_outcome(failed.0, true), O::into_outcome)
    }
}

/// One call of a tool: the context of the request, the arguments read, and the request's
/// params (`tools/call`'s).
pub type Call<S, C, A> = Invoked<C, A, <S as ToolTypes>::CallParams>;

type Answer<S> = Result<<S as ToolTypes>::CallOutcome, RpcError>;
type Handler<S, C> =
    routers::Handler<C, <S as ToolTypes>::CallParams, <S as ToolTypes>::CallOutcome>;

/// Tools by name, each a function, listed in the order they were added.
pub struct Tools<S: ToolTypes, C> {
    table: ByName<S::Tool, Handler<S, C>>,
    /// The arguments each tool's client mirrors in `Mcp-Param-{Name}` headers (`x-mcp-header`
    /// in its input schema), for the tools that have any.
    mirrored: HashMap<String, Vec<ParamHeader>>,
}

impl<S: ToolTypes, C: 'static, T: Clone + Send + Sync + 'static> Tools<S, WithState<C, T>> {
    /// The router with `state` handed to every tool function (in its context,
    /// [`WithState::state`]): a router built for a server's state, served as a router of
    /// plain contexts ([`Served::tools`](crate::Served::tools) takes it).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicU64, Ordering};
    ///
    /// use mcp_server::tools::{Call, Tools};
    /// use mcp_tests::eras as mcp;
    ///
    /// mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
    /// mcp_server::bind_server!(Mcp = mcp);
    ///
    /// /// What the tools share.
    /// struct Counter(AtomicU64);
    ///
    /// type Ctx = mcp_server::WithState<mcp_server::Ctx<Mcp>, Arc<Counter>>;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct NoArguments {}
    ///
    /// let tools: Tools<Mcp, mcp_server::Ctx<Mcp>> = Tools::<Mcp, Ctx>::new()
    ///     .add("count", "Counts its calls", async |call: Call<Mcp, Ctx, NoArguments>| {
    ///         let n = call.ctx.state.0.fetch_add(1, Ordering::SeqCst) + 1;
    ///         Ok(format!("called {n} times"))
    ///     })?
    ///     .with_state(Arc::new(Counter(AtomicU64::new(0))));
    /// assert!(!tools.is_empty());
    /// # Ok::<(), mcp_server::tools::ToolError>(())
    /// ```
    pub fn with_state(self, state: T) -> Tools<S, C> {
        Tools {
            table: self
                .table
                .map_handlers(|handler| routers::with_state(handler, state.clone())),
            mirrored: self.mirrored,
        }
    }
}

/// A tool that cannot be added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// Two tools of one name.
    #[error("tool {0:?} added twice")]
    Duplicate(String),
    /// The argument type's schema is not a tool's input schema.
    #[error("tool {name:?}: {why}")]
    Schema {
        /// The tool.
        name: String,
        /// What is wrong.
        why: String,
    },
}

impl<S: ToolTypes, C: Send + 'static> Default for Tools<S, C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: ToolTypes, C: Send + 'static> Tools<S, C> {
    /// No tools yet.
    pub fn new() -> Self {
        Tools {
            table: ByName::new(),
            mirrored: HashMap::new(),
        }
    }

    /// Adds the tool `name`, described by `description`, answered by `function`, whose
    /// arguments are an `A` (its JSON Schema is the tool's `inputSchema`).
    pub fn add<A, F, Fut, O>(
        self,
        name: &str,
        description: &str,
        function: F,
    ) -> Result<Self, ToolError>
    where
        A: DeserializeOwned + schemars::JsonSchema + Send + 'static,
        F: Fn(Call<S, C, A>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, RpcError>> + Send + 'static,
        O: ToolOutput<S> + 'static,
    {
        let schema = object_schema::<A>();
        // Arguments that do not fit are a tool error, told to the model.
        let read = |params: &S::CallParams| {
            read_arguments::<S, A>(params).map_err(|why| Ok(S::text_outcome(why, true)))
        };
        let handler = routers::handler(read, function, O::into_outcome);
        self.insert(name, description, schema, handler)
    }

    /// Adds the tool `name`, described by `description`, whose `inputSchema` is
    /// `input_schema` as written (a JSON Schema object: one no Rust type derives, or one a
    /// gateway forwards), answered by `function`, which reads the arguments from the request's
    /// params (`call.params`, as the client sent them, unchecked against the schema; nothing
    /// is copied).
    ///
    /// ```
    /// use mcp_server::tools::{Call, Tools};
    /// use mcp_tests::eras as mcp;
    /// use serde_json::json;
    ///
    /// mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
    /// mcp_server::bind_server!(Mcp = mcp);
    ///
    /// // `x-mcp-header`: a client mirrors `region` in an `Mcp-Param-Region` header.
    /// let schema = json!({
    ///     "type": "object",
    ///     "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
    ///     "required": ["region"]
    /// });
    /// let tools = Tools::<Mcp, mcp_server::Ctx<Mcp>>::new().add_with_schema(
    ///     "weather",
    ///     "The weather of a region",
    ///     schema,
    ///     async |call: Call<Mcp, _, ()>| {
    ///         let arguments = call.params.arguments.as_ref();
    ///         let region = arguments.and_then(|a| a.get("region")?.as_str()).unwrap_or("?");
    ///         Ok(format!("Sunny in {region}"))
    ///     },
    /// )?;
    /// assert_eq!(tools.mirrored_params("weather")[0].name, "Region");
    /// # Ok::<(), mcp_server::tools::ToolError>(())
    /// ```
    pub fn add_with_schema<F, Fut, O>(
        self,
        name: &str,
        description: &str,
        input_schema: Value,
        function: F,
    ) -> Result<Self, ToolError>
    where
        F: Fn(Call<S, C, ()>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, RpcError>> + Send + 'static,
        O: ToolOutput<S> + 'static,
    {
        let read = |_: &S::CallParams| Ok(());
        let handler = routers::handler(read, function, O::into_outcome);
        self.insert(name, description, input_schema, handler)
    }

    /// Adds the tool `name` of `input_schema`, answered by `handler`: refused if the name is
    /// taken, the schema is not a tool's, or its `x-mcp-header` annotations are invalid.
    fn insert(
        mut self,
        name: &str,
        description: &str,
        input_schema: Value,
        handler: Handler<S, C>,
    ) -> Result<Self, ToolError> {
        if self.table.contains(name) {
            return Err(ToolError::Duplicate(name.to_owned()));
        }
        let invalid = |why: String| ToolError::Schema {
            name: name.to_owned(),
            why,
        };
        let mirrored = match &input_schema {
            Value::Object(schema) => param_headers::annotations(schema)
                .map_err(|e| invalid(format!("x-mcp-header: {e}")))?,
            _ => Vec::new(),
        };
        let tool = S::tool(name, description, input_schema).map_err(invalid)?;
        if !mirrored.is_empty() {
            self.mirrored.insert(name.to_owned(), mirrored);
        }
        self.table.insert(name, tool, handler);
        Ok(self)
    }

    /// The arguments of tool `name` that a client mirrors in `Mcp-Param-{Name}` headers
    /// (`x-mcp-header` in its input schema), which the transport checks against the body; none
    /// for a tool without them or not routed here.
    pub fn mirrored_params(&self, name: &str) -> Vec<ParamHeader> {
        self.mirrored.get(name).cloned().unwrap_or_default()
    }

    /// Whether there are no tools.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// `tools/list`: every tool.
    pub fn list(&self) -> S::ListResult {
        S::list_result(self.table.listed())
    }

    /// `tools/call`: the tool `params` names, called with them (moved, never copied); an
    /// unknown tool is `-32602`.
    pub fn call(
        &self,
        ctx: C,
        params: S::CallParams,
    ) -> impl Future<Output = Answer<S>> + Send + use<S, C> {
        let name = S::tool_name(&params).to_owned();
        self.table.dispatch("tool", &name, ctx, params)
    }
}

impl<S: ToolTypes, C> fmt::Debug for Tools<S, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tools").field("names", &self.table).finish()
    }
}

/// The arguments of `params` read as an `A`, or what a model should be told is wrong with
/// them. Read from the request's own values: a large argument is not copied to be read.
fn read_arguments<S: ToolTypes, A: DeserializeOwned>(params: &S::CallParams) -> Result<A, String> {
    let empty = Map::new();
    let arguments = S::arguments(params).unwrap_or(&empty);
    let members = arguments.iter().map(|(k, v)| (k.as_str(), v));
    let deserializer = serde::de::value::MapDeserializer::<_, serde_json::Error>::new(members);
    A::deserialize(deserializer)
        .map_err(|e| format!("Invalid arguments for tool {}: {e}", S::tool_name(params)))
}

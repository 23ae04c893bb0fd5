//! What a handler of this server is handed ([`Ctx`]: `mcp_server`'s context with the
//! fixture's state), and the routers that hand it: each tool and prompt added with its own
//! function.

use std::future::Future;
use std::ops::Deref;
use std::sync::Arc;

use mcp_runtime::RpcError;
use mcp_server::prompts::{Get, PromptError, Prompts};
use mcp_server::tools::{Call, ToolError, Tools};

use crate::{Fixture, Mcp, mcp};

/// The logger this server's log messages name.
pub const LOGGER: &str = "mcp-conformance-server";

/// What a handler learns about the request besides its params (`mcp_server::Ctx`, which this
/// dereferences to), and the server's state.
pub struct Ctx {
    /// The request's id, `_meta`, principal and notifier.
    pub request: mcp_server::Ctx<Mcp>,
    /// The server's state.
    pub app: Arc<Fixture>,
}

impl Deref for Ctx {
    type Target = mcp_server::Ctx<Mcp>;

    fn deref(&self) -> &Self::Target {
        &self.request
    }
}

/// The tools router, each tool's function handed the fixture's [`Ctx`] and the request's
/// params.
pub struct ToolRoutes {
    pub tools: Tools<Mcp, mcp_server::Ctx<Mcp>>,
    pub app: Arc<Fixture>,
}

impl ToolRoutes {
    /// Adds the tool `name`, described by `description`, of `input` arguments, answered by
    /// `function`.
    pub fn tool<F, Fut>(
        self,
        name: &str,
        description: &str,
        input: mcp::ToolInputSchema,
        function: F,
    ) -> Result<Self, ToolError>
    where
        F: Fn(Ctx, mcp::CallToolRequestParams) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<mcp::CallToolOutcome, RpcError>> + Send + 'static,
    {
        let schema = serde_json::to_value(&input).map_err(|e| ToolError::Schema {
            name: name.to_owned(),
            why: e.to_string(),
        })?;
        let app = Arc::clone(&self.app);
        let tools = self.tools.add_with_schema(
            name,
            description,
            schema,
            move |call: Call<Mcp, mcp_server::Ctx<Mcp>, ()>| {
                let ctx = Ctx {
                    request: call.ctx,
                    app: Arc::clone(&app),
                };
                function(ctx, call.params)
            },
        )?;
        Ok(ToolRoutes {
            tools,
            app: self.app,
        })
    }

    /// Adds the tool `name` of no arguments, described by `description`, answered by
    /// `function`.
    pub fn plain<F, Fut>(
        self,
        name: &str,
        description: &str,
        function: F,
    ) -> Result<Self, ToolError>
    where
        F: Fn(Ctx, mcp::CallToolRequestParams) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<mcp::CallToolOutcome, RpcError>> + Send + 'static,
    {
        let none = crate::content::schema(serde_json::json!({}), &[]);
        self.tool(name, description, none, function)
    }
}

/// Adds the prompt `name`, described by `description` and with the `A` arguments, answered by
/// `function` with the fixture's [`Ctx`] and the request's params.
pub fn prompt<A, F, Fut>(
    prompts: Prompts<Mcp, mcp_server::Ctx<Mcp>>,
    app: &Arc<Fixture>,
    name: &str,
    description: &str,
    function: F,
) -> Result<Prompts<Mcp, mcp_server::Ctx<Mcp>>, PromptError>
where
    A: serde::de::DeserializeOwned + schemars::JsonSchema + Send + 'static,
    F: Fn(Ctx, A, mcp::GetPromptRequestParams) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<mcp::GetPromptOutcome, RpcError>> + Send + 'static,
{
    let app = Arc::clone(app);
    prompts.add(
        name,
        description,
        move |get: Get<Mcp, mcp_server::Ctx<Mcp>, A>| {
            let ctx = Ctx {
                request: get.ctx,
                app: Arc::clone(&app),
            };
            function(ctx, get.args, get.params)
        },
    )
}

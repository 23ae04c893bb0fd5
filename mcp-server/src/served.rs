//! A server written as the generated service trait (`mcp_codegen::Builder::server`: one
//! method per request, each returning the request's result or a JSON-RPC error), served over
//! both transports and in both eras: [`Served`] holds it with what the transports need besides
//! its methods (its name, capabilities and bounds, the legacy sessions), and
//! [`bind_server!`](crate::bind_server) makes it a [`Service`] of the bound
//! module (the legacy edge runs the bridge, so the same `call_tool` answers a 2025-11-25
//! client).
//!
//! ```
//! use std::sync::Arc;
//! use mcp_runtime::Response;
//! use mcp_tests::eras as mcp;
//!
//! mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
//! mcp_server::bind_server!(Mcp = mcp);
//!
//! struct Hello;
//!
//! impl mcp::Server<mcp_server::Ctx<Mcp>> for Hello {
//!     async fn call_tool(
//!         &self,
//!         _ctx: mcp_server::Ctx<Mcp>,
//!         params: &mcp::CallToolRequestParams,
//!     ) -> Response<mcp::CallToolRequest> {
//!         let text = mcp::TextContent::new(format!("Hello from {}", params.name));
//!         Ok(mcp::CallToolResult::new(vec![text.into()]).into())
//!     }
//! }
//!
//! let info = mcp::Implementation::new("hello", "1.0.0");
//! let capabilities = mcp::ServerCapabilities::new().with_tools(mcp::ServerCapabilitiesTools::new());
//! let served = Arc::new(mcp_server::Served::<Mcp, _>::new(Hello, info, capabilities));
//! let _router = mcp_server::served::router(served);
//! ```

use std::sync::Arc;

use crate::legacy::{HttpSessions, Initialize, LegacyService, Sessions, StdioSession};
use crate::options::Transport;
use crate::tools::{ToolTypes, Tools};
use crate::{Config, Ctx, Service, work};

/// A server `T` (an implementation of the generated service trait) with what the transports
/// need besides its methods.
pub struct Served<S: ToolTypes, T> {
    /// The server's methods.
    pub server: T,
    info: S::Implementation,
    capabilities: S::ServerCapabilities,
    instructions: Option<String>,
    versions: Vec<&'static str>,
    config: Arc<Config>,
    sessions: Sessions<S>,
    running: work::Running,
    tools: Option<Tools<S, Ctx<S>>>,
}

impl<S: ToolTypes, T> Served<S, T> {
    /// `server`, named `info`, offering `capabilities` (told to legacy clients at
    /// `initialize`), with [`Config::default`]'s bounds, speaking the generated module's
    /// revision.
    pub fn new(server: T, info: S::Implementation, capabilities: S::ServerCapabilities) -> Self {
        let config = Arc::new(Config::default());
        Served {
            server,
            info,
            capabilities,
            instructions: None,
            versions: Vec::new(),
            sessions: Sessions::new(Arc::clone(&config)),
            config,
            running: work::Running::default(),
            tools: None,
        }
    }

    /// The same server with `config`'s bounds and switches.
    #[must_use]
    pub fn config(mut self, config: Config) -> Self {
        self.config = Arc::new(config);
        self.sessions = Sessions::new(Arc::clone(&self.config));
        self
    }

    /// The same server with `tools` answering `tools/list` and `tools/call` (its own methods
    /// for them are then not called), advertising the `tools` capability.
    #[must_use]
    pub fn tools(mut self, tools: Tools<S, Ctx<S>>) -> Self {
        S::advertise_tools(&mut self.capabilities);
        self.tools = Some(tools);
        self
    }

    /// Its tools, if it has a router of them.
    pub fn tool_router(&self) -> Option<&Tools<S, Ctx<S>>> {
        self.tools.as_ref()
    }

    /// The same server, telling clients `instructions`.
    #[must_use]
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// The same server, speaking the modern `versions` (by default the generated module's).
    #[must_use]
    pub fn versions(mut self, versions: &[&'static str]) -> Self {
        self.versions = versions.to_vec();
        self
    }

    /// The modern versions it speaks: those given, else `revision`.
    pub fn versions_or<'a>(&'a self, revision: &'a [&'static str]) -> &'a [&'static str] {
        match self.versions.as_slice() {
            [] => revision,
            given => given,
        }
    }

    /// Its bounds and switches.
    pub fn bounds(&self) -> &Arc<Config> {
        &self.config
    }

    /// What `server/discover` tells a client when the server does not answer it itself: its
    /// capabilities, the versions it speaks (`revision` unless others were given) and its
    /// instructions.
    pub fn discovered<'a>(
        &'a self,
        revision: &'a [&'static str],
    ) -> (S::ServerCapabilities, Vec<String>, Option<&'a str>)
    where
        S::ServerCapabilities: Clone,
    {
        let versions = self.versions_or(revision).iter().map(|v| (*v).to_owned());
        let instructions = self.instructions.as_deref();
        (self.capabilities.clone(), versions.collect(), instructions)
    }

    /// The count of its methods running now.
    pub fn running(&self) -> &work::Running {
        &self.running
    }
}

impl<S, T> Initialize<S> for Served<S, T>
where
    S: ToolTypes<ServerCapabilities: Clone>,
{
    fn capabilities(&self) -> S::ServerCapabilities {
        self.capabilities.clone()
    }

    fn server_info(&self) -> S::Implementation {
        self.info.clone()
    }

    fn instructions(&self) -> Option<&str> {
        self.instructions.as_deref()
    }
}

impl<S, T> LegacyService<S> for Served<S, T>
where
    S: ToolTypes<ServerCapabilities: Clone>,
    Served<S, T>: Service<S>,
{
    fn sessions(&self) -> &Sessions<S> {
        &self.sessions
    }

    fn config(&self) -> &Config {
        &self.config
    }
}

/// How long a client may cache a `server/discover` answered by [`Served`] (five minutes).
pub const DISCOVER_TTL_MS: u64 = 300_000;

/// `served` at `/mcp` over Streamable HTTP, modern requests and legacy sessions alike.
pub fn router<S, T>(served: Arc<Served<S, T>>) -> axum::Router
where
    S: ToolTypes<ServerCapabilities: Clone>,
    Served<S, T>: Service<S>,
{
    let config = Arc::clone(&served.config);
    let legacy = Arc::new(HttpSessions(Arc::clone(&served)));
    crate::http::router(served, config, Some(legacy))
}

/// `served` on one stdio connection, with the process's legacy session.
pub fn stdio_endpoint<S, T>(served: Arc<Served<S, T>>) -> crate::stdio::Endpoint<S, Served<S, T>>
where
    S: ToolTypes<ServerCapabilities: Clone>,
    Served<S, T>: Service<S>,
{
    let session = StdioSession::new(Arc::clone(&served));
    crate::stdio::Endpoint::new(served, Some(Box::new(session)))
}

/// Serves `served` where `transport` says: Streamable HTTP until Ctrl-C or `SIGTERM`
/// ([`accept::shutdown_signal`](crate::accept::shutdown_signal)), or standard input and output
/// until the input ends. The line "listening on http://…/mcp" goes to standard error.
pub async fn run<S, T>(served: Served<S, T>, transport: Transport) -> std::io::Result<()>
where
    S: ToolTypes<ServerCapabilities: Clone>,
    Served<S, T>: Service<S>,
{
    let served = Arc::new(served);
    let config = Arc::clone(&served.config);
    match transport {
        Transport::Stdio => crate::stdio::serve_stdio(stdio_endpoint(served), &config).await,
        Transport::Listen(address) => {
            let listener = tokio::net::TcpListener::bind(address).await?;
            eprintln!("listening on http://{}/mcp", listener.local_addr()?);
            let shutdown = crate::accept::shutdown_signal();
            crate::serve(listener, router(served), &config, shutdown).await;
            Ok(())
        }
    }
}

/// Makes [`Served`] a [`Service`](crate::Service) of the marker `$name` (declared by
/// [`bind!`](crate::bind) with a legacy module) for any implementation of the service trait of
/// the generated module `$m` (written with `mcp_codegen::Builder::server`): each request is
/// dispatched to its method by the generated `serve`, its answer or error written by the
/// transport.
#[macro_export]
macro_rules! bind_server {
    ($name:ident = $($m:ident)::+) => {
        impl<T> $crate::Service<$name> for $crate::Served<$name, T>
        where
            T: $($m)::+::Server<$crate::Ctx<$name>>,
        {
            async fn call(
                self: ::std::sync::Arc<Self>,
                ctx: $crate::Ctx<$name>,
                request: <$name as $crate::Schema>::ClientRequest,
            ) -> ::core::result::Result<::std::string::String, $crate::Refused<$name>> {
                use $($m)::+::{self as m};
                let id = ::core::clone::Clone::clone(&ctx.id);
                let refused = |error| $crate::Refused::new(::core::option::Option::Some(&id), error);
                if let ::core::option::Option::Some(tools) = self.tool_router() {
                    match &request {
                        m::ClientRequest::CallToolRequest(r) => {
                            let answer = tools.call(ctx, &r.params).await;
                            return ::mcp_runtime::service::answer::<m::CallToolRequest>(r, answer)
                                .map_err(refused);
                        }
                        m::ClientRequest::ListToolsRequest(r) => {
                            let listed = ::core::result::Result::Ok(tools.list().into());
                            return ::mcp_runtime::service::answer::<m::ListToolsRequest>(r, listed)
                                .map_err(refused);
                        }
                        _ => {}
                    }
                }
                // `server/discover` the server does not answer itself is answered from what
                // `Served` holds (a server MUST answer it).
                let discover = match &request {
                    m::ClientRequest::DiscoverRequest(r) => {
                        ::core::option::Option::Some(::core::clone::Clone::clone(r))
                    }
                    _ => ::core::option::Option::None,
                };
                match (m::serve(&self.server, ctx, request).await, discover) {
                    (::core::result::Result::Err(e), ::core::option::Option::Some(r))
                        if e.code == ::mcp_runtime::error_code::METHOD_NOT_FOUND =>
                    {
                        let (capabilities, versions, instructions) =
                            self.discovered(&[m::REVISION]);
                        let mut result = m::DiscoverResult::new(
                            m::CacheScope::Public,
                            capabilities,
                            versions,
                            $crate::served::DISCOVER_TTL_MS,
                        );
                        if let ::core::option::Option::Some(text) = instructions {
                            result = result.with_instructions(text);
                        }
                        let answer = ::core::result::Result::Ok(::core::convert::Into::into(result));
                        ::mcp_runtime::service::answer(&r, answer).map_err(refused)
                    }
                    (answered, _) => answered.map_err(refused),
                }
            }

            fn versions(&self) -> &[&'static str] {
                self.versions_or(&[$($m)::+::REVISION])
            }

            fn running(&self) -> ::core::option::Option<&$crate::work::Running> {
                ::core::option::Option::Some($crate::Served::running(self))
            }
        }

        const _: () = {
            use $($m)::+::{self as m};

            impl $crate::tools::ToolTypes for $name {
                type Tool = m::Tool;
                type CallParams = m::CallToolRequestParams;
                type CallOutcome = m::CallToolOutcome;
                type ListResult = m::ListToolsResult;

                fn tool(
                    name: &str,
                    description: &str,
                    input_schema: ::serde_json::Value,
                ) -> ::core::result::Result<m::Tool, ::std::string::String> {
                    let tool = ::serde_json::json!({
                        "name": name,
                        "description": description,
                        "inputSchema": input_schema,
                    });
                    ::serde_json::from_value(tool).map_err(|e| e.to_string())
                }

                fn tool_name(params: &m::CallToolRequestParams) -> &str {
                    &params.name
                }

                fn arguments(
                    params: &m::CallToolRequestParams,
                ) -> ::core::option::Option<
                    &::serde_json::Map<::std::string::String, ::serde_json::Value>,
                > {
                    params.arguments.as_ref()
                }

                fn text_outcome(text: ::std::string::String, is_error: bool) -> m::CallToolOutcome {
                    let content = ::std::vec![m::TextContent::new(text).into()];
                    let result = m::CallToolResult::new(content);
                    let result = if is_error { result.with_is_error(true) } else { result };
                    result.into()
                }

                fn list_result(tools: ::std::vec::Vec<m::Tool>) -> m::ListToolsResult {
                    m::ListToolsResult::new(
                        m::CacheScope::Public,
                        tools,
                        $crate::served::DISCOVER_TTL_MS,
                    )
                }

                fn advertise_tools(capabilities: &mut m::ServerCapabilities) {
                    capabilities.tools.get_or_insert_with(::core::default::Default::default);
                }
            }

            impl $crate::tools::ToolOutput<$name> for m::CallToolResult {
                fn into_outcome(self) -> m::CallToolOutcome {
                    self.into()
                }
            }

            impl $crate::tools::ToolOutput<$name> for m::CallToolOutcome {
                fn into_outcome(self) -> m::CallToolOutcome {
                    self
                }
            }
        };
    };
}

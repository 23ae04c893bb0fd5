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

use crate::legacy::{HttpSessions, Initialize, LegacyService, Sessions};
use crate::{Config, LegacySchema, Service, work};

/// A server `T` (an implementation of the generated service trait) with what the transports
/// need besides its methods.
pub struct Served<S: LegacySchema, T> {
    /// The server's methods.
    pub server: T,
    info: S::Implementation,
    capabilities: S::ServerCapabilities,
    instructions: Option<String>,
    versions: Vec<&'static str>,
    config: Arc<Config>,
    sessions: Sessions<S>,
    running: work::Running,
}

impl<S: LegacySchema, T> Served<S, T> {
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
        }
    }

    /// The same server with `config`'s bounds and switches.
    #[must_use]
    pub fn config(mut self, config: Config) -> Self {
        self.config = Arc::new(config);
        self.sessions = Sessions::new(Arc::clone(&self.config));
        self
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

    /// The count of its methods running now.
    pub fn running(&self) -> &work::Running {
        &self.running
    }
}

impl<S, T> Initialize<S> for Served<S, T>
where
    S: LegacySchema<ServerCapabilities: Clone>,
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
    S: LegacySchema<ServerCapabilities: Clone>,
    Served<S, T>: Service<S>,
{
    fn sessions(&self) -> &Sessions<S> {
        &self.sessions
    }

    fn config(&self) -> &Config {
        &self.config
    }
}

/// `served` at `/mcp` over Streamable HTTP, modern requests and legacy sessions alike.
pub fn router<S, T>(served: Arc<Served<S, T>>) -> axum::Router
where
    S: LegacySchema<ServerCapabilities: Clone>,
    Served<S, T>: Service<S>,
{
    let config = Arc::clone(&served.config);
    let legacy = Arc::new(HttpSessions(Arc::clone(&served)));
    crate::http::router(served, config, Some(legacy))
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
                let id = ::core::clone::Clone::clone(&ctx.id);
                $($m)::+::serve(&self.server, ctx, request)
                    .await
                    .map_err(|error| $crate::Refused::new(::core::option::Option::Some(&id), error))
            }

            fn versions(&self) -> &[&'static str] {
                self.versions_or(&[$($m)::+::REVISION])
            }

            fn running(&self) -> ::core::option::Option<&$crate::work::Running> {
                ::core::option::Option::Some($crate::Served::running(self))
            }
        }
    };
}

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
//! // Its own `call_tool` serves tools: declared, as no router infers it.
//! let served = mcp_server::Served::<Mcp, _>::new(Hello, info).capabilities(capabilities);
//! let _router = mcp_server::served::router(Arc::new(served))?;
//! # Ok::<(), mcp_server::served::Undeclared>(())
//! ```

mod process;

pub use process::main;

use std::sync::Arc;

use crate::legacy::{HttpSessions, Initialize, LegacyService, Sessions, StdioSession};
use crate::options::{Options, Transport};
use crate::prompts::PromptTypes;
use crate::prompts::Prompts;
use crate::resources::ResourceTypes;
use crate::resources::Resources;
use crate::tools::{ToolTypes, Tools};

/// A generated module bound for the routers of [`Served`]: tools, prompts and resources
/// (implemented by [`bind_server!`](crate::bind_server)).
pub trait Routed: ToolTypes + PromptTypes + ResourceTypes {}

impl<S: ToolTypes + PromptTypes + ResourceTypes> Routed for S {}
use crate::changes::Changes;
use crate::{Config, Ctx, Service, work};

/// A server `T` (an implementation of the generated service trait) with what the transports
/// need besides its methods.
pub struct Served<S: Routed, T> {
    /// The server's methods.
    pub server: T,
    info: S::Implementation,
    capabilities: S::ServerCapabilities,
    /// Whether `capabilities` were declared ([`Served::capabilities`]) rather than inferred
    /// from the routers.
    declared: bool,
    instructions: Option<String>,
    versions: Vec<&'static str>,
    config: Arc<Config>,
    /// Whether `config` was set ([`Served::config`]) rather than the default.
    configured: bool,
    sessions: Sessions<S>,
    running: work::Running,
    tools: Option<Tools<S, Ctx<S>>>,
    prompts: Option<Prompts<S, Ctx<S>>>,
    resources: Option<Resources<S, Ctx<S>>>,
    /// The changes told to `subscriptions/listen` streams and legacy sessions
    /// ([`Served::changes`]); none: no listen is served.
    changes: Option<Arc<Changes>>,
    /// The logger its handlers' log messages name ([`Served::logger`]).
    logger: &'static str,
    /// The skills catalog served ([`Served::skills`]).
    #[cfg(feature = "skills")]
    skills: Option<SkillHooks<S>>,
    /// The task store served ([`Served::tasks`]).
    tasks: Option<Arc<dyn crate::tasks::serve::Hooks<S>>>,
    /// The methods of the extensions it serves.
    extension_methods: Vec<crate::Method>,
}

/// A catalog of skills as [`Served`] holds it, with its module's types.
#[cfg(feature = "skills")]
type SkillHooks<S> = crate::skills::serve::Hooks<
    <S as ResourceTypes>::Resource,
    <S as ResourceTypes>::ReadOutcome,
    <S as crate::LegacySchema>::ServerCapabilities,
>;

impl<S: Routed, T> Served<S, T> {
    /// `server`, named `info`, with [`Config::default`]'s bounds, speaking the generated
    /// module's revision. The capabilities it advertises (in `server/discover` and to legacy
    /// clients at `initialize`) follow from its routers (tools, prompts, resources) unless
    /// they are declared ([`Served::capabilities`]).
    pub fn new(server: T, info: S::Implementation) -> Self
    where
        S::ServerCapabilities: Default,
    {
        let config = Arc::new(Config::default());
        Served {
            server,
            info,
            capabilities: S::ServerCapabilities::default(),
            declared: false,
            instructions: None,
            versions: Vec::new(),
            sessions: Sessions::new(Arc::clone(&config)),
            config,
            configured: false,
            running: work::Running::default(),
            tools: None,
            prompts: None,
            resources: None,
            changes: None,
            logger: crate::ctx::DEFAULT_LOGGER,
            #[cfg(feature = "skills")]
            skills: None,
            tasks: None,
            extension_methods: Vec::new(),
        }
    }

    /// The same server with `config`'s bounds and switches. ([`run`] takes them from its
    /// options instead: a server given both is refused.)
    #[must_use]
    pub fn config(mut self, config: Config) -> Self {
        self.configured = true;
        self.config = Arc::new(config);
        self.sessions = Sessions::new(Arc::clone(&self.config));
        self
    }

    /// The same server with `config`, unless it has it already (its sessions, perhaps
    /// `Served::shared`, are then kept).
    fn configured(self, config: Config) -> Self {
        if self.configured && *self.config == config {
            self
        } else {
            self.config(config)
        }
    }

    /// The same server with its legacy sessions shared, through `redis`, by every instance
    /// that shares it (feature `redis`; [`Sessions::with_redis`]): behind a balancer without
    /// affinity, a 2025-11-25 client's requests may reach any instance. Its
    /// [`Served::changes`], if any, are shared too ([`Changes::share`]): a change one
    /// instance's handler sends reaches the listen streams and sessions of every instance.
    /// Call it after [`Served::config`], which starts a new session table. Fails when Redis
    /// cannot be reached now.
    #[cfg(feature = "redis")]
    pub async fn shared(
        mut self,
        redis: Arc<crate::redis::Redis>,
    ) -> Result<Self, crate::redis::Unavailable> {
        if let Some(changes) = &self.changes {
            changes.share(Arc::clone(&redis)).await?;
        }
        self.sessions = Sessions::with_redis(Arc::clone(&self.config), redis).await?;
        Ok(self)
    }

    /// The same server advertising `capabilities`, declared for what its own methods serve
    /// and its routers alike: [`Served::check`] refuses a router whose capability they leave
    /// out, so that the two never disagree silently.
    #[must_use]
    pub fn capabilities(mut self, capabilities: S::ServerCapabilities) -> Self {
        self.capabilities = capabilities;
        self.declared = true;
        self
    }

    /// The same server with `tools` answering `tools/list` and `tools/call` (its own methods
    /// for them are then not called); the `tools` capability is advertised unless the
    /// capabilities are declared.
    #[must_use]
    pub fn tools(mut self, tools: Tools<S, Ctx<S>>) -> Self {
        self.tools = Some(tools);
        self.infer(S::advertise_tools)
    }

    /// The capabilities with `advertise`'s added, unless they are declared.
    fn infer(mut self, advertise: fn(&mut S::ServerCapabilities) -> bool) -> Self {
        if !self.declared {
            advertise(&mut self.capabilities);
        }
        self
    }

    /// Whether the capabilities it advertises cover its routers: an error naming the first
    /// router whose capability declared capabilities leave out. [`router`], [`stdio_endpoint`]
    /// and [`run`] check it.
    pub fn check(&self) -> Result<(), Undeclared>
    where
        S::ServerCapabilities: Clone,
    {
        type Advertise<C> = fn(&mut C) -> bool;
        let routers: [(bool, &'static str, Advertise<S::ServerCapabilities>); 3] = [
            (self.tools.is_some(), "tools", S::advertise_tools),
            (self.prompts.is_some(), "prompts", S::advertise_prompts),
            (
                self.resources.is_some(),
                "resources",
                S::advertise_resources,
            ),
        ];
        let mut capabilities = self.capabilities.clone();
        for (present, capability, advertise) in routers {
            if present && !advertise(&mut capabilities) {
                return Err(Undeclared { capability });
            }
        }
        #[cfg(feature = "skills")]
        if let Some(skills) = &self.skills {
            if !S::advertise_resources(&mut self.capabilities.clone()) {
                return Err(Undeclared {
                    capability: "resources",
                });
            }
            if !skills.declared(&self.capabilities) {
                return Err(Undeclared {
                    capability: "extensions.io.modelcontextprotocol/skills",
                });
            }
        }
        if let Some(tasks) = &self.tasks
            && !tasks.declared(&self.capabilities)
        {
            return Err(Undeclared {
                capability: "extensions.io.modelcontextprotocol/tasks",
            });
        }
        Ok(())
    }

    /// Its tools, if it has a router of them.
    pub fn tool_router(&self) -> Option<&Tools<S, Ctx<S>>> {
        self.tools.as_ref()
    }

    /// The same server with `prompts` answering `prompts/list` and `prompts/get` (its own
    /// methods for them are then not called); the `prompts` capability is advertised unless
    /// the capabilities are declared.
    #[must_use]
    pub fn prompts(mut self, prompts: Prompts<S, Ctx<S>>) -> Self {
        self.prompts = Some(prompts);
        self.infer(S::advertise_prompts)
    }

    /// Its prompts, if it has a router of them.
    pub fn prompt_router(&self) -> Option<&Prompts<S, Ctx<S>>> {
        self.prompts.as_ref()
    }

    /// The same server with `resources` answering `resources/list`,
    /// `resources/templates/list` and `resources/read` (its own methods for them are then not
    /// called); the `resources` capability is advertised unless the capabilities are declared.
    #[must_use]
    pub fn resources(mut self, resources: Resources<S, Ctx<S>>) -> Self {
        self.resources = Some(resources);
        self.infer(S::advertise_resources)
    }

    /// Its resources, if it has a router of them.
    pub fn resource_router(&self) -> Option<&Resources<S, Ctx<S>>> {
        self.resources.as_ref()
    }

    /// The same server serving `subscriptions/listen` from `changes` ([`crate::listen`]):
    /// a stream is told of the changes its filter asks for and the declared capabilities
    /// offer (`tools.listChanged`, `prompts.listChanged`, `resources.listChanged`,
    /// `resources.subscribe`), at most [`Config::listen_queue`] of them waiting for a client
    /// that does not read; legacy sessions are told of them too. Keep a clone of `changes` to
    /// [`send`](Changes::send) what changes; [`start`] and [`run`] stop it at shutdown, which
    /// ends the streams. Without it, listen is answered "method not found" and
    /// `--listen-queue` is refused.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_server::changes::{Change, Changes};
    /// use mcp_tests::eras as mcp;
    ///
    /// mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
    /// mcp_server::bind_server!(Mcp = mcp);
    ///
    /// struct Quiet;
    /// impl mcp::Server<mcp_server::Ctx<Mcp>> for Quiet {}
    ///
    /// let changes = Arc::new(Changes::default());
    /// let tools = mcp::ServerCapabilitiesTools::new().with_list_changed(true);
    /// let served = mcp_server::Served::<Mcp, _>::new(Quiet, mcp::Implementation::new("quiet", "1.0.0"))
    ///     .capabilities(mcp::ServerCapabilities::new().with_tools(tools))
    ///     .changes(Arc::clone(&changes));
    /// assert!(served.changes_told().is_some());
    /// // A tool list change, told to every open listen stream that asked for it.
    /// changes.send(Change::Tools);
    /// ```
    #[must_use]
    pub fn changes(mut self, changes: Arc<Changes>) -> Self {
        self.changes = Some(changes);
        self
    }

    /// The changes it tells listen streams and legacy sessions, if any ([`Served::changes`]).
    pub fn changes_told(&self) -> Option<&Arc<Changes>> {
        self.changes.as_ref()
    }

    /// Opens the stream of the `subscriptions/listen` `request` ([`Service::listen`] of
    /// [`bind_server!`](crate::bind_server)): what it honours is what its filter asks and
    /// `offered` reads in the capabilities; its result names the server with `identity` (a
    /// `ResultMetaObject`). Without [`Served::changes`], "method not found".
    pub fn open_listen(
        &self,
        ctx: Ctx<S>,
        request: &S::ClientRequest,
        offered: impl FnOnce(&S::ServerCapabilities) -> crate::listen::Offered,
        identity: &impl serde::Serialize,
    ) -> Result<crate::listen::Messages, crate::Refused<S>> {
        use mcp_runtime::RpcError;
        let Some(changes) = &self.changes else {
            let message =
                "Method not found: this server serves no subscriptions/listen (Served::changes)";
            let code = mcp_runtime::error_code::METHOD_NOT_FOUND;
            return Err(ctx.fail(RpcError::new(code, message)));
        };
        let Some((id, asked)) = S::listen_filter(request) else {
            return Err(ctx.fail(RpcError::internal_error("not a subscriptions/listen")));
        };
        // A subscription to a resource the server does not read is not kept: no update is
        // ever sent for it.
        let offered = offered(&self.capabilities);
        let honoured = asked.honoured(&offered, |uri| self.follows_resource(uri));
        let stream =
            crate::listen::Stream::<S>::new(id.clone(), honoured, self.config.listen_queue);
        let stream = stream.identified(identity);
        match &self.tasks {
            Some(tasks) => tasks
                .open_listen(&ctx, request, stream, changes, id)
                .map_err(|e| ctx.fail(e)),
            None => Ok(stream.open(changes)),
        }
    }

    /// The same server serving `catalog` (feature `skills`; `S` bound by
    /// [`bind_skills!`](crate::bind_skills) too): the extension `io.modelcontextprotocol/skills`
    /// with `directoryRead` and the `resources` capability are advertised unless the
    /// capabilities are declared; a modern request of `skills/list` (a page of
    /// [`SKILLS_PER_PAGE`](crate::skills::serve::SKILLS_PER_PAGE)), `skills/get` or
    /// `resources/directory/read` is answered from the catalog (a legacy session, which is
    /// not told of the extension, cannot call them); and in both eras every skill file is
    /// listed by `resources/list` (after the resources router's, the server's own
    /// `list_resources` then not called) and read by `resources/read`.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let root = std::env::temp_dir().join(format!("mcp-server-served-skills-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(root.join("git-workflow"))?;
    /// # std::fs::write(root.join("git-workflow/SKILL.md"), "---\nname: git-workflow\ndescription: Branch and commit\n---\n")?;
    /// use std::sync::Arc;
    /// use mcp_runtime::extension::ExtensionCapabilities as _;
    /// use mcp_server::skills::Catalog;
    /// use mcp_tests::skills as mcp;
    ///
    /// mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
    /// mcp_server::bind_server!(Mcp = mcp);
    /// mcp_server::bind_skills!(Mcp = mcp);
    ///
    /// struct Library;
    /// impl mcp::Server<mcp_server::Ctx<Mcp>> for Library {}
    ///
    /// let info = mcp::Implementation::new("library", "1.0.0");
    /// let served = mcp_server::Served::<Mcp, _>::new(Library, info).skills(Catalog::load(&root)?);
    /// let (capabilities, _, _) = served.discovered(&[mcp::REVISION]);
    /// assert!(capabilities.declares::<mcp::SkillsExtension>());
    /// assert!(capabilities.resources.is_some());
    /// let _router = mcp_server::served::router(Arc::new(served))?;
    /// # std::fs::remove_dir_all(&root)?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "skills")]
    #[must_use]
    pub fn skills(mut self, catalog: impl Into<Arc<crate::skills::Catalog>>) -> Self
    where
        S: crate::skills::serve::SkillTypes<
                Resource = <S as ResourceTypes>::Resource,
                Capabilities = <S as crate::LegacySchema>::ServerCapabilities,
            >,
        <S as crate::skills::serve::SkillTypes>::ReadResult:
            Into<<S as ResourceTypes>::ReadOutcome>,
        <S as crate::LegacySchema>::ServerCapabilities:
            mcp_runtime::extension::ExtensionCapabilities,
    {
        let skills = crate::skills::serve::Hooks::of::<S>(catalog.into());
        self.extension_methods.extend_from_slice(skills.methods());
        self.skills = Some(skills);
        if !self.declared {
            S::declare(&mut self.capabilities);
        }
        self.infer(S::advertise_resources)
    }

    /// The same server serving the tasks extension from `tasks` (`S` bound by
    /// [`bind_tasks!`](crate::bind_tasks) too; [`crate::tasks::serve`]): the extension
    /// `io.modelcontextprotocol/tasks` is advertised unless the capabilities are declared;
    /// `tasks/get`, `tasks/update` and `tasks/cancel` are answered from its store (for a
    /// request that advertised the extension, about a task of its principal);
    /// `subscriptions/listen` is served (without [`Served::changes`], with changes nobody
    /// sends) and follows the status of the tasks a filter names; [`start`] applies the
    /// `--task-*` options to the store and shares it through `--store`. Keep a clone of
    /// `tasks` to create tasks ([`Tasks::create`](crate::tasks::serve::Tasks::create),
    /// [`Tools::add_task`](crate::tools::Tools::add_task)).
    ///
    /// ```
    /// use mcp_runtime::extension::Extension as _;
    /// use mcp_server::tasks::serve::Tasks;
    /// use mcp_tests::eras_tasks as mcp;
    ///
    /// mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
    /// mcp_server::bind_server!(Mcp = mcp);
    /// mcp_server::bind_tasks!(Mcp = mcp);
    ///
    /// struct Worked;
    /// impl mcp::Server<mcp_server::Ctx<Mcp>> for Worked {}
    ///
    /// let tasks = Tasks::<Mcp>::new();
    /// let info = mcp::Implementation::new("worked", "1.0.0");
    /// let served = mcp_server::Served::<Mcp, _>::new(Worked, info).tasks(tasks.clone());
    /// let (capabilities, _, _) = served.discovered(&[mcp::REVISION]);
    /// assert!(capabilities.extensions.unwrap().contains_key(mcp::TasksExtension::ID));
    /// assert_eq!(served.extension_methods().len(), 3);
    /// assert!(served.changes_told().is_some());
    /// ```
    #[must_use]
    pub fn tasks(mut self, tasks: crate::tasks::serve::Tasks<S>) -> Self
    where
        S: crate::tasks::serve::TaskTypes,
    {
        self.extension_methods.extend_from_slice(S::METHODS);
        self.tasks = Some(Arc::new(tasks));
        if !self.declared {
            S::declare(&mut self.capabilities);
        }
        if self.changes.is_none() {
            self.changes = Some(Arc::new(Changes::default()));
        }
        self
    }

    /// The methods of the extensions it serves (the skills extension's, with
    /// `Served::skills`; the tasks extension's, with [`Served::tasks`]);
    /// [`bind_server!`](crate::bind_server) makes them its [`Service::extension_methods`].
    pub fn extension_methods(&self) -> &[crate::Method] {
        &self.extension_methods
    }

    /// The answer (JSON text) to the request of `ctx` of an extension's `method`, one of
    /// [`Served::extension_methods`], of which `body` is the whole message: the tasks
    /// extension's answered from its store ([`Served::tasks`]), the others by
    /// [`Served::extension_answer`].
    pub async fn extension_reply(
        &self,
        ctx: &Ctx<S>,
        method: &str,
        body: &[u8],
    ) -> Result<String, mcp_runtime::RpcError> {
        match &self.tasks {
            Some(tasks) if tasks.serves(method) => tasks.answer(ctx, method, body).await,
            _ => self.extension_answer(method, body),
        }
    }

    /// The answer (JSON text) to a request of an extension's `method`, one of
    /// [`Served::extension_methods`], of which `body` is the whole message; `-32601` for
    /// another method.
    pub fn extension_answer(
        &self,
        method: &str,
        body: &[u8],
    ) -> Result<String, mcp_runtime::RpcError> {
        #[cfg(feature = "skills")]
        if let Some(skills) = &self.skills {
            return skills.answer(method, body);
        }
        let _ = body;
        Err(mcp_runtime::RpcError::method_not_found(method))
    }

    /// Every resource it lists besides its own methods': its resources router's, then its
    /// skill files (`Served::skills`); `None` when it has no skills (the router, or else its
    /// own `list_resources`, answers alone).
    pub fn listed_resources(&self) -> Option<Vec<<S as ResourceTypes>::Resource>> {
        #[cfg(feature = "skills")]
        if let Some(skills) = &self.skills {
            let routed = self.resources.iter().flat_map(|r| r.listed());
            return Some(routed.chain(skills.resources()).collect());
        }
        None
    }

    /// The read of the skill file at `uri` (`Served::skills`), if it serves one there.
    pub fn skill_read(&self, uri: &str) -> Option<<S as ResourceTypes>::ReadOutcome> {
        #[cfg(feature = "skills")]
        if let Some(skills) = &self.skills {
            return skills.read(uri);
        }
        let _ = uri;
        None
    }

    /// The same server naming `logger` in the log messages its handlers send
    /// (`notifications/message`'s `logger`; `mcp-server` by default).
    #[must_use]
    pub fn logger(mut self, logger: &'static str) -> Self {
        self.logger = logger;
        self
    }

    /// The logger its handlers' log messages name ([`Served::logger`]).
    pub fn logger_name(&self) -> &'static str {
        self.logger
    }

    /// The arguments of tool `tool` a client mirrors in `Mcp-Param-{Name}` headers: those its
    /// tool router read from the tool's input schema ([`Tools::mirrored_params`]).
    pub fn mirrored_params(&self, tool: &str) -> Vec<mcp_runtime::param_headers::ParamHeader> {
        self.tools
            .as_ref()
            .map(|tools| tools.mirrored_params(tool))
            .unwrap_or_default()
    }

    /// Whether a legacy session's `resources/subscribe` to `uri` is followed: with a resource
    /// router, only a URI it reads ([`Resources::serves`], within
    /// [`Config::max_uri_bytes`]), as no update is ever sent for another; without one, any.
    pub fn follows_resource(&self, uri: &str) -> bool {
        match &self.resources {
            Some(resources) => uri.len() <= self.config.max_uri_bytes && resources.serves(uri),
            None => true,
        }
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

    /// Who it says it is: the `Implementation` given to [`Served::new`], told to legacy
    /// clients at `initialize` (`serverInfo`) and written in the `_meta` of every modern result
    /// as the generated `ResultMetaObject`'s `serverInfo`
    /// (`io.modelcontextprotocol/serverInfo`, which 2026-07-28 asks servers to include on
    /// every response), unless that result's `_meta` already carries its own.
    pub fn identity(&self) -> &S::Implementation {
        &self.info
    }

    /// The count of its methods running now.
    pub fn running(&self) -> &work::Running {
        &self.running
    }
}

impl<S, T> Initialize<S> for Served<S, T>
where
    S: Routed<ServerCapabilities: Clone>,
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
    S: Routed<ServerCapabilities: Clone>,
    Served<S, T>: Service<S>,
{
    fn sessions(&self) -> &Sessions<S> {
        &self.sessions
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn changes(&self) -> Option<&Changes> {
        self.changes.as_deref()
    }
}

/// Declared capabilities ([`Served::capabilities`]) that leave out a router's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the declared capabilities leave out `{capability}`, which a router of the server serves: declare it, or let the routers' capabilities be inferred (no Served::capabilities)"
)]
pub struct Undeclared {
    /// The capability (`tools`, `prompts`, `resources`).
    pub capability: &'static str,
}

/// How long a client may cache a `server/discover` answered by [`Served`] (five minutes).
pub const DISCOVER_TTL_MS: u64 = 300_000;

pub use crate::result_meta::identified;

/// `served` at `/mcp` over Streamable HTTP, modern requests and legacy sessions alike.
/// An error if its capabilities are declared and leave out a router's ([`Served::check`]).
pub fn router<S, T>(served: Arc<Served<S, T>>) -> Result<axum::Router, Undeclared>
where
    S: Routed<ServerCapabilities: Clone>,
    Served<S, T>: Service<S>,
{
    served.check()?;
    let config = Arc::clone(&served.config);
    let legacy = Arc::new(HttpSessions(Arc::clone(&served)));
    Ok(crate::http::router(served, config, Some(legacy)))
}

/// `served` on one stdio connection, with the process's legacy session.
/// An error if its capabilities are declared and leave out a router's ([`Served::check`]).
pub fn stdio_endpoint<S, T>(
    served: Arc<Served<S, T>>,
) -> Result<crate::stdio::Endpoint<S, Served<S, T>>, Undeclared>
where
    S: Routed<ServerCapabilities: Clone>,
    Served<S, T>: Service<S>,
{
    served.check()?;
    let session = StdioSession::new(Arc::clone(&served));
    Ok(crate::stdio::Endpoint::new(served, Some(Box::new(session))))
}

/// Serves `served` as `options` say ([`Options::parse`](crate::options::Options::parse)):
/// Streamable HTTP until Ctrl-C or `SIGTERM`
/// ([`accept::shutdown_signal`](crate::accept::shutdown_signal)), or standard input and output
/// until the input ends, with every option applied ([`start`] says how); an option it cannot
/// apply stops the start instead of being ignored. The line "listening on http://…/mcp" goes
/// to standard error.
pub async fn run<S, T>(served: Served<S, T>, options: Options) -> std::io::Result<()>
where
    S: Routed<ServerCapabilities: Clone>,
    Served<S, T>: Service<S>,
{
    let started = start(served, options, crate::accept::shutdown_signal()).await?;
    started.serving.await
}

/// A server [`start`]ed: where it listens, and the serving to await.
pub struct Started {
    /// The address it listens at (`None` on stdio).
    pub address: Option<std::net::SocketAddr>,
    /// Serves until `shutdown` (HTTP) or the end of the input (stdio).
    pub serving: std::pin::Pin<Box<dyn Future<Output = std::io::Result<()>> + Send>>,
}

/// Starts serving `served` as `options` say, [`run`]'s first half: binds the address, then
/// applies every option given, or fails (`InvalidInput`, naming the option) before anything is
/// served:
///
/// - the bounds and switches: `options.config` is the server's configuration (refused if
///   [`Served::config`] set another: change `options.config` instead);
/// - `--auth-*`: the endpoint is a protected resource ([`Config::auth`]), its resource URI the
///   endpoint's URL unless `--auth-resource` names another; the JWKS is read now;
/// - `--store` (or `MCP_STORE`): the legacy sessions are shared through that Redis
///   (`Served::shared`, feature `redis`);
/// - sealing (`--seal-*`, or `MCP_SEAL_KEYS`): refused unless a sealer was made from these
///   options (`SealOptions::sealer`, feature `seal`), which the server's
///   handlers hold;
/// - the tasks' bounds (`--task-*`, `--max-tasks*`): the settings of its task store with
///   [`Served::tasks`] (shared through `--store` too), refused without;
/// - `--listen-queue`: the bound of its listen streams with [`Served::changes`], refused
///   without (no `subscriptions/listen` is served).
///
/// At `shutdown`, its [`Served::changes`] are stopped, which ends the listen streams.
///
/// Declared capabilities that leave out a router's ([`Served::check`]) are refused too.
pub async fn start<S, T>(
    served: Served<S, T>,
    options: Options,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<Started>
where
    S: Routed<ServerCapabilities: Clone>,
    Served<S, T>: Service<S>,
{
    refuse_unserved(&served, &options)?;
    let task_options = options.given_for(crate::options::Needs::Tasks).next();
    if let (Some(tasks), Some(flag)) = (&served.tasks, task_options) {
        let settings = tasks.set_settings(options.tasks);
        let settings = settings.map_err(|e| invalid(format!("{flag}: {e}")));
        settings?;
    }
    let stopped = served.changes.clone();
    let shutdown = async move {
        shutdown.await;
        if let Some(changes) = stopped {
            changes.stop();
        }
    };
    let Options {
        transport,
        mut config,
        auth,
        store,
        ..
    } = options;
    match transport {
        Transport::Stdio => {
            let served = Arc::new(served.configured(config));
            let config = Arc::clone(&served.config);
            let endpoint = stdio_endpoint(served).map_err(invalid)?;
            let serving = async move { crate::stdio::serve_stdio(endpoint, &config).await };
            Ok(Started {
                address: None,
                serving: Box::pin(serving),
            })
        }
        Transport::Listen(address) => {
            served.check().map_err(invalid)?;
            let listener = tokio::net::TcpListener::bind(address).await?;
            let local = listener.local_addr()?;
            if let Some(auth) = auth
                .auth(&format!("http://{local}/mcp"))
                .await
                .map_err(invalid)?
            {
                eprintln!(
                    "protected resource {}, metadata at {}",
                    auth.resource(),
                    auth.metadata_url()
                );
                config = config.auth(auth);
            }
            let served = share(served.configured(config), &store).await?;
            let config = Arc::clone(&served.config);
            let router = router(Arc::new(served)).map_err(invalid)?;
            eprintln!("listening on http://{local}/mcp");
            let serving = async move {
                crate::serve(listener, router, &config, shutdown).await;
                Ok(())
            };
            Ok(Started {
                address: Some(local),
                serving: Box::pin(serving),
            })
        }
    }
}

/// An `InvalidInput` error saying `why`.
fn invalid(why: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, why.to_string())
}

/// Refuses the options `served` would not apply: bounds of what it does not serve, sealing
/// options no sealer was made from, a store or a protected resource on stdio, and a
/// configuration set both ways.
fn refuse_unserved<S: Routed, T>(served: &Served<S, T>, options: &Options) -> std::io::Result<()> {
    use crate::options::Needs;
    let not_served = [
        (
            Needs::Tasks,
            "tasks (the tasks extension, no Served::tasks)",
            served.tasks.is_some(),
        ),
        (
            Needs::Listen,
            "subscriptions/listen (no Served::changes)",
            served.changes.is_some(),
        ),
    ];
    for (needs, what, _) in not_served.iter().filter(|(_, _, serves)| !serves) {
        if let Some(flag) = options.given_for(*needs).next() {
            return Err(invalid(format!(
                "{flag}: this server serves no {what}, so the option would be ignored"
            )));
        }
    }
    if served.configured && *served.config != options.config {
        return Err(invalid(
            "Served::config and the options both set the configuration: set options.config instead",
        ));
    }
    if options.transport == Transport::Stdio {
        if options.auth.is_on() {
            return Err(invalid(
                "--auth-issuer applies to --listen only: stdio carries no token",
            ));
        }
        let store = options.store.url().map_err(invalid)?;
        if store.is_some() {
            return Err(invalid(format!(
                "--store / {}: a store is shared by instances behind one HTTP address; stdio serves one client",
                crate::options::StoreOptions::URL_VAR
            )));
        }
    }
    #[cfg(feature = "seal")]
    {
        let seal = &options.seal;
        let given = options.given().iter().find(|f| f.starts_with("--seal-"));
        let named = match given {
            Some(flag) => Some(flag.as_str()),
            None if seal.keys_from_environment() => Some(crate::options::SealOptions::KEYS_VAR),
            None => None,
        };
        if let Some(named) = named
            && !seal.sealer_made()
        {
            return Err(invalid(format!(
                "{named}: no sealer was made from the options (SealOptions::sealer), so it would be ignored"
            )));
        }
    }
    Ok(())
}

/// `served` with its legacy sessions, changes and tasks in the store `store` names, if any
/// (feature `redis`).
#[cfg(feature = "redis")]
async fn share<S, T>(
    served: Served<S, T>,
    store: &crate::options::StoreOptions,
) -> std::io::Result<Served<S, T>>
where
    S: Routed,
{
    let Some(redis) = store.connect().await.map_err(invalid)? else {
        return Ok(served);
    };
    let mut shared = vec!["legacy sessions"];
    shared.extend(served.changes.as_ref().map(|_| "changes"));
    shared.extend(served.tasks.as_ref().map(|_| "tasks"));
    eprintln!(
        "sharing {} through Redis as instance {}",
        shared.join(", "),
        redis.instance()
    );
    if let Some(tasks) = &served.tasks {
        let shared = tasks.share(Arc::clone(&redis)).await;
        shared.map_err(|e| invalid(format!("--store: tasks: {e}")))?;
    }
    served
        .shared(redis)
        .await
        .map_err(|e| invalid(format!("--store: {e}")))
}

/// `served` as it is: without the `redis` feature, [`Options::parse`] refuses `--store`, and
/// `MCP_STORE` is refused here.
#[cfg(not(feature = "redis"))]
async fn share<S: Routed, T>(
    served: Served<S, T>,
    store: &crate::options::StoreOptions,
) -> std::io::Result<Served<S, T>> {
    store.url().map_err(invalid)?;
    Ok(served)
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
                // Every modern result names the server in its `_meta` (a SHOULD of 2026-07-28's
                // `ResultMetaObject`); a legacy session was told at `initialize`.
                let identity = m::ResultMetaObject::new()
                    .with_server_info(::core::clone::Clone::clone($crate::Served::identity(&*self)));
                let modern = ctx.era == ::mcp_runtime::era::Era::Modern;
                let answered = async {
                    // A call's params are moved to its tool, never copied: a large request's
                    // arguments exist once.
                    let request = match (self.tool_router(), request) {
                        (
                            ::core::option::Option::Some(tools),
                            m::ClientRequest::CallToolRequest(mut r),
                        ) => {
                            let left = m::CallToolRequestParams::new(
                                ::core::clone::Clone::clone(&r.params.meta),
                                ::core::clone::Clone::clone(&r.params.name),
                            );
                            let params = ::core::mem::replace(&mut r.params, ::std::boxed::Box::new(left));
                            let answer = tools.call(ctx, *params).await;
                            return ::mcp_runtime::service::answer::<m::CallToolRequest>(&r, answer)
                                .map_err(refused);
                        }
                        (_, request) => request,
                    };
                    if let ::core::option::Option::Some(tools) = self.tool_router() {
                        if let m::ClientRequest::ListToolsRequest(r) = &request {
                            let listed = tools.list().with_meta(::core::clone::Clone::clone(&identity));
                            let listed = ::core::result::Result::Ok(listed.into());
                            return ::mcp_runtime::service::answer::<m::ListToolsRequest>(r, listed)
                                .map_err(refused);
                        }
                    }
                    if let ::core::option::Option::Some(prompts) = self.prompt_router() {
                        match &request {
                            m::ClientRequest::GetPromptRequest(r) => {
                                let answer = prompts.get(ctx, &r.params).await;
                                return ::mcp_runtime::service::answer::<m::GetPromptRequest>(r, answer)
                                    .map_err(refused);
                            }
                            m::ClientRequest::ListPromptsRequest(r) => {
                                let listed = prompts.list().with_meta(::core::clone::Clone::clone(&identity));
                                let listed = ::core::result::Result::Ok(listed.into());
                                return ::mcp_runtime::service::answer::<m::ListPromptsRequest>(r, listed)
                                    .map_err(refused);
                            }
                            _ => {}
                        }
                    }
                    match &request {
                        m::ClientRequest::ReadResourceRequest(r) => {
                            if let ::core::option::Option::Some(read) = self.skill_read(&r.params.uri) {
                                let answer = ::core::result::Result::Ok(read);
                                return ::mcp_runtime::service::answer::<m::ReadResourceRequest>(r, answer)
                                    .map_err(refused);
                            }
                        }
                        m::ClientRequest::ListResourcesRequest(r) => {
                            if let ::core::option::Option::Some(listed) = self.listed_resources() {
                                let listed = <$name as $crate::resources::ResourceTypes>::list_result(listed)
                                    .with_meta(::core::clone::Clone::clone(&identity));
                                let listed = ::core::result::Result::Ok(listed.into());
                                return ::mcp_runtime::service::answer::<m::ListResourcesRequest>(r, listed)
                                    .map_err(refused);
                            }
                        }
                        _ => {}
                    }
                    if let ::core::option::Option::Some(resources) = self.resource_router() {
                        match &request {
                            m::ClientRequest::ReadResourceRequest(r) => {
                                let answer = resources.read_within(self.bounds().max_uri_bytes, ctx, &r.params).await;
                                return ::mcp_runtime::service::answer::<m::ReadResourceRequest>(r, answer)
                                    .map_err(refused);
                            }
                            m::ClientRequest::ListResourcesRequest(r) => {
                                let listed = resources.list().with_meta(::core::clone::Clone::clone(&identity));
                                let listed = ::core::result::Result::Ok(listed.into());
                                return ::mcp_runtime::service::answer::<m::ListResourcesRequest>(r, listed)
                                    .map_err(refused);
                            }
                            m::ClientRequest::ListResourceTemplatesRequest(r) => {
                                let listed = resources
                                    .list_templates()
                                    .with_meta(::core::clone::Clone::clone(&identity));
                                let listed = ::core::result::Result::Ok(listed.into());
                                return ::mcp_runtime::service::answer::<m::ListResourceTemplatesRequest>(
                                    r, listed,
                                )
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
                            )
                            .with_meta(::core::clone::Clone::clone(&identity));
                            if let ::core::option::Option::Some(text) = instructions {
                                result = result.with_instructions(text);
                            }
                            let answer = ::core::result::Result::Ok(::core::convert::Into::into(result));
                            ::mcp_runtime::service::answer(&r, answer).map_err(refused)
                        }
                        (answered, _) => answered.map_err(refused),
                    }
                }
                .await;
                match answered {
                    ::core::result::Result::Ok(text) if modern => {
                        ::core::result::Result::Ok($crate::served::identified(text, &identity))
                    }
                    answered => answered,
                }
            }

            fn versions(&self) -> &[&'static str] {
                self.versions_or(&[$($m)::+::REVISION])
            }

            fn listen(
                self: ::std::sync::Arc<Self>,
                ctx: $crate::Ctx<$name>,
                request: <$name as $crate::Schema>::ClientRequest,
            ) -> ::core::result::Result<$crate::listen::Messages, $crate::Refused<$name>> {
                use $($m)::+::{self as m};
                let identity = m::ResultMetaObject::new()
                    .with_server_info(::core::clone::Clone::clone($crate::Served::identity(&*self)));
                let offered = |c: &m::ServerCapabilities| {
                    let tools = c.tools.as_ref().and_then(|t| t.list_changed);
                    let prompts = c.prompts.as_ref().and_then(|p| p.list_changed);
                    let resources = c.resources.as_ref();
                    $crate::listen::Offered {
                        tools_list_changed: tools == ::core::option::Option::Some(true),
                        prompts_list_changed: prompts == ::core::option::Option::Some(true),
                        resources_list_changed: resources.and_then(|r| r.list_changed)
                            == ::core::option::Option::Some(true),
                        subscribe: resources.and_then(|r| r.subscribe)
                            == ::core::option::Option::Some(true),
                    }
                };
                self.open_listen(ctx, &request, offered, &identity)
            }

            fn running(&self) -> ::core::option::Option<&$crate::work::Running> {
                ::core::option::Option::Some($crate::Served::running(self))
            }

            fn mirrored_params(
                &self,
                tool: &str,
            ) -> ::std::vec::Vec<::mcp_runtime::param_headers::ParamHeader> {
                $crate::Served::mirrored_params(self, tool)
            }

            fn logger(&self) -> &'static str {
                $crate::Served::logger_name(self)
            }

            fn changes_resource(&self, uri: &str) -> bool {
                $crate::Served::follows_resource(self, uri)
            }

            fn extension_methods(&self) -> &[$crate::Method] {
                $crate::Served::extension_methods(self)
            }

            async fn extension(
                self: ::std::sync::Arc<Self>,
                ctx: $crate::Ctx<$name>,
                method: &str,
                body: &[u8],
            ) -> ::core::result::Result<::std::string::String, $crate::Refused<$name>> {
                use $($m)::+::{self as m};
                // Extension methods are modern only: the result names the server.
                let identity = m::ResultMetaObject::new()
                    .with_server_info(::core::clone::Clone::clone($crate::Served::identity(&*self)));
                match $crate::Served::extension_reply(&*self, &ctx, method, body).await {
                    ::core::result::Result::Ok(text) => {
                        ::core::result::Result::Ok($crate::served::identified(text, &identity))
                    }
                    ::core::result::Result::Err(error) => ::core::result::Result::Err(ctx.fail(error)),
                }
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

                fn advertise_tools(capabilities: &mut m::ServerCapabilities) -> bool {
                    let had = capabilities.tools.is_some();
                    capabilities.tools.get_or_insert_with(::core::default::Default::default);
                    had
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

            impl $crate::prompts::PromptTypes for $name {
                type Prompt = m::Prompt;
                type GetParams = m::GetPromptRequestParams;
                type GetOutcome = m::GetPromptOutcome;
                type ListResult = m::ListPromptsResult;

                fn prompt(
                    name: &str,
                    description: &str,
                    arguments: ::serde_json::Value,
                ) -> ::core::result::Result<m::Prompt, ::std::string::String> {
                    let prompt = ::serde_json::json!({
                        "name": name,
                        "description": description,
                        "arguments": arguments,
                    });
                    ::serde_json::from_value(prompt).map_err(|e| e.to_string())
                }

                fn prompt_name(params: &m::GetPromptRequestParams) -> &str {
                    &params.name
                }

                fn arguments(
                    params: &m::GetPromptRequestParams,
                ) -> ::serde_json::Map<::std::string::String, ::serde_json::Value> {
                    let given = params.arguments.iter().flatten();
                    given.map(|(k, v)| (k.clone(), ::serde_json::Value::String(v.clone()))).collect()
                }

                fn text_outcome(text: ::std::string::String) -> m::GetPromptOutcome {
                    let message = m::PromptMessage::new(m::TextContent::new(text), m::Role::User);
                    m::GetPromptResult::new(::std::vec![message]).into()
                }

                fn list_result(prompts: ::std::vec::Vec<m::Prompt>) -> m::ListPromptsResult {
                    m::ListPromptsResult::new(
                        m::CacheScope::Public,
                        prompts,
                        $crate::served::DISCOVER_TTL_MS,
                    )
                }

                fn advertise_prompts(capabilities: &mut m::ServerCapabilities) -> bool {
                    let had = capabilities.prompts.is_some();
                    capabilities.prompts.get_or_insert_with(::core::default::Default::default);
                    had
                }
            }

            impl $crate::prompts::PromptOutput<$name> for m::GetPromptResult {
                fn into_outcome(self) -> m::GetPromptOutcome {
                    self.into()
                }
            }

            impl $crate::prompts::PromptOutput<$name> for m::GetPromptOutcome {
                fn into_outcome(self) -> m::GetPromptOutcome {
                    self
                }
            }

            impl $crate::resources::ResourceTypes for $name {
                type Resource = m::Resource;
                type Template = m::ResourceTemplate;
                type ReadParams = m::ReadResourceRequestParams;
                type ReadOutcome = m::ReadResourceOutcome;
                type ListResult = m::ListResourcesResult;
                type TemplatesResult = m::ListResourceTemplatesResult;

                fn resource(
                    entry: &$crate::resources::Entry,
                ) -> ::core::result::Result<m::Resource, ::std::string::String> {
                    let resource = ::serde_json::json!({
                        "uri": entry.uri,
                        "name": entry.name,
                        "description": entry.description,
                        "mimeType": entry.mime_type,
                    });
                    ::serde_json::from_value(resource).map_err(|e| e.to_string())
                }

                fn template(
                    entry: &$crate::resources::Entry,
                ) -> ::core::result::Result<m::ResourceTemplate, ::std::string::String> {
                    let template = ::serde_json::json!({
                        "uriTemplate": entry.uri,
                        "name": entry.name,
                        "description": entry.description,
                        "mimeType": entry.mime_type,
                    });
                    ::serde_json::from_value(template).map_err(|e| e.to_string())
                }

                fn uri(params: &m::ReadResourceRequestParams) -> &str {
                    &params.uri
                }

                fn text_outcome(
                    uri: &str,
                    mime_type: ::core::option::Option<&str>,
                    text: ::std::string::String,
                ) -> m::ReadResourceOutcome {
                    let mut contents = m::TextResourceContents::new(text, uri);
                    contents.mime_type = mime_type.map(::std::borrow::ToOwned::to_owned);
                    // A text read of a function: private to its client, not cached
                    // (`ResourceOutput`).
                    let contents = ::std::vec![contents.into()];
                    m::ReadResourceResult::new(m::CacheScope::Private, contents, 0u64).into()
                }

                fn list_result(resources: ::std::vec::Vec<m::Resource>) -> m::ListResourcesResult {
                    m::ListResourcesResult::new(
                        m::CacheScope::Public,
                        resources,
                        $crate::served::DISCOVER_TTL_MS,
                    )
                }

                fn templates_result(
                    templates: ::std::vec::Vec<m::ResourceTemplate>,
                ) -> m::ListResourceTemplatesResult {
                    m::ListResourceTemplatesResult::new(
                        m::CacheScope::Public,
                        templates,
                        $crate::served::DISCOVER_TTL_MS,
                    )
                }

                fn advertise_resources(capabilities: &mut m::ServerCapabilities) -> bool {
                    let had = capabilities.resources.is_some();
                    capabilities.resources.get_or_insert_with(::core::default::Default::default);
                    had
                }
            }

            impl $crate::resources::ResourceOutput<$name> for m::ReadResourceResult {
                fn into_outcome(
                    self,
                    _uri: &str,
                    _mime_type: ::core::option::Option<&str>,
                ) -> m::ReadResourceOutcome {
                    self.into()
                }
            }

            impl $crate::resources::ResourceOutput<$name> for m::ReadResourceOutcome {
                fn into_outcome(
                    self,
                    _uri: &str,
                    _mime_type: ::core::option::Option<&str>,
                ) -> m::ReadResourceOutcome {
                    self
                }
            }
        };
    };
}

//! The tasks extension served: a [`Tasks`] handle holds the task store of a server; with it
//! [`Served::tasks`](crate::Served::tasks) answers `tasks/get`, `tasks/update` and
//! `tasks/cancel`, declares the extension, and follows task status on `subscriptions/listen`;
//! a handler answers a `tools/call` with a task through [`Tasks::create`], or the tools router
//! does it for a tool added with [`Tools::add_task`](crate::tools::Tools::add_task) or
//! [`Tools::add_optional_task`](crate::tools::Tools::add_optional_task).
//!
//! The generated types come in through [`TaskTypes`], implemented by
//! [`bind_tasks!`](crate::bind_tasks) for a module generated with
//! `Builder::extension("io.modelcontextprotocol/tasks")`. The store holds them wrapped in
//! [`Task`], so that the module may live in another crate than the binding.
//!
//! How requests are refused:
//!
//! - a request of the extension's methods, a listen filter naming task ids, or a task-only
//!   tool, from a request that did not advertise the extension: `-32021`
//!   (`MISSING_REQUIRED_CLIENT_CAPABILITY`), naming it;
//! - a task that is unknown, expired, or another principal's: `-32602`, the same message
//!   whichever it is;
//! - a shared store that cannot be reached: `-32603`, saying only that (the store's own error
//!   goes to standard error).

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock};

use mcp_runtime::RpcError;
use mcp_runtime::error_code::{INTERNAL_ERROR, INVALID_PARAMS};
use mcp_runtime::extension::{Advertised, Extension};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio::sync::broadcast;

use super::{
    Answers, BoxFuture, MemoryStore, NotCreated, Settings, Status, TaskError, TaskState, TaskStore,
    Unavailable, Update, Worker,
};
use crate::changes::Changes;
use crate::listen::{Filter, Follow, Followed, Messages, Stream};
use crate::tools::ToolTypes;
use crate::{Ctx, Method, Refused};

/// What serving tasks needs of a generated module generated with the tasks extension:
/// implemented by [`bind_tasks!`](crate::bind_tasks) with the module's own types and method
/// names. Its functions on `Detailed` are those of [`TaskState`], which [`Task`] implements
/// through them.
pub trait TaskTypes: ToolTypes + Sized {
    /// A task with what its status carries (`DetailedTask`).
    type Detailed: Clone + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// One input request (`InputRequest`).
    type InputRequest: Clone + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// One answer to an input request (`InputResponse`).
    type InputResponse: Clone + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// How a task's work ends: the tool's result, or the JSON-RPC error
    /// (`Result<CallToolResult, Error>`).
    type Outcome: Send + 'static;
    /// The extension (`TasksExtension`).
    type Extension: Extension;

    /// The extension's methods (from the generated requests' `METHOD`), each with `taskId`
    /// mirrored in its `Mcp-Name` header.
    const METHODS: &'static [Method];

    /// The proof that the request of `meta` advertised the extension, if it did.
    fn advertised(meta: &Self::RequestMeta) -> Option<Advertised<Self::Extension>>;
    /// The answer (JSON text) to the request of `method` (one of [`TaskTypes::METHODS`]),
    /// whole message `message`, asked by `principal`, from `tasks`' store.
    fn answer<'a>(
        tasks: &'a Tasks<Self>,
        principal: &'a str,
        method: &'a str,
        body: &'a [u8],
    ) -> BoxFuture<'a, Result<String, RpcError>>;
    /// The answer of a `tools/call` that created `task` (a `CreateTaskResult`), granted with
    /// `proof`.
    fn created(proof: &Advertised<Self::Extension>, task: &Self::Detailed) -> Self::CallOutcome;
    /// The answer of a `tools/call` whose work ran within the request and ended `outcome`.
    fn inline(outcome: Self::Outcome) -> Result<Self::CallOutcome, RpcError>;
    /// Declares the extension in `capabilities`.
    fn declare(capabilities: &mut Self::ServerCapabilities);
    /// Whether `capabilities` declare the extension.
    fn declared(capabilities: &Self::ServerCapabilities) -> bool;
    /// The task ids the filter of the `subscriptions/listen` `request` names (`None`: it
    /// names no `taskIds` member).
    fn listened(request: &Self::ClientRequest) -> Option<Vec<String>>;
    /// The members an acknowledgement adds for the `followed` task ids (`taskIds`).
    fn acknowledged(followed: Vec<String>) -> Map<String, Value>;
    /// `task` as the status notification (JSON text) of subscription `subscription`.
    fn notification(subscription: &Self::RequestId, task: &Self::Detailed) -> Option<String>;

    /// A new task, as [`TaskState::working`].
    fn working(id: &str, now: &str, ttl_ms: i64, poll_interval_ms: u64) -> Self::Detailed;
    /// Its id.
    fn task_id(task: &Self::Detailed) -> &str;
    /// As [`TaskState::status`].
    fn status(task: &Self::Detailed) -> Status;
    /// As [`TaskState::set_status`].
    fn set_status(task: &mut Self::Detailed, status: Status, message: String);
    /// As [`TaskState::input_requests`].
    fn input_requests(
        task: &mut Self::Detailed,
    ) -> &mut Option<BTreeMap<String, Self::InputRequest>>;
    /// As [`TaskState::set_outcome`].
    fn set_outcome(task: &mut Self::Detailed, outcome: Self::Outcome);
    /// As [`TaskState::set_failed`]: failed, carrying an internal error saying `message`.
    fn set_failed(task: &mut Self::Detailed, message: String);
    /// As [`TaskState::set_last_updated`].
    fn set_last_updated(task: &mut Self::Detailed, now: String);
}

/// A task of the module bound as `S` as its store holds it: the generated `DetailedTask`
/// (`.0`, or through `Deref`).
pub struct Task<S: TaskTypes>(pub S::Detailed);

impl<S: TaskTypes> Clone for Task<S> {
    fn clone(&self) -> Self {
        Task(self.0.clone())
    }
}

impl<S: TaskTypes> std::fmt::Debug for Task<S>
where
    S::Detailed: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<S: TaskTypes> std::ops::Deref for Task<S> {
    type Target = S::Detailed;
    fn deref(&self) -> &S::Detailed {
        &self.0
    }
}

impl<S: TaskTypes> Serialize for Task<S> {
    fn serialize<Z: serde::Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de, S: TaskTypes> Deserialize<'de> for Task<S> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        S::Detailed::deserialize(deserializer).map(Task)
    }
}

impl<S: TaskTypes> TaskState for Task<S> {
    type InputRequest = S::InputRequest;
    type InputResponse = S::InputResponse;
    type Outcome = S::Outcome;

    fn working(id: &str, now: &str, ttl_ms: i64, poll_interval_ms: u64) -> Self {
        Task(S::working(id, now, ttl_ms, poll_interval_ms))
    }
    fn status(&self) -> Status {
        S::status(&self.0)
    }
    fn set_status(&mut self, status: Status, message: String) {
        S::set_status(&mut self.0, status, message);
    }
    fn input_requests(&mut self) -> &mut Option<BTreeMap<String, S::InputRequest>> {
        S::input_requests(&mut self.0)
    }
    fn set_outcome(&mut self, outcome: S::Outcome) {
        S::set_outcome(&mut self.0, outcome);
    }
    fn set_failed(&mut self, message: String) {
        S::set_failed(&mut self.0, message);
    }
    fn set_last_updated(&mut self, now: String) {
        S::set_last_updated(&mut self.0, now);
    }
}

/// What the work of a task of the module bound as `S` holds: [`Worker::ask`] asks its client
/// for input (the task is `input_required` until `tasks/update` answers every request).
pub type TaskWorker<S> = Worker<Task<S>>;

/// Where the tasks of the module bound as `S` live.
pub type Store<S> = dyn TaskStore<Task<S>>;

/// The proof that the request being answered advertised the tasks extension.
pub type Proof<S> = Advertised<<S as TaskTypes>::Extension>;

/// The task store of a server, cheap to clone (every clone is the same store): handed to
/// [`Served::tasks`](crate::Served::tasks) and to what creates tasks (a handler calling
/// [`Tasks::create`], a tool added with
/// [`Tools::add_task`](crate::tools::Tools::add_task)).
///
/// The store is chosen at the first use: the one given to [`Tasks::use_store`]; else, when
/// [`served::start`](crate::served::start) runs with `--store`, the Redis store every
/// instance shares; else a bounded in-memory store. Until then its [`Settings`] may change
/// (`start` applies the `--task-*` options).
///
/// ```
/// use mcp_server::tasks::Settings;
/// use mcp_server::tasks::serve::Tasks;
/// use mcp_tests::eras_tasks as mcp;
///
/// mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
/// mcp_server::bind_server!(Mcp = mcp);
/// mcp_server::bind_tasks!(Mcp = mcp);
///
/// let settings = Settings { max_per_principal: 10, ..Settings::default() };
/// let tasks = Tasks::<Mcp>::with_settings(settings);
/// assert_eq!(tasks.settings().max_per_principal, 10);
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// // Opened at its first use: in memory here.
/// assert!(tasks.store().is_empty());
/// # });
/// ```
pub struct Tasks<S: TaskTypes> {
    inner: Arc<Inner<S>>,
}

struct Inner<S: TaskTypes> {
    settings: Mutex<Settings>,
    store: OnceLock<Arc<Store<S>>>,
}

impl<S: TaskTypes> Clone for Tasks<S> {
    fn clone(&self) -> Self {
        Tasks {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<S: TaskTypes> Default for Tasks<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: TaskTypes> std::fmt::Debug for Tasks<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tasks")
            .field("settings", &self.settings())
            .field("open", &self.inner.store.get().is_some())
            .finish()
    }
}

/// The task store was opened already: its settings and kind can no longer change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the task store is already open: choose it and its settings before its first use")]
pub struct AlreadyOpen;

impl<S: TaskTypes> Tasks<S> {
    /// A store with the default [`Settings`], not yet open.
    pub fn new() -> Self {
        Self::with_settings(Settings::default())
    }

    /// A store with `settings`, not yet open.
    pub fn with_settings(settings: Settings) -> Self {
        Tasks {
            inner: Arc::new(Inner {
                settings: Mutex::new(settings),
                store: OnceLock::new(),
            }),
        }
    }

    /// Its settings.
    pub fn settings(&self) -> Settings {
        *self
            .inner
            .settings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Sets its settings, unless it is open.
    pub fn set_settings(&self, settings: Settings) -> Result<(), AlreadyOpen> {
        if self.inner.store.get().is_some() {
            return Err(AlreadyOpen);
        }
        *self
            .inner
            .settings
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = settings;
        Ok(())
    }

    /// Keeps its tasks in `store` (made with [`Tasks::settings`]), unless it is open.
    pub fn use_store(&self, store: Arc<Store<S>>) -> Result<(), AlreadyOpen> {
        self.inner.store.set(store).map_err(|_| AlreadyOpen)
    }

    /// Keeps its tasks in the Redis store shared through `redis` by every instance
    /// connected to it (feature `redis`), unless it is open; fails when Redis cannot be
    /// reached now.
    #[cfg(feature = "redis")]
    pub async fn share(&self, redis: Arc<crate::redis::Redis>) -> Result<(), SharedNot> {
        if self.inner.store.get().is_some() {
            return Err(SharedNot::AlreadyOpen(AlreadyOpen));
        }
        let store = super::RedisStore::<Task<S>>::start(redis, self.settings())
            .await
            .map_err(|e| SharedNot::Unavailable(e.into()))?;
        self.use_store(store).map_err(SharedNot::AlreadyOpen)
    }

    /// The store, opened now in memory with its settings if it was not open (in the current
    /// Tokio runtime, where its sweeper runs).
    pub fn store(&self) -> Arc<Store<S>> {
        let store = self
            .inner
            .store
            .get_or_init(|| MemoryStore::<Task<S>>::start(self.settings()));
        Arc::clone(store)
    }

    /// The proof that the request of `ctx` advertised the extension, if it did.
    pub fn advertised(ctx: &Ctx<S>) -> Option<Proof<S>> {
        S::advertised(&ctx.meta)
    }

    /// The proof that the request of `ctx` advertised the extension, or the refusal of a tool
    /// that only runs as a task: `MISSING_REQUIRED_CLIENT_CAPABILITY`, naming the extension.
    pub fn required(ctx: &Ctx<S>) -> Result<Proof<S>, RpcError> {
        Self::advertised(ctx).ok_or_else(RpcError::missing_extension::<S::Extension>)
    }

    /// Answers the `tools/call` of `ctx` with a task (a `CreateTaskResult`, through `proof`)
    /// owned by the request's principal, whose work `work` then runs in the background (in
    /// the current Tokio runtime) with the task's [`TaskWorker`], and ends it with its
    /// outcome. Refused with `-32603` without randomness for the id or when the store is
    /// unavailable, and with the bound-reached error
    /// ([`bound_reached`](crate::bound_reached)) when the principal or the store holds as
    /// many tasks as it may.
    ///
    /// ```
    /// use mcp_runtime::Response;
    /// use mcp_server::tasks::serve::{Tasks, TaskWorker};
    /// use mcp_server::Ctx;
    /// use mcp_tests::eras_tasks as mcp;
    ///
    /// mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
    /// mcp_server::bind_server!(Mcp = mcp);
    /// mcp_server::bind_tasks!(Mcp = mcp);
    ///
    /// struct Slow {
    ///     tasks: Tasks<Mcp>,
    /// }
    ///
    /// impl mcp::Server<Ctx<Mcp>> for Slow {
    ///     async fn call_tool(
    ///         &self,
    ///         ctx: Ctx<Mcp>,
    ///         _params: &mcp::CallToolRequestParams,
    ///     ) -> Response<mcp::CallToolRequest> {
    ///         let work = |_worker: TaskWorker<Mcp>| async {
    ///             let text = mcp::TextContent::new("done");
    ///             Ok(mcp::CallToolResult::new(vec![text.into()]))
    ///         };
    ///         // No task for a client that cannot take one: it is refused.
    ///         let proof = Tasks::required(&ctx)?;
    ///         self.tasks.create(&ctx, &proof, work).await
    ///     }
    /// }
    ///
    /// let tasks = Tasks::<Mcp>::new();
    /// let server = Slow { tasks: tasks.clone() };
    /// let info = mcp::Implementation::new("slow", "1.0.0");
    /// let capabilities = mcp::ServerCapabilities::new().with_tools(mcp::ServerCapabilitiesTools::new());
    /// let served = mcp_server::Served::<Mcp, _>::new(server, info)
    ///     .capabilities(capabilities)
    ///     .tasks(tasks);
    /// # let _ = served;
    /// ```
    pub async fn create<F, W>(
        &self,
        ctx: &Ctx<S>,
        proof: &Proof<S>,
        work: F,
    ) -> Result<S::CallOutcome, RpcError>
    where
        F: FnOnce(TaskWorker<S>) -> W,
        W: Future<Output = S::Outcome> + Send + 'static,
    {
        let task = super::create(self.store(), &ctx.principal, work)
            .await
            .map_err(|e| match e {
                NotCreated::NoId(_) => RpcError::new(INTERNAL_ERROR, e.to_string()),
                NotCreated::PrincipalFull(_) | NotCreated::ServerFull(_) => {
                    crate::bound_reached(e.to_string())
                }
                NotCreated::Unavailable(e) => unavailable(&e),
            })?;
        Ok(S::created(proof, &task.0))
    }

    /// The answer (JSON text) to the request of the extension's `method` (one of
    /// [`TaskTypes::METHODS`]) of `ctx`, of which `body` is the whole message: refused unless
    /// the request advertised the extension. In a `tasks/update`, the answers to keys the
    /// task does not wait on are dropped before the message is read, whatever they hold.
    pub async fn answer(
        &self,
        ctx: &Ctx<S>,
        method: &str,
        body: &[u8],
    ) -> Result<String, RpcError> {
        Self::required(ctx)?;
        S::answer(self, &ctx.principal, method, body).await
    }

    /// Drops from `message` (a `tasks/update` of `principal`) the answers to keys its task
    /// does not wait on; an unknown task is left to be refused once the message is read.
    pub async fn ignore_unasked(
        &self,
        principal: &str,
        message: &mut Value,
    ) -> Result<(), RpcError> {
        let Some(params) = message.get_mut("params").and_then(Value::as_object_mut) else {
            return Ok(());
        };
        // Only the id is read here (the params, answers included, are not copied to read it).
        let Some(task_id) = params
            .get("taskId")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            return Ok(());
        };
        let outstanding = match self.store().outstanding(principal, &task_id).await {
            Ok(outstanding) => outstanding,
            Err(TaskError::NotFound) => return Ok(()),
            Err(TaskError::Unavailable(e)) => return Err(unavailable(&e)),
        };
        if let Some(Value::Object(responses)) = params.get_mut("inputResponses") {
            responses.retain(|key, _| outstanding.contains(key));
        }
        Ok(())
    }

    /// Task `id` of `principal`, as it stands.
    pub async fn get(&self, principal: &str, id: &str) -> Result<Task<S>, RpcError> {
        self.store().get(principal, id).await.map_err(refused)
    }

    /// Gives task `id` of `principal` the `answers` to its outstanding input requests.
    pub async fn update(
        &self,
        principal: &str,
        id: &str,
        answers: Answers<Task<S>>,
    ) -> Result<(), RpcError> {
        self.store()
            .update(principal, id, answers)
            .await
            .map_err(refused)
    }

    /// Cancels task `id` of `principal`, unless it already ended.
    pub async fn cancel(&self, principal: &str, id: &str) -> Result<(), RpcError> {
        self.store().cancel(principal, id).await.map_err(refused)
    }

    /// Opens `stream`, the `subscriptions/listen` `request` of `ctx`, on `changes` and the
    /// status of the tasks its filter names (the principal's own live ones; those the
    /// acknowledgement lists). Refused when the filter names task ids and the request did not
    /// advertise the extension.
    pub fn open_listen(
        &self,
        ctx: &Ctx<S>,
        request: &S::ClientRequest,
        stream: Stream<S>,
        changes: &Changes,
        subscription: S::RequestId,
    ) -> Result<Messages, RpcError> {
        let Some(task_ids) = S::listened(request) else {
            return Ok(stream.open(changes));
        };
        if !task_ids.is_empty() {
            Self::required(ctx)?;
        }
        let store = self.store();
        // Subscribed before the tasks are looked up: a change made meanwhile is heard.
        let follow = FollowedTasks::<S> {
            updates: store.subscribe(),
            store,
            principal: ctx.principal.clone(),
            subscription,
            task_ids,
            followed: Vec::new(),
        };
        Ok(stream.open_following(changes, follow))
    }
}

/// Tools that run as tasks, added to a [`Tools`](crate::tools::Tools) router of a server's
/// [`Ctx`]. Their arguments are read (and a tool error answered when they do not fit) before
/// any task is created.
impl<S> crate::tools::Tools<S, Ctx<S>>
where
    S: TaskTypes,
    S::CallOutcome: crate::tools::ToolOutput<S>,
{
    /// Adds the tool `name` that only runs as a task of `tasks`: a call whose request
    /// advertised the extension is answered with the task, whose work is `function` of the
    /// arguments (an `A`, as [`Tools::add`](crate::tools::Tools::add) reads them) and the
    /// task's [`TaskWorker`] (to ask for input through the task); a call without the extension
    /// is refused with `-32021` naming it.
    ///
    /// ```
    /// use mcp_server::tasks::serve::{Tasks, TaskWorker};
    /// use mcp_server::tools::Tools;
    /// use mcp_tests::eras_tasks as mcp;
    ///
    /// mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
    /// mcp_server::bind_server!(Mcp = mcp);
    /// mcp_server::bind_tasks!(Mcp = mcp);
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Delete {
    ///     filename: String,
    /// }
    ///
    /// let tasks = Tasks::<Mcp>::new();
    /// let tools = Tools::<Mcp, mcp_server::Ctx<Mcp>>::new().add_task(
    ///     "confirm_delete",
    ///     "Deletes a file once the user confirms",
    ///     &tasks,
    ///     |args: Delete, worker: TaskWorker<Mcp>| async move {
    ///         let form = mcp::ElicitRequestFormParams::new(
    ///             format!("Delete {}?", args.filename),
    ///             mcp::ElicitRequestFormParamsRequestedSchema::new(std::collections::BTreeMap::new()),
    ///         );
    ///         let ask = mcp::ElicitRequest::new(form);
    ///         let asked = [("confirm".to_owned(), mcp::InputRequest::ElicitRequest(ask))].into();
    ///         let answers = worker.ask(asked, "Waiting for the confirmation").await;
    ///         let verdict = if answers.is_some() { "Deleted" } else { "Kept" };
    ///         let text = mcp::TextContent::new(format!("{verdict} {}", args.filename));
    ///         Ok(mcp::CallToolResult::new(vec![text.into()]))
    ///     },
    /// )?;
    /// let served = mcp_server::Served::<Mcp, _>::new(Quiet, mcp::Implementation::new("files", "1.0.0"))
    ///     .tools(tools)
    ///     .tasks(tasks);
    /// # struct Quiet;
    /// # impl mcp::Server<mcp_server::Ctx<Mcp>> for Quiet {}
    /// # let _ = served;
    /// # Ok::<(), mcp_server::tools::ToolError>(())
    /// ```
    pub fn add_task<A, F, W>(
        self,
        name: &str,
        description: &str,
        tasks: &Tasks<S>,
        function: F,
    ) -> Result<Self, crate::tools::ToolError>
    where
        A: DeserializeOwned + schemars::JsonSchema + Send + 'static,
        F: Fn(A, TaskWorker<S>) -> W + Send + Sync + 'static,
        W: Future<Output = S::Outcome> + Send + 'static,
    {
        let function = Arc::new(function);
        self.add_tasked(name, description, tasks, move |tasks, ctx, args: A| {
            let function = Arc::clone(&function);
            async move {
                let proof = Tasks::required(&ctx)?;
                tasks
                    .create(&ctx, &proof, move |worker| function(args, worker))
                    .await
            }
        })
    }

    /// Adds the tool `name` whose work, `function` of the arguments, runs as a task of
    /// `tasks` for a request that advertised the extension (answered with the task), and
    /// within the request otherwise (answered with its result, or its error). It asks no input
    /// through a task: it may run without one.
    ///
    /// ```
    /// use mcp_server::tasks::serve::Tasks;
    /// use mcp_server::tools::Tools;
    /// use mcp_tests::eras_tasks as mcp;
    ///
    /// mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
    /// mcp_server::bind_server!(Mcp = mcp);
    /// mcp_server::bind_tasks!(Mcp = mcp);
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Compute {
    ///     seconds: f64,
    /// }
    ///
    /// let tasks = Tasks::<Mcp>::new();
    /// let tools = Tools::<Mcp, mcp_server::Ctx<Mcp>>::new().add_optional_task(
    ///     "slow_compute",
    ///     "Waits, then answers",
    ///     &tasks,
    ///     |args: Compute| async move {
    ///         tokio::time::sleep(std::time::Duration::from_secs_f64(args.seconds)).await;
    ///         let text = mcp::TextContent::new(format!("computed after {} s", args.seconds));
    ///         Ok(mcp::CallToolResult::new(vec![text.into()]))
    ///     },
    /// )?;
    /// # let _ = tools;
    /// # Ok::<(), mcp_server::tools::ToolError>(())
    /// ```
    pub fn add_optional_task<A, F, W>(
        self,
        name: &str,
        description: &str,
        tasks: &Tasks<S>,
        function: F,
    ) -> Result<Self, crate::tools::ToolError>
    where
        A: DeserializeOwned + schemars::JsonSchema + Send + 'static,
        F: Fn(A) -> W + Send + Sync + 'static,
        W: Future<Output = S::Outcome> + Send + 'static,
    {
        let function = Arc::new(function);
        self.add_tasked(name, description, tasks, move |tasks, ctx, args: A| {
            let function = Arc::clone(&function);
            async move {
                match Tasks::advertised(&ctx) {
                    Some(proof) => tasks.create(&ctx, &proof, move |_| function(args)).await,
                    None => S::inline(function(args).await),
                }
            }
        })
    }

    /// Adds the tool `name` answered by `answer`, handed `tasks`, the request's context and
    /// the arguments read.
    fn add_tasked<A, H, Fut>(
        self,
        name: &str,
        description: &str,
        tasks: &Tasks<S>,
        answer: H,
    ) -> Result<Self, crate::tools::ToolError>
    where
        A: DeserializeOwned + schemars::JsonSchema + Send + 'static,
        H: Fn(Tasks<S>, Ctx<S>, A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<S::CallOutcome, RpcError>> + Send + 'static,
    {
        let tasks = tasks.clone();
        self.add(
            name,
            description,
            move |call: crate::tools::Call<S, Ctx<S>, A>| {
                answer(tasks.clone(), call.ctx, call.args)
            },
        )
    }
}

/// Why [`Tasks::share`] did not share the store.
#[cfg(feature = "redis")]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SharedNot {
    /// It is open already.
    #[error(transparent)]
    AlreadyOpen(AlreadyOpen),
    /// Redis cannot be reached.
    #[error(transparent)]
    Unavailable(Unavailable),
}

/// The status of the tasks a listen stream follows.
struct FollowedTasks<S: TaskTypes> {
    store: Arc<Store<S>>,
    principal: String,
    subscription: S::RequestId,
    task_ids: Vec<String>,
    followed: Vec<String>,
    updates: broadcast::Receiver<Update<Task<S>>>,
}

impl<S: TaskTypes> Follow for FollowedTasks<S> {
    async fn start(&mut self, honoured: &mut Filter) -> Result<(), String> {
        if !self.task_ids.is_empty() {
            self.followed = match self.store.known(&self.principal, &self.task_ids).await {
                Ok(followed) => followed,
                Err(e) => {
                    let error = unavailable(&e);
                    return Err(Refused::<S>::new(Some(&self.subscription), error).text());
                }
            };
        }
        honoured
            .extensions
            .extend(S::acknowledged(self.followed.clone()));
        Ok(())
    }

    async fn next(&mut self) -> Followed {
        match self.updates.recv().await {
            Ok(u)
                if u.principal == self.principal
                    && self.followed.iter().any(|id| id == S::task_id(&u.task.0)) =>
            {
                S::notification(&self.subscription, &u.task.0)
                    .map_or(Followed::Skip, Followed::Note)
            }
            Ok(_) => Followed::Skip,
            Err(broadcast::error::RecvError::Lagged(n)) => Followed::Missed(n),
            Err(broadcast::error::RecvError::Closed) => Followed::Ended,
        }
    }
}

/// `-32602` for params that are not the method's.
pub fn bad_params(error: impl std::fmt::Display) -> RpcError {
    RpcError::new(INVALID_PARAMS, format!("Invalid params: {error}"))
}

/// The error of a request that needed the store while it was unavailable: it says only that;
/// why (`e`) goes to standard error.
pub fn unavailable(e: &Unavailable) -> RpcError {
    eprintln!("mcp-server: {e}");
    RpcError::new(
        INTERNAL_ERROR,
        "Internal error: the task store is unavailable; try again",
    )
}

/// The error of a request about a task that failed `e`.
pub fn refused(e: TaskError) -> RpcError {
    match e {
        TaskError::NotFound => RpcError::new(
            INVALID_PARAMS,
            "Task not found: the id is unknown, its ttlMs has elapsed, or it is not yours",
        ),
        TaskError::Unavailable(e) => unavailable(&e),
    }
}

/// `value` as the JSON object a task inlines (a result, an error); empty if it is none.
pub fn object<T: Serialize, O: DeserializeOwned + Default>(value: &T) -> O {
    serde_json::to_value(value)
        .and_then(serde_json::from_value)
        .unwrap_or_default()
}

/// A task as [`Served`](crate::Served) holds it, the module's types hidden.
pub(crate) trait Hooks<S: crate::LegacySchema>: Send + Sync {
    /// The extension's methods.
    fn methods(&self) -> &'static [Method];
    /// Whether `method` is one of them.
    fn serves(&self, method: &str) -> bool {
        self.methods().iter().any(|(m, _)| *m == method)
    }
    /// [`Tasks::answer`].
    fn answer<'a>(
        &'a self,
        ctx: &'a Ctx<S>,
        method: &'a str,
        body: &'a [u8],
    ) -> BoxFuture<'a, Result<String, RpcError>>;
    /// Whether `capabilities` declare the extension.
    fn declared(&self, capabilities: &S::ServerCapabilities) -> bool;
    /// [`Tasks::set_settings`].
    fn set_settings(&self, settings: Settings) -> Result<(), AlreadyOpen>;
    /// [`Tasks::share`].
    #[cfg(feature = "redis")]
    fn share(&self, redis: Arc<crate::redis::Redis>) -> BoxFuture<'_, Result<(), SharedNot>>;
    /// [`Tasks::open_listen`].
    fn open_listen(
        &self,
        ctx: &Ctx<S>,
        request: &S::ClientRequest,
        stream: Stream<S>,
        changes: &Changes,
        subscription: S::RequestId,
    ) -> Result<Messages, RpcError>;
}

impl<S: TaskTypes> Hooks<S> for Tasks<S> {
    fn methods(&self) -> &'static [Method] {
        S::METHODS
    }

    fn answer<'a>(
        &'a self,
        ctx: &'a Ctx<S>,
        method: &'a str,
        body: &'a [u8],
    ) -> BoxFuture<'a, Result<String, RpcError>> {
        Box::pin(Tasks::answer(self, ctx, method, body))
    }

    fn declared(&self, capabilities: &S::ServerCapabilities) -> bool {
        S::declared(capabilities)
    }

    fn set_settings(&self, settings: Settings) -> Result<(), AlreadyOpen> {
        Tasks::set_settings(self, settings)
    }

    #[cfg(feature = "redis")]
    fn share(&self, redis: Arc<crate::redis::Redis>) -> BoxFuture<'_, Result<(), SharedNot>> {
        Box::pin(Tasks::share(self, redis))
    }

    fn open_listen(
        &self,
        ctx: &Ctx<S>,
        request: &S::ClientRequest,
        stream: Stream<S>,
        changes: &Changes,
        subscription: S::RequestId,
    ) -> Result<Messages, RpcError> {
        Tasks::open_listen(self, ctx, request, stream, changes, subscription)
    }
}

/// Implements [`TaskTypes`](crate::tasks::serve::TaskTypes) for the marker `$name` (bound by
/// [`bind!`](crate::bind) and [`bind_server!`](crate::bind_server)) with the types of the
/// generated module `$m`, generated with the tasks extension
/// (`Builder::extension("io.modelcontextprotocol/tasks")`): its requests' `METHOD`s, its
/// `DetailedTask` and the shapes built from it (`CreateTaskResult`, `GetTaskResult`,
/// `TaskStatusNotification`), its `TasksExtension` declared in `ServerCapabilities`.
#[macro_export]
macro_rules! bind_tasks {
    ($name:ident = $($m:ident)::+) => {
        const _: () = {
            use $($m)::+::{self as m};
            use $crate::tasks::serve as serve;
            use $crate::tasks::Status;

            /// Each generated status and the store's name for it: the one list both
            /// directions read.
            const STATUSES: [(m::TaskStatus, Status); 5] = [
                (m::TaskStatus::Working, Status::Working),
                (m::TaskStatus::InputRequired, Status::InputRequired),
                (m::TaskStatus::Completed, Status::Completed),
                (m::TaskStatus::Failed, Status::Failed),
                (m::TaskStatus::Cancelled, Status::Cancelled),
            ];

            /// One of the shapes of a task from a `DetailedTask`: the required members
            /// through `new`, then `statusMessage` and `pollIntervalMs`.
            macro_rules! shape {
                ($shape:ty, $task:expr) => {{
                    let task: &m::DetailedTask = $task;
                    let mut shape = <$shape>::new(
                        ::core::clone::Clone::clone(&task.created_at),
                        ::core::clone::Clone::clone(&task.last_updated_at),
                        task.status,
                        ::core::clone::Clone::clone(&task.task_id),
                        ::core::clone::Clone::clone(&task.ttl_ms),
                    );
                    shape.status_message = ::core::clone::Clone::clone(&task.status_message);
                    shape.poll_interval_ms = task.poll_interval_ms;
                    shape
                }};
                ($shape:ty, $task:expr, details) => {{
                    let task: &m::DetailedTask = $task;
                    let mut shape = shape!($shape, task);
                    shape.input_requests = ::core::clone::Clone::clone(&task.input_requests);
                    shape.result = ::core::clone::Clone::clone(&task.result);
                    shape.error = ::core::clone::Clone::clone(&task.error);
                    shape
                }};
            }

            use $crate::ctx::written;

            impl serve::TaskTypes for $name {
                type Detailed = m::DetailedTask;
                type InputRequest = m::InputRequest;
                type InputResponse = m::InputResponse;
                type Outcome = ::core::result::Result<m::CallToolResult, m::Error>;
                type Extension = m::TasksExtension;

                const METHODS: &'static [$crate::Method] = &[
                    $crate::Named::method::<m::GetTaskRequest>(),
                    $crate::Named::method::<m::UpdateTaskRequest>(),
                    $crate::Named::method::<m::CancelTaskRequest>(),
                ];

                fn advertised(
                    meta: &m::RequestMetaObject,
                ) -> ::core::option::Option<::mcp_runtime::extension::Advertised<m::TasksExtension>> {
                    ::mcp_runtime::extension::Advertised::check(&meta.client_capabilities)
                }

                fn answer<'a>(
                    tasks: &'a serve::Tasks<Self>,
                    principal: &'a str,
                    method: &'a str,
                    body: &'a [u8],
                ) -> $crate::tasks::BoxFuture<'a, ::core::result::Result<::std::string::String, ::mcp_runtime::RpcError>> {
                    ::std::boxed::Box::pin(async move {
                        use ::mcp_runtime::Request as _;
                        if method == m::GetTaskRequest::METHOD {
                            let r: m::GetTaskRequest =
                                ::serde_json::from_slice(body).map_err(serve::bad_params)?;
                            let task = tasks.get(principal, &r.params.task_id).await?;
                            written(&r, shape!(m::GetTaskResult, &task.0, details))
                        } else if method == m::UpdateTaskRequest::METHOD {
                            // The one request read through a `Value`: answers to keys the task
                            // does not wait on are dropped before it is read.
                            let mut message: ::serde_json::Value =
                                ::serde_json::from_slice(body).map_err(serve::bad_params)?;
                            tasks.ignore_unasked(principal, &mut message).await?;
                            let mut r: m::UpdateTaskRequest =
                                ::serde_json::from_value(message).map_err(serve::bad_params)?;
                            let answers = ::core::mem::take(&mut r.params.input_responses);
                            tasks.update(principal, &r.params.task_id, answers).await?;
                            written(&r, m::UpdateTaskResult::new())
                        } else if method == m::CancelTaskRequest::METHOD {
                            let r: m::CancelTaskRequest =
                                ::serde_json::from_slice(body).map_err(serve::bad_params)?;
                            tasks.cancel(principal, &r.params.task_id).await?;
                            written(&r, m::CancelTaskResult::new())
                        } else {
                            ::core::result::Result::Err(::mcp_runtime::RpcError::method_not_found(method))
                        }
                    })
                }

                fn created(
                    proof: &::mcp_runtime::extension::Advertised<m::TasksExtension>,
                    task: &m::DetailedTask,
                ) -> m::CallToolOutcome {
                    m::CallToolOutcome::Task(proof.grant(shape!(m::CreateTaskResult, task)))
                }

                fn inline(
                    outcome: ::core::result::Result<m::CallToolResult, m::Error>,
                ) -> ::core::result::Result<m::CallToolOutcome, ::mcp_runtime::RpcError> {
                    match outcome {
                        ::core::result::Result::Ok(result) => ::core::result::Result::Ok(result.into()),
                        ::core::result::Result::Err(error) => {
                            let mut refused = ::mcp_runtime::RpcError::new(error.code, error.message);
                            refused.data = error.data;
                            ::core::result::Result::Err(refused)
                        }
                    }
                }

                fn declare(capabilities: &mut m::ServerCapabilities) {
                    use ::mcp_runtime::extension::Extension as _;
                    let id = ::std::string::ToString::to_string(m::TasksExtension::ID);
                    let extensions = capabilities.extensions.get_or_insert_default();
                    extensions.entry(id).or_default();
                }

                fn declared(capabilities: &m::ServerCapabilities) -> bool {
                    use ::mcp_runtime::extension::Extension as _;
                    let extensions = capabilities.extensions.as_ref();
                    extensions.is_some_and(|e| e.contains_key(m::TasksExtension::ID))
                }

                fn listened(
                    request: &m::ClientRequest,
                ) -> ::core::option::Option<::std::vec::Vec<::std::string::String>> {
                    match request {
                        m::ClientRequest::SubscriptionsListenRequest(r) => {
                            ::core::clone::Clone::clone(&r.params.notifications.task_ids)
                        }
                        _ => ::core::option::Option::None,
                    }
                }

                fn acknowledged(
                    followed: ::std::vec::Vec<::std::string::String>,
                ) -> ::serde_json::Map<::std::string::String, ::serde_json::Value> {
                    let mut told = m::SubscriptionFilter::new();
                    told.task_ids = ::core::option::Option::Some(followed);
                    match ::serde_json::to_value(&told) {
                        ::core::result::Result::Ok(::serde_json::Value::Object(members)) => members,
                        _ => ::serde_json::Map::new(),
                    }
                }

                fn notification(
                    subscription: &m::RequestId,
                    task: &m::DetailedTask,
                ) -> ::core::option::Option<::std::string::String> {
                    let tag = m::NotificationMetaObject::new()
                        .with_subscription_id(::core::clone::Clone::clone(subscription));
                    let params = shape!(m::TaskStatusNotificationParams, task, details).with_meta(tag);
                    ::serde_json::to_string(&m::TaskStatusNotification::new(params)).ok()
                }

                fn working(id: &str, now: &str, ttl_ms: i64, poll_interval_ms: u64) -> m::DetailedTask {
                    m::DetailedTask::new(now, now, m::TaskStatus::Working, id, m::TaskTtlMs::Integer(ttl_ms))
                        .with_poll_interval_ms(poll_interval_ms)
                }

                fn task_id(task: &m::DetailedTask) -> &str {
                    &task.task_id
                }

                fn status(task: &m::DetailedTask) -> Status {
                    STATUSES
                        .iter()
                        .find(|(generated, _)| *generated == task.status)
                        .map_or(Status::Working, |(_, status)| *status)
                }

                fn set_status(task: &mut m::DetailedTask, status: Status, message: ::std::string::String) {
                    if let ::core::option::Option::Some((generated, _)) =
                        STATUSES.iter().find(|(_, s)| *s == status)
                    {
                        task.status = *generated;
                    }
                    task.status_message = ::core::option::Option::Some(message);
                }

                fn input_requests(task: &mut m::DetailedTask) -> &mut ::core::option::Option<m::InputRequests> {
                    &mut task.input_requests
                }

                fn set_outcome(
                    task: &mut m::DetailedTask,
                    outcome: ::core::result::Result<m::CallToolResult, m::Error>,
                ) {
                    match outcome {
                        ::core::result::Result::Ok(result) => {
                            Self::set_status(task, Status::Completed, "The work is done.".into());
                            task.result = ::core::option::Option::Some(serve::object(&result));
                        }
                        ::core::result::Result::Err(error) => {
                            let message = ::std::format!("The work failed: {}", error.message);
                            Self::set_status(task, Status::Failed, message);
                            task.error = ::core::option::Option::Some(serve::object(&error));
                        }
                    }
                }

                fn set_failed(task: &mut m::DetailedTask, message: ::std::string::String) {
                    task.input_requests = ::core::option::Option::None;
                    let error = m::Error::new(::mcp_runtime::error_code::INTERNAL_ERROR, ::core::clone::Clone::clone(&message));
                    task.error = ::core::option::Option::Some(serve::object(&error));
                    Self::set_status(task, Status::Failed, message);
                }

                fn set_last_updated(task: &mut m::DetailedTask, now: ::std::string::String) {
                    task.last_updated_at = now;
                }
            }
        };
    };
}

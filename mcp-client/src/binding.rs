//! What the client needs of the generated types, as a trait ([`Binding`]) a generated module
//! satisfies through [`bind!`](crate::bind): the crate holds no schema and no generated type,
//! it is generic over them (as tonic is over tonic-build's output). [`Outgoing`] is what the
//! client needs of each request type it sends.

use std::collections::BTreeMap;
use std::fmt;

use mcp_runtime::mrtr::{self, InputRequired};
use mcp_runtime::retry::RetryError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The generated module of the two revisions a dual-era client speaks (2026-07-28 with the
/// tasks extension, and 2025-11-25 under `v2025_11_25`), as the client uses it. Implemented by
/// [`bind!`](crate::bind) for a module that `mcp-codegen` generated from both schemas.
pub trait Binding: Sized + Send + Sync + 'static {
    /// The JSON-RPC id (`RequestId`).
    type RequestId: Clone + PartialEq + fmt::Debug + Serialize + DeserializeOwned + Send + Sync;
    /// The client's capabilities (`ClientCapabilities`).
    type Capabilities: Clone + Serialize + Send + Sync;
    /// A modern request's `_meta` (`RequestMetaObject`).
    type Meta: Send;
    /// Who the client is (`Implementation`).
    type Implementation: Clone + Send + Sync;
    /// What the server can do (`ServerCapabilities`).
    type ServerCapabilities: Clone + Send + Sync;
    /// An answer that asks for input (`InputRequiredResult`).
    type InputRequired: InputRequired<
            Capabilities = Self::Capabilities,
            Request = Self::InputRequest,
            Response = Self::InputResponse,
        > + Send;
    /// One input request (`InputRequest`): an elicitation, a sampling, a roots request.
    type InputRequest: mrtr::InputRequest + Send + Sync;
    /// The answer to one (`InputResponse`).
    type InputResponse: mrtr::InputResponse + Send;
    /// A tool's definition (`Tool`).
    type Tool: Clone + Send;
    /// A task as created (`CreateTaskResult`).
    type CreateTask: Send;
    /// A task's state (`GetTaskResult`).
    type Task: Send;

    /// `server/discover`.
    type Discover: Outgoing<Self, Done = Self::Discovered>;
    /// Its result (`DiscoverResult`).
    type Discovered: DeserializeOwned;
    /// `tools/list`.
    type ListTools: Outgoing<Self>;
    /// `tools/call`.
    type CallTool: Outgoing<Self>;
    /// `tasks/get`.
    type GetTask: Outgoing<Self, Done = Self::Task>;
    /// `tasks/update`.
    type UpdateTask: Outgoing<Self>;
    /// `tasks/cancel`.
    type CancelTask: Outgoing<Self>;

    /// The method of the 2025-11-25 notification that ends the handshake
    /// (`InitializedNotification::METHOD`).
    const INITIALIZED: &'static str;

    /// The id numbered `n`.
    fn request_id(n: i64) -> Self::RequestId;
    /// The `_meta` of a modern request: capabilities, version, identity, and a progress token.
    fn meta(
        capabilities: Self::Capabilities,
        version: &str,
        info: Self::Implementation,
        progress: Option<String>,
    ) -> Self::Meta;
    /// `capabilities` with the tasks extension declared.
    fn declare_tasks(capabilities: &mut Self::Capabilities);
    /// A response read with the `resultType` values of the extensions `capabilities` declares.
    fn read_answer<T: DeserializeOwned>(
        capabilities: Option<&Self::Capabilities>,
        text: &str,
    ) -> serde_json::Result<T>;

    /// The `server/discover` request.
    fn discover(id: Self::RequestId, meta: Self::Meta) -> Self::Discover;
    /// What a `DiscoverResult` says of the server.
    fn discovered(result: Self::Discovered) -> Connected<Self>;

    /// A `tools/list` request from `cursor`.
    fn list_tools(id: Self::RequestId, meta: Self::Meta, cursor: Option<String>)
    -> Self::ListTools;
    /// One page of tools, and the cursor of the next.
    fn tools_page(
        page: <Self::ListTools as mcp_runtime::client::Call>::Done,
    ) -> (Vec<Self::Tool>, Option<String>);
    /// A tool's name.
    fn tool_name(tool: &Self::Tool) -> &str;
    /// A tool's `inputSchema`, every member as received.
    fn tool_schema(tool: &Self::Tool) -> &Map<String, Value>;
    /// A `tools/call` request.
    fn call_tool(
        id: Self::RequestId,
        meta: Self::Meta,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Self::CallTool;

    /// A `tasks/get` request.
    fn get_task(id: Self::RequestId, meta: Self::Meta, task: &str) -> Self::GetTask;
    /// A `tasks/update` request with `responses`.
    fn update_task(
        id: Self::RequestId,
        meta: Self::Meta,
        task: &str,
        responses: BTreeMap<String, Self::InputResponse>,
    ) -> Self::UpdateTask;
    /// A `tasks/cancel` request.
    fn cancel_task(id: Self::RequestId, meta: Self::Meta, task: &str) -> Self::CancelTask;
    /// What the client follows of a created task.
    fn created(task: &Self::CreateTask) -> Created;
    /// What the client reads of a task's state.
    fn task_state(task: Self::Task) -> TaskState<Self>;
    /// Input requests raised by a task, as an input-required answer (to be checked and
    /// answered like one).
    fn input_required(
        requests: BTreeMap<String, Self::InputRequest>,
    ) -> Result<Self::InputRequired, String>;

    /// A modern request (its JSON) as the 2025-11-25 request (its JSON).
    fn request_to_legacy(modern: Value) -> Result<Value, String>;
    /// A 2025-11-25 `result` of `method`, completed and converted to the modern result.
    fn result_to_modern(method: &str, result: Value) -> Result<Value, String>;
    /// The 2025-11-25 `initialize` request (JSON) asking for `version`.
    fn initialize(
        id: Self::RequestId,
        capabilities: &Self::Capabilities,
        info: Self::Implementation,
        version: &str,
    ) -> Result<Value, String>;
    /// What the answer to `initialize` says.
    fn initialized(result: Value) -> Result<Initialized<Self>, String>;
    /// A legacy server's request `message` of `method` as the input request it stands for;
    /// `None` for a method that asks nothing (`ping`); an error for one the client does not
    /// serve or cannot read.
    fn legacy_input_request(
        method: &str,
        message: Value,
    ) -> Result<Option<Self::InputRequest>, LegacyRequestError>;
    /// The answer to an input request as the 2025-11-25 result (JSON).
    fn response_to_legacy(response: Self::InputResponse) -> Result<Value, String>;
}

/// Why a legacy server's request cannot be answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LegacyRequestError {
    /// The client serves no such method.
    Unknown,
    /// Its params do not read.
    Invalid(String),
}

/// A request type the client sends: it gets a fresh id and the client's `_meta` before each
/// send, names what it is about (`Mcp-Name`), and tells its final answer from a request for
/// input or a task. Implemented by [`bind!`](crate::bind).
pub trait Outgoing<B: Binding>: Serialize + Clone + mcp_runtime::client::Call + Send {
    /// Its successful response (`*ResultResponse`).
    type Response: DeserializeOwned;
    /// Whether it advertises the tasks extension (`tools/call`, `tasks/*`).
    const TASKS: bool = false;
    /// Whether it carries a progress token when the client asks for progress.
    const PROGRESS: bool = false;

    /// Whether a server with `capabilities` may be sent this request: an extension's request
    /// only to a server that declared the extension (and the setting it needs); `Err` says
    /// why not. Every core request may be sent.
    fn allowed_by(capabilities: &B::ServerCapabilities) -> Result<(), String> {
        let _ = capabilities;
        Ok(())
    }

    /// The request with `id` and `params` (the generated `new`).
    fn build(id: B::RequestId, params: Self::Params) -> Self;
    /// Sets its id and `_meta`.
    fn reset(&mut self, id: B::RequestId, meta: B::Meta);
    /// Its id.
    fn id(&self) -> &B::RequestId;
    /// The capabilities it sends.
    fn capabilities(&self) -> Option<&B::Capabilities>;
    /// Its `Mcp-Name` (a tool, resource, prompt or task), if it has one: the member of its
    /// params that the generated request names ([`mcp_runtime::Request::MCP_NAME`]).
    fn name(&self) -> Option<&str> {
        mcp_runtime::Request::mcp_name(self)
    }
    /// What its answer says.
    fn outcome(response: Self::Response) -> Outcome<B, Self::Done>;
    /// Its retry after `ask` with `responses` (a request that may answer `input_required`),
    /// `None` for one that may not.
    fn retry(
        &self,
        id: B::RequestId,
        ask: &B::InputRequired,
        responses: BTreeMap<String, B::InputResponse>,
    ) -> Option<Result<Self, RetryError>> {
        let _ = (id, ask, responses);
        None
    }
}

/// What an answer says: the request's end, what the server needs first, or a task to follow.
pub enum Outcome<B: Binding, T> {
    /// The answer the request ends with.
    Done(T),
    /// The server needs input: the request is sent again with the client's answers.
    NeedsInput(Box<B::InputRequired>),
    /// The work goes on as a task (`tools/call` with the tasks extension).
    Task(B::CreateTask),
}

/// What the client learnt of the server on connecting, in either era.
pub struct Connected<B: Binding> {
    /// The era the probe found.
    pub era: mcp_runtime::era::Era,
    /// The server's name, if it gave one.
    pub server: Option<String>,
    /// The versions the server serves (modern), or the one `initialize` agreed (legacy).
    pub versions: Vec<String>,
    /// What the server offers.
    pub capabilities: B::ServerCapabilities,
}

/// What the answer to a legacy `initialize` says.
pub struct Initialized<B: Binding> {
    /// The version the server chose.
    pub protocol_version: String,
    /// The server's name.
    pub server: String,
    /// What the server offers, as the modern type.
    pub capabilities: B::ServerCapabilities,
}

/// What the client follows of a task it created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    /// The task's id.
    pub task_id: String,
    /// The wait between polls the server suggests.
    pub poll_interval_ms: Option<u64>,
    /// How long the server keeps the task (`None`: unlimited).
    pub ttl_ms: Option<u64>,
}

/// The status of a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskStatus {
    /// Running.
    Working,
    /// Waiting for the answers to its input requests.
    InputRequired,
    /// Ended with a result.
    Completed,
    /// Ended with an error.
    Failed,
    /// Ended by a cancel.
    Cancelled,
}

/// What the client reads of a task's state.
pub struct TaskState<B: Binding> {
    /// The task's id.
    pub task_id: String,
    /// Where it is.
    pub status: TaskStatus,
    /// The wait before the next poll the server suggests.
    pub poll_interval_ms: Option<u64>,
    /// What it asks, when `InputRequired`.
    pub input_requests: BTreeMap<String, B::InputRequest>,
    /// Its result once completed (JSON).
    pub result: Option<Value>,
    /// Its error once failed (JSON).
    pub error: Option<Value>,
}

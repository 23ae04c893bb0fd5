//! The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): a `tools/call` the server
//! chooses to run in the background is answered with a `CreateTaskResult`, and the client
//! follows the task with `tasks/get`, answers its input requests with `tasks/update`, stops it
//! with `tasks/cancel`, or subscribes to its status notifications on `subscriptions/listen`.
//!
//! - A `CreateTaskResult` is built only through the proof that the request advertised the
//!   extension (`mcp_runtime::extension::Advertised`); a tool that can only run as a task
//!   refuses a request without it with `MISSING_REQUIRED_CLIENT_CAPABILITY`, naming the
//!   extension.
//! - The `tasks/*` methods themselves need the extension on the request
//!   (`MISSING_REQUIRED_CLIENT_CAPABILITY` otherwise), and answer `INVALID_PARAMS` for a task
//!   that is unknown, expired, or another principal's.
//! - Tasks live in [`store::Store`] (`mcp_server::tasks`) for their `ttlMs`: in this process,
//!   or in a Redis that several instances share. A request that needs a shared store while it
//!   is unavailable is answered `INTERNAL_ERROR` ([`unavailable`]), and may be tried again.

pub mod store;
pub mod tools;

use mcp_runtime::error_code::{INTERNAL_ERROR, INVALID_PARAMS};
use mcp_runtime::extension::Advertised;
use mcp_runtime::prelude::*;
use serde_json::Value;

use crate::mcp;
use crate::rpc::{Ctx, Refused, to_json};
use mcp_runtime::RpcError;
use mcp_server::tasks::{TaskError, Unavailable};

/// The error of a request that needed the task store while it was unavailable: it says only
/// that, whatever the store's own error says (which stays in the server's log).
pub fn unavailable() -> RpcError {
    RpcError::new(
        INTERNAL_ERROR,
        "Internal error: the task store is unavailable; try again",
    )
}

/// Logs why the store was unavailable, and the error the client gets.
pub fn unavailable_after(why: &impl std::fmt::Display) -> RpcError {
    eprintln!("mcp-conformance-server: {why}");
    unavailable()
}

/// Proof that the request being answered advertised the tasks extension.
pub type Proof = Advertised<mcp::TasksExtension>;

/// The proof, if the request advertised the extension.
pub fn advertised(ctx: &Ctx) -> Option<Proof> {
    Proof::check(&ctx.meta.client_capabilities)
}

/// A request of the extension's own methods, read as its generated type.
#[derive(Debug)]
pub enum TaskRequest {
    Get(mcp::GetTaskRequest),
    Update(mcp::UpdateTaskRequest),
    Cancel(mcp::CancelTaskRequest),
}

/// The extension's methods, each with the `taskId` its `Mcp-Name` header mirrors: what the
/// server adds to the methods a client may call (`mcp_server::Service::extension_methods`).
pub const METHODS: &[mcp_server::Method] = {
    use mcp_runtime::Request as R;
    use mcp_server::Named::TaskId;
    &[
        (<mcp::GetTaskRequest as R>::METHOD, Some(TaskId)),
        (<mcp::UpdateTaskRequest as R>::METHOD, Some(TaskId)),
        (<mcp::CancelTaskRequest as R>::METHOD, Some(TaskId)),
    ]
};

impl TaskRequest {
    /// `message` as the request of `method`, one of [`METHODS`].
    pub fn read(method: &str, message: Value) -> serde_json::Result<Self> {
        Self::parse(method, message)
    }

    /// The request of `method`, one of [`METHODS`], read from its bytes.
    pub fn from_slice(method: &str, body: &[u8]) -> serde_json::Result<Self> {
        let mut de = serde_json::Deserializer::from_slice(body);
        let request = Self::parse(method, &mut de)?;
        de.end()?;
        Ok(request)
    }

    /// The request of `method` from `de`, as the generated type of that method.
    fn parse<'de, D: serde::Deserializer<'de>>(method: &str, de: D) -> Result<Self, D::Error> {
        use mcp_runtime::Request as R;
        use serde::Deserialize as _;
        match method {
            m if m == <mcp::GetTaskRequest as R>::METHOD => {
                mcp::GetTaskRequest::deserialize(de).map(TaskRequest::Get)
            }
            m if m == <mcp::UpdateTaskRequest as R>::METHOD => {
                mcp::UpdateTaskRequest::deserialize(de).map(TaskRequest::Update)
            }
            m if m == <mcp::CancelTaskRequest as R>::METHOD => {
                mcp::CancelTaskRequest::deserialize(de).map(TaskRequest::Cancel)
            }
            other => Err(serde::de::Error::custom(format!(
                "{other} is not a method of the tasks extension"
            ))),
        }
    }
}

/// Drops, from a `tasks/update` message, the answers to keys the task does not wait on, before
/// the message is read: the extension says to ignore them, whatever they hold. Fails only when
/// the store is unavailable.
pub async fn ignore_unasked(
    principal: &str,
    store: &store::Store,
    message: &mut Value,
) -> Result<(), Unavailable> {
    let Some(params) = message.get_mut("params").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    let Some(id) = params.get("taskId").and_then(Value::as_str) else {
        return Ok(());
    };
    let outstanding = match store.outstanding(principal, id).await {
        Ok(outstanding) => outstanding,
        // Unknown: answered `INVALID_PARAMS` after the read.
        Err(TaskError::NotFound) => return Ok(()),
        Err(TaskError::Unavailable(e)) => return Err(e),
    };
    if let Some(responses) = params
        .get_mut("inputResponses")
        .and_then(Value::as_object_mut)
    {
        responses.retain(|key, _| outstanding.contains(key));
    }
    Ok(())
}

/// Answers at once the request of the extension's `method` (one of [`METHODS`]) of which `body`
/// is the whole message. Answers in a `tasks/update` to keys the task does not wait on are
/// dropped unread first (the one request read through a `Value`).
pub async fn answer(ctx: Ctx, method: &str, body: &[u8]) -> Result<String, Refused> {
    let invalid = |e: serde_json::Error| {
        ctx.fail(RpcError::new(
            INVALID_PARAMS,
            format!("Invalid params: {e}"),
        ))
    };
    let request = if method == <mcp::UpdateTaskRequest as mcp_runtime::Request>::METHOD {
        let mut message = serde_json::from_slice::<Value>(body).map_err(invalid)?;
        ignore_unasked(&ctx.principal, &*ctx.app.tasks, &mut message)
            .await
            .map_err(|e| ctx.fail(unavailable_after(&e)))?;
        TaskRequest::read(method, message).map_err(invalid)?
    } else {
        TaskRequest::from_slice(method, body).map_err(invalid)?
    };
    dispatch(&ctx, request).await
}

/// Answers `tasks/get`, `tasks/update` or `tasks/cancel`.
pub async fn dispatch(ctx: &Ctx, request: TaskRequest) -> Result<String, Refused> {
    if advertised(ctx).is_none() {
        return Err(ctx.fail(RpcError::missing_extension::<mcp::TasksExtension>()));
    }
    let store = &ctx.app.tasks;
    let principal = ctx.principal.as_str();
    let refused = |e: TaskError| {
        ctx.fail(match e {
            TaskError::NotFound => RpcError::new(
                INVALID_PARAMS,
                "Task not found: the id is unknown, its ttlMs has elapsed, or it is not yours",
            ),
            TaskError::Unavailable(e) => unavailable_after(&e),
        })
    };
    match request {
        TaskRequest::Get(r) => {
            let task = store
                .get(principal, &r.params.task_id)
                .await
                .map_err(refused)?;
            to_json(&r.respond(get_result(&task)))
        }
        TaskRequest::Update(r) => {
            let responses = r.params.input_responses.clone();
            store
                .update(principal, &r.params.task_id, responses)
                .await
                .map_err(refused)?;
            to_json(&r.respond(mcp::UpdateTaskResult::new().with_meta(crate::result_meta())))
        }
        TaskRequest::Cancel(r) => {
            store
                .cancel(principal, &r.params.task_id)
                .await
                .map_err(refused)?;
            to_json(&r.respond(mcp::CancelTaskResult::new().with_meta(crate::result_meta())))
        }
    }
}

/// One of the generated shapes of a task (`CreateTaskResult`, `GetTaskResult`,
/// `TaskStatusNotificationParams`) from a `DetailedTask`: the required members through `new`,
/// then `statusMessage` and `pollIntervalMs`; with `details`, also what the status carries
/// (`inputRequests`, `result`, `error`).
macro_rules! task_shape {
    ($shape:ty, $task:expr) => {{
        let task: &mcp::DetailedTask = $task;
        let mut shape = <$shape>::new(
            task.created_at.clone(),
            task.last_updated_at.clone(),
            task.status,
            task.task_id.clone(),
            task.ttl_ms.clone(),
        );
        shape.status_message = task.status_message.clone();
        shape.poll_interval_ms = task.poll_interval_ms;
        shape
    }};
    ($shape:ty, $task:expr, details) => {{
        let task: &mcp::DetailedTask = $task;
        let mut shape = task_shape!($shape, task);
        shape.input_requests = task.input_requests.clone();
        shape.result = task.result.clone();
        shape.error = task.error.clone();
        shape
    }};
}

/// A task's first state, as the answer to the request that created it.
pub fn created(task: &mcp::DetailedTask) -> mcp::CreateTaskResult {
    task_shape!(mcp::CreateTaskResult, task).with_meta(crate::result_meta())
}

/// A task's state with what its status carries, as `tasks/get` answers it.
pub fn get_result(task: &mcp::DetailedTask) -> mcp::GetTaskResult {
    task_shape!(mcp::GetTaskResult, task, details).with_meta(crate::result_meta())
}

/// A task's state as a `notifications/tasks`, tagged with the subscription it goes to.
pub fn notification(
    task: &mcp::DetailedTask,
    meta: mcp::NotificationMetaObject,
) -> mcp::TaskStatusNotification {
    mcp::TaskStatusNotification::new(
        task_shape!(mcp::TaskStatusNotificationParams, task, details).with_meta(meta),
    )
}

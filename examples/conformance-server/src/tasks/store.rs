//! The task store: `mcp_server::tasks`' bounded in-memory store ([`start`]), or its Redis
//! store shared by several instances ([`start_shared`]), holding the generated `DetailedTask`.
//! What this file adds is how a `DetailedTask` answers the store
//! (`mcp_server::tasks::TaskState`): its status, its input requests, how its work's outcome
//! is written into it.

use std::sync::Arc;

use mcp_runtime::error_code::INTERNAL_ERROR;
use mcp_server::redis::{Redis, Unavailable};
use serde::Serialize;

use crate::mcp;
use mcp_server::tasks::{MemoryStore, RedisStore, Status, TaskState, TaskStore};

pub use mcp_server::tasks::{NotCreated, Settings};

/// Where this server's tasks live.
pub type Store = dyn TaskStore<mcp::DetailedTask>;

/// What a task's work holds: the way to ask its client for input.
pub type Worker = mcp_server::tasks::Worker<mcp::DetailedTask>;

/// How a task's work ends: the tool's result (a tool error included), or the JSON-RPC error
/// the request would have been answered with.
pub type Outcome = Result<mcp::CallToolResult, mcp::Error>;

/// The in-memory store with `settings`, its sweeper running.
pub fn start(settings: Settings) -> Arc<Store> {
    MemoryStore::<mcp::DetailedTask>::start(settings)
}

/// The store shared through `redis` by every instance connected to it, with `settings` (the
/// same at every instance), listening to the other instances' changes. Fails when Redis
/// cannot be reached now.
pub async fn start_shared(
    redis: Arc<Redis>,
    settings: Settings,
) -> Result<Arc<Store>, Unavailable> {
    let store = RedisStore::<mcp::DetailedTask>::start(redis, settings).await?;
    Ok(store)
}

/// Each status of the generated `TaskStatus` and the store's name for it: the one list both
/// directions read.
const STATUSES: [(mcp::TaskStatus, Status); 5] = [
    (mcp::TaskStatus::Working, Status::Working),
    (mcp::TaskStatus::InputRequired, Status::InputRequired),
    (mcp::TaskStatus::Completed, Status::Completed),
    (mcp::TaskStatus::Failed, Status::Failed),
    (mcp::TaskStatus::Cancelled, Status::Cancelled),
];

impl TaskState for mcp::DetailedTask {
    type InputRequest = mcp::InputRequest;
    type InputResponse = mcp::InputResponse;
    type Outcome = Outcome;

    fn working(id: &str, now: &str, ttl_ms: i64, poll_interval_ms: u64) -> Self {
        mcp::DetailedTask::new(
            now,
            now,
            mcp::TaskStatus::Working,
            id,
            mcp::TaskTtlMs::Integer(ttl_ms),
        )
        .with_poll_interval_ms(poll_interval_ms)
    }

    fn status(&self) -> Status {
        STATUSES
            .iter()
            .find(|(generated, _)| *generated == self.status)
            .map_or(Status::Working, |(_, status)| *status)
    }

    fn set_status(&mut self, status: Status, message: String) {
        if let Some((generated, _)) = STATUSES.iter().find(|(_, s)| *s == status) {
            self.status = *generated;
        }
        self.status_message = Some(message);
    }

    fn input_requests(&mut self) -> &mut Option<mcp::InputRequests> {
        &mut self.input_requests
    }

    fn set_outcome(&mut self, outcome: Outcome) {
        match outcome {
            Ok(result) => {
                self.set_status(Status::Completed, "The work is done.".to_owned());
                self.result = Some(object(&result));
            }
            Err(error) => {
                let message = format!("The work failed: {}", error.message);
                self.set_status(Status::Failed, message);
                self.error = Some(object(&error));
            }
        }
    }

    /// Failed with an internal error saying why: a failed task carries the error its request
    /// ended with.
    fn set_failed(&mut self, message: String) {
        self.input_requests = None;
        self.error = Some(object(&mcp::Error::new(INTERNAL_ERROR, message.clone())));
        self.set_status(Status::Failed, message);
    }

    fn set_last_updated(&mut self, now: String) {
        self.last_updated_at = now;
    }
}

/// `value` as the JSON object a task inlines (a result or an error).
fn object<T: Serialize>(value: &T) -> mcp::JSONObject {
    serde_json::to_value(value)
        .and_then(serde_json::from_value)
        .unwrap_or_default()
}

//! Following a task (the tasks extension, `io.modelcontextprotocol/tasks`), as methods of
//! [`Client`]: `tasks/get` polled at the interval the server suggests, the task's input
//! requests answered once with `tasks/update`, `tasks/cancel` when its time is up; and what an
//! ended task gives.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;

use super::{Client, done_only};
use crate::binding::{Binding, TaskStatus};
use crate::error::ClientError;

/// How long the client waits between polls when the server suggests no `pollIntervalMs`.
const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(500);

impl<B: Binding> Client<B> {
    /// Follows a task until it ends, and returns its last state: polls `tasks/get`, waiting
    /// the `pollIntervalMs` the server last suggested before each poll, and answers each input
    /// request the task raises once (keys already answered are not answered again) with
    /// `tasks/update`. Gives up, cancelling the task, when its `ttlMs` has elapsed (at most
    /// [`Config::with_max_task_wait`](crate::Config::with_max_task_wait)).
    pub async fn follow_task(
        &mut self,
        created: &B::CreateTask,
    ) -> Result<crate::TaskState<B>, ClientError> {
        let created = B::created(created);
        let id = created.task_id.clone();
        let mut interval = poll_interval(created.poll_interval_ms);
        let max = self.config.max_task_wait;
        let limit = created
            .ttl_ms
            .map_or(max, |ms| Duration::from_millis(ms).min(max));
        let deadline = Instant::now() + limit;
        let mut answered = BTreeSet::new();
        loop {
            if Instant::now() + interval > deadline {
                // Best effort: the server may stop the work; the answer changes nothing here.
                let _ = self.cancel_task(&id).await;
                return Err(ClientError::Protocol(format!(
                    "task {id:?} did not end within {} ms",
                    limit.as_millis()
                )));
            }
            tokio::time::sleep(interval).await;
            let task = B::task_state(self.get_task(&id).await?);
            interval = poll_interval(task.poll_interval_ms.or(created.poll_interval_ms));
            match task.status {
                TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled => {
                    return Ok(task);
                }
                TaskStatus::InputRequired => {
                    let fresh: BTreeMap<String, B::InputRequest> = task
                        .input_requests
                        .into_iter()
                        .filter(|(key, _)| !answered.contains(key))
                        .collect();
                    if fresh.is_empty() {
                        continue;
                    }
                    answered.extend(fresh.keys().cloned());
                    // The same requests as an input-required answer would carry, checked
                    // against this client's capabilities in the same way.
                    let ask = B::input_required(fresh).map_err(ClientError::Protocol)?;
                    let responses = self.answer(&ask)?;
                    self.update_task(&id, responses).await?;
                }
                TaskStatus::Working => {}
            }
        }
    }

    /// `tasks/get`: the task's current state.
    async fn get_task(&mut self, task_id: &str) -> Result<B::Task, ClientError> {
        let (id, meta) = self.stamp::<B::GetTask>();
        let request = B::get_task(id, meta, task_id);
        let (_, r) = self.send(request, &[]).await?;
        done_only::<B, B::GetTask>(r)
    }

    /// `tasks/cancel`: asks the server to stop the task.
    async fn cancel_task(&mut self, task_id: &str) -> Result<(), ClientError> {
        let (id, meta) = self.stamp::<B::CancelTask>();
        let request = B::cancel_task(id, meta, task_id);
        self.send(request, &[]).await.map(drop)
    }

    /// `tasks/update`: answers to the task's input requests.
    async fn update_task(
        &mut self,
        task_id: &str,
        responses: BTreeMap<String, B::InputResponse>,
    ) -> Result<(), ClientError> {
        let (id, meta) = self.stamp::<B::UpdateTask>();
        let request = B::update_task(id, meta, task_id, responses);
        self.send(request, &[]).await.map(drop)
    }
}

/// What an ended task of a call gives: its result once `completed`, the JSON-RPC error it
/// `failed` with, or an error saying it was `cancelled`.
pub(super) fn read_task_result<B: Binding, T: DeserializeOwned>(
    task: crate::TaskState<B>,
) -> Result<T, ClientError> {
    let name = format!("task {:?}", task.task_id);
    match task.status {
        TaskStatus::Completed => {
            let result = task.result.ok_or_else(|| {
                ClientError::Protocol(format!("{name} completed without a result"))
            })?;
            serde_json::from_value(result)
                .map_err(|e| ClientError::Protocol(format!("{name}: reading its result: {e}")))
        }
        TaskStatus::Failed => {
            let error = task
                .error
                .ok_or_else(|| ClientError::Protocol(format!("{name} failed without an error")))?;
            let error = serde_json::from_value(error)
                .map_err(|e| ClientError::Protocol(format!("{name}: reading its error: {e}")))?;
            Err(ClientError::Rpc(error))
        }
        status => Err(ClientError::Protocol(format!("{name} ended {status:?}"))),
    }
}

/// The wait before the next poll: the server's `pollIntervalMs`, or the default.
fn poll_interval(suggested: Option<u64>) -> Duration {
    suggested.map_or(DEFAULT_POLL_INTERVAL, Duration::from_millis)
}

//! A request's work tied to its response. The handler runs in a task of its own (so that its
//! notifications can stream while it works); the response holds a [`Cancel`] for it, and when
//! hyper drops the response (its client closed the connection, which the 2026-07-28 transport
//! says is the cancellation), the task is aborted: its future is dropped and its memory
//! returned. [`Running`] counts the handlers alive, so that tests can see it.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::task::AbortHandle;

/// How many request handlers are running now.
#[derive(Debug, Clone, Default)]
pub struct Running(Arc<AtomicUsize>);

impl Running {
    /// Counts one handler until the returned guard is dropped (it finished, or was aborted).
    pub fn enter(&self) -> RunningGuard {
        self.0.fetch_add(1, Ordering::SeqCst);
        RunningGuard(Arc::clone(&self.0))
    }

    /// The handlers running now.
    pub fn now(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// One running handler; moved into its task, so dropped with its future.
pub struct RunningGuard(Arc<AtomicUsize>);

impl Drop for RunningGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Aborts the handler's task when dropped with the response that waits for it.
pub struct Cancel(AbortHandle);

impl Cancel {
    /// Aborts the task of `handle` when dropped.
    pub fn new(handle: AbortHandle) -> Self {
        Cancel(handle)
    }
}

impl Drop for Cancel {
    fn drop(&mut self) {
        // Nothing happens if the task has finished.
        self.0.abort();
    }
}

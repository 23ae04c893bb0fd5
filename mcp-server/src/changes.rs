//! What changed on a server, told to the streams that follow it: a `subscriptions/listen`
//! stream of a modern client, a legacy session's `GET` stream (or, over stdio, its output).
//!
//! A server keeps one [`Changes`]; a handler that changes a list or a resource
//! [`sends`](Changes::send) it; each stream reads its own [`Feed`], which ends when the server
//! [stops](Changes::stop) (a graceful shutdown) or when the stream falls further behind than
//! the buffer (it is told how many it missed rather than skip them).
//!
//! ```
//! use mcp_server::changes::{Change, Changes, Next};
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let changes = Changes::new(16);
//! let mut feed = changes.subscribe();
//! changes.send(Change::Resource("file:///notes.txt".into()));
//! changes.stop();
//! assert_eq!(feed.next().await, Next::Change(Change::Resource("file:///notes.txt".into())));
//! assert_eq!(feed.next().await, Next::Stopped);
//! # });
//! ```

use std::sync::Arc;

use tokio::sync::{broadcast, watch};

#[cfg(feature = "redis")]
mod shared;

/// A change a stream may be told of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The list of tools changed.
    Tools,
    /// The list of prompts changed.
    Prompts,
    /// The list of resources changed.
    Resources,
    /// The resource of this URI changed.
    Resource(Arc<str>),
}

/// What a feed's buffer holds: a change, or how many changes the instance itself missed
/// (its Redis channel fell behind).
type Event = Result<Change, u64>;

/// The changes of one server, and the switch that ends every feed of them.
#[derive(Debug)]
pub struct Changes {
    sender: broadcast::Sender<Event>,
    /// How many changes a feed (and, shared, the queue to Redis) keeps.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    buffer: usize,
    stop: watch::Sender<bool>,
    /// Where a change goes when several instances share them (`Changes::shared`, feature
    /// `redis`).
    #[cfg(feature = "redis")]
    publisher: std::sync::OnceLock<tokio::sync::mpsc::Sender<Change>>,
}

/// What a [`Feed`] reads next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// A change.
    Change(Change),
    /// This many changes were missed: the feed fell further behind than the buffer.
    Missed(u64),
    /// The server stopped ([`Changes::stop`]): nothing more comes.
    Stopped,
}

impl Changes {
    /// Changes buffered for a server's streams by default ([`Changes::default`]).
    pub const DEFAULT_BUFFER: usize = 1024;

    /// The changes of a server, `buffer` of them kept for a feed that has not read them yet
    /// (at least one).
    pub fn new(buffer: usize) -> Self {
        let buffer = buffer.max(1);
        let (sender, _) = broadcast::channel(buffer);
        let (stop, _) = watch::channel(false);
        Changes {
            sender,
            buffer,
            stop,
            #[cfg(feature = "redis")]
            publisher: std::sync::OnceLock::new(),
        }
    }

    /// Tells every feed of `change` (no feed: nothing happens); once shared
    /// (`Changes::shared`, `Changes::share`), the feeds of every instance.
    pub fn send(&self, change: Change) {
        #[cfg(feature = "redis")]
        if let Some(publisher) = self.publisher.get() {
            use tokio::sync::mpsc::error::TrySendError;
            match publisher.try_send(change) {
                Ok(()) => {}
                // More changes wait for Redis than the buffer holds: this one is lost, and
                // this instance's feeds are told so.
                Err(TrySendError::Full(_)) => drop(self.sender.send(Err(1))),
                Err(TrySendError::Closed(change)) => drop(self.sender.send(Ok(change))),
            }
            return;
        }
        let _ = self.sender.send(Ok(change));
    }

    /// A feed of the changes sent from now on.
    pub fn subscribe(&self) -> Feed {
        Feed {
            changes: self.sender.subscribe(),
            stop: self.stop.subscribe(),
        }
    }

    /// Ends every feed, those to come included: each reads [`Next::Stopped`] once it has read
    /// what was sent before.
    pub fn stop(&self) {
        self.stop.send_replace(true);
    }

    /// The feeds that exist now.
    pub fn feeds(&self) -> usize {
        self.sender.receiver_count()
    }
}

impl Default for Changes {
    fn default() -> Self {
        Changes::new(Changes::DEFAULT_BUFFER)
    }
}

/// One stream's reading of a server's [`Changes`].
#[derive(Debug)]
pub struct Feed {
    changes: broadcast::Receiver<Event>,
    stop: watch::Receiver<bool>,
}

impl Feed {
    /// The next change, or why there is none.
    pub async fn next(&mut self) -> Next {
        if *self.stop.borrow() {
            return self.pending().unwrap_or(Next::Stopped);
        }
        let received = tokio::select! {
            biased;
            change = self.changes.recv() => Some(change),
            _ = self.stop.wait_for(|stopped| *stopped) => None,
        };
        match received {
            Some(Ok(Ok(change))) => Next::Change(change),
            Some(Ok(Err(missed))) => Next::Missed(missed),
            Some(Err(broadcast::error::RecvError::Lagged(n))) => Next::Missed(n),
            Some(Err(broadcast::error::RecvError::Closed)) => Next::Stopped,
            None => self.pending().unwrap_or(Next::Stopped),
        }
    }

    /// A change sent before the stop and not read yet.
    fn pending(&mut self) -> Option<Next> {
        match self.changes.try_recv() {
            Ok(Ok(change)) => Some(Next::Change(change)),
            Ok(Err(missed)) => Some(Next::Missed(missed)),
            Err(broadcast::error::TryRecvError::Lagged(n)) => Some(Next::Missed(n)),
            Err(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_feed_reads_what_was_sent_after_it_in_order() {
        let changes = Changes::new(4);
        changes.send(Change::Tools);
        let mut feed = changes.subscribe();
        changes.send(Change::Prompts);
        changes.send(Change::Resources);
        assert_eq!(changes.feeds(), 1);
        assert_eq!(feed.next().await, Next::Change(Change::Prompts));
        assert_eq!(feed.next().await, Next::Change(Change::Resources));
    }

    #[tokio::test]
    async fn a_feed_that_fell_behind_is_told_how_many_it_missed() {
        let changes = Changes::new(2);
        let mut feed = changes.subscribe();
        for _ in 0..5 {
            changes.send(Change::Tools);
        }
        assert_eq!(feed.next().await, Next::Missed(3));
        assert_eq!(feed.next().await, Next::Change(Change::Tools));
    }

    #[tokio::test]
    async fn a_stop_ends_every_feed_once_it_has_read_what_came_before() {
        let changes = Changes::default();
        let mut before = changes.subscribe();
        changes.send(Change::Tools);
        changes.stop();
        let mut after = changes.subscribe();
        assert_eq!(before.next().await, Next::Change(Change::Tools));
        assert_eq!(before.next().await, Next::Stopped);
        assert_eq!(after.next().await, Next::Stopped);
    }

    #[tokio::test]
    async fn a_waiting_feed_wakes_at_the_stop() {
        let changes = Arc::new(Changes::default());
        let mut feed = changes.subscribe();
        let waiting = tokio::spawn(async move { feed.next().await });
        tokio::task::yield_now().await;
        changes.stop();
        assert_eq!(waiting.await.unwrap(), Next::Stopped);
    }
}

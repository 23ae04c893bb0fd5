//! `subscriptions/listen` served from a server's [`Changes`]: the stream of one listen
//! request, for any generated module bound by [`bind!`](crate::bind).
//!
//! A stream sends `notifications/subscriptions/acknowledged` first (the part of the client's
//! filter the server honours), then the list-changed notifications and resource updates the
//! filter asked for, each tagged with the subscription id (the listen request's id), and what
//! a [`Follow`] adds (the status of tasks, say). It ends when the client goes away, with the
//! listen request's result when the server stops its changes ([`Changes::stop`]), or with an
//! error when the client reads too slowly: at most `queue` notifications
//! ([`Config::listen_queue`](crate::Config::listen_queue)) wait for it; one more ends the
//! stream after what was queued, rather than grow or skip.
//!
//! [`Served::changes`](crate::Served::changes) serves it without code of the server's own; a
//! [`Service`](crate::Service) of its own opens a [`Stream`] in its `listen`.
//!
//! ```
//! use mcp_server::changes::{Change, Changes};
//! use mcp_server::listen::{Filter, Offered, Stream};
//! use mcp_tests::mcp;
//!
//! mcp_server::bind!(pub Mcp = mcp);
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let asked = Filter { tools_list_changed: true, ..Filter::default() };
//! let offered = Offered { tools_list_changed: true, ..Offered::default() };
//! let changes = Changes::default();
//! let id = mcp::RequestId::Integer(1);
//! let mut stream = Stream::<Mcp>::new(id, asked.honoured(&offered, |_| true), 8).open(&changes);
//! changes.send(Change::Tools);
//! assert!(stream.recv().await.unwrap().contains("subscriptions/acknowledged"));
//! assert!(stream.recv().await.unwrap().contains("tools/list_changed"));
//! # });
//! ```

use std::future::Future;

use mcp_runtime::RpcError;
use mcp_runtime::error_code::SERVER_ERROR;
use tokio::sync::mpsc;

use crate::changes::{Change, Changes, Feed, Next};
use crate::{Refused, Schema};

/// The messages of a listen stream, as JSON text, in order (the transport sends them).
pub type Messages = mpsc::Receiver<String>;

/// What a listen request's filter names, or what a server honours of it: the bound module's
/// `SubscriptionFilter`, read ([`Schema::listen_filter`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Changes of the tool list.
    pub tools_list_changed: bool,
    /// Changes of the prompt list.
    pub prompts_list_changed: bool,
    /// Changes of the resource list.
    pub resources_list_changed: bool,
    /// The resources whose updates are told (`resources/updated`), if any were named.
    pub resource_subscriptions: Option<Vec<String>>,
    /// Members an extension's [`Follow`] honours (the tasks extension's task ids, say),
    /// written in the acknowledgement as they are; never read from the request.
    pub extensions: serde_json::Map<String, serde_json::Value>,
}

/// What a server offers listen streams: the `listChanged` and `subscribe` capabilities it
/// declares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Offered {
    /// `tools.listChanged`.
    pub tools_list_changed: bool,
    /// `prompts.listChanged`.
    pub prompts_list_changed: bool,
    /// `resources.listChanged`.
    pub resources_list_changed: bool,
    /// `resources.subscribe`.
    pub subscribe: bool,
}

impl Filter {
    /// What a server offering `offered` honours of this filter: the list changes it offers,
    /// and (when it offers subscriptions) the resources named that `follows` accepts, sorted,
    /// each once. An extension's members are left out: a [`Follow`] that serves them adds them
    /// ([`Follow::start`]).
    pub fn honoured(&self, offered: &Offered, follows: impl Fn(&str) -> bool) -> Filter {
        let resource_subscriptions = self
            .resource_subscriptions
            .as_ref()
            .filter(|_| offered.subscribe)
            .map(|uris| {
                let mut kept: Vec<String> = uris.iter().filter(|u| follows(u)).cloned().collect();
                kept.sort_unstable();
                kept.dedup();
                kept
            });
        Filter {
            tools_list_changed: self.tools_list_changed && offered.tools_list_changed,
            prompts_list_changed: self.prompts_list_changed && offered.prompts_list_changed,
            resources_list_changed: self.resources_list_changed && offered.resources_list_changed,
            resource_subscriptions,
            extensions: serde_json::Map::new(),
        }
    }

    /// Whether a stream honouring this filter tells of `change`.
    pub fn tells(&self, change: &Change) -> bool {
        match change {
            Change::Tools => self.tools_list_changed,
            Change::Prompts => self.prompts_list_changed,
            Change::Resources => self.resources_list_changed,
            Change::Resource(uri) => self
                .resource_subscriptions
                .iter()
                .flatten()
                .any(|followed| **followed == **uri),
        }
    }
}

/// What a [`Follow`] reads next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Followed {
    /// A notification for the stream (JSON text, tagged with the subscription id).
    Note(String),
    /// Nothing for this stream: read on.
    Skip,
    /// This many notifications were missed: the stream ends with the "fell behind" error.
    Missed(u64),
    /// The source ended: the stream ends without a message.
    Ended,
}

/// A source of notifications a stream follows besides the server's [`Changes`] (the status
/// of tasks, say).
pub trait Follow: Send + 'static {
    /// Runs once before the acknowledgement: writes in `honoured` what of the client's filter
    /// it honours, or fails with the message (JSON text) that is then the whole stream.
    fn start(&mut self, honoured: &mut Filter) -> impl Future<Output = Result<(), String>> + Send;

    /// Its next notification, or why there is none.
    fn next(&mut self) -> impl Future<Output = Followed> + Send;
}

/// Follows nothing besides the changes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nothing;

impl Follow for Nothing {
    async fn start(&mut self, _honoured: &mut Filter) -> Result<(), String> {
        Ok(())
    }

    async fn next(&mut self) -> Followed {
        std::future::pending().await
    }
}

/// One listen stream, before it is opened: the subscription (the listen request's id), what
/// it honours, its queue bound.
#[derive(Debug)]
pub struct Stream<S: Schema> {
    id: S::RequestId,
    honoured: Filter,
    queue: usize,
    result_meta: serde_json::Value,
}

impl<S: Schema> Stream<S> {
    /// The stream of subscription `id` honouring `honoured`, at most `queue` notifications
    /// waiting for its client (at least one).
    pub fn new(id: S::RequestId, honoured: Filter, queue: usize) -> Self {
        Stream {
            id,
            honoured,
            queue: queue.max(1),
            result_meta: serde_json::Value::Null,
        }
    }

    /// The same stream, its final result's `_meta` completed with the members of `meta`
    /// (such as a `ResultMetaObject` naming the server; [`crate::result_meta::identified`]).
    #[must_use]
    pub fn identified(mut self, meta: &impl serde::Serialize) -> Self {
        self.result_meta = serde_json::to_value(meta).unwrap_or_default();
        self
    }

    /// Opens the stream on `changes`: its messages on the receiver returned, as JSON text
    /// (the transport sends them).
    pub fn open(self, changes: &Changes) -> Messages {
        self.open_following(changes, Nothing)
    }

    /// Opens the stream on `changes` and `follow` (subscribed to both now, so that nothing
    /// sent from now on is missed).
    pub fn open_following(self, changes: &Changes, follow: impl Follow) -> Messages {
        // One slot more than the queue: the last one is kept for the error that ends it.
        let (tx, rx) = mpsc::channel(self.queue.saturating_add(1));
        let feed = changes.subscribe();
        tokio::spawn(self.run(tx, feed, follow));
        rx
    }

    /// Feeds `tx` until the stream ends.
    async fn run(mut self, tx: mpsc::Sender<String>, mut feed: Feed, mut follow: impl Follow) {
        if let Err(message) = follow.start(&mut self.honoured).await {
            let _ = tx.try_send(message);
            return;
        }
        if let Some(ack) = S::listen_acknowledged(&self.id, &self.honoured) {
            let _ = tx.try_send(ack);
        }
        let end = loop {
            let note = tokio::select! {
                () = tx.closed() => return,
                next = feed.next() => match next {
                    Next::Change(change) if self.honoured.tells(&change) => {
                        S::listen_change(&self.id, &change)
                    }
                    Next::Change(_) => None,
                    Next::Missed(n) => break Some(self.fell_behind(n)),
                    Next::Stopped => break S::listen_result(&self.id)
                        .map(|r| crate::result_meta::identified(r, &self.result_meta)),
                },
                followed = follow.next() => match followed {
                    Followed::Note(note) => Some(note),
                    Followed::Skip => None,
                    Followed::Missed(n) => break Some(self.fell_behind(n)),
                    Followed::Ended => return,
                },
            };
            let Some(note) = note else { continue };
            if tx.capacity() <= 1 {
                // The client reads slower than notifications come: everything queued is
                // still delivered, then this error; nothing is silently skipped.
                break Some(self.fell_behind(1));
            }
            if tx.try_send(note).is_err() {
                return;
            }
        };
        if let Some(text) = end {
            let _ = tx.try_send(text);
        }
    }

    /// The error that ends the stream of a client that fell behind: `missed` notifications
    /// (at least) were not queued.
    fn fell_behind(&self, missed: u64) -> String {
        fell_behind::<S>(&self.id, missed)
    }
}

/// The error (JSON text) that ends the listen stream `subscription` whose client fell
/// behind: `missed` notifications (at least) could not be queued. The client listens again
/// and re-reads what it follows.
pub fn fell_behind<S: Schema>(subscription: &S::RequestId, missed: u64) -> String {
    let message = format!(
        "Listen stream ended: the client read too slowly and {missed} or more notifications \
         could not be queued; listen again and list what changed"
    );
    Refused::<S>::new(Some(subscription), RpcError::new(SERVER_ERROR, message)).text()
}

//! Where a legacy session's record lives when several instances of a server serve it
//! (feature `redis`, `Sessions::with_redis`): a [`Store`] in
//! Redis, and the [`Note`]s the instances tell each other of the sessions they hold copies of.
//!
//! Without the feature, [`Store`] has no value: every session is the in-memory one of the
//! instance that opened it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "redis")]
mod in_redis;
#[cfg(feature = "redis")]
pub use in_redis::Store;

/// The shared store could not be used (Redis down, slow, or it refused a command): the
/// request that needed it fails with this error, which says nothing of any stored data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the shared session store (Redis) is unavailable: {0}")]
pub struct StoreError(pub String);

/// What a request finds of its session's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Touched {
    /// No such session (never opened, ended, or idled out).
    Gone,
    /// Another principal's: answered as if it did not exist, and left as it is.
    Other,
    /// The caller's, its expiry renewed.
    Found {
        /// The level's JSON text, if one was set.
        level: Option<String>,
        /// Whether the client sent `notifications/initialized`.
        initialized: bool,
        /// The `_meta` of `initialize`, when asked for.
        meta: Option<String>,
    },
}

/// What one instance tells the others of a session (on the channel every instance listens
/// to). Each is checked against the session's principal where it is applied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Note {
    /// The client's `answer` to the server's request `id`, POSTed at an instance where
    /// nothing waits for it.
    Answer {
        /// The session.
        s: String,
        /// Its principal.
        p: String,
        /// The server's request id.
        id: String,
        /// The client's response message.
        m: Value,
    },
    /// `notifications/cancelled` of the session's request `r`, running at another instance.
    Cancel {
        /// The session.
        s: String,
        /// Its principal.
        p: String,
        /// The request id (JSON).
        r: Value,
    },
    /// The session ended (`DELETE`): a hint, not an order. An instance with a copy of session
    /// `s` of principal `p` reads the session's record, and ends its copy (its work stops) only
    /// if the record is gone; a note forged by another client of the Redis ends nothing that
    /// lives.
    Ended {
        /// The session.
        s: String,
        /// Its principal.
        p: String,
    },
    /// `logging/setLevel` set the level `l` (its JSON text).
    Level {
        /// The session.
        s: String,
        /// Its principal.
        p: String,
        /// The level's JSON text.
        l: String,
    },
    /// A `GET` stream of the session opened at instance `at`: it takes over from the
    /// session's `GET` stream at any other instance (one per session, as on one instance).
    GetStream {
        /// The session.
        s: String,
        /// Its principal.
        p: String,
        /// The instance where it opened.
        at: String,
    },
    /// The client sent `notifications/initialized`.
    Initialized {
        /// The session.
        s: String,
        /// Its principal.
        p: String,
    },
    /// A `GET` with `Last-Event-ID` `last` came to instance `to`, which does not hold the
    /// stream: the instance that does sends it the events ([`Relay`]) under `token`.
    Resume {
        /// The session.
        s: String,
        /// Its principal.
        p: String,
        /// The `Last-Event-ID`.
        last: String,
        /// The instance that asks.
        to: String,
        /// Names the relay.
        token: String,
    },
}

/// What the instance that holds a stream sends the one that resumes it (on that instance's
/// own channel), under the token of its [`Note::Resume`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Relay {
    /// The stream is resumed: its events follow.
    Opened {
        /// The relay.
        token: String,
    },
    /// The stream cannot be resumed (the text says why).
    Refused {
        /// The relay.
        token: String,
        /// Why.
        why: String,
    },
    /// One event of the stream.
    Event {
        /// The relay.
        token: String,
        /// Its id.
        id: String,
        /// Its data.
        data: String,
        /// Its `retry:`, in milliseconds.
        retry: Option<u64>,
    },
    /// The stream's connection ended.
    Closed {
        /// The relay.
        token: String,
    },
}

impl Relay {
    /// The relay it belongs to.
    pub fn token(&self) -> &str {
        match self {
            Relay::Opened { token }
            | Relay::Refused { token, .. }
            | Relay::Event { token, .. }
            | Relay::Closed { token } => token,
        }
    }
}

/// No store: without the feature `redis`, no session is shared.
#[cfg(not(feature = "redis"))]
#[derive(Debug)]
pub enum Store {}

#[cfg(not(feature = "redis"))]
impl Store {
    /// This instance's id.
    pub fn instance(&self) -> &str {
        match *self {}
    }

    /// Opens a session.
    pub async fn open(
        &self,
        _id: &str,
        _principal: &str,
        _meta: &str,
    ) -> Result<Result<(), crate::shares::Exhausted>, StoreError> {
        match *self {}
    }

    /// A session's record, renewed.
    pub async fn touch(
        &self,
        _id: &str,
        _principal: &str,
        _full: bool,
    ) -> Result<Touched, StoreError> {
        match *self {}
    }

    /// Ends a session.
    pub async fn end(&self, _id: &str, _principal: &str) -> Result<bool, StoreError> {
        match *self {}
    }

    /// Whether the client sent `notifications/initialized`.
    pub async fn is_initialized(&self, _id: &str) -> Result<bool, StoreError> {
        match *self {}
    }

    /// Which sessions live.
    pub async fn alive(&self, _ids: &[String]) -> Result<Vec<bool>, StoreError> {
        match *self {}
    }

    /// Sends instance `_to` `_relay`.
    pub async fn relay(&self, _to: &str, _relay: &Relay) -> Result<(), StoreError> {
        match *self {}
    }

    /// The relays sent to this instance.
    pub async fn relays(
        &self,
    ) -> Result<tokio::sync::broadcast::Receiver<std::sync::Arc<[u8]>>, StoreError> {
        match *self {}
    }

    /// Records level `_text` in the session's record.
    pub async fn set_level(&self, _id: &str, _text: &str) -> Result<bool, StoreError> {
        match *self {}
    }

    /// Records the client's `notifications/initialized`.
    pub async fn set_initialized(&self, _id: &str) -> Result<bool, StoreError> {
        match *self {}
    }

    /// Follows `_uri`.
    pub async fn subscribe(&self, _id: &str, _uri: &str) -> Result<bool, StoreError> {
        match *self {}
    }

    /// Stops following `_uri`.
    pub async fn unsubscribe(&self, _id: &str, _uri: &str) -> Result<(), StoreError> {
        match *self {}
    }

    /// Whether the session follows `_uri`.
    pub async fn is_subscribed(&self, _id: &str, _uri: &str) -> Result<bool, StoreError> {
        match *self {}
    }

    /// Tells every instance `_note`.
    pub async fn publish(&self, _note: &Note) -> Result<(), StoreError> {
        match *self {}
    }
}

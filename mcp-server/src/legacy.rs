//! Legacy (2025-11-25) sessions on the same endpoint as the modern requests: the session
//! table ([`sessions`]: ids, principal binding, idle expiry, bounds, the server's requests
//! waiting for answers, subscriptions, the requests being handled), a session's client as the
//! bridge's [`Peer`](crate::bridge::Peer) ([`peer`]), the era of a POST
//! ([`route`](mod@route)), `initialize` ([`initialize`](mod@initialize)), a session's messages served with a modern
//! [`Service`](crate::Service) ([`serve`](mod@serve)), all of it as the HTTP endpoint's hook
//! for any [`LegacyService`] ([`hook`]) and the stdio endpoint's ([`stdio`](mod@stdio)), and
//! the conversions between the eras' types they use
//! ([`convert`]; a session's `_meta` written into its requests: [`meta`]), for any [`LegacySchema`](crate::LegacySchema).
//! With the feature `redis`, the sessions of several instances behind one address are shared
//! through Redis (`Sessions::with_redis`, [`store`]).

pub mod convert;
pub mod follow;
pub mod hook;
pub mod initialize;
pub mod meta;
pub mod peer;
pub mod route;
pub mod serve;
pub mod sessions;
pub mod stdio;
pub mod store;

pub use hook::{HttpSessions, LegacyService};
pub use initialize::{Initialize, initialize, open};
pub use peer::SessionPeer;
pub use route::{Route, is_initialize, route};
pub use serve::{LEGACY_VERSION, Started, post, start};
pub use sessions::{OpenError, QueueFull, Session, Sessions};
pub use stdio::StdioSession;
pub use store::StoreError;

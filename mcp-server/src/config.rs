//! The bounds and switches of one server, in one struct: how much one request may hold, how
//! long a connection may take to send it, how many connections, sessions, streams and queued
//! messages may exist at once, which hosts may be named, and whether legacy sessions are
//! served. Each has a default fit for one machine; RELIABILITY.md ("Bounds of the example
//! server") says what happens at each limit.

use std::sync::Arc;
use std::time::Duration;

use crate::auth::Auth;
use crate::principal::PrincipalKey;

/// The configuration of a server: every field has a safe default ([`Config::default`]) and a
/// builder method of the same name that returns the changed configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Host names accepted in `Host` and `Origin` (DNS-rebinding protection), lowercase;
    /// by default `localhost`, `127.0.0.1` and `[::1]`.
    pub allowed_hosts: Vec<String>,
    /// Serve only the modern (stateless) revisions: `initialize` is refused with
    /// `UNSUPPORTED_PROTOCOL_VERSION` instead of opening a legacy session.
    pub modern_only: bool,
    /// Largest request body, in bytes: a larger one is answered 413 without being read on.
    pub max_body: usize,
    /// Time to send a request's head (request line and headers), from the first byte wanted:
    /// a connection that is slower is closed. The same timer closes a keep-alive connection
    /// that sends no next request head within it (hyper's `header_read_timeout`), so this is
    /// also the idle keep-alive timeout.
    pub header_read: Duration,
    /// Time to send a whole request body once the head is in: a slower request is answered 408.
    pub body_read: Duration,
    /// Connections served at once; further ones wait in the listen backlog (they are not
    /// accepted) until one of these closes.
    pub max_connections: usize,
    /// Notifications queued for one `subscriptions/listen` stream whose client does not read:
    /// when they are all waiting, the stream is ended with an error that says what was missed.
    pub listen_queue: usize,
    /// Longest a graceful shutdown waits for open connections before it drops them.
    pub shutdown_grace: Duration,
    /// Legacy (2025-11-25) sessions at once: an `initialize` beyond them is refused (429)
    /// until one ends or idles out. An ended session counts until its memory is freed (its
    /// handlers stopped, its waiting requests dropped).
    pub max_sessions: usize,
    /// The share of each pool one principal (the anonymous principal is one) may hold, in
    /// percent: of [`Config::max_sessions`], [`Config::max_get_streams`] and
    /// [`Config::max_waiting`] (tasks have their own per-principal bound). One more is
    /// refused (429) while the others still have room.
    pub principal_share: usize,
    /// Largest `initialize` request, in bytes: what a legacy session keeps of it (the client's
    /// capabilities and info) is parsed once and read by every request of the session, so it
    /// is bounded apart from [`Config::max_body`]. A larger one is refused with
    /// `INVALID_PARAMS` naming the limit.
    pub max_initialize: usize,
    /// Legacy `GET` streams open at once, in all. The server holds at most
    /// [`Config::get_streams_bound`] of them, which leaves [`Config::connections_reserved`] of
    /// [`Config::max_connections`] for requests however small that is. One more is refused
    /// (429).
    pub max_get_streams: usize,
    /// A legacy `GET` stream that carried no message for this long is ended (the client may
    /// open another).
    pub get_stream_idle: Duration,
    /// Server-to-client requests waiting for answers, in all legacy sessions.
    pub max_waiting: usize,
    /// A legacy session with no request for this long is dropped; its id is then unknown
    /// (404) and the client initializes again.
    pub session_idle: Duration,
    /// Server-to-client requests of one legacy session waiting for answers: one more is
    /// refused (the request that needed it ends with an error). (What its streams hold is
    /// bounded by `replay_events`.)
    pub session_queue: usize,
    /// How long a legacy client has to answer a server-to-client request (an elicitation, a
    /// sampling, a roots list): then the request that needed it ends with an error.
    pub input_timeout: Duration,
    /// Events kept per SSE stream of a legacy session for a client that resumes it
    /// (`Last-Event-ID`); a resume from before the oldest kept one is refused (400).
    pub replay_events: usize,
    /// Bytes of events kept for resumption per legacy session, all its streams together:
    /// beyond them the oldest ended streams go first, then the oldest events.
    pub replay_bytes: usize,
    /// How long a legacy session's stream stays resumable once it has ended.
    pub resume_window: Duration,
    /// Ended streams kept resumable per legacy session: beyond them the oldest goes first.
    pub resumable_streams: usize,
    /// Requests of one stdio connection handled at once (`crate::stdio`): one more is answered
    /// with the bound-reached error until one of them is answered.
    pub max_in_flight: usize,
    /// stdio: how long the response of a request that sent notifications (or server-to-client
    /// requests) waits once they are written, so that it reaches the client in a later read.
    /// A client that runs a read's notifications after its responses would otherwise drop a
    /// progress notification that came right before the response, as the TypeScript SDK does
    /// (modelcontextprotocol/typescript-sdk#2580). Zero writes the response at once.
    pub response_gap: Duration,
    /// Longest URI `resources/read` matches against the resource router, in bytes: a longer
    /// one is refused with `INVALID_PARAMS` naming the bound, before any matching
    /// ([`Resources::read_within`](crate::resources::Resources::read_within)).
    pub max_uri_bytes: usize,
    /// The endpoint as an OAuth protected resource ([`crate::auth`]): every HTTP request needs
    /// a bearer token its validator accepts. `None` (the default): no token is asked for, and
    /// the principal is a keyed hash of the `Authorization` header
    /// ([`Config::principal_key`]), or `anonymous` without one.
    pub auth: Option<Arc<Auth>>,
    /// Without [`Config::auth`]: the key that names a credential's principal
    /// ([`PrincipalKey::principal_of`]), so that no credential is kept or stored as sent. By
    /// default this process's own random key; instances that share a store need the same one
    /// (`--principal-key`, [`crate::options::PrincipalOptions`]).
    pub principal_key: PrincipalKey,
}

/// The hosts a server on this machine answers to by default.
const LOCAL_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

impl Default for Config {
    fn default() -> Self {
        Config {
            allowed_hosts: LOCAL_HOSTS.into_iter().map(str::to_owned).collect(),
            modern_only: false,
            max_body: 4 * 1024 * 1024,
            header_read: Duration::from_secs(10),
            body_read: Duration::from_secs(30),
            max_connections: 512,
            listen_queue: 256,
            shutdown_grace: Duration::from_secs(5),
            max_sessions: 1024,
            principal_share: 25,
            max_initialize: 64 * 1024,
            max_get_streams: 256,
            get_stream_idle: Duration::from_secs(300),
            max_waiting: 1024,
            session_idle: Duration::from_secs(600),
            session_queue: 16,
            input_timeout: Duration::from_secs(60),
            replay_events: 64,
            replay_bytes: 1024 * 1024,
            resume_window: Duration::from_secs(60),
            resumable_streams: 16,
            max_in_flight: 64,
            response_gap: Duration::from_millis(5),
            max_uri_bytes: crate::resources::MAX_URI_BYTES,
            auth: None,
            principal_key: PrincipalKey::of_process(),
        }
    }
}

/// A builder method per field: `config.max_body(1 << 20)` sets [`Config::max_body`].
macro_rules! setters {
    ($($field:ident: $t:ty),* $(,)?) => {
        impl Config {
            $(
                #[doc = concat!("The same configuration with [`Config::", stringify!($field), "`] set.")]
                #[must_use]
                pub fn $field(mut self, value: $t) -> Self {
                    self.$field = value;
                    self
                }
            )*
        }
    };
}

setters! {
    modern_only: bool,
    max_body: usize,
    header_read: Duration,
    body_read: Duration,
    max_connections: usize,
    listen_queue: usize,
    shutdown_grace: Duration,
    max_sessions: usize,
    principal_share: usize,
    max_initialize: usize,
    max_get_streams: usize,
    get_stream_idle: Duration,
    max_waiting: usize,
    session_idle: Duration,
    session_queue: usize,
    input_timeout: Duration,
    replay_events: usize,
    replay_bytes: usize,
    resume_window: Duration,
    resumable_streams: usize,
    max_in_flight: usize,
    response_gap: Duration,
    max_uri_bytes: usize,
    principal_key: PrincipalKey,
}

impl Config {
    /// The same configuration, protected by `auth` ([`Config::auth`]).
    #[must_use]
    pub fn auth(mut self, auth: Auth) -> Self {
        self.auth = Some(Arc::new(auth));
        self
    }

    /// The same configuration, also answering to `host` (compared lowercase) in `Host` and
    /// `Origin`.
    #[must_use]
    pub fn allow_host(mut self, host: &str) -> Self {
        let host = host.to_ascii_lowercase();
        if !self.allowed_hosts.contains(&host) {
            self.allowed_hosts.push(host);
        }
        self
    }

    /// Connections that streams held open (legacy `GET` streams) never take: a quarter of
    /// [`Config::max_connections`], at least one, so that a client whose streams are open
    /// cannot leave another's `initialize` unanswered.
    pub fn connections_reserved(&self) -> usize {
        self.max_connections.div_ceil(4).max(1)
    }

    /// Legacy `GET` streams the server holds open at once, in all: [`Config::max_get_streams`],
    /// but at most what [`Config::max_connections`] leaves after
    /// [`Config::connections_reserved`] (none with one connection).
    ///
    /// ```
    /// let config = mcp_server::Config::default().max_connections(24);
    /// assert_eq!(config.max_get_streams, 256);
    /// assert_eq!(config.get_streams_bound(), 18);
    /// ```
    pub fn get_streams_bound(&self) -> usize {
        let left = self
            .max_connections
            .saturating_sub(self.connections_reserved());
        self.max_get_streams.min(left)
    }

    /// Whether `host` (already lowercase, as [`crate::headers::host_of_authority`] gives it)
    /// is one of [`Config::allowed_hosts`].
    pub fn is_allowed_host(&self, host: &str) -> bool {
        self.allowed_hosts.iter().any(|h| h == host)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_local_and_bounded() {
        let config = Config::default();
        assert!(config.is_allowed_host("localhost"));
        assert!(config.is_allowed_host("[::1]"));
        assert!(!config.is_allowed_host("evil.example"));
        assert!(!config.modern_only);
        assert_eq!(config.max_body, 4 * 1024 * 1024);
        assert!(config.max_connections > 0 && config.max_sessions > 0);
        assert!(config.max_in_flight > 0);
    }

    #[test]
    fn get_streams_leave_connections_for_requests() {
        for connections in [1, 2, 3, 4, 24, 512, 1000] {
            let config = Config::default().max_connections(connections);
            let bound = config.get_streams_bound();
            assert!(bound <= config.max_get_streams, "{connections}");
            assert!(
                bound + config.connections_reserved() <= connections,
                "{connections}"
            );
        }
        assert_eq!(Config::default().get_streams_bound(), 256);
        assert_eq!(Config::default().max_connections(1).get_streams_bound(), 0);
        let few = Config::default().max_connections(24).max_get_streams(4);
        assert_eq!(few.get_streams_bound(), 4);
    }

    #[test]
    fn the_builder_sets_one_field_each() {
        let config = Config::default()
            .allow_host("MCP.Example")
            .allow_host("mcp.example")
            .modern_only(true)
            .session_idle(Duration::from_millis(40));
        assert!(config.is_allowed_host("mcp.example"));
        assert_eq!(config.allowed_hosts.len(), 4);
        assert!(config.modern_only);
        assert_eq!(config.session_idle, Duration::from_millis(40));
        assert_eq!(config.max_body, Config::default().max_body);
    }
}

//! How a [`Client`](crate::Client) behaves: who it is, what it can answer and how, and its
//! bounds.

use std::sync::Arc;
use std::time::Duration;

use crate::binding::Binding;

/// The default of [`Config::with_max_message`]: 4 MiB.
pub const DEFAULT_MAX_MESSAGE: usize = 4 * 1024 * 1024;

/// The handler of input requests: the answer to an elicitation, a sampling or a roots request,
/// in either era (a legacy server's request is read as the modern input request it stands
/// for).
pub type Respond<B> =
    Arc<dyn Fn(&<B as Binding>::InputRequest) -> <B as Binding>::InputResponse + Send + Sync>;

/// Where the client writes what it does (the era found, the server's requests answered, the
/// notifications, a stream resumed): one line at a time.
pub type Log = Arc<dyn Fn(std::fmt::Arguments<'_>) + Send + Sync>;

/// What a client is and does; [`Config::new`] has the defaults, the `with_` methods change
/// them.
///
/// Redirects: an HTTP client follows a redirect only within the origin (scheme, host and
/// port) of its server's URL, at most [`MAX_REDIRECTS`](crate::MAX_REDIRECTS) in a row. A
/// redirect (301, 302, 303, 307 or 308) to another origin is a
/// [`ClientError::Http`](crate::ClientError::Http) that names it, and nothing is sent there:
/// neither the headers of [`Config::with_header`], nor the token of
/// [`Config::with_authorizer`], nor the `Mcp-Session-Id`, nor the request's body.
pub struct Config<B: Binding> {
    pub(crate) capabilities: B::Capabilities,
    pub(crate) client_info: B::Implementation,
    pub(crate) respond: Respond<B>,
    pub(crate) log: Log,
    pub(crate) idle_timeout: Duration,
    pub(crate) connect_timeout: Duration,
    pub(crate) probe_timeout: Duration,
    pub(crate) max_rounds: usize,
    pub(crate) max_task_wait: Duration,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) max_message: usize,
    pub(crate) auth: crate::send::Auth,
}

impl<B: Binding> Clone for Config<B> {
    fn clone(&self) -> Self {
        Config {
            capabilities: self.capabilities.clone(),
            client_info: self.client_info.clone(),
            respond: Arc::clone(&self.respond),
            log: Arc::clone(&self.log),
            idle_timeout: self.idle_timeout,
            connect_timeout: self.connect_timeout,
            probe_timeout: self.probe_timeout,
            max_rounds: self.max_rounds,
            max_task_wait: self.max_task_wait,
            headers: self.headers.clone(),
            max_message: self.max_message,
            auth: self.auth.clone(),
        }
    }
}

impl<B: Binding> Config<B> {
    /// A client that declares `capabilities`, names itself `client_info`, and answers the
    /// server's input requests with `respond` (which must answer every kind `capabilities`
    /// declares). Logs nothing ([`Config::with_log`]). Gives up on a response after 20 s without a byte, on a connection after
    /// 10 s, on a call after 8 input rounds, on a task after 600 s; a stdio server that does
    /// not answer the probe within 10 s is taken for a legacy one. Reads no message (a JSON
    /// body, an SSE event, a stdio line) over [`DEFAULT_MAX_MESSAGE`] bytes.
    pub fn new(
        capabilities: B::Capabilities,
        client_info: B::Implementation,
        respond: impl Fn(&B::InputRequest) -> B::InputResponse + Send + Sync + 'static,
    ) -> Self {
        Config {
            capabilities,
            client_info,
            respond: Arc::new(respond),
            log: Arc::new(|_| {}),
            idle_timeout: Duration::from_secs(20),
            connect_timeout: Duration::from_secs(10),
            probe_timeout: Duration::from_secs(10),
            max_rounds: 8,
            max_task_wait: Duration::from_secs(600),
            headers: Vec::new(),
            max_message: DEFAULT_MAX_MESSAGE,
            auth: Default::default(),
        }
    }

    /// Writes what the client does to `log`, a line at a time (`|line| eprintln!("{line}")`
    /// for stderr).
    #[must_use]
    pub fn with_log(
        mut self,
        log: impl Fn(std::fmt::Arguments<'_>) + Send + Sync + 'static,
    ) -> Self {
        self.log = Arc::new(log);
        self
    }

    /// Gives up on a response after `idle` without a byte (never after a total time: a long
    /// call lives as long as its stream does).
    #[must_use]
    pub fn with_idle_timeout(mut self, idle: Duration) -> Self {
        self.idle_timeout = idle;
        self
    }

    /// Gives up on a connection after `timeout`.
    #[must_use]
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// How long a stdio server may take to answer the probe before the client takes it for a
    /// legacy server (one that answers nothing before `initialize`).
    #[must_use]
    pub fn with_probe_timeout(mut self, timeout: Duration) -> Self {
        self.probe_timeout = timeout;
        self
    }

    /// How many `input_required` rounds one call may take before the client gives up.
    #[must_use]
    pub fn with_max_rounds(mut self, rounds: usize) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// The longest the client follows a task (shorter when its `ttlMs` is).
    #[must_use]
    pub fn with_max_task_wait(mut self, wait: Duration) -> Self {
        self.max_task_wait = wait;
        self
    }

    /// The largest message the client reads from the server, in bytes: a JSON response body,
    /// one event of an SSE stream (a stream may carry many), a stdio line. A larger one is an
    /// error ([`ClientError::Http`](crate::ClientError::Http) or
    /// [`ClientError::Stdio`](crate::ClientError::Stdio)), read no further: the client never
    /// holds more of it than this.
    #[must_use]
    pub fn with_max_message(mut self, bytes: usize) -> Self {
        self.max_message = bytes;
        self
    }

    /// Authorizes the client's HTTP requests with `auth`: each carries its token, and a 401
    /// or a 403 asking for more scope runs the OAuth flow ([`crate::auth`]) before the request
    /// is sent again. One authorizer may serve several clients.
    #[cfg(feature = "auth")]
    #[must_use]
    pub fn with_authorizer(mut self, auth: Arc<crate::auth::Authorizer>) -> Self {
        self.auth = Some(auth);
        self
    }

    /// A header sent with every HTTP request (a fixed `Authorization`, say), to the server's
    /// origin only: a redirect to another origin is refused, not followed (see [`Config`]).
    #[must_use]
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }
}

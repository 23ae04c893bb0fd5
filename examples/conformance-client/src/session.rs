//! One client talking to one server over stateless Streamable HTTP (2026-07-28): every request
//! is a POST carrying its own `_meta`, the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`
//! headers, and the `Mcp-Param-*` headers the tool's `x-mcp-header` annotations ask for. With
//! a legacy server (found by [`Session::connect`]'s probe) the same session speaks 2025-11-25
//! in a session opened by `initialize`: see `legacy.rs` for the conversions,
//! `session/legacy_http.rs` for the session's exchanges, `session/listener.rs` for the reader
//! of its GET stream, and [`Session::send`] for where the eras part.
//!
//! Requests and responses are the generated types; the multi round-trip retry is the
//! generated `retry` of the request, which echoes `requestState` exactly (and sends none when
//! none came) and takes a new JSON-RPC id. A request is written straight from its type to
//! JSON text, and a response read straight from the text into its type: no
//! `serde_json::Value` in between, which would reorder the members (the body keeps the order
//! the generated type writes: `jsonrpc`, `method`, `id`, `params`).
//!
//! `tools/call` advertises the tasks extension (`io.modelcontextprotocol/tasks`): a server may
//! answer it with a task, which the client follows with `tasks/get` (waiting `pollIntervalMs`
//! between polls), answering the task's input requests with `tasks/update`, until the task
//! ends. A response is read with the `resultType` values of the extensions its request
//! advertised, and no others (`mcp_runtime::extension::Reader`).

use std::collections::BTreeSet;
use std::fmt;
use std::time::{Duration, Instant};

use mcp_runtime::era::{self, Era, Probe};
use mcp_runtime::error_code::{HEADER_MISMATCH, UNSUPPORTED_PROTOCOL_VERSION};
use mcp_runtime::extension::Reader;
use mcp_runtime::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::headers;
use crate::legacy::Link;
use crate::mcp;

mod legacy_http;
mod listener;

use listener::Listener;
#[cfg(test)]
pub(crate) use listener::MAX_EVENT_BYTES;

/// The modern revisions (a protocol version on every request) this client speaks, preferred
/// first: what its requests declare and what it looks for in a server's `supportedVersions`
/// or `supported`. With a legacy server it speaks `legacy::VERSION` (2025-11-25) instead,
/// through an `initialize` session.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// How many `InputRequiredResult` rounds one call may take before the client gives up.
const MAX_ROUNDS: usize = 8;

/// How long the client waits for the next bytes of a response (an SSE stream the server keeps
/// alive with pings or notifications may last much longer).
const IDLE_TIMEOUT: Duration = Duration::from_secs(20);
/// How long the client waits for a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest the client follows a task (shorter when its `ttlMs` is).
const MAX_TASK_WAIT: Duration = Duration::from_secs(600);
/// How long the client waits between polls when the server suggests no `pollIntervalMs`.
const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(500);

#[derive(Debug)]
pub enum ClientError {
    Http(String),
    /// The server answered with a JSON-RPC error.
    Rpc(mcp::Error),
    /// The answer is not what the protocol says it should be.
    Protocol(String),
    /// A legacy server answered 404 to a message of its session: the session is gone.
    SessionEnded,
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Http(e) => write!(f, "HTTP: {e}"),
            ClientError::Rpc(e) => write!(f, "JSON-RPC error {}: {}", e.code, e.message),
            ClientError::Protocol(e) => write!(f, "protocol: {e}"),
            ClientError::SessionEnded => write!(f, "HTTP 404: the server ended the session"),
        }
    }
}

impl std::error::Error for ClientError {}

/// A request this client sends: it gets a fresh id and the current `_meta` before each send,
/// and its answer is read with the extensions its capabilities advertise.
pub trait Outgoing: Serialize + mcp_runtime::Request {
    fn reset(&mut self, id: mcp::RequestId, meta: mcp::RequestMetaObject);
    fn id(&self) -> &mcp::RequestId;

    /// The capabilities sent with the request.
    fn capabilities(&self) -> Option<&mcp::ClientCapabilities>;
}

macro_rules! outgoing {
    ($($t:ty),* $(,)?) => {$(
        impl Outgoing for $t {
            fn reset(&mut self, id: mcp::RequestId, meta: mcp::RequestMetaObject) {
                self.id = id;
                self.params.meta = meta;
            }

            fn id(&self) -> &mcp::RequestId {
                &self.id
            }

            fn capabilities(&self) -> Option<&mcp::ClientCapabilities> {
                Some(&self.params.meta.client_capabilities)
            }
        }
    )*};
}

/// What an answer to a request that may need input says: the request's end, or what the
/// server needs first.
enum Round<T> {
    /// The answer the request ends with.
    Done(T),
    /// The server needs input: the request is sent again with the client's answers.
    NeedsInput(Box<mcp::InputRequiredResult>),
}

/// How [`Session::until_done`] sends a request and its retries.
struct Exchange<'a> {
    /// The request's `Mcp-Name` (the tool, resource or prompt).
    name: &'a str,
    /// Its `Mcp-Param-*` headers.
    headers: Vec<(String, String)>,
    /// For `tools/call`, the call's arguments: a `HeaderMismatch` answer makes the client list
    /// the tools again (once) and send the call with the new definition's headers.
    relist: Option<&'a serde_json::Map<String, Value>>,
    /// The `_meta` of each request sent, given its id.
    meta: fn(&Session, &mcp::RequestId) -> mcp::RequestMetaObject,
}

impl<'a> Exchange<'a> {
    /// A request named `name` without `Mcp-Param-*` headers, each sent with the session's
    /// usual `_meta`.
    fn plain(name: &'a str) -> Self {
        Exchange {
            name,
            headers: Vec::new(),
            relist: None,
            meta: |session, _| session.meta(),
        }
    }
}

/// What the client reads of a JSON-RPC message before reading it whole as its type: whom it
/// answers, and whether it is a result or an error.
#[derive(serde::Deserialize)]
struct Envelope {
    #[serde(default)]
    id: Option<mcp::RequestId>,
    #[serde(default)]
    result: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    error: Option<serde::de::IgnoredAny>,
}

/// The JSON-RPC response to one request, as the JSON text it came in.
pub struct Answer {
    text: String,
    is_error: bool,
}

outgoing!(
    mcp::DiscoverRequest,
    mcp::ListToolsRequest,
    mcp::CallToolRequest,
    mcp::ListResourcesRequest,
    mcp::ReadResourceRequest,
    mcp::ListPromptsRequest,
    mcp::GetPromptRequest,
);

/// The tasks extension's requests, whose `_meta` is optional.
macro_rules! outgoing_task {
    ($($t:ty),* $(,)?) => {$(
        impl Outgoing for $t {
            fn reset(&mut self, id: mcp::RequestId, meta: mcp::RequestMetaObject) {
                self.id = id;
                self.params.meta = Some(meta);
            }

            fn id(&self) -> &mcp::RequestId {
                &self.id
            }

            fn capabilities(&self) -> Option<&mcp::ClientCapabilities> {
                self.params.meta.as_ref().map(|m| &m.client_capabilities)
            }
        }
    )*};
}

outgoing_task!(
    mcp::GetTaskRequest,
    mcp::UpdateTaskRequest,
    mcp::CancelTaskRequest
);

/// What the client learnt of the server on connecting, in either era.
pub struct Connected {
    /// The era the probe found.
    pub era: Era,
    /// The server's name, if it gave one.
    pub server: Option<String>,
    /// The versions the server serves (modern), or the one `initialize` agreed (legacy).
    pub versions: Vec<String>,
    pub capabilities: mcp::ServerCapabilities,
}

/// One client of one server, in the era [`Session::connect`] finds: every request is written
/// and read as its modern type; in a legacy session `send` converts it on the wire (see
/// `legacy.rs`).
pub struct Session {
    http: reqwest::Client,
    url: String,
    version: String,
    /// The era found by [`Session::connect`] (modern until then).
    era: Era,
    /// The legacy session, once `initialize` has opened one.
    link: Option<Link>,
    /// The reader of the legacy session's GET stream, where the server sends what belongs to
    /// no request (a server may send its own requests there): read from `initialize` to
    /// `close`, between requests too.
    listener: Option<Listener>,
    next_id: i64,
    capabilities: mcp::ClientCapabilities,
    /// Whether tool calls ask for progress (a `progressToken` in `_meta`).
    progress: bool,
}

impl Session {
    pub fn new(url: &str) -> Result<Self, ClientError> {
        Self::with_idle_timeout(url, IDLE_TIMEOUT)
    }

    /// A session that gives up on a response after `idle` without a byte (never after a
    /// total time: a long call lives as long as its stream does).
    pub fn with_idle_timeout(url: &str, idle: Duration) -> Result<Self, ClientError> {
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .read_timeout(idle)
            .build()
            .map_err(|e| ClientError::Http(e.to_string()))?;
        Ok(Session {
            http,
            url: url.to_owned(),
            version: MODERN_VERSIONS[0].to_owned(),
            era: Era::Modern,
            link: None,
            listener: None,
            next_id: 1,
            capabilities: capabilities(),
            progress: false,
        })
    }

    /// From now on, tool calls carry a `progressToken`, so that a server may answer with an
    /// SSE stream of `notifications/progress` (each is logged).
    pub fn ask_for_progress(&mut self) {
        self.progress = true;
    }

    pub fn next_id(&mut self) -> mcp::RequestId {
        let id = self.next_id;
        self.next_id += 1;
        mcp::RequestId::Integer(id)
    }

    /// The `_meta` every request carries.
    pub fn meta(&self) -> mcp::RequestMetaObject {
        self.meta_with(self.capabilities.clone())
    }

    /// The `_meta` of a request that wants tasks (`tools/call`) or follows one (`tasks/*`):
    /// the capabilities advertise the tasks extension.
    pub fn task_meta(&self) -> mcp::RequestMetaObject {
        let mut capabilities = self.capabilities.clone();
        capabilities.declare::<mcp::TasksExtension>();
        self.meta_with(capabilities)
    }

    fn meta_with(&self, capabilities: mcp::ClientCapabilities) -> mcp::RequestMetaObject {
        mcp::RequestMetaObject::new(capabilities, self.version.clone())
            .with_client_info(client_info())
    }

    /// The `_meta` of tool call `id`: [`Session::task_meta`], with a progress token when the
    /// session asks for progress.
    fn call_meta(&self, id: &mcp::RequestId) -> mcp::RequestMetaObject {
        let mut meta = self.task_meta();
        if self.progress {
            let token = match id {
                mcp::RequestId::String(s) => format!("progress-{s}"),
                mcp::RequestId::Integer(i) => format!("progress-{i}"),
            };
            meta.progress_token = Some(mcp::ProgressToken::String(token));
        }
        meta
    }

    /// POSTs `body` (a request's JSON text) and returns the HTTP status and the JSON-RPC
    /// message that answers request `id` (from a JSON body, or from the events of an SSE body),
    /// `None` when the body holds none.
    async fn post(
        &self,
        method: &str,
        name: Option<&str>,
        extra_headers: &[(String, String)],
        body: Vec<u8>,
        id: &mcp::RequestId,
    ) -> Result<(u16, Option<Answer>), ClientError> {
        let mut req = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", &self.version)
            .header("mcp-method", method);
        if let Some(n) = name {
            req = req.header("mcp-name", headers::encode(n));
        }
        for (k, v) in extra_headers {
            req = req.header(k.as_str(), v.as_str());
        }
        let resp = req
            .body(body)
            .send()
            .await
            .map_err(|e| ClientError::Http(e.to_string()))?;
        let status = resp.status();
        let sse = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|c| c.starts_with("text/event-stream"));
        let text = resp
            .text()
            .await
            .map_err(|e| ClientError::Http(e.to_string()))?;
        let read = |data: &str| {
            let e = serde_json::from_str::<Envelope>(data).ok()?;
            let answers = e.result.is_some() || e.error.is_some();
            Some((e.id, answers, e.error.is_some()))
        };
        let message = if sse {
            let events = crate::sse::all_data(&text);
            events.iter().for_each(|d| log_progress_event(d));
            // The response is the event that carries our id with a result or an error; the
            // others are notifications about the request.
            events.into_iter().find_map(|d| match read(&d)? {
                (Some(i), true, is_error) if i == *id => Some(Answer { text: d, is_error }),
                _ => None,
            })
        } else {
            // An error may come without an id (when the server could not read the request's).
            read(&text).map(|(_, _, is_error)| Answer { text, is_error })
        };
        Ok((status.as_u16(), message))
    }

    /// Sends `request` and reads the answer as `Resp` (the method's `*ResultResponse`).
    ///
    /// An `UnsupportedProtocolVersionError` naming a version this client speaks makes it
    /// switch to that version and send the request again, once. Returns the request as last
    /// sent (its id is the one a retry must differ from).
    pub async fn send<Req: Outgoing, Resp: DeserializeOwned>(
        &mut self,
        mut request: Req,
        name: Option<&str>,
        extra_headers: &[(String, String)],
    ) -> Result<(Req, Resp), ClientError> {
        if self.era == Era::Legacy {
            return self.send_legacy(request).await;
        }
        let mut probed = Req::METHOD == mcp::DiscoverRequest::METHOD;
        for attempt in 0..2 {
            let body = serde_json::to_vec(&request)
                .map_err(|e| ClientError::Protocol(format!("serializing {}: {e}", Req::METHOD)))?;
            let (status, answer) = self
                .post(Req::METHOD, name, extra_headers, body, request.id())
                .await?;
            let text = answer.as_ref().map_or("", |a| a.text.as_str());
            let held = era::Answer::Http {
                status,
                body: text.as_bytes(),
            };
            if !probed && era::contradicts(Era::Modern, Req::METHOD, &held) {
                // The era found may be stale (another server now answers at this address).
                probed = true;
                eprintln!("HTTP {status} to {}: probing the era again", Req::METHOD);
                if Box::pin(self.connect()).await?.era == Era::Legacy {
                    return self.send_legacy(request).await;
                }
            }
            let answer = answer.ok_or_else(|| {
                ClientError::Http(format!(
                    "HTTP {status}: no JSON-RPC response to {} in the body",
                    Req::METHOD
                ))
            })?;
            if answer.is_error {
                let e: mcp::JSONRPCErrorResponse =
                    serde_json::from_str(&answer.text).map_err(|e| {
                        ClientError::Protocol(format!("reading an error response: {e}"))
                    })?;
                if e.error.code == UNSUPPORTED_PROTOCOL_VERSION && attempt == 0 {
                    let supported: Vec<String> = e
                        .error
                        .data
                        .as_ref()
                        .and_then(|d| d.get("supported"))
                        .and_then(|s| serde_json::from_value(s.clone()).ok())
                        .unwrap_or_default();
                    if let Some(v) = MODERN_VERSIONS
                        .iter()
                        .find(|v| supported.iter().any(|s| s == *v))
                    {
                        eprintln!(
                            "server supports {supported:?}: retrying {} with {v}",
                            Req::METHOD
                        );
                        self.version = (*v).to_owned();
                        let id = self.next_id();
                        let meta = match request.capabilities() {
                            Some(c) => self.meta_with(c.clone()),
                            None => self.meta(),
                        };
                        request.reset(id, meta);
                        continue;
                    }
                }
                return Err(ClientError::Rpc(*e.error));
            }
            let resp = read_answer(&request, &answer.text).map_err(|e| {
                ClientError::Protocol(format!("reading the {} response: {e}", Req::METHOD))
            })?;
            return Ok((request, resp));
        }
        Err(ClientError::Protocol(format!(
            "{} rejected twice for its protocol version",
            Req::METHOD
        )))
    }

    /// Finds the server's era and opens the conversation: the probe is `server/discover` with
    /// this client's version, its answer read by `mcp_runtime::era::probe` (by code and shape).
    /// A `DiscoverResult` is the modern server's; a recognised modern error makes the client
    /// discover again as the error says (another version); anything else means a legacy
    /// server, and a 2025-11-25 session is opened with `initialize`.
    pub async fn connect(&mut self) -> Result<Connected, ClientError> {
        let request =
            mcp::DiscoverRequest::new(self.next_id(), mcp::RequestParams::new(self.meta()));
        let body = serde_json::to_vec(&request)
            .map_err(|e| ClientError::Protocol(format!("serializing server/discover: {e}")))?;
        let (status, answer) = self
            .post(mcp::DiscoverRequest::METHOD, None, &[], body, &request.id)
            .await?;
        let text = answer.map(|a| a.text).unwrap_or_default();
        let probed = era::probe::<mcp::DiscoverResult>(&era::Answer::Http {
            status,
            body: text.as_bytes(),
        });
        let found = match probed {
            Probe::Result(found) => found,
            Probe::ModernError(e) => {
                eprintln!("modern server, probe answered with {e:?}");
                if let era::ModernError::UnsupportedProtocolVersion { supported, .. } = &e {
                    self.adopt_version(supported)?;
                }
                self.discover().await?
            }
            Probe::Legacy(sign) => {
                eprintln!("legacy server ({sign:?}): initialize");
                return self.initialize().await;
            }
        };
        Ok(Connected {
            era: Era::Modern,
            server: found
                .meta
                .as_ref()
                .and_then(|m| m.server_info.as_ref())
                .map(|i| i.name.clone()),
            versions: found.supported_versions,
            capabilities: *found.capabilities,
        })
    }

    /// Speaks the first of `supported` this client knows, or fails naming both lists.
    fn adopt_version(&mut self, supported: &[String]) -> Result<(), ClientError> {
        let Some(v) = MODERN_VERSIONS
            .iter()
            .find(|v| supported.iter().any(|s| s == *v))
        else {
            return Err(ClientError::Protocol(format!(
                "the server serves {supported:?}, this client {MODERN_VERSIONS:?}"
            )));
        };
        self.version = (*v).to_owned();
        Ok(())
    }

    pub async fn discover(&mut self) -> Result<mcp::DiscoverResult, ClientError> {
        let request =
            mcp::DiscoverRequest::new(self.next_id(), mcp::RequestParams::new(self.meta()));
        let (_, r): (_, mcp::DiscoverResultResponse) = self.send(request, None, &[]).await?;
        Ok(r.result)
    }

    pub async fn list_tools(&mut self) -> Result<Vec<mcp::Tool>, ClientError> {
        let mut all = Vec::new();
        let mut cursor = None;
        for _ in 0..20 {
            let mut params = mcp::PaginatedRequestParams::new(self.meta());
            params.cursor = cursor.take();
            let request = mcp::ListToolsRequest::new(self.next_id(), params);
            let (_, r): (_, mcp::ListToolsResultResponse) = self.send(request, None, &[]).await?;
            all.extend(r.result.tools);
            match r.result.next_cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        Ok(all)
    }

    pub async fn list_resources(&mut self) -> Result<Vec<mcp::Resource>, ClientError> {
        let params = mcp::PaginatedRequestParams::new(self.meta());
        let request = mcp::ListResourcesRequest::new(self.next_id(), params);
        let (_, r): (_, mcp::ListResourcesResultResponse) = self.send(request, None, &[]).await?;
        Ok(r.result.resources)
    }

    pub async fn list_prompts(&mut self) -> Result<Vec<mcp::Prompt>, ClientError> {
        let params = mcp::PaginatedRequestParams::new(self.meta());
        let request = mcp::ListPromptsRequest::new(self.next_id(), params);
        let (_, r): (_, mcp::ListPromptsResultResponse) = self.send(request, None, &[]).await?;
        Ok(r.result.prompts)
    }

    /// Calls a tool, answering input requests until it completes. `tool` is its definition
    /// from `tools/list`, for the `Mcp-Param-*` headers its `x-mcp-header` annotations ask
    /// for. A `HeaderMismatch` answer makes the client list the tools again (the definition
    /// may have changed) and send the call once more with the new definition's headers. An
    /// answer that is a task is followed until it ends (see [`Session::follow_task`]).
    pub async fn call_tool(
        &mut self,
        tool: &mcp::Tool,
        arguments: serde_json::Map<String, Value>,
    ) -> Result<mcp::CallToolResult, ClientError> {
        /// How a call ends: with its result, or as a task to follow.
        enum Called {
            Done(mcp::CallToolResult),
            Task(mcp_runtime::extension::Granted<mcp::CreateTaskResult>),
        }
        let headers = tool_headers(tool, &arguments)?;
        let id = self.next_id();
        let params = mcp::CallToolRequestParams::new(self.call_meta(&id), &tool.name)
            .with_arguments(arguments.clone());
        let request = mcp::CallToolRequest::new(id, params);
        let exchange = Exchange {
            name: &tool.name,
            headers,
            relist: Some(&arguments),
            meta: Session::call_meta,
        };
        let called = self
            .until_done(
                request,
                exchange,
                |r: mcp::CallToolResultResponse| match r.result {
                    mcp::CallToolOutcome::Complete(done) => Round::Done(Called::Done(done)),
                    mcp::CallToolOutcome::Task(created) => Round::Done(Called::Task(created)),
                    mcp::CallToolOutcome::InputRequired(ask) => Round::NeedsInput(Box::new(ask)),
                },
            )
            .await?;
        match called {
            Called::Done(done) => Ok(done),
            Called::Task(created) => {
                let task = self.follow_task(&created).await?;
                read_task_result(&task)
            }
        }
    }

    /// Sends a request that may answer that it needs input, until it ends: each input-required
    /// answer is answered (see [`Session::answer`]) and the request sent again as its
    /// generated `retry` builds it, with a new id and `_meta`, at most [`MAX_ROUNDS`] times.
    /// `read` tells the final answer from a request for input; `exchange` says how the request
    /// is sent.
    async fn until_done<Req, Resp, T>(
        &mut self,
        mut request: Req,
        exchange: Exchange<'_>,
        read: impl Fn(Resp) -> Round<T>,
    ) -> Result<T, ClientError>
    where
        Req: Outgoing
            + mcp_runtime::mrtr::Retry<Id = mcp::RequestId, Answer = mcp::InputRequiredResult>,
        Resp: DeserializeOwned,
    {
        let Exchange {
            name,
            mut headers,
            relist,
            meta,
        } = exchange;
        let mut relisted = false;
        for _ in 0..MAX_ROUNDS {
            let (sent, answer) = match self.send(request.clone(), Some(name), &headers).await {
                Err(ClientError::Rpc(e)) if e.code == HEADER_MISMATCH && !relisted => {
                    let Some(arguments) = relist else {
                        return Err(ClientError::Rpc(e));
                    };
                    eprintln!(
                        "{} {name:?}: {}; listing the tools again",
                        Req::METHOD,
                        e.message
                    );
                    relisted = true;
                    let fresh = self.listed(name).await?;
                    headers = tool_headers(&fresh, arguments)?;
                    let id = self.next_id();
                    request.reset(id.clone(), meta(self, &id));
                    continue;
                }
                other => other?,
            };
            match read(answer) {
                Round::Done(done) => return Ok(done),
                Round::NeedsInput(ask) => {
                    let responses = self.answer(&ask)?;
                    let id = self.next_id();
                    request = sent
                        .retry(id.clone(), &ask, responses)
                        .map_err(|e| ClientError::Protocol(e.to_string()))?;
                    request.reset(id.clone(), meta(self, &id));
                }
            }
        }
        Err(ClientError::Protocol(format!(
            "{} {name:?} still needs input after {MAX_ROUNDS} rounds",
            Req::METHOD
        )))
    }

    /// Follows a task until it ends, and returns its last state: polls `tasks/get`, waiting
    /// the `pollIntervalMs` the server last suggested before each poll, and answers each input
    /// request the task raises once (keys already answered are not answered again) with
    /// `tasks/update`. Gives up, cancelling the task, when its `ttlMs` has elapsed (at most
    /// [`MAX_TASK_WAIT`]).
    pub async fn follow_task(
        &mut self,
        created: &mcp::CreateTaskResult,
    ) -> Result<mcp::GetTaskResult, ClientError> {
        let id = created.task_id.clone();
        let mut interval = poll_interval(created.poll_interval_ms);
        let limit = match created.ttl_ms {
            mcp::TaskTtlMs::Integer(ms) => {
                Duration::from_millis(u64::try_from(ms).unwrap_or(0)).min(MAX_TASK_WAIT)
            }
            mcp::TaskTtlMs::Null(()) => MAX_TASK_WAIT,
        };
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
            let task = self.get_task(&id).await?;
            interval = poll_interval(task.poll_interval_ms.or(created.poll_interval_ms));
            match task.status {
                mcp::TaskStatus::Completed
                | mcp::TaskStatus::Failed
                | mcp::TaskStatus::Cancelled => {
                    return Ok(task);
                }
                mcp::TaskStatus::InputRequired => {
                    let fresh: mcp::InputRequests = task
                        .input_requests
                        .into_iter()
                        .flatten()
                        .filter(|(key, _)| !answered.contains(key))
                        .collect();
                    if fresh.is_empty() {
                        continue;
                    }
                    answered.extend(fresh.keys().cloned());
                    // The same requests as an input-required answer would carry, checked
                    // against this client's capabilities in the same way.
                    let ask = mcp::InputRequiredResult::new(Some(fresh), None)
                        .map_err(|e| ClientError::Protocol(e.to_string()))?;
                    let responses = self.answer(&ask)?;
                    self.update_task(&id, responses).await?;
                }
                mcp::TaskStatus::Working => {}
            }
        }
    }

    /// `tasks/get`: the task's current state.
    async fn get_task(&mut self, task_id: &str) -> Result<mcp::GetTaskResult, ClientError> {
        let params = mcp::GetTaskRequestParams::new(task_id).with_meta(self.task_meta());
        let request = mcp::GetTaskRequest::new(self.next_id(), params);
        let (_, r): (_, mcp::GetTaskResultResponse) =
            self.send(request, Some(task_id), &[]).await?;
        Ok(r.result)
    }

    /// `tasks/cancel`: asks the server to stop the task.
    async fn cancel_task(&mut self, task_id: &str) -> Result<(), ClientError> {
        let params = mcp::CancelTaskRequestParams::new(task_id).with_meta(self.task_meta());
        let request = mcp::CancelTaskRequest::new(self.next_id(), params);
        let (_, _): (_, mcp::CancelTaskResultResponse) =
            self.send(request, Some(task_id), &[]).await?;
        Ok(())
    }

    /// `tasks/update`: answers to the task's input requests.
    async fn update_task(
        &mut self,
        task_id: &str,
        responses: mcp::InputResponses,
    ) -> Result<(), ClientError> {
        let params =
            mcp::UpdateTaskRequestParams::new(responses, task_id).with_meta(self.task_meta());
        let request = mcp::UpdateTaskRequest::new(self.next_id(), params);
        let (_, _): (_, mcp::UpdateTaskResultResponse) =
            self.send(request, Some(task_id), &[]).await?;
        Ok(())
    }

    /// The tool `name` as `tools/list` gives it now.
    async fn listed(&mut self, name: &str) -> Result<mcp::Tool, ClientError> {
        self.list_tools()
            .await?
            .into_iter()
            .find(|t| t.name == name)
            .ok_or_else(|| ClientError::Protocol(format!("tool {name:?} is no longer listed")))
    }

    pub async fn read_resource(
        &mut self,
        uri: &str,
    ) -> Result<mcp::ReadResourceResult, ClientError> {
        let params = mcp::ReadResourceRequestParams::new(self.meta(), uri);
        let request = mcp::ReadResourceRequest::new(self.next_id(), params);
        let exchange = Exchange::plain(uri);
        self.until_done(
            request,
            exchange,
            |r: mcp::ReadResourceResultResponse| match r.result {
                mcp::ReadResourceOutcome::Complete(done) => Round::Done(done),
                mcp::ReadResourceOutcome::InputRequired(ask) => Round::NeedsInput(Box::new(ask)),
            },
        )
        .await
    }

    pub async fn get_prompt(
        &mut self,
        name: &str,
        arguments: std::collections::BTreeMap<String, String>,
    ) -> Result<mcp::GetPromptResult, ClientError> {
        let mut params = mcp::GetPromptRequestParams::new(self.meta(), name);
        // No `arguments` member for a prompt that takes none.
        params.arguments = (!arguments.is_empty()).then_some(arguments);
        let request = mcp::GetPromptRequest::new(self.next_id(), params);
        let exchange = Exchange::plain(name);
        self.until_done(
            request,
            exchange,
            |r: mcp::GetPromptResultResponse| match r.result {
                mcp::GetPromptOutcome::Complete(done) => Round::Done(done),
                mcp::GetPromptOutcome::InputRequired(ask) => Round::NeedsInput(Box::new(ask)),
            },
        )
        .await
    }

    /// Answers every input request of `ask` (a headless client: it accepts elicitations
    /// with the form's defaults, samples a canned reply, and reports one root). A request
    /// for a capability this client did not declare is a protocol error of the server's.
    fn answer(&self, ask: &mcp::InputRequiredResult) -> Result<mcp::InputResponses, ClientError> {
        ask.check_capabilities(&self.capabilities).map_err(|e| {
            ClientError::Protocol(format!("the server asked for undeclared input: {e}"))
        })?;
        let mut responses = mcp::InputResponses::new();
        for (key, request) in ask.input_requests().into_iter().flatten() {
            responses.insert(key.clone(), crate::answers::respond(request));
        }
        Ok(responses)
    }
}

/// Logs one event's data if it is a `notifications/progress` (the same in both eras).
pub(crate) fn log_progress_event(data: &str) {
    let Ok(note) = serde_json::from_str::<mcp::ProgressNotification>(data.trim()) else {
        return;
    };
    let p = note.params;
    eprintln!(
        "notifications/progress: {}/{} {:?}",
        p.progress,
        p.total.map(|t| t.to_string()).unwrap_or_default(),
        p.message.unwrap_or_default()
    );
}

/// Who this client is, in `_meta` (modern) and in `initialize` (legacy).
fn client_info() -> mcp::Implementation {
    mcp::Implementation::new("mcp-conformance-client", env!("CARGO_PKG_VERSION"))
        .with_title("mcp-codegen conformance client")
}

/// The answer to `request`, read with the `resultType` values of the extensions it advertised
/// (a task only where the request advertised the tasks extension).
fn read_answer<Req: Outgoing, Resp: DeserializeOwned>(
    request: &Req,
    text: &str,
) -> serde_json::Result<Resp> {
    match request.capabilities() {
        Some(caps) => Reader::new(caps)
            .extension::<mcp::TasksExtension>()
            .from_str(text),
        None => serde_json::from_str(text),
    }
}

/// What an ended task of a `tools/call` gives: its `CallToolResult` once `completed`, the
/// JSON-RPC error it `failed` with, or an error saying it was `cancelled`.
fn read_task_result(task: &mcp::GetTaskResult) -> Result<mcp::CallToolResult, ClientError> {
    let as_json = |object: &mcp::JSONObject| serde_json::to_value(object).unwrap_or_default();
    match task.status {
        mcp::TaskStatus::Completed => {
            let result = task.result.as_ref().ok_or_else(|| {
                ClientError::Protocol(format!(
                    "task {:?} completed without a result",
                    task.task_id
                ))
            })?;
            serde_json::from_value(as_json(result)).map_err(|e| {
                ClientError::Protocol(format!("task {:?}: reading its result: {e}", task.task_id))
            })
        }
        mcp::TaskStatus::Failed => {
            let error = task.error.as_ref().ok_or_else(|| {
                ClientError::Protocol(format!("task {:?} failed without an error", task.task_id))
            })?;
            let error: mcp::Error = serde_json::from_value(as_json(error)).map_err(|e| {
                ClientError::Protocol(format!("task {:?}: reading its error: {e}", task.task_id))
            })?;
            Err(ClientError::Rpc(error))
        }
        status => Err(ClientError::Protocol(format!(
            "task {:?} ended {status:?}",
            task.task_id
        ))),
    }
}

/// The wait before the next poll: the server's `pollIntervalMs`, or the default.
fn poll_interval(suggested: Option<u64>) -> Duration {
    suggested.map_or(DEFAULT_POLL_INTERVAL, Duration::from_millis)
}

/// The `Mcp-Param-*` headers of a call of `tool`; an error for a tool with invalid
/// annotations (which the client must not call).
fn tool_headers(
    tool: &mcp::Tool,
    arguments: &serde_json::Map<String, Value>,
) -> Result<Vec<(String, String)>, ClientError> {
    headers::param_headers(tool, arguments)
        .map_err(|e| ClientError::Protocol(format!("tool {:?}: {e}", tool.name)))
}

/// What this client can do for a server: answer form and URL elicitations, sampling (no
/// tools) and roots.
fn capabilities() -> mcp::ClientCapabilities {
    mcp::ClientCapabilities::new()
        .with_elicitation(
            mcp::ClientCapabilitiesElicitation::new()
                .with_form(mcp::JSONObject::new())
                .with_url(mcp::JSONObject::new()),
        )
        .with_roots(serde_json::Map::new())
        .with_sampling(mcp::ClientCapabilitiesSampling::new())
}

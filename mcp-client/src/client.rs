//! One client talking to one server over stateless Streamable HTTP (2026-07-28): every request
//! is a POST carrying its own `_meta`, the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`
//! headers, and the `Mcp-Param-*` headers the tool's `x-mcp-header` annotations ask for. With
//! a legacy server (found by [`Client::connect`]'s probe) the same client speaks 2025-11-25
//! in a session opened by `initialize`: see `legacy.rs` for the conversions,
//! `client/legacy_http.rs` for the session's exchanges, `client/listener.rs` for the reader
//! of its GET stream, and [`Client::send`] for where the eras part.
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

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use mcp_runtime::era::{self, Era, Probe};
use mcp_runtime::error_code::{HEADER_MISMATCH, UNSUPPORTED_PROTOCOL_VERSION};
use mcp_runtime::mrtr::InputRequired as _;
use mcp_runtime::param_headers::ParamHeader;
use serde_json::{Map, Value};

use crate::binding::{Binding, Connected, Outcome, Outgoing};
use crate::config::Config;
use crate::error::{ClientError, read_error};
use crate::headers;
use crate::legacy::Link;

mod calls;
mod legacy_http;
mod listener;
pub(crate) mod redirect;
mod tasks;

pub use redirect::MAX_REDIRECTS;

use crate::answer::{Answer, log_progress_event};
use crate::pipe::Pipe;
use listener::Listener;

/// The modern revisions (a protocol version on every request) this client speaks, preferred
/// first: what its requests declare and what it looks for in a server's `supportedVersions`
/// or `supported`. With a legacy server it speaks [`LEGACY_VERSION`](crate::LEGACY_VERSION)
/// (2025-11-25) instead, through an `initialize` session.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// How many pages of `tools/list` the client reads at most.
const MAX_PAGES: usize = 20;

/// What the client reads of a JSON-RPC message before reading it whole as its type: whom it
/// answers, and whether it is a result or an error.
#[derive(serde::Deserialize)]
#[serde(bound(deserialize = "Id: serde::Deserialize<'de>"))]
struct Envelope<Id> {
    #[serde(default)]
    id: Option<Id>,
    #[serde(default)]
    result: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    error: Option<serde::de::IgnoredAny>,
}

/// How [`Client::until_done`] sends a request and its retries.
struct Exchange<'a> {
    /// Its `Mcp-Param-*` headers.
    headers: Vec<(String, String)>,
    /// For `tools/call`, the call's arguments: a `HeaderMismatch` answer makes the client list
    /// the tools again (once) and send the call with the new definition's headers.
    relist: Option<&'a Map<String, Value>>,
}

/// One client of one server, in the era [`Client::connect`] finds: every request is written
/// and read as its modern type; in a legacy session `send` converts it on the wire (see
/// `legacy.rs`).
pub struct Client<B: Binding> {
    http: reqwest::Client,
    url: String,
    /// The URL's origin, the key of the era cache (none on stdio, where the era is this
    /// client's own).
    origin: Option<String>,
    version: String,
    /// The era found by [`Client::connect`] (modern until then).
    era: Era,
    /// The legacy session, once `initialize` has opened one.
    link: Option<Link>,
    /// The reader of the legacy session's GET stream, where the server sends what belongs to
    /// no request (a server may send its own requests there): read from `initialize` to
    /// `close`, between requests too.
    listener: Option<Listener>,
    /// The server's stdio, when the client speaks to it over stdio instead of HTTP.
    stdio: Option<Pipe>,
    next_id: i64,
    config: Config<B>,
    /// Whether tool calls ask for progress (a `progressToken` in `_meta`).
    progress: bool,
    /// The mirrored arguments (`x-mcp-header`) of each annotated tool the last
    /// [`Client::list_all_tools`] named, for the `Mcp-Param-*` headers of a `tools/call` sent by
    /// [`Client::call`]. As large as that list, which is bounded.
    mirrored: HashMap<String, Vec<ParamHeader>>,
    /// What the server declared when [`Client::connect`] found it: an extension's request is
    /// sent only if it allows it ([`Outgoing::allowed_by`]).
    server: Option<B::ServerCapabilities>,
}

impl<B: Binding> Client<B> {
    /// A client of the server at `url` (nothing is sent before [`Client::connect`]); an
    /// error if `url` is not an `http` or `https` URL.
    pub fn new(url: &str, config: Config<B>) -> Result<Self, ClientError> {
        let origin = crate::era_cache::origin(url)
            .filter(|o| o.starts_with("http://") || o.starts_with("https://"))
            .ok_or_else(|| ClientError::Http(format!("not an http(s) URL: {url:?}")))?;
        let mut client = Self::unbound(url, config)?;
        client.origin = Some(origin);
        Ok(client)
    }

    /// A client with no server yet.
    fn unbound(url: &str, config: Config<B>) -> Result<Self, ClientError> {
        let http = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .read_timeout(config.idle_timeout)
            .redirect(redirect::same_origin())
            .build()
            .map_err(|e| ClientError::Http(e.to_string()))?;
        Ok(Client {
            http,
            url: url.to_owned(),
            origin: None,
            version: MODERN_VERSIONS[0].to_owned(),
            era: Era::Modern,
            link: None,
            listener: None,
            stdio: None,
            next_id: 1,
            config,
            progress: false,
            mirrored: HashMap::new(),
            server: None,
        })
    }

    /// A client of the server at the other end of `pipe` (stdio).
    pub(crate) fn over(pipe: Pipe, config: Config<B>) -> Result<Self, ClientError> {
        let mut client = Client::unbound("", config)?;
        client.stdio = Some(pipe);
        Ok(client)
    }

    /// From now on, tool calls carry a `progressToken`, so that a server may answer with an
    /// SSE stream of `notifications/progress` (each is logged).
    pub fn ask_for_progress(&mut self) {
        self.progress = true;
    }

    /// The era found by [`Client::connect`] (modern until then).
    pub fn era(&self) -> Era {
        self.era
    }

    /// A fresh JSON-RPC id.
    pub fn next_id(&mut self) -> B::RequestId {
        let id = self.next_id;
        self.next_id += 1;
        B::request_id(id)
    }

    /// The `_meta` every request carries.
    pub fn meta(&self) -> B::Meta {
        self.meta_with(self.config.capabilities.clone(), None)
    }

    fn meta_with(&self, capabilities: B::Capabilities, progress: Option<String>) -> B::Meta {
        B::meta(
            capabilities,
            &self.version,
            self.config.client_info.clone(),
            progress,
        )
    }

    /// The `_meta` of request `R` with id `id`: the capabilities advertise the tasks extension
    /// where `R` wants tasks, and a progress token (`progress-<id>`) is set where `R` carries
    /// one and the client asks for progress.
    fn meta_for<R: Outgoing<B>>(&self, id: &B::RequestId) -> B::Meta {
        let mut capabilities = self.config.capabilities.clone();
        if R::TASKS {
            B::declare_tasks(&mut capabilities);
        }
        let progress = (R::PROGRESS && self.progress).then(|| match serde_json::to_value(id) {
            Ok(Value::String(s)) => format!("progress-{s}"),
            Ok(other) => format!("progress-{other}"),
            Err(_) => "progress".to_owned(),
        });
        self.meta_with(capabilities, progress)
    }

    /// `request` with a fresh id and this client's `_meta` for it.
    fn renumbered<R: Outgoing<B>>(&mut self, mut request: R) -> R {
        let id = self.next_id();
        let meta = self.meta_for::<R>(&id);
        request.reset(id, meta);
        request
    }

    /// A fresh id and the `_meta` of request `R` with it.
    fn stamp<R: Outgoing<B>>(&mut self) -> (B::RequestId, B::Meta) {
        let id = self.next_id();
        let meta = self.meta_for::<R>(&id);
        (id, meta)
    }

    /// The HTTP headers of every request: the configured ones.
    fn configured(&self, mut builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        for (k, v) in &self.config.headers {
            builder = builder.header(k.as_str(), v.as_str());
        }
        builder
    }

    /// Sends request `body` (modern) and returns the era's view of the answer's carrier (the
    /// HTTP status; none on stdio) and the JSON-RPC response to `id`, if one came (on stdio,
    /// within `wait`).
    async fn exchange(
        &mut self,
        method: &str,
        name: Option<&str>,
        extra_headers: &[(String, String)],
        body: Vec<u8>,
        id: &B::RequestId,
        wait: Duration,
    ) -> Result<(Option<u16>, Option<Answer>), ClientError> {
        match &mut self.stdio {
            Some(pipe) => {
                let answer = pipe
                    .exchange::<B>(&body, id, &self.config.respond, wait)
                    .await?;
                Ok((None, answer))
            }
            None => {
                let (status, answer) = self.post(method, name, extra_headers, body, id).await?;
                Ok((Some(status), answer))
            }
        }
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
        id: &B::RequestId,
    ) -> Result<(u16, Option<Answer>), ClientError> {
        let mut req = self
            .configured(self.http.post(&self.url))
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
        let resp = crate::send::send(&self.config.auth, &self.url, req.body(body)).await?;
        let status = resp.status().as_u16();
        let max = self.config.max_message;
        if crate::sse::is_sse(&resp) {
            return Ok((status, self.response_event(resp, id).await?));
        }
        let text = crate::body::read_all(resp, max).await?;
        // An error may come without an id (when the server could not read the request's).
        let message = read_envelope::<B>(&text).map(|(_, _, is_error)| Answer { text, is_error });
        Ok((status, message))
    }

    /// The event of an SSE response that answers request `id` (its id, with a result or an
    /// error), read as the events arrive; the others are notifications about the request,
    /// logged. `None` when the stream ends without it.
    async fn response_event(
        &self,
        mut resp: reqwest::Response,
        id: &B::RequestId,
    ) -> Result<Option<Answer>, ClientError> {
        let mut events = crate::sse::Events::default();
        let mut ended = false;
        while !ended {
            let chunk = resp.chunk().await.map_err(crate::body::unread)?;
            // The stream's end completes an event not closed by a blank line.
            let data = match &chunk {
                Some(chunk) => events.push(chunk),
                None => {
                    ended = true;
                    events.push(b"\n\n")
                }
            };
            crate::body::check_event(&events, &data, self.config.max_message)?;
            for d in data {
                log_progress_event(&self.config.log, &d);
                if let Some((Some(i), true, is_error)) = read_envelope::<B>(&d)
                    && i == *id
                {
                    return Ok(Some(Answer { text: d, is_error }));
                }
            }
        }
        Ok(None)
    }

    /// Sends `request` and reads the answer as its response.
    ///
    /// An `UnsupportedProtocolVersionError` naming a version this client speaks makes it
    /// switch to that version and send the request again, once. Returns the request as last
    /// sent (its id is the one a retry must differ from).
    async fn send<R: Outgoing<B>>(
        &mut self,
        mut request: R,
        extra_headers: &[(String, String)],
    ) -> Result<(R, R::Response), ClientError> {
        if self.era == Era::Legacy {
            return self.send_legacy(request).await;
        }
        let mut probed = R::METHOD == <B::Discover as mcp_runtime::Request>::METHOD;
        for attempt in 0..2 {
            let body = serde_json::to_vec(&request)
                .map_err(|e| ClientError::Protocol(format!("serializing {}: {e}", R::METHOD)))?;
            let wait = self.config.idle_timeout;
            let name = request.name().map(str::to_owned);
            let (status, answer) = self
                .exchange(
                    R::METHOD,
                    name.as_deref(),
                    extra_headers,
                    body,
                    request.id(),
                    wait,
                )
                .await?;
            let held = held(status, answer.as_ref());
            if !probed && era::contradicts(Era::Modern, R::METHOD, &held) {
                // The era found may be stale (another server now answers at this address).
                probed = true;
                if let Some(origin) = &self.origin {
                    crate::era_cache::forget(origin);
                }
                let carrier = status.map_or("the answer".to_owned(), |s| format!("HTTP {s}"));
                note!(
                    self.config.log,
                    "{carrier} to {}: probing the era again",
                    R::METHOD
                );
                if Box::pin(self.connect()).await?.era == Era::Legacy {
                    return self.send_legacy(request).await;
                }
            }
            let answer = answer.ok_or_else(|| match status {
                Some(status) => ClientError::Http(format!(
                    "HTTP {status}: no JSON-RPC response to {} in the body",
                    R::METHOD
                )),
                None => ClientError::Stdio(format!("no response to {} within {wait:?}", R::METHOD)),
            })?;
            if answer.is_error {
                let error = read_error(&answer.text)?;
                if error.code == UNSUPPORTED_PROTOCOL_VERSION && attempt == 0 {
                    let supported: Vec<String> = error
                        .data
                        .as_ref()
                        .and_then(|d| d.get("supported"))
                        .and_then(|s| serde_json::from_value(s.clone()).ok())
                        .unwrap_or_default();
                    if self.adopt_version(&supported).is_ok() {
                        note!(
                            self.config.log,
                            "server supports {supported:?}: retrying {} with {}",
                            R::METHOD,
                            self.version
                        );
                        request = self.renumbered(request);
                        continue;
                    }
                }
                return Err(ClientError::Rpc(error));
            }
            let resp = B::read_answer(request.capabilities(), &answer.text).map_err(|e| {
                ClientError::Protocol(format!("reading the {} response: {e}", R::METHOD))
            })?;
            return Ok((request, resp));
        }
        Err(ClientError::Protocol(format!(
            "{} rejected twice for its protocol version",
            R::METHOD
        )))
    }

    /// Finds the server's era and opens the conversation: the probe is `server/discover` with
    /// this client's version, its answer read by `mcp_runtime::era::probe` (by code and shape).
    /// A `DiscoverResult` is the modern server's; a recognised modern error makes the client
    /// discover again as the error says (another version); anything else means a legacy
    /// server, and a 2025-11-25 session is opened with `initialize`. The era found is kept
    /// for the URL's origin: a later client of a legacy origin opens its session at once (and
    /// probes if that fails).
    pub async fn connect(&mut self) -> Result<Connected<B>, ClientError> {
        let origin = self.origin.clone();
        let cached = origin.as_deref().and_then(crate::era_cache::cached);
        if cached == Some(Era::Legacy) {
            match self.initialize().await {
                Ok(connected) => {
                    self.server = Some(connected.capabilities.clone());
                    return Ok(connected);
                }
                Err(e) => note!(
                    self.config.log,
                    "legacy session at a legacy origin: {e}; probing"
                ),
            }
        }
        let connected = self.probe().await?;
        if let Some(origin) = &origin {
            crate::era_cache::remember(origin, connected.era);
        }
        self.server = Some(connected.capabilities.clone());
        Ok(connected)
    }

    /// The probe of [`Client::connect`], and what follows from its answer.
    async fn probe(&mut self) -> Result<Connected<B>, ClientError> {
        let (id, meta) = self.stamp::<B::Discover>();
        let request = B::discover(id, meta);
        let body = serde_json::to_vec(&request)
            .map_err(|e| ClientError::Protocol(format!("serializing the probe: {e}")))?;
        let method = <B::Discover as mcp_runtime::Request>::METHOD;
        let wait = self.config.probe_timeout;
        let (status, answer) = self
            .exchange(method, None, &[], body, request.id(), wait)
            .await?;
        let probed = era::probe::<B::Discovered>(&held(status, answer.as_ref()));
        let found = match probed {
            Probe::Result(found) => found,
            Probe::ModernError(e) => {
                note!(self.config.log, "modern server, probe answered with {e:?}");
                if let era::ModernError::UnsupportedProtocolVersion { supported, .. } = &e {
                    self.adopt_version(supported)?;
                }
                self.discover().await?
            }
            Probe::Legacy(sign) => {
                note!(self.config.log, "legacy server ({sign:?}): initialize");
                return self.initialize().await;
            }
        };
        self.era = Era::Modern;
        self.link = None;
        Ok(B::discovered(found))
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

    /// `server/discover`, sent as any request.
    pub async fn discover(&mut self) -> Result<B::Discovered, ClientError> {
        let (id, meta) = self.stamp::<B::Discover>();
        let request = B::discover(id, meta);
        self.finish(request).await
    }

    /// Every tool the server lists (following `nextCursor`, at most 20 pages).
    pub async fn list_all_tools(&mut self) -> Result<Vec<B::Tool>, ClientError> {
        let mut all = Vec::new();
        let mut cursor = None;
        for _ in 0..MAX_PAGES {
            let (id, meta) = self.stamp::<B::ListTools>();
            let request = B::list_tools(id, meta, cursor);
            let (tools, next) = B::tools_page(self.finish(request).await?);
            all.extend(tools);
            match next {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        self.mirrored = all
            .iter()
            .filter_map(|t| {
                let mirrored = headers::mirrored(B::tool_schema(t)).ok()?;
                (!mirrored.is_empty()).then(|| (B::tool_name(t).to_owned(), mirrored))
            })
            .collect();
        Ok(all)
    }

    /// Sends the request `R` with `params` (a fresh id, and the client's `_meta` in place of
    /// the one `params` carries: it says what the request needs, the tasks extension, a
    /// progress token) until it ends: each input-required answer is answered by the
    /// configured handler and the request sent again as its generated `retry` builds it, at
    /// most [`Config::with_max_rounds`] times; an answer that is a task is followed until it
    /// ends (see [`Client::follow_task`]). A `tools/call` of a tool that the last
    /// [`Client::list_all_tools`] listed with `x-mcp-header` annotations carries its
    /// `Mcp-Param-*` headers ([`Client::call_listed_tool`] takes the definition itself).
    ///
    /// ```no_run
    /// # use mcp_client_test_types::mcp;
    /// # mcp_client::bind!(Mcp = mcp);
    /// # async fn run(client: &mut mcp_client::Client<Mcp>) -> Result<(), mcp_client::ClientError> {
    /// let params = mcp::ReadResourceRequestParams::new(client.meta(), "file:///notes.md");
    /// let read = client.call::<mcp::ReadResourceRequest>(params).await?;
    /// println!("{} content(s)", read.contents.len());
    /// # Ok(()) }
    /// ```
    pub async fn call<R: Outgoing<B>>(
        &mut self,
        params: R::Params,
    ) -> Result<R::Done, ClientError> {
        let id = self.next_id();
        self.send_request(R::build(id, params)).await
    }

    /// [`Client::call`] for a request already built: its id is kept (take one from
    /// [`Client::next_id`]), its `_meta` replaced by the client's.
    pub async fn send_request<R: Outgoing<B>>(
        &mut self,
        mut request: R,
    ) -> Result<R::Done, ClientError> {
        let meta = self.meta_for::<R>(request.id());
        request.reset(request.id().clone(), meta);
        self.finish(request).await
    }

    /// [`Client::call`] for a request already numbered and given its `_meta`: refused, unsent,
    /// when the server [`Client::connect`] found does not allow it (an extension it did not
    /// declare).
    async fn finish<R: Outgoing<B>>(&mut self, request: R) -> Result<R::Done, ClientError> {
        if let Some(server) = &self.server {
            R::allowed_by(server)
                .map_err(|why| ClientError::Protocol(format!("{} not sent: {why}", R::METHOD)))?;
        }
        let exchange = Exchange {
            headers: self.listed_headers(&request),
            relist: None,
        };
        self.until_done(request, exchange).await
    }

    /// Calls a tool, answering input requests until it completes. `tool` is its definition
    /// from `tools/list`, for the `Mcp-Param-*` headers its `x-mcp-header` annotations ask
    /// for. A `HeaderMismatch` answer makes the client list the tools again (the definition
    /// may have changed) and send the call once more with the new definition's headers. An
    /// answer that is a task is followed until it ends (see [`Client::follow_task`]).
    pub async fn call_listed_tool(
        &mut self,
        tool: &B::Tool,
        arguments: Map<String, Value>,
    ) -> Result<<B::CallTool as mcp_runtime::client::Call>::Done, ClientError> {
        let headers = tool_headers::<B>(tool, &arguments)?;
        let (id, meta) = self.stamp::<B::CallTool>();
        let request = B::call_tool(id, meta, B::tool_name(tool), arguments.clone());
        let exchange = Exchange {
            headers,
            relist: Some(&arguments),
        };
        self.until_done(request, exchange).await
    }

    /// Sends a request that may answer that it needs input, until it ends: each input-required
    /// answer is answered (see [`Client::answer`]) and the request sent again as its
    /// generated `retry` builds it, with a new id and `_meta`; a task is followed.
    async fn until_done<R: Outgoing<B>>(
        &mut self,
        mut request: R,
        exchange: Exchange<'_>,
    ) -> Result<R::Done, ClientError> {
        let Exchange {
            mut headers,
            relist,
        } = exchange;
        let name = request.name().unwrap_or_default().to_owned();
        let mut relisted = false;
        for _ in 0..self.config.max_rounds {
            let (sent, answer) = match self.send(request.clone(), &headers).await {
                Err(ClientError::Rpc(e)) if e.code == HEADER_MISMATCH && !relisted => {
                    let Some(arguments) = relist else {
                        return Err(ClientError::Rpc(e));
                    };
                    note!(
                        self.config.log,
                        "{} {name:?}: {}; listing the tools again",
                        R::METHOD,
                        e.message
                    );
                    relisted = true;
                    let fresh = Box::pin(self.listed(&name)).await?;
                    headers = tool_headers::<B>(&fresh, arguments)?;
                    request = self.renumbered(request);
                    continue;
                }
                other => other?,
            };
            match R::outcome(answer) {
                Outcome::Done(done) => return Ok(done),
                Outcome::Task(created) => {
                    let task = self.follow_task(&created).await?;
                    return tasks::read_task_result::<B, R::Done>(task);
                }
                Outcome::NeedsInput(ask) => {
                    let responses = self.answer(&ask)?;
                    let id = self.next_id();
                    let retried = sent
                        .retry(id.clone(), &ask, responses)
                        .ok_or_else(|| {
                            ClientError::Protocol(format!(
                                "{} may not answer input_required",
                                R::METHOD
                            ))
                        })?
                        .map_err(|e| ClientError::Protocol(e.to_string()))?;
                    request = retried;
                    let meta = self.meta_for::<R>(&id);
                    request.reset(id, meta);
                }
            }
        }
        Err(ClientError::Protocol(format!(
            "{} {name:?} still needs input after {} rounds",
            R::METHOD,
            self.config.max_rounds
        )))
    }

    /// The `Mcp-Param-*` headers of `request` if it is a `tools/call` of a tool the last
    /// `tools/list` annotated (none otherwise, or if its arguments are not an object).
    fn listed_headers<R: Outgoing<B>>(&self, request: &R) -> Vec<(String, String)> {
        if R::METHOD != <B::CallTool as mcp_runtime::Request>::METHOD {
            return Vec::new();
        }
        let Some(mirrored) = request.name().and_then(|n| self.mirrored.get(n)) else {
            return Vec::new();
        };
        let Ok(body) = serde_json::to_value(request) else {
            return Vec::new();
        };
        let Some(arguments) = body["params"]["arguments"].as_object() else {
            return Vec::new();
        };
        mirrored
            .iter()
            .filter_map(|h| Some((h.header_name(), h.value_in(arguments)?)))
            .collect()
    }

    /// The tool `name` as `tools/list` gives it now.
    async fn listed(&mut self, name: &str) -> Result<B::Tool, ClientError> {
        self.list_all_tools()
            .await?
            .into_iter()
            .find(|t| B::tool_name(t) == name)
            .ok_or_else(|| ClientError::Protocol(format!("tool {name:?} is no longer listed")))
    }

    /// Answers every input request of `ask` with the configured handler. A request for a
    /// capability this client did not declare is a protocol error of the server's.
    fn answer(
        &self,
        ask: &B::InputRequired,
    ) -> Result<BTreeMap<String, B::InputResponse>, ClientError> {
        ask.check_capabilities(&self.config.capabilities)
            .map_err(|e| {
                ClientError::Protocol(format!("the server asked for undeclared input: {e}"))
            })?;
        let mut responses = BTreeMap::new();
        for (key, request) in ask.input_requests().into_iter().flatten() {
            responses.insert(key.clone(), (self.config.respond)(request));
        }
        Ok(responses)
    }
}

/// The answer as the era functions read it: an HTTP status and body, a stdio line, or none.
fn held(status: Option<u16>, answer: Option<&Answer>) -> era::Answer<'_> {
    let body = answer.map_or(&b""[..], |a| a.text.as_bytes());
    match (status, answer) {
        (Some(status), _) => era::Answer::Http { status, body },
        (None, Some(_)) => era::Answer::Stdio(body),
        (None, None) => era::Answer::NoResponse,
    }
}

/// The id of a JSON-RPC message, whether it answers (a result or an error), and whether with
/// an error; `None` when it is not a JSON-RPC message.
fn read_envelope<B: Binding>(data: &str) -> Option<(Option<B::RequestId>, bool, bool)> {
    let e = serde_json::from_str::<Envelope<B::RequestId>>(data).ok()?;
    let answers = e.result.is_some() || e.error.is_some();
    Some((e.id, answers, e.error.is_some()))
}

/// The final answer of a response that can only be one (a `tasks/*` request's).
fn done_only<B: Binding, R: Outgoing<B>>(response: R::Response) -> Result<R::Done, ClientError> {
    match R::outcome(response) {
        Outcome::Done(done) => Ok(done),
        _ => Err(ClientError::Protocol(format!(
            "{} answered with neither a result nor an error",
            R::METHOD
        ))),
    }
}

/// The `Mcp-Param-*` headers of a call of `tool`; an error for a tool with invalid
/// annotations (which the client must not call).
fn tool_headers<B: Binding>(
    tool: &B::Tool,
    arguments: &Map<String, Value>,
) -> Result<Vec<(String, String)>, ClientError> {
    headers::param_headers(B::tool_schema(tool), arguments)
        .map_err(|e| ClientError::Protocol(format!("tool {:?}: {e}", B::tool_name(tool))))
}

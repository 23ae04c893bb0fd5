//! An MCP server for revision 2026-07-28 over Streamable HTTP, and for 2025-11-25 clients in
//! legacy sessions on the same endpoint (`mcp_server::legacy`), written against the types that
//! `mcp-codegen` generates from the official schemas (see `build.rs`), for the official
//! conformance suite (`scripts/conformance.sh`).
//!
//! `mcp-conformance-server --listen 127.0.0.1:<port>` serves `http://127.0.0.1:<port>/mcp`:
//! stateless (every request carries its `_meta`), `server/discover`, JSON or SSE responses,
//! `subscriptions/listen`, caching hints, DNS-rebinding protection, the multi round-trip
//! (`InputRequiredResult`) flows with capability-gated input requests and sealed
//! `requestState`, and the tasks extension (`io.modelcontextprotocol/tasks`: tools that answer
//! with a task, `tasks/get`, `tasks/update`, `tasks/cancel`, status notifications) and the skills extension
//! (`io.modelcontextprotocol/skills`: the skills of a folder, `skills/list`, `skills/get`,
//! `resources/directory/read`, their files as resources). Every
//! queue and store a client can grow is bounded (`mcp_server::Config`, options in `mcp_server::options`), and a client that closes its
//! connection cancels its call (`mcp_server::work`).
//!
//! `mcp-conformance-server --stdio` serves the same handlers, both eras, on standard input and
//! output instead (`stdio.rs`): one JSON-RPC message per line, logs on standard error; a
//! modern request goes through the same checks of its message (`modern.rs`), a legacy
//! `initialize` opens the process's one session.

mod asking;
mod content;
mod features;
mod http;
mod mrtr;
mod rpc;
mod service;
mod skills;
mod stdio;
mod tasks;
#[cfg(test)]
mod tests;

use mcp_server::options::{Options, OptionsError, Transport};
use mcp_server::{Config, work};

/// The 2025-11-25 and 2026-07-28 types, generated at build time side by side; the modern
/// revision's names are this module's own (`mcp::CallToolRequest` is 2026-07-28's), the
/// legacy ones are under `mcp::v2025_11_25`. In a binary nothing is exported, so the lints a
/// library's public API is exempt from (unused items, variant names that repeat the schema's
/// `$def` names) apply; the names are the schema's own, on purpose.
#[allow(dead_code, unused_imports, clippy::enum_variant_names)]
mod mcp {
    include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
}

// The generated module, bound to `mcp_server` (its request id and error response).
mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);

use std::process::ExitCode;
use std::sync::Arc;

use mcp_runtime::seal::Sealer;
use mcp_server::changes::Changes;

/// The modern revisions (a protocol version on every request) this server implements: what
/// `server/discover` lists in `supportedVersions` and an `UnsupportedProtocolVersionError`
/// in `supported`. The server also speaks `mcp_server::legacy::LEGACY_VERSION` (2025-11-25) to clients
/// that open an `initialize` session, which is not a version a modern request may declare.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// State shared by all requests. A modern client has no state here: the protocol is
/// stateless, and what a multi round-trip request needs travels in its sealed `requestState`.
/// Tasks are the exception the tasks extension makes: the server keeps them, by unguessable
/// id, for their TTL. Legacy (2025-11-25) clients have their sessions (`mcp_server::legacy`).
pub struct App {
    pub sealer: Sealer,
    pub tasks: Arc<tasks::store::Store>,
    /// The list and resource changes, told to listen streams and legacy sessions; stopped
    /// at shutdown (which ends those streams).
    pub changes: Changes,
    /// The bounds and switches of the transport (`mcp_server::Config`): allowed hosts,
    /// `--modern-only`, what one request, connection and session may hold.
    pub config: Arc<Config>,
    /// The handlers running now (`mcp_server::work`): a response whose client went away leaves none.
    pub running: work::Running,
    /// The legacy (2025-11-25) sessions (`mcp_server::legacy::sessions`).
    pub sessions: mcp_server::legacy::Sessions<Mcp>,
    /// The version of the one fixture resource that changes (`features::WATCHED_RESOURCE`):
    /// a tool bumps it, so that subscribers see an update exactly when a test asks for one.
    pub watched_version: std::sync::atomic::AtomicU64,
    /// The methods of the extensions served (tasks, skills), besides the generated
    /// `ClientRequest`'s.
    pub extension_methods: Vec<mcp_server::Method>,
}

/// This server's `Implementation`, sent in every result's `_meta`.
pub fn server_info() -> mcp::Implementation {
    mcp::Implementation::new("mcp-conformance-server", env!("CARGO_PKG_VERSION"))
        .with_description("Conformance server built on mcp-codegen's generated types")
        .with_title("mcp-codegen conformance server")
}

/// `_meta` of every result: who answered.
pub fn result_meta() -> mcp::ResultMetaObject {
    mcp::ResultMetaObject::new().with_server_info(server_info())
}

/// What this server is, before the options (`mcp_server::options::usage`).
const USAGE: &str = "usage: mcp-conformance-server (--listen <address:port> | --stdio) [options]

Serves MCP 2026-07-28 over Streamable HTTP at http://<address:port>/mcp, and legacy
2025-11-25 sessions (initialize, Mcp-Session-Id) on the same endpoint with the same handlers;
with --modern-only, initialize is refused (UnsupportedProtocolVersion, naming the versions
served). With --stdio instead of --listen, serves both eras on standard input and output, one
JSON-RPC message per line (a legacy initialize opens the process's one session), until the
input ends; logs go to standard error. Requests whose Host or Origin is not a local name or an
--allow-host name are refused (DNS-rebinding protection). Instances that share a seal key ring
(one key per line or comma-separated, 64 hex digits each, the current key first) open each
other's requestState. With --auth-issuer and --auth-jwks, the endpoint is an OAuth 2.1
protected resource: every request needs a bearer JWT of that issuer for this server's resource
URI (401 with a WWW-Authenticate challenge otherwise), --auth-tool-scope tools need their scope
(403 insufficient_scope), and the protected resource metadata is served at
/.well-known/oauth-protected-resource/mcp. The skills extension serves the skills folder of
the checkout the server was built in (examples/conformance-server/skills), or the folder the
environment variable MCP_CONFORMANCE_SKILLS names. RELIABILITY.md says what happens at each
bound.";

fn main() -> ExitCode {
    let args = match Options::parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            let help = e == OptionsError::Help;
            if !help {
                eprintln!("mcp-conformance-server: {e}");
            }
            eprintln!("{USAGE}\n\n{}", mcp_server::options::usage());
            return if help {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            };
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("mcp-conformance-server: starting the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(serve(args));
    // Nothing is left to wait for (a read of standard input may still block a thread).
    runtime.shutdown_background();
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-conformance-server: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The shared state, with a fresh sealing key and an empty task store, also answering to
/// `extra_hosts`.
#[cfg(test)]
pub fn new_app(
    extra_hosts: Vec<String>,
    task_settings: tasks::store::Settings,
    config: Config,
) -> Result<Arc<App>, String> {
    let key = mcp_runtime::seal::random_key().map_err(|e| e.to_string())?;
    let sealer = Sealer::new(key).with_mode(mcp_runtime::seal::Mode::Aead);
    let config = extra_hosts.iter().fold(config, |c, h| c.allow_host(h));
    Ok(new_app_with(config, task_settings, sealer))
}

/// The shared state, sealing with `sealer`, with an empty task store.
pub fn new_app_with(
    config: Config,
    task_settings: tasks::store::Settings,
    sealer: Sealer,
) -> Arc<App> {
    let config = Arc::new(config);
    let stores = Stores {
        tasks: tasks::store::start(task_settings),
        changes: Changes::default(),
        sessions: mcp_server::legacy::Sessions::new(Arc::clone(&config)),
    };
    app_of(config, stores, sealer)
}

/// What the instances behind one address share when they share a store, kept by this one.
pub struct Stores {
    pub tasks: Arc<tasks::store::Store>,
    pub changes: Changes,
    pub sessions: mcp_server::legacy::Sessions<Mcp>,
}

impl Stores {
    /// The tasks, changes and legacy sessions of every instance that shares `redis`.
    pub async fn shared(
        config: &Arc<Config>,
        task_settings: tasks::store::Settings,
        redis: Arc<mcp_server::redis::Redis>,
    ) -> Result<Stores, String> {
        let shared =
            |what: &str, e: mcp_server::redis::Unavailable| format!("--store: {what}: {e}");
        let tasks = tasks::store::start_shared(Arc::clone(&redis), task_settings)
            .await
            .map_err(|e| shared("tasks", e))?;
        let changes = Changes::shared(Arc::clone(&redis), Changes::DEFAULT_BUFFER)
            .await
            .map_err(|e| shared("changes", e))?;
        let sessions = mcp_server::legacy::Sessions::with_redis(Arc::clone(config), redis)
            .await
            .map_err(|e| shared("legacy sessions", e))?;
        Ok(Stores {
            tasks,
            changes,
            sessions,
        })
    }
}

/// The shared state of `stores`, sealing with `sealer`.
pub fn app_of(config: Arc<Config>, stores: Stores, sealer: Sealer) -> Arc<App> {
    Arc::new(App {
        sealer,
        tasks: stores.tasks,
        changes: stores.changes,
        sessions: stores.sessions,
        config,
        running: work::Running::default(),
        watched_version: std::sync::atomic::AtomicU64::new(1),
        extension_methods: [tasks::METHODS, skills::methods()].concat(),
    })
}

async fn serve(args: Options) -> Result<(), String> {
    let skills = skills::check()?;
    eprintln!("mcp-conformance-server: serving {skills} skills (io.modelcontextprotocol/skills)");
    let sealer = args.seal.sealer()?;
    eprintln!(
        "mcp-conformance-server: sealing requestState with key {} ({:?} mode, TTL {} s)",
        sealer.key_id(),
        sealer.mode(),
        sealer.ttl().as_secs()
    );
    let address = match args.transport {
        Transport::Listen(address) => address,
        // `Options::parse` refuses --auth-* and --store with --stdio: they would be ignored.
        Transport::Stdio => {
            let app = new_app_with(args.config, args.tasks, sealer);
            eprintln!("mcp-conformance-server: serving on standard input and output");
            return stdio::serve(app).await.map_err(|e| format!("stdio: {e}"));
        }
    };
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| format!("binding {address}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    let mut config = args.config;
    // The resource URI is the endpoint's URL unless --auth-resource names another.
    if let Some(auth) = args.auth.auth(&format!("http://{local}/mcp")).await? {
        eprintln!(
            "mcp-conformance-server: protected resource {}, metadata at {}",
            auth.resource(),
            auth.metadata_url()
        );
        config = config.auth(auth);
    }
    let app = match args.store.connect().await? {
        Some(redis) => {
            eprintln!(
                "mcp-conformance-server: sharing tasks, changes and legacy sessions through Redis as instance {}",
                redis.instance()
            );
            let config = Arc::new(config);
            let stores = Stores::shared(&config, args.tasks, redis).await?;
            app_of(config, stores, sealer)
        }
        None => new_app_with(config, args.tasks, sealer),
    };
    eprintln!("mcp-conformance-server: listening on http://{local}/mcp");
    let config = Arc::clone(&app.config);
    let router = http::router(Arc::clone(&app));
    let server = mcp_server::serve(listener, router, &config, async move {
        mcp_server::accept::shutdown_signal().await;
        eprintln!("mcp-conformance-server: shutting down");
        // Ends the open listen and GET streams, so that graceful shutdown can finish.
        app.changes.stop();
    });
    tokio::spawn(server)
        .await
        .map_err(|e| format!("server task: {e}"))
}

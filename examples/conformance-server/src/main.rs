//! An MCP server for revision 2026-07-28 over Streamable HTTP, and for 2025-11-25 clients in
//! legacy sessions on the same endpoint, written as a user of `mcp-server` writes one: the
//! generated `Server` trait (`build.rs` generates it), the tools, prompts and resources routers
//! (`features.rs`), and `mcp_server::Served`, which serves them over HTTP or stdio, in both
//! eras, with every option of `mcp_server::options` (`--store`, `--auth-*`, seal, bounds). The
//! official conformance suite runs it (`scripts/conformance.sh`), as do the cluster, the floods
//! and the Python and TypeScript interop scripts.
//!
//! What it serves besides the suite's tools, prompts and resources, each a switch of `Served`:
//! `subscriptions/listen` and legacy subscriptions (`Served::changes`), the tasks extension
//! (`Served::tasks`, `tasks.rs`), the skills extension (`Served::skills`, `skills.rs`), and the
//! multi round-trip flows with sealed `requestState` (`mrtr.rs`, `asking.rs`, on
//! `mcp_runtime::mrtr`).

mod asking;
mod content;
mod features;
mod mrtr;
mod skills;
mod tasks;
#[cfg(test)]
mod tests;

use std::error::Error;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use mcp_runtime::seal::Sealer;
use mcp_server::Served;
use mcp_server::changes::Changes;
use mcp_server::options::Options;
use mcp_server::skills::Catalog;
use mcp_server::tasks::serve::Tasks;

/// The 2025-11-25 and 2026-07-28 types, generated at build time side by side; the modern
/// revision's names are this module's own (`mcp::CallToolRequest` is 2026-07-28's), the
/// legacy ones are under `mcp::v2025_11_25`. In a binary nothing is exported, so the lints a
/// library's public API is exempt from (unused items, variant names that repeat the schema's
/// `$def` names) apply; the names are the schema's own, on purpose.
#[allow(dead_code, unused_imports, clippy::enum_variant_names)]
mod mcp {
    include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
}

// The generated module, bound to `mcp_server`: the transports, the service trait, the tasks
// and skills extensions.
mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
mcp_server::bind_server!(Mcp = mcp);
mcp_server::bind_tasks!(Mcp = mcp);
mcp_server::bind_skills!(Mcp = mcp);

/// What the handlers share. A modern client has no state here: the protocol is stateless,
/// and what a multi round-trip request needs travels in its sealed `requestState`.
pub struct Fixture {
    /// Seals and opens `requestState`.
    pub sealer: Sealer,
    /// The list and resource changes a tool announces (`Served::changes`).
    pub changes: Arc<Changes>,
    /// The tasks (`Served::tasks`).
    pub tasks: Tasks<Mcp>,
    /// The version of the one fixture resource that changes (`features::WATCHED_RESOURCE`):
    /// a tool bumps it, so that subscribers see an update exactly when a test asks for one.
    pub watched_version: AtomicU64,
}

/// The fixture as `Served` serves it.
pub type App = Served<Mcp, Arc<Fixture>>;

/// What a handler is handed: `mcp_server`'s context of the request (which this dereferences
/// to) and the fixture's state (`ctx.state`), as the routers built in `features` are given it.
pub type Ctx = mcp_server::WithState<mcp_server::Ctx<Mcp>, Arc<Fixture>>;

/// The logger this server's log messages name.
pub const LOGGER: &str = "mcp-conformance-server";

/// Completion is the one request the routers do not answer.
impl mcp::Server<mcp_server::Ctx<Mcp>> for Arc<Fixture> {
    async fn complete(
        &self,
        _ctx: mcp_server::Ctx<Mcp>,
        params: &mcp::CompleteRequestParams,
    ) -> mcp_runtime::Response<mcp::CompleteRequest> {
        Ok(features::complete(params))
    }
}

/// This server's `Implementation`, sent in every modern result's `_meta` and at `initialize`.
pub fn server_info() -> mcp::Implementation {
    mcp::Implementation::new("mcp-conformance-server", env!("CARGO_PKG_VERSION"))
        .with_description("Conformance server built on mcp-codegen's generated types")
        .with_title("mcp-codegen conformance server")
}

/// The handlers' state: sealing with `sealer`, tasks as `tasks` says.
pub fn fixture(sealer: Sealer, tasks: mcp_server::tasks::Settings) -> Arc<Fixture> {
    Arc::new(Fixture {
        sealer,
        changes: Arc::new(Changes::default()),
        tasks: Tasks::with_settings(tasks),
        watched_version: AtomicU64::new(1),
    })
}

/// The fixture served: its routers, changes, tasks and the skills of `catalog`.
pub fn served(fixture: &Arc<Fixture>, catalog: Catalog) -> Result<App, Box<dyn Error>> {
    let state = || Arc::clone(fixture);
    let served = Served::new(state(), server_info())
        .capabilities(features::capabilities())
        .instructions(features::INSTRUCTIONS)
        .logger(LOGGER)
        .tools(features::tools()?.with_state(state()))
        .prompts(features::prompts()?.with_state(state()))
        .resources(features::resources()?.with_state(state()))
        .changes(Arc::clone(&fixture.changes))
        .tasks(fixture.tasks.clone())
        .skills(catalog);
    served.check()?;
    Ok(served)
}

/// What this server is, before the options (`mcp_server::options::usage`).
const USAGE: &str = "usage: mcp-conformance-server (--listen <address:port> | --stdio) [options]

Serves MCP 2026-07-28 over Streamable HTTP at http://<address:port>/mcp, and legacy
2025-11-25 sessions (initialize, Mcp-Session-Id) on the same endpoint with the same handlers;
with --stdio, both eras on standard input and output, one JSON-RPC message per line. The
skills extension serves examples/conformance-server/skills of the checkout the server was
built in, or the folder MCP_CONFORMANCE_SKILLS names. RELIABILITY.md says what happens at each
bound.";

fn main() -> ExitCode {
    mcp_server::served::main("mcp-conformance-server", USAGE, serve)
}

async fn serve(options: Options) -> Result<(), Box<dyn Error>> {
    let catalog = skills::catalog()?;
    eprintln!(
        "mcp-conformance-server: serving {} skills (io.modelcontextprotocol/skills)",
        catalog.len()
    );
    let sealer = options.seal.sealer()?;
    let fixture = fixture(sealer, options.tasks);
    let served = served(&fixture, catalog)?;
    Ok(mcp_server::served::run(served, options).await?)
}

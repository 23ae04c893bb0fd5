//! The skills extension (`io.modelcontextprotocol/skills`, SEP-2640), for 2026-07-28 clients,
//! served by `mcp_server::skills::serve` (`Skills`, bound to the generated module with
//! `mcp_server::bind_skills!`): the skills of a directory tree (`mcp_server::skills::Catalog`),
//! listed with `skills/list` (a page at a time), one entry by `skills/get`, a directory's
//! children by `resources/directory/read` (declared with `directoryRead`), and every file an
//! ordinary resource (`resources/list`, `resources/read`, in both eras). This module only finds
//! and loads the catalog, and adds the server's identity to the answers' `_meta`.
//!
//! The tree is `examples/conformance-server/skills/` of the checkout the server was built in,
//! or the folder `MCP_CONFORMANCE_SKILLS` names. A 2025-11-25 session is neither told of the
//! extension nor served its methods (they are not methods of that revision); it can still
//! read the skills' files as resources.

use std::sync::LazyLock;

use mcp_runtime::RpcError;
use mcp_server::skills::Catalog;
use mcp_server::skills::serve::Skills;

use crate::rpc::{Ctx, Refused};
use crate::{Mcp, mcp};

mcp_server::bind_skills!(Mcp = mcp);

/// The environment variable that names another skills folder.
pub const SKILLS_DIR_VARIABLE: &str = "MCP_CONFORMANCE_SKILLS";

/// The fixture folder of this crate, in the checkout the server was built in.
const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/skills");

/// The catalog served, read once: `$MCP_CONFORMANCE_SKILLS` (an error, naming the folder, when
/// it cannot be read), else the fixture (no skills, said on standard error, when the binary
/// runs where its checkout is not).
static SKILLS: LazyLock<Result<Skills<Mcp>, String>> = LazyLock::new(|| {
    let load = |folder: &std::path::Path| {
        Catalog::load(folder)
            .map(Skills::new)
            .map_err(|e| format!("skills in {}: {e}", folder.display()))
    };
    match std::env::var_os(SKILLS_DIR_VARIABLE) {
        Some(named) => load(std::path::Path::new(&named)),
        None if std::path::Path::new(FIXTURE).is_dir() => load(std::path::Path::new(FIXTURE)),
        None => {
            eprintln!(
                "mcp-conformance-server: no skills: {FIXTURE} is not here and {SKILLS_DIR_VARIABLE} is unset"
            );
            Ok(Skills::new(Catalog::default()))
        }
    }
});

/// The catalog served, or why it could not be read (the server refuses to start then:
/// [`check`]).
pub fn skills() -> Result<&'static Skills<Mcp>, &'static str> {
    SKILLS.as_ref().map_err(String::as_str)
}

/// Reads the catalog at startup, and says how many skills it holds: an error stops the server
/// before it listens.
pub fn check() -> Result<usize, String> {
    skills()
        .map(|skills| skills.catalog().len())
        .map_err(str::to_owned)
}

/// The extension's methods, which the server adds to the methods a client may call (none has
/// an `Mcp-Name` header); none when the catalog could not be read.
pub fn methods() -> &'static [mcp_server::Method] {
    skills().map_or(&[], Skills::methods)
}

/// Whether `method` is one of the extension's served.
pub fn serves(method: &str) -> bool {
    skills().is_ok_and(|skills| skills.serves(method))
}

/// Declares the extension (with `directoryRead`) in `capabilities`, when the catalog was read.
pub fn declare(capabilities: &mut mcp::ServerCapabilities) {
    if let Ok(skills) = skills() {
        skills.declare(capabilities);
    }
}

/// Answers the request of the extension's `method` (one of [`methods`]) of which `body` is the
/// whole message; the result's `_meta` names this server.
pub fn answer(ctx: Ctx, method: &str, body: &[u8]) -> Result<String, Refused> {
    let skills = skills().map_err(|e| ctx.fail(RpcError::internal_error(e)))?;
    let answer = skills.answer(method, body).map_err(|e| ctx.fail(e))?;
    Ok(mcp_server::served::identified(
        answer,
        &crate::result_meta(),
    ))
}

/// Every skill file as a listed resource (a `SKILL.md` named and described from its
/// frontmatter).
pub fn resources() -> Vec<mcp::Resource> {
    skills().map(Skills::resources).unwrap_or_default()
}

/// The `resources/read` result of the skill file at `uri`, if there is one: text when it is
/// UTF-8, else a blob; its `_meta` names this server.
pub fn read(uri: &str) -> Option<mcp::ReadResourceResult> {
    let result = skills().ok()?.read(uri)?;
    Some(result.with_meta(crate::result_meta()))
}

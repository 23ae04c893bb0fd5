//! The skills extension (`io.modelcontextprotocol/skills`, SEP-2640), served by
//! `Served::skills` from a directory tree (`mcp_server::skills::Catalog`): `skills/list`,
//! `skills/get`, `resources/directory/read`, and every file an ordinary resource in both eras.
//! This module only finds the tree: `examples/conformance-server/skills/` of the checkout the
//! server was built in, or the folder `MCP_CONFORMANCE_SKILLS` names.

use std::path::Path;

use mcp_server::skills::Catalog;

/// The environment variable that names another skills folder.
pub const SKILLS_DIR_VARIABLE: &str = "MCP_CONFORMANCE_SKILLS";

/// The fixture folder of this crate, in the checkout the server was built in.
const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/skills");

/// The catalog to serve: `$MCP_CONFORMANCE_SKILLS` (an error, naming the folder, when it
/// cannot be read), else the fixture (no skills, said on standard error, when the binary runs
/// where its checkout is not).
pub fn catalog() -> Result<Catalog, String> {
    let load = |folder: &Path| {
        Catalog::load(folder).map_err(|e| format!("skills in {}: {e}", folder.display()))
    };
    match std::env::var_os(SKILLS_DIR_VARIABLE) {
        Some(named) => load(Path::new(&named)),
        None if Path::new(FIXTURE).is_dir() => load(Path::new(FIXTURE)),
        None => {
            eprintln!(
                "mcp-conformance-server: no skills: {FIXTURE} is not here and {SKILLS_DIR_VARIABLE} is unset"
            );
            Ok(Catalog::default())
        }
    }
}

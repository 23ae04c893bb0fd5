//! Generates the 2026-07-28 types from the official schema (in `$MCP_SCHEMA_DIR`), with the
//! tasks extension, as a user's `build.rs` does.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=MCP_SCHEMA_DIR");
    let dir = PathBuf::from(std::env::var("MCP_SCHEMA_DIR").expect(
        "MCP_SCHEMA_DIR is not set: .cargo/config.toml sets it to ../shared/mcp-schema; run cargo from the workspace",
    ));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let generated = mcp_codegen::Builder::new()
        .schema(dir.join("2026-07-28").join("schema.json"))
        .extension("io.modelcontextprotocol/tasks")
        .generate(out.join("mcp.rs"));
    if let Err(e) = generated {
        panic!("generating the 2026-07-28 types: {e}");
    }
}

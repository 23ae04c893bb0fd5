//! Generates the MCP 2025-11-25 and 2026-07-28 types side by side from the official schemas
//! (`$MCP_SCHEMA_DIR`, set by the workspace's `.cargo/config.toml`) into `$OUT_DIR/mcp.rs`:
//! modules `v2025_11_25` (legacy sessions) and `v2026_07_28` (with the tasks extension,
//! `io.modelcontextprotocol/tasks`, SEP-2663), their shared types and the conversions between
//! them.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=MCP_SCHEMA_DIR");
    let dir = PathBuf::from(std::env::var("MCP_SCHEMA_DIR").expect(
        "MCP_SCHEMA_DIR is not set: .cargo/config.toml sets it to ../shared/mcp-schema; run cargo from the workspace",
    ));
    let legacy = dir.join("2025-11-25").join("schema.json");
    let schema = dir.join("2026-07-28").join("schema.json");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    if let Err(e) = mcp_codegen::Builder::new()
        .schema(&legacy)
        .schema(&schema)
        .extension("io.modelcontextprotocol/tasks")
        .generate(out.join("mcp.rs"))
    {
        panic!(
            "generating from {} and {}: {e}",
            legacy.display(),
            schema.display()
        );
    }
}

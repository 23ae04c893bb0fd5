//! Generates the MCP 2026-07-28 types from the official schema (`$MCP_SCHEMA_DIR`, set by the
//! workspace's `.cargo/config.toml`) into `$OUT_DIR/mcp.rs`, with the tasks extension
//! (`io.modelcontextprotocol/tasks`, SEP-2663).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=MCP_SCHEMA_DIR");
    let dir = PathBuf::from(std::env::var("MCP_SCHEMA_DIR").expect(
        "MCP_SCHEMA_DIR is not set: .cargo/config.toml sets it to ../shared/mcp-schema; run cargo from the workspace",
    ));
    let schema = dir.join("2026-07-28").join("schema.json");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    if let Err(e) = mcp_codegen::Builder::new()
        .schema(&schema)
        .extension("io.modelcontextprotocol/tasks")
        .generate(out.join("mcp.rs"))
    {
        panic!("generating from {}: {e}", schema.display());
    }
}

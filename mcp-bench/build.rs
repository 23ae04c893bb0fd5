//! Generates the 2026-07-28 types from the official schema into `$OUT_DIR/mcp.rs`, and with
//! `raw_json` into `$OUT_DIR/mcp-raw.rs`.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=MCP_SCHEMA_DIR");
    let dir = PathBuf::from(std::env::var("MCP_SCHEMA_DIR").expect(
        "MCP_SCHEMA_DIR is not set: .cargo/config.toml sets it to ../shared/mcp-schema; run cargo from the workspace",
    ));
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let schema = dir.join("2026-07-28").join("schema.json");
    if let Err(e) = mcp_codegen::Builder::new()
        .schema(&schema)
        .generate(out.join("mcp.rs"))
    {
        panic!("generating from {}: {e}", schema.display());
    }
    if let Err(e) = mcp_codegen::Builder::new()
        .schema(&schema)
        .raw_json(true)
        .generate(out.join("mcp-raw.rs"))
    {
        panic!("generating with raw_json from {}: {e}", schema.display());
    }
}

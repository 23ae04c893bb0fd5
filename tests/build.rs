//! Generates the 2026-07-28 types from the official schema at build time.

use std::path::PathBuf;

fn main() {
    let dir = std::env::var("MCP_SCHEMA_DIR").unwrap_or_else(|_| "../../shared/mcp-schema".to_owned());
    println!("cargo:rerun-if-env-changed=MCP_SCHEMA_DIR");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let schema = PathBuf::from(dir).join("2026-07-28").join("schema.json");
    if let Err(e) = mcp_codegen::Builder::new().schema(&schema).generate(out.join("mcp.rs")) {
        panic!("generating from {}: {e}", schema.display());
    }
}

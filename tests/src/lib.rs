//! The 2026-07-28 types, generated at build time from the official schema, for the
//! integration tests in `tests/`.
#![deny(warnings)]

/// Types generated from `$MCP_SCHEMA_DIR/2026-07-28/schema.json`.
pub mod mcp {
    include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
}

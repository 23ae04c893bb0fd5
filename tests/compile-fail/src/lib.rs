//! The generated 2026-07-28 types the compile-fail cases in `tests/ui/` are written against
//! (the cases in `tests/derive/` use only the runtime's derives).
#![deny(warnings)]
#![deny(missing_docs)]

/// Types generated from `$MCP_SCHEMA_DIR/2026-07-28/schema.json`.
pub mod mcp {
    include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
}

/// The same with the `io.modelcontextprotocol/tasks` extension (SEP-2663) enabled.
pub mod tasks {
    include!(concat!(env!("OUT_DIR"), "/mcp-tasks.rs"));
}

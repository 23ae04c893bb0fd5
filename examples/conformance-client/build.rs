//! Generates the MCP 2026-07-28 types from the official schema into `$OUT_DIR/mcp.rs`, with
//! the tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663).

include!("../generate_mcp.rs");

fn main() {
    generate_mcp(&["2026-07-28"], &["io.modelcontextprotocol/tasks"]);
}

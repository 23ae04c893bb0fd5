//! Generates the MCP 2025-11-25 and 2026-07-28 types side by side from the official schemas
//! (`$MCP_SCHEMA_DIR`, set by the workspace's `.cargo/config.toml`) into `$OUT_DIR/mcp.rs`:
//! modules `v2025_11_25` (legacy sessions) and `v2026_07_28` (with the tasks extension,
//! `io.modelcontextprotocol/tasks`, SEP-2663, and the skills extension,
//! `io.modelcontextprotocol/skills`, SEP-2640), their shared types and the conversions between
//! them.

include!("../generate_mcp.rs");

fn main() {
    generate_mcp(
        &["2025-11-25", "2026-07-28"],
        &[
            "io.modelcontextprotocol/tasks",
            "io.modelcontextprotocol/skills",
        ],
        true,
    );
}

//! Generates the MCP 2025-11-25 and 2026-07-28 types side by side, with the tasks and skills
//! extensions, into `$OUT_DIR/mcp.rs`, as the conformance client's build does (mcp-client's
//! tests bind this module).

include!("../../examples/generate_mcp.rs");

fn main() {
    generate_mcp(
        &["2025-11-25", "2026-07-28"],
        &[
            "io.modelcontextprotocol/tasks",
            "io.modelcontextprotocol/skills",
        ],
        false,
    );
}

//! `CallToolResponse`, the earlier name of `CallToolReply`, still names it for one release,
//! deprecated with a note that says what it is now.
#![deny(deprecated)]

use mcp_compile_fail::mcp;

fn read(text: &str) -> serde_json::Result<mcp::CallToolResponse> {
    serde_json::from_str(text)
}

fn main() {
    let _ = read("{}");
}

//! The input of the three `handler_*` examples (README, "The same handler three ways").

/// A `tools/call` request for the `greet` tool, as a 2026-07-28 client sends it.
pub const REQUEST: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

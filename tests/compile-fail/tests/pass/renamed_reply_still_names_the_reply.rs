//! Code written against the earlier name compiles unchanged (with the deprecation allowed):
//! `CallToolResponse` is `CallToolReply`.
#![allow(deprecated)]

use mcp_compile_fail::mcp;

fn main() {
    let earlier: Option<mcp::CallToolResponse> = None;
    let now: Option<mcp::CallToolReply> = earlier;
    assert!(now.is_none());
}

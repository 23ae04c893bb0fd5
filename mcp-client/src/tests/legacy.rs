//! The conversions of a legacy session: requests, results, and the server's own requests.

use mcp_runtime::error_code::{INVALID_PARAMS, METHOD_NOT_FOUND};
use serde_json::{Value, json};

use super::fixture::{CLIENT_NAME, Mcp, respond};
use crate::Binding;
use crate::legacy::answer_request;

fn answered(message: Value) -> Value {
    answer_request::<Mcp>(message, &respond)
}

fn request_to_legacy(modern: Value) -> Result<Vec<u8>, String> {
    crate::legacy::request_to_legacy::<Mcp>(modern)
}

fn result_to_modern(method: &str, result: Value) -> Result<Value, String> {
    Mcp::result_to_modern(method, result)
}

#[test]
fn a_request_loses_the_modern_meta_and_keeps_the_rest() {
    let modern = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "t", "arguments": {"a": 1},
        "_meta": {"progressToken": "p-7",
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}}});
    let sent: Value = serde_json::from_slice(&request_to_legacy(modern).unwrap()).unwrap();
    assert_eq!(
        sent,
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
            "name": "t", "arguments": {"a": 1}, "_meta": {"progressToken": "p-7"}}})
    );
}

#[test]
fn a_legacy_list_result_reads_as_the_modern_one_cached_for_no_time() {
    let result = json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}}]});
    let modern = result_to_modern("tools/list", result).unwrap();
    assert_eq!(modern["ttlMs"], 0);
    assert_eq!(modern["cacheScope"], "private");
    assert_eq!(modern["tools"][0]["name"], "t");
    assert!(result_to_modern("tasks/get", json!({})).is_err());
}

#[test]
fn server_requests_are_answered_by_the_input_handlers() {
    let sampled = answered(json!({"jsonrpc": "2.0", "id": 1,
        "method": "sampling/createMessage", "params": {"maxTokens": 10,
        "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}}));
    assert_eq!(sampled["id"], 1);
    assert_eq!(sampled["result"]["model"], CLIENT_NAME);
    assert!(sampled["result"].get("resultType").is_none(), "{sampled}");
    let roots = answered(json!({"jsonrpc": "2.0", "id": 2, "method": "roots/list"}));
    assert_eq!(roots["result"]["roots"][0]["uri"], "file:///workspace");
    let ping = answered(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}));
    assert_eq!(ping["result"], json!({}));
}

#[test]
fn an_unknown_or_unreadable_server_request_is_an_error() {
    let unknown = answered(json!({"jsonrpc": "2.0", "id": "u", "method": "tasks/list"}));
    assert_eq!(unknown["error"]["code"], METHOD_NOT_FOUND);
    assert_eq!(unknown["id"], "u");
    let bad = answered(
        json!({"jsonrpc": "2.0", "id": 4, "method": "elicitation/create",
        "params": {"message": 5}}),
    );
    assert_eq!(bad["error"]["code"], INVALID_PARAMS);
}

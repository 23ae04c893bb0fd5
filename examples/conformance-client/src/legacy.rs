//! What changes when the server is legacy (2025-11-25, found by the probe in
//! `Session::connect`): the messages. The session writes each request as the modern type and
//! reads each result as one, so the client's logic is the same in both eras; here a request
//! becomes the 2025-11-25 request and a 2025-11-25 result the modern result, through the
//! generated conversions (`TryFrom` between `mcp::v2025_11_25` and `mcp::v2026_07_28`). A
//! legacy server's own requests (`elicitation/create`, `sampling/createMessage`, `roots/list`)
//! are read as the modern input requests and answered by the same handler as an
//! `input_required` answer's (`answers::respond`): the inverse of the server's bridge.

use mcp_runtime::error_code::{INVALID_PARAMS, METHOD_NOT_FOUND};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::mcp;
use crate::mcp::v2025_11_25 as old;

/// The legacy revision this client speaks (its `initialize` asks for it, and it accepts no
/// other in the answer).
pub const VERSION: &str = "2025-11-25";

/// The `_meta` keys a modern request carries that a legacy server has no use for (what they
/// say was said once, in `initialize`).
const MODERN_META_PREFIX: &str = "io.modelcontextprotocol/";

/// A legacy session as the client keeps it.
#[derive(Debug, Clone)]
pub struct Link {
    /// The `Mcp-Session-Id` the server gave in answer to `initialize`, if any.
    pub session_id: Option<String>,
    /// The negotiated version, sent as `MCP-Protocol-Version` after `initialize`.
    pub version: String,
}

/// Writes `value` as JSON, or the error as text.
fn to_json<T: Serialize>(value: &T) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|e| e.to_string())
}

/// Reads `value` as `T`, or the error as text.
fn read<T: DeserializeOwned>(value: Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| e.to_string())
}

/// The modern request `modern` (JSON) as a 2025-11-25 server reads it: converted to the
/// legacy `ClientRequest`, without the modern `_meta` keys.
pub fn request_to_legacy(modern: Value) -> Result<Vec<u8>, String> {
    let request: mcp::ClientRequest = read(modern)?;
    let older = old::ClientRequest::try_from(request).map_err(|e| e.to_string())?;
    let mut json = to_json(&older)?;
    if let Some(Value::Object(params)) = json.get_mut("params") {
        if let Some(Value::Object(meta)) = params.get_mut("_meta") {
            meta.retain(|key, _| !key.starts_with(MODERN_META_PREFIX));
        }
        if params
            .get("_meta")
            .and_then(Value::as_object)
            .is_some_and(Map::is_empty)
        {
            params.remove("_meta");
        }
    }
    serde_json::to_vec(&json).map_err(|e| e.to_string())
}

/// The caching hints a modern list or read result must carry and a legacy one never has:
/// what a legacy result means, cached for no time and by this client only.
fn no_caching(result: &mut Value) {
    if let Value::Object(object) = result {
        object.entry("ttlMs").or_insert(json!(0));
        object.entry("cacheScope").or_insert(json!("private"));
    }
}

/// A legacy result that has all the modern type needs.
fn as_is(_: &mut Value) {}

/// Reads `result` as the legacy `$t`, completed by `$fill`, and converts it to the modern `$t`
/// (JSON).
macro_rules! to_modern {
    ($method:expr, $result:expr; $($m:literal => $t:ident, $fill:ident);* $(;)?) => {
        match $method {
            $($m => {
                let mut result = $result;
                $fill(&mut result);
                let older: old::$t = read(result)?;
                to_json(&mcp::$t::try_from(older).map_err(|e| e.to_string())?)
            })*
            other => Err(format!("{other} is not a request this client sends to a legacy server")),
        }
    };
}

/// A legacy server's `result` for `method`, as the modern result of that method (JSON).
pub fn result_to_modern(method: &str, result: Value) -> Result<Value, String> {
    to_modern!(method, result;
        "tools/list" => ListToolsResult, no_caching;
        "tools/call" => CallToolResult, as_is;
        "resources/list" => ListResourcesResult, no_caching;
        "resources/read" => ReadResourceResult, no_caching;
        "prompts/list" => ListPromptsResult, no_caching;
        "prompts/get" => GetPromptResult, as_is;
    )
}

/// The 2025-11-25 `initialize` request: this client's capabilities and identity.
pub fn initialize(
    id: mcp::RequestId,
    capabilities: &mcp::ClientCapabilities,
    client_info: mcp::Implementation,
) -> Result<old::InitializeRequest, String> {
    let capabilities =
        old::ClientCapabilities::try_from(capabilities.clone()).map_err(|e| e.to_string())?;
    let params = old::InitializeRequestParams::new(capabilities, client_info, VERSION);
    Ok(old::InitializeRequest::new(id, params))
}

/// The `notifications/initialized` that ends the handshake.
pub fn initialized() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
}

/// Reads the server's answer to `initialize`: its result, checked to name [`VERSION`].
pub fn read_initialize(result: Value) -> Result<old::InitializeResult, String> {
    let result: old::InitializeResult = read(result)?;
    if result.protocol_version != VERSION {
        return Err(format!(
            "the server chose protocol version {:?}; this client speaks {VERSION} and 2026-07-28",
            result.protocol_version
        ));
    }
    Ok(result)
}

/// The server's 2025-11-25 capabilities as the modern type.
pub fn capabilities(caps: old::ServerCapabilities) -> Result<mcp::ServerCapabilities, String> {
    mcp::ServerCapabilities::try_from(caps).map_err(|e| e.to_string())
}

/// The methods a legacy server may ask this client: `ping`, and the three whose modern
/// counterparts are input requests.
const SERVER_METHODS: &[&str] = &[
    "ping",
    "elicitation/create",
    "sampling/createMessage",
    "roots/list",
];

/// A server's request `message` on a legacy session (one of [`SERVER_METHODS`]), as the
/// modern input request it stands for; `None` for `ping` (answered with an empty result).
fn input_request(method: &str, message: Value) -> Result<Option<mcp::InputRequest>, String> {
    let era = |e: mcp_runtime::era::EraError| e.to_string();
    Ok(Some(match method {
        "elicitation/create" => {
            mcp::InputRequest::ElicitRequest(read::<old::ElicitRequest>(message)?.into())
        }
        "sampling/createMessage" => mcp::InputRequest::CreateMessageRequest(
            read::<old::CreateMessageRequest>(message)?
                .try_into()
                .map_err(era)?,
        ),
        "roots/list" => {
            mcp::InputRequest::ListRootsRequest(read::<old::ListRootsRequest>(message)?.into())
        }
        _ => return Ok(None),
    }))
}

/// The modern answer to an input request as the 2025-11-25 result (JSON).
fn response_to_legacy(response: mcp::InputResponse) -> Result<Value, String> {
    let era = |e: mcp_runtime::era::EraError| e.to_string();
    match response {
        mcp::InputResponse::ElicitResult(r) => {
            to_json(&old::ElicitResult::try_from(r).map_err(era)?)
        }
        mcp::InputResponse::CreateMessageResult(r) => {
            to_json(&old::CreateMessageResult::try_from(*r).map_err(era)?)
        }
        mcp::InputResponse::ListRootsResult(r) => {
            to_json(&old::ListRootsResult::try_from(r).map_err(era)?)
        }
    }
}

/// The JSON-RPC response to a legacy server's request `message`: `respond` answers the input
/// request it stands for (the handler of the modern era's `input_required`).
pub fn answer_request(
    message: Value,
    respond: impl Fn(&mcp::InputRequest) -> mcp::InputResponse,
) -> Value {
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let error = |code: i64, text: String| json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": text}});
    if !SERVER_METHODS.contains(&method.as_str()) {
        return error(METHOD_NOT_FOUND, format!("Method not found: {method}"));
    }
    let result = match input_request(&method, message) {
        Ok(None) => Ok(json!({})),
        Ok(Some(request)) => response_to_legacy(respond(&request)),
        Err(e) => Err(e),
    };
    match result {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(e) => error(INVALID_PARAMS, format!("Invalid params: {method}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::respond;

    fn answered(message: Value) -> Value {
        answer_request(message, respond)
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
        assert_eq!(sampled["result"]["model"], "mcp-conformance-client");
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
}

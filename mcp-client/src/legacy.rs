//! What changes when the server is legacy (2025-11-25, found by the probe in
//! [`Client::connect`](crate::Client::connect)): the messages. The client writes each request
//! as the modern type and reads each result as one, so its logic is the same in both eras;
//! here a request becomes the 2025-11-25 request and a 2025-11-25 result the modern result,
//! through the generated conversions the [`Binding`] names. A legacy server's own requests
//! (`elicitation/create`, `sampling/createMessage`, `roots/list`) are read as the modern input
//! requests and answered by the same handler as an `input_required` answer's: the inverse of
//! the server's bridge.

use mcp_runtime::error_code::{INVALID_PARAMS, METHOD_NOT_FOUND};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::binding::{Binding, LegacyRequestError};

/// The legacy revision this client speaks (its `initialize` asks for it, and it accepts no
/// other in the answer).
pub const VERSION: &str = "2025-11-25";

/// The `_meta` keys a modern request carries that a legacy server has no use for (what they
/// say was said once, in `initialize`).
const MODERN_META_PREFIX: &str = "io.modelcontextprotocol/";

/// A legacy session as the client keeps it.
#[derive(Debug, Clone)]
pub(crate) struct Link {
    /// The `Mcp-Session-Id` the server gave in answer to `initialize`, if any.
    pub session_id: Option<String>,
    /// The negotiated version, sent as `MCP-Protocol-Version` after `initialize`.
    pub version: String,
}

/// Writes `value` as JSON, or the error as text.
pub fn to_json<T: Serialize>(value: &T) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|e| e.to_string())
}

/// Reads `value` as `T`, or the error as text.
pub fn read<T: DeserializeOwned>(value: Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| e.to_string())
}

/// The modern request `modern` (JSON) as a 2025-11-25 server reads it: converted to the
/// legacy `ClientRequest`, without the modern `_meta` keys.
pub(crate) fn request_to_legacy<B: Binding>(modern: Value) -> Result<Vec<u8>, String> {
    let mut json = B::request_to_legacy(modern)?;
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
pub fn no_caching(result: &mut Value) {
    if let Value::Object(object) = result {
        object.entry("ttlMs").or_insert(json!(0));
        object.entry("cacheScope").or_insert(json!("private"));
    }
}

/// A legacy result that has all the modern type needs.
pub fn as_is(_: &mut Value) {}

/// Reads the server's answer to `initialize`, checked to name [`VERSION`].
pub(crate) fn read_initialize<B: Binding>(
    result: Value,
) -> Result<crate::binding::Initialized<B>, String> {
    let result = B::initialized(result)?;
    if result.protocol_version != VERSION {
        return Err(format!(
            "the server chose protocol version {:?}; this client speaks {VERSION} and 2026-07-28",
            result.protocol_version
        ));
    }
    Ok(result)
}

/// The notification that ends the handshake ([`Binding::INITIALIZED`]).
pub(crate) fn initialized<B: Binding>() -> Value {
    json!({"jsonrpc": "2.0", "method": B::INITIALIZED})
}

/// The JSON-RPC response to a legacy server's request `message`: `respond` answers the input
/// request it stands for (the handler of the modern era's `input_required`); `ping` gets an
/// empty result.
pub(crate) fn answer_request<B: Binding>(
    message: Value,
    respond: &(dyn Fn(&B::InputRequest) -> B::InputResponse + Send + Sync),
) -> Value {
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let error = |code: i64, text: String| json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": text}});
    let result = match B::legacy_input_request(&method, message) {
        Ok(None) => Ok(json!({})),
        Ok(Some(request)) => B::response_to_legacy(respond(&request)),
        Err(LegacyRequestError::Unknown) => {
            return error(METHOD_NOT_FOUND, format!("Method not found: {method}"));
        }
        Err(LegacyRequestError::Invalid(e)) => Err(e),
    };
    match result {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(e) => error(INVALID_PARAMS, format!("Invalid params: {method}: {e}")),
    }
}

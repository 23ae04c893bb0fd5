//! A legacy session's requests and results, converted to and from the 2026-07-28 types with
//! the generated conversions (`TryFrom` between `mcp::v2025_11_25` and `mcp::v2026_07_28`).

use mcp_runtime::Request;
use mcp_runtime::era::{Era, ErrorCodeFact};
use mcp_runtime::error_code::{INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND};
use mcp_server::bridge::Retry;
use serde_json::{Map, Value};

use crate::mcp;
use crate::mcp::v2025_11_25 as legacy;
use crate::rpc::Refused;
use mcp_runtime::RpcError;

/// The 2025-11-25 request `message` as the 2026-07-28 request: read as its legacy type, `meta`
/// (what the session stands for) put in its `_meta`, converted.
pub fn request_to_modern(
    id: &mcp::RequestId,
    mut message: Value,
    meta: &mcp::RequestMetaObject,
) -> Result<mcp::ClientRequest, Refused> {
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
    if !SHARED_METHODS.contains(&method) {
        let text = format!("Method not found: {method}");
        return Err(Refused::new(
            Some(id),
            RpcError::new(METHOD_NOT_FOUND, text),
        ));
    }
    let invalid = |e: String| {
        Refused::new(
            Some(id),
            RpcError::new(INVALID_PARAMS, format!("Invalid params: {e}")),
        )
    };
    let meta = serde_json::to_value(meta).map_err(|e| invalid(e.to_string()))?;
    let Value::Object(object) = &mut message else {
        return Err(invalid("a request is an object".to_owned()));
    };
    let params = object
        .entry("params")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(params) = params else {
        return Err(invalid("params is not an object".to_owned()));
    };
    let own = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    let (Value::Object(own), Value::Object(meta)) = (own, meta) else {
        return Err(invalid("params._meta is not an object".to_owned()));
    };
    own.extend(meta);
    let request: legacy::ClientRequest =
        serde_json::from_value(message).map_err(|e| invalid(e.to_string()))?;
    mcp::ClientRequest::try_from(request).map_err(|e| invalid(e.to_string()))
}

/// The modern request again: as it came for the first round, and with a round's answers and
/// state for a later one (as a modern client's retry; only then through JSON).
pub fn with_retry(
    modern: &mcp::ClientRequest,
    retry: Option<Retry>,
) -> serde_json::Result<mcp::ClientRequest> {
    let Some(retry) = retry else {
        return Ok(modern.clone());
    };
    let mut request = serde_json::to_value(modern)?;
    if let Some(Value::Object(params)) = request.get_mut("params") {
        params.insert(
            "inputResponses".to_owned(),
            Value::Object(retry.input_responses),
        );
        if let Some(state) = retry.request_state {
            params.insert("requestState".to_owned(), Value::String(state));
        }
    }
    serde_json::from_value(request)
}

/// The `result` of a handler's response text; its error response as the failure.
pub fn result_of(id: &mcp::RequestId, text: &str) -> Result<Value, Refused> {
    let mut response: Value = serde_json::from_str(text).map_err(|e| {
        Refused::new(
            Some(id),
            RpcError::new(INTERNAL_ERROR, format!("reading the handler's answer: {e}")),
        )
    })?;
    if let Some(result) = response.get_mut("result") {
        return Ok(result.take());
    }
    let error = response.get("error");
    let member = |name: &str| error.and_then(|e| e.get(name));
    let code = member("code")
        .and_then(Value::as_i64)
        .unwrap_or(INTERNAL_ERROR);
    let message = member("message").and_then(Value::as_str);
    let mut error = RpcError::new(code, message.unwrap_or("the handler answered no result"));
    error.data = member("data").cloned();
    Err(Refused::new(Some(id), error))
}

/// A modern handler's failure as the 2025-11-25 client expects it: an error whose code
/// differs between the eras (its `RpcError::meaning`, an entry of the generated
/// `mcp::ERROR_CODE_FACTS`) gets the legacy code, e.g. an unknown resource `-32002` for the
/// modern invalid params; any other failure is unchanged.
pub fn failure_to_legacy(mut failure: Refused) -> Refused {
    if let Some(name) = failure.error.meaning {
        let facts = mcp::ERROR_CODE_FACTS;
        let code = failure.error.code;
        failure.error.code =
            ErrorCodeFact::translate_named(facts, name, code, Era::Modern, Era::Legacy);
    }
    failure
}

/// Reads `result` as the modern type `$t`, converts it to the legacy `$t`, drops the members
/// the legacy type does not declare (`extra`: `ttlMs`, `cacheScope` and the like) and writes
/// the response to request `$id` with it.
macro_rules! to_legacy {
    ($id:expr, $result:expr, $t:ident) => {{
        let fail = |e: String| {
            Refused::new(
                Some($id),
                RpcError::new(
                    INTERNAL_ERROR,
                    format!("{} for a 2025-11-25 client: {e}", stringify!($t)),
                ),
            )
        };
        let modern: mcp::$t = serde_json::from_value($result).map_err(|e| fail(e.to_string()))?;
        let mut older = legacy::$t::try_from(modern).map_err(|e| fail(e.to_string()))?;
        older.extra.clear();
        super::result_text($id, &older)
    }};
}

/// The requests a session may send that the modern handlers answer, each with the result type
/// it is answered with (the same names in both revisions), written once: [`SHARED_METHODS`]
/// and [`result_to_legacy`] are made from the one list.
macro_rules! shared_requests {
    ($($request:ident => $result:ident),* $(,)?) => {
        /// The methods of a session's requests that the modern handlers answer (the generated
        /// requests' `METHOD`); any other is not found.
        const SHARED_METHODS: &[&str] = &[$(<legacy::$request as Request>::METHOD),*];

        /// The response to request `id` of `method` with the modern handler's `result`, as the
        /// 2025-11-25 client expects it (JSON text).
        pub fn result_to_legacy(
            id: &mcp::RequestId,
            method: &str,
            result: Value,
        ) -> Result<String, Refused> {
            $(if method == <legacy::$request as Request>::METHOD {
                return to_legacy!(id, result, $result);
            })*
            Err(Refused::new(Some(id), RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {method}"))))
        }
    };
}

shared_requests! {
    ListToolsRequest => ListToolsResult,
    CallToolRequest => CallToolResult,
    ListPromptsRequest => ListPromptsResult,
    GetPromptRequest => GetPromptResult,
    ListResourcesRequest => ListResourcesResult,
    ListResourceTemplatesRequest => ListResourceTemplatesResult,
    ReadResourceRequest => ReadResourceResult,
    CompleteRequest => CompleteResult,
}

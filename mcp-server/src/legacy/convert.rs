//! A legacy session's requests and results, converted to and from the modern types with the
//! generated conversions (`TryFrom` between a legacy revision's module and the modern one),
//! and a modern handler's failure as the legacy client expects it.

use mcp_runtime::RpcError;
use mcp_runtime::era::{Era, ErrorCodeFact};
use mcp_runtime::error_code::{INTERNAL_ERROR, METHOD_NOT_FOUND};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::{LegacySchema, Refused, Schema};

/// Reads `value` as the legacy `L` and converts it to the modern `M`, as JSON.
pub fn to_modern<L, M>(value: Value) -> Result<Value, String>
where
    L: DeserializeOwned,
    M: TryFrom<L> + Serialize,
    M::Error: std::fmt::Display,
{
    let older: L = serde_json::from_value(value).map_err(|e| e.to_string())?;
    let modern = M::try_from(older).map_err(|e| e.to_string())?;
    serde_json::to_value(&modern).map_err(|e| e.to_string())
}

/// Converts the modern `value` to the legacy type `L`, as JSON.
pub fn to_legacy<M, L>(value: M) -> Result<Value, String>
where
    L: TryFrom<M> + Serialize,
    L::Error: std::fmt::Display,
{
    let older = L::try_from(value).map_err(|e| e.to_string())?;
    serde_json::to_value(&older).map_err(|e| e.to_string())
}

/// The `result` of a handler's response text; its error response as the failure.
pub fn result_of<S: Schema>(id: &S::RequestId, text: &str) -> Result<Value, Refused<S>> {
    let mut response: Value = serde_json::from_str(text).map_err(|e| {
        let message = format!("reading the handler's answer: {e}");
        Refused::new(Some(id), RpcError::new(INTERNAL_ERROR, message))
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

/// A modern handler's failure as the legacy client expects it: an error whose code differs
/// between the eras (its `RpcError::meaning`, an entry of the generated `ERROR_CODE_FACTS`,
/// [`LegacySchema::ERROR_CODE_FACTS`]) gets the legacy code, e.g. an unknown resource
/// `-32002` for the modern invalid params; any other failure is unchanged.
pub fn failure_to_legacy<S: LegacySchema>(mut failure: Refused<S>) -> Refused<S> {
    if let Some(name) = failure.error.meaning {
        let code = failure.error.code;
        failure.error.code = ErrorCodeFact::translate_named(
            S::ERROR_CODE_FACTS,
            name,
            code,
            Era::Modern,
            Era::Legacy,
        );
    }
    failure
}

/// A successful JSON-RPC response.
#[derive(Serialize)]
struct ResultResponse<'a, I, T> {
    jsonrpc: &'static str,
    id: &'a I,
    result: T,
}

/// The response to request `id` with `result`, as JSON text.
pub fn result_text<S: Schema, T: Serialize>(
    id: &S::RequestId,
    result: T,
) -> Result<String, Refused<S>> {
    crate::ctx::to_json(&ResultResponse {
        jsonrpc: "2.0",
        id,
        result,
    })
}

/// The response to request `id` of `method` with the modern handler's `result`, as the legacy
/// client expects it ([`LegacySchema::result_to_legacy`]; JSON text).
pub fn result_to_legacy<S: LegacySchema>(
    id: &S::RequestId,
    method: &str,
    result: Value,
) -> Result<String, Refused<S>> {
    let fail = |code: i64, message: String| Refused::new(Some(id), RpcError::new(code, message));
    match S::result_to_legacy(method, result) {
        Some(Ok(older)) => result_text(id, older),
        Some(Err(e)) => Err(fail(INTERNAL_ERROR, e)),
        None => Err(fail(
            METHOD_NOT_FOUND,
            format!("Method not found: {method}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_tests::eras::v2025_11_25 as legacy;
    use mcp_tests::eras::v2026_07_28 as mcp;
    use serde_json::json;

    #[test]
    fn a_legacy_result_reads_as_the_modern_one() {
        let roots = json!({"roots": [{"uri": "file:///tmp", "name": "tmp"}]});
        let modern = to_modern::<legacy::ListRootsResult, mcp::ListRootsResult>(roots).unwrap();
        assert_eq!(modern["roots"][0]["uri"], "file:///tmp");
    }

    use crate::test_support::eras::Eras;
    use mcp_runtime::Request;

    #[test]
    fn the_binding_names_the_eight_shared_methods() {
        let call = <legacy::CallToolRequest as Request>::METHOD;
        assert_eq!(<Eras as LegacySchema>::SHARED_METHODS.len(), 8);
        assert!(<Eras as LegacySchema>::SHARED_METHODS.contains(&call));
    }

    #[test]
    fn a_result_loses_what_the_legacy_type_does_not_declare() {
        let id = mcp::RequestId::Integer(2);
        let result = json!({"tools": [], "cacheScope": "public", "ttlMs": 5});
        let text = result_to_legacy::<Eras>(&id, "tools/list", result).unwrap();
        let response: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(response["id"], 2);
        assert_eq!(response["result"], json!({"tools": []}));
        let unknown = result_to_legacy::<Eras>(&id, "ping", json!({}));
        assert_eq!(unknown.unwrap_err().error.code, METHOD_NOT_FOUND);
    }

    #[test]
    fn an_error_meaning_an_unknown_resource_gets_the_legacy_code() {
        let id = mcp::RequestId::Integer(3);
        let text = r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no such"}}"#;
        let failure = result_of::<Eras>(&id, text).unwrap_err();
        assert_eq!(failure.error.code, mcp_runtime::error_code::INVALID_PARAMS);
        let error = RpcError::new(mcp_runtime::error_code::INVALID_PARAMS, "no such")
            .means("resource_not_found");
        let meaning = Refused::<Eras>::new(Some(&id), error);
        assert_eq!(failure_to_legacy(meaning).error.code, -32002);
        let code = failure_to_legacy(failure).error.code;
        assert_eq!(code, mcp_runtime::error_code::INVALID_PARAMS);
    }

    #[test]
    fn what_is_not_the_legacy_type_is_refused() {
        let wrong = json!({"roots": "none"});
        let read = to_modern::<legacy::ListRootsResult, mcp::ListRootsResult>(wrong);
        assert!(read.is_err());
    }
}

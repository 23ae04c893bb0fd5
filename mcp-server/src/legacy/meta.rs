//! A legacy session's modern `_meta` (its client's capabilities and info, its log level),
//! prepared once as JSON text ([`MetaText`]) and written into each of its requests without
//! being read or copied again: a request is converted to the modern revision with the
//! smallest `_meta` the modern type accepts, then written out with the session's members in
//! its `_meta` ([`request_text`]), and that text is read once per round of the request
//! ([`round`]). What a request costs does not grow with what the session declared, beyond
//! reading it into the request's own typed `_meta`.

use mcp_runtime::RpcError;
use mcp_runtime::error_code::{INVALID_PARAMS, METHOD_NOT_FOUND};
use serde::de::DeserializeOwned;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::bridge::Retry;
use crate::{LegacySchema, Refused};

/// The members of a session's modern `_meta` as JSON text, and the smallest `_meta` a modern
/// request accepts (what a request is converted with before the members are written in).
#[derive(Debug, Clone)]
pub struct MetaText {
    members: Vec<(String, Box<RawValue>)>,
    stub: Map<String, Value>,
}

impl MetaText {
    /// `meta`'s members, written once; `stub` the smallest `_meta` of the session's revision.
    pub fn new<M: Serialize>(meta: &M, stub: &M) -> Self {
        MetaText {
            members: members(meta),
            stub: match serde_json::to_value(stub) {
                Ok(Value::Object(stub)) => stub,
                _ => Map::new(),
            },
        }
    }
}

/// The members of `meta`'s JSON object, each as its text.
fn members<M: Serialize>(meta: &M) -> Vec<(String, Box<RawValue>)> {
    let Ok(Value::Object(object)) = serde_json::to_value(meta) else {
        return Vec::new();
    };
    object
        .into_iter()
        .filter_map(|(k, v)| serde_json::value::to_raw_value(&v).ok().map(|raw| (k, raw)))
        .collect()
}

/// A legacy session's request `message` (JSON) as the text of the modern request, with the
/// session's `_meta` members (`meta`) in its `_meta` beside the request's own (the session's
/// win). A method that is not one of [`LegacySchema::SHARED_METHODS`] is not found; a
/// request the modern revision cannot hold is invalid params.
pub fn request_text<S: LegacySchema>(
    id: &S::RequestId,
    mut message: Value,
    meta: &MetaText,
) -> Result<String, Refused<S>> {
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
    if !S::SHARED_METHODS.contains(&method) {
        let text = format!("Method not found: {method}");
        return Err(Refused::new(
            Some(id),
            RpcError::new(METHOD_NOT_FOUND, text),
        ));
    }
    let invalid = |e: String| {
        let error = RpcError::new(INVALID_PARAMS, format!("Invalid params: {e}"));
        Refused::new(Some(id), error)
    };
    let own = own_meta(&mut message).map_err(|e| invalid(e.to_owned()))?;
    own.extend(meta.stub.iter().map(|(k, v)| (k.clone(), v.clone())));
    let modern = S::request_to_modern(message).map_err(invalid)?;
    let json = serde_json::to_value(&modern).map_err(|e| invalid(e.to_string()))?;
    let Value::Object(request) = json else {
        return Err(invalid("a request is an object".to_owned()));
    };
    serde_json::to_string(&WithMeta {
        request: &request,
        meta,
    })
    .map_err(|e| invalid(e.to_string()))
}

/// The `params._meta` object of the request `message`, made if absent.
fn own_meta(message: &mut Value) -> Result<&mut Map<String, Value>, &'static str> {
    let Value::Object(object) = message else {
        return Err("a request is an object");
    };
    let params = object
        .entry("params")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(params) = params else {
        return Err("params is not an object");
    };
    let own = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    match own {
        Value::Object(own) => Ok(own),
        _ => Err("params._meta is not an object"),
    }
}

/// The modern request of round `retry` (`None`: the first) read from its `text`: as it came,
/// or with the round's answers and state (as a modern client's retry).
pub fn round<R: DeserializeOwned>(text: &str, retry: Option<Retry>) -> serde_json::Result<R> {
    let Some(retry) = retry else {
        return serde_json::from_str(text);
    };
    let mut request: Value = serde_json::from_str(text)?;
    if let Some(Value::Object(params)) = request.get_mut("params") {
        params.insert(
            "inputResponses".to_owned(),
            Value::Object(retry.input_responses),
        );
        if let Some(state) = retry.request_state {
            params.insert("requestState".to_owned(), Value::String(state));
        }
    }
    // Through text: a request type that keeps members as raw JSON text reads only from text.
    serde_json::from_str(&request.to_string())
}

/// A request written with the session's members in its `params._meta`.
struct WithMeta<'a> {
    request: &'a Map<String, Value>,
    meta: &'a MetaText,
}

/// A request's params written with the session's members in `_meta`.
struct ParamsWithMeta<'a> {
    params: Option<&'a Map<String, Value>>,
    meta: &'a MetaText,
}

/// A `_meta`: the request's own members that the session does not set, then the session's.
struct MergedMeta<'a> {
    own: Option<&'a Map<String, Value>>,
    meta: &'a MetaText,
}

impl Serialize for WithMeta<'_> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let mut map = serializer.serialize_map(Some(self.request.len()))?;
        for (key, value) in self.request {
            if key == "params" {
                let params = ParamsWithMeta {
                    params: value.as_object(),
                    meta: self.meta,
                };
                map.serialize_entry(key, &params)?;
            } else {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

impl Serialize for ParamsWithMeta<'_> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let mut map = serializer.serialize_map(None)?;
        let mut own = None;
        for (key, value) in self.params.into_iter().flatten() {
            if key == "_meta" {
                own = value.as_object();
            } else {
                map.serialize_entry(key, value)?;
            }
        }
        let meta = MergedMeta {
            own,
            meta: self.meta,
        };
        map.serialize_entry("_meta", &meta)?;
        map.end()
    }
}

impl Serialize for MergedMeta<'_> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        // A session sets a handful of members: a scan costs less than a set.
        let set_by_session = |key: &str| self.meta.members.iter().any(|(k, _)| k == key);
        let mut map = serializer.serialize_map(None)?;
        for (key, value) in self.own.into_iter().flatten() {
            if !set_by_session(key) {
                map.serialize_entry(key, value)?;
            }
        }
        for (key, raw) in &self.meta.members {
            map.serialize_entry(key, raw)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::eras::Eras;
    use mcp_runtime::Request;
    use mcp_tests::eras::v2026_07_28 as mcp;
    use serde_json::json;

    fn meta() -> MetaText {
        let (_, info) = crate::test_support::eras::client();
        let capabilities: mcp::ClientCapabilities =
            serde_json::from_value(json!({"sampling": {}})).unwrap();
        let full = mcp::RequestMetaObject::new(capabilities, "2025-11-25").with_client_info(info);
        let stub = mcp::RequestMetaObject::new(mcp::ClientCapabilities::new(), "2025-11-25");
        MetaText::new(&full, &stub)
    }

    #[test]
    fn a_shared_request_is_written_with_the_sessions_meta_and_its_own() {
        let id = mcp::RequestId::Integer(1);
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
            "params": {"_meta": {"progressToken": 7}}});
        let text = request_text::<Eras>(&id, message, &meta()).unwrap();
        let modern: mcp::ClientRequest = round(&text, None).unwrap();
        let mcp::ClientRequest::ListToolsRequest(list) = modern else {
            panic!("not tools/list: {text}");
        };
        assert_eq!(list.params.meta.protocol_version, "2025-11-25");
        assert!(
            list.params.meta.client_capabilities.sampling.is_some(),
            "{text}"
        );
        assert_eq!(
            list.params.meta.progress_token,
            Some(mcp::ProgressToken::Integer(7))
        );
        assert_eq!(<mcp::ListToolsRequest as Request>::METHOD, "tools/list");
    }

    #[test]
    fn a_removed_method_is_not_found_and_bad_params_invalid() {
        let id = mcp::RequestId::Integer(1);
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover"});
        let refused = request_text::<Eras>(&id, message, &meta()).unwrap_err();
        assert_eq!(refused.error.code, METHOD_NOT_FOUND);
        let bad = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": 3});
        let refused = request_text::<Eras>(&id, bad, &meta()).unwrap_err();
        assert_eq!(refused.error.code, INVALID_PARAMS);
    }

    #[test]
    fn a_later_round_carries_the_answers_and_state() {
        let id = mcp::RequestId::Integer(1);
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "t"}});
        let text = request_text::<Eras>(&id, message, &meta()).unwrap();
        let mut input_responses = Map::new();
        input_responses.insert("k".to_owned(), json!({"roots": []}));
        let retry = Retry {
            input_responses,
            request_state: Some("s".to_owned()),
        };
        let modern: mcp::ClientRequest = round(&text, Some(retry)).unwrap();
        let mcp::ClientRequest::CallToolRequest(call) = modern else {
            panic!("not tools/call");
        };
        assert_eq!(call.params.request_state.as_deref(), Some("s"));
        let again = serde_json::to_value(&call).unwrap();
        assert_eq!(again["params"]["inputResponses"]["k"], json!({"roots": []}));
        let first: mcp::ClientRequest = round(&text, None).unwrap();
        let first = serde_json::to_value(&first).unwrap();
        assert!(first["params"].get("requestState").is_none());
    }
}

//! [`RawJson`]: a JSON value kept as its validated text, for members that the protocol does not
//! interpret (a tool's `inputSchema`, call arguments, `structuredContent`, `_meta` values) and
//! that a gateway, proxy or registry passes through unchanged.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;
use std::fmt;

/// Any JSON value, held as its text: checked to be valid JSON when it is read, written back
/// byte for byte, and never turned into a [`Value`] tree unless asked ([`RawJson::to_value`],
/// [`RawJson::parse`]).
///
/// Reading one from `serde_json` (`from_str`, `from_slice`, `from_reader`, or a [`Value`])
/// copies the member's text once, without building a tree; reading it from a deserializer
/// other than serde_json's is an error. The value is skipped, not parsed, so nesting deeper
/// than serde_json's limit of 128 levels is read too (without recursion) and written back;
/// [`RawJson::to_value`] and [`RawJson::parse`] refuse it. Two values are equal when they hold
/// the same JSON value, whatever their spacing or member order.
///
/// ```
/// use mcp_runtime::RawJson;
///
/// let schema: RawJson = serde_json::from_str(r#"{"type": "object",  "properties": {}}"#)?;
/// assert_eq!(schema.get(), r#"{"type": "object",  "properties": {}}"#);
/// assert_eq!(serde_json::to_string(&schema)?, schema.get());
/// assert_eq!(schema, RawJson::from(serde_json::json!({"properties": {}, "type": "object"})));
/// assert_eq!(schema.to_value()?["type"], "object");
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// Code generated with `raw_json(true)` holds the members the protocol does not interpret as
/// `RawJson` (here `mcp_tests::raw`, the 2026-07-28 module generated that way): a gateway reads
/// a tool list, keeps each `inputSchema` as it came, and writes it on unchanged.
///
/// ```
/// use mcp_tests::raw::{ListToolsResultResponse, Tool};
/// use mcp_runtime::RawJson;
///
/// let text = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[
///     {"name":"add","inputSchema":{"type":"object", "properties":{"a":{"type":"number"}}}}],
///     "ttlMs":60000,"cacheScope":"public"}}"#;
/// let list: ListToolsResultResponse = serde_json::from_str(text)?;
/// let schema = &list.result.tools[0].input_schema;
/// assert_eq!(schema.get(), r#"{"type":"object", "properties":{"a":{"type":"number"}}}"#);
/// assert_eq!(schema.to_value()?["properties"]["a"]["type"], "number");
/// assert!(serde_json::to_string(&list)?.contains(schema.get()));
///
/// // Built from a `Value`, or from any `Serialize` with `RawJson::from_serialize`.
/// let tool = Tool::new(serde_json::json!({"type": "object"}), "ping");
/// assert_eq!(tool.input_schema, RawJson::from_string(r#"{ "type" : "object" }"#.to_owned())?);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone)]
pub struct RawJson(Box<RawValue>);

impl RawJson {
    /// The JSON `null`.
    pub fn null() -> RawJson {
        RawJson(RawValue::NULL.to_owned())
    }

    /// The JSON text `json`, if it is one valid JSON value (surrounding whitespace is kept).
    ///
    /// ```
    /// use mcp_runtime::RawJson;
    ///
    /// assert_eq!(RawJson::from_string(r#"[1, 2]"#.to_owned())?.get(), "[1, 2]");
    /// assert!(RawJson::from_string("{".to_owned()).is_err());
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn from_string(json: String) -> serde_json::Result<RawJson> {
        RawValue::from_string(json).map(RawJson)
    }

    /// The JSON that `value` serializes to (compact).
    ///
    /// ```
    /// use mcp_runtime::RawJson;
    /// use std::collections::BTreeMap;
    ///
    /// let arguments = RawJson::from_serialize(&BTreeMap::from([("city", "Paris")]))?;
    /// assert_eq!(arguments.get(), r#"{"city":"Paris"}"#);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn from_serialize<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<RawJson> {
        serde_json::value::to_raw_value(value).map(RawJson)
    }

    /// The JSON text, as it was read or built.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// The value as a [`Value`] tree: an error only for a number that a [`Value`] cannot hold
    /// (such as `1e400`) or nesting deeper than serde_json's limit.
    pub fn to_value(&self) -> serde_json::Result<Value> {
        serde_json::from_str(self.get())
    }

    /// The value read as `T`.
    ///
    /// ```
    /// use mcp_runtime::RawJson;
    ///
    /// let raw: RawJson = serde_json::from_str(r#"{"a": [1, 2]}"#)?;
    /// let parsed: std::collections::BTreeMap<String, Vec<u8>> = raw.parse()?;
    /// assert_eq!(parsed["a"], [1, 2]);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn parse<T: DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_str(self.get())
    }

    /// The serde_json raw value inside.
    pub fn as_raw_value(&self) -> &RawValue {
        &self.0
    }

    /// The serde_json raw value inside, owned.
    pub fn into_raw_value(self) -> Box<RawValue> {
        self.0
    }
}

impl Default for RawJson {
    /// The JSON `null`.
    fn default() -> RawJson {
        RawJson::null()
    }
}

impl From<Box<RawValue>> for RawJson {
    fn from(raw: Box<RawValue>) -> RawJson {
        RawJson(raw)
    }
}

impl From<Value> for RawJson {
    fn from(value: Value) -> RawJson {
        RawJson::from(&value)
    }
}

impl From<&Value> for RawJson {
    /// Writing a [`Value`] cannot fail (its keys are strings, its numbers finite).
    fn from(value: &Value) -> RawJson {
        RawJson::from_serialize(value).unwrap_or_else(|_| RawJson::null())
    }
}

impl From<serde_json::Map<String, Value>> for RawJson {
    fn from(object: serde_json::Map<String, Value>) -> RawJson {
        RawJson::from(Value::Object(object))
    }
}

impl PartialEq for RawJson {
    /// Equal texts are equal values; otherwise the values are compared as [`Value`]s (and, if
    /// one cannot be held in a [`Value`], as texts).
    fn eq(&self, other: &RawJson) -> bool {
        if self.get() == other.get() {
            return true;
        }
        match (self.to_value(), other.to_value()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for RawJson {}

impl PartialEq<Value> for RawJson {
    fn eq(&self, other: &Value) -> bool {
        self.to_value().is_ok_and(|v| v == *other)
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RawJson").field(&self.get()).finish()
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl Serialize for RawJson {
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RawJson {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawJson, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(RawJson)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equality_is_by_value() {
        let a = RawJson::from_string(r#"{"a":1,"b":2}"#.to_owned()).unwrap();
        let b = RawJson::from_string(r#"{"b":2, "a":1}"#.to_owned()).unwrap();
        let c = RawJson::from_string(r#"{"b":2,"a":3}"#.to_owned()).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a, json!({"b": 2, "a": 1}));
    }

    #[test]
    fn unrepresentable_numbers_compare_by_text() {
        let a = RawJson::from_string("1e400".to_owned()).unwrap();
        assert_eq!(a, a.clone());
        assert_ne!(a, RawJson::from_string("2e400".to_owned()).unwrap());
        assert!(a.to_value().is_err());
    }

    #[test]
    fn text_is_kept_byte_for_byte() {
        let text = r#"{ "z" : [1.50, "\u00e9"] ,"a":null }"#;
        let raw: RawJson = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&raw).unwrap(), text);
        let raw: RawJson = serde_json::from_slice(text.as_bytes()).unwrap();
        assert_eq!(raw.get(), text);
        let raw: RawJson = serde_json::from_reader(text.as_bytes()).unwrap();
        assert_eq!(raw.get(), text);
    }

    #[test]
    fn invalid_json_is_refused() {
        assert!(serde_json::from_str::<RawJson>(r#"{"a":}"#).is_err());
        assert!(RawJson::from_string("[1,]".to_owned()).is_err());
        assert!(RawJson::from_string(String::new()).is_err());
    }

    #[test]
    fn built_from_a_value_and_read_from_one() {
        let value = json!({"type": "object", "n": 1.5});
        let raw = RawJson::from(value.clone());
        assert_eq!(raw.to_value().unwrap(), value);
        let read: RawJson = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(read, raw);
        assert_eq!(serde_json::to_value(&raw).unwrap(), value);
    }

    #[test]
    fn parse_reads_a_type() {
        let raw = RawJson::from_serialize(&vec![1, 2, 3]).unwrap();
        assert_eq!(raw.parse::<Vec<u8>>().unwrap(), [1, 2, 3]);
        assert!(raw.parse::<String>().is_err());
    }

    #[test]
    fn debug_and_default() {
        assert_eq!(format!("{:?}", RawJson::default()), r#"RawJson("null")"#);
        assert_eq!(RawJson::null().to_string(), "null");
    }
}

//! What the HTTP checks need from a message before it is read as its type: the envelope
//! (`jsonrpc`, `id`, `method`), `params._meta` and the name the `Mcp-Name` header mirrors.
//! Read from the bytes as borrowed text; `arguments` and everything else is skipped, not
//! built, so the message's one typed read (`ClientRequest`) is the only copy of it.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, Visitor};
use serde_json::value::RawValue;

/// The envelope of a message. `None` for a member that is absent; `Some(None)` for an `id`
/// that is there but `null`.
#[derive(Deserialize)]
#[serde(bound(deserialize = "Id: Deserialize<'de>"))]
pub struct Envelope<'a, Id> {
    /// `jsonrpc`, if a string.
    #[serde(borrow, default)]
    pub jsonrpc: Option<Cow<'a, str>>,
    /// `id`: `Some(None)` when it is `null`.
    #[serde(default, deserialize_with = "present")]
    pub id: Option<Option<Id>>,
    /// `method`, if a string.
    #[serde(borrow, default)]
    pub method: Option<Cow<'a, str>>,
    /// `params`, if an object.
    #[serde(borrow, default)]
    pub params: Option<Object<Params<'a>>>,
}

/// The members of `params` the checks read before the typed read.
#[derive(Deserialize)]
pub struct Params<'a> {
    /// `_meta` as its JSON text, read as `RequestMetaObject` once the method is known to
    /// exist (so that a bad `_meta` is `INVALID_PARAMS` with the request's id).
    #[serde(rename = "_meta", borrow, default)]
    pub meta: Option<&'a RawValue>,
    /// `name` (`tools/call`, `prompts/get`), if it is a string.
    #[serde(borrow, default)]
    pub name: Loose<'a>,
    /// `uri` (`resources/read`), if it is a string.
    #[serde(borrow, default)]
    pub uri: Loose<'a>,
    /// `taskId` (`tasks/*`), if it is a string.
    #[serde(rename = "taskId", borrow, default)]
    pub task_id: Loose<'a>,
}

/// How reading the envelope failed.
pub enum Unreadable {
    /// Not JSON: `PARSE_ERROR`.
    Syntax(serde_json::Error),
    /// JSON, but not a JSON-RPC message: `INVALID_REQUEST`.
    Shape(String),
}

/// The envelope of `body`, the whole body checked to be one JSON value.
pub fn read<'a, Id: Deserialize<'a>>(body: &'a [u8]) -> Result<Envelope<'a, Id>, Unreadable> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let Object(envelope) = Object::deserialize(&mut de).map_err(|e| {
        // A shape error may come before the text is read to the end: only JSON is a shape error.
        match (e.classify(), serde_json::from_slice::<IgnoredAny>(body)) {
            (serde_json::error::Category::Data, Ok(_)) => Unreadable::Shape(e.to_string()),
            (serde_json::error::Category::Data, Err(syntax)) => Unreadable::Syntax(syntax),
            _ => Unreadable::Syntax(e),
        }
    })?;
    de.end().map_err(Unreadable::Syntax)?;
    Ok(envelope)
}

/// `T` read from a JSON object only: a derived struct would also read an array, member by
/// member, and a message or its `params` is never one.
pub struct Object<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ObjectVisitor(PhantomData))
    }
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = Object<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Object)
    }
}

/// A member kept only if it is a string (borrowed from the body when it has no escapes);
/// any other value is skipped, for the typed read to refuse.
#[derive(Default)]
pub struct Loose<'a>(pub Option<Cow<'a, str>>);

impl<'de: 'a, 'a> Deserialize<'de> for Loose<'a> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LooseVisitor)
    }
}

struct LooseVisitor;

impl<'de> Visitor<'de> for LooseVisitor {
    type Value = Loose<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Loose(Some(Cow::Borrowed(v))))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Loose(Some(Cow::Owned(v.to_owned()))))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Loose(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Loose(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Loose(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Loose(None))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Loose(None))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Loose(None))
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Loose(None))
    }
}

/// A member that is there, whatever it holds (`null` included).
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: de::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(body: &str) -> &'static str {
        match read::<serde_json::Value>(body.as_bytes()) {
            Ok(_) => "ok",
            Err(Unreadable::Syntax(_)) => "syntax",
            Err(Unreadable::Shape(_)) => "shape",
        }
    }

    #[test]
    fn failures_are_told_apart() {
        assert_eq!(shape(r#"{"jsonrpc":"2.0","id":1,"method":"m"}"#), "ok");
        assert_eq!(shape(r#"{"jsonrpc":"2.0","id":1"#), "syntax");
        assert_eq!(shape(r#"{"id":1} {}"#), "syntax");
        assert_eq!(shape(r#"[{"id":1}]"#), "shape");
        assert_eq!(shape(r#"["2.0", 1, "m"]"#), "shape");
        assert_eq!(shape(r#"[1"#), "syntax");
        assert_eq!(shape(r#"{"id":1,"method":"m","params":[]}"#), "shape");
        assert_eq!(shape(r#"{"id":1,"id":2,"method":"m"}"#), "shape");
        // _meta is kept as text, read later.
        assert_eq!(
            shape(
                r#"{"id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}"#
            ),
            "ok"
        );
    }

    #[test]
    fn names_are_borrowed_and_other_values_skipped() {
        let body = br#"{"id":null,"method":"tools/call","params":{"name":"t","uri":{"a":[1]},"arguments":{"x":1}}}"#;
        let Ok(e) = read::<serde_json::Value>(body) else {
            panic!("unreadable")
        };
        assert!(matches!(e.id, Some(None)));
        let p = e.params.unwrap().0;
        assert!(matches!(p.name.0, Some(Cow::Borrowed("t"))));
        assert!(p.uri.0.is_none());
        assert!(p.meta.is_none());
    }
}

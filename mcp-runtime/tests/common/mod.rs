//! Test support shared by the derive tests.
#![allow(dead_code)]

use serde::de::DeserializeOwned;
use serde::ser::{self, Serialize, SerializeMap};
use serde_json::Value;
use std::fmt;

/// `from_str(json)` as `T`, written back, equals `json` read as a `Value` (so nothing is lost
/// or added), and writing is stable.
pub fn round_trip<T: Serialize + DeserializeOwned>(json: &str) -> T {
    let value: T = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
    let expected: Value = serde_json::from_str(json).unwrap();
    assert_eq!(
        serde_json::to_value(&value).unwrap(),
        expected,
        "round trip of {json}"
    );
    value
}

/// The message of the error `from_str::<T>(json)` fails with.
pub fn error<T: DeserializeOwned + fmt::Debug>(json: &str) -> String {
    match serde_json::from_str::<T>(json) {
        Ok(v) => panic!("{json} should not deserialize, got {v:?}"),
        Err(e) => e.to_string(),
    }
}

/// Asserts that reading `json` fails with a message containing every one of `parts`.
#[track_caller]
pub fn assert_error<T: DeserializeOwned + fmt::Debug>(json: &str, parts: &[&str]) {
    let message = error::<T>(json);
    for part in parts {
        assert!(
            message.contains(part),
            "error for {json}: {message:?} does not contain {part:?}"
        );
    }
}

/// The top-level keys of `value` as written, in order.
pub fn written_keys<T: Serialize>(value: &T) -> Vec<String> {
    // serde_json::Map is a BTreeMap here (no preserve_order): read the order from the text.
    let text = serde_json::to_string(value).unwrap();
    let mut keys = Vec::new();
    let mut de = serde_json::Deserializer::from_str(&text);
    struct Keys<'a>(&'a mut Vec<String>);
    impl<'de> serde::de::Visitor<'de> for Keys<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some((k, _)) = map.next_entry::<String, serde::de::IgnoredAny>()? {
                self.0.push(k);
            }
            Ok(())
        }
    }
    serde::Deserializer::deserialize_map(&mut de, Keys(&mut keys)).unwrap();
    keys
}

/// Writes `value`, which must be a map, and returns (the length announced to
/// `serialize_map`, the number of entries written).
pub fn map_len<T: Serialize>(value: &T) -> (Option<usize>, usize) {
    value.serialize(LenCheck).unwrap()
}

#[derive(Debug)]
pub struct NotAMap(String);

impl fmt::Display for NotAMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotAMap {}

impl ser::Error for NotAMap {
    fn custom<M: fmt::Display>(msg: M) -> Self {
        NotAMap(msg.to_string())
    }
}

/// A serializer that accepts only a map and counts its entries.
pub struct LenCheck;

pub struct Counting {
    len: Option<usize>,
    entries: usize,
}

impl SerializeMap for Counting {
    type Ok = (Option<usize>, usize);
    type Error = NotAMap;

    fn serialize_key<K: ?Sized + Serialize>(&mut self, _: &K) -> Result<(), NotAMap> {
        self.entries += 1;
        Ok(())
    }

    fn serialize_value<V: ?Sized + Serialize>(&mut self, _: &V) -> Result<(), NotAMap> {
        Ok(())
    }

    fn end(self) -> Result<Self::Ok, NotAMap> {
        Ok((self.len, self.entries))
    }
}

macro_rules! not_a_map {
    ($($name:ident($($arg:ty),*);)*) => {
        $(fn $name(self, $(_: $arg),*) -> Result<Self::Ok, NotAMap> {
            Err(NotAMap(concat!("expected a map, got ", stringify!($name)).into()))
        })*
    };
}

impl ser::Serializer for LenCheck {
    type Ok = (Option<usize>, usize);
    type Error = NotAMap;
    type SerializeSeq = ser::Impossible<Self::Ok, NotAMap>;
    type SerializeTuple = ser::Impossible<Self::Ok, NotAMap>;
    type SerializeTupleStruct = ser::Impossible<Self::Ok, NotAMap>;
    type SerializeTupleVariant = ser::Impossible<Self::Ok, NotAMap>;
    type SerializeMap = Counting;
    type SerializeStruct = ser::Impossible<Self::Ok, NotAMap>;
    type SerializeStructVariant = ser::Impossible<Self::Ok, NotAMap>;

    not_a_map! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_str(&str);
        serialize_bytes(&[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<Self::Ok, NotAMap> {
        v.serialize(self)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Self::Ok, NotAMap> {
        v.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Self::Ok, NotAMap> {
        Err(NotAMap("newtype variant".into()))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotAMap> {
        Err(NotAMap("seq".into()))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotAMap> {
        Err(NotAMap("tuple".into()))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotAMap> {
        Err(NotAMap("tuple struct".into()))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotAMap> {
        Err(NotAMap("tuple variant".into()))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Counting, NotAMap> {
        Ok(Counting { len, entries: 0 })
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, NotAMap> {
        Err(NotAMap("struct (not a map)".into()))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotAMap> {
        Err(NotAMap("struct variant".into()))
    }
}

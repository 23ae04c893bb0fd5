//! What a server adds to the `_meta` of the results it writes (the generated
//! `ResultMetaObject`, naming the server), without reading or writing the rest of a result.

/// `answer`, the text of a JSON-RPC response, with the members of `meta` (a result `_meta`,
/// such as the generated `ResultMetaObject` naming the server) added to its result's `_meta`
/// where that `_meta` does not set them itself: what the server's own methods set is kept.
/// [`bind_server!`](crate::bind_server) writes [`Served::identity`](crate::Served::identity) in
/// every modern result with it, and [`crate::listen`] in a listen stream's result. An error
/// response, or a text that is not a response whose result and `_meta` are objects, is
/// returned unchanged. Only the result's own members are read; their values are copied as
/// they were written.
pub fn identified<M: serde::Serialize>(answer: String, meta: &M) -> String {
    const RESULT: &str = "result";
    const META: &str = "_meta";

    let Ok(serde_json::Value::Object(added)) = serde_json::to_value(meta) else {
        return answer;
    };
    let Ok(mut response) = serde_json::from_str::<Members>(&answer) else {
        return answer;
    };
    let Some(Ok(mut result)) = response
        .get(RESULT)
        .map(|r| serde_json::from_str::<Members>(r.get()))
    else {
        return answer;
    };
    let mut own = match result
        .get(META)
        .map(|m| serde_json::from_str::<Members>(m.get()))
    {
        None => Members::default(),
        Some(Ok(own)) => own,
        Some(Err(_)) => return answer,
    };
    let missing: Vec<_> = added
        .into_iter()
        .filter(|(key, _)| own.get(key).is_none())
        .collect();
    if missing.is_empty() {
        return answer;
    }
    for (key, value) in missing {
        match serde_json::value::to_raw_value(&value) {
            Ok(raw) => own.0.push((key, raw)),
            Err(_) => return answer,
        }
    }
    let written = serde_json::value::to_raw_value(&own)
        .map(|m| result.set_first(META, m))
        .and_then(|()| serde_json::value::to_raw_value(&result))
        .map(|r| response.set_first(RESULT, r))
        .and_then(|()| serde_json::to_string(&response));
    written.unwrap_or(answer)
}

/// An object's members in the order they were written, each value as its text.
#[derive(Default)]
struct Members(Vec<(String, Box<serde_json::value::RawValue>)>);

impl Members {
    fn get(&self, key: &str) -> Option<&serde_json::value::RawValue> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| &**v)
    }

    /// Sets `key` to `value` where it is, or, when it is not there, first, after the
    /// `resultType` a result may start with: where the generated results write `_meta`.
    fn set_first(&mut self, key: &str, value: Box<serde_json::value::RawValue>) {
        const RESULT_TYPE: &str = "resultType";
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value,
            None => {
                let at = usize::from(self.0.first().is_some_and(|(k, _)| k == RESULT_TYPE));
                self.0.insert(at, (key.to_owned(), value));
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for Members {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Members;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Members, A::Error> {
                let mut members = Vec::new();
                while let Some(member) =
                    map.next_entry::<String, Box<serde_json::value::RawValue>>()?
                {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        de.deserialize_map(Visitor)
    }
}

impl serde::Serialize for Members {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = ser.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::identified;
    use serde_json::json;

    #[test]
    fn the_server_is_named_first_in_a_result_without_meta_and_every_member_keeps_its_place() {
        let answer = r#"{"jsonrpc":"2.0","id":1,"result":{"z":1,"a":{"y":2,"b":3},"resultType":"complete"}}"#;
        let named = identified(answer.to_owned(), &json!({"serverInfo": {"name": "s"}}));
        assert_eq!(
            named,
            r#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"serverInfo":{"name":"s"}},"z":1,"a":{"y":2,"b":3},"resultType":"complete"}}"#
        );
    }

    #[test]
    fn a_result_that_starts_with_its_type_gets_the_server_named_right_after_it() {
        // Where a generated result of a `resultType` writes its `_meta`.
        let answer = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}"#;
        let named = identified(answer.to_owned(), &json!({"serverInfo": {"name": "s"}}));
        assert_eq!(
            named,
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","_meta":{"serverInfo":{"name":"s"}},"content":[]}}"#
        );
    }

    #[test]
    fn what_the_result_s_meta_sets_is_kept_and_the_rest_added_after_it() {
        let answer =
            r#"{"jsonrpc":"2.0","id":1,"result":{"z":0,"_meta":{"serverInfo":"own","k":1}}}"#;
        let named = identified(
            answer.to_owned(),
            &json!({"serverInfo": "added", "other": 2}),
        );
        assert_eq!(
            named,
            r#"{"jsonrpc":"2.0","id":1,"result":{"z":0,"_meta":{"serverInfo":"own","k":1,"other":2}}}"#
        );
        // Nothing to add: the text as it was.
        let full = identified(answer.to_owned(), &json!({"k": 5}));
        assert_eq!(full, answer);
    }

    #[test]
    fn an_error_or_a_text_that_is_no_result_object_is_returned_unchanged() {
        for answer in [
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":[1]}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"_meta":3}}"#,
            "not json",
        ] {
            assert_eq!(
                identified(answer.to_owned(), &json!({"serverInfo": "s"})),
                answer
            );
        }
    }
}

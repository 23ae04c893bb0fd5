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
    use serde_json::value::RawValue;
    use std::collections::BTreeMap;
    type Members = BTreeMap<String, Box<RawValue>>;
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
    let mut own = match result.get(META).map(|m| serde_json::from_str(m.get())) {
        None => serde_json::Map::new(),
        Some(Ok(serde_json::Value::Object(own))) => own,
        Some(_) => return answer,
    };
    for (key, value) in added {
        own.entry(key).or_insert(value);
    }
    let written = serde_json::value::to_raw_value(&own)
        .map(|m| result.insert(META.to_owned(), m))
        .and_then(|_| serde_json::value::to_raw_value(&result))
        .map(|r| response.insert(RESULT.to_owned(), r))
        .and_then(|_| serde_json::to_string(&response));
    written.unwrap_or(answer)
}

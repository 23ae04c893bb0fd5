//! The 2026-07-28 types, generated at build time from the official schema, and helpers for
//! the integration tests in `tests/`.
#![deny(warnings)]
// Every generated type, field, variant and function is documented (from the schema or with a
// generated sentence).
#![deny(missing_docs)]

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Types generated from `$MCP_SCHEMA_DIR/2026-07-28/schema.json`.
pub mod mcp {
    include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
}

/// The 2026-07-28 types with `schemars::JsonSchema` derived too.
pub mod with_json_schema {
    include!(concat!(env!("OUT_DIR"), "/mcp-schemars.rs"));
}

/// The 2026-07-28 types with `raw_json`: what the protocol does not interpret is kept as
/// `mcp_runtime::RawJson` text.
pub mod raw {
    include!(concat!(env!("OUT_DIR"), "/mcp-raw.rs"));
}

/// The 2026-07-28 types with the `io.modelcontextprotocol/tasks` (SEP-2663) and
/// `io.modelcontextprotocol/skills` (SEP-2640) extensions enabled.
pub mod tasks {
    include!(concat!(env!("OUT_DIR"), "/mcp-tasks.rs"));
}

/// Types generated from the 2024-11-05 schema.
pub mod v2024_11_05 {
    include!(concat!(env!("OUT_DIR"), "/mcp-2024-11-05.rs"));
}

/// Types generated from the 2025-03-26 schema (with JSON-RPC batches).
pub mod v2025_03_26 {
    include!(concat!(env!("OUT_DIR"), "/mcp-2025-03-26.rs"));
}

/// Types generated from the 2025-06-18 schema.
pub mod v2025_06_18 {
    include!(concat!(env!("OUT_DIR"), "/mcp-2025-06-18.rs"));
}

/// Types generated from the 2025-11-25 schema.
pub mod v2025_11_25 {
    include!(concat!(env!("OUT_DIR"), "/mcp-2025-11-25.rs"));
}

/// 2025-11-25 and 2026-07-28 generated side by side: a module per revision, the types they
/// share defined once, `From`/`TryFrom` between the others.
pub mod eras {
    include!(concat!(env!("OUT_DIR"), "/mcp-eras.rs"));
}

/// 2025-11-25 and 2026-07-28 side by side as in [`eras`], with the
/// `io.modelcontextprotocol/skills` (SEP-2640) extension enabled and the server trait: what a
/// server served with a skills catalog (mcp-server's `Served::skills`) is written against.
pub mod skills {
    include!(concat!(env!("OUT_DIR"), "/mcp-eras-skills.rs"));
}

/// 2025-11-25 and 2026-07-28 side by side as in [`eras`], with the
/// `io.modelcontextprotocol/tasks` (SEP-2663) extension enabled and the server trait: what a
/// server that answers tools with tasks (mcp-server's `Served::tasks`) is written against.
pub mod eras_tasks {
    include!(concat!(env!("OUT_DIR"), "/mcp-eras-tasks.rs"));
}

/// What the tests need of the two-revision module: the shared and converted names, and a
/// dispatch by name.
pub mod era_names {
    include!(concat!(env!("OUT_DIR"), "/eras-dispatch.rs"));
}

/// What became of an example converted to the older revision and back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EraTrip {
    /// Converted to 2025-11-25 and back to the same JSON.
    Converted,
    /// The conversion refused it, with this message.
    Refused(String),
    /// The type is shared: one Rust type, nothing to convert.
    Shared,
    /// Only 2026-07-28 defines the name.
    NewerOnly,
}

/// Reads `text` as `M`, converts it to `L` and back, and compares the JSON: the same, or
/// the conversion's error.
pub fn era_roundtrip<M, L>(text: &str) -> Result<EraTrip, String>
where
    M: DeserializeOwned + Serialize + TryFrom<L>,
    L: TryFrom<M> + Serialize,
    <L as TryFrom<M>>::Error: std::fmt::Display,
    <M as TryFrom<L>>::Error: std::fmt::Display,
{
    let modern: M = serde_json::from_str(text).map_err(|e| format!("deserialize: {e}"))?;
    let before = serde_json::to_value(&modern).map_err(|e| format!("serialize: {e}"))?;
    era_there_and_back::<M, L>(modern, &before)
}

/// Converts `value` (whose JSON is `before`) to `L` and back, and compares the JSON.
pub fn era_there_and_back<M, L>(value: M, before: &Value) -> Result<EraTrip, String>
where
    M: Serialize + TryFrom<L>,
    L: TryFrom<M> + Serialize,
    <L as TryFrom<M>>::Error: std::fmt::Display,
    <M as TryFrom<L>>::Error: std::fmt::Display,
{
    let legacy = match L::try_from(value) {
        Ok(l) => l,
        Err(e) => return Ok(EraTrip::Refused(e.to_string())),
    };
    let back = M::try_from(legacy).map_err(|e| format!("converted, but not back: {e}"))?;
    let after = serde_json::to_value(&back).map_err(|e| format!("serialize: {e}"))?;
    match json_diff(before, &after, String::new()) {
        None => Ok(EraTrip::Converted),
        Some(d) => Err(format!(
            "converted there and back, the JSON differs at {d}\n  before: {before}\n  after: {after}"
        )),
    }
}

/// Reads `text` as the shared type `T` (both revisions' name for it).
pub fn era_shared<T: DeserializeOwned>(text: &str) -> Result<EraTrip, String> {
    serde_json::from_str::<T>(text)
        .map(|_| EraTrip::Shared)
        .map_err(|e| format!("deserialize: {e}"))
}

/// The official examples, by the `$def` each folder names.
pub mod examples {
    include!(concat!(env!("OUT_DIR"), "/examples.rs"));
}

/// Where the official schemas are (`$MCP_SCHEMA_DIR`, set by `.cargo/config.toml`).
pub fn schema_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("MCP_SCHEMA_DIR"))
}

/// Deserializes `text` as `T`, serializes it back and compares the two as JSON (numbers by
/// value, so `1` equals `1.0`).
pub fn roundtrip<T: DeserializeOwned + Serialize>(text: &str) -> Result<(), String> {
    let typed: T = serde_json::from_str(text).map_err(|e| format!("deserialize: {e}"))?;
    let back = serde_json::to_value(&typed).map_err(|e| format!("serialize: {e}"))?;
    let input: Value = serde_json::from_str(text).map_err(|e| format!("input is not JSON: {e}"))?;
    match json_diff(&input, &back, String::new()) {
        None => Ok(()),
        Some(d) => Err(format!(
            "round trip differs at {d}\n  input: {input}\n  output: {back}"
        )),
    }
}

/// The JSON pointer of the first difference between `a` and `b`, numbers compared by value.
pub fn json_diff(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let same = match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(p), Some(q), _, _) => p == q,
                (_, _, Some(p), Some(q)) => p == q,
                _ => x.as_f64() == y.as_f64(),
            };
            (!same).then_some(at)
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{at} (array lengths {} and {})", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| json_diff(p, q, format!("{at}/{i}")))
        }
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys()) {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = json_diff(p, q, format!("{at}/{k}")) {
                            return Some(d);
                        }
                    }
                    (Some(_), None) => return Some(format!("{at}/{k} (dropped)")),
                    (None, Some(_)) => return Some(format!("{at}/{k} (added)")),
                    (None, None) => unreachable!(),
                }
            }
            None
        }
        _ => (a != b).then_some(at),
    }
}

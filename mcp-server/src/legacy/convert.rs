//! Values converted between the eras' types with the generated conversions (`TryFrom`
//! between a legacy revision's module and the modern one), as JSON.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

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

    #[test]
    fn what_is_not_the_legacy_type_is_refused() {
        let wrong = json!({"roots": "none"});
        let read = to_modern::<legacy::ListRootsResult, mcp::ListRootsResult>(wrong);
        assert!(read.is_err());
    }
}

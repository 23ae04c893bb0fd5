//! 2025-11-25 and 2026-07-28 generated side by side (issue 19): the official 2026-07-28
//! examples converted to 2025-11-25 and back, the shared types one Rust type, the spec's
//! default of a missing `resultType` applied, and the conversion errors' messages.

use mcp_tests::era_names::{self, CONVERTED, SHARED};
use mcp_tests::eras::{v2025_11_25 as legacy, v2026_07_28 as modern};
use mcp_tests::{EraTrip, examples, schema_dir};
use serde_json::json;

#[test]
fn every_official_example_converts_to_the_older_revision_and_back() {
    let root = schema_dir().join("2026-07-28").join("examples");
    let mut tally = std::collections::BTreeMap::<&str, usize>::new();
    let mut refused = Vec::new();
    let mut failures = Vec::new();
    for type_name in examples::TYPES {
        let dir = root.join(type_name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|f| f.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            match era_names::era_roundtrip_as(type_name, &text) {
                Ok(EraTrip::Converted) => *tally.entry("converted").or_default() += 1,
                Ok(EraTrip::Shared) => *tally.entry("shared").or_default() += 1,
                Ok(EraTrip::NewerOnly) => *tally.entry("2026-07-28 only").or_default() += 1,
                Ok(EraTrip::Refused(e)) => refused.push(format!("{type_name}/{name}: {e}")),
                Err(e) => failures.push(format!("{type_name}/{name}: {e}")),
            }
        }
    }
    println!(
        "{tally:?}; refused {}:\n{}",
        refused.len(),
        refused.join("\n")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Each kind occurs, and every example is one of them.
    let total: usize = tally.values().sum::<usize>() + refused.len();
    assert_eq!(total, 129, "the official schema ships 129 examples");
    assert!(tally["converted"] > 0 && tally["shared"] > 0, "{tally:?}");
}

#[test]
fn shared_types_are_one_rust_type() {
    assert_eq!(era_names::shared_types_are_the_same(), SHARED.len());
    // One of them by hand: a function of the older revision's type takes the newer's value.
    fn legacy_priority(a: legacy::Annotations) -> Option<f64> {
        a.priority
    }
    let annotations = modern::Annotations::default().with_priority(0.5);
    assert_eq!(legacy_priority(annotations), Some(0.5));
    assert!(SHARED.contains(&"Annotations"), "{SHARED:?}");
}

#[test]
fn a_missing_result_type_is_complete_and_complete_is_dropped_for_the_older_revision() {
    let old: legacy::CallToolResult =
        serde_json::from_value(json!({"content": [{"type": "text", "text": "x"}]})).unwrap();
    let new = modern::CallToolResult::try_from(old.clone()).unwrap();
    assert_eq!(
        serde_json::to_value(&new).unwrap()["resultType"],
        "complete"
    );
    let back = legacy::CallToolResult::try_from(new).unwrap();
    assert_eq!(
        back, old,
        "no resultType among the older revision's undeclared members"
    );
    assert!(
        serde_json::to_value(&back)
            .unwrap()
            .get("resultType")
            .is_none()
    );
}

#[test]
fn members_only_one_revision_declares_survive_the_other() {
    // `execution` is declared by 2025-11-25's Tool only: kept among 2026-07-28's undeclared
    // members, and back.
    let old: legacy::Tool = serde_json::from_value(json!({
        "name": "t", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}
    }))
    .unwrap();
    let new = modern::Tool::from(old.clone());
    assert_eq!(new.extra["execution"], json!({"taskSupport": "optional"}));
    assert_eq!(legacy::Tool::try_from(new).unwrap(), old);
}

#[test]
fn every_converted_name_converts_in_both_directions_as_the_join_decided() {
    // `From` where the join says every value converts (checked by the `From` bound), else
    // `TryFrom` with the runtime's error; the list comes from the same join.
    let from_both = CONVERTED.iter().filter(|(_, f, b)| *f && *b).count();
    let try_both = CONVERTED.iter().filter(|(_, f, b)| !*f && !*b).count();
    println!(
        "{} shared; {} converted: 2025-11-25 to 2026-07-28 From {} / TryFrom {}, 2026-07-28 to 2025-11-25 From {} / TryFrom {}; From both ways {from_both}, TryFrom both ways {try_both}",
        SHARED.len(),
        CONVERTED.len(),
        CONVERTED.iter().filter(|c| c.1).count(),
        CONVERTED.iter().filter(|c| !c.1).count(),
        CONVERTED.iter().filter(|c| c.2).count(),
        CONVERTED.iter().filter(|c| !c.2).count(),
    );
    fn is_from<A, B: From<A>>() {}
    is_from::<legacy::Tool, modern::Tool>();
    is_from::<modern::TextContent, legacy::TextContent>();
    is_from::<legacy::TextContent, modern::TextContent>();
    assert!(CONVERTED.contains(&("Tool", true, false)), "{CONVERTED:?}");
}

#[test]
fn conversion_errors_name_the_type_the_members_and_both_revisions() {
    // A 2025-11-25 request has no `_meta` with the protocol version and capabilities, which
    // 2026-07-28 requires.
    let old: legacy::CallToolRequest = serde_json::from_value(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}
    }))
    .unwrap();
    let request = modern::CallToolRequest::try_from(old)
        .unwrap_err()
        .to_string();
    // A 2026-07-28 list of tools says how long it may be cached; 2025-11-25's does not.
    let old: legacy::ListToolsResult = serde_json::from_value(json!({"tools": []})).unwrap();
    let list = modern::ListToolsResult::try_from(old)
        .unwrap_err()
        .to_string();
    // 2026-07-28 allows any JSON as structured content; 2025-11-25 an object only.
    let new: modern::CallToolResult =
        serde_json::from_value(json!({"content": [], "structuredContent": [1, 2]})).unwrap();
    let input = legacy::CallToolResult::try_from(new)
        .unwrap_err()
        .to_string();
    insta::assert_snapshot!(format!("{request}\n\n{list}\n\n{input}"));
}

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
    // Every example is one of the kinds, in pinned numbers: a change of the join or of the
    // conversions moves them on purpose.
    let total: usize = tally.values().sum::<usize>() + refused.len();
    assert_eq!(total, 129, "the official schema ships 129 examples");
    let pinned = [("2026-07-28 only", 30), ("converted", 75), ("shared", 18)];
    assert_eq!(tally, pinned.into_iter().collect(), "{tally:?}");
    assert_eq!(refused.len(), 6, "{refused:?}");
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
fn a_member_named_by_an_alias_in_one_revision_and_spelled_out_in_the_other_is_shared() {
    // 2026-07-28 types `TextContent`'s `_meta` as `MetaObject` (another name for a JSON
    // object), 2025-11-25 writes the object inline: the same Rust type, so the struct is shared.
    fn legacy_text(t: legacy::TextContent) -> String {
        t.text
    }
    assert_eq!(legacy_text(modern::TextContent::new("hi")), "hi");
    for name in ["TextContent", "Resource", "Prompt", "ContentBlock"] {
        assert!(SHARED.contains(&name), "{name}: {SHARED:?}");
    }
}

#[test]
fn the_older_revisions_repeated_inline_objects_are_one_type() {
    // Every request's `_meta` in 2025-11-25 is the same inline object: one struct, the other
    // names aliases of it.
    let meta =
        legacy::RequestParamsMeta::new().with_progress_token(legacy::ProgressToken::Integer(7));
    let set_level: legacy::SetLevelRequestParamsMeta = meta.clone();
    let call: legacy::CallToolRequestParamsMeta = set_level;
    assert_eq!(call, meta);
    // An object schema that declares no member is the JSON object type, as `{"type": "object"}` is.
    let caps = legacy::ClientCapabilitiesElicitation::new().with_form(serde_json::Map::new());
    assert_eq!(serde_json::to_value(&caps).unwrap(), json!({"form": {}}));
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

/// `ClientResult` is a union of results in 2025-11-25 and an alias of `Result` in 2026-07-28:
/// it converts to that `Result` and back, members kept, as every other differing union does.
#[test]
fn client_result_converts_both_ways() {
    let answer = json!({"action": "accept", "content": {"seat": "4C"}});
    let old: legacy::ClientResult = serde_json::from_value(answer.clone()).unwrap();
    let new: modern::ClientResult = modern::ClientResult::try_from(old.clone()).unwrap();
    let written = serde_json::to_value(&new).unwrap();
    assert_eq!(written["action"], "accept");
    assert_eq!(written["content"], answer["content"]);
    let back = legacy::ClientResult::try_from(new).unwrap();
    assert_eq!(
        serde_json::to_value(&back).unwrap(),
        serde_json::to_value(&old).unwrap()
    );
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

/// Each `method` constant of a revision's official schema: the method and whether its `$def`
/// is a notification (read from the JSON here, not through the generator).
fn schema_methods(revision: &str) -> std::collections::BTreeMap<String, bool> {
    let path = schema_dir().join(revision).join("schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let defs = schema["$defs"].as_object().unwrap();
    defs.iter()
        .filter_map(|(name, def)| {
            let method = def["properties"]["method"]["const"].as_str()?;
            Some((method.to_owned(), name.ends_with("Notification")))
        })
        .collect()
}

/// The methods of the `$def`s the modern schema's `InputRequest` union lists.
fn input_request_methods() -> Vec<String> {
    let path = schema_dir().join("2026-07-28").join("schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let defs = &schema["$defs"];
    defs["InputRequest"]["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let name = r["$ref"].as_str().unwrap().trim_start_matches("#/$defs/");
            defs[name]["properties"]["method"]["const"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

#[test]
fn the_era_facts_agree_with_both_schemas() {
    use mcp_runtime::era::{Carried, Era, MessageKind, MethodFact, Replacement};
    use mcp_tests::eras::METHOD_FACTS;
    let modern_methods = schema_methods("2026-07-28");
    for (era, revision) in [(Era::Legacy, "2025-11-25"), (Era::Modern, "2026-07-28")] {
        let methods = schema_methods(revision);
        for fact in METHOD_FACTS {
            let defined = methods.get(fact.method);
            let notification = fact.kind == MessageKind::Notification;
            match fact.carried(era) {
                Carried::Absent => assert_eq!(defined, None, "{revision} has {}", fact.method),
                Carried::Message => {
                    assert_eq!(defined, Some(&notification), "{revision}: {}", fact.method)
                }
                Carried::InputRequest => {
                    assert_eq!(defined, Some(&false), "{revision}: {}", fact.method);
                    assert!(input_request_methods().iter().any(|m| m == fact.method));
                }
            }
        }
    }
    for fact in METHOD_FACTS {
        match fact.replaced_by {
            Some(Replacement::Method(m)) => assert!(modern_methods.contains_key(m), "{m}"),
            Some(Replacement::Meta(key)) => {
                let text =
                    std::fs::read_to_string(schema_dir().join("2026-07-28").join("schema.json"))
                        .unwrap();
                assert!(text.contains(&format!("\"{key}\"")), "{key}");
            }
            None => {}
        }
    }
    // What the issue lists is there, as the specification says.
    let find = |m| MethodFact::find(METHOD_FACTS, m).unwrap_or_else(|| panic!("{m}"));
    assert_eq!(
        find("initialize").replaced_by,
        Some(Replacement::Method("server/discover"))
    );
    assert!(!find("ping").exists_in(Era::Modern));
    for m in ["resources/subscribe", "resources/unsubscribe"] {
        assert_eq!(
            find(m).replaced_by,
            Some(Replacement::Method("subscriptions/listen"))
        );
    }
    for m in ["sampling/createMessage", "elicitation/create", "roots/list"] {
        assert_eq!(find(m).carried(Era::Modern), Carried::InputRequest, "{m}");
    }
}

#[test]
fn the_resource_not_found_code_translates_between_the_eras() {
    use mcp_runtime::era::{Era, ErrorCodeFact};
    use mcp_tests::eras::ERROR_CODE_FACTS;
    // The name the runtime gives handlers is the generated fact's.
    let fact = ErrorCodeFact::find(ERROR_CODE_FACTS, mcp_runtime::era::RESOURCE_NOT_FOUND).unwrap();
    assert_eq!((fact.legacy, fact.modern), (-32002, -32602));
    let to_modern = ErrorCodeFact::translate(ERROR_CODE_FACTS, -32002, Era::Legacy, Era::Modern);
    assert_eq!(to_modern, -32602);
    // -32602 is every invalid-params error in the modern era: not taken for "not found".
    let to_legacy = ErrorCodeFact::translate(ERROR_CODE_FACTS, -32602, Era::Modern, Era::Legacy);
    assert_eq!(to_legacy, -32602);
}

/// The figures the README quotes ("Two revisions in one crate"): shared types, converted names,
/// and `From` / `TryFrom` each way. Pinned: a change of the join changes them here and in the
/// README on purpose (`the_readme_quotes_the_pinned_counts`).
const COUNTS: Counts = Counts {
    shared: 70,
    converted: 68,
    forward: (16, 52),
    backward: (33, 35),
};

#[derive(Debug, PartialEq)]
struct Counts {
    shared: usize,
    converted: usize,
    /// 2025-11-25 to 2026-07-28: (`From`, `TryFrom`).
    forward: (usize, usize),
    /// 2026-07-28 to 2025-11-25: (`From`, `TryFrom`).
    backward: (usize, usize),
}

#[test]
fn the_readme_quotes_the_pinned_counts() {
    let readme = include_str!("../../README.md").replace('\n', " ");
    let quoted = format!(
        "{} types shared (the same structure, aliases followed: a `_meta` typed `MetaObject` in \
         one revision and written out as an open object in the other is one Rust type); {} \
         names defined differently, converting 2025-11-25 → 2026-07-28 with `From` {} times and \
         `TryFrom` {} times, 2026-07-28 → 2025-11-25 with `From` {} times and `TryFrom` {} times.",
        COUNTS.shared,
        COUNTS.converted,
        COUNTS.forward.0,
        COUNTS.forward.1,
        COUNTS.backward.0,
        COUNTS.backward.1
    );
    assert!(
        readme.contains(&quoted),
        "the README does not say: {quoted}"
    );
}

/// The figures of the closing note (printed with `--nocapture`), checked against the impls the
/// generated file holds and against the pinned [`COUNTS`].
#[test]
fn the_counts_of_shared_and_converted_types_match_the_generated_impls() {
    let text = include_str!(concat!(env!("OUT_DIR"), "/mcp-eras.rs"));
    let count = |kind: &str, from: &str| {
        text.matches(&format!("impl ::core::convert::{kind}<{from}::"))
            .count()
    };
    let kinds = |pick: fn(&(&str, bool, bool)) -> bool| {
        let from = CONVERTED.iter().filter(|c| pick(c)).count();
        (from, CONVERTED.len() - from)
    };
    let forward = kinds(|c| c.1);
    let backward = kinds(|c| c.2);
    assert_eq!(
        forward,
        (
            count("From", "v2025_11_25"),
            count("TryFrom", "v2025_11_25")
        )
    );
    assert_eq!(
        backward,
        (
            count("From", "v2026_07_28"),
            count("TryFrom", "v2026_07_28")
        )
    );
    println!(
        "shared: {}; converted pairs: {}; 2025-11-25 to 2026-07-28: From {}, TryFrom {}; \
         2026-07-28 to 2025-11-25: From {}, TryFrom {}",
        SHARED.len(),
        CONVERTED.len(),
        forward.0,
        forward.1,
        backward.0,
        backward.1
    );
    let counts = Counts {
        shared: SHARED.len(),
        converted: CONVERTED.len(),
        forward,
        backward,
    };
    assert_eq!(
        counts, COUNTS,
        "update COUNTS and the README's figures on purpose"
    );
}

/// Code written against one revision's module (`mcp::CallToolRequest`, `mcp::prelude`) keeps
/// compiling once the older revision is generated beside it (issue 31, item 4): the newer
/// revision's names are the two-revision module's own, the same types as under its own module.
mod written_for_one_revision {
    use mcp_tests::eras as mcp;
    use mcp_tests::eras::prelude::*;

    fn call(id: i64, name: &str) -> mcp::CallToolRequest {
        let meta = RequestMetaObject::new(ClientCapabilities::new(), "2026-07-28");
        CallToolRequest::new(id, CallToolRequestParams::new(meta, name))
    }

    #[test]
    fn the_newer_revisions_names_are_the_modules_own() {
        let request: super::modern::CallToolRequest = call(7, "echo");
        let text = serde_json::to_string(&request).unwrap();
        assert!(text.contains(r#""method":"tools/call""#), "{text}");
        let older = super::legacy::CallToolRequest::try_from(request).unwrap();
        assert_eq!(older.params.name, "echo");
    }
}

/// The JSON-RPC error response, the same in both revisions and built alike, is one Rust type
/// (issue 31, item 7): an error written for one era is the other's without a conversion.
#[test]
fn the_error_response_is_one_type_in_both_revisions() {
    use mcp_runtime::ErrorResponse as _;
    let id = Some(modern::RequestId::Integer(9));
    let error: legacy::JSONRPCErrorResponse =
        modern::JSONRPCErrorResponse::from_error(id, -32601, "Method not found".into(), None);
    let written = serde_json::to_value(&error).unwrap();
    let expected = json!({"jsonrpc": "2.0", "id": 9,
        "error": {"code": -32601, "message": "Method not found"}});
    assert_eq!(written, expected);
    assert!(era_names::SHARED.contains(&"JSONRPCErrorResponse"));
}

//! Hostile schemas: `$ref` cycles, self-referencing `$def`s, 10,000 `$def`s, deep nesting,
//! names that are Rust keywords, collide after case conversion, are empty or non-ASCII, and
//! `$ref`s outside `$defs`. Each one gives code that compiles (warnings denied) and behaves, or
//! an error that names the JSON pointer: never a panic, a stack overflow or a hang.
//!
//! The generator runs on a thread with a 2 MiB stack (a test thread's default, the smallest a
//! caller is likely to have) under a watchdog. The code of every case that generates is
//! compiled in one scratch crate (`$CARGO_TARGET_TMPDIR/hostile-crate`, its own target
//! directory under `target/` so that rebuilds are incremental) with `#![deny(warnings)]`,
//! `clippy -D warnings`, and unit tests that read and write JSON through the generated types.
//!
//! `cargo test -p mcp-codegen --release --test hostile -- --ignored --nocapture` measures how
//! generation time grows with the number of `$def`s (RELIABILITY.md has the figures).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mcp_codegen::{Builder, Error, Generated};
use serde_json::{Value, json};

/// Longer than any case takes in a debug build on a loaded 2-core machine; a hang is longer.
const WATCHDOG: Duration = Duration::from_secs(300);

fn tmp() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Generates from `text` (written to `<name>.json`) on a 2 MiB thread, failing the test on a
/// panic or when it takes longer than the watchdog allows.
fn generate(name: &str, text: &str) -> Result<Generated, Error> {
    let path = tmp().join(format!("{name}.json"));
    std::fs::write(&path, text).unwrap();
    let overlay = overlay_for(name).map(|overlay| {
        let path = tmp().join(format!("{name}.overlay.json"));
        std::fs::write(&path, overlay.to_string()).unwrap();
        path
    });
    let (tx, rx) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name(format!("generate {name}"))
        .stack_size(2 << 20)
        .spawn(move || {
            let mut builder = Builder::new();
            builder.schema(&path).cargo_metadata(false);
            if let Some(overlay) = &overlay {
                builder.overlay(overlay);
            }
            let result = builder.generate_string();
            let _ = tx.send(result);
        })
        .unwrap();
    match rx.recv_timeout(WATCHDOG) {
        Ok(result) => {
            thread.join().unwrap();
            result
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{name}: generation did not finish within {WATCHDOG:?}")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let panic = thread.join().unwrap_err();
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            panic!("{name}: the generator panicked: {msg}")
        }
    }
}

fn defs(defs: Value) -> String {
    json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}).to_string()
}

/// Nests `inner` `n` times as `{"type": "object", "properties": {"x": <inner>}}`, as text
/// (serde_json's own `Value` would need its recursion limit lifted to print it).
fn nest_properties(n: usize, inner: &str) -> String {
    let mut s = String::new();
    for _ in 0..n {
        s.push_str(r#"{"type": "object", "properties": {"x": "#);
    }
    s.push_str(inner);
    s.push_str(&"}}".repeat(n));
    s
}

/// An anyOf nested `n` deep directly in anyOf: `anyOf[anyOf[... string ...], {k<i>}]`, each
/// level adding an object told apart by its required member.
fn nest_any_of(n: usize) -> String {
    let mut s = String::from(r#"{"type": "string"}"#);
    for i in 0..n {
        s = format!(
            r#"{{"anyOf": [{s}, {{"type": "object", "properties": {{"k{i}": {{"type": "integer"}}}}, "required": ["k{i}"]}}]}}"#
        );
    }
    s
}

/// An anyOf nested `n` deep through an object member: `anyOf[string, {x: anyOf[...]}]`.
fn nest_any_of_in_member(n: usize) -> String {
    let mut s = String::from(r#"{"type": "integer"}"#);
    for _ in 0..n {
        s = format!(
            r#"{{"anyOf": [{{"type": "string"}}, {{"type": "object", "properties": {{"x": {s}}}, "required": ["x"]}}]}}"#
        );
    }
    s
}

/// `n` `$def`s, each an object whose `next` member refers to the following one (the last to
/// the first: one cycle through all of them), with an inline enum, an anonymous object and a
/// union that refers to another link.
fn chain(n: usize) -> String {
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        defs.insert(
            format!("T{i}"),
            json!({
                "type": "object",
                "description": format!("Link {i}; see {{@link T{}}}.", (i + 7) % n),
                "properties": {
                    "name": {"type": "string"},
                    "next": {"$ref": format!("#/$defs/T{}", (i + 1) % n)},
                    "kind": {"enum": [format!("k{i}"), "shared"]},
                    "items": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}}},
                    "either": {"anyOf": [{"type": "string"}, {"$ref": format!("#/$defs/T{}", (i * 31 + 5) % n)}]}
                },
                "required": ["name"]
            }),
        );
    }
    defs.insert("Head".into(), json!({"$ref": "#/$defs/T0"}));
    self::defs(Value::Object(defs))
}

/// `n` `$def`s in a tree: each refers to its parent (`T<(i-1)/2>`), so no chain of types holding
/// each other is longer than log2(n), with the same inline types as [`chain`].
fn tree(n: usize) -> String {
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        let parent = i.saturating_sub(1) / 2;
        defs.insert(
            format!("T{i}"),
            json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "parent": {"$ref": format!("#/$defs/T{parent}")},
                    "kind": {"enum": [format!("k{i}"), "shared"]},
                    "either": {"anyOf": [{"type": "string"}, {"$ref": format!("#/$defs/T{}", parent / 2)}]}
                },
                "required": ["name"]
            }),
        );
    }
    self::defs(Value::Object(defs))
}

// ---------------------------------------------------------------------------------------------
// Schemas that must be refused, with the pointer of the offending node
// ---------------------------------------------------------------------------------------------

/// (case, schema text, pointer, words the message contains)
fn refused() -> Vec<(&'static str, String, String, &'static str)> {
    let deep_props = 5_000;
    // The first node nested more than 1024 deep: `/$defs/Deep` is at depth 3, each
    // `/properties/x` (or `/anyOf/0`) adds two.
    let past = (mcp_codegen::__internals::MAX_NESTING + 1 - 3) / 2;
    vec![
        (
            "ref_cycle_of_aliases",
            defs(json!({"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}})),
            "/$defs/B".into(),
            "refers to itself through $refs alone",
        ),
        (
            "self_alias",
            defs(json!({"A": {"$ref": "#/$defs/A"}})),
            "/$defs/A".into(),
            "refers to itself through $refs alone",
        ),
        (
            "all_of_itself",
            defs(json!({"A": {"allOf": [{"$ref": "#/$defs/A"}]}})),
            "/$defs/A/allOf/0".into(),
            "$refs form a cycle",
        ),
        (
            "all_of_cycle",
            defs(json!({
                "A": {"allOf": [{"$ref": "#/$defs/B"}]},
                "B": {"allOf": [{"$ref": "#/$defs/A"}]}
            })),
            "/$defs/B/allOf/0".into(),
            "$refs form a cycle",
        ),
        (
            "union_of_itself",
            defs(json!({"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]}})),
            "/$defs/A/anyOf".into(),
            "cannot tell the members of this union apart",
        ),
        (
            "defs_collide_after_sanitizing",
            defs(json!({"a-b": {"type": "string"}, "a_b": {"type": "string"}})),
            "/$defs/a_b".into(),
            "would both be the Rust type `a_b`",
        ),
        (
            "non_ascii_defs_collide",
            defs(json!({"日本": {"type": "string"}, "中国": {"type": "string"}})),
            "/$defs/日本".into(),
            "would both be the Rust type `Unnamed`",
        ),
        (
            "empty_def_name_and_unnamed",
            defs(json!({"": {"type": "string"}, "Unnamed": {"type": "string"}})),
            "/$defs/Unnamed".into(),
            "would both be the Rust type `Unnamed`",
        ),
        (
            "ref_to_properties",
            defs(
                json!({"A": {"type": "object", "properties": {"x": {"$ref": "#/properties/foo"}}}}),
            ),
            "/$defs/A/properties/x".into(),
            "only references to #/$defs/<name> are supported",
        ),
        (
            "ref_to_definitions",
            defs(
                json!({"A": {"type": "object", "properties": {"x": {"$ref": "#/definitions/A"}}}}),
            ),
            "/$defs/A/properties/x".into(),
            "only references to #/$defs/<name> are supported",
        ),
        (
            "ref_to_root",
            defs(json!({"A": {"$ref": "#"}})),
            "/$defs/A".into(),
            "unsupported $ref \"#\"",
        ),
        (
            "ref_remote",
            defs(json!({"A": {"$ref": "https://example.com/schema.json#/$defs/A"}})),
            "/$defs/A".into(),
            "only references to #/$defs/<name> are supported",
        ),
        (
            "ref_into_a_def",
            defs(json!({
                "A": {"type": "object", "properties": {"x": {"type": "string"}}},
                "B": {"type": "object", "properties": {"y": {"$ref": "#/$defs/A/properties/x"}}}
            })),
            "/$defs/B/properties/y".into(),
            "unresolvable $ref",
        ),
        (
            "ref_not_a_string",
            defs(json!({"A": {"type": "object", "properties": {"x": {"$ref": 5}}}})),
            "/$defs/A/properties/x/$ref".into(),
            "$ref must be a string",
        ),
        (
            "false_schema",
            defs(json!({"A": false})),
            "/$defs/A".into(),
            "expected a schema object",
        ),
        (
            "float_const",
            defs(
                json!({"A": {"type": "object", "properties": {"x": {"const": 1.5}}, "required": ["x"]}}),
            ),
            "/$defs/A/properties/x/const".into(),
            "only string and integer constants",
        ),
        (
            "union_lists_a_def_twice",
            defs(json!({
                "A": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                "U": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/A"}]}
            })),
            "/$defs/U/anyOf".into(),
            "lists `A` twice",
        ),
        (
            "properties_nested_5000_deep",
            format!(
                r#"{{"$defs": {{"Deep": {}}}}}"#,
                nest_properties(deep_props, r#"{"type": "string"}"#)
            ),
            format!("/$defs/Deep{}", "/properties/x".repeat(past)),
            "more than 1024 deep",
        ),
        (
            "any_of_nested_600_deep",
            format!(r#"{{"$defs": {{"Deep": {}}}}}"#, nest_any_of(600)),
            format!("/$defs/Deep{}", "/anyOf/0".repeat(past)),
            "more than 1024 deep",
        ),
        (
            "outcome_collision",
            defs(json!({
                "Input Required Result": {"type": "object", "properties": {"resultType": {"type": "string"}}},
                "x y Result": {"type": "object", "properties": {"resultType": {"type": "string"}}},
                "x y ResultResponse": {"type": "object", "properties": {"result": {"anyOf": [
                    {"$ref": "#/$defs/x y Result"}, {"$ref": "#/$defs/Input Required Result"}
                ]}}},
                "x y Outcome": {"type": "string"}
            })),
            "/$defs/x y Outcome".into(),
            "the outcome enum of `x y ResultResponse` would both be the Rust type `x_y_Outcome`",
        ),
        (
            "outcome_of_a_missing_def",
            defs(json!({
                "Input Required Result": {"type": "object", "properties": {"resultType": {"type": "string"}}},
                "x y ResultResponse": {"type": "object", "properties": {"result": {"anyOf": [
                    {"$ref": "#/$defs/Input Required Result"}, {"$ref": "#/$defs/Nowhere"}
                ]}}}
            })),
            "/$defs/x y ResultResponse/properties/result/anyOf/1".into(),
            "there is no $def named \"Nowhere\"",
        ),
    ]
}

#[test]
fn refused_with_the_pointer() {
    let mut failures = Vec::new();
    for (name, text, pointer, words) in refused() {
        match generate(name, &text) {
            Ok(g) => failures.push(format!("{name}: generated {} types", g.types)),
            Err(e) => {
                let msg = e.to_string();
                if e.pointer() != Some(pointer.as_str()) {
                    failures.push(format!(
                        "{name}: pointer {:?}, expected {pointer:?}: {msg}",
                        e.pointer()
                    ));
                } else if !msg.contains(&format!("#{pointer}")) || !msg.contains(words) {
                    failures.push(format!(
                        "{name}: expected #{pointer} and {words:?} in: {msg}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Schemas that must give code that compiles and behaves
// ---------------------------------------------------------------------------------------------

/// (module, schema text). The modules whose types nest deeper than rustc's default
/// `recursion_limit` allows for drop checking go into a second crate that raises it: see
/// [`DEEP`].
fn accepted() -> Vec<(&'static str, String)> {
    vec![
        (
            "self_reference",
            defs(json!({
                "Node": {"type": "object", "properties": {
                    "value": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                    "parent": {"$ref": "#/$defs/Node"},
                    "byName": {"type": "object", "additionalProperties": {"$ref": "#/$defs/Node"}}
                }, "required": ["value"]},
                "Loop": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Loop"}}, "required": ["next"]}
            })),
        ),
        (
            "ref_cycle",
            defs(json!({
                "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                "B": {"type": "object", "properties": {"c": {"$ref": "#/$defs/C"}}},
                "C": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}, "u": {"$ref": "#/$defs/U"}}},
                "U": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]},
                "AliasOfA": {"$ref": "#/$defs/A"},
                "AliasOfAlias": {"$ref": "#/$defs/AliasOfA"}
            })),
        ),
        (
            "keywords",
            defs(json!({
                "type": {"type": "object", "properties": {
                    "type": {"type": "string"},
                    "Self": {"type": "string"},
                    "self": {"type": "string"},
                    "crate": {"type": "string"},
                    "super": {"type": "integer"},
                    "fn": {"type": "boolean"},
                    "async": {"$ref": "#/$defs/Self"},
                    "r#type": {"type": "string"},
                    "match": {"enum": ["self", "Self", "crate", "type", "fn"]}
                }, "required": ["type", "self"]},
                "Self": {"type": "object", "properties": {"impl": {"$ref": "#/$defs/crate"}}},
                "self": {"type": "string"},
                "crate": {"anyOf": [{"$ref": "#/$defs/self"}, {"type": "integer"}]},
                "super": {"enum": ["self", "Self", "super", "crate", "type", ""]},
                "enum": {"anyOf": [
                    {"$ref": "#/$defs/type"},
                    {"type": "object", "properties": {"type": {"const": "other"}}, "required": ["type"]}
                ]}
            })),
        ),
        (
            "case_collisions",
            defs(json!({
                "fooBar": {"type": "object", "properties": {
                    "fooBar": {"type": "string"},
                    "foo_bar": {"type": "integer"},
                    "FooBar": {"type": "boolean"},
                    "foo-bar": {"type": "string"},
                    "foo_bar_2": {"type": "string"},
                    "_meta": {"type": "object"},
                    "meta": {"type": "string"},
                    "extra": {"type": "string"},
                    "with_extra": {"type": "string"}
                }},
                "foo_bar": {"type": "string"},
                "FooBar": {"type": "integer"},
                "fooBarValue": {"type": "string"},
                "fooBarFooBar": {"type": "object", "properties": {"inner": {"type": "string"}}}
            })),
        ),
        (
            "empty_names",
            defs(json!({
                "": {"type": "object", "properties": {
                    "": {"type": "string"},
                    "_": {"type": "string"},
                    "__": {"type": "integer"},
                    "$": {"type": "boolean"}
                }, "required": [""]},
                "E": {"enum": ["", " ", "_", "-"]},
                "Ref": {"type": "object", "properties": {"e": {"$ref": "#/$defs/"}}}
            })),
        ),
        (
            "non_ascii",
            defs(json!({
                "Ünïcode": {"type": "object", "properties": {
                    "名前": {"type": "string"},
                    "ñ": {"type": "string"},
                    "émoji😀": {"enum": ["😀", "😁", "é", "e"]},
                    "ключ": {"$ref": "#/$defs/日本"}
                }},
                "日本": {"type": "string"}
            })),
        ),
        (
            "std_names",
            defs(json!({
                "Result": {"type": "object", "properties": {"ok": {"$ref": "#/$defs/Option"}}},
                "Option": {"type": "string"},
                "String": {"type": "object", "properties": {"s": {"$ref": "#/$defs/Vec"}, "r": {"$ref": "#/$defs/Result"}}},
                "Vec": {"type": "array", "items": {"$ref": "#/$defs/Box"}},
                "Box": {"type": "integer"},
                "Some": {"type": "boolean"},
                "None": {"type": "null"},
                "Ok": {"type": "object", "properties": {"v": {"$ref": "#/$defs/Value"}}},
                "Err": {"anyOf": [{"$ref": "#/$defs/String"}, {"$ref": "#/$defs/Box"}]},
                "Extra": {"type": "string"},
                "Value": {"type": "object"},
                "Map": {"type": "object", "additionalProperties": {"$ref": "#/$defs/String"}},
                "Default": {"type": "object", "properties": {"x": {"type": "string"}}},
                "Clone": {"type": "string"},
                "Debug": {"enum": ["a"]},
                "serde": {"type": "string"},
                "core": {"type": "string"},
                "std": {"type": "string"},
                "mcp_runtime": {"type": "string"},
                "ResultType": {"type": "string"}
            })),
        ),
        (
            "odd_names",
            defs(json!({
                "1abc": {"type": "object", "properties": {"1": {"type": "string"}, "2": {"type": "string"}}},
                "123": {"type": "string"},
                "My Type": {"type": "object", "properties": {"a b": {"type": "string"}, "a\"b": {"type": "string"}, "a\\b": {"type": "string"}, "a/b": {"type": "string"}, "a~b": {"type": "string"}}},
                "A": {"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "string"}}}}},
                "AB": {"type": "string"},
                "Esc": {"$ref": "#/$defs/a~1b~0c"},
                "a/b~c": {"enum": ["a-b", "a_b", "A B", "aB", "AB", "\"", "\\", "\n"]},
                "Docs": {"type": "object", "description": "```rust\ncompile_error!(\"a doctest\");\n```\n{@link Nowhere} */ #[doc] <b>bold</b> https://example.com/x_y", "properties": {}}
            })),
        ),
        (
            "union_names",
            defs(json!({
                "Object1": {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]},
                "String": {"type": "string"},
                "U": {"anyOf": [
                    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                    {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]},
                    {"$ref": "#/$defs/Object1"}
                ]},
                "V": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/String"}]}
            })),
        ),
        (
            "any_of_nested_200_deep",
            format!(r#"{{"$defs": {{"Deep": {}}}}}"#, nest_any_of(200)),
        ),
        (
            "any_of_in_members_200_deep",
            format!(r#"{{"$defs": {{"Deep": {}}}}}"#, nest_any_of_in_member(200)),
        ),
        (
            "properties_nested_300_deep",
            format!(
                r#"{{"$defs": {{"Deep": {}}}}}"#,
                nest_properties(300, r#"{"type": "string"}"#)
            ),
        ),
        ("tree_of_300_defs", tree(300)),
        ("chain_of_100_defs", chain(100)),
        ("protocol_families", protocol_families()),
    ]
}

/// A protocol whose request, result and response families (method constants, outcome enums,
/// a union of results, the multi round-trip types) carry names with spaces and the names of
/// std types, described by an overlay that names them.
fn protocol_families() -> String {
    let r = |name: &str| json!({"$ref": format!("#/$defs/{name}")});
    let request = |method: &str, params: Value| {
        json!({"type": "object", "properties": {
            "jsonrpc": {"const": "2.0"}, "id": r("Request Id"), "method": {"const": method}, "params": params
        }, "required": ["jsonrpc", "id", "method", "params"]})
    };
    let response = |result: Value| {
        json!({"type": "object", "properties": {"jsonrpc": {"const": "2.0"}, "id": r("Request Id"), "result": result},
               "required": ["jsonrpc", "id", "result"]})
    };
    let result_type = json!({"type": "string"});
    defs(json!({
        "Request Id": {"type": ["string", "integer"]},
        "Result": {"type": "object", "properties": {"resultType": result_type}},
        "Input Required Result": {"type": "object", "properties": {
            "resultType": result_type, "inputRequests": r("Input Requests"), "requestState": {"type": "string"}
        }, "required": ["resultType"]},
        "Input Requests": {"type": "object", "additionalProperties": r("Input Request")},
        "Input Request": {"anyOf": [r("Vec Request"), r("Box Request")]},
        "Input Responses": {"type": "object", "additionalProperties": r("Input Response")},
        "Input Response": {"anyOf": [r("Vec Result"), r("Box Result")]},
        "Vec Request": {"type": "object", "properties": {"method": {"const": "vec/list"}}, "required": ["method"]},
        "Vec Result": {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}}}, "required": ["items"]},
        "Box Request": {"type": "object", "properties": {"method": {"const": "box/open"}, "params": {"type": "object", "properties": {"lid": {"type": "string"}}}}, "required": ["method"]},
        "Box Result": {"type": "object", "properties": {"opened": {"type": "boolean"}}, "required": ["opened"]},
        "Client Capabilities": {"type": "object", "properties": {"vec": {"type": "object"}, "box": {"type": "object"}}},
        "Missing Capability Error": {"type": "object", "properties": {
            "jsonrpc": {"const": "2.0"}, "id": r("Request Id"), "error": {"type": "object", "properties": {
                "code": {"const": -32021}, "message": {"type": "string"},
                "data": {"type": "object", "properties": {"requiredCapabilities": r("Client Capabilities")}, "required": ["requiredCapabilities"]}
            }, "required": ["code", "message", "data"]}
        }, "required": ["jsonrpc", "error"]},
        "my tool Request": request("my/tool", r("my tool Request Params")),
        "my tool Request Params": {"type": "object", "properties": {
            "name": {"type": "string"}, "inputResponses": r("Input Responses"), "requestState": {"type": "string"}
        }, "required": ["name"]},
        "my tool Result": {"type": "object", "properties": {"resultType": result_type, "value": {"type": "string"}}, "required": ["resultType", "value"]},
        "my tool ResultResponse": response(json!({"anyOf": [r("my tool Result"), r("Input Required Result")]})),
        "Option Request": request("option/get", json!({"type": "object"})),
        "Option Result": {"type": "object", "properties": {"resultType": result_type, "some": {"type": "boolean"}}},
        "Option ResultResponse": response(r("Option Result")),
        "Value Request": request("value/get", json!({"type": "object"})),
        "Self Notification": {"type": "object", "properties": {"jsonrpc": {"const": "2.0"}, "method": {"const": "notifications/self"}}, "required": ["jsonrpc", "method"]},
        "Server Result": {"anyOf": [r("Result"), r("Input Required Result"), r("my tool Result"), r("Option Result")]}
    }))
}

/// The overlay a case needs, if any.
fn overlay_for(name: &str) -> Option<Value> {
    let why = |v: Value| {
        let mut v = v;
        v["why"] = json!("a hostile-schema test");
        v["source"] = json!("mcp-codegen/tests/hostile.rs");
        v
    };
    if name.starts_with("outcome_") {
        return Some(json!({
            "revision": "hostile",
            "results": why(json!({"input_required": "Input Required Result", "fixed": {"Input Required Result": "input_required"}}))
        }));
    }
    (name == "protocol_families").then(|| {
        json!({
            "revision": "hostile",
            "results": why(json!({"input_required": "Input Required Result", "fixed": {"Input Required Result": "input_required"}})),
            "at_least_one_of": {"Input Required Result": why(json!({"keys": ["inputRequests", "requestState"]}))},
            "input_requests": why(json!({
                "result": "Input Required Result", "map": "Input Requests", "request": "Input Request",
                "responses": "Input Responses", "response": "Input Response",
                "capabilities": "Client Capabilities", "missing_capability_error": "Missing Capability Error"
            })),
            "input_capabilities": why(json!({"rules": [
                {"method": "vec/list", "needs": "vec", "why": "test"},
                {"method": "box/open", "when": {"any_present": ["/params/lid"]}, "needs": "box.lid", "level": "should", "why": "test"}
            ]}))
        })
    })
}

/// The cases whose types nest (each holding the next, by value or through `Option`, `Box` or
/// `Vec`) more than about 60 deep. rustc's drop check stops at its `recursion_limit` (128 by
/// default, two per level here) with E0320, whatever the generator emits, so such code compiles
/// only in a crate that raises `#![recursion_limit]` (RELIABILITY.md); the deep crate does.
const DEEP: &[&str] = &[
    "any_of_in_members_200_deep",
    "properties_nested_300_deep",
    "chain_of_100_defs",
];

/// What the scratch crate's unit tests check, per module.
const BEHAVIOUR: &str = r####"
use serde_json::json;

fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(
    value: serde_json::Value,
) -> T {
    let typed: T = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), value);
    let again: T = serde_json::from_str(&serde_json::to_string(&typed).unwrap()).unwrap();
    assert_eq!(again, typed);
    typed
}

#[test]
fn tree_of_300_defs() {
    use crate::tree_of_300_defs as m;
    let leaf: m::T299 = round_trip(json!({
        "name": "299", "kind": "shared", "either": {"name": "74"},
        "parent": {"name": "149", "parent": {"name": "74", "parent": {"name": "36"}}}
    }));
    assert_eq!(leaf.parent.unwrap().parent.unwrap().name, "74");
    let _: m::T0 = round_trip(json!({"name": "root", "parent": {"name": "self"}, "kind": "k0"}));
}

#[test]
fn self_reference() {
    use crate::self_reference as m;
    let n: m::Node = round_trip(json!({
        "value": "root",
        "children": [{"value": "a", "children": []}],
        "parent": {"value": "p", "parent": {"value": "pp"}},
        "byName": {"x": {"value": "x"}}
    }));
    assert_eq!(n.children.as_ref().unwrap()[0].value, "a");
    assert_eq!(n.parent.as_ref().unwrap().parent.as_ref().unwrap().value, "pp");
    // `Loop` needs itself: no finite JSON value is one.
    assert!(serde_json::from_value::<m::Loop>(json!({"next": {"next": {}}})).is_err());
}

#[test]
fn ref_cycle() {
    use crate::ref_cycle as m;
    let a: m::AliasOfAlias = round_trip(json!({"b": {"c": {"a": {"b": {}}, "u": "s"}}}));
    assert_eq!(a.b.unwrap().c.unwrap().u, Some(m::U::String("s".into())));
    let _: m::U = round_trip(json!({"b": {}}));
}

#[test]
fn keywords() {
    use crate::keywords as m;
    let v: m::r#type = round_trip(json!({
        "type": "t", "Self": "S", "self": "s", "crate": "c", "super": 1, "fn": true,
        "async": {"impl": 3}, "r#type": "raw", "match": "Self"
    }));
    assert_eq!(v.r#type, "t");
    assert_eq!(v.self_2, "s");
    assert_eq!(v.self_.as_deref(), Some("S"));
    assert_eq!(v.crate_.as_deref(), Some("c"));
    assert_eq!(v.r#match, Some(m::typeMatch::Self__));
    assert_eq!(v.r#async.unwrap().r#impl, Some(m::crate_::Integer(3)));
    for (text, value) in [("self", m::super_::Self_), ("Self", m::super_::Self__), ("", m::super_::Unnamed)] {
        assert_eq!(value.as_str(), text);
        let _: m::super_ = round_trip(json!(text));
    }
    let e: m::r#enum = round_trip(json!({"type": "other"}));
    assert!(matches!(e, m::r#enum::Object(_)), "{e:?}");
}

#[test]
fn case_collisions() {
    use crate::case_collisions as m;
    let v: m::fooBar = round_trip(json!({
        "fooBar": "a", "foo_bar": 2, "FooBar": true, "foo-bar": "d", "foo_bar_2": "e",
        "_meta": {"k": 1}, "meta": "m", "extra": "x", "with_extra": "w", "unknown": [1]
    }));
    assert_eq!(v.foo_bar_3.as_deref(), Some("a"));
    assert_eq!(v.foo_bar_4, Some(2));
    assert_eq!(v.foo_bar, Some(true));
    assert_eq!(v.extra.as_deref(), Some("x"));
    assert_eq!(v.extra_2.get("unknown"), Some(&json!([1])));
    let _: m::foo_bar = round_trip(json!("s"));
    let _: m::FooBar = round_trip(json!(1));
    let _: m::fooBarFooBar = round_trip(json!({"inner": "i"}));
}

#[test]
fn empty_names() {
    use crate::empty_names as m;
    let v: m::Unnamed = round_trip(json!({"": "empty", "_": "u", "__": 2, "$": false}));
    assert_eq!(v.field, "empty");
    assert!(serde_json::from_value::<m::Unnamed>(json!({"_": "u"})).is_err());
    for text in ["", " ", "_", "-"] {
        let e: m::E = round_trip(json!(text));
        assert_eq!(e.as_str(), text);
    }
    let _: m::Ref = round_trip(json!({"e": {"": "x"}}));
}

#[test]
fn non_ascii() {
    use crate::non_ascii as m;
    let v: m::_n_code = round_trip(json!({"名前": "n", "ñ": "ñ", "émoji😀": "😁", "ключ": "k"}));
    assert_eq!(v.moji.unwrap().as_str(), "😁");
    for text in ["😀", "😁", "é", "e"] {
        let _: m::_n_codeMoji = round_trip(json!(text));
    }
}

#[test]
fn std_names() {
    use crate::std_names as m;
    let s: m::String = round_trip(json!({"s": [1, 2], "r": {"ok": "fine"}}));
    assert_eq!(s.s, Some(vec![1, 2]));
    let _: m::Err = round_trip(json!({"s": []}));
    let _: m::Err = round_trip(json!(7));
    let _: m::Ok = round_trip(json!({"v": {"any": null}}));
    let _: m::Map = round_trip(json!({"a": {"s": [3]}}));
    let _: m::None = round_trip(json!(null));
    let _: m::Default = round_trip(json!({"x": "y"}));
    assert_eq!(m::Debug::A.as_str(), "a");
}

#[test]
fn odd_names() {
    use crate::odd_names as m;
    let _: m::_1abc = round_trip(json!({"1": "one", "2": "two"}));
    let _: m::My_Type = round_trip(json!({"a b": "1", "a\"b": "2", "a\\b": "3", "a/b": "4", "a~b": "5"}));
    let _: m::A = round_trip(json!({"b": {"c": "d"}}));
    for text in ["a-b", "a_b", "A B", "aB", "AB", "\"", "\\", "\n"] {
        let e: m::Esc = round_trip(json!(text));
        assert_eq!(e.as_str(), text);
    }
    let _: m::Docs = round_trip(json!({}));
}

#[test]
fn protocol_families() {
    use crate::protocol_families as m;
    use mcp_runtime::prelude::*;
    assert_eq!(m::my_tool_Request::METHOD, "my/tool");
    assert_eq!(<m::Option_Request as mcp_runtime::Request>::METHOD, "option/get");
    assert_eq!(m::Self_Notification::METHOD, "notifications/self");
    let complete: m::my_tool_ResultResponse =
        round_trip(json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "value": "v"}}));
    assert!(matches!(complete.result, m::my_tool_Outcome::Complete(_)), "{complete:?}");
    let ask: m::my_tool_ResultResponse = round_trip(json!({"jsonrpc": "2.0", "id": 1, "result": {
        "resultType": "input_required", "inputRequests": {"k": {"method": "vec/list"}}, "requestState": "s"
    }}));
    let m::my_tool_Outcome::InputRequired(ask) = ask.result else { panic!("{ask:?}") };
    let err = serde_json::from_value::<m::Option_ResultResponse>(
        json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required", "requestState": "s"}}),
    );
    assert!(err.is_err(), "{err:?}");
    let by_method = m::Server_Result::from_method("my/tool", json!({"resultType": "input_required", "requestState": "s"})).unwrap();
    assert!(matches!(by_method, m::Server_Result::Input_Required_Result(_)), "{by_method:?}");
    let by_method = m::Server_Result::from_method("option/get", json!({"some": true})).unwrap();
    assert!(matches!(by_method, m::Server_Result::Option_Result(_)), "{by_method:?}");
    let generic: m::Server_Result = round_trip(json!({"resultType": "complete", "x": 1}));
    assert!(matches!(generic, m::Server_Result::Result(_)), "{generic:?}");
    let caps: m::Client_Capabilities = round_trip(json!({"vec": {}}));
    assert!(ask.check_capabilities(&caps).is_ok());
    let no_caps: m::Client_Capabilities = round_trip(json!({}));
    assert!(ask.check_capabilities(&no_caps).is_err());
    let mut builder = m::InputRequestsBuilder::new(&no_caps);
    let refused = builder.insert("k", round_trip::<m::Input_Request>(json!({"method": "vec/list"})));
    let Err(refusal) = refused else { panic!("{refused:?}") };
    let error = m::Missing_Capability_Error::from_capability_error(Some(m::Request_Id::Integer(4)), &refusal);
    assert_eq!(serde_json::to_value(&error).unwrap()["error"]["code"], json!(-32021));
    assert_eq!(serde_json::to_value(&error).unwrap()["error"]["data"]["requiredCapabilities"], json!({"vec": {}}));
    let lid = builder.insert("b", round_trip::<m::Input_Request>(json!({"method": "box/open", "params": {"lid": "l"}})));
    let Err(refusal) = lid else { panic!("{lid:?}") };
    let error = m::Missing_Capability_Error::from_capability_error(None, &refusal);
    assert_eq!(serde_json::to_value(&error).unwrap()["error"]["data"]["requiredCapabilities"], json!({"box": {"lid": {}}}));
    let request: m::my_tool_Request = round_trip(json!({"jsonrpc": "2.0", "id": 1, "method": "my/tool", "params": {"name": "n"}}));
    let mut responses = m::Input_Responses::new();
    responses.insert("k".into(), round_trip(json!({"items": ["a"]})));
    let retry = request.retry(m::Request_Id::Integer(2), &ask, responses).unwrap();
    assert_eq!(retry.params.request_state.as_deref(), Some("s"));
    let wrong: m::Input_Responses = [("k".to_owned(), round_trip(json!({"opened": true})))].into();
    assert!(request.retry(m::Request_Id::Integer(3), &ask, wrong).is_err());
}

#[test]
fn union_names() {
    use crate::union_names as m;
    let _: m::U = round_trip(json!({"a": "x"}));
    let _: m::U = round_trip(json!({"b": "x"}));
    let u: m::U = round_trip(json!({"k": "x"}));
    assert!(matches!(u, m::U::Object1(_)), "{u:?}");
    let _: m::V = round_trip(json!(1));
    let _: m::V = round_trip(json!("s"));
}

#[test]
fn any_of_nested_200_deep() {
    use crate::any_of_nested_200_deep as m;
    let _: m::Deep = round_trip(json!("leaf"));
    let _: m::Deep = round_trip(json!({"k0": 0}));
    let _: m::Deep = round_trip(json!({"k199": 199}));
    assert!(serde_json::from_value::<m::Deep>(json!({"k200": 1})).is_err());
}

"####;

/// The unit tests of the crate with the deeply nested cases.
const DEEP_BEHAVIOUR: &str = r####"
use serde_json::json;

/// On a thread with a 256 MiB stack: a type that holds a hundred others by value is large, and
/// so are the frames that read it in a debug build.
fn round_trip<T>(value: serde_json::Value) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug + Send + 'static,
{
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let typed: T = serde_json::from_value(value.clone()).unwrap();
            assert_eq!(serde_json::to_value(&typed).unwrap(), value);
            typed
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn any_of_in_members_200_deep() {
    use crate::any_of_in_members_200_deep as m;
    let _: m::Deep = round_trip(json!("top"));
    let mut v = json!("leaf");
    for _ in 0..100 {
        v = json!({"x": v});
    }
    let _: m::Deep = round_trip(v);
}

#[test]
fn properties_nested_300_deep() {
    use crate::properties_nested_300_deep as m;
    let mut v = json!({});
    for _ in 0..100 {
        v = json!({"x": v});
    }
    let _: m::Deep = round_trip(v);
}

#[test]
fn chain_of_100_defs() {
    use crate::chain_of_100_defs as m;
    let mut v = json!({"name": "50"});
    for i in (0..50).rev() {
        v = json!({"name": i.to_string(), "kind": "shared", "next": v, "items": [{"n": i}], "either": "e"});
    }
    let head: m::Head = round_trip(v);
    assert_eq!(head.next.as_ref().unwrap().next.as_ref().unwrap().name, "2");
    assert_eq!(head.kind, Some(m::T0Kind::Shared));
    // Each link holds the next and a union of another by value: without boxing past a size,
    // T0 held the whole chain several times over (6 MB).
    assert!(std::mem::size_of::<m::T0>() < 1 << 20, "{}", std::mem::size_of::<m::T0>());
}
"####;

#[test]
fn accepted_compile_and_behave() {
    let root = tmp().join("hostile-crates");
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let runtime = workspace.join("mcp-runtime").display().to_string();
    let mut libs = [
        (
            "flat",
            String::from(
                "//! Code generated from hostile schemas (mcp-codegen/tests/hostile.rs).\n#![deny(warnings)]\n\n",
            ),
            BEHAVIOUR,
        ),
        (
            "deep",
            String::from(
                "//! Code generated from deeply nesting hostile schemas (mcp-codegen/tests/hostile.rs).\n#![deny(warnings)]\n#![recursion_limit = \"4096\"]\n\n",
            ),
            DEEP_BEHAVIOUR,
        ),
    ];
    let mut failures = Vec::new();
    for (module, text) in accepted() {
        let (krate, lib, _) = &mut libs[usize::from(DEEP.contains(&module))];
        match generate(module, &text) {
            Ok(g) => {
                write_if_changed(
                    &root.join(*krate).join("src").join(format!("{module}.rs")),
                    &g.text,
                );
                lib.push_str(&format!("pub mod {module};\n"));
            }
            Err(e) => failures.push(format!("{module}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (krate, lib, behaviour) in &libs {
        let dir = root.join(krate);
        write_if_changed(
            &dir.join("src").join("lib.rs"),
            &format!("{lib}\n#[cfg(test)]\nmod behaviour;\n"),
        );
        write_if_changed(&dir.join("src").join("behaviour.rs"), behaviour);
        write_if_changed(
            &dir.join("Cargo.toml"),
            &format!(
                r#"[package]
name = "hostile-{krate}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-runtime = {{ path = {runtime:?} }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
"#
            ),
        );
    }
    write_if_changed(
        &root.join("Cargo.toml"),
        "[workspace]\nresolver = \"3\"\nmembers = [\"flat\", \"deep\"]\n",
    );
    // The workspace's lock file: the same versions as the workspace, and nothing to download.
    let lock = std::fs::read_to_string(workspace.join("Cargo.lock")).unwrap();
    write_if_changed(&root.join("Cargo.lock"), &lock);
    let target = workspace.join("target").join("hostile-crates");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = root.join("Cargo.toml");
    let manifest = manifest.to_str().unwrap();
    for args in [
        &[
            "clippy",
            "--manifest-path",
            manifest,
            "--workspace",
            "--all-targets",
            "--offline",
            "--",
            "-D",
            "warnings",
        ][..],
        &[
            "test",
            "--manifest-path",
            manifest,
            "--workspace",
            "--offline",
            "--quiet",
        ][..],
    ] {
        let started = Instant::now();
        let out = Command::new(&cargo)
            .args(args)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "cargo {} on the hostile crates failed ({:?}):\n{}\n{stderr}",
            args.join(" "),
            started.elapsed(),
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

fn write_if_changed(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

/// 10,000 `$def`s in one `$ref` cycle: generated (not compiled here: the 1,000-def chain above
/// is), every one a type, on a 2 MiB stack.
#[test]
fn ten_thousand_defs() {
    let g = generate("chain_of_10000_defs", &chain(10_000)).unwrap();
    // Each link: itself, its items struct and its either union; plus the shared enum, one
    // enum per link and Head.
    assert_eq!(g.types, 10_000 * 4 + 1);
    assert!(g.text.contains("pub struct T9999 {"));
    assert!(g.text.contains("::std::boxed::Box<T"), "the cycle is boxed");
}

/// Generation time by number of `$def`s (run with `--release --ignored --nocapture`).
#[test]
#[ignore = "a measurement, not a check: run it in release mode"]
fn generation_time_by_size() {
    let mut previous: Option<(usize, f64)> = None;
    for n in [1_000, 2_000, 5_000, 10_000] {
        let text = chain(n);
        let runs = 3;
        let mut best = f64::MAX;
        for _ in 0..runs {
            let started = Instant::now();
            let g = generate(&format!("timing_{n}"), &text).unwrap();
            best = best.min(started.elapsed().as_secs_f64());
            assert_eq!(g.types, n * 4 + 1);
        }
        let per_def = best / n as f64 * 1e3;
        let growth = previous
            .map(|(pn, pt)| {
                format!(
                    ", x{:.2} the time for x{:.1} the defs",
                    best / pt,
                    n as f64 / pn as f64
                )
            })
            .unwrap_or_default();
        println!(
            "{n:>6} defs ({:>5} KiB schema): {best:.3} s, {per_def:.3} ms per def{growth}",
            text.len() / 1024
        );
        previous = Some((n, best));
    }
}

/// Two thousand inline objects under members of one name, in a thousand pairs of one structure
/// each: merged in one round (a round per pair, each comparing every type with every other,
/// would not finish within the watchdog).
#[test]
fn many_pairs_of_alike_inline_objects_merge_within_the_watchdog() {
    let mut all = serde_json::Map::new();
    for i in 0..2000 {
        let key = format!("k{}", i % 1000);
        all.insert(
            format!("D{i}"),
            json!({"type": "object", "properties": {
                "_meta": {"type": "object", "properties": {key: {"type": "string"}}}
            }}),
        );
    }
    let generated = generate("alike_inline_objects", &defs(Value::Object(all))).unwrap();
    // D1005's `_meta` has D5's structure: `pub type D1005Meta = D5Meta;`, and so on.
    assert_eq!(generated.text.matches("Meta = D").count(), 1000);
    assert!(generated.text.contains("pub type D1005Meta = D5Meta;"));
}

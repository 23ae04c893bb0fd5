//! Hostile messages, the deterministic CI part of the fuzzing (`fuzz/` has the libFuzzer
//! target and the long smoke runs): the dispatching deserializers read mutants of the 129
//! official examples (the shared mutator, driven by proptest with a fixed seed) and never
//! panic, never overflow the stack (a test thread's 2 MiB) and never allocate out of
//! proportion to the input; what they accept writes and reads back equal. Then the cases the
//! issue names: 10,000-deep nesting in JSONValue fields and in `_meta` (refused; with
//! `raw_json`, read as text where the member is raw).

#[path = "../../fuzz/src/target.rs"]
#[allow(dead_code)]
mod target;

#[path = "../../fuzz/src/mutate.rs"]
#[allow(dead_code)]
mod mutate;

#[path = "../../fuzz/src/alloc.rs"]
#[allow(dead_code)]
mod alloc;

#[path = "proptest_support/run_seed.rs"]
mod run_seed;

use mcp_tests::{mcp, raw};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::json;

#[global_allocator]
static COUNTING: alloc::Counting = alloc::Counting;

/// Mutants per run: `MCP_FUZZ_CASES` (default 2,000).
fn cases() -> u32 {
    std::env::var("MCP_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

/// The mutants' seed: fixed (every run makes the same mutants) unless `MCP_PROPTEST_SEED` is
/// set (scripts/proptest-random.sh): then its number, spread over the 32 bytes.
fn mutants_seed() -> [u8; 32] {
    let Some(run) = run_seed::run_seed() else {
        return [7; 32];
    };
    let mut seed = [0u8; 32];
    for (i, chunk) in seed.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(&run.rotate_left(16 * i as u32).to_le_bytes());
    }
    seed
}

/// Reads `data` with every reader and checks the allocation bound.
fn read_bounded(data: &[u8]) -> Result<target::Outcome, String> {
    let base = alloc::start();
    let outcome = target::one_input(data);
    let peak = alloc::peak_since(base);
    if peak > alloc::bound(data.len()) {
        return Err(format!(
            "{} bytes of input allocated {peak} bytes at once: {}",
            data.len(),
            String::from_utf8_lossy(&data[..data.len().min(300)])
        ));
    }
    Ok(outcome)
}

#[test]
fn seeds_are_read() {
    let seeds = mutate::seeds(&mcp_tests::schema_dir());
    assert_eq!(seeds.len(), 129);
    let mut read = 0;
    for s in &seeds {
        read += usize::from(read_bounded(s).unwrap().accepted > 0);
    }
    // Every example is a message, a result or a part of one; the readers cover most.
    assert!(
        read >= 60,
        "only {read} examples read by a dispatching type"
    );
}

#[test]
fn mutants_never_panic_or_blow_up() {
    let seeds = mutate::seeds(&mcp_tests::schema_dir());
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        max_shrink_iters: 0,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &mutants_seed()),
    );
    let accepted = std::cell::Cell::new(0u64);
    runner
        .run(&any::<u64>(), |seed| {
            let data = mutate::mutate(&mut mutate::Rng(seed), &seeds);
            let outcome = read_bounded(&data).map_err(TestCaseError::fail)?;
            accepted.set(accepted.get() + u64::from(outcome.accepted));
            Ok(())
        })
        .unwrap();
    assert!(accepted.get() > 0, "some mutants are still messages");
}

/// `n`-deep arrays around `null`, as text.
fn nested(n: usize) -> String {
    format!("{}null{}", "[".repeat(n), "]".repeat(n))
}

/// `n`-deep objects around `null`, as text.
fn nested_objects(n: usize) -> String {
    format!("{}null{}", "{\"a\":".repeat(n), "}".repeat(n))
}

/// Messages with `deep` in a member: (text, whether a reader of the module generated with
/// `raw_json` holds that member as raw JSON text).
fn deep_messages(deep: &str) -> [(String, bool); 5] {
    [
        (
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"complete","content":[],"structuredContent":{deep}}}}}"#
            ),
            true,
        ),
        (
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"x":{deep}}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
            ),
            true,
        ),
        (
            format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":1,"progress":1,"_meta":{{"k":{deep}}}}}}}"#
            ),
            // Typed in `ProgressNotification`, raw in the generic `JSONRPCNotification`'s params.
            true,
        ),
        (
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"_meta":{deep},"resultType":"complete"}}}}"#
            ),
            false,
        ),
        (
            format!(r#"{{"resultType":"input_required","requestState":{deep}}}"#),
            false,
        ),
    ]
}

#[test]
fn ten_thousand_deep_json_values_and_meta_are_refused() {
    for deep in [nested(10_000), nested_objects(10_000)] {
        for (text, _) in &deep_messages(&deep) {
            // No panic, no stack overflow on this 2 MiB thread, bounded allocation, for every
            // reader of both modules.
            read_bounded(text.as_bytes()).unwrap();
            // Every reader of the default modules refuses it (serde_json's depth limit).
            let outcome = target::default_readers(text.as_bytes());
            assert_eq!(outcome.accepted, 0, "{}", &text[..120]);
            assert!(serde_json::from_str::<mcp::JSONRPCMessage>(text).is_err());
            assert!(serde_json::from_str::<mcp::CallToolResultResponse>(text).is_err());
            assert!(serde_json::from_reader::<_, mcp::JSONRPCMessage>(text.as_bytes()).is_err());
        }
    }
}

/// With `raw_json`, a raw member is skipped, not parsed into a tree (serde_json skips a value
/// without recursing), so a 10,000-deep value there is read as text and written back byte for
/// byte; turning it into a tree is what refuses it. Where no reader holds the member as text
/// (a result's `_meta`, `requestState`), it is refused as without the option.
#[test]
fn ten_thousand_deep_raw_members_pass_through_as_text() {
    for deep in [nested(10_000), nested_objects(10_000)] {
        let [(result, _), (call, _), ..] = deep_messages(&deep);
        for (text, raw_member) in deep_messages(&deep) {
            let accepted = target::raw_readers(text.as_bytes()).accepted;
            assert_eq!(accepted > 0, raw_member, "{}", &text[..120]);
        }
        let response: raw::CallToolResultResponse = serde_json::from_str(&result).unwrap();
        assert_eq!(serde_json::to_string(&response).unwrap(), result);
        let raw::CallToolOutcome::Complete(r) = &response.result else {
            panic!("a complete result: {response:?}");
        };
        let structured = r.structured_content.as_ref().unwrap();
        assert_eq!(structured.get(), deep);
        assert!(structured.to_value().is_err());
        let request: raw::CallToolRequest = serde_json::from_str(&call).unwrap();
        let arguments = request.params.arguments.as_ref().unwrap();
        assert_eq!(arguments.get(), format!(r#"{{"x":{deep}}}"#));
        // Written in the struct's member order, the raw member's text unchanged.
        let written = serde_json::to_string(&request).unwrap();
        assert!(written.contains(&format!(r#""arguments":{}"#, arguments.get())));
        assert!(arguments.to_value().is_err());
        assert!(arguments.parse::<serde_json::Value>().is_err());
    }
}

#[test]
fn json_values_and_meta_nested_within_the_limit_round_trip() {
    // 100 levels inside the message: within serde_json's limit of 128.
    let deep: serde_json::Value = serde_json::from_str(&nested(100)).unwrap();
    let message = json!({
        "jsonrpc": "2.0", "id": 1,
        "result": {"resultType": "complete", "content": [], "structuredContent": {"x": deep.clone()}, "_meta": {"k": deep}}
    });
    let text = message.to_string();
    let typed: mcp::CallToolResultResponse = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), message);
    let any: mcp::JSONRPCMessage = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_value(&any).unwrap(), message);
}

#[test]
fn large_inputs_allocate_in_proportion() {
    // A long array of content blocks, a long string, many members.
    let blocks = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"complete","content":[{}]}}}}"#,
        vec![r#"{"type":"text","text":""}"#; 20_000].join(",")
    );
    let long = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{}"}}}}"#,
        "x".repeat(1 << 20)
    );
    let members = format!(
        r#"{{"jsonrpc":"2.0","method":"m","params":{{{}}}}}"#,
        (0..20_000)
            .map(|i| format!(r#""k{i}":{i}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    for text in [blocks, long, members] {
        read_bounded(text.as_bytes()).unwrap();
    }
}

/// Found by the smoke run: without serde_json's `float_roundtrip` (now on in mcp-runtime),
/// `5e32` read one ulp off and a pass-through number changed on a round trip.
#[test]
fn numbers_pass_through_unchanged() {
    for n in [
        "5e32",
        "5.0000000000000004e32",
        "1.7976931348623157e308",
        "2.2250738585072014e-308",
        "0.1",
        "-3.14159",
    ] {
        let text = format!(
            r#"{{"resultType":"complete","content":[],"data":{{"port":{n}}},"structuredContent":{{"x":[{n}]}}}}"#
        );
        let typed: mcp::CallToolResult = serde_json::from_str(&text).unwrap();
        let written = serde_json::to_string(&typed).unwrap();
        let again: mcp::CallToolResult = serde_json::from_str(&written).unwrap();
        assert_eq!(again, typed, "{n}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let expected: f64 = n.parse().unwrap();
        assert_eq!(
            value["data"]["port"].as_f64(),
            Some(expected),
            "{n} read exactly"
        );
        assert_eq!(serde_json::to_string(&again).unwrap(), written);
    }
}

//! The fuzz target: one input through every dispatching deserializer of the generated types
//! (the 2026-07-28 ones twice: generated as usual and with `raw_json`).
//!
//! Shared (by `#[path]`) by the libFuzzer target (`fuzz_targets/messages.rs`), the stable smoke
//! driver (`src/bin/smoke.rs`) and the deterministic CI run in
//! `tests/tests/proptest_messages.rs`, so it names the generated modules through `mcp_tests`.
//!
//! Reading may fail; it must not panic, overflow the stack or allocate without bound. What
//! reads must write, and what it writes must read back equal (and write the same text again).

use mcp_tests::{mcp, raw, v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// How one input fared: which readers took it.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Readers that accepted the input.
    pub accepted: u32,
    /// Readers tried.
    pub tried: u32,
}

/// Reads `data` as `T`; if that succeeds, checks that the value writes, reads back equal, and
/// writes the same JSON again.
fn read<T>(data: &[u8], out: &mut Outcome)
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    out.tried += 1;
    let Ok(value) = serde_json::from_slice::<T>(data) else {
        return;
    };
    out.accepted += 1;
    let text = serde_json::to_string(&value).expect("an accepted value serializes");
    let back: T = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "{} does not read its own output: {e}\n  output: {text}",
            std::any::type_name::<T>()
        )
    });
    assert_eq!(
        back,
        value,
        "{} reads its own output differently: {text}",
        std::any::type_name::<T>()
    );
    let again = serde_json::to_string(&back).expect("serializes");
    assert_eq!(
        again,
        text,
        "{}: writing is not stable",
        std::any::type_name::<T>()
    );
}

/// Every 2026-07-28 reader of the generated module `$m` (the default one, or the one
/// generated with `raw_json`): the message unions, every response with an outcome, requests,
/// results, content, elicitation and input requests and responses, and
/// `ServerResult::from_method` for the methods of the examples.
macro_rules! latest_revision {
    ($m:ident, $data:expr, $out:expr) => {{
        let (data, out): (&[u8], &mut Outcome) = ($data, $out);
        read::<$m::JSONRPCMessage>(data, out);
        read::<$m::JSONRPCResponse>(data, out);
        read::<$m::JSONRPCRequest>(data, out);
        read::<$m::JSONRPCNotification>(data, out);
        read::<$m::JSONRPCResultResponse>(data, out);
        read::<$m::JSONRPCErrorResponse>(data, out);
        read::<$m::ClientRequest>(data, out);
        read::<$m::ServerNotification>(data, out);
        read::<$m::ServerResult>(data, out);
        read::<$m::CallToolResultResponse>(data, out);
        read::<$m::GetPromptResultResponse>(data, out);
        read::<$m::ReadResourceResultResponse>(data, out);
        read::<$m::ListToolsResultResponse>(data, out);
        read::<$m::DiscoverResultResponse>(data, out);
        read::<$m::CompleteResultResponse>(data, out);
        read::<$m::CallToolRequest>(data, out);
        read::<$m::CallToolResult>(data, out);
        read::<$m::InputRequiredResult>(data, out);
        read::<$m::InputRequest>(data, out);
        read::<$m::InputResponse>(data, out);
        read::<$m::InputRequests>(data, out);
        read::<$m::ContentBlock>(data, out);
        read::<$m::SamplingMessageContentBlock>(data, out);
        read::<$m::ElicitRequestParams>(data, out);
        read::<$m::PrimitiveSchemaDefinition>(data, out);
        read::<$m::CreateMessageRequest>(data, out);
        read::<$m::ElicitResult>(data, out);
        read::<$m::JSONValue>(data, out);
        if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
            for method in [
                "tools/call",
                "prompts/get",
                "resources/read",
                "tools/list",
                "server/discover",
                "nope",
            ] {
                out.tried += 1;
                if let Ok(r) = $m::ServerResult::from_method(method, value.clone()) {
                    out.accepted += 1;
                    let written = serde_json::to_value(&r).expect("serializes");
                    let back = $m::ServerResult::from_method(method, written.clone())
                        .unwrap_or_else(|e| {
                            panic!("from_method({method}) rejects its output: {e}\n{written}")
                        });
                    assert_eq!(
                        back, r,
                        "from_method({method}) reads its output differently"
                    );
                }
            }
        }
    }};
}

/// Every reader the input goes through.
pub fn one_input(data: &[u8]) -> Outcome {
    let default = default_readers(data);
    let raw = raw_readers(data);
    Outcome {
        accepted: default.accepted + raw.accepted,
        tried: default.tried + raw.tried,
    }
}

/// The readers of the modules generated as usual: 2026-07-28 and the earlier revisions'
/// message unions (2025-03-26 with JSON-RPC batches).
pub fn default_readers(data: &[u8]) -> Outcome {
    let mut out = Outcome::default();
    latest_revision!(mcp, data, &mut out);
    read::<v2025_11_25::JSONRPCMessage>(data, &mut out);
    read::<v2025_11_25::ServerResult>(data, &mut out);
    read::<v2025_06_18::JSONRPCMessage>(data, &mut out);
    read::<v2025_06_18::ClientResult>(data, &mut out);
    read::<v2025_03_26::JSONRPCMessage>(data, &mut out);
    read::<v2024_11_05::JSONRPCMessage>(data, &mut out);
    read::<v2024_11_05::ServerRequest>(data, &mut out);
    out
}

/// The 2026-07-28 readers of the module generated with `raw_json`.
pub fn raw_readers(data: &[u8]) -> Outcome {
    let mut out = Outcome::default();
    latest_revision!(raw, data, &mut out);
    out
}

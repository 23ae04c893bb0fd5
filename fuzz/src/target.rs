//! The fuzz target: one input through every dispatching deserializer of the generated types.
//!
//! Shared (by `#[path]`) by the libFuzzer target (`fuzz_targets/messages.rs`), the stable smoke
//! driver (`src/bin/smoke.rs`) and the deterministic CI run in
//! `tests/tests/proptest_messages.rs`, so it names the generated modules through `mcp_tests`.
//!
//! Reading may fail; it must not panic, overflow the stack or allocate without bound. What
//! reads must write, and what it writes must read back equal (and write the same text again).

use mcp_tests::{mcp, v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25};
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

/// Every reader the input goes through.
pub fn one_input(data: &[u8]) -> Outcome {
    let mut out = Outcome::default();
    // 2026-07-28: the message unions, every response with an outcome, requests, results,
    // content, elicitation and input requests and responses.
    read::<mcp::JSONRPCMessage>(data, &mut out);
    read::<mcp::JSONRPCResponse>(data, &mut out);
    read::<mcp::JSONRPCRequest>(data, &mut out);
    read::<mcp::JSONRPCNotification>(data, &mut out);
    read::<mcp::JSONRPCResultResponse>(data, &mut out);
    read::<mcp::JSONRPCErrorResponse>(data, &mut out);
    read::<mcp::ClientRequest>(data, &mut out);
    read::<mcp::ServerNotification>(data, &mut out);
    read::<mcp::ServerResult>(data, &mut out);
    read::<mcp::CallToolResultResponse>(data, &mut out);
    read::<mcp::GetPromptResultResponse>(data, &mut out);
    read::<mcp::ReadResourceResultResponse>(data, &mut out);
    read::<mcp::ListToolsResultResponse>(data, &mut out);
    read::<mcp::DiscoverResultResponse>(data, &mut out);
    read::<mcp::CompleteResultResponse>(data, &mut out);
    read::<mcp::CallToolRequest>(data, &mut out);
    read::<mcp::CallToolResult>(data, &mut out);
    read::<mcp::InputRequiredResult>(data, &mut out);
    read::<mcp::InputRequest>(data, &mut out);
    read::<mcp::InputResponse>(data, &mut out);
    read::<mcp::InputRequests>(data, &mut out);
    read::<mcp::ContentBlock>(data, &mut out);
    read::<mcp::SamplingMessageContentBlock>(data, &mut out);
    read::<mcp::ElicitRequestParams>(data, &mut out);
    read::<mcp::PrimitiveSchemaDefinition>(data, &mut out);
    read::<mcp::CreateMessageRequest>(data, &mut out);
    read::<mcp::ElicitResult>(data, &mut out);
    read::<mcp::JSONValue>(data, &mut out);
    // `ServerResult::from_method`, for the methods of the examples.
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
            if let Ok(r) = mcp::ServerResult::from_method(method, value.clone()) {
                out.accepted += 1;
                let written = serde_json::to_value(&r).expect("serializes");
                let back =
                    mcp::ServerResult::from_method(method, written.clone()).unwrap_or_else(|e| {
                        panic!("from_method({method}) rejects its output: {e}\n{written}")
                    });
                assert_eq!(
                    back, r,
                    "from_method({method}) reads its output differently"
                );
            }
        }
    }
    // The earlier revisions' message unions (2025-03-26 with JSON-RPC batches).
    read::<v2025_11_25::JSONRPCMessage>(data, &mut out);
    read::<v2025_11_25::ServerResult>(data, &mut out);
    read::<v2025_06_18::JSONRPCMessage>(data, &mut out);
    read::<v2025_06_18::ClientResult>(data, &mut out);
    read::<v2025_03_26::JSONRPCMessage>(data, &mut out);
    read::<v2024_11_05::JSONRPCMessage>(data, &mut out);
    read::<v2024_11_05::ServerRequest>(data, &mut out);
    out
}

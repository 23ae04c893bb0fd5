//! Benchmarks of the generated 2026-07-28 types against the other Rust MCP crates.
//!
//! The workloads are in [`workloads`]; the harness that measures them all in one run is
//! `benches/compare.rs` (`cargo bench -p mcp-bench`). This library holds what the harness and
//! its smoke tests share: the generated types ([`mcp`]), the types each implementation reads
//! every workload as ([`Impl`]), and the W2 correctness check ([`observe`]).
#![deny(warnings)]

pub mod clock;
pub mod handler;
pub mod measure;
pub mod workloads;

use serde::de::DeserializeOwned;

/// Types generated from `$MCP_SCHEMA_DIR/2026-07-28/schema.json` by `build.rs`.
pub mod mcp {
    include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
}

/// The same types generated with `raw_json`: what the protocol does not interpret (a tool's
/// `inputSchema`, call `arguments`, `structuredContent`) is kept as `mcp_runtime::RawJson`.
pub mod raw {
    include!(concat!(env!("OUT_DIR"), "/mcp-raw.rs"));
}

/// How one W2 message came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observed {
    /// Read as a complete result with this many content blocks.
    Complete { blocks: usize },
    /// Read as an input-required result; `whole`: one input request and a `requestState`.
    InputRequired { whole: bool },
    /// Read as some other result type (the name of the variant).
    Other(&'static str),
    /// Not read at all (a deserialization error).
    Error,
}

/// What went wrong reading W2, counted over all messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct W2Check {
    /// Read as another `resultType` than the one on the wire (or not read at all).
    pub wrong_result_type: usize,
    /// Read with the right `resultType` but with content lost (blocks, input requests, state).
    pub lost_content: usize,
    /// Of the wrong ones, how many failed to deserialize.
    pub errors: usize,
    /// Wrong or lossy among the messages written with sorted keys (`resultType` late).
    pub wrong_sorted: usize,
    /// Wrong or lossy among the messages written in the examples' order (`resultType` first).
    pub wrong_natural: usize,
}

impl W2Check {
    pub fn is_correct(&self) -> bool {
        self.wrong_result_type == 0 && self.lost_content == 0
    }
}

/// Compares what an implementation read with what each message is. Message `i` is written
/// with sorted keys when `i` is odd (see [`workloads::w2`]).
pub fn check_w2(observed: &[Observed], expect: &[workloads::Expect]) -> W2Check {
    use workloads::Expect;
    let mut c = W2Check::default();
    for (i, (o, e)) in observed.iter().zip(expect).enumerate() {
        let bad = match (o, e) {
            (Observed::Complete { blocks }, Expect::Complete { blocks: want }) => {
                if blocks != want {
                    c.lost_content += 1;
                }
                blocks != want
            }
            (Observed::InputRequired { whole }, Expect::InputRequired) => {
                if !whole {
                    c.lost_content += 1;
                }
                !whole
            }
            (o, _) => {
                c.wrong_result_type += 1;
                if *o == Observed::Error {
                    c.errors += 1;
                }
                true
            }
        };
        if bad {
            if i % 2 == 1 {
                c.wrong_sorted += 1;
            } else {
                c.wrong_natural += 1;
            }
        }
    }
    c
}

/// One implementation under test: the type it reads each workload as.
pub trait Impl {
    /// The name in the table.
    const NAME: &'static str;
    /// A `tools/list` response.
    type W1: DeserializeOwned;
    /// A `tools/call` result response.
    type W2: DeserializeOwned;
    /// A `tools/call` request.
    type W3: DeserializeOwned;
    /// How a W2 message was read.
    fn observe(message: &Self::W2) -> Observed;

    /// The W2 values to measure writing with: what the implementation reads, except that an
    /// implementation that misreads a message gets the value it should have read, built by
    /// hand, so that every implementation writes the same content.
    fn w2_values(texts: &[String], _expect: &[workloads::Expect]) -> Option<Vec<Self::W2>> {
        texts.iter().map(|t| serde_json::from_str(t).ok()).collect()
    }
}

/// An [`Impl`] for a module of generated types: `$name`, named `$label` in the tables.
macro_rules! generated {
    ($(#[$doc:meta])* $name:ident, $module:ident, $label:literal) => {
        $(#[$doc])*
        pub struct $name;

        impl Impl for $name {
            const NAME: &'static str = $label;
            type W1 = $module::ListToolsResultResponse;
            type W2 = $module::CallToolResultResponse;
            type W3 = $module::CallToolRequest;

            fn observe(m: &Self::W2) -> Observed {
                match &m.result {
                    $module::CallToolOutcome::Complete(r) => Observed::Complete {
                        blocks: r.content.len(),
                    },
                    $module::CallToolOutcome::InputRequired(r) => Observed::InputRequired {
                        whole: r.input_requests().is_some_and(|m| m.len() == 1)
                            && r.request_state().is_some(),
                    },
                }
            }
        }
    };
}

generated!(
    /// The generated types (this project).
    Ours,
    mcp,
    "mcp-codegen (generated)"
);
generated!(
    /// The generated types with `raw_json` (this project, the pass-through option).
    OursRaw,
    raw,
    "mcp-codegen, raw_json"
);

/// `rust-mcp-schema` 2.0.0, feature `2026_07_28`: its `*ResultResponse` and request types.
pub struct RustMcpSchema;

impl Impl for RustMcpSchema {
    const NAME: &'static str = "rust-mcp-schema 2.0.0";
    type W1 = rust_mcp_schema::ListToolsResultResponse;
    type W2 = rust_mcp_schema::CallToolResultResponse;
    type W3 = rust_mcp_schema::CallToolRequest;

    fn observe(m: &Self::W2) -> Observed {
        use rust_mcp_schema::CallToolResultResponseResult as R;
        match &m.result {
            R::CallToolResult(r) => Observed::Complete {
                blocks: r.content.len(),
            },
            R::InputRequiredResult(r) => Observed::InputRequired {
                whole: r.input_requests.as_ref().is_some_and(|m| m.0.len() == 1)
                    && r.request_state.is_some(),
            },
        }
    }

    /// Its untagged `CallToolResultResponseResult` reads complete results as
    /// `InputRequiredResult` (whose members are all optional); for writing, those are read
    /// again as the `CallToolResult` they are.
    fn w2_values(texts: &[String], expect: &[workloads::Expect]) -> Option<Vec<Self::W2>> {
        use rust_mcp_schema::{CallToolResult, CallToolResultResponse as Response};
        texts
            .iter()
            .zip(expect)
            .map(|(t, e)| {
                let m: Response = serde_json::from_str(t).ok()?;
                if matches!(e, workloads::Expect::Complete { .. }) {
                    let r: CallToolResult = serde_json::from_str(result_member(t)).ok()?;
                    return Some(Response::new(m.id, r.into()));
                }
                Some(m)
            })
            .collect()
    }
}

/// `rmcp` 3.11.0 (`rmcp::model`, no default features). A `tools/call` response is read as
/// `JsonRpcResponse<ServerResult>`: rmcp has no type for "the result of tools/call" that
/// deserializes (`CallToolReply` does not), so its untagged `ServerResult` decides.
pub struct Rmcp;

impl Impl for Rmcp {
    const NAME: &'static str = "rmcp 3.11.0";
    type W1 = rmcp::model::JsonRpcResponse<rmcp::model::ListToolsResult>;
    type W2 = rmcp::model::JsonRpcResponse<rmcp::model::ServerResult>;
    type W3 = rmcp::model::JsonRpcRequest<rmcp::model::CallToolRequest>;

    fn observe(m: &Self::W2) -> Observed {
        use rmcp::model::ServerResult as R;
        match &m.result {
            R::CallToolResult(r) => Observed::Complete {
                blocks: r.content.len(),
            },
            R::InputRequiredResult(r) => Observed::InputRequired {
                whole: r.input_requests.as_ref().is_some_and(|m| m.len() == 1)
                    && r.request_state.is_some(),
            },
            other => Observed::Other(server_result_name(other)),
        }
    }
}

fn server_result_name(r: &rmcp::model::ServerResult) -> &'static str {
    use rmcp::model::ServerResult as R;
    match r {
        R::EmptyResult(_) => "EmptyResult",
        R::CustomResult(_) => "CustomResult",
        R::ListToolsResult(_) => "ListToolsResult",
        R::GetPromptResult(_) => "GetPromptResult",
        R::ReadResourceResult(_) => "ReadResourceResult",
        _ => "another ServerResult",
    }
}

/// `serde_json::Value`: reads anything, interprets nothing (the check reads the tree).
pub struct JsonValue;

impl Impl for JsonValue {
    const NAME: &'static str = "serde_json::Value";
    type W1 = serde_json::Value;
    type W2 = serde_json::Value;
    type W3 = serde_json::Value;

    fn observe(m: &Self::W2) -> Observed {
        let result = &m["result"];
        match result.get("resultType").and_then(|v| v.as_str()) {
            None | Some("complete") => Observed::Complete {
                blocks: result["content"].as_array().map_or(0, Vec::len),
            },
            Some("input_required") => Observed::InputRequired {
                whole: result["inputRequests"]
                    .as_object()
                    .is_some_and(|m| m.len() == 1)
                    && result["requestState"].is_string(),
            },
            Some(_) => Observed::Other("unknown resultType"),
        }
    }
}

/// `serde::de::IgnoredAny`: parses and keeps nothing, the floor.
pub struct Ignored;

impl Impl for Ignored {
    const NAME: &'static str = "serde::de::IgnoredAny (floor)";
    type W1 = serde::de::IgnoredAny;
    type W2 = serde::de::IgnoredAny;
    type W3 = serde::de::IgnoredAny;

    fn observe(_: &Self::W2) -> Observed {
        Observed::Other("not interpreted")
    }
}

/// Reads every W2 message as `I` does and checks it.
pub fn observe<I: Impl>(texts: &[String], expect: &[workloads::Expect]) -> W2Check {
    let observed: Vec<Observed> = texts
        .iter()
        .map(|t| match serde_json::from_str::<I::W2>(t) {
            Ok(m) => I::observe(&m),
            Err(_) => Observed::Error,
        })
        .collect();
    check_w2(&observed, expect)
}

/// The `result` member of a W2 message (every message ends with it), for measuring the result
/// types on their own.
pub fn result_member(message: &str) -> &str {
    let start = message
        .find("\"result\":")
        .expect("W2 messages have a result")
        + "\"result\":".len();
    &message[start..message.len() - 1]
}

/// Types for measuring what the `resultType` dispatch costs: plain `serde` derives with the
/// fields of `CallToolResult`, no rules.
pub mod plain {
    use crate::mcp;
    use serde::{Deserialize, Serialize};

    /// `CallToolResult`'s fields with `#[derive(Deserialize)]`; `resultType` is just a string.
    #[derive(Debug, Deserialize, Serialize)]
    pub struct CallToolResult {
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<mcp::ResultMetaObject>,
        pub content: Vec<mcp::ContentBlock>,
        #[serde(rename = "isError", default, skip_serializing_if = "Option::is_none")]
        pub is_error: Option<bool>,
        #[serde(
            rename = "structuredContent",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        pub structured_content: Option<serde_json::Value>,
        #[serde(rename = "resultType", default)]
        pub result_type: Option<String>,
    }

    /// The same with plain text blocks instead of the `type`-tagged `ContentBlock` union.
    #[derive(Debug, Deserialize, Serialize)]
    pub struct CallToolTextResult {
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<mcp::ResultMetaObject>,
        pub content: Vec<TextContent>,
        #[serde(rename = "isError", default, skip_serializing_if = "Option::is_none")]
        pub is_error: Option<bool>,
        #[serde(
            rename = "structuredContent",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        pub structured_content: Option<serde_json::Value>,
        #[serde(rename = "resultType", default)]
        pub result_type: Option<String>,
    }

    /// `TextContent`'s fields, `type` a plain string.
    #[derive(Debug, Deserialize, Serialize)]
    pub struct TextContent {
        #[serde(rename = "type")]
        pub kind: String,
        pub text: String,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<mcp::MetaObject>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub annotations: Option<mcp::Annotations>,
    }
}

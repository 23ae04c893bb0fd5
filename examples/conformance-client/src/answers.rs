//! What this headless client is and answers: its configuration (capabilities, identity, the
//! handler of input requests: accept with the form's defaults (`mcp_client::elicit`), a canned sampling reply, one
//! root) and, for tools and prompts it calls without given arguments, placeholder arguments
//! that satisfy their schemas' required members.

use mcp_client::elicit::accept_with_defaults;
use serde_json::{Map, Value, json};

use crate::{Mcp, mcp};

pub fn sample(_request: &mcp::CreateMessageRequest) -> mcp::CreateMessageResult {
    let content = mcp::SamplingMessageContentBlock::from(mcp::TextContent::new(
        "A canned answer from the conformance client.",
    ));
    mcp::CreateMessageResult::new(content, "mcp-conformance-client", mcp::Role::Assistant)
        .with_stop_reason("endTurn")
}

pub fn roots() -> mcp::ListRootsResult {
    mcp::ListRootsResult::new(vec![
        mcp::Root::new("file:///workspace").with_name("workspace"),
    ])
}

/// The answer to one input request, in either era (a legacy server's request is read as the
/// modern input request it stands for).
pub fn respond(request: &mcp::InputRequest) -> mcp::InputResponse {
    match request {
        mcp::InputRequest::ElicitRequest(e) => accept_with_defaults::<Mcp>(e).into(),
        mcp::InputRequest::CreateMessageRequest(s) => sample(s).into(),
        mcp::InputRequest::ListRootsRequest(_) => roots().into(),
    }
}

/// What this client can do for a server: answer form and URL elicitations, sampling (no
/// tools) and roots.
fn capabilities() -> mcp::ClientCapabilities {
    mcp::ClientCapabilities::new()
        .with_elicitation(
            mcp::ClientCapabilitiesElicitation::new()
                .with_form(mcp::JSONObject::new())
                .with_url(mcp::JSONObject::new()),
        )
        .with_roots(serde_json::Map::new())
        .with_sampling(mcp::ClientCapabilitiesSampling::new())
}

/// Who this client is, in `_meta` (modern) and in `initialize` (legacy).
fn client_info() -> mcp::Implementation {
    mcp::Implementation::new("mcp-conformance-client", env!("CARGO_PKG_VERSION"))
        .with_title("mcp-codegen conformance client")
}

/// The client's configuration: its capabilities, its name, [`respond`] for every input
/// request, in either era, and its log on stderr (the interop scripts read it).
pub fn config() -> mcp_client::Config<Mcp> {
    mcp_client::Config::new(capabilities(), client_info(), respond)
        .with_log(|line| eprintln!("{line}"))
}

/// Placeholder arguments for `tool`: a value of the declared type for each required member.
pub fn tool_arguments(tool: &mcp::Tool) -> Map<String, Value> {
    let schema = &tool.input_schema.extra;
    let props = schema.get("properties").and_then(Value::as_object);
    let required = schema.get("required").and_then(Value::as_array);
    let mut args = Map::new();
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let ty = props
            .and_then(|p| p.get(name))
            .and_then(|s| s.get("type"))
            .and_then(Value::as_str);
        let value = match ty {
            Some("integer" | "number") => json!(1),
            Some("boolean") => json!(true),
            Some("object") => json!({}),
            Some("array") => json!([]),
            Some("null") => Value::Null,
            _ => json!("conformance"),
        };
        args.insert(name.to_owned(), value);
    }
    args
}

//! What this headless client is and answers: its configuration (capabilities, identity, the
//! handler of input requests: accept with the form's defaults, a canned sampling reply, one
//! root) and, for tools and prompts it calls without given arguments, placeholder arguments
//! that satisfy their schemas' required members.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::{Mcp, mcp};

fn default_for(schema: &mcp::PrimitiveSchemaDefinition) -> mcp::ElicitResultContentValue {
    use mcp::ElicitResultContentValue as V;
    use mcp::PrimitiveSchemaDefinition as S;
    match schema {
        S::StringSchema(s) => V::String(s.default.clone().unwrap_or_else(|| {
            match s.format {
                Some(mcp::StringSchemaFormat::Email) => "user@example.com",
                Some(mcp::StringSchemaFormat::Uri) => "https://example.com/",
                Some(mcp::StringSchemaFormat::Date) => "2026-07-28",
                Some(mcp::StringSchemaFormat::DateTime) => "2026-07-28T12:00:00Z",
                None => "conformance",
            }
            .to_owned()
        })),
        S::NumberSchema(n) => {
            let value = n.default.or(n.minimum).unwrap_or(0.0);
            match n.r#type {
                mcp::NumberSchemaType::Integer => V::Integer(value.round() as i64),
                mcp::NumberSchemaType::Number => V::Number(value),
            }
        }
        S::BooleanSchema(b) => V::Boolean(b.default.unwrap_or(true)),
        S::UntitledSingleSelectEnumSchema(e) => V::String(
            e.default
                .clone()
                .or_else(|| e.r#enum.first().cloned())
                .unwrap_or_default(),
        ),
        S::TitledSingleSelectEnumSchema(e) => V::String(
            e.default
                .clone()
                .or_else(|| e.one_of.first().map(|o| o.r#const.clone()))
                .unwrap_or_default(),
        ),
        S::LegacyTitledEnumSchema(e) => V::String(
            e.default
                .clone()
                .or_else(|| e.r#enum.first().cloned())
                .unwrap_or_default(),
        ),
        S::UntitledMultiSelectEnumSchema(e) => V::Array(
            e.default
                .clone()
                .unwrap_or_else(|| e.items.r#enum.iter().take(1).cloned().collect()),
        ),
        S::TitledMultiSelectEnumSchema(e) => V::Array(e.default.clone().unwrap_or_else(|| {
            e.items
                .any_of
                .iter()
                .take(1)
                .map(|o| o.r#const.clone())
                .collect()
        })),
    }
}

pub fn elicit(request: &mcp::ElicitRequest) -> mcp::ElicitResult {
    let accepted = mcp::ElicitResult::new(mcp::ElicitResultAction::Accept);
    match &request.params {
        mcp::ElicitRequestParams::ElicitRequestFormParams(form) => accepted.with_content(
            form.requested_schema
                .properties
                .iter()
                .map(|(k, s)| (k.clone(), default_for(s)))
                .collect::<BTreeMap<_, _>>(),
        ),
        // Out of band: the user opened the URL; nothing comes back in the result.
        mcp::ElicitRequestParams::ElicitRequestURLParams(_) => accepted,
    }
}

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
        mcp::InputRequest::ElicitRequest(e) => elicit(e).into(),
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

//! What the server offers: its capabilities, and its tools, prompts and resources on
//! `mcp_server`'s routers (each added with its own function), and completion. Everything is
//! built from the generated types.

use std::sync::atomic::Ordering;
use std::time::Duration;

use mcp_server::changes::Change;
use mcp_server::prompts::{Get, PromptError, Prompts};
use mcp_server::resources::{Entry, Read, ResourceError, Resources};
use mcp_server::tools::{Call, ToolError, Tools};
use serde::Deserialize;
use serde_json::json;

use crate::content::{
    no_arguments, prompt_result, schema, string_arg, text, told, tool_input_error, tool_result,
    user,
};
use crate::{Ctx, Mcp, mcp};

/// 1x1 red PNG.
pub const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A minimal WAV file.
pub const WAV_BASE64: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// How long clients may cache a resource: none of them depends on who asks.
const TTL_MS: u64 = 60_000;

/// What this server tells a client about itself, in both eras.
pub const INSTRUCTIONS: &str =
    "A conformance fixture: the test_* tools, prompts and resources of the MCP conformance suite.";

/// What this server offers: `server/discover` lists it, and a legacy `initialize` answers it
/// in the 2025-11-25 shape.
pub fn capabilities() -> mcp::ServerCapabilities {
    let mut capabilities = mcp::ServerCapabilities::new()
        .with_completions(mcp::JSONObject::new())
        .with_logging(mcp::JSONObject::new())
        .with_prompts(mcp::ServerCapabilitiesPrompts::new().with_list_changed(true))
        .with_resources(mcp::ServerCapabilitiesResources::new().with_subscribe(true))
        .with_tools(mcp::ServerCapabilitiesTools::new().with_list_changed(true));
    <Mcp as mcp_server::tasks::serve::TaskTypes>::declare(&mut capabilities);
    <Mcp as mcp_server::skills::serve::SkillTypes>::declare(&mut capabilities);
    capabilities
}

// ----- content helpers -----

fn image() -> mcp::ContentBlock {
    mcp::ImageContent::new(PNG_BASE64, "image/png").into()
}

fn text_contents(uri: &str, mime: &str, text: &str) -> mcp::EmbeddedResourceResource {
    mcp::TextResourceContents::new(text, uri)
        .with_mime_type(mime)
        .into()
}

fn embedded(uri: &str, mime: &str, text: &str) -> mcp::ContentBlock {
    mcp::EmbeddedResource::new(text_contents(uri, mime, text)).into()
}

/// What a tool of no arguments answers.
type Content = fn() -> Vec<mcp::ContentBlock>;

/// A call of one of this server's tools: its arguments are read from `call.params`.
pub type ToolCall = Call<Mcp, Ctx, ()>;

/// The tools router of this server, built for the fixture's state.
pub type ToolRouter = Tools<Mcp, Ctx>;

// ----- tools -----

/// Every tool, in the order `tools/list` gives them: this module's, then those that ask the
/// client first (`mrtr`, `asking`), then those that run as tasks (`tasks`).
pub fn tools() -> Result<ToolRouter, ToolError> {
    let answering: [(&str, &str, Content); 5] = [
        ("test_simple_text", "Returns simple text content", || {
            vec![text("This is a simple text response for testing.")]
        }),
        ("test_image_content", "Returns image content", || {
            vec![image()]
        }),
        ("test_audio_content", "Returns audio content", || {
            vec![mcp::AudioContent::new(WAV_BASE64, "audio/wav").into()]
        }),
        (
            "test_embedded_resource",
            "Returns an embedded resource",
            || {
                let text = "This is an embedded resource content.";
                vec![embedded("test://embedded-resource", "text/plain", text)]
            },
        ),
        (
            "test_multiple_content_types",
            "Returns text, image and resource content",
            || {
                let json = json!({"test": "data", "value": 123}).to_string();
                let uri = "test://mixed-content-resource";
                vec![
                    text("Multiple content types test:"),
                    image(),
                    embedded(uri, "application/json", &json),
                ]
            },
        ),
    ];
    let routes =
        answering
            .into_iter()
            .try_fold(Tools::new(), |routes, (name, description, content)| {
                routes.add_with_schema(name, description, no_arguments(), move |_: ToolCall| {
                    std::future::ready(Ok(tool_result(content())))
                })
            })?;
    let routes = routes
        .add_with_schema(
            "test_tool_with_logging",
            "Sends three log messages (when the request sets a logLevel)",
            no_arguments(),
            async |call: ToolCall| {
                let steps = [
                    "Tool execution started",
                    "Tool processing data",
                    "Tool execution completed",
                ];
                for (i, m) in steps.into_iter().enumerate() {
                    if i > 0 {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    call.ctx.notifier.log(mcp::LoggingLevel::Info, json!(m));
                }
                told("Tool with logging executed successfully")
            },
        )?
        .add_with_schema(
            "test_tool_with_progress",
            "Reports progress 0, 50, 100 (when the request has a progressToken)",
            no_arguments(),
            async |call: ToolCall| {
                for (i, step) in [0.0, 50.0, 100.0].into_iter().enumerate() {
                    if i > 0 {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    let message = format!("Completed {step} of 100");
                    call.ctx.notifier.progress(step, 100.0, message);
                }
                told("Progress reported")
            },
        )?
        .add_with_schema(
            "test_error_handling",
            "Always fails, reported in the result (isError)",
            no_arguments(),
            async |_: ToolCall| {
                let message = "This tool intentionally returns an error for testing";
                Ok(tool_input_error(message))
            },
        )?
        .add_with_schema(
            "test_logging_tool",
            "Logs one message, only when the request sets a logLevel",
            no_arguments(),
            async |call: ToolCall| {
                let logged = json!("test_logging_tool ran");
                call.ctx.notifier.log(mcp::LoggingLevel::Info, logged);
                told("Logged (if the request asked for a log level)")
            },
        )?
        .add_with_schema(
            "test_update_watched_resource",
            "Changes test://watched-resource, so that its subscribers are told (resources/updated)",
            no_arguments(),
            async |call: ToolCall| {
                let fixture = &call.ctx.state;
                let version = fixture.watched_version.fetch_add(1, Ordering::SeqCst) + 1;
                fixture.changes.send(Change::Resource(WATCHED_RESOURCE.into()));
                told(format!("{WATCHED_RESOURCE} is now at version {version}"))
            },
        )?
        .add_with_schema(
            "test_reconnection",
            "Ends a legacy client's connection before answering; the answer waits for it to reconnect",
            no_arguments(),
            async |call: ToolCall| {
                // A legacy client reads the answer on the stream it resumes; a modern one gets
                // it at once (its streams do not resume).
                call.ctx.notifier.end_connection();
                told("test_reconnection answered")
            },
        )?;
    let announcing = [
        (
            "test_trigger_tool_change",
            "tool",
            Change::Tools,
            "Tool list change announced",
        ),
        (
            "test_trigger_prompt_change",
            "prompt",
            Change::Prompts,
            "Prompt list change announced",
        ),
    ];
    let routes =
        announcing
            .into_iter()
            .try_fold(routes, |routes, (name, kind, change, answer)| {
                let description =
                    format!("Announces a {kind} list change to subscriptions/listen streams");
                routes.add_with_schema(name, &description, no_arguments(), move |call: ToolCall| {
                    call.ctx.state.changes.send(change.clone());
                    std::future::ready(told(answer))
                })
            })?;
    // A contact form in JSON Schema 2020-12: `$schema`, `$defs` with an `$anchor`, a `$ref`,
    // composition and conditional keywords, closed with `additionalProperties: false`. All of
    // it must reach the client unchanged (ToolInputSchema keeps undeclared members).
    let json_schema_2020_12 = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "$defs": {"address": {
            "$anchor": "postalAddress",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
        }},
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    });
    let routes = routes
        .add_with_schema(
            "json_schema_2020_12_tool",
            "Has a JSON Schema 2020-12 inputSchema ($schema, $defs, $ref)",
            json_schema_2020_12,
            async |call: ToolCall| {
                let args = serde_json::to_string(&call.params.arguments.unwrap_or_default());
                told(format!("Received: {}", args.unwrap_or_default()))
            },
        )?
        .add_with_schema(
            "test_custom_header",
            "Its region argument travels in the Mcp-Param-Region header too (x-mcp-header)",
            schema(
                json!({"region": {"type": "string", "x-mcp-header": "Region"}}),
                &["region"],
            ),
            async |call: ToolCall| {
                let region = string_arg(&call.params, "region").unwrap_or("(none)");
                told(format!("region={region}"))
            },
        )?
        .add_with_schema(
            "add_numbers",
            "Adds two numbers",
            schema(
                json!({"a": {"type": "number"}, "b": {"type": "number"}}),
                &["a", "b"],
            ),
            async |call: ToolCall| {
                let n = |k: &str| call.params.arguments.as_ref()?.get(k)?.as_f64();
                Ok(match (n("a"), n("b")) {
                    (Some(a), Some(b)) => {
                        tool_result(vec![text(format!("The sum of {a} and {b} is {}", a + b))])
                    }
                    _ => tool_input_error("add_numbers needs numbers a and b"),
                })
            },
        )?
        .add_with_schema(
            "greet",
            "Greets by name, always within the request (never a task)",
            schema(json!({"name": {"type": "string"}}), &["name"]),
            async |call: ToolCall| {
                let name = string_arg(&call.params, "name").unwrap_or("stranger");
                told(format!("Hello, {name}!"))
            },
        )?;
    let routes = crate::mrtr::tools(routes)?;
    let routes = crate::asking::tools(routes)?;
    crate::tasks::tools(routes)
}

// ----- prompts -----

/// `test_prompt_with_arguments`' arguments.
#[derive(Deserialize, schemars::JsonSchema)]
struct TwoArguments {
    /// First test argument
    arg1: String,
    /// Second test argument
    arg2: String,
}

/// `test_prompt_with_embedded_resource`'s argument.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ResourceArgument {
    /// URI of the resource to embed
    resource_uri: String,
}

/// No arguments.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct NoArguments {}

/// Every prompt, in the order `prompts/list` gives them.
pub fn prompts() -> Result<Prompts<Mcp, Ctx>, PromptError> {
    Prompts::new()
        .add(
            "test_simple_prompt",
            "A simple prompt without arguments",
            async |_: Get<Mcp, Ctx, NoArguments>| {
                let message = "This is a simple prompt for testing.";
                Ok(prompt_result(vec![user(text(message))]))
            },
        )?
        .add(
            "test_prompt_with_arguments",
            "A prompt with two required arguments",
            async |get: Get<Mcp, Ctx, TwoArguments>| {
                let TwoArguments { arg1, arg2 } = get.args;
                let message = format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'");
                Ok(prompt_result(vec![user(text(message))]))
            },
        )?
        .add(
            "test_prompt_with_embedded_resource",
            "A prompt that embeds a resource",
            async |get: Get<Mcp, Ctx, ResourceArgument>| {
                let content = "Embedded resource content for testing.";
                Ok(prompt_result(vec![
                    user(embedded(&get.args.resource_uri, "text/plain", content)),
                    user(text("Please process the embedded resource above.")),
                ]))
            },
        )?
        .add(
            "test_prompt_with_image",
            "A prompt with an image",
            async |_: Get<Mcp, Ctx, NoArguments>| {
                Ok(prompt_result(vec![
                    user(image()),
                    user(text("Please analyze the image above.")),
                ]))
            },
        )?
        .add(
            "test_input_required_result_prompt",
            "MRTR on prompts/get: asks for the context first",
            async |get: Get<Mcp, Ctx, NoArguments>| crate::mrtr::get_prompt(&get.ctx, &get.params),
        )
}

// ----- resources -----

/// The fixture resource that changes: `test_update_watched_resource` bumps its version. The
/// suite's `resources-subscribe` scenario subscribes to it.
pub const WATCHED_RESOURCE: &str = "test://watched-resource";

/// A resource of one content, which clients may cache for [`TTL_MS`].
fn cached(contents: mcp::EmbeddedResourceResource) -> mcp::ReadResourceResult {
    mcp::ReadResourceResult::new(mcp::CacheScope::Public, vec![contents], TTL_MS)
}

/// Every resource and template, in the order `resources/list` gives them (the skills' files
/// follow, served by `Served::skills`).
pub fn resources() -> Result<Resources<Mcp, Ctx>, ResourceError> {
    type R = Read<Mcp, Ctx>;
    Resources::new()
        .add(
            Entry::new("test://static-text", "static-text")
                .description("A static text resource")
                .mime_type("text/plain"),
            async |read: R| {
                let text = "This is the content of the static text resource.";
                Ok(cached(text_contents(read.uri(), "text/plain", text)))
            },
        )?
        .add(
            Entry::new("test://static-binary", "static-binary")
                .description("A static binary resource (PNG)")
                .mime_type("image/png"),
            async |read: R| {
                let blob = mcp::BlobResourceContents::new(PNG_BASE64, read.uri());
                Ok(cached(blob.with_mime_type("image/png").into()))
            },
        )?
        .add(
            Entry::new(WATCHED_RESOURCE, "watched-resource")
                .description(
                    "A text resource that changes when test_update_watched_resource is called",
                )
                .mime_type("text/plain"),
            |read: R| {
                let version = read.ctx.state.watched_version.load(Ordering::SeqCst);
                let text = format!("Watched resource, version {version}");
                let contents = text_contents(WATCHED_RESOURCE, "text/plain", &text);
                // It changes: a client re-reads it rather than keep a copy.
                let result =
                    mcp::ReadResourceResult::new(mcp::CacheScope::Public, vec![contents], 0u64);
                std::future::ready(Ok(result))
            },
        )?
        .template(
            Entry::new("test://template/{id}/data", "template-data")
                .description("Data for an id, substituted into the URI")
                .mime_type("application/json"),
            async |read: R| {
                let id = &read.vars["id"];
                let data =
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
                let contents = text_contents(read.uri(), "application/json", &data.to_string());
                Ok(cached(contents))
            },
        )
}

// ----- completion -----

/// The completions of an argument's value among the fixture's candidates.
pub fn complete(params: &mcp::CompleteRequestParams) -> mcp::CompleteResult {
    let arg = &params.argument;
    let candidates: &[&str] = match arg.name.as_str() {
        "arg1" => &["paris", "park", "party"],
        "arg2" => &["world", "wonder"],
        "id" => &["1", "2", "123"],
        _ => &[],
    };
    let values: Vec<String> = candidates
        .iter()
        .filter(|c| c.starts_with(&arg.value))
        .map(|c| (*c).to_owned())
        .collect();
    let total = values.len() as i64;
    mcp::CompleteResult::new(
        mcp::CompleteResultCompletion::new(values)
            .with_has_more(false)
            .with_total(total),
    )
}

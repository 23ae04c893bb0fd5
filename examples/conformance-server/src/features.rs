//! What the server offers: its capabilities, and its tools, prompts and resources on
//! `mcp_server`'s routers (each added with its own function), and completion. Everything is
//! built from the generated types.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use mcp_server::changes::Change;
use mcp_server::prompts::{PromptError, Prompts};
use mcp_server::resources::{Entry, Read, ResourceError, Resources};
use mcp_server::tools::{ToolError, Tools};
use serde::Deserialize;
use serde_json::json;

use crate::content::{prompt_result, schema, text, tool_input_error, tool_result, user};
use crate::rpc::{Ctx, ToolRoutes, prompt};
use crate::{Fixture, Mcp, mcp, result_meta};

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

/// A tool of no arguments answering `content`.
fn answers(
    routes: ToolRoutes,
    name: &str,
    description: &str,
    content: fn() -> Vec<mcp::ContentBlock>,
) -> Result<ToolRoutes, ToolError> {
    routes.plain(name, description, move |_, _| async move {
        Ok(tool_result(content()))
    })
}

/// A tool of no arguments that announces `change`.
fn announces(
    routes: ToolRoutes,
    name: &str,
    description: &str,
    change: Change,
    told: &'static str,
) -> Result<ToolRoutes, ToolError> {
    routes.plain(name, description, move |ctx: Ctx, _| {
        ctx.app.changes.send(change.clone());
        async move { Ok(tool_result(vec![text(told)])) }
    })
}

/// The argument `key` of a call, as a string.
pub fn string_arg<'a>(params: &'a mcp::CallToolRequestParams, key: &str) -> Option<&'a str> {
    params.arguments.as_ref()?.get(key)?.as_str()
}

// ----- tools -----

/// Every tool, in the order `tools/list` gives them: this module's, then those that ask the
/// client first (`mrtr`, `asking`), then those that run as tasks (`tasks`).
pub fn tools(app: &Arc<Fixture>) -> Result<Tools<Mcp, mcp_server::Ctx<Mcp>>, ToolError> {
    let routes = ToolRoutes {
        tools: Tools::new(),
        app: Arc::clone(app),
    };
    let routes = answers(
        routes,
        "test_simple_text",
        "Returns simple text content",
        || vec![text("This is a simple text response for testing.")],
    )?;
    let routes = answers(
        routes,
        "test_image_content",
        "Returns image content",
        || vec![image()],
    )?;
    let routes = answers(
        routes,
        "test_audio_content",
        "Returns audio content",
        || vec![mcp::AudioContent::new(WAV_BASE64, "audio/wav").into()],
    )?;
    let routes = answers(
        routes,
        "test_embedded_resource",
        "Returns an embedded resource",
        || {
            vec![embedded(
                "test://embedded-resource",
                "text/plain",
                "This is an embedded resource content.",
            )]
        },
    )?;
    let routes = answers(
        routes,
        "test_multiple_content_types",
        "Returns text, image and resource content",
        || {
            vec![
                text("Multiple content types test:"),
                image(),
                embedded(
                    "test://mixed-content-resource",
                    "application/json",
                    &json!({"test": "data", "value": 123}).to_string(),
                ),
            ]
        },
    )?;
    let routes = routes
        .plain(
            "test_tool_with_logging",
            "Sends three log messages (when the request sets a logLevel)",
            async |ctx, _| {
                let steps = [
                    "Tool execution started",
                    "Tool processing data",
                    "Tool execution completed",
                ];
                for (i, m) in steps.into_iter().enumerate() {
                    if i > 0 {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    ctx.notifier.log(mcp::LoggingLevel::Info, json!(m));
                }
                Ok(tool_result(vec![text("Tool with logging executed successfully")]))
            },
        )?
        .plain(
            "test_tool_with_progress",
            "Reports progress 0, 50, 100 (when the request has a progressToken)",
            async |ctx, _| {
                for (i, step) in [0.0, 50.0, 100.0].into_iter().enumerate() {
                    if i > 0 {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    ctx.notifier
                        .progress(step, 100.0, format!("Completed {step} of 100"));
                }
                Ok(tool_result(vec![text("Progress reported")]))
            },
        )?
        .plain(
            "test_error_handling",
            "Always fails, reported in the result (isError)",
            async |_, _| {
                Ok(tool_input_error(
                    "This tool intentionally returns an error for testing",
                ))
            },
        )?
        .plain(
            "test_logging_tool",
            "Logs one message, only when the request sets a logLevel",
            async |ctx, _| {
                ctx.notifier
                    .log(mcp::LoggingLevel::Info, json!("test_logging_tool ran"));
                Ok(tool_result(vec![text(
                    "Logged (if the request asked for a log level)",
                )]))
            },
        )?
        .plain(
            "test_update_watched_resource",
            "Changes test://watched-resource, so that its subscribers are told (resources/updated)",
            async |ctx, _| {
                let version = ctx.app.watched_version.fetch_add(1, Ordering::SeqCst) + 1;
                ctx.app
                    .changes
                    .send(Change::Resource(WATCHED_RESOURCE.into()));
                Ok(tool_result(vec![text(format!(
                    "{WATCHED_RESOURCE} is now at version {version}"
                ))]))
            },
        )?
        .plain(
            "test_reconnection",
            "Ends a legacy client's connection before answering; the answer waits for it to reconnect",
            async |ctx, _| {
                // A legacy client reads the answer on the stream it resumes; a modern one gets
                // it at once (its streams do not resume).
                ctx.notifier.end_connection();
                Ok(tool_result(vec![text("test_reconnection answered")]))
            },
        )?;
    let routes = announces(
        routes,
        "test_trigger_tool_change",
        "Announces a tool list change to subscriptions/listen streams",
        Change::Tools,
        "Tool list change announced",
    )?;
    let routes = announces(
        routes,
        "test_trigger_prompt_change",
        "Announces a prompt list change to subscriptions/listen streams",
        Change::Prompts,
        "Prompt list change announced",
    )?;
    // A contact form in JSON Schema 2020-12: `$schema`, `$defs` with an `$anchor`, a `$ref`,
    // composition and conditional keywords, closed with `additionalProperties: false`. All of
    // it must reach the client unchanged (ToolInputSchema keeps undeclared members).
    let mut json_schema_2020_12 = schema(
        json!({
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        }),
        &[],
    )
    .with_schema("https://json-schema.org/draft/2020-12/schema");
    for (k, v) in [
        (
            "$defs",
            json!({"address": {
                "$anchor": "postalAddress",
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
            }}),
        ),
        (
            "allOf",
            json!([{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}]),
        ),
        (
            "if",
            json!({"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]}),
        ),
        ("then", json!({"required": ["phone"]})),
        ("else", json!({"required": ["email"]})),
        ("additionalProperties", json!(false)),
    ] {
        json_schema_2020_12.extra.insert(k.to_owned(), v);
    }
    let routes = routes
        .tool(
            "json_schema_2020_12_tool",
            "Has a JSON Schema 2020-12 inputSchema ($schema, $defs, $ref)",
            json_schema_2020_12,
            async |_, params| {
                let args = serde_json::to_string(&params.arguments.unwrap_or_default());
                Ok(tool_result(vec![text(format!(
                    "Received: {}",
                    args.unwrap_or_default()
                ))]))
            },
        )?
        .tool(
            "test_custom_header",
            "Its region argument travels in the Mcp-Param-Region header too (x-mcp-header)",
            schema(
                json!({"region": {"type": "string", "x-mcp-header": "Region"}}),
                &["region"],
            ),
            async |_, params| {
                let region = string_arg(&params, "region").unwrap_or("(none)");
                Ok(tool_result(vec![text(format!("region={region}"))]))
            },
        )?
        .tool(
            "add_numbers",
            "Adds two numbers",
            schema(
                json!({"a": {"type": "number"}, "b": {"type": "number"}}),
                &["a", "b"],
            ),
            async |_, params| {
                let n = |k: &str| params.arguments.as_ref()?.get(k)?.as_f64();
                Ok(match (n("a"), n("b")) {
                    (Some(a), Some(b)) => {
                        tool_result(vec![text(format!("The sum of {a} and {b} is {}", a + b))])
                    }
                    _ => tool_input_error("add_numbers needs numbers a and b"),
                })
            },
        )?
        .tool(
            "greet",
            "Greets by name, always within the request (never a task)",
            schema(json!({"name": {"type": "string"}}), &["name"]),
            async |_, params| {
                let name = string_arg(&params, "name").unwrap_or("stranger");
                Ok(tool_result(vec![text(format!("Hello, {name}!"))]))
            },
        )?;
    let routes = crate::mrtr::tools(routes)?;
    let routes = crate::asking::tools(routes)?;
    Ok(crate::tasks::tools(routes)?.tools)
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
pub fn prompts(app: &Arc<Fixture>) -> Result<Prompts<Mcp, mcp_server::Ctx<Mcp>>, PromptError> {
    let prompts = prompt(
        Prompts::new(),
        app,
        "test_simple_prompt",
        "A simple prompt without arguments",
        async |_, _: NoArguments, _| {
            Ok(prompt_result(vec![user(text(
                "This is a simple prompt for testing.",
            ))]))
        },
    )?;
    let prompts = prompt(
        prompts,
        app,
        "test_prompt_with_arguments",
        "A prompt with two required arguments",
        async |_, a: TwoArguments, _| {
            Ok(prompt_result(vec![user(text(format!(
                "Prompt with arguments: arg1='{}', arg2='{}'",
                a.arg1, a.arg2
            )))]))
        },
    )?;
    let prompts = prompt(
        prompts,
        app,
        "test_prompt_with_embedded_resource",
        "A prompt that embeds a resource",
        async |_, a: ResourceArgument, _| {
            Ok(prompt_result(vec![
                user(embedded(
                    &a.resource_uri,
                    "text/plain",
                    "Embedded resource content for testing.",
                )),
                user(text("Please process the embedded resource above.")),
            ]))
        },
    )?;
    let prompts = prompt(
        prompts,
        app,
        "test_prompt_with_image",
        "A prompt with an image",
        async |_, _: NoArguments, _| {
            Ok(prompt_result(vec![
                user(image()),
                user(text("Please analyze the image above.")),
            ]))
        },
    )?;
    prompt(
        prompts,
        app,
        "test_input_required_result_prompt",
        "MRTR on prompts/get: asks for the context first",
        async |ctx, _: NoArguments, params| crate::mrtr::get_prompt(&ctx, &params),
    )
}

// ----- resources -----

/// The fixture resource that changes: `test_update_watched_resource` bumps its version. The
/// suite's `resources-subscribe` scenario subscribes to it.
pub const WATCHED_RESOURCE: &str = "test://watched-resource";

/// A resource of one content, which clients may cache for [`TTL_MS`].
fn cached(contents: mcp::EmbeddedResourceResource) -> mcp::ReadResourceResult {
    mcp::ReadResourceResult::new(vec![contents])
        .with_meta(result_meta())
        .with_cache_scope(mcp::CacheScope::Public)
        .with_ttl_ms(TTL_MS)
}

/// Every resource and template, in the order `resources/list` gives them (the skills' files
/// follow, served by `Served::skills`).
pub fn resources(
    app: &Arc<Fixture>,
) -> Result<Resources<Mcp, mcp_server::Ctx<Mcp>>, ResourceError> {
    type R = Read<Mcp, mcp_server::Ctx<Mcp>>;
    let watched = Arc::clone(app);
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
            move |_: R| {
                let version = watched.watched_version.load(Ordering::SeqCst);
                let text = format!("Watched resource, version {version}");
                let contents = text_contents(WATCHED_RESOURCE, "text/plain", &text);
                // It changes: a client re-reads it rather than keep a copy.
                let result = mcp::ReadResourceResult::new(vec![contents])
                    .with_meta(result_meta())
                    .with_cache_scope(mcp::CacheScope::Public)
                    .with_ttl_ms(0u64);
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
    .with_meta(result_meta())
}

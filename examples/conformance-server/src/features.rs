//! What the server offers: discovery, tools, prompts, resources, completion and the
//! `subscriptions/listen` stream (list changes, and the status of tasks). Everything is built
//! from the generated types.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use mcp_runtime::error_code::INVALID_PARAMS;
use mcp_runtime::extension::Extension as _;
use mcp_runtime::prelude::*;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use crate::content::{prompt_result, schema, text, tool, tool_input_error, tool_result, user};
use crate::rpc::{Ctx, Refused, answer, to_json};
use crate::{App, MODERN_VERSIONS, Mcp, mcp, mrtr, result_meta, tasks};
use mcp_runtime::RpcError;
use mcp_server::changes::Change;
use mcp_server::listen::{Filter, Follow, Followed, Offered, Stream};

/// 1x1 red PNG.
pub const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A minimal WAV file.
pub const WAV_BASE64: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// How long clients may cache lists and resources: none of them depends on who asks.
const LIST_TTL_MS: u64 = 60_000;
const DISCOVER_TTL_MS: u64 = 300_000;

/// Answers one request (all but `subscriptions/listen`, which [`listen`] streams).
/// The response as JSON text.
pub async fn dispatch(ctx: Ctx, request: mcp::ClientRequest) -> Result<String, Refused> {
    use mcp::ClientRequest as C;
    match request {
        C::DiscoverRequest(r) => to_json(&r.respond(discover())),
        C::ListToolsRequest(r) => to_json(
            &r.respond(
                mcp::ListToolsResult::new(mcp::CacheScope::Public, tools(), LIST_TTL_MS)
                    .with_meta(result_meta()),
            ),
        ),
        C::CallToolRequest(r) => answer(&ctx.id, &r, call_tool(&ctx, &r).await),
        C::ListPromptsRequest(r) => to_json(
            &r.respond(
                mcp::ListPromptsResult::new(mcp::CacheScope::Public, prompts(), LIST_TTL_MS)
                    .with_meta(result_meta()),
            ),
        ),
        C::GetPromptRequest(r) => answer(&ctx.id, &r, get_prompt(&ctx, &r)),
        C::ListResourcesRequest(r) => to_json(
            &r.respond(
                mcp::ListResourcesResult::new(mcp::CacheScope::Public, resources(), LIST_TTL_MS)
                    .with_meta(result_meta()),
            ),
        ),
        C::ListResourceTemplatesRequest(r) => {
            let template = mcp::ResourceTemplate::new("template-data", "test://template/{id}/data")
                .with_description("Data for an id, substituted into the URI")
                .with_mime_type("application/json");
            to_json(
                &r.respond(
                    mcp::ListResourceTemplatesResult::new(
                        mcp::CacheScope::Public,
                        vec![template],
                        LIST_TTL_MS,
                    )
                    .with_meta(result_meta()),
                ),
            )
        }
        C::ReadResourceRequest(r) => answer(&ctx.id, &r, read_resource(&ctx, &r).map(Into::into)),
        C::CompleteRequest(r) => to_json(&r.respond(complete(&r))),
        C::SubscriptionsListenRequest(_) => Err(ctx.fail(RpcError::internal_error(
            "subscriptions/listen is streamed, not dispatched",
        ))),
    }
}

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
        .with_tools(mcp::ServerCapabilitiesTools::new().with_list_changed(true))
        .with_extensions(
            [(mcp::TasksExtension::ID.to_owned(), mcp::JSONObject::new())]
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>(),
        );
    crate::skills::declare(&mut capabilities);
    capabilities
}

fn discover() -> mcp::DiscoverResult {
    let capabilities = capabilities();
    let versions: Vec<String> = MODERN_VERSIONS.iter().map(|v| (*v).to_owned()).collect();
    mcp::DiscoverResult::new(
        mcp::CacheScope::Public,
        capabilities,
        versions,
        DISCOVER_TTL_MS,
    )
    .with_meta(result_meta())
    .with_instructions(INSTRUCTIONS)
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

// ----- tools -----

/// The tools, always in this order.
pub(crate) fn tools() -> Vec<mcp::Tool> {
    let none = || schema(json!({}), &[]);
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
    let mut tools = vec![
        tool("test_simple_text", "Returns simple text content", none()),
        tool("test_image_content", "Returns image content", none()),
        tool("test_audio_content", "Returns audio content", none()),
        tool(
            "test_embedded_resource",
            "Returns an embedded resource",
            none(),
        ),
        tool(
            "test_multiple_content_types",
            "Returns text, image and resource content",
            none(),
        ),
        tool(
            "test_tool_with_logging",
            "Sends three log messages (when the request sets a logLevel)",
            none(),
        ),
        tool(
            "test_tool_with_progress",
            "Reports progress 0, 50, 100 (when the request has a progressToken)",
            none(),
        ),
        tool(
            "test_error_handling",
            "Always fails, reported in the result (isError)",
            none(),
        ),
        tool(
            "test_missing_capability",
            "Needs the client's sampling capability (MissingRequiredClientCapability without it)",
            none(),
        ),
        tool(
            "test_streaming_elicitation",
            "Asks for input through an InputRequiredResult, never a request on the stream",
            none(),
        ),
        tool(
            "test_logging_tool",
            "Logs one message, only when the request sets a logLevel",
            none(),
        ),
        tool(
            "test_update_watched_resource",
            "Changes test://watched-resource, so that its subscribers are told (resources/updated)",
            none(),
        ),
        tool(
            "test_reconnection",
            "Ends a legacy client's connection before answering; the answer waits for it to reconnect",
            none(),
        ),
        tool(
            "test_trigger_tool_change",
            "Announces a tool list change to subscriptions/listen streams",
            none(),
        ),
        tool(
            "test_trigger_prompt_change",
            "Announces a prompt list change to subscriptions/listen streams",
            none(),
        ),
        tool(
            "test_input_required_result_elicitation",
            "MRTR: asks the user's name (elicitation)",
            none(),
        ),
        tool(
            "test_input_required_result_sampling",
            "MRTR: asks the client's LLM (sampling)",
            none(),
        ),
        tool(
            "test_input_required_result_list_roots",
            "MRTR: asks for the client's roots",
            none(),
        ),
        tool(
            "test_input_required_result_request_state",
            "MRTR: confirmation with sealed requestState",
            none(),
        ),
        tool(
            "test_input_required_result_multiple_inputs",
            "MRTR: elicitation, sampling and roots in one round",
            none(),
        ),
        tool(
            "test_input_required_result_multi_round",
            "MRTR: two rounds, requestState evolving",
            none(),
        ),
        tool(
            "test_input_required_result_tampered_state",
            "MRTR: rejects a requestState that fails verification",
            none(),
        ),
        tool(
            "test_input_required_result_capabilities",
            "MRTR: asks only for what the client's capabilities allow",
            none(),
        ),
        tool(
            "json_schema_2020_12_tool",
            "Has a JSON Schema 2020-12 inputSchema ($schema, $defs, $ref)",
            json_schema_2020_12,
        ),
        tool(
            "test_custom_header",
            "Its region argument travels in the Mcp-Param-Region header too (x-mcp-header)",
            schema(
                json!({"region": {"type": "string", "x-mcp-header": "Region"}}),
                &["region"],
            ),
        ),
        tool(
            "add_numbers",
            "Adds two numbers",
            schema(
                json!({"a": {"type": "number"}, "b": {"type": "number"}}),
                &["a", "b"],
            ),
        ),
        tool(
            "greet",
            "Greets by name, always within the request (never a task)",
            schema(json!({"name": {"type": "string"}}), &["name"]),
        ),
    ];
    tools.extend(crate::asking::tools());
    tools.extend(tasks::tools::tools());
    tools
}

/// The arguments of `tool` that a client mirrors into `Mcp-Param-{Name}` headers
/// (`x-mcp-header` in the tool's input schema, at any depth of `properties`).
pub fn mirrored_params(tool: &str) -> Vec<mcp_runtime::param_headers::ParamHeader> {
    tools()
        .into_iter()
        .find(|t| t.name == tool)
        .and_then(|t| mcp_runtime::param_headers::annotations(&t.input_schema.extra).ok())
        .unwrap_or_default()
}

async fn call_tool(ctx: &Ctx, r: &mcp::CallToolRequest) -> Result<mcp::CallToolOutcome, RpcError> {
    let p = &r.params;
    // Borrowed: a large request's arguments are never copied.
    let no_arguments = serde_json::Map::new();
    let args = p.arguments.as_ref().unwrap_or(&no_arguments);
    Ok(match p.name.as_str() {
        "test_simple_text" => {
            tool_result(vec![text("This is a simple text response for testing.")])
        }
        "test_image_content" => tool_result(vec![image()]),
        "test_audio_content" => {
            tool_result(vec![mcp::AudioContent::new(WAV_BASE64, "audio/wav").into()])
        }
        "test_embedded_resource" => tool_result(vec![embedded(
            "test://embedded-resource",
            "text/plain",
            "This is an embedded resource content.",
        )]),
        "test_multiple_content_types" => tool_result(vec![
            text("Multiple content types test:"),
            image(),
            embedded(
                "test://mixed-content-resource",
                "application/json",
                &json!({"test": "data", "value": 123}).to_string(),
            ),
        ]),
        "test_tool_with_logging" => {
            for (i, m) in [
                "Tool execution started",
                "Tool processing data",
                "Tool execution completed",
            ]
            .into_iter()
            .enumerate()
            {
                if i > 0 {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                ctx.notifier.log(mcp::LoggingLevel::Info, json!(m));
            }
            tool_result(vec![text("Tool with logging executed successfully")])
        }
        "test_tool_with_progress" => {
            for (i, step) in [0.0, 50.0, 100.0].into_iter().enumerate() {
                if i > 0 {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                ctx.notifier
                    .progress(step, 100.0, format!("Completed {step} of 100"));
            }
            tool_result(vec![text("Progress reported")])
        }
        "test_error_handling" => mcp::CallToolResult::new(vec![text(
            "This tool intentionally returns an error for testing",
        )])
        .with_meta(result_meta())
        .with_is_error(true)
        .into(),
        "test_logging_tool" => {
            ctx.notifier
                .log(mcp::LoggingLevel::Info, json!("test_logging_tool ran"));
            tool_result(vec![text("Logged (if the request asked for a log level)")])
        }
        "test_update_watched_resource" => {
            let version = ctx.app.watched_version.fetch_add(1, Ordering::SeqCst) + 1;
            ctx.app
                .changes
                .send(Change::Resource(WATCHED_RESOURCE.into()));
            tool_result(vec![text(format!(
                "{WATCHED_RESOURCE} is now at version {version}"
            ))])
        }
        "test_reconnection" => {
            // A legacy client reads the answer on the stream it resumes; a modern one gets it
            // at once (its streams do not resume).
            ctx.notifier.end_connection();
            tool_result(vec![text("test_reconnection answered")])
        }
        "test_trigger_tool_change" => {
            ctx.app.changes.send(Change::Tools);
            tool_result(vec![text("Tool list change announced")])
        }
        "test_trigger_prompt_change" => {
            ctx.app.changes.send(Change::Prompts);
            tool_result(vec![text("Prompt list change announced")])
        }
        "json_schema_2020_12_tool" => tool_result(vec![text(format!(
            "Received: {}",
            serde_json::to_string(args).unwrap_or_default()
        ))]),
        "test_custom_header" => tool_result(vec![text(format!(
            "region={}",
            args.get("region")
                .and_then(Value::as_str)
                .unwrap_or("(none)")
        ))]),
        "add_numbers" => {
            let n = |k: &str| args.get(k).and_then(Value::as_f64);
            match (n("a"), n("b")) {
                (Some(a), Some(b)) => {
                    tool_result(vec![text(format!("The sum of {a} and {b} is {}", a + b))])
                }
                _ => tool_input_error("add_numbers needs numbers a and b"),
            }
        }
        "greet" => tool_result(vec![text(format!(
            "Hello, {}!",
            args.get("name")
                .and_then(Value::as_str)
                .unwrap_or("stranger")
        ))]),
        name if mrtr::is_mrtr_tool(name) => mrtr::call_tool(ctx, r)?,
        name if crate::asking::is_asking_tool(name) => crate::asking::call_tool(ctx, r)?,
        name if tasks::tools::is_task_tool(name) => tasks::tools::call_tool(ctx, r).await?,
        other => {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!("Unknown tool: {other}"),
            ));
        }
    })
}

// ----- prompts -----

fn argument(name: &str, description: &str) -> mcp::PromptArgument {
    mcp::PromptArgument::new(name)
        .with_description(description)
        .with_required(true)
}

fn prompt(name: &str, description: &str, arguments: Vec<mcp::PromptArgument>) -> mcp::Prompt {
    let prompt = mcp::Prompt::new(name).with_description(description);
    if arguments.is_empty() {
        prompt
    } else {
        prompt.with_arguments(arguments)
    }
}

fn prompts() -> Vec<mcp::Prompt> {
    vec![
        prompt(
            "test_simple_prompt",
            "A simple prompt without arguments",
            vec![],
        ),
        prompt(
            "test_prompt_with_arguments",
            "A prompt with two required arguments",
            vec![
                argument("arg1", "First test argument"),
                argument("arg2", "Second test argument"),
            ],
        ),
        prompt(
            "test_prompt_with_embedded_resource",
            "A prompt that embeds a resource",
            vec![argument("resourceUri", "URI of the resource to embed")],
        ),
        prompt("test_prompt_with_image", "A prompt with an image", vec![]),
        prompt(
            "test_input_required_result_prompt",
            "MRTR on prompts/get: asks for the context first",
            vec![],
        ),
    ]
}

fn get_prompt(ctx: &Ctx, r: &mcp::GetPromptRequest) -> Result<mcp::GetPromptOutcome, RpcError> {
    let p = &r.params;
    let arg = |name: &str| -> Result<String, RpcError> {
        p.arguments
            .as_ref()
            .and_then(|a| a.get(name))
            .cloned()
            .ok_or_else(|| {
                RpcError::new(
                    INVALID_PARAMS,
                    format!("Prompt {:?} needs the argument {name:?}", p.name),
                )
            })
    };
    Ok(match p.name.as_str() {
        "test_simple_prompt" => {
            prompt_result(vec![user(text("This is a simple prompt for testing."))])
        }
        "test_prompt_with_arguments" => {
            let (a1, a2) = (arg("arg1")?, arg("arg2")?);
            prompt_result(vec![user(text(format!(
                "Prompt with arguments: arg1='{a1}', arg2='{a2}'"
            )))])
        }
        "test_prompt_with_embedded_resource" => {
            let uri = arg("resourceUri")?;
            prompt_result(vec![
                user(embedded(
                    &uri,
                    "text/plain",
                    "Embedded resource content for testing.",
                )),
                user(text("Please process the embedded resource above.")),
            ])
        }
        "test_prompt_with_image" => prompt_result(vec![
            user(image()),
            user(text("Please analyze the image above.")),
        ]),
        "test_input_required_result_prompt" => mrtr::get_prompt(ctx, r)?,
        other => {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!("Unknown prompt: {other}"),
            ));
        }
    })
}

// ----- resources -----

/// The fixture resource that changes: `test_update_watched_resource` bumps its version. The
/// suite's `resources-subscribe` scenario subscribes to it.
pub const WATCHED_RESOURCE: &str = "test://watched-resource";

/// The resources whose content changes, the only ones an update can be sent for: a
/// subscription to any other resource has nothing to report and is not kept.
const CHANGING_RESOURCES: &[&str] = &[WATCHED_RESOURCE];

/// `uri` as one of [`CHANGING_RESOURCES`], if it is one.
pub fn changing_resource(uri: &str) -> Option<&'static str> {
    CHANGING_RESOURCES.iter().copied().find(|u| *u == uri)
}

fn resource(uri: &str, name: &str, description: &str, mime: &str) -> mcp::Resource {
    mcp::Resource::new(name, uri)
        .with_description(description)
        .with_mime_type(mime)
}

fn resources() -> Vec<mcp::Resource> {
    let fixtures = [
        resource(
            "test://static-text",
            "static-text",
            "A static text resource",
            "text/plain",
        ),
        resource(
            "test://static-binary",
            "static-binary",
            "A static binary resource (PNG)",
            "image/png",
        ),
        resource(
            WATCHED_RESOURCE,
            "watched-resource",
            "A text resource that changes when test_update_watched_resource is called",
            "text/plain",
        ),
    ];
    fixtures
        .into_iter()
        .chain(crate::skills::resources())
        .collect()
}

fn read_resource(
    ctx: &Ctx,
    r: &mcp::ReadResourceRequest,
) -> Result<mcp::ReadResourceResult, RpcError> {
    let uri = r.params.uri.as_str();
    let contents = match uri {
        "test://static-text" => text_contents(
            uri,
            "text/plain",
            "This is the content of the static text resource.",
        ),
        "test://static-binary" => mcp::BlobResourceContents::new(PNG_BASE64, uri)
            .with_mime_type("image/png")
            .into(),
        WATCHED_RESOURCE => {
            let version = ctx.app.watched_version.load(Ordering::SeqCst);
            let result = mcp::ReadResourceResult::new(vec![text_contents(
                uri,
                "text/plain",
                &format!("Watched resource, version {version}"),
            )]);
            // It changes: a client re-reads it rather than keep a copy.
            return Ok(result
                .with_meta(result_meta())
                .with_cache_scope(mcp::CacheScope::Public)
                .with_ttl_ms(0u64));
        }
        _ => match uri
            .strip_prefix("test://template/")
            .and_then(|rest| rest.strip_suffix("/data"))
            .filter(|id| !id.is_empty() && !id.contains('/'))
        {
            Some(id) => text_contents(
                uri,
                "application/json",
                &json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                    .to_string(),
            ),
            None => {
                return crate::skills::read(uri).ok_or_else(|| {
                    RpcError::new(INVALID_PARAMS, "Resource not found")
                        .with_data(json!({"uri": uri}))
                        .means(mcp_runtime::era::RESOURCE_NOT_FOUND)
                });
            }
        },
    };
    Ok(mcp::ReadResourceResult::new(vec![contents])
        .with_meta(result_meta())
        .with_cache_scope(mcp::CacheScope::Public)
        .with_ttl_ms(LIST_TTL_MS))
}

// ----- completion -----

fn complete(r: &mcp::CompleteRequest) -> mcp::CompleteResult {
    let arg = &r.params.argument;
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

// ----- subscriptions/listen -----

/// Opens a `subscriptions/listen` stream, served by `mcp_server::listen` from the server's
/// changes: list changes of tools and prompts (no resource list changes here: the list never
/// changes), updates of the listed resources (only the watched one ever changes; other URIs
/// are not followed), and the status of the tasks the filter names ([`FollowedTasks`]). Task
/// ids are honoured for the principal's own live tasks, and only when the request advertised
/// the tasks extension (`MISSING_REQUIRED_CLIENT_CAPABILITY` otherwise). Bounded by
/// `--listen-queue` (`mcp_server::listen` says how).
pub fn listen(
    app: Arc<App>,
    principal: String,
    meta: &mcp::RequestMetaObject,
    request: mcp::SubscriptionsListenRequest,
) -> Result<mcp_server::listen::Messages, Refused> {
    let asked = &request.params.notifications;
    let task_ids = asked.task_ids.clone().unwrap_or_default();
    if !task_ids.is_empty() && tasks::Proof::check(&meta.client_capabilities).is_none() {
        let missing = RpcError::missing_extension::<mcp::TasksExtension>();
        return Err(Refused::new(Some(&request.id), missing));
    }
    let filter = Filter {
        tools_list_changed: asked.tools_list_changed == Some(true),
        prompts_list_changed: asked.prompts_list_changed == Some(true),
        resources_list_changed: asked.resources_list_changed == Some(true),
        resource_subscriptions: asked.resource_subscriptions.clone(),
        extensions: serde_json::Map::new(),
    };
    let offered = Offered {
        tools_list_changed: true,
        prompts_list_changed: true,
        resources_list_changed: false,
        subscribe: true,
    };
    let listed = resources();
    let honoured = filter.honoured(&offered, |uri| listed.iter().any(|r| r.uri == uri));
    // Subscribed to the tasks before they are looked up: a change made meanwhile is heard.
    let follow = FollowedTasks {
        updates: app.tasks.subscribe(),
        asked: asked.task_ids.is_some(),
        task_ids,
        followed: Vec::new(),
        subscription: request.id.clone(),
        principal,
        app: Arc::clone(&app),
    };
    let stream = Stream::<Mcp>::new(request.id, honoured, app.config.listen_queue);
    Ok(stream
        .identified(&result_meta())
        .open_following(&app.changes, follow))
}

/// The status of the tasks a listen stream follows (`notifications/tasks`): the
/// principal's own, among those its filter names, looked up in the task store (which may be
/// another process's) before the acknowledgement.
struct FollowedTasks {
    app: Arc<App>,
    principal: String,
    subscription: mcp::RequestId,
    /// Whether the filter named task ids at all (then the acknowledgement says which).
    asked: bool,
    task_ids: Vec<String>,
    followed: Vec<String>,
    updates: broadcast::Receiver<mcp_server::tasks::Update<mcp::DetailedTask>>,
}

impl Follow for FollowedTasks {
    async fn start(&mut self, honoured: &mut Filter) -> Result<(), String> {
        if !self.task_ids.is_empty() {
            self.followed = match self.app.tasks.known(&self.principal, &self.task_ids).await {
                Ok(followed) => followed,
                Err(e) => {
                    let error = tasks::unavailable_after(&e);
                    return Err(Refused::new(Some(&self.subscription), error).text());
                }
            };
        }
        if self.asked {
            let mut told = mcp::SubscriptionFilter::new();
            told.task_ids = Some(self.followed.clone());
            if let Ok(Value::Object(members)) = serde_json::to_value(&told) {
                honoured.extensions.extend(members);
            }
        }
        Ok(())
    }

    async fn next(&mut self) -> Followed {
        match self.updates.recv().await {
            Ok(u) if u.principal == self.principal && self.followed.contains(&u.task.task_id) => {
                let tag = mcp::NotificationMetaObject::new()
                    .with_subscription_id(self.subscription.clone());
                to_json(&tasks::notification(&u.task, tag)).map_or(Followed::Skip, Followed::Note)
            }
            Ok(_) => Followed::Skip,
            Err(broadcast::error::RecvError::Lagged(n)) => Followed::Missed(n),
            Err(broadcast::error::RecvError::Closed) => Followed::Ended,
        }
    }
}

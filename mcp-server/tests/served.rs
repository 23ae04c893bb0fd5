//! A server written as the generated service trait (`Builder::server`), served by
//! `mcp_server::Served`: its one method answers a modern request and a legacy session's,
//! the methods it does not implement answer `-32601`.

use std::sync::Arc;

use axum::http::StatusCode;
use mcp_runtime::Response;
use mcp_server::{Ctx, Served};
use mcp_tests::eras as mcp;
use serde_json::{Value, json};

mod support;
use support::{modern, send};

mcp_server::bind!(Mcp = mcp, legacy = mcp::v2025_11_25);
mcp_server::bind_server!(Mcp = mcp);

/// One tool, `greet`, and nothing else.
struct Greeter;

impl mcp::Server<Ctx<Mcp>> for Greeter {
    async fn call_tool(
        &self,
        ctx: Ctx<Mcp>,
        params: &mcp::CallToolRequestParams,
    ) -> Response<mcp::CallToolRequest> {
        if params.name != "greet" {
            let unknown = format!("Unknown tool: {}", params.name);
            return Err(mcp_runtime::RpcError::invalid_params(unknown));
        }
        let text = format!("Hello, {} ({:?})", ctx.principal, ctx.era);
        let content = vec![mcp::TextContent::new(text).into()];
        Ok(mcp::CallToolResult::new(content).into())
    }
}

fn app() -> axum::Router {
    let info = mcp::Implementation::new("greeter", "1.0.0");
    let tools = mcp::ServerCapabilitiesTools::new();
    let capabilities = mcp::ServerCapabilities::new().with_tools(tools);
    let served = Served::<Mcp, _>::new(Greeter, info)
        .capabilities(capabilities)
        .instructions("Say hello.");
    mcp_server::served::router(Arc::new(served)).unwrap()
}

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}})
}

#[tokio::test]
async fn the_implemented_method_answers_a_modern_request() {
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "greet", "_meta": meta()}});
    let (status, _, answer) = send(&app(), modern(&call, Some("greet"))).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["id"], 1);
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "Hello, anonymous (Modern)"
    );
    assert_eq!(answer["result"]["resultType"], "complete");

    let other = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "wave", "_meta": meta()}});
    let (_, _, refused) = send(&app(), modern(&other, Some("wave"))).await;
    assert_eq!(refused["id"], 2);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
}

#[tokio::test]
async fn a_method_not_implemented_is_not_found() {
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "prompts/list",
        "params": {"_meta": meta()}});
    let (_, _, refused) = send(&app(), modern(&list, None)).await;
    assert_eq!(refused["id"], 3);
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
    assert_eq!(
        refused["error"]["message"],
        "Method not found: prompts/list"
    );
}

#[tokio::test]
async fn the_same_method_answers_a_legacy_session() {
    let app = app();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}});
    let (status, session, opened) =
        send(&app, support::legacy("POST", None, Some(&initialize))).await;
    assert_eq!(status, StatusCode::OK, "{opened}");
    assert_eq!(opened["result"]["serverInfo"]["name"], "greeter");
    assert_eq!(opened["result"]["instructions"], "Say hello.");
    assert!(
        opened["result"]["capabilities"]["tools"].is_object(),
        "{opened}"
    );
    let session = session.expect("a session id");

    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "greet"}});
    let (status, _, answer) =
        send(&app, support::legacy("POST", Some(&session), Some(&call))).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "Hello, anonymous (Legacy)"
    );
    assert!(
        answer["result"].get("resultType").is_none(),
        "a 2025-11-25 result: {answer}"
    );
}

#[tokio::test]
async fn discover_is_answered_from_what_served_holds() {
    let discover = json!({"jsonrpc": "2.0", "id": 4, "method": "server/discover",
        "params": {"_meta": meta()}});
    let (status, _, answer) = send(&app(), modern(&discover, None)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["result"]["supportedVersions"], json!(["2026-07-28"]));
    assert!(
        answer["result"]["capabilities"]["tools"].is_object(),
        "{answer}"
    );
    assert_eq!(answer["result"]["instructions"], "Say hello.");
    // The identity given to `Served::new`, where 2026-07-28 asks for it.
    assert_eq!(
        answer["result"]["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({"name": "greeter", "version": "1.0.0"}),
        "{answer}"
    );
}

#[tokio::test]
async fn every_modern_result_names_the_server_and_a_legacy_one_does_not() {
    // A result of the server's own method, and one of a router.
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "greet", "_meta": meta()}});
    let (_, _, answer) = send(&app(), modern(&call, Some("greet"))).await;
    assert_eq!(
        answer["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "greeter",
        "{answer}"
    );
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list",
        "params": {"_meta": meta()}});
    let (_, _, listed) = send(&calculator(), modern(&list, None)).await;
    assert_eq!(
        listed["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "calculator",
        "{listed}"
    );
    // An error has no result to name it in.
    let other = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "wave", "_meta": meta()}});
    let (_, _, refused) = send(&app(), modern(&other, Some("wave"))).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(refused.get("result").is_none(), "{refused}");

    // A legacy session was told at initialize (`serverInfo`): its results carry no modern
    // `_meta` member.
    let app = app();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}});
    let (_, session, _) = send(&app, support::legacy("POST", None, Some(&initialize))).await;
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "greet"}});
    let session = session.expect("a session id");
    let (_, _, answer) = send(&app, support::legacy("POST", Some(&session), Some(&call))).await;
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "Hello, anonymous (Legacy)"
    );
    assert!(
        answer["result"]["_meta"]
            .get("io.modelcontextprotocol/serverInfo")
            .is_none(),
        "{answer}"
    );
}

#[tokio::test]
async fn the_same_server_answers_on_stdio_in_both_eras() {
    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
    let info = mcp::Implementation::new("greeter", "1.0.0");
    let served = Arc::new(Served::<Mcp, _>::new(Greeter, info));
    let endpoint = mcp_server::served::stdio_endpoint(Arc::clone(&served)).unwrap();
    let (mut input, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, output) = tokio::io::duplex(1 << 16);
    let config = Arc::clone(served.bounds());
    tokio::spawn(async move {
        mcp_server::stdio::serve(server_input, server_output, endpoint, &config).await
    });
    let mut lines = BufReader::new(output).lines();
    let mut ask = async |message: Value| {
        input
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
        let line = lines.next_line().await.unwrap().unwrap();
        serde_json::from_str::<Value>(&line).unwrap()
    };
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "greet", "_meta": meta()}});
    let modern = ask(call).await;
    assert_eq!(
        modern["result"]["content"][0]["text"], "Hello, stdio (Modern)",
        "{modern}"
    );
    let initialize = json!({"jsonrpc": "2.0", "id": 2, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}});
    let opened = ask(initialize).await;
    assert_eq!(
        opened["result"]["serverInfo"]["name"], "greeter",
        "{opened}"
    );
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "greet"}});
    let legacy = ask(call).await;
    assert_eq!(
        legacy["result"]["content"][0]["text"], "Hello, stdio (Legacy)",
        "{legacy}"
    );
    assert!(legacy["result"].get("resultType").is_none(), "{legacy}");
}

/// The arguments of the tool `add`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    /// The first term.
    a: i64,
    /// The second term.
    b: i64,
}

/// A server whose only methods are its tools: `add`, and `divide`, which fails on zero.
fn calculator() -> axum::Router {
    use mcp_server::tools::{Call, ToolFailed, Tools};
    type Tools_ = Tools<Mcp, Ctx<Mcp>>;
    let tools = Tools_::new()
        .add(
            "add",
            "Adds two integers",
            async |call: Call<Mcp, _, Add>| Ok((call.args.a + call.args.b).to_string()),
        )
        .unwrap()
        .add(
            "divide",
            "Divides a by b",
            async |call: Call<Mcp, _, Add>| {
                Ok(match call.args.b {
                    0 => Err(ToolFailed("division by zero".into())),
                    b => Ok((call.args.a / b).to_string()),
                })
            },
        )
        .unwrap();
    let info = mcp::Implementation::new("calculator", "1.0.0");
    let served = Served::<Mcp, _>::new((), info).tools(tools);
    mcp_server::served::router(Arc::new(served)).unwrap()
}

fn call(id: i64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": arguments, "_meta": meta()}})
}

#[tokio::test]
async fn tools_are_listed_with_their_schema_and_called_by_name() {
    let app = calculator();
    let list =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}});
    let (_, _, listed) = send(&app, modern(&list, None)).await;
    let tools = listed["result"]["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 2, "{listed}");
    assert_eq!(tools[0]["name"], "add");
    assert_eq!(tools[0]["description"], "Adds two integers");
    let schema = &tools[0]["inputSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["properties"]["a"]["description"], "The first term.");
    assert_eq!(schema["required"], json!(["a", "b"]));

    let (_, _, sum) = send(
        &app,
        modern(&call(2, "add", json!({"a": 2, "b": 3})), Some("add")),
    )
    .await;
    assert_eq!(sum["result"]["content"][0]["text"], "5", "{sum}");
    assert!(sum["result"].get("isError").is_none(), "{sum}");

    let discover = json!({"jsonrpc": "2.0", "id": 3, "method": "server/discover",
        "params": {"_meta": meta()}});
    let (_, _, discovered) = send(&app, modern(&discover, None)).await;
    assert!(
        discovered["result"]["capabilities"]["tools"].is_object(),
        "{discovered}"
    );
}

#[tokio::test]
async fn arguments_that_do_not_fit_are_a_tool_error_and_an_unknown_tool_a_protocol_error() {
    let app = calculator();
    let wrong = call(1, "add", json!({"a": "two", "b": 3}));
    let (_, _, answer) = send(&app, modern(&wrong, Some("add"))).await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("Invalid arguments for tool add: "),
        "{text}"
    );

    let by_zero = call(3, "divide", json!({"a": 2, "b": 0}));
    let (_, _, failed) = send(&app, modern(&by_zero, Some("divide"))).await;
    assert_eq!(failed["result"]["isError"], true, "{failed}");
    assert_eq!(failed["result"]["content"][0]["text"], "division by zero");
    let halved = call(4, "divide", json!({"a": 8, "b": 2}));
    let (_, _, quotient) = send(&app, modern(&halved, Some("divide"))).await;
    assert_eq!(quotient["result"]["content"][0]["text"], "4", "{quotient}");

    let unknown = call(2, "multiply", json!({"a": 2, "b": 3}));
    let (_, _, refused) = send(&app, modern(&unknown, Some("multiply"))).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["message"], "Unknown tool: multiply");
}

/// The arguments of the prompt `greeting`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Greeting {
    /// Whom to greet.
    name: String,
    /// How, e.g. "warmly".
    style: Option<String>,
}

/// A server whose only methods are its prompt `greeting`, its resource `notes://today` and its
/// template `users://{id}/profile`.
fn library() -> axum::Router {
    library_with(mcp_server::Config::default())
}

/// [`library`] with `config`.
fn library_with(config: mcp_server::Config) -> axum::Router {
    use mcp_server::prompts::{Get, Prompts};
    use mcp_server::resources::{Entry, Read, Resources};
    let prompts = Prompts::<Mcp, Ctx<Mcp>>::new()
        .add(
            "greeting",
            "Greets someone",
            async |get: Get<Mcp, _, Greeting>| {
                let style = get.args.style.unwrap_or_else(|| "plainly".into());
                Ok(format!("Greet {} {style}.", get.args.name))
            },
        )
        .unwrap();
    let today = Entry::new("notes://today", "today").mime_type("text/markdown");
    let profile = Entry::new("users://{id}/profile", "profile").description("A user's profile");
    let resources = Resources::<Mcp, Ctx<Mcp>>::new()
        .add(today, async |_: Read<Mcp, _>| Ok("# Today"))
        .unwrap()
        .template(profile, async |read: Read<Mcp, _>| {
            Ok(format!("user {} at {}", read.vars["id"], read.uri()))
        })
        .unwrap();
    let info = mcp::Implementation::new("library", "1.0.0");
    let served = Served::<Mcp, _>::new((), info)
        .config(config)
        .prompts(prompts)
        .resources(resources);
    mcp_server::served::router(Arc::new(served)).unwrap()
}

#[tokio::test]
async fn a_uri_over_the_configured_bound_is_refused_before_any_matching() {
    let app = library_with(mcp_server::Config::default().max_uri_bytes(32));
    let read = |id, uri: &str| request(id, "resources/read", json!({ "uri": uri }));
    let within = "users://ada/profile";
    let (_, _, read_within) = send(&app, modern(&read(1, within), Some(within))).await;
    assert_eq!(
        read_within["result"]["contents"][0]["text"],
        "user ada at users://ada/profile"
    );
    let over = format!("users://{}/profile", "a".repeat(20));
    let (_, _, refused) = send(&app, modern(&read(2, &over), Some(&over))).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("over the bound of 32 bytes (max_uri_bytes)"),
        "{message}"
    );
    assert!(!message.contains(&over), "{message}");
}

fn request(id: i64, method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = meta();
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[tokio::test]
async fn prompts_are_listed_with_their_arguments_and_got_by_name() {
    let app = library();
    let (_, _, listed) = send(&app, modern(&request(1, "prompts/list", json!({})), None)).await;
    let prompt = &listed["result"]["prompts"][0];
    assert_eq!(prompt["name"], "greeting", "{listed}");
    assert_eq!(
        prompt["arguments"],
        json!([{"name": "name", "required": true, "description": "Whom to greet."},
               {"name": "style", "required": false, "description": "How, e.g. \"warmly\"."}])
    );
    let get = request(
        2,
        "prompts/get",
        json!({"name": "greeting", "arguments": {"name": "Ada"}}),
    );
    let (_, _, got) = send(&app, modern(&get, Some("greeting"))).await;
    let message = &got["result"]["messages"][0];
    assert_eq!(message["role"], "user", "{got}");
    assert_eq!(message["content"]["text"], "Greet Ada plainly.");

    // A missing required argument, and an unknown prompt: invalid params.
    let missing = request(
        3,
        "prompts/get",
        json!({"name": "greeting", "arguments": {}}),
    );
    let (_, _, refused) = send(&app, modern(&missing, Some("greeting"))).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Invalid arguments for prompt greeting: missing field `name`"),
        "{message}"
    );
    let unknown = request(4, "prompts/get", json!({"name": "farewell"}));
    let (_, _, refused) = send(&app, modern(&unknown, Some("farewell"))).await;
    assert_eq!(
        refused["error"]["message"], "Unknown prompt: farewell",
        "{refused}"
    );

    let discover = request(5, "server/discover", json!({}));
    let (_, _, discovered) = send(&app, modern(&discover, None)).await;
    let capabilities = &discovered["result"]["capabilities"];
    assert!(capabilities["prompts"].is_object(), "{discovered}");
    assert!(capabilities["resources"].is_object(), "{discovered}");
    assert!(capabilities.get("tools").is_none(), "{discovered}");
}

#[tokio::test]
async fn resources_are_read_by_uri_or_template_and_an_unknown_one_is_refused() {
    let app = library();
    let (_, _, listed) = send(&app, modern(&request(1, "resources/list", json!({})), None)).await;
    assert_eq!(
        listed["result"]["resources"],
        json!([{"uri": "notes://today", "name": "today", "mimeType": "text/markdown"}])
    );
    let templates = request(2, "resources/templates/list", json!({}));
    let (_, _, listed) = send(&app, modern(&templates, None)).await;
    assert_eq!(
        listed["result"]["resourceTemplates"],
        json!([{"uriTemplate": "users://{id}/profile", "name": "profile",
                "description": "A user's profile"}])
    );
    let read = |id, uri: &str| request(id, "resources/read", json!({ "uri": uri }));
    let (_, _, today) = send(
        &app,
        modern(&read(3, "notes://today"), Some("notes://today")),
    )
    .await;
    assert_eq!(
        today["result"]["contents"],
        json!([{"uri": "notes://today", "mimeType": "text/markdown", "text": "# Today"}])
    );
    let uri = "users://42/profile";
    let (_, _, profile) = send(&app, modern(&read(4, uri), Some(uri))).await;
    assert_eq!(
        profile["result"]["contents"][0]["text"],
        "user 42 at users://42/profile"
    );
    let uri = "users://42/settings";
    let (_, _, refused) = send(&app, modern(&read(5, uri), Some(uri))).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["data"]["uri"], uri);
}

#[tokio::test]
async fn a_legacy_session_reads_the_same_resources_and_gets_its_era_s_not_found_code() {
    let app = library();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}});
    let (_, session, opened) = send(&app, support::legacy("POST", None, Some(&initialize))).await;
    assert!(
        opened["result"]["capabilities"]["resources"].is_object(),
        "{opened}"
    );
    let session = session.expect("a session id");
    let read = |id, uri: &str| json!({"jsonrpc": "2.0", "id": id, "method": "resources/read", "params": {"uri": uri}});
    let (_, _, today) = send(
        &app,
        support::legacy("POST", Some(&session), Some(&read(2, "notes://today"))),
    )
    .await;
    assert_eq!(today["result"]["contents"][0]["text"], "# Today", "{today}");
    assert!(today["result"].get("resultType").is_none(), "{today}");
    let (_, _, refused) = send(
        &app,
        support::legacy("POST", Some(&session), Some(&read(3, "notes://nope"))),
    )
    .await;
    assert_eq!(refused["error"]["code"], -32002, "{refused}");
    let get = json!({"jsonrpc": "2.0", "id": 4, "method": "prompts/get",
        "params": {"name": "greeting", "arguments": {"name": "Bo", "style": "warmly"}}});
    let (_, _, got) = send(&app, support::legacy("POST", Some(&session), Some(&get))).await;
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"], "Greet Bo warmly.",
        "{got}"
    );
}

/// Capabilities follow from the routers, or are declared; declared ones that leave out a
/// router's are refused before anything is served, never advertised silently.
#[tokio::test]
async fn declared_capabilities_must_cover_the_routers() {
    use mcp_server::served::Undeclared;
    use mcp_server::tools::Tools;
    let tools = || {
        Tools::<Mcp, Ctx<Mcp>>::new()
            .add(
                "noop",
                "Does nothing",
                async |_: mcp_server::tools::Call<Mcp, _, Add>| Ok("done"),
            )
            .unwrap()
    };
    let info = || mcp::Implementation::new("declared", "1.0.0");
    let prompts_only =
        mcp::ServerCapabilities::new().with_prompts(mcp::ServerCapabilitiesPrompts::new());
    let served = Served::<Mcp, _>::new((), info())
        .capabilities(prompts_only)
        .tools(tools());
    assert_eq!(
        served.check(),
        Err(Undeclared {
            capability: "tools"
        })
    );
    let refused = mcp_server::served::router(Arc::new(served)).unwrap_err();
    assert!(
        refused.to_string().contains("leave out `tools`"),
        "{refused}"
    );

    // Declared and covering the router: advertised as declared (prompts too, which the
    // server's own methods serve).
    let both = mcp::ServerCapabilities::new()
        .with_prompts(mcp::ServerCapabilitiesPrompts::new())
        .with_tools(mcp::ServerCapabilitiesTools::new());
    let served = Served::<Mcp, _>::new((), info())
        .tools(tools())
        .capabilities(both);
    let app = mcp_server::served::router(Arc::new(served)).unwrap();
    let (_, _, discovered) = send(
        &app,
        modern(&request(1, "server/discover", json!({})), None),
    )
    .await;
    let capabilities = &discovered["result"]["capabilities"];
    assert!(
        capabilities["tools"].is_object() && capabilities["prompts"].is_object(),
        "{discovered}"
    );
}

#[cfg(feature = "redis")]
#[tokio::test]
async fn a_legacy_session_opened_at_one_shared_instance_is_served_at_another() {
    let redis = support::RedisServer::start();
    let url = format!("redis://127.0.0.1:{}", redis.1);
    let mut instances = Vec::new();
    for _ in 0..2 {
        let shared = mcp_server::redis::Redis::connect(&url).await.unwrap();
        let info = mcp::Implementation::new("greeter", "1.0.0");
        let capabilities =
            mcp::ServerCapabilities::new().with_tools(mcp::ServerCapabilitiesTools::new());
        let served = Served::<Mcp, _>::new(Greeter, info)
            .capabilities(capabilities)
            .shared(shared)
            .await
            .unwrap();
        instances.push(mcp_server::served::router(Arc::new(served)).unwrap());
    }
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}});
    let (status, session, opened) = send(
        &instances[0],
        support::legacy("POST", None, Some(&initialize)),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{opened}");
    let session = session.expect("a session id");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "greet"}});
    let (status, _, answer) = send(
        &instances[1],
        support::legacy("POST", Some(&session), Some(&call)),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "Hello, anonymous (Legacy)"
    );
}

#[test]
fn identified_keeps_what_the_result_set_and_leaves_errors_alone() {
    use mcp_server::served::identified;
    let identity =
        mcp::ResultMetaObject::new().with_server_info(mcp::Implementation::new("greeter", "1.0.0"));
    let key = "io.modelcontextprotocol/serverInfo";

    let bare = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"resultType":"complete"}}"#;
    let named: Value = serde_json::from_str(&identified(bare.to_owned(), &identity)).unwrap();
    assert_eq!(named["result"]["_meta"][key]["name"], "greeter", "{named}");
    assert_eq!(named["result"]["content"], json!([]), "{named}");
    assert_eq!(named["id"], 1, "{named}");

    // The result's own `_meta` members stay, its own serverInfo included.
    let own = r#"{"jsonrpc":"2.0","id":2,"result":{"_meta":{"a/b":1,
        "io.modelcontextprotocol/serverInfo":{"name":"mine","version":"2"}}}}"#;
    let kept: Value = serde_json::from_str(&identified(own.to_owned(), &identity)).unwrap();
    assert_eq!(kept["result"]["_meta"][key]["name"], "mine", "{kept}");
    assert_eq!(kept["result"]["_meta"]["a/b"], 1, "{kept}");

    // An error, a `_meta` that is not an object and a text that is not JSON: unchanged.
    for text in [
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}"#,
        r#"{"jsonrpc":"2.0","id":4,"result":{"_meta":7}}"#,
        "not json",
    ] {
        assert_eq!(identified(text.to_owned(), &identity), text);
    }
}

//! What `mcp_server::Served` tells the transports from its routers and settings, so that a
//! server written on the routers needs no `Service` of its own: the arguments a tool's client
//! mirrors in `Mcp-Param-*` headers (checked against the body), the logger its log messages
//! name, the resources a legacy session's subscription follows.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt as _;
use mcp_server::changes::{Change, Changes};
use mcp_server::resources::{Entry, Read, Resources};
use mcp_server::tools::{Call, ToolError, Tools};
use mcp_server::{Ctx, Served};
use mcp_tests::eras as mcp;
use serde_json::{Value, json};
use tower::ServiceExt as _;

mod support;
use support::{legacy, modern, send};

mcp_server::bind!(Mcp = mcp, legacy = mcp::v2025_11_25);
mcp_server::bind_server!(Mcp = mcp);

/// The arguments of `weather`, of a schema written by hand: `region` is mirrored in
/// `Mcp-Param-Region`.
fn weather_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
        "required": ["region"],
        "$defs": {"unused": {"$anchor": "kept"}}
    })
}

/// Nothing: `log`'s arguments.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Nothing {}

/// `weather` (a written schema) and `log` (logs one message), `docs://readme` and the
/// `docs://pages/{name}` template; log messages name `weather-station`; list and resource
/// changes told to `changes`.
fn app(changes: &Arc<Changes>) -> axum::Router {
    let weather = async |call: Call<Mcp, Ctx<Mcp>, ()>| {
        let arguments = call.params.arguments.as_ref();
        let region = arguments.and_then(|a| a.get("region")?.as_str());
        Ok(format!("Sunny in {}", region.unwrap_or("?")))
    };
    let log = async |call: Call<Mcp, Ctx<Mcp>, Nothing>| {
        call.ctx
            .notifier
            .log(mcp::LoggingLevel::Info, json!("looked outside"));
        Ok("logged")
    };
    let tools = Tools::new()
        .add_with_schema(
            "weather",
            "The weather of a region",
            weather_schema(),
            weather,
        )
        .unwrap()
        .add("log", "Logs one message", log)
        .unwrap();
    let resources = Resources::new()
        .add(
            Entry::new("docs://readme", "readme"),
            async |_: Read<Mcp, Ctx<Mcp>>| Ok("# Read me"),
        )
        .unwrap()
        .template(
            Entry::new("docs://pages/{name}", "page"),
            async |read: Read<Mcp, Ctx<Mcp>>| Ok(format!("page {}", read.vars["name"])),
        )
        .unwrap();
    let info = mcp::Implementation::new("weather", "1.0.0");
    let served = Served::<Mcp, _>::new((), info)
        .tools(tools)
        .resources(resources)
        .logger("weather-station")
        .changes(Arc::clone(changes));
    mcp_server::served::router(Arc::new(served)).unwrap()
}

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}})
}

/// A modern `tools/call` of `weather` for `region`, with `header` as its `Mcp-Param-Region`.
fn weather(region: &str, header: Option<&str>) -> Request<Body> {
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "weather", "arguments": {"region": region}, "_meta": meta()}});
    let mut request = modern(&call, Some("weather"));
    if let Some(value) = header {
        request
            .headers_mut()
            .insert("mcp-param-region", value.parse().unwrap());
    }
    request
}

#[tokio::test]
async fn a_tool_of_a_written_schema_is_listed_as_written_and_its_mirrored_argument_checked() {
    let app = app(&Arc::default());
    let list =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}});
    let (_, _, listed) = send(&app, modern(&list, None)).await;
    assert_eq!(
        listed["result"]["tools"][0]["inputSchema"],
        weather_schema(),
        "{listed}"
    );

    let (status, _, answer) = send(&app, weather("north", Some("north"))).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "Sunny in north");

    // The transport checks the header against the body from what the router read.
    for header in [Some("south"), None] {
        let (status, _, refused) = send(&app, weather("north", header)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{header:?}: {refused}");
        assert_eq!(
            refused["error"]["code"],
            mcp_runtime::error_code::HEADER_MISMATCH,
            "{header:?}: {refused}"
        );
    }
}

#[test]
fn a_tool_whose_header_annotations_are_invalid_is_refused_when_added() {
    let twice = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string", "x-mcp-header": "Region"},
            "b": {"type": "string", "x-mcp-header": "region"}
        }
    });
    let noop = async |_: Call<Mcp, Ctx<Mcp>, ()>| Ok("");
    let refused = Tools::<Mcp, Ctx<Mcp>>::new()
        .add_with_schema("twice", "Mirrors two arguments in one header", twice, noop)
        .unwrap_err();
    let ToolError::Schema { name, why } = refused else {
        panic!("{refused:?}")
    };
    assert_eq!(name, "twice");
    assert!(why.contains("x-mcp-header"), "{why}");
}

#[tokio::test]
async fn log_messages_name_the_served_logger() {
    let app = app(&Arc::default());
    let mut meta = meta();
    meta["io.modelcontextprotocol/logLevel"] = json!("debug");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "log", "arguments": {}, "_meta": meta}});
    let response = app.oneshot(modern(&call, Some("log"))).await.unwrap();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let messages: Vec<Value> = String::from_utf8(body.to_vec())
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str(d.trim()).ok())
        .collect();
    let logged = messages
        .iter()
        .find(|m| m["method"] == "notifications/message")
        .unwrap_or_else(|| panic!("no log message: {messages:?}"));
    assert_eq!(logged["params"]["logger"], "weather-station", "{logged}");
    assert_eq!(logged["params"]["data"], "looked outside");
    let answer = messages.last().unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "logged", "{answer}");
}

/// A 2025-11-25 request `id` of `method` with `params`.
fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[tokio::test]
async fn a_legacy_subscription_follows_only_a_resource_the_router_reads() {
    let changes = Arc::new(Changes::default());
    let app = app(&changes);
    let initialize = request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}),
    );
    let (_, session, _) = send(&app, legacy("POST", None, Some(&initialize))).await;
    let session = session.expect("a session");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    send(&app, legacy("POST", Some(&session), Some(&initialized))).await;
    for (id, uri) in [
        (2, "docs://readme"),
        (3, "docs://pages/intro"),
        (4, "docs://elsewhere"),
    ] {
        let subscribe = request(id, "resources/subscribe", json!({"uri": uri}));
        let (status, _, answer) =
            send(&app, legacy("POST", Some(&session), Some(&subscribe))).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {answer}");
        assert_eq!(answer["result"], json!({}), "{uri}: {answer}");
    }
    let stream = app
        .clone()
        .oneshot(legacy("GET", Some(&session), None))
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    let mut body = stream.into_body();
    // The one nobody reads is not followed: its change is never told, the others' are.
    for uri in ["docs://elsewhere", "docs://readme", "docs://pages/intro"] {
        changes.send(Change::Resource(uri.into()));
    }
    let mut told = Vec::new();
    while told.len() < 2 {
        let frame = tokio::time::timeout(std::time::Duration::from_secs(5), body.frame())
            .await
            .expect("an update within 5 s")
            .expect("the stream open")
            .unwrap();
        let Ok(data) = frame.into_data() else {
            continue;
        };
        for line in String::from_utf8(data.to_vec()).unwrap().lines() {
            if let Some(message) = line.strip_prefix("data:")
                && let Ok(message) = serde_json::from_str::<Value>(message.trim())
                && message["method"] == "notifications/resources/updated"
            {
                told.push(message["params"]["uri"].as_str().unwrap().to_owned());
            }
        }
    }
    assert_eq!(told, ["docs://readme", "docs://pages/intro"]);
}

/// What the stateful routers below share: a count of the calls they answered.
#[derive(Default)]
struct Calls(std::sync::atomic::AtomicU64);

impl Calls {
    /// One more call: the count with it.
    fn one_more(&self) -> u64 {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1
    }
}

/// The context of a router given the state `Arc<Calls>`.
type Counted = mcp_server::WithState<Ctx<Mcp>, Arc<Calls>>;

#[tokio::test]
async fn routers_with_state_hand_it_to_every_tool_prompt_and_resource() {
    use mcp_server::prompts::{Get, Prompts};
    let calls = Arc::new(Calls::default());
    let tools = Tools::<Mcp, Counted>::new()
        .add(
            "count",
            "Counts",
            async |call: Call<Mcp, Counted, Nothing>| {
                Ok(format!("tool call {}", call.ctx.state.one_more()))
            },
        )
        .unwrap()
        .with_state(Arc::clone(&calls));
    let prompts = Prompts::<Mcp, Counted>::new()
        .add(
            "count",
            "Counts",
            async |get: Get<Mcp, Counted, Nothing>| {
                // The state's context dereferences to the request's.
                assert_eq!(get.ctx.era, mcp_runtime::era::Era::Modern);
                Ok(format!("prompt call {}", get.ctx.state.one_more()))
            },
        )
        .unwrap()
        .with_state(Arc::clone(&calls));
    let resources = Resources::<Mcp, Counted>::new()
        .template(
            Entry::new("count://{name}", "count"),
            async |read: Read<Mcp, Counted>| {
                let n = read.ctx.state.one_more();
                Ok(format!("{} read {n}", read.vars["name"]))
            },
        )
        .unwrap()
        .with_state(Arc::clone(&calls));
    let served = Served::<Mcp, _>::new((), mcp::Implementation::new("counter", "1.0.0"))
        .tools(tools)
        .prompts(prompts)
        .resources(resources);
    let app = mcp_server::served::router(Arc::new(served)).unwrap();
    let asked = [
        (
            "tools/call",
            json!({"name": "count", "arguments": {}}),
            Some("count"),
        ),
        ("prompts/get", json!({"name": "count"}), Some("count")),
        (
            "resources/read",
            json!({"uri": "count://x"}),
            Some("count://x"),
        ),
        (
            "tools/call",
            json!({"name": "count", "arguments": {}}),
            Some("count"),
        ),
    ];
    let mut texts = Vec::new();
    for (id, (method, mut params, name)) in asked.into_iter().enumerate() {
        params["_meta"] = meta();
        let call = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let (status, _, answer) = send(&app, modern(&call, name)).await;
        assert_eq!(status, StatusCode::OK, "{method}: {answer}");
        let result = &answer["result"];
        let text = [
            &result["content"][0]["text"],
            &result["messages"][0]["content"]["text"],
            &result["contents"][0]["text"],
        ]
        .into_iter()
        .find_map(Value::as_str)
        .unwrap_or_else(|| panic!("{method}: {answer}"));
        texts.push(text.to_owned());
    }
    assert_eq!(
        texts,
        ["tool call 1", "prompt call 2", "x read 3", "tool call 4"],
        "one state, shared by every router"
    );
}

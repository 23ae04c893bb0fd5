//! An MCP client for revision 2026-07-28 over stateless Streamable HTTP, and for 2025-11-25
//! servers in a session, on `mcp-client` bound to the types that `mcp-codegen` generates from
//! the official schemas (see `build.rs`). The official conformance suite runs it as
//! `mcp-conformance-client <server-url>` with the scenario's name in `MCP_CONFORMANCE_SCENARIO`
//! and its parameters in `MCP_CONFORMANCE_CONTEXT`; the era comes from the server's answer to
//! the probe, never from the suite's `MCP_CONFORMANCE_PROTOCOL_VERSION`.
//!
//! It behaves like a headless host: `server/discover` (or, with a legacy server, `initialize`),
//! then it lists and calls every tool
//! (skipping tools whose `x-mcp-header` annotations are invalid), reads every resource and
//! gets every prompt the server offers, answering input requests along the way through the
//! generated retry. Its tool calls advertise the tasks extension: a call answered with a task
//! is followed with `tasks/get` until the task ends, its input requests answered with
//! `tasks/update`. A scenario's context may name the tool calls to make instead. With a server
//! that declares the skills extension it lists the skills and loads (reads and verifies) only
//! those the context's `loadSkills` names (`skills.rs`); their files are not read as ordinary
//! resources.

mod answers;
mod authorize;
mod skills;

/// The 2025-11-25 and 2026-07-28 types, generated at build time side by side; the modern
/// revision's names are this module's own (`mcp::CallToolRequest` is 2026-07-28's), the
/// legacy ones are under `mcp::v2025_11_25`. In a binary nothing is exported, so the lints a
/// library's public API is exempt from (unused items, variant names that repeat the schema's
/// `$def` names) apply; the names are the schema's own, on purpose.
#[allow(dead_code, unused_imports, clippy::enum_variant_names)]
mod mcp {
    include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
}

mcp_client::bind!(Mcp = mcp, skills);

use std::process::ExitCode;

use mcp::Client as _; // the generated methods: `s.list_resources(params)`, ...
use mcp_client::{Endpoint, Era, headless};
use serde_json::{Map, Value};

/// The client, bound to the generated types.
type Client = mcp_client::Client<Mcp>;
/// What ends a run early.
type Error = Box<dyn std::error::Error>;

const USAGE: &str = "usage: mcp-conformance-client [--progress] <server-url>
       mcp-conformance-client [--progress] --stdio -- <command> [args...]
Environment: MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT (a JSON object).";

/// What the command line says: the server, and whether calls ask for progress; `None` for a
/// command line that names no server (or asks for help).
fn read_args(args: &[String]) -> Option<(Endpoint, bool)> {
    let options = args.iter().take_while(|a| *a != "--");
    let progress = options.into_iter().any(|a| a == "--progress");
    Some((Endpoint::from_args(args)?, progress))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((server, progress)) = read_args(&args) else {
        eprintln!("{USAGE}");
        let help = args.iter().any(|a| a == "-h" || a == "--help");
        return ExitCode::from(if help { 0 } else { 2 });
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let context = match scenario_context(std::env::var("MCP_CONFORMANCE_CONTEXT").ok()) {
        Ok(context) => context,
        Err(e) => return exit(2, e),
    };
    match run(&server, &scenario, &context, progress).await {
        Ok(0) => ExitCode::SUCCESS,
        Ok(failed) => exit(1, format!("{failed} operation(s) failed")),
        Err(e) => exit(1, e),
    }
}

/// Says why the run ends as it does, and exits with `code`.
fn exit(code: u8, why: impl std::fmt::Display) -> ExitCode {
    eprintln!("mcp-conformance-client: {why}");
    ExitCode::from(code)
}

/// The scenario's context from `MCP_CONFORMANCE_CONTEXT`: null when it is not set; a JSON
/// object when it is, anything else an error (a context that does not read would otherwise
/// run the scenario without the tool calls it names, and fail it for the wrong reason).
fn scenario_context(raw: Option<String>) -> Result<Value, String> {
    let Some(raw) = raw else {
        return Ok(Value::Null);
    };
    match serde_json::from_str::<Value>(&raw) {
        Ok(context @ Value::Object(_)) => Ok(context),
        Ok(other) => Err(format!(
            "MCP_CONFORMANCE_CONTEXT is not a JSON object: {other}"
        )),
        Err(e) => Err(format!("MCP_CONFORMANCE_CONTEXT is not JSON: {e}")),
    }
}

/// The tool that echoes a schema back, in the preservation scenario.
const SCHEMA_ECHO: &str = "json_schema_echo";

/// The calls of the run: for the preservation scenario, the echo tool once for every other
/// tool with that tool's `inputSchema` as read (every member kept); the context's
/// `toolCalls` if it names them; otherwise every tool, with placeholder arguments. Tools whose
/// `x-mcp-header` annotations are invalid are never called.
fn tool_calls(scenario: &str, context: &Value, tools: Vec<mcp::Tool>) -> Result<Calls, Error> {
    if scenario == "json-schema-2020-12-preservation" {
        let Some(echo) = tools.iter().find(|t| t.name == SCHEMA_ECHO) else {
            return Err(format!("no {SCHEMA_ECHO:?} tool listed").into());
        };
        let echoed = |t: &mcp::Tool| {
            let schema = serde_json::to_value(&t.input_schema)?;
            Ok((
                echo.clone(),
                Map::from_iter([("schema".to_owned(), schema)]),
            ))
        };
        let others = tools.iter().filter(|t| t.name != SCHEMA_ECHO);
        return others.map(echoed).collect();
    }
    let usable = tools.into_iter().filter(|t| {
        let why = mcp_client::headers::mirrored(&t.input_schema.extra).err();
        why.inspect(|why| eprintln!("not calling {:?}: {why}", t.name))
            .is_none()
    });
    let Some(given) = context.get("toolCalls").and_then(Value::as_array) else {
        let placeholders = |t: mcp::Tool| (headless::tool_arguments::<Mcp>(&t), t);
        return Ok(usable.map(placeholders).map(|(a, t)| (t, a)).collect());
    };
    let usable: Vec<mcp::Tool> = usable.collect();
    let given = given.iter().filter_map(|c| {
        let name = c["name"].as_str();
        let tool = usable.iter().find(|t| Some(t.name.as_str()) == name)?;
        let arguments = c["arguments"].as_object().cloned().unwrap_or_default();
        Some((tool.clone(), arguments))
    });
    Ok(given.collect())
}

/// Tool calls: each tool with its arguments.
type Calls = Vec<(mcp::Tool, Map<String, Value>)>;

/// `: "<text>"` for the first text block among `blocks` (for the log), or nothing.
fn first_text<'b>(mut blocks: impl Iterator<Item = &'b mcp::ContentBlock>) -> String {
    let text = blocks.find_map(|b| match b {
        mcp::ContentBlock::TextContent(t) => Some(format!(": {:?}", t.text)),
        _ => None,
    });
    text.unwrap_or_default()
}

/// Logs the outcome of `what`, `said` of its result; 1 if it failed (for the count), else 0.
fn logged<T, E: std::fmt::Display>(
    what: String,
    done: Result<T, E>,
    said: impl FnOnce(T) -> String,
) -> usize {
    let failed = usize::from(done.is_err());
    match done {
        Ok(done) => eprintln!("{what}: {}", said(done)),
        Err(e) => eprintln!("{what} failed: {e}"),
    }
    failed
}

/// Runs the session, and ends it (a legacy session is deleted); the number of calls that
/// failed.
async fn run(
    server: &Endpoint,
    scenario: &str,
    context: &Value,
    progress: bool,
) -> Result<usize, Error> {
    eprintln!("scenario {scenario:?} against {server:?}");
    let mut config = answers::config();
    if let Endpoint::Http(_) = server {
        config = config.with_authorizer(authorize::authorizer(context)?);
    }
    let mut s = Client::open(server, config)?;
    if progress {
        s.ask_for_progress();
    }
    let outcome = operate(&mut s, scenario, context).await;
    s.close().await;
    outcome
}

/// Connects (finding the era) and does what the scenario asks: call the tools, read every
/// resource, get every prompt, load the skills asked for and read their directories; the
/// number of calls that failed.
async fn operate(s: &mut Client, scenario: &str, context: &Value) -> Result<usize, Error> {
    let connected = s.connect().await?;
    // The interop scripts check the modern line as it stands.
    let how = match connected.era {
        Era::Modern => "discovered",
        Era::Legacy => "initialized (2025-11-25 session)",
    };
    let (server, versions) = (&connected.server, &connected.versions);
    eprintln!("{how} {server:?}, versions {versions:?}");
    let mut failed = 0;
    let caps = &connected.capabilities;
    // Skills first, so that their files are known and not read below as ordinary resources
    // (a host fetches no skill file ahead of need).
    let held = skills::list(s, caps).await?;
    if scenario.starts_with("sep-2640-") {
        return Ok(skills::load_asked(s, &held, scenario, context).await);
    }
    if caps.tools.is_some() {
        let tools = s.list_all_tools().await?;
        eprintln!("{} tool(s)", tools.len());
        if scenario == "json-schema-ref-no-deref" {
            // Listing is the point: a `$ref` in a schema is data, never a URL to fetch.
            return Ok(0);
        }
        let preserving = scenario == "json-schema-2020-12-preservation";
        for (tool, args) in tool_calls(scenario, context, tools)? {
            let done = s.call_listed_tool(&tool, args).await;
            failed += logged(format!("tools/call {:?}", tool.name), done, |r| {
                let error = r.is_error.filter(|e| *e).map_or("", |_| " (isError)");
                let text = first_text(r.content.iter());
                format!("{} content block(s){error}{text}", r.content.len())
            });
        }
        if preserving {
            // A host that shows a tool's schema to a model passes it on as received.
            return Ok(failed);
        }
    }
    if caps.resources.is_some() {
        let params = mcp::PaginatedRequestParams::new(s.meta());
        let listed = s.list_resources(params).await?;
        let of_a_skill = |uri: &str| held.iter().any(|e| e.check_readable(uri).is_ok());
        for r in listed.resources.into_iter().filter(|r| !of_a_skill(&r.uri)) {
            let params = mcp::ReadResourceRequestParams::new(s.meta(), &r.uri);
            let read = s.read_resource(params).await;
            failed += logged(format!("resources/read {:?}", r.uri), read, |read| {
                format!("{} content(s)", read.contents.len())
            });
        }
    }
    if caps.prompts.is_some() {
        let params = mcp::PaginatedRequestParams::new(s.meta());
        let listed = s.list_prompts(params).await?;
        for p in listed.prompts {
            let mut params = mcp::GetPromptRequestParams::new(s.meta(), &p.name);
            params.arguments = headless::prompt_arguments::<Mcp>(&p);
            let got = s.get_prompt(params).await;
            failed += logged(format!("prompts/get {:?}", p.name), got, |got| {
                let text = first_text(got.messages.iter().map(|m| &m.content));
                format!("{} message(s){text}", got.messages.len())
            });
        }
    }
    failed += skills::load_asked(s, &held, scenario, context).await;
    if mcp_client::skills::reads_directories::<mcp::SkillsExtension, _>(caps).is_ok() {
        failed += skills::read_directories(s, &held).await;
    }
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use mcp_client::Endpoint;

    use crate::read_args;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn the_command_line_names_a_url_or_a_command_to_spawn() {
        let url = "http://127.0.0.1:1/mcp".to_owned();
        assert_eq!(
            read_args(&args("--progress http://127.0.0.1:1/mcp")),
            Some((Endpoint::Http(url), true))
        );
        let spawned = read_args(&args("--stdio -- server --stdio --port 0"));
        let command = args("server --stdio --port 0");
        assert_eq!(spawned, Some((Endpoint::Stdio(command), false)));
        assert_eq!(read_args(&args("--stdio --")), None);
        assert_eq!(read_args(&args("-- server")), None, "-- without --stdio");
        assert_eq!(read_args(&args("--help")), None);
        assert_eq!(read_args(&[]), None);
    }

    #[test]
    fn a_malformed_scenario_context_is_an_error_not_an_empty_context() {
        use crate::scenario_context;
        assert_eq!(scenario_context(None), Ok(Value::Null));
        let calls = r#"{"toolCalls": [{"name": "t", "arguments": {}}]}"#;
        assert_eq!(
            scenario_context(Some(calls.to_owned())).unwrap()["toolCalls"][0]["name"],
            "t"
        );
        let e = scenario_context(Some("{\"toolCalls\": [".to_owned())).unwrap_err();
        assert!(
            e.starts_with("MCP_CONFORMANCE_CONTEXT is not JSON: "),
            "{e}"
        );
        let e = scenario_context(Some("[1]".to_owned())).unwrap_err();
        assert_eq!(e, "MCP_CONFORMANCE_CONTEXT is not a JSON object: [1]");
    }
}

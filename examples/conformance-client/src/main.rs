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
use mcp_client::{ClientError, Era};
use serde_json::{Map, Value};

/// The client, bound to the generated types.
type Client = mcp_client::Client<Mcp>;
/// What ends a run early.
type Error = Box<dyn std::error::Error>;

const USAGE: &str = "usage: mcp-conformance-client [--progress] <server-url>
       mcp-conformance-client [--progress] --stdio -- <command> [args...]

--progress: tool calls carry a progressToken (the progress notifications are logged).
--stdio: spawn <command> as the server and speak to it on its stdin and stdout.

Environment: MCP_CONFORMANCE_SCENARIO (the scenario's name), MCP_CONFORMANCE_CONTEXT (JSON,
optional: {\"toolCalls\": [{\"name\": ..., \"arguments\": {...}}], \"loadSkills\": [<SKILL.md uri>...]}).";

/// The server the client speaks to.
#[derive(Debug, PartialEq)]
enum Server {
    /// Over Streamable HTTP, at this URL.
    Http(String),
    /// Over stdio: the command (and its arguments) to spawn.
    Stdio(Vec<String>),
}

/// What the command line says: the server, and whether calls ask for progress; `None` for a
/// command line that names no server (or asks for help).
fn read_args(args: &[String]) -> Option<(Server, bool)> {
    let (options, command) = match args.iter().position(|a| a == "--") {
        Some(end) => (&args[..end], Some(&args[end + 1..])),
        None => (args, None),
    };
    let progress = options.iter().any(|a| a == "--progress");
    let server = match command {
        Some(command) if options.iter().any(|a| a == "--stdio") && !command.is_empty() => {
            Server::Stdio(command.to_vec())
        }
        Some(_) => return None,
        None => Server::Http(options.last()?.clone()),
    };
    match &server {
        Server::Http(url) if url == "-h" || url == "--help" || url.starts_with("--") => None,
        _ => Some((server, progress)),
    }
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
        Err(e) => {
            eprintln!("mcp-conformance-client: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&server, &scenario, &context, progress).await {
        Ok(0) => ExitCode::SUCCESS,
        Ok(failed) => {
            eprintln!("mcp-conformance-client: {failed} operation(s) failed");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("mcp-conformance-client: {e}");
            ExitCode::FAILURE
        }
    }
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
        return tools
            .iter()
            .filter(|t| t.name != SCHEMA_ECHO)
            .map(echoed)
            .collect();
    }
    let usable = tools.into_iter().filter(|t| {
        let why = mcp_client::headers::mirrored(&t.input_schema.extra).err();
        why.inspect(|why| eprintln!("not calling {:?}: {why}", t.name))
            .is_none()
    });
    let Some(given) = context.get("toolCalls").and_then(Value::as_array) else {
        return Ok(usable
            .map(|t| (answers::tool_arguments(&t), t))
            .map(|(a, t)| (t, a))
            .collect());
    };
    let usable: Vec<mcp::Tool> = usable.collect();
    let given = given.iter().filter_map(|c| {
        let tool = usable
            .iter()
            .find(|t| Some(t.name.as_str()) == c["name"].as_str())?;
        Some((
            tool.clone(),
            c["arguments"].as_object().cloned().unwrap_or_default(),
        ))
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
fn logged<T>(what: String, done: Result<T, ClientError>, said: impl FnOnce(T) -> String) -> usize {
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
    server: &Server,
    scenario: &str,
    context: &Value,
    progress: bool,
) -> Result<usize, Error> {
    eprintln!("scenario {scenario:?} against {server:?}");
    let mut s = match server {
        Server::Http(url) => {
            let auth = authorize::authorizer(context)?;
            Client::new(url, answers::config().with_authorizer(auth))?
        }
        Server::Stdio(command) => {
            let mut spawned = std::process::Command::new(&command[0]);
            spawned.args(&command[1..]);
            mcp_client::stdio::spawn(spawned, answers::config())?
        }
    };
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
    eprintln!(
        "{how} {:?}, versions {:?}",
        connected.server, connected.versions
    );
    let mut failed = 0;
    let caps = &connected.capabilities;
    // Skills first, so that their files are known and not read below as ordinary resources
    // (a host fetches no skill file ahead of need).
    let held = skills::list(s, caps).await?;
    if scenario.starts_with("sep-2640-") {
        return Ok(skills::load_asked(s, &held, scenario, context).await?);
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
                let error = if r.is_error == Some(true) {
                    " (isError)"
                } else {
                    ""
                };
                format!(
                    "{} content block(s){error}{}",
                    r.content.len(),
                    first_text(r.content.iter())
                )
            });
        }
        if preserving {
            // A host that shows a tool's schema to a model passes it on as received.
            return Ok(failed);
        }
    }
    if caps.resources.is_some() {
        let listed = s
            .list_resources(mcp::PaginatedRequestParams::new(s.meta()))
            .await?;
        let of_a_skill = |uri: &str| held.iter().any(|e| e.check_readable(uri).is_ok());
        for r in listed.resources.into_iter().filter(|r| !of_a_skill(&r.uri)) {
            let read = s
                .read_resource(mcp::ReadResourceRequestParams::new(s.meta(), &r.uri))
                .await;
            failed += logged(format!("resources/read {:?}", r.uri), read, |read| {
                format!("{} content(s)", read.contents.len())
            });
        }
    }
    if caps.prompts.is_some() {
        let listed = s
            .list_prompts(mcp::PaginatedRequestParams::new(s.meta()))
            .await?;
        for p in listed.prompts {
            let required = p
                .arguments
                .iter()
                .flatten()
                .filter(|a| a.required == Some(true));
            let args: std::collections::BTreeMap<String, String> = required
                .map(|a| (a.name.clone(), "conformance".to_owned()))
                .collect();
            let mut params = mcp::GetPromptRequestParams::new(s.meta(), &p.name);
            // No `arguments` member for a prompt that takes none.
            params.arguments = (!args.is_empty()).then_some(args);
            let got = s.get_prompt(params).await;
            failed += logged(format!("prompts/get {:?}", p.name), got, |got| {
                let text = first_text(got.messages.iter().map(|m| &m.content));
                format!("{} message(s){text}", got.messages.len())
            });
        }
    }
    failed += skills::load_asked(s, &held, scenario, context).await?;
    if skills::reads_directories(caps) {
        failed += skills::read_directories(s, &held).await;
    }
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use crate::{Server, read_args};

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn the_command_line_names_a_url_or_a_command_to_spawn() {
        let url = "http://127.0.0.1:1/mcp".to_owned();
        assert_eq!(
            read_args(&args("--progress http://127.0.0.1:1/mcp")),
            Some((Server::Http(url), true))
        );
        let spawned = read_args(&args("--stdio -- server --stdio --port 0"));
        let command = args("server --stdio --port 0");
        assert_eq!(spawned, Some((Server::Stdio(command), false)));
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

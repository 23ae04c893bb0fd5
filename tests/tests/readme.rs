//! The README's code fences that need a generated module other than the Quickstart's (its
//! `rust,ignore readme-test:<name>` fences), compiled and run here, each inside a function
//! that supplies what the fence takes as given (the message it reads, a registry) and returns
//! what it made for the test to check; the handler is compiled as mcp-bench's example
//! `handler_ours` (the README compares it with rmcp's). `the_readme_fences_are_the_code_compiled`
//! keeps each fence equal to its compiled copy (lines compared without their indentation), so
//! the README cannot drift from code that compiles, and checks that every `rust,ignore` fence of
//! the README is compiled somewhere: here, in that example, or by `scripts/quickstart.sh` (the
//! fences tagged `quickstart:<file>`).

use std::collections::BTreeMap;
use std::error::Error;

use serde_json::{Value, json};

/// A `tools/call` request of `tool` with `arguments` and the client capabilities `caps`.
fn call(tool: &str, arguments: Value, caps: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": tool, "arguments": arguments, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": caps}}})
    .to_string()
}

/// The README's tasks example: the server's `answer` to `request` is the `wire` the client
/// part reads; that text.
#[rustfmt::skip]
fn tasks(request: &str) -> Result<String, Box<dyn Error>> {
    use mcp_tests::tasks as mcp;
    let request: mcp::CallToolRequest = serde_json::from_str(request)?;
    let wire = serde_json::to_string(&request.reply(answer(&request)))?;
    // readme-fence: tasks
    use mcp::prelude::*;
    use mcp_runtime::extension::{Advertised, Reader};
    use mcp_runtime::{Response, RpcError};

    // Server: a task when the client can take one, else -32021 (`request.reply(answer(&request))`
    // is the message to send).
    fn answer(request: &CallToolRequest) -> Response<CallToolRequest> {
        let caps = &request.params.meta.client_capabilities;
        let Some(tasks) = Advertised::<TasksExtension>::check(caps) else {
            return Err(RpcError::missing_extension::<TasksExtension>());
        };
        let now = "2026-07-28T10:30:00Z";
        let created = CreateTaskResult::new(now, now, TaskStatus::Working, "task-1", 3_600_000)
            .with_poll_interval_ms(5000u64);
        Ok(tasks.grant(created).into())
    }

    // Client: advertise the extension on the request, read the answer with it.
    let mut caps = ClientCapabilities::new();
    caps.declare::<TasksExtension>();
    let response: CallToolResultResponse =
        Reader::new(&caps).extension::<TasksExtension>().from_str(&wire)?;
    if let CallToolOutcome::Task(created) = response.result {
        println!("poll tasks/get with {}", created.task_id);
    }
    // end of readme-fence
    Ok(wire)
}

#[test]
fn the_tasks_fence_grants_a_task_only_to_a_client_that_advertised_the_extension() {
    let advertised = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    let wire = tasks(&call("long", json!({}), advertised)).unwrap();
    let answer: Value = serde_json::from_str(&wire).unwrap();
    assert_eq!(answer["result"]["resultType"], "task", "{answer}");
    assert_eq!(answer["result"]["taskId"], "task-1", "{answer}");
    // Without the extension the server answers with the -32021 error, which is no result:
    // the client's reader of a result refuses it.
    let refused = tasks(&call("long", json!({}), json!({}))).unwrap_err();
    assert!(
        refused.to_string().contains("missing field `result`"),
        "{refused}"
    );
}

/// The README's skills example, a client's side: `server` the server's capabilities, `wire`
/// a `skills/get` response, `read` the `resources/read` result of the skill's `SKILL.md`;
/// the verified `SKILL.md` text and whether the server reads directories, or `None` when it
/// does not declare the extension.
#[rustfmt::skip]
fn skills(server: &str, wire: &str, read: &Value) -> Result<Option<(String, bool)>, Box<dyn Error>> {
    use mcp_tests::tasks as mcp;
    let server: mcp::ServerCapabilities = serde_json::from_str(server)?;
    // readme-fence: skills
    use mcp::prelude::*;
    use mcp_client::skills::HeldEntry;

    // Only a server that declares the extension is asked for skills, and only one that sets
    // `directoryRead` for a directory's children.
    if !server.declares::<SkillsExtension>() {
        return Ok(None);
    }
    let directories = server.settings::<SkillsExtension>()
        .and_then(|settings| settings.get("directoryRead"))
        .is_some_and(|read| read == true);
    // A skills/get answer: the entry is checked and held, and nothing is read yet.
    let got: GetSkillResultResponse = serde_json::from_str(wire)?;
    let held = HeldEntry::from_entry(&got.result.skill)?;
    // Loading the skill: its SKILL.md, read with resources/read (`read`, that result as JSON),
    // is used only once its size, digest and frontmatter match the entry.
    held.check_readable(held.uri())?;
    let skill_md = held.verify_skill_md_read(read)?;
    println!("{} loaded: {} bytes verified", held.name(), skill_md.text().len());
    // end of readme-fence
    Ok(Some((skill_md.into_text(), directories)))
}

/// A `skills/get` response for a skill whose `SKILL.md` is `skill_md`, and the
/// `resources/read` result that serves `served` for it.
fn skill_get_and_read(skill_md: &str, served: &str) -> (String, Value) {
    use mcp_runtime::skills::digest;
    let uri = "skill://pdf-processing/SKILL.md";
    let wire = json!({"jsonrpc": "2.0", "id": 3, "result": {
        "resultType": "complete", "ttlMs": 60000, "cacheScope": "public",
        "skill": {"uri": uri,
            "frontmatter": {"name": "pdf-processing", "description": "Work with PDFs",
                            "license": "MIT"},
            "resources": [{"uri": uri, "digest": digest(skill_md.as_bytes()),
                           "size": skill_md.len()}]}}});
    let read = json!({"resultType": "complete",
        "contents": [{"uri": uri, "mimeType": "text/markdown", "text": served}]});
    (wire.to_string(), read)
}

#[test]
fn the_skills_fence_loads_a_verified_skill_only_from_a_declaring_server() {
    let skill_md =
        "---\nname: pdf-processing\ndescription: Work with PDFs\nlicense: MIT\n---\n\nBody.\n";
    let (wire, read) = skill_get_and_read(skill_md, skill_md);
    let declared = r#"{"extensions": {"io.modelcontextprotocol/skills": {"directoryRead": true}}}"#;
    let (text, directories) = skills(declared, &wire, &read).unwrap().unwrap();
    assert_eq!(text, skill_md);
    assert!(directories);
    let without = r#"{"extensions": {"io.modelcontextprotocol/skills": {}}}"#;
    let (_, directories) = skills(without, &wire, &read).unwrap().unwrap();
    assert!(!directories);
    // A server that does not declare the extension is not asked.
    assert_eq!(skills(r#"{"resources": {}}"#, &wire, &read).unwrap(), None);
    // A SKILL.md other than the one listed is not used.
    let tampered = skill_md.replace("Body.", "Evil!");
    let (_, read) = skill_get_and_read(skill_md, &tampered);
    let e = skills(declared, &wire, &read).unwrap_err().to_string();
    assert!(e.contains("content digest"), "{e}");
    // Nor one whose frontmatter differs from the entry's, digests matching.
    let other = skill_md.replace("license: MIT", "license: GPL");
    let (wire, read) = skill_get_and_read(&other, &other);
    let e = skills(declared, &wire, &read).unwrap_err().to_string();
    assert!(e.contains("frontmatter"), "{e}");
}

/// The README's two-revision example; the converted result.
#[rustfmt::skip]
fn eras() -> Result<Value, Box<dyn Error>> {
    use mcp_tests::eras as mcp;
    // readme-fence: eras
    use mcp::{v2025_11_25 as legacy, v2026_07_28 as modern};
    use mcp_runtime::era::{MethodFact, Replacement};

    let old: legacy::CallToolResult = serde_json::from_str(r#"{"content": []}"#)?;
    let new = modern::CallToolResult::try_from(old)?; // resultType "complete" added
    let setlevel = MethodFact::find(mcp::METHOD_FACTS, "logging/setLevel").unwrap();
    assert_eq!(setlevel.replaced_by, Some(Replacement::Meta("io.modelcontextprotocol/logLevel")));
    // end of readme-fence
    Ok(serde_json::to_value(&new)?)
}

#[test]
fn the_eras_fence_converts_and_finds_the_fact() {
    assert_eq!(eras().unwrap()["resultType"], "complete");
}

/// The README's `raw_json` example: the list written back and the registry of the tools'
/// schemas by name.
#[rustfmt::skip]
fn raw_json(text: &str) -> Result<(String, BTreeMap<String, String>), Box<dyn Error>> {
    use mcp_tests::raw as mcp;
    let mut registry = BTreeMap::new();
    // readme-fence: raw-json
    // build.rs: mcp_codegen::Builder::new().schema(..).raw_json(true).generate(..)
    let list: mcp::ListToolsResultResponse = serde_json::from_str(text)?;
    for tool in &list.result.tools {
        let schema: &mcp_runtime::RawJson = &tool.input_schema; // the text as it came
        registry.insert(&tool.name, schema.get());
    }
    let out = serde_json::to_string(&list)?; // each inputSchema written back byte for byte
    // end of readme-fence
    let registry = registry.into_iter().map(|(k, v): (&String, &str)| (k.clone(), v.to_owned()));
    Ok((out, registry.collect()))
}

#[test]
fn the_raw_json_fence_keeps_each_schema_as_it_came() {
    let example = mcp_tests::schema_dir()
        .join("2026-07-28/examples/ListToolsResultResponse/list-tools-result-response.json");
    let text = std::fs::read_to_string(example).unwrap();
    let (out, registry) = raw_json(&text).unwrap();
    let read: Value = serde_json::from_str(&text).unwrap();
    let tools = read["result"]["tools"].as_array().unwrap();
    assert_eq!(registry.len(), tools.len());
    for tool in tools {
        let kept = &registry[tool["name"].as_str().unwrap()];
        assert_eq!(
            serde_json::from_str::<Value>(kept).unwrap(),
            tool["inputSchema"]
        );
        // Written back as it came, its spacing and member order included.
        assert!(
            text.contains(kept.as_str()) && out.contains(kept.as_str()),
            "{kept}"
        );
    }
}

/// The lines of `source` after the line that starts with `begin` and before the one that
/// starts with `end`, without their indentation.
fn region<'s>(source: &'s str, begin: &str, end: &str) -> Vec<&'s str> {
    source
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with(begin))
        .skip(1)
        .take_while(|l| !l.starts_with(end))
        .collect()
}

/// The compiled copy of the fence tagged `tag`: mcp-bench's handler example, the region
/// `// readme-fence: <tag>` .. `// end of readme-fence` of mcp-client's authorization example,
/// of `mcp_server::auth`'s doctest (its visible lines: `//! ` taken off, the hidden `# ` lines
/// left out), or of this file.
fn compiled_copy(tag: &str) -> Vec<&'static str> {
    let begin = format!("// readme-fence: {tag}");
    let end = "// end of readme-fence";
    match tag {
        "handler" => {
            let example = include_str!("../../mcp-bench/examples/handler_ours.rs");
            region(example, "// --- handler: begin", "// --- handler: end")
        }
        "auth-client" => region(
            include_str!("../../mcp-client/examples/authorize.rs"),
            &begin,
            end,
        ),
        "auth-server" => {
            let doc = include_str!("../../mcp-server/src/auth.rs");
            let visible = doc
                .lines()
                .filter_map(|l| l.trim().strip_prefix("//!"))
                .map(str::trim)
                .skip_while(|l| !l.starts_with(&format!("# {begin}")))
                .skip(1)
                .take_while(|l| !l.starts_with(&format!("# {end}")));
            visible.filter(|l| !l.starts_with("# ")).collect()
        }
        _ => region(include_str!("readme.rs"), &begin, end),
    }
}

/// Every `rust,ignore` fence of `readme`: its opening line's number and its lines.
fn ignored_fences(readme: &str) -> Vec<(usize, &str, Vec<&str>)> {
    let mut fences = Vec::new();
    let mut lines = readme.lines().enumerate();
    while let Some((number, line)) = lines.next() {
        if let Some(info) = line.strip_prefix("```rust,ignore") {
            let body = lines
                .by_ref()
                .map(|(_, l)| l)
                .take_while(|l| !l.starts_with("```"));
            fences.push((number + 1, info.trim(), body.map(str::trim).collect()));
        }
    }
    fences
}

#[test]
fn the_readme_fences_are_the_code_compiled() {
    let readme = include_str!("../../README.md");
    let mut compiled = 0;
    for (line, info, body) in ignored_fences(readme) {
        if let Some(tag) = info.strip_prefix("readme-test:") {
            assert_eq!(
                body,
                compiled_copy(tag),
                "README.md line {line}: fence {tag}"
            );
            compiled += 1;
        } else {
            assert!(
                info.starts_with("quickstart:"),
                "README.md line {line}: a rust,ignore fence that nothing compiles ({info:?})"
            );
        }
    }
    assert_eq!(
        compiled, 7,
        "the handler, tasks, skills, eras, raw-json, auth-client and auth-server fences"
    );
}

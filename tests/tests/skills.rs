//! The skills extension (SEP-2640), generated from the official 2026-07-28 schema with
//! `Builder::extension("io.modelcontextprotocol/skills")` beside the tasks extension: messages
//! written here in the extension's wire format read into the generated types and write back
//! the same JSON; entries that break its shape are refused; its three results are `complete`
//! results; and the server, not the client, declares it (`declared_in`), so `declares`,
//! `declare` and `settings` work on `ServerCapabilities`.

use mcp_runtime::McpResultType;
use mcp_runtime::extension::{Extension, ExtensionCapabilities, Reader};
use mcp_runtime::result_type::accepting;
use mcp_tests::tasks as mcp;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

const SKILL_MD_DIGEST: &str =
    "sha256:7f3a9c1e5b2d4f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8";
const FORMS_DIGEST: &str =
    "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/// The `_meta` a 2026-07-28 request carries.
fn request_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "skills-host", "version": "0.3.0"}
    })
}

/// A listed skill with its files, and a frontmatter with fields the extension does not name.
fn listed_skill() -> Value {
    json!({
        "uri": "skill://pdf-processing/SKILL.md",
        "frontmatter": {
            "name": "pdf-processing",
            "description": "Fill in PDF forms and pull text out of scanned pages.",
            "license": "Apache-2.0",
            "allowed-tools": ["read_file", "run_script"],
            "metadata": {"owner": {"team": "docs", "on-call": null}, "revision": 7, "beta": true}
        },
        "resources": [
            {"uri": "skill://pdf-processing/SKILL.md", "digest": SKILL_MD_DIGEST, "size": 412},
            {"uri": "skill://pdf-processing/references/FORMS.md", "digest": FORMS_DIGEST,
             "size": 2048}
        ]
    })
}

/// A skill whose content is generated: `"dynamic"` instead of a file list.
fn dynamic_skill() -> Value {
    json!({
        "uri": "skill://reports/weekly-summary/SKILL.md",
        "frontmatter": {"name": "weekly-summary", "description": "Summarise this week's tickets."},
        "resources": "dynamic"
    })
}

fn list_result() -> Value {
    json!({
        "resultType": "complete",
        "skills": [listed_skill(), dynamic_skill()],
        "nextCursor": "page-2",
        "ttlMs": 60000,
        "cacheScope": "private"
    })
}

fn get_result() -> Value {
    json!({
        "resultType": "complete",
        "skill": listed_skill(),
        "ttlMs": 0,
        "cacheScope": "public",
        "_meta": {"com.example/served-by": "edge-3"}
    })
}

fn directory_result() -> Value {
    json!({
        "resultType": "complete",
        "resources": [
            {"uri": "skill://pdf-processing/SKILL.md", "name": "SKILL.md",
             "mimeType": "text/markdown", "size": 412},
            {"uri": "skill://pdf-processing/references", "name": "references",
             "mimeType": "inode/directory"}
        ],
        "nextCursor": "more"
    })
}

/// Reads `value` as `T` and writes it back: the same JSON (numbers by value).
fn round_trip<T: DeserializeOwned + Serialize>(value: &Value) -> T {
    let typed: T =
        serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e}\n  reading {value}"));
    let back = serde_json::to_value(&typed).unwrap();
    assert_eq!(
        mcp_tests::json_diff(value, &back, String::new()),
        None,
        "\n  input: {value}\n  output: {back}"
    );
    assert_eq!(&back, value);
    typed
}

/// A `skills/get` result's entry holding `resources`.
fn resources_of(resources: Value) -> Value {
    let mut entry = listed_skill();
    entry["resources"] = resources;
    entry
}

/// The error reading `value` as `T`.
fn refusal<T: DeserializeOwned + std::fmt::Debug>(value: Value) -> String {
    match serde_json::from_value::<T>(value.clone()) {
        Ok(read) => panic!("{value} read as {read:?}"),
        Err(e) => e.to_string(),
    }
}

fn response(result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": "skills-1", "result": result})
}

#[test]
fn the_marker_names_the_extension_and_adds_no_result_type() {
    assert_eq!(mcp::SkillsExtension::ID, "io.modelcontextprotocol/skills");
    assert!(mcp::SkillsExtension::RESULT_TYPES.is_empty());
    assert_eq!(mcp::ListSkillsResult::RESULT_TYPE, "complete");
    assert_eq!(mcp::GetSkillResult::RESULT_TYPE, "complete");
    assert_eq!(mcp::ReadResourceDirectoryResult::RESULT_TYPE, "complete");
    assert_eq!(mcp::ListSkillsRequest::METHOD, "skills/list");
    assert_eq!(mcp::GetSkillRequest::METHOD, "skills/get");
    assert_eq!(
        mcp::ReadResourceDirectoryRequest::METHOD,
        "resources/directory/read"
    );
    // The tasks extension, enabled in the same module, is untouched.
    assert_eq!(mcp::TasksExtension::RESULT_TYPES, ["task"]);
}

#[test]
fn a_listing_with_a_file_list_and_a_dynamic_entry_round_trips() {
    let result: mcp::ListSkillsResult = round_trip(&list_result());
    assert_eq!(result.ttl_ms, 60000);
    assert_eq!(result.cache_scope, mcp::CacheScope::Private);
    assert_eq!(result.next_cursor.as_deref(), Some("page-2"));
    let [listed, dynamic] = &result.skills[..] else {
        panic!("{:?}", result.skills)
    };
    let mcp::SkillFiles::SkillFileList(files) = &listed.resources else {
        panic!("{:?}", listed.resources)
    };
    assert_eq!(files.len(), 2);
    assert_eq!(files[1].uri, "skill://pdf-processing/references/FORMS.md");
    assert_eq!(files[1].digest, FORMS_DIGEST);
    assert_eq!(files[1].size, 2048);
    assert_eq!(
        dynamic.resources,
        mcp::SkillFiles::DynamicSkillFiles(mcp::DynamicSkillFiles::Dynamic)
    );
    assert_eq!(dynamic.uri, "skill://reports/weekly-summary/SKILL.md");
    // As a whole response too; the last page has no cursor.
    round_trip::<mcp::ListSkillsResultResponse>(&response(list_result()));
    let mut last = list_result();
    last.as_object_mut().unwrap().remove("nextCursor");
    let last: mcp::ListSkillsResult = round_trip(&last);
    assert_eq!(last.next_cursor, None);
    // An empty page is a valid page.
    let empty = json!({"resultType": "complete", "skills": [], "ttlMs": 0, "cacheScope": "public"});
    assert!(
        round_trip::<mcp::ListSkillsResult>(&empty)
            .skills
            .is_empty()
    );
}

#[test]
fn the_frontmatter_keeps_every_field_as_written() {
    let result: mcp::GetSkillResult = round_trip(&get_result());
    let frontmatter = &result.skill.frontmatter;
    assert_eq!(frontmatter["name"], "pdf-processing");
    assert_eq!(frontmatter["license"], "Apache-2.0");
    assert_eq!(
        frontmatter["allowed-tools"],
        json!(["read_file", "run_script"])
    );
    assert_eq!(
        frontmatter["metadata"],
        json!({"owner": {"team": "docs", "on-call": null}, "revision": 7, "beta": true})
    );
    assert_eq!(
        Value::Object(frontmatter.clone()),
        listed_skill()["frontmatter"]
    );
    // Built in code, the frontmatter is the map given.
    let skill = mcp::Skill::new(
        frontmatter.clone(),
        mcp::SkillFiles::DynamicSkillFiles(mcp::DynamicSkillFiles::Dynamic),
        "skill://pdf-processing/SKILL.md",
    );
    let written = serde_json::to_value(&skill).unwrap();
    assert_eq!(
        written["frontmatter"]["metadata"]["owner"]["on-call"],
        Value::Null
    );
    assert_eq!(written["resources"], "dynamic");
}

#[test]
fn a_get_result_and_its_response_round_trip() {
    let result: mcp::GetSkillResult = round_trip(&get_result());
    assert_eq!(result.ttl_ms, 0);
    assert_eq!(result.cache_scope, mcp::CacheScope::Public);
    assert_eq!(result.skill.uri, "skill://pdf-processing/SKILL.md");
    assert!(result.meta.is_some());
    round_trip::<mcp::GetSkillResultResponse>(&response(get_result()));
    // Built in code, the same message.
    let files = vec![
        mcp::SkillResource::new(SKILL_MD_DIGEST, 412u64, "skill://pdf-processing/SKILL.md"),
        mcp::SkillResource::new(
            FORMS_DIGEST,
            2048u64,
            "skill://pdf-processing/references/FORMS.md",
        ),
    ];
    let frontmatter = listed_skill()["frontmatter"].as_object().unwrap().clone();
    let skill = mcp::Skill::new(
        frontmatter,
        mcp::SkillFiles::SkillFileList(files),
        "skill://pdf-processing/SKILL.md",
    );
    let built = mcp::GetSkillResult::new(mcp::CacheScope::Public, skill, 0u64);
    let mut expected = get_result();
    expected.as_object_mut().unwrap().remove("_meta");
    assert_eq!(serde_json::to_value(&built).unwrap(), expected);
}

#[test]
fn a_directory_page_with_a_directory_child_round_trips() {
    let result: mcp::ReadResourceDirectoryResult = round_trip(&directory_result());
    let [file, directory] = &result.resources[..] else {
        panic!("{:?}", result.resources)
    };
    assert_eq!(file.size, Some(412));
    assert_eq!(directory.mime_type.as_deref(), Some("inode/directory"));
    assert_eq!(directory.size, None);
    assert_eq!(result.next_cursor.as_deref(), Some("more"));
    round_trip::<mcp::ReadResourceDirectoryResultResponse>(&response(directory_result()));
    // An empty directory: an empty list; the directory result carries no cache hints.
    let empty = json!({"resultType": "complete", "resources": []});
    round_trip::<mcp::ReadResourceDirectoryResult>(&empty);
}

#[test]
fn the_three_requests_round_trip_with_their_meta() {
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "skills/list",
        "params": {"_meta": request_meta(), "cursor": "page-2"}});
    let list: mcp::ListSkillsRequest = round_trip(&list);
    assert_eq!(list.params.cursor.as_deref(), Some("page-2"));
    assert_eq!(list.params.meta.protocol_version, "2026-07-28");
    let get = json!({"jsonrpc": "2.0", "id": 2, "method": "skills/get",
        "params": {"_meta": request_meta(), "uri": "skill://pdf-processing/SKILL.md"}});
    let get: mcp::GetSkillRequest = round_trip(&get);
    assert_eq!(get.params.uri, "skill://pdf-processing/SKILL.md");
    let read = json!({"jsonrpc": "2.0", "id": "d", "method": "resources/directory/read",
        "params": {"_meta": request_meta(), "uri": "skill://pdf-processing/references",
                   "cursor": "more"}});
    let read: mcp::ReadResourceDirectoryRequest = round_trip(&read);
    assert_eq!(read.params.uri, "skill://pdf-processing/references");
    assert_eq!(read.params.cursor.as_deref(), Some("more"));
    // Built in code: the same messages.
    let meta: mcp::RequestMetaObject = serde_json::from_value(request_meta()).unwrap();
    let built = mcp::GetSkillRequest::new(
        mcp::RequestId::Integer(2),
        mcp::GetSkillRequestParams::new(meta.clone(), "skill://pdf-processing/SKILL.md"),
    );
    assert_eq!(built, get);
    let built = mcp::ReadResourceDirectoryRequest::new(
        mcp::RequestId::String("d".into()),
        mcp::ReadResourceDirectoryRequestParams::new(meta, "skill://pdf-processing/references")
            .with_cursor("more"),
    );
    assert_eq!(built, read);
}

#[test]
fn a_request_without_its_meta_or_uri_is_refused() {
    let e = refusal::<mcp::GetSkillRequest>(json!({"jsonrpc": "2.0", "id": 2,
        "method": "skills/get", "params": {"uri": "skill://pdf-processing/SKILL.md"}}));
    assert!(e.contains("missing field `_meta`"), "{e}");
    let e = refusal::<mcp::ReadResourceDirectoryRequest>(json!({"jsonrpc": "2.0", "id": 2,
        "method": "resources/directory/read", "params": {"_meta": request_meta()}}));
    assert!(e.contains("missing field `uri`"), "{e}");
    let e = refusal::<mcp::ListSkillsRequest>(json!({"jsonrpc": "2.0", "id": 2,
        "method": "skills/list"}));
    assert!(e.contains("missing field `params`"), "{e}");
    // Another method is not this request.
    let e = refusal::<mcp::ListSkillsRequest>(json!({"jsonrpc": "2.0", "id": 2,
        "method": "skills/get", "params": {"_meta": request_meta()}}));
    assert_eq!(
        e,
        r#"invalid value for `method`: expected "skills/list", found "skills/get""#
    );
}

#[test]
fn resources_are_the_file_list_or_dynamic_and_nothing_else() {
    // Told apart by JSON type: a string must be the one value, anything but a string or an
    // array is no variant.
    for (resources, expected) in [
        (
            json!("static"),
            "unknown variant `static`, expected `dynamic`",
        ),
        (
            json!("Dynamic"),
            "unknown variant `Dynamic`, expected `dynamic`",
        ),
        (json!(""), "unknown variant ``, expected `dynamic`"),
        (
            json!({}),
            "invalid type: map, expected a JSON string or array (SkillFiles)",
        ),
        (
            json!({"uri": "skill://pdf-processing/SKILL.md"}),
            "invalid type: map, expected a JSON string or array (SkillFiles)",
        ),
        (
            json!(null),
            "invalid type: null, expected a JSON string or array (SkillFiles)",
        ),
        (
            json!(true),
            "invalid type: boolean `true`, expected a JSON string or array (SkillFiles)",
        ),
        (
            json!(3),
            "invalid type: integer `3`, expected a JSON string or array (SkillFiles)",
        ),
    ] {
        let mut entry = listed_skill();
        entry["resources"] = resources.clone();
        assert_eq!(
            refusal::<mcp::Skill>(entry.clone()),
            expected,
            "{resources}"
        );
        // And so is a listing that holds such an entry beside a valid one.
        let list = json!({"resultType": "complete", "skills": [dynamic_skill(), entry],
            "ttlMs": 1, "cacheScope": "public"});
        assert_eq!(refusal::<mcp::ListSkillsResult>(list), expected);
        let get = json!({"resultType": "complete", "skill": resources_of(resources),
            "ttlMs": 1, "cacheScope": "public"});
        assert_eq!(refusal::<mcp::GetSkillResult>(get), expected);
    }
    // A file of the list without its digest, or of a negative size, is refused too.
    let mut entry = listed_skill();
    entry["resources"][1]
        .as_object_mut()
        .unwrap()
        .remove("digest");
    assert_eq!(refusal::<mcp::Skill>(entry), "missing field `digest`");
    let mut entry = listed_skill();
    entry["resources"][1]["size"] = json!(-1);
    assert_eq!(
        refusal::<mcp::Skill>(entry),
        "invalid value: integer `-1`, expected u64"
    );
}

#[test]
fn an_entry_needs_its_uri_frontmatter_and_resources() {
    for member in ["uri", "frontmatter", "resources"] {
        let mut entry = listed_skill();
        entry.as_object_mut().unwrap().remove(member);
        let e = refusal::<mcp::Skill>(entry);
        assert!(e.contains(&format!("missing field `{member}`")), "{e}");
    }
    // The frontmatter is an object: a YAML text or a list is not one.
    for (frontmatter, expected) in [
        (
            json!("name: pdf-processing"),
            r#"invalid type: string "name: pdf-processing", expected a map"#,
        ),
        (json!([]), "invalid type: sequence, expected a map"),
        (json!(null), "invalid type: null, expected a map"),
    ] {
        let mut entry = listed_skill();
        entry["frontmatter"] = frontmatter;
        assert_eq!(refusal::<mcp::Skill>(entry), expected);
    }
    // Missing from a listing's entry, the listing is refused.
    let mut list = list_result();
    list["skills"][0]
        .as_object_mut()
        .unwrap()
        .remove("frontmatter");
    assert_eq!(
        refusal::<mcp::ListSkillsResult>(list),
        "missing field `frontmatter`"
    );
    // What the frontmatter holds is not checked when reading: an empty object reads (the
    // server's catalog and the client's HeldEntry check name and description).
    let mut entry = listed_skill();
    entry["frontmatter"] = json!({});
    round_trip::<mcp::Skill>(&entry);
}

#[test]
fn the_cache_hints_are_required_on_the_two_skills_results() {
    for member in ["ttlMs", "cacheScope", "skills"] {
        let mut list = list_result();
        list.as_object_mut().unwrap().remove(member);
        let e = refusal::<mcp::ListSkillsResult>(list);
        assert!(e.contains(&format!("missing field `{member}`")), "{e}");
    }
    for member in ["ttlMs", "cacheScope", "skill"] {
        let mut get = get_result();
        get.as_object_mut().unwrap().remove(member);
        let e = refusal::<mcp::GetSkillResult>(get);
        assert!(e.contains(&format!("missing field `{member}`")), "{e}");
    }
    let mut list = list_result();
    list["cacheScope"] = json!("shared");
    assert_eq!(
        refusal::<mcp::ListSkillsResult>(list),
        "unknown variant `shared`, expected `private` or `public`"
    );
    let mut list = list_result();
    list["ttlMs"] = json!(-5);
    assert_eq!(
        refusal::<mcp::ListSkillsResult>(list),
        "invalid value: integer `-5`, expected u64"
    );
    // The directory result reads without cache hints, and writes none it was not given.
    let directory: mcp::ReadResourceDirectoryResult =
        serde_json::from_value(directory_result()).unwrap();
    let written = serde_json::to_value(directory).unwrap();
    assert!(written.get("ttlMs").is_none() && written.get("cacheScope").is_none());
}

#[test]
fn a_missing_result_type_reads_as_complete_and_is_written() {
    for (mut value, name) in [
        (list_result(), "ListSkillsResult"),
        (get_result(), "GetSkillResult"),
        (directory_result(), "ReadResourceDirectoryResult"),
    ] {
        value.as_object_mut().unwrap().remove("resultType");
        let back = match name {
            "ListSkillsResult" => serde_json::to_value(
                serde_json::from_value::<mcp::ListSkillsResult>(value.clone()).unwrap(),
            ),
            "GetSkillResult" => serde_json::to_value(
                serde_json::from_value::<mcp::GetSkillResult>(value.clone()).unwrap(),
            ),
            _ => serde_json::to_value(
                serde_json::from_value::<mcp::ReadResourceDirectoryResult>(value.clone()).unwrap(),
            ),
        }
        .unwrap();
        assert_eq!(back["resultType"], "complete", "{name}");
        let mut back = back;
        back.as_object_mut().unwrap().remove("resultType");
        assert_eq!(back, value, "{name}");
    }
}

#[test]
fn another_result_type_is_refused_even_where_an_extension_value_is_accepted() {
    let invalid = |value: &str, name: &str| {
        format!("resultType {value:?} is not valid for {name}: expected \"complete\"")
    };
    for result_type in ["input_required", "task", "partial", "Complete", ""] {
        let mut list = list_result();
        list["resultType"] = json!(result_type);
        assert_eq!(
            refusal::<mcp::ListSkillsResult>(list.clone()),
            invalid(result_type, "ListSkillsResult")
        );
        let mut get = get_result();
        get["resultType"] = json!(result_type);
        assert_eq!(
            refusal::<mcp::GetSkillResult>(get.clone()),
            invalid(result_type, "GetSkillResult")
        );
        assert_eq!(
            refusal::<mcp::GetSkillResultResponse>(response(get)),
            invalid(result_type, "GetSkillResult")
        );
        let mut directory = directory_result();
        directory["resultType"] = json!(result_type);
        assert_eq!(
            refusal::<mcp::ReadResourceDirectoryResult>(directory.clone()),
            invalid(result_type, "ReadResourceDirectoryResult")
        );
        // The tasks extension's value accepted (as when the client advertised it) does not
        // make "task" a value of these results: they are complete results.
        let accepted = accepting(mcp::TasksExtension::RESULT_TYPES, || {
            serde_json::from_value::<mcp::ListSkillsResult>(list.clone())
        });
        assert_eq!(
            accepted.unwrap_err().to_string(),
            invalid(result_type, "ListSkillsResult")
        );
        let mut caps = mcp::ClientCapabilities::new();
        caps.declare::<mcp::TasksExtension>();
        caps.declare::<mcp::SkillsExtension>();
        let reader = Reader::new(&caps).extension::<mcp::TasksExtension>();
        let text = response(directory).to_string();
        let e = reader
            .from_str::<mcp::ReadResourceDirectoryResultResponse>(&text)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&invalid(result_type, "ReadResourceDirectoryResult")),
            "{e}"
        );
    }
    // Not a string at all.
    let mut list = list_result();
    list["resultType"] = json!(5);
    assert_eq!(
        refusal::<mcp::ListSkillsResult>(list),
        "invalid type: integer `5`, expected resultType string"
    );
    // "complete", the only value, reads through the reader too.
    let caps = mcp::ClientCapabilities::new();
    let text = response(get_result()).to_string();
    let read: mcp::GetSkillResultResponse = Reader::new(&caps).from_str(&text).unwrap();
    assert_eq!(read.result.skill.uri, "skill://pdf-processing/SKILL.md");
}

#[test]
fn the_server_declares_the_extension_with_its_directory_read_setting() {
    let declared: mcp::ServerCapabilities = round_trip(&json!({
        "resources": {},
        "extensions": {"io.modelcontextprotocol/skills": {"directoryRead": true}}
    }));
    assert!(declared.declares::<mcp::SkillsExtension>());
    assert!(!declared.declares::<mcp::TasksExtension>());
    let settings = declared.settings::<mcp::SkillsExtension>().unwrap();
    assert_eq!(settings.get("directoryRead"), Some(&json!(true)));
    // The settings read as the generated settings type.
    let typed: mcp::SkillsExtensionSettings =
        serde_json::from_value(serde_json::to_value(settings).unwrap()).unwrap();
    assert_eq!(typed.directory_read, Some(true));

    // Declared without settings: the extension, no directory reads.
    let plain: mcp::ServerCapabilities =
        round_trip(&json!({"extensions": {"io.modelcontextprotocol/skills": {}}}));
    assert!(plain.declares::<mcp::SkillsExtension>());
    let settings = plain.settings::<mcp::SkillsExtension>().unwrap();
    assert_eq!(settings.get("directoryRead"), None);
    let typed: mcp::SkillsExtensionSettings =
        serde_json::from_value(serde_json::to_value(settings).unwrap()).unwrap();
    assert_eq!(typed.directory_read, None);

    // Not declared: no extension, no settings.
    for caps in [
        json!({}),
        json!({"resources": {"subscribe": true}}),
        json!({"extensions": {}}),
        json!({"extensions": {"com.example/skills": {"directoryRead": true}}}),
    ] {
        let caps: mcp::ServerCapabilities = round_trip(&caps);
        assert!(!caps.declares::<mcp::SkillsExtension>(), "{caps:?}");
        assert_eq!(caps.settings::<mcp::SkillsExtension>(), None);
    }

    // Declared in code, with the setting written as the specification names it.
    let mut caps = mcp::ServerCapabilities::new();
    caps.declare::<mcp::SkillsExtension>();
    assert_eq!(
        serde_json::to_value(&caps).unwrap(),
        json!({"extensions": {"io.modelcontextprotocol/skills": {}}})
    );
    let setting =
        serde_json::to_value(mcp::SkillsExtensionSettings::new().with_directory_read(true))
            .unwrap();
    assert_eq!(setting, json!({"directoryRead": true}));
    caps.extensions_mut().insert(
        mcp::SkillsExtension::ID.into(),
        serde_json::from_value(setting).unwrap(),
    );
    assert_eq!(
        serde_json::to_value(&caps).unwrap(),
        json!({"extensions": {"io.modelcontextprotocol/skills": {"directoryRead": true}}})
    );
    // Declaring again keeps the settings.
    caps.declare::<mcp::SkillsExtension>();
    assert_eq!(
        caps.settings::<mcp::SkillsExtension>().unwrap()["directoryRead"],
        json!(true)
    );
}

#[test]
fn the_client_capabilities_are_unaffected() {
    // The client's capabilities read and write as before; the tasks extension is still
    // declared there.
    let caps: mcp::ClientCapabilities = round_trip(&json!({
        "sampling": {},
        "extensions": {"io.modelcontextprotocol/tasks": {}}
    }));
    assert!(caps.declares::<mcp::TasksExtension>());
    assert!(!caps.declares::<mcp::SkillsExtension>());
    let mut fresh = mcp::ClientCapabilities::new();
    fresh.declare::<mcp::TasksExtension>();
    assert_eq!(
        serde_json::to_value(&fresh).unwrap(),
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
    );
    // A request's `_meta` carries the client's capabilities, not the server's: the
    // extension's requests need no client declaration.
    let get = json!({"jsonrpc": "2.0", "id": 2, "method": "skills/get",
        "params": {"_meta": request_meta(), "uri": "skill://pdf-processing/SKILL.md"}});
    let get: mcp::GetSkillRequest = serde_json::from_value(get).unwrap();
    assert!(
        !get.params
            .meta
            .client_capabilities
            .declares::<mcp::SkillsExtension>()
    );
}

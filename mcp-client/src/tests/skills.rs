//! The skills extension's requests are sent only to a server that allows them: `skills/*` to
//! one that declared the extension, `resources/directory/read` to one that declared
//! `directoryRead: true`; otherwise the call fails unsent, saying why. And `mcp_client::skills`'
//! calls against a scripted server, honest or not: the skills listed and held, a skill loaded
//! and verified (a tampered file refusing it), directories paged, and the limits a server
//! cannot page or send past.

use mcp_client_test_types::mcp;
use serde_json::{Value, json};

use super::fixture::client;
use super::scripted::{Answer, Seen, result, serve};
use crate::ClientError;
use crate::skills::{self, Limits, SkillsError, VerifyError};

/// A modern server whose capabilities carry `extensions`, answering `skills/list` with an
/// empty page and `resources/directory/read` with no children.
fn answer_with(extensions: Value, seen: &Seen) -> Answer {
    let answer = match seen.method() {
        "server/discover" => json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"resources": {}, "extensions": extensions}}),
        "skills/list" => json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "skills": []}),
        _ => json!({"resultType": "complete", "resources": []}),
    };
    Answer::Json(200, result(seen, answer))
}

fn without_skills(seen: &Seen, _: &[Seen]) -> Answer {
    answer_with(json!({}), seen)
}

fn skills_without_directories(seen: &Seen, _: &[Seen]) -> Answer {
    answer_with(json!({"io.modelcontextprotocol/skills": {}}), seen)
}

fn skills_with_directories(seen: &Seen, _: &[Seen]) -> Answer {
    answer_with(
        json!({"io.modelcontextprotocol/skills": {"directoryRead": true}}),
        seen,
    )
}

fn methods(log: &std::sync::Mutex<Vec<Seen>>) -> Vec<String> {
    let log = log.lock().unwrap();
    log.iter().map(|s| s.method().to_owned()).collect()
}

#[tokio::test]
async fn skills_requests_are_not_sent_to_a_server_without_the_extension() {
    let (url, log) = serve(without_skills).await;
    let mut c = client(&url);
    c.connect().await.unwrap();
    let params = mcp::PaginatedRequestParams::new(c.meta());
    let Err(ClientError::Protocol(why)) = c.call::<mcp::ListSkillsRequest>(params).await else {
        panic!("skills/list refused")
    };
    assert_eq!(
        why,
        "skills/list not sent: the server did not declare the extension io.modelcontextprotocol/skills"
    );
    assert_eq!(methods(&log), ["server/discover"]);
}

#[tokio::test]
async fn directory_reads_need_directory_read() {
    let (url, log) = serve(skills_without_directories).await;
    let mut c = client(&url);
    c.connect().await.unwrap();
    let listed = c
        .call::<mcp::ListSkillsRequest>(mcp::PaginatedRequestParams::new(c.meta()))
        .await
        .unwrap();
    assert!(listed.skills.is_empty());
    let params = mcp::ReadResourceDirectoryRequestParams::new(c.meta(), "skill://a");
    let Err(ClientError::Protocol(why)) = c.call::<mcp::ReadResourceDirectoryRequest>(params).await
    else {
        panic!("resources/directory/read refused")
    };
    assert!(why.contains("without directoryRead: true"), "{why}");
    assert_eq!(methods(&log), ["server/discover", "skills/list"]);

    let (url, log) = serve(skills_with_directories).await;
    let mut c = client(&url);
    c.connect().await.unwrap();
    let params = mcp::ReadResourceDirectoryRequestParams::new(c.meta(), "skill://a");
    let read = c
        .call::<mcp::ReadResourceDirectoryRequest>(params)
        .await
        .unwrap();
    assert!(read.resources.is_empty());
    assert_eq!(
        methods(&log),
        ["server/discover", "resources/directory/read"]
    );
}

/// The skill the loading tests serve: a `SKILL.md` and one other file.
const SKILL_MD_URI: &str = "skill://greeting/SKILL.md";
const SKILL_MD: &str = "---\nname: greeting\ndescription: Says hello\n---\n\nSay hello.\n";
const NOTES_URI: &str = "skill://greeting/notes.md";
const NOTES: &str = "Be kind.\n";

fn file(uri: &str, text: &str) -> Value {
    let digest = mcp_runtime::skills::digest(text.as_bytes());
    json!({"uri": uri, "digest": digest, "size": text.len()})
}

fn greeting() -> Value {
    json!({"uri": SKILL_MD_URI,
        "frontmatter": {"name": "greeting", "description": "Says hello"},
        "resources": [file(SKILL_MD_URI, SKILL_MD), file(NOTES_URI, NOTES)]})
}

/// An entry whose URI names another skill than its frontmatter: never held.
fn misnamed() -> Value {
    json!({"uri": "skill://other/SKILL.md",
        "frontmatter": {"name": "greeting", "description": "Says hello"},
        "resources": [file("skill://other/SKILL.md", SKILL_MD)]})
}

/// A server with the skill (`directoryRead` declared): `skills/list` in two pages (the second
/// with [`misnamed`]), `skills/get`, `resources/read` of its files (`notes` served as given),
/// and `resources/directory/read` in two pages, or without end when `endless`.
fn skill_server(seen: &Seen, notes: &str, skill_md: &str, endless: bool) -> Answer {
    let params = &seen.body["params"];
    let cursor = params["cursor"].as_str();
    let answer = match seen.method() {
        "server/discover" => json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "supportedVersions": ["2026-07-28"], "capabilities": {"resources": {},
            "extensions": {"io.modelcontextprotocol/skills": {"directoryRead": true}}}}),
        "skills/list" if cursor.is_none() => json!({"resultType": "complete", "ttlMs": 0,
            "cacheScope": "private", "skills": [greeting()], "nextCursor": "2"}),
        "skills/list" => json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "skills": [misnamed()]}),
        "skills/get" if params["uri"] == SKILL_MD_URI => json!({"resultType": "complete",
            "ttlMs": 0, "cacheScope": "private", "skill": greeting()}),
        "skills/get" => json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "skill": misnamed()}),
        "resources/read" => {
            let uri = params["uri"].as_str().unwrap_or_default();
            let text = if uri == SKILL_MD_URI { skill_md } else { notes };
            json!({"resultType": "complete", "contents": [{"uri": uri, "text": text}]})
        }
        "resources/directory/read" => {
            let n: u32 = cursor.map_or(0, |c| c.parse().unwrap());
            let child = json!({"uri": format!("skill://greeting/{n}.md"), "name": format!("{n}")});
            let mut page = json!({"resultType": "complete", "resources": [child]});
            if endless || n == 0 {
                page["nextCursor"] = json!((n + 1).to_string());
            }
            page
        }
        _ => return Answer::Json(404, Value::Null),
    };
    Answer::Json(200, result(seen, answer))
}

fn honest(seen: &Seen, _: &[Seen]) -> Answer {
    skill_server(seen, NOTES, SKILL_MD, false)
}

/// The notes tampered with (same size, another digest).
fn tampered_notes(seen: &Seen, _: &[Seen]) -> Answer {
    skill_server(seen, "Be mean.\n", SKILL_MD, false)
}

/// The `SKILL.md` tampered with (same size, another digest).
fn tampered_skill_md(seen: &Seen, _: &[Seen]) -> Answer {
    skill_server(seen, NOTES, &SKILL_MD.replace("hello.", "HELLO."), false)
}

/// A directory whose every page has a next.
fn endless(seen: &Seen, _: &[Seen]) -> Answer {
    skill_server(seen, NOTES, SKILL_MD, true)
}

/// A connected client of `script`.
async fn connected(script: super::scripted::Script) -> (crate::Client<super::fixture::Mcp>, Log) {
    let (url, log) = serve(script).await;
    let mut c = client(&url);
    c.connect().await.unwrap();
    (c, log)
}

type Log = std::sync::Arc<std::sync::Mutex<Vec<Seen>>>;

/// The URIs `resources/read` was sent for, in order.
fn reads(log: &Log) -> Vec<String> {
    let log = log.lock().unwrap();
    let reads = log.iter().filter(|s| s.method() == "resources/read");
    reads
        .map(|s| s.body["params"]["uri"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn listing_holds_every_valid_entry_of_every_page_and_reads_no_file() {
    let (mut c, log) = connected(honest).await;
    let listed = skills::list(&mut c, Limits::default()).await.unwrap();
    let held: Vec<&str> = listed.held.iter().map(|e| e.uri()).collect();
    assert_eq!(held, [SKILL_MD_URI]);
    assert_eq!(listed.invalid.len(), 1);
    assert_eq!(listed.invalid[0].0, "skill://other/SKILL.md");
    assert_eq!(
        methods(&log),
        ["server/discover", "skills/list", "skills/list"]
    );
    assert_eq!(log.lock().unwrap()[2].body["params"]["cursor"], "2");
}

#[tokio::test]
async fn loading_reads_the_skill_md_first_then_every_listed_file_verified() {
    let (mut c, log) = connected(honest).await;
    let entry = skills::get(&mut c, SKILL_MD_URI).await.unwrap();
    let loaded = skills::load(&mut c, &entry, Limits::default())
        .await
        .unwrap();
    assert_eq!(loaded.count(), 2);
    assert_eq!(loaded.skill_md.text(), SKILL_MD);
    assert_eq!(loaded.files[0].uri(), NOTES_URI);
    assert_eq!(loaded.files[0].bytes(), NOTES.as_bytes());
    assert_eq!(reads(&log), [SKILL_MD_URI, NOTES_URI]);
}

#[tokio::test]
async fn loading_by_uri_uses_the_held_entry_or_else_gets_one() {
    let (mut c, log) = connected(honest).await;
    let listed = skills::list(&mut c, Limits::default()).await.unwrap();
    let loaded = skills::load_uri(&mut c, &listed.held, SKILL_MD_URI, Limits::default());
    assert_eq!(loaded.await.unwrap().count(), 2);
    let unlisted = skills::load_uri(&mut c, &[], SKILL_MD_URI, Limits::default());
    assert_eq!(unlisted.await.unwrap().count(), 2);
    let invalid = skills::load_uri(&mut c, &[], "skill://other/SKILL.md", Limits::default());
    let Err(SkillsError::Entry { uri, .. }) = invalid.await else {
        panic!("an entry that breaks the rules is not loaded")
    };
    assert_eq!(uri, "skill://other/SKILL.md");
    let sent = methods(&log);
    let sent: Vec<&str> = sent.iter().map(String::as_str).skip(3).collect();
    assert_eq!(
        sent,
        [
            "resources/read",
            "resources/read",
            "skills/get",
            "resources/read",
            "resources/read",
            "skills/get"
        ]
    );
}

#[tokio::test]
async fn an_entry_got_that_breaks_the_rules_is_an_error() {
    let (mut c, _) = connected(honest).await;
    let got = skills::get(&mut c, "skill://other/SKILL.md").await;
    let Err(SkillsError::Entry { uri, .. }) = got else {
        panic!("refused: {got:?}")
    };
    assert_eq!(uri, "skill://other/SKILL.md");
}

#[tokio::test]
async fn a_tampered_file_refuses_the_skill() {
    let (mut c, log) = connected(tampered_notes).await;
    let entry = skills::get(&mut c, SKILL_MD_URI).await.unwrap();
    let loaded = skills::load(&mut c, &entry, Limits::default()).await;
    let Err(SkillsError::Refused(VerifyError::Digest { .. })) = loaded else {
        panic!("refused for its digest: {loaded:?}")
    };
    assert_eq!(reads(&log), [SKILL_MD_URI, NOTES_URI]);
}

#[tokio::test]
async fn a_tampered_skill_md_refuses_the_skill_and_nothing_more_is_read() {
    let (mut c, log) = connected(tampered_skill_md).await;
    let entry = skills::get(&mut c, SKILL_MD_URI).await.unwrap();
    let loaded = skills::load(&mut c, &entry, Limits::default()).await;
    let Err(SkillsError::Refused(VerifyError::Digest { .. })) = loaded else {
        panic!("refused for its digest: {loaded:?}")
    };
    assert_eq!(reads(&log), [SKILL_MD_URI]);
}

#[tokio::test]
async fn a_directory_is_read_page_after_page() {
    let (mut c, log) = connected(honest).await;
    let children = skills::read_directory(&mut c, "skill://greeting", Limits::default())
        .await
        .unwrap();
    let names: Vec<&str> = children.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["0", "1"]);
    let sent = methods(&log);
    assert_eq!(
        sent.iter()
            .filter(|m| *m == "resources/directory/read")
            .count(),
        2
    );
}

#[tokio::test]
async fn endless_directory_paging_stops_at_the_page_limit() {
    let (mut c, log) = connected(endless).await;
    let limits = Limits {
        max_pages: 5,
        ..Limits::default()
    };
    let read = skills::read_directory(&mut c, "skill://greeting", limits).await;
    let Err(e @ SkillsError::TooManyPages { .. }) = read else {
        panic!("stopped: {:?}", read.map(|r| r.len()))
    };
    assert_eq!(
        e.to_string(),
        "resources/directory/read: more than 5 pages (Limits::max_pages)"
    );
    let sent = methods(&log);
    assert_eq!(
        sent.iter()
            .filter(|m| *m == "resources/directory/read")
            .count(),
        5
    );
}

#[tokio::test]
async fn what_a_listing_or_a_load_reads_stops_at_the_byte_limit() {
    let (mut c, log) = connected(endless).await;
    let limits = Limits {
        max_pages: 1000,
        max_bytes: 400,
    };
    let read = skills::read_directory(&mut c, "skill://greeting", limits).await;
    let Err(e @ SkillsError::TooManyBytes { .. }) = read else {
        panic!("stopped: {:?}", read.map(|r| r.len()))
    };
    assert_eq!(
        e.to_string(),
        "resources/directory/read: more than 400 bytes (Limits::max_bytes)"
    );
    let pages = methods(&log)
        .iter()
        .filter(|m| *m == "resources/directory/read")
        .count();
    assert!((2..10).contains(&pages), "{pages} pages");

    // A load: the SKILL.md's result alone is past 50 bytes; its other file is not read.
    let (mut c, log) = connected(honest).await;
    let entry = skills::get(&mut c, SKILL_MD_URI).await.unwrap();
    let small = Limits {
        max_pages: 1,
        max_bytes: 50,
    };
    let loaded = skills::load(&mut c, &entry, small).await;
    let Err(SkillsError::TooManyBytes { method, limit: 50 }) = loaded else {
        panic!("stopped: {loaded:?}")
    };
    assert_eq!(method, "resources/read");
    assert_eq!(reads(&log), [SKILL_MD_URI]);
}

//! The skills extension's requests are sent only to a server that allows them: `skills/*` to
//! one that declared the extension, `resources/directory/read` to one that declared
//! `directoryRead: true`; otherwise the call fails unsent, saying why.

use mcp_client_test_types::mcp;
use serde_json::{Value, json};

use super::fixture::client;
use super::scripted::{Answer, Seen, result, serve};
use crate::ClientError;

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

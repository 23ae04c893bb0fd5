//! The resumable streams of a legacy session (`mcp_server::streams`, whose own tests check
//! them alone) and their bounds over HTTP: an event id names its stream, a resume replays
//! that stream only and goes on with it, and the replay buffer and the count of ended streams
//! kept each hold.

use std::time::Duration;

use serde_json::{Value, json};

use super::legacy::{open, post, request, send};
use super::start_app;
use mcp_server::Config;
use mcp_server::streams::RECONNECT_AFTER;
use mcp_server::tasks::Settings;

fn limits(replay: usize, window_ms: u64, streams: usize) -> Config {
    Config {
        replay_events: replay,
        resume_window: Duration::from_millis(window_ms),
        resumable_streams: streams,
        ..Config::default()
    }
}

/// The events of an SSE text: each one's id, retry and data lines.
fn events(text: &str) -> Vec<(Option<String>, Option<String>, String)> {
    text.split("\n\n")
        .filter(|e| e.lines().any(|l| !l.starts_with(':') && !l.is_empty()))
        .map(|e| {
            let field = |name: &str| {
                e.lines()
                    .find_map(|l| l.strip_prefix(name))
                    .map(|v| v.trim_start().to_owned())
            };
            (
                field("id:"),
                field("retry:"),
                field("data:").unwrap_or_default(),
            )
        })
        .collect()
}

/// `GET` of session `id` resuming after `last`: the status and the whole body.
async fn resume(url: &str, session: &str, last: &str) -> (u16, String) {
    let resp = reqwest::Client::new()
        .get(url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", session)
        .header("last-event-id", last)
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    let text = tokio::time::timeout(Duration::from_secs(10), resp.text())
        .await
        .expect("a resumed stream of an answered request ends")
        .unwrap();
    (status, text)
}

fn reconnection(id: i64) -> Value {
    request(
        id,
        "tools/call",
        json!({"name": "test_reconnection", "arguments": {}}),
    )
}

#[tokio::test]
async fn a_stream_ended_early_resumes_with_its_answer_and_only_its_own_events() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let session = open(&url).await;
    let resp = send(&url, Some(&session), None, &reconnection(2)).await;
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let text = tokio::time::timeout(Duration::from_secs(10), resp.text())
        .await
        .expect("the server ends the connection before answering")
        .unwrap();
    // One event: an id to resume from, the reconnection delay, no message.
    let sent = events(&text);
    assert_eq!(sent.len(), 1, "{text}");
    let (Some(last), retry, data) = &sent[0] else {
        panic!("the event has an id: {text}")
    };
    assert_eq!(retry.as_deref(), Some("200"), "{text}");
    assert_eq!(data, "", "{text}");
    assert_eq!(RECONNECT_AFTER, Duration::from_millis(200));

    let (status, text) = resume(&url, &session, last).await;
    assert_eq!(status, 200, "{text}");
    let answer: Value = serde_json::from_str(&events(&text)[0].2).unwrap();
    assert_eq!(answer["id"], 2, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "test_reconnection answered"
    );

    // Another stream's id resumes that stream, not this one.
    let other = send(&url, Some(&session), None, &reconnection(3)).await;
    let other_last = events(&other.text().await.unwrap())[0].0.clone().unwrap();
    assert_ne!(other_last.split('-').next(), last.split('-').next());
    let (_, text) = resume(&url, &session, &other_last).await;
    let answer: Value = serde_json::from_str(&events(&text)[0].2).unwrap();
    assert_eq!(answer["id"], 3, "{answer}");
    // Ids this session never sent, and another session's stream, are refused.
    assert_eq!(resume(&url, &session, "77-1").await.0, 400);
    assert_eq!(resume(&url, &session, "not an id").await.0, 400);
    let stranger = open(&url).await;
    assert_eq!(resume(&url, &stranger, last).await.0, 400);
}

#[tokio::test]
async fn a_modern_client_gets_the_reconnection_answer_at_once() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let call = super::call(1, "test_reconnection", json!({}), json!({}));
    let (status, answer) = super::post(&url, &call, Some("test_reconnection"), &[]).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "test_reconnection answered"
    );
}

#[tokio::test]
async fn over_http_a_resume_past_the_replay_buffer_or_the_kept_streams_is_refused() {
    let (url, _) = start_app(Settings::default(), limits(2, 60_000, 1)).await;
    let session = open(&url).await;
    let level = request(2, "logging/setLevel", json!({"level": "debug"}));
    assert_eq!(post(&url, Some(&session), &level).await.0, 200);
    // Three log messages and the answer: the stream keeps the last two.
    let logging = request(
        3,
        "tools/call",
        json!({"name": "test_tool_with_logging", "arguments": {}}),
    );
    let text = send(&url, Some(&session), None, &logging)
        .await
        .text()
        .await
        .unwrap();
    let ids: Vec<String> = events(&text).into_iter().filter_map(|e| e.0).collect();
    assert_eq!(ids.len(), 4, "{text}");
    let (status, body) = resume(&url, &session, &ids[0]).await;
    assert_eq!(status, 400);
    assert!(body.contains("earlier ones were dropped"), "{body}");
    let (status, body) = resume(&url, &session, &ids[1]).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(events(&body).len(), 2, "{body}");
    // One ended stream is kept per session: the next one pushes this one out.
    let next = send(&url, Some(&session), None, &reconnection(4)).await;
    let _ = next.text().await.unwrap();
    let mut resumed = resume(&url, &session, &ids[1]).await;
    for _ in 0..100 {
        if resumed.0 == 400 {
            break;
        }
        // The reconnection stream ends when its task records the answer.
        tokio::task::yield_now().await;
        resumed = resume(&url, &session, &ids[1]).await;
    }
    assert_eq!(resumed.0, 400, "{}", resumed.1);
    assert!(resumed.1.contains("no longer resumable"), "{}", resumed.1);
}

/// The events of `resp` as they come, until one whose data satisfies `want`.
async fn events_until(
    resp: &mut reqwest::Response,
    want: impl Fn(&Value) -> bool,
) -> Vec<(Option<String>, Option<String>, String)> {
    let mut text = String::new();
    loop {
        let chunk = tokio::time::timeout(Duration::from_secs(10), resp.chunk())
            .await
            .expect("the stream stalled")
            .unwrap()
            .expect("the stream ended first");
        text.push_str(&String::from_utf8_lossy(&chunk));
        let Some(end) = text.rfind("\n\n") else {
            continue;
        };
        let complete = events(&text[..end]);
        if complete
            .iter()
            .any(|e| serde_json::from_str(&e.2).is_ok_and(|m: Value| want(&m)))
        {
            return complete;
        }
    }
}

#[tokio::test]
async fn a_request_still_running_answers_on_the_stream_resumed_after_a_broken_connection() {
    let (url, app) = start_app(Settings::default(), Config::default()).await;
    let session = open(&url).await;
    let call = request(
        9,
        "tools/call",
        json!({"name": "test_elicitation", "arguments": {"message": "Who are you?"}}),
    );
    let mut resp = send(&url, Some(&session), None, &call).await;
    let seen = events_until(&mut resp, |m| m["method"] == "elicitation/create").await;
    let (Some(last), _, asked) = seen.last().unwrap().clone() else {
        panic!("the event has an id: {seen:?}")
    };
    let asked: Value = serde_json::from_str(&asked).unwrap();
    // The connection breaks; the handler waits on for its answer.
    drop(resp);
    let mut resumed = reqwest::Client::new()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session)
        .header("last-event-id", &last)
        .send()
        .await
        .unwrap();
    assert_eq!(resumed.status(), 200);
    assert_eq!(app.running().now(), 1, "the handler still runs");
    let answer = json!({"jsonrpc": "2.0", "id": asked["id"], "result": {
        "action": "accept", "content": {"username": "ada", "email": "ada@example.com"}}});
    assert_eq!(
        send(&url, Some(&session), None, &answer).await.status(),
        202
    );
    let rest = events_until(&mut resumed, |m| m["id"] == 9).await;
    // Nothing from before the id is sent again; the answer comes live, with the next id.
    assert_eq!(rest.len(), 1, "{rest:?}");
    let (stream, sequence) = last.split_once('-').unwrap();
    let next = sequence.parse::<u64>().unwrap() + 1;
    assert_eq!(rest[0].0, Some(format!("{stream}-{next}")));
    let result: Value = serde_json::from_str(&rest[0].2).unwrap();
    let text = result["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("ada@example.com"), "{text}");
}

//! Resource subscriptions in both eras: the fixture resource that changes
//! (`test://watched-resource`, bumped by `test_update_watched_resource`), followed by a legacy
//! session (`resources/subscribe`, updates on its `GET` stream) and by a modern
//! `subscriptions/listen` stream (`resourceSubscriptions`), from the same change.

use serde_json::{Value, json};

use super::legacy::{open, post, read_until, request};
use super::start_app;
use mcp_server::Config;
use mcp_server::tasks::Settings;

const WATCHED: &str = "test://watched-resource";

fn update(id: i64) -> Value {
    request(
        id,
        "tools/call",
        json!({"name": "test_update_watched_resource", "arguments": {}}),
    )
}

fn is_method(message: &Value, method: &str) -> bool {
    message["method"] == method
}

#[tokio::test]
async fn a_legacy_subscriber_is_told_of_updates_on_its_get_stream_until_it_unsubscribes() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let session = open(&url).await;
    let mut stream = reqwest::Client::new()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    let subscribe = request(2, "resources/subscribe", json!({"uri": WATCHED}));
    assert_eq!(
        post(&url, Some(&session), &subscribe).await.1["result"],
        json!({})
    );
    // A resource that never changes is accepted and has nothing to report.
    let still = request(
        3,
        "resources/subscribe",
        json!({"uri": "test://static-text"}),
    );
    assert_eq!(post(&url, Some(&session), &still).await.0, 200);

    let (_, answer) = post(&url, Some(&session), &update(4)).await;
    assert_eq!(
        answer["result"]["content"][0]["text"], "test://watched-resource is now at version 2",
        "{answer}"
    );
    let seen = read_until(&mut stream, |m| m.get("method").is_some()).await;
    assert_eq!(
        seen.last().unwrap(),
        &json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
            "params": {"uri": WATCHED}})
    );
    let read = request(5, "resources/read", json!({"uri": WATCHED}));
    let (_, read) = post(&url, Some(&session), &read).await;
    assert_eq!(
        read["result"]["contents"][0]["text"], "Watched resource, version 2",
        "{read}"
    );

    // Unsubscribed: the next update is not sent. A tool list change after it shows the order:
    // it is the next message on the stream, with no update before it.
    let unsubscribe = request(6, "resources/unsubscribe", json!({"uri": WATCHED}));
    assert_eq!(post(&url, Some(&session), &unsubscribe).await.0, 200);
    assert_eq!(post(&url, Some(&session), &update(7)).await.0, 200);
    let trigger = request(
        8,
        "tools/call",
        json!({"name": "test_trigger_tool_change", "arguments": {}}),
    );
    assert_eq!(post(&url, Some(&session), &trigger).await.0, 200);
    let seen = read_until(&mut stream, |m| m.get("method").is_some()).await;
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(
        is_method(&seen[0], "notifications/tools/list_changed"),
        "{seen:?}"
    );
}

#[tokio::test]
async fn a_modern_listen_stream_gets_the_same_update_tagged_with_its_subscription() {
    let (url, _) = start_app(Settings::default(), Config::default()).await;
    let listen = json!({"jsonrpc": "2.0", "id": "watch", "method": "subscriptions/listen",
    "params": {
        "notifications": {"resourceSubscriptions": [WATCHED, "test://nowhere", "test://static-text"]},
        "_meta": super::meta(json!({}))
    }});
    let mut stream = super::send(&url, &listen, None, &[]).await;
    assert_eq!(stream.status(), 200);
    let ack = read_until(&mut stream, |m| {
        is_method(m, "notifications/subscriptions/acknowledged")
    })
    .await;
    // Only the listed resources are followed; a URI the server does not have is left out.
    assert_eq!(
        ack.last().unwrap()["params"]["notifications"]["resourceSubscriptions"],
        json!(["test://static-text", WATCHED])
    );
    let call = super::call(1, "test_update_watched_resource", json!({}), json!({}));
    let (status, answer) =
        super::post(&url, &call, Some("test_update_watched_resource"), &[]).await;
    assert_eq!(status, 200, "{answer}");
    let seen = read_until(&mut stream, |m| m.get("method").is_some()).await;
    let updated = seen.last().unwrap();
    assert!(
        is_method(updated, "notifications/resources/updated"),
        "{updated}"
    );
    assert_eq!(updated["params"]["uri"], WATCHED);
    assert_eq!(
        updated["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "watch",
        "{updated}"
    );
}

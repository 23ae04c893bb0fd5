//! `Builder::precompile`: the messages of both revisions implement `mcp_runtime::Wire`, and
//! reading and writing through it gives exactly what `serde_json` gives, for every official
//! example of a message type, its errors included.

use mcp_runtime::Wire;
use mcp_tests::eras::{v2025_11_25 as legacy, v2026_07_28 as modern};
use mcp_tests::schema_dir;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// Reads every official example of `folder` through `T`'s `Wire` and through `serde_json`,
/// and checks both ways agree, on the value and on the bytes written; returns how many.
fn agrees<T: Wire + DeserializeOwned + Serialize + PartialEq + Debug>(folder: &str) -> usize {
    let dir = schema_dir()
        .join("2026-07-28")
        .join("examples")
        .join(folder);
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let wired = T::from_json_str(&text).unwrap_or_else(|e| panic!("{folder}: {e}"));
        let direct: T = serde_json::from_str(&text).unwrap();
        assert_eq!(wired, direct, "{folder}");
        assert_eq!(
            wired.to_json_string().unwrap(),
            serde_json::to_string(&direct).unwrap()
        );
        assert_eq!(
            wired.to_json_vec().unwrap(),
            serde_json::to_vec(&direct).unwrap()
        );
        // As any message (an input request is not one: both ways refuse it alike).
        let any = modern::JSONRPCMessage::from_json_slice(text.as_bytes());
        let direct = serde_json::from_str::<modern::JSONRPCMessage>(&text);
        assert_eq!(
            any.map_err(|e| e.to_string()),
            direct.map_err(|e| e.to_string())
        );
        checked += 1;
    }
    checked
}

macro_rules! every_message_example {
    ($($ty:ident),* $(,)?) => {{
        let mut checked = 0;
        $(checked += agrees::<modern::$ty>(stringify!($ty));)*
        checked
    }};
}

#[test]
fn every_official_message_example_reads_and_writes_as_serde_json_does() {
    let checked = every_message_example!(
        CallToolRequest,
        CallToolResultResponse,
        CancelledNotification,
        CompleteRequest,
        CompleteResultResponse,
        CreateMessageRequest,
        DiscoverRequest,
        DiscoverResultResponse,
        ElicitRequest,
        GetPromptRequest,
        GetPromptResultResponse,
        ListPromptsRequest,
        ListPromptsResultResponse,
        ListResourceTemplatesRequest,
        ListResourceTemplatesResultResponse,
        ListResourcesRequest,
        ListResourcesResultResponse,
        ListRootsRequest,
        ListToolsRequest,
        ListToolsResultResponse,
        LoggingMessageNotification,
        ProgressNotification,
        PromptListChangedNotification,
        ReadResourceRequest,
        ReadResourceResultResponse,
        ResourceListChangedNotification,
        ResourceUpdatedNotification,
        SubscriptionsAcknowledgedNotification,
        SubscriptionsListenRequest,
        SubscriptionsListenResultResponse,
        ToolListChangedNotification,
    );
    assert!(checked >= 31, "{checked} examples");
}

#[test]
fn a_refused_message_gets_serde_json_s_error() {
    let text = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#;
    let wired = modern::CallToolResultResponse::from_json_str(text).unwrap_err();
    let direct = serde_json::from_str::<modern::CallToolResultResponse>(text).unwrap_err();
    assert_eq!(wired.to_string(), direct.to_string());
    assert!(wired.to_string().contains("line 1"), "{wired}");
    let cut = modern::JSONRPCMessage::from_json_slice(b"{\"jsonrpc\":\"2.0\",").unwrap_err();
    assert!(cut.is_eof(), "{cut}");
}

#[test]
fn the_older_revision_s_messages_are_precompiled_too() {
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    let request = legacy::InitializeRequest::from_json_str(text).unwrap();
    assert_eq!(request.params.client_info.name, "c");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&request.to_json_string().unwrap()).unwrap(),
        serde_json::from_str::<serde_json::Value>(text).unwrap()
    );
    let any = legacy::JSONRPCMessage::from_json_str(text).unwrap();
    assert_eq!(any, serde_json::from_str(text).unwrap());
    let ping = legacy::ClientRequest::from_json_str(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    assert!(ping.is_ok(), "{ping:?}");
}

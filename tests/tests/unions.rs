//! Unions are read by their discriminator (`method`, `type`, `mode`, the JSON type), and the
//! ones the schema gives none (elicitation field schemas, JSON-RPC messages) by the members
//! present, most specific variant first. These tests pin down the ambiguous inputs.

use mcp_tests::mcp;
use serde_json::json;

fn primitive(v: serde_json::Value) -> mcp::PrimitiveSchemaDefinition {
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}"))
}

#[test]
fn elicitation_field_schemas_by_shape() {
    use mcp::PrimitiveSchemaDefinition as P;
    assert!(matches!(
        primitive(json!({"type": "string"})),
        P::StringSchema(_)
    ));
    assert!(matches!(
        primitive(json!({"type": "string", "format": "email"})),
        P::StringSchema(_)
    ));
    assert!(matches!(
        primitive(json!({"type": "string", "enum": ["a"]})),
        P::UntitledSingleSelectEnumSchema(_)
    ));
    assert!(matches!(
        primitive(json!({"type": "string", "enum": ["a"], "enumNames": ["A"]})),
        P::LegacyTitledEnumSchema(_)
    ));
    assert!(matches!(
        primitive(json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}]})),
        P::TitledSingleSelectEnumSchema(_)
    ));
    assert!(matches!(
        primitive(json!({"type": "array", "items": {"type": "string", "enum": ["a"]}})),
        P::UntitledMultiSelectEnumSchema(_)
    ));
    assert!(matches!(
        primitive(json!({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}})),
        P::TitledMultiSelectEnumSchema(_)
    ));
    assert!(matches!(
        primitive(json!({"type": "number", "minimum": 1})),
        P::NumberSchema(_)
    ));
    assert!(matches!(
        primitive(json!({"type": "integer"})),
        P::NumberSchema(_)
    ));
    assert!(matches!(
        primitive(json!({"type": "boolean"})),
        P::BooleanSchema(_)
    ));
    for bad in [json!({"type": "object"}), json!({}), json!("string")] {
        let e = serde_json::from_value::<mcp::PrimitiveSchemaDefinition>(bad.clone()).unwrap_err();
        assert!(
            e.to_string().contains("PrimitiveSchemaDefinition")
                || e.to_string().contains("invalid type"),
            "{bad}: {e}"
        );
    }
}

#[test]
fn jsonrpc_messages_by_members_present() {
    use mcp::JSONRPCMessage as M;
    let read = |v: serde_json::Value| serde_json::from_value::<M>(v).unwrap();
    assert!(matches!(
        read(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})),
        M::JSONRPCRequest(_)
    ));
    assert!(matches!(
        read(json!({"jsonrpc": "2.0", "method": "notifications/cancelled"})),
        M::JSONRPCNotification(_)
    ));
    assert!(matches!(
        read(json!({"jsonrpc": "2.0", "id": 1, "result": {}})),
        M::JSONRPCResultResponse(_)
    ));
    assert!(matches!(
        read(json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "bad"}})),
        M::JSONRPCErrorResponse(_)
    ));
    assert!(
        serde_json::from_value::<M>(json!({"jsonrpc": "1.0", "id": 1, "method": "x"})).is_err()
    );
    assert!(serde_json::from_value::<M>(json!({"id": 1})).is_err());
}

#[test]
fn tagged_unions_by_constant() {
    let c: mcp::ContentBlock =
        serde_json::from_value(json!({"text": "hi", "type": "text"})).unwrap();
    assert!(matches!(c, mcp::ContentBlock::TextContent(_)));
    let e = serde_json::from_value::<mcp::ContentBlock>(json!({"type": "video", "uri": "x"}))
        .unwrap_err();
    assert!(
        e.to_string().contains("video") && e.to_string().contains("text"),
        "{e}"
    );
    let r: mcp::ClientRequest = serde_json::from_value(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}
    }))
    .unwrap();
    assert!(matches!(r, mcp::ClientRequest::ListToolsRequest(_)));
    let e = serde_json::from_value::<mcp::ClientRequest>(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize"}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("initialize"), "{e}");
}

#[test]
fn elicitation_mode_missing_means_form_and_is_kept_missing() {
    let p: mcp::ElicitRequestParams = serde_json::from_value(json!({
        "message": "m", "requestedSchema": {"type": "object", "properties": {}}
    }))
    .unwrap();
    let mcp::ElicitRequestParams::ElicitRequestFormParams(form) = &p else {
        panic!("{p:?}")
    };
    assert_eq!(form.mode, None);
    assert!(
        !serde_json::to_string(&p).unwrap().contains("mode"),
        "a mode left out stays left out"
    );
    let p: mcp::ElicitRequestParams = serde_json::from_value(
        json!({"mode": "url", "message": "m", "url": "https://x.example", "elicitationId": "e"}),
    )
    .unwrap();
    assert!(matches!(
        p,
        mcp::ElicitRequestParams::ElicitRequestURLParams(_)
    ));
    let e = serde_json::from_value::<mcp::ElicitRequestFormParams>(json!({
        "mode": "url", "message": "m", "requestedSchema": {"type": "object", "properties": {}}
    }))
    .unwrap_err();
    assert!(e.to_string().contains("url"), "{e}");
}

#[test]
fn json_type_unions() {
    assert_eq!(
        serde_json::from_value::<mcp::RequestId>(json!(5)).unwrap(),
        mcp::RequestId::Integer(5)
    );
    assert_eq!(
        serde_json::from_value::<mcp::RequestId>(json!("a")).unwrap(),
        mcp::RequestId::String("a".into())
    );
    for bad in [json!(1.5), json!(null), json!(true), json!([1])] {
        assert!(
            serde_json::from_value::<mcp::RequestId>(bad.clone()).is_err(),
            "{bad}"
        );
    }
    let c: mcp::CreateMessageResultContent =
        serde_json::from_value(json!([{"type": "text", "text": "a"}])).unwrap();
    assert!(matches!(c, mcp::CreateMessageResultContent::Array(ref v) if v.len() == 1));
    let c: mcp::CreateMessageResultContent =
        serde_json::from_value(json!({"type": "text", "text": "a"})).unwrap();
    assert!(matches!(c, mcp::CreateMessageResultContent::Object(_)));
}

#[test]
fn wrong_constants_are_rejected_naming_both_values() {
    let e = serde_json::from_value::<mcp::CallToolRequest>(json!({
        "jsonrpc": "1.0", "id": 1, "method": "tools/call",
        "params": {"name": "x", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}
    }))
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("jsonrpc") && e.contains("2.0") && e.contains("1.0"),
        "{e}"
    );
    let e = serde_json::from_value::<mcp::CallToolRequest>(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"name": "x", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}
    }))
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("method") && e.contains("tools/call") && e.contains("tools/list"),
        "{e}"
    );
    let e = serde_json::from_value::<mcp::HeaderMismatchError>(json!({
        "jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "m"}
    }))
    .unwrap_err()
    .to_string();
    assert!(e.contains("-32020") && e.contains("-32000"), "{e}");
    // Constants are written, first.
    let req: mcp::ListRootsRequest =
        serde_json::from_value(json!({"method": "roots/list"})).unwrap();
    assert_eq!(
        serde_json::to_string(&req).unwrap(),
        r#"{"method":"roots/list"}"#
    );
    assert_eq!(
        <mcp::CallToolRequest as mcp_runtime::Request>::METHOD,
        "tools/call"
    );
    assert_eq!(mcp::ProgressNotification::METHOD, "notifications/progress");
}

#[test]
fn logging_levels_compare_by_severity() {
    use mcp::LoggingLevel as L;
    let ordered = [
        L::Debug,
        L::Info,
        L::Notice,
        L::Warning,
        L::Error,
        L::Critical,
        L::Alert,
        L::Emergency,
    ];
    assert!(ordered.windows(2).all(|w| w[0] < w[1]), "{ordered:?}");
    assert_eq!(serde_json::to_string(&L::Warning).unwrap(), r#""warning""#);
}

/// A variant the generator boxes (clippy's `large_enum_variant`: `CreateMessageResult` is far
/// larger than the other input responses) is made from its value, read and written as it.
#[test]
fn a_boxed_variant_is_made_from_its_value() {
    let text = mcp::SamplingMessageContentBlock::from(mcp::TextContent::new("hi"));
    let result = mcp::CreateMessageResult::new(text, "m", mcp::Role::Assistant);
    let response: mcp::InputResponse = result.clone().into();
    let mcp::InputResponse::CreateMessageResult(held) = &response else {
        panic!("{response:?}");
    };
    assert_eq!(**held, result);
    let wire = serde_json::to_value(&response).unwrap();
    assert_eq!(wire, serde_json::to_value(&result).unwrap());
    assert_eq!(
        serde_json::from_value::<mcp::InputResponse>(wire).unwrap(),
        response
    );
}

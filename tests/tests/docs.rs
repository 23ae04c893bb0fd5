//! The generated module's docs: an overview that names the revision and the three rules, and
//! docs on every item (the crate denies `missing_docs`).

const GENERATED: &str = include_str!(concat!(env!("OUT_DIR"), "/mcp.rs"));

/// The doc text of `pub mod overview`, the generated module's overview.
fn overview() -> String {
    let end = GENERATED
        .find("pub mod overview {}")
        .expect("the generated file has an overview module");
    let start = GENERATED[..end].rfind("\n\n").map_or(0, |i| i + 2);
    GENERATED[start..end]
        .lines()
        .filter_map(|l| l.strip_prefix("///"))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn overview_names_the_revision_and_the_three_rules() {
    let text = overview();
    assert!(text.contains("revision 2026-07-28"), "{text}");
    assert!(
        text.contains("[`JSONRPCMessage`]"),
        "how to read a message: {text}"
    );
    assert!(text.contains("[`CallToolResultResponse`]"), "{text}");
    // 1. resultType dispatch, a missing one being complete.
    assert!(text.contains("told apart by `resultType`"), "{text}");
    assert!(
        text.contains("without `resultType` is `\"complete\"`"),
        "{text}"
    );
    // 2. InputRequiredResult: at least one of two members, and only three methods.
    assert!(
        text.contains(
            "[`InputRequiredResult`]** has at least one of `inputRequests` and `requestState`"
        ),
        "{text}"
    );
    assert!(
        text.contains("`tools/call`, `prompts/get` and `resources/read`"),
        "{text}"
    );
    // 3. Capability-gated input kinds.
    assert!(text.contains("capability-gated"), "{text}");
    for method in ["elicitation/create", "sampling/createMessage", "roots/list"] {
        assert!(text.contains(&format!("`{method}`")), "{method}: {text}");
    }
}

#[test]
fn unions_and_variants_read_well() {
    let union_docs = |name: &str| -> String {
        let end = GENERATED.find(&format!("pub enum {name} {{")).unwrap();
        let start = GENERATED[..end].rfind("\n\n").unwrap();
        GENERATED[start..end].to_owned()
    };
    let blocks = union_docs("ContentBlock");
    assert!(
        blocks.contains("One of [`TextContent`], [`ImageContent`]"),
        "{blocks}"
    );
    assert!(
        blocks.contains("told apart by the `type` member"),
        "{blocks}"
    );
    assert!(
        GENERATED.contains("/// An [`ImageContent`] (`\"type\": \"image\"`): an image"),
        "variant docs have the right article and say what selects them"
    );
    assert!(!GENERATED.contains("/// A [`ImageContent`]"));
    assert!(!GENERATED.contains("/// A [`InputRequiredResult`]"));
}

#[test]
fn fields_show_their_json_names() {
    assert!(GENERATED.contains("/// JSON: `inputSchema`."));
    assert!(GENERATED.contains("/// The `_meta` member"));
}

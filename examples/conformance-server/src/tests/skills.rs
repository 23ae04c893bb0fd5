//! The skills extension (`io.modelcontextprotocol/skills`) end to end over HTTP, against the
//! fixture tree `examples/conformance-server/skills/`: the capability declared by
//! `server/discover`, `skills/list` a page at a time, `skills/get`, `resources/directory/read`,
//! the skill files among the resources (listed and read, their digests and sizes checked
//! against the bytes read), and a 2025-11-25 session that is neither told of the extension nor
//! served its methods but can still read the files.

use serde_json::{Map, Value, json};

use super::{assert_error, legacy, meta, post, start};

const SKILLS: &str = "io.modelcontextprotocol/skills";

/// The skills of the fixture, by `SKILL.md` URI (the order `skills/list` gives them).
const SKILL_URIS: [&str; 3] = [
    "skill://acme/billing/refunds/SKILL.md",
    "skill://git-workflow/SKILL.md",
    "skill://pdf-processing/SKILL.md",
];

/// Every file of the fixture's skills.
const SKILL_FILES: [&str; 8] = [
    "skill://acme/billing/refunds/SKILL.md",
    "skill://acme/billing/refunds/examples/email.md",
    "skill://git-workflow/SKILL.md",
    "skill://pdf-processing/SKILL.md",
    "skill://pdf-processing/references/FORMS.md",
    "skill://pdf-processing/scripts/extract.py",
    "skill://pdf-processing/templates/invoice.md",
    "skill://pdf-processing/templates/regional/eu-invoice.md",
];

/// Client capabilities that advertise the extension.
fn with_skills() -> Value {
    json!({"extensions": {SKILLS: {}}})
}

/// A 2026-07-28 request of `method` with `params` (and `_meta`), answered: status and body.
async fn ask(url: &str, method: &str, params: Value, name: Option<&str>) -> (u16, Value) {
    let mut params = params;
    params["_meta"] = meta(with_skills());
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    post(url, &body, name, &[]).await
}

/// The result of a request that must succeed.
async fn ok(url: &str, method: &str, params: Value, name: Option<&str>) -> Value {
    let (status, r) = ask(url, method, params, name).await;
    assert_eq!(status, 200, "{method}: {r}");
    assert!(r.get("error").is_none(), "{method}: {r}");
    r["result"].clone()
}

/// A page of `skills/list`.
async fn list_page(url: &str, cursor: Option<&str>) -> Value {
    let params = match cursor {
        Some(c) => json!({"cursor": c}),
        None => json!({}),
    };
    ok(url, "skills/list", params, None).await
}

/// Every entry of `skills/list`, page after page (asserting each page's shape).
async fn list_all(url: &str) -> Vec<Value> {
    let mut entries = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10 {
        let page = list_page(url, cursor.as_deref()).await;
        entries.extend(page["skills"].as_array().unwrap().iter().cloned());
        match page.get("nextCursor") {
            Some(next) => cursor = Some(next.as_str().unwrap().to_owned()),
            None => return entries,
        }
    }
    panic!("skills/list did not end in 10 pages");
}

/// The bytes `resources/read` returns for `uri` (a text's as UTF-8), and the contents read.
async fn read_bytes(url: &str, uri: &str) -> (Vec<u8>, Value) {
    let result = ok(url, "resources/read", json!({"uri": uri}), Some(uri)).await;
    let contents = result["contents"].as_array().unwrap();
    assert_eq!(contents.len(), 1, "{result}");
    let content = contents[0].clone();
    assert_eq!(content["uri"], uri, "{result}");
    let text = content["text"]
        .as_str()
        .unwrap_or_else(|| panic!("the fixture's files are text: {result}"));
    (text.as_bytes().to_vec(), content)
}

/// The file of the fixture at `uri`, as on disk.
fn on_disk(uri: &str) -> Vec<u8> {
    let path = uri.strip_prefix("skill://").unwrap();
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/skills/").to_owned() + path;
    std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[tokio::test]
async fn skills_discover_declares_the_extension_with_directory_read() {
    let url = start().await;
    let result = ok(&url, "server/discover", json!({}), None).await;
    let capabilities = &result["capabilities"];
    assert_eq!(
        capabilities["extensions"][SKILLS],
        json!({"directoryRead": true}),
        "{result}"
    );
    assert!(capabilities["resources"].is_object(), "{result}");
}

#[tokio::test]
async fn skills_list_pages_entries_whose_files_match_what_is_read() {
    let url = start().await;
    let first = list_page(&url, None).await;
    assert_eq!(first["resultType"], "complete", "{first}");
    assert!(first["ttlMs"].is_u64(), "{first}");
    assert!(first["cacheScope"].is_string(), "{first}");
    assert_eq!(first["skills"].as_array().unwrap().len(), 2, "{first}");
    let cursor = first["nextCursor"].as_str().expect("a second page");
    let second = list_page(&url, Some(cursor)).await;
    assert_eq!(second["resultType"], "complete", "{second}");
    assert!(second["ttlMs"].is_u64(), "{second}");
    assert!(second["cacheScope"].is_string(), "{second}");
    assert_eq!(second["skills"].as_array().unwrap().len(), 1, "{second}");
    assert!(second.get("nextCursor").is_none(), "{second}");

    let entries: Vec<Value> = first["skills"]
        .as_array()
        .unwrap()
        .iter()
        .chain(second["skills"].as_array().unwrap())
        .cloned()
        .collect();
    let uris: Vec<&str> = entries.iter().map(|e| e["uri"].as_str().unwrap()).collect();
    assert_eq!(uris, SKILL_URIS, "sorted by URI");

    for entry in &entries {
        let uri = entry["uri"].as_str().unwrap();
        let files = entry["resources"].as_array().expect("a file list");
        assert!(files.iter().any(|f| f["uri"] == uri), "{entry}");
        for file in files {
            let file_uri = file["uri"].as_str().unwrap();
            let (bytes, _) = read_bytes(&url, file_uri).await;
            assert_eq!(bytes, on_disk(file_uri), "{file_uri}");
            assert_eq!(
                file["digest"].as_str(),
                Some(mcp_runtime::skills::digest(&bytes).as_str()),
                "{file_uri}"
            );
            assert_eq!(
                file["size"].as_u64(),
                Some(bytes.len() as u64),
                "{file_uri}"
            );
        }
        let (skill_md, _) = read_bytes(&url, uri).await;
        let text = String::from_utf8(skill_md).unwrap();
        let frontmatter: Map<String, Value> = mcp_runtime::skills::frontmatter(&text).unwrap();
        assert_eq!(entry["frontmatter"], Value::Object(frontmatter), "{uri}");
    }
    // The files listed are exactly the fixture's.
    let mut listed: Vec<String> = entries
        .iter()
        .flat_map(|e| e["resources"].as_array().unwrap().iter())
        .map(|f| f["uri"].as_str().unwrap().to_owned())
        .collect();
    listed.sort();
    assert_eq!(listed, SKILL_FILES);

    // A cursor the server did not give is invalid params.
    for garbled in ["not-a-cursor", "", &format!("{cursor}x")] {
        let answer = ask(&url, "skills/list", json!({"cursor": garbled}), None).await;
        assert_error(&answer, 400, -32602);
    }
}

#[tokio::test]
async fn skills_get_answers_each_listed_entry_and_refuses_unknown_uris() {
    let url = start().await;
    let entries = list_all(&url).await;
    assert_eq!(entries.len(), SKILL_URIS.len());
    for entry in &entries {
        let uri = entry["uri"].as_str().unwrap();
        let result = ok(&url, "skills/get", json!({"uri": uri}), None).await;
        assert_eq!(&result["skill"], entry, "{uri}");
        assert_eq!(result["resultType"], "complete", "{result}");
        assert!(result["ttlMs"].is_u64(), "{result}");
        assert!(result["cacheScope"].is_string(), "{result}");
        assert!(result.get("nextCursor").is_none(), "{result}");
    }
    let unknown = ask(
        &url,
        "skills/get",
        json!({"uri": "skill://nope/SKILL.md"}),
        None,
    )
    .await;
    assert_error(&unknown, 400, -32602);
    let missing = ask(&url, "skills/get", json!({}), None).await;
    assert_error(&missing, 400, -32602);
}

#[tokio::test]
async fn skills_directory_read_lists_children_and_refuses_files_and_unknown_uris() {
    let url = start().await;
    let read = |uri: &'static str| {
        let url = url.clone();
        async move { ok(&url, "resources/directory/read", json!({"uri": uri}), None).await }
    };

    let root = read("skill://pdf-processing").await;
    assert_eq!(root["resultType"], "complete", "{root}");
    assert!(root.get("nextCursor").is_none(), "{root}");
    let children = root["resources"].as_array().unwrap();
    let names: Vec<&str> = children
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        ["SKILL.md", "references", "scripts", "templates"],
        "{root}"
    );
    for child in children {
        let name = child["name"].as_str().unwrap();
        assert_eq!(
            child["uri"].as_str().unwrap(),
            format!("skill://pdf-processing/{name}"),
            "{child}"
        );
        if name == "SKILL.md" {
            let bytes = on_disk("skill://pdf-processing/SKILL.md");
            assert_eq!(child["size"].as_u64(), Some(bytes.len() as u64), "{child}");
            assert_eq!(child["mimeType"], "text/markdown", "{child}");
        } else {
            assert_eq!(child["mimeType"], "inode/directory", "{child}");
            assert!(child.get("size").is_none(), "{child}");
        }
    }

    let regional = read("skill://pdf-processing/templates/regional").await;
    let children = regional["resources"].as_array().unwrap();
    assert_eq!(children.len(), 1, "{regional}");
    let eu = "skill://pdf-processing/templates/regional/eu-invoice.md";
    assert_eq!(children[0]["uri"], eu, "{regional}");
    assert_eq!(children[0]["name"], "eu-invoice.md", "{regional}");
    assert_eq!(
        children[0]["size"].as_u64(),
        Some(on_disk(eu).len() as u64),
        "{regional}"
    );

    let file = ask(
        &url,
        "resources/directory/read",
        json!({"uri": "skill://pdf-processing/SKILL.md"}),
        None,
    )
    .await;
    assert_error(&file, 400, -32602);
    let message = file.1["error"]["message"].as_str().unwrap();
    assert!(message.contains("not a directory"), "{}", file.1);

    for unknown in [
        "skill://nope",
        "skill://pdf-processing/nope",
        "test://static-text",
    ] {
        let answer = ask(
            &url,
            "resources/directory/read",
            json!({"uri": unknown}),
            None,
        )
        .await;
        assert_error(&answer, 400, -32602);
    }
}

#[tokio::test]
async fn skills_files_are_listed_resources_named_by_their_frontmatter() {
    let url = start().await;
    let result = ok(&url, "resources/list", json!({}), None).await;
    let resources = result["resources"].as_array().unwrap();
    let by_uri = |uri: &str| {
        resources
            .iter()
            .find(|r| r["uri"] == uri)
            .unwrap_or_else(|| panic!("{uri} not listed: {result}"))
    };
    for uri in SKILL_FILES {
        let listed = by_uri(uri);
        assert_eq!(
            listed["size"].as_u64(),
            Some(on_disk(uri).len() as u64),
            "{listed}"
        );
    }
    let skill_resources = resources
        .iter()
        .filter(|r| r["uri"].as_str().unwrap().starts_with("skill://"))
        .count();
    assert_eq!(skill_resources, SKILL_FILES.len(), "{result}");
    for uri in SKILL_URIS {
        let listed = by_uri(uri);
        let text = String::from_utf8(on_disk(uri)).unwrap();
        let frontmatter = mcp_runtime::skills::frontmatter(&text).unwrap();
        assert_eq!(listed["name"], frontmatter["name"], "{listed}");
        assert_eq!(
            listed["description"], frontmatter["description"],
            "{listed}"
        );
        assert_eq!(listed["mimeType"], "text/markdown", "{listed}");
    }
}

#[tokio::test]
async fn skills_a_legacy_session_is_not_told_of_the_extension_but_reads_the_files() {
    let url = start().await;
    let resp = legacy::send(&url, None, None, &legacy::initialize(1)).await;
    assert_eq!(resp.status(), 200);
    let session = resp.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let body: Value = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    let result = &body["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25", "{body}");
    assert!(
        result["capabilities"]["extensions"].get(SKILLS).is_none(),
        "{result}"
    );
    assert!(result["capabilities"]["resources"].is_object(), "{result}");
    legacy::initialized(&url, &session).await;

    for (id, method, params) in [
        (2, "skills/list", json!({})),
        (3, "skills/get", json!({"uri": SKILL_URIS[1]})),
        (
            4,
            "resources/directory/read",
            json!({"uri": "skill://pdf-processing"}),
        ),
    ] {
        let (_, answer) =
            legacy::post(&url, Some(&session), &legacy::request(id, method, params)).await;
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
        assert_eq!(answer["id"], id, "{answer}");
    }

    let uri = "skill://git-workflow/SKILL.md";
    let read = legacy::request(5, "resources/read", json!({"uri": uri}));
    let (status, answer) = legacy::post(&url, Some(&session), &read).await;
    assert_eq!(status, 200, "{answer}");
    let contents = &answer["result"]["contents"][0];
    assert_eq!(contents["uri"], uri, "{answer}");
    assert_eq!(contents["mimeType"], "text/markdown", "{answer}");
    let legacy_text = contents["text"].as_str().unwrap();
    assert_eq!(legacy_text.as_bytes(), on_disk(uri), "{answer}");
    let (modern, _) = read_bytes(&url, uri).await;
    assert_eq!(legacy_text.as_bytes(), modern);
}

#[tokio::test]
async fn skills_results_name_the_server_in_their_meta() {
    let url = start().await;
    let answers = [
        ("skills/list", json!({}), None),
        ("skills/get", json!({"uri": SKILL_URIS[1]}), None),
        (
            "resources/directory/read",
            json!({"uri": "skill://pdf-processing"}),
            None,
        ),
        (
            "resources/read",
            json!({"uri": SKILL_FILES[1]}),
            Some(SKILL_FILES[1]),
        ),
    ];
    for (method, params, name) in answers {
        let result = ok(&url, method, params, name).await;
        let server = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
        assert_eq!(
            server["name"], "mcp-conformance-server",
            "{method}: {result}"
        );
        assert_eq!(
            server["version"],
            env!("CARGO_PKG_VERSION"),
            "{method}: {result}"
        );
    }
}

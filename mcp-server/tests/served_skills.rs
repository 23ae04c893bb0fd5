//! The skills extension (`io.modelcontextprotocol/skills`) served by `Served::skills` with a
//! `Catalog`: `skills/list` a page at a time, `skills/get`, `resources/directory/read`, the
//! skill files as resources in both eras, and the extension's methods refused to a legacy
//! session.
#![cfg(feature = "skills")]

use std::path::PathBuf;
use std::sync::Arc;

use axum::http::StatusCode;
use mcp_server::skills::Catalog;
use mcp_server::{Ctx, Served};
use mcp_tests::skills as mcp;
use serde_json::{Value, json};

mod support;
use support::{modern, send};

mcp_server::bind!(Mcp = mcp, legacy = mcp::v2025_11_25);
mcp_server::bind_server!(Mcp = mcp);
mcp_server::bind_skills!(Mcp = mcp);

/// A server of no method of its own: everything it answers comes from `Served`.
struct Library;

impl mcp::Server<Ctx<Mcp>> for Library {}

/// A folder of three skills (two pages of `skills/list`), one with a nested file and a
/// binary one, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(test: &str) -> Folder {
        let root = std::env::temp_dir().join(format!(
            "mcp-server-served-skills-{test}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        for name in ["alpha", "beta", "gamma"] {
            let dir = root.join(name);
            std::fs::create_dir_all(&dir).unwrap();
            let md = format!("---\nname: {name}\ndescription: The {name} skill\n---\nDo {name}.\n");
            std::fs::write(dir.join("SKILL.md"), md).unwrap();
        }
        std::fs::create_dir_all(root.join("alpha/notes")).unwrap();
        std::fs::write(root.join("alpha/notes/howto.md"), "Step one.\n").unwrap();
        std::fs::write(root.join("alpha/logo.bin"), [0xff, 0x00, 0xfe]).unwrap();
        Folder(root)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn app(folder: &Folder) -> axum::Router {
    let info = mcp::Implementation::new("library", "1.0.0");
    let catalog = Catalog::load(&folder.0).unwrap();
    let served = Served::<Mcp, _>::new(Library, info).skills(catalog);
    mcp_server::served::router(Arc::new(served)).unwrap()
}

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}})
}

/// A modern request of `method` with `params` (and the `_meta` every one carries).
fn request(id: u64, method: &str, mut params: Value) -> Value {
    params["_meta"] = meta();
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// The answer to a modern `message` (with the `Mcp-Name` of a `resources/read`): 200 with a
/// result, 400 with an error.
async fn ask(app: &axum::Router, message: &Value) -> Value {
    let name =
        (message["method"] == "resources/read").then(|| message["params"]["uri"].as_str().unwrap());
    let (status, _, answer) = send(app, modern(message, name)).await;
    let expected = if answer.get("result").is_some() {
        StatusCode::OK
    } else {
        StatusCode::BAD_REQUEST
    };
    assert_eq!(status, expected, "{answer}");
    answer
}

#[tokio::test]
async fn discover_declares_the_extension_with_directory_read_and_resources() {
    let folder = Folder::new("discover");
    let answer = ask(&app(&folder), &request(1, "server/discover", json!({}))).await;
    let capabilities = &answer["result"]["capabilities"];
    assert_eq!(
        capabilities["extensions"]["io.modelcontextprotocol/skills"],
        json!({"directoryRead": true}),
        "{answer}"
    );
    assert!(capabilities["resources"].is_object(), "{answer}");
}

#[tokio::test]
async fn skills_list_pages_through_every_skill() {
    let folder = Folder::new("list");
    let app = app(&folder);
    let first = ask(&app, &request(1, "skills/list", json!({}))).await;
    let result = &first["result"];
    let uris: Vec<_> = result["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["uri"].clone())
        .collect();
    assert_eq!(
        uris,
        [
            json!("skill://alpha/SKILL.md"),
            json!("skill://beta/SKILL.md")
        ]
    );
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "library",
        "{first}"
    );
    let alpha = &result["skills"][0];
    assert_eq!(alpha["frontmatter"]["description"], "The alpha skill");
    let files: Vec<_> = alpha["resources"]
        .as_array()
        .unwrap_or_else(|| panic!("{alpha}"))
        .iter()
        .map(|f| f["uri"].clone())
        .collect();
    assert!(
        files.contains(&json!("skill://alpha/notes/howto.md")),
        "{alpha}"
    );
    let cursor = result["nextCursor"]
        .as_str()
        .expect("a second page")
        .to_owned();

    let second = ask(&app, &request(2, "skills/list", json!({"cursor": cursor}))).await;
    assert_eq!(
        second["result"]["skills"][0]["uri"], "skill://gamma/SKILL.md",
        "{second}"
    );
    assert_eq!(
        second["result"]["skills"].as_array().map(Vec::len),
        Some(1),
        "{second}"
    );
    assert!(second["result"].get("nextCursor").is_none(), "{second}");

    let garbled = ask(&app, &request(3, "skills/list", json!({"cursor": "zz"}))).await;
    assert_eq!(garbled["error"]["code"], -32602, "{garbled}");
}

#[tokio::test]
async fn skills_get_answers_a_skill_and_refuses_an_unknown_one() {
    let folder = Folder::new("get");
    let app = app(&folder);
    let got = ask(
        &app,
        &request(1, "skills/get", json!({"uri": "skill://beta/SKILL.md"})),
    )
    .await;
    assert_eq!(
        got["result"]["skill"]["uri"], "skill://beta/SKILL.md",
        "{got}"
    );
    assert_eq!(got["result"]["skill"]["frontmatter"]["name"], "beta");

    let unknown = ask(
        &app,
        &request(2, "skills/get", json!({"uri": "skill://delta/SKILL.md"})),
    )
    .await;
    assert_eq!(unknown["id"], 2);
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert_eq!(
        unknown["error"]["message"],
        "No skill is served at skill://delta/SKILL.md"
    );
}

#[tokio::test]
async fn a_directory_is_read_with_its_children() {
    let folder = Folder::new("directory");
    let app = app(&folder);
    let read = ask(
        &app,
        &request(
            1,
            "resources/directory/read",
            json!({"uri": "skill://alpha"}),
        ),
    )
    .await;
    let children = read["result"]["resources"]
        .as_array()
        .unwrap_or_else(|| panic!("{read}"));
    let notes = children
        .iter()
        .find(|c| c["uri"] == "skill://alpha/notes")
        .unwrap_or_else(|| panic!("{read}"));
    assert_eq!(notes["mimeType"], "inode/directory");
    let skill_md = children
        .iter()
        .find(|c| c["uri"] == "skill://alpha/SKILL.md")
        .unwrap();
    assert!(skill_md["size"].as_u64().unwrap() > 0, "{read}");

    let file = ask(
        &app,
        &request(
            2,
            "resources/directory/read",
            json!({"uri": "skill://alpha/SKILL.md"}),
        ),
    )
    .await;
    assert_eq!(file["error"]["code"], -32602, "{file}");
}

#[tokio::test]
async fn skill_files_are_listed_and_read_as_resources() {
    let folder = Folder::new("resources");
    let app = app(&folder);
    let listed = ask(&app, &request(1, "resources/list", json!({}))).await;
    let resources = listed["result"]["resources"]
        .as_array()
        .unwrap_or_else(|| panic!("{listed}"));
    let skill_md = resources
        .iter()
        .find(|r| r["uri"] == "skill://gamma/SKILL.md")
        .unwrap();
    assert_eq!(skill_md["name"], "gamma");
    assert_eq!(skill_md["description"], "The gamma skill");
    assert_eq!(resources.len(), 5, "{listed}");

    let read = ask(
        &app,
        &request(
            2,
            "resources/read",
            json!({"uri": "skill://alpha/notes/howto.md"}),
        ),
    )
    .await;
    assert_eq!(
        read["result"]["contents"][0]["text"], "Step one.\n",
        "{read}"
    );
    assert_eq!(read["result"]["contents"][0]["mimeType"], "text/markdown");
    let blob = ask(
        &app,
        &request(
            3,
            "resources/read",
            json!({"uri": "skill://alpha/logo.bin"}),
        ),
    )
    .await;
    assert_eq!(blob["result"]["contents"][0]["blob"], "/wD+", "{blob}");
}

#[tokio::test]
async fn a_legacy_session_reads_the_files_but_cannot_call_the_extension() {
    let folder = Folder::new("legacy");
    let app = app(&folder);
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}});
    let (status, session, opened) =
        send(&app, support::legacy("POST", None, Some(&initialize))).await;
    assert_eq!(status, StatusCode::OK, "{opened}");
    assert!(
        opened["result"]["capabilities"].get("extensions").is_none(),
        "{opened}"
    );
    assert!(
        opened["result"]["capabilities"]["resources"].is_object(),
        "{opened}"
    );
    let session = session.expect("a session id");

    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "skills/list", "params": {}});
    let (_, _, refused) = send(&app, support::legacy("POST", Some(&session), Some(&list))).await;
    assert_eq!(refused["error"]["code"], -32601, "{refused}");

    let read = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read",
        "params": {"uri": "skill://beta/SKILL.md"}});
    let (_, _, answer) = send(&app, support::legacy("POST", Some(&session), Some(&read))).await;
    let text = answer["result"]["contents"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"));
    assert!(text.contains("Do beta."), "{answer}");
}

#[tokio::test]
async fn declared_capabilities_without_the_extension_are_refused() {
    let folder = Folder::new("undeclared");
    let info = mcp::Implementation::new("library", "1.0.0");
    let capabilities =
        mcp::ServerCapabilities::new().with_resources(mcp::ServerCapabilitiesResources::new());
    let served = Served::<Mcp, _>::new(Library, info)
        .capabilities(capabilities)
        .skills(Catalog::load(&folder.0).unwrap());
    let Err(refused) = mcp_server::served::router(Arc::new(served)) else {
        panic!("a catalog served without declaring the extension")
    };
    assert_eq!(
        refused.capability,
        "extensions.io.modelcontextprotocol/skills"
    );
}

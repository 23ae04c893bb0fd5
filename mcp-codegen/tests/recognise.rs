//! A schema saved by a user is recognised by its content: re-indented, minified or with CRLF
//! line endings, in a folder not named after its revision, each copy generates exactly what the
//! official file does. An unknown revision and an unrecognised schema say how to name one.

use std::path::{Path, PathBuf};

use mcp_codegen::{Builder, Error};
use serde_json::Value;

const REVISIONS: &[&str] = &[
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

fn official(revision: &str) -> PathBuf {
    PathBuf::from(env!("MCP_SCHEMA_DIR"))
        .join(revision)
        .join("schema.json")
}

/// A folder named after nothing.
fn neutral(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("recognise")
        .join(name)
        .join("schemas");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The generated code without its header (which names the file and its SHA-256).
fn body(path: &Path) -> (String, Option<String>) {
    let g = Builder::new()
        .schema(path)
        .cargo_metadata(false)
        .generate_string()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = g
        .text
        .split_once("\n\n")
        .map(|(_, b)| b.to_owned())
        .unwrap();
    (text, g.revision)
}

/// `text` indented with a tab where it had two spaces (only the leading ones).
fn tabs(text: &str) -> String {
    text.lines()
        .map(|line| {
            let body = line.trim_start_matches(' ');
            let depth = (line.len() - body.len()) / 2;
            format!("{}{body}\n", "\t".repeat(depth))
        })
        .collect()
}

#[test]
fn copies_with_other_formatting_generate_the_same_types() {
    for revision in REVISIONS {
        let text = std::fs::read_to_string(official(revision)).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        let (expected, found) = body(&official(revision));
        assert_eq!(found.as_deref(), Some(*revision));
        let copies = [
            ("minified", serde_json::to_string(&value).unwrap()),
            ("reindented", serde_json::to_string_pretty(&value).unwrap()),
            ("crlf", text.replace('\n', "\r\n")),
            ("tabs", tabs(&serde_json::to_string_pretty(&value).unwrap())),
        ];
        for (kind, copy) in copies {
            let path = neutral(&format!("{revision}-{kind}")).join("mcp.json");
            std::fs::write(&path, &copy).unwrap();
            let (generated, found) = body(&path);
            assert_eq!(found.as_deref(), Some(*revision), "{revision} {kind}");
            assert!(generated == expected, "{revision} {kind}: different output");
        }
    }
}

#[test]
fn an_unknown_revision_lists_the_known_ones() {
    let err = Builder::new()
        .schema(official("2026-07-28"))
        .revision("2099-01-01")
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err();
    assert!(matches!(err, Error::UnknownRevision { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("2099-01-01") && msg.contains("2024-11-05, ") && msg.contains("2026-07-28"),
        "{msg}"
    );
}

#[test]
fn an_edited_schema_that_needs_an_overlay_says_how_to_name_its_revision() {
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(official("2026-07-28")).unwrap()).unwrap();
    value["$defs"]["Edited"] = serde_json::json!({"type": "string"});
    let path = neutral("edited").join("mcp.json");
    std::fs::write(&path, serde_json::to_string(&value).unwrap()).unwrap();
    let err = Builder::new()
        .schema(&path)
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("Builder::revision")
            && msg.contains("--revision")
            && msg.contains("2025-11-25"),
        "{msg}"
    );
    // Naming it works.
    let g = Builder::new()
        .schema(&path)
        .revision("2026-07-28")
        .cargo_metadata(false)
        .generate_string()
        .unwrap();
    assert!(g.text.contains("pub struct Edited") || g.text.contains("pub type Edited"));
}

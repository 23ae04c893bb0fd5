//! Extensions (`Builder::extension`, `--extension`): enabling one only adds to the revision's
//! output, leaving none of it out, and asking for what cannot be had is a clear error.

use std::path::PathBuf;
use std::process::Command;

const TASKS: &str = "io.modelcontextprotocol/tasks";

fn official(revision: &str) -> PathBuf {
    PathBuf::from(env!("MCP_SCHEMA_DIR"))
        .join(revision)
        .join("schema.json")
}

fn generate(extensions: &[&str]) -> String {
    let mut b = mcp_codegen::Builder::new();
    b.schema(official("2026-07-28")).cargo_metadata(false);
    for e in extensions {
        b.extension(*e);
    }
    b.generate_string().unwrap().text
}

/// The lines of generated code, less the header (it names the extensions) and the prelude's
/// `use` list (prettyplease wraps it anew when names are added).
fn body(text: &str) -> Vec<&str> {
    let start = text.find("\n\n").map_or(0, |i| i + 2);
    let text = &text[start..];
    let end = text
        .find("pub mod prelude")
        .map_or(text.len(), |i| text[..i].rfind("\n///").unwrap_or(i));
    text[..end].lines().collect()
}

#[test]
fn without_an_extension_nothing_of_it_is_generated() {
    let plain = generate(&[]);
    for word in [
        "CreateTaskResult",
        "TaskStatus",
        "tasks/get",
        "TasksExtension",
        "::mcp_runtime::extension",
        "extensions io.",
        "# Extensions",
    ] {
        assert!(!plain.contains(word), "{word} without the extension");
    }
}

#[test]
fn enabling_an_extension_only_adds() {
    let plain = generate(&[]);
    let tasks = generate(&[TASKS]);
    assert!(tasks.contains(&format!(", extensions {TASKS})")));
    // Every line of the plain output is in the extension's, in order (a doc line may be
    // extended: the outcome's says how "task" reads).
    let with: Vec<&str> = body(&tasks);
    let mut at = 0;
    for line in body(&plain) {
        match with[at..].iter().position(|l| l.starts_with(line)) {
            Some(i) => at += i + 1,
            None => panic!("the line {line:?} is missing from the output with {TASKS}"),
        }
    }
    // And the same extension asked twice is enabled once.
    assert_eq!(generate(&[TASKS, TASKS]), tasks);
}

#[test]
fn the_extension_generates_its_types_and_the_task_variant() {
    let tasks = generate(&[TASKS]);
    for item in [
        "pub struct Task {",
        "pub enum TaskStatus {",
        "pub struct CreateTaskResult {",
        "pub struct GetTaskRequest {",
        "pub struct GetTaskResult {",
        "pub struct UpdateTaskRequest {",
        "pub struct UpdateTaskResult {",
        "pub struct CancelTaskRequest {",
        "pub struct CancelTaskResult {",
        "pub struct TaskStatusNotification {",
        "pub struct TasksExtension;",
        "Task(::mcp_runtime::extension::Granted<CreateTaskResult>)",
        "impl ::mcp_runtime::extension::Supports<TasksExtension> for CallToolRequest {}",
        "impl ::mcp_runtime::extension::ExtensionCapabilities for ClientCapabilities {",
        "/// # Extensions",
        "/// - [`TasksExtension`]: `io.modelcontextprotocol/tasks`.",
    ] {
        assert!(tasks.contains(item), "{item} is not generated");
    }
    // Only tools/call is extended.
    assert_eq!(tasks.matches("Granted<CreateTaskResult>)").count(), 1);
}

#[test]
fn an_unknown_extension_is_an_error_naming_the_known_ones() {
    let e = mcp_codegen::Builder::new()
        .schema(official("2026-07-28"))
        .extension("com.example/nope")
        .generate_string()
        .unwrap_err();
    assert!(
        matches!(&e, mcp_codegen::Error::UnknownExtension { name, .. } if name == "com.example/nope")
    );
    let text = e.to_string();
    assert!(
        text.contains("com.example/nope") && text.contains(TASKS),
        "{text}"
    );
}

#[test]
fn an_extension_of_another_revision_is_an_error() {
    let e = mcp_codegen::Builder::new()
        .schema(official("2025-11-25"))
        .extension(TASKS)
        .generate_string()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(TASKS) && e.contains("2026-07-28") && e.contains("2025-11-25"),
        "{e}"
    );
    // A schema of no known revision: say which.
    let e = mcp_codegen::Builder::new()
        .schema_str(r#"{"$defs": {}}"#)
        .extension(TASKS)
        .generate_string()
        .unwrap_err()
        .to_string();
    assert!(e.contains("Builder::revision"), "{e}");
}

#[test]
fn the_cli_takes_extension() {
    let bin = env!("CARGO_BIN_EXE_mcp-codegen");
    let out = Command::new(bin)
        .arg("--schema")
        .arg(official("2026-07-28"))
        .args(["--extension", TASKS])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), generate(&[TASKS]));
    let out = Command::new(bin)
        .arg("--schema")
        .arg(official("2026-07-28"))
        .args(["--extension", "com.example/nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown extension"));
}

/// Two revisions side by side, 2025-11-25 and 2026-07-28, with `extensions` enabled.
fn two_revisions(extensions: &[&str]) -> Result<mcp_codegen::Generated, mcp_codegen::Error> {
    let mut b = mcp_codegen::Builder::new();
    b.schema(official("2025-11-25"))
        .schema(official("2026-07-28"))
        .cargo_metadata(false);
    for e in extensions {
        b.extension(*e);
    }
    b.generate_string()
}

/// The text of the top-level module `name` (from its `pub mod` line to its closing brace).
fn module<'t>(text: &'t str, name: &str) -> &'t str {
    let start = text
        .find(&format!("\npub mod {name} {{\n"))
        .unwrap_or_else(|| panic!("no module {name}"));
    let len = text[start..].find("\n}\n").expect("the module closes");
    &text[start..start + len]
}

/// The lines of `text` that are code, not doc comments (the overviews list what the other
/// revision defines, so they name the extension's types in both modules).
fn code_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("///"))
        .collect()
}

#[test]
fn with_two_revisions_only_the_extensions_own_revision_is_extended() {
    let plain = two_revisions(&[]).unwrap();
    let tasks = two_revisions(&[TASKS]).unwrap();
    // The header names the extension with 2026-07-28 only.
    let header = tasks.text.lines().next().unwrap();
    let (legacy_part, modern_part) = header.split_once(" and revision 2026-07-28").unwrap();
    assert!(!legacy_part.contains(TASKS), "{header}");
    assert!(
        modern_part.contains(&format!(", extensions {TASKS})")),
        "{header}"
    );
    // 2025-11-25's code is the same with and without it (its own experimental task types
    // included: the extension's do not replace them).
    let (legacy_plain, legacy_tasks) = (
        module(&plain.text, "v2025_11_25"),
        module(&tasks.text, "v2025_11_25"),
    );
    assert_eq!(code_lines(legacy_plain), code_lines(legacy_tasks));
    assert!(legacy_tasks.contains("pub struct GetTaskPayloadRequest {"));
    // 2026-07-28 gains the extension: its marker, its types, the task outcome of tools/call.
    let modern = module(&tasks.text, "v2026_07_28");
    for item in [
        "pub struct TasksExtension;",
        "pub struct UpdateTaskRequest {",
        "Task(::mcp_runtime::extension::Granted<CreateTaskResult>)",
        "impl ::mcp_runtime::extension::Supports<TasksExtension> for CallToolRequest {}",
        "impl ::mcp_runtime::extension::ExtensionCapabilities for ClientCapabilities {",
    ] {
        assert!(modern.contains(item), "{item} is not in 2026-07-28");
        assert!(!legacy_tasks.contains(item), "{item} is in 2025-11-25");
        assert!(!module(&plain.text, "v2026_07_28").contains(item), "{item}");
    }
    // The join sees the extension's types as 2026-07-28's: one 2025-11-25 lacks is in neither
    // list; one 2025-11-25 defines too (its own `Task`) converts.
    let eras = tasks.eras.unwrap();
    let converted = |n: &str| eras.converted.iter().any(|c| c.name == n);
    assert!(
        !converted("UpdateTaskRequest") && !eras.shared.iter().any(|s| s == "UpdateTaskRequest")
    );
    assert!(converted("Task") && !converted("TasksExtension"));
}

#[test]
fn with_two_revisions_an_extension_of_neither_is_an_error() {
    let e = mcp_codegen::Builder::new()
        .schema(official("2025-06-18"))
        .schema(official("2025-11-25"))
        .extension(TASKS)
        .generate_string()
        .unwrap_err();
    assert!(
        matches!(&e, mcp_codegen::Error::Extension { id, .. } if id == TASKS),
        "{e}"
    );
    let text = e.to_string();
    assert!(
        text.contains("defined for 2026-07-28") && text.contains("neither schema"),
        "{text}"
    );
    // An unknown one is refused as with one schema.
    let e = two_revisions(&["com.example/nope"]).unwrap_err();
    assert!(
        matches!(&e, mcp_codegen::Error::UnknownExtension { name, .. } if name == "com.example/nope"),
        "{e}"
    );
}

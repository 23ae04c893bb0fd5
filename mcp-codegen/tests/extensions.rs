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

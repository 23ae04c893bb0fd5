//! Bad input gives an `Error` that names the file and the JSON pointer, never a panic.

use std::path::PathBuf;

use mcp_codegen::{Builder, Error};

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-codegen-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn generate(name: &str, text: &str) -> Error {
    let path = write(name, text);
    let err = Builder::new()
        .schema(&path)
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains(name), "the message names the file: {msg}");
    err
}

/// Asserts a schema error at `pointer` whose message contains `words`.
fn schema_error(name: &str, text: &str, pointer: &str, words: &str) {
    let err = generate(name, text);
    let msg = err.to_string();
    assert_eq!(err.pointer(), Some(pointer), "{msg}");
    assert!(
        msg.contains(&format!("#{pointer}")),
        "the message shows the pointer: {msg}"
    );
    assert!(msg.contains(words), "expected {words:?} in: {msg}");
}

#[test]
fn missing_file() {
    let err = Builder::new()
        .schema("/nonexistent/dir/schema.json")
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err();
    assert!(matches!(err, Error::Read { .. }), "{err:?}");
    assert!(
        err.to_string().contains("/nonexistent/dir/schema.json"),
        "{err}"
    );
}

#[test]
fn invalid_json() {
    let err = generate("invalid.json", "{\n  \"$defs\": {\n    \"A\": {,}\n  }\n}");
    let Error::Json { line, column, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!((*line, *column), (3, 11), "{err}");
}

#[test]
fn not_an_object() {
    schema_error("array.json", "[1, 2]", "", "must be a JSON object");
}

#[test]
fn no_defs() {
    schema_error("nodefs.json", r#"{"type": "object"}"#, "", "no $defs");
}

#[test]
fn unresolvable_ref() {
    schema_error(
        "unresolvable.json",
        r##"{"$defs": {"Foo": {"type": "object", "properties": {"bar": {"$ref": "#/$defs/Missing"}}}}}"##,
        "/$defs/Foo/properties/bar",
        "unresolvable $ref \"#/$defs/Missing\"",
    );
}

#[test]
fn ref_outside_defs() {
    schema_error(
        "outside.json",
        r##"{"$defs": {"Foo": {"type": "object", "properties": {"bar": {"$ref": "#/properties/x"}}}}}"##,
        "/$defs/Foo/properties/bar",
        "only references to #/$defs/<name>",
    );
}

/// Two array members whose items are unions are merged into one (JSON-RPC batches); an error
/// in a member after them still names that member's own index.
#[test]
fn error_after_merged_array_members_points_at_its_member() {
    schema_error(
        "merged.json",
        r##"{"$defs": {
            "A": {"type": "object"}, "B": {"type": "object"},
            "U": {"anyOf": [
                {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/A"}]}},
                {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/B"}]}},
                {"type": "string"},
                {"$ref": "#/$defs/Missing"}
            ]}
        }}"##,
        "/$defs/U/anyOf/3",
        "Missing",
    );
}

#[test]
fn unsupported_keyword() {
    schema_error(
        "not.json",
        r#"{"$defs": {"Foo": {"type": "object", "properties": {"bar": {"not": {"type": "string"}}}}}}"#,
        "/$defs/Foo/properties/bar",
        "unsupported keyword `not`",
    );
}

#[test]
fn unsupported_combination() {
    schema_error(
        "combo.json",
        r##"{"$defs": {"A": {"type": "string"}, "Foo": {"$ref": "#/$defs/A", "properties": {"x": {}}}}}"##,
        "/$defs/Foo",
        "unsupported keyword combination",
    );
}

#[test]
fn two_defs_one_rust_name() {
    schema_error(
        "collide.json",
        r#"{"$defs": {"foo-bar": {"type": "string"}, "foo_bar": {"type": "string"}}}"#,
        "/$defs/foo_bar",
        "would both be the Rust type `foo_bar`",
    );
}

#[test]
fn enum_of_numbers() {
    schema_error(
        "enum.json",
        r#"{"$defs": {"E": {"enum": [1, 2]}}}"#,
        "/$defs/E/enum",
        "only enums of strings",
    );
}

#[test]
fn indistinguishable_union() {
    schema_error(
        "union.json",
        r#"{"$defs": {"U": {"anyOf": [{"type": "string", "format": "uri"}, {"type": "string"}]}}}"#,
        "/$defs/U/anyOf",
        "several are of JSON type string",
    );
}

#[test]
fn alias_cycle() {
    schema_error(
        "cycle.json",
        r##"{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}"##,
        "/$defs/B",
        "refers to itself through $refs alone",
    );
}

#[test]
fn required_not_an_array() {
    schema_error(
        "required.json",
        r#"{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}, "required": "x"}}}"#,
        "/$defs/A/required",
        "required must be an array",
    );
}

#[test]
fn object_const() {
    schema_error(
        "const.json",
        r#"{"$defs": {"A": {"type": "object", "properties": {"x": {"const": {"a": 1}}}}}}"#,
        "/$defs/A/properties/x/const",
        "only string and integer constants",
    );
}

#[test]
fn bad_overlay_file() {
    let schema = write("ok.json", r#"{"$defs": {"A": {"type": "string"}}}"#);
    let overlay = write("overlay.json", r#"{"revision": "x", "nonsense": 1}"#);
    let err = Builder::new()
        .schema(&schema)
        .overlay(&overlay)
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err();
    assert!(matches!(err, Error::Json { .. }), "{err:?}");
    assert!(
        err.to_string().contains("overlay.json") && err.to_string().contains("nonsense"),
        "{err}"
    );
}

/// Generates `schema` (a file in the temp dir) with the user overlay `overlay_text`, written
/// as `overlay_name`, and returns the error, which names the overlay file.
fn overlay_error(overlay_name: &str, schema: &str, overlay_text: &str) -> Error {
    let schema = write(&format!("schema-for-{overlay_name}"), schema);
    let overlay = write(overlay_name, overlay_text);
    let err = Builder::new()
        .schema(&schema)
        .overlay(&overlay)
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains(&overlay.display().to_string()),
        "the message names the overlay file: {msg}"
    );
    err
}

/// A `$def` name the schema lacks is an overlay error at its key, not silently nothing.
#[test]
fn overlay_names_a_missing_def() {
    let err = overlay_error(
        "overlay-names.json",
        r#"{"$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}}}"#,
        r#"{"revision": "x", "at_least_one_of": {"Fooo": {"keys": ["a"], "why": "w", "source": "s"}}}"#,
    );
    let Error::Overlay { file, key, message } = &err else {
        panic!("{err:?}")
    };
    assert!(
        file.as_ref()
            .is_some_and(|f| f.ends_with("overlay-names.json")),
        "{err}"
    );
    assert_eq!(key, "/at_least_one_of/Fooo", "{err}");
    assert_eq!(message, "the schema has no $def named \"Fooo\"", "{err}");
    assert!(
        err.to_string().ends_with(
            "overlay-names.json: /at_least_one_of/Fooo: the schema has no $def named \"Fooo\""
        ),
        "{err}"
    );
}

/// A misspelt level is a parse error at the key, with its line and column, not a MUST rule.
#[test]
fn overlay_bad_level() {
    let err = overlay_error(
        "overlay-level.json",
        r#"{"$defs": {"A": {"type": "string"}}}"#,
        r#"{
  "revision": "x",
  "input_requests": {"result": "A", "map": "A", "request": "A", "responses": "A",
    "response": "A", "capabilities": "A", "missing_capability_error": "A", "why": "w", "source": "s"},
  "input_capabilities": {"why": "w", "source": "s", "rules": [
    {"method": "m", "needs": "n", "level": "shoud", "why": "w"}
  ]}
}"#,
    );
    let Error::Json { line, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*line, 6, "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("/input_capabilities/rules/0/level: unknown variant `shoud`, expected `must` or `should`"),
        "{msg}"
    );
}

/// A Rust path that does not parse is an error when the overlay is read, not a panic when the
/// code is emitted.
#[test]
fn overlay_bad_rust_path() {
    let err = overlay_error(
        "overlay-path.json",
        r#"{"$defs": {"A": {"type": "string"}}}"#,
        r#"{"revision": "x", "rust_types": {"A": {"path": "::foo::", "why": "w", "source": "s"}}}"#,
    );
    assert!(matches!(err, Error::Json { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("/rust_types/A/path: \"::foo::\" is not a Rust path"),
        "{msg}"
    );
}

/// An empty `when` is an error, not a rule that always applies.
#[test]
fn overlay_empty_when() {
    let err = overlay_error(
        "overlay-when.json",
        r#"{"$defs": {"A": {"type": "string"}}}"#,
        r#"{"revision": "x",
  "input_requests": {"result": "A", "map": "A", "request": "A", "responses": "A",
    "response": "A", "capabilities": "A", "missing_capability_error": "A", "why": "w", "source": "s"},
  "input_capabilities": {"why": "w", "source": "s", "rules": [
    {"method": "m", "needs": "n", "when": {}, "why": "w"}
  ]}}"#,
    );
    let msg = err.to_string();
    assert!(
        msg.contains("/input_capabilities/rules/0/when: empty `when`"),
        "{msg}"
    );
}

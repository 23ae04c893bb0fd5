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

/// A key given twice in one object of the schema is refused at its pointer (serde_json alone
/// would keep the last one silently).
#[test]
fn duplicate_keys() {
    schema_error(
        "duplicate-in-def.json",
        r#"{"$defs": {"A": {"type": "string", "description": "d", "type": "object"}}}"#,
        "/$defs/A/type",
        "appears more than once",
    );
    schema_error(
        "duplicate-def.json",
        r#"{"$defs": {"A": {"type": "string"}, "B": {}, "A": {"type": "integer"}}}"#,
        "/$defs/A",
        "appears more than once",
    );
    schema_error(
        "duplicate-deep.json",
        r#"{"$defs": {"A": {"type": "object", "properties": {"x": {"enum": ["a", "a"]},
            "y": {"anyOf": [{"type": "string"}, {"required": ["p"], "required": ["q"]}]}}}}}"#,
        "/$defs/A/properties/y/anyOf/1/required",
        "appears more than once",
    );
    // An escaped spelling of the same key is the same key.
    schema_error(
        "duplicate-escaped.json",
        r#"{"$defs": {"A": {"type": "string"}, "\u0041": {"type": "string"}}}"#,
        "/$defs/A",
        "appears more than once",
    );
}

/// An endless schema (`/dev/zero`) or overlay is refused once the size limit is read, not read
/// until memory runs out.
#[cfg(unix)]
#[test]
fn endless_input_is_refused_at_the_size_limit() {
    let err = Builder::new()
        .schema("/dev/zero")
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err();
    assert!(
        matches!(err, Error::TooLarge { limit, .. } if limit == 16 << 20),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains("/dev/zero: larger than 16 MiB, the most a schema or overlay file may be"),
        "{err}"
    );
    let schema = write(
        "ok-for-endless-overlay.json",
        r#"{"$defs": {"A": {"type": "string"}}}"#,
    );
    let err = Builder::new()
        .schema(&schema)
        .overlay("/dev/zero")
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err();
    assert!(matches!(err, Error::TooLarge { .. }), "{err:?}");
    // A file just past the limit is refused too, one at the limit is read (and then fails as
    // JSON: it is all spaces).
    let limit = 16usize << 20;
    let big = write("big.json", &" ".repeat(limit + 1));
    let err = Builder::new()
        .schema(&big)
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err();
    assert!(matches!(err, Error::TooLarge { .. }), "{err:?}");
    let at_limit = write("at-limit.json", &" ".repeat(limit));
    let err = Builder::new()
        .schema(&at_limit)
        .cargo_metadata(false)
        .generate_string()
        .unwrap_err();
    assert!(matches!(err, Error::Json { .. }), "{err:?}");
}

/// `generate(out)` refuses to write over the schema or the overlay it reads, however the path
/// is spelled, and leaves the input as it was.
#[test]
fn output_over_input_is_refused() {
    let text = r#"{"$defs": {"A": {"type": "string"}}}"#;
    let schema = write("over-input.json", text);
    let dir = schema.parent().unwrap().to_owned();
    let dotted = dir
        .join("..")
        .join(dir.file_name().unwrap())
        .join("over-input.json");
    let mut spellings = vec![schema.clone(), dotted];
    #[cfg(unix)]
    {
        let link = dir.join("over-input-link.json");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&schema, &link).unwrap();
        spellings.push(link);
        let hard = dir.join("over-input-hard.json");
        let _ = std::fs::remove_file(&hard);
        std::fs::hard_link(&schema, &hard).unwrap();
        spellings.push(hard);
    }
    for out in &spellings {
        let err = Builder::new()
            .schema(&schema)
            .cargo_metadata(false)
            .generate(out)
            .unwrap_err();
        assert!(
            matches!(
                &err,
                Error::OutputIsInput {
                    input: "schema",
                    ..
                }
            ),
            "{}: {err:?}",
            out.display()
        );
        assert!(
            err.to_string()
                .contains("the output would overwrite the schema it is generated from"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&schema).unwrap(), text);
    // The overlay too.
    let overlay_text = r#"{"revision": "x"}"#;
    let overlay = write("over-input-overlay.json", overlay_text);
    let err = Builder::new()
        .schema(&schema)
        .overlay(&overlay)
        .cargo_metadata(false)
        .generate(&overlay)
        .unwrap_err();
    assert!(
        matches!(
            &err,
            Error::OutputIsInput {
                input: "overlay",
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(std::fs::read_to_string(&overlay).unwrap(), overlay_text);
    // Another file in the same folder is written.
    let out = dir.join("over-input.rs");
    Builder::new()
        .schema(&schema)
        .cargo_metadata(false)
        .generate(&out)
        .unwrap();
    assert!(!std::fs::read_to_string(&out).unwrap().is_empty());
}

/// The command line: an `--out` that is the `--schema` (or the `--overlay`) is refused with
/// status 2 and the schema kept; `/dev/zero` as the schema fails with the size limit; a
/// duplicate key is reported with its pointer; `--check` against an endless `--out` ends.
#[test]
fn cli_refuses_hostile_paths() {
    let cli = |args: &[&std::ffi::OsStr]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-codegen"))
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let text = r#"{"$defs": {"A": {"type": "string"}}}"#;
    let schema = write("cli-over-input.json", text);
    let dir = schema.parent().unwrap().to_owned();
    let dotted = dir.join(".").join("cli-over-input.json");
    let (code, err) = cli(&[
        "--schema".as_ref(),
        schema.as_ref(),
        "--out".as_ref(),
        dotted.as_ref(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("the output would overwrite the schema it is generated from"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&schema).unwrap(), text);
    let overlay = write("cli-over-overlay.json", r#"{"revision": "x"}"#);
    let (code, err) = cli(&[
        "--schema".as_ref(),
        schema.as_ref(),
        "--overlay".as_ref(),
        overlay.as_ref(),
        "--out".as_ref(),
        overlay.as_ref(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("overwrite the overlay"), "{err}");
    #[cfg(unix)]
    {
        let (code, err) = cli(&["--schema".as_ref(), "/dev/zero".as_ref()]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("/dev/zero: larger than 16 MiB"), "{err}");
        let (code, err) = cli(&[
            "--schema".as_ref(),
            schema.as_ref(),
            "--out".as_ref(),
            "/dev/zero".as_ref(),
            "--check".as_ref(),
        ]);
        assert_eq!(code, Some(1), "{err}");
    }
    let dup = write("cli-duplicate.json", r#"{"$defs": {"A": {}, "A": {}}}"#);
    let (code, err) = cli(&["--schema".as_ref(), dup.as_ref()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("#/$defs/A: this key appears more than once"),
        "{err}"
    );
}

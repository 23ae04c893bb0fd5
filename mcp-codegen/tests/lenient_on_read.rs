//! The overlay's `lenient_on_read`: a required member a reader accepts missing stays one that
//! `new` takes, so what the crate writes carries it; naming a member that is not a declared
//! required one is an error at the `$def`.

use std::path::PathBuf;

use mcp_codegen::Builder;

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-codegen-lenient-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const SCHEMA: &str = r#"{"$defs": {"Hints": {"type": "object",
    "properties": {"a": {"type": "string"}, "ttl": {"type": "integer"}, "note": {"type": "string"}},
    "required": ["a", "ttl"]}}}"#;

fn generate(overlay: &str) -> Result<String, mcp_codegen::Error> {
    // Each test its own files: the tests run at once.
    let tag: String = overlay.chars().filter(char::is_ascii_alphabetic).collect();
    Builder::new()
        .schema(write(&format!("schema-{tag}.json"), SCHEMA))
        .overlay(write(&format!("overlay-{tag}.json"), overlay))
        .cargo_metadata(false)
        .generate_string()
        .map(|generated| generated.text)
}

fn overlay(keys: &str) -> String {
    format!(
        r#"{{"revision": "x", "lenient_on_read": {{"Hints": {{"keys": {keys}, "why": "w", "source": "s"}}}}}}"#
    )
}

#[test]
fn a_lenient_member_is_optional_to_read_and_taken_by_new() {
    let code = generate(&overlay(r#"["ttl"]"#)).unwrap();
    let squeezed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        squeezed.contains("pub ttl: ::core::option::Option<i64>"),
        "read: the field is optional\n{code}"
    );
    assert!(
        squeezed.contains("pub fn new( a: impl ::core::convert::Into<::std::string::String>, ttl: impl ::core::convert::Into<i64>, ) -> Self"),
        "written: new takes it\n{code}"
    );
    assert!(
        squeezed.contains("ttl: ::core::option::Option::Some(::core::convert::Into::into(ttl))"),
        "new sets it\n{code}"
    );
    assert!(
        squeezed.contains("pub fn with_ttl("),
        "and it can be set again\n{code}"
    );
    assert!(
        !squeezed.contains("note: impl"),
        "an optional member stays out of new\n{code}"
    );
}

#[test]
fn a_lenient_member_must_be_a_declared_required_one() {
    for keys in [r#"["note"]"#, r#"["missing"]"#] {
        let err = generate(&overlay(keys)).unwrap_err();
        assert_eq!(err.pointer(), Some("/$defs/Hints"), "{keys}: {err}");
        assert!(
            err.to_string().contains("lenient_on_read names"),
            "{keys}: {err}"
        );
    }
}

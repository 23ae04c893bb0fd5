//! Strict on write: every 2026-07-28 `$def` whose generated type a constructor builds, built
//! from its least arguments (empty strings and lists, zero, the first variant: the generator's
//! `minimal_instances`), writes JSON that the official schema's `$def` accepts (the
//! `jsonschema` crate). What a reader is lenient about (the overlay's `lenient_on_read`) a
//! constructor still writes.

use serde_json::{Value, json};

/// The generated `minimal_instances`, over the 2026-07-28 module.
mod built {
    #![allow(clippy::all)]
    use mcp_tests::mcp::*;
    include!(concat!(env!("OUT_DIR"), "/mcp-minimal.rs"));
}

/// The official 2026-07-28 schema.
fn official() -> Value {
    let path = mcp_tests::schema_dir()
        .join("2026-07-28")
        .join("schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn what_every_constructor_writes_validates_against_the_official_schema() {
    let mut schema = official();
    let defs = schema["$defs"].as_object().unwrap().len();
    let instances = built::minimal_instances();
    assert!(
        instances.len() * 4 >= defs * 3,
        "most $defs are built: {} of {defs}",
        instances.len()
    );
    let mut refused = Vec::new();
    for (name, written) in instances {
        let written = written.unwrap_or_else(|e| panic!("{name}: {e}"));
        schema["$ref"] = json!(format!("#/$defs/{name}"));
        let validator = jsonschema::validator_for(&schema).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&written)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        if !errors.is_empty() {
            refused.push(format!("{name}: {written}: {}", errors.join("; ")));
        }
    }
    assert!(refused.is_empty(), "\n{}", refused.join("\n"));
}

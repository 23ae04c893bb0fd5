//! Every official 2026-07-28 example deserializes into the `$def` its folder names and
//! serializes back to the same JSON, through the default module and the one generated with
//! `raw_json`.

use mcp_tests::{examples, schema_dir};

type RoundTrip = fn(&str, &str) -> Result<(), String>;

#[test]
fn every_official_example_round_trips() {
    every_example_round_trips(examples::roundtrip_as);
}

#[test]
fn every_official_example_round_trips_with_raw_json() {
    every_example_round_trips(examples::roundtrip_raw_as);
}

fn every_example_round_trips(roundtrip_as: RoundTrip) {
    let root = schema_dir().join("2026-07-28").join("examples");
    let mut checked = 0;
    let mut failures = Vec::new();
    for type_name in examples::TYPES {
        let dir = root.join(type_name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "json"))
        {
            let text = std::fs::read_to_string(&file).unwrap();
            if let Err(e) = roundtrip_as(type_name, &text) {
                failures.push(format!(
                    "{type_name}/{}: {e}",
                    file.file_name().unwrap().to_string_lossy()
                ));
            }
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} examples fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked, 129, "the official schema ships 129 examples");
}

//! Property tests of the two-revision module (issue 19): instances of every `$def` both
//! 2025-11-25 and 2026-07-28 define differently, walked off each revision's official schema
//! (see `proptest_support`), read as that revision's type, converted to the other revision and
//! back: where the conversion succeeds, the JSON comes back the same; where the join decided
//! `From`, it always succeeds (a `From` that could not convert would panic here).

mod proptest_support;

use mcp_tests::era_names::CONVERTED;
use mcp_tests::eras::{v2025_11_25, v2026_07_28};
use mcp_tests::{EraTrip, era_there_and_back};
use proptest_support::Walker;
use serde::Serialize;
use serde::de::DeserializeOwned;

fn cases() -> usize {
    std::env::var("MCP_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16)
}

/// How many instances converted and how many the conversion refused.
#[derive(Debug, Default, PartialEq)]
struct Count {
    converted: usize,
    refused: usize,
}

impl Count {
    fn new(converted: usize, refused: usize) -> Self {
        Count { converted, refused }
    }
}

/// Converts `cases()` instances of `$def` `name` of `walker`'s revision (read as `A`) to `B`
/// and back.
fn check<A, B>(walker: &Walker, name: &str, count: &mut Count) -> Result<(), String>
where
    A: DeserializeOwned + Serialize + TryFrom<B>,
    B: TryFrom<A> + Serialize,
    <B as TryFrom<A>>::Error: std::fmt::Display,
    <A as TryFrom<B>>::Error: std::fmt::Display,
{
    for (_, input) in walker.samples(name, cases()) {
        let value: A = serde_json::from_value(input.clone())
            .map_err(|e| format!("{name}: the type rejects it: {e}\n{input}"))?;
        let before = serde_json::to_value(&value).map_err(|e| e.to_string())?;
        match era_there_and_back::<A, B>(value, &before).map_err(|e| format!("{name}: {e}"))? {
            EraTrip::Converted => count.converted += 1,
            _ => count.refused += 1,
        }
    }
    Ok(())
}

macro_rules! both_ways {
    ($($name:ident),* $(,)?) => {{
        let older = Walker::new("2025-11-25");
        let newer = Walker::new("2026-07-28");
        let (older_defs, newer_defs) = (older.defs(), newer.defs());
        let mut failures = Vec::new();
        let (mut forward, mut backward) = (Count::default(), Count::default());
        let mut checked = 0;
        $(
            let name = stringify!($name);
            if older_defs.iter().any(|d| d == name) && newer_defs.iter().any(|d| d == name) {
                checked += 1;
                if let Err(e) = check::<v2025_11_25::$name, v2026_07_28::$name>(&older, name, &mut forward) {
                    failures.push(format!("2025-11-25 to 2026-07-28: {e}"));
                }
                if let Err(e) = check::<v2026_07_28::$name, v2025_11_25::$name>(&newer, name, &mut backward) {
                    failures.push(format!("2026-07-28 to 2025-11-25: {e}"));
                }
            }
        )*
        (checked, forward, backward, failures)
    }};
}

#[test]
fn every_converted_def_converts_there_and_back_to_the_same_json() {
    let (checked, forward, backward, failures) = mcp_tests::converted_types!(both_ways);
    println!(
        "{checked} $defs of {} converted names; 2025-11-25 instances: {forward:?}; 2026-07-28 instances: {backward:?}",
        CONVERTED.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // Pinned for the fixed seeds and the default number of cases (CI's run); another seed or
    // number (scripts/proptest-random.sh) makes other instances.
    if proptest_support::run_seed::run_seed().is_none() && cases() == 16 {
        let counts = (checked, forward, backward);
        let pinned = (62, Count::new(629, 363), Count::new(872, 120));
        assert_eq!(counts, pinned, "converted and refused instances each way");
    } else {
        assert!(checked > 0 && forward.converted > 0 && backward.converted > 0);
    }
}

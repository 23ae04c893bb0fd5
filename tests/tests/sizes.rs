//! The generator's size estimates (by which it boxes the large members clippy would have a
//! user box) against `size_of`, for every type generated from one schema: never below it,
//! and close enough that it boxes little more than it must.

include!(concat!(env!("OUT_DIR"), "/sizes.rs"));

#[test]
fn no_estimate_is_below_the_real_size() {
    let below: Vec<String> = SIZES
        .iter()
        .filter(|(_, _, estimate, real)| estimate < real)
        .map(|(module, name, estimate, real)| format!("{module}::{name}: {estimate} < {real}"))
        .collect();
    assert!(below.is_empty(), "{below:#?}");
}

#[test]
fn the_estimates_are_close() {
    // Over all the types, at most a quarter above the real sizes; no type more than 64 bytes
    // above (an enum's tag word, a few optional integers).
    let (estimated, real) = SIZES.iter().fold((0, 0), |(e, r), (_, _, estimate, size)| {
        (e + estimate, r + size)
    });
    assert!(
        estimated * 4 <= real * 5,
        "{estimated} estimated, {real} real"
    );
    let far: Vec<String> = SIZES
        .iter()
        .filter(|(_, _, estimate, real)| *estimate > real + 64)
        .map(|(module, name, estimate, real)| format!("{module}::{name}: {estimate} for {real}"))
        .collect();
    assert!(far.is_empty(), "{far:#?}");
}

#[test]
fn every_module_of_one_schema_is_measured() {
    for module in [
        "mcp",
        "raw",
        "tasks",
        "v2024_11_05",
        "v2025_03_26",
        "v2025_06_18",
        "v2025_11_25",
    ] {
        let types = SIZES.iter().filter(|(m, ..)| *m == module).count();
        assert!(types > 50, "{module}: {types} types");
    }
}

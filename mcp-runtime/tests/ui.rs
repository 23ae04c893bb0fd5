//! Compile-time checks of the derives: each file in `tests/ui/` must fail with the message in
//! its `.stderr` (regenerate with `TRYBUILD=overwrite` and read the diff), and each file in
//! `tests/ui/pass/` must compile and run.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui/pass/*.rs");
}

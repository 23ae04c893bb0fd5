//! Compile-time checks of the derives on a user's own types: each file in `tests/derive/`
//! must fail with the message in its `.stderr` (regenerate with `TRYBUILD=overwrite` and read
//! the diff), and each file in `tests/derive/pass/` must compile and run.

#[test]
fn derives_on_user_types() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/derive/*.rs");
    t.pass("tests/derive/pass/*.rs");
}

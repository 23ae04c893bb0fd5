//! The derive checks user outcome types against the trait impls the generator emits from the
//! schema: only requests whose `*ResultResponse` allows InputRequiredResult may have an
//! input_required variant.

#[test]
fn outcomes_against_generated_requests() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/pass/*.rs");
}

//! Compile errors of `joint!`: each points at the offending token, and a broken definition
//! still emits a stub module so that only the one error shows.

#[test]
fn definition_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

//! Every scenario under tests/scenarios runs as its own test, named after
//! its file, so `cargo test` covers them and a failure names the file.

use std::path::PathBuf;

use rstest::rstest;
use turnspec_scenario::{FileResult, SpecCache, run_file};

#[rstest]
fn scenario(#[files("../../tests/scenarios/**/*.toml")] path: PathBuf) {
    let mut cache = SpecCache::default();
    let result = run_file(&path, &mut cache);
    if !result.passed() {
        panic!("\n{}", result.to_text(&path));
    }
    assert!(!matches!(result, FileResult::Invalid(_)));
}

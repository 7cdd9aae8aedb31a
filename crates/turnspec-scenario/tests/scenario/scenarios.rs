//! Every scenario under tests/scenarios runs as its own test, named after
//! its file, so `cargo test` covers them and a failure names the file.
//! Each runs twice: as `turnspec test` runs it (the compiled turn program
//! where the game allows it), and again on the interpreter alone, so a
//! rule both tiers must keep is checked on both (and mutation testing of
//! the transitions, scripts/mutants.sh, sees a fault in either tier).

use std::path::PathBuf;

use rstest::rstest;
use turnspec_scenario::{FileResult, Outcome, SpecCache, load_file, run, run_file};

#[rstest]
fn scenario(#[files("../../tests/scenarios/**/*.toml")] path: PathBuf) {
    let mut cache = SpecCache::default();
    let result = run_file(&path, &mut cache);
    if !result.passed() {
        panic!("\n{}", result.to_text(&path));
    }
    assert!(!matches!(result, FileResult::Invalid(_)));
}

#[rstest]
fn scenario_on_the_interpreter(#[files("../../tests/scenarios/**/*.toml")] path: PathBuf) {
    let mut cache = SpecCache::default();
    let mut scenario = load_file(&path, &mut cache).expect("the scenario loads");
    scenario.options.turn_program = false;
    let outcome = run(&scenario);
    if let Outcome::Failed(_) = outcome {
        let result = FileResult::Ran {
            scenario: Box::new(scenario),
            outcome,
        };
        panic!("\non the interpreter alone:\n{}", result.to_text(&path));
    }
}

//! `explore --against` on timely dataflow gives the single-process report,
//! byte for byte, for 1, 2 and 4 workers (in one process; two processes on
//! loopback are tested by tests/explore-dist/run.sh).

#![cfg(feature = "distributed")]

use std::path::PathBuf;

use turnspec_explore::{Cluster, Options, explore_against, explore_against_distributed};
use turnspec_spec::Spec;

fn game(name: &str) -> Spec {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    match turnspec_spec::load_str(name, &text) {
        Ok((spec, _)) => spec,
        Err(report) => panic!("{name} does not load:\n{}", report.to_short_text()),
    }
}

fn same_for_any_number_of_workers(options: &Options) -> turnspec_explore::DiffReport {
    let (a, b) = (game("mtg.toml"), game("mtg-classic.toml"));
    let one = explore_against(&a, &b, options).unwrap();
    for workers in [1, 2, 4] {
        let cluster = Cluster {
            workers,
            ..Cluster::default()
        };
        let many = explore_against_distributed(&a, &b, options, &cluster)
            .unwrap()
            .expect("process 0 gets the report");
        assert_eq!(one.to_text(), many.to_text(), "{workers} workers");
        assert_eq!(
            format!("{:?}", one.differences),
            format!("{:?}", many.differences)
        );
        assert_eq!(one.states, many.states);
    }
    one
}

#[test]
fn against_is_the_same_on_1_2_and_4_workers() {
    let mut o = Options::default();
    o.depth = 4;
    let report = same_for_any_number_of_workers(&o);
    assert!(!report.differences.is_empty(), "the editions differ");
}

#[test]
fn against_is_the_same_when_the_search_is_exhausted_or_at_depth_0() {
    let mut o = Options::default();
    o.depth = 60;
    for family in ["play", "answer", "trigger", "effect", "fact", "mana"] {
        o.families.set(family, false).unwrap();
    }
    let report = same_for_any_number_of_workers(&o);
    assert_eq!(report.stop, turnspec_explore::Stop::Exhausted);
    o.depth = 0;
    same_for_any_number_of_workers(&o);
}

#[test]
fn against_is_the_same_when_max_states_cuts_a_level() {
    for max_states in [1, 2, 50, 333] {
        let mut o = Options::default();
        o.depth = 8;
        o.max_states = max_states;
        let report = same_for_any_number_of_workers(&o);
        assert!(matches!(
            report.stop,
            turnspec_explore::Stop::MaxStates { .. }
        ));
    }
}

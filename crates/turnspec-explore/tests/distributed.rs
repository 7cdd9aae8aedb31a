//! `explore` and `explore --against` on timely dataflow give the
//! single-process report, byte for byte, for 1, 2 and 4 workers (in one
//! process; two processes on loopback are tested by
//! tests/explore-dist/run.sh).

#![cfg(feature = "distributed")]

use std::path::PathBuf;

use turnspec_explore::{
    Cluster, FindingKind, Options, Report, Stop, explore, explore_against,
    explore_against_distributed, explore_distributed,
};
use turnspec_spec::Spec;

fn inline(text: &str) -> Spec {
    match turnspec_spec::load_str("inline.toml", text) {
        Ok((spec, _)) => spec,
        Err(report) => panic!("does not load:\n{}", report.to_short_text()),
    }
}

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

/// Plain `explore` on 1, 2 and 4 workers: the same report as one process,
/// everything it holds (text, coverage, findings with their moves, counts).
fn explore_is_the_same_for_any_number_of_workers(spec: &Spec, options: &Options) -> Report {
    let one = explore(spec, options).unwrap();
    for workers in [1, 2, 4] {
        let cluster = Cluster {
            workers,
            ..Cluster::default()
        };
        let many = explore_distributed(spec, options, &cluster)
            .unwrap()
            .expect("process 0 gets the report");
        assert_eq!(one.to_text(), many.to_text(), "{workers} workers");
        assert_eq!(format!("{one:?}"), format!("{many:?}"), "{workers} workers");
    }
    one
}

/// A special action only the non-active player may take, after which
/// priority goes back to the active player (a cycle within the turn), and
/// an ending phase that begins again for as long as a fact is set (a dead
/// end once the host sets it).
const LOOP_AND_DEAD_END: &str = r#"
[game]
name = "Planted loop and dead end"
players = { min = 2, max = 2 }

[priority]
after_action = "active_player"

[facts.again]

[timing.stall]
rule = "S 1"
who = "non_active_player"
effect = "special"

[[phase]]
id = "main"
rule = "M 1"
priority = "always"

[[phase]]
id = "ending"
rule = "E 1"
repeat = { if = "fact.again", rule = "E 2" }
"#;

#[test]
fn explore_is_the_same_on_1_2_and_4_workers_with_cycles_and_dead_ends() {
    let spec = inline(LOOP_AND_DEAD_END);
    let mut o = Options::default();
    o.depth = 8;
    o.turns = 2;
    let report = explore_is_the_same_for_any_number_of_workers(&spec, &o);
    let has = |f: fn(&FindingKind) -> bool| report.findings.iter().any(|x| f(&x.kind));
    assert!(
        has(|k| matches!(k, FindingKind::Cycle { .. })),
        "{}",
        report.to_text()
    );
    assert!(
        has(|k| matches!(k, FindingKind::DeadEnd { .. })),
        "{}",
        report.to_text()
    );
    assert!(report.edges > 0);
    for max_states in [1, 3, 10] {
        o.max_states = max_states;
        explore_is_the_same_for_any_number_of_workers(&spec, &o);
    }
}

#[test]
fn explore_mtg_is_the_same_on_1_2_and_4_workers() {
    let spec = game("mtg.toml");
    let mut o = Options::default();
    o.depth = 6;
    let report = explore_is_the_same_for_any_number_of_workers(&spec, &o);
    assert!(
        report
            .findings
            .iter()
            .any(|f| matches!(f.kind, FindingKind::Cycle { .. }))
    );
    // Two host moves and two turns: other states, the same report.
    o.depth = 5;
    o.host_moves = 2;
    o.turns = 2;
    explore_is_the_same_for_any_number_of_workers(&spec, &o);
}

#[test]
fn explore_is_the_same_when_exhausted_at_depth_0_or_cut_by_max_states() {
    let spec = game("mtg.toml");
    let mut o = Options::default();
    o.depth = 60;
    for family in ["play", "answer", "trigger", "effect", "fact", "mana"] {
        o.families.set(family, false).unwrap();
    }
    let report = explore_is_the_same_for_any_number_of_workers(&spec, &o);
    assert_eq!(report.stop, Stop::Exhausted);
    o.depth = 0;
    explore_is_the_same_for_any_number_of_workers(&spec, &o);
    for max_states in [1, 2, 50, 333] {
        let mut o = Options::default();
        o.depth = 8;
        o.max_states = max_states;
        let report = explore_is_the_same_for_any_number_of_workers(&spec, &o);
        assert!(matches!(report.stop, Stop::MaxStates { .. }));
    }
}

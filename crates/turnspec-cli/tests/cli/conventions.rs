//! The command line's shared conventions (docs/cli.md): a flag that has no
//! effect in a combination is refused, JSON streams start with a header
//! record, diagrams come as JSON too.

use crate::common;

use common::{assert_exit, assert_exit_saying, stdout, turnspec};
use serde_json::Value;

#[test]
fn a_seed_with_all_pass_is_refused() {
    let o = turnspec(&["run", "games/mtg.toml", "--seed", "3"]);
    assert_exit_saying(&o, 2, "--seed has no effect with --policy all-pass");
    let o = turnspec(&["run", "games/mtg.toml", "--policy", "random", "--seed", "3"]);
    assert_exit(&o, 0);
    for policy in ["all-pass", "busy"] {
        let o = turnspec(&[
            "simulate",
            "games/mtg.toml",
            "--games",
            "1",
            "--turns",
            "1",
            "--policy",
            policy,
            "--seed",
            "3",
        ]);
        assert_exit_saying(&o, 2, "--seed has no effect with --policy");
    }
    let o = turnspec(&[
        "simulate",
        "games/mtg.toml",
        "--games",
        "1",
        "--turns",
        "1",
        "--policy",
        "random",
        "--seed",
        "3",
    ]);
    assert_exit(&o, 0);
    let o = turnspec(&[
        "compare",
        "--spec",
        "games/mtg.toml",
        "--spec",
        "games/mtg-2024.toml",
        "--seed",
        "3",
    ]);
    assert_exit_saying(&o, 2, "--seed has no effect with --policy all-pass");
    let o = turnspec(&[
        "compare",
        "--spec",
        "games/mtg.toml",
        "--spec",
        "games/mtg-2024.toml",
        "--seed",
        "3",
        "tests/scenarios/mtg",
    ]);
    assert_exit_saying(&o, 2, "--seed is for statistics mode");
}

#[test]
fn run_json_starts_with_a_header_record() {
    let o = turnspec(&[
        "run",
        "games/grand-archive.toml",
        "--policy",
        "random",
        "--seed",
        "5",
        "--turns",
        "1",
        "--players",
        "3",
        "--format",
        "json",
    ]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    let header: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(header["event"], "game");
    assert_eq!(header["spec"], "games/grand-archive.toml");
    assert_eq!(header["name"], "Grand Archive");
    assert!(header["edition"].is_string());
    assert_eq!(header["players"], 3);
    assert_eq!(header["turns"], 1);
    assert_eq!(header["policy"], "random");
    assert_eq!(header["seed"], 5);
    let second: Value = serde_json::from_str(out.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["event"], "turn_began");
    // All-pass has no seed.
    let o = turnspec(&["run", "games/mtg.toml", "--format", "json"]);
    let header: Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(header["seed"], Value::Null);
}

#[test]
fn quiet_and_verbose_are_accepted_by_every_verb() {
    for verb in [
        vec!["check", "games/mtg.toml"],
        vec!["graph", "games/mtg.toml"],
        vec!["run", "games/mtg.toml", "--turns", "1"],
        vec!["test", "tests/scenarios/mtg-editions"],
        vec!["simulate", "--games", "2", "--turns", "2"],
        vec!["diff", "games/mtg-2024.toml", "games/mtg.toml"],
        vec!["schema", "spec"],
        vec!["completions", "bash"],
        vec!["man"],
    ] {
        for flag in ["-q", "-v"] {
            let mut args = verb.clone();
            args.push(flag);
            let o = turnspec(&args);
            assert_exit(&o, 0);
        }
    }
    let o = turnspec(&["run", "games/mtg.toml", "-q", "-v"]);
    assert_exit(&o, 2);
}

#[test]
fn quiet_prints_less_and_verbose_more() {
    let quiet = stdout(&turnspec(&["test", "tests/scenarios/mtg-editions", "-q"]));
    assert!(!quiet.contains("ok      "), "{quiet}");
    assert!(quiet.contains("passed, 0 failed"), "{quiet}");
    let verbose = stdout(&turnspec(&["test", "tests/scenarios/mtg-editions", "-v"]));
    assert!(
        verbose.contains("ok      ") && verbose.contains("rules: "),
        "{verbose}"
    );
    let check = stdout(&turnspec(&["check", "games/mtg.toml", "-q"]));
    assert_eq!(check.trim(), "ok: games/mtg.toml");
    let explained = stdout(&turnspec(&["check", "games/mtg-2024.toml", "-v"]));
    assert!(explained.contains("set by:"), "{explained}");
    let run = stdout(&turnspec(&["run", "games/mtg.toml", "--turns", "1", "-q"]));
    assert!(run.starts_with("Turn 1"), "{run}");
    let ends = stdout(&turnspec(&["run", "games/mtg.toml", "--turns", "1", "-v"]));
    assert!(ends.contains("end of"), "{ends}");
}

#[test]
fn every_verb_that_plays_offers_the_same_policies() {
    for policy in ["all-pass", "busy", "random"] {
        let o = turnspec(&["run", "games/mtg.toml", "--turns", "1", "--policy", policy]);
        assert_exit(&o, 0);
        let o = turnspec(&[
            "simulate",
            "games/mtg.toml",
            "--games",
            "1",
            "--turns",
            "1",
            "--policy",
            policy,
        ]);
        assert_exit(&o, 0);
        let o = turnspec(&[
            "compare",
            "--spec",
            "games/mtg.toml",
            "--spec",
            "games/mtg-2024.toml",
            "--turns",
            "1",
            "--policy",
            policy,
        ]);
        assert_exit(&o, 0);
    }
}

#[test]
fn specs_are_positional_arguments_everywhere() {
    // compare tells specs from scenarios by content; --spec still works.
    let o = turnspec(&[
        "compare",
        "games/mtg.toml",
        "games/mtg-2024.toml",
        "tests/scenarios/mtg-editions",
    ]);
    assert_exit(&o, 0);
    let by_flag = turnspec(&[
        "compare",
        "--spec",
        "games/mtg.toml",
        "--spec",
        "games/mtg-2024.toml",
        "tests/scenarios/mtg-editions",
    ]);
    assert_eq!(stdout(&o), stdout(&by_flag));
    let o = turnspec(&["compare", "games/mtg.toml"]);
    assert_exit_saying(&o, 2, "give at least two specs");
}

#[test]
fn a_depth_without_the_busy_policy_is_refused() {
    let o = turnspec(&[
        "simulate",
        "games/mtg.toml",
        "--games",
        "1",
        "--turns",
        "1",
        "--depth",
        "3",
    ]);
    assert_exit_saying(&o, 2, "--depth has no effect with --policy all-pass");
    let o = turnspec(&[
        "simulate",
        "games/mtg.toml",
        "--games",
        "1",
        "--turns",
        "1",
        "--depth",
        "3",
        "--policy",
        "busy",
    ]);
    assert_exit(&o, 0);
}

//! `turnspec diff` and `turnspec compare` end to end: the edition specs,
//! text and JSON, the statistics mode and argument errors.

use crate::common;

use common::{stdout, turnspec};
use serde_json::Value;

const EDITIONS: [&str; 8] = [
    "--spec",
    "games/mtg-classic.toml",
    "--spec",
    "games/mtg-2011.toml",
    "--spec",
    "games/mtg-2024.toml",
    "--spec",
    "games/mtg.toml",
];

#[test]
fn diff_classic_to_2011_names_mana_burn_pools_and_damage_on_the_stack() {
    let o = turnspec(&["diff", "games/mtg-classic.toml", "games/mtg-2011.toml"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("~ mana · empties: only at the end of each phase → at the end of each step and phase  [300.3 → 500.4]"), "{out}");
    assert!(out.contains("~ mana · burn: yes"), "{out}");
    assert!(out.contains("- timing combat_damage"), "{out}");
    assert!(out.contains("~ action assign_combat_damage · play: puts a combat_damage object on the stack → none  [310.1 → 510.1]"), "{out}");
}

#[test]
fn diff_magic_to_grand_archive_names_one_main_phase_and_opportunity() {
    let o = turnspec(&["diff", "games/mtg.toml", "games/grand-archive.toml"]);
    let out = stdout(&o);
    assert!(
        out.contains("main phases per turn: 2 (precombat_main, postcombat_main) → 1 (main)"),
        "{out}"
    );
    assert!(
        out.contains("~ terms · priority: priority → Opportunity"),
        "{out}"
    );
}

#[test]
fn diff_json_is_one_document() {
    let o = turnspec(&[
        "diff",
        "games/mtg-2024.toml",
        "games/mtg.toml",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["counts"]["removed"], 2);
    assert!(
        v["differences"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["element"] == "action damage_assignment_order")
    );
}

#[test]
fn diff_of_a_broken_spec_fails_cleanly() {
    let o = turnspec(&["diff", "games/mtg.toml", "does/not/exist.toml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn compare_prints_the_matrix_for_the_edition_scenarios() {
    let mut args = vec!["compare"];
    args.extend(EDITIONS);
    args.push("tests/scenarios/mtg-editions");
    let o = turnspec(&args);
    assert!(o.status.success());
    let out = stdout(&o);
    let row = out
        .lines()
        .find(|l| l.starts_with("classic-300.3-mana-burn-when-the-phase-ends"))
        .expect("a row per scenario");
    let cells: Vec<&str> = row.split_whitespace().skip(1).collect();
    assert_eq!(cells, ["pass", "FAIL", "FAIL", "FAIL", "*"]);
    assert!(out.contains("first difference at event"), "{out}");

    args.extend(["--format", "json"]);
    let v: Value = serde_json::from_str(&stdout(&turnspec(&args))).expect("JSON");
    assert_eq!(v["specs"].as_array().unwrap().len(), 4);
}

#[test]
fn compare_without_paths_tabulates_simulated_turns() {
    let mut args = vec!["compare"];
    args.extend(EDITIONS);
    args.extend([
        "--turns", "4", "--policy", "random", "--seed", "9", "--format", "json",
    ]);
    let o = turnspec(&args);
    assert!(o.status.success());
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    for s in v["specs"].as_array().unwrap() {
        assert_eq!(s["totals"]["turns"], 4);
        assert!(s["per_turn"]["windows"].as_f64().unwrap() > 5.0);
    }
}

#[test]
fn compare_needs_two_specs_and_no_policy_with_paths() {
    let o = turnspec(&["compare", "--spec", "games/mtg.toml", "tests/scenarios/mtg"]);
    assert_eq!(o.status.code(), Some(2));
    let mut args = vec!["compare"];
    args.extend(EDITIONS);
    args.extend(["--policy", "random", "tests/scenarios/mtg"]);
    assert_eq!(turnspec(&args).status.code(), Some(2));
}

#[test]
fn compare_and_simulate_report_the_same_counts_and_digest() {
    // One simulator: Grand Archive's step-less phases count as one step in
    // both commands (compare said 2.00 steps per turn, simulate 6.30).
    for policy in ["all-pass", "random"] {
        let mut common = vec!["--games", "5", "--turns", "8", "--policy", policy];
        if policy == "random" {
            common.extend(["--seed", "3"]);
        }
        let mut sim = vec!["simulate", "games/grand-archive.toml", "--quiet"];
        sim.extend(common.iter().copied());
        sim.extend(["--format", "json"]);
        let s: Value = serde_json::from_str(&stdout(&turnspec(&sim))).expect("JSON");
        let mut cmp = vec![
            "compare",
            "--spec",
            "games/grand-archive.toml",
            "--spec",
            "games/mtg.toml",
        ];
        cmp.extend(common);
        cmp.extend(["--format", "json"]);
        let c: Value = serde_json::from_str(&stdout(&turnspec(&cmp))).expect("JSON");
        let ga = &c["specs"][0];
        for key in [
            "turns",
            "steps",
            "windows",
            "passes",
            "actions",
            "resolutions",
            "stalled",
            "never_ends",
        ] {
            assert_eq!(ga["totals"][key], s[key], "{policy} {key}");
        }
        assert_eq!(ga["digest"], s["digest"], "{policy}");
    }
}

#[test]
fn diff_exit_code_is_1_on_differences_and_0_on_none() {
    let same = turnspec(&["diff", "--exit-code", "games/mtg.toml", "games/mtg.toml"]);
    common::assert_exit(&same, 0);
    let differ = turnspec(&[
        "diff",
        "--exit-code",
        "games/mtg-2024.toml",
        "games/mtg.toml",
    ]);
    common::assert_exit(&differ, 1);
    assert!(
        stdout(&differ).contains("mtg-2024"),
        "the diff is still printed"
    );
    let json = turnspec(&[
        "diff",
        "--exit-code",
        "--format",
        "json",
        "games/mtg-2024.toml",
        "games/mtg.toml",
    ]);
    common::assert_exit(&json, 1);
    // Without the flag, differences do not change the code.
    common::assert_exit(
        &turnspec(&["diff", "games/mtg-2024.toml", "games/mtg.toml"]),
        0,
    );
}

#[test]
fn diff_exit_code_ignores_citation_only_differences_unless_citations_is_given() {
    let dir = common::TempDir::new("diff-exit-citations");
    let mtg = common::root().join("games/mtg.toml");
    let text = std::fs::read_to_string(&mtg).expect("read mtg.toml");
    // Renumber one citation only.
    let renumbered = text.replacen("rule = \"509\"", "rule = \"599\"", 1);
    assert_ne!(renumbered, text, "the citation to renumber is in mtg.toml");
    let b = dir.write("renumbered.toml", &renumbered);
    let (a, b) = (mtg.to_str().unwrap(), b.to_str().unwrap());
    common::assert_exit(&turnspec(&["diff", "--exit-code", a, b]), 0);
    common::assert_exit(&turnspec(&["diff", "--exit-code", "--citations", a, b]), 1);
}

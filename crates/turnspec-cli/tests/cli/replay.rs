//! `turnspec run --record FILE` and `turnspec replay FILE --spec OTHER`:
//! output, JSON and exit codes.

use crate::common;

use common::{assert_exit, assert_exit_saying, stdout, turnspec};

fn recording(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("turnspec-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    let file = file.to_str().unwrap().to_string();
    let o = turnspec(&[
        "run",
        "games/mtg.toml",
        "--policy",
        "random",
        "--seed",
        "3",
        "--turns",
        "6",
        "--record",
        &file,
    ]);
    assert_exit(&o, 0);
    file
}

#[test]
fn the_same_spec_plays_the_same_game() {
    let file = recording("same.json");
    let o = turnspec(&["replay", &file, "--spec", "games/mtg.toml", "--exit-code"]);
    assert_exit(&o, 0);
    assert!(stdout(&o).contains("same game"), "{}", stdout(&o));
}

#[test]
fn another_edition_is_reported_in_text_and_json() {
    let file = recording("other.json");
    let o = turnspec(&["replay", &file, "--spec", "games/mtg-classic.toml"]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("first difference at event"), "{out}");
    let o = turnspec(&[
        "replay",
        &file,
        "--spec",
        "games/mtg-classic.toml",
        "--format",
        "json",
        "--exit-code",
    ]);
    assert_exit(&o, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["same"], false);
    assert!(v["divergence"]["index"].is_u64());
    assert!(v["divergence"]["recorded"]["rule"].is_string());
    assert_eq!(v["other"], "games/mtg-classic.toml");
}

#[test]
fn bad_input_is_exit_2() {
    let o = turnspec(&["replay", "no/such.json", "--spec", "games/mtg.toml"]);
    assert_exit(&o, 2);
    let o = turnspec(&["replay", "games/mtg.toml", "--spec", "games/mtg.toml"]);
    assert_exit_saying(&o, 2, "not a turnspec recording");
}

#[test]
fn compare_takes_recorded_games_as_well_as_scenarios() {
    let file = recording("compare.json");
    let o = turnspec(&[
        "compare",
        "--spec",
        "games/mtg.toml",
        "--spec",
        "games/mtg-classic.toml",
        &file,
        "--format",
        "json",
    ]);
    assert_exit(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let specs = &v["recordings"][0]["specs"];
    assert_eq!(specs[0]["spec"], "mtg");
    assert_eq!(specs[0]["result"], "same");
    assert_eq!(specs[1]["spec"], "mtg-classic");
    assert!(
        specs[1]["result"] == "differs" || specs[1]["result"] == "refused",
        "{v}"
    );
    // Text, and a recording next to a scenario folder: both tables.
    let o = turnspec(&[
        "compare",
        "--spec",
        "games/mtg.toml",
        "--spec",
        "games/mtg-classic.toml",
        &file,
        "tests/scenarios/mtg-editions",
    ]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("recorded games, replayed under each spec"),
        "{out}"
    );
    assert!(out.contains("same game"), "{out}");
}

#[test]
fn the_other_spec_may_be_positional() {
    let file = recording("positional.json");
    let a = turnspec(&["replay", &file, "games/mtg-2024.toml"]);
    assert_exit(&a, 0);
    let b = turnspec(&["replay", &file, "--spec", "games/mtg-2024.toml"]);
    assert_eq!(stdout(&a), stdout(&b));
    let o = turnspec(&["replay", &file]);
    assert_exit_saying(&o, 2, "give the spec to replay under");
}

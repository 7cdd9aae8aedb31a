//! `turnspec stops check`, and `run --stops` / `simulate --stops`
//! (docs/stops.md): exit codes, what they print, and the JSON.

use crate::common;

use common::{assert_exit, assert_exit_saying, stdout, turnspec};

const MTG: &str = "games/mtg.toml";
const DEFAULT: &str = "games/stops/mtg-default.toml";
const PLANTED: &str = "tests/specs/stops/mtg-planted-hidden.toml";

#[test]
fn check_finds_the_planted_hidden_window_and_exits_1() {
    let o = turnspec(&["stops", "check", PLANTED, MTG, "--max-states", "5000"]);
    assert_exit(&o, 1);
    let out = stdout(&o);
    assert!(
        out.contains("error: `precombat_main` in P1's own turn, stack empty"),
        "{out}"
    );
    assert!(
        out.contains("shortest sequence (2 moves): pass P1, pass P2"),
        "{out}"
    );
}

#[test]
fn check_passes_the_default_profile_and_says_so_in_json() {
    let o = turnspec(&[
        "stops",
        "check",
        DEFAULT,
        MTG,
        "--max-states",
        "5000",
        "--format",
        "json",
    ]);
    assert_exit(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let windows = v["windows"].as_array().unwrap();
    assert!(!windows.is_empty());
    assert!(windows.iter().all(|w| w["verdict"] != "hidden"), "{v}");
    assert_eq!(v["complete"], false);
}

#[test]
fn a_profile_with_a_mistake_is_exit_2_with_its_place() {
    let dir = std::env::temp_dir().join(format!("turnspec-stops-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.toml");
    std::fs::write(
        &file,
        "[profile]\nname = \"x\"\n[[stop]]\nat = \"precombat_mian\"\n",
    )
    .unwrap();
    let o = turnspec(&["stops", "check", file.to_str().unwrap(), MTG]);
    assert_exit_saying(&o, 2, "did you mean `precombat_main`?");
    let o = turnspec(&["run", MTG, "--stops", file.to_str().unwrap()]);
    assert_exit(&o, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_with_stops_shows_where_players_are_asked() {
    let o = turnspec(&["run", MTG, "--turns", "1", "--stops", DEFAULT]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("    asked: stop P1 precombat_main always\n"),
        "{out}"
    );
    assert!(
        out.contains("stops: asked P1 3, P2 2; 9 passes made by the auto-passer"),
        "{out}"
    );
    let o = turnspec(&["run", MTG, "--stops", "P3=x.toml"]);
    assert_exit_saying(&o, 2, "P1=FILE to P2=FILE");
}

#[test]
fn simulate_with_stops_counts_the_asks() {
    let o = turnspec(&[
        "simulate", MTG, "--games", "4", "--turns", "4", "--stops", DEFAULT, "--format", "json",
    ]);
    assert_exit(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    // 4 games of 4 turns; per two turns (one each), each player is asked 5
    // times: own main phases and declare attackers, the other's declare
    // attackers and end step. Every other pass is the auto-passer's.
    assert_eq!(v["stops"]["asked"], serde_json::json!([40, 40]));
    let passes = v["passes"].as_u64().unwrap();
    assert_eq!(v["stops"]["auto_passes"].as_u64().unwrap(), passes - 80);
}

//! The `turnspec` binary end to end: `check` on good, bad, garbage and
//! missing files; `run` printing JSON lines for both reference games.

use crate::common;

use std::path::PathBuf;

use common::{
    assert_exit, assert_exit_saying, assert_fails_without_panic, assert_no_panic, stderr, stdout,
    turnspec,
};
use serde_json::Value;

/// A scratch file in the system temp directory, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> Self {
        let path =
            std::env::temp_dir().join(format!("turnspec-cli-test-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).expect("write a temp file");
        TempFile(path)
    }

    fn arg(&self) -> &str {
        self.0.to_str().expect("temp path is UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

// --- check ----------------------------------------------------------------------

#[test]
fn check_accepts_both_reference_specs() {
    let o = turnspec(&["check", "games/mtg.toml", "games/grand-archive.toml"]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("ok: games/mtg.toml"), "{out}");
    assert!(out.contains("ok: games/grand-archive.toml"), "{out}");
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
}

/// The summary counts steps once, the same way in text and JSON: the steps
/// the spec names, then with the implicit step of each phase without steps.
#[test]
fn check_summary_counts_steps_the_same_in_text_and_json() {
    let o = turnspec(&["check", "games/mtg.toml"]);
    let text = stdout(&o);
    assert!(
        text.contains(", 10 steps (12 with the implicit steps of step-less phases)\n"),
        "{text}"
    );
    assert!(
        text.contains("windows: 10 always, 1 only if something is pending\n"),
        "{text}"
    );
    let o = turnspec(&["check", "--format", "json", "games/mtg.toml"]);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let summary = &v[0]["summary"];
    assert_eq!(summary["steps"], 10, "{summary}");
    assert_eq!(summary["steps_with_implicit"], 12, "{summary}");
    assert_eq!(summary["windows"], 11, "{summary}");
    assert_eq!(
        summary["windows_opening"]["only if something is pending"],
        1
    );
    let o = turnspec(&["check", "--format", "json", "games/grand-archive.toml"]);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v[0]["summary"]["started_by_actions"][0], "combat");
}

/// `line:col: error[code]` of every mistake in several_mistakes.toml.
const SEVERAL: &[(usize, usize, &str)] = &[
    (6, 11, "turnspec::players"),
    (10, 1, "turnspec::unknown-key"),
    (12, 1, "turnspec::unusable-timing"),
    (14, 11, "turnspec::unknown-reference"),
    (15, 21, "turnspec::unknown-reference"),
    (17, 1, "turnspec::unusable-timing"),
    (30, 34, "turnspec::condition"),
    (33, 8, "turnspec::duplicate-id"),
    (47, 12, "turnspec::never-ends"),
    (50, 6, "turnspec::unreachable-phase"),
];

const SEVERAL_PATH: &str = "tests/specs/invalid/several_mistakes.toml";

#[test]
fn check_reports_every_mistake_with_file_line_and_column() {
    let o = turnspec(&["check", SEVERAL_PATH]);
    assert_exit(&o, 1);
    let err = stderr(&o);
    for (line, col, code) in SEVERAL {
        let needle = format!("{SEVERAL_PATH}:{line}:{col}: error[{code}]");
        assert!(err.contains(&needle), "stderr lacks {needle:?}:\n{err}");
    }
    assert!(
        err.contains(&format!("{} error(s)", SEVERAL.len())),
        "{err}"
    );
    assert!(!stdout(&o).contains("ok:"), "{}", stdout(&o));
}

#[test]
fn check_json_lists_every_mistake() {
    let o = turnspec(&["check", "--format", "json", SEVERAL_PATH]);
    assert_exit(&o, 1);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("check --format json prints JSON");
    let file = &v[0];
    assert_eq!(file["ok"], false);
    let diags = file["diagnostics"].as_array().expect("a diagnostics array");
    let got: Vec<(u64, u64, &str)> = diags
        .iter()
        .map(|d| {
            (
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["code"].as_str().unwrap(),
            )
        })
        .collect();
    let want: Vec<(u64, u64, &str)> = SEVERAL
        .iter()
        .map(|(l, c, code)| (*l as u64, *c as u64, *code))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn check_mixed_good_and_bad_files_fails_but_reports_both() {
    let o = turnspec(&["check", "games/mtg.toml", SEVERAL_PATH]);
    assert_exit(&o, 1);
    assert!(stdout(&o).contains("ok: games/mtg.toml"));
    assert!(stderr(&o).contains(SEVERAL_PATH));
}

#[test]
fn check_on_a_binary_file_fails_without_panicking() {
    let mut bytes: Vec<u8> = (0..=255u8).collect();
    bytes.extend_from_slice(&[0xff, 0xfe, 0x00, 0xc3, 0x28, b'[', 0x80]);
    let f = TempFile::new("binary.toml", &bytes);
    let o = turnspec(&["check", f.arg()]);
    assert_fails_without_panic(&o, "");
    assert!(!stderr(&o).is_empty(), "a failure says why");
}

#[test]
fn check_on_text_garbage_fails_without_panicking() {
    let f = TempFile::new(
        "garbage.toml",
        "]]]] = = [[phase\n\u{1F600} id = \"\ntiming.x = { during = [1, 2 }\n\0\0\n".as_bytes(),
    );
    let o = turnspec(&["check", f.arg()]);
    assert_exit_saying(&o, 1, "turnspec::toml-syntax");
}

#[test]
fn check_on_an_empty_file_fails_without_panicking() {
    let f = TempFile::new("empty.toml", b"");
    let o = turnspec(&["check", f.arg()]);
    assert_exit_saying(&o, 1, "turnspec::missing");
}

#[test]
fn check_on_a_missing_file_fails_without_panicking() {
    let o = turnspec(&["check", "tests/specs/invalid/no-such-file.toml"]);
    assert_fails_without_panic(&o, "");
    assert!(stderr(&o).contains("no-such-file.toml"), "{}", stderr(&o));
}

#[test]
fn run_on_an_invalid_spec_fails_without_panicking() {
    let o = turnspec(&["run", SEVERAL_PATH, "--turns", "1"]);
    assert_exit(&o, 1);
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn check_of_a_device_pipe_or_folder_says_why_without_reading_it() {
    let dir = common::TempDir::new("not-files");
    let mut paths = vec!["/dev/zero".to_string(), dir.arg().to_string()];
    #[cfg(unix)]
    {
        let fifo = dir.0.join("pipe.toml");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            paths.push(fifo.display().to_string());
        }
    }
    for path in &paths {
        let o = common::turnspec_within(&["check", path], 30);
        assert_no_panic(&o);
        assert_eq!(o.status.code(), Some(1), "{path}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("not a regular file") || err.contains("it is a folder, not a file"),
            "{path}: {err}"
        );
    }
    // A base that is a device: the error is on the `extends` line.
    let child = dir.write("child.toml", "extends = \"/dev/zero\"\n");
    let o = common::turnspec_within(&["check", child.to_str().expect("UTF-8")], 30);
    assert_exit_saying(&o, 1, "character device");
}

// --- run ------------------------------------------------------------------------

/// Runs `run <spec> --turns 2 --format json` and parses every line.
fn run_json(spec: &str, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["run", spec, "--turns", "2", "--format", "json"];
    args.extend_from_slice(extra);
    let o = turnspec(&args);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(!out.is_empty());
    let mut lines: Vec<Value> = out
        .lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str::<Value>(line)
                .unwrap_or_else(|e| panic!("line {} is not JSON ({e}): {line}", i + 1))
        })
        .collect();
    // The header record names what was run; the events follow it.
    let header = lines.remove(0);
    assert_eq!(header["event"], "game", "{header}");
    assert_eq!(header["spec"], spec);
    assert!(
        header["players"].is_u64() && header["name"].is_string(),
        "{header}"
    );
    lines
}

/// The fields of an event that a test cares about, as one short string.
fn brief(v: &Value) -> String {
    let mut s = v["event"].as_str().unwrap_or("?").to_string();
    for key in [
        "turn", "player", "phase", "step", "action", "because", "rule",
    ] {
        match &v[key] {
            Value::Null => {}
            Value::String(x) => s.push_str(&format!(" {key}={x}")),
            other => s.push_str(&format!(" {key}={other}")),
        }
    }
    s
}

fn turns(events: &[Value]) -> Vec<(u64, String)> {
    events
        .iter()
        .filter(|e| e["event"] == "turn_began")
        .map(|e| {
            (
                e["turn"].as_u64().unwrap(),
                e["player"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn run_mtg_prints_json_lines_starting_with_the_beginning_phase() {
    let events = run_json("games/mtg.toml", &[]);
    for e in &events {
        assert!(e.is_object() && e["event"].is_string(), "{e}");
    }
    let first: Vec<String> = events.iter().take(8).map(brief).collect();
    assert_eq!(
        first,
        [
            "turn_began turn=1 player=P1",
            "phase_began phase=beginning rule=501.1",
            "step_began step=untap rule=502",
            "turn_action action=untap rule=502.3",
            "step_ended step=untap",
            "step_began step=upkeep rule=503",
            "priority player=P1 because=window_opened rule=503.1",
            "pass player=P1",
        ]
    );
    let briefs: Vec<String> = events.iter().map(brief).collect();
    assert!(
        briefs.contains(&"skipped step=draw rule=103.8a".to_string()),
        "{briefs:#?}"
    );
    assert!(briefs.contains(&"skipped step=declare_blockers rule=508.8".to_string()));
    assert_eq!(turns(&events), [(1, "P1".into()), (2, "P2".into())]);
    assert_eq!(brief(events.last().unwrap()), "turn_ended turn=2 player=P2");
}

#[test]
fn run_grand_archive_prints_json_lines_starting_with_the_first_turn_skips() {
    let events = run_json("games/grand-archive.toml", &[]);
    let first: Vec<String> = events.iter().take(8).map(brief).collect();
    assert_eq!(
        first,
        [
            "turn_began turn=1 player=P1",
            "skipped phase=wake_up rule=TO 1.1",
            "skipped phase=materialize rule=MAT 1",
            "skipped phase=recollection rule=TO 1.1",
            "skipped phase=draw rule=TO 1.2",
            "phase_began phase=main rule=MAIN",
            "priority player=P1 because=window_opened rule=MAIN 2",
            "pass player=P1",
        ]
    );
    assert_eq!(turns(&events), [(1, "P1".into()), (2, "P2".into())]);
    // The second player draws on their first turn.
    let briefs: Vec<String> = events.iter().map(brief).collect();
    assert!(
        briefs.contains(&"phase_began phase=draw rule=DRAW".to_string()),
        "{briefs:#?}"
    );
    assert_eq!(brief(events.last().unwrap()), "turn_ended turn=2 player=P2");
}

#[test]
fn run_grand_archive_with_three_players_draws_on_the_first_turn() {
    let events = run_json("games/grand-archive.toml", &["--players", "3"]);
    let briefs: Vec<String> = events.iter().take(5).map(brief).collect();
    assert_eq!(briefs[4], "phase_began phase=draw rule=DRAW");
}

#[test]
fn run_text_output_names_the_game() {
    let o = turnspec(&["run", "games/grand-archive.toml", "--turns", "1"]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(out.starts_with("Grand Archive"), "{out}");
    assert!(out.contains("Opportunity → P1"), "{out}");
}

#[test]
fn run_with_an_impossible_player_count_fails_without_panicking() {
    let o = turnspec(&["run", "games/grand-archive.toml", "--players", "7"]);
    assert_fails_without_panic(&o, "");
}

// --- simulate -------------------------------------------------------------------

#[test]
fn simulate_refuses_more_threads_than_it_allows() {
    let o = turnspec(&["simulate", "--games", "1", "--threads", "10000", "--quiet"]);
    assert_exit_saying(&o, 2, "1..=256");
}

// --- turns that never end -------------------------------------------------------

/// Loads cleanly, but with players who answer nothing its `loop` step repeats
/// for ever with nobody receiving priority.
const ANSWERED_REPEAT: &str = "tests/specs/loops/answered_repeat.toml";

/// Runs `turnspec` and checks it stopped quickly, without panicking.
fn turnspec_quickly(args: &[&str]) -> std::process::Output {
    let start = std::time::Instant::now();
    let o = turnspec(args);
    let took = start.elapsed();
    assert_no_panic(&o);
    assert!(
        took < std::time::Duration::from_secs(10),
        "`turnspec {}` took {took:?}",
        args.join(" ")
    );
    o
}

fn names_the_loop(text: &str) {
    for part in [
        "turn 1 never ends",
        "step `loop` (phase `ending`)",
        "rule L 1",
    ] {
        assert!(text.contains(part), "{part:?} missing from:\n{text}");
    }
}

#[test]
fn turn_that_never_ends_stops_run_with_an_error_naming_the_step() {
    let o = turnspec_quickly(&["run", ANSWERED_REPEAT, "--turns", "3"]);
    assert_eq!(o.status.code(), Some(1), "stderr:\n{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.starts_with("error: turn 1 never ends"), "{err}");
    names_the_loop(&err);
    // The trace shows the loop up to where the engine gave up.
    assert!(stdout(&o).contains("loop (again, #256)"), "{}", stdout(&o));
}

#[test]
fn turn_that_never_ends_stops_simulate_with_an_error_naming_the_step() {
    let o = turnspec_quickly(&[
        "simulate",
        ANSWERED_REPEAT,
        "--games",
        "3",
        "--turns",
        "5",
        "--quiet",
    ]);
    assert_exit_saying(
        &o,
        1,
        "error: 3 game(s) stopped in a turn that never ends; game 0: ",
    );
    names_the_loop(&stderr(&o));
    assert!(
        stdout(&o).contains("games whose turn never ends 3"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn turn_that_never_ends_fails_a_scenario_naming_the_step() {
    let o = turnspec_quickly(&["test", "tests/specs/loops/never-ends-fails.toml"]);
    assert_eq!(o.status.code(), Some(1), "stdout:\n{}", stdout(&o));
    let out = stdout(&o);
    names_the_loop(&out);
    assert!(out.contains("0 passed, 1 failed"), "{out}");
}

#[test]
fn turn_that_never_ends_can_be_expected_by_a_scenario() {
    let o = turnspec_quickly(&["test", "tests/specs/loops/never-ends-expected.toml"]);
    assert_eq!(o.status.code(), Some(0), "stdout:\n{}", stdout(&o));
}

#[test]
fn run_without_a_spec_uses_the_built_in_copy_from_an_empty_folder() {
    let dir = common::TempDir::new("run-built-in");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_turnspec"))
        .args(["run", "--turns", "1"])
        .current_dir(&dir.0)
        .output()
        .expect("the turnspec binary runs");
    common::assert_exit(&o, 0);
    let out = stdout(&o);
    let header = out.lines().next().unwrap_or_default();
    assert!(
        header.starts_with("Magic: The Gathering")
            && header.ends_with("2 players (built-in games/mtg.toml)"),
        "{out}"
    );
    assert!(out.contains("Turn 1 (active player: P1)"), "{out}");
    // From the workspace root, games/mtg.toml on disk is used, as before.
    let o = turnspec(&["run", "--turns", "1"]);
    common::assert_exit(&o, 0);
    assert!(!stdout(&o).contains("built-in"), "{}", stdout(&o));
}

#[test]
fn test_on_a_spec_says_it_is_a_spec() {
    let o = turnspec(&["test", "games/mtg.toml"]);
    assert_exit_saying(
        &o,
        2,
        "is a turn spec, not a scenario: check it with `turnspec check",
    );
    // A folder of specs (and stop profiles, games/stops) only: the files
    // skipped are named.
    let o = turnspec(&["test", "games"]);
    assert_exit_saying(&o, 2, "no scenario files found");
    assert_exit_saying(&o, 2, "skipped 14 other .toml file(s), such as games/");
}

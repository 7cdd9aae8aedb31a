//! `turnspec explore` end to end: a difference between two editions written
//! as a scenario that passes under one and fails under the other, and a
//! planted loop making the exit code 1.

use crate::common;

use common::{assert_exit, stdout, turnspec};

/// `turnspec` with `base`'s arguments, then `extra`'s.
fn turnspec_plus(base: &[&str], extra: &[&str]) -> std::process::Output {
    let args: Vec<&str> = base.iter().chain(extra).copied().collect();
    turnspec(&args)
}

/// A scratch folder in the system temp directory, removed on drop.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!(
            "turnspec-explore-test-{}-{name}",
            std::process::id()
        ));
        std::fs::create_dir_all(&path).expect("create a temp folder");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn against_writes_mana_burn_as_a_scenario_that_only_the_newer_rules_pass() {
    let dir = TempDir::new("burn");
    let out = dir.0.to_str().unwrap();
    let o = turnspec(&[
        "explore",
        "games/mtg.toml",
        "--against",
        "games/mtg-classic.toml",
        "--depth",
        "3",
        "--without",
        "play,answer,trigger,effect,fact",
        "--write",
        out,
    ]);
    assert_exit(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("only B has `mana P1 1 burn`"), "{text}");
    assert!(
        text.contains("passes under games/mtg.toml, fails under games/mtg-classic.toml"),
        "{text}"
    );
    let files: Vec<_> = std::fs::read_dir(&dir.0).unwrap().collect();
    assert_eq!(files.len(), 1, "{text}");
    // The written file runs on its own, with its spec found from its folder.
    let path = files[0].as_ref().unwrap().path();
    let o = turnspec(&["test", path.to_str().unwrap()]);
    assert_exit(&o, 0);
}

#[test]
fn a_loop_outside_the_stack_fails_explore() {
    let dir = TempDir::new("loop");
    let spec = dir.0.join("loop.toml");
    std::fs::write(
        &spec,
        r#"
[game]
name = "Loop"
players = { min = 2, max = 2 }

[priority]
after_action = "active_player"

[timing.stall]
who = "non_active_player"
effect = "special"

[[phase]]
id = "main"
priority = "always"
"#,
    )
    .unwrap();
    let o = turnspec(&["explore", spec.to_str().unwrap(), "--depth", "4"]);
    assert_exit(&o, 1);
    assert!(
        stdout(&o).contains("a cycle of 2 move(s)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn json_report_of_every_new_reference_spec_has_no_error_finding() {
    // Benching (Pokémon) and playing a card (Lorcana) go round without
    // limit in the turn structure: cycles made of plays, not errors.
    for spec in ["games/pokemon-tcg.toml", "games/lorcana.toml"] {
        let o = turnspec(&["explore", spec, "--depth", "8", "--format", "json"]);
        assert_exit(&o, 0);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        let findings = v["findings"].as_array().expect("findings");
        for f in findings {
            assert_ne!(f["kind"]["cycle"]["of_plays"], false, "{spec}: {f}");
            assert!(f["kind"].get("dead_end").is_none(), "{spec}: {f}");
        }
    }
}

#[test]
fn with_objects_against_writes_summoning_sickness_as_a_scenario_that_passes() {
    let dir = TempDir::new("objects");
    let out = dir.0.join("found");
    let mtg = std::fs::read_to_string(common::root().join("games/mtg.toml")).unwrap();
    let start = mtg.find("  [[timing.tap_ability.require]]").unwrap();
    let len = mtg[start..].find("\n\n").unwrap();
    let b = dir.0.join("mtg-no-302-6.toml");
    std::fs::write(&b, format!("{}{}", &mtg[..start], &mtg[start + len..])).unwrap();
    let o = turnspec(&[
        "explore",
        "games/mtg.toml",
        "--against",
        b.to_str().unwrap(),
        "--depth",
        "3",
        "--host-moves",
        "2",
        "--without",
        "answer,trigger,effect,fact,mana",
        "--with",
        "objects",
        "--write",
        out.to_str().unwrap(),
    ]);
    assert_exit(&o, 0);
    let text = stdout(&o);
    assert!(
        text.contains("O1 enters play under P1, set object fact creature on O1, play tap_ability by P1 with O1"),
        "{text}"
    );
    let files: Vec<_> = std::fs::read_dir(&out).unwrap().collect();
    assert_eq!(files.len(), 1, "{text}");
    let path = files[0].as_ref().unwrap().path();
    let scenario = std::fs::read_to_string(&path).unwrap();
    assert!(scenario.contains("enter = \"O1\""), "{scenario}");
    let o = turnspec(&["test", path.to_str().unwrap()]);
    assert_exit(&o, 0);
    // `explore --help` names the family.
    let help = stdout(&turnspec(&["explore", "--help"]));
    assert!(help.contains("objects"), "{help}");
}

/// The report of `search` with `extra` arguments, less the text's last
/// line (the timing).
fn report_without_timing(search: &[&str], extra: &[&str]) -> String {
    let o = turnspec_plus(search, extra);
    let text = stdout(&o);
    assert!(o.status.success() || o.status.code() == Some(1), "{o:?}");
    if extra.contains(&"json") {
        return text;
    }
    match text.trim_end().rsplit_once('\n') {
        Some((report, _timing)) => report.to_string(),
        None => text,
    }
}

/// The report of `search` on 1, 2 and 4 timely workers is the
/// single-process one, byte for byte, in text and JSON; returns that one
/// in text.
fn same_on_1_2_and_4_workers(search: &[&str]) -> String {
    let mut text = String::new();
    for format in ["text", "json"] {
        let one = report_without_timing(search, &["--format", format]);
        for workers in ["1", "2", "4"] {
            let many = report_without_timing(search, &["--format", format, "--workers", workers]);
            assert_eq!(one, many, "{format}, {workers} workers");
        }
        if format == "text" {
            text = one;
        }
    }
    text
}

/// `--against` on timely dataflow workers prints the single-process
/// report, byte for byte (two processes: tests/explore-dist/run.sh).
#[test]
fn against_on_1_2_and_4_workers_prints_the_single_process_report() {
    let search = [
        "explore",
        "games/mtg.toml",
        "--against",
        "games/mtg-classic.toml",
        "--depth",
        "4",
    ];
    let one = same_on_1_2_and_4_workers(&search);
    assert!(one.contains("mana P1 1 burn"), "{one}");
}

/// Plain `explore` on timely dataflow workers too, with its cycles, and
/// when --max-states cuts a level.
#[test]
fn explore_on_1_2_and_4_workers_prints_the_single_process_report() {
    let search = ["explore", "games/mtg.toml", "--depth", "6"];
    let one = same_on_1_2_and_4_workers(&search);
    assert!(one.contains("a cycle of"), "{one}");
    let cut = [
        "explore",
        "games/mtg.toml",
        "--depth",
        "8",
        "--max-states",
        "100",
    ];
    let one = same_on_1_2_and_4_workers(&cut);
    assert!(one.contains("stopped at the state limit"), "{one}");
}

#[test]
fn distributed_runs_refuse_what_they_cannot_do_with_clear_errors() {
    let dir = TempDir::new("hosts");
    let hosts = dir.0.join("hosts.txt");
    let against = [
        "explore",
        "games/mtg.toml",
        "--against",
        "games/mtg-classic.toml",
        "--depth",
        "2",
    ];
    let run = |extra: &[&str]| turnspec_plus(&against, extra);
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (vec![], "not host:port", "localhost\n"),
        (vec![], "no hosts", "# nobody\n"),
        (vec![], "listed twice", "127.0.0.1:1\n127.0.0.1:1\n"),
        (
            vec![],
            "give each its --process",
            "127.0.0.1:1\n127.0.0.1:2\n",
        ),
        (
            vec!["--process", "5"],
            "the host list has 2 hosts",
            "127.0.0.1:1\n127.0.0.1:2\n",
        ),
    ];
    for (extra, error, text) in cases {
        std::fs::write(&hosts, text).unwrap();
        let mut args = vec!["--hosts", hosts.to_str().unwrap()];
        args.extend(extra);
        let o = run(&args);
        assert_exit(&o, 2);
        let err = common::stderr(&o);
        assert!(err.contains(error), "{text:?}: {err}");
    }
    // A peer that never connects: process 1 gives up on process 0.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    std::fs::write(&hosts, format!("127.0.0.1:{port}\n127.0.0.1:0\n")).unwrap();
    let o = run(&[
        "--hosts",
        hosts.to_str().unwrap(),
        "--process",
        "1",
        "--connect-timeout",
        "1",
    ]);
    assert_exit(&o, 2);
    assert!(common::stderr(&o).contains("did not connect within 1 s"));
    let o = turnspec(&["explore", "games/mtg.toml", "--workers", "0"]);
    assert_exit(&o, 2);
    assert!(common::stderr(&o).contains("--workers must be at least 1"));
    let o = run(&["--process", "1"]);
    assert_exit(&o, 2);
    assert!(common::stderr(&o).contains("--process needs --hosts"));
}

#[test]
fn a_memory_limit_stops_explore_with_an_incomplete_report() {
    let limited = [
        "explore",
        "games/mtg.toml",
        "--depth",
        "14",
        "--max-memory",
        "2M",
    ];
    let o = turnspec_plus(&limited, &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["stop"]["complete"], false);
    assert_eq!(v["stop"]["stopped_at"], "max_memory");
    assert!(v["stop"]["memory"].as_u64().unwrap() > 2 << 20);
    assert!(v["stop"]["expanding_depth"].as_u64().is_some());
    let text = turnspec(&limited);
    assert!(stdout(&text).contains("incomplete: stopped at the memory limit"));
    let bad = turnspec(&["explore", "games/mtg.toml", "--max-memory", "4X"]);
    assert_exit(&bad, 2);
}

//! Output that cannot be written: a full disk (`/dev/full`) on standard
//! output or standard error, and a reader that closed the pipe. Every
//! command must exit non-zero when its output is lost, and never panic; a
//! closed pipe ends a streaming command (`run`, `test`) quietly, but `test`
//! still reports a failed scenario in its exit code.

use crate::common;

use std::process::Stdio;

use common::{
    TempDir, assert_fails_without_panic, assert_no_panic, closed_pipe, full_disk, scenario, stderr,
    turnspec_with,
};

/// One command line per command that writes to standard output.
const COMMANDS: &[&[&str]] = &[
    &["check", "games/mtg.toml"],
    &["check", "games/mtg.toml", "--format", "json"],
    &["graph", "games/grand-archive.toml"],
    &["graph", "games/grand-archive.toml", "--format", "dot"],
    &["diff", "games/mtg-2024.toml", "games/mtg.toml"],
    &["run", "games/mtg.toml", "--turns", "2"],
    &["run", "games/mtg.toml", "--turns", "2", "--format", "json"],
    &["test", "tests/scenarios/mtg-editions"],
    &["simulate", "--games", "4", "--turns", "2", "--quiet"],
    &[
        "simulate", "--games", "4", "--turns", "2", "--quiet", "--format", "json",
    ],
    &[
        "compare",
        "--spec",
        "games/mtg-2024.toml",
        "--spec",
        "games/mtg.toml",
    ],
    &["--help"],
    &["--version"],
];

#[test]
fn output_to_a_full_disk_fails_every_command_without_panicking() {
    for args in COMMANDS {
        let o = turnspec_with(args, full_disk(), Stdio::piped(), 60);
        assert_no_panic(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write to standard output"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn error_message_to_a_full_disk_does_not_panic_and_still_fails() {
    for args in [
        &["check", "tests/specs/invalid/several_mistakes.toml"][..],
        &["check", "no-such-file.toml"],
        &["run", "no-such-file.toml"],
        &["simulate", "--threads", "0"],
        &["no-such-command"],
    ] {
        let o = turnspec_with(args, Stdio::piped(), full_disk(), 60);
        assert_fails_without_panic(&o, &format!("{args:?}: "));
    }
}

#[test]
fn closed_pipe_ends_a_streaming_command_quietly() {
    let o = turnspec_with(
        &["run", "games/mtg.toml", "--turns", "100000"],
        closed_pipe(),
        Stdio::piped(),
        60,
    );
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn closed_pipe_still_fails_a_test_run_with_a_failing_scenario() {
    let dir = TempDir::new("closed-pipe");
    dir.write("a-passes.toml", &scenario("passes", "P1"));
    dir.write("b-fails.toml", &scenario("fails", "P2"));
    let o = turnspec_with(&["test", dir.arg()], closed_pipe(), Stdio::piped(), 60);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // And with every scenario passing, a closed pipe is no failure.
    std::fs::remove_file(dir.0.join("b-fails.toml")).expect("remove");
    let o = turnspec_with(&["test", dir.arg()], closed_pipe(), Stdio::piped(), 60);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn closed_pipe_fails_a_command_whose_output_is_a_report() {
    for args in [
        &["graph", "games/mtg.toml"][..],
        &["check", "games/mtg.toml"],
        &["simulate", "--games", "2", "--turns", "1", "--quiet"],
    ] {
        let o = turnspec_with(args, closed_pipe(), Stdio::piped(), 60);
        assert_no_panic(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

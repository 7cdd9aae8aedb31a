//! `turnspec completions SHELL` and `turnspec man`: generated from the clap
//! definitions, so they know every subcommand.

use crate::common;

use common::{assert_exit, stdout, turnspec};

const SUBCOMMANDS: [&str; 13] = [
    "check",
    "graph",
    "run",
    "test",
    "simulate",
    "diff",
    "compare",
    "completions",
    "man",
    "serve",
    "schema",
    "replay",
    "play",
];

#[test]
fn bash_completions_mention_every_subcommand() {
    let o = turnspec(&["completions", "bash"]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("complete -F"), "{out}");
    // The words offered after `turnspec `.
    let top = out
        .lines()
        .find(|l| l.trim_start().starts_with("opts=\"-q -v -h -V"))
        .expect("the top-level word list");
    for sub in SUBCOMMANDS {
        assert!(
            top.split(['"', ' ']).any(|w| w == sub),
            "no {sub} in: {top}"
        );
    }
}

#[test]
fn every_shell_gets_a_script() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = turnspec(&["completions", shell]);
        assert_exit(&o, 0);
        assert!(stdout(&o).contains("turnspec"), "{shell}");
    }
    assert_exit(&turnspec(&["completions", "tcsh"]), 2);
}

#[test]
fn man_page_is_roff_and_mentions_every_subcommand() {
    let o = turnspec(&["man"]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(
        out.starts_with(".ie \\n(.g .ds Aq") || out.starts_with(".TH"),
        "{out}"
    );
    assert!(out.contains(".TH turnspec 1"), "{out}");
    for sub in SUBCOMMANDS {
        let entry = format!("turnspec\\-{sub}(1)");
        assert!(out.contains(&entry), "no {entry} in:\n{out}");
    }
}

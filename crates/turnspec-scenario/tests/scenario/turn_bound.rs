//! Issue 16: the scenario keys for effects and durations bound to a
//! player's turn refuse wrong combinations when the file is loaded, each
//! at its own line and column.

use std::sync::Arc;

use turnspec_spec::line_col;

const SPEC: &str = r#"[game]
name = "tiny"
players = { min = 2, max = 2 }

[effects.skip_next_upkeep]
kind = "skip"
step = "upkeep"

[effects.skip_upkeeps]
kind = "skip"
step = "upkeep"
lasting = true

[effects.mindslaver]
kind = "control_turn"

[[phase]]
id = "beginning"

  [[phase.step]]
  id = "upkeep"
  priority = "always"

[[phase]]
id = "main"
priority = "always"
"#;

/// Loads `script` after a fixed header (the script starts on line 7) and
/// returns (code, line, column) of every error.
fn errors(script: &str) -> Vec<(String, usize, usize)> {
    let text =
        format!("[scenario]\nname = \"x\"\n[setup]\nspec = \"tiny.toml\"\nplayers = 2\n\n{script}");
    let mut load_spec = |_: &str| {
        let (spec, _) =
            turnspec_spec::load_str("tiny.toml", SPEC).map_err(|r| r.to_short_text())?;
        Ok((Arc::new(spec), "tiny.toml".to_string()))
    };
    match turnspec_scenario::load("s.toml", &text, &mut load_spec) {
        Ok(_) => Vec::new(),
        Err(report) => report
            .diagnostics
            .iter()
            .map(|d| {
                let (line, col) = line_col(&report.source, d.span.start);
                (d.code.to_string(), line, col)
            })
            .collect(),
    }
}

#[test]
fn well_formed_turn_bound_entries_load() {
    let ok = r#"[[script]]
until = "a"
scope = "until_next"
at = "upkeep"
by = "P2"

[[script]]
until = "b"
scope = "end_of_next_turn"
at = "main"

[[script]]
until = "c"
scope = "until_turn_of"
by = "P2"

[[script]]
delay = "d"
at = "upkeep"
next_turn = true

[[script]]
effect = "mindslaver"
target = "P2"

[[script]]
effect = "skip_next_upkeep"
pending = ["P2: e"]

[[script]]
effect = "skip_upkeeps"

[[script]]
end_effect = "skip_upkeeps"
"#;
    assert_eq!(errors(ok), Vec::new());
}

#[test]
fn wrong_combinations_are_refused_where_they_are() {
    let cases: &[(&str, (&str, usize, usize))] = &[
        // A scope bound to a step needs `at`.
        (
            "[[script]]\nuntil = \"a\"\nscope = \"until_next\"\n",
            ("scenario::entry", 9, 9),
        ),
        // `at` names a step the spec does not have.
        (
            "[[script]]\nuntil = \"a\"\nscope = \"until_next\"\nat = \"upkep\"\n",
            ("scenario::unknown-reference", 10, 6),
        ),
        // `at` with a scope that is not bound to a turn.
        (
            "[[script]]\nuntil = \"a\"\nscope = \"turn\"\nat = \"upkeep\"\n",
            ("scenario::entry", 10, 6),
        ),
        // `until_turn_of` takes no `at`.
        (
            "[[script]]\nuntil = \"a\"\nscope = \"until_turn_of\"\nat = \"upkeep\"\n",
            ("scenario::entry", 10, 6),
        ),
        // `next_turn` and `own_turn` together.
        (
            "[[script]]\ndelay = \"d\"\nat = \"upkeep\"\nown_turn = true\nnext_turn = true\n",
            ("scenario::entry", 11, 13),
        ),
        // Ending an effect that is not lasting.
        (
            "[[script]]\nend_effect = \"skip_next_upkeep\"\n",
            ("scenario::entry", 8, 14),
        ),
        // A control effect without a target, and a target on another effect.
        (
            "[[script]]\neffect = \"mindslaver\"\n",
            ("scenario::entry", 8, 10),
        ),
        (
            "[[script]]\neffect = \"skip_next_upkeep\"\ntarget = \"P2\"\n",
            ("scenario::entry", 9, 10),
        ),
    ];
    for (script, (code, line, col)) in cases {
        let got = errors(script);
        assert!(
            got.first()
                .is_some_and(|(c, l, k)| c.as_str() == *code && (*l, *k) == (*line, *col)),
            "{script}\nexpected {code} at {line}:{col}, got {got:?}"
        );
    }
}

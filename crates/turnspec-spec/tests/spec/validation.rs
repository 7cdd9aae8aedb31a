//! Spec validation: every mistake in a file is reported in one load, each with
//! its stable code and the 1-based line:column it points at.
//!
//! Fixtures live in the workspace's `tests/specs/invalid/`.

use std::path::PathBuf;

use rstest::rstest;
use turnspec_spec::line_col;
use turnspec_spec::{Diagnostic, Report, Severity, load_str};

use crate::common;
use common::{load_err, located};

const MTG: &str = include_str!("../../../../games/mtg.toml");
const GRAND_ARCHIVE: &str = include_str!("../../../../games/grand-archive.toml");
const SEVERAL_MISTAKES: &str =
    include_str!("../../../../tests/specs/invalid/several_mistakes.toml");

fn fixture_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/specs/invalid")
        .join(file)
}

fn read_fixture(file: &str) -> String {
    let path = fixture_path(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// `(code, line, column)` of a diagnostic.
fn position(source: &str, d: &Diagnostic) -> (&'static str, usize, usize) {
    let (line, col) = line_col(source, d.span.start);
    (d.code, line, col)
}

/// The source text a diagnostic's span covers.
fn spanned<'a>(source: &'a str, d: &Diagnostic) -> &'a str {
    source
        .get(d.span.clone())
        .unwrap_or("<span not on char boundaries>")
}

fn find<'r>(report: &'r Report, code: &str, line: usize) -> &'r Diagnostic {
    report
        .diagnostics
        .iter()
        .find(|d| d.code == code && line_col(&report.source, d.span.start).0 == line)
        .unwrap_or_else(|| panic!("no {code} at line {line}; got:\n{}", report.to_short_text()))
}

// --- the two reference specs -----------------------------------------------

#[rstest]
#[case::mtg("games/mtg.toml", MTG)]
#[case::grand_archive("games/grand-archive.toml", GRAND_ARCHIVE)]
fn reference_specs_load_with_zero_diagnostics(#[case] path: &str, #[case] source: &str) {
    match load_str(path, source) {
        Ok((_, report)) => assert!(
            report.diagnostics.is_empty(),
            "{path} has diagnostics:\n{}",
            report.to_short_text()
        ),
        Err(report) => panic!("{path} failed to load:\n{}", report.to_short_text()),
    }
}

// --- one file, many mistakes, one load --------------------------------------

/// Every mistake in `several_mistakes.toml`, in file order: code, 1-based
/// line and column, and the text the diagnostic points at.
const SEVERAL_EXPECTED: &[(&str, usize, usize, &str)] = &[
    // min 4 > max 2
    ("turnspec::players", 6, 11, "{ min = 4, max = 2 }"),
    // `descripton`, a near miss of `description`
    ("turnspec::unknown-key", 10, 1, "descripton"),
    // sorcery's only `during` entry names nothing, so the class is unusable
    ("turnspec::unusable-timing", 12, 1, "[timing.sorcery]"),
    // `during` names a missing phase
    ("turnspec::unknown-reference", 14, 11, "\"mian\""),
    // the limit names a missing counter
    ("turnspec::unknown-reference", 15, 21, "\"land_played\""),
    // `during = ["untap"]`, and untap has no window
    ("turnspec::unusable-timing", 17, 1, "[timing.upkeep_only]"),
    // unknown name inside a condition
    ("turnspec::condition", 30, 34, "fact.phasing_out"),
    // second step named `upkeep`
    ("turnspec::duplicate-id", 33, 8, "\"upkeep\""),
    // `repeat = { if = "true" }`, reported at the repeat
    ("turnspec::never-ends", 47, 12, "{ if = \"true\" }"),
    // on-demand phase that nothing starts
    ("turnspec::unreachable-phase", 50, 6, "\"bonus\""),
];

#[test]
fn several_mistakes_are_all_reported_in_one_load() {
    let report = load_err("several_mistakes.toml", SEVERAL_MISTAKES);
    let got: Vec<(&str, usize, usize)> = report
        .diagnostics
        .iter()
        .map(|d| position(SEVERAL_MISTAKES, d))
        .collect();
    let want: Vec<(&str, usize, usize)> = SEVERAL_EXPECTED
        .iter()
        .map(|(c, l, col, _)| (*c, *l, *col))
        .collect();
    assert_eq!(got, want, "\n{}", report.to_short_text());
    assert_eq!(report.errors(), SEVERAL_EXPECTED.len());
}

#[test]
fn several_mistakes_cover_at_least_six_different_codes() {
    let report = load_err("several_mistakes.toml", SEVERAL_MISTAKES);
    let mut codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code).collect();
    codes.sort();
    codes.dedup();
    assert!(
        codes.len() >= 6,
        "only {} different codes: {codes:?}",
        codes.len()
    );
}

#[test]
fn several_mistakes_spans_point_at_the_offending_text() {
    let report = load_err("several_mistakes.toml", SEVERAL_MISTAKES);
    for (d, (code, line, col, text)) in report.diagnostics.iter().zip(SEVERAL_EXPECTED) {
        assert_eq!(d.code, *code);
        assert!(
            spanned(SEVERAL_MISTAKES, d).starts_with(text),
            "{code} at {line}:{col} covers {:?}, expected it to start with {text:?}",
            spanned(SEVERAL_MISTAKES, d)
        );
        assert_eq!(d.severity, Severity::Error);
        assert!(!d.message.is_empty(), "{code} has no message");
    }
}

#[rstest]
#[case::unknown_key("turnspec::unknown-key", 10, "did you mean `description`?")]
#[case::missing_phase("turnspec::unknown-reference", 14, "did you mean `main`?")]
#[case::missing_counter("turnspec::unknown-reference", 15, "did you mean `lands_played`?")]
#[case::condition_name("turnspec::condition", 30, "facts.phasing_out")]
fn several_mistakes_near_misses_get_hints(
    #[case] code: &str,
    #[case] line: usize,
    #[case] hint: &str,
) {
    let report = load_err("several_mistakes.toml", SEVERAL_MISTAKES);
    let d = find(&report, code, line);
    let help = d.help.as_deref().unwrap_or("");
    assert!(
        help.contains(hint),
        "{code} at line {line}: help {help:?} lacks {hint:?}"
    );
}

#[test]
fn several_mistakes_short_text_and_json_agree_on_positions() {
    let report = load_err(
        "tests/specs/invalid/several_mistakes.toml",
        SEVERAL_MISTAKES,
    );
    let text = report.to_short_text();
    let json = report.to_json();
    assert_eq!(json.len(), SEVERAL_EXPECTED.len());
    for ((code, line, col, _), j) in SEVERAL_EXPECTED.iter().zip(&json) {
        let needle =
            format!("tests/specs/invalid/several_mistakes.toml:{line}:{col}: error[{code}]");
        assert!(
            text.contains(&needle),
            "short text lacks {needle:?}:\n{text}"
        );
        assert_eq!(j["code"], *code);
        assert_eq!(j["line"], *line);
        assert_eq!(j["column"], *col);
        assert_eq!(j["severity"], "error");
    }
}

#[test]
fn several_mistakes_fixture_on_disk_matches_the_included_copy() {
    assert_eq!(read_fixture("several_mistakes.toml"), SEVERAL_MISTAKES);
}

// --- single-mistake fixtures --------------------------------------------------

/// One fixture per diagnostic code: (file, code, line, column, other codes
/// the same mistake may also produce).
#[rstest]
#[case::toml_syntax("syntax_errors.toml", "turnspec::toml-syntax", 2, 6, &[])]
#[case::schema("wrong_type.toml", "turnspec::schema", 4, 19, &[])]
#[case::unknown_key("unknown_key_in_step.toml", "turnspec::unknown-key", 11, 3, &[])]
#[case::condition("condition_syntax.toml", "turnspec::condition", 8, 31, &[])]
#[case::missing("missing_game.toml", "turnspec::missing", 1, 1, &[])]
#[case::no_window("no_window.toml", "turnspec::no-window", 7, 6, &[])]
#[case::phase_cycle("phase_cycle.toml", "turnspec::phase-cycle", 15, 6, &[])]
#[case::bad_value("bad_value.toml", "turnspec::bad-value", 7, 7, &[])]
#[case::start_regular_phase("start_regular_phase.toml", "turnspec::start-regular-phase", 8, 9, &[])]
#[case::unreachable_step("always_skipped_step.toml", "turnspec::unreachable-step", 10, 8, &[])]
#[case::window_in_actions("window_in_actions.toml", "turnspec::window-in-actions", 9, 14, &[])]
#[case::bad_id("bad_id.toml", "turnspec::bad-id", 7, 6, &[])]
#[case::duplicate_id("duplicate_id.toml", "turnspec::duplicate-id", 11, 6, &[])]
#[case::effect("effect.toml", "turnspec::effect", 6, 1, &[])]
#[case::effect_lasting_not_skip("effect_lasting_not_skip.toml", "turnspec::effect", 8, 11, &[])]
#[case::effect_skip_every_turn("effect_skip_every_turn.toml", "turnspec::effect", 6, 1, &[])]
#[case::effect_for_on_one_time_skip("effect_for_on_one_time_skip.toml", "turnspec::effect", 9, 7, &[])]
#[case::effect_control_own_turn("effect_control_own_turn.toml", "turnspec::effect", 8, 17, &[])]
#[case::turn_effects_never_end("turn_effects_never_end.toml", "turnspec::missing", 5, 20, &[])]
#[case::no_regular_phase(
    "no_regular_phase.toml",
    "turnspec::no-regular-phase",
    6,
    1,
    &["turnspec::unreachable-phase"]
)]
#[case::phase_body_with_steps("phase_body_with_steps.toml", "turnspec::phase-body-with-steps", 7, 6, &[])]
#[case::sequence_and_actions("sequence_and_actions.toml", "turnspec::sequence-and-actions", 7, 6, &[])]
#[case::stage_kind("stage_kind.toml", "turnspec::stage-kind", 10, 3, &[])]
#[case::too_many("too_many.toml", "turnspec::limit", 22, 1, &[])]
#[case::unknown_reference("unknown_reference.toml", "turnspec::unknown-reference", 7, 21, &[])]
#[case::unreachable_phase("unreachable_phase.toml", "turnspec::unreachable-phase", 11, 6, &[])]
#[case::unused_key("unused_key.toml", "turnspec::unused-key", 7, 9, &[])]
#[case::players("players.toml", "turnspec::players", 4, 28, &[])]
#[case::never_ends("never_ends.toml", "turnspec::never-ends", 13, 10, &[])]
#[case::never_ends_turn("never_ends_turn.toml", "turnspec::never-ends", 17, 12, &[])]
#[case::unusable_timing("unusable_timing.toml", "turnspec::unusable-timing", 6, 1, &[])]
fn single_mistake_fixtures(
    #[case] file: &str,
    #[case] code: &str,
    #[case] line: usize,
    #[case] col: usize,
    #[case] also: &[&str],
) {
    let source = read_fixture(file);
    let report = load_err(file, &source);
    let first = report
        .diagnostics
        .first()
        .unwrap_or_else(|| panic!("{file}: failed without a diagnostic"));
    assert_eq!(
        position(&source, first),
        (code, line, col),
        "{file}:\n{}",
        report.to_short_text()
    );
    // A single-mistake fixture reports only that kind of mistake.
    for d in &report.diagnostics {
        assert!(
            d.code == code || also.contains(&d.code),
            "{file}: unexpected {}\n{}",
            d.code,
            report.to_short_text()
        );
        assert_eq!(d.severity, Severity::Error);
    }
}

#[test]
fn always_skipped_phase_is_reported() {
    let source = read_fixture("always_skipped_phase.toml");
    let report = load_err("always_skipped_phase.toml", &source);
    let at_phase = report.diagnostics.iter().any(|d| {
        matches!(
            d.code,
            "turnspec::unreachable-step" | "turnspec::unreachable-phase" | "turnspec::no-window"
        ) && matches!(line_col(&source, d.span.start).0, 8 | 9)
    });
    assert!(at_phase, "{}", report.to_short_text());
}

#[test]
fn repeat_on_a_constant_comparison_never_ends() {
    let source = read_fixture("repeat_constant_comparison.toml");
    let report = load_err("repeat_constant_comparison.toml", &source);
    let d = find(&report, "turnspec::never-ends", 14);
    assert_eq!(spanned(&source, d), "{ if = \"1 == 1\" }");
}

#[test]
fn several_toml_syntax_errors_are_reported_at_once() {
    let source = read_fixture("syntax_errors.toml");
    let report = load_err("syntax_errors.toml", &source);
    let lines: Vec<usize> = report
        .diagnostics
        .iter()
        .map(|d| position(&source, d))
        .filter(|(code, _, _)| *code == "turnspec::toml-syntax")
        .map(|(_, line, _)| line)
        .collect();
    // Three separate mistakes: the unclosed `[game`, the missing comma in
    // `players`, the unterminated string on the last line.
    for line in [2, 4, 8] {
        assert!(
            lines.contains(&line),
            "no syntax error on line {line}: {lines:?}"
        );
    }
}

#[test]
fn wrong_value_type_names_the_expected_type() {
    let source = read_fixture("wrong_type.toml");
    let report = load_err("wrong_type.toml", &source);
    let d = find(&report, "turnspec::schema", 4);
    assert_eq!(line_col(&source, d.span.start), (4, 19));
    assert_eq!(spanned(&source, d), "\"two\"");
    assert!(
        d.message.contains("i64") || d.message.contains("integer"),
        "{}",
        d.message
    );
}

// --- line_col itself ------------------------------------------------------------

#[rstest]
#[case::start("ab\ncd", 0, (1, 1))]
#[case::same_line("ab\ncd", 1, (1, 2))]
#[case::next_line("ab\ncd", 3, (2, 1))]
#[case::end("ab\ncd", 5, (2, 3))]
#[case::past_end("ab\ncd", 99, (2, 3))]
// Columns count characters, not bytes: "é" is two bytes.
#[case::multibyte("é = 1\nx", 3, (1, 3))]
#[case::inside_a_char("é", 1, (1, 1))]
fn line_col_is_one_based_and_counts_characters(
    #[case] source: &str,
    #[case] offset: usize,
    #[case] want: (usize, usize),
) {
    assert_eq!(line_col(source, offset), want);
}

// --- turns that never end ------------------------------------------------------

/// A two-player spec with a main phase, then an `ending` phase whose one step
/// `loop` has `body` (its actions, window and repeat), after `tables`.
fn looping_spec(tables: &str, body: &str) -> String {
    format!(
        "[game]\nname = \"Loop\"\nplayers = {{ min = 2, max = 2 }}\n{tables}\n\
         [[phase]]\nid = \"main\"\npriority = \"always\"\n\n\
         [[phase]]\nid = \"ending\"\n\n  [[phase.step]]\n  id = \"loop\"\n{body}\n"
    )
}

/// Line and column of the `repeat` value (its `{`) in a [`looping_spec`].
fn repeat_value_at(source: &str) -> (usize, usize) {
    let offset = source.find("repeat = {").expect("a repeat") + "repeat = ".len();
    line_col(source, offset)
}

#[rstest]
#[case::constant_true("true")]
#[case::turn_is_never_zero("turn > 0")]
#[case::players_never_above_the_maximum("players <= 2")]
#[case::repeat_count_stops_at_255("repeat_count < 300")]
#[case::no_window_opens_in_a_step_without_one("not window_opened")]
#[case::either_part_true("turn > 0 or fact.x")]
fn turn_that_never_ends_is_refused_at_the_repeat(#[case] condition: &str) {
    let source = looping_spec(
        "[facts.x]",
        &format!(
            "  actions = [{{ id = \"recount\" }}]\n  repeat = {{ if = \"{condition}\", rule = \"X 1\" }}"
        ),
    );
    let report = load_err("loop.toml", &source);
    let (d, at) = located(&report, "turnspec::never-ends");
    assert_eq!(at, (15, 12), "{}", report.to_short_text());
    assert_eq!(at, repeat_value_at(&source));
    assert!(spanned(&source, d).starts_with("{ if = "));
    assert_eq!(d.severity, Severity::Error);
    assert!(d.message.contains("`loop`"), "{}", d.message);
    assert!(d.message.contains("rule X 1"), "{}", d.message);
    assert_eq!(report.errors(), 1, "{}", report.to_short_text());
}

/// A counter that resets as each step begins and that no action of the step
/// answers is 0 every time the step ends.
#[test]
fn turn_that_never_ends_on_a_counter_reset_each_step_is_refused() {
    let source = looping_spec(
        "[counters.x]\nreset = \"step\"",
        "  repeat = { if = \"counter.x == 0\" }",
    );
    let report = load_err("loop.toml", &source);
    let (_, at) = located(&report, "turnspec::never-ends");
    assert_eq!(at, repeat_value_at(&source));
}

/// Things a step cannot change: once the condition holds, it holds for ever.
/// The spec loads, with a warning at the repeat that says when.
#[rstest]
#[case::late_turns("turn > 3", "[facts.x]", "turn = 4")]
#[case::a_variant("variant.long", "[variants.long]", "variant.long = 1")]
#[case::a_fact_without_a_window("fact.x", "[facts.x]", "fact.x = 1")]
#[case::a_counter_nothing_in_the_step_answers(
    "counter.x > 0",
    "[counters.x]\nreset = \"game\"",
    "counter.x = 1"
)]
#[case::stuck_whatever_the_repeat_count("seat == 2 or repeat_count == 0", "", "seat = 2")]
fn turn_that_never_ends_may_happen_and_is_warned(
    #[case] condition: &str,
    #[case] tables: &str,
    #[case] when: &str,
) {
    let source = looping_spec(
        tables,
        &format!(
            "  actions = [{{ id = \"recount\" }}]\n  repeat = {{ if = \"{condition}\", rule = \"X 2\" }}"
        ),
    );
    let (_, report) = load_str("loop.toml", &source)
        .unwrap_or_else(|r| panic!("{condition}: {}", r.to_short_text()));
    let (d, (line, col)) = located(&report, "turnspec::may-never-end");
    assert_eq!(
        (line, col),
        repeat_value_at(&source),
        "{}",
        report.to_short_text()
    );
    assert_eq!(d.severity, Severity::Warning);
    assert!(
        d.message.contains("`loop`") && d.message.contains("rule X 2"),
        "{}",
        d.message
    );
    assert!(
        d.message.contains(&format!("when {when},")),
        "{condition}: {}",
        d.message
    );
    assert_eq!(report.diagnostics.len(), 1, "{}", report.to_short_text());
}

/// Repeats that stop: bounded by `repeat_count`, on a window opening, on a
/// counter the step's own action answers, on a fact players can change in
/// the step's window.
#[rstest]
#[case::bounded("  repeat = { if = \"repeat_count < 1\" }", "")]
#[case::bounded_late_turns("  repeat = { if = \"turn > 3 and repeat_count < 2\" }", "")]
#[case::window_opened(
    "  priority = \"if_pending\"\n  repeat = { if = \"window_opened\" }",
    ""
)]
#[case::answered_by_its_action(
    "  actions = [{ id = \"again\", answer = { counter = \"x\" } }]\n  repeat = { if = \"counter.x > 0\" }",
    "[counters.x]"
)]
#[case::first_strike_style(
    "  actions = [{ id = \"check\", if = \"repeat_count == 0\", answer = { counter = \"x\" } }]\n  repeat = { if = \"counter.x > 0 and repeat_count == 0\" }",
    "[counters.x]"
)]
#[case::fact_with_a_window("  priority = \"always\"\n  repeat = { if = \"fact.x\" }", "[facts.x]")]
#[case::never_true("  repeat = { if = \"turn == 0\" }", "")]
fn turn_that_never_ends_leaves_repeats_that_stop_alone(#[case] body: &str, #[case] tables: &str) {
    let source = looping_spec(tables, body);
    match load_str("loop.toml", &source) {
        Ok((_, report)) => assert!(
            report.diagnostics.is_empty(),
            "{body}:\n{}",
            report.to_short_text()
        ),
        Err(report) => panic!("{body}:\n{}", report.to_short_text()),
    }
}

/// An absurdly nested repeat cannot exhaust the stack (on the 8 MiB of a
/// main thread the loop check did at 20,000 levels before it had a depth
/// limit): the condition parser refuses it first, located.
#[test]
fn turn_that_never_ends_check_survives_deeply_nested_conditions() {
    let run = || {
        let nested = "not ".repeat(20_000);
        for atom in ["fact.x", "true"] {
            let source = looping_spec(
                "[facts.x]",
                &format!("  repeat = {{ if = \"{nested}{atom}\" }}"),
            );
            let report = load_err("deep.toml", &source);
            located(&report, "turnspec::limit");
        }
        // Within the nesting limit a constant repeat is still found.
        let nested = "not not ".repeat(20);
        let source = looping_spec("", &format!("  repeat = {{ if = \"{nested}true\" }}"));
        let report = load_err("deep.toml", &source);
        located(&report, "turnspec::never-ends");
    };
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(run)
        .expect("a thread")
        .join()
        .expect("no panic");
}

#[test]
fn impossible_player_counts_and_unused_window_keys_are_each_reported() {
    let text = "[game]\nname = \"x\"\nplayers = { min = 0, max = 99 }\n\n[counters.c]\n\n\
                [[phase]]\nid = \"main\"\n  [[phase.step]]\n  id = \"s\"\n  sequence = [\n    \
                { window = \"always\", play = \"pushed\", ends_turn_effects = true, answer = { counter = \"c\" } },\n  ]\n";
    let found = common::each_located("window.toml", text, |d, line, _| {
        Some((d.code, line, d.message.clone()))
    });
    for want in [
        ("turnspec::players", 3, "minimum of 0 players is impossible"),
        (
            "turnspec::players",
            3,
            "maximum of 99 players is impossible",
        ),
        ("turnspec::unused-key", 12, "a window takes no `play`"),
        (
            "turnspec::unused-key",
            12,
            "a window takes no `ends_turn_effects`",
        ),
        ("turnspec::unused-key", 12, "a window takes no `answer`"),
    ] {
        assert!(
            found.iter().any(|(c, l, m)| (*c, *l, m.as_str()) == want),
            "{want:?} not in {found:#?}"
        );
    }
}

// --- an id defined twice shows both definitions ------------------------------

/// `(line, column)` of a byte offset in `source`.
fn at(source: &str, offset: usize) -> (usize, usize) {
    line_col(source, offset)
}

#[test]
fn an_id_defined_twice_points_at_its_first_definition_too() {
    let source = read_fixture("duplicate_id.toml");
    let report = load_err("duplicate_id.toml", &source);
    let (d, position) = located(&report, "turnspec::duplicate-id");
    assert_eq!(position, (11, 6));
    assert_eq!(d.label, "second phase named `main`");
    let [first] = &d.related[..] else {
        panic!("one related place: {:?}", d.related);
    };
    assert_eq!(first.label, "first definition");
    assert_eq!(at(&source, first.span.start), (7, 6));
    assert_eq!(&source[first.span.clone()], "\"main\"");

    let short = report.to_short_text();
    assert!(
        short.contains(
            "duplicate_id.toml:11:6: error[turnspec::duplicate-id]: `main` is defined twice \
             (first definition at 7:6) (help: "
        ),
        "{short}"
    );

    let json = report.to_json();
    let j = json
        .iter()
        .find(|j| j["code"] == "turnspec::duplicate-id")
        .expect("in the JSON");
    assert_eq!(j["line"], 11);
    let related = &j["related"][0];
    assert_eq!(
        (&related["file"], &related["line"], &related["column"]),
        (&"duplicate_id.toml".into(), &7.into(), &6.into())
    );
    assert_eq!(related["label"], "first definition");

    // miette draws two labels: the second definition (the primary one,
    // whose line the header names) and the first.
    let rendered = report.to_miette();
    let m = rendered
        .iter()
        .find(|m| {
            m.code()
                .is_some_and(|c| c.to_string() == "turnspec::duplicate-id")
        })
        .expect("rendered");
    let labels: Vec<(Option<String>, usize, bool)> = m
        .labels()
        .expect("labels")
        .map(|l| (l.label().map(str::to_string), l.offset(), l.primary()))
        .collect();
    assert_eq!(
        labels,
        [
            (Some("second phase named `main`".into()), d.span.start, true),
            (Some("first definition".into()), first.span.start, false),
        ]
    );
}

#[test]
fn a_turn_based_action_defined_twice_points_at_its_first_definition_too() {
    let source = "[game]\nname = \"t\"\nplayers = { min = 2, max = 2 }\n\
        [[phase]]\nid = \"one\"\nactions = [{ id = \"draw\" }]\n\
        [[phase]]\nid = \"two\"\nactions = [{ id = \"draw\" }]\npriority = \"always\"\n";
    let report = load_err("t.toml", source);
    let (d, position) = located(&report, "turnspec::duplicate-id");
    assert_eq!(position, (9, 19));
    let [first] = &d.related[..] else {
        panic!("one related place: {:?}", d.related);
    };
    assert_eq!(at(source, first.span.start), (6, 19));
    assert!(
        report
            .to_short_text()
            .contains("`draw` is defined twice (first definition at 6:19)"),
        "{}",
        report.to_short_text()
    );
}

#[test]
fn an_id_first_defined_in_a_base_spec_is_named_with_its_file() {
    let base = "[game]\nname = \"t\"\nplayers = { min = 2, max = 2 }\n\
        [[phase]]\nid = \"one\"\n[[phase.step]]\nid = \"draw\"\npriority = \"always\"\n";
    let child = "extends = \"base.toml\"\n[[phase]]\nid = \"draw\"\nafter = \"one\"\npriority = \"always\"\n";
    let report = match turnspec_spec::load_with("child.toml", child, &mut |_, _| {
        Ok(("base.toml".to_string(), base.to_string()))
    }) {
        Ok(_) => panic!("loaded"),
        Err(report) => report,
    };
    let short = report.to_short_text();
    assert!(
        short.contains(
            "child.toml:3:6: error[turnspec::duplicate-id]: `draw` is defined twice \
             (first definition at base.toml:7:6)"
        ),
        "{short}"
    );
    // miette shows one file per diagnostic: the first definition, in the
    // base, is named in the help.
    let rendered = report.to_miette();
    let m = rendered
        .iter()
        .find(|m| {
            m.code()
                .is_some_and(|c| c.to_string() == "turnspec::duplicate-id")
        })
        .expect("rendered");
    assert_eq!(m.labels().expect("labels").count(), 1);
    let help = m.help().expect("help").to_string();
    assert!(
        help.ends_with("; first definition at base.toml:7:6"),
        "{help}"
    );
}

/// `object.` is read only by plays made by an object; a per-object limit
/// needs such a class; `by = "object"` needs `[objects]`. All reported
/// together.
#[test]
fn objects_are_read_only_where_a_play_has_one() {
    let text = r#"
[game]
name = "t"
players = { min = 2, max = 2 }

[objects]

[objects.facts.entered_this_turn]

[timing.a]
require = [{ if = "object.since_turn_start" }]

[timing.b]
limit = { per = "object", max = 1 }

[timing.c]
by = "object"
require = [{ if = "object.since_turn_strat" }]

[[phase]]
id = "main"
priority = "always"
skip = [{ if = "object.entered_this_turn" }]
"#;
    let report = load_str("objects.toml", text).unwrap_err();
    let messages: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| format!("{} {}: {:?}", d.code, d.message, d.help))
        .collect();
    let has = |needle: &str| messages.iter().any(|m| m.contains(needle));
    assert!(has("turnspec::reserved-name"), "{messages:#?}");
    assert!(
        has("only the `require` of a timing class with `by = \\\"object\\\"`"),
        "{messages:#?}"
    );
    assert!(
        has("counts uses per object but is not made by one"),
        "{messages:#?}"
    );
    assert!(
        has("did you mean `object.since_turn_start`?"),
        "{messages:#?}"
    );
    assert_eq!(
        messages
            .iter()
            .filter(|m| m.contains("only the `require`"))
            .count(),
        2,
        "{messages:#?}"
    );
}

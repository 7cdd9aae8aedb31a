//! Small specs with a planted problem: `explore` must find each one, with
//! the shortest sequence of moves, and write it as a scenario that passes.
//! Plus: the output does not depend on the number of threads, and
//! `--against` finds a planted difference as a scenario that passes under
//! one spec and fails under the other.

use std::sync::Arc;

use turnspec_engine::Status;
use turnspec_explore::{
    DiffSide, Families, FindingKind, Options, Report, explore, explore_against, run_scenario,
};
use turnspec_scenario::Outcome;
use turnspec_spec::Spec;

fn load(text: &str) -> Arc<Spec> {
    match turnspec_spec::load_str("inline.toml", text) {
        Ok((spec, _)) => Arc::new(spec),
        Err(report) => panic!("does not load:\n{}", report.to_short_text()),
    }
}

fn options3(families: &[&str], depth: usize) -> Options {
    let mut o = options(families, depth);
    o.players = 3;
    o
}

fn options(families: &[&str], depth: usize) -> Options {
    let mut o = Options::default();
    o.depth = depth;
    o.families = Families {
        pass: false,
        play: false,
        answer: false,
        trigger: false,
        effect: false,
        fact: false,
        mana: false,
        leave: false,
        ending: false,
        objects: false,
    };
    for f in families {
        o.families.set(f, true).unwrap();
    }
    o
}

fn moves(report: &Report, index: usize) -> Vec<String> {
    report.findings[index]
        .moves
        .iter()
        .map(|m| report.describe_move(*m))
        .collect()
}

fn passes(text: &str, spec: &Arc<Spec>) -> bool {
    match run_scenario(text, spec.clone()) {
        Ok(Outcome::Passed { .. }) => true,
        Ok(Outcome::Failed(f)) => {
            eprintln!("{text}\nfailed: {f:?}");
            false
        }
        Err(e) => {
            eprintln!("{text}\ninvalid: {e}");
            false
        }
    }
}

/// A main phase where players act, then an ending phase that begins again
/// for as long as a fact is set, with no window: once the host sets the
/// fact, the turn can never end.
const DEAD_END: &str = r#"
[game]
name = "Planted dead end"
players = { min = 2, max = 2 }

[facts.again]

[[phase]]
id = "main"
rule = "M 1"
priority = "always"

[[phase]]
id = "ending"
rule = "E 1"
repeat = { if = "fact.again", rule = "E 2" }
"#;

#[test]
fn a_planted_dead_end_is_found_with_the_shortest_path() {
    let spec = load(DEAD_END);
    let report = explore(&spec, &options(&["pass", "fact"], 6)).unwrap();
    assert!(report.complete(), "{}", report.to_text());
    let dead: Vec<usize> = (0..report.findings.len())
        .filter(|&i| matches!(report.findings[i].kind, FindingKind::DeadEnd { .. }))
        .collect();
    assert_eq!(dead.len(), 1, "{}", report.to_text());
    let i = dead[0];
    assert_eq!(
        report.findings[i].kind,
        FindingKind::DeadEnd {
            status: Status::NeverEnds,
            beyond_limit: false
        }
    );
    // Three moves: nothing shorter gets out of main with the fact set.
    assert_eq!(moves(&report, i), ["pass P1", "set fact again", "pass P2"]);
    assert_eq!(report.findings[i].rules, ["E 2"]);
    let text = report.scenario(&spec, i, "inline.toml").unwrap();
    assert!(text.contains("status = \"never_ends\""), "{text}");
    assert!(passes(&text, &spec));
}

/// A special action only the non-active player may take, after which
/// priority goes back to the active player: pass, act, pass, act, ... and
/// the step never moves on.
const LOOP: &str = r#"
[game]
name = "Planted loop"
players = { min = 2, max = 2 }

[priority]
after_action = "active_player"

[timing.stall]
rule = "S 1"
who = "non_active_player"
effect = "special"

[[phase]]
id = "main"
rule = "M 1"
priority = "always"
"#;

#[test]
fn a_planted_loop_is_found_with_the_shortest_cycle() {
    let spec = load(LOOP);
    let report = explore(&spec, &options(&["pass", "play"], 6)).unwrap();
    let cycles: Vec<usize> = (0..report.findings.len())
        .filter(|&i| report.findings[i].kind == FindingKind::Cycle { of_plays: false })
        .collect();
    assert_eq!(cycles.len(), 1, "{}", report.to_text());
    let i = cycles[0];
    assert_eq!(moves(&report, i), ["pass P1", "play stall by P2"]);
    assert_eq!(report.findings[i].cycle_from, Some(0));
    assert_eq!(report.findings[i].rules, ["M 1"]);
    let text = report.scenario(&spec, i, "inline.toml").unwrap();
    assert!(passes(&text, &spec));
}

/// A step skipped whenever there are two players, in a game of exactly two:
/// it can never happen. The steps around it can, after so many passes.
const UNREACHABLE: &str = r#"
[game]
name = "Planted unreachable step"
players = { min = 2, max = 2 }

[[phase]]
id = "turn"
rule = "T 1"

  [[phase.step]]
  id = "first"
  rule = "T 2"
  priority = "always"

  [[phase.step]]
  id = "hidden"
  rule = "T 3"
  skip = [{ if = "players == 2", rule = "T 4" }]
  priority = "always"

  [[phase.step]]
  id = "last"
  rule = "T 5"
  priority = "always"
"#;

#[test]
fn a_planted_unreachable_step_is_never_reached_and_the_others_are_at_their_distance() {
    let spec = load(UNREACHABLE);
    let report = explore(&spec, &options(&["pass"], 8)).unwrap();
    assert!(report.complete(), "{}", report.to_text());
    let step = |id: &str| {
        report
            .coverage
            .iter()
            .find(|c| c.kind == "step" && c.id == id)
            .unwrap()
            .clone()
    };
    assert_eq!(step("first").reached, Some(0));
    assert_eq!(step("hidden").reached, None);
    assert_eq!(step("hidden").rule.as_deref(), Some("T 3"));
    // Both players pass once in `first`.
    assert_eq!(step("last").reached, Some(2));
    assert!(report.to_text().contains("NEVER     hidden [T 3]"));
    assert!(report.findings.is_empty(), "{}", report.to_text());
}

const MTG: &str = include_str!("../../../games/mtg.toml");
const MTG_CLASSIC: &str = include_str!("../../../games/mtg-classic.toml");

#[test]
fn the_output_is_the_same_for_one_and_two_threads() {
    let spec = load(MTG);
    let mut o = Options::default();
    o.depth = 7;
    let run = |threads| {
        let mut o = o.clone();
        o.threads = threads;
        let r = explore(&spec, &o).unwrap();
        let scenarios: Vec<String> = (0..r.findings.len())
            .map(|i| r.scenario(&spec, i, "mtg.toml").unwrap())
            .collect();
        (r.to_text(), scenarios)
    };
    let one = run(1);
    assert_eq!(one, run(2));
    let classic = load(MTG_CLASSIC);
    let against = |threads| {
        let mut o = o.clone();
        o.threads = threads;
        o.depth = 5;
        explore_against(&spec, &classic, &o).unwrap().to_text()
    };
    assert_eq!(against(1), against(2));
}

/// The same game, except that unspent mana burns its owner.
const MANA: &str = r#"
[game]
name = "Mana"
players = { min = 2, max = 2 }

[mana]
empties = "step"
rule = "M 9"
burn = false

[[phase]]
id = "main"
rule = "M 1"
priority = "always"
"#;

#[test]
fn against_finds_a_planted_difference_as_a_scenario_that_passes_under_a_only() {
    let a = load(MANA);
    let b = load(&MANA.replace("burn = false", "burn = true\nburn_rule = \"M 10\""));
    let report = explore_against(&a, &b, &options(&["pass", "mana"], 4)).unwrap();
    assert_eq!(report.differences.len(), 1, "{}", report.to_text());
    let d = &report.differences[0];
    let moves: Vec<String> = d.moves.iter().map(|m| report.describe_move(*m)).collect();
    assert_eq!(moves, ["pass P1", "add 1 mana to P1's pool", "pass P2"]);
    assert_eq!(d.only_a, ["mana P1 1"]);
    assert_eq!(d.only_b, ["mana P1 1 burn"]);
    assert_eq!(d.b_event.as_ref().unwrap().1.as_deref(), Some("M 10"));
    assert!(d.refused.is_none());
    let text = report.scenario(&a, 0, "a.toml").unwrap().unwrap();
    assert!(passes(&text, &a));
    assert!(!passes(&text, &b));
    // Against itself: nothing.
    let same = explore_against(&a, &a, &options(&["pass", "mana"], 4)).unwrap();
    assert!(same.differences.is_empty());
    let _ = DiffSide::A;
}

#[test]
fn the_state_limit_stops_the_search_with_an_incomplete_report() {
    let spec = load(MTG);
    let mut o = Options::default();
    o.max_states = 500;
    let report = explore(&spec, &o).unwrap();
    assert_eq!(report.states, 500);
    assert!(!report.complete());
    assert!(matches!(
        report.stop,
        turnspec_explore::Stop::MaxStates { .. }
    ));
    assert!(
        report
            .to_text()
            .contains("incomplete: stopped at the state limit")
    );
}

#[test]
fn the_memory_limit_stops_the_search_with_an_incomplete_report() {
    let spec = load(MTG);
    let mut o = Options::default();
    o.depth = 14;
    o.max_memory = 4 << 20;
    let mut seen = Vec::new();
    let report = turnspec_explore::explore_with_progress(&spec, &o, &mut |p| seen.push(p)).unwrap();
    assert!(!report.complete());
    let turnspec_explore::Stop::MaxMemory { depth, memory } = report.stop else {
        panic!("{:?}", report.stop);
    };
    assert!(memory > 4 << 20);
    // Stopped at the first chunk past the limit, whose count it reports.
    let last = seen.last().unwrap();
    assert_eq!(
        (last.memory, last.level, last.states),
        (memory, depth, report.states)
    );
    assert!(seen[..seen.len() - 1].iter().all(|p| p.memory <= 4 << 20));
    assert!(
        report
            .to_text()
            .contains("incomplete: stopped at the memory limit")
    );
    assert!(
        report
            .options
            .summary()
            .contains("at most 4194304 bytes of memory")
    );
    // The same count, so the same stop, on any number of threads.
    o.threads = 1;
    let one = turnspec_explore::explore(&spec, &o).unwrap();
    assert_eq!((one.stop, one.states), (report.stop, report.states));
}

#[test]
fn progress_is_told_level_by_level_and_memory_stays_small_per_state() {
    let spec = load(MTG);
    let mut o = Options::default();
    o.depth = 12;
    let mut seen: Vec<turnspec_explore::Progress> = Vec::new();
    let report = turnspec_explore::explore_with_progress(&spec, &o, &mut |p| seen.push(p)).unwrap();
    assert!(
        seen.windows(2)
            .all(|w| w[0].level <= w[1].level && w[0].states <= w[1].states)
    );
    let last = seen.last().unwrap();
    assert_eq!(last.states, report.states);
    assert_eq!(last.expanded, last.level_states);
    // The tree, index and frontier by the search's own count: the
    // structures grow in blocks, so a small search pays a few of them.
    let peak = seen.iter().map(|p| p.memory).max().unwrap();
    assert!(
        peak < report.states * 64 + (16 << 20),
        "{peak} bytes for {} states",
        report.states
    );
}

#[test]
fn a_start_point_is_explored_and_written_like_a_scenario_setup() {
    let spec = load(DEAD_END);
    let mut o = options(&["pass"], 4);
    o.start = Some(turnspec_explore::StartPoint {
        turn: 3,
        active: 1,
        phase: Some("main".into()),
        step: None,
    });
    o.turns = 3;
    let report = explore(&spec, &o).unwrap();
    assert!(report.findings.is_empty(), "{}", report.to_text());
    // Starting in the ending phase with the fact set: stuck at once.
    let mut o = options(&["pass"], 4);
    o.start = Some(turnspec_explore::StartPoint {
        turn: 2,
        active: 1,
        phase: Some("ending".into()),
        step: None,
    });
    let stuck = load(&DEAD_END.replace("[facts.again]", "[facts.again]\ndefault = true"));
    let report = explore(&stuck, &o).unwrap();
    assert_eq!(report.findings.len(), 1, "{}", report.to_text());
    assert!(report.findings[0].moves.is_empty());
    let text = report.scenario(&stuck, 0, "inline.toml").unwrap();
    assert!(
        text.contains("turn = 2\nactive = \"P2\"\nphase = \"ending\""),
        "{text}"
    );
    assert!(passes(&text, &stuck));
}

/// Two endings the host declares and one the engine checks: 3 points wins.
const ENDINGS: &str = r#"
[game]
name = "Planted endings"
players = { min = 3, max = 3 }

[counters.points]
per = "player"
reset = "game"

[game_end]
last_side_rule = "G 1"

[endings.conceded]
result = "loses"
rule = "G 2"

[endings.truce]
result = "draw"
rule = "G 3"

[endings.three_points]
result = "wins"
if = "counter.points >= 3"
for = "each_player"
at = ["counter_set"]
rule = "G 4"

[[phase]]
id = "main"
rule = "M 1"
priority = "always"
"#;

#[test]
fn declared_endings_are_host_moves_reached_and_counted() {
    let spec = load(ENDINGS);
    // Without the family, only the checked ending and the last side left
    // are listed, and neither is reached by passing.
    let report = explore(&spec, &options3(&["pass"], 3)).unwrap();
    let ends: Vec<&str> = report
        .coverage
        .iter()
        .filter(|c| c.kind == "game end")
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(ends, ["three_points", "last side left"]);
    // With it: a draw after one move, a loss after one, the last side
    // left after two (two players conceded), each with its rule.
    let mut o = options3(&["pass", "ending"], 3);
    o.host_moves = 2;
    let report = explore(&spec, &o).unwrap();
    let reached = |id: &str| {
        report
            .coverage
            .iter()
            .find(|c| c.kind == "game end" && c.id == id)
            .unwrap_or_else(|| panic!("{id} listed:\n{}", report.to_text()))
            .clone()
    };
    assert_eq!(reached("conceded").reached, Some(1));
    assert_eq!(reached("conceded").rule.as_deref(), Some("G 2"));
    assert_eq!(reached("truce").reached, Some(1));
    assert_eq!(reached("last side left").reached, Some(2));
    // The host may declare a checked ending too.
    assert_eq!(reached("three_points").reached, Some(1));
    let text = report.to_text();
    assert!(text.contains("how the game ends"), "{text}");
    assert!(report.complete(), "{text}");
    // A game over is a normal end, not a dead end.
    assert!(
        report
            .findings
            .iter()
            .all(|f| !matches!(f.kind, FindingKind::DeadEnd { .. })),
        "{text}"
    );
}

#[test]
fn against_finds_an_ending_declared_differently_and_one_only_a_has() {
    let a = load(ENDINGS);
    // B: conceding is a draw, and there is no truce.
    let b_text = ENDINGS
        .replace(
            "[endings.conceded]\nresult = \"loses\"",
            "[endings.conceded]\nresult = \"draw\"",
        )
        .replace("[endings.truce]\nresult = \"draw\"\nrule = \"G 3\"\n", "");
    let b = load(&b_text);
    let report = explore_against(&a, &b, &options3(&["pass", "ending"], 2)).unwrap();
    let text = report.to_text();
    assert!(
        report
            .unmatched
            .iter()
            .any(|u| u == "ending `truce`: only in A"),
        "{text}"
    );
    let d = report
        .differences
        .iter()
        .position(|d| d.moves.len() == 1)
        .unwrap_or_else(|| panic!("{text}"));
    let diff = &report.differences[d];
    let moves: Vec<String> = diff
        .moves
        .iter()
        .map(|m| report.describe_move(*m))
        .collect();
    assert_eq!(moves, ["declare ending conceded for P1"], "{text}");
    assert!(diff.refused.is_none());
    // A: P1 leaves and the game goes on; B: the game is a draw.
    assert!(
        diff.only_b
            .iter()
            .any(|l| l.contains("game_over") || l.contains("over")),
        "{text}"
    );
    let scenario = report.scenario(&a, d, "a.toml").unwrap().unwrap();
    assert!(
        scenario.contains("declare_ending = \"conceded\""),
        "{scenario}"
    );
    assert!(passes(&scenario, &a), "{scenario}");
    assert!(!passes(&scenario, &b), "{scenario}");
}

/// Magic without 302.6 ("summoning sickness"): the require of its {T}
/// abilities is gone.
fn mtg_without_302_6() -> String {
    let start = MTG
        .find("  [[timing.tap_ability.require]]")
        .expect("games/mtg.toml has a 302.6 require");
    let len = MTG[start..]
        .find("\n\n")
        .expect("the require ends with a blank line");
    let require = &MTG[start..start + len];
    assert!(require.contains("rule = \"302.6\""), "{require}");
    format!("{}{}", &MTG[..start], &MTG[start + len..])
}

#[test]
fn with_objects_against_finds_summoning_sickness_as_a_scenario_that_passes_under_a_only() {
    let a = load(MTG);
    let b = load(&mtg_without_302_6());
    let mut o = options(&["pass", "play", "objects"], 4);
    o.host_moves = 2;
    let report = explore_against(&a, &b, &o).unwrap();
    let text = report.to_text();
    let d = report
        .differences
        .iter()
        .position(|d| {
            d.refused
                .as_ref()
                .is_some_and(|r| r.0 == DiffSide::A && r.2.as_deref() == Some("302.6"))
        })
        .unwrap_or_else(|| panic!("{text}"));
    let diff = &report.differences[d];
    let moves: Vec<String> = diff
        .moves
        .iter()
        .map(|m| report.describe_move(*m))
        .collect();
    assert_eq!(moves.len(), 3, "{text}");
    assert!(moves[0].starts_with("O1 enters play under P"), "{moves:?}");
    assert!(
        moves[1].starts_with("set object fact creature on O1"),
        "{moves:?}"
    );
    assert!(
        moves[2].starts_with("play tap_ability by P") && moves[2].ends_with("with O1"),
        "{moves:?}"
    );
    let scenario = report.scenario(&a, d, "a.toml").unwrap().unwrap();
    for verb in [
        "enter = \"O1\"",
        "set_fact = \"creature\"",
        "label = \"O1\"",
    ] {
        assert!(scenario.contains(verb), "{scenario}");
    }
    assert!(passes(&scenario, &a), "{scenario}");
    assert!(!passes(&scenario, &b), "{scenario}");
    // Without `--with objects` no object is reported, and the two agree.
    let mut off = o.clone();
    off.families.objects = false;
    let same = explore_against(&a, &b, &off).unwrap();
    assert!(same.differences.is_empty(), "{}", same.to_text());
}

#[test]
fn with_objects_explore_plays_by_each_object_and_writes_scenarios_that_pass() {
    let spec = load(MTG);
    let mut o = options(&["pass", "play", "objects"], 5);
    o.host_moves = 3;
    let report = explore(&spec, &o).unwrap();
    let text = report.to_text();
    assert!(
        report
            .coverage
            .iter()
            .any(|c| c.kind == "timing class" && c.id == "tap_ability" && c.reached.is_some()),
        "{text}"
    );
    for i in 0..report.findings.len() {
        let s = report.scenario(&spec, i, "mtg.toml").unwrap();
        assert!(passes(&s, &spec), "{s}");
    }
}

/// A spec that keeps objects in play, and nothing else.
const OBJECTS: &str = r#"
[game]
name = "Objects"
players = { min = 2, max = 2 }

[objects]
rule = "O 1"

[[phase]]
id = "main"
rule = "M 1"
priority = "always"
"#;

#[test]
fn with_objects_a_spec_without_them_is_unmatched_not_different() {
    let a = load(OBJECTS);
    let b = load(&OBJECTS.replace("[objects]\nrule = \"O 1\"\n", ""));
    let report = explore_against(&a, &b, &options(&["pass", "objects"], 2)).unwrap();
    let text = report.to_text();
    assert!(
        report
            .unmatched
            .iter()
            .any(|u| u == "table `[objects]`: only in A"),
        "{text}"
    );
    assert!(report.differences.is_empty(), "{text}");
}

/// The stop profile's safety check (`turnspec stops check`) finds the
/// planted mistake of tests/specs/stops/mtg-planted-hidden.toml (main-phase
/// stops on the wrong turn) with its shortest sequence, and finds nothing
/// to object to in the reference profiles.
mod stops_check {
    use std::path::PathBuf;

    use turnspec_explore::{Options, StopsReport, Verdict, check_stops};
    use turnspec_spec::Spec;

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    fn check(spec: &str, profile: &str) -> StopsReport {
        let spec_text = std::fs::read_to_string(root().join(spec)).unwrap();
        let (spec, _): (Spec, _) = turnspec_spec::load_str(spec, &spec_text).unwrap();
        let text = std::fs::read_to_string(root().join(profile)).unwrap();
        let profile = turnspec_spec::load_stops(profile, &text, &spec)
            .unwrap_or_else(|r| panic!("{}", r.to_short_text()));
        let mut o = Options::default();
        o.turns = 2;
        o.depth = 60;
        o.max_states = 20_000;
        o.host_moves = 0;
        o.threads = 1;
        check_stops(&spec, &profile, &o).unwrap()
    }

    #[test]
    fn a_planted_hidden_window_is_found_with_the_shortest_sequence() {
        let r = check(
            "games/mtg.toml",
            "tests/specs/stops/mtg-planted-hidden.toml",
        );
        let hidden: Vec<_> = r
            .windows
            .iter()
            .filter(|w| w.verdict == Verdict::Hidden)
            .collect();
        assert_eq!(hidden.len(), 2, "{}", r.to_text("planted"));
        let first = hidden[0];
        assert_eq!(
            (first.step.as_str(), first.own_turn, first.stack),
            ("precombat_main", true, false)
        );
        assert_eq!(first.hides, ["sorcery", "land"]);
        let moves: Vec<String> = first.moves.iter().map(|m| r.describe_move(*m)).collect();
        // P1's upkeep passed through by the profile, P2 passes: main.
        assert_eq!(moves, ["pass P1", "pass P2"]);
        assert!(
            first.rules.contains(&"505".to_string()),
            "{:?}",
            first.rules
        );
        assert!(r.has_hidden());
    }

    #[test]
    fn the_reference_profiles_hide_no_decision() {
        for (spec, profile) in [
            ("games/mtg.toml", "games/stops/mtg-default.toml"),
            ("games/mtg.toml", "games/stops/mtg-full-control.toml"),
            ("games/grand-archive.toml", "games/stops/grand-archive.toml"),
            ("games/lorcana.toml", "games/stops/lorcana.toml"),
        ] {
            let r = check(spec, profile);
            assert!(!r.has_hidden(), "{profile}:\n{}", r.to_text(profile));
        }
    }

    #[test]
    fn full_control_passes_through_nothing() {
        let r = check("games/mtg.toml", "games/stops/mtg-full-control.toml");
        assert!(r.windows.is_empty(), "{}", r.to_text("full control"));
    }

    #[test]
    fn a_pass_place_makes_a_hidden_window_chosen() {
        let spec_text = std::fs::read_to_string(root().join("games/mtg.toml")).unwrap();
        let (spec, _) = turnspec_spec::load_str("mtg.toml", &spec_text).unwrap();
        let planted =
            std::fs::read_to_string(root().join("tests/specs/stops/mtg-planted-hidden.toml"))
                .unwrap();
        let text = format!(
            "{planted}\n[[pass]]\nat = \"precombat_main\"\nturn = \"own\"\nbecause = \"a test\"\n"
        );
        let profile = turnspec_spec::load_stops("p.toml", &text, &spec).unwrap();
        let mut o = Options::default();
        o.turns = 1;
        o.depth = 40;
        o.max_states = 5_000;
        o.host_moves = 0;
        o.threads = 1;
        let r = check_stops(&spec, &profile, &o).unwrap();
        let main = r
            .windows
            .iter()
            .find(|w| w.step == "precombat_main" && w.own_turn && !w.stack)
            .expect("precombat main passed through");
        assert_eq!(main.verdict, Verdict::Chosen);
    }
}

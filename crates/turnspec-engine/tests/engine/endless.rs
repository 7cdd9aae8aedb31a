//! Turns that never end: a spec whose turn goes round for ever without a
//! player receiving priority stops the game with `Status::NeverEnds`, and
//! `Game::endless_turn` names the loop (docs/reliability.md).
//!
//! The specs here are inline and load without an error: these are the
//! loops loading cannot prove (a repeat on a counter a turn-based action
//! answers, on a fact the host sets), which only the run-time guard stops.

use std::sync::LazyLock;

use turnspec_engine::{
    Action, EndlessTurn, Event, GameOptions, MAX_REPEATS_WITHOUT_PRIORITY, PlayerId, RuleError,
    Status,
};
use turnspec_spec::{Severity, Spec};

use support::*;

const P1: PlayerId = PlayerId(0);

/// A main phase where players act, then an `ending` phase whose `loop` step
/// repeats until its turn-based action `are_we_done` is answered non-zero.
const ANSWERED: &str = r#"
[game]
name = "Answered repeat"
players = { min = 2, max = 2 }

[counters.done]
reset = "turn"

[[phase]]
id = "main"
priority = "always"

[[phase]]
id = "ending"

  [[phase.step]]
  id = "loop"
  actions = [{ id = "are_we_done", answer = { counter = "done" } }]
  repeat = { if = "counter.done == 0", rule = "L 1" }
"#;

/// The same shape, repeating while a fact the host controls is set. Loading
/// warns (nothing in a step without a window can clear the fact) but loads.
const FACT: &str = r#"
[game]
name = "Fact repeat"
players = { min = 2, max = 2 }

[facts.again]

[[phase]]
id = "main"
priority = "always"

[[phase]]
id = "ending"
repeat = { if = "fact.again", rule = "L 2" }
"#;

/// Turns with no window (the main phase is left out unless `fact.open`),
/// each with a step repeating 255 times: many steps without priority, but
/// every turn ends.
const LONG_TURNS: &str = r#"
[game]
name = "Long turns"
players = { min = 2, max = 2 }

[facts.open]

[[phase]]
id = "main"
only_if = "fact.open"
priority = "always"

[[phase]]
id = "ending"
actions = [{ id = "tidy" }]
repeat = { if = "repeat_count < 255", rule = "L 3" }
"#;

fn load(name: &str, text: &str) -> Spec {
    match turnspec_spec::load_str(name, text) {
        Ok((spec, report)) => {
            assert!(
                report
                    .diagnostics
                    .iter()
                    .all(|d| d.severity == Severity::Warning),
                "{}",
                report.to_short_text()
            );
            spec
        }
        Err(report) => panic!("{name}:\n{}", report.to_short_text()),
    }
}

static ANSWERED_SPEC: LazyLock<Spec> = LazyLock::new(|| load("answered.toml", ANSWERED));
static FACT_SPEC: LazyLock<Spec> = LazyLock::new(|| load("fact.toml", FACT));
static LONG_SPEC: LazyLock<Spec> = LazyLock::new(|| load("long.toml", LONG_TURNS));

fn answered() -> &'static Spec {
    &ANSWERED_SPEC
}

/// Steps begun in the events logged so far.
fn steps_begun(table: &Table) -> usize {
    table
        .events
        .0
        .iter()
        .filter(|e| matches!(e, Event::StepBegan { .. }))
        .count()
}

#[test]
fn turn_that_never_ends_loads_without_an_error() {
    let (_, report) = turnspec_spec::load_str("answered.toml", ANSWERED).unwrap();
    assert!(report.diagnostics.is_empty(), "{}", report.to_short_text());
}

#[test]
fn turn_that_never_ends_stops_the_game_naming_the_step() {
    let spec = answered();
    let mut t = Table::new(spec, GameOptions::players(2), TestHost::new(spec));
    t.pass_round();
    assert_eq!(t.game.status(), Status::NeverEnds);
    assert_eq!(t.game.holder(), None);
    let step = spec.step_by_id("loop").unwrap();
    let endless = t.game.endless_turn().expect("the loop is named");
    assert_eq!(
        endless,
        EndlessTurn {
            turn: 1,
            phase: spec.phase_by_id("ending").unwrap(),
            step,
            repeats: 255,
            rule: spec.step(step).unwrap().repeat.unwrap().rule,
        }
    );
    assert_eq!(spec.rule(endless.rule), Some("L 1"));
    // The step began once, then again as often as the budget allows.
    assert_eq!(steps_begun(&t), MAX_REPEATS_WITHOUT_PRIORITY as usize + 1);
    let text = endless.describe(spec);
    assert!(text.starts_with("turn 1 never ends"), "{text}");
    assert!(text.contains("step `loop` (phase `ending`)"), "{text}");
    assert!(text.contains("rule L 1"), "{text}");
}

#[test]
fn turn_that_never_ends_refuses_every_action_and_changes_nothing() {
    let spec = answered();
    let mut t = Table::new(spec, GameOptions::players(2), TestHost::new(spec));
    t.pass_round();
    // `Table::act` checks that a refusal leaves the state as it was.
    let e = t.refused(Action::Pass { player: P1 });
    assert_eq!(e, RuleError::NotRunning(Status::NeverEnds));
    assert!(
        e.describe(spec).contains("never ends"),
        "{}",
        e.describe(spec)
    );
    assert_eq!(t.game.status(), Status::NeverEnds);
}

#[test]
fn turn_that_never_ends_is_not_reported_when_the_host_answers() {
    let spec = answered();
    let host = TestHost::new(spec).answer("are_we_done", 1);
    let mut t = Table::new(spec, GameOptions::players(2), host);
    t.pass_round();
    assert_eq!(t.game.status(), Status::Running);
    assert_eq!(t.game.turn(), 2);
    assert_eq!(t.game.endless_turn(), None);
}

#[test]
fn turn_that_never_ends_on_a_fact_the_host_set() {
    let spec: &'static Spec = &FACT_SPEC;
    let options = GameOptions::players(2).with_facts(vec![spec.fact_by_id("again").unwrap()]);
    let mut t = Table::new(spec, options, TestHost::new(spec));
    t.pass_round();
    assert_eq!(t.game.status(), Status::NeverEnds);
    let endless = t.game.endless_turn().unwrap();
    assert_eq!(spec.step(endless.step).unwrap().id, "ending");
    let text = endless.describe(spec);
    assert!(text.contains("phase `ending`"), "{text}");
    assert!(text.contains("rule L 2"), "{text}");
}

/// The count starts again with every turn: long turns that end are not
/// taken for a turn that never ends, even with no priority for many turns.
#[test]
fn turn_that_never_ends_budget_is_per_turn() {
    let spec: &'static Spec = &LONG_SPEC;
    let mut game = turnspec_engine::Game::new(spec, &GameOptions::players(2)).unwrap();
    game.set_turn_limit(60);
    let mut events = Events::default();
    game.start(&mut TestHost::new(spec), &mut events);
    assert_eq!(game.status(), Status::TurnLimit);
    // `tidy` runs once each time the step-less phase's step begins.
    let begun = events
        .0
        .iter()
        .filter(|e| matches!(e, Event::TurnAction { .. }))
        .count();
    // 60 turns of 255 repeats: more than the budget, but each turn ends.
    assert_eq!(begun, 60 * 256);
    assert!(60 * 255 > MAX_REPEATS_WITHOUT_PRIORITY as usize);
}

use crate::support;

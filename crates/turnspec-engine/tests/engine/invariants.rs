//! Engine invariants, on small specs written here for the purpose (never on
//! games/*.toml: a game's rules are stated by the scenarios under
//! tests/scenarios, and a designer editing a reference spec must not break
//! these tests).
//!
//! - a refused action changes nothing and emits nothing (every action below
//!   goes through [`Table::act`], which checks it), and names its rule in
//!   the spec's own terms;
//! - set-up refuses what the spec does not allow; a stopped game refuses
//!   everything;
//! - the same spec, seed and actions give the same events;
//! - the host's hooks are called as documented (once per turn-based action
//!   performed, at every step begun, after every play), with the right
//!   context, answers clamped to the action's maximum;
//! - priority passing in general: round the table from the active player,
//!   the actor keeps priority, a play or trigger restarts the round, all
//!   passing resolves the top object or closes the window, waiting triggers
//!   go on in turn order from the active player;
//! - `legal_actions` lists exactly the actions `apply` accepts.

use std::sync::LazyLock;

use rstest::rstest;
use turnspec_engine::policy::{Policy, RandomPolicy, play_out};
use turnspec_engine::{
    Action, Event, Game, GameOptions, NoHost, PlayerId, RuleError, StartAt, Status, TimingFailure,
};
use turnspec_spec::Spec;

use support::*;

/// Three phases: a beginning with a step nobody gets priority in and one
/// everybody does, a main phase whose turn-based action asks a question,
/// and an end phase whose window opens only when something is pending and
/// which then runs again.
const TINY: &str = r#"
[game]
name = "Tiny"
players = { min = 2, max = 4 }

[terms]
priority = "the token"
stack = "pile"
active_player = "turn player"

[priority]
rule = "R-HOLDER"
pass_rule = "R-PASS"

[facts.extra]
rule = "R-EXTRA"

[counters.slow_plays]
reset = "turn"

[counters.asked]
reset = "phase"

[timing.quick]
rule = "R-QUICK"
who = "any"

[timing.slow]
rule = "R-SLOW"
who = "active_player"
who_rule = "R-SLOW-WHO"
stack = "empty"
stack_rule = "R-SLOW-STACK"
during = ["main"]
during_rule = "R-SLOW-WHEN"
limit = { counter = "slow_plays", max = 1, rule = "R-SLOW-ONCE" }

[timing.special]
rule = "R-SPECIAL"
who = "active_player"
during = ["main"]
effect = "special"

[[phase]]
id = "start"

  [[phase.step]]
  id = "ready"
  actions = [
    { id = "extra", if = "fact.extra" },
    { id = "ready" },
  ]

  [[phase.step]]
  id = "upkeep"
  priority = "always"

[[phase]]
id = "main"
priority = "always"
actions = [{ id = "ask", answer = { counter = "asked", max = 3 } }]

[[phase]]
id = "end"
actions = [{ id = "tidy" }]
priority = "if_pending"
repeat = { if = "window_opened" }
"#;

static SPEC: LazyLock<Spec> = LazyLock::new(|| load("tiny.toml", TINY));

fn tiny() -> &'static Spec {
    &SPEC
}

const P1: PlayerId = PlayerId(0);
const P2: PlayerId = PlayerId(1);
const P3: PlayerId = PlayerId(2);
const P4: PlayerId = PlayerId(3);

/// A game of `players` at the beginning of `step` on `turn`, taken by `active`.
fn at(players: u8, turn: u32, active: PlayerId, step: &str, host: TestHost) -> Table {
    let options = GameOptions::players(players).with_start_at(start_at(tiny(), turn, active, step));
    Table::new(tiny(), options, host)
}

/// A 2-player game on turn 3, P1 active, at the beginning of `step`.
fn at2(step: &str) -> Table {
    at(2, 3, P1, step, TestHost::new(tiny()))
}

fn failure(err: RuleError) -> TimingFailure {
    match err {
        RuleError::Timing { failure, .. } => failure,
        other => panic!("expected a timing refusal, got {other:?}"),
    }
}

// --- refusals -------------------------------------------------------------------------

#[test]
fn refused_actions_change_nothing_emit_nothing_and_name_their_rule() {
    let mut t = at2("main");
    t.play(P1, "quick", 1).unwrap();
    let quick = t.timing("quick");
    let slow = t.timing("slow");
    let special = t.timing("special");
    let refusals = [
        Action::Pass { player: P2 },
        Action::Pass { player: P3 },
        Action::Pass {
            player: PlayerId(200),
        },
        Action::Play {
            player: P2,
            timing: quick,
            label: 0,
        },
        Action::Play {
            player: PlayerId(7),
            timing: quick,
            label: 0,
        },
        Action::Play {
            player: P1,
            timing: slow,
            label: 0,
        },
        Action::Leave { player: P4 },
    ];
    for action in refusals {
        // `refused` compares the whole state before and after, and the events.
        let err = t.refused(action);
        assert!(!err.describe(tiny()).is_empty(), "{action:?}");
    }
    // Host commands for players who are not in the game, the same way.
    for controller in [P3, PlayerId(9)] {
        let err = t.refused_command("report_trigger", |g, _, e| {
            g.report_trigger(controller, 0, e)
        });
        assert!(!err.describe(tiny()).is_empty(), "{controller}");
    }
    // The holder check comes first and cites the spec's priority rule.
    let err = t.refused(Action::Play {
        player: P2,
        timing: special,
        label: 0,
    });
    assert!(
        matches!(
            err,
            RuleError::NotHolder {
                player: P2,
                holder: Some(P1),
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(tiny().rule(err.rule()), Some("R-HOLDER"));
    // Messages use the spec's own words.
    let text = err.describe(tiny());
    assert!(text.contains("R-HOLDER"), "{text}");
    assert!(
        text.contains("P2 does not hold the token (P1 does)"),
        "{text}"
    );
}

#[test]
fn a_timing_refusal_names_the_first_failing_condition_and_its_rule() {
    // The engine checks holder, who, during, stack, limit, in that order.
    let mut t = at2("upkeep");
    let err = t.play(P1, "slow", 1).unwrap_err();
    assert_eq!(failure(err), TimingFailure::WrongStep);
    assert_eq!(tiny().rule(err.rule()), Some("R-SLOW-WHEN"));
    t.pass_until_step("main");
    t.play(P1, "quick", 2).unwrap();
    let err = t.play(P1, "slow", 3).unwrap_err();
    assert_eq!(failure(err), TimingFailure::StackNotEmpty);
    assert_eq!(tiny().rule(err.rule()), Some("R-SLOW-STACK"));
    let text = err.describe(tiny());
    assert!(text.contains("the pile must be empty"), "{text}");
    t.pass();
    let err = t.play(P2, "slow", 4).unwrap_err();
    assert_eq!(failure(err), TimingFailure::NotActivePlayer);
    assert_eq!(tiny().rule(err.rule()), Some("R-SLOW-WHO"));
    let text = err.describe(tiny());
    assert!(text.contains("only the turn player may"), "{text}");
    t.pass(); // P2: the quick play resolves
    assert!(t.game.stack().is_empty());
    t.play(P1, "slow", 5).unwrap();
    t.pass_round();
    let err = t.play(P1, "slow", 6).unwrap_err();
    assert_eq!(failure(err), TimingFailure::LimitReached { max: 1 });
    assert_eq!(tiny().rule(err.rule()), Some("R-SLOW-ONCE"));
    assert!(err.describe(tiny()).contains("R-SLOW-ONCE"));
    assert_eq!(t.counter("slow_plays"), 1);
    // The counter resets with the turn.
    t.pass_round();
    t.pass_until_step("main");
    assert_eq!((t.game.turn(), t.holder()), (4, P2));
    assert_eq!(t.counter("slow_plays"), 0);
    t.play(P2, "slow", 7).unwrap();
}

/// A play anyone may make onto the stack, with nothing to pay or require,
/// is a plain play (the fast path); one restricted to some steps must
/// still be refused in the others.
const STEP_BOUND: &str = r#"
[game]
name = "Step bound"
players = { min = 2, max = 2 }

[timing.main_only]
rule = "R-MAIN-ONLY"
who = "any"
during = ["main"]
during_rule = "R-MAIN-ONLY-WHEN"

[[phase]]
id = "start"
priority = "always"

[[phase]]
id = "main"
priority = "always"
"#;

static STEP_BOUND_SPEC: LazyLock<Spec> = LazyLock::new(|| load("step-bound.toml", STEP_BOUND));

#[test]
fn a_plain_play_outside_its_steps_is_refused_with_the_steps_rule() {
    let spec: &'static Spec = &STEP_BOUND_SPEC;
    let options = GameOptions::players(2).with_start_at(start_at(spec, 1, P1, "start"));
    let mut t = Table::new(spec, options, TestHost::new(spec));
    let err = t.play(P1, "main_only", 1).unwrap_err();
    assert_eq!(failure(err), TimingFailure::WrongStep);
    assert_eq!(spec.rule(err.rule()), Some("R-MAIN-ONLY-WHEN"));
    t.pass_until_step("main");
    t.play(P1, "main_only", 2).unwrap();
}

#[test]
fn a_stopped_game_refuses_everything_with_not_running() {
    let mut t = Table::new(tiny(), GameOptions::players(2), TestHost::new(tiny()));
    t.game.set_turn_limit(2);
    t.pass_until_stopped();
    assert_eq!(t.game.status(), Status::TurnLimit);
    assert_eq!(t.game.holder(), None);
    for player in [P1, P2] {
        let err = t.refused(Action::Pass { player });
        assert_eq!(err, RuleError::NotRunning(Status::TurnLimit));
        let err = t.refused(Action::Play {
            player,
            timing: t.timing("quick"),
            label: 0,
        });
        assert_eq!(err, RuleError::NotRunning(Status::TurnLimit));
    }
}

#[test]
fn setup_refuses_what_the_spec_does_not_allow() {
    for players in [0, 1, 5, 8] {
        assert!(Game::new(tiny(), &GameOptions::players(players)).is_err());
    }
    for players in 2..=4 {
        assert!(Game::new(tiny(), &GameOptions::players(players)).is_ok());
    }
    let bad_starting_player = GameOptions::players(2).with_starting_player(P3);
    assert!(Game::new(tiny(), &bad_starting_player).is_err());
    // A step of another phase.
    let bad_step = GameOptions::players(2).with_start_at(
        StartAt::new(1, P1, tiny().phase_by_id("main").unwrap())
            .at_step(tiny().step_by_id("upkeep")),
    );
    assert!(Game::new(tiny(), &bad_step).is_err());
    let bad_active = GameOptions::players(3).with_start_at(start_at(tiny(), 3, P4, "main"));
    assert!(Game::new(tiny(), &bad_active).is_err());
}

// --- determinism -----------------------------------------------------------------------

fn random_game(players: u8, seed: u64) -> (Vec<Event>, Status, u32) {
    let mut game = Game::new(tiny(), &GameOptions::players(players)).unwrap();
    game.set_turn_limit(12);
    let mut events = Events::default();
    play_out(
        &mut game,
        &mut RandomPolicy::with_effects(seed),
        &mut events,
    );
    (events.0, game.status(), game.turn())
}

#[rstest]
#[case::two_players(2)]
#[case::three_players(3)]
#[case::four_players(4)]
fn the_same_spec_seed_and_actions_give_the_same_events(#[case] players: u8) {
    for seed in [0, 1, 42, u64::MAX] {
        let first = random_game(players, seed);
        assert_eq!(first.1, Status::TurnLimit, "seed {seed}");
        assert_eq!(first, random_game(players, seed), "seed {seed}");
    }
}

#[test]
fn a_cloned_game_given_the_same_actions_emits_the_same_events() {
    let mut game = Game::new(tiny(), &GameOptions::players(3)).unwrap();
    let mut policy = RandomPolicy::new(7);
    let mut events = Events::default();
    game.start(&mut policy, &mut events);
    for _ in 0..20 {
        let action = policy.decide(&game);
        game.apply(action, &mut policy, &mut events).unwrap();
    }
    let mut twin = game.clone();
    let (mut a, mut b) = (Events::default(), Events::default());
    let mut twin_policy = policy.clone();
    for _ in 0..200 {
        if game.status() != Status::Running {
            break;
        }
        let action = policy.decide(&game);
        assert_eq!(action, twin_policy.decide(&twin));
        let left = game.apply(action, &mut policy, &mut a);
        let right = twin.apply(action, &mut twin_policy, &mut b);
        assert_eq!(left, right);
        assert_eq!(game.state(), twin.state());
    }
    assert!(!a.0.is_empty());
    assert_eq!(a.0, b.0);
}

// --- host hooks ----------------------------------------------------------------------------

#[test]
fn hooks_are_called_at_every_step_begun_and_every_turn_based_action_performed() {
    let mut t = Table::new(tiny(), GameOptions::players(2), TestHost::new(tiny()));
    t.game.set_turn_limit(2);
    t.pass_until_stopped();
    let turn = |n: u32, p: &str| {
        [
            format!("began t{n} {p} ready r0"),
            format!("tba ready t{n} {p} ready r0"),
            format!("began t{n} {p} upkeep r0"),
            format!("began t{n} {p} main r0"),
            format!("tba ask t{n} {p} main r0"),
            format!("began t{n} {p} end r0"),
            format!("tba tidy t{n} {p} end r0"),
        ]
    };
    let mut want = turn(1, "P1").to_vec();
    want.extend(turn(2, "P2"));
    assert_eq!(t.host.calls, want);
}

#[test]
fn an_action_whose_condition_is_false_is_neither_performed_nor_asked() {
    let options = |facts| {
        GameOptions::players(2)
            .with_facts(facts)
            .with_start_at(start_at(tiny(), 3, P1, "ready"))
    };
    let mut t = Table::new(tiny(), options(Vec::new()), TestHost::new(tiny()));
    assert_eq!(t.host.asked_count("extra"), 0);
    assert!(!t.log().contains(&"tba extra".to_string()));
    let facts = vec![fact(tiny(), "extra")];
    let mut t = Table::new(tiny(), options(facts), TestHost::new(tiny()));
    assert_eq!(t.host.asked_count("extra"), 1);
    let log = t.log();
    assert_eq!(
        between(&log, "step ready", "end step ready"),
        ["tba extra", "tba ready"]
    );
}

#[rstest]
#[case::zero(0, 0)]
#[case::within(2, 2)]
#[case::maximum(3, 3)]
#[case::above(9, 3)]
#[case::far_above(u16::MAX, 3)]
fn an_answer_is_clamped_to_the_action_maximum_and_stored_in_its_counter(
    #[case] answer: u16,
    #[case] stored: u16,
) {
    let host = TestHost::new(tiny()).answer("ask", answer);
    let mut t = at(2, 3, P1, "main", host);
    assert_eq!(
        t.log(),
        [
            "phase main #1".to_string(),
            format!("tba ask={stored}"),
            "prio P1 opened".to_string(),
        ]
    );
    assert_eq!(t.counter("asked"), stored);
}

#[test]
fn triggers_from_a_step_without_priority_wait_for_the_next_window() {
    let host = TestHost::new(tiny())
        .trigger_on_action("ready", P1, 1)
        .trigger_on_step("ready", P2, 2);
    let mut t = at(2, 3, P1, "ready", host);
    assert_eq!(
        t.log(),
        [
            "step ready",
            "tba ready",
            "end step ready",
            "step upkeep",
            "trigger P1 #1",
            "trigger P2 #2",
            "prio P1 opened",
        ]
    );
}

#[test]
fn triggers_caused_by_a_play_go_on_the_stack_before_anyone_receives_priority() {
    let host = TestHost::new(tiny()).trigger_on_play("quick", P2, 9);
    let mut t = at(2, 3, P1, "main", host);
    t.log();
    t.play(P1, "quick", 1).unwrap();
    assert_eq!(
        t.log(),
        ["push P1 quick #1", "trigger P2 #9", "prio P1 acted"]
    );
    assert_eq!(
        t.host.calls.last().map(String::as_str),
        Some("played P1 quick #1 t3 P1 main r0")
    );
    // A special action is a play too.
    t.pass_round();
    t.pass_round();
    t.play(P1, "special", 2).unwrap();
    assert_eq!(
        t.host.calls.last().map(String::as_str),
        Some("played P1 special #2 t3 P1 main r0")
    );
    assert_eq!(t.log().last().map(String::as_str), Some("prio P1 acted"));
}

#[test]
fn an_if_pending_window_opens_only_for_a_pending_trigger_and_the_step_repeats() {
    // Nothing pending: nobody gets priority, the turn ends.
    let mut t = at2("end");
    let log = t.log();
    assert_eq!(between(&log, "phase end #1", "end phase end"), ["tba tidy"]);
    assert_eq!(t.game.turn(), 4);

    // A trigger from the action: the window opens; once it closes the phase
    // runs again, and the hook is asked again with the repeat count.
    let host = TestHost::new(tiny()).trigger_on_action("tidy", P2, 5);
    let mut t = at(2, 3, P1, "end", host);
    assert_eq!(
        t.log(),
        [
            "phase end #1",
            "tba tidy",
            "trigger P2 #5",
            "prio P1 opened"
        ]
    );
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "resolve P2 trigger #5",
            "prio P1 resolved"
        ]
    );
    t.pass_round();
    assert_eq!(
        t.log()[..5],
        [
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "tba tidy",
            "end phase end"
        ]
    );
    assert_eq!(
        t.host.calls[t.host.calls.len() - 4..],
        [
            "tba tidy t3 P1 end r1",
            "began t4 P2 ready r0",
            "tba ready t4 P2 ready r0",
            "began t4 P2 upkeep r0",
        ]
    );
}

// --- priority ------------------------------------------------------------------------------

#[rstest]
#[case::two_players(2, P1, &["P1", "P2"])]
#[case::two_players_p2_active(2, P2, &["P2", "P1"])]
#[case::three_players(3, P1, &["P1", "P2", "P3"])]
#[case::three_players_p3_active(3, P3, &["P3", "P1", "P2"])]
#[case::four_players_p3_active(4, P3, &["P3", "P4", "P1", "P2"])]
fn priority_goes_round_the_table_from_the_active_player_and_all_passing_closes_the_window(
    #[case] players: u8,
    #[case] active: PlayerId,
    #[case] order: &[&str],
) {
    let mut t = at(players, 9, active, "upkeep", TestHost::new(tiny()));
    let mut holders = Vec::new();
    while t.step_id() == "upkeep" {
        holders.push(t.holder().to_string());
        t.pass();
    }
    assert_eq!(holders, order);
    assert_eq!((t.step_id(), t.holder()), ("main", active));
}

#[test]
fn the_actor_keeps_priority_and_a_play_restarts_the_round_of_passes() {
    let mut t = at2("upkeep");
    t.log();
    t.play(P1, "quick", 1).unwrap();
    t.pass(); // P1
    t.play(P2, "quick", 2).unwrap();
    t.play(P2, "quick", 3).unwrap();
    assert_eq!(
        t.log(),
        [
            "push P1 quick #1",
            "prio P1 acted",
            "pass P1",
            "prio P2 passed",
            "push P2 quick #2",
            "prio P2 acted",
            "push P2 quick #3",
            "prio P2 acted",
        ]
    );
    t.pass(); // P2
    assert_eq!(t.game.stack().len(), 3, "P1's earlier pass does not count");
    t.pass(); // P1
    assert_eq!(t.game.stack().len(), 2);
}

#[test]
fn all_passing_resolves_only_the_top_object_and_the_active_player_gets_priority() {
    let mut t = at(3, 9, P1, "upkeep", TestHost::new(tiny()));
    t.play(P1, "quick", 1).unwrap();
    t.pass(); // P1
    t.pass(); // P2
    t.play(P3, "quick", 3).unwrap();
    t.log();
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P3",
            "prio P1 passed",
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "resolve P3 quick #3",
            "prio P1 resolved",
        ]
    );
    assert_eq!(t.game.stack().len(), 1);
    t.pass_round();
    assert_eq!(t.log().last().map(String::as_str), Some("prio P1 resolved"));
    assert!(t.game.stack().is_empty());
    assert_eq!(
        t.step_id(),
        "upkeep",
        "a resolution does not close the window"
    );
    t.pass_round();
    assert_eq!(t.step_id(), "main");
}

#[test]
fn a_trigger_while_someone_holds_priority_goes_on_at_once_and_restarts_the_round() {
    let mut t = at2("upkeep");
    t.pass(); // P1 passed, P2 holds
    t.log();
    t.command("report_trigger", |g, _, e| g.report_trigger(P1, 9, e))
        .unwrap();
    assert_eq!(t.log(), ["trigger P1 #9"]);
    assert_eq!(t.holder(), P2, "the holder does not change");
    t.pass();
    assert_eq!(t.log(), ["pass P2", "prio P1 passed"]);
    t.pass();
    assert_eq!(
        t.log(),
        ["pass P1", "resolve P1 trigger #9", "prio P1 resolved"]
    );
}

#[test]
fn waiting_triggers_go_on_in_turn_order_from_the_active_player() {
    let host = TestHost::new(tiny())
        .trigger_on_step("upkeep", P3, 30)
        .trigger_on_step("upkeep", P1, 10)
        .trigger_on_step("upkeep", P2, 20)
        .trigger_on_step("upkeep", P2, 21);
    let mut t = at(3, 9, P2, "upkeep", host);
    assert_eq!(
        t.log(),
        [
            "step upkeep",
            "trigger P2 #20",
            "trigger P2 #21",
            "trigger P3 #30",
            "trigger P1 #10",
            "prio P2 opened",
        ]
    );
    for _ in 0..4 {
        t.pass_round();
    }
    let resolved: Vec<String> = t
        .log()
        .into_iter()
        .filter(|e| e.starts_with("resolve"))
        .collect();
    assert_eq!(
        resolved,
        [
            "resolve P1 trigger #10",
            "resolve P3 trigger #30",
            "resolve P2 trigger #21",
            "resolve P2 trigger #20",
        ]
    );
}

// --- legal actions -------------------------------------------------------------------------

/// Every pass and play of every player (and a few players not in the game)
/// is listed by `legal_actions` exactly when `apply` accepts it.
fn check_legal_actions(game: &Game) {
    for seat in 0..6 {
        let player = PlayerId(seat);
        let listed: Vec<Action> = game.legal_actions(player).collect();
        let candidates = std::iter::once(Action::Pass { player }).chain(tiny().timing().ids().map(
            move |timing| Action::Play {
                player,
                timing,
                label: 0,
            },
        ));
        for action in candidates {
            let accepted = game
                .clone()
                .apply(action, &mut NoHost, &mut Events::default())
                .is_ok();
            let is_listed = listed.iter().any(|a| match (a, &action) {
                (Action::Play { timing: x, .. }, Action::Play { timing: y, .. }) => x == y,
                (a, b) => a == b,
            });
            assert_eq!(
                is_listed, accepted,
                "{action:?} listed {is_listed}, accepted {accepted}"
            );
        }
    }
}

#[rstest]
#[case::two_players(2, 3)]
#[case::three_players(3, 5)]
#[case::four_players(4, 11)]
fn legal_actions_are_exactly_the_actions_apply_accepts(#[case] players: u8, #[case] seed: u64) {
    let mut game = Game::new(tiny(), &GameOptions::players(players)).unwrap();
    game.set_turn_limit(6);
    let mut policy = RandomPolicy::new(seed);
    let mut events = Events::default();
    game.start(&mut policy, &mut events);
    while game.status() == Status::Running {
        check_legal_actions(&game);
        let action = policy.decide(&game);
        game.apply(action, &mut policy, &mut events).unwrap();
    }
    check_legal_actions(&game);
}

use crate::support;

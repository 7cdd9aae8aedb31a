//! What the turn transitions (`src/turn.rs`) and the compiled program do,
//! pinned where mutation testing (scripts/mutants.sh, docs/reliability.md)
//! found a change that no other test saw. Each test names the mutant it
//! catches; all use small specs written here.

use std::sync::LazyLock;

use turnspec_engine::policy::{AllPass, RandomPolicy, decide_and_apply, play_out};
use turnspec_engine::{
    Action, Event, Game, GameOptions, MAX_REPEATS_WITHOUT_PRIORITY, NoHost, PlayerId, RuleError,
    Status, TimingFailure,
};
use turnspec_spec::Spec;

use support::*;

use crate::support;

const P1: PlayerId = PlayerId(0);

/// A main phase with a once-per-phase play, and an attack that starts an
/// on-demand combat phase from it.
const ON_DEMAND: &str = r#"
[game]
name = "On demand"
players = { min = 2, max = 2 }

[counters.casts]
reset = "phase"

[timing.sorcery]
who = "active_player"
stack = "empty"
during = ["main"]
limit = { counter = "casts", max = 1, rule = "R-ONCE" }

[timing.attack]
who = "active_player"
stack = "empty"
during = ["main"]
effect = "start_phase"
phase = "combat"

[[phase]]
id = "main"
sequence = [{ window = "always", name = "main" }]

[[phase]]
id = "combat"
on_demand = true
sequence = [{ window = "always", name = "combat" }]

[[phase]]
id = "ending"
sequence = [{ window = "always", name = "ending" }]
"#;

static ON_DEMAND_SPEC: LazyLock<Spec> = LazyLock::new(|| load("on_demand.toml", ON_DEMAND));

/// A phase started by a play counts with the phase it interrupted: a
/// once-per-phase play made before an attack is still used up after it
/// (docs/spec-format.md, `on_demand`). Catches `phase_began` resetting the
/// per-phase counters of an on-demand phase (`!GENERAL || ...` with the
/// `!` deleted).
#[test]
fn a_once_per_phase_limit_holds_after_an_on_demand_phase() {
    for program in [true, false] {
        let options = GameOptions::players(2).with_turn_program(program);
        let mut t = Table::new(&ON_DEMAND_SPEC, options, TestHost::new(&ON_DEMAND_SPEC));
        assert_eq!(t.game.turn(), 1);
        assert_eq!(t.holder(), P1);
        t.play(P1, "sorcery", 1).unwrap();
        t.pass_round(); // the sorcery resolves
        assert_eq!(t.counter("casts"), 1);
        t.play(P1, "attack", 2).unwrap();
        t.pass_round(); // the combat phase ends, back to main
        let log = t.log();
        assert!(
            log.contains(&"phase combat #1".to_string()),
            "program {program}: {log:#?}"
        );
        assert_eq!(t.step_id(), "main", "program {program}: {log:#?}");
        assert_eq!(t.counter("casts"), 1, "program {program}: {log:#?}");
        let err = t.refused(Action::Play {
            player: P1,
            timing: t.timing("sorcery"),
            label: 3,
        });
        assert!(
            matches!(failure_of(err), TimingFailure::LimitReached { .. }),
            "program {program}"
        );
    }
}

fn failure_of(err: RuleError) -> TimingFailure {
    match err {
        RuleError::Timing { failure, .. } => failure,
        other => panic!("not a timing refusal: {other:?}"),
    }
}

/// A turn whose steps are there or not, and repeat or not, by each kind of
/// test the compiled program keeps (a counter kept for the game, a
/// per-player counter, the turn, the seat, the starting player, the
/// repeat count, whether a window opened, the stack, pairs of them and
/// anything else through the spec's condition tree), each true on some
/// turns and false on others; and phases of one kind, counted together,
/// some left out or skipped.
const CONDITIONS: &str = r#"
[game]
name = "Conditions"
players = { min = 2, max = 4 }

[counters.asked]
reset = "turn"

[counters.mine]
reset = "turn"
per = "player"

[timing.quick]
who = "any"

[timing.slow]
who = "active_player"
stack = "empty"
limit = { counter = "mine", max = 2 }

[[phase]]
id = "main"

  [[phase.step]]
  id = "ask"
  sequence = [
    { id = "ask", answer = { counter = "asked", max = 3 } },
    { window = "always", name = "ask" },
  ]

  [[phase.step]]
  id = "counter"
  only_if = "counter.asked >= 2"
  sequence = [{ window = "always", name = "counter" }]

  [[phase.step]]
  id = "per_player"
  only_if = "counter.mine > 0"
  sequence = [{ window = "always", name = "per player" }]

  [[phase.step]]
  id = "starting"
  only_if = "starting_player"
  sequence = [{ window = "always", name = "starting" }]

  [[phase.step]]
  id = "not_starting"
  skip = [{ if = "starting_player", rule = "R-SKIP" }]
  sequence = [{ window = "always", name = "not starting" }]

  [[phase.step]]
  id = "late"
  only_if = "turn > 4"
  sequence = [{ window = "always", name = "late" }]

  [[phase.step]]
  id = "seat"
  only_if = "seat == 2"
  sequence = [{ window = "always", name = "seat" }]

  [[phase.step]]
  id = "pair"
  only_if = "counter.asked > 0 and turn < 7"
  sequence = [{ window = "always", name = "pair" }]

  [[phase.step]]
  id = "both"
  only_if = "starting_player and stack_empty"
  sequence = [{ window = "always", name = "both" }]

  [[phase.step]]
  id = "tree"
  only_if = "turn == 3 or counter.asked == 1"
  sequence = [{ window = "always", name = "tree" }]

  [[phase.step]]
  id = "again"
  repeat = { if = "repeat_count < counter.asked" }
  sequence = [{ window = "always", name = "again" }]

  [[phase.step]]
  id = "twice"
  repeat = { if = "repeat_count == 0 and not starting_player" }
  sequence = [{ window = "if_pending", name = "twice" }]

  [[phase.step]]
  id = "deep"
  sequence = [
    { id = "push", answer = { play = "quick" } },
    { id = "deeper", if = "stack_depth > 0", answer = { max = 2 } },
    { id = "deepest", if = "stack_depth == 0 and turn > 2", answer = { max = 2 } },
    { window = "if_pending", name = "deep" },
  ]

  [[phase.step]]
  id = "cleanup"
  repeat = { if = "window_opened" }
  sequence = [
    { id = "tidy", answer = { max = 1 } },
    { window = "if_pending", name = "after" },
  ]

# Two more phases of the first one's kind, left out or skipped on some
# turns: the events number them (`phase second #2`), and a step reads the
# number.
[[phase]]
id = "second"
counts_as = "main"
only_if = "turn != 5"
skip = [{ if = "turn == 6", rule = "R-SECOND" }]

  [[phase.step]]
  id = "numbered"
  only_if = "phase_number == 2"
  sequence = [{ window = "always", name = "numbered" }]

[[phase]]
id = "third"
counts_as = "main"
skip = [{ if = "counter.asked == 3", rule = "R-THIRD" }]
sequence = [{ window = "always", name = "third" }]
"#;

static CONDITIONS_SPEC: LazyLock<Spec> = LazyLock::new(|| load("conditions.toml", CONDITIONS));

fn random_game(spec: &Spec, options: GameOptions, seed: u64) -> Vec<Event> {
    let mut game = Game::new(spec, &options).unwrap();
    game.set_turn_limit(9);
    let mut events = Vec::new();
    let mut policy = RandomPolicy::new(seed);
    policy.trigger_chance = 64;
    game.start(&mut policy, &mut events);
    play_out(&mut game, &mut policy, &mut events);
    assert_eq!(game.status(), Status::TurnLimit);
    events
}

/// Both tiers play the same games of a turn built of every kind of test
/// the program keeps (catches a test the program evaluates other than as
/// the spec's condition says: `holds`, `flag`, `value` and the rest of
/// `compiled/conditions.rs`; and a phase the program begins or skips
/// counted under another kind: `kind & (MAX_PHASE_KINDS - 1)` in
/// `Op::PhaseBegin` as `^`).
#[test]
fn the_program_evaluates_each_kind_of_test_as_the_interpreter_does() {
    let spec = &*CONDITIONS_SPEC;
    for players in 2..=4u8 {
        for teams in [false, true] {
            if teams && players != 4 {
                continue;
            }
            for seed in 0..16 {
                let mut options = GameOptions::players(players);
                if teams {
                    options.teams = vec![0, 1, 0, 1];
                }
                let compiled = random_game(spec, options.clone().with_turn_program(true), seed);
                let interpreted = random_game(spec, options.with_turn_program(false), seed);
                assert_eq!(
                    compiled, interpreted,
                    "{players} players, teams {teams}, seed {seed}"
                );
            }
        }
    }
}

/// The conditions' game in teams (P1 and P3 against P2 and P4), where P1,
/// who took the first turn for their team, leaves on turn 2: P3 now stands
/// for the team, and the team's turns are still the starting player's.
fn team_game(program: bool) -> Vec<Event> {
    let spec = &*CONDITIONS_SPEC;
    let mut options = GameOptions::players(4).with_turn_program(program);
    options.teams = vec![0, 1, 0, 1];
    let mut game = Game::new(spec, &options).unwrap();
    game.set_turn_limit(8);
    let mut events = Vec::new();
    game.start(&mut NoHost, &mut events);
    while game.turn() < 2 {
        let player = game.holder().unwrap();
        game.apply(Action::Pass { player }, &mut NoHost, &mut events)
            .unwrap();
    }
    game.apply(Action::Leave { player: P1 }, &mut NoHost, &mut events)
        .unwrap();
    play_out(&mut game, &mut AllPass, &mut events);
    assert_eq!(game.status(), Status::TurnLimit);
    events
}

/// `starting_player` in teams is whether the active team is the starting
/// player's, also once the seat that started has left (catches the
/// program's shortcut `active == starting` taken with teams: the match
/// guard `!s.has_teams` in `flag` as `true`, or with its `!` deleted).
#[test]
fn starting_player_in_teams_is_the_starting_team_after_its_first_seat_left() {
    let compiled = team_game(true);
    assert!(compiled == team_game(false), "the tiers differ");
    let spec = &*CONDITIONS_SPEC;
    let starting = spec.step_by_id("starting").unwrap();
    let left = compiled
        .iter()
        .position(|e| matches!(e, Event::Left { .. }))
        .expect("P1 left");
    // Team 0 takes turns 3, 5 and 7: each has the starting player's step.
    let began = compiled[left..]
        .iter()
        .filter(|e| matches!(e, Event::StepBegan { step, .. } if *step == starting))
        .count();
    assert_eq!(began, 3);
}

/// A step followed by four steps that are skipped from turn 3 on, then a
/// step whose window always opens: one more skipped step than a
/// superinstruction goes past (`MAX_HOP_SKIPS`).
const FOUR_SKIPS: &str = r#"
[game]
name = "Four skips"
players = { min = 2, max = 2 }

[[phase]]
id = "main"

  [[phase.step]]
  id = "first"
  sequence = [{ window = "always", name = "first" }]

  [[phase.step]]
  id = "s1"
  skip = [{ if = "turn > 2", rule = "S 1" }]
  sequence = [{ window = "always", name = "s1" }]

  [[phase.step]]
  id = "s2"
  skip = [{ if = "turn > 2", rule = "S 2" }]
  sequence = [{ window = "always", name = "s2" }]

  [[phase.step]]
  id = "s3"
  skip = [{ if = "turn > 2", rule = "S 3" }]
  sequence = [{ window = "always", name = "s3" }]

  [[phase.step]]
  id = "s4"
  skip = [{ if = "turn > 2", rule = "S 4" }]
  sequence = [{ window = "always", name = "s4" }]

  [[phase.step]]
  id = "last"
  sequence = [{ window = "always", name = "last" }]
"#;

/// Four skippable steps in a row compile (the superinstruction planner
/// stops at `MAX_HOP_SKIPS` and leaves them to the loop) and play alike on
/// both tiers, each skipped once a turn from turn 3. Catches the planner's
/// match guard `count < MAX_HOP_SKIPS && skips.len > 0` as `true` or with
/// `||` (`hop_shape` then writes past its array of skipped steps).
#[test]
fn four_skippable_steps_in_a_row_compile_and_play_alike_on_both_tiers() {
    let spec = load("four_skips.toml", FOUR_SKIPS);
    let mut streams = Vec::new();
    for program in [true, false] {
        let options = GameOptions::players(2).with_turn_program(program);
        let mut game = Game::new(&spec, &options).unwrap();
        game.set_turn_limit(6);
        let mut events = Vec::new();
        game.start(&mut NoHost, &mut events);
        play_out(&mut game, &mut AllPass, &mut events);
        assert_eq!(game.status(), Status::TurnLimit);
        let skipped = events
            .iter()
            .filter(|e| matches!(e, Event::Skipped { .. }))
            .count();
        assert_eq!(skipped, 4 * 4, "program {program}");
        streams.push(events);
    }
    assert!(streams[0] == streams[1], "the tiers differ");
}

/// Steps there or not by a variant and by facts, which the program folds
/// when it is built: the second of two variants, and the second of two
/// facts, read by two conditions.
const FOLDED: &str = r#"
[game]
name = "Folded"
players = { min = 2, max = 2 }

[variants.first]
[variants.second]

[facts.a]
[facts.b]

[[phase]]
id = "main"

  [[phase.step]]
  id = "open"
  sequence = [{ window = "always", name = "open" }]

  [[phase.step]]
  id = "if_second"
  only_if = "variant.second"
  sequence = [{ window = "always", name = "second" }]

  [[phase.step]]
  id = "if_b"
  only_if = "fact.b"
  sequence = [{ window = "always", name = "b" }]

  [[phase.step]]
  id = "unless_b"
  skip = [{ if = "fact.b", rule = "F 1" }]
  sequence = [{ window = "always", name = "not b" }]

  [[phase.step]]
  id = "two_skips"
  skip = [
    { if = "turn == 3", rule = "T 1" },
    { if = "turn == 7", rule = "T 2" },
  ]
  sequence = [{ window = "always", name = "two skips" }]

[timing.elect]
who = "active_player"
effect = "special"
enters = "bonus"

# Elected by a play, and then only from turn 4 on.
[[phase]]
id = "bonus"
optional = true
only_if = "turn > 3"
sequence = [{ window = "always", name = "bonus" }]
"#;

/// What the program folds when it is built (variants, facts) is folded
/// right, and the program is built again when a fact it folded changes:
/// both tiers play alike, with the second variant on and the second fact
/// set on turn 4 and cleared on turn 6. Catches `state.variants >> i & 1`
/// as `<<`, and the bit of a fact read as `1 >> i`, or the facts each
/// condition read added to `facts_read` with `^=` (fact b is read by two
/// conditions; one condition reading a fact twice is the next test's).
/// With a step
/// skipped by the second of two skip entries, and an optional phase with
/// a condition of its own, it also catches the skip list cut after its
/// first entry (`t == Test::Always` as `!=`) and the pair of "elected and
/// the condition" numbered wrong (`pairs.len() as u16 - 1` as `+ 1` or
/// `/ 1`).
#[test]
fn what_the_program_folds_follows_the_variants_and_facts() {
    let spec = load("folded.toml", FOLDED);
    let b = spec.fact_by_id("b").unwrap();
    let second = spec.variant_by_id("second").unwrap();
    let mut streams = Vec::new();
    for program in [true, false] {
        let options = GameOptions::players(2)
            .with_turn_program(program)
            .with_variants(vec![second]);
        let mut game = Game::new(&spec, &options).unwrap();
        game.set_turn_limit(8);
        let mut events = Vec::new();
        game.start(&mut NoHost, &mut events);
        let elect = spec.timing_by_id("elect").unwrap();
        let mut elected_in = 0;
        while game.status() == Status::Running {
            let turn = game.turn();
            match turn {
                4 if !game.fact(b) => game.set_fact(b, true, &mut events),
                6 if game.fact(b) => game.set_fact(b, false, &mut events),
                // The bonus phase is elected on turns 2, 5 and 6.
                2 | 5 | 6 if elected_in != turn => {
                    elected_in = turn;
                    let player = game.active_player();
                    game.apply(
                        Action::Play {
                            player,
                            timing: elect,
                            label: 1,
                        },
                        &mut NoHost,
                        &mut events,
                    )
                }
                _ => {
                    let player = game.holder().unwrap();
                    game.apply(Action::Pass { player }, &mut NoHost, &mut events)
                }
            }
            .unwrap();
        }
        assert_eq!(game.status(), Status::TurnLimit);
        let bonus = spec.phase_by_id("bonus").unwrap();
        let bonuses = events
            .iter()
            .filter(|e| matches!(e, Event::PhaseBegan { phase, .. } if *phase == bonus))
            .count();
        // Elected on turns 2, 5 and 6, and there from turn 4 on.
        assert_eq!(bonuses, 2, "program {program}");
        let began = |id: &str| {
            let step = spec.step_by_id(id).unwrap();
            events
                .iter()
                .filter(|e| matches!(e, Event::StepBegan { step: s, .. } if *s == step))
                .count()
        };
        // Every turn has the second variant's step; turns 4 and 5 the
        // fact's (set in turn 4's first step, before `if_b` begins).
        assert_eq!(began("if_second"), 8, "program {program}");
        assert_eq!(began("if_b"), 2, "program {program}");
        assert_eq!(began("unless_b"), 6, "program {program}");
        // Skipped on turns 3 and 7, by the first and the second entry.
        assert_eq!(began("two_skips"), 6, "program {program}");
        streams.push(events);
    }
    assert!(streams[0] == streams[1], "the tiers differ");
}

/// A condition that reads one fact twice (once in each branch): the
/// program records the fact as read once it is read at all, so setting it
/// rebuilds the program. Catches the bit of a fact read
/// (`read | 1 << i`, `Compiler::test`) as `^`, which a second read of the
/// same fact cleared: the program then kept the step folded away.
#[test]
fn a_fact_read_twice_in_one_condition_rebuilds_the_program_when_set() {
    let spec = load(
        "twice.toml",
        r#"
[game]
name = "Twice"
players = { min = 2, max = 2 }

[facts.a]

[[phase]]
id = "main"

  [[phase.step]]
  id = "open"
  sequence = [{ window = "always", name = "open" }]

  [[phase.step]]
  id = "twice"
  only_if = "(fact.a and turn > 1) or (fact.a and turn > 2)"
  sequence = [{ window = "always", name = "twice" }]
"#,
    );
    let a = spec.fact_by_id("a").unwrap();
    let twice = spec.step_by_id("twice").unwrap();
    let mut streams = Vec::new();
    for program in [true, false] {
        let options = GameOptions::players(2).with_turn_program(program);
        let mut game = Game::new(&spec, &options).unwrap();
        game.set_turn_limit(6);
        let mut events = Vec::new();
        game.start(&mut NoHost, &mut events);
        while game.status() == Status::Running {
            if game.turn() == 4 && !game.fact(a) {
                game.set_fact(a, true, &mut events).unwrap();
                continue;
            }
            let player = game.holder().unwrap();
            game.apply(Action::Pass { player }, &mut NoHost, &mut events)
                .unwrap();
        }
        let began = events
            .iter()
            .filter(|e| matches!(e, Event::StepBegan { step, .. } if *step == twice))
            .count();
        // Set in turn 4's first window: turns 4, 5 and 6.
        assert_eq!(began, 3, "program {program}");
        streams.push(events);
    }
    assert!(streams[0] == streams[1], "the tiers differ");
}

/// A turn-based action whose answer goes to a counter kept per player.
const PER_PLAYER_ANSWER: &str = r#"
[game]
name = "Per-player answer"
players = { min = 2, max = 2 }

[counters.rolled]
per = "player"
reset = "game"

[[phase]]
id = "main"
actions = [{ id = "roll", answer = { counter = "rolled", max = 6 } }]
priority = "always"
"#;

static PER_PLAYER_ANSWER_SPEC: LazyLock<Spec> =
    LazyLock::new(|| load("per_player_answer.toml", PER_PLAYER_ANSWER));

/// The answer of an action goes to the active player's slot of a counter
/// kept per player, on the program as on the interpreter. Catches the
/// compiler taking a per-player counter for one kept for the whole game
/// (`Compiler::stage`'s filter, `&&` as `||`): the program then stored
/// every answer in the counter's shared slot.
#[test]
fn an_answer_to_a_per_player_counter_goes_to_the_active_players_slot() {
    let spec = &*PER_PLAYER_ANSWER_SPEC;
    let rolled = spec.counter_by_id("rolled").unwrap();
    let mut streams = Vec::new();
    for program in [true, false] {
        let options = GameOptions::players(2).with_turn_program(program);
        let mut game = Game::new(spec, &options).unwrap();
        // P1 takes turns 1, 3 and 5: the program runs turns 3 to 5.
        game.set_turn_limit(5);
        let mut host = TestHost::new(spec).answer("roll", 4);
        let mut events = Vec::new();
        game.start(&mut host, &mut events);
        while let Some(player) = game.holder() {
            game.apply(Action::Pass { player }, &mut host, &mut events)
                .unwrap();
        }
        let slots = [PlayerId(0), PlayerId(1)].map(|p| game.counter_of(rolled, p));
        assert_eq!(slots, [Some(4), Some(4)], "program {program}");
        streams.push((events, game.state().clone()));
    }
    assert!(streams[0] == streams[1], "the tiers differ");
}

/// A turn of more ops than a `u16` numbers (33,000 steps, two ops each)
/// is not compiled: the interpreter plays it, and both tiers give the
/// same game. Catches the program's size check (`ops.len() > u16::MAX`,
/// `Compiler::finish`) as `==`: the program then ran, and the window at
/// its end resumed at an op number cut to 16 bits.
#[test]
fn a_turn_too_long_to_number_runs_on_the_interpreter() {
    let mut text = String::from(
        "[game]\nname = \"Long\"\nplayers = { min = 2, max = 2 }\n\n[[phase]]\nid = \"main\"\n",
    );
    for i in 0..33_000 {
        text.push_str(&format!("  [[phase.step]]\n  id = \"s{i}\"\n"));
    }
    text.push_str("  [[phase.step]]\n  id = \"last\"\n  sequence = [{ window = \"always\", name = \"last\" }]\n");
    let spec = load("long.toml", &text);
    let mut streams = Vec::new();
    for program in [true, false] {
        let options = GameOptions::players(2).with_turn_program(program);
        let mut game = Game::new(&spec, &options).unwrap();
        game.set_turn_limit(4);
        let mut events = Vec::new();
        game.start(&mut NoHost, &mut events);
        // Four turns of one window, two passes each: a program that lost
        // its place would go round for ever.
        for _ in 0..12 {
            if game.status() != Status::Running {
                break;
            }
            decide_and_apply(&mut game, &mut AllPass, &mut events).unwrap();
        }
        assert_eq!(game.status(), Status::TurnLimit, "program {program}");
        #[cfg(debug_assertions)]
        assert_eq!(game.fused_transitions(), 0, "program {program}");
        streams.push(events);
    }
    assert!(streams[0] == streams[1], "the tiers differ");
}

/// Turns in which no window ever opens (the only one is left out unless a
/// fact the host never sets), with no turn limit; with `REPEATS`, the
/// ending step repeats 255 times a turn.
const WINDOWLESS: &str = r#"
[game]
name = "Windowless"
players = { min = 2, max = 2 }

[facts.open]

[[phase]]
id = "main"
only_if = "fact.open"
priority = "always"

[[phase]]
id = "ending"
actions = [{ id = "tidy" }]
REPEATS
"#;

/// Turn after turn with no decision stops the game as `Stalled` within a
/// bounded number of moves (docs/reliability.md, "Turns that never end":
/// the backstop), on both tiers, whether the moves are new turns or
/// repeated steps. Catches the program's budget of jumps back not
/// counting down: `*budget -= 1` in `begin_next_turn` (a new turn) or
/// `budget -= 1` in `Op::StepEnd` (a repeat) as `+=` or `/=`, and
/// `STALL_BUDGET / 32` as `* 32` (the game then runs on for ever, or
/// for tens of thousands of turns).
#[test]
fn turns_without_a_decision_stall_the_game_on_both_tiers() {
    for repeats in ["", r#"repeat = { if = "repeat_count < 255" }"#] {
        let spec = load("windowless.toml", &WINDOWLESS.replace("REPEATS", repeats));
        for program in [true, false] {
            let options = GameOptions::players(2).with_turn_program(program);
            let mut game = Game::new(&spec, &options).unwrap();
            game.start(&mut NoHost, &mut ());
            let at = format!("program {program}, {repeats:?}: turn {}", game.turn());
            assert_eq!(game.status(), Status::Stalled, "{at}");
            let most = if repeats.is_empty() { 400_000 } else { 2_000 };
            assert!(game.turn() > 50 && game.turn() < most, "{at}");
        }
    }
}

/// Two phases; from turn 4 on, the ending phase's step repeats for ever
/// with no window.
const ENDLESS_LATER: &str = r#"
[game]
name = "Endless later"
players = { min = 2, max = 2 }

[[phase]]
id = "main"
priority = "always"

[[phase]]
id = "ending"
actions = [{ id = "tidy" }]
repeat = { if = "turn > 3", rule = "L 4" }
"#;

/// A turn that never ends stops the game as `NeverEnds` after
/// `MAX_REPEATS_WITHOUT_PRIORITY` quiet repeats, naming the step, when the
/// program runs the turn too (tests/engine/endless.rs has it on a first turn, the
/// interpreter's). Catches the program's count of quiet repeats
/// (`Op::StepEnd`): `!s.window_opened` with the `!` deleted, `+= 1` as
/// `*= 1`, and `>` as `==` or `>=`.
#[test]
fn a_turn_the_program_runs_that_never_ends_stops_as_never_ends() {
    let spec = load("endless_later.toml", ENDLESS_LATER);
    let step = spec.step_by_id("ending").unwrap();
    let mut streams = Vec::new();
    for program in [true, false] {
        let options = GameOptions::players(2).with_turn_program(program);
        let mut game = Game::new(&spec, &options).unwrap();
        let mut events = Vec::new();
        game.start(&mut NoHost, &mut events);
        for _ in 0..20 {
            if game.status() != Status::Running {
                break;
            }
            let player = game.holder().unwrap();
            game.apply(Action::Pass { player }, &mut NoHost, &mut events)
                .unwrap();
        }
        assert_eq!(game.status(), Status::NeverEnds, "program {program}");
        let endless = game.endless_turn().expect("the loop is named");
        assert_eq!((endless.turn, endless.step), (4, step), "program {program}");
        let turn_4 = events
            .iter()
            .position(|e| matches!(e, Event::TurnBegan { turn: 4, .. }))
            .unwrap();
        // `tidy` runs each time the step-less phase's step begins.
        let begun = events[turn_4..]
            .iter()
            .filter(|e| matches!(e, Event::TurnAction { .. }))
            .count();
        assert_eq!(
            begun,
            MAX_REPEATS_WITHOUT_PRIORITY as usize + 1,
            "program {program}"
        );
        streams.push(events);
    }
    assert_eq!(streams[0], streams[1]);
}

//! How a game ends (src/ending.rs): the last side left wins, the host
//! declares an ending, and the spec's checks at a turn's beginning, a
//! step's end, a turn's end and when the host sets a counter. Every case
//! runs on both tiers (the turn program and the interpreter), which must
//! give the same events and the same outcome.

use std::sync::LazyLock;

use turnspec_engine::policy::{AllPass, decide_and_apply, play_out};
use turnspec_engine::{Event, Game, GameOptions, NoHost, Outcome, PlayerId, RuleError, Status};
use turnspec_spec::Spec;

use support::*;

use crate::support;

const P1: PlayerId = PlayerId(0);
const P2: PlayerId = PlayerId(1);
const P3: PlayerId = PlayerId(2);

/// Points the host sets; strikes the host sets; a turn-based action whose
/// answer is stored in `score` each turn. Three checked endings, one at
/// each point of the turn, and two the host declares.
const ENDINGS: &str = r#"
[game]
name = "Endings"
players = { min = 2, max = 4 }

[counters.points]
per = "player"
reset = "game"

[counters.strikes]
per = "player"
reset = "game"

[counters.score]
reset = "game"

[game_end]
last_side_rule = "R-LAST"
leave_rule = "R-LEAVE"

[endings.ten_points]
result = "wins"
if = "counter.points >= 10"
for = "each_player"
at = ["step_end", "counter_set"]
rule = "R-POINTS"

[endings.struck_out]
result = "loses"
if = "counter.strikes >= 3"
at = ["turn_start"]
rule = "R-STRIKES"

[endings.overheated]
result = "loses"
if = "counter.strikes >= 5"
for = "each_player"
at = ["step_end"]
rule = "R-HEAT"

[endings.high_score]
result = "draw"
if = "counter.score >= 50"
at = ["turn_end"]
rule = "R-SCORE"

[endings.conceded]
result = "loses"
rule = "R-CONCEDE"

[endings.declared_draw]
result = "draw"
rule = "R-DRAW"

[[phase]]
id = "upkeep"
actions = [{ id = "score", answer = { counter = "score", max = 100 } }]

[[phase]]
id = "main"
sequence = [{ window = "always", name = "main" }]

[[phase]]
id = "end"
sequence = [{ window = "always", name = "end" }]
"#;

static SPEC: LazyLock<Spec> = LazyLock::new(|| load("endings.toml", ENDINGS));

/// A game at turn 5 (past every first turn, so the program runs it when
/// `program` is on), P1 active in the main phase.
fn game(players: u8, program: bool) -> Game {
    let options = GameOptions::players(players)
        .with_turn_program(program)
        .with_start_at(start_at(&SPEC, 5, P1, "main"));
    let mut game = Game::new(&SPEC, &options).unwrap();
    game.set_turn_limit(40);
    game
}

fn counter(id: &str) -> turnspec_model::CounterId {
    SPEC.counter_by_id(id).unwrap()
}

fn ending(id: &str) -> turnspec_model::EndingId {
    SPEC.ending_by_id(id).unwrap()
}

/// Runs `script` on a fresh game on each tier and checks both give the
/// same events and status; returns them.
fn both_tiers(
    players: u8,
    script: impl Fn(&mut Game, &mut Vec<Event>),
) -> (Vec<Event>, Status, Option<Outcome>) {
    let mut results = Vec::new();
    for program in [true, false] {
        let mut g = game(players, program);
        let mut events = Vec::new();
        g.start(&mut NoHost, &mut events);
        script(&mut g, &mut events);
        results.push((events, g.status(), g.outcome()));
    }
    let interpreted = results.pop().unwrap();
    let compiled = results.pop().unwrap();
    assert_eq!(compiled, interpreted, "the two tiers differ");
    compiled
}

fn winners(outcome: Option<Outcome>) -> Vec<PlayerId> {
    match outcome {
        Some(o) => o.winners().collect(),
        None => panic!("the game is not over"),
    }
}

#[test]
fn a_player_who_leaves_a_two_player_game_makes_the_other_win() {
    let (events, status, outcome) = both_tiers(2, |g, e| {
        g.remove_player(P2, &mut NoHost, e).unwrap();
    });
    assert_eq!(status, Status::Over);
    assert_eq!(winners(outcome), [P1]);
    let outcome = outcome.unwrap();
    assert_eq!(SPEC.rule(outcome.rule()), Some("R-LAST"));
    assert!(matches!(
        events[events.len() - 2..],
        [Event::Left { player: P2 }, Event::GameOver { .. }]
    ));
}

#[test]
fn three_players_go_on_after_one_leaves() {
    let (_, _, outcome) = both_tiers(3, |g, e| {
        g.remove_player(P3, &mut NoHost, e).unwrap();
        assert_eq!(g.status(), Status::Running);
        g.remove_player(P1, &mut NoHost, e).unwrap();
    });
    assert_eq!(winners(outcome), [P2]);
}

#[test]
fn nothing_is_accepted_once_the_game_is_over() {
    let mut g = game(2, true);
    let mut events = Vec::new();
    g.start(&mut NoHost, &mut events);
    g.declare_ending(ending("declared_draw"), P1, &mut NoHost, &mut events)
        .unwrap();
    assert_eq!(g.status(), Status::Over);
    assert!(g.outcome().unwrap().is_draw());
    let before = g.state().clone();
    let not_running = |r: Result<(), RuleError>| matches!(r, Err(RuleError::NotRunning(_)));
    assert!(not_running(g.apply(
        turnspec_engine::Action::Pass { player: P1 },
        &mut NoHost,
        &mut events
    )));
    assert!(not_running(g.set_counter(
        counter("points"),
        P1,
        10,
        &mut NoHost,
        &mut events
    )));
    assert!(not_running(g.declare_ending(
        ending("conceded"),
        P2,
        &mut NoHost,
        &mut events
    )));
    assert!(not_running(g.remove_player(P2, &mut NoHost, &mut events)));
    assert_eq!(g.state(), &before);
}

#[test]
fn a_declared_loss_makes_the_player_leave() {
    let (events, status, _) = both_tiers(3, |g, e| {
        g.declare_ending(ending("conceded"), P2, &mut NoHost, e)
            .unwrap();
        assert_eq!(g.status(), Status::Running);
        assert_eq!(g.holder(), Some(P1));
    });
    assert_eq!(status, Status::Running);
    let reached = events
        .iter()
        .position(|e| matches!(e, Event::Ending { player: P2, .. }))
        .unwrap();
    assert_eq!(events[reached + 1], Event::Left { player: P2 });
}

#[test]
fn setting_a_counter_runs_the_checks_for_every_player() {
    let (_, _, outcome) = both_tiers(2, |g, e| {
        g.set_counter(counter("points"), P2, 9, &mut NoHost, e)
            .unwrap();
        assert_eq!(g.status(), Status::Running);
        g.set_counter(counter("points"), P2, 10, &mut NoHost, e)
            .unwrap();
    });
    assert_eq!(winners(outcome), [P2]);
}

#[test]
fn a_step_end_check_ends_the_game_inside_the_turn() {
    // Points set before the game starts are found at the first step's
    // end, on the program's turn as on the interpreter's.
    let (events, status, _) = both_tiers(2, |g, e| {
        g.set_counter(counter("points"), P1, 3, &mut NoHost, e)
            .unwrap();
        play_out(g, &mut AllPass, e);
    });
    assert_eq!(status, Status::TurnLimit);
    assert!(!events.iter().any(|e| matches!(e, Event::GameOver { .. })));
    let options = GameOptions::players(2)
        .with_start_at(start_at(&SPEC, 5, P1, "main"))
        .with_counters(vec![(counter("points"), 10)]);
    for program in [true, false] {
        let mut g = Game::new(&SPEC, &options.clone().with_turn_program(program)).unwrap();
        let mut events = Vec::new();
        g.start(&mut NoHost, &mut events);
        // The main phase's step ends when P1 and P2 pass: P1, the active
        // player, is checked first and wins.
        play_out(&mut g, &mut AllPass, &mut events);
        assert_eq!(winners(g.outcome()), [P1], "program {program}");
        assert!(matches!(
            events[events.len() - 2..],
            [Event::Ending { player: P1, .. }, Event::GameOver { .. }]
        ));
    }
}

#[test]
fn a_turn_start_loss_lets_the_others_play_on() {
    // P2 has three strikes: at the start of P2's next turn P2 loses and
    // leaves; P3 and P1 play on, on both tiers alike.
    let (events, status, _) = both_tiers(3, |g, e| {
        g.set_counter(counter("strikes"), P2, 3, &mut NoHost, e)
            .unwrap();
        for _ in 0..12 {
            if g.status() != Status::Running {
                break;
            }
            let holder = g.holder().unwrap();
            g.apply(
                turnspec_engine::Action::Pass { player: holder },
                &mut NoHost,
                e,
            )
            .unwrap();
        }
    });
    assert_eq!(status, Status::Running);
    let began = events
        .iter()
        .position(|e| matches!(e, Event::TurnBegan { player: P2, .. }))
        .unwrap();
    assert!(matches!(
        events[began + 1],
        Event::Ending { player: P2, .. }
    ));
    assert_eq!(events[began + 2], Event::Left { player: P2 });
    assert!(
        events[began..]
            .iter()
            .any(|e| matches!(e, Event::TurnBegan { player: P3, .. }))
    );
}

#[test]
fn a_turn_end_check_ends_the_game_after_the_last_phase() {
    let options = GameOptions::players(2)
        .with_start_at(start_at(&SPEC, 5, P1, "main"))
        .with_counters(vec![(counter("score"), 60)]);
    let mut streams = Vec::new();
    for program in [true, false] {
        let mut g = Game::new(&SPEC, &options.clone().with_turn_program(program)).unwrap();
        let mut events = Vec::new();
        g.start(&mut NoHost, &mut events);
        play_out(&mut g, &mut AllPass, &mut events);
        assert_eq!(g.status(), Status::Over);
        assert!(g.outcome().unwrap().is_draw());
        // The end phase ended; the turn did not (the check comes first).
        let reached = events
            .iter()
            .position(|e| matches!(e, Event::Ending { player: P1, .. }))
            .unwrap();
        assert!(matches!(events[reached - 1], Event::PhaseEnded { .. }));
        assert!(!events.iter().any(|e| matches!(e, Event::TurnEnded { .. })));
        streams.push(events);
    }
    assert_eq!(streams[0], streams[1]);
}

#[test]
fn a_step_end_loss_in_the_program_lets_the_turn_go_on() {
    // P3 overheats: at the main phase's end P3 loses and leaves, and the
    // turn goes on into the end phase for P1 and P2 (the program hands the
    // rest of the step's end to the interpreter, which finds nothing more).
    let (events, status, _) = both_tiers(3, |g, e| {
        g.set_counter(counter("strikes"), P3, 5, &mut NoHost, e)
            .unwrap();
        for _ in 0..3 {
            let holder = g.holder().unwrap();
            g.apply(
                turnspec_engine::Action::Pass { player: holder },
                &mut NoHost,
                e,
            )
            .unwrap();
        }
    });
    assert_eq!(status, Status::Running);
    let left = events
        .iter()
        .position(|e| *e == Event::Left { player: P3 })
        .unwrap();
    assert!(matches!(events[left - 1], Event::Ending { player: P3, .. }));
    // The main phase has no steps of its own: its end follows.
    assert!(matches!(events[left + 1], Event::PhaseEnded { .. }));
    assert!(
        events[left..]
            .iter()
            .any(|e| matches!(e, Event::PriorityGiven { player: P1, .. }))
    );
}

/// A spec with one checked ending, for each player: the program tests
/// its condition for every player, not once. Catches the compiler folding
/// a lone check's condition without its player (`Compiler::check_end`'s
/// guard `!one.each_player` as `true`): the program then asked only about
/// the active player, and P2's ten points went unseen.
#[test]
fn a_lone_check_for_each_player_looks_at_every_player() {
    let spec = load(
        "lone.toml",
        r#"
[game]
name = "Lone check"
players = { min = 2, max = 2 }

[counters.points]
per = "player"
reset = "game"

[endings.ten_points]
result = "wins"
if = "counter.points >= 10"
for = "each_player"
at = ["step_end"]
rule = "R-POINTS"

[[phase]]
id = "main"
sequence = [{ window = "always", name = "main" }]
"#,
    );
    let points = spec.counter_by_id("points").unwrap();
    for program in [true, false] {
        let options = GameOptions::players(2)
            .with_turn_program(program)
            .with_start_at(start_at(&spec, 5, P1, "main"));
        let mut g = Game::new(&spec, &options).unwrap();
        g.set_turn_limit(8);
        let mut events = Vec::new();
        g.start(&mut NoHost, &mut events);
        // Into turn 7, a turn the program runs, before P2 scores.
        while g.turn() < 7 {
            decide_and_apply(&mut g, &mut AllPass, &mut events).unwrap();
        }
        g.set_counter(points, P2, 10, &mut NoHost, &mut events)
            .unwrap();
        play_out(&mut g, &mut AllPass, &mut events);
        assert_eq!(winners(g.outcome()), [P2], "program {program}");
        assert_eq!(g.turn(), 7, "program {program}");
    }
}

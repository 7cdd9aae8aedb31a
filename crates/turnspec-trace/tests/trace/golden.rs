//! Golden traces: whole turns of both reference games as committed
//! snapshots, so any change in what the engine emits shows up in review.
//! Update with `cargo insta review` (or `INSTA_UPDATE=always cargo test`).

use turnspec_engine::TurnActionHook;
use turnspec_engine::{Action, Event, Game, GameOptions, Host, PlayerId, StartAt, Status};
use turnspec_spec::Spec;
use turnspec_trace::{TextOptions, to_json_lines, to_text};

fn spec(text: &str) -> Spec {
    turnspec_spec::load_str("spec", text)
        .expect("the game spec loads")
        .0
}

fn mtg() -> Spec {
    spec(include_str!("../../../../games/mtg.toml"))
}

fn grand_archive() -> Spec {
    spec(include_str!("../../../../games/grand-archive.toml"))
}

/// Everyone passes for `turns` turns.
fn all_pass(spec: &Spec, players: u8, turns: u32) -> Vec<Event> {
    let mut game = Game::new(spec, &GameOptions::players(players)).expect("setup");
    game.set_turn_limit(turns);
    let mut events = Vec::new();
    turnspec_engine::policy::play_out(
        &mut game,
        &mut turnspec_engine::policy::AllPass,
        &mut events,
    );
    events
}

/// A host that declares one attacker, answers yes to materializing and
/// reports one trigger when the draw happens.
struct Busy<'s> {
    spec: &'s Spec,
}

impl Host for Busy<'_> {
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        let TurnActionHook {
            ctx,
            action,
            mut triggers,
            ..
        } = hook;
        match self.spec.turn_action(action).unwrap().id.as_str() {
            "declare_attackers" | "materialize" => 1,
            "draw" => {
                let _ = triggers.add(ctx.active, 900);
                0
            }
            _ => 0,
        }
    }
}

/// Turn 3 of a 2-player game where, in every window, the active player
/// first plays `first` (once per window, when they hold priority with an
/// empty stack) and everyone then passes; `extra` is played once in the
/// first window where it is legal.
fn busy_turn(spec: &Spec, first: &str, extra: &[&str]) -> Vec<Event> {
    let options =
        GameOptions::players(2).with_start_at(StartAt::new(3, PlayerId(0), spec.turn()[0]));
    let mut game = Game::new(spec, &options).expect("setup");
    game.set_turn_limit(3);
    let mut host = Busy { spec };
    let mut events = Vec::new();
    game.start(&mut host, &mut events);
    let first = spec.timing_by_id(first).expect("timing class");
    let mut extra: Vec<_> = extra
        .iter()
        .map(|t| spec.timing_by_id(t).expect("timing class"))
        .collect();
    let mut label = 100;
    let mut cast_in_window = None;
    while game.status() == Status::Running {
        let holder = game.holder().expect("a decision");
        let window = (game.step(), game.window());
        let action = if let Some(i) = extra
            .iter()
            .position(|t| game.check_play(holder, *t, 0).is_ok())
        {
            label += 1;
            Action::Play {
                player: holder,
                timing: extra.remove(i),
                label,
            }
        } else if holder == game.active_player()
            && game.stack().is_empty()
            && cast_in_window != Some(window)
            && game.check_play(holder, first, 0).is_ok()
        {
            cast_in_window = Some(window);
            label += 1;
            Action::Play {
                player: holder,
                timing: first,
                label,
            }
        } else {
            Action::Pass { player: holder }
        };
        game.apply(action, &mut host, &mut events).expect("legal");
    }
    events
}

/// The text form of `events`, with or without the "end of ..." lines.
fn text(spec: &Spec, events: &[Event], show_ends: bool) -> String {
    to_text(spec, &(), events, TextOptions { show_ends })
}

/// Everyone passes: Magic for two turns, Grand Archive for three.
#[test]
fn all_pass_turns() {
    for (name, spec, turns) in [
        ("mtg_two_turns_all_pass", mtg(), 2),
        ("grand_archive_three_turns_all_pass", grand_archive(), 3),
    ] {
        insta::assert_snapshot!(name, text(&spec, &all_pass(&spec, 2, turns), true));
    }
}

#[test]
fn mtg_two_turns_all_pass_json() {
    let spec = mtg();
    insta::assert_snapshot!(to_json_lines(&spec, &(), &all_pass(&spec, 2, 2)));
}

/// One busy turn of each game.
#[test]
fn busy_turns() {
    for (name, spec, fast, others) in [
        ("mtg_busy_turn", mtg(), "instant", ["land", "sorcery"]),
        (
            "grand_archive_busy_turn",
            grand_archive(),
            "fast",
            ["slow", "attack"],
        ),
    ] {
        let events = busy_turn(&spec, fast, &others);
        insta::assert_snapshot!(name, text(&spec, &events, false));
    }
}

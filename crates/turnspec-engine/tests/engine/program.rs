//! The compiled turn program and the interpreter must play every game
//! alike: random games with structural effects and triggers, on both
//! reference games, 2 to 8 players, each played both ways and compared
//! event by event. (The fuzzer's `actions` target does the same with any
//! action at all, legal or not, players leaving and facts changing.)

use turnspec_engine::policy::{AllPass, RandomPolicy, play_out};
use turnspec_engine::{Event, Game, GameOptions, NoHost, PlayerId};
use turnspec_spec::Spec;

fn load(src: &str) -> Spec {
    turnspec_spec::load_str("spec.toml", src).unwrap().0
}

fn events(spec: &Spec, players: u8, seed: u64, program: bool) -> Vec<Event> {
    let options = GameOptions::players(players).with_turn_program(program);
    let mut game = Game::new(spec, &options).unwrap();
    game.set_turn_limit(12);
    let mut events = Vec::new();
    let mut policy = RandomPolicy::with_effects(seed);
    // A higher effect chance than the default, so most games use several.
    policy.effect_chance = 64;
    game.start(&mut policy, &mut events);
    play_out(&mut game, &mut policy, &mut events);
    events
}

#[test]
fn program_and_interpreter_emit_the_same_events() {
    for src in [
        include_str!("../../../../games/mtg.toml"),
        include_str!("../../../../games/grand-archive.toml"),
        include_str!("../../../../games/lorcana.toml"),
        include_str!("../../../../games/pokemon-tcg.toml"),
        include_str!("../../../../games/yugioh.toml"),
        include_str!("../../../../games/flesh-and-blood.toml"),
        include_str!("../../../../games/star-wars-unlimited.toml"),
    ] {
        let spec = load(src);
        let most = spec.game().max_players.min(8);
        for players in spec.game().min_players.max(2)..=most {
            for seed in 0..40 {
                let compiled = events(&spec, players, seed, true);
                let interpreted = events(&spec, players, seed, false);
                assert_eq!(
                    compiled, interpreted,
                    "{players} players, seed {seed}: the program and the interpreter differ"
                );
            }
        }
    }
}

/// The program runs no first turn: when a turn it ran is followed by a
/// player's first turn (an extra turn on turn 1 puts the first player's
/// second turn before the second player's first), it hands that turn to
/// the interpreter, which skips what a first turn skips. Played both ways,
/// the games are the same, and both skip the phase on turns 1 and 3.
#[test]
fn a_first_turn_after_a_turn_the_program_ran_is_played_as_a_first_turn() {
    let spec = load(
        r#"
[game]
name = "first turns"
players = { min = 2, max = 2 }

[effects.extra_turn]
kind = "extra_turn"
rule = "1"

[[phase]]
id = "warm_up"
priority = "always"
skip = [{ if = "first_turn", rule = "2" }]

[[phase]]
id = "main"
priority = "always"
"#,
    );
    let extra = spec.effects().ids().next().unwrap();
    let play = |program: bool| {
        let options = GameOptions::players(2).with_turn_program(program);
        let mut game = Game::new(&spec, &options).unwrap();
        game.set_turn_limit(4);
        let mut events = Vec::new();
        let mut host = NoHost;
        game.start(&mut host, &mut events);
        game.apply_declared_effect(extra, PlayerId(0), &mut host, &mut events)
            .unwrap();
        play_out(&mut game, &mut AllPass, &mut events);
        events
    };
    let compiled = play(true);
    assert_eq!(compiled, play(false));
    let mut turn = 0;
    let mut skipped_on = Vec::new();
    for event in &compiled {
        match event {
            Event::TurnBegan { turn: t, .. } => turn = *t,
            Event::Skipped { .. } => skipped_on.push(turn),
            _ => {}
        }
    }
    assert_eq!(skipped_on, [1, 3]);
}

//! The compiled turn program and the interpreter must play every game
//! alike: random games with structural effects and triggers, on both
//! reference games, 2 to 8 players, each played both ways and compared
//! event by event. (The fuzzer's `actions` target does the same with any
//! action at all, legal or not, players leaving and facts changing.)

use turnspec_engine::policy::{RandomPolicy, play_out};
use turnspec_engine::{Event, Game, GameOptions};
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
        include_str!("../../../games/mtg.toml"),
        include_str!("../../../games/grand-archive.toml"),
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

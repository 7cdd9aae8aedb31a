//! The engine tested as a compiler: what each reference spec compiles to
//! (snapshot listings of its turn program, so a change shows in review),
//! and that the superinstructions the program was built with fire.

use turnspec_engine::policy::{AllPass, play_out};
use turnspec_engine::{Game, GameOptions, NoHost};
use turnspec_spec::Spec;

fn load(src: &str) -> Spec {
    turnspec_spec::load_str("spec.toml", src).unwrap().0
}

/// A reference spec by file name, with the bases it extends.
fn load_game(name: &str) -> Spec {
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
    let path = games.join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut read = |base: &str, _from: &str| {
        let p = games.join(base);
        let text = std::fs::read_to_string(&p).map_err(|e| e.to_string())?;
        Ok((p.display().to_string(), text))
    };
    turnspec_spec::load_with(name, &text, &mut read).unwrap().0
}

fn listing(name: &str, players: u8) -> String {
    let spec = load_game(name);
    let game = Game::new(&spec, &GameOptions::players(players)).unwrap();
    game.program_listing()
}

#[test]
fn listings_of_the_reference_specs() {
    for name in [
        "mtg",
        "mtg-2024",
        "mtg-2011",
        "mtg-classic",
        "grand-archive",
        "lorcana",
        "pokemon-tcg",
        "yugioh",
        "flesh-and-blood",
        "star-wars-unlimited",
    ] {
        insta::assert_snapshot!(name, listing(&format!("{name}.toml"), 2));
    }
}

/// An all-pass Magic turn has eight windows; seven close into the next
/// through one superinstruction (`StepEndInto`), without the program's
/// loop, and the cleanup step's two turn-based actions run as one
/// (`ActionRun`): eight superinstructions. A fused path that silently
/// stops firing fails here. Counted in debug builds only.
#[test]
#[cfg(debug_assertions)]
fn an_all_pass_magic_turn_runs_eight_superinstructions() {
    let spec = load(include_str!("../../../../games/mtg.toml"));
    let mut game = Game::new(&spec, &GameOptions::players(2)).unwrap();
    game.set_turn_limit(12);
    game.start(&mut NoHost, &mut ());
    play_out(&mut game, &mut AllPass, &mut ());
    // Turns 1 and 2 are first turns, the interpreter's; 3 to 12 the
    // program's.
    let per_turn = game.fused_transitions() / 10;
    assert_eq!(per_turn, 8, "superinstructions per all-pass Magic turn");
}

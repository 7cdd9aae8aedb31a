//! Snapshots (`Game::to_bytes`, `Game::from_bytes`): a game saved and
//! loaded at many points of games of every reference spec is the same game
//! and plays on exactly as the original does; any bytes, and any snapshot
//! with bytes changed, are refused or loaded without a panic (and a loaded
//! one plays on without a panic); a snapshot of another spec is refused.

use std::sync::LazyLock;

use proptest::prelude::*;
use turnspec_engine::policy::{AllPass, Policy, RandomPolicy, decide_and_apply};
use turnspec_engine::{Event, Game, GameOptions, Place, PlayerId, Scope, SnapshotError, Status};
use turnspec_spec::Spec;

/// Every reference spec in games/ (not the stop profiles), with its name.
fn reference_specs() -> Vec<(String, Spec)> {
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
    let mut names: Vec<String> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 7, "the reference specs: {names:?}");
    names
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(games.join(&name)).unwrap();
            let mut read = |base: &str, _from: &str| {
                let p = games.join(base);
                let text = std::fs::read_to_string(&p).map_err(|e| e.to_string())?;
                Ok((p.display().to_string(), text))
            };
            let spec = turnspec_spec::load_with(&name, &text, &mut read)
                .unwrap_or_else(|r| panic!("{name}: {}", r.to_short_text()))
                .0;
            (name, spec)
        })
        .collect()
}

static SPECS: LazyLock<Vec<(String, Spec)>> = LazyLock::new(reference_specs);

fn spec(name: &str) -> &'static Spec {
    &SPECS.iter().find(|(n, _)| n == name).unwrap().1
}

/// Saves and loads `game`: the loaded game is equal and saves to the same
/// bytes.
fn round_trip(name: &str, game: &Game) -> Game {
    let bytes = game.to_bytes();
    let loaded = Game::from_bytes(game.spec(), &bytes)
        .unwrap_or_else(|e| panic!("{name}, turn {}: {e}", game.turn()));
    assert_eq!(loaded.state(), game.state(), "{name}: the loaded state");
    assert_eq!(loaded.to_bytes(), bytes, "{name}: saved again");
    loaded
}

/// `decisions` decisions of `policy` from `game`, and the events.
fn play_on<P: Policy + Clone>(game: &mut Game, policy: &mut P, decisions: usize) -> Vec<Event> {
    let mut events = Vec::new();
    for _ in 0..decisions {
        if game.status() != Status::Running || decide_and_apply(game, policy, &mut events).is_err()
        {
            break;
        }
    }
    events
}

/// Some state that random play does not make: objects in play, a delayed
/// trigger, durations, mana. Each command may be refused by a spec.
fn add_rare_state(game: &mut Game, seed: u64) {
    let mut sink: Vec<Event> = Vec::new();
    let p = PlayerId((seed % u64::from(game.players())) as u8);
    for id in 0..3 {
        let _ = game.report_entered(seed as u32 * 10 + id, p, &mut sink);
    }
    if let Some(step) = game.spec().steps().ids().last() {
        let _ = game.delay_trigger(p, 77, Place::Step(step), seed.is_multiple_of(2));
    }
    let _ = game.start_duration(5, Scope::Turn);
    let _ = game.start_duration(6, Scope::ThroughNextTurn { player: p });
    let _ = game.add_mana_to_pool(p, 3);
}

#[test]
fn round_trips_at_many_points_of_every_reference_spec() {
    let mut points = 0;
    for (name, spec) in SPECS.iter() {
        let g = spec.game();
        for players in [g.min_players.max(1), g.max_players.min(4)] {
            for seed in 0..3u64 {
                let mut game = Game::new(spec, &GameOptions::players(players)).unwrap();
                game.set_turn_limit(6);
                let mut policy = RandomPolicy::with_effects(seed * 31 + u64::from(players));
                let mut sink: Vec<Event> = Vec::new();
                game.start(&mut policy, &mut sink);
                round_trip(name, &game);
                let mut decision = 0u64;
                while game.status() == Status::Running && decision < 400 {
                    if decision == 20 {
                        add_rare_state(&mut game, seed);
                    }
                    let loaded = round_trip(name, &game);
                    points += 1;
                    if decision.is_multiple_of(25) {
                        // Both play on with the same policy: the same events.
                        let (mut a, mut b) = (game.clone(), loaded);
                        let (mut pa, mut pb) = (policy.clone(), policy.clone());
                        let ea = play_on(&mut a, &mut pa, 60);
                        let eb = play_on(&mut b, &mut pb, 60);
                        assert_eq!(ea, eb, "{name}: the loaded game plays on differently");
                        assert_eq!(a.to_bytes(), b.to_bytes(), "{name}: after playing on");
                    }
                    if decide_and_apply(&mut game, &mut policy, &mut sink).is_err() {
                        break;
                    }
                    decision += 1;
                }
                // A game that stopped saves and loads too.
                round_trip(name, &game);
            }
        }
    }
    assert!(points > 1000, "only {points} points");
}

#[test]
fn an_all_pass_game_without_the_turn_program_round_trips() {
    let spec = spec("mtg.toml");
    let options = GameOptions::players(2).with_turn_program(false);
    let mut game = Game::new(spec, &options).unwrap();
    let mut sink: Vec<Event> = Vec::new();
    game.start(&mut AllPass, &mut sink);
    let _ = play_on(&mut game, &mut AllPass, 37);
    let mut loaded = round_trip("mtg.toml", &game);
    let ea = play_on(&mut game, &mut AllPass, 200);
    let eb = play_on(&mut loaded, &mut AllPass, 200);
    assert_eq!(ea, eb);
    // The snapshot keeps the choice: the loaded game stays on the
    // interpreter (no superinstruction ran; counted in debug builds).
    #[cfg(debug_assertions)]
    assert_eq!(
        loaded.fused_transitions(),
        0,
        "the loaded game ran the program"
    );
}

/// The other way round: a game on the program loads on the program.
#[test]
#[cfg(debug_assertions)]
fn a_game_on_the_turn_program_loads_on_it() {
    let spec = spec("mtg.toml");
    let mut game = Game::new(spec, &GameOptions::players(2)).unwrap();
    game.start(&mut AllPass, &mut ());
    let _ = play_on(&mut game, &mut AllPass, 37);
    let mut loaded = round_trip("mtg.toml", &game);
    let _ = play_on(&mut loaded, &mut AllPass, 200);
    assert!(
        loaded.fused_transitions() > 0,
        "the loaded game left the program"
    );
}

/// `load_sibling` shares the programs its sibling compiled, and still
/// loads the game `from_bytes` gives when the snapshot's set-up differs
/// from the sibling's (other seats, a variant, the program off).
#[test]
fn a_sibling_of_another_set_up_loads_the_game_from_bytes_gives() {
    let spec = spec("mtg.toml");
    let mut sibling = Game::new(spec, &GameOptions::players(2)).unwrap();
    sibling.start(&mut AllPass, &mut Vec::new());
    let _ = play_on(&mut sibling, &mut AllPass, 30);
    let archenemy = spec.variant_by_id("archenemy").unwrap();
    let setups = [
        GameOptions::players(4),
        GameOptions::players(2).with_turn_program(false),
        GameOptions::players(2).with_variants(vec![archenemy]),
    ];
    for options in setups {
        let mut other = Game::new(spec, &options).unwrap();
        other.start(&mut AllPass, &mut Vec::new());
        let _ = play_on(&mut other, &mut AllPass, 45);
        let bytes = other.to_bytes();
        let mut shared = sibling.load_sibling(&bytes).unwrap();
        let mut alone = Game::from_bytes(spec, &bytes).unwrap();
        assert_eq!(shared.state(), alone.state());
        let ea = play_on(&mut shared, &mut AllPass, 300);
        let eb = play_on(&mut alone, &mut AllPass, 300);
        assert_eq!(ea, eb, "{options:?}");
    }
}

/// `restore` into one reused game, and `clone_from` into another, give the
/// games `from_bytes` and `clone` give, at many points of every reference
/// spec (rare states too), and those play on the same; bytes refused leave
/// the reused game as it was.
#[test]
fn a_game_restored_or_cloned_into_a_reused_one_plays_on_the_same() {
    for (name, spec) in SPECS.iter() {
        let g = spec.game();
        let players = g.min_players.max(2).min(g.max_players);
        let options = GameOptions::players(players);
        let mut reused = Game::new(spec, &options).unwrap();
        let mut copy = reused.clone();
        for seed in 0..2u64 {
            let mut game = Game::new(spec, &options).unwrap();
            game.set_turn_limit(6);
            let mut policy = RandomPolicy::with_effects(seed + 7);
            game.start(&mut policy, &mut Vec::<Event>::new());
            let mut decision = 0u64;
            while game.status() == Status::Running && decision < 200 {
                if decision == 20 {
                    add_rare_state(&mut game, seed);
                }
                let bytes = game.to_bytes();
                reused.restore(&bytes).unwrap();
                copy.clone_from(&game);
                assert_eq!(reused.state(), game.state(), "{name}: restored");
                assert_eq!(copy.state(), game.state(), "{name}: cloned into");
                if decision.is_multiple_of(40) {
                    let before = reused.to_bytes();
                    assert!(reused.restore(&bytes[..bytes.len() - 1]).is_err());
                    assert_eq!(reused.to_bytes(), before, "{name}: a refused restore");
                    let mut fresh = Game::from_bytes(spec, &bytes).unwrap();
                    let expected = play_on(&mut fresh, &mut policy.clone(), 60);
                    let restored = play_on(&mut reused, &mut policy.clone(), 60);
                    let cloned = play_on(&mut copy, &mut policy.clone(), 60);
                    assert_eq!(restored, expected, "{name}: the restored game plays on");
                    assert_eq!(cloned, expected, "{name}: the cloned-into game plays on");
                }
                if decide_and_apply(&mut game, &mut policy, &mut Vec::new()).is_err() {
                    break;
                }
                decision += 1;
            }
        }
    }
}

#[test]
fn a_snapshot_of_another_spec_is_refused() {
    let mut game = Game::new(spec("mtg.toml"), &GameOptions::players(2)).unwrap();
    game.start(&mut AllPass, &mut Vec::<Event>::new());
    let bytes = game.to_bytes();
    for other in ["mtg-2024.toml", "lorcana.toml", "grand-archive.toml"] {
        match Game::from_bytes(spec(other), &bytes) {
            Err(SnapshotError::OtherSpec { expected, found }) => {
                assert_eq!(expected, spec(other).fingerprint());
                assert_eq!(found, spec("mtg.toml").fingerprint());
            }
            other => panic!("{other:?}"),
        }
    }
    // The same file loaded again has the same fingerprint.
    let again = reference_specs();
    let mtg = &again.iter().find(|(n, _)| n == "mtg.toml").unwrap().1;
    assert_eq!(mtg.fingerprint(), spec("mtg.toml").fingerprint());
    assert!(Game::from_bytes(mtg, &bytes).is_ok());
}

#[test]
fn refusals_are_typed() {
    let spec = spec("mtg.toml");
    let mut game = Game::new(spec, &GameOptions::players(2)).unwrap();
    game.start(&mut AllPass, &mut Vec::<Event>::new());
    let bytes = game.to_bytes();
    assert_eq!(
        Game::from_bytes(spec, b"nope").unwrap_err(),
        SnapshotError::Magic
    );
    let mut version = bytes.clone();
    version[4] = 9;
    assert!(matches!(
        Game::from_bytes(spec, &version),
        Err(SnapshotError::Version { found: 9, .. })
    ));
    assert!(matches!(
        Game::from_bytes(spec, &bytes[..bytes.len() - 1]),
        Err(SnapshotError::Truncated { .. })
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        Game::from_bytes(spec, &longer).unwrap_err(),
        SnapshotError::Trailing { extra: 1 }
    );
    // The players count (after the header, the flags, turn and limit).
    let mut players = bytes.clone();
    let at = 4 + 2 + 8 + 1 + 1 + 5;
    assert_eq!(players[at], 2, "the players byte");
    players[at] = 9;
    assert!(matches!(
        Game::from_bytes(spec, &players),
        Err(SnapshotError::Invalid {
            field: "players",
            ..
        })
    ));
    assert!(bytes.len() < 160, "{} bytes", bytes.len());
}

/// Snapshots of a few points of a few specs, to mutate.
static SEEDS: LazyLock<Vec<(&'static Spec, Vec<u8>)>> = LazyLock::new(|| {
    let mut out = Vec::new();
    for name in [
        "mtg.toml",
        "lorcana.toml",
        "grand-archive.toml",
        "yugioh.toml",
    ] {
        let spec = spec(name);
        let mut game = Game::new(spec, &GameOptions::players(2)).unwrap();
        let mut policy = RandomPolicy::with_effects(7);
        let mut sink: Vec<Event> = Vec::new();
        game.start(&mut policy, &mut sink);
        for i in 0..120u32 {
            if i == 10 {
                add_rare_state(&mut game, 1);
            }
            if i.is_multiple_of(20) {
                out.push((spec, game.to_bytes()));
            }
            if decide_and_apply(&mut game, &mut policy, &mut sink).is_err() {
                break;
            }
        }
    }
    out
});

/// A loaded game plays on without a panic.
fn play_loaded(mut game: Game) {
    let mut policy = RandomPolicy::with_effects(3);
    let _ = play_on(&mut game, &mut policy, 150);
    let _ = game.to_bytes();
}

/// Every byte of each seed snapshot changed to a few values in turn: each
/// is refused or loads and plays on without a panic, and some load (the
/// decoder is not refusing everything).
#[test]
fn every_byte_changed_is_refused_or_loads_and_plays_on() {
    let (mut loaded, mut refused) = (0, 0);
    for (spec, bytes) in SEEDS.iter() {
        for at in 15..bytes.len() {
            for value in [0u8, 1, 2, 0x7f, 0x80, 0xff, bytes[at] ^ 1] {
                let mut changed = bytes.clone();
                changed[at] = value;
                match Game::from_bytes(spec, &changed) {
                    Ok(game) => {
                        loaded += 1;
                        play_loaded(game);
                    }
                    Err(_) => refused += 1,
                }
            }
        }
    }
    assert!(
        loaded > 100 && refused > 100,
        "{loaded} loaded, {refused} refused"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_bytes_are_refused_or_loaded_without_a_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..200),
        with_header in any::<bool>(),
    ) {
        let spec = spec("mtg.toml");
        let mut input = Vec::new();
        if with_header {
            // Past the header, so the body is what is checked.
            input.extend_from_slice(&SEEDS[0].1[..15]);
        }
        input.extend_from_slice(&bytes);
        if let Ok(game) = Game::from_bytes(spec, &input) {
            play_loaded(game);
        }
    }

    #[test]
    fn changed_snapshots_are_refused_or_load_without_a_panic(
        which in any::<prop::sample::Index>(),
        changes in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<Option<prop::sample::Index>>(),
    ) {
        let (spec, bytes) = &SEEDS[which.index(SEEDS.len())];
        let mut bytes = bytes.clone();
        for (at, value) in changes {
            // Leave the header: a changed header is simply refused.
            let i = 15 + at.index(bytes.len() - 15);
            bytes[i] = value;
        }
        if let Some(cut) = cut {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        if let Ok(game) = Game::from_bytes(spec, &bytes) {
            play_loaded(game);
        }
    }
}

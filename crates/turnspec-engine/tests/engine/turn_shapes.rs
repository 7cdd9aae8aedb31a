//! Invariants on the two specs without priority passing (Pokémon TCG and
//! Lorcana), whose windows only the active player acts in, whose triggers
//! wait in a bag, and whose plays end phases, elect phases and cost
//! resources: random games reach their turn limit, every legal action is
//! accepted, and every refusal (a choice from the bag that is not the
//! player's, a play that cannot be paid) leaves the game as it was and
//! emits nothing. Rules are scenarios' business (tests/scenarios).

use turnspec_engine::policy::{RandomPolicy, SplitMix64, decide_and_apply};
use turnspec_engine::{Action, Event, EventSink, Game, GameOptions, PlayerId, Status};
use turnspec_spec::Spec;

fn load(path: &str, text: &str) -> Spec {
    match turnspec_spec::load_str(path, text) {
        Ok((spec, _)) => spec,
        Err(report) => panic!("{path} does not load:\n{}", report.to_short_text()),
    }
}

fn specs() -> Vec<Spec> {
    vec![
        load(
            "games/pokemon-tcg.toml",
            include_str!("../../../../games/pokemon-tcg.toml"),
        ),
        load(
            "games/lorcana.toml",
            include_str!("../../../../games/lorcana.toml"),
        ),
    ]
}

#[derive(Default)]
struct Count(u64);

impl EventSink for Count {
    fn event(&mut self, _: Event) {
        self.0 += 1;
    }
}

/// Applies `action` to a copy and checks: accepted, or refused with no
/// event and no change.
fn refused_changes_nothing(game: &Game, policy: &RandomPolicy, action: Action) {
    let mut copy = game.clone();
    let mut p = policy.clone();
    let mut sink = Count::default();
    if copy.apply(action, &mut p, &mut sink).is_err() {
        assert_eq!(sink.0, 0, "a refusal emitted events: {action:?}");
        assert_eq!(copy.state(), game.state(), "a refusal changed the state");
    }
}

#[test]
fn random_games_end_and_refusals_change_nothing() {
    for spec in specs() {
        let max = spec.game().max_players.min(4);
        for players in 2..=max {
            for seed in 0..12u64 {
                let mut game = Game::new(&spec, &GameOptions::players(players)).unwrap();
                game.set_turn_limit(6);
                let mut policy = RandomPolicy::with_effects(seed);
                policy.act_chance = 96;
                let mut rng = SplitMix64(seed ^ 0x5eed);
                let mut sink = Count::default();
                game.start(&mut policy, &mut sink);
                let mut decisions = 0;
                while game.status() == Status::Running && decisions < 20_000 {
                    let holder = game.holder().expect("a running game has a holder");
                    for action in game.legal_actions(holder) {
                        let mut copy = game.clone();
                        let mut p = policy.clone();
                        assert_eq!(copy.apply(action, &mut p, &mut Count::default()), Ok(()));
                    }
                    // Choices from the bag by anyone, for any label; plays
                    // at any class by anyone.
                    let player = PlayerId(rng.below(players as u64 + 1) as u8);
                    let label = rng.below(4) as u32;
                    refused_changes_nothing(&game, &policy, Action::Choose { player, label });
                    for timing in spec.timing().ids() {
                        refused_changes_nothing(
                            &game,
                            &policy,
                            Action::Play {
                                player,
                                timing,
                                label,
                            },
                        );
                    }
                    decide_and_apply(&mut game, &mut policy, &mut sink).unwrap();
                    decisions += 1;
                }
                // Random answers may end the game by the spec's own
                // endings (Pokémon's draw from an empty deck).
                assert!(
                    matches!(game.status(), Status::TurnLimit | Status::Over),
                    "{} with {players} players, seed {seed}: {:?}",
                    spec.game().name,
                    game.status()
                );
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_events() {
    for spec in specs() {
        let run = || {
            let mut game = Game::new(&spec, &GameOptions::players(2)).unwrap();
            game.set_turn_limit(8);
            let mut policy = RandomPolicy::with_effects(7);
            let mut events: Vec<Event> = Vec::new();
            turnspec_engine::policy::play_out(&mut game, &mut policy, &mut events);
            events
        };
        assert_eq!(run(), run());
    }
}

/// A play at a class with `ends = "turn"` ends the current step and phase
/// and the turn, with nothing of the later phases; `ends = "phase"` only
/// the phase. Checked on a small inline spec.
#[test]
fn plays_that_end_the_turn_or_the_phase() {
    let text = r#"
[game]
name = "ends"
players = { min = 2, max = 2 }

[timing.finish]
who = "active_player"
effect = "special"
ends = "turn"
ends_rule = "E1"

[timing.move_on]
who = "active_player"
effect = "special"
ends = "phase"

[[phase]]
id = "first"
sequence = [{ window = "always", acts = "active_player" }]

[[phase]]
id = "second"
sequence = [{ window = "always", acts = "active_player" }]
"#;
    let spec = load("ends.toml", text);
    let finish = spec.timing_by_id("finish").unwrap();
    let move_on = spec.timing_by_id("move_on").unwrap();
    let first = spec.phase_by_id("first").unwrap();
    let second = spec.phase_by_id("second").unwrap();
    let mut game = Game::new(&spec, &GameOptions::players(2)).unwrap();
    let mut host = turnspec_engine::NoHost;
    let mut events: Vec<Event> = Vec::new();
    game.start(&mut host, &mut events);
    assert_eq!((game.turn(), game.phase()), (1, first));
    let play = |timing| Action::Play {
        player: PlayerId(0),
        timing,
        label: 0,
    };
    let action = play(move_on);
    game.apply(action, &mut host, &mut events).unwrap();
    assert_eq!((game.turn(), game.phase()), (1, second));
    let action = play(finish);
    events.clear();
    game.apply(action, &mut host, &mut events).unwrap();
    assert_eq!((game.turn(), game.phase()), (2, first));
    assert_eq!(game.active_player(), PlayerId(1));
    assert!(events.contains(&Event::TurnEnded {
        turn: 1,
        player: PlayerId(0)
    }));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::PhaseBegan { phase, .. } if *phase == second))
    );
}

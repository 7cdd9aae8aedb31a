//! Random action sequences: any action, legal or not, with ids of the
//! game's spec or of another reference spec. The engine must never panic,
//! and a refused action must leave the state as it was and emit nothing.
//! Every sequence is played twice, on the compiled turn program and on the
//! interpreter alone: both must give the same result, events and state.

use std::sync::Arc;

use turnspec_engine::policy::{RandomPolicy, SplitMix64};
use turnspec_engine::{Action, Game, GameOptions, Place, PlayerId, Scope, Status};
use turnspec_spec::Spec;

/// How many actions one run tries at the most.
const ACTIONS_PER_RUN: usize = 200;

/// Plays one seeded sequence and returns how many actions were accepted;
/// panics (which the caller counts) if the engine breaks an invariant.
pub fn run(specs: &[(String, Arc<Spec>)], seed: u64) -> u64 {
    let mut rng = SplitMix64(seed);
    let spec = &specs[rng.below(specs.len() as u64) as usize].1;
    let other = &specs[rng.below(specs.len() as u64) as usize].1;
    let g = spec.game();
    let span = (g.max_players - g.min_players).min(7) as u64 + 1;
    let players = g.min_players + rng.below(span) as u8;
    let Ok(mut game) = Game::new(spec, &GameOptions::players(players)) else {
        return 0;
    };
    let interpreted = GameOptions::players(players).with_turn_program(false);
    let Ok(mut twin) = Game::new(spec, &interpreted) else {
        panic!("the interpreter refused a set-up the program accepted");
    };
    let mut accepted = 0;
    let limit = 1 + rng.below(6) as u32;
    game.set_turn_limit(limit);
    twin.set_turn_limit(limit);
    let host_seed = rng.next_u64();
    let mut host = RandomPolicy::with_effects(host_seed);
    let mut twin_host = RandomPolicy::with_effects(host_seed);
    let (mut events, mut twin_events) = (Vec::new(), Vec::new());
    game.start(&mut host, &mut events);
    twin.start(&mut twin_host, &mut twin_events);
    assert_eq!(
        events, twin_events,
        "program and interpreter differ at the start"
    );
    for _ in 0..ACTIONS_PER_RUN {
        if game.status() != Status::Running {
            break;
        }
        let from = if rng.below(8) == 0 { other } else { spec };
        let action = random_action(&mut rng, &game, from);
        let before = game.state().clone();
        let mut events = Vec::new();
        let mut twin_events = Vec::new();
        let result = game.apply(action, &mut host, &mut events);
        let twin_result = twin.apply(action, &mut twin_host, &mut twin_events);
        assert_eq!(
            result, twin_result,
            "program and interpreter judge {action:?} differently"
        );
        assert_eq!(
            events, twin_events,
            "program and interpreter differ after {action:?}"
        );
        assert!(
            game.state() == twin.state(),
            "program and interpreter reach different states after {action:?}"
        );
        if result.is_err() {
            assert!(
                *game.state() == before && events.is_empty(),
                "a refused {action:?} changed the game"
            );
        } else {
            accepted += 1;
        }
    }
    accepted
}

fn nth<I>(ids: impl ExactSizeIterator<Item = I>, rng: &mut SplitMix64) -> Option<I> {
    let len = ids.len() as u64;
    let mut ids = ids;
    if len == 0 {
        None
    } else {
        ids.nth(rng.below(len) as usize)
    }
}

/// Mostly the holder passing or playing, so games move; now and then
/// anything at all.
fn random_action(rng: &mut SplitMix64, game: &Game, from: &Spec) -> Action {
    let holder = game.holder().unwrap_or_default();
    let anyone = PlayerId(rng.below(10) as u8);
    let player = if rng.below(4) == 0 { anyone } else { holder };
    let label = rng.next_u64() as u32;
    let fallback = Action::Pass { player };
    match rng.below(16) {
        0..=7 => Action::Pass { player },
        8..=10 => match nth(from.timing().ids(), rng) {
            Some(timing) => Action::Play {
                player,
                timing,
                label,
            },
            None => fallback,
        },
        11 => Action::Trigger {
            controller: player,
            label,
        },
        12 => match nth(from.facts().ids(), rng) {
            Some(fact) => Action::SetFact {
                fact,
                value: rng.below(2) == 0,
            },
            None => fallback,
        },
        13 => match nth(from.effects().ids(), rng) {
            Some(effect) => Action::Effect { effect, player },
            None => fallback,
        },
        14 => {
            let at = if rng.below(2) == 0 {
                nth(from.phases().ids(), rng).map(Place::Phase)
            } else {
                nth(from.steps().ids(), rng).map(Place::Step)
            };
            match at {
                Some(at) => Action::Delay {
                    controller: player,
                    label,
                    at,
                    own_turn: rng.below(2) == 0,
                },
                None => fallback,
            }
        }
        _ => match rng.below(8) {
            0 => Action::Leave { player },
            1 => Action::Until {
                label,
                scope: [Scope::Step, Scope::Phase, Scope::Turn][rng.below(3) as usize],
            },
            2 => Action::AddMana {
                player,
                amount: rng.next_u64() as u16,
            },
            3 => match nth(from.effects().ids(), rng) {
                Some(effect) => Action::EffectOn {
                    effect,
                    player,
                    target: anyone,
                },
                None => fallback,
            },
            4 => match nth(from.effects().ids(), rng) {
                Some(effect) => Action::EndEffect { effect, player },
                None => fallback,
            },
            5 => Action::Pending {
                controller: player,
                label,
            },
            6 => match nth(from.steps().ids(), rng) {
                Some(step) => Action::DelayNextTurn {
                    controller: player,
                    label,
                    at: Place::Step(step),
                },
                None => fallback,
            },
            _ => Action::Choose {
                player,
                label: game.stack().last().map_or(label, |o| o.label),
            },
        },
    }
}

//! The one simulator: the counting wrapper forwards every host hook, and
//! `compare`'s statistics are `simulate`'s games and counts.

use crate::common;

use std::sync::Arc;

use common::spec;
use turnspec_compare::simulation::{Counted, Setup, SimPolicy, play_games};
use turnspec_compare::stats::{self, StatsOptions};
use turnspec_compare::{SpecColumn, simulate};
use turnspec_engine::policy::{Policy, RandomPolicy, play_out};
use turnspec_engine::{
    Action, EventCounts, Game, GameOptions, HookContext, Host, PlayerId, StackObject, Triggers,
};
use turnspec_engine::{PlayedHook, ResolvedHook, StepBeganHook, TurnActionHook};
use turnspec_spec::{EffectId, Spec, TimingId, TurnActionId};

/// One call of a host hook, with what it was told.
#[derive(Debug, Clone, PartialEq)]
enum Call {
    TurnAction(HookContext, TurnActionId),
    Played(HookContext, PlayerId, TimingId, u32),
    StepBegan(HookContext),
    Resolved(HookContext, StackObject),
}

/// Random decisions and answers (with triggers), recording every hook call
/// and reporting a trigger from some of them, so that a hook that is not
/// forwarded changes both the record and the game.
struct Recorder {
    random: RandomPolicy,
    calls: Vec<Call>,
}

impl Recorder {
    fn new() -> Self {
        Recorder {
            random: RandomPolicy::with_effects(5),
            calls: Vec::new(),
        }
    }

    fn maybe_trigger(&mut self, ctx: &HookContext, triggers: &mut Triggers<'_>) {
        if self.calls.len().is_multiple_of(7) {
            let _ = triggers.add(ctx.active, self.calls.len() as u32);
        }
    }
}

impl Host for Recorder {
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        self.calls.push(Call::TurnAction(hook.ctx, hook.action));
        self.random.turn_action(hook)
    }

    fn played(&mut self, hook: PlayedHook<'_>) {
        let PlayedHook {
            ctx,
            player,
            timing,
            label,
            mut triggers,
            ..
        } = hook;
        self.calls.push(Call::Played(ctx, player, timing, label));
        self.maybe_trigger(&ctx, &mut triggers);
    }

    fn step_began(&mut self, hook: StepBeganHook<'_>) {
        let StepBeganHook {
            ctx, mut triggers, ..
        } = hook;
        self.calls.push(Call::StepBegan(ctx));
        self.maybe_trigger(&ctx, &mut triggers);
    }

    fn resolved(&mut self, hook: ResolvedHook<'_>) {
        let ResolvedHook {
            ctx,
            object,
            mut triggers,
            ..
        } = hook;
        self.calls.push(Call::Resolved(ctx, object));
        self.maybe_trigger(&ctx, &mut triggers);
    }
}

impl Policy for Recorder {
    fn decide(&mut self, game: &Game) -> Action {
        self.random.decide(game)
    }

    fn host_effect(&mut self, game: &Game) -> Option<(EffectId, PlayerId)> {
        self.random.host_effect(game)
    }
}

/// The record and the event counts of 12 turns of `spec` played by `host`.
fn play<P: Policy>(spec: &Spec, host: &mut P) -> EventCounts {
    let mut game = Game::new(spec, &GameOptions::players(2)).unwrap();
    game.set_turn_limit(12);
    let mut counts = EventCounts::default();
    play_out(&mut game, host, &mut counts);
    counts
}

#[test]
fn counted_forwards_every_host_hook() {
    for file in ["mtg.toml", "grand-archive.toml"] {
        let spec = spec(file);
        let mut bare = Recorder::new();
        let bare_counts = play(&spec, &mut bare);
        let mut counted = Counted::new(Recorder::new());
        let counted_counts = play(&spec, &mut counted);
        // The game exercises every hook.
        let has = |f: fn(&Call) -> bool| bare.calls.iter().any(f);
        assert!(has(|c| matches!(c, Call::TurnAction(..))), "{file}");
        assert!(has(|c| matches!(c, Call::Played(..))), "{file}");
        assert!(has(|c| matches!(c, Call::StepBegan(..))), "{file}");
        assert!(has(|c| matches!(c, Call::Resolved(..))), "{file}");
        assert!(bare_counts.triggers > 0, "{file}");
        // Wrapped, the host sees exactly the same calls and plays the same game.
        assert_eq!(counted.inner.calls, bare.calls, "{file}");
        assert_eq!(counted_counts, bare_counts, "{file}");
        assert!(counted.plays > 0, "{file}");
    }
}

#[test]
fn compare_statistics_are_the_simulated_games_and_counts() {
    let spec = Arc::new(spec("grand-archive.toml"));
    for policy in [SimPolicy::AllPass, SimPolicy::Random] {
        let setup = Setup {
            spec: &spec,
            players: 2,
            turns: 10,
            policy,
            depth: 1,
            seed: 4,
            stops: None,
        };
        let tally = play_games(setup, 6).unwrap();
        let options = StatsOptions {
            policy,
            turns: 10,
            players: 2,
            seed: 4,
            games: 6,
        };
        let cols = [SpecColumn {
            label: "ga".into(),
            spec: spec.clone(),
        }];
        let out = simulate(&cols, &options);
        assert_eq!(out[0].counts, tally.counts, "{policy:?}");
        assert_eq!(out[0].digest, tally.digest(), "{policy:?}");
        assert_eq!(tally.counts.turns, 60);
        let json = stats::to_json(&out, &options);
        assert_eq!(json["specs"][0]["totals"]["steps"], tally.counts.steps);
        assert_eq!(json["specs"][0]["totals"]["actions"], tally.counts.actions);
    }
}

#[test]
fn a_step_less_phase_counts_as_one_step() {
    // Grand Archive all-pass, 4 players (no first-turn draw skip except
    // the skipped wake up, materialize and recollection of first turns):
    // from turn 5 on, every turn has 5 step-less phases and the end phase's
    // two steps.
    let spec = spec("grand-archive.toml");
    let setup = |turns| Setup {
        spec: &spec,
        players: 4,
        turns,
        policy: SimPolicy::AllPass,
        depth: 1,
        seed: 0,
        stops: None,
    };
    let four = play_games(setup(4), 1).unwrap().counts.steps;
    let five = play_games(setup(5), 1).unwrap().counts.steps;
    assert_eq!(five - four, 7);
}

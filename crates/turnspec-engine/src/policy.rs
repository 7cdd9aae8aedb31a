//! Who decides, when nobody is at the table: simple automatic players.
//!
//! A [`Policy`] is also a [`Host`], so one value answers both the players'
//! decisions and the turn-based action hooks. All are deterministic: the
//! random policy draws from a seeded SplitMix64 generator.

use turnspec_model::{Effect, EffectId};

use crate::action::Action;
use crate::error::RuleError;
use crate::event::EventSink;
use crate::game::Game;
use crate::host::{Host, StepBeganHook, TurnActionHook};
use crate::state::{PlayerId, Status};
use turnspec_model::{Spec, TimingId, Who};

/// An automatic player for every seat: decides for whoever holds priority,
/// and answers the host hooks too, so simulations need nothing else.
pub trait Policy: Host {
    /// The action for the player who holds priority.
    fn decide(&mut self, game: &Game) -> Action;

    /// A structural effect of the spec the host applies now, for the
    /// player given, before the holder decides: [`play_out`] applies it
    /// with [`Game::apply_declared_effect`] instead of asking
    /// [`Policy::decide`]. None by default; the random policy's
    /// `effect_chance` uses it. A policy that wraps another forwards it.
    #[inline]
    fn host_effect(&mut self, game: &Game) -> Option<(EffectId, PlayerId)> {
        let _ = game;
        None
    }
}

/// One decision of `policy`: the structural effect it applies as the host,
/// if any ([`Policy::host_effect`]), or else the move of the player who
/// holds priority ([`Policy::decide`]). What [`play_out`] does each time.
#[inline(always)]
pub fn decide_and_apply<P: Policy, S: EventSink>(
    game: &mut Game,
    policy: &mut P,
    sink: &mut S,
) -> Result<(), RuleError> {
    match policy.host_effect(game) {
        Some((effect, player)) => apply_host_effect(game, effect, player, policy, sink),
        None => {
            let action = policy.decide(game);
            game.apply(action, policy, sink)
        }
    }
}

/// Out of line and cold, so the decision loop stays as small as the pass
/// path needs (an effect is rare, and the all-pass and busy policies have
/// none).
#[cold]
#[inline(never)]
fn apply_host_effect<P: Policy, S: EventSink>(
    game: &mut Game,
    effect: EffectId,
    player: PlayerId,
    policy: &mut P,
    sink: &mut S,
) -> Result<(), RuleError> {
    game.apply_declared_effect(effect, player, policy, sink)
}

/// Nobody ever acts; every hook gets the answer 0 (no attackers...).
#[derive(Debug, Clone, Copy, Default)]
pub struct AllPass;

impl Host for AllPass {}

impl Policy for AllPass {
    fn decide(&mut self, game: &Game) -> Action {
        Action::Pass {
            player: game.holder().unwrap_or_default(),
        }
    }
}

/// SplitMix64: tiny, fast, and fixed forever, so seeds stay reproducible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits; the sequence depends only on the seed.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

/// Plays legal actions at random: passes most of the time so stacks stay
/// shallow and turns end; answers hooks uniformly within their range.
#[derive(Debug, Clone)]
pub struct RandomPolicy {
    rng: SplitMix64,
    next_label: u32,
    /// Chance in 256 that a holder with something legal to play plays it.
    pub act_chance: u8,
    /// Chance in 1024, at each decision, that the host applies one of the
    /// spec's structural effects (extra turn, skip, end the turn...) for a
    /// random player, so random runs exercise them. 0 with [`RandomPolicy::new`].
    pub effect_chance: u16,
    /// Chance in 256 that a turn-based action hook reports a trigger, so
    /// windows that open only when something is pending get exercised.
    pub trigger_chance: u8,
}

impl RandomPolicy {
    /// Random plays and hook answers; no structural effects, no triggers.
    pub fn new(seed: u64) -> Self {
        RandomPolicy {
            rng: SplitMix64(seed),
            next_label: 1,
            act_chance: 64,
            effect_chance: 0,
            trigger_chance: 0,
        }
    }

    /// Like [`RandomPolicy::new`], plus the spec's structural effects and
    /// triggers from turn-based actions now and then (what `turnspec run
    /// --policy random` uses).
    pub fn with_effects(seed: u64) -> Self {
        RandomPolicy {
            effect_chance: 12,
            trigger_chance: 16,
            ..RandomPolicy::new(seed)
        }
    }
}

impl Host for RandomPolicy {
    fn turn_action(&mut self, mut hook: TurnActionHook<'_>) -> u16 {
        if self.trigger_chance > 0 && self.rng.below(256) < self.trigger_chance as u64 {
            self.next_label = self.next_label.wrapping_add(1);
            let _ = hook.triggers.add(hook.ctx.active, self.next_label);
        }
        // Uniform in 0..=2; the engine clamps to the action's own maximum.
        self.rng.below(3) as u16
    }
}

impl Policy for RandomPolicy {
    fn host_effect(&mut self, game: &Game) -> Option<(EffectId, PlayerId)> {
        let effects = game.spec().effects().len() as u64;
        if effects > 0 && self.effect_chance > 0 && self.rng.below(1024) < self.effect_chance as u64
        {
            let effect = game
                .spec()
                .effects()
                .ids()
                .nth(self.rng.below(effects) as usize);
            let seat = PlayerId(self.rng.below(game.players() as u64) as u8);
            if let Some(effect) = effect.filter(|_| game.state().is_in(seat)) {
                return Some((effect, seat));
            }
        }
        None
    }

    fn decide(&mut self, game: &Game) -> Action {
        let player = game.holder().unwrap_or_default();
        let playable = game
            .legal_actions(player)
            .filter(|a| matches!(a, Action::Play { .. }))
            .count() as u64;
        // Every play needs a full round of passes to resolve, so with more
        // players each must act less often, and a deep stack stops all
        // playing: random games always reach the end of their turns.
        let others = (game.players() as u64).saturating_sub(1).max(1);
        let chance = self.act_chance as u64 / others;
        if playable > 0 && game.stack().len() < 16 && self.rng.below(256) < chance {
            let pick = self.rng.below(playable) as usize;
            if let Some(Action::Play { timing, .. }) = game
                .legal_actions(player)
                .filter(|a| matches!(a, Action::Play { .. }))
                .nth(pick)
            {
                // Structural actions (starting a phase) are rarer, so random
                // turns stay finite in expectation.
                let structural = matches!(
                    game.spec().timing_class(timing).map(|t| t.effect),
                    Some(Effect::StartPhase(_))
                );
                if !structural || self.rng.below(2) == 0 {
                    return labelled_play(&mut self.next_label, player, timing);
                }
            }
        }
        Action::Pass { player }
    }
}

/// Plays `policy` until the game stops (turn limit or stall). Returns the
/// number of decisions taken.
pub fn play_out<P: Policy, S: EventSink>(game: &mut Game, policy: &mut P, sink: &mut S) -> u64 {
    game.start(policy, sink);
    let mut decisions = 0;
    while game.status() == Status::Running {
        if decide_and_apply(game, policy, sink).is_err() {
            break;
        }
        decisions += 1;
    }
    decisions
}

/// The `busy` workload: every window that opens sees one instant-speed play.
///
/// - When the active player receives priority as a window opens with an empty
///   stack (the first priority of that window: nobody has passed yet and the
///   policy has not played in this window), it plays the spec's first timing
///   class that anyone may use and that goes on the stack (MTG's instant
///   speed, GA's fast), `depth` times in a row (it keeps priority after each,
///   117.3c). Then everyone passes until the stack is empty and the window
///   closes: with N players, (depth + 1) × N passes per window.
/// - A spec with no such class (only the active player acts: Lorcana,
///   Pokémon) gets one play per window instead: at the same moment, the
///   active player plays the first timing class, in the spec's order, that
///   they may use there ([`Game::check_play`]), among the classes they may
///   use at all (`who` is `any` or `active_player`) that change no structure
///   (no `start_phase` effect, no `ends`, no `enters`): Lorcana's `ink`,
///   Pokémon's `bench`. When no class is legal the window passes. `depth`
///   counts only plays that go on the stack, so a play that does not (a
///   special action) is made once per window.
/// - Turn-based actions that ask "how many" (an answer counter with a
///   maximum above 1: MTG's declare attackers) are answered 1; yes/no
///   questions (a maximum of 1: MTG's first-strike check, GA's materialize
///   play) are answered 0. So MTG has one attacker, no blocker question, no
///   first strike: all five combat steps, no repeated damage step.
///
/// The timing class and the answers come from the spec, never from names.
#[derive(Debug, Clone)]
pub struct BusyPolicy<'s> {
    spec: &'s Spec,
    timing: Option<TimingId>,
    /// Plays stacked per window before passing (at least 1).
    depth: u8,
    /// The stage of the current step whose opening the policy has seen
    /// (reset when a step begins), whether it opened with an empty stack,
    /// and how often the policy played there.
    window: Option<u8>,
    opened_empty: bool,
    played: u8,
    next_label: u32,
    /// The turn-based actions (the first 64) answered 1, worked out once.
    answers_one: u64,
}

/// Whether the busy workload answers this action 1: it asks "how many".
fn answers_one(a: &turnspec_model::TurnAction) -> bool {
    a.answer_counter.is_some() && a.answer_play.is_none() && a.answer_max > 1
}

impl<'s> BusyPolicy<'s> {
    /// The busy workload for `spec`: its timing class and its answers are
    /// read from the spec once, here.
    pub fn new(spec: &'s Spec) -> Self {
        let timing = spec
            .timing()
            .iter_ids()
            .find(|(_, t)| t.who == Who::Any && t.effect == Effect::Stack)
            .map(|(id, _)| id);
        BusyPolicy {
            spec,
            timing,
            depth: 1,
            window: None,
            opened_empty: false,
            played: 0,
            next_label: 0,
            answers_one: spec
                .turn_actions()
                .iter()
                .take(64)
                .enumerate()
                .filter(|(_, a)| answers_one(a))
                .fold(0, |acc, (i, _)| acc | 1 << i),
        }
    }

    /// Stack `depth` plays per window instead of one (clamped to 1..=255).
    pub fn with_depth(mut self, depth: u8) -> Self {
        self.depth = depth.max(1);
        self
    }

    /// The timing class the policy plays at, if the spec has one: its
    /// `who = "any"` stack class, or else the first of the classes the
    /// active player may try (the one it plays when that one is legal).
    pub fn timing(&self) -> Option<TimingId> {
        self.timing.or_else(|| self.active_classes().next())
    }

    /// Without a `who = "any"` stack class: the classes the active player
    /// may try at a window's opening, in the spec's order.
    fn active_classes(&self) -> impl Iterator<Item = TimingId> + 's {
        let spec: &'s Spec = self.spec;
        spec.timing()
            .iter_ids()
            .filter(|(_, t)| active_player_class(t))
            .map(|(id, _)| id)
    }
}

impl Host for BusyPolicy<'_> {
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        match hook.action.index() {
            i @ 0..64 => (self.answers_one >> i & 1) as u16,
            _ => self.spec.turn_action(hook.action).is_some_and(answers_one) as u16,
        }
    }

    fn step_began(&mut self, _: StepBeganHook<'_>) {
        // A new step (or a repetition of one): no window of it has seen a play.
        self.window = None;
        self.played = 0;
    }
}

impl Policy for BusyPolicy<'_> {
    /// Reads only the state (no spec lookups) until it is about to play:
    /// the policy runs as often as the engine's pass path, so it stays
    /// inline and the play itself is out of line.
    #[inline]
    fn decide(&mut self, game: &Game) -> Action {
        let player = game.holder().unwrap_or_default();
        // Plays happen only before anyone passed, by the active player; a
        // window's first priority is such a decision too (it goes to the
        // active player with no passes), so the rest never misses one.
        if game.passes() != 0 || player != game.active_player() {
            return Action::Pass { player };
        }
        let stage = game.stage_index();
        let stacked = game.stack().len();
        if self.window != Some(stage) {
            // The window's first priority (the step began since the last
            // one, or this is a later window of the same step): it counts
            // only if it opened with an empty stack (not after a trigger or
            // a turn-based play went on the stack).
            self.window = Some(stage);
            self.opened_empty = stacked == 0;
            self.played = 0;
        }
        // Still at the window's opening: nobody passed, and the stack holds
        // only what this policy played here.
        if self.opened_empty && self.played < self.depth && stacked == self.played as usize {
            return self.play_if_legal(game, player);
        }
        Action::Pass { player }
    }
}

impl BusyPolicy<'_> {
    #[inline(never)]
    fn play_if_legal(&mut self, game: &Game, player: crate::PlayerId) -> Action {
        match self.timing {
            Some(timing)
                if game
                    .check_play(player, timing, self.next_label.wrapping_add(1))
                    .is_ok() =>
            {
                self.played += 1;
                labelled_play(&mut self.next_label, player, timing)
            }
            Some(_) => Action::Pass { player },
            None => self.play_first_legal(game, player),
        }
    }

    /// One play per window for specs without a `who = "any"` stack class:
    /// the first of the active player's classes legal here.
    #[inline(never)]
    fn play_first_legal(&mut self, game: &Game, player: crate::PlayerId) -> Action {
        let legal = self.active_classes().find(|&t| {
            game.check_play(player, t, self.next_label.wrapping_add(1))
                .is_ok()
        });
        match legal {
            Some(timing) => {
                self.played += 1;
                labelled_play(&mut self.next_label, player, timing)
            }
            None => Action::Pass { player },
        }
    }
}

/// Whether the busy workload may play this class for the active player when
/// the spec has no `who = "any"` stack class: the active player may use it,
/// and it changes no structure (starts, ends or elects no phase or turn).
fn active_player_class(t: &turnspec_model::TimingClass) -> bool {
    matches!(t.who, Who::Any | Who::ActivePlayer)
        && !matches!(t.effect, Effect::StartPhase(_))
        && t.ends.is_none()
        && t.enters.is_none()
        && !t.by_object
}

/// A play with the next of a policy's labels, so every object it puts on
/// the stack can be told apart in a trace.
fn labelled_play(next_label: &mut u32, player: crate::PlayerId, timing: TimingId) -> Action {
    *next_label = next_label.wrapping_add(1);
    Action::Play {
        player,
        timing,
        label: *next_label,
    }
}

//! One simulated game, counted: what `turnspec simulate` runs many times in
//! parallel and what `turnspec compare` (without scenario paths) runs under
//! each spec. Both call [`play_game`] and sum the same [`Counts`], so their
//! figures agree for the same spec, policy, seed and number of turns.
//!
//! What is counted (see docs/performance.md, "What simulate and compare
//! count"):
//!
//! - **turns**: turns begun;
//! - **steps**: steps begun, repetitions included, and a step-less phase
//!   counts as one step (its implicit step has no step events of its own);
//! - **windows**: priority windows opened (the first priority of each);
//! - **passes**: times a player passed priority;
//! - **actions**: plays (spells, abilities, special actions) the players
//!   chose;
//! - **pushes** / **resolutions**: objects put on / resolved from the stack;
//! - **turn actions**: turn-based actions performed;
//! - **triggers**: triggered abilities put on the stack;
//! - **stalled** / **never ends**: games that stopped because no window
//!   could open / because a turn never ended.
//!
//! Game `i` plays with a seed derived from (`seed`, `i`) only ([`game_seed`]),
//! and [`Tally`] combines per-game hashes in game-index order with a fixed
//! hasher (FNV-1a), so the digest depends on the spec, the seed and the
//! options, never on threads or scheduling.

use std::hash::{Hash, Hasher};

use turnspec_engine::HostWrapper;
use turnspec_engine::policy::{AllPass, BusyPolicy, Policy, RandomPolicy, SplitMix64, play_out};
use turnspec_engine::{
    Action, Because, EndlessTurn, Event, EventSink, Game, GameOptions, Host, Status,
};
use turnspec_engine::{AskedCounts, AutoPasser, play_out_with_stops};
use turnspec_spec::{EffectId, Spec};

/// Who plays the simulated games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimPolicy {
    /// Nobody acts; every turn-based question is answered 0 (no attackers).
    AllPass,
    /// `BusyPolicy`: in every window that opens, the active player plays the
    /// spec's first `who = "any"` stack timing class ([`Setup::depth`] times)
    /// and everyone passes; "how many" questions are answered 1.
    Busy,
    /// Random legal actions and hook answers (`RandomPolicy::new`), seeded
    /// per game by [`game_seed`].
    Random,
}

impl SimPolicy {
    /// The name the command line and the JSON forms use.
    pub fn name(self) -> &'static str {
        match self {
            SimPolicy::AllPass => "all-pass",
            SimPolicy::Busy => "busy",
            SimPolicy::Random => "random",
        }
    }
}

/// FNV-1a, 64 bits: fixed forever, unlike `RandomState`.
#[derive(Debug, Clone, Copy)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The seed of game `index`: SplitMix64 of the run's seed mixed with the index.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let base = SplitMix64(seed).next_u64();
    SplitMix64(base ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// What one game (or a sum of games) did; the module documentation says
/// what each count means.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Turns begun.
    pub turns: u64,
    /// Steps begun, repetitions included; a step-less phase counts as one.
    pub steps: u64,
    /// Priority windows that opened.
    pub windows: u64,
    /// Times a player passed priority.
    pub passes: u64,
    /// Plays (spells, abilities, special actions) the players chose.
    pub actions: u64,
    /// Objects put on the stack.
    pub pushes: u64,
    /// Objects resolved from the stack.
    pub resolutions: u64,
    /// Turn-based actions performed.
    pub turn_actions: u64,
    /// Triggered abilities put on the stack.
    pub triggers: u64,
    /// Games that stalled: no priority window could open.
    pub stalled: u64,
    /// Games stopped in a turn that never ends.
    pub never_ends: u64,
    /// Games that ended by their rules (`Status::Over`): a win or a draw.
    pub over: u64,
    /// Of those, the draws.
    pub draws: u64,
    /// Wins of each seat (P1 first), in games over; a team's win counts for
    /// each of its players.
    pub wins: [u64; MAX_SEATS],
    /// With stop profiles ([`Setup::stops`]): the times each seat was asked
    /// (a decision left to the policy).
    pub asked: [u64; MAX_SEATS],
    /// With stop profiles: the passes the auto-passer made.
    pub auto_passes: u64,
}

/// Seats counted in [`Counts::wins`]: every player a game can have.
pub const MAX_SEATS: usize = turnspec_spec::MAX_PLAYERS as usize;

impl Counts {
    /// Adds `o` to these counts.
    pub fn add(&mut self, o: &Counts) {
        self.turns += o.turns;
        self.steps += o.steps;
        self.windows += o.windows;
        self.passes += o.passes;
        self.actions += o.actions;
        self.pushes += o.pushes;
        self.resolutions += o.resolutions;
        self.turn_actions += o.turn_actions;
        self.triggers += o.triggers;
        self.stalled += o.stalled;
        self.never_ends += o.never_ends;
        self.over += o.over;
        self.draws += o.draws;
        for (w, o) in self.wins.iter_mut().zip(o.wins) {
            *w += o;
        }
        for (a, o) in self.asked.iter_mut().zip(o.asked) {
            *a += o;
        }
        self.auto_passes += o.auto_passes;
    }

    /// `n` per turn (0 when no turn was played).
    pub fn per_turn(&self, n: u64) -> f64 {
        if self.turns == 0 {
            0.0
        } else {
            n as f64 / self.turns as f64
        }
    }

    /// What a game's hash covers: the counts `simulate`'s digest has always
    /// hashed, in that order (turn actions, triggers, never-ends and the
    /// stop counts came later and are left out, so digests recorded before
    /// stay valid; with stops, the final state still tells games apart).
    fn hash_into<H: Hasher>(&self, h: &mut H) {
        for n in [
            self.turns,
            self.steps,
            self.windows,
            self.passes,
            self.actions,
            self.pushes,
            self.resolutions,
            self.stalled,
        ] {
            n.hash(h);
        }
    }
}

/// Counts events; knows which phases are step-less, so their one implicit
/// step (which has no step events) counts as a step when the phase begins.
struct Sink {
    implicit_phases: u64,
    counts: Counts,
}

impl Sink {
    fn new(spec: &Spec) -> Self {
        let implicit_phases = spec
            .phases()
            .iter()
            .enumerate()
            .filter(|(i, p)| p.implicit_step && *i < 64)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        Sink {
            implicit_phases,
            counts: Counts::default(),
        }
    }
}

impl EventSink for Sink {
    /// Always inline: a few additions, called on every event, from call
    /// sites the compiler otherwise leaves out of line depending on how the
    /// engine's code happens to be laid out (28 calls per all-pass turn,
    /// 10 % of a simulation's instructions, after one engine change).
    #[inline(always)]
    fn event(&mut self, event: Event) {
        let c = &mut self.counts;
        match event {
            Event::TurnBegan { .. } => c.turns += 1,
            Event::StepBegan { .. } => c.steps += 1,
            Event::PhaseBegan { phase, .. } => {
                c.steps += (self.implicit_phases >> (phase.index() & 63)) & 1;
            }
            Event::PriorityGiven {
                because: Because::WindowOpened,
                ..
            } => c.windows += 1,
            Event::Passed { .. } => c.passes += 1,
            Event::Pushed { .. } => c.pushes += 1,
            Event::Resolved { .. } => c.resolutions += 1,
            Event::TurnAction { .. } => c.turn_actions += 1,
            Event::TriggerPut { .. } => c.triggers += 1,
            _ => {}
        }
    }
}

/// A policy that counts the plays the wrapped policy chooses and otherwise
/// behaves exactly like it: every [`Host`] hook is forwarded (a test checks
/// it), so wrapping never changes what a policy does.
#[derive(Debug, Clone)]
pub struct Counted<P> {
    /// The wrapped policy.
    pub inner: P,
    /// Plays it chose so far.
    pub plays: u64,
}

impl<P> Counted<P> {
    /// Wraps `inner`, with no plays counted yet.
    pub fn new(inner: P) -> Self {
        Counted { inner, plays: 0 }
    }
}

impl<P: Host> HostWrapper for Counted<P> {
    type Inner = P;

    #[inline]
    fn inner(&mut self) -> &mut P {
        &mut self.inner
    }
}

impl<P: Policy> Policy for Counted<P> {
    #[inline]
    fn decide(&mut self, game: &Game) -> Action {
        let action = self.inner.decide(game);
        self.plays += matches!(action, Action::Play { .. }) as u64;
        action
    }

    #[inline]
    fn host_effect(&mut self, game: &Game) -> Option<(EffectId, turnspec_engine::PlayerId)> {
        self.inner.host_effect(game)
    }
}

/// The inputs every game of a run shares.
#[derive(Debug, Clone, Copy)]
pub struct Setup<'a> {
    /// The rules.
    pub spec: &'a Spec,
    /// Players seated.
    pub players: u8,
    /// Turns per game (the game stops when this turn ends).
    pub turns: u32,
    /// Who plays.
    pub policy: SimPolicy,
    /// Plays the busy policy stacks per window before passing (at least 1).
    pub depth: u8,
    /// The run's seed; game `i` uses [`game_seed`]`(seed, i)`.
    pub seed: u64,
    /// Play as clients with these stop profiles would (docs/stops.md): the
    /// auto-passer passes where they say, the policy decides only where a
    /// player is asked. Each game starts from a copy.
    pub stops: Option<&'a AutoPasser>,
}

/// What one game gave.
#[derive(Debug, Clone, Copy)]
pub struct GameResult {
    /// Its counts.
    pub counts: Counts,
    /// The hash of its final state and counts.
    pub hash: u64,
    /// Where its turn went round, if it never ended.
    pub endless: Option<EndlessTurn>,
}

/// Plays game `index` of a run. Fails only when the game cannot be set up
/// (a player count the spec does not allow).
pub fn play_game(setup: Setup<'_>, index: u64) -> Result<GameResult, String> {
    let mut game =
        Game::new(setup.spec, &GameOptions::players(setup.players)).map_err(|e| e.to_string())?;
    game.set_turn_limit(setup.turns);
    let mut sink = Sink::new(setup.spec);
    let mut passer = setup.stops.cloned();
    let passer = passer.as_mut();
    let (plays, asked) = match setup.policy {
        SimPolicy::AllPass => drive(&mut game, AllPass, passer, &mut sink),
        SimPolicy::Busy => drive(
            &mut game,
            BusyPolicy::new(setup.spec).with_depth(setup.depth),
            passer,
            &mut sink,
        ),
        SimPolicy::Random => drive(
            &mut game,
            RandomPolicy::new(game_seed(setup.seed, index)),
            passer,
            &mut sink,
        ),
    };
    let mut counts = sink.counts;
    counts.auto_passes = asked.auto_passes;
    for (c, a) in counts.asked.iter_mut().zip(asked.asked) {
        *c = a;
    }
    counts.actions = plays;
    counts.stalled = (game.status() == Status::Stalled) as u64;
    counts.never_ends = (game.status() == Status::NeverEnds) as u64;
    if let Some(outcome) = game.outcome() {
        counts.over = 1;
        counts.draws = outcome.is_draw() as u64;
        for p in outcome.winners() {
            counts.wins[p.index() % MAX_SEATS] += 1;
        }
    }
    let mut h = Fnv1a::default();
    game.state().hash(&mut h);
    counts.hash_into(&mut h);
    Ok(GameResult {
        counts,
        hash: h.finish(),
        endless: game.endless_turn(),
    })
}

fn drive<P: Policy>(
    game: &mut Game,
    policy: P,
    passer: Option<&mut AutoPasser>,
    sink: &mut Sink,
) -> (u64, AskedCounts) {
    let mut counted = Counted::new(policy);
    let asked = match passer {
        None => {
            play_out(game, &mut counted, sink);
            AskedCounts::default()
        }
        Some(passer) => play_out_with_stops(game, &mut counted, passer, sink, |_, _, _| {}),
    };
    (counted.plays, asked)
}

/// Games folded in game-index order: their summed counts, the digest and
/// the first game whose turn never ended.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Games folded so far.
    pub games: u64,
    /// Their summed counts.
    pub counts: Counts,
    /// The first game stopped in a turn that never ends, and where.
    pub first_endless: Option<(u64, EndlessTurn)>,
    digest: Fnv1a,
}

impl Tally {
    /// Folds in the next game (games must come in index order).
    pub fn add(&mut self, game: &GameResult) {
        self.counts.add(&game.counts);
        self.digest.write_u64(game.hash);
        if let Some(e) = game.endless {
            self.first_endless = self.first_endless.or(Some((self.games, e)));
        }
        self.games += 1;
    }

    /// The digest of the games folded so far.
    pub fn digest(&self) -> u64 {
        self.digest.finish()
    }
}

/// Plays games `0..games` one after the other and folds them. Stops at the
/// first game that cannot be set up.
pub fn play_games(setup: Setup<'_>, games: u64) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for i in 0..games {
        tally.add(&play_game(setup, i)?);
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_reference_vectors() {
        let mut h = Fnv1a::default();
        h.write(b"");
        assert_eq!(h.finish(), 0xcbf2_9ce4_8422_2325);
        let mut h = Fnv1a::default();
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
        let mut h = Fnv1a::default();
        h.write(b"foobar");
        assert_eq!(h.finish(), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn seeds_differ_per_game_and_are_fixed() {
        assert_ne!(game_seed(7, 0), game_seed(7, 1));
        assert_ne!(game_seed(7, 0), game_seed(8, 0));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
    }
}

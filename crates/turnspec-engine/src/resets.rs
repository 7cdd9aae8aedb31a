//! Counters that reset as a turn, a phase or a step begins (`reset =
//! "turn" | "phase" | "step"`), worked out once per spec as masks, so a
//! reset is a few masked stores whichever way the turn is run (the turn
//! program or the interpreter).

use turnspec_model::{MAX_COUNTERS, MAX_PLAYER_COUNTERS, Reset, Spec};

use crate::state::GameState;

/// What each level of the turn resets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CounterResets {
    pub turn: ResetKeep,
    pub phase: ResetKeep,
    pub step: ResetKeep,
}

impl CounterResets {
    pub(crate) fn of(spec: &Spec) -> CounterResets {
        CounterResets {
            turn: ResetKeep::of(spec, Reset::Turn),
            phase: ResetKeep::of(spec, Reset::Phase),
            step: ResetKeep::of(spec, Reset::Step),
        }
    }
}

/// Which counters survive one level's beginning: a mask per counter and
/// per per-player slot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ResetKeep {
    /// Some counter resets here (per player or not: a per-player counter's
    /// own slot in `counters` is zeroed too).
    any: bool,
    counters: [u16; MAX_COUNTERS],
    /// Some per-player counter resets here.
    players: bool,
    player_slots: [u16; MAX_PLAYER_COUNTERS],
    /// The counters that reset here, one bit each (to refill those with a
    /// `start` value, resources.rs).
    pub(crate) mask: u16,
    /// Some counter that resets here has a `start` value to refill.
    pub(crate) refill: bool,
}

impl ResetKeep {
    fn of(spec: &Spec, level: Reset) -> ResetKeep {
        let mut keep = ResetKeep {
            any: false,
            counters: [u16::MAX; MAX_COUNTERS],
            players: false,
            player_slots: [u16::MAX; MAX_PLAYER_COUNTERS],
            mask: 0,
            refill: false,
        };
        for (i, c) in spec.counters().iter().enumerate().take(MAX_COUNTERS) {
            if c.reset != level {
                continue;
            }
            keep.any = true;
            keep.mask |= 1 << i;
            keep.refill |= c.start != 0;
            keep.counters[i] = 0;
            if c.per_player
                && let Some(slot) = keep.player_slots.get_mut(c.slot as usize)
            {
                keep.players = true;
                *slot = 0;
            }
        }
        keep
    }

    /// Zeroes what resets; true when some of it has a `start` value to
    /// refill (`Game::reset_counters` does), so a level where nothing
    /// resets costs one test.
    #[inline(always)]
    pub(crate) fn apply(&self, state: &mut GameState) -> bool {
        if !self.any {
            return false;
        }
        for (c, k) in state.counters.iter_mut().zip(self.counters) {
            *c &= k;
        }
        if !self.players {
            return self.refill;
        }
        for (row, k) in state.player_counters.iter_mut().zip(self.player_slots) {
            for c in row {
                *c &= k;
            }
        }
        self.refill
    }
}

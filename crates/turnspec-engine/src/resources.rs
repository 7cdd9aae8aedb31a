//! Resources: counters with a `start` value that plays spend (`cost`) and
//! effects grant (`kind = "grant"`), first built for Lorcana's one inking
//! per turn (4.2.3) and Flesh and Blood's action points.

use turnspec_model::{CounterId, TimingClass};

use crate::game::Game;
use crate::state::PlayerId;

impl Game {
    /// Counters in `mask` that have a `start` go back to it, for every
    /// player (called after they were reset to 0). Out of line: only specs
    /// with resources call it, and the turn's hot loop stays small.
    #[inline(never)]
    pub(crate) fn refill(&mut self, mask: u16) {
        let mut m = mask & self.cached.features().starts;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let Some(c) = self.spec.counters().as_slice().get(i) else {
                continue;
            };
            if c.per_player {
                self.state.player_counters[c.slot as usize] =
                    [c.start; turnspec_model::MAX_PLAYERS as usize];
            } else {
                self.state.counters[i] = c.start;
            }
        }
    }

    /// What `player` holds of the resource a class costs, if it costs one
    /// they cannot pay: `(needed, held)`.
    pub(crate) fn unpaid(&self, player: PlayerId, tc: &TimingClass) -> Option<(u16, u16)> {
        let cost = tc.cost?;
        let have = self.counter_of(cost.counter, player).unwrap_or(0);
        (have < cost.amount).then_some((cost.amount, have))
    }

    /// Spends the cost of a play (checked before).
    pub(crate) fn pay(&mut self, player: PlayerId, cost: Option<turnspec_model::Cost>) {
        if let Some(cost) = cost {
            let c = self.counter_slot(cost.counter, player);
            *c = c.saturating_sub(cost.amount);
        }
    }

    /// A `grant` effect: `player`'s counter goes up by `amount`.
    pub(crate) fn grant(&mut self, player: PlayerId, counter: CounterId, amount: u16) {
        let c = self.counter_slot(counter, player);
        *c = c.saturating_add(amount);
    }
}

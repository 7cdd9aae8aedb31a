//! Turn order and sides: who sits next, who stands for a team with shared
//! turns (805), how far a player sits from the active one (APNAP, 101.4),
//! and who receives priority first when the active player has left
//! (800.4j). The turn program keeps a next-side table built from these.
//!
//! Everything here reads the state and the spec's turn order only, so the
//! tables built from it (`cached.rs`) and the general paths agree.

use turnspec_model::TurnOrder;

use crate::state::{GameState, PlayerId};

impl GameState {
    /// The spec's turn order, or the other way after an odd number of
    /// `reverse_turn_order` effects (101.4).
    #[inline]
    pub(crate) fn turn_order(&self, spec_order: TurnOrder) -> TurnOrder {
        match self.mods.as_ref() {
            Some(m) if m.reversed => match spec_order {
                TurnOrder::Clockwise => TurnOrder::Counterclockwise,
                TurnOrder::Counterclockwise => TurnOrder::Clockwise,
            },
            _ => spec_order,
        }
    }

    /// The active player, or the next player still in the game (800.4j).
    #[inline]
    pub(crate) fn first_holder(&self, spec_order: TurnOrder) -> PlayerId {
        if self.is_in(self.active) {
            return self.active;
        }
        self.first_holder_after_leaving(spec_order)
    }

    fn first_holder_after_leaving(&self, spec_order: TurnOrder) -> PlayerId {
        // The active team goes on with its other members (805); a player
        // alone who left is followed by the next player (800.4j).
        match self.primary_of(self.active) {
            Some(p) if self.has_teams => p,
            _ => self.next_in_game(spec_order, self.active),
        }
    }

    /// The next side in turn order: the next player, or with teams the
    /// player standing for the next team.
    pub(crate) fn next_in_game(&self, spec_order: TurnOrder, from: PlayerId) -> PlayerId {
        let order = self.turn_order(spec_order);
        let mut p = from;
        if !self.has_teams {
            for _ in 0..self.players {
                p = next_seat(order, self.players, p);
                if self.is_in(p) {
                    return p;
                }
            }
            return from;
        }
        for _ in 0..self.players {
            p = next_seat(order, self.players, p);
            if self.is_in(p) && self.team(p) != self.team(from) && self.is_primary(p) {
                return p;
            }
        }
        from
    }

    /// How many sides after the active player's side `p` sits (APNAP order,
    /// by team with shared team turns, 805.6).
    pub(crate) fn side_distance(&self, spec_order: TurnOrder, p: PlayerId) -> u8 {
        let order = self.turn_order(spec_order);
        if !self.has_teams {
            return seat_distance(order, self.players, self.active, p);
        }
        let mut side = self.active;
        for d in 0..self.players {
            if self.team(side) == self.team(p) {
                return d;
            }
            side = self.next_seat_side(order, side);
        }
        0
    }

    /// The next team's first seat after `from`, counting teams that left
    /// too, so distances stay fixed.
    fn next_seat_side(&self, order: TurnOrder, from: PlayerId) -> PlayerId {
        let mut p = from;
        for _ in 0..self.players {
            p = next_seat(order, self.players, p);
            if self.team(p) != self.team(from) {
                return p;
            }
        }
        from
    }
}

pub(crate) fn next_seat(order: TurnOrder, players: u8, p: PlayerId) -> PlayerId {
    match order {
        TurnOrder::Clockwise => PlayerId((p.0 + 1) % players),
        TurnOrder::Counterclockwise => PlayerId((p.0 + players - 1) % players),
    }
}

/// How many seats after `from` (in turn order) `to` sits.
pub(crate) fn seat_distance(order: TurnOrder, players: u8, from: PlayerId, to: PlayerId) -> u8 {
    match order {
        TurnOrder::Clockwise => (to.0 + players - from.0) % players,
        TurnOrder::Counterclockwise => (from.0 + players - to.0) % players,
    }
}

//! Turn order and sides: who sits next, who stands for a team with shared
//! turns (805), how far a player sits from the active one (APNAP, 101.4),
//! and who receives priority first when the active player has left
//! (800.4j). The turn program keeps a next-side table built from these.

use turnspec_model::TurnOrder;

use crate::game::Game;
use crate::state::PlayerId;

impl Game {
    /// The active player, or the next player still in the game (800.4j).
    #[inline]
    pub(crate) fn first_holder(&self) -> PlayerId {
        if self.state.is_in(self.state.active) {
            return self.state.active;
        }
        self.first_holder_after_leaving()
    }

    /// [`Game::first_holder`] on the fast paths (a window the program
    /// opens, a resolution in `Game::pass`): the active player unless they
    /// may have left during this turn (`Game::active_may_be_out`, set when
    /// the program was rebuilt for a player leaving). The general paths
    /// ask [`Game::first_holder`], so the fuzzer's comparison of the two
    /// checks the flag.
    #[inline(always)]
    pub(crate) fn first_holder_fast(&self) -> PlayerId {
        if self.active_may_be_out {
            return self.first_holder();
        }
        self.state.active
    }

    fn first_holder_after_leaving(&self) -> PlayerId {
        // The active team goes on with its other members (805); a player
        // alone who left is followed by the next player (800.4j).
        match self.state.primary_of(self.state.active) {
            Some(p) if self.state.has_teams => p,
            _ => self.next_in_game(self.state.active),
        }
    }

    /// The next side in turn order: the next player, or with teams the
    /// player standing for the next team.
    pub(crate) fn next_in_game(&self, from: PlayerId) -> PlayerId {
        let s = &self.state;
        let order = self.turn_order();
        let mut p = from;
        if !s.has_teams {
            for _ in 0..s.players {
                p = next_seat(order, s.players, p);
                if s.is_in(p) {
                    return p;
                }
            }
            return from;
        }
        for _ in 0..s.players {
            p = next_seat(order, s.players, p);
            if s.is_in(p) && s.team(p) != s.team(from) && s.is_primary(p) {
                return p;
            }
        }
        from
    }

    /// How many sides after the active player's side `p` sits (APNAP order,
    /// by team with shared team turns, 805.6).
    pub(crate) fn side_distance(&self, p: PlayerId) -> u8 {
        let s = &self.state;
        if !s.has_teams {
            return seat_distance(self.turn_order(), s.players, s.active, p);
        }
        let mut side = s.active;
        for d in 0..s.players {
            if s.team(side) == s.team(p) {
                return d;
            }
            side = next_seat_side(self, side);
        }
        0
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

/// The next team's first seat after `from`, counting teams that left too, so
/// distances stay fixed.
fn next_seat_side(game: &Game, from: PlayerId) -> PlayerId {
    let s = &game.state;
    let order = game.turn_order();
    let mut p = from;
    for _ in 0..s.players {
        p = next_seat(order, s.players, p);
        if s.team(p) != s.team(from) {
            return p;
        }
    }
    from
}

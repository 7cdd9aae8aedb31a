//! Seat roles: names for one player at a time besides the active player
//! (the defending hero's player, the holder of the initiative), and the
//! other ways a spec says who acts next (`after`, a chain that resolves
//! whole, steps a play runs).

use crate::ids::RuleRef;

/// `[roles.ID]`: a role one player holds at a time.
#[derive(Debug, Clone)]
pub struct Role {
    /// The table key; windows (`acts`), classes (`who`, `claims`) and
    /// conditions (`role.ID`) name it.
    pub id: String,
    /// `name`: shown in traces (the id when not given).
    pub name: String,
    /// `description`: what the role is, for people.
    pub description: String,
    /// `rule`: cited when the role changes hands.
    pub rule: RuleRef,
    /// `initial`: who holds it when the game begins, and again as each
    /// turn begins with `reset = "turn"`.
    pub initial: RoleStart,
    /// `reset = "turn"`: it goes back to `initial` as each turn begins.
    /// Otherwise (`"never"`) it stays until something gives it away.
    pub each_turn: bool,
    /// `next_turn = true`: its holder takes the next turn, instead of the
    /// next player in turn order (the initiative, SWU 1.12.2).
    pub next_turn: bool,
}

/// `initial`: who holds a role first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoleStart {
    /// `"active_player"`: the player whose turn it is.
    ActivePlayer,
    /// `"next_player"`: the next player in turn order after the active one.
    NextPlayer,
    /// `"starting_player"`: the player who took the game's first turn.
    StartingPlayer,
}

/// `[priority] resolve`: what a round of passes with a non-empty stack does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Resolve {
    /// `"one"`: the top object resolves, then a player receives priority
    /// (117.4).
    #[default]
    One,
    /// `"whole_stack"`: everything on the stack resolves, top first, with
    /// nobody receiving priority in between; triggers wait until it is
    /// empty (a Yu-Gi-Oh! Chain).
    WholeStack,
}

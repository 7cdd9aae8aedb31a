//! How a game ends: `[game_end]` and `[endings.ID]`.

use crate::ids::{CondId, RuleRef, TurnActionId};
use crate::spec::Spec;

/// `[game_end]`: the rules cited when the game ends by itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct GameEndRules {
    /// `last_side_rule`: cited when players leave until one side (a player,
    /// or a team) is left, which wins (Magic 104.2a).
    pub last_side_rule: RuleRef,
    /// `leave_rule`: cited when a player leaves by their own move
    /// (conceding, Magic 104.3a).
    pub leave_rule: RuleRef,
}

/// `[endings.ID]`: one way the game can end for a player, declared by the
/// host when it sees it (a player at 0 life) or checked by the engine at
/// the points of the turn the spec names (20 lore at each step's end).
#[derive(Debug, Clone)]
pub struct Ending {
    /// The table key, `ID` in `[endings.ID]`; hosts declare endings by it.
    pub id: String,
    /// `name`: shown in traces (the id when not given).
    pub name: String,
    /// `result`: what it does to the player it is reached for.
    pub result: EndResult,
    /// `rule`: cited on the events it causes.
    pub rule: RuleRef,
    /// `if` and its keys: the engine checks it itself.
    pub check: Option<EndCheck>,
}

/// `result`: what an ending does to the player it is reached for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndResult {
    /// The player's side wins, and the game is over (Lorcana 20 lore).
    Wins,
    /// The player loses and leaves the game; when one side is left, it
    /// wins (104.3, 104.2a).
    Loses,
    /// The game is over as a draw (104.4a).
    Draw,
}

/// An ending the engine checks by itself.
#[derive(Debug, Clone, Copy)]
pub struct EndCheck {
    /// `if`: the condition. With `for = "each_player"`, per-player counters
    /// read the player checked.
    pub cond: CondId,
    /// `for = "each_player"`: checked for each player in the game, in turn
    /// order from the active player; otherwise for the active player only.
    pub each_player: bool,
    /// `at`: where in the turn it is checked; with `after`, it includes
    /// [`EndPoints::AFTER_ACTION`].
    pub at: EndPoints,
    /// `after`: checked right after this turn-based action happens (the
    /// answer it stores is what the condition reads).
    pub after: Option<TurnActionId>,
}

/// The points of the turn a game-end check runs at (`at`), as a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct EndPoints(u8);

impl EndPoints {
    /// `"turn_start"`: once the turn has begun, before its first phase.
    pub const TURN_START: EndPoints = EndPoints(1);
    /// `"step_end"`: as each step ends (a skipped step does not end).
    pub const STEP_END: EndPoints = EndPoints(2);
    /// `"turn_end"`: as the turn ends, after its last phase.
    pub const TURN_END: EndPoints = EndPoints(4);
    /// `"counter_set"`: whenever the host sets a counter (`set_counter`).
    pub const COUNTER_SET: EndPoints = EndPoints(8);
    /// Every point, with its name in the spec file.
    pub const ALL: [(EndPoints, &'static str); 4] = [
        (Self::TURN_START, "turn_start"),
        (Self::STEP_END, "step_end"),
        (Self::TURN_END, "turn_end"),
        (Self::COUNTER_SET, "counter_set"),
    ];

    /// Right after the turn-based action an ending names in `after`.
    pub const AFTER_ACTION: EndPoints = EndPoints(16);

    /// No point.
    pub const NONE: EndPoints = EndPoints(0);

    /// Both sets together.
    #[must_use]
    pub const fn with(self, other: EndPoints) -> EndPoints {
        EndPoints(self.0 | other.0)
    }

    /// Whether every point of `other` is in this set.
    #[inline]
    pub const fn contains(self, other: EndPoints) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The names of the points in the set, in the order of [`Self::ALL`].
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Self::ALL
            .into_iter()
            .filter(move |(p, _)| self.contains(*p))
            .map(|(_, n)| n)
    }
}

impl Spec {
    /// The points of the turn at which some ending is checked.
    pub fn end_check_points(&self) -> EndPoints {
        self.endings()
            .iter()
            .filter_map(|e| e.check)
            .fold(EndPoints::NONE, |a, c| a.with(c.at))
    }
}

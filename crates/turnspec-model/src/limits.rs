//! The limits of the compiled model. The loader refuses a spec that goes
//! past one (`turnspec::limit`), so no index ever wraps around.

/// Players in one game (player sets are bits of a `u8`).
pub const MAX_PLAYERS: u8 = 8;
/// Counters (kept in a fixed array in the game state).
pub const MAX_COUNTERS: usize = 16;
/// Facts, and separately variants (bits of a `u64`).
pub const MAX_FLAGS: usize = 64;
/// Timing classes (which classes a step allows is a `u32` mask).
pub const MAX_TIMING_CLASSES: usize = 32;
/// Kinds of phase (`counts_as`), counted per turn in a fixed array.
pub const MAX_PHASE_KINDS: usize = 8;
/// Phases.
pub const MAX_PHASES: usize = 64;
/// Stages (actions and windows) in one step.
pub const MAX_STAGES_PER_STEP: usize = 32;
/// Structural effects.
pub const MAX_EFFECTS: usize = 64;
/// Ways a game can end (`[endings.ID]`).
pub const MAX_ENDINGS: usize = 32;
/// Facts the host sets on objects (`[objects.facts.ID]`, bits of a `u64`).
pub const MAX_OBJECT_FACTS: usize = 64;
/// Seat roles (`[roles.ID]`): the engine keeps each holder in a fixed array.
pub const MAX_ROLES: usize = 4;
/// Timing classes limited per object (`limit = { per = "object" }`): each
/// object keeps this many use counts.
pub const MAX_OBJECT_LIMITS: usize = 4;
/// Counters kept per player (`per = "player"`), in fixed game state.
pub const MAX_PLAYER_COUNTERS: usize = 2;
/// Steps, implicit ones included (`u16` indices).
pub const MAX_STEPS: usize = u16::MAX as usize;
/// Turn-based actions (`u16` indices).
pub const MAX_TURN_ACTIONS: usize = u16::MAX as usize;
/// Priority windows (`u16` indices).
pub const MAX_WINDOWS: usize = u16::MAX as usize;
/// Distinct rule citations (`u16` indices, one value kept for "none").
pub const MAX_RULES: usize = u16::MAX as usize;
/// Nodes of all compiled conditions together.
pub const MAX_CONDITION_NODES: usize = 1 << 24;
/// How deeply a condition may nest (parentheses, `not`, `and`, `or`), so
/// that parsing and evaluating one never exhausts the stack.
pub const MAX_CONDITION_DEPTH: usize = 64;
/// The largest `repeat_count` (a `u8` in the game state; it stops there).
pub const MAX_REPEAT_COUNT: usize = u8::MAX as usize;

/// An element count or value past one of the model's limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitError {
    /// What went past the limit ("steps", "condition depth").
    pub what: &'static str,
    /// The limit.
    pub limit: usize,
    /// The value found.
    pub value: usize,
}

impl std::fmt::Display for LimitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "too many {}: {} (the limit is {})",
            self.what, self.value, self.limit
        )
    }
}

impl std::error::Error for LimitError {}

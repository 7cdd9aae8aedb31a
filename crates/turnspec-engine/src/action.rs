//! What a player does ([`Action`]).

use turnspec_model::TimingId;

use crate::state::PlayerId;

/// A player's move: pass, play, choose from the bag, or leave the game.
///
/// What the host tells the engine (a trigger, a fact, a structural effect,
/// a delayed trigger, a duration, mana...) is not a move: each is a method
/// of [`crate::Game`] (`report_trigger`, `set_fact`,
/// `apply_declared_effect`...; see `commands.rs`), with the same typed
/// errors and the same promise that a refused command changes nothing.
///
/// The `u32` tag is for speed, not for FFI: it keeps an `Action` 12 bytes.
/// Packed into 8 bytes (the layout Rust picks for these four moves) it
/// travels in one register and the pass path spends about 7 % more
/// instructions per turn taking it apart (measured with
/// `crates/turnspec-bench/scripts/guard.sh`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Action {
    /// Pass priority (117.3d).
    Pass {
        /// The player passing; they must hold priority.
        player: PlayerId,
    },
    /// Cast, activate, play a land, attack: anything at a timing class.
    /// `label` is the host's handle for what was played.
    Play {
        /// The player playing; they must hold priority.
        player: PlayerId,
        /// The timing class the play is made at, which decides when it is
        /// allowed and whether it uses the stack.
        timing: TimingId,
        /// The host's handle for what was played, shown in the trace.
        label: u32,
    },
    /// A player leaves the game (800.4): concedes. The host removes a
    /// player with [`crate::Game::remove_player`], which is the same.
    Leave {
        /// The player leaving.
        player: PlayerId,
    },
    /// In a spec with `[priority] triggers = "bag"`: the holder resolves
    /// this one of their triggers from the bag next, in the order they
    /// choose (Lorcana 7.7.4.2). A pass resolves their oldest instead.
    Choose {
        /// The player choosing; they must hold priority.
        player: PlayerId,
        /// The label of their trigger in the bag.
        label: u32,
    },
}

// The size the pass path is measured with (see the `repr` above).
const _: () = assert!(std::mem::size_of::<Action>() == 12);

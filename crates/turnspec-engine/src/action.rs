//! What a player or the host does ([`Action`]).

use turnspec_model::{EffectId, FactId, TimingId};

use crate::state::{Place, PlayerId, Scope};

/// Something a player or the host does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// The host reports a triggered ability (not a player action).
    Trigger {
        /// Who controls the triggered ability.
        controller: PlayerId,
        /// The host's handle for the ability, shown in the trace.
        label: u32,
    },
    /// The host changes a fact (not a player action).
    SetFact {
        /// The fact to change.
        fact: FactId,
        /// Its new value.
        value: bool,
    },
    /// The host applies a structural effect declared in the spec for
    /// `player`: an extra turn, extra phases, a skip, ending the turn...
    Effect {
        /// The effect, as the spec declares it.
        effect: EffectId,
        /// The player it is applied for ("you" in the effect's text).
        player: PlayerId,
    },
    /// A player leaves the game (800.4).
    Leave {
        /// The player leaving.
        player: PlayerId,
    },
    /// A delayed trigger: at the beginning of the next `at` (in the
    /// controller's own turn if `own_turn`), it triggers (513.2, GA END 1.1).
    Delay {
        /// Who will control the trigger.
        controller: PlayerId,
        /// The host's handle for the trigger, shown in the trace.
        label: u32,
        /// The phase or step at whose beginning it triggers.
        at: Place,
        /// Only at the beginning of that place in the controller's own turn
        /// ("at the beginning of your next upkeep").
        own_turn: bool,
    },
    /// An effect lasting until the end of the current step, phase or turn;
    /// an `Expired` event marks its end (500.5, 514.2).
    Until {
        /// The host's handle for the effect, given back in `Expired`.
        label: u32,
        /// How long the effect lasts.
        scope: Scope,
    },
    /// Unspent mana in a player's pool, emptied at step or phase ends (500.4).
    AddMana {
        /// Whose pool the mana goes into.
        player: PlayerId,
        /// How much mana.
        amount: u16,
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
    /// The host ends a lasting effect (a `skip` with `lasting = true`)
    /// it applied for `player`; an `EffectStopped` event marks it.
    EndEffect {
        /// The effect, as the spec declares it.
        effect: EffectId,
        /// The player it was applied for.
        player: PlayerId,
    },
    /// A structural effect that names a second player: `player` controls
    /// `target`'s next turn (`control_turn`, 722).
    EffectOn {
        /// The effect, as the spec declares it.
        effect: EffectId,
        /// The player it is applied for ("you").
        player: PlayerId,
        /// The other player it names ("target player").
        target: PlayerId,
    },
    /// A triggered ability that has triggered but is not on the stack yet:
    /// it goes there the next time a player would receive priority
    /// (117.5), unless the turn is ended first and it ceases (723.1a).
    Pending {
        /// Who controls the triggered ability.
        controller: PlayerId,
        /// The host's handle for the ability, shown in the trace.
        label: u32,
    },
    /// A delayed trigger bound to the controller's next turn: at the
    /// beginning of the next `at` in that turn ("at the beginning of the
    /// end step on your next turn"); if that turn ends first, it never
    /// triggers (603.7, 723.1).
    DelayNextTurn {
        /// Who will control the trigger.
        controller: PlayerId,
        /// The host's handle for the trigger, shown in the trace.
        label: u32,
        /// The phase or step at whose beginning it triggers.
        at: Place,
    },
}

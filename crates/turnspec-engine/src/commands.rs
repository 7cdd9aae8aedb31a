//! Host commands: what the host (the program that knows the cards) tells
//! the engine, as opposed to the players' moves that go through
//! [`Game::apply`]. Each is also an [`Action`] variant, so a recorded game
//! or a scenario can hold them in one list; these methods are the API a
//! game written in Rust calls.

use turnspec_model::{EffectId, FactId};

use crate::action::Action;
use crate::error::RuleError;
use crate::event::EventSink;
use crate::game::Game;
use crate::host::{Host, NoHost};
use crate::state::{Place, PlayerId, Scope};

impl Game {
    /// A triggered ability has triggered: it waits, and goes on the stack
    /// (APNAP order) before anyone next receives priority (117.5, 603.3b);
    /// at once if a player holds priority now.
    pub fn report_trigger<S: EventSink>(
        &mut self,
        controller: PlayerId,
        label: u32,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.apply(Action::Trigger { controller, label }, &mut NoHost, sink)
    }

    /// Sets or clears a fact of the spec (a permanent with phasing is in
    /// play, it is day...). Conditions read it from now on.
    pub fn set_fact<S: EventSink>(
        &mut self,
        fact: FactId,
        value: bool,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.apply(Action::SetFact { fact, value }, &mut NoHost, sink)
    }

    /// Applies a structural effect the spec declares (an extra turn, a
    /// skip, ending the turn...) for `player`, the "you" of the effect.
    pub fn apply_declared_effect<H: Host, S: EventSink>(
        &mut self,
        effect: EffectId,
        player: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.apply(Action::Effect { effect, player }, host, sink)
    }

    /// A delayed triggered ability: it triggers at the beginning of the
    /// next `at`, in `controller`'s own turn if `own_turn` (603.7).
    pub fn delay_trigger(
        &mut self,
        controller: PlayerId,
        label: u32,
        at: Place,
        own_turn: bool,
    ) -> Result<(), RuleError> {
        let action = Action::Delay {
            controller,
            label,
            at,
            own_turn,
        };
        self.apply(action, &mut NoHost, &mut ())
    }

    /// An effect that lasts until the end of the step, phase or turn: the
    /// engine reports `Expired` with `label` when it ends.
    pub fn start_duration(&mut self, label: u32, scope: Scope) -> Result<(), RuleError> {
        self.apply(Action::Until { label, scope }, &mut NoHost, &mut ())
    }

    /// Mana added to `player`'s pool; it empties (and may burn) as the
    /// spec's `[mana]` section says.
    pub fn add_mana_to_pool(&mut self, player: PlayerId, amount: u16) -> Result<(), RuleError> {
        self.apply(Action::AddMana { player, amount }, &mut NoHost, &mut ())
    }

    /// `player` leaves the game (800.4): their objects leave the stack,
    /// and the turn goes on as the spec's `[leaving]` section says.
    pub fn remove_player<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.apply(Action::Leave { player }, host, sink)
    }

    /// Applies a structural effect that names a second player: `player`
    /// controls `target`'s next turn (`control_turn`, 722).
    #[allow(clippy::too_many_arguments)] // the two players read best named
    pub fn apply_declared_effect_on<H: Host, S: EventSink>(
        &mut self,
        effect: EffectId,
        player: PlayerId,
        target: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        let action = Action::EffectOn {
            effect,
            player,
            target,
        };
        self.apply(action, host, sink)
    }

    /// Ends a lasting effect (a `skip` with `lasting = true`) applied for
    /// `player`, as when its source leaves the battlefield.
    pub fn end_lasting_effect<S: EventSink>(
        &mut self,
        effect: EffectId,
        player: PlayerId,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.apply(Action::EndEffect { effect, player }, &mut NoHost, sink)
    }

    /// A triggered ability has triggered during a resolution and is not on
    /// the stack yet: it goes there the next time a player would receive
    /// priority, unless the turn is ended first and it ceases (723.1a).
    pub fn report_pending_trigger(
        &mut self,
        controller: PlayerId,
        label: u32,
    ) -> Result<(), RuleError> {
        self.apply(Action::Pending { controller, label }, &mut NoHost, &mut ())
    }

    /// A delayed triggered ability for `controller`'s next turn: it
    /// triggers at the first beginning of `at` in that turn, and never if
    /// that turn ends first (603.7, 723.1).
    pub fn delay_trigger_to_next_turn(
        &mut self,
        controller: PlayerId,
        label: u32,
        at: Place,
    ) -> Result<(), RuleError> {
        let action = Action::DelayNextTurn {
            controller,
            label,
            at,
        };
        self.apply(action, &mut NoHost, &mut ())
    }
}

//! Host commands: what the host (the program that knows the cards) tells
//! the engine, as opposed to the players' moves, which are [`Action`]s
//! given to [`Game::apply`]. Each command is a method here. Like a move, a
//! command is refused once the game has stopped (`NotRunning`), and a
//! refused command returns the rule or reason it breaks and changes
//! nothing.
//!
//! [`Action`]: crate::Action

use turnspec_model::{CounterId, EffectId, EndPoints, FactId};

use crate::error::RuleError;
use crate::event::{Event, EventSink};
use crate::game::Game;
use crate::host::Host;
use crate::state::{Delayed, ObjectKind, Place, PlayerId, Scope, StackObject, Status};

impl Game {
    /// What every command shares with [`Game::apply`]: refused once the
    /// game has stopped; the compiled turn finds its place again from the
    /// state afterwards (a command may move the turn); the state is checked
    /// afterwards in debug builds.
    #[inline]
    pub(crate) fn command(
        &mut self,
        run: impl FnOnce(&mut Game) -> Result<(), RuleError>,
    ) -> Result<(), RuleError> {
        if self.state.status != Status::Running {
            return Err(RuleError::NotRunning(self.state.status));
        }
        self.cached.forget_resume();
        let result = run(self);
        self.debug_check();
        result
    }

    /// A triggered ability has triggered: it waits, and goes on the stack
    /// (APNAP order) before anyone next receives priority (117.5, 603.3b);
    /// at once if a player holds priority now.
    pub fn report_trigger<S: EventSink>(
        &mut self,
        controller: PlayerId,
        label: u32,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.command(|game| {
            game.check_in_game(controller)?;
            game.state.waiting.push(StackObject {
                controller,
                kind: ObjectKind::Trigger,
                label,
            });
            // A trigger reported while someone holds priority goes on the
            // stack before that player can act again (117.5).
            if let Some(holder) = game.state.holder {
                game.put_waiting(sink);
                game.state.holder = Some(holder);
            }
            Ok(())
        })
    }

    /// Sets or clears a fact of the spec (a permanent with phasing is in
    /// play, it is day...). Conditions read it from now on.
    pub fn set_fact<S: EventSink>(
        &mut self,
        fact: FactId,
        value: bool,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.command(|game| {
            if fact.index() >= game.spec.facts().len() {
                return Err(RuleError::NoSuchFact);
            }
            let bit = 1u64 << fact.index();
            let before = game.state.facts;
            if value {
                game.state.facts |= bit
            } else {
                game.state.facts &= !bit
            }
            // Only a fact the compiled turn read can change it.
            if (before ^ game.state.facts) & game.cached.program().facts_read != 0 {
                game.rebuild_program();
            }
            sink.event(Event::FactChanged { fact, value });
            Ok(())
        })
    }

    /// Sets a counter of the spec for `player` (one value for all players
    /// unless the counter is per player): a score the host keeps, such as
    /// Lorcana's lore. Then the spec's endings checked at `counter_set`
    /// run (20 lore wins).
    #[allow(clippy::too_many_arguments)] // counter, player and value read best named
    pub fn set_counter<H: Host, S: EventSink>(
        &mut self,
        counter: CounterId,
        player: PlayerId,
        value: u16,
        host: &mut H,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.command(|game| {
            game.check_in_game(player)?;
            if game.spec.counter(counter).is_none() {
                return Err(RuleError::NoSuchCounter);
            }
            *game.counter_slot(counter, player) = value;
            sink.event(Event::CounterSet {
                counter,
                player,
                value,
            });
            game.check_endings(EndPoints::COUNTER_SET, None, host, sink);
            Ok(())
        })
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
        self.command(|game| {
            game.check_in_game(player)?;
            if effect.index() >= game.spec.effects().len() {
                return Err(RuleError::NoSuchEffect);
            }
            game.apply_effect(effect, player, host, sink);
            Ok(())
        })
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
        self.command(|game| {
            game.check_in_game(controller)?;
            game.check_place(at)?;
            game.add_delayed(Delayed {
                at,
                controller,
                label,
                own_turn,
                after_turn: 0,
            });
            Ok(())
        })
    }

    /// An effect that lasts until the end of the step, phase or turn, or
    /// one bound to a player's turns (see [`Scope`]): the engine reports
    /// `Expired` with `label` when it ends, and `EffectActive` when one
    /// that does not always apply starts or stops applying.
    pub fn start_duration(&mut self, label: u32, scope: Scope) -> Result<(), RuleError> {
        self.command(|game| {
            if let Some(player) = scope.player() {
                game.check_in_game(player)?;
            }
            if let Some(at) = scope.place() {
                game.check_place(at)?;
            }
            game.add_duration(label, scope);
            Ok(())
        })
    }

    /// The host ends an effect it started with [`Game::start_duration`]
    /// (a "during your turn" ability whose card left play): `Expired`, or
    /// `NoSuchDuration` if none with `label` is going on.
    pub fn end_duration<S: EventSink>(
        &mut self,
        label: u32,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.command(|game| {
            let going_on = game
                .state
                .mods
                .as_ref()
                .is_some_and(|m| m.durations.iter().any(|d| d.label == label));
            if !going_on {
                return Err(RuleError::NoSuchDuration { label });
            }
            game.expire(|d| d.label == label, sink);
            Ok(())
        })
    }

    /// Mana added to `player`'s pool; it empties (and may burn) as the
    /// spec's `[mana]` section says.
    pub fn add_mana_to_pool(&mut self, player: PlayerId, amount: u16) -> Result<(), RuleError> {
        self.command(|game| {
            game.check_in_game(player)?;
            game.add_mana(player, amount);
            Ok(())
        })
    }

    /// `player` leaves the game (800.4): their objects leave the stack,
    /// and the turn goes on as the spec's `[leaving]` section says. The
    /// same as the player's own move [`crate::Action::Leave`].
    pub fn remove_player<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.apply(crate::Action::Leave { player }, host, sink)
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
        self.command(|game| {
            for p in [player, target] {
                game.check_in_game(p)?;
            }
            if effect.index() >= game.spec.effects().len() {
                return Err(RuleError::NoSuchEffect);
            }
            game.apply_effect_on(effect, (player, target), host, sink);
            Ok(())
        })
    }

    /// Ends a lasting effect (a `skip` with `lasting = true`) applied for
    /// `player`, as when its source leaves the battlefield.
    pub fn end_lasting_effect<S: EventSink>(
        &mut self,
        effect: EffectId,
        player: PlayerId,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.command(|game| {
            if effect.index() >= game.spec.effects().len() {
                return Err(RuleError::NoSuchEffect);
            }
            game.end_effect(effect, player, sink);
            Ok(())
        })
    }

    /// A triggered ability has triggered during a resolution and is not on
    /// the stack yet: it goes there the next time a player would receive
    /// priority, unless the turn is ended first and it ceases (723.1a).
    pub fn report_pending_trigger(
        &mut self,
        controller: PlayerId,
        label: u32,
    ) -> Result<(), RuleError> {
        self.command(|game| {
            game.check_in_game(controller)?;
            game.state.waiting.push(StackObject {
                controller,
                kind: ObjectKind::Trigger,
                label,
            });
            Ok(())
        })
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
        self.command(|game| {
            game.check_in_game(controller)?;
            game.check_place(at)?;
            game.add_delayed(Delayed {
                at,
                controller,
                label,
                own_turn: true,
                after_turn: game.state.turn.max(1),
            });
            Ok(())
        })
    }
}

//! The structural operations hosts apply: extra turns, phases and steps,
//! counted skips, ending the turn or a phase, players leaving, delayed
//! triggers, durations and mana pools (500.7–500.10, 614.10, 723, 800.4).

use turnspec_model::{EffectId, EffectKind, PhaseId, StepId};

use crate::event::{Because, Event, EventSink};
use crate::game::Game;
use crate::host::Host;
use crate::state::{
    Delayed, Duration, Outcome, Place, PlayerId, Point, Scope, SkipEntry, Status, Upcoming,
};

impl Game {
    pub(crate) fn apply_effect<H: Host, S: EventSink>(
        &mut self,
        effect: EffectId,
        player: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) {
        // A handle of the game's own spec (a reference count), since
        // applying the effect changes the game.
        let spec = self.spec.clone();
        // Checked by `Game::apply`: an effect of the game's own spec.
        let Some(def) = spec.effect(effect) else {
            return;
        };
        if def.own_turn_only.is_some() && player != self.state.active {
            sink.event(Event::EffectApplied {
                effect,
                player,
                applied: false,
            });
            return;
        }
        let depth = self.state.returns_len;
        match &def.kind {
            EffectKind::ExtraTurn { each_player } => {
                sink.event(Event::EffectApplied {
                    effect,
                    player,
                    applied: true,
                });
                if *each_player {
                    // Added one at a time in APNAP order; the last added is
                    // taken first (500.7).
                    let mut p = self.first_holder();
                    for _ in 0..self.state.sides_in_game() {
                        self.mods().extra_turns.push(p);
                        p = self.next_in_game(p);
                    }
                } else {
                    self.mods().extra_turns.push(player);
                }
            }
            EffectKind::ExtraPhases(phases) => {
                sink.event(Event::EffectApplied {
                    effect,
                    player,
                    applied: true,
                });
                for phase in phases.iter().rev() {
                    self.mods().upcoming_phases.push(Upcoming {
                        phase: *phase,
                        only: None,
                        depth,
                    });
                }
            }
            EffectKind::ExtraStep { step, after_phase } => {
                sink.event(Event::EffectApplied {
                    effect,
                    player,
                    applied: true,
                });
                if *after_phase {
                    let Some(phase) = spec.step(*step).map(|s| s.phase) else {
                        return;
                    };
                    self.mods().upcoming_phases.push(Upcoming {
                        phase,
                        only: Some((*step, def.rule)),
                        depth,
                    });
                } else {
                    self.mods().upcoming_steps.push((*step, depth));
                }
            }
            EffectKind::Skip(target) => {
                sink.event(Event::EffectApplied {
                    effect,
                    player,
                    applied: true,
                });
                let rule = def.rule;
                self.mods().skips.push(SkipEntry {
                    player,
                    target: *target,
                    rule,
                    lasting: None,
                    every_player: false,
                });
            }
            EffectKind::LastingSkip {
                target,
                each_player,
            } => {
                sink.event(Event::EffectApplied {
                    effect,
                    player,
                    applied: true,
                });
                let rule = def.rule;
                self.mods().skips.push(SkipEntry {
                    player,
                    target: *target,
                    rule,
                    lasting: Some(effect),
                    every_player: *each_player,
                });
            }
            EffectKind::ReverseTurnOrder => {
                sink.event(Event::EffectApplied {
                    effect,
                    player,
                    applied: true,
                });
                let mods = self.mods();
                mods.reversed = !mods.reversed;
                // Who passes to whom is tabled in the turn program.
                self.rebuild_program();
            }
            // It names another player: applied with `Game::apply_declared_effect_on`.
            EffectKind::ControlTurn => sink.event(Event::EffectApplied {
                effect,
                player,
                applied: false,
            }),
            EffectKind::EndTurn { goto } => {
                sink.event(Event::EffectApplied {
                    effect,
                    player,
                    applied: true,
                });
                self.end_turn(*goto, host, sink);
            }
            EffectKind::EndPhase { phase, goto } => {
                let applies = self.state.phase == *phase;
                sink.event(Event::EffectApplied {
                    effect,
                    player,
                    applied: applies,
                });
                if applies {
                    self.end_phase(*goto, host, sink);
                }
            }
            EffectKind::Grant { counter, amount } => {
                sink.event(Event::EffectApplied {
                    effect,
                    player,
                    applied: true,
                });
                self.grant(player, *counter, *amount);
            }
        }
    }

    /// An effect that names a second player: `player` will control
    /// `target`'s next turn (722). Other kinds ignore the target.
    pub(crate) fn apply_effect_on<H: Host, S: EventSink>(
        &mut self,
        effect: EffectId,
        (player, target): (PlayerId, PlayerId),
        host: &mut H,
        sink: &mut S,
    ) {
        let control = self
            .spec
            .effect(effect)
            .is_some_and(|e| e.kind == EffectKind::ControlTurn);
        if !control {
            self.apply_effect(effect, player, host, sink);
            return;
        }
        sink.event(Event::EffectApplied {
            effect,
            player,
            applied: true,
        });
        // The most recent control effect wins (722.5 reads like 613: the
        // later timestamp); an earlier one for the same turn is replaced.
        let controls = &mut self.mods().controls;
        controls.retain(|(t, _)| *t != target);
        controls.push((target, player));
    }

    /// Ends a lasting effect the host applied for `player` (an
    /// `EffectStopped` event), if it is in force.
    pub(crate) fn end_effect<S: EventSink>(
        &mut self,
        effect: EffectId,
        player: PlayerId,
        sink: &mut S,
    ) {
        let Some(mods) = self.state.mods.as_mut() else {
            return;
        };
        if let Some(i) = mods
            .skips
            .iter()
            .position(|s| s.lasting == Some(effect) && s.player == player)
        {
            mods.skips.remove(i);
            sink.event(Event::EffectStopped { effect, player });
        }
    }

    /// A turn is about to begin or be skipped, or the next turn would be
    /// theirs: "until that player's next turn" of players who left ends
    /// when the turn that would have been theirs would have begun (800.4m).
    /// That is when a regular turn passes over their seat in turn order
    /// (a player who left takes no turns, 800.4k); with shared team turns,
    /// also when their team's turn begins. An extra turn passes over
    /// nobody. Called only with modifiers, before the turn is counted.
    pub(crate) fn departed_turn_passed<S: EventSink>(&mut self, sink: &mut S) {
        let s = &self.state;
        let waiting = s.mods.as_ref().is_some_and(|m| {
            m.durations
                .iter()
                .any(|d| matches!(d.scope, Scope::UntilTurnOf { player } if !s.is_in(player)))
        });
        if s.extra_turn || !waiting {
            return;
        }
        let order = s.turn_order(self.spec.game().turn_order);
        let mut passed = 0u16;
        let mut p = s.last_regular;
        for _ in 0..s.players {
            p = crate::seats::next_seat(order, s.players, p);
            if p == s.active {
                break;
            }
            passed |= 1 << p.0;
        }
        let active_team = s.team(s.active);
        let teams = s.has_teams;
        let team_out = |q: PlayerId| {
            !(0..s.players).any(|i| s.team(PlayerId(i)) == s.team(q) && s.is_in(PlayerId(i)))
        };
        let mut ends = 0u16;
        for i in 0..s.players {
            let q = PlayerId(i);
            if s.is_in(q) {
                continue;
            }
            let theirs = if teams && !team_out(q) {
                s.team(q) == active_team
            } else {
                passed >> i & 1 != 0
            };
            if theirs {
                ends |= 1 << i;
            }
        }
        if ends != 0 {
            self.expire(
                |d| matches!(d.scope, Scope::UntilTurnOf { player } if ends >> player.0 & 1 != 0),
                sink,
            );
        }
    }

    /// What a turn's beginning ends or starts among the modifiers: "until
    /// that player's next turn" ends (500.5), and a pending control of
    /// this player's turn takes effect (722.1). Called only with modifiers.
    pub(crate) fn turn_began_mods<S: EventSink>(&mut self, sink: &mut S) {
        let active = self.state.active;
        self.expire(
            |d| matches!(d.scope, Scope::UntilTurnOf { player } if player == active),
            sink,
        );
        self.during_turn_effects(true, sink);
        let in_game = self.state.in_game;
        let Some(mods) = self.state.mods.as_mut() else {
            return;
        };
        mods.turn_controller = None;
        if let Some(i) = mods.controls.iter().position(|(t, _)| *t == active) {
            let (_, by) = mods.controls.remove(i);
            if in_game >> by.0 & 1 != 0 {
                mods.turn_controller = Some(by);
                sink.event(Event::TurnControlled { player: active, by });
            }
        }
    }

    /// At the beginning of a phase or step: delayed triggers for it
    /// trigger, and "until your next ..." durations end (500.5).
    pub(crate) fn began_mods<S: EventSink>(&mut self, place: Place, sink: &mut S) {
        self.fire_delayed(place);
        let (active, turn) = (self.state.active, self.state.turn);
        self.expire(
            |d| matches!(d.scope, Scope::UntilNext { at, player } if at == place && player == active),
            sink,
        );
        // "At the beginning of your next X, ... until end of turn": from
        // here it is a "this turn" effect of this turn.
        if let Some(mods) = self.state.mods.as_mut() {
            for d in &mut mods.durations {
                if matches!(d.scope, Scope::FromNext { at, player } if at == place && player == active)
                {
                    d.scope = Scope::Turn;
                    d.made_on = turn;
                    sink.event(Event::EffectActive {
                        label: d.label,
                        active: true,
                    });
                }
            }
        }
    }

    /// "During your turn" effects of `active` start or stop applying.
    fn during_turn_effects<S: EventSink>(&mut self, active: bool, sink: &mut S) {
        let player = self.state.active;
        let Some(mods) = self.state.mods.as_ref() else {
            return;
        };
        for d in &mods.durations {
            if d.scope == (Scope::DuringTurnsOf { player }) {
                sink.event(Event::EffectActive {
                    label: d.label,
                    active,
                });
            }
        }
    }

    /// At the end of a phase or step: "until end of X on your next turn"
    /// ends if this is X in that turn (500.5).
    pub(crate) fn ended_mods<S: EventSink>(&mut self, place: Place, sink: &mut S) {
        let (active, turn) = (self.state.active, self.state.turn);
        self.expire(
            |d| {
                matches!(d.scope, Scope::EndOfNextTurn { at, player }
                    if at == place && player == active && turn > d.made_on)
            },
            sink,
        );
    }

    /// As a turn ends: durations bound to this turn as someone's "next
    /// turn" end with it at the latest, and delayed triggers for it that
    /// never triggered are gone (603.7, 723.1).
    pub(crate) fn turn_ended_mods<S: EventSink>(&mut self, sink: &mut S) {
        self.during_turn_effects(false, sink);
        let (active, turn) = (self.state.active, self.state.turn);
        self.expire(
            |d| {
                matches!(d.scope, Scope::EndOfNextTurn { player, .. }
                    if player == active && turn > d.made_on)
            },
            sink,
        );
        if let Some(mods) = self.state.mods.as_mut() {
            mods.delayed
                .retain(|d| !(d.after_turn != 0 && d.controller == active && turn > d.after_turn));
            mods.turn_controller = None;
        }
    }

    /// The player who makes the decisions of `player` (722.1): another
    /// player while the active player's turn is controlled.
    #[inline]
    pub(crate) fn decided_by(&self, player: PlayerId) -> Option<PlayerId> {
        let by = self.state.mods.as_ref()?.turn_controller?;
        (player == self.state.active && by != player).then_some(by)
    }

    /// Waiting triggers cease and the stack is emptied without resolving
    /// (723.1a-b; GA ENDPH 1).
    pub(crate) fn clear_pending<S: EventSink>(&mut self, sink: &mut S) {
        for object in self.state.waiting.drain(..) {
            sink.event(Event::Ceased { object });
        }
        while let Some(object) = self.state.stack.pop() {
            sink.event(Event::Removed { object });
        }
        self.state.holder = None;
        self.state.passes = 0;
    }

    /// Every phase under way ends, the innermost first (an on-demand phase
    /// and the one it interrupted; steps a play ran end with their phase).
    pub(crate) fn end_phases_under_way<S: EventSink>(&mut self, sink: &mut S) {
        loop {
            self.drop_steps_of_play();
            self.phase_ended::<true, S>(self.state.phase, sink);
            if self.state.returns_len == 0 {
                break;
            }
            self.state.returns_len -= 1;
            self.state.phase = self.state.returns[self.state.returns_len as usize].phase;
        }
    }

    pub(crate) fn end_current_step<S: EventSink>(&mut self, sink: &mut S) {
        let implicit = self.spec.step(self.state.step).is_some_and(|s| s.implicit);
        self.step_ended::<true, S>(self.state.step, implicit, sink);
    }

    /// "End the turn": straight to `goto` (the cleanup step), ending every
    /// phase under way; in that very step, a new one begins (723.1d).
    pub(crate) fn end_turn<H: Host, S: EventSink>(
        &mut self,
        goto: StepId,
        host: &mut H,
        sink: &mut S,
    ) {
        self.move_to_end_of_turn(goto, sink);
        self.run(host, sink);
    }

    /// [`Game::end_turn`] up to where the turn goes on at `goto`, without
    /// running on from there.
    pub(crate) fn move_to_end_of_turn<S: EventSink>(&mut self, goto: StepId, sink: &mut S) {
        self.clear_pending(sink);
        self.end_current_step(sink);
        // `goto` is a step of the game's own spec (the effect's or the
        // `[leaving]` section's).
        let Some(target) = self.spec.step(goto).map(|s| s.phase) else {
            return;
        };
        self.drop_steps_of_play();
        if self.state.returns_len == 0 && self.state.phase == target {
            self.state.repeat = if self.state.step == goto {
                self.state.repeat.saturating_add(1)
            } else {
                0
            };
        } else {
            self.end_phases_under_way(sink);
            self.state.phase = target;
            if let Some(pos) = self.spec.turn().iter().position(|p| *p == target) {
                self.state.turn_pos = pos as u8;
            }
            self.phase_entered_late(target, sink);
        }
        self.carry_over_cut_short(Some(goto));
        if let Some(mods) = self.state.mods.as_mut() {
            mods.upcoming_phases.clear();
            mods.upcoming_steps.clear();
        }
        self.state.only_step = None;
        self.state.step = goto;
        self.state.anchor = goto;
        self.state.point = Point::StepStart;
        self.cached.forget_resume();
    }

    /// The turn is ended before some of its places came (723.1), play going
    /// on at `goto` (none: straight to the turn's end). An effect lasting
    /// until the end of such a place "on your next turn" is not over: the
    /// place it waits for never came (611.2a, 500.5), so it waits for the
    /// end of that place in a later turn of the player. Its turn is moved
    /// on to this one, so that the turn's end does not end it.
    pub(crate) fn carry_over_cut_short(&mut self, goto: Option<StepId>) {
        let (active, turn) = (self.state.active, self.state.turn);
        let spec = &self.spec;
        let target = goto.and_then(|g| spec.step(g)).map(|s| s.phase);
        let position = |p: PhaseId| spec.turn().iter().position(|q| *q == p);
        // Whether `place` still comes in this turn, from `goto` on.
        let still_comes = |place: Place| {
            let (Some(goto), Some(target)) = (goto, target) else {
                return false;
            };
            let phase = match place {
                Place::Phase(p) => p,
                Place::Step(s) => match spec.step(s).map(|st| st.phase) {
                    Some(p) if p == target => return s.index() >= goto.index(),
                    Some(p) => p,
                    None => return false,
                },
            };
            phase == target
                || matches!((position(phase), position(target)), (Some(a), Some(b)) if a > b)
        };
        let Some(mods) = self.state.mods.as_mut() else {
            return;
        };
        for d in &mut mods.durations {
            if let Scope::EndOfNextTurn { at, player } = d.scope
                && player == active
                && turn > d.made_on
                && !still_comes(at)
            {
                d.made_on = turn;
            }
        }
    }

    /// End the current phase now: continue at `goto` inside it, or with
    /// whatever follows it (723.2; GA ENDPH 1.2).
    pub(crate) fn end_phase<H: Host, S: EventSink>(
        &mut self,
        goto: Option<StepId>,
        host: &mut H,
        sink: &mut S,
    ) {
        self.clear_pending(sink);
        self.end_current_step(sink);
        // Steps a play ran end with their phase.
        self.drop_steps_of_play();
        let depth = self.state.returns_len;
        if let Some(mods) = self.state.mods.as_mut() {
            mods.upcoming_steps.retain(|(_, d)| *d < depth);
        }
        self.state.repeat = 0;
        match goto {
            Some(step) => {
                self.state.step = step;
                self.state.anchor = step;
                self.state.point = Point::StepStart;
            }
            None => self.state.point = Point::PhaseEnd,
        }
        self.cached.forget_resume();
        self.run(host, sink);
    }

    /// A player leaves the game (800.4a): their objects leave the stack,
    /// their pending turns are gone, and priority they held moves on.
    pub(crate) fn leave<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) {
        if self.remove_from_game(player, sink) {
            return;
        }
        if self.active_left(player, sink) {
            self.run(host, sink);
            return;
        }
        let Some(holder) = self.state.holder else {
            return;
        };
        if self.state.passes >= self.state.sides_in_game() {
            self.round_complete(holder, host, sink);
        } else if holder == player {
            // The next side; with every player left on the holder's own
            // team there is none, and the team goes on with its first
            // player still in (805).
            let mut next = self.next_in_game(player);
            if !self.state.is_in(next) {
                next = self.first_holder();
            }
            self.give_priority(next, Because::Passed, sink);
        }
    }

    /// What leaving does to the game, before the turn goes on: the player
    /// and their objects and pending turns are gone. True when the game
    /// stopped: nobody is left, or one side of several is, which wins
    /// (104.2a).
    pub(crate) fn remove_from_game<S: EventSink>(
        &mut self,
        player: PlayerId,
        sink: &mut S,
    ) -> bool {
        let sides_before = self.state.sides_in_game();
        self.state.in_game &= !(1 << player.0);
        self.rebuild_program();
        // Their objects leave the stack bottom first, in one pass each to
        // report and to keep the rest (linear in the stack's size).
        let stack = &mut self.state.stack;
        for &object in stack.iter().filter(|o| o.controller == player) {
            sink.event(Event::Removed { object });
        }
        stack.retain(|o| o.controller != player);
        self.state.waiting.retain(|o| o.controller != player);
        if let Some(mods) = self.state.mods.as_mut() {
            mods.extra_turns.retain(|p| *p != player);
            mods.skips.retain(|s| s.player != player);
            mods.delayed.retain(|d| d.controller != player);
            mods.controls
                .retain(|(t, by)| *t != player && *by != player);
            if mods.turn_controller == Some(player) {
                mods.turn_controller = None;
            }
        }
        sink.event(Event::Left { player });
        if self.state.in_game == 0 {
            self.state.holder = None;
            self.state.status = Status::NoPlayers;
            return true;
        }
        if sides_before > 1 && self.state.sides_in_game() == 1 {
            let outcome = Outcome::new(self.state.in_game, self.spec.game_end().last_side_rule);
            self.game_over(outcome, sink);
            return true;
        }
        false
    }

    /// The active player left and the spec's `[leaving]` sends the rest of
    /// the turn to a step: with an empty stack the turn moves there now
    /// (true: the caller runs on from there), else once the stack is empty.
    pub(crate) fn active_left<S: EventSink>(&mut self, player: PlayerId, sink: &mut S) -> bool {
        let Some(goto) = self.spec.leaving().active_player_goto else {
            return false;
        };
        if player != self.state.active {
            return false;
        }
        if self.state.stack.is_empty() {
            self.move_to_end_of_turn(goto, sink);
            return true;
        }
        self.mods().jump_when_stack_empty = Some(goto);
        false
    }

    pub(crate) fn add_delayed(&mut self, delayed: Delayed) {
        self.mods().delayed.push(delayed);
    }

    pub(crate) fn add_duration(&mut self, label: u32, scope: Scope) {
        let depth = self.state.returns_len;
        let made_on = self.state.turn;
        self.mods().durations.push(Duration {
            label,
            scope,
            depth,
            made_on,
        });
    }

    pub(crate) fn add_mana(&mut self, player: PlayerId, amount: u16) {
        let pool = &mut self.mods().mana[player.index()];
        *pool = pool.saturating_add(amount);
    }

    /// Whether a phase is still to come this turn by insertion (for tests).
    pub fn upcoming_phases(&self) -> impl Iterator<Item = PhaseId> + '_ {
        self.state
            .mods
            .iter()
            .flat_map(|m| m.upcoming_phases.iter().rev().map(|u| u.phase))
    }
}

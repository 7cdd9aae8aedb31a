//! How a turn moves: the run loop that advances through phases and steps
//! (skips, repeats, turn-based actions, windows opening) until a player
//! must decide. Priority is in `priority.rs`, the structural operations
//! (extra turns, skips, ending the turn, leaving) in `structural.rs`.
//!
//! Everything here follows the compiled spec; the rule numbers in comments
//! name the Magic rule the mechanism was first built for, but nothing here
//! knows any game.

use turnspec_model::{
    Condition, Effect, EndPoints, ManaEmpties, RuleRef, SkipTarget, Spec, Stage, TimingId,
    TurnActionId, TurnEffectsEnd, WindowMode,
};

use crate::ending::Checked;
use crate::endless::MAX_REPEATS_WITHOUT_PRIORITY;
use crate::event::{Because, Event, EventSink, Skipped};
use crate::game::Game;
use crate::host::{HookContext, Host, TurnActionHook};
use crate::state::{
    Duration, Modifiers, ObjectKind, Place, PlayerId, Point, Scope, StackObject, Status,
};

/// A run of the machine gives up after this many moves with no decision,
/// rather than loop for ever on a spec whose conditions skip every window.
pub(crate) const STALL_BUDGET: u32 = 1_000_000;

/// Where the interpreter goes after a check of the endings at a point it
/// can run again: on (`None`) when nothing was reached, else stop, or run
/// the point again for the players left (a check finds nothing twice).
fn then(checked: Checked) -> Option<Next> {
    match checked {
        Checked::Nothing => None,
        Checked::Stopped => Some(Next::Stop),
        Checked::Left | Checked::Moved => Some(Next::Go),
    }
}

/// Where the interpreter goes after one point of the turn.
enum Next {
    /// On to the next point.
    Go,
    /// A player must decide, or the game stopped.
    Stop,
    /// A new turn begins that the program can run.
    Program,
}

impl Game {
    pub(crate) fn hook_context(&self) -> HookContext {
        HookContext {
            turn: self.state.turn,
            active: self.state.active,
            players: self.state.players,
            phase: self.state.phase,
            step: self.state.step,
            repeat: self.state.repeat,
            facts: self.state.facts,
            in_game: self.state.in_game,
        }
    }

    pub(crate) fn mods(&mut self) -> &mut Modifiers {
        // The only way modifiers come to be: from now on passes take the
        // way that looks at them.
        self.cached.modifiers_made();
        self.state.mods.get_or_insert_with(Box::default)
    }

    /// Advances through the turn until a player must decide: the turn
    /// program wherever it can (program/), the interpreter below where
    /// something structural is going on, each handing over to the other.
    #[inline]
    pub(crate) fn run<H: Host, S: EventSink>(&mut self, host: &mut H, sink: &mut S) {
        if self.cached.resume_pending() {
            let pc = self.cached.take_resume();
            self.run_program(pc, host, sink);
            return;
        }
        loop {
            if let Some(pc) = self.cached.program().entry(&self.spec, &self.state) {
                self.run_program(pc, host, sink);
                return;
            }
            if !self.interpret(host, sink) {
                return;
            }
        }
    }

    /// The interpreter: runs until a player must decide or the game stops
    /// (false), or until a new turn begins that the program can run (true).
    /// One method per point of the turn below.
    #[inline(never)]
    fn interpret<H: Host, S: EventSink>(&mut self, host: &mut H, sink: &mut S) -> bool {
        let spec = self.spec.clone();
        let mut budget = STALL_BUDGET;
        loop {
            budget -= 1;
            if budget == 0 {
                self.state.status = Status::Stalled;
                return false;
            }
            let next = match self.state.point {
                Point::TurnStart => self.at_turn_start(&spec, host, sink),
                Point::PhaseStart => self.at_phase_start(&spec, sink),
                Point::StepStart => self.at_step_start(&spec, host, sink),
                Point::Stage => self.at_stage(&spec, host, sink),
                Point::StepEnd => self.at_step_end(&spec, host, sink),
                Point::PhaseEnd => self.at_phase_end(sink),
                Point::Reopen => self.at_reopen(sink),
                Point::TurnEnd => self.at_turn_end(host, sink),
            };
            match next {
                Next::Go => {}
                Next::Stop => return false,
                Next::Program => return true,
            }
        }
    }

    /// A turn is to begin: the program takes it if it can; else nobody left,
    /// the turn limit, a player who left or a skipped turn, or the turn begins.
    fn at_turn_start<H: Host, S: EventSink>(
        &mut self,
        spec: &Spec,
        host: &mut H,
        sink: &mut S,
    ) -> Next {
        if self.cached.program().entry(spec, &self.state).is_some() {
            return Next::Program;
        }
        if self.state.in_game == 0 {
            self.state.status = Status::NoPlayers;
            return Next::Stop;
        }
        if self.state.turn >= self.state.turn_limit {
            self.state.status = Status::TurnLimit;
            return Next::Stop;
        }
        if !self.state.is_in(self.state.active) {
            // A player who left takes no more turns (800.4k).
            self.next_turn_player();
            return Next::Go;
        }
        if let Some(rule) = self.take_skip(SkipTarget::Turn) {
            // A skipped turn still takes the place of the turns of players
            // who left that it passes over (800.4m).
            self.departed_turn_passed(sink);
            self.skipped(Skipped::Turn(self.state.active), rule, sink);
            self.next_turn_player();
            return Next::Go;
        }
        self.turn_began::<true, S>(sink);
        // The one point not run again: the turn has begun, and players who
        // left are simply gone from it.
        match self.check_endings(EndPoints::TURN_START, None, host, sink) {
            Checked::Nothing | Checked::Left => {}
            other => return then(other).unwrap_or(Next::Go),
        }
        match spec.turn().first() {
            Some(p) => {
                self.state.phase = *p;
                self.state.point = Point::PhaseStart;
            }
            None => self.state.point = Point::TurnEnd,
        }
        Next::Go
    }

    /// A phase is to begin: absent (`only_if`, not elected), skipped, or begun.
    fn at_phase_start<S: EventSink>(&mut self, spec: &Spec, sink: &mut S) -> Next {
        let phase_id = self.state.phase;
        // The game's ids are its spec's own: a phase is always
        // found (were it not, it would be passed over).
        let Some(phase) = spec.phase(phase_id) else {
            self.after_phase();
            return Next::Go;
        };
        if phase
            .only_if
            .is_some_and(|c| !spec.conditions().eval(c, self))
            || (phase.optional && !self.elected(phase_id))
        {
            self.state.start_step = None;
            self.after_phase();
            return Next::Go;
        }
        let kind = phase.kind as usize;
        self.state.count_phase_kind(kind);
        let skip = self
            .skip_rule(&phase.skip)
            .or_else(|| self.take_skip(SkipTarget::Phase(phase_id)));
        if let Some(rule) = skip {
            self.state.kind_counts[kind] -= 1;
            self.state.start_step = None;
            self.skipped(Skipped::Phase(phase_id), rule, sink);
            self.after_phase();
            return Next::Go;
        }
        let first = self.state.start_step.take().unwrap_or_else(|| {
            match self.cached.features().on_demand_steps {
                true => spec.first_regular_step(phase),
                false => phase.first_step(),
            }
        });
        self.phase_began::<true, S>(phase_id, kind, first, sink);
        self.state.point = Point::StepStart;
        Next::Go
    }

    /// A step is to begin: absent, skipped (its own skips, "only this step",
    /// counted skips), or begun.
    fn at_step_start<H: Host, S: EventSink>(
        &mut self,
        spec: &Spec,
        host: &mut H,
        sink: &mut S,
    ) -> Next {
        let step_id = self.state.step;
        let Some(step) = spec.step(step_id) else {
            self.after_step();
            return Next::Go;
        };
        if step
            .only_if
            .is_some_and(|c| !spec.conditions().eval(c, self))
        {
            self.after_step();
            return Next::Go;
        }
        let only = match self.state.only_step {
            Some((only, rule)) if only != step_id => Some(rule),
            _ => None,
        };
        let skip = only.or_else(|| self.skip_rule(&step.skip)).or_else(|| {
            if step.implicit {
                None
            } else {
                self.take_skip(SkipTarget::Step(step_id))
            }
        });
        if let Some(rule) = skip {
            self.skipped(Skipped::Step(step_id), rule, sink);
            self.after_step();
            return Next::Go;
        }
        self.step_began::<true, H, S>(step_id, step.implicit, host, sink);
        self.state.point = Point::Stage;
        Next::Go
    }

    /// The current stage of the step: a turn-based action, or a window that
    /// opens (a player decides) or stays shut.
    fn at_stage<H: Host, S: EventSink>(&mut self, spec: &Spec, host: &mut H, sink: &mut S) -> Next {
        let Some(stage) = self.current_stage() else {
            self.state.point = Point::StepEnd;
            return Next::Go;
        };
        match stage {
            Stage::Action(id) => {
                let happened = self.turn_action(id, host, sink);
                self.state.stage += 1;
                // Checked only after an action that happened. The stage is
                // already past it: running on is running the point again.
                if happened {
                    let checked = self.check_endings(EndPoints::AFTER_ACTION, Some(id), host, sink);
                    if let Some(next) = then(checked) {
                        return next;
                    }
                }
            }
            Stage::Window(w) => {
                let open = match spec.window(w).map(|w| w.mode) {
                    Some(WindowMode::Always) => true,
                    Some(WindowMode::IfPending) => {
                        !self.state.waiting.is_empty() || !self.state.stack.is_empty()
                    }
                    None => false,
                };
                if open {
                    self.window_opens::<true, S>(w, sink);
                    return Next::Stop;
                }
                self.state.stage += 1;
            }
        }
        Next::Go
    }

    /// The step ends, and begins again while its `repeat` holds.
    fn at_step_end<H: Host, S: EventSink>(
        &mut self,
        spec: &Spec,
        host: &mut H,
        sink: &mut S,
    ) -> Next {
        if let Some(next) = then(self.check_endings(EndPoints::STEP_END, None, host, sink)) {
            return next;
        }
        let step = spec.step(self.state.step);
        let again = match step.and_then(|s| s.repeat) {
            Some(r) => spec.conditions().eval(r.cond, self),
            None => false,
        };
        let implicit = step.is_some_and(|s| s.implicit);
        self.step_ended::<true, S>(self.state.step, implicit, sink);
        if again {
            self.state.repeat = self.state.repeat.saturating_add(1);
            self.state.point = Point::StepStart;
            // Going round without a decision: a turn that may
            // never end (endless.rs).
            if !self.state.window_opened {
                self.state.quiet_repeats += 1;
                if u32::from(self.state.quiet_repeats) > MAX_REPEATS_WITHOUT_PRIORITY {
                    self.state.status = Status::NeverEnds;
                    return Next::Stop;
                }
            }
        } else {
            self.after_step();
        }
        Next::Go
    }

    /// The phase ends.
    fn at_phase_end<S: EventSink>(&mut self, sink: &mut S) -> Next {
        self.phase_ended::<true, S>(self.state.phase, sink);
        self.after_phase();
        Next::Go
    }

    /// Back from an on-demand phase: the window it interrupted reopens.
    fn at_reopen<S: EventSink>(&mut self, sink: &mut S) -> Next {
        self.state.point = Point::Stage;
        self.state.passes = 0;
        let first = self.first_holder_here();
        self.give_priority(first, Because::Returned, sink);
        Next::Stop
    }

    /// The turn ends (then the between-turns phases, if any), and the next
    /// player's turn is chosen.
    fn at_turn_end<H: Host, S: EventSink>(&mut self, host: &mut H, sink: &mut S) -> Next {
        if !self.state.between {
            if let Some(next) = then(self.check_endings(EndPoints::TURN_END, None, host, sink)) {
                return next;
            }
            self.turn_ended::<true, S>(sink);
            if self.enter_between_turns() {
                return Next::Go;
            }
        }
        self.state.between = false;
        self.next_turn_player();
        Next::Go
    }

    pub(crate) fn turn_action<H: Host, S: EventSink>(
        &mut self,
        id: TurnActionId,
        host: &mut H,
        sink: &mut S,
    ) -> bool {
        let spec = self.spec.clone();
        let Some(action) = spec.turn_action(id) else {
            return false;
        };
        if let Some(c) = action.condition
            && !spec.conditions().eval(c, self)
        {
            return false;
        }
        self.answer_turn_action(id, host, sink);
        true
    }

    /// A turn-based action whose condition holds: the host answers it.
    pub(crate) fn answer_turn_action<H: Host, S: EventSink>(
        &mut self,
        id: TurnActionId,
        host: &mut H,
        sink: &mut S,
    ) {
        // Copied out: the spec is the game's own, and the game changes below.
        let Some(a) = self.spec.turn_action(id) else {
            return;
        };
        let (answer_max, answer_counter, answer_play, play, ends_turn_effects, stack_triggers) = (
            a.answer_max,
            a.answer_counter,
            a.answer_play,
            a.play,
            a.ends_turn_effects,
            a.stack_triggers,
        );
        let answer_role = a.answer_role;
        let answer = host
            .turn_action(TurnActionHook::new(
                self.hook_context(),
                id,
                self.state.triggers(),
            ))
            .min(answer_max);
        if let Some(c) = answer_counter {
            let active = self.state.active;
            *self.counter_slot(c, active) = answer;
        }
        sink.event(Event::TurnAction { action: id, answer });
        // The answer names a seat, who takes the role (1 = the first).
        if let Some(role) = answer_role
            && (1..=u16::from(self.state.players)).contains(&answer)
        {
            self.give_role(role, PlayerId((answer - 1) as u8), sink);
        }
        if answer > 0
            && let Some(t) = answer_play
        {
            self.turn_action_play(id, t, sink);
        }
        if let Some(t) = play {
            self.turn_action_play(id, t, sink);
        }
        if ends_turn_effects {
            self.end_turn_effects(sink);
        }
        if stack_triggers {
            self.put_waiting(sink);
        }
    }

    /// A turn-based action that makes the active player play (GA's
    /// materialization): limits still count, nothing else is checked.
    pub(crate) fn turn_action_play<S: EventSink>(
        &mut self,
        action: TurnActionId,
        timing: TimingId,
        sink: &mut S,
    ) {
        let Some((limit, effect)) = self
            .spec
            .timing_class(timing)
            .map(|tc| (tc.limit, tc.effect))
        else {
            return;
        };
        if let Some(limit) = limit {
            let active = self.state.active;
            let max = self.limit_max(&limit, active);
            let c = self.counter_slot(limit.counter, active);
            if *c >= max {
                return;
            }
            *c += 1;
        }
        let player = self.state.active;
        match effect {
            Effect::Stack => {
                let object = StackObject {
                    controller: player,
                    kind: ObjectKind::TurnAction(action),
                    label: 0,
                };
                self.state.stack.push(object);
                sink.event(Event::Pushed { object });
            }
            Effect::Special | Effect::StartPhase(_) => {
                sink.event(Event::SpecialAction {
                    player,
                    timing,
                    label: 0,
                });
            }
        }
    }

    pub(crate) fn skip_rule(&self, skips: &[Condition]) -> Option<RuleRef> {
        skips
            .iter()
            .find(|c| self.spec.conditions().eval(c.cond, self))
            .map(|c| c.rule)
    }

    /// Uses up one "skip your next ..." of the active player for `target`
    /// (614.10: one effect, one skip).
    #[inline]
    pub(crate) fn take_skip(&mut self, target: SkipTarget) -> Option<RuleRef> {
        let active = self.state.active;
        let mods = self.state.mods.as_mut()?;
        let i = mods
            .skips
            .iter()
            .position(|s| (s.player == active || s.every_player) && s.target == target)?;
        // A lasting (static) skip stays until the host ends it.
        if mods.skips[i].lasting.is_some() {
            return Some(mods.skips[i].rule);
        }
        Some(mods.skips.remove(i).rule)
    }

    #[inline]
    pub(crate) fn fire_delayed(&mut self, place: Place) {
        let (active, turn) = (self.state.active, self.state.turn);
        let Some(mods) = self.state.mods.as_mut() else {
            return;
        };
        let waiting = &mut self.state.waiting;
        mods.delayed.retain(|d| {
            let fires = d.at == place
                && (!d.own_turn || d.controller == active)
                && (d.after_turn == 0 || turn > d.after_turn);
            if fires {
                waiting.push(StackObject {
                    controller: d.controller,
                    kind: ObjectKind::Trigger,
                    label: d.label,
                });
            }
            !fires
        });
    }

    /// Durations and mana pools at the end of a step, phase or turn.
    pub(crate) fn end_of<S: EventSink>(&mut self, scope: Scope, sink: &mut S) {
        if self.state.mods.is_none() {
            return;
        }
        let depth = self.state.returns_len;
        match scope {
            Scope::Step => {
                self.expire(|d| d.scope == Scope::Step && d.depth >= depth, sink);
                self.ended_mods(Place::Step(self.state.step), sink);
            }
            Scope::Phase => {
                self.expire(
                    |d| matches!(d.scope, Scope::Step | Scope::Phase) && d.depth >= depth,
                    sink,
                );
                self.ended_mods(Place::Phase(self.state.phase), sink);
            }
            Scope::Turn => {
                // "This turn" effects end here at the latest, unless the
                // spec ends them only where an action says (a skipped
                // place ends nothing, GA SKIP 1).
                let turn_too = self.spec.game().turn_effects_end == TurnEffectsEnd::TurnEnd;
                self.expire(|d| matches!(d.scope, Scope::Step | Scope::Phase), sink);
                if turn_too {
                    self.end_turn_effects(sink);
                }
                self.turn_ended_mods(sink);
            }
            // Bound to a player's turn: ended by the calls above.
            Scope::UntilNext { .. }
            | Scope::EndOfNextTurn { .. }
            | Scope::UntilTurnOf { .. }
            | Scope::ThroughNextTurn { .. }
            | Scope::DuringTurnsOf { .. }
            | Scope::FromNext { .. } => {}
        }
        let empties = match (scope, self.spec.mana().empties) {
            (Scope::Step, ManaEmpties::Step) | (Scope::Phase, _) => true,
            (Scope::Step, ManaEmpties::Phase) | (Scope::Turn, _) => false,
            (
                Scope::UntilNext { .. }
                | Scope::EndOfNextTurn { .. }
                | Scope::UntilTurnOf { .. }
                | Scope::ThroughNextTurn { .. }
                | Scope::DuringTurnsOf { .. }
                | Scope::FromNext { .. },
                _,
            ) => false,
        };
        if empties {
            let burn = self.spec.mana().burn;
            let players = self.state.players as usize;
            if let Some(mods) = self.state.mods.as_mut() {
                for (i, pool) in mods.mana.iter_mut().enumerate().take(players) {
                    if *pool > 0 {
                        sink.event(Event::ManaEmptied {
                            player: PlayerId(i as u8),
                            amount: *pool,
                            burn,
                        });
                        *pool = 0;
                    }
                }
            }
        }
    }

    /// "This turn" effects end (514.2; Lorcana 3.4.1.2), and with them
    /// those lasting until the end of the active player's next turn when
    /// this is it. The one place both happen: an action with
    /// `ends_turn_effects`, or the turn's end.
    pub(crate) fn end_turn_effects<S: EventSink>(&mut self, sink: &mut S) {
        let (active, turn) = (self.state.active, self.state.turn);
        self.expire(
            |d| match d.scope {
                Scope::Turn => true,
                Scope::ThroughNextTurn { player } => player == active && turn > d.made_on,
                _ => false,
            },
            sink,
        );
    }

    pub(crate) fn expire<S: EventSink>(&mut self, which: impl Fn(&Duration) -> bool, sink: &mut S) {
        let Some(mods) = self.state.mods.as_mut() else {
            return;
        };
        mods.durations.retain(|d| {
            if which(d) {
                sink.event(Event::Expired { label: d.label });
                false
            } else {
                true
            }
        });
    }

    pub(crate) fn after_step(&mut self) {
        let depth = self.state.returns_len;
        self.state.repeat = 0;
        if let Some(mods) = self.state.mods.as_mut()
            && mods.upcoming_steps.last().is_some_and(|(_, d)| *d == depth)
        {
            let (step, _) = mods.upcoming_steps.pop().expect("checked");
            self.state.step = step;
            self.state.point = Point::StepStart;
            return;
        }
        let anchor = self.state.anchor;
        // Inside the steps a play runs, the next on-demand step; else the
        // next regular one.
        let on_demand = self.cached.features().on_demand_steps;
        let in_steps = on_demand && self.in_steps_of_play();
        let next = self
            .spec
            .phase(self.state.phase)
            .and_then(|p| match on_demand {
                true => self.spec.step_after(p, anchor, in_steps),
                false => p.step_after(anchor),
            });
        match next {
            Some(next) => {
                self.state.step = next;
                self.state.anchor = next;
                self.state.point = Point::StepStart;
            }
            None if in_steps => self.return_from_steps(),
            None => self.state.point = Point::PhaseEnd,
        }
    }

    pub(crate) fn after_phase(&mut self) {
        if self.cached.features().on_demand_steps {
            self.drop_steps_of_play();
        }
        let depth = self.state.returns_len;
        self.state.only_step = None;
        if let Some(mods) = self.state.mods.as_mut()
            && mods
                .upcoming_phases
                .last()
                .is_some_and(|u| u.depth == depth)
        {
            let u = mods.upcoming_phases.pop().expect("checked");
            self.state.phase = u.phase;
            self.state.only_step = u.only;
            self.state.point = Point::PhaseStart;
            return;
        }
        if self.state.returns_len > 0 {
            self.state.pop_return();
            return;
        }
        let s = &mut self.state;
        s.turn_pos += 1;
        let order = if s.between {
            self.spec.between()
        } else {
            self.spec.turn()
        };
        match order.get(s.turn_pos as usize) {
            Some(p) => {
                s.phase = *p;
                s.point = Point::PhaseStart;
            }
            None => s.point = Point::TurnEnd,
        }
    }
}

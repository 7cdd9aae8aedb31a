//! How a turn moves: the run loop, passing, playing, and the structural
//! operations (extra turns, phases and steps, skips, ending the turn or a
//! phase, players leaving, delayed triggers, durations, mana pools).
//!
//! Everything here follows the compiled spec; the rule numbers in comments
//! name the Magic rule the mechanism was first built for, but nothing here
//! knows any game.

use turnspec_model::{
    Condition, Effect, EffectId, EffectKind, Holder, MAX_PHASE_KINDS, ManaEmpties, PhaseId,
    RuleRef, SkipTarget, Stage, StepId, TimingId, TurnActionId, TurnOrder, WindowMode,
};

use crate::endless::MAX_REPEATS_WITHOUT_PRIORITY;
use crate::event::{Because, Event, EventSink, Skipped};
use crate::game::Game;
use crate::host::{HookContext, Host, Triggers};
use crate::state::{
    Delayed, Duration, MAX_NESTING, Modifiers, ObjectKind, Place, PlayerId, Point, ReturnPoint,
    Scope, SkipEntry, StackObject, Status, Upcoming,
};

/// A run of the machine gives up after this many moves with no decision,
/// rather than loop for ever on a spec whose conditions skip every window.
const STALL_BUDGET: u32 = 1_000_000;

impl Game<'_> {
    pub(crate) fn pass<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) {
        sink.event(Event::Passed { player });
        self.state.passes += 1;
        if self.state.passes < self.state.players_in() {
            let next = self.next_in_game(player);
            self.give_priority(next, Because::Passed, sink);
            return;
        }
        self.round_complete(player, host, sink);
    }

    /// Everyone passed in succession: resolve the top object, or close the
    /// window (117.4, 500.2).
    fn round_complete<H: Host, S: EventSink>(
        &mut self,
        last: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) {
        self.state.passes = 0;
        match self.state.stack.pop() {
            Some(object) => {
                sink.event(Event::Resolved { object });
                // What the resolution triggered waits, and goes on the stack
                // before anyone receives priority (117.3b, 117.5).
                let ctx = self.hook_context();
                host.resolved(
                    &ctx,
                    object,
                    &mut Triggers {
                        waiting: &mut self.state.waiting,
                        players: self.state.players,
                        in_game: self.state.in_game,
                    },
                );
                if self.state.stack.is_empty()
                    && let Some(goto) = self
                        .state
                        .mods
                        .as_mut()
                        .and_then(|m| m.jump_when_stack_empty.take())
                {
                    self.end_turn(goto, host, sink);
                    return;
                }
                if self.state.stack.is_empty()
                    && self.state.waiting.is_empty()
                    && self.closes_when_stack_empty()
                {
                    self.state.holder = None;
                    self.state.stage += 1;
                    self.run(host, sink);
                    return;
                }
                let to = self.holder_for(self.spec.priority().after_resolve, last);
                self.give_priority(to, Because::Resolved, sink);
            }
            None => {
                self.state.holder = None;
                self.state.stage += 1;
                self.run(host, sink);
            }
        }
    }

    // The hook context and triggers are what the host API (issue 11) will
    // regroup; until then this mirrors `Host::played`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn play<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        timing: TimingId,
        label: u32,
        host: &mut H,
        sink: &mut S,
    ) {
        let tc = self.spec.timing_class(timing);
        if let Some(limit) = tc.limit {
            let c = self.counter_slot(limit.counter, player);
            *c = c.saturating_add(1);
        }
        self.state.passes = 0;
        match tc.effect {
            Effect::Stack => {
                let object = StackObject {
                    controller: player,
                    kind: ObjectKind::Play(timing),
                    label,
                };
                self.state.stack.push(object);
                sink.event(Event::Pushed { object });
            }
            Effect::Special | Effect::StartPhase(_) => sink.event(Event::SpecialAction {
                player,
                timing,
                label,
            }),
        }
        let ctx = self.hook_context();
        host.played(
            &ctx,
            player,
            timing,
            label,
            &mut Triggers {
                waiting: &mut self.state.waiting,
                players: self.state.players,
                in_game: self.state.in_game,
            },
        );
        if let Effect::StartPhase(phase) = tc.effect {
            // Deeper nesting than the engine keeps has no structural effect
            // (the validator rejects cycles of phases starting each other).
            if (self.state.returns_len as usize) < MAX_NESTING {
                let s = &mut self.state;
                s.returns[s.returns_len as usize] = ReturnPoint {
                    phase: s.phase,
                    step: s.step,
                    stage: s.stage,
                    repeat: s.repeat,
                    window_opened: s.window_opened,
                    anchor: s.anchor,
                };
                s.returns_len += 1;
                s.holder = None;
                s.phase = phase;
                s.point = Point::PhaseStart;
                self.run(host, sink);
                return;
            }
        }
        let to = self.holder_for(self.spec.priority().after_action, player);
        self.give_priority(to, Because::Acted, sink);
    }

    fn closes_when_stack_empty(&self) -> bool {
        match self.current_stage() {
            Some(Stage::Window(w)) => self.spec.window(w).close_when_stack_empty,
            _ => false,
        }
    }

    fn holder_for(&self, holder: Holder, actor: PlayerId) -> PlayerId {
        match holder {
            Holder::Actor if self.state.is_in(actor) => actor,
            _ => self.first_holder(),
        }
    }

    /// The active player, or the next player still in the game (800.4j).
    pub(crate) fn first_holder(&self) -> PlayerId {
        if self.state.is_in(self.state.active) {
            return self.state.active;
        }
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
        let mut p = from;
        if !s.has_teams {
            for _ in 0..s.players {
                p = next_seat(self.spec.game().turn_order, s.players, p);
                if s.is_in(p) {
                    return p;
                }
            }
            return from;
        }
        for _ in 0..s.players {
            p = next_seat(self.spec.game().turn_order, s.players, p);
            if s.is_in(p) && s.team(p) != s.team(from) && s.is_primary(p) {
                return p;
            }
        }
        from
    }

    /// Puts waiting triggers on the stack, then gives priority.
    fn give_priority<S: EventSink>(&mut self, player: PlayerId, because: Because, sink: &mut S) {
        if !self.state.waiting.is_empty() {
            self.put_waiting(sink);
        }
        self.state.holder = Some(player);
        let window = match self.current_stage() {
            Some(Stage::Window(w)) => Some(w),
            _ => None,
        };
        sink.event(Event::PriorityGiven {
            player,
            window,
            because,
        });
    }

    /// Waiting triggers go on the stack the active player's first, so they
    /// resolve last (APNAP, 101.4, 603.3b).
    pub(crate) fn put_waiting<S: EventSink>(&mut self, sink: &mut S) {
        if self.state.waiting.is_empty() {
            return;
        }
        let mut distances = [0u8; 8];
        for (i, d) in distances
            .iter_mut()
            .enumerate()
            .take(self.state.players as usize)
        {
            *d = self.side_distance(PlayerId(i as u8));
        }
        let s = &mut self.state;
        let distance = |p: PlayerId| distances[p.index() & 7];
        // Stable insertion sort by APNAP distance: no allocation.
        for i in 1..s.waiting.len() {
            let mut j = i;
            while j > 0 && distance(s.waiting[j - 1].controller) > distance(s.waiting[j].controller)
            {
                s.waiting.swap(j - 1, j);
                j -= 1;
            }
        }
        for object in s.waiting.drain(..) {
            s.stack.push(object);
            sink.event(Event::TriggerPut { object });
        }
        s.passes = 0;
    }

    /// How many sides after the active player's side `p` sits (APNAP order,
    /// by team with shared team turns, 805.6).
    pub(crate) fn side_distance(&self, p: PlayerId) -> u8 {
        let s = &self.state;
        if !s.has_teams {
            return seat_distance(self.spec.game().turn_order, s.players, s.active, p);
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

    fn hook_context(&self) -> HookContext {
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

    #[inline]
    fn reset_counters(&mut self, mask: u16) {
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            self.state.counters[i] = 0;
            if let Some(c) = self
                .spec
                .counters()
                .as_slice()
                .get(i)
                .filter(|c| c.per_player)
            {
                self.state.player_counters[c.slot as usize] =
                    [0; turnspec_model::MAX_PLAYERS as usize];
            }
            m &= m - 1;
        }
    }

    fn mods(&mut self) -> &mut Modifiers {
        self.state.mods.get_or_insert_with(Box::default)
    }

    /// Advances through the turn until a player must decide.
    pub(crate) fn run<H: Host, S: EventSink>(&mut self, host: &mut H, sink: &mut S) {
        let spec = self.spec;
        let mut budget = STALL_BUDGET;
        loop {
            budget -= 1;
            if budget == 0 {
                self.state.status = Status::Stalled;
                return;
            }
            match self.state.point {
                Point::TurnStart => {
                    if self.state.in_game == 0 {
                        self.state.status = Status::NoPlayers;
                        return;
                    }
                    if self.state.turn >= self.state.turn_limit {
                        self.state.status = Status::TurnLimit;
                        return;
                    }
                    if !self.state.is_in(self.state.active) {
                        // A player who left takes no more turns (800.4k).
                        self.next_turn_player();
                        continue;
                    }
                    if let Some(rule) = self.take_skip(SkipTarget::Turn) {
                        sink.event(Event::Skipped {
                            skipped: Skipped::Turn(self.state.active),
                            rule,
                        });
                        self.next_turn_player();
                        continue;
                    }
                    let s = &mut self.state;
                    s.quiet_repeats = 0;
                    s.turn += 1;
                    if !s.extra_turn {
                        s.last_regular = s.active;
                    }
                    s.first_turn = s.mark_had_turn(s.active);
                    s.kind_counts = [0; MAX_PHASE_KINDS];
                    s.turn_pos = 0;
                    s.returns_len = 0;
                    let mask = self.masks.turn;
                    self.reset_counters(mask);
                    sink.event(Event::TurnBegan {
                        turn: self.state.turn,
                        player: self.state.active,
                    });
                    match spec.turn().first() {
                        Some(p) => {
                            self.state.phase = *p;
                            self.state.point = Point::PhaseStart;
                        }
                        None => self.state.point = Point::TurnEnd,
                    }
                }
                Point::PhaseStart => {
                    let phase_id = self.state.phase;
                    let phase = spec.phase(phase_id);
                    if phase
                        .only_if
                        .is_some_and(|c| !spec.conditions().eval(c, self))
                    {
                        self.state.start_step = None;
                        self.after_phase();
                        continue;
                    }
                    let kind = phase.kind as usize;
                    self.state.kind_counts[kind] = self.state.kind_counts[kind].saturating_add(1);
                    let skip = self
                        .skip_rule(&phase.skip)
                        .or_else(|| self.take_skip(SkipTarget::Phase(phase_id)));
                    if let Some(rule) = skip {
                        self.state.kind_counts[kind] -= 1;
                        self.state.start_step = None;
                        sink.event(Event::Skipped {
                            skipped: Skipped::Phase(phase_id),
                            rule,
                        });
                        self.after_phase();
                        continue;
                    }
                    // A phase started by an action shares its caller's
                    // per-phase counters (a per-Main-phase limit survives an
                    // attack); only regular phases reset them.
                    if self.state.returns_len == 0 {
                        let mask = self.masks.phase;
                        self.reset_counters(mask);
                    }
                    sink.event(Event::PhaseBegan {
                        phase: phase_id,
                        number: self.state.kind_counts[kind],
                    });
                    self.fire_delayed(Place::Phase(phase_id));
                    let first = self.state.start_step.take().unwrap_or(phase.first_step);
                    self.state.step = first;
                    self.state.anchor = first;
                    self.state.repeat = 0;
                    self.state.point = Point::StepStart;
                }
                Point::StepStart => {
                    let step_id = self.state.step;
                    let step = spec.step(step_id);
                    if step
                        .only_if
                        .is_some_and(|c| !spec.conditions().eval(c, self))
                    {
                        self.after_step();
                        continue;
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
                        sink.event(Event::Skipped {
                            skipped: Skipped::Step(step_id),
                            rule,
                        });
                        self.after_step();
                        continue;
                    }
                    let mask = self.masks.step;
                    self.reset_counters(mask);
                    self.state.window_opened = false;
                    self.state.stage = 0;
                    if !step.implicit {
                        sink.event(Event::StepBegan {
                            step: step_id,
                            repeat: self.state.repeat,
                        });
                        self.fire_delayed(Place::Step(step_id));
                    }
                    let ctx = self.hook_context();
                    host.step_began(
                        &ctx,
                        &mut Triggers {
                            waiting: &mut self.state.waiting,
                            players: self.state.players,
                            in_game: self.state.in_game,
                        },
                    );
                    self.state.point = Point::Stage;
                }
                Point::Stage => {
                    let step = spec.step(self.state.step);
                    let Some(stage) = step.stages.get(self.state.stage as usize).copied() else {
                        self.state.point = Point::StepEnd;
                        continue;
                    };
                    match stage {
                        Stage::Action(id) => {
                            self.turn_action(id, host, sink);
                            self.state.stage += 1;
                        }
                        Stage::Window(w) => {
                            let open = match spec.window(w).mode {
                                WindowMode::Always => true,
                                WindowMode::IfPending => {
                                    !self.state.waiting.is_empty() || !self.state.stack.is_empty()
                                }
                            };
                            if open {
                                self.state.window_opened = true;
                                self.state.passes = 0;
                                let first = self.first_holder();
                                self.give_priority(first, Because::WindowOpened, sink);
                                return;
                            }
                            self.state.stage += 1;
                        }
                    }
                }
                Point::StepEnd => {
                    let step = spec.step(self.state.step);
                    let again = match step.repeat {
                        Some(r) => spec.conditions().eval(r.cond, self),
                        None => false,
                    };
                    if !step.implicit {
                        sink.event(Event::StepEnded {
                            step: self.state.step,
                        });
                    }
                    self.end_of(Scope::Step, sink);
                    if again {
                        self.state.repeat = self.state.repeat.saturating_add(1);
                        self.state.point = Point::StepStart;
                        // Going round without a decision: a turn that may
                        // never end (endless.rs).
                        if !self.state.window_opened {
                            self.state.quiet_repeats += 1;
                            if u32::from(self.state.quiet_repeats) > MAX_REPEATS_WITHOUT_PRIORITY {
                                self.state.status = Status::NeverEnds;
                                return;
                            }
                        }
                    } else {
                        self.after_step();
                    }
                }
                Point::PhaseEnd => {
                    sink.event(Event::PhaseEnded {
                        phase: self.state.phase,
                    });
                    self.end_of(Scope::Phase, sink);
                    self.after_phase();
                }
                Point::Reopen => {
                    self.state.point = Point::Stage;
                    self.state.passes = 0;
                    let first = self.first_holder();
                    self.give_priority(first, Because::Returned, sink);
                    return;
                }
                Point::TurnEnd => {
                    sink.event(Event::TurnEnded {
                        turn: self.state.turn,
                        player: self.state.active,
                    });
                    self.end_of(Scope::Turn, sink);
                    self.next_turn_player();
                }
            }
        }
    }

    fn turn_action<H: Host, S: EventSink>(&mut self, id: TurnActionId, host: &mut H, sink: &mut S) {
        let spec = self.spec;
        let action = spec.turn_action(id);
        if let Some(c) = action.condition
            && !spec.conditions().eval(c, self)
        {
            return;
        }
        let ctx = self.hook_context();
        let answer = host
            .turn_action(
                &ctx,
                id,
                &mut Triggers {
                    waiting: &mut self.state.waiting,
                    players: self.state.players,
                    in_game: self.state.in_game,
                },
            )
            .min(action.answer_max);
        if let Some(c) = action.answer_counter {
            let active = self.state.active;
            *self.counter_slot(c, active) = answer;
        }
        sink.event(Event::TurnAction { action: id, answer });
        if answer > 0
            && let Some(t) = action.answer_play
        {
            self.turn_action_play(id, t, sink);
        }
        if let Some(t) = action.play {
            self.turn_action_play(id, t, sink);
        }
        if action.ends_turn_effects {
            self.expire(|d| d.scope == Scope::Turn, sink);
        }
    }

    /// A turn-based action that makes the active player play (GA's
    /// materialization): limits still count, nothing else is checked.
    fn turn_action_play<S: EventSink>(
        &mut self,
        action: TurnActionId,
        timing: TimingId,
        sink: &mut S,
    ) {
        let tc = self.spec.timing_class(timing);
        if let Some(limit) = tc.limit {
            let active = self.state.active;
            let c = self.counter_slot(limit.counter, active);
            if *c >= limit.max {
                return;
            }
            *c += 1;
        }
        let player = self.state.active;
        match tc.effect {
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

    fn skip_rule(&self, skips: &[Condition]) -> Option<RuleRef> {
        skips
            .iter()
            .find(|c| self.spec.conditions().eval(c.cond, self))
            .map(|c| c.rule)
    }

    /// Uses up one "skip your next ..." of the active player for `target`
    /// (614.10: one effect, one skip).
    #[inline]
    fn take_skip(&mut self, target: SkipTarget) -> Option<RuleRef> {
        let active = self.state.active;
        let mods = self.state.mods.as_mut()?;
        let i = mods
            .skips
            .iter()
            .position(|s| s.player == active && s.target == target)?;
        Some(mods.skips.remove(i).rule)
    }

    #[inline]
    fn fire_delayed(&mut self, place: Place) {
        let active = self.state.active;
        let Some(mods) = self.state.mods.as_mut() else {
            return;
        };
        let waiting = &mut self.state.waiting;
        mods.delayed.retain(|d| {
            let fires = d.at == place && (!d.own_turn || d.controller == active);
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
    fn end_of<S: EventSink>(&mut self, scope: Scope, sink: &mut S) {
        if self.state.mods.is_none() {
            return;
        }
        let depth = self.state.returns_len;
        match scope {
            Scope::Step => self.expire(|d| d.scope == Scope::Step && d.depth >= depth, sink),
            Scope::Phase => self.expire(|d| d.scope != Scope::Turn && d.depth >= depth, sink),
            Scope::Turn => self.expire(|_| true, sink),
        }
        let empties = match (scope, self.spec.mana().empties) {
            (Scope::Step, ManaEmpties::Step) | (Scope::Phase, _) => true,
            (Scope::Step, ManaEmpties::Phase) | (Scope::Turn, _) => false,
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

    fn expire<S: EventSink>(&mut self, which: impl Fn(&Duration) -> bool, sink: &mut S) {
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

    fn after_step(&mut self) {
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
        let phase = self.spec.phase(self.state.phase);
        if let Some(next) = phase.step_after(self.state.anchor) {
            self.state.step = next;
            self.state.anchor = next;
            self.state.point = Point::StepStart;
        } else {
            self.state.point = Point::PhaseEnd;
        }
    }

    fn after_phase(&mut self) {
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
        let s = &mut self.state;
        if s.returns_len > 0 {
            s.returns_len -= 1;
            let r = s.returns[s.returns_len as usize];
            s.phase = r.phase;
            s.step = r.step;
            s.stage = r.stage;
            s.repeat = r.repeat;
            s.window_opened = r.window_opened;
            s.anchor = r.anchor;
            s.point = Point::Reopen;
            return;
        }
        s.turn_pos += 1;
        match self.spec.turn().get(s.turn_pos as usize) {
            Some(p) => {
                s.phase = *p;
                s.point = Point::PhaseStart;
            }
            None => s.point = Point::TurnEnd,
        }
    }

    /// Chooses who takes the next turn: the latest extra turn first (500.7),
    /// else the next player after the latest regular turn.
    fn next_turn_player(&mut self) {
        let s = &mut self.state;
        s.returns_len = 0;
        s.only_step = None;
        s.start_step = None;
        if let Some(mods) = s.mods.as_mut() {
            mods.upcoming_phases.clear();
            mods.upcoming_steps.clear();
            if let Some(p) = mods.extra_turns.pop() {
                s.active = p;
                s.extra_turn = true;
                s.point = Point::TurnStart;
                return;
            }
        }
        if !s.extra_turn {
            s.last_regular = s.active;
        }
        s.extra_turn = false;
        let from = s.last_regular;
        self.state.active = self.next_in_game(from);
        self.state.point = Point::TurnStart;
    }

    // --- host actions with structural effects ----------------------------

    pub(crate) fn apply_effect<H: Host, S: EventSink>(
        &mut self,
        effect: EffectId,
        player: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) {
        let def = self.spec.effect(effect);
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
                    for _ in 0..self.state.players_in() {
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
                    let phase = self.spec.step(*step).phase;
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
                });
            }
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
        }
    }

    /// Waiting triggers cease and the stack is emptied without resolving
    /// (723.1a-b; GA ENDPH 1).
    fn clear_pending<S: EventSink>(&mut self, sink: &mut S) {
        self.state.waiting.clear();
        while let Some(object) = self.state.stack.pop() {
            sink.event(Event::Removed { object });
        }
        self.state.holder = None;
        self.state.passes = 0;
    }

    fn end_current_step<S: EventSink>(&mut self, sink: &mut S) {
        if !self.spec.step(self.state.step).implicit {
            sink.event(Event::StepEnded {
                step: self.state.step,
            });
        }
        self.end_of(Scope::Step, sink);
    }

    /// "End the turn": straight to `goto` (the cleanup step), ending every
    /// phase under way; in that very step, a new one begins (723.1d).
    fn end_turn<H: Host, S: EventSink>(&mut self, goto: StepId, host: &mut H, sink: &mut S) {
        self.clear_pending(sink);
        self.end_current_step(sink);
        let target = self.spec.step(goto).phase;
        if self.state.returns_len == 0 && self.state.phase == target {
            self.state.repeat = if self.state.step == goto {
                self.state.repeat.saturating_add(1)
            } else {
                0
            };
        } else {
            loop {
                sink.event(Event::PhaseEnded {
                    phase: self.state.phase,
                });
                self.end_of(Scope::Phase, sink);
                if self.state.returns_len == 0 {
                    break;
                }
                self.state.returns_len -= 1;
                self.state.phase = self.state.returns[self.state.returns_len as usize].phase;
            }
            self.state.phase = target;
            if let Some(pos) = self.spec.turn().iter().position(|p| *p == target) {
                self.state.turn_pos = pos as u8;
            }
            let k = self.spec.phase(target).kind as usize;
            self.state.kind_counts[k] = self.state.kind_counts[k].saturating_add(1);
            sink.event(Event::PhaseBegan {
                phase: target,
                number: self.state.kind_counts[k],
            });
            self.state.repeat = 0;
        }
        if let Some(mods) = self.state.mods.as_mut() {
            mods.upcoming_phases.clear();
            mods.upcoming_steps.clear();
        }
        self.state.only_step = None;
        self.state.step = goto;
        self.state.anchor = goto;
        self.state.point = Point::StepStart;
        self.run(host, sink);
    }

    /// End the current phase now: continue at `goto` inside it, or with
    /// whatever follows it (723.2; GA ENDPH 1.2).
    fn end_phase<H: Host, S: EventSink>(
        &mut self,
        goto: Option<StepId>,
        host: &mut H,
        sink: &mut S,
    ) {
        self.clear_pending(sink);
        self.end_current_step(sink);
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
        self.state.in_game &= !(1 << player.0);
        let stack = &mut self.state.stack;
        let mut i = 0;
        while i < stack.len() {
            if stack[i].controller == player {
                let object = stack.remove(i);
                sink.event(Event::Removed { object });
            } else {
                i += 1;
            }
        }
        self.state.waiting.retain(|o| o.controller != player);
        if let Some(mods) = self.state.mods.as_mut() {
            mods.extra_turns.retain(|p| *p != player);
            mods.skips.retain(|s| s.player != player);
            mods.delayed.retain(|d| d.controller != player);
        }
        sink.event(Event::Left { player });
        if player == self.state.active
            && self.state.in_game != 0
            && let Some(goto) = self.spec.leaving().active_player_goto
        {
            if self.state.stack.is_empty() {
                self.end_turn(goto, host, sink);
                return;
            }
            self.mods().jump_when_stack_empty = Some(goto);
        }
        if self.state.in_game == 0 {
            self.state.holder = None;
            self.state.status = Status::NoPlayers;
            return;
        }
        let Some(holder) = self.state.holder else {
            return;
        };
        if self.state.passes >= self.state.players_in() {
            self.round_complete(holder, host, sink);
        } else if holder == player {
            let next = self.next_in_game(player);
            self.give_priority(next, Because::Passed, sink);
        }
    }

    pub(crate) fn add_delayed(&mut self, delayed: Delayed) {
        self.mods().delayed.push(delayed);
    }

    pub(crate) fn add_duration(&mut self, label: u32, scope: Scope) {
        let depth = self.state.returns_len;
        self.mods().durations.push(Duration {
            label,
            scope,
            depth,
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
fn next_seat_side(game: &Game<'_>, from: PlayerId) -> PlayerId {
    let s = &game.state;
    let mut p = from;
    for _ in 0..s.players {
        p = next_seat(game.spec.game().turn_order, s.players, p);
        if s.team(p) != s.team(from) {
            return p;
        }
    }
    from
}

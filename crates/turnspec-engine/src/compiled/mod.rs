//! The compiled tier: running the turn program (`program/`), the loop over
//! its ops, from a turn's beginning or
//! from the op after the window that just closed, until a player must
//! decide or the game stops.

use turnspec_model::{MAX_PHASE_KINDS, RuleRef, StepId, TurnActionId, WindowId};

mod conditions;

use crate::ending::Checked;
use crate::endless::MAX_REPEATS_WITHOUT_PRIORITY;
use crate::event::{Event, EventSink, Skipped};
use crate::flow::STALL_BUDGET;
use crate::game::Game;
use crate::host::{Host, TurnActionHook};
use crate::program::{EndCheckAt, FusedBegin, MAX_HOP_SKIPS, Op, Program, Skips, Test, Then};
use crate::state::{Point, Status};

/// What happened at a turn's beginning.
enum TurnBegin {
    Began,
    /// The active player's first turn: the interpreter runs it.
    FirstTurn,
    /// The active player had left: the next player's turn, from op 0.
    Again,
    Stopped,
}

impl Game {
    /// A new turn begins (or not: nobody left, the turn limit, the active
    /// player gone). Out of line: once per turn.
    #[inline(never)]
    fn program_turn_begin<S: EventSink>(&mut self, sink: &mut S) -> TurnBegin {
        let s = &mut self.state;
        s.point = Point::TurnStart;
        if s.in_game == 0 {
            s.status = Status::NoPlayers;
            return TurnBegin::Stopped;
        }
        if s.turn >= s.turn_limit {
            s.status = Status::TurnLimit;
            return TurnBegin::Stopped;
        }
        if !s.is_in(s.active) {
            // A player who left takes no more turns (800.4k).
            self.next_turn_player();
            return TurnBegin::Again;
        }
        if !s.has_had_turn(s.active) {
            return TurnBegin::FirstTurn;
        }
        // The active player is in the game now (they can leave only
        // through `leave`, which rebuilds the program and sets the flag).
        self.cached.active_is_in(&self.state);
        self.turn_began::<false, S>(sink);
        TurnBegin::Began
    }

    /// A first turn begins, which the program does not run: the
    /// interpreter runs it, until a player must decide (or, if nobody does
    /// before it ends, into the next turn, which the program may run
    /// again). Out of line and cold: a few times per game.
    #[cold]
    #[inline(never)]
    fn run_first_turn<H: Host, S: EventSink>(&mut self, host: &mut H, sink: &mut S) {
        self.run(host, sink);
    }

    /// `answer_turn_action` for an action that only asks the host, stores
    /// the answer in a counter kept for the whole game, and may end "until
    /// end of turn" effects (which only modifiers hold).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn plain_turn_action<H: Host, S: EventSink>(
        &mut self,
        id: TurnActionId,
        answer_max: u16,
        counter: Option<u8>,
        expires: bool,
        host: &mut H,
        sink: &mut S,
    ) {
        let answer = host
            .turn_action(TurnActionHook::new(
                self.hook_context(),
                id,
                self.state.triggers(),
            ))
            .min(answer_max);
        if let Some(c) = counter
            && let Some(slot) = self.state.counters.get_mut(c as usize)
        {
            *slot = answer;
        }
        sink.event(Event::TurnAction { action: id, answer });
        if expires && self.state.mods.is_some() {
            self.end_turn_effects(sink);
        }
    }

    /// A plain step begins (`Op::StepBeginPlain` at `pc - 1`), and its
    /// window opens if one is fused to it: true when it did (a player
    /// decides; the program goes on past the window op, at `pc + 1`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn begin_fused<H: Host, S: EventSink>(
        &mut self,
        step: StepId,
        begin: FusedBegin,
        pc: usize,
        host: &mut H,
        sink: &mut S,
    ) -> bool {
        self.state.step = step;
        self.state.anchor = step;
        self.step_began::<false, H, S>(step, begin.implicit, host, sink);
        let Some((window, stage)) = begin.window else {
            return false;
        };
        self.open_program_window(window, stage, pc + 1, sink);
        true
    }

    /// The program opens a window at stage `stage` of the current step;
    /// it goes on at `resume` when the window closes.
    #[inline(always)]
    fn open_program_window<S: EventSink>(
        &mut self,
        window: WindowId,
        stage: u8,
        resume: usize,
        sink: &mut S,
    ) {
        self.state.stage = stage;
        self.cached.set_resume(resume);
        self.window_opens::<false, S>(window, sink);
    }

    /// A step that never repeats ends (its stages all done).
    #[inline(always)]
    fn end_plain_step<S: EventSink>(
        &mut self,
        step: StepId,
        implicit: bool,
        stages: u8,
        sink: &mut S,
    ) {
        let s = &mut self.state;
        s.stage = stages;
        s.repeat = 0;
        self.step_ended::<false, S>(step, implicit, sink);
    }

    /// The pass that closed a window the program opened goes on at `pc`:
    /// when the op there is an [`Op::StepEndInto`], it runs here, without
    /// entering the loop (its way in and out fewer). False, with nothing
    /// done, for any other op.
    #[inline(always)]
    pub(crate) fn hop<H: Host, S: EventSink>(
        &mut self,
        pc: usize,
        host: &mut H,
        sink: &mut S,
    ) -> bool {
        let Some(&Op::StepEndInto(i)) = self.cached.program().ops.get(pc) else {
            return false;
        };
        if self.step_end_into(i, host, sink) {
            return true;
        }
        // A skip did not hold: the step has ended, the loop goes on with
        // the next step's beginning.
        self.program_loop(pc + 1, host, sink);
        true
    }

    /// [`Op::StepEndInto`] number `i`: true when it opened its window; false
    /// when a skip it expected did not hold, having ended the step only
    /// (the program goes on at the op after it).
    #[inline(always)]
    fn step_end_into<H: Host, S: EventSink>(&mut self, i: u16, host: &mut H, sink: &mut S) -> bool {
        let Some(hop) = self.cached.program().hops.get(i as usize) else {
            return false;
        };
        // The fields each shape needs, copied out (the game changes below).
        let (ending, ending_implicit, stages, then) =
            (hop.step, hop.implicit, hop.stages, hop.then);
        let (window, stage, resume) = (hop.window, hop.stage, hop.resume);
        #[cfg(debug_assertions)]
        self.cached.count_fused();
        match then {
            Then::Phase {
                ended,
                phase,
                turn_pos,
                kind,
                first_step,
                implicit,
            } => {
                self.end_plain_step(ending, ending_implicit, stages, sink);
                self.phase_ended::<false, S>(ended, sink);
                let kind = kind as usize & (MAX_PHASE_KINDS - 1);
                let s = &mut self.state;
                s.phase = phase;
                s.turn_pos = turn_pos;
                s.count_phase_kind(kind);
                self.phase_began::<false, S>(phase, kind, first_step, sink);
                self.step_began::<false, H, S>(first_step, implicit, host, sink);
            }
            Then::Step {
                next,
                implicit,
                action,
                answer_max,
                counter,
                expires,
            } => {
                self.end_plain_step(ending, ending_implicit, stages, sink);
                self.state.step = next;
                self.state.anchor = next;
                self.step_began::<false, H, S>(next, implicit, host, sink);
                self.plain_turn_action(action, answer_max, counter, expires, host, sink);
            }
            Then::Skips {
                skipped,
                count,
                next,
                implicit,
            } => {
                // The step's end zeroes the repeat count before the skip
                // tests read it.
                self.state.repeat = 0;
                let mut rules = [RuleRef::NONE; MAX_HOP_SKIPS];
                for (rule, &(_, skips)) in rules.iter_mut().zip(&skipped).take(count as usize) {
                    match self.first_skip(self.cached.program(), skips) {
                        Some(r) => *rule = r,
                        None => {
                            self.end_plain_step(ending, ending_implicit, stages, sink);
                            return false;
                        }
                    }
                }
                self.end_plain_step(ending, ending_implicit, stages, sink);
                for (&(step, _), &rule) in skipped.iter().zip(&rules).take(count as usize) {
                    self.state.step = step;
                    self.state.anchor = step;
                    self.skipped(Skipped::Step(step), rule, sink);
                }
                self.state.step = next;
                self.state.anchor = next;
                self.step_began::<false, H, S>(next, implicit, host, sink);
            }
        }
        self.open_program_window(window, stage, resume as usize, sink);
        true
    }

    /// The next turn begins (op 0's work): the op to go on at, or `None`
    /// when the game stopped. Jumps back to a new turn count against the
    /// loop's budget.
    #[inline(always)]
    fn begin_next_turn<H: Host, S: EventSink>(
        &mut self,
        budget: &mut u32,
        host: &mut H,
        sink: &mut S,
    ) -> Option<usize> {
        *budget -= 1;
        if *budget == 0 {
            self.state.status = Status::Stalled;
            return None;
        }
        match self.program_turn_begin(sink) {
            TurnBegin::Began => Some(1),
            TurnBegin::Again => Some(0),
            TurnBegin::FirstTurn => {
                self.run_first_turn(host, sink);
                None
            }
            TurnBegin::Stopped => None,
        }
    }

    #[inline(always)]
    fn first_skip(&self, program: &Program, skips: Skips) -> Option<RuleRef> {
        if skips.len == 0 {
            return None;
        }
        let start = skips.start as usize;
        let list = program.skips.get(start..start + skips.len as usize)?;
        for skip in list {
            if self.holds(skip.test) {
                return Some(skip.rule);
            }
        }
        None
    }

    /// `Op::CheckEnd`: the spec's endings at `at`, if `test` holds. True
    /// when the program stops here. Out of line, so the loop's own code
    /// stays as it is for specs without checks; the test alone here, so a
    /// check that finds nothing costs little.
    ///
    /// The op by reference, and every call with the same arguments in
    /// tail position: a counter's test (the common check, on a host's
    /// answer) that finds nothing saves no registers.
    #[inline(never)]
    fn program_check_end<H: Host, S: EventSink>(
        &mut self,
        check: &EndCheckAt,
        host: &mut H,
        sink: &mut S,
    ) -> bool {
        let Test::Counter(c, op, k) = check.test else {
            return self.program_check_end_other(check, host, sink);
        };
        self.counter_holds(c, op, k) && self.program_end_checks(check, host, sink)
    }

    /// [`Game::program_check_end`] for any other test.
    #[inline(never)]
    fn program_check_end_other<H: Host, S: EventSink>(
        &mut self,
        check: &EndCheckAt,
        host: &mut H,
        sink: &mut S,
    ) -> bool {
        self.holds(check.test) && self.program_end_checks(check, host, sink)
    }

    /// The checks themselves: true when the game is over, or players left
    /// (the program was rebuilt for the rest, and the interpreter finds the
    /// way on from the state).
    #[cold]
    #[inline(never)]
    fn program_end_checks<H: Host, S: EventSink>(
        &mut self,
        &EndCheckAt { at, action, .. }: &EndCheckAt,
        host: &mut H,
        sink: &mut S,
    ) -> bool {
        // As the interpreter has the state at this point, for whatever the
        // check does; if it does nothing, the program goes on as it was.
        let kept = (self.state.stage, self.state.turn_pos);
        self.sync_for_check(at);
        match self.check_endings(at, action, host, sink) {
            Checked::Nothing => {
                (self.state.stage, self.state.turn_pos) = kept;
                false
            }
            Checked::Stopped => {
                self.settle_at_check(at);
                true
            }
            Checked::Left => {
                self.resume_after_check(at);
                self.run(host, sink);
                true
            }
            Checked::Moved => {
                self.run(host, sink);
                true
            }
        }
    }

    /// Runs the program from op `pc` until a player must decide or the game
    /// stops. Nothing in here can start a modifier (hooks only report
    /// triggers), so the program keeps control until then.
    #[inline(never)]
    pub(crate) fn run_program<H: Host, S: EventSink>(
        &mut self,
        pc: usize,
        host: &mut H,
        sink: &mut S,
    ) {
        self.program_loop(pc, host, sink);
    }

    /// [`Game::run_program`] inline: the pass that closes a window the
    /// program opened goes on here, so the most frequent way into the
    /// program pays no call (and no saving of registers) of its own.
    #[inline(always)]
    pub(crate) fn program_loop<H: Host, S: EventSink>(
        &mut self,
        pc: usize,
        host: &mut H,
        sink: &mut S,
    ) {
        // `rebuild_program` sets the handle with the program, so a handle
        // there is the program's. Put back unless the program was rebuilt
        // meanwhile (then the new program's handle is there already).
        let program = self.cached.lend_program();
        self.run_ops(&program, pc, host, sink);
        self.cached.return_program(program);
    }

    /// The loop itself, over the ops of `program` (the game's own, lent).
    #[inline(always)]
    fn run_ops<H: Host, S: EventSink>(
        &mut self,
        program: &Program,
        mut pc: usize,
        host: &mut H,
        sink: &mut S,
    ) {
        // Counted on the jumps back only (a new turn, a repeated step): a
        // program with no jump back ends at the next one.
        let mut budget = STALL_BUDGET / 32;
        loop {
            let Some(op) = program.ops.get(pc) else {
                // Not reachable: every path ends at TurnEnd, which jumps to 0.
                self.state.status = Status::Stalled;
                return;
            };
            pc += 1;
            match *op {
                Op::TurnBegin => match self.begin_next_turn(&mut budget, host, sink) {
                    Some(next) => pc = next,
                    None => return,
                },
                Op::PhaseBegin {
                    phase,
                    turn_pos,
                    kind,
                    only_if,
                    skips,
                    first_step,
                    after,
                } => {
                    let s = &mut self.state;
                    s.phase = phase;
                    s.turn_pos = turn_pos;
                    if !matches!(only_if, Test::Always) && !self.holds(only_if) {
                        pc = after as usize;
                        continue;
                    }
                    let kind = kind as usize & (MAX_PHASE_KINDS - 1);
                    self.state.count_phase_kind(kind);
                    if let Some(rule) = self.first_skip(program, skips) {
                        self.state.kind_counts[kind] -= 1;
                        self.skipped(Skipped::Phase(phase), rule, sink);
                        pc = after as usize;
                        continue;
                    }
                    self.phase_began::<false, S>(phase, kind, first_step, sink);
                }
                Op::StepBegin {
                    step,
                    only_if,
                    skips,
                    implicit,
                    after,
                } => {
                    self.state.step = step;
                    self.state.anchor = step;
                    if !matches!(only_if, Test::Always) && !self.holds(only_if) {
                        self.state.repeat = 0;
                        pc = after as usize;
                        continue;
                    }
                    if let Some(rule) = self.first_skip(program, skips) {
                        self.skipped(Skipped::Step(step), rule, sink);
                        self.state.repeat = 0;
                        pc = after as usize;
                        continue;
                    }
                    self.step_began::<false, H, S>(step, implicit, host, sink);
                }
                Op::Action {
                    id,
                    test,
                    stage,
                    plain,
                    answer_max,
                    counter,
                    expires,
                    then_check,
                } => {
                    // Nothing a turn-based action does reads the stage.
                    if self.holds(test) {
                        if plain {
                            self.plain_turn_action(id, answer_max, counter, expires, host, sink);
                        } else {
                            self.answer_turn_action(id, host, sink);
                        }
                    } else if then_check {
                        // It did not happen: nothing to check after it.
                        pc += 1;
                    }
                    self.state.stage = stage;
                }
                Op::Window {
                    window,
                    if_pending,
                    stage,
                } => {
                    let s = &self.state;
                    if !if_pending || !s.waiting.is_empty() || !s.stack.is_empty() {
                        self.open_program_window(window, stage, pc, sink);
                        return;
                    }
                    self.state.stage = stage + 1;
                }
                Op::StepEnd {
                    step,
                    repeat,
                    implicit,
                    begin,
                    stages,
                    ends_phase,
                } => {
                    self.state.stage = stages;
                    let again = !matches!(repeat, Test::Never) && self.holds(repeat);
                    self.step_ended::<false, S>(step, implicit, sink);
                    let s = &mut self.state;
                    if again {
                        s.repeat = s.repeat.saturating_add(1);
                        pc = begin as usize;
                        budget -= 1;
                        if budget == 0 {
                            s.status = Status::Stalled;
                            return;
                        }
                        // Going round without a decision: a turn that may
                        // never end (endless.rs).
                        if !s.window_opened {
                            s.quiet_repeats += 1;
                            if u32::from(s.quiet_repeats) > MAX_REPEATS_WITHOUT_PRIORITY {
                                s.point = Point::StepStart;
                                s.status = Status::NeverEnds;
                                return;
                            }
                        }
                    } else {
                        s.repeat = 0;
                        if let Some(phase) = ends_phase {
                            self.phase_ended::<false, S>(phase, sink);
                            pc += 1;
                        }
                    }
                }
                Op::PhaseEnd { phase } => {
                    self.phase_ended::<false, S>(phase, sink);
                }
                Op::PhaseBeginPlain {
                    phase,
                    turn_pos,
                    kind,
                    first_step,
                    then,
                } => {
                    let kind = kind as usize & (MAX_PHASE_KINDS - 1);
                    let s = &mut self.state;
                    s.phase = phase;
                    s.turn_pos = turn_pos;
                    s.count_phase_kind(kind);
                    self.phase_began::<false, S>(phase, kind, first_step, sink);
                    if let Some(next) = then {
                        pc += 1;
                        if self.begin_fused(first_step, next, pc, host, sink) {
                            return;
                        }
                    }
                }
                Op::ActionPlain {
                    id,
                    stage,
                    answer_max,
                    counter,
                    expires,
                } => {
                    self.plain_turn_action(id, answer_max, counter, expires, host, sink);
                    self.state.stage = stage;
                }
                Op::StepBeginPlain {
                    step,
                    implicit,
                    window,
                } => {
                    if self.begin_fused(step, FusedBegin { implicit, window }, pc, host, sink) {
                        return;
                    }
                }
                Op::StepEndPlain {
                    step,
                    implicit,
                    stages,
                    ends_phase,
                    then,
                } => {
                    self.end_plain_step(step, implicit, stages, sink);
                    if let Some(phase) = ends_phase {
                        self.phase_ended::<false, S>(phase, sink);
                        pc += 1;
                    } else if let Some((next, begin)) = then {
                        pc += 1;
                        if self.begin_fused(next, begin, pc, host, sink) {
                            return;
                        }
                    }
                }
                Op::StepEndInto(i) => {
                    if self.step_end_into(i, host, sink) {
                        return;
                    }
                }
                Op::ActionRun { start, len } => {
                    let (start, len) = (start as usize, len as usize);
                    let Some(run) = program.actions.get(start..start + len) else {
                        // Not reachable: the compiler made the run.
                        self.state.status = Status::Stalled;
                        return;
                    };
                    #[cfg(debug_assertions)]
                    self.cached.count_fused();
                    // Nothing a turn-based action does reads the stage:
                    // the run's last sets it (a run has two or more).
                    for a in run {
                        self.plain_turn_action(
                            a.id,
                            a.answer_max,
                            a.counter,
                            a.expires,
                            host,
                            sink,
                        );
                    }
                    if let Some(last) = run.last() {
                        self.state.stage = last.stage;
                    }
                    pc += len - 1;
                }
                Op::TurnEnd => {
                    // Past the last phase, as the interpreter leaves it.
                    self.state.turn_pos = self.state.turn_pos.saturating_add(1);
                    self.turn_ended::<false, S>(sink);
                    self.next_turn_player();
                    // The next turn begins here (the TurnBegin op at 0,
                    // without its dispatch).
                    match self.begin_next_turn(&mut budget, host, sink) {
                        Some(next) => pc = next,
                        None => return,
                    }
                }
                Op::TurnEndBetween => {
                    let s = &mut self.state;
                    s.turn_pos = s.turn_pos.saturating_add(1);
                    self.turn_ended::<false, S>(sink);
                    // The between-turns phases follow (the interpreter's
                    // `enter_between_turns`; their ops set the phase).
                    let s = &mut self.state;
                    s.between = true;
                    s.turn_pos = 0;
                }
                Op::CheckEnd(ref check) => {
                    if self.program_check_end(check, host, sink) {
                        return;
                    }
                }
                Op::BetweenEnd => {
                    let s = &mut self.state;
                    s.turn_pos = s.turn_pos.saturating_add(1);
                    s.between = false;
                    self.next_turn_player();
                    // The next turn begins at op 0 (`TurnBegin`): one
                    // dispatch more, and no second copy of its work here.
                    pc = 0;
                }
            }
        }
    }
}

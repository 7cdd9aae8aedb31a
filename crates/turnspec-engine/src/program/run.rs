//! Running the program: the loop over its ops, from a turn's beginning or
//! from the op after the window that just closed, until a player must
//! decide or the game stops.

use std::sync::Arc;

use turnspec_model::{MAX_PHASE_KINDS, PhaseId, RuleRef, StepId, TurnActionId};

use super::{FusedBegin, Op, Program, Skips, Test};
use crate::endless::MAX_REPEATS_WITHOUT_PRIORITY;
use crate::event::{Event, EventSink, Skipped};
use crate::flow::STALL_BUDGET;
use crate::game::Game;
use crate::host::Host;
use crate::state::{Point, Scope, Status};

/// The most skipped steps [`Game::hop`] goes past (Magic's 508.8 skips
/// two).
const MAX_HOP_SKIPS: usize = 3;

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
        self.active_may_be_out = false;
        self.state.count_turn();
        self.program.resets.turn.apply(&mut self.state);
        sink.event(Event::TurnBegan {
            turn: self.state.turn,
            player: self.state.active,
        });
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
        let ctx = self.hook_context();
        let answer = host
            .turn_action(&ctx, id, &mut self.state.triggers())
            .min(answer_max);
        if let Some(c) = counter
            && let Some(slot) = self.state.counters.get_mut(c as usize)
        {
            *slot = answer;
        }
        sink.event(Event::TurnAction { action: id, answer });
        if expires && self.state.mods.is_some() {
            self.expire(|d| d.scope == Scope::Turn, sink);
        }
    }

    /// A phase that was not skipped has begun (its kind already counted):
    /// its counters reset, and its first step is where the turn stands.
    #[inline(always)]
    fn phase_began<S: EventSink>(
        &mut self,
        phase: PhaseId,
        kind: usize,
        first_step: StepId,
        sink: &mut S,
    ) {
        self.program.resets.phase.apply(&mut self.state);
        sink.event(Event::PhaseBegan {
            phase,
            number: self.state.kind_counts[kind],
        });
        let s = &mut self.state;
        s.step = first_step;
        s.anchor = first_step;
        s.repeat = 0;
    }

    /// A step that was not skipped begins (the state already names it):
    /// its counters reset, "at the beginning of" hooks run.
    #[inline(always)]
    fn step_began<H: Host, S: EventSink>(
        &mut self,
        step: StepId,
        implicit: bool,
        host: &mut H,
        sink: &mut S,
    ) {
        self.program.resets.step.apply(&mut self.state);
        self.state.window_opened = false;
        self.state.stage = 0;
        if !implicit {
            sink.event(Event::StepBegan {
                step,
                repeat: self.state.repeat,
            });
        }
        let ctx = self.hook_context();
        host.step_began(&ctx, &mut self.state.triggers());
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
        self.step_began(step, begin.implicit, host, sink);
        let Some((window, stage)) = begin.window else {
            return false;
        };
        let s = &mut self.state;
        s.stage = stage;
        s.window_opened = true;
        s.passes = 0;
        s.point = Point::Stage;
        self.resume = (pc + 1) as u16;
        let first = self.first_holder_fast();
        self.give_priority_from_program(first, window, sink);
        true
    }

    /// The pass that closed a window the program opened goes on at `pc`:
    /// when the ops there end the step and begin another whose window
    /// opens at once or after one plain turn-based action, all of it is
    /// done here, as those ops would, without entering the loop (its way in
    /// and out and two to four dispatches fewer). Three shapes, seven of
    /// the eight windows of an all-pass Magic turn:
    /// - the step's phase ends and the next phase begins with its first
    ///   step's window (`StepEndPlain` with `ends_phase`, `PhaseEnd`,
    ///   `PhaseBeginPlain` fused with the step and its window: the main
    ///   phases, combat, the ending phase);
    /// - the next step of the phase begins with one action, then its
    ///   window (`StepEndPlain` fused with the next step's beginning,
    ///   `ActionPlain`, `Window`: the draw step, declare attackers);
    /// - the next steps are skipped by their `skip`, and the one after
    ///   opens its window at once (`StepEndPlain`, `StepBegin`s whose skip
    ///   holds, `StepBeginPlain` fused with its window: 508.8's skipped
    ///   blockers and damage steps, then end of combat).
    ///
    /// False, with nothing done, for any other ops (or when a skip does
    /// not hold: the loop then tests it again). Nothing the hop writes
    /// twice would be read in between, so the state after it is the
    /// loop's; the fuzzer's program-against-interpreter run checks it.
    ///
    /// The window's opening is written out again rather than through
    /// `begin_fused`: calling it measured 57 more instructions per
    /// all-pass turn (docs/performance.md, fourth round).
    #[inline(always)]
    pub(crate) fn hop<H: Host, S: EventSink>(
        &mut self,
        pc: usize,
        host: &mut H,
        sink: &mut S,
    ) -> bool {
        /// What follows the step's end.
        enum Then {
            Phase {
                ended: PhaseId,
                phase: PhaseId,
                turn_pos: u8,
                kind: u8,
                first_step: StepId,
                implicit: bool,
            },
            Step {
                next: StepId,
                implicit: bool,
                action: TurnActionId,
                answer_max: u16,
                counter: Option<u8>,
                expires: bool,
            },
            Skips {
                skipped: [(StepId, RuleRef); MAX_HOP_SKIPS],
                count: usize,
                next: StepId,
                implicit: bool,
            },
        }
        let ops = &self.program.ops;
        let Some(&Op::StepEndPlain {
            step,
            implicit,
            stages,
            ends_phase,
            then,
        }) = ops.get(pc)
        else {
            return false;
        };
        let (then, window, stage, resume) = match (ends_phase, then) {
            // `PhaseEnd` at `pc + 1`, skipped as `StepEndPlain` does, then
            // `PhaseBeginPlain` at `pc + 2`, the first step's
            // `StepBeginPlain` at `pc + 3` and the window at `pc + 4`.
            (Some(ended), _) => match ops.get(pc + 2) {
                Some(&Op::PhaseBeginPlain {
                    phase,
                    turn_pos,
                    kind,
                    first_step,
                    then:
                        Some(FusedBegin {
                            implicit,
                            window: Some((window, stage)),
                        }),
                }) => (
                    Then::Phase {
                        ended,
                        phase,
                        turn_pos,
                        kind,
                        first_step,
                        implicit,
                    },
                    window,
                    stage,
                    pc + 5,
                ),
                _ => return false,
            },
            // The next step's `StepBeginPlain` at `pc + 1`, done by this
            // op, then `ActionPlain` at `pc + 2` and `Window` at `pc + 3`.
            (
                None,
                Some((
                    next,
                    FusedBegin {
                        implicit,
                        window: None,
                    },
                )),
            ) => match (ops.get(pc + 2), ops.get(pc + 3)) {
                (
                    Some(&Op::ActionPlain {
                        id,
                        answer_max,
                        counter,
                        expires,
                        ..
                    }),
                    Some(&Op::Window {
                        window,
                        if_pending: false,
                        stage,
                    }),
                ) => (
                    Then::Step {
                        next,
                        implicit,
                        action: id,
                        answer_max,
                        counter,
                        expires,
                    },
                    window,
                    stage,
                    pc + 4,
                ),
                _ => return false,
            },
            // Steps whose skip holds, each a `StepBegin` jumping to the
            // next, then a step whose window opens at once.
            (None, None) => {
                // The step's end zeroes the repeat count before the tests
                // read it (and the loop does the same if this gives up).
                self.state.repeat = 0;
                let mut skipped = [(step, RuleRef::default()); MAX_HOP_SKIPS];
                let mut count = 0;
                let mut at = pc + 1;
                loop {
                    match ops.get(at) {
                        Some(&Op::StepBegin {
                            step,
                            only_if: Test::Always,
                            skips,
                            after,
                            ..
                        }) if count < MAX_HOP_SKIPS => {
                            let Some(rule) = self.first_skip(&self.program, skips) else {
                                return false;
                            };
                            skipped[count] = (step, rule);
                            count += 1;
                            at = after as usize;
                        }
                        Some(&Op::StepBeginPlain {
                            step: next,
                            implicit,
                            window: Some((window, stage)),
                        }) if count > 0 => {
                            break (
                                Then::Skips {
                                    skipped,
                                    count,
                                    next,
                                    implicit,
                                },
                                window,
                                stage,
                                at + 2,
                            );
                        }
                        _ => return false,
                    }
                }
            }
            _ => return false,
        };
        let s = &mut self.state;
        s.stage = stages;
        s.repeat = 0;
        if !implicit {
            sink.event(Event::StepEnded { step });
        }
        match then {
            Then::Phase {
                ended,
                phase,
                turn_pos,
                kind,
                first_step,
                implicit,
            } => {
                sink.event(Event::PhaseEnded { phase: ended });
                let kind = kind as usize & (MAX_PHASE_KINDS - 1);
                let s = &mut self.state;
                s.phase = phase;
                s.turn_pos = turn_pos;
                s.count_phase_kind(kind);
                self.phase_began(phase, kind, first_step, sink);
                self.step_began(first_step, implicit, host, sink);
            }
            Then::Step {
                next,
                implicit,
                action,
                answer_max,
                counter,
                expires,
            } => {
                self.state.step = next;
                self.state.anchor = next;
                self.step_began(next, implicit, host, sink);
                self.plain_turn_action(action, answer_max, counter, expires, host, sink);
            }
            Then::Skips {
                skipped,
                count,
                next,
                implicit,
            } => {
                for &(step, rule) in skipped.iter().take(count) {
                    self.state.step = step;
                    self.state.anchor = step;
                    sink.event(Event::Skipped {
                        skipped: Skipped::Step(step),
                        rule,
                    });
                }
                self.state.step = next;
                self.state.anchor = next;
                self.step_began(next, implicit, host, sink);
            }
        }
        let s = &mut self.state;
        s.stage = stage;
        s.window_opened = true;
        s.passes = 0;
        s.point = Point::Stage;
        self.resume = resume as u16;
        let first = self.first_holder_fast();
        self.give_priority_from_program(first, window, sink);
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
        let program = match self.program_handle.take() {
            Some(handle) => handle,
            None => Arc::clone(&self.program),
        };
        self.run_ops(&program, pc, host, sink);
        if self.program_handle.is_none() {
            self.program_handle = Some(program);
        }
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
                        sink.event(Event::Skipped {
                            skipped: Skipped::Phase(phase),
                            rule,
                        });
                        pc = after as usize;
                        continue;
                    }
                    self.phase_began(phase, kind, first_step, sink);
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
                        sink.event(Event::Skipped {
                            skipped: Skipped::Step(step),
                            rule,
                        });
                        self.state.repeat = 0;
                        pc = after as usize;
                        continue;
                    }
                    self.step_began(step, implicit, host, sink);
                }
                Op::Action {
                    id,
                    test,
                    stage,
                    plain,
                    answer_max,
                    counter,
                    expires,
                } => {
                    // Nothing a turn-based action does reads the stage.
                    if self.holds(test) {
                        if plain {
                            self.plain_turn_action(id, answer_max, counter, expires, host, sink);
                        } else {
                            self.answer_turn_action(id, host, sink);
                        }
                    }
                    self.state.stage = stage;
                }
                Op::Window {
                    window,
                    if_pending,
                    stage,
                } => {
                    let s = &mut self.state;
                    s.stage = stage;
                    if !if_pending || !s.waiting.is_empty() || !s.stack.is_empty() {
                        // The same opening as a fused window's in
                        // `begin_fused`, written twice on purpose: one
                        // shared inline helper measured 5 % more
                        // instructions per turn (the copies were merged
                        // into one block, with a branch to rejoin).
                        s.window_opened = true;
                        s.passes = 0;
                        s.point = Point::Stage;
                        self.resume = pc as u16;
                        let first = self.first_holder_fast();
                        self.give_priority_from_program(first, window, sink);
                        return;
                    }
                    s.stage = stage + 1;
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
                    if !implicit {
                        sink.event(Event::StepEnded { step });
                    }
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
                            sink.event(Event::PhaseEnded { phase });
                            pc += 1;
                        }
                    }
                }
                Op::PhaseEnd { phase } => {
                    sink.event(Event::PhaseEnded { phase });
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
                    self.phase_began(phase, kind, first_step, sink);
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
                    let s = &mut self.state;
                    s.stage = stages;
                    s.repeat = 0;
                    if !implicit {
                        sink.event(Event::StepEnded { step });
                    }
                    if let Some(phase) = ends_phase {
                        sink.event(Event::PhaseEnded { phase });
                        pc += 1;
                    } else if let Some((next, begin)) = then {
                        pc += 1;
                        if self.begin_fused(next, begin, pc, host, sink) {
                            return;
                        }
                    }
                }
                Op::TurnEnd => {
                    // Past the last phase, as the interpreter leaves it.
                    self.state.turn_pos = self.state.turn_pos.saturating_add(1);
                    sink.event(Event::TurnEnded {
                        turn: self.state.turn,
                        player: self.state.active,
                    });
                    let s = &mut self.state;
                    if s.mods.is_none() {
                        // `next_turn_player` with nothing structural
                        // pending (the program runs only then: no return
                        // points, no only-step, no start-step to clear),
                        // the next seat from the program's table.
                        if !s.extra_turn {
                            s.last_regular = s.active;
                        }
                        s.extra_turn = false;
                        s.active = program.next_side[s.last_regular.index() & 7];
                        s.point = Point::TurnStart;
                    } else {
                        self.next_turn_player();
                    }
                    // The next turn begins here (the TurnBegin op at 0,
                    // without its dispatch).
                    match self.begin_next_turn(&mut budget, host, sink) {
                        Some(next) => pc = next,
                        None => return,
                    }
                }
            }
        }
    }
}

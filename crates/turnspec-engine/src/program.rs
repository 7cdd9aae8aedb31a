//! The turn program: the regular turn of one game set-up, compiled into a
//! flat list of ops with explicit jumps, so that walking an ordinary turn
//! does no spec lookups and evaluates no condition whose answer the set-up
//! already decides.
//!
//! The program is built when a game is set up and again on the rare events
//! that change what it folds (a fact set, a player leaving). It runs only
//! while nothing structural is going on: no modifiers (extra turns, phases
//! or steps, counted skips, delayed triggers, durations, mana), no
//! on-demand phase, no "this phase holds only that step". Otherwise the
//! interpreter in `flow.rs` runs the turn, and hands back at the next point
//! the program knows. Both emit the same events: `tests/program.rs` plays
//! random games with effects through both and compares the streams.

use std::sync::Arc;

use turnspec_model::{
    Atom, AtomSource, CompareOp, CondId, MAX_COUNTERS, MAX_PLAYER_COUNTERS, MAX_PLAYERS, Node,
    PhaseId, Reset, Residual, RuleRef, Spec, Stage, StepId, TurnActionId, WindowId, WindowMode,
};

use crate::endless::MAX_REPEATS_WITHOUT_PRIORITY;
use crate::event::{Because, Event, EventSink, Skipped};
use crate::flow::STALL_BUDGET;
use crate::game::Game;
use crate::host::Host;
use crate::state::{GameState, PlayerId, Point, Scope, Status};
use turnspec_model::MAX_PHASE_KINDS;

/// [`Game::resume`](crate::game::Game) when the program did not open the
/// window that is open.
pub(crate) const NO_RESUME: u16 = u16::MAX;

/// What happened at a turn's beginning.
enum TurnBegin {
    Began,
    /// The active player had left: the next player's turn, from op 0.
    Again,
    Stopped,
}

/// A condition as far as the set-up decides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Test {
    /// False whatever happens in play.
    Never,
    /// True whatever happens in play.
    Always,
    /// Depends on the play, and is this one atom (`window_opened`).
    Flag(Atom),
    /// Depends on the play, and is two atoms both true (`first_turn and
    /// starting_player`, once `players == 2` is folded).
    Both(Atom, Atom),
    /// Depends on the play, and compares one atom with a number
    /// (`counter.attackers == 0`).
    Compare(Atom, CompareOp, i32),
    /// Depends on the play, and compares a counter kept for the whole game
    /// (not per player) with a number: read straight from the state.
    Counter(u8, CompareOp, i32),
    /// Depends on the play, and is two of the simple tests above both true
    /// (`counter.first_strike > 0 and repeat_count == 0`): the pair at this
    /// index of [`Program::pairs`].
    Pair(u16),
    /// Depends on the play: evaluate this node of the spec's conditions.
    Check(u32),
}

/// One `skip` entry whose condition the set-up did not rule out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SkipCheck {
    pub test: Test,
    pub rule: RuleRef,
}

/// A range of [`Program::skips`].
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Skips {
    pub start: u16,
    pub len: u8,
}

/// One op of the turn program. Jumps are indices into [`Program::ops`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Op {
    /// A turn begins (or not: no players, the turn limit, a skipped turn).
    TurnBegin,
    /// A phase of the regular turn begins, unless absent or skipped: then
    /// the program goes on at `after` (past its `PhaseEnd`) with no event.
    PhaseBegin {
        phase: PhaseId,
        turn_pos: u8,
        kind: u8,
        only_if: Test,
        skips: Skips,
        first_step: StepId,
        after: u16,
    },
    /// A step begins, unless absent or skipped: then on at `after`.
    StepBegin {
        step: StepId,
        only_if: Test,
        skips: Skips,
        implicit: bool,
        after: u16,
    },
    /// A turn-based action (stage `stage - 1`; `stage` is the one after).
    /// Actions whose condition the set-up rules out have no op.
    Action {
        id: TurnActionId,
        test: Test,
        stage: u8,
        /// The action only asks the host (no counter, play, expiry or
        /// stacking of triggers): done inline, with the answer capped at
        /// `answer_max`.
        plain: bool,
        answer_max: u16,
        /// With `plain`: the counter (kept for the whole game) the answer
        /// goes to, and whether "until end of turn" effects end.
        counter: Option<u8>,
        expires: bool,
    },
    /// A priority window (stage `stage`).
    Window {
        window: WindowId,
        if_pending: bool,
        stage: u8,
    },
    /// The step ends; with `repeat` true it begins again at `begin`.
    StepEnd {
        step: StepId,
        repeat: Test,
        implicit: bool,
        begin: u16,
        /// The step's number of stages (where the interpreter's stage
        /// counter stands when the step ends).
        stages: u8,
        /// The phase's last step: when it does not repeat, the phase ends
        /// here too and the `PhaseEnd` op that follows is skipped (one
        /// dispatch fewer per phase; the op stays for jumps and entries).
        ends_phase: Option<PhaseId>,
    },
    /// The phase ends.
    PhaseEnd { phase: PhaseId },
    /// [`Op::PhaseBegin`] with nothing to test (always there, no skip):
    /// the common case, with fewer fields to read.
    /// With `then`, the op that follows is the first step's
    /// [`Op::StepBeginPlain`] and is done here too (one dispatch fewer).
    PhaseBeginPlain {
        phase: PhaseId,
        turn_pos: u8,
        kind: u8,
        first_step: StepId,
        then: Option<FusedBegin>,
    },
    /// [`Op::Action`] that always happens and is plain.
    ActionPlain {
        id: TurnActionId,
        stage: u8,
        answer_max: u16,
        counter: Option<u8>,
        expires: bool,
    },
    /// [`Op::StepBegin`] with nothing to test. With `window`, the op that
    /// follows is a window that always opens, opened here.
    StepBeginPlain {
        step: StepId,
        implicit: bool,
        window: Option<(WindowId, u8)>,
    },
    /// [`Op::StepEnd`] of a step that never repeats. With `then`, the op
    /// that follows is the next step's [`Op::StepBeginPlain`], done here.
    StepEndPlain {
        step: StepId,
        implicit: bool,
        stages: u8,
        ends_phase: Option<PhaseId>,
        then: Option<(StepId, FusedBegin)>,
    },
    /// The turn ends; the next begins at op 0.
    TurnEnd,
}

/// A [`Op::StepBeginPlain`] done by the op before it: whether the step is
/// implicit, and the window it opens at once, if any.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FusedBegin {
    implicit: bool,
    window: Option<(WindowId, u8)>,
}

/// Fuses each plain op with the plain op after it where they always run
/// one after the other. Every op stays where it is (entries and jumps
/// still land on them); an op that did the next one's work skips it.
fn fuse(ops: &mut [Op]) {
    for i in (0..ops.len()).rev() {
        let next = ops.get(i + 1).copied();
        match (&mut ops[i], next) {
            (
                Op::StepBeginPlain { window, .. },
                Some(Op::Window {
                    window: w,
                    if_pending: false,
                    stage,
                }),
            ) => *window = Some((w, stage)),
            (
                Op::StepEndPlain {
                    ends_phase: None,
                    then,
                    ..
                },
                Some(Op::StepBeginPlain {
                    step,
                    implicit,
                    window,
                }),
            ) => *then = Some((step, FusedBegin { implicit, window })),
            (
                Op::PhaseBeginPlain {
                    first_step, then, ..
                },
                Some(Op::StepBeginPlain {
                    step,
                    implicit,
                    window,
                }),
            ) if step == *first_step => *then = Some(FusedBegin { implicit, window }),
            _ => {}
        }
    }
}

impl Op {
    /// The same op in its plain form when it has nothing to test: the
    /// same effect, with fewer fields to read and fewer branches.
    fn plain(self) -> Op {
        match self {
            Op::PhaseBegin {
                phase,
                turn_pos,
                kind,
                only_if: Test::Always,
                skips: Skips { len: 0, .. },
                first_step,
                ..
            } => Op::PhaseBeginPlain {
                phase,
                turn_pos,
                kind,
                first_step,
                then: None,
            },
            Op::StepBegin {
                step,
                only_if: Test::Always,
                skips: Skips { len: 0, .. },
                implicit,
                ..
            } => Op::StepBeginPlain {
                step,
                implicit,
                window: None,
            },
            Op::StepEnd {
                step,
                repeat: Test::Never,
                implicit,
                stages,
                ends_phase,
                ..
            } => Op::StepEndPlain {
                step,
                implicit,
                stages,
                ends_phase,
                then: None,
            },
            Op::Action {
                id,
                test: Test::Always,
                stage,
                plain: true,
                answer_max,
                counter,
                expires,
            } => Op::ActionPlain {
                id,
                stage,
                answer_max,
                counter,
                expires,
            },
            op => op,
        }
    }
}

/// Where each part of the regular turn sits in the program, to enter it
/// from a point the interpreter left.
#[derive(Debug, Clone, Default)]
struct Entries {
    /// By phase index: its `PhaseBegin` and `PhaseEnd`, if the phase is in
    /// the regular turn once.
    phase: Vec<Option<(u16, u16)>>,
    /// By step index: its `StepBegin` and `StepEnd`, and where its stages
    /// start in `stage_pc`.
    step: Vec<Option<(u16, u16, u32)>>,
    /// For each stage of each step, then one more for its end: the op that
    /// runs it, or the next one if it has none.
    stage_pc: Vec<u16>,
    turn_end: u16,
}

/// Which counters survive a turn, phase or step beginning: a mask per
/// counter, so a reset is a few masked stores rather than a loop over
/// bits. (Counters with a `start` value never reach the program: such
/// specs run on the interpreter.)
#[derive(Debug, Clone, Copy)]
pub(crate) struct ResetKeep {
    /// Some counter resets here (per player or not: a per-player counter's
    /// own slot in `counters` is zeroed too, as the interpreter does).
    any: bool,
    counters: [u16; MAX_COUNTERS],
    /// Some per-player counter resets here.
    players: bool,
    player_slots: [u16; MAX_PLAYER_COUNTERS],
}

impl ResetKeep {
    fn of(spec: &Spec, level: Reset) -> ResetKeep {
        let mut keep = ResetKeep {
            any: false,
            counters: [u16::MAX; MAX_COUNTERS],
            players: false,
            player_slots: [u16::MAX; MAX_PLAYER_COUNTERS],
        };
        for (i, c) in spec.counters().iter().enumerate().take(MAX_COUNTERS) {
            if c.reset != level {
                continue;
            }
            keep.any = true;
            keep.counters[i] = 0;
            if c.per_player
                && let Some(slot) = keep.player_slots.get_mut(c.slot as usize)
            {
                keep.players = true;
                *slot = 0;
            }
        }
        keep
    }

    /// Zeroes what resets, as `Game::reset_counters` does.
    #[inline(always)]
    pub(crate) fn apply(&self, state: &mut GameState) {
        if !self.any {
            return;
        }
        for (c, k) in state.counters.iter_mut().zip(self.counters) {
            *c &= k;
        }
        if !self.players {
            return;
        }
        for (row, k) in state.player_counters.iter_mut().zip(self.player_slots) {
            for c in row {
                *c &= k;
            }
        }
    }
}

/// The compiled turn of one game set-up; shared by clones of a game.
#[derive(Debug, Clone)]
pub(crate) struct Program {
    pub ops: Vec<Op>,
    pub skips: Vec<SkipCheck>,
    /// The two halves of each [`Test::Pair`].
    pub pairs: Vec<(Test, Test)>,
    entries: Entries,
    /// Sides still in the game (players, or teams with shared turns).
    pub sides_in: u8,
    /// The side after each seat in turn order (who receives priority after
    /// a pass).
    pub next_side: [PlayerId; MAX_PLAYERS as usize],
    /// False when the spec's turn cannot be compiled (a phase listed twice):
    /// the interpreter then runs every turn.
    pub usable: bool,
    /// What a turn, a phase and a step beginning keep.
    pub keep_turn: ResetKeep,
    pub keep_phase: ResetKeep,
    pub keep_step: ResetKeep,
}

impl Program {
    /// Compiles the regular turn of `spec` for the set-up in `state`.
    /// `next_side` is computed by the caller (turn order and teams live in
    /// `priority.rs`). Not `enabled`, the tables are built but the
    /// interpreter runs every turn.
    pub(crate) fn build(
        spec: &Spec,
        state: &GameState,
        enabled: bool,
        next_side: impl Fn(PlayerId) -> PlayerId,
    ) -> Arc<Program> {
        let known = |atom: Atom| -> Option<i32> {
            match atom {
                Atom::Variant(v) => Some((state.variants >> (v.index() & 63) & 1) as i32),
                Atom::Fact(f) => Some((state.facts >> (f.index() & 63) & 1) as i32),
                Atom::Players => Some(state.players_in_game() as i32),
                Atom::Teams => Some(state.sides_in_game() as i32),
                _ => None,
            }
        };
        let conditions = spec.conditions();
        let compare = |atom: Atom, op: CompareOp, k: i32| match atom {
            Atom::Counter(c)
                if c.index() < MAX_COUNTERS
                    && spec.counters().get(c).is_some_and(|c| !c.per_player) =>
            {
                Test::Counter(c.index() as u8, op, k)
            }
            _ => Test::Compare(atom, op, k),
        };
        let pairs = std::cell::RefCell::new(Vec::<(Test, Test)>::new());
        let simple = |n: u32| match conditions.node(n) {
            Some(Node::Atom(a)) => Some(Test::Flag(a)),
            Some(Node::Compare(op, a, b)) => match (conditions.node(a), conditions.node(b)) {
                (Some(Node::Atom(a)), Some(Node::Const(k))) => Some(compare(a, op, k)),
                (Some(Node::Const(k)), Some(Node::Atom(b))) => Some(compare(b, op.flipped(), k)),
                _ => None,
            },
            _ => None,
        };
        let test = |cond: Option<CondId>| match cond {
            None => Test::Never,
            Some(c) => match conditions.residual(c, &known) {
                Residual::Value(true) => Test::Always,
                Residual::Value(false) => Test::Never,
                Residual::Node(n) => match conditions.node(n) {
                    Some(Node::Atom(a)) => Test::Flag(a),
                    Some(Node::And(a, b)) => match (conditions.node(a), conditions.node(b)) {
                        (Some(Node::Atom(a)), Some(Node::Atom(b))) => Test::Both(a, b),
                        _ => match (simple(a), simple(b)) {
                            (Some(a), Some(b)) if pairs.borrow().len() < u16::MAX as usize => {
                                let mut pairs = pairs.borrow_mut();
                                pairs.push((a, b));
                                Test::Pair(pairs.len() as u16 - 1)
                            }
                            _ => Test::Check(n),
                        },
                    },
                    Some(Node::Compare(op, a, b)) => {
                        match (conditions.node(a), conditions.node(b)) {
                            (Some(Node::Atom(a)), Some(Node::Const(k))) => compare(a, op, k),
                            (Some(Node::Const(k)), Some(Node::Atom(b))) => {
                                compare(b, op.flipped(), k)
                            }
                            _ => Test::Check(n),
                        }
                    }
                    _ => Test::Check(n),
                },
            },
        };
        let mut p = Program {
            ops: Vec::new(),
            skips: Vec::new(),
            pairs: Vec::new(),
            entries: Entries {
                phase: vec![None; spec.phases().len()],
                step: vec![None; spec.steps().len()],
                stage_pc: Vec::new(),
                turn_end: 0,
            },
            sides_in: state.sides_in_game(),
            next_side: [PlayerId(0); MAX_PLAYERS as usize],
            usable: enabled,
            keep_turn: ResetKeep::of(spec, Reset::Turn),
            keep_phase: ResetKeep::of(spec, Reset::Phase),
            keep_step: ResetKeep::of(spec, Reset::Step),
        };
        for (i, side) in p
            .next_side
            .iter_mut()
            .enumerate()
            .take(state.players as usize)
        {
            *side = next_side(PlayerId(i as u8));
        }
        let skips_of = |p: &mut Program, list: &[turnspec_model::Condition]| {
            let start = p.skips.len() as u16;
            for c in list {
                let t = test(Some(c.cond));
                if t == Test::Never {
                    continue;
                }
                p.skips.push(SkipCheck {
                    test: t,
                    rule: c.rule,
                });
                if t == Test::Always {
                    break;
                }
            }
            Skips {
                start,
                len: (p.skips.len() - start as usize) as u8,
            }
        };
        p.ops.push(Op::TurnBegin);
        for (turn_pos, &phase_id) in spec.turn().iter().enumerate() {
            let phase = spec.phase(phase_id);
            if p.entries.phase[phase_id.index()].is_some() || turn_pos > u8::MAX as usize {
                p.usable = false;
            }
            let begin = p.ops.len();
            let skips = skips_of(&mut p, &phase.skip);
            p.ops.push(Op::PhaseBegin {
                phase: phase_id,
                turn_pos: turn_pos as u8,
                kind: phase.kind,
                only_if: match phase.only_if {
                    None => Test::Always,
                    c => test(c),
                },
                skips,
                first_step: phase.first_step,
                after: 0,
            });
            for step_id in phase.steps() {
                let step = spec.step(step_id);
                let step_begin = p.ops.len();
                let skips = skips_of(&mut p, &step.skip);
                p.ops.push(Op::StepBegin {
                    step: step_id,
                    only_if: match step.only_if {
                        None => Test::Always,
                        c => test(c),
                    },
                    skips,
                    implicit: step.implicit,
                    after: 0,
                });
                if step.stages.len() > u8::MAX as usize - 1 {
                    p.usable = false;
                }
                let stages_at = p.entries.stage_pc.len() as u32;
                for (i, stage) in step.stages.iter().enumerate() {
                    p.entries.stage_pc.push(p.ops.len() as u16);
                    let op = match *stage {
                        Stage::Action(id) => {
                            let a = spec.turn_action(id);
                            let global_counter = a.answer_counter.filter(|c| {
                                c.index() < MAX_COUNTERS
                                    && spec.counters().get(*c).is_some_and(|c| !c.per_player)
                            });
                            let global_counter = global_counter.map(|c| c.index() as u8);
                            Op::Action {
                                id,
                                test: match a.condition {
                                    None => Test::Always,
                                    c => test(c),
                                },
                                stage: i as u8 + 1,
                                plain: global_counter.is_some() == a.answer_counter.is_some()
                                    && a.answer_play.is_none()
                                    && a.play.is_none()
                                    && !a.stack_triggers,
                                answer_max: a.answer_max,
                                counter: global_counter,
                                expires: a.ends_turn_effects,
                            }
                        }
                        Stage::Window(w) => Op::Window {
                            window: w,
                            if_pending: spec.window(w).mode == WindowMode::IfPending,
                            stage: i as u8,
                        },
                    };
                    if !matches!(
                        op,
                        Op::Action {
                            test: Test::Never,
                            ..
                        }
                    ) {
                        p.ops.push(op);
                    }
                }
                let step_end = p.ops.len();
                p.entries.stage_pc.push(step_end as u16);
                p.ops.push(Op::StepEnd {
                    step: step_id,
                    repeat: test(step.repeat.map(|r| r.cond)),
                    implicit: step.implicit,
                    begin: step_begin as u16,
                    stages: step.stages.len() as u8,
                    ends_phase: None,
                });
                let here = p.ops.len() as u16;
                if let Op::StepBegin { after, .. } = &mut p.ops[step_begin] {
                    *after = here;
                }
                p.entries.step[step_id.index()] =
                    Some((step_begin as u16, step_end as u16, stages_at));
            }
            let end = p.ops.len();
            if let Some(Op::StepEnd { ends_phase, .. }) = p.ops.last_mut() {
                *ends_phase = Some(phase_id);
            }
            p.ops.push(Op::PhaseEnd { phase: phase_id });
            let here = p.ops.len() as u16;
            if let Op::PhaseBegin { after, .. } = &mut p.ops[begin] {
                *after = here;
            }
            p.entries.phase[phase_id.index()] = Some((begin as u16, end as u16));
        }
        p.entries.turn_end = p.ops.len() as u16;
        p.ops.push(Op::TurnEnd);
        if p.ops.len() > u16::MAX as usize {
            p.usable = false;
        }
        for op in &mut p.ops {
            *op = op.plain();
        }
        fuse(&mut p.ops);
        p.pairs = pairs.into_inner();
        Arc::new(p)
    }

    fn phase_entry(&self, phase: PhaseId) -> Option<(u16, u16)> {
        self.entries.phase.get(phase.index()).copied().flatten()
    }

    /// Where the program goes on from the point the state is at, if the
    /// program can run it: nothing structural going on and the point part
    /// of the regular turn.
    #[inline]
    pub(crate) fn entry(&self, spec: &Spec, s: &GameState) -> Option<usize> {
        if !self.usable
            || s.returns_len != 0
            || s.only_step.is_some()
            || s.start_step.is_some()
            || !s.modifiers_idle()
        {
            return None;
        }
        let regular_phase = || {
            spec.turn()
                .get(s.turn_pos as usize)
                .is_some_and(|p| *p == s.phase)
        };
        let step_entry = || {
            if s.anchor != s.step || !regular_phase() {
                return None;
            }
            self.entries.step.get(s.step.index()).copied().flatten()
        };
        let pc = match s.point {
            Point::TurnStart => 0,
            Point::PhaseStart if regular_phase() => self.phase_entry(s.phase)?.0 as usize,
            Point::PhaseEnd if regular_phase() => self.phase_entry(s.phase)?.1 as usize,
            Point::StepStart => step_entry()?.0 as usize,
            Point::Stage => {
                let at = step_entry()?.2 as usize + s.stage as usize;
                *self.entries.stage_pc.get(at)? as usize
            }
            Point::StepEnd => step_entry()?.1 as usize,
            Point::TurnEnd => self.entries.turn_end as usize,
            Point::PhaseStart | Point::PhaseEnd | Point::Reopen => return None,
        };
        Some(pc)
    }
}

impl Game {
    #[inline(always)]
    fn holds(&self, test: Test) -> bool {
        match test {
            Test::Always => true,
            Test::Never => false,
            // The cheapest reads stay inline: a counter, whether a window
            // opened (the cleanup loop).
            Test::Counter(c, op, k) => {
                let value = self.state.counters.get(c as usize).copied().unwrap_or(0);
                op.apply(i32::from(value), k)
            }
            Test::Flag(a) => self.flag(a),
            Test::Both(a, b) => self.flag(a) && self.flag(b),
            _ => self.holds_pair_or_compare(test),
        }
    }

    /// Comparisons and pairs of simple tests: out of line, but with no
    /// walk of the spec's condition tree.
    #[inline(never)]
    fn holds_pair_or_compare(&self, test: Test) -> bool {
        match test {
            Test::Compare(a, op, k) => op.apply(self.value(a), k),
            Test::Pair(i) => match self.program.pairs.get(i as usize) {
                Some(&(a, b)) => self.holds_simple(a) && self.holds_simple(b),
                None => false,
            },
            _ => self.holds_in_play(test),
        }
    }

    /// One half of a [`Test::Pair`].
    #[inline(always)]
    fn holds_simple(&self, test: Test) -> bool {
        match test {
            Test::Counter(c, op, k) => {
                let value = self.state.counters.get(c as usize).copied().unwrap_or(0);
                op.apply(i32::from(value), k)
            }
            Test::Flag(a) => self.flag(a),
            Test::Compare(a, op, k) => op.apply(self.value(a), k),
            _ => self.holds_in_play(test),
        }
    }

    /// An atom's value; the ones the turn's own conditions compare most
    /// (a repeated step, the stack) without a call.
    #[inline(always)]
    fn value(&self, atom: Atom) -> i32 {
        let s = &self.state;
        match atom {
            Atom::RepeatCount => i32::from(s.repeat),
            Atom::StackDepth => s.stack.len().min(u16::MAX as usize) as i32,
            Atom::Turn => s.turn as i32,
            _ => self.atom_in_play(atom),
        }
    }

    /// An atom as a yes/no; the ones the turn's own conditions read most
    /// (the cleanup loop, the first draw) without a call.
    #[inline(always)]
    fn flag(&self, atom: Atom) -> bool {
        let s = &self.state;
        match atom {
            Atom::WindowOpened => s.window_opened,
            Atom::FirstTurn => s.first_turn,
            Atom::StartingPlayer if !s.has_teams => s.active == s.starting,
            _ => self.atom_in_play(atom) != 0,
        }
    }

    #[inline(never)]
    fn atom_in_play(&self, atom: Atom) -> i32 {
        self.atom(atom)
    }

    /// A test the set-up did not decide: read the game.
    #[inline(never)]
    fn holds_in_play(&self, test: Test) -> bool {
        match test {
            Test::Always => true,
            Test::Never => false,
            Test::Flag(a) => self.atom(a) != 0,
            Test::Both(a, b) => self.atom(a) != 0 && self.atom(b) != 0,
            Test::Pair(i) => match self.program.pairs.get(i as usize) {
                Some(&(a, b)) => self.holds_in_play(a) && self.holds_in_play(b),
                None => false,
            },
            Test::Compare(a, op, k) => op.apply(self.atom(a), k),
            Test::Counter(c, op, k) => {
                let value = self.state.counters.get(c as usize).copied().unwrap_or(0);
                op.apply(i32::from(value), k)
            }
            Test::Check(n) => self.spec.conditions().eval_node(n, self),
        }
    }

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
        s.quiet_repeats = 0;
        s.turn += 1;
        if !s.extra_turn {
            s.last_regular = s.active;
        }
        s.first_turn = s.mark_had_turn(s.active);
        s.kind_counts = [0; MAX_PHASE_KINDS];
        s.turn_pos = 0;
        self.program.keep_turn.apply(&mut self.state);
        sink.event(Event::TurnBegan {
            turn: self.state.turn,
            player: self.state.active,
        });
        TurnBegin::Began
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
        self.program.keep_phase.apply(&mut self.state);
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
        self.program.keep_step.apply(&mut self.state);
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
        let first = self.first_holder();
        self.give_priority_in(first, Some(window), Because::WindowOpened, sink);
        true
    }

    /// The next turn begins (op 0's work): the op to go on at, or `None`
    /// when the game stopped. Jumps back to a new turn count against the
    /// loop's budget.
    #[inline(always)]
    fn begin_next_turn<S: EventSink>(&mut self, budget: &mut u32, sink: &mut S) -> Option<usize> {
        *budget -= 1;
        if *budget == 0 {
            self.state.status = Status::Stalled;
            return None;
        }
        match self.program_turn_begin(sink) {
            TurnBegin::Began => Some(1),
            TurnBegin::Again => Some(0),
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
        mut pc: usize,
        host: &mut H,
        sink: &mut S,
    ) {
        let program = Arc::clone(&self.program);
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
                Op::TurnBegin => match self.begin_next_turn(&mut budget, sink) {
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
                    self.state.kind_counts[kind] = self.state.kind_counts[kind].saturating_add(1);
                    if let Some(rule) = self.first_skip(&program, skips) {
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
                    if let Some(rule) = self.first_skip(&program, skips) {
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
                        let first = self.first_holder();
                        self.give_priority_in(first, Some(window), Because::WindowOpened, sink);
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
                    s.kind_counts[kind] = s.kind_counts[kind].saturating_add(1);
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
                    match self.begin_next_turn(&mut budget, sink) {
                        Some(next) => pc = next,
                        None => return,
                    }
                }
            }
        }
    }
}

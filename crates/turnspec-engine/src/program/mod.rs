//! The turn program: the regular turn of one game set-up and the phases
//! between turns, compiled into a flat list of ops with explicit jumps, so that walking an ordinary turn
//! does no spec lookups and evaluates no condition whose answer the set-up
//! already decides. It runs every turn but a player's first (a few per
//! game, which the interpreter runs), so `first_turn` is decided too.
//!
//! The program is built when a game is set up and again on the rare events
//! that change what it folds (a fact it read set, a player leaving). It runs only
//! while nothing structural is going on: no modifiers (extra turns, phases
//! or steps, counted skips, delayed triggers, durations, mana), no
//! on-demand phase, no "this phase holds only that step". Otherwise the
//! interpreter in `flow.rs` runs the turn, and hands back at the next point
//! the program knows. Both emit the same events: `tests/engine/program.rs` plays
//! random games with effects through both and compares the streams.
//!
//! `mod.rs` declares the ops, fuses plain ops and plans the
//! superinstructions, and finds where the program takes over from the
//! interpreter; `compile.rs` compiles a spec's turn into ops; `listing.rs`
//! prints a program; the executor is `crate::compiled`.

mod compile;
mod listing;

use turnspec_model::{
    Atom, CompareOp, EndPoints, MAX_PLAYERS, PhaseId, RuleRef, Spec, StepId, TurnActionId, WindowId,
};

use crate::resets::CounterResets;
use crate::state::{GameState, PlayerId, Point};

/// The resume point (`Cached::take_resume`) when the program did not open the
/// window that is open.
pub(crate) const NO_RESUME: u16 = u16::MAX;

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
    /// Depends on the play: whether this optional phase was elected this
    /// turn (read from the modifiers, with no walk of the spec's tree).
    Elected(PhaseId),
    /// Depends on the play: evaluate this node of the spec's conditions.
    Check(u32),
}

/// One `skip` entry whose condition the set-up did not rule out.
#[derive(Debug, Clone, PartialEq, Copy)]
pub(crate) struct SkipCheck {
    pub test: Test,
    pub rule: RuleRef,
}

/// A range of [`Program::skips`].
#[derive(Debug, Clone, PartialEq, Copy, Default)]
pub(crate) struct Skips {
    pub start: u16,
    pub len: u8,
}

/// One op of the turn program. Jumps are indices into [`Program::ops`].
#[derive(Debug, Clone, PartialEq, Copy)]
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
        /// An `Op::CheckEnd` for this action follows: it runs only if the
        /// action happened, so a failed `test` steps over it.
        then_check: bool,
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
    /// The turn ends, and the between-turns phases follow (the ops up to
    /// [`Op::BetweenEnd`]).
    TurnEndBetween,
    /// The between-turns phases are over: the next turn begins at op 0.
    BetweenEnd,
    /// The spec's endings checked at `at` (a turn's beginning, a step's
    /// end, a turn's end): only in the programs of specs that have such
    /// checks, so other specs' turns run exactly as before.
    CheckEnd(EndCheckAt),
    /// [`Op::StepEndPlain`] whose following ops, up to the next window
    /// that always opens, are one of the shapes of [`StepEndInto`] (the
    /// one at this index of [`Program::hops`]): done by this op, as those
    /// ops would, in one dispatch. Decided when the program is built; the
    /// ops it covers stay in place for entries and jumps.
    StepEndInto(u16),
    /// [`Op::ActionPlain`] followed by more of them: this op and the
    /// `len - 1` after it, whose fields are [`Program::actions`] from
    /// `start`, done in one dispatch. Decided when the program is built;
    /// the ops it covers stay in place for entries.
    ActionRun { start: u16, len: u8 },
}

/// The fields of one [`Op::ActionPlain`], as an [`Op::ActionRun`] reads
/// them.
#[derive(Debug, Clone, PartialEq, Copy)]
pub(crate) struct PlainAction {
    pub id: TurnActionId,
    pub stage: u8,
    pub answer_max: u16,
    pub counter: Option<u8>,
    pub expires: bool,
}

/// Replaces the first of each run of two or more [`Op::ActionPlain`] with
/// an [`Op::ActionRun`] (after [`plan_hops`], whose shapes read single
/// actions).
fn plan_action_runs(ops: &mut [Op], actions: &mut Vec<PlainAction>) {
    let plain = |op: &Op| match *op {
        Op::ActionPlain {
            id,
            stage,
            answer_max,
            counter,
            expires,
        } => Some(PlainAction {
            id,
            stage,
            answer_max,
            counter,
            expires,
        }),
        _ => None,
    };
    let mut i = 0;
    while i < ops.len() {
        let len = ops[i..]
            .iter()
            .take(u8::MAX as usize)
            .take_while(|op| plain(op).is_some())
            .count();
        if len >= 2 && actions.len() + len <= u16::MAX as usize {
            let start = actions.len() as u16;
            actions.extend(ops[i..i + len].iter().filter_map(plain));
            ops[i] = Op::ActionRun {
                start,
                len: len as u8,
            };
        }
        i += len.max(1);
    }
}

/// Where an [`Op::CheckEnd`] checks the spec's endings.
#[derive(Debug, Clone, PartialEq, Copy)]
pub(crate) struct EndCheckAt {
    pub at: EndPoints,
    /// The turn-based action just done, for `EndPoints::AFTER_ACTION`.
    pub action: Option<TurnActionId>,
    /// True when some check may find an ending: the condition itself when
    /// one check for the active player runs here, else `Always`.
    pub test: Test,
}

/// The most skipped steps one [`StepEndInto`] goes past (Magic's 508.8
/// skips two).
pub(crate) const MAX_HOP_SKIPS: usize = 3;

/// A plain step's end, and what always follows it up to the next window:
/// the work of several ops as one superinstruction ([`Op::StepEndInto`]).
/// Seven of the eight windows of an all-pass Magic turn close into the
/// next through one.
#[derive(Debug, Clone, PartialEq, Copy)]
pub(crate) struct StepEndInto {
    /// The step that ends (as in [`Op::StepEndPlain`]).
    pub step: StepId,
    pub implicit: bool,
    pub stages: u8,
    /// What follows the step's end.
    pub then: Then,
    /// The window that opens at the end, its stage, and the op after the
    /// window's op (where the program goes on when it closes).
    pub window: WindowId,
    pub stage: u8,
    pub resume: u16,
}

/// The three shapes a [`StepEndInto`] covers.
#[derive(Debug, Clone, PartialEq, Copy)]
pub(crate) enum Then {
    /// The step's phase ends and the next phase begins with its first
    /// step's window (`PhaseEnd`, then `PhaseBeginPlain` fused with the
    /// step and its window: Magic's main phases, combat, the ending phase).
    Phase {
        ended: PhaseId,
        phase: PhaseId,
        turn_pos: u8,
        kind: u8,
        first_step: StepId,
        implicit: bool,
    },
    /// The next step of the phase begins with one plain turn-based action,
    /// then its window (`StepBeginPlain`, `ActionPlain`, `Window`: the draw
    /// step, declare attackers).
    Step {
        next: StepId,
        implicit: bool,
        action: TurnActionId,
        answer_max: u16,
        counter: Option<u8>,
        expires: bool,
    },
    /// The next steps begin only to be skipped (their skip tests, all to
    /// hold), and the one after opens its window at once (508.8's skipped
    /// blockers and damage steps, then end of combat). When a skip does
    /// not hold, only the step's end is done, and the program goes on at
    /// the op after this one.
    Skips {
        skipped: [(StepId, Skips); MAX_HOP_SKIPS],
        count: u8,
        next: StepId,
        implicit: bool,
    },
}

/// A [`Op::StepBeginPlain`] done by the op before it: whether the step is
/// implicit, and the window it opens at once, if any.
#[derive(Debug, Clone, PartialEq, Copy)]
pub(crate) struct FusedBegin {
    pub implicit: bool,
    pub window: Option<(WindowId, u8)>,
}

/// Replaces each [`Op::StepEndPlain`] whose following ops form one of the
/// shapes of [`Then`] with an [`Op::StepEndInto`] (after [`fuse`], whose
/// fused begins it reads).
fn plan_hops(ops: &mut [Op], hops: &mut Vec<StepEndInto>) {
    for i in 0..ops.len() {
        let Op::StepEndPlain {
            step,
            implicit,
            stages,
            ends_phase,
            then,
        } = ops[i]
        else {
            continue;
        };
        let Some((then, window, stage, resume)) = hop_shape(ops, i, ends_phase, then) else {
            continue;
        };
        if hops.len() >= u16::MAX as usize {
            return;
        }
        hops.push(StepEndInto {
            step,
            implicit,
            stages,
            then,
            window,
            stage,
            resume: resume as u16,
        });
        ops[i] = Op::StepEndInto(hops.len() as u16 - 1);
    }
}

/// The shape of the ops after the `StepEndPlain` at `at`, if they are one.
fn hop_shape(
    ops: &[Op],
    at: usize,
    ends_phase: Option<PhaseId>,
    then: Option<(StepId, FusedBegin)>,
) -> Option<(Then, WindowId, u8, usize)> {
    match (ends_phase, then) {
        // `PhaseEnd` at `at + 1` (skipped by the step's end), then the
        // next phase's `PhaseBeginPlain` fused with its first step and
        // that step's window (`at + 2` to `at + 4`).
        (Some(ended), _) => match ops.get(at + 2) {
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
            }) => Some((
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
                at + 5,
            )),
            _ => None,
        },
        // The next step's `StepBeginPlain` (`at + 1`, fused into the
        // step's end), `ActionPlain` and a window that always opens.
        (
            None,
            Some((
                next,
                FusedBegin {
                    implicit,
                    window: None,
                },
            )),
        ) => match (ops.get(at + 2), ops.get(at + 3)) {
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
            ) => Some((
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
                at + 4,
            )),
            _ => None,
        },
        // `StepBegin`s with skips and nothing else to test, each going on
        // past its step's end, then a step whose window opens at once.
        (None, None) => {
            let mut skipped = [(StepId::default(), Skips::default()); MAX_HOP_SKIPS];
            let mut count = 0;
            let mut i = at + 1;
            loop {
                match ops.get(i) {
                    Some(&Op::StepBegin {
                        step,
                        only_if: Test::Always,
                        skips,
                        after,
                        ..
                    }) if count < MAX_HOP_SKIPS && skips.len > 0 => {
                        skipped[count] = (step, skips);
                        count += 1;
                        i = after as usize;
                    }
                    Some(&Op::StepBeginPlain {
                        step: next,
                        implicit,
                        window: Some((window, stage)),
                    }) if count > 0 => {
                        return Some((
                            Then::Skips {
                                skipped,
                                count: count as u8,
                                next,
                                implicit,
                            },
                            window,
                            stage,
                            i + 2,
                        ));
                    }
                    _ => return None,
                }
            }
        }
        (None, Some(_)) => None,
    }
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
                then_check: _,
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
#[derive(Debug, Clone, PartialEq, Default)]
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
}

/// The compiled turn of one game set-up; shared by clones of a game.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Program {
    pub ops: Vec<Op>,
    pub skips: Vec<SkipCheck>,
    /// The superinstructions of [`Op::StepEndInto`].
    pub hops: Vec<StepEndInto>,
    /// The actions of each [`Op::ActionRun`].
    pub actions: Vec<PlainAction>,
    /// The two halves of each [`Test::Pair`].
    pub pairs: Vec<(Test, Test)>,
    entries: Entries,
    /// The facts (one bit each) that some condition of the turn read while
    /// it was compiled: setting any other fact leaves the program as it is,
    /// since no compiled test could come out differently.
    pub facts_read: u64,
    /// The facts set when it was compiled (those in `facts_read` are
    /// folded into its tests).
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    pub facts_at_build: u64,
    /// Sides still in the game (players, or teams with shared turns).
    pub sides_in: u8,
    /// The side after each seat in turn order (who receives priority after
    /// a pass).
    pub next_side: [PlayerId; MAX_PLAYERS as usize],
    /// False when the spec's turn cannot be compiled (a phase listed twice):
    /// the interpreter then runs every turn.
    pub usable: bool,
    /// What a turn, a phase and a step beginning reset.
    pub resets: CounterResets,
    /// The timing classes each of the first [`TIMING_TABLE_STEPS`] steps
    /// allows (`Step::timing_mask`), next to the program so checking a
    /// plain play reads one table (later steps read 0: their plays take
    /// the general check).
    pub step_timings: [u32; TIMING_TABLE_STEPS],
    /// Some window's `refuse_pass` may hold (false when each folds to
    /// never with the facts set when the program was built).
    pub refusals_possible: bool,
}

/// How many steps [`Program::step_timings`] covers.
pub(crate) const TIMING_TABLE_STEPS: usize = 64;

impl Program {
    fn phase_entry(&self, phase: PhaseId) -> Option<(u16, u16)> {
        self.entries.phase.get(phase.index()).copied().flatten()
    }

    /// Where the program goes on from the point the state is at, if the
    /// program can run it: nothing structural going on, the point part of
    /// the regular turn or of the between-turns phases, and not a player's
    /// first turn.
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
        let order = if s.between {
            spec.between()
        } else {
            spec.turn()
        };
        let regular_phase = || {
            order
                .get(s.turn_pos as usize)
                .is_some_and(|p| *p == s.phase)
        };
        let step_entry = || {
            if s.anchor != s.step || !regular_phase() {
                return None;
            }
            self.entries.step.get(s.step.index()).copied().flatten()
        };
        // First turns are the interpreter's: at a turn's beginning (not
        // counted yet) the next turn's, else the current one.
        let first_turn = match s.point {
            Point::TurnStart => !s.has_had_turn(s.active),
            _ => s.first_turn,
        };
        if first_turn {
            return None;
        }
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
            // A turn's end the interpreter reached is its own to run: the
            // program's `TurnEnd` moves the turn position past the last
            // phase it ran, while a turn ended early (a play or effect
            // that ends it) keeps the position it had.
            Point::TurnEnd | Point::PhaseStart | Point::PhaseEnd | Point::Reopen => return None,
        };
        Some(pc)
    }
}

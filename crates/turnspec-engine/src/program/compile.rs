//! Compiling the turn program: the regular turn's phases, then the
//! between-turns phases, each phase's steps and each step's stages as ops,
//! with every condition the set-up decides folded into a [`Test`]; then the
//! plain forms, the fused pairs and the superinstructions ([`super::fuse`],
//! [`super::plan_hops`]).

use std::cell::Cell;
use std::sync::Arc;

use turnspec_model::{
    Atom, CompareOp, CondId, Condition, EndCheck, EndPoints, MAX_COUNTERS, MAX_PLAYERS, Node,
    PhaseId, Residual, Spec, Stage, StepId, TurnActionId, WindowMode,
};

use super::{
    EndCheckAt, Entries, Op, Program, SkipCheck, Skips, TIMING_TABLE_STEPS, Test, fuse,
    plan_action_runs, plan_hops,
};
use crate::resets::CounterResets;
use crate::state::{GameState, PlayerId};

/// What the set-up fixes for the whole game, as conditions read it.
#[derive(Clone, Copy)]
struct Known {
    variants: u64,
    facts: u64,
    players: u8,
    teams: u8,
}

/// Builds one [`Program`] for one game set-up.
struct Compiler<'a> {
    spec: &'a Spec,
    known: Known,
    /// The facts some condition read while it was folded.
    facts_read: u64,
    program: Program,
}

impl Program {
    /// Compiles the turn of `spec` for the set-up in `state`: the regular
    /// turn, then its between-turns phases. Not `enabled`, the tables are
    /// built but the interpreter runs every turn.
    pub(crate) fn build(spec: &Spec, state: &GameState, enabled: bool) -> Arc<Program> {
        let mut c = Compiler::new(spec, state, enabled);
        c.program.ops.push(Op::TurnBegin);
        c.check_end(EndPoints::TURN_START, None);
        for (turn_pos, &phase) in spec.turn().iter().enumerate() {
            c.phase(turn_pos, phase);
        }
        c.check_end(EndPoints::TURN_END, None);
        let between = spec.between();
        if between.is_empty() {
            c.program.ops.push(Op::TurnEnd);
        } else {
            c.program.ops.push(Op::TurnEndBetween);
            for (turn_pos, &phase) in between.iter().enumerate() {
                c.phase(turn_pos, phase);
            }
            c.program.ops.push(Op::BetweenEnd);
        }
        Arc::new(c.finish())
    }
}

impl<'a> Compiler<'a> {
    fn new(spec: &'a Spec, state: &GameState, enabled: bool) -> Self {
        let mut program = Program {
            ops: Vec::new(),
            skips: Vec::new(),
            hops: Vec::new(),
            actions: Vec::new(),
            pairs: Vec::new(),
            facts_read: 0,
            facts_at_build: state.facts,
            entries: Entries {
                phase: vec![None; spec.phases().len()],
                step: vec![None; spec.steps().len()],
                stage_pc: Vec::new(),
            },
            sides_in: state.sides_in_game(),
            next_side: [PlayerId(0); MAX_PLAYERS as usize],
            usable: enabled,
            resets: CounterResets::of(spec),
            step_timings: [0; TIMING_TABLE_STEPS],
            refusals_possible: false,
        };
        for (mask, step) in program.step_timings.iter_mut().zip(spec.steps().iter()) {
            *mask = step.timing_mask;
        }
        for (i, side) in program
            .next_side
            .iter_mut()
            .enumerate()
            .take(state.players as usize)
        {
            *side = state.next_in_game(spec.game().turn_order, PlayerId(i as u8));
        }
        Compiler {
            spec,
            known: Known {
                variants: state.variants,
                facts: state.facts,
                players: state.players_in_game(),
                teams: state.sides_in_game(),
            },
            facts_read: 0,
            program,
        }
    }

    /// The plain forms, the fused pairs and the superinstructions.
    fn finish(mut self) -> Program {
        // Whether some window's `refuse_pass` may hold in this game: folded
        // like every test, so a condition on facts that are not set is
        // ruled out until one of them is set (which rebuilds the program).
        // Every condition is folded, so each records the facts it reads.
        let spec = self.spec;
        for c in spec.windows().iter().flat_map(|w| &w.refuse_pass) {
            let possible = self.test(Some(c.cond)) != Test::Never;
            self.program.refusals_possible |= possible;
        }
        let p = &mut self.program;
        if p.ops.len() > u16::MAX as usize {
            p.usable = false;
        }
        for op in &mut p.ops {
            *op = op.plain();
        }
        fuse(&mut p.ops);
        plan_hops(&mut p.ops, &mut p.hops);
        plan_action_runs(&mut p.ops, &mut p.actions);
        p.facts_read = self.facts_read;
        self.program
    }

    /// A condition as far as the set-up decides it (`None`: no condition,
    /// which never holds).
    fn test(&mut self, cond: Option<CondId>) -> Test {
        let Some(c) = cond else {
            return Test::Never;
        };
        let known = self.known;
        let read = Cell::new(0u64);
        let value = |atom: Atom| -> Option<i32> {
            match atom {
                Atom::Variant(v) => Some((known.variants >> (v.index() & 63) & 1) as i32),
                Atom::Fact(f) => {
                    read.set(read.get() | 1 << (f.index() & 63));
                    Some((known.facts >> (f.index() & 63) & 1) as i32)
                }
                Atom::Players => Some(known.players as i32),
                Atom::Teams => Some(known.teams as i32),
                // The program runs no first turn (`Program::entry`): a
                // first turn's rule (Magic's skipped first draw) costs the
                // later turns no test.
                Atom::FirstTurn => Some(0),
                // Nor with modifiers (`Program::entry`), so no extra turn
                // waits (Pokémon Checkup's skip costs no test).
                Atom::ExtraTurnNext => Some(0),
                _ => None,
            }
        };
        let conditions = self.spec.conditions();
        let residual = conditions.residual(c, &value);
        self.facts_read |= read.get();
        match residual {
            Residual::Value(true) => Test::Always,
            Residual::Value(false) => Test::Never,
            Residual::Node(n) => match conditions.node(n) {
                Some(Node::Atom(Atom::Elected(p))) => Test::Elected(p),
                Some(Node::Atom(a)) => Test::Flag(a),
                Some(Node::And(a, b)) => match (conditions.node(a), conditions.node(b)) {
                    (Some(Node::Atom(a)), Some(Node::Atom(b))) => Test::Both(a, b),
                    _ => match (self.simple(a), self.simple(b)) {
                        (Some(a), Some(b)) => self.pair(a, b).unwrap_or(Test::Check(n)),
                        _ => Test::Check(n),
                    },
                },
                Some(Node::Compare(..)) => self.simple(n).unwrap_or(Test::Check(n)),
                _ => Test::Check(n),
            },
        }
    }

    /// A node that is one atom, or one atom compared with a number.
    fn simple(&self, n: u32) -> Option<Test> {
        let conditions = self.spec.conditions();
        match conditions.node(n)? {
            Node::Atom(a) => Some(Test::Flag(a)),
            Node::Compare(op, a, b) => match (conditions.node(a)?, conditions.node(b)?) {
                (Node::Atom(a), Node::Const(k)) => Some(self.compare(a, op, k)),
                (Node::Const(k), Node::Atom(b)) => Some(self.compare(b, op.flipped(), k)),
                _ => None,
            },
            _ => None,
        }
    }

    /// An atom compared with a number; a counter kept for the whole game
    /// is read straight from the state.
    fn compare(&self, atom: Atom, op: CompareOp, k: i32) -> Test {
        match atom {
            Atom::Counter(c)
                if c.index() < MAX_COUNTERS
                    && self.spec.counters().get(c).is_some_and(|c| !c.per_player) =>
            {
                Test::Counter(c.index() as u8, op, k)
            }
            _ => Test::Compare(atom, op, k),
        }
    }

    /// Two tests both to hold, as a [`Test::Pair`] (`None` past the pair
    /// table's limit).
    fn pair(&mut self, a: Test, b: Test) -> Option<Test> {
        let pairs = &mut self.program.pairs;
        if pairs.len() >= u16::MAX as usize {
            return None;
        }
        pairs.push((a, b));
        Some(Test::Pair(pairs.len() as u16 - 1))
    }

    /// The skip entries the set-up does not rule out, up to the first that
    /// always holds.
    fn skips(&mut self, list: &[Condition]) -> Skips {
        let start = self.program.skips.len() as u16;
        for c in list {
            let test = self.test(Some(c.cond));
            if test == Test::Never {
                continue;
            }
            self.program.skips.push(SkipCheck { test, rule: c.rule });
            if test == Test::Always {
                break;
            }
        }
        Skips {
            start,
            len: (self.program.skips.len() - start as usize) as u8,
        }
    }

    /// Whether an optional phase happens: elected this turn, and its own
    /// `only_if`.
    fn phase_test(&mut self, phase_id: PhaseId) -> Test {
        let Some(phase) = self.spec.phase(phase_id) else {
            self.program.usable = false;
            return Test::Never;
        };
        let only_if = match phase.only_if {
            None => Test::Always,
            c => self.test(c),
        };
        let elected = Test::Elected(phase_id);
        match (phase.optional, only_if) {
            (false, t) => t,
            (true, Test::Always) => elected,
            (true, Test::Never) => Test::Never,
            (true, t) => self.pair(elected, t).unwrap_or_else(|| {
                self.program.usable = false;
                Test::Never
            }),
        }
    }

    /// One phase at `turn_pos` of its order (the regular turn's or the
    /// between-turns phases').
    fn phase(&mut self, turn_pos: usize, phase_id: PhaseId) {
        let spec = self.spec;
        // The game's own spec resolves every id it lists; were one missing,
        // the interpreter would run the game instead.
        let Some(phase) = spec.phase(phase_id) else {
            self.program.usable = false;
            return;
        };
        if self.program.entries.phase[phase_id.index()].is_some() || turn_pos > u8::MAX as usize {
            self.program.usable = false;
        }
        let begin = self.program.ops.len();
        let skips = self.skips(&phase.skip);
        let only_if = self.phase_test(phase_id);
        self.program.ops.push(Op::PhaseBegin {
            phase: phase_id,
            turn_pos: turn_pos as u8,
            kind: phase.kind,
            only_if,
            skips,
            first_step: spec.first_regular_step(phase),
            after: 0,
        });
        // On-demand steps run only when a play starts them, and then on
        // the interpreter (`Program::entry` refuses inside them).
        for step_id in phase.steps() {
            if spec.step(step_id).is_some_and(|s| s.on_demand) {
                continue;
            }
            self.step(step_id);
        }
        let p = &mut self.program;
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

    /// One step: its beginning, its stages, its end.
    fn step(&mut self, step_id: StepId) {
        let Some(step) = self.spec.step(step_id) else {
            self.program.usable = false;
            return;
        };
        let step_begin = self.program.ops.len();
        let skips = self.skips(&step.skip);
        let only_if = match step.only_if {
            None => Test::Always,
            c => self.test(c),
        };
        self.program.ops.push(Op::StepBegin {
            step: step_id,
            only_if,
            skips,
            implicit: step.implicit,
            after: 0,
        });
        if step.stages.len() > u8::MAX as usize - 1 {
            self.program.usable = false;
        }
        let stages_at = self.program.entries.stage_pc.len() as u32;
        for (i, &stage) in step.stages.iter().enumerate() {
            let pc = self.program.ops.len() as u16;
            self.program.entries.stage_pc.push(pc);
            let Some(op) = self.stage(stage, i as u8) else {
                // An action ruled out never happens: nothing to check after it.
                continue;
            };
            let at = self.program.ops.len();
            self.program.ops.push(op);
            if let Stage::Action(id) = stage
                && self.check_end(EndPoints::AFTER_ACTION, Some(id))
                && let Some(Op::Action { then_check, .. }) = self.program.ops.get_mut(at)
            {
                *then_check = true;
            }
        }
        let repeat = self.test(step.repeat.map(|r| r.cond));
        // The step's end begins with its checks, if any: entries at the
        // end of the step land on them.
        let ending_at = self.program.ops.len();
        self.check_end(EndPoints::STEP_END, None);
        let p = &mut self.program;

        p.entries.stage_pc.push(ending_at as u16);
        p.ops.push(Op::StepEnd {
            step: step_id,
            repeat,
            implicit: step.implicit,
            begin: step_begin as u16,
            stages: step.stages.len() as u8,
            ends_phase: None,
        });
        let here = p.ops.len() as u16;
        if let Op::StepBegin { after, .. } = &mut p.ops[step_begin] {
            *after = here;
        }
        p.entries.step[step_id.index()] = Some((step_begin as u16, ending_at as u16, stages_at));
    }

    /// Stage number `i` of a step: its op, or none for an action whose
    /// condition the set-up rules out.
    /// The spec's endings checked at `at` (after `action`), if it has any
    /// there.
    /// True if it added a check.
    fn check_end(&mut self, at: EndPoints, action: Option<TurnActionId>) -> bool {
        let checks: Vec<EndCheck> = self
            .spec
            .endings()
            .iter()
            .filter_map(|e| e.check)
            .filter(|c| c.at.contains(at) && (at != EndPoints::AFTER_ACTION || c.after == action))
            .collect();
        let test = match checks.as_slice() {
            [] => return false,
            [one] if !one.each_player => self.test(Some(one.cond)),
            _ => Test::Always,
        };
        if test == Test::Never {
            return false;
        }
        self.program
            .ops
            .push(Op::CheckEnd(EndCheckAt { at, action, test }));
        true
    }

    fn stage(&mut self, stage: Stage, i: u8) -> Option<Op> {
        let spec = self.spec;
        let op = match stage {
            Stage::Action(id) => {
                let Some(a) = spec.turn_action(id) else {
                    self.program.usable = false;
                    return None;
                };
                let global_counter = a.answer_counter.filter(|c| {
                    c.index() < MAX_COUNTERS
                        && spec.counters().get(*c).is_some_and(|c| !c.per_player)
                });
                let test = match a.condition {
                    None => Test::Always,
                    c => self.test(c),
                };
                if test == Test::Never {
                    return None;
                }
                Op::Action {
                    id,
                    test,
                    stage: i + 1,
                    plain: global_counter.is_some() == a.answer_counter.is_some()
                        && a.answer_play.is_none()
                        && a.play.is_none()
                        && a.answer_role.is_none()
                        && !a.stack_triggers,
                    answer_max: a.answer_max,
                    counter: global_counter.map(|c| c.index() as u8),
                    expires: a.ends_turn_effects,
                    then_check: false,
                }
            }
            Stage::Window(w) => {
                let Some(window) = spec.window(w) else {
                    self.program.usable = false;
                    return None;
                };
                Op::Window {
                    window: w,
                    if_pending: window.mode == WindowMode::IfPending,
                    stage: i,
                }
            }
        };
        Some(op)
    }
}

//! Turns that never end: `repeat` conditions that keep holding.
//!
//! A step repeats while its `repeat` condition holds when it ends. If
//! nothing that can happen while the step repeats can make the condition
//! false, the turn never ends. This module finds such repeats when the spec
//! loads:
//!
//! * `turnspec::never-ends` (error): the condition holds whatever the game
//!   looks like (`true`, `1 == 1`, `turn > 0`, `repeat_count < 300`, since
//!   `repeat_count` stops at 255), so the step repeats for ever the first
//!   time it is reached.
//! * `turnspec::may-never-end` (warning): for some values of the things the
//!   step cannot change (`turn`, `seat`, `variant.*`, and without a window
//!   also facts, players and counters none of its actions answer), the
//!   condition holds whatever else happens (`turn > 3`, `variant.x`). Once
//!   the step repeats in such a game, it repeats for ever.
//!
//! Conditions are evaluated over ranges of values: each name stands for
//! every value it can take, and a comparison is decided only when every
//! value on each side gives the same answer. So a diagnostic here is never
//! wrong; loops this misses are stopped by the engine at run time.

use std::ops::Range;

use turnspec_model::{
    Arena, Atom, BUILTIN_ATOMS, CompareOp, CondId, Conditions, Counter, CounterId, Effect, FactId,
    Flag, MAX_REPEAT_COUNT, Node, Reset, RuleRef, Stage, Step, StepId, TimingClass, TimingId,
    TurnAction, TurnActionId, VariantId,
};

use crate::diag::Diagnostic;
use crate::raw::RawSpec;

/// Assignments of fixed names tried when looking for a game in which a
/// repeat gets stuck; a condition needing more is not looked at that way.
const MAX_ASSIGNMENTS: usize = 4096;

/// How deep into a condition the analysis looks. Below that a node counts
/// as any value (so nothing is reported from it), and an absurdly nested
/// condition cannot exhaust the stack.
const MAX_DEPTH: u32 = 200;

/// What the repeat check reads from the spec being compiled.
pub(crate) struct Parts<'a> {
    pub raw: &'a RawSpec,
    pub conditions: &'a Conditions,
    /// Rule citations.
    pub rules: &'a Arena<RuleRef, String>,
    pub steps: &'a Arena<StepId, Step>,
    pub actions: &'a Arena<TurnActionId, TurnAction>,
    pub timing: &'a Arena<TimingId, TimingClass>,
    pub counters: &'a Arena<CounterId, Counter>,
    pub facts: &'a Arena<FactId, Flag>,
    pub variants: &'a Arena<VariantId, Flag>,
    pub max_players: u8,
    /// Each step's id, where a diagnostic goes if its `repeat` has no span.
    pub step_spans: &'a [Range<usize>],
}

/// Every repeat that holds for ever, or may.
pub(crate) fn check_repeats(p: &Parts<'_>) -> Vec<Diagnostic> {
    let repeat_spans = repeat_spans(p.raw);
    let mut out = Vec::new();
    for (si, (step_id, step)) in p.steps.iter_ids().enumerate() {
        let Some(repeat) = step.repeat else { continue };
        let span = repeat_spans
            .get(si)
            .cloned()
            .flatten()
            .or_else(|| p.step_spans.get(si).cloned())
            .unwrap_or(0..0);
        let rule = p
            .rules
            .get(repeat.rule)
            .map(|r| format!(" (rule {r})"))
            .unwrap_or_default();
        let scope = Scope::of(p, step_id);
        match stuck(p, &scope, repeat.cond) {
            Stuck::Always => {
                let mut help = String::from(
                    "repeat on something that changes, e.g. `if = \"window_opened\"` (514.3a)",
                );
                if reads(p.conditions, repeat.cond, Atom::RepeatCount) {
                    help.push_str("; `repeat_count` stops growing at 255");
                }
                out.push(
                    Diagnostic::error(
                        "turnspec::never-ends",
                        span,
                        format!("`{}` repeats for ever{rule}", step.id),
                    )
                    .label("its repeat condition is always true")
                    .help(help),
                );
            }
            Stuck::When(witness) => {
                let names = witness
                    .iter()
                    .map(|(a, v)| format!("{} = {v}", atom_name(p, *a)))
                    .collect::<Vec<_>>()
                    .join(" and ");
                let help = if scope.window {
                    "nothing players do changes `turn`, `seat`, `first_turn`, `starting_player` or variants during a turn; repeat on something that changes, or bound it with `repeat_count < N`"
                } else {
                    "nobody receives priority while it repeats, so only its own turn-based actions change anything; bound it with `repeat_count < N`, or repeat on a counter one of its actions answers"
                };
                out.push(
                    Diagnostic::warning(
                        "turnspec::may-never-end",
                        span,
                        format!(
                            "`{}` may repeat for ever{rule}: when {names}, its repeat condition holds whatever happens in the step",
                            step.id
                        ),
                    )
                    .label("once this holds, nothing inside the step makes it false")
                    .help(help),
                );
            }
            Stuck::No => {}
        }
    }
    out
}

/// The span of each step's `repeat` value, in step order (a phase without
/// steps has one step carrying the phase's body).
fn repeat_spans(raw: &RawSpec) -> Vec<Option<Range<usize>>> {
    let mut out = Vec::new();
    for phase in &raw.phase {
        let phase = phase.get_ref();
        if phase.step.is_empty() {
            out.push(phase.repeat.as_ref().map(|r| r.span()));
        } else {
            for step in &phase.step {
                out.push(step.get_ref().repeat.as_ref().map(|r| r.span()));
            }
        }
    }
    out
}

/// What can change while one step repeats.
struct Scope {
    /// The step has a priority window: players act, the host may set facts,
    /// players may leave, plays may start phases and use limits.
    window: bool,
    /// Counters its turn-based actions write (answers, limits of plays).
    written: u32,
    /// Its turn-based actions put objects on the stack.
    pushes: bool,
}

impl Scope {
    fn of(p: &Parts<'_>, step: StepId) -> Scope {
        // Never missing for the loader's own step; if it were, anything
        // may change, so the check claims nothing.
        let Some(s) = p.steps.get(step) else {
            return Scope {
                window: true,
                written: u32::MAX,
                pushes: true,
            };
        };
        let window = s.stages.iter().any(|st| matches!(st, Stage::Window(_)));
        let mut written = 0u32;
        let mut pushes = false;
        let mut mark = |c: usize| written |= 1u32 << (c % 32);
        for st in &s.stages {
            let Stage::Action(a) = st else { continue };
            let Some(action) = p.actions.get(*a) else {
                continue;
            };
            if let Some(c) = action.answer_counter {
                mark(c.index());
            }
            for t in [action.answer_play, action.play].into_iter().flatten() {
                let Some(tc) = p.timing.get(t) else {
                    continue;
                };
                if let Some(l) = tc.limit {
                    mark(l.counter.index());
                }
                pushes |= tc.effect == Effect::Stack;
            }
        }
        Scope {
            window,
            written,
            pushes,
        }
    }
}

/// The values a name can take while the step repeats, and whether it stays
/// the same meanwhile (`fixed`).
#[derive(Clone, Copy)]
struct Domain {
    lo: i64,
    hi: i64,
    fixed: bool,
}

fn domain(p: &Parts<'_>, scope: &Scope, atom: Atom) -> Domain {
    let players = p.max_players.max(1) as i64;
    let d = |lo: i64, hi: i64, fixed: bool| Domain { lo, hi, fixed };
    let quiet = !scope.window;
    match atom {
        // Fixed for the whole turn.
        Atom::Turn => d(1, i32::MAX as i64, true),
        Atom::FirstTurn | Atom::StartingPlayer => d(0, 1, true),
        Atom::Seat => d(1, players, true),
        Atom::Variant(_) => d(0, 1, true),
        // Only a decision (a window) can change these.
        Atom::Players | Atom::Teams => d(0, players, quiet),
        Atom::Fact(_) => d(0, 1, quiet),
        // A play in the window may start a phase of the same kind.
        Atom::PhaseNumber => d(1, u8::MAX as i64, quiet),
        Atom::StackEmpty => d(0, 1, quiet && !scope.pushes),
        Atom::StackDepth => d(0, u16::MAX as i64, quiet && !scope.pushes),
        Atom::TopIs(_) => d(0, 1, quiet && !scope.pushes),
        Atom::TopAttribute(_) => d(0, u16::MAX as i64, quiet && !scope.pushes),
        // Elections are plays, and extra turns effects: both need a window.
        Atom::Elected(_) => d(0, 1, quiet),
        Atom::ExtraTurnNext => d(0, 1, quiet),
        // Whether this turn is an extra one: fixed for the whole turn.
        Atom::ExtraTurn => d(0, 1, true),
        // Answers and plays give roles away.
        Atom::Role(_) => d(1, players, false),
        // Read only by plays (`by = "object"`), never by a repeat: 0 there.
        Atom::ObjectEnteredThisTurn | Atom::ObjectSinceTurnStart | Atom::ObjectFact(_) => {
            d(0, 0, true)
        }
        Atom::WindowOpened if quiet => d(0, 0, true),
        Atom::WindowOpened => d(0, 1, false),
        // Grows by one each time the step begins again, up to 255.
        Atom::RepeatCount => d(0, MAX_REPEAT_COUNT as i64, false),
        Atom::Counter(c) => {
            let written = scope.written & (1u32 << (c.index() % 32)) != 0;
            let each_step = p.counters.get(c).is_some_and(|k| k.reset == Reset::Step);
            if scope.window || written {
                d(0, u16::MAX as i64, false)
            } else if each_step {
                // Back to 0 as each repetition begins, and nothing adds to it.
                d(0, 0, true)
            } else {
                d(0, u16::MAX as i64, true)
            }
        }
    }
}

enum Stuck {
    /// True however the game stands.
    Always,
    /// True whatever changes, once the fixed names have these values.
    When(Vec<(Atom, i64)>),
    No,
}

fn stuck(p: &Parts<'_>, scope: &Scope, cond: CondId) -> Stuck {
    let c = p.conditions;
    let full = |a: Atom| {
        let d = domain(p, scope, a);
        (d.lo, d.hi)
    };
    // `constant` decides any depth of `true`, numbers, `and`, `or`, `not`.
    if c.constant(cond) == Some(true) || eval(c, cond.index() as u32, &full, 0) == TRUE {
        return Stuck::Always;
    }
    // Look for values of the fixed names under which the condition holds
    // whatever the other names are.
    let mut fixed: Vec<(Atom, Domain)> = Vec::new();
    let mut constants: Vec<i64> = Vec::new();
    walk(c, cond.index() as u32, 0, &mut |node| match node {
        Node::Atom(a) => {
            let d = domain(p, scope, a);
            if d.fixed && d.lo < d.hi && !fixed.iter().any(|(x, _)| *x == a) {
                fixed.push((a, d));
            }
        }
        Node::Const(v) => constants.push(v as i64),
        _ => {}
    });
    if fixed.is_empty() {
        return Stuck::No;
    }
    // Values worth trying: the ends of each range and the numbers next to
    // each constant; between them a comparison does not change its answer.
    let mut points: Vec<i64> = Vec::new();
    for (_, d) in &fixed {
        points.extend([d.lo, d.hi]);
    }
    for k in &constants {
        points.extend([k - 1, *k, k + 1]);
    }
    points.sort_unstable();
    points.dedup();
    let candidates: Vec<Vec<i64>> = fixed
        .iter()
        .map(|(_, d)| {
            points
                .iter()
                .copied()
                .filter(|v| (d.lo..=d.hi).contains(v))
                .collect()
        })
        .collect();
    let total = candidates
        .iter()
        .try_fold(1usize, |n, c| n.checked_mul(c.len().max(1)));
    if total.is_none_or(|n| n > MAX_ASSIGNMENTS) {
        return Stuck::No;
    }
    let mut pick = vec![0usize; fixed.len()];
    loop {
        let value = |a: Atom| match fixed.iter().position(|(x, _)| *x == a) {
            Some(i) => {
                let v = candidates[i][pick[i]];
                (v, v)
            }
            None => full(a),
        };
        if eval(c, cond.index() as u32, &value, 0) == TRUE {
            return Stuck::When(
                fixed
                    .iter()
                    .enumerate()
                    .map(|(i, (a, _))| (*a, candidates[i][pick[i]]))
                    .collect(),
            );
        }
        // Next assignment, like an odometer.
        let mut i = 0;
        loop {
            if i == pick.len() {
                return Stuck::No;
            }
            pick[i] += 1;
            if pick[i] < candidates[i].len() {
                break;
            }
            pick[i] = 0;
            i += 1;
        }
    }
}

/// A range of values, both ends included.
type Values = (i64, i64);

const TRUE: Values = (1, 1);
const FALSE: Values = (0, 0);
const EITHER: Values = (0, 1);

/// Every value node `index` (at `depth`) can take when each atom ranges
/// over `atom(a)`.
fn eval(c: &Conditions, index: u32, atom: &dyn Fn(Atom) -> Values, depth: u32) -> Values {
    let truth = |v: Values| {
        if v == FALSE {
            FALSE
        } else if v.0 > 0 || v.1 < 0 {
            TRUE
        } else {
            EITHER
        }
    };
    let node = match c.node(index) {
        Some(node) if depth < MAX_DEPTH => node,
        _ => return (i64::MIN, i64::MAX),
    };
    let eval = |i: u32| eval(c, i, atom, depth + 1);
    match node {
        Node::Const(v) => (v as i64, v as i64),
        Node::Atom(a) => atom(a),
        Node::Not(a) => {
            let t = truth(eval(a));
            (1 - t.1, 1 - t.0)
        }
        Node::And(a, b) => {
            let (x, y) = (truth(eval(a)), truth(eval(b)));
            (x.0.min(y.0), x.1.min(y.1))
        }
        Node::Or(a, b) => {
            let (x, y) = (truth(eval(a)), truth(eval(b)));
            (x.0.max(y.0), x.1.max(y.1))
        }
        Node::Compare(op, a, b) => {
            let (x, y) = (eval(a), eval(b));
            let decided = |yes: bool, no: bool| match (yes, no) {
                (true, _) => TRUE,
                (_, true) => FALSE,
                _ => EITHER,
            };
            let single = x.0 == x.1 && y.0 == y.1;
            match op {
                CompareOp::Lt => decided(x.1 < y.0, x.0 >= y.1),
                CompareOp::Le => decided(x.1 <= y.0, x.0 > y.1),
                CompareOp::Gt => decided(x.0 > y.1, x.1 <= y.0),
                CompareOp::Ge => decided(x.0 >= y.1, x.1 < y.0),
                CompareOp::Eq => decided(single && x.0 == y.0, x.1 < y.0 || y.1 < x.0),
                CompareOp::Ne => decided(x.1 < y.0 || y.1 < x.0, single && x.0 == y.0),
            }
        }
    }
}

/// Calls `f` on every node of the condition rooted at `index`, down to
/// [`MAX_DEPTH`].
fn walk(c: &Conditions, index: u32, depth: u32, f: &mut dyn FnMut(Node)) {
    let Some(node) = c.node(index).filter(|_| depth < MAX_DEPTH) else {
        return;
    };
    f(node);
    match node {
        Node::Const(_) | Node::Atom(_) => {}
        Node::Not(a) => walk(c, a, depth + 1, f),
        Node::And(a, b) | Node::Or(a, b) | Node::Compare(_, a, b) => {
            walk(c, a, depth + 1, f);
            walk(c, b, depth + 1, f);
        }
    }
}

fn reads(c: &Conditions, cond: CondId, atom: Atom) -> bool {
    let mut found = false;
    walk(c, cond.index() as u32, 0, &mut |n| {
        found |= n == Node::Atom(atom)
    });
    found
}

/// The name a condition uses for `atom`.
fn atom_name(p: &Parts<'_>, atom: Atom) -> String {
    let named = |flag: Option<&Flag>, i: usize, kind: &str| match flag {
        Some(f) => format!("{kind}.{}", f.id),
        None => format!("{kind}.#{i}"),
    };
    match atom {
        Atom::Variant(i) => named(p.variants.get(i), i.index(), "variant"),
        Atom::Fact(i) => named(p.facts.get(i), i.index(), "fact"),
        Atom::Counter(i) => match p.counters.get(i) {
            Some(c) => format!("counter.{}", c.id),
            None => format!("counter.#{}", i.index()),
        },
        _ => BUILTIN_ATOMS
            .iter()
            .find(|(_, a)| *a == atom)
            .map(|(n, _)| n.to_string())
            .unwrap_or_default(),
    }
}

//! The program as text, one op per line with the spec's ids, for snapshot
//! tests: a change in what a spec compiles to shows in review.

use std::fmt::Write;

use turnspec_model::{PhaseId, Spec, StepId, TurnActionId, WindowId};

use super::{EndCheckAt, FusedBegin, Op, Program, Skips, Test, Then};

impl Program {
    /// One line per op, then one per superinstruction.
    pub(crate) fn listing(&self, spec: &Spec) -> String {
        let names = Names(spec);
        let mut out = String::new();
        if !self.usable {
            out.push_str("(not run: the interpreter runs every turn of this game)\n");
        }
        for (pc, op) in self.ops.iter().enumerate() {
            let _ = writeln!(out, "{pc:>3}  {}", names.op(self, op));
        }
        for (i, hop) in self.hops.iter().enumerate() {
            let then = match hop.then {
                Then::Phase {
                    ended,
                    phase,
                    first_step,
                    ..
                } => format!(
                    "end phase {}, begin phase {} at step {}",
                    names.phase(ended),
                    names.phase(phase),
                    names.step(first_step)
                ),
                Then::Step { next, action, .. } => format!(
                    "begin step {}, action {}",
                    names.step(next),
                    names.action(action)
                ),
                Then::Skips {
                    skipped,
                    count,
                    next,
                    ..
                } => {
                    let steps: Vec<String> = skipped[..count as usize]
                        .iter()
                        .map(|(s, k)| format!("{} {}", names.step(*s), names.skips(self, *k)))
                        .collect();
                    format!(
                        "skip steps {} if all hold, begin step {}",
                        steps.join(", "),
                        names.step(next)
                    )
                }
            };
            let _ = writeln!(
                out,
                "hop {i}: end step {}, {then}, open window {} (stage {}), resume at {}",
                names.step(hop.step),
                names.window(hop.window),
                hop.stage,
                hop.resume
            );
        }
        out
    }
}

struct Names<'a>(&'a Spec);

impl Names<'_> {
    fn phase(&self, id: PhaseId) -> &str {
        self.0.phases().get(id).map_or("?", |p| p.id.as_str())
    }
    fn step(&self, id: StepId) -> &str {
        self.0.steps().get(id).map_or("?", |s| s.id.as_str())
    }
    fn action(&self, id: TurnActionId) -> &str {
        self.0.turn_actions().get(id).map_or("?", |a| a.id.as_str())
    }
    fn window(&self, id: WindowId) -> String {
        match self.0.windows().get(id) {
            Some(w) if !w.name.is_empty() => w.name.clone(),
            Some(w) => format!("in {}", self.step(w.step)),
            None => "?".into(),
        }
    }
    fn test(&self, program: &Program, t: Test) -> String {
        match t {
            Test::Pair(i) => match program.pairs.get(i as usize) {
                Some((a, b)) => format!(
                    "({} and {})",
                    self.test(program, *a),
                    self.test(program, *b)
                ),
                None => "?".into(),
            },
            Test::Counter(c, op, k) => {
                let name = self
                    .0
                    .counters()
                    .iter()
                    .nth(c as usize)
                    .map_or("?", |c| c.id.as_str());
                format!("counter.{name} {op:?} {k}")
            }
            Test::Elected(p) => format!("elected {}", self.phase(p)),
            t => format!("{t:?}"),
        }
    }
    fn skips(&self, program: &Program, skips: Skips) -> String {
        let start = skips.start as usize;
        let list = program
            .skips
            .get(start..start + skips.len as usize)
            .unwrap_or_default();
        let tests: Vec<String> = list.iter().map(|s| self.test(program, s.test)).collect();
        format!("skip [{}]", tests.join(", "))
    }
    fn fused(&self, f: Option<FusedBegin>) -> String {
        match f {
            None => String::new(),
            Some(FusedBegin { implicit, window }) => {
                let mut s = String::from(" +begin");
                if implicit {
                    s.push_str(" implicit");
                }
                if let Some((w, stage)) = window {
                    let _ = write!(s, " +window {} (stage {stage})", self.window(w));
                }
                s
            }
        }
    }
    fn op(&self, program: &Program, op: &Op) -> String {
        match *op {
            Op::TurnBegin => "TurnBegin".into(),
            Op::PhaseBegin {
                phase,
                turn_pos,
                only_if,
                skips,
                after,
                ..
            } => format!(
                "PhaseBegin {} #{turn_pos} only_if {} {} else -> {after}",
                self.phase(phase),
                self.test(program, only_if),
                self.skips(program, skips)
            ),
            Op::StepBegin {
                step,
                only_if,
                skips,
                implicit,
                after,
            } => format!(
                "StepBegin {}{} only_if {} {} else -> {after}",
                self.step(step),
                if implicit { " implicit" } else { "" },
                self.test(program, only_if),
                self.skips(program, skips)
            ),
            Op::Action {
                id,
                test,
                stage,
                plain,
                ..
            } => format!(
                "Action {} if {} (stage {stage}){}",
                self.action(id),
                self.test(program, test),
                if plain { " plain" } else { "" }
            ),
            Op::Window {
                window,
                if_pending,
                stage,
            } => format!(
                "Window {} (stage {stage}){}",
                self.window(window),
                if if_pending { " if pending" } else { "" }
            ),
            Op::StepEnd {
                step,
                repeat,
                begin,
                ends_phase,
                ..
            } => format!(
                "StepEnd {} repeat {} -> {begin}{}",
                self.step(step),
                self.test(program, repeat),
                ends_phase.map_or(String::new(), |p| format!(" +end phase {}", self.phase(p)))
            ),
            Op::PhaseEnd { phase } => format!("PhaseEnd {}", self.phase(phase)),
            Op::PhaseBeginPlain {
                phase,
                turn_pos,
                then,
                ..
            } => format!(
                "PhaseBeginPlain {} #{turn_pos}{}",
                self.phase(phase),
                self.fused(then)
            ),
            Op::ActionPlain { id, stage, .. } => {
                format!("ActionPlain {} (stage {stage})", self.action(id))
            }
            Op::StepBeginPlain {
                step,
                implicit,
                window,
            } => format!(
                "StepBeginPlain {}{}",
                self.step(step),
                self.fused(Some(FusedBegin { implicit, window }))
                    .trim_start_matches(" +begin")
            ),
            Op::StepEndPlain {
                step,
                ends_phase,
                then,
                ..
            } => format!(
                "StepEndPlain {}{}{}",
                self.step(step),
                ends_phase.map_or(String::new(), |p| format!(" +end phase {}", self.phase(p))),
                then.map_or(String::new(), |(s, f)| format!(
                    " +step {}{}",
                    self.step(s),
                    self.fused(Some(f)).trim_start_matches(" +begin")
                ))
            ),
            Op::StepEndInto(i) => format!("StepEndInto hop {i}"),
            Op::ActionRun { start, len } => {
                let (start, len) = (start as usize, len as usize);
                let run = program.actions.get(start..start + len).unwrap_or(&[]);
                let names: Vec<&str> = run.iter().map(|a| self.action(a.id)).collect();
                let last = run.last().map_or(0, |a| a.stage);
                format!("ActionRun {} (to stage {last})", names.join(", "))
            }
            Op::TurnEnd => "TurnEnd -> 0".into(),
            Op::TurnEndBetween => "TurnEndBetween".into(),
            Op::BetweenEnd => "BetweenEnd -> 0".into(),
            Op::CheckEnd(EndCheckAt { at, action, test }) => format!(
                "CheckEnd {}{} if {}",
                at.names().collect::<Vec<_>>().join(", "),
                action.map_or(String::new(), |a| format!("after {}", self.action(a))),
                self.test(program, test)
            ),
        }
    }
}

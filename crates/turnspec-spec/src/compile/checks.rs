//! Whole-spec checks, run once everything is lowered: reachability,
//! cycles, steps that never happen or never end, unusable timing classes.

use petgraph::graphmap::DiGraphMap;

use super::*;

impl Ctx {
    /// Runs every whole-spec check on the lowered parts.
    pub(super) fn check_structure(&mut self, raw: &RawSpec) {
        // The parts are only read here; take them out so the checks can
        // report problems while looking at them.
        let parts = std::mem::take(&mut self.parts);
        self.check_parts(raw, &parts);
        self.parts = parts;
    }

    pub(super) fn check_parts(&mut self, raw: &RawSpec, parts: &SpecParts) {
        let (phases, steps, windows, timing, turn) = (
            &parts.phases,
            &parts.steps,
            &parts.windows,
            &parts.timing,
            &parts.turn,
        );
        let conditions = &parts.conditions;
        let timing_spans = std::mem::take(&mut self.timing_spans);
        let step_spans = self.step_spans.clone();
        if phases.is_empty() {
            return;
        }
        if turn.is_empty() {
            self.error(
                "turnspec::no-regular-phase",
                span_of(&raw.phase[0]),
                "every phase is `on_demand`, so a turn has no phases",
            )
            .help =
                Some("remove `on_demand = true` from the phases that make up a normal turn".into());
        }
        // `[game]` is lowered but not yet in the parts: read its key.
        if let Some(key) = raw
            .game
            .as_ref()
            .and_then(|g| g.get_ref().turn_effects_end.as_ref())
            && key.get_ref() == "action"
            && !parts.turn_actions.iter().any(|a| a.ends_turn_effects)
        {
            self.error(
                "turnspec::missing",
                span_of(key),
                "\"until end of turn\" effects would never end",
            )
            .labelled("they end only at a turn-based action with `ends_turn_effects = true`")
            .help = Some(
                "give the action that ends them `ends_turn_effects = true`, or remove this key"
                    .into(),
            );
        }
        // Phase graph: the turn start reaches every regular phase; a phase
        // reaches each on-demand phase an action usable in it starts.
        const START: u16 = u16::MAX;
        let mut graph: DiGraphMap<u16, ()> = DiGraphMap::new();
        graph.add_node(START);
        for id in phases.ids() {
            graph.add_node(id.index() as u16);
        }
        for p in turn.iter().chain(parts.between.iter()) {
            graph.add_edge(START, p.index() as u16, ());
        }
        for (ti, t) in timing.iter_ids() {
            if let Effect::StartPhase(target) = t.effect {
                for s in steps {
                    let has_window = s.stages.iter().any(|st| matches!(st, Stage::Window(_)));
                    if has_window && s.timing_mask & (1 << ti.index()) != 0 {
                        graph.add_edge(s.phase.index() as u16, target.index() as u16, ());
                    }
                }
            }
        }
        let reachable: HashSet<u16> = {
            let mut dfs = petgraph::visit::Dfs::new(&graph, START);
            let mut out = HashSet::new();
            while let Some(n) = dfs.next(&graph) {
                out.insert(n);
            }
            out
        };
        for (i, p) in phases.iter().enumerate() {
            if !reachable.contains(&(i as u16)) {
                self.error("turnspec::unreachable-phase", span_of(&raw.phase[i].get_ref().id), format!("phase `{}` can never happen", p.id))
                    .labelled("unreachable")
                    .help = Some("it is `on_demand` but no timing class with `effect = \"start_phase\"` can start it from a window that opens; add one, or make the phase regular".into());
            }
        }
        for scc in petgraph::algo::tarjan_scc(&graph) {
            let cyclic = scc.len() > 1 || scc.iter().any(|n| graph.contains_edge(*n, *n));
            if cyclic {
                let names: Vec<&str> = scc
                    .iter()
                    .filter(|n| **n != START)
                    .map(|n| phases.as_slice()[*n as usize].id.as_ref())
                    .collect();
                let first = scc
                    .iter()
                    .copied()
                    .filter(|n| *n != START)
                    .min()
                    .unwrap_or(0) as usize;
                self.error("turnspec::phase-cycle", span_of(&raw.phase[first].get_ref().id), format!("phases can start each other without end: {}", names.join(" → ")))
                    .labelled("part of a cycle")
                    .help = Some("an on-demand phase must not be startable from inside itself; narrow the starting timing class's `during`".into());
            }
        }
        // Optional phases nobody can elect.
        for (i, p) in phases.iter_ids() {
            if p.optional && !timing.iter().any(|t| t.enters == Some(i)) {
                self.error(
                    "turnspec::unreachable-phase",
                    span_of(&raw.phase[i.index()].get_ref().id),
                    format!("optional phase `{}` can never be elected", p.id),
                )
                .labelled("no timing class enters it")
                .help = Some(format!(
                    "add `enters = \"{}\"` to the timing class whose play elects it",
                    p.id
                ));
            }
        }
        // Phases that can never happen.
        let always_skipped = |skips: &[Condition], only_if: Option<CondId>| {
            skips
                .iter()
                .any(|k| conditions.constant(k.cond) == Some(true))
                || only_if.is_some_and(|o| conditions.constant(o) == Some(false))
        };
        for (i, p) in phases.iter().enumerate() {
            if always_skipped(&p.skip, p.only_if) {
                self.error(
                    "turnspec::unreachable-phase",
                    span_of(&raw.phase[i].get_ref().id),
                    format!("phase `{}` never happens", p.id),
                )
                .labelled("its skip (or only_if) condition never lets it happen")
                .help = Some("remove the phase, or make the condition depend on the game".into());
            }
        }
        // Steps that can never happen (steps that repeat for ever: loops.rs).
        for (si, s) in steps.iter().enumerate() {
            if s.skip
                .iter()
                .any(|c| conditions.constant(c.cond) == Some(true))
            {
                self.error(
                    "turnspec::unreachable-step",
                    step_spans[si].clone(),
                    format!("`{}` is always skipped", s.id),
                )
                .labelled("its skip condition is always true")
                .help = Some("remove the step, or make the condition depend on the game".into());
            }
        }
        // The game must stop for players somewhere, or it would run for ever.
        let always_window = turn.iter().filter_map(|p| phases.get(*p)).any(|p| {
            !always_skipped(&p.skip, p.only_if)
                && p.steps().filter_map(|s| steps.get(s)).any(|s| {
                    s.stages.iter().any(|st| {
                        matches!(st, Stage::Window(w)
                            if windows.get(*w).is_some_and(|w| w.mode == WindowMode::Always))
                    })
                })
        });
        if !turn.is_empty() && !always_window {
            self.error(
                "turnspec::no-window",
                span_of(&raw.phase[0].get_ref().id),
                "no priority window ever opens by itself, so players can never act",
            )
            .help = Some("give at least one regular step `priority = \"always\"`".into());
        }
        // Timing classes nobody can ever use.
        for (ti, t) in timing.iter().enumerate() {
            if t.who == Who::Nobody {
                continue;
            }
            let usable = steps.iter().any(|s| {
                s.timing_mask & (1 << ti) != 0
                    && s.stages.iter().any(|st| matches!(st, Stage::Window(_)))
            });
            if !usable {
                self.error(
                    "turnspec::unusable-timing",
                    timing_spans[ti].clone(),
                    format!("timing class `{}` can never be used", t.id),
                )
                .labelled("no step with a window matches its `during`")
                .help = Some(
                    "list in `during` a phase, step or tag whose step has a priority window".into(),
                );
            }
            if let Some(l) = t.limit
                && l.max == 0
                && l.raised_by.is_none()
            {
                self.error(
                    "turnspec::unusable-timing",
                    timing_spans[ti].clone(),
                    format!("timing class `{}` has a limit of 0", t.id),
                )
                .help = Some("a limit of 0 forbids it entirely; remove the class instead".into());
            }
            for r in &t.require {
                if conditions.constant(r.condition.cond) == Some(false) {
                    self.error(
                        "turnspec::unusable-timing",
                        timing_spans[ti].clone(),
                        format!("timing class `{}` requires something always false", t.id),
                    );
                }
            }
        }
    }
}

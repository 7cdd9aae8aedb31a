//! The checks [`crate::Spec::new`] runs: every reference in range, every
//! count within the engine's limits. The loader never builds parts that
//! fail them; they keep a hand-made or buggy `SpecParts` from ever
//! reaching the engine.

use crate::arena::{Arena, Id};
use crate::cond::Conditions;
use crate::elements::*;
use crate::ids::*;
use crate::limits::*;
use crate::spec::*;

struct Checker<'a> {
    parts: &'a SpecParts,
    problems: Vec<String>,
}

impl Checker<'_> {
    fn fail(&mut self, what: String) {
        self.problems.push(what);
    }

    fn id<I: Id, T>(&mut self, arena: &Arena<I, T>, id: I, whose: &str) {
        if !arena.contains(id) {
            self.fail(format!(
                "{whose} names {} #{} of {}",
                I::KIND,
                id.index(),
                arena.len()
            ));
        }
    }

    fn opt<I: Id, T>(&mut self, arena: &Arena<I, T>, id: Option<I>, whose: &str) {
        if let Some(id) = id {
            self.id(arena, id, whose);
        }
    }

    fn rule(&mut self, rule: RuleRef, whose: &str) {
        if !rule.is_none() && !self.parts.rules.contains(rule) {
            self.fail(format!("{whose} cites rule #{}", rule.index()));
        }
    }

    fn cond(&mut self, conditions: &Conditions, cond: CondId, whose: &str) {
        if !conditions.contains(cond) {
            self.fail(format!("{whose} uses condition #{}", cond.index()));
        }
    }

    fn condition(&mut self, c: &Condition, whose: &str) {
        self.cond(&self.parts.conditions, c.cond, whose);
        self.rule(c.rule, whose);
    }
}

pub(crate) fn check(p: &SpecParts) -> Vec<String> {
    let mut c = Checker {
        parts: p,
        problems: Vec::new(),
    };
    let g = &p.game;
    if g.min_players < 1 || g.min_players > g.max_players || g.max_players > MAX_PLAYERS {
        c.fail(format!(
            "players {}..{} outside 1..{MAX_PLAYERS}",
            g.min_players, g.max_players
        ));
    }
    c.rule(g.rule, "[game]");
    let pr = &p.priority;
    for r in [
        pr.rule,
        pr.first_rule,
        pr.after_action_rule,
        pr.after_resolve_rule,
        pr.pass_rule,
        pr.close_rule,
    ] {
        c.rule(r, "[priority]");
    }
    if p.phases.is_empty() || p.steps.is_empty() {
        c.fail("a spec needs at least one phase and one step".into());
    }
    if p.kinds.len() > MAX_PHASE_KINDS {
        c.fail(format!("{} phase kinds", p.kinds.len()));
    }
    for (id, phase) in p.phases.iter_ids() {
        let whose = format!("phase `{}`", phase.id);
        c.rule(phase.rule, &whose);
        if phase.kind as usize >= p.kinds.len() {
            c.fail(format!("{whose} has kind #{}", phase.kind));
        }
        if phase.step_count == 0
            || phase.first_step.index() + phase.step_count as usize > p.steps.len()
        {
            c.fail(format!("{whose} has steps outside the spec"));
        } else {
            for step in phase.steps().filter_map(|s| p.steps.get(s)) {
                if step.phase != id {
                    c.fail(format!("{whose} lists step `{}` of another phase", step.id));
                }
            }
        }
        if let Some(o) = phase.only_if {
            c.cond(&p.conditions, o, &whose);
        }
        for k in &phase.skip {
            c.condition(k, &whose);
        }
    }
    for &t in &p.turn {
        c.id(&p.phases, t, "the turn");
    }
    for step in &p.steps {
        let whose = format!("step `{}`", step.id);
        c.id(&p.phases, step.phase, &whose);
        c.rule(step.rule, &whose);
        if step.stages.len() > MAX_STAGES_PER_STEP {
            c.fail(format!("{whose} has {} stages", step.stages.len()));
        }
        for stage in &step.stages {
            match *stage {
                Stage::Action(a) => c.id(&p.turn_actions, a, &whose),
                Stage::Window(w) => c.id(&p.windows, w, &whose),
            }
        }
        if let Some(o) = step.only_if {
            c.cond(&p.conditions, o, &whose);
        }
        for k in &step.skip {
            c.condition(k, &whose);
        }
        if let Some(r) = &step.repeat {
            c.condition(r, &whose);
        }
        if p.timing.len() < 32 && step.timing_mask >> p.timing.len() != 0 {
            c.fail(format!(
                "{whose} allows timing classes the spec does not have"
            ));
        }
    }
    for a in &p.turn_actions {
        let whose = format!("turn-based action `{}`", a.id);
        c.id(&p.steps, a.step, &whose);
        c.rule(a.rule, &whose);
        if let Some(k) = a.condition {
            c.cond(&p.conditions, k, &whose);
        }
        c.opt(&p.counters, a.answer_counter, &whose);
        c.opt(&p.timing, a.answer_play, &whose);
        c.opt(&p.timing, a.play, &whose);
    }
    for w in &p.windows {
        let whose = format!("window `{}`", w.name);
        c.id(&p.steps, w.step, &whose);
        c.rule(w.rule, &whose);
        for r in &w.refuse_pass {
            c.condition(r, &whose);
        }
    }
    for t in &p.timing {
        let whose = format!("timing class `{}`", t.id);
        for r in [t.rule, t.who_rule, t.stack_rule, t.during_rule] {
            c.rule(r, &whose);
        }
        if let Effect::StartPhase(ph) = t.effect {
            c.id(&p.phases, ph, &whose);
        }
        if let Some(l) = &t.limit {
            c.id(&p.counters, l.counter, &whose);
            if let Some(r) = l.raised_by {
                c.id(&p.counters, r, &whose);
            }
            c.rule(l.rule, &whose);
        }
        for r in &t.require {
            c.condition(&r.condition, &whose);
            if !t.by_object
                && p.conditions.contains(r.condition.cond)
                && p.conditions
                    .atoms(r.condition.cond)
                    .iter()
                    .any(|a| a.reads_object())
            {
                c.fail(format!(
                    "{whose} reads an object but is not `by = \"object\"`"
                ));
            }
        }
        if let Some(l) = &t.object_limit {
            c.rule(l.rule, &whose);
            if !t.by_object || l.slot as usize >= MAX_OBJECT_LIMITS {
                c.fail(format!("{whose} has object limit slot {}", l.slot));
            }
        }
        if let Some(e) = &t.ends {
            c.rule(e.rule, &whose);
        }
        c.opt(&p.phases, t.enters, &whose);
        if let Some(cost) = &t.cost {
            c.id(&p.counters, cost.counter, &whose);
            c.rule(cost.rule, &whose);
        }
        if t.attributes
            .iter()
            .any(|(a, _)| *a as usize >= p.attributes.len())
        {
            c.fail(format!("{whose} has an attribute the spec does not name"));
        }
    }
    for &ph in &p.between {
        c.id(&p.phases, ph, "the between-turns phases");
    }
    c.rule(p.priority.triggers_rule, "[priority]");
    for k in &p.counters {
        c.rule(k.rule, &format!("counter `{}`", k.id));
        if k.per_player && k.slot as usize >= MAX_PLAYER_COUNTERS {
            c.fail(format!("counter `{}` has per-player slot {}", k.id, k.slot));
        }
    }
    for f in p.facts.iter().chain(p.variants.iter()) {
        c.rule(f.rule, &format!("`{}`", f.id));
    }
    for e in &p.effects {
        let whose = format!("effect `{}`", e.id);
        c.rule(e.rule, &whose);
        if let Some(r) = e.own_turn_only {
            c.rule(r, &whose);
        }
        match &e.kind {
            EffectKind::ExtraTurn { .. } => {}
            EffectKind::ExtraPhases(list) => {
                for &ph in list {
                    c.id(&p.phases, ph, &whose);
                }
            }
            EffectKind::ExtraStep { step, .. } => c.id(&p.steps, *step, &whose),
            EffectKind::Skip(target) | EffectKind::LastingSkip { target, .. } => match *target {
                SkipTarget::Step(s) => c.id(&p.steps, s, &whose),
                SkipTarget::Phase(ph) => c.id(&p.phases, ph, &whose),
                SkipTarget::Turn => {}
            },
            EffectKind::ReverseTurnOrder | EffectKind::ControlTurn => {}
            EffectKind::EndTurn { goto } => c.id(&p.steps, *goto, &whose),
            EffectKind::EndPhase { phase, goto } => {
                c.id(&p.phases, *phase, &whose);
                c.opt(&p.steps, *goto, &whose);
            }
            EffectKind::Grant { counter, .. } => c.id(&p.counters, *counter, &whose),
        }
    }
    c.rule(p.mana.rule, "[mana]");
    c.rule(p.mana.burn_rule, "[mana]");
    c.rule(p.leaving.rule, "[leaving]");
    c.rule(p.game_end.last_side_rule, "[game_end]");
    c.rule(p.game_end.leave_rule, "[game_end]");
    c.rule(p.objects.rule, "[objects]");
    c.rule(p.objects.control_rule, "[objects]");
    for f in &p.object_facts {
        c.rule(f.rule, &format!("object fact `{}`", f.id));
    }
    for r in &p.roles {
        c.rule(r.rule, &format!("role `{}`", r.id));
    }
    if p.roles.iter().filter(|r| r.next_turn).count() > 1 {
        c.fail("more than one role has `next_turn`".to_string());
    }
    c.rule(p.priority.resolve_rule, "[priority]");
    for e in &p.endings {
        let whose = format!("ending `{}`", e.id);
        c.rule(e.rule, &whose);
        if let Some(check) = &e.check {
            c.cond(&p.conditions, check.cond, &whose);
            c.opt(&p.turn_actions, check.after, &whose);
        }
    }
    c.opt(&p.steps, p.leaving.active_player_goto, "[leaving]");
    c.problems
}

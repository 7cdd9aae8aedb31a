//! The specs a workbench offers, and what the front end needs to know of
//! each: players, variants, timing classes, effects, turn-based actions,
//! facts, and the turn diagram.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};
use turnspec_spec::{Spec, Stage};

/// One spec the workbench offers.
#[derive(Debug, Clone)]
pub struct SpecEntry {
    /// How the spec is named in the page: its path, or a note that it is
    /// built into turnspec.
    pub label: String,
    /// The spec file, when there is one; saved scenarios point at it.
    pub path: Option<PathBuf>,
    /// The compiled spec.
    pub spec: Arc<Spec>,
    /// The text it was loaded from, when the workbench has it (a spec
    /// checked, drafted or saved in the studio); otherwise
    /// `GET /api/specs/{i}/source` reads `path` under the served folder.
    pub source: Option<Arc<str>>,
    /// A draft: a spec played without being saved (`POST /api/draft`).
    pub draft: bool,
}

impl SpecEntry {
    /// A spec on offer: how the page names it, its file (if any) and the
    /// compiled spec.
    pub fn new(label: impl Into<String>, path: Option<PathBuf>, spec: Arc<Spec>) -> Self {
        SpecEntry {
            label: label.into(),
            path,
            spec,
            source: None,
            draft: false,
        }
    }

    /// The same, with the text it was loaded from.
    pub fn with_source(mut self, source: impl Into<Arc<str>>) -> Self {
        self.source = Some(source.into());
        self
    }
}

/// `IfPending` as `if pending`.
fn words(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push(' ');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// When a phase or step is left out or skipped, in the spec's words.
fn conditions(
    spec: &Spec,
    only_if: Option<turnspec_spec::CondId>,
    skip: &[turnspec_spec::Condition],
) -> Vec<String> {
    let text = |c| turnspec_spec::describe::cond_text(spec, c);
    only_if
        .map(|c| format!("only if {}", text(c)))
        .into_iter()
        .chain(skip.iter().map(|c| format!("skipped if {}", text(c.cond))))
        .collect()
}

/// The diagram of the turn: the regular phases in turn order, then the
/// phases only an action starts; each with its steps (none for a step-less
/// phase, drawn as one box), their turn-based actions and windows, and the
/// timing classes each step allows.
pub fn diagram(spec: &Spec) -> Value {
    let regular: Vec<_> = spec.turn().to_vec();
    let on_demand = spec
        .phases()
        .ids()
        .filter(|p| !regular.contains(p))
        .collect::<Vec<_>>();
    let phases: Vec<Value> = regular
        .iter()
        .chain(on_demand.iter())
        .filter_map(|&pid| {
            let phase = spec.phase(pid)?;
            let steps: Vec<Value> = phase
                .steps()
                .filter_map(|sid| {
                    let step = spec.step(sid)?;
                    let mut actions = Vec::new();
                    let mut windows = Vec::new();
                    for stage in &step.stages {
                        match *stage {
                            Stage::Action(a) => {
                                let a = spec.turn_action(a)?;
                                actions.push(json!({
                                    "id": a.id, "name": a.name, "rule": spec.rule(a.rule),
                                }));
                            }
                            Stage::Window(w) => {
                                let w = spec.window(w)?;
                                windows.push(json!({
                                    "name": w.name, "rule": spec.rule(w.rule),
                                    "mode": words(&format!("{:?}", w.mode)),
                                }));
                            }
                        }
                    }
                    let timing: Vec<&str> = spec
                        .timing()
                        .iter_ids()
                        .filter(|(t, _)| step.timing_mask >> t.index() & 1 == 1)
                        .map(|(_, tc)| tc.id.as_str())
                        .collect();
                    Some(json!({
                        "id": step.id,
                        "name": step.name,
                        "rule": spec.rule(step.rule),
                        "implicit": step.implicit,
                        "conditional": !step.skip.is_empty() || step.only_if.is_some(),
                        "conditions": conditions(spec, step.only_if, &step.skip),
                        "repeats": step.repeat.is_some(),
                        "actions": actions,
                        "windows": windows,
                        "timing": timing,
                    }))
                })
                .collect();
            // For a phase a play starts: the timing classes that start it
            // and the steps (with a window) where they may be used.
            let started_by: Vec<Value> = spec
                .timing()
                .iter_ids()
                .filter(|(_, tc)| tc.effect == turnspec_spec::Effect::StartPhase(pid))
                .map(|(t, tc)| {
                    let from: Vec<&str> = spec
                        .steps()
                        .iter()
                        .filter(|s| {
                            s.phase != pid
                                && s.timing_mask >> t.index() & 1 == 1
                                && s.stages.iter().any(|st| matches!(st, Stage::Window(_)))
                        })
                        .map(|s| s.id.as_str())
                        .collect();
                    json!({ "timing": tc.id, "name": tc.name, "from": from })
                })
                .collect();
            Some(json!({
                "id": phase.id,
                "name": phase.name,
                "rule": spec.rule(phase.rule),
                "on_demand": phase.on_demand,
                "started_by": started_by,
                "conditional": !phase.skip.is_empty() || phase.only_if.is_some(),
                "conditions": conditions(spec, phase.only_if, &phase.skip),
                "stepless": phase.implicit_step,
                "steps": steps,
            }))
        })
        .collect();
    json!({
        "title": spec.title(),
        "phases": phases,
        "next_turn": spec.turn().first().map(|p| spec.id_of(*p)),
        "endings": endings(spec),
    })
}

/// How the game ends: each `[endings.ID]` with its result, its rule and,
/// for one the engine checks, where (`at`: the points of the turn;
/// `after`: a turn-based action and the step it is in), for whom and on
/// what condition.
pub fn endings(spec: &Spec) -> Vec<Value> {
    use turnspec_spec::EndResult;
    spec.endings()
        .iter()
        .map(|e| {
            let check = e.check.map(|c| {
                let after = c.after.and_then(|a| spec.turn_action(a));
                let step = c.after.and_then(|a| {
                    spec.steps()
                        .iter()
                        .find(|s| s.stages.contains(&Stage::Action(a)))
                        .map(|s| s.id.as_str())
                });
                json!({
                    "at": c.at.names().collect::<Vec<_>>(),
                    "after": after.map(|a| a.id.as_str()),
                    "after_step": step,
                    "each_player": c.each_player,
                    "if": turnspec_spec::describe::cond_text(spec, c.cond),
                })
            });
            json!({
                "id": e.id,
                "name": e.name,
                "rule": spec.rule(e.rule),
                "result": match e.result {
                    EndResult::Wins => "wins",
                    EndResult::Loses => "loses",
                    EndResult::Draw => "draw",
                },
                "check": check,
            })
        })
        .collect()
}

impl SpecEntry {
    /// A short summary for the spec picker.
    pub fn summary(&self, index: usize) -> Value {
        let spec = &self.spec;
        let g = spec.game();
        json!({
            "index": index,
            "label": self.label,
            "title": spec.title(),
            "name": g.name,
            "edition": g.edition,
            "min_players": g.min_players,
            "max_players": g.max_players,
            "variants": spec.variants().iter().map(|v| json!({
                "id": v.id, "name": v.name, "description": v.description,
            })).collect::<Vec<_>>(),
            "savable": self.path.is_some(),
            "draft": self.draft,
        })
    }

    /// Everything the page shows about the spec besides the game itself.
    pub fn details(&self, index: usize) -> Value {
        let spec = &self.spec;
        let mut v = self.summary(index);
        let terms = spec.terms();
        v["terms"] = json!({
            "priority": terms.priority, "stack": terms.stack, "active_player": terms.active_player,
        });
        v["timing"] = spec
            .timing()
            .iter()
            .map(|tc| json!({ "id": tc.id, "name": tc.name, "rule": spec.rule(tc.rule), "by_object": tc.by_object }))
            .collect();
        v["objects"] = spec.objects().tracked.into();
        v["object_facts"] = spec
            .object_facts()
            .iter()
            .map(|f| json!({ "id": f.id, "name": f.name, "rule": spec.rule(f.rule), "description": f.description }))
            .collect();
        v["effects"] = spec
            .effects()
            .iter()
            .map(|e| json!({ "id": e.id, "name": e.name, "rule": spec.rule(e.rule) }))
            .collect();
        v["turn_actions"] = spec
            .turn_actions()
            .iter()
            .map(|a| {
                json!({
                    "id": a.id, "name": a.name, "rule": spec.rule(a.rule),
                    "step": spec.id_of(a.step),
                    "answer_max": a.answer_max,
                    "takes_answer": a.answer_counter.is_some() || a.answer_play.is_some(),
                })
            })
            .collect();
        v["facts"] = spec
            .facts()
            .iter()
            .map(|f| json!({ "id": f.id, "name": f.name, "rule": spec.rule(f.rule) }))
            .collect();
        v["counters"] = spec
            .counters()
            .iter()
            .map(|c| json!({ "id": c.id, "per_player": c.per_player, "rule": spec.rule(c.rule) }))
            .collect();
        v["endings"] = endings(spec).into();
        v["diagram"] = diagram(spec);
        v
    }
}

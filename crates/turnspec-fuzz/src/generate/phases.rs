//! The written spec: the game table, then each phase and its steps'
//! bodies (turn-based actions, windows, repeats, skips).

use std::fmt::Write as _;

use super::*;

impl Gen<'_> {
    pub(super) fn write(&mut self) {
        let min = if self.chance(1, 20) {
            self.f.set(Feature::MinPlayers1);
            1
        } else {
            2 + self.below(3) as u8
        };
        let max = (min.max(2) + self.below(7) as u8).min(8);
        self.max_players = max;
        let r = self.rule();
        let _ = writeln!(
            self.out,
            "[game]\nname = \"Generated\"\nrule = \"{r}\"\nplayers = {{ min = {min}, max = {max} }}"
        );
        if self.chance(1, 5) {
            self.f.set(Feature::TurnOrderCounter);
            self.out.push_str("turn_order = \"counterclockwise\"\n");
        }
        if self.chance(1, 4) {
            self.f.set(Feature::TurnEffectsAction);
            self.out.push_str("turn_effects_end = \"action\"\n");
        }
        if self.chance(1, 5) {
            self.f.set(Feature::Terms);
            self.out.push_str(
                "\n[terms]\npriority = \"the initiative\"\nstack = \"the pile\"\nactive_player = \"the mover\"\n",
            );
        }
        self.out.push_str("\n[priority]\n");
        if self.chance(1, 2) {
            self.f.set(Feature::Rules);
            for k in [
                "rule",
                "first_rule",
                "after_action_rule",
                "after_resolve_rule",
                "pass_rule",
                "close_rule",
            ] {
                let r = self.rule();
                let _ = writeln!(self.out, "{k} = \"{r}\"");
            }
        }
        match self.below(if self.plain { 4 } else { 6 }) {
            0 => {
                self.f.set(Feature::AfterActionActive);
                self.out.push_str("after_action = \"active_player\"\n");
            }
            4 | 5 => {
                self.f.set(Feature::AfterActionNext);
                self.out.push_str("after_action = \"next_player\"\n");
            }
            1 if self.chance(1, 3) => self.out.push_str("after_action = \"actor\"\n"),
            _ => {}
        }
        if !self.plain && self.chance(1, 4) {
            self.f.set(Feature::ResolveWhole);
            self.out.push_str("resolve = \"whole_stack\"\n");
            if self.chance(1, 2) {
                let r = self.rule();
                let _ = writeln!(self.out, "resolve_rule = \"{r}\"");
            }
        } else if self.chance(1, 10) {
            self.out.push_str("resolve = \"one\"\n");
        }
        if self.bag {
            self.f.set(Feature::Bag);
            let r = self.rule();
            let _ = writeln!(self.out, "triggers = \"bag\"\ntriggers_rule = \"{r}\"");
        }
        if self.chance(1, 4) {
            self.f.set(Feature::Mana);
            let empties = if self.chance(1, 2) {
                self.f.set(Feature::ManaEmptiesPhase);
                "phase"
            } else {
                "step"
            };
            let burn = self.chance(1, 2);
            if burn {
                self.f.set(Feature::ManaBurn);
            }
            let r = self.rule();
            let _ = writeln!(
                self.out,
                "\n[mana]\nempties = \"{empties}\"\nrule = \"{r}\"\nburn = {burn}"
            );
        }
        if self.chance(1, 5) {
            let targets = self.steps_of(|k| k == PhaseKind::Regular);
            let t = self.pick(&targets).clone();
            self.f.set(Feature::Leaving);
            let r = self.rule();
            let _ = writeln!(
                self.out,
                "\n[leaving]\nrule = \"{r}\"\nactive_player_goto = \"{t}\""
            );
        }
        for v in self.variants.clone() {
            self.f.set(Feature::Variant);
            let r = self.rule();
            let _ = writeln!(self.out, "\n[variants.{v}]\nrule = \"{r}\"");
        }
        for fact in self.facts.clone() {
            self.f.set(Feature::Fact);
            let _ = writeln!(self.out, "\n[facts.{fact}]\ndescription = \"a fact\"");
            if self.chance(1, 4) {
                self.f.set(Feature::FactDefaultTrue);
                self.out.push_str("default = true\n");
            }
        }
        for i in 0..self.counters.len() {
            self.f.set(Feature::Counter);
            let reset = match self.below(4) {
                0 => {
                    self.f.set(Feature::ResetGame);
                    "game"
                }
                1 => {
                    self.f.set(Feature::ResetTurn);
                    "turn"
                }
                2 => {
                    self.f.set(Feature::ResetPhase);
                    "phase"
                }
                _ => {
                    self.f.set(Feature::ResetStep);
                    "step"
                }
            };
            let c = &self.counters[i];
            let (id, per, res) = (c.id.clone(), c.per_player, c.resource);
            let _ = writeln!(self.out, "\n[counters.{id}]\nreset = \"{reset}\"");
            if per {
                self.f.set(Feature::PerPlayer);
                self.out.push_str("per = \"player\"\n");
            }
            if res {
                self.f.set(Feature::Resource);
                let s = 1 + self.below(3);
                let _ = writeln!(self.out, "start = {s}");
            }
        }
        self.write_roles();
        for i in 0..self.classes.len() {
            self.write_class(i);
        }
        self.write_effects();
        for i in 0..self.phases.len() {
            self.write_phase(i);
        }
        self.cur_phase = None;
        self.write_endings();
        self.write_objects();
    }

    /// Regular step ids (the hidden step's id for a step-less phase) of
    /// phases of the kinds `keep` accepts: never an on-demand step, which
    /// only a play runs.
    pub(super) fn steps_of(&self, keep: impl Fn(PhaseKind) -> bool) -> Vec<String> {
        self.phases
            .iter()
            .filter(|p| keep(p.kind))
            .flat_map(|p| {
                p.steps
                    .iter()
                    .filter(|s| !s.on_demand)
                    .map(|s| s.id.clone())
            })
            .collect()
    }

    pub(super) fn write_phase(&mut self, i: usize) {
        let (id, kind, with_steps, anchor) = {
            let p = &self.phases[i];
            (p.id.clone(), p.kind, p.with_steps, p.anchor)
        };
        self.cur_phase = Some(i);
        let r = self.rule();
        let _ = writeln!(self.out, "\n[[phase]]\nid = \"{id}\"\nrule = \"{r}\"");
        if self.chance(1, 2) {
            let _ = writeln!(self.out, "name = \"Phase {i}\"");
        }
        let tags = self.phases[i].tags.clone();
        if !tags.is_empty() {
            self.f.set(Feature::Tags);
            let _ = writeln!(self.out, "tags = [\"{}\"]", tags.join("\", \""));
        }
        if let Some(k) = self.phases[i].counts_as {
            let _ = writeln!(self.out, "counts_as = \"{k}\"");
        }
        match kind {
            PhaseKind::Regular => {}
            PhaseKind::Optional => {
                self.f.set(Feature::Optional);
                self.out.push_str("optional = true\n");
            }
            PhaseKind::OnDemand => {
                self.f.set(Feature::OnDemand);
                self.out.push_str("on_demand = true\n");
            }
            PhaseKind::Between => {
                self.f.set(Feature::BetweenTurns);
                self.out.push_str("between_turns = true\n");
            }
        }
        if !anchor {
            if self.chance(1, 6) {
                self.f.set(Feature::PhaseOnlyIf);
                let opt: Vec<String> = self.phases[..i]
                    .iter()
                    .filter(|p| p.kind == PhaseKind::Optional)
                    .map(|p| p.id.clone())
                    .collect();
                let c = if !opt.is_empty() && self.chance(1, 2) {
                    self.f.set(Feature::OnlyIfElected);
                    self.f.set(Feature::CondElected);
                    format!("elected.{}", self.pick(&opt))
                } else {
                    self.cond(0)
                };
                let _ = writeln!(self.out, "only_if = {}", Self::quoted(&c));
            }
            if self.chance(1, 4) {
                self.f.set(Feature::PhaseSkip);
                let s = self.skips();
                let _ = writeln!(self.out, "skip = {s}");
            }
        }
        let n_regular = self
            .phases
            .iter()
            .filter(|p| p.kind == PhaseKind::Regular)
            .count();
        if n_regular >= 5 {
            self.f.set(Feature::RegularPhases5);
        }
        if with_steps {
            self.f.set(Feature::PhaseWithSteps);
            for s in 0..self.phases[i].steps.len() {
                let sid = self.phases[i].steps[s].id.clone();
                let r = self.rule();
                let _ = writeln!(
                    self.out,
                    "\n  [[phase.step]]\n  id = \"{sid}\"\n  rule = \"{r}\""
                );
                let tags = self.phases[i].steps[s].tags.clone();
                if !tags.is_empty() {
                    self.f.set(Feature::Tags);
                    let _ = writeln!(self.out, "  tags = [\"{}\"]", tags.join("\", \""));
                }
                if self.phases[i].steps[s].on_demand {
                    self.f.set(Feature::OnDemandSteps);
                    self.out.push_str("  on_demand = true\n");
                }
                if self.chance(1, 8) {
                    self.f.set(Feature::StepOnlyIf);
                    let c = self.cond(0);
                    let _ = writeln!(self.out, "  only_if = {}", Self::quoted(&c));
                }
                if self.chance(1, 5) {
                    self.f.set(Feature::StepSkip);
                    let sk = self.skips();
                    let _ = writeln!(self.out, "  skip = {sk}");
                }
                self.write_body(i, s, "  ");
            }
        } else {
            self.f.set(Feature::StepLessPhase);
            self.write_body(i, 0, "");
        }
    }

    pub(super) fn write_body(&mut self, p: usize, s: usize, indent: &str) {
        let step = &self.phases[p].steps[s];
        let form1 = step.form1;
        let stages = step.stages.clone();
        let has_window = step.has_window();
        let answered: Vec<String> = Vec::new();
        let mut answered = answered;
        if stages.is_empty() {
            self.f.set(Feature::EmptyStep);
        }
        if form1 {
            self.f.set(Feature::BodyActionsPriority);
            let mut acts = Vec::new();
            let mut window = None;
            for st in &stages {
                match st {
                    Stage::Action(a) => {
                        let text = self.action(a, &mut answered);
                        acts.push(text);
                    }
                    Stage::Window(w) => window = Some(*w),
                }
            }
            if !acts.is_empty() || self.chance(1, 3) {
                let _ = writeln!(
                    self.out,
                    "{indent}actions = [\n{}{indent}]",
                    acts.iter()
                        .map(|a| format!("{indent}  {a},\n"))
                        .collect::<String>()
                );
            }
            match window {
                Some(Win::Always) => {
                    self.f.set(Feature::PriorityAlways);
                    let _ = writeln!(self.out, "{indent}priority = \"always\"");
                }
                Some(Win::IfPending) => {
                    self.f.set(Feature::PriorityIfPending);
                    let _ = writeln!(self.out, "{indent}priority = \"if_pending\"");
                }
                None => {
                    self.f.set(Feature::PriorityNever);
                    if self.chance(1, 2) {
                        let _ = writeln!(self.out, "{indent}priority = \"never\"");
                    }
                }
            }
            if window.is_some() && self.chance(1, 2) {
                let r = self.rule();
                let _ = writeln!(self.out, "{indent}priority_rule = \"{r}\"");
            }
        } else {
            self.f.set(Feature::BodySequence);
            let mut items = Vec::new();
            for st in &stages {
                match st {
                    Stage::Action(a) => {
                        let text = self.action(a, &mut answered);
                        items.push(text);
                    }
                    Stage::Window(w) => {
                        let mut t = String::from("{ window = ");
                        match w {
                            Win::Always => {
                                self.f.set(Feature::PriorityAlways);
                                t.push_str("\"always\"");
                            }
                            Win::IfPending => {
                                self.f.set(Feature::PriorityIfPending);
                                t.push_str("\"if_pending\"");
                            }
                        }
                        let d = if self.plain { 8 } else { 3 };
                        if self.chance(1, d) {
                            self.f.set(Feature::CloseStackEmpty);
                            t.push_str(", close = \"stack_empty\"");
                        } else if self.chance(1, 6) {
                            t.push_str(", close = \"all_pass\"");
                        }
                        if !self.plain && !self.roles.is_empty() && self.chance(1, 4) {
                            self.f.set(Feature::ActsRole);
                            let r = self.below(self.roles.len() as u64) as usize;
                            let _ = write!(t, ", acts = \"{}\"", self.roles[r].id);
                        } else if !self.plain && self.chance(1, 3) {
                            self.f.set(Feature::ActsActive);
                            t.push_str(", acts = \"active_player\"");
                        } else if self.chance(1, 6) {
                            self.f.set(Feature::ActsAll);
                            t.push_str(", acts = \"all\"");
                        }
                        if self.chance(1, 6) {
                            let r = self.refuse_pass();
                            t.push_str(&r);
                        }
                        if self.chance(1, 3) {
                            self.f.set(Feature::WindowName);
                            let r = self.rule();
                            let _ = write!(t, ", name = \"a window\", rule = \"{r}\"");
                        }
                        t.push_str(" }");
                        items.push(t);
                    }
                }
            }
            let _ = writeln!(
                self.out,
                "{indent}sequence = [\n{}{indent}]",
                items
                    .iter()
                    .map(|a| format!("{indent}  {a},\n"))
                    .collect::<String>()
            );
        }
        // Repeats that stop: bounded by repeat_count, the cleanup loop, a
        // counter the step's own action answers; rarely one that may not.
        if self.chance(1, 5) {
            let r = self.rule();
            let c = match self.below(10) {
                0..=3 => {
                    self.f.set(Feature::RepeatBounded);
                    self.f.set(Feature::CondRepeatCount);
                    let n = 1 + self.below(3);
                    if self.chance(1, 2) {
                        let c = self.cond(1);
                        self.f.set(Feature::CondAnd);
                        self.f.set(Feature::CondParens);
                        format!("({c}) and repeat_count < {n}")
                    } else {
                        format!("repeat_count < {n}")
                    }
                }
                4..=6 if has_window => {
                    self.f.set(Feature::RepeatWindowOpened);
                    self.f.set(Feature::CondWindowOpened);
                    "window_opened".to_string()
                }
                7 | 8 if !answered.is_empty() => {
                    self.f.set(Feature::RepeatCounter);
                    self.f.set(Feature::CondCounter);
                    let c = self.pick(&answered).clone();
                    if self.chance(1, 2) {
                        format!("counter.{c} > 0 and repeat_count < 3")
                    } else {
                        format!("counter.{c} == 1")
                    }
                }
                9 if !self.facts.is_empty() && self.chance(1, 3) => {
                    // In a step without a window, the loader warns
                    // (`may-never-end`) and the engine stops the turn.
                    self.f.set(Feature::RepeatOpen);
                    self.f.set(Feature::CondFact);
                    let v = self.below(self.facts.len() as u64) as usize;
                    format!("fact.{}", self.facts[v])
                }
                _ => {
                    self.f.set(Feature::RepeatBounded);
                    self.f.set(Feature::CondRepeatCount);
                    "repeat_count == 0".to_string()
                }
            };
            let _ = writeln!(
                self.out,
                "{indent}repeat = {{ if = {}, rule = \"{r}\" }}",
                Self::quoted(&c)
            );
        }
    }

    /// One turn-based action's inline table; `answered` collects the
    /// counters it answers.
    pub(super) fn action(&mut self, id: &str, answered: &mut Vec<String>) -> String {
        self.f.set(Feature::TurnAction);
        let r = self.rule();
        let mut t = format!("{{ id = \"{id}\", rule = \"{r}\"");
        if self.chance(1, 3) {
            let _ = write!(t, ", name = \"Action {id}\"");
        }
        if self.chance(1, 4) {
            self.f.set(Feature::ActionIf);
            let c = self.cond(0);
            let _ = write!(t, ", if = {}", Self::quoted(&c));
        }
        // Classes a turn-based action may play: any but start_phase ones.
        let playable: Vec<String> = self
            .classes
            .iter()
            .filter(|c| !matches!(c.role, Role::StartPhase(_)))
            .map(|c| c.id.clone())
            .collect();
        let mut answers = None;
        if self.chance(1, 3) {
            let mut parts = Vec::new();
            // The answer is a seat who takes a role (with a counter or a
            // play now and then too).
            let mut alone = false;
            if !self.roles.is_empty() && self.chance(1, 2) {
                self.f.set(Feature::AnswerRole);
                let r = self.below(self.roles.len() as u64) as usize;
                parts.push(format!("role = \"{}\"", self.roles[r].id));
                alone = self.chance(2, 3);
            }
            let with_counter = !alone && !self.counters.is_empty() && self.chance(3, 4);
            if with_counter {
                self.f.set(Feature::AnswerCounter);
                let c = self.below(self.counters.len() as u64) as usize;
                let id = self.counters[c].id.clone();
                parts.push(format!("counter = \"{id}\""));
                answers = Some(id.clone());
                answered.push(id);
            }
            if self.chance(1, 2) {
                self.f.set(Feature::AnswerMax);
                let m = if self.chance(1, 5) {
                    255
                } else {
                    1 + self.below(3)
                };
                parts.push(format!("max = {m}"));
            }
            if !alone && !playable.is_empty() && (!with_counter || self.chance(1, 3)) {
                self.f.set(Feature::AnswerPlay);
                let c = self.pick(&playable).clone();
                parts.push(format!("play = \"{c}\""));
            }
            if parts.iter().any(|p| !p.starts_with("max")) {
                let _ = write!(t, ", answer = {{ {} }}", parts.join(", "));
            }
        }
        if !playable.is_empty() && self.chance(1, 6) {
            self.f.set(Feature::ActionPlay);
            let nobody: Vec<String> = self
                .classes
                .iter()
                .filter(|c| c.role == Role::Nobody)
                .map(|c| c.id.clone())
                .collect();
            let c = if !nobody.is_empty() && self.chance(2, 3) {
                self.pick(&nobody).clone()
            } else {
                self.pick(&playable).clone()
            };
            let _ = write!(t, ", play = \"{c}\"");
        }
        if self.chance(1, 8) {
            self.f.set(Feature::EndsTurnEffects);
            t.push_str(", ends_turn_effects = true");
        }
        if self.chance(1, 8) {
            self.f.set(Feature::StackTriggers);
            t.push_str(", stack_triggers = true");
        }
        t.push_str(" }");
        self.actions.push((id.to_string(), answers));
        t
    }
}

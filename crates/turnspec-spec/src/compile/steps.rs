//! Phases and steps, and each step's body: its turn-based actions and
//! priority windows.

use super::*;

impl Ctx {
    /// Phases, their kinds (`counts_as`) and the names `during` may use.
    /// Returns false when there are more phases than the model allows.
    pub(super) fn phases(&mut self, raw: &RawSpec) -> bool {
        if raw.phase.is_empty() {
            self.error("turnspec::missing", 0..0, "the spec has no phases")
                .help = Some("add `[[phase]]` tables in turn order".into());
        }
        let mut seen: HashMap<String, Range<usize>> = HashMap::new();
        for p in &raw.phase {
            let p_raw = p.get_ref();
            self.unique_id(&mut seen, &p_raw.id, "phase");
            for s in &p_raw.step {
                self.unique_id(&mut seen, &s.get_ref().id, "step");
            }
            let kind_name = p_raw
                .counts_as
                .as_ref()
                .unwrap_or(&p_raw.id)
                .get_ref()
                .clone();
            let kinds = &mut self.parts.kinds;
            let kind = match kinds.iter().position(|k| *k == kind_name) {
                Some(k) => k,
                None => {
                    kinds.push(kind_name);
                    kinds.len() - 1
                }
            };
            if kind >= MAX_PHASE_KINDS {
                self.limit(
                    span_of(&p_raw.id),
                    LimitError {
                        what: "kinds of phase (`counts_as`)",
                        limit: MAX_PHASE_KINDS,
                        value: kind + 1,
                    },
                )
                .help = Some("give phases that count together the same `counts_as`".into());
            }
            let rule = self.rule(p_raw.rule.as_ref());
            let skip = self.conditions(&p_raw.skip);
            let only_if = p_raw.only_if.as_ref().and_then(|c| self.condition(c));
            // Its steps are given to it as they are added (`steps`).
            let mut phase = Phase::new(p_raw.id.get_ref().clone());
            phase.name = display_name(p_raw.name.as_ref(), &p_raw.id);
            phase.rule = rule;
            phase.tags = p_raw.tags.iter().map(|t| t.get_ref().clone()).collect();
            phase.kind = kind.min(MAX_PHASE_KINDS - 1) as u8;
            phase.on_demand = p_raw.on_demand.as_ref().is_some_and(|b| *b.get_ref());
            phase.only_if = only_if;
            phase.skip = skip;
            phase.implicit_step = p_raw.step.is_empty();
            phase.optional = p_raw.optional.as_ref().is_some_and(|b| *b.get_ref());
            phase.between_turns = p_raw.between_turns.as_ref().is_some_and(|b| *b.get_ref());
            if self.add::<PhaseId>(phase, span_of(&p_raw.id)).is_none() {
                return false;
            }
        }
        self.parts.kinds.truncate(MAX_PHASE_KINDS);
        self.names = seen.into_keys().collect();
        for p in &raw.phase {
            for t in &p.get_ref().tags {
                self.names.insert(t.get_ref().clone());
            }
            for s in &p.get_ref().step {
                for t in &s.get_ref().tags {
                    self.names.insert(t.get_ref().clone());
                }
            }
        }
        true
    }

    /// Every phase's steps, in turn order; a phase without steps gets one
    /// implicit step holding its body.
    pub(super) fn steps(&mut self, raw: &RawSpec) {
        for (phase_id, p) in self.parts.phases.ids().zip(&raw.phase) {
            let p_raw = p.get_ref();
            if self.parts.steps.len() >= StepId::LIMIT {
                self.limit_steps(span_of(&p_raw.id));
                return;
            }
            let Some(phase) = self.parts.get(phase_id) else {
                return;
            };
            if p_raw.step.is_empty() {
                let header = StepHeader {
                    id: p_raw.id.get_ref().clone(),
                    name: phase.name.clone(),
                    rule: phase.rule,
                    tags: Vec::new(),
                    phase: phase_id,
                    implicit: true,
                    only_if: None,
                    skip: Vec::new(),
                    on_demand: false,
                };
                if self
                    .step(header, p_raw.body(), span_of(&p_raw.id))
                    .is_none()
                {
                    return;
                }
            } else {
                let b = p_raw.body();
                if b.actions.is_some()
                    || b.sequence.is_some()
                    || b.priority.is_some()
                    || b.repeat.is_some()
                {
                    self.error(
                        "turnspec::phase-body-with-steps",
                        span_of(&p_raw.id),
                        format!(
                            "phase `{}` has steps and also its own actions/priority",
                            p_raw.id.get_ref()
                        ),
                    )
                    .help = Some(
                        "move `actions`, `priority`, `sequence` and `repeat` into its steps".into(),
                    );
                }
                if p_raw
                    .step
                    .iter()
                    .all(|s| s.get_ref().on_demand.as_ref().is_some_and(|b| *b.get_ref()))
                {
                    self.error(
                        "turnspec::bad-value",
                        span_of(&p_raw.id),
                        format!("every step of phase `{}` is on demand", p_raw.id.get_ref()),
                    )
                    .help = Some(
                        "give the phase a regular step with the window its plays are made in"
                            .into(),
                    );
                }
                for s in &p_raw.step {
                    let s_raw = s.get_ref();
                    let header = StepHeader {
                        id: s_raw.id.get_ref().clone(),
                        name: display_name(s_raw.name.as_ref(), &s_raw.id),
                        rule: self.rule(s_raw.rule.as_ref()),
                        tags: s_raw.tags.iter().map(|t| t.get_ref().clone()).collect(),
                        phase: phase_id,
                        implicit: false,
                        only_if: s_raw.only_if.as_ref().and_then(|c| self.condition(c)),
                        skip: self.conditions(&s_raw.skip),
                        on_demand: s_raw.on_demand.as_ref().is_some_and(|b| *b.get_ref()),
                    };
                    if self
                        .step(header, s_raw.body(), span_of(&s_raw.id))
                        .is_none()
                    {
                        return;
                    }
                }
            }
        }
    }

    pub(super) fn limit_steps(&mut self, span: Range<usize>) {
        self.limit(
            span,
            LimitError {
                what: StepId::KIND,
                limit: StepId::LIMIT,
                value: StepId::LIMIT + 1,
            },
        );
    }

    /// Lowers one step; `None` once the model is full. The step is added
    /// first, so that its windows and turn-based actions can name it, and
    /// given its body once they have ids.
    pub(super) fn step(
        &mut self,
        header: StepHeader,
        body: RawBody<'_>,
        span: Range<usize>,
    ) -> Option<StepId> {
        let unfinished = Step {
            id: header.id.clone(),
            name: header.name.clone(),
            rule: header.rule,
            tags: Vec::new(),
            phase: header.phase,
            implicit: header.implicit,
            stages: Vec::new(),
            only_if: None,
            skip: Vec::new(),
            repeat: None,
            timing_mask: 0,
            on_demand: header.on_demand,
        };
        let step_id = self.add::<StepId>(unfinished, span.clone())?;
        self.step_spans.push(span.clone());
        let step = self.step_body(header, step_id, body, span);
        if let Some(slot) = self.parts.get_mut(step_id) {
            *slot = step;
        }
        Some(step_id)
    }

    /// Which timing classes each step allows (`during`), as a bit mask.
    pub(super) fn timing_masks(&mut self) {
        let parts = &self.parts;
        let masks: Vec<u32> = parts
            .steps
            .iter()
            .map(|s| {
                let phase = parts.phases.get(s.phase);
                let phase_has =
                    |d: &String| phase.is_some_and(|p| p.id == *d || p.tags.contains(d));
                parts
                    .timing
                    .iter_ids()
                    .filter(|(_, t)| {
                        t.during.is_empty()
                            || t.during
                                .iter()
                                .any(|d| *d == s.id || s.tags.contains(d) || phase_has(d))
                    })
                    .fold(0, |mask, (ti, _)| mask | 1 << ti.index())
            })
            .collect();
        let ids: Vec<StepId> = self.parts.steps.ids().collect();
        for (id, mask) in ids.into_iter().zip(masks) {
            if let Some(s) = self.parts.get_mut(id) {
                s.timing_mask = mask;
            }
        }
    }

    pub(super) fn step_body(
        &mut self,
        header: StepHeader,
        step_id: StepId,
        body: RawBody<'_>,
        span: Range<usize>,
    ) -> Step {
        let mut stages = Vec::new();
        if body.sequence.is_some() && (body.actions.is_some() || body.priority.is_some()) {
            self.error("turnspec::sequence-and-actions", span.clone(), format!("`{}` has both `sequence` and `actions`/`priority`", header.id))
                .help = Some("use `actions` + `priority` for \"actions, then a window\", or `sequence` to interleave them; not both".into());
        }
        let entries: Vec<(&Spanned<RawStage>, bool)> = match (body.sequence, body.actions) {
            (Some(seq), _) => seq.get_ref().iter().map(|s| (s, true)).collect(),
            (None, Some(list)) => list.get_ref().iter().map(|s| (s, false)).collect(),
            (None, None) => Vec::new(),
        };
        for (entry, in_sequence) in entries {
            let raw = entry.get_ref();
            match (&raw.id, &raw.window) {
                (Some(_), Some(w)) => {
                    self.error("turnspec::stage-kind", span_of(w), "an entry is either a turn-based action (`id`) or a window (`window`), not both");
                }
                (None, None) => {
                    self.error("turnspec::stage-kind", span_of(entry), "this entry has neither `id` nor `window`")
                        .help = Some("a turn-based action needs `id = \"...\"`; a window needs `window = \"always\"` or `\"if_pending\"`".into());
                }
                (None, Some(w)) => {
                    if !in_sequence {
                        self.error("turnspec::window-in-actions", span_of(w), "windows go in `sequence`, not in `actions`")
                            .help = Some("in `actions` use the step's `priority` key; use `sequence` to place windows between actions".into());
                        continue;
                    }
                    let mode = self.window_mode(w);
                    let close_when_stack_empty = self.choice(
                        raw.close.as_ref(),
                        false,
                        &[("all_pass", false), ("stack_empty", true)],
                        "window close rule",
                    );
                    let (solo, acts_role) = self.role_or(
                        raw.acts.as_ref(),
                        &[("all", (false, None)), ("active_player", (true, None))],
                        |r| (true, Some(r)),
                        "who acts in the window",
                    );
                    let rule = self.rule(raw.rule.as_ref());
                    self.reject_action_keys(raw);
                    let refuse_pass = self.conditions(&raw.refuse_pass);
                    let window = Window {
                        name: text_or(&raw.name, ""),
                        rule,
                        mode,
                        close_when_stack_empty,
                        step: step_id,
                        solo,
                        acts_role,
                        refuse_pass,
                    };
                    if let Some(w) = self.add::<WindowId>(window, span_of(w)) {
                        stages.push(Stage::Window(w));
                    }
                }
                (Some(id), None) => {
                    if let Some(first) = self.action_ids.get(id.get_ref()).cloned() {
                        self.error("turnspec::duplicate-id", span_of(id), format!("turn-based action `{}` is defined twice", id.get_ref()))
                            .labelled("second turn-based action with this id")
                            .also_at(first, "first definition")
                            .help = Some("turn-based action ids are unique in a spec, because hosts answer them by id".into());
                    } else {
                        self.action_ids.insert(id.get_ref().clone(), span_of(id));
                    }
                    let rule = self.rule(raw.rule.as_ref());
                    let condition = raw.condition.as_ref().and_then(|c| self.condition(c));
                    let (mut answer_counter, mut answer_max, mut answer_play) = (None, 0u16, None);
                    let mut answer_role = None;
                    if let Some(a) = &raw.answer {
                        let a = a.get_ref();
                        if let Some(r) = &a.role {
                            answer_role = self.role_ref(r);
                            answer_max = MAX_PLAYERS as u16;
                        }
                        if let Some(c) = &a.counter {
                            answer_counter = self.counter_ref(c);
                            answer_max = 1;
                        }
                        if let Some(p) = &a.play {
                            answer_max = 1;
                            answer_play = self.timing_ref(p);
                        }
                        if let Some(m) = &a.max {
                            let v = *m.get_ref();
                            if !(1..=u16::MAX as i64).contains(&v) {
                                self.error(
                                    "turnspec::bad-value",
                                    span_of(m),
                                    format!("answer max {v} is out of range"),
                                )
                                .help = Some("use a number from 1 up".into());
                            } else {
                                answer_max = v as u16;
                            }
                        }
                    }
                    for (key, value) in [("close", &raw.close), ("acts", &raw.acts)] {
                        if let Some(c) = value {
                            self.error(
                                "turnspec::unused-key",
                                span_of(c),
                                format!("`{key}` belongs to windows, not turn-based actions"),
                            );
                        }
                    }
                    if let Some(first) = raw.refuse_pass.first() {
                        self.error(
                            "turnspec::unused-key",
                            span_of(first),
                            "`refuse_pass` belongs to windows, not turn-based actions",
                        );
                    }
                    let play = raw.play.as_ref().and_then(|p| self.timing_ref(p));
                    for (t, key) in [(play, &raw.play), (answer_play, &None)] {
                        let timing = &self.parts.timing;
                        if let Some(class) = t
                            .and_then(|t| timing.get(t))
                            .filter(|c| matches!(c.effect, Effect::StartPhase(_)))
                            .map(|c| c.id.clone())
                        {
                            let span = key.as_ref().map(span_of).unwrap_or_else(|| span_of(id));
                            self.error(
                                "turnspec::bad-value",
                                span,
                                format!("a turn-based action cannot play `{class}`: it starts a phase"),
                            )
                            .help = Some("only players start phases (by playing the class in a window); give the action a class with `effect = \"stack\"` or `\"special\"`".into());
                        }
                    }
                    let action = TurnAction {
                        id: id.get_ref().clone(),
                        name: display_name(raw.name.as_ref(), id),
                        rule,
                        step: step_id,
                        condition,
                        answer_counter,
                        answer_max,
                        answer_play,
                        play,
                        ends_turn_effects: raw
                            .ends_turn_effects
                            .as_ref()
                            .is_some_and(|b| *b.get_ref()),
                        stack_triggers: raw.stack_triggers.as_ref().is_some_and(|b| *b.get_ref()),
                        answer_role,
                    };
                    if let Some(a) = self.add::<TurnActionId>(action, span_of(id)) {
                        stages.push(Stage::Action(a));
                    }
                }
            }
        }
        if body.sequence.is_none() {
            let mode = match body.priority {
                None => None,
                Some(p) if p.get_ref() == "never" => None,
                Some(p) => Some(self.window_mode(p)),
            };
            if let Some(mode) = mode {
                let rule = self.rule(body.priority_rule);
                let window = Window {
                    name: String::new(),
                    rule,
                    mode,
                    close_when_stack_empty: false,
                    step: step_id,
                    solo: false,
                    acts_role: None,
                    refuse_pass: Vec::new(),
                };
                if let Some(w) = self.add::<WindowId>(window, span.clone()) {
                    stages.push(Stage::Window(w));
                }
            }
        } else if let Some(p) = body.priority {
            self.error(
                "turnspec::sequence-and-actions",
                span_of(p),
                "`priority` is not used with `sequence`",
            )
            .help = Some("put `{ window = \"always\" }` entries in the sequence instead".into());
        }
        if stages.len() > MAX_STAGES_PER_STEP {
            self.limit(
                span.clone(),
                LimitError {
                    what: "actions and windows in one step",
                    limit: MAX_STAGES_PER_STEP,
                    value: stages.len(),
                },
            );
        }
        let repeat = body.repeat.and_then(|r| {
            let raw = r.get_ref();
            let rule = self.rule(raw.rule.as_ref());
            self.condition(&raw.condition)
                .map(|cond| Condition { cond, rule })
        });
        Step {
            id: header.id,
            name: header.name,
            rule: header.rule,
            tags: header.tags,
            phase: header.phase,
            implicit: header.implicit,
            stages,
            only_if: header.only_if,
            skip: header.skip,
            repeat,
            timing_mask: 0,
            on_demand: header.on_demand,
        }
    }

    pub(super) fn reject_action_keys(&mut self, raw: &RawStage) {
        let unused = [
            ("play", raw.play.as_ref().map(span_of)),
            (
                "ends_turn_effects",
                raw.ends_turn_effects.as_ref().map(span_of),
            ),
            ("stack_triggers", raw.stack_triggers.as_ref().map(span_of)),
            ("answer", raw.answer.as_ref().map(span_of)),
        ];
        for (key, span) in unused {
            if let Some(span) = span {
                self.error(
                    "turnspec::unused-key",
                    span,
                    format!("a window takes no `{key}`"),
                );
            }
        }
        if let Some(c) = &raw.condition {
            self.error("turnspec::unused-key", span_of(c), "a window takes no `if`")
                .help = Some("use `window = \"if_pending\"` for a window that opens only when something is waiting".into());
        }
    }

    pub(super) fn window_mode(&mut self, text: &Text) -> WindowMode {
        self.choice(
            Some(text),
            WindowMode::Always,
            &[
                ("always", WindowMode::Always),
                ("if_pending", WindowMode::IfPending),
            ],
            "window mode (or `never` for `priority`)",
        )
    }
}

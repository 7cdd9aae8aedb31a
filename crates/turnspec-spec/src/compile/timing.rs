//! Timing classes: who may play what, when.

use super::*;

/// A timing class with only its id, added before the classes are compiled
/// so that conditions can name every class (`top_is.CLASS`).
pub(super) fn unfinished_timing(id: &str) -> TimingClass {
    TimingClass {
        id: id.to_string(),
        name: id.to_string(),
        rule: RuleRef::NONE,
        who: Who::Any,
        who_rule: RuleRef::NONE,
        stack: StackRequirement::Any,
        stack_rule: RuleRef::NONE,
        during: Vec::new(),
        during_rule: RuleRef::NONE,
        effect: Effect::Stack,
        limit: None,
        require: Vec::new(),
        ends: None,
        enters: None,
        cost: None,
        attributes: Vec::new(),
        by_object: false,
        object_limit: None,
        after: None,
        after_rule: RuleRef::NONE,
        claims: None,
        passes_rest: false,
        response_round: false,
        steps: None,
    }
}

impl Ctx {
    /// Every `[timing.*]` table, in file order: each finishes the class
    /// added for it, unfinished, at the start (`timing_names`); classes
    /// past the limit got none and were reported then.
    pub(super) fn timing_classes(&mut self, raw: &RawSpec) {
        let ids: Vec<TimingId> = self.timing_names.iter().map(|(_, id)| *id).collect();
        for ((key, t), id) in in_file_order(&raw.timing).into_iter().zip(ids) {
            self.timing_spans.push(span_of(&key));
            let class = self.timing(&key, t);
            if let Some(slot) = self.parts.get_mut(id) {
                *slot = class;
            }
        }
    }

    pub(super) fn timing(&mut self, key: &Text, t: &RawTiming) -> TimingClass {
        let who = self.role_or(
            t.who.as_ref(),
            &[
                ("any", Who::Any),
                ("active_player", Who::ActivePlayer),
                ("non_active_player", Who::NonActivePlayer),
                ("nobody", Who::Nobody),
            ],
            Who::Role,
            "`who`",
        );
        let stack = self.choice(
            t.stack.as_ref(),
            StackRequirement::Any,
            &[
                ("any", StackRequirement::Any),
                ("empty", StackRequirement::Empty),
            ],
            "stack requirement",
        );
        let mut during = Vec::new();
        if let Some(list) = &t.during {
            for d in list.get_ref() {
                if !self.names.contains(d.get_ref()) {
                    let mut known: Vec<&str> = self.names.iter().map(|s| s.as_str()).collect();
                    known.sort_unstable();
                    let hint = match suggest(d.get_ref(), &known) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => "`during` lists phase ids, step ids or tags".into(),
                    };
                    self.error(
                        "turnspec::unknown-reference",
                        span_of(d),
                        format!("no phase, step or tag named `{}`", d.get_ref()),
                    )
                    .labelled("referenced here")
                    .help = Some(hint);
                }
                during.push(d.get_ref().clone());
            }
        }
        let effect_name = self.choice(
            t.effect.as_ref(),
            "stack",
            &[
                ("stack", "stack"),
                ("special", "special"),
                ("start_phase", "start_phase"),
            ],
            "effect",
        );
        let effect = match effect_name {
            "special" => Effect::Special,
            "start_phase" => {
                match &t.phase {
                    Some(ph) => match self.parts.phases.by_id(ph.get_ref()) {
                        Some(i) => {
                            if self.parts.get(i).is_some_and(|p| !p.on_demand) {
                                self.error("turnspec::start-regular-phase", span_of(ph), format!("phase `{}` is part of the regular turn", ph.get_ref()))
                                .help = Some("only phases with `on_demand = true` can be started by an action".into());
                            }
                            Effect::StartPhase(i)
                        }
                        None => {
                            self.reference(
                                ph,
                                |p| &p.phases,
                                "phase",
                                |_| "name a phase declared with `[[phase]]`".into(),
                            );
                            Effect::Stack
                        }
                    },
                    None => {
                        self.error(
                            "turnspec::missing",
                            span_of(key),
                            format!(
                                "timing class `{}` starts a phase but names none",
                                key.get_ref()
                            ),
                        )
                        .help = Some("add `phase = \"<phase id>\"`".into());
                        Effect::Stack
                    }
                }
            }
            _ => Effect::Stack,
        };
        if let Some(phase) = t.phase.as_ref().filter(|_| effect_name != "start_phase") {
            self.error(
                "turnspec::unused-key",
                span_of(phase),
                "`phase` is only used with `effect = \"start_phase\"`",
            );
        }
        let by_object = self.choice(
            t.by.as_ref(),
            false,
            &[("player", false), ("object", true)],
            "`by`",
        );
        if by_object
            && !self.parts.objects.tracked
            && let Some(by) = &t.by
        {
            self.error(
                "turnspec::objects",
                span_of(by),
                format!(
                    "timing class `{}` is made by an object, but the spec keeps no objects",
                    key.get_ref()
                ),
            )
            .help = Some(
                "add an `[objects]` table: the host then reports objects entering and leaving play"
                    .into(),
            );
        }
        let per_object = t
            .limit
            .as_ref()
            .and_then(|l| l.get_ref().per.as_ref())
            .map(|per| {
                self.choice(
                    Some(per),
                    false,
                    &[("player", false), ("object", true)],
                    "`per`",
                )
            })
            .unwrap_or(false);
        let object_limit = match (&t.limit, per_object) {
            (Some(l), true) => self.object_limit(key, l, by_object),
            _ => None,
        };
        let limit = t.limit.as_ref().filter(|_| !per_object).and_then(|l| {
            let raw = l.get_ref();
            if let Some(r) = &raw.reset {
                self.error(
                    "turnspec::unused-key",
                    span_of(r),
                    "`reset` is only used with `per = \"object\"`: a counter's own `reset` says when it starts afresh",
                );
            }
            let Some(counter_key) = &raw.counter else {
                self.error(
                    "turnspec::missing",
                    span_of(l),
                    "this `limit` names no counter",
                )
                .help = Some("add `counter = \"<counter id>\"`, or `per = \"object\"` to count for each object".into());
                return None;
            };
            let counter = self.counter_ref(counter_key);
            let max = *raw.max.get_ref();
            if !(0..=u16::MAX as i64).contains(&max) {
                self.error(
                    "turnspec::bad-value",
                    span_of(&raw.max),
                    format!("limit {max} is out of range"),
                );
            }
            let raised_by = raw.raised_by.as_ref().map(|r| self.counter_ref(r));
            let rule = self.rule(raw.rule.as_ref());
            // An unknown `raised_by` was reported; the limit is left out
            // with it, as with an unknown `counter`.
            let raised_by = match raised_by {
                Some(None) => return None,
                Some(Some(c)) => Some(c),
                None => None,
            };
            counter.map(|counter| Limit {
                counter,
                max: max.clamp(0, u16::MAX as i64) as u16,
                raised_by,
                rule,
            })
        });
        let mut require = Vec::new();
        self.objects_here = by_object;
        for r in &t.require {
            let raw = r.get_ref();
            let rule = self.rule(raw.rule.as_ref());
            if let Some(cond) = self.condition(&raw.condition) {
                require.push(Requirement {
                    condition: Condition { cond, rule },
                    explain: text_or(&raw.explain, raw.condition.get_ref()),
                });
            }
        }
        self.objects_here = false;
        let ends = t.ends.as_ref().map(|e| {
            let turn = self.choice(Some(e), true, &[("turn", true), ("phase", false)], "`ends`");
            PlayEnds {
                turn,
                rule: self.rule(t.ends_rule.as_ref()),
            }
        });
        if let Some(r) = t.ends_rule.as_ref().filter(|_| t.ends.is_none()) {
            self.error(
                "turnspec::unused-key",
                span_of(r),
                "`ends_rule` is only used with `ends`",
            );
        }
        if let (Some(e), Effect::StartPhase(_)) = (&t.ends, effect) {
            self.error(
                "turnspec::bad-value",
                span_of(e),
                "a play that starts a phase cannot also end the phase or the turn",
            )
            .help = Some(
                "the phase it starts would never begin: drop `ends`, or use `enters` to elect an optional phase"
                    .into(),
            );
        }
        let after = t.after.as_ref().map(|a| {
            self.choice(
                Some(a),
                Holder::Actor,
                &[
                    ("actor", Holder::Actor),
                    ("next_player", Holder::NextPlayer),
                    ("active_player", Holder::ActivePlayer),
                ],
                "holder after a play",
            )
        });
        let claims = t.claims.as_ref().and_then(|c| self.role_ref(c));
        let passes_rest = self.choice(
            t.passes.as_ref(),
            false,
            &[("rest_of_window", true)],
            "`passes`",
        );
        let enters = t.enters.as_ref().and_then(|ph| {
            let id = self.phase_ref(ph)?;
            if self.parts.get(id).is_some_and(|p| !p.optional) {
                self.error(
                    "turnspec::bad-value",
                    span_of(ph),
                    format!("phase `{}` is not `optional`", ph.get_ref()),
                )
                .help = Some("only a phase with `optional = true` can be elected".into());
            }
            Some(id)
        });
        let cost = t.cost.as_ref().and_then(|c| {
            let raw = c.get_ref();
            let counter = self.counter_ref(&raw.counter)?;
            let amount = raw
                .amount
                .as_ref()
                .map_or(1, |a| self.small_number(a, "amount"));
            Some(Cost {
                counter,
                amount,
                rule: self.rule(raw.rule.as_ref()),
            })
        });
        let mut attributes = Vec::new();
        for (name, value) in &t.attributes {
            let v = self.small_number(value, name);
            if let Some(i) = self.parts.attributes.iter().position(|a| a == name) {
                attributes.push((i as u8, v));
            }
        }
        TimingClass {
            ends,
            enters,
            cost,
            attributes,
            id: key.get_ref().clone(),
            name: display_name(t.name.as_ref(), key),
            rule: self.rule(t.rule.as_ref()),
            who,
            who_rule: self.rule(t.who_rule.as_ref()),
            stack,
            stack_rule: self.rule(t.stack_rule.as_ref()),
            during,
            during_rule: self.rule(t.during_rule.as_ref()),
            effect,
            limit,
            require,
            by_object,
            object_limit,
            after,
            after_rule: self.rule(t.after_rule.as_ref()),
            claims,
            passes_rest,
            response_round: t.response_round.as_ref().is_some_and(|b| *b.get_ref()),
            // Set once the steps have ids (`class_steps`).
            steps: None,
        }
    }
}

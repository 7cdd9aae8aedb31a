//! Structural effects: extra turns, phases and steps, skips, ending the
//! turn or a phase.

use super::*;

impl Ctx {
    /// Every `[effects.*]` table, in file order.
    pub(super) fn effects(&mut self, raw: &RawSpec) {
        for (key, e) in in_file_order(&raw.effects) {
            if let Some(def) = self.effect(&key, e)
                && self.add::<EffectId>(def, span_of(&key)).is_none()
            {
                break;
            }
        }
    }

    pub(super) fn effect(&mut self, key: &Text, e: &RawEffect) -> Option<EffectDef> {
        let kind_name = self.choice(
            Some(&e.kind),
            "",
            &[
                ("extra_turn", "extra_turn"),
                ("extra_phases", "extra_phases"),
                ("extra_step", "extra_step"),
                ("skip", "skip"),
                ("end_turn", "end_turn"),
                ("end_phase", "end_phase"),
                ("grant", "grant"),
                ("reverse_turn_order", "reverse_turn_order"),
                ("control_turn", "control_turn"),
            ],
            "effect kind",
        );
        let need = |ctx: &mut Ctx, what: &str| {
            ctx.error(
                "turnspec::missing",
                span_of(key),
                format!("effect `{}` ({kind_name}) needs `{what}`", key.get_ref()),
            );
        };
        let kind = match kind_name {
            "extra_turn" => {
                let each = self.choice(
                    e.target.as_ref(),
                    false,
                    &[("player", false), ("each_player", true)],
                    "`for`",
                );
                EffectKind::ExtraTurn { each_player: each }
            }
            "extra_phases" => {
                let Some(list) = &e.phases else {
                    need(self, "phases = [...]");
                    return None;
                };
                let ids: Vec<PhaseId> = list
                    .get_ref()
                    .iter()
                    .filter_map(|p| self.phase_ref(p))
                    .collect();
                if ids.is_empty() {
                    need(self, "at least one phase in `phases`");
                    return None;
                }
                EffectKind::ExtraPhases(ids)
            }
            "extra_step" => {
                let Some(step) = &e.step else {
                    need(self, "step");
                    return None;
                };
                let step = self.step_ref(step)?;
                let after_phase = self.choice(
                    e.after.as_ref(),
                    false,
                    &[("this_step", false), ("this_phase", true)],
                    "`after`",
                );
                EffectKind::ExtraStep { step, after_phase }
            }
            "skip" => {
                let target = match (&e.step, &e.phase, e.turn.as_ref().map(|t| *t.get_ref())) {
                    (Some(s), None, None | Some(false)) => {
                        let step = self.step_ref(s)?;
                        // A step-less phase's id names its body: skipping it
                        // skips the phase.
                        match self.parts.get(step) {
                            Some(s) if s.implicit => SkipTarget::Phase(s.phase),
                            _ => SkipTarget::Step(step),
                        }
                    }
                    (None, Some(p), None | Some(false)) => SkipTarget::Phase(self.phase_ref(p)?),
                    (None, None, Some(true)) => SkipTarget::Turn,
                    _ => {
                        self.error("turnspec::effect", span_of(key), format!("skip effect `{}` needs exactly one of `step`, `phase` or `turn = true`", key.get_ref()));
                        return None;
                    }
                };
                let lasting = e.lasting.as_ref().is_some_and(|b| *b.get_ref());
                if !lasting {
                    if let Some(f) = &e.target {
                        self.error(
                            "turnspec::effect",
                            span_of(f),
                            format!(
                                "`for` on skip effect `{}`: a one-time skip is the player's own",
                                key.get_ref()
                            ),
                        )
                        .help = Some("for \"players skip their ...\" add `lasting = true`".into());
                    }
                    EffectKind::Skip(target)
                } else {
                    let each_player = self.choice(
                        e.target.as_ref(),
                        false,
                        &[("player", false), ("each_player", true)],
                        "`for`",
                    );
                    if each_player && target == SkipTarget::Turn {
                        self.error(
                            "turnspec::effect",
                            span_of(key),
                            format!("skip effect `{}` would skip every turn of every player: no turn could ever begin", key.get_ref()),
                        )
                        .help = Some("skip the turns of the player only (remove `for`)".into());
                    }
                    EffectKind::LastingSkip {
                        target,
                        each_player,
                    }
                }
            }
            "end_turn" => {
                let Some(goto) = &e.goto else {
                    need(
                        self,
                        "goto = \"<step>\" (where the turn continues, e.g. the cleanup step)",
                    );
                    return None;
                };
                let goto = self.step_ref(goto)?;
                let phase = self.parts.get(goto).map(|s| s.phase);
                if phase
                    .and_then(|p| self.parts.get(p))
                    .is_some_and(|p| p.on_demand)
                {
                    self.error(
                        "turnspec::effect",
                        span_of(e.goto.as_ref().expect("checked")),
                        "`goto` of an end_turn effect must be a step of a regular phase",
                    );
                }
                EffectKind::EndTurn { goto }
            }
            "end_phase" => {
                let Some(phase) = &e.phase else {
                    need(self, "phase");
                    return None;
                };
                let phase = self.phase_ref(phase)?;
                let goto = match &e.goto {
                    Some(g) => {
                        let g = self.step_ref(g)?;
                        if self.parts.get(g).is_some_and(|s| s.phase != phase) {
                            self.error(
                                "turnspec::effect",
                                span_of(e.goto.as_ref().expect("checked")),
                                "`goto` must be a step of the phase being ended",
                            );
                        }
                        Some(g)
                    }
                    None => None,
                };
                EffectKind::EndPhase { phase, goto }
            }
            "grant" => {
                let Some(counter) = &e.counter else {
                    need(self, "counter = \"<counter id>\" (the resource granted)");
                    return None;
                };
                let counter = self.counter_ref(counter)?;
                let amount = e
                    .amount
                    .as_ref()
                    .map_or(1, |a| self.small_number(a, "amount"));
                EffectKind::Grant { counter, amount }
            }
            "reverse_turn_order" => EffectKind::ReverseTurnOrder,
            "control_turn" => {
                if let Some(o) = &e.own_turn_only {
                    self.error(
                        "turnspec::effect",
                        span_of(o),
                        format!("control_turn effect `{}` cannot be `own_turn_only`: it is about another player's turn", key.get_ref()),
                    );
                }
                EffectKind::ControlTurn
            }
            _ => return None,
        };
        if let Some(l) = &e.lasting
            && kind_name != "skip"
        {
            self.error(
                "turnspec::effect",
                span_of(l),
                format!(
                    "`lasting` is for skip effects; `{}` is {kind_name}",
                    key.get_ref()
                ),
            );
        }
        let rule = self.rule(e.rule.as_ref());
        let own_turn_rule = match e.own_turn_rule.as_ref() {
            Some(r) => self.rule(Some(r)),
            None => rule,
        };
        Some(EffectDef {
            id: key.get_ref().clone(),
            name: display_name(e.name.as_ref(), key),
            rule,
            kind,
            own_turn_only: e
                .own_turn_only
                .as_ref()
                .is_some_and(|b| *b.get_ref())
                .then_some(own_turn_rule),
        })
    }
}

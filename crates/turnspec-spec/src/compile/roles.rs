//! Seat roles (`[roles.*]`) and what names them: `who`, `acts`, `claims`,
//! `answer.role`; and the steps a class runs (`steps`), resolved once the
//! steps have ids.

use super::*;

impl Ctx {
    /// `[roles.*]`, before the timing classes and windows that name them.
    pub(super) fn roles(&mut self, raw: &RawSpec) {
        for (key, r) in in_file_order(&raw.roles) {
            let initial = self.choice(
                r.initial.as_ref(),
                RoleStart::NextPlayer,
                &[
                    ("active_player", RoleStart::ActivePlayer),
                    ("next_player", RoleStart::NextPlayer),
                    ("starting_player", RoleStart::StartingPlayer),
                ],
                "`initial`",
            );
            let each_turn = self.choice(
                r.reset.as_ref(),
                true,
                &[("turn", true), ("never", false)],
                "`reset`",
            );
            let role = Role {
                id: key.get_ref().clone(),
                name: text_or(&r.name, key.get_ref()),
                description: text_or(&r.description, ""),
                rule: self.rule(r.rule.as_ref()),
                initial,
                each_turn,
                next_turn: r.next_turn.as_ref().is_some_and(|b| *b.get_ref()),
            };
            if role.next_turn && self.parts.roles.iter().any(|r| r.next_turn) {
                let span = r.next_turn.as_ref().map_or(span_of(&key), span_of);
                self.error(
                    "turnspec::bad-value",
                    span,
                    "only one role can say who takes the next turn",
                )
                .help = Some("keep `next_turn = true` on one role".into());
            }
            if self.add::<RoleId>(role, span_of(&key)).is_none() {
                break;
            }
        }
    }

    /// A value naming a role, or one of the fixed `options` (`who`,
    /// `acts`), the first of which is the default.
    pub(super) fn role_or<T: Copy>(
        &mut self,
        value: Option<&Text>,
        options: &[(&str, T)],
        role: impl Fn(RoleId) -> T,
        what: &str,
    ) -> T {
        if let Some(v) = value
            && let Some(id) = self.parts.roles.by_id(v.get_ref())
        {
            return role(id);
        }
        let roles: Vec<(String, RoleId)> = self
            .parts
            .roles
            .iter_ids()
            .map(|(id, r)| (r.id.clone(), id))
            .collect();
        let mut all: Vec<(&str, Option<RoleId>)> =
            options.iter().map(|(n, _)| (*n, None)).collect();
        all.extend(roles.iter().map(|(n, id)| (n.as_str(), Some(*id))));
        match self.choice(value, None, &all, what) {
            Some(id) => role(id),
            None => value
                .and_then(|v| options.iter().find(|(n, _)| *n == v.get_ref().as_str()))
                .or(options.first())
                .map(|(_, t)| *t)
                .expect("a choice has options"),
        }
    }

    /// A reference to a role (`claims`, `answer.role`).
    pub(super) fn role_ref(&mut self, text: &Text) -> Option<RoleId> {
        let found = self.parts.roles.by_id(text.get_ref());
        if found.is_none() {
            self.reference(
                text,
                |p| &p.roles,
                "role",
                |_| "declare it with a `[roles.ID]` table".into(),
            );
        }
        found
    }

    /// A class that runs steps may be played only in windows of their
    /// phase: the steps run inside the phase the play is made in.
    pub(super) fn steps_in_their_phase(&mut self, raw: &RawSpec) {
        let ids: Vec<TimingId> = self.timing_names.iter().map(|(_, id)| *id).collect();
        for ((key, t), id) in in_file_order(&raw.timing).into_iter().zip(ids) {
            let Some(target) = self.parts.get(id).and_then(|c| c.steps) else {
                continue;
            };
            let Some(phase) = self.parts.get(target).map(|s| s.phase) else {
                continue;
            };
            let bit = 1u32 << (id.index() & 31);
            let elsewhere = self.parts.steps.iter().find(|s| {
                s.timing_mask & bit != 0
                    && s.phase != phase
                    && s.stages.iter().any(|st| matches!(st, Stage::Window(_)))
            });
            if let Some(s) = elsewhere {
                let (class, other) = (key.get_ref().clone(), s.id.clone());
                let span = t.during.as_ref().map_or(span_of(&key), span_of);
                self.error(
                    "turnspec::bad-value",
                    span,
                    format!("`{class}` runs steps of its phase but may be played in `{other}`, outside it"),
                )
                .help = Some("limit its `during` to the phase whose on-demand steps it runs".into());
            }
        }
    }

    /// Each class's `steps`, once the steps have ids: an on-demand step,
    /// in the phase the class is used in.
    pub(super) fn class_steps(&mut self, raw: &RawSpec) {
        let ids: Vec<TimingId> = self.timing_names.iter().map(|(_, id)| *id).collect();
        for ((_, t), id) in in_file_order(&raw.timing).into_iter().zip(ids) {
            let Some(text) = &t.steps else { continue };
            let Some(step) = self.parts.steps.by_id(text.get_ref()) else {
                self.reference(
                    text,
                    |p| &p.steps,
                    "step",
                    |_| "name a step declared with `on_demand = true`".into(),
                );
                continue;
            };
            let (on_demand, implicit) = self
                .parts
                .get(step)
                .map_or((false, false), |s| (s.on_demand, s.implicit));
            if !on_demand || implicit {
                self.error(
                    "turnspec::bad-value",
                    span_of(text),
                    format!(
                        "step `{}` is part of its phase's regular run",
                        text.get_ref()
                    ),
                )
                .help = Some("a play runs only steps with `on_demand = true`".into());
                continue;
            }
            let start_phase = self
                .parts
                .get(id)
                .is_some_and(|c| matches!(c.effect, Effect::StartPhase(_)));
            if start_phase {
                self.error(
                    "turnspec::bad-value",
                    span_of(text),
                    "a play that starts a phase cannot also run steps",
                )
                .help = Some("use `effect = \"special\"` or `\"stack\"` with `steps`".into());
                continue;
            }
            if let Some(class) = self.parts.get_mut(id) {
                class.steps = Some(step);
            }
        }
    }
}

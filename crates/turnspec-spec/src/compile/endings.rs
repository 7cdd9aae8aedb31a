//! How the game ends: `[game_end]` and `[endings.*]`.

use super::*;

impl Ctx {
    /// `[game_end]`, then every `[endings.*]` table in file order.
    pub(super) fn endings(&mut self, raw: &RawSpec) {
        if let Some(g) = &raw.game_end {
            let g = g.get_ref();
            self.parts.game_end = GameEndRules {
                last_side_rule: self.rule(g.last_side_rule.as_ref()),
                leave_rule: self.rule(g.leave_rule.as_ref()),
            };
        }
        for (key, e) in in_file_order(&raw.endings) {
            if let Some(def) = self.ending(&key, e)
                && self.add::<EndingId>(def, span_of(&key)).is_none()
            {
                break;
            }
        }
    }

    fn ending(&mut self, key: &Text, e: &RawEnding) -> Option<Ending> {
        let result = self.choice(
            Some(&e.result),
            EndResult::Loses,
            &[
                ("wins", EndResult::Wins),
                ("loses", EndResult::Loses),
                ("draw", EndResult::Draw),
            ],
            "`result`",
        );
        let rule = self.rule(e.rule.as_ref());
        let check = match &e.condition {
            None => {
                for (set, what) in [
                    (e.target.is_some(), "`for`"),
                    (e.at.is_some(), "`at`"),
                    (e.after.is_some(), "`after`"),
                ] {
                    if set {
                        self.error(
                            "turnspec::ending",
                            span_of(key),
                            format!(
                                "ending `{}` has {what} but no `if`: only a checked ending is checked somewhere",
                                key.get_ref()
                            ),
                        )
                        .help = Some(
                            "add `if = \"...\"` for the engine to check it, or remove the key for an ending the host declares".into(),
                        );
                    }
                }
                None
            }
            Some(text) => {
                let cond = self.condition(text);
                let each_player = self.choice(
                    e.target.as_ref(),
                    false,
                    &[("active_player", false), ("each_player", true)],
                    "`for`",
                );
                let after = e.after.as_ref().and_then(|a| self.turn_action_ref(a));
                let mut at = EndPoints::NONE;
                match &e.at {
                    None if e.after.is_some() => {}
                    None => at = EndPoints::STEP_END,
                    Some(list) => {
                        for name in list.get_ref() {
                            let point = self.choice(
                                Some(name),
                                EndPoints::NONE,
                                &EndPoints::ALL.map(|(p, n)| (n, p)),
                                "check point (`at`)",
                            );
                            at = at.with(point);
                        }
                        if at.is_empty() && list.get_ref().is_empty() {
                            self.error(
                                "turnspec::ending",
                                span_of(list),
                                format!("ending `{}` is checked nowhere", key.get_ref()),
                            )
                            .help =
                                Some("list where to check it, e.g. `at = [\"step_end\"]`".into());
                        }
                    }
                }
                if after.is_some() {
                    at = at.with(EndPoints::AFTER_ACTION);
                }
                cond.map(|cond| EndCheck {
                    cond,
                    each_player,
                    at,
                    after,
                })
            }
        };
        if e.condition.is_some() && check.is_none() {
            return None;
        }
        let name = e
            .name
            .as_ref()
            .map_or_else(|| key.get_ref().clone(), |n| n.get_ref().clone());
        Some(Ending {
            id: key.get_ref().clone(),
            name,
            result,
            rule,
            check,
        })
    }
}

impl Ctx {
    /// A turn-based action by its id, reported with a suggestion if the
    /// spec has none by that name.
    fn turn_action_ref(&mut self, name: &Text) -> Option<TurnActionId> {
        let found = self
            .parts
            .turn_actions
            .iter_ids()
            .find(|(_, a)| a.id == *name.get_ref())
            .map(|(id, _)| id);
        if found.is_none() {
            let names: Vec<String> = self
                .parts
                .turn_actions
                .iter()
                .map(|a| a.id.clone())
                .collect();
            self.error(
                "turnspec::unknown",
                span_of(name),
                format!("no turn-based action `{}`", name.get_ref()),
            )
            .labelled("unknown action")
            .help = Some(format!("turn-based actions: {}", names.join(", ")));
        }
        found
    }
}

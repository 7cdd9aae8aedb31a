//! `[game]`, `[priority]`, `[mana]`, variants and facts.

use super::*;

impl Ctx {
    /// Variants or facts, in file order, added to the spec.
    pub(super) fn flags<I: Part<Item = Flag>>(
        &mut self,
        table: &BTreeMap<String, Spanned<RawFlag>>,
    ) {
        for (key, raw) in in_file_order(table) {
            let flag = Flag {
                id: key.get_ref().clone(),
                name: text_or(&raw.name, key.get_ref()),
                description: text_or(&raw.description, ""),
                rule: self.rule(raw.rule.as_ref()),
                default: raw.default.as_ref().map(|d| *d.get_ref()).unwrap_or(false),
            };
            if self.add::<I>(flag, span_of(&key)).is_none() {
                break;
            }
        }
    }

    pub(super) fn game(&mut self, g: &Spanned<RawGame>) -> Option<GameInfo> {
        let raw = g.get_ref();
        let min = *raw.players.get_ref().min.get_ref();
        let max = *raw.players.get_ref().max.get_ref();
        let mut ok = true;
        let players = raw.players.get_ref();
        for (which, count) in [("minimum", &players.min), ("maximum", &players.max)] {
            let n = *count.get_ref();
            if !(1..=MAX_PLAYERS as i64).contains(&n) {
                ok = false;
                self.error(
                    "turnspec::players",
                    span_of(count),
                    format!("{which} of {n} players is impossible"),
                )
                .help = Some(format!(
                    "the engine runs games of 1 to {MAX_PLAYERS} players"
                ));
            }
        }
        if ok && min > max {
            ok = false;
            self.error(
                "turnspec::players",
                span_of(&raw.players),
                format!("player range {min}..{max} is empty"),
            )
            .labelled("min is larger than max")
            .help = Some("swap the two numbers".into());
        }
        let turn_order = self.choice(
            raw.turn_order.as_ref(),
            TurnOrder::Clockwise,
            &[
                ("clockwise", TurnOrder::Clockwise),
                ("counterclockwise", TurnOrder::Counterclockwise),
            ],
            "turn order",
        );
        let turn_effects_end = self.choice(
            raw.turn_effects_end.as_ref(),
            TurnEffectsEnd::TurnEnd,
            &[
                ("turn_end", TurnEffectsEnd::TurnEnd),
                ("action", TurnEffectsEnd::Action),
            ],
            "`turn_effects_end`",
        );
        let rule = self.rule(raw.rule.as_ref());
        let text = |t: &Option<Text>| text_or(t, "");
        ok.then(|| GameInfo {
            name: raw.name.get_ref().clone(),
            edition: text(&raw.edition),
            edition_date: text(&raw.edition_date),
            source: text(&raw.source),
            rule,
            min_players: min as u8,
            max_players: max as u8,
            turn_order,
            turn_effects_end,
        })
    }

    pub(super) fn priority(&mut self, p: Option<&Spanned<RawPriority>>) -> PriorityModel {
        let Some(p) = p else {
            return PriorityModel {
                rule: RuleRef::NONE,
                first: Holder::ActivePlayer,
                first_rule: RuleRef::NONE,
                after_action: Holder::Actor,
                after_action_rule: RuleRef::NONE,
                after_resolve: Holder::ActivePlayer,
                after_resolve_rule: RuleRef::NONE,
                pass_rule: RuleRef::NONE,
                close_rule: RuleRef::NONE,
                triggers: TriggerOrder::Stack,
                triggers_rule: RuleRef::NONE,
                resolve: Resolve::One,
                resolve_rule: RuleRef::NONE,
            };
        };
        let p = p.get_ref();
        let first = self.choice(
            p.first.as_ref(),
            Holder::ActivePlayer,
            &[("active_player", Holder::ActivePlayer)],
            "first holder",
        );
        let after_action = self.choice(
            p.after_action.as_ref(),
            Holder::Actor,
            &[
                ("actor", Holder::Actor),
                ("active_player", Holder::ActivePlayer),
                ("next_player", Holder::NextPlayer),
            ],
            "holder after an action",
        );
        let after_resolve = self.choice(
            p.after_resolve.as_ref(),
            Holder::ActivePlayer,
            &[("active_player", Holder::ActivePlayer)],
            "holder after a resolution",
        );
        self.choice(
            p.close.as_ref(),
            (),
            &[("all_pass", ())],
            "window close rule",
        );
        PriorityModel {
            rule: self.rule(p.rule.as_ref()),
            first,
            first_rule: self.rule(p.first_rule.as_ref()),
            after_action,
            after_action_rule: self.rule(p.after_action_rule.as_ref()),
            after_resolve,
            after_resolve_rule: self.rule(p.after_resolve_rule.as_ref()),
            pass_rule: self.rule(p.pass_rule.as_ref()),
            close_rule: self.rule(p.close_rule.as_ref()),
            triggers: self.choice(
                p.triggers.as_ref(),
                TriggerOrder::Stack,
                &[("stack", TriggerOrder::Stack), ("bag", TriggerOrder::Bag)],
                "trigger order",
            ),
            triggers_rule: self.rule(p.triggers_rule.as_ref()),
            resolve: self.choice(
                p.resolve.as_ref(),
                Resolve::One,
                &[("one", Resolve::One), ("whole_stack", Resolve::WholeStack)],
                "`resolve`",
            ),
            resolve_rule: self.rule(p.resolve_rule.as_ref()),
        }
    }

    pub(super) fn mana(&mut self, m: Option<&Spanned<RawMana>>) -> ManaRules {
        let Some(m) = m else {
            return ManaRules {
                empties: ManaEmpties::Step,
                rule: RuleRef::NONE,
                burn: false,
                burn_rule: RuleRef::NONE,
            };
        };
        let m = m.get_ref();
        ManaRules {
            empties: self.choice(
                m.empties.as_ref(),
                ManaEmpties::Step,
                &[("step", ManaEmpties::Step), ("phase", ManaEmpties::Phase)],
                "`empties`",
            ),
            rule: self.rule(m.rule.as_ref()),
            burn: m.burn.as_ref().is_some_and(|b| *b.get_ref()),
            burn_rule: self.rule(m.burn_rule.as_ref()),
        }
    }
}

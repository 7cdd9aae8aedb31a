//! Descriptions of the settings tables: `[game]`, `[terms]`, `[priority]`,
//! `[mana]`, `[leaving]`, `[game_end]`, and the endings.

use super::*;

impl Describe for GameInfo {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let GameInfo {
            name,
            edition,
            edition_date,
            source,
            rule,
            min_players,
            max_players,
            turn_order,
            turn_effects_end,
        } = self;
        let r = *rule;
        let order = match turn_order {
            TurnOrder::Clockwise => "clockwise",
            TurnOrder::Counterclockwise => "counterclockwise",
        };
        let turn_effects = match turn_effects_end {
            TurnEffectsEnd::TurnEnd => {
                "at an action that ends them, at the latest as the turn ends"
            }
            TurnEffectsEnd::Action => "only at an action that ends them, even in a later turn",
        };
        vec![
            Field::text("name", name, r),
            Field::text("edition", edition, r),
            Field::text("edition_date", edition_date, r),
            Field::text("source", source, r),
            Field::text("players", format!("{min_players}–{max_players}"), r),
            Field::text("turn_order", order, r),
            Field::text("turn_effects_end", turn_effects, r),
            Field::rule(r),
        ]
    }
}

/// Display words. The word for priority cites the priority rule, the
/// others the game's rule (terms have no rule of their own).
impl Describe for Terms {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let Terms {
            priority,
            stack,
            active_player,
        } = self;
        let (p, g) = (spec.priority().rule, spec.game().rule);
        vec![
            Field::text("priority", priority, p),
            Field::text("stack", stack, g),
            Field::text("active_player", active_player, g),
        ]
    }
}

impl Describe for PriorityModel {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let PriorityModel {
            rule,
            first,
            first_rule,
            after_action,
            after_action_rule,
            after_resolve,
            after_resolve_rule,
            pass_rule,
            close_rule,
            triggers,
            triggers_rule,
            resolve,
            resolve_rule,
        } = self;
        let resolve = match resolve {
            Resolve::One => "the top object, then priority",
            Resolve::WholeStack => "the whole stack, top first, with no priority in between",
        };
        let triggers = match triggers {
            TriggerOrder::Stack => "on the stack in APNAP order",
            TriggerOrder::Bag => {
                "in a bag: the active player resolves theirs first, then each player in turn order"
            }
        };
        let holder =
            |h: &Holder, after_action: bool| super::elements::holder_text(*h, after_action);
        vec![
            Field::cited("first", holder(first, false), *first_rule),
            Field::cited(
                "after_action",
                holder(after_action, true),
                *after_action_rule,
            ),
            Field::cited(
                "after_resolve",
                holder(after_resolve, false),
                *after_resolve_rule,
            ),
            Field::cited("pass", "next player in turn order", *pass_rule),
            Field::cited("close", "all pass in succession", *close_rule),
            Field::cited("triggers", triggers, *triggers_rule),
            Field::cited("resolve", resolve, *resolve_rule),
            Field::rule(*rule),
        ]
    }
}

impl Describe for ManaRules {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let ManaRules {
            empties,
            rule,
            burn,
            burn_rule,
        } = self;
        let empties = match empties {
            ManaEmpties::Step => "at the end of each step and phase",
            ManaEmpties::Phase => "only at the end of each phase",
        };
        let (burn, burn_rule) = if *burn && !burn_rule.is_none() {
            ("yes: unspent mana costs that much life", *burn_rule)
        } else if *burn {
            ("yes: unspent mana costs that much life", *rule)
        } else {
            ("no", *rule)
        };
        vec![
            Field::cited("empties", empties, *rule),
            Field::cited("burn", burn, burn_rule),
        ]
    }
}

impl Describe for LeavingRules {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let LeavingRules {
            rule,
            active_player_goto,
        } = self;
        let goto = match active_player_goto {
            Some(s) => format!(
                "once the stack is empty, play goes to {}",
                step_label(spec, *s)
            ),
            None => "the turn goes on without them".into(),
        };
        vec![Field::cited("active_player_goto", goto, *rule)]
    }
}

impl Describe for GameEndRules {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let GameEndRules {
            last_side_rule,
            leave_rule,
        } = self;
        vec![
            Field::cited(
                "last_side",
                "the last side in the game wins",
                *last_side_rule,
            ),
            Field::cited(
                "leave",
                "a player may leave (concede) at any time",
                *leave_rule,
            ),
        ]
    }
}

impl Describe for Ending {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let Ending {
            id,
            name,
            result,
            rule,
            check,
        } = self;
        let r = *rule;
        let result = match result {
            EndResult::Wins => "the player wins",
            EndResult::Loses => "the player loses",
            EndResult::Draw => "the game is a draw",
        };
        let check = match check {
            None => "declared by the host".to_string(),
            Some(c) => format!(
                "checked at {} for {}: {}",
                c.at.names()
                    .map(str::to_string)
                    .chain(c.after.map(|a| format!("after {}", spec.id_of(a))))
                    .collect::<Vec<_>>()
                    .join(", "),
                if c.each_player {
                    "each player"
                } else {
                    "the active player"
                },
                cond_text(spec, c.cond)
            ),
        };
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::text("result", result, r),
            Field::text("check", check, r),
            Field::rule(r),
        ]
    }
}

impl Describe for ObjectRules {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let ObjectRules {
            tracked,
            rule,
            control_rule,
        } = self;
        let tracked = match tracked {
            true => "the host reports objects entering and leaving play",
            false => "not tracked",
        };
        vec![
            Field::cited("objects", tracked, *rule),
            Field::cited(
                "control",
                "a play by an object needs its controller",
                *control_rule,
            ),
        ]
    }
}

impl Describe for ObjectFact {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let ObjectFact {
            id,
            name,
            description,
            rule,
            each_turn,
        } = self;
        let r = *rule;
        let lasts = match each_turn {
            true => "until the turn ends",
            false => "while the object is in play",
        };
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::text("description", description, r),
            Field::text("lasts", lasts, r),
            Field::rule(r),
        ]
    }
}

impl Describe for Role {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let Role {
            id,
            name,
            description,
            rule,
            initial,
            each_turn,
            next_turn,
        } = self;
        let r = *rule;
        let initial = match initial {
            RoleStart::ActivePlayer => "the active player",
            RoleStart::NextPlayer => "the next player after the active one",
            RoleStart::StartingPlayer => "the starting player",
        };
        let reset = match each_turn {
            true => "back to its first holder as each turn begins",
            false => "never: it stays until a play or answer gives it away",
        };
        let next_turn = match next_turn {
            true => "its holder takes the next turn",
            false => "no",
        };
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::text("description", description, r),
            Field::text("initial", initial, r),
            Field::text("reset", reset, r),
            Field::text("next_turn", next_turn, r),
            Field::rule(r),
        ]
    }
}

//! One `[[script]]` entry: the single action or expectation it names.

use toml::Spanned;
use turnspec_engine::{PassUntil, PlayerId, Scope};
use turnspec_spec::{Diagnostic, suggest};

use super::expect::normalise;
use super::{BoundScope, EXPECT_ILLEGAL_REASONS, Illegal, Resolver, Step};
use crate::raw::{RawEntry, Text};

impl Resolver<'_> {
    /// `pass_to_stop = COMMAND` (with `at` for `step`).
    fn pass_to_stop(&mut self, c: &Text, at: Option<&Text>, by: Option<PlayerId>) -> Option<Step> {
        const COMMANDS: &[&str] = &[
            "next_stop",
            "end_of_turn",
            "stack_changes",
            "step",
            "resolve",
            "advance",
        ];
        let name = c.get_ref().as_str();
        let command = if name == "step" {
            let Some(at) = at else {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        c.span(),
                        "`pass_to_stop = \"step\"` needs `at = STEP`",
                    )
                    .label("until which step?"),
                );
                return None;
            };
            PassUntil::Step(self.step_id(at)?)
        } else {
            if let Some(at) = at {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        at.span(),
                        format!("`at` has no meaning with `pass_to_stop = \"{name}\"`"),
                    )
                    .label("not used")
                    .help("`at` names the step of `pass_to_stop = \"step\"`; remove it here"),
                );
            }
            match PassUntil::from_name(name) {
                Some(command) => command,
                None => {
                    let help = match suggest(name, COMMANDS) {
                        Some(s) => format!("did you mean `{s}`? commands: {}", COMMANDS.join(", ")),
                        None => format!("commands: {}", COMMANDS.join(", ")),
                    };
                    self.diags.push(
                        Diagnostic::error(
                            "scenario::bad-value",
                            c.span(),
                            format!("`{name}` is not a pass_to_stop command"),
                        )
                        .label("here")
                        .help(help),
                    );
                    return None;
                }
            }
        };
        Some(Step::PassToStop { by, command })
    }

    pub(super) fn entry(&mut self, e: &Spanned<RawEntry>, players: u8) -> Option<Step> {
        let r = e.get_ref();
        let verbs = [
            r.pass.is_some(),
            r.pass_until.is_some(),
            r.pass_to_stop.is_some(),
            r.play.is_some(),
            r.trigger.is_some(),
            r.set_fact.is_some(),
            r.clear_fact.is_some(),
            r.answer.is_some(),
            r.on_begin.is_some(),
            r.on_resolve.is_some(),
            r.expect.is_some(),
            r.expect_illegal.is_some(),
            r.expect_events.is_some(),
            r.expect_trace.is_some(),
            r.expect_includes.is_some(),
            r.effect.is_some(),
            r.leave.is_some(),
            r.delay.is_some(),
            r.until.is_some(),
            r.add_mana.is_some(),
            r.choose.is_some(),
            r.end_effect.is_some(),
            r.declare_ending.is_some(),
            r.set_counter.is_some(),
            r.enter.is_some(),
            r.leave_play.is_some(),
            r.gain_control.is_some(),
            r.end_until.is_some(),
        ];
        let count = verbs.iter().filter(|v| **v).count();
        if count != 1 {
            self.diags.push(
                Diagnostic::error("scenario::entry", e.span(), format!("a script entry needs exactly one action or expectation, this one has {count}"))
                    .label("this entry")
                    .help("verbs: pass, pass_until, pass_to_stop, play, trigger, set_fact, clear_fact, answer, on_begin, on_resolve, effect, end_effect, leave, declare_ending, set_counter, enter, leave_play, gain_control, delay, until, end_until, add_mana, choose, expect, expect_illegal, expect_events, expect_includes, expect_trace"),
            );
            return None;
        }
        // Resolve everything before giving up, so every mistake is reported.
        let by = r.by.as_ref().and_then(|b| self.player(b, players));
        if r.by.is_some() && by.is_none() {
            if let Some(t) = &r.play {
                self.timing(t);
            }
            return None;
        }
        if let Some(p) = &r.pass {
            if p.get_ref() == "all" {
                return Some(Step::PassAll);
            }
            return self.player(p, players).map(Step::Pass);
        }
        if let Some(target) = &r.pass_until {
            let turn = r
                .turn
                .as_ref()
                .and_then(|t| self.number(t, 1_000_000, "turn"))
                .map(|t| t as u32);
            return self
                .place(target)
                .map(|target| Step::PassUntil { target, turn });
        }
        if let Some(c) = &r.pass_to_stop {
            return self.pass_to_stop(c, r.at.as_ref(), by);
        }
        if let Some(t) = &r.play {
            let timing = self.timing(t)?;
            let Some(player) = by else {
                self.diags.push(
                    Diagnostic::error("scenario::entry", t.span(), "`play` needs `by = \"P1\"`")
                        .label("who plays?"),
                );
                return None;
            };
            let label = self.label(r.label.as_ref());
            let triggers = self.triggers(&r.triggers, None);
            return Some(Step::Play {
                player,
                timing,
                label,
                triggers,
            });
        }
        if let Some(t) = &r.trigger {
            let label = self.label(Some(t));
            return Some(Step::Trigger {
                controller: by,
                label,
            });
        }
        if let Some(name) = &r.effect {
            let spec = self.spec;
            let effect = self.element(name, "effect", spec.effects())?;
            let target = match &r.target {
                Some(t) => Some(self.player(t, players)?),
                None => None,
            };
            let is_control = spec
                .effect(effect)
                .is_some_and(|e| e.kind == turnspec_spec::EffectKind::ControlTurn);
            if is_control != target.is_some() {
                let (span, msg, help) = if is_control {
                    (
                        name.span(),
                        "`control_turn` effects need `target = \"P2\"`: whose turn is controlled",
                        "add `target`",
                    )
                } else {
                    (
                        r.target.as_ref().map(|t| t.span()).unwrap_or(name.span()),
                        "only a `control_turn` effect takes a `target`",
                        "remove `target`",
                    )
                };
                self.diags
                    .push(Diagnostic::error("scenario::entry", span, msg).help(help));
                return None;
            }
            let pending = self.triggers(&r.pending, by);
            return Some(Step::Effect {
                effect,
                player: by,
                target,
                pending,
            });
        }
        if let Some(name) = &r.end_effect {
            let spec = self.spec;
            let effect = self.element(name, "effect", spec.effects())?;
            if !matches!(
                spec.effect(effect).map(|e| &e.kind),
                Some(turnspec_spec::EffectKind::LastingSkip { .. })
            ) {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        name.span(),
                        format!(
                            "effect `{}` is not lasting: it has nothing to end",
                            name.get_ref()
                        ),
                    )
                    .help(
                        "only `skip` effects with `lasting = true` last until the host ends them",
                    ),
                );
                return None;
            }
            return Some(Step::EndEffect { effect, player: by });
        }
        if let Some(p) = &r.leave {
            return self.player(p, players).map(Step::Leave);
        }
        if let Some(name) = &r.declare_ending {
            let spec = self.spec;
            let ending = self.element(name, "ending", spec.endings())?;
            return Some(Step::DeclareEnding { ending, player: by });
        }
        if let Some(name) = &r.set_counter {
            let spec = self.spec;
            let counter = self.element(name, "counter", spec.counters())?;
            let Some(v) = &r.value else {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        name.span(),
                        "`set_counter` needs `value`".to_string(),
                    )
                    .help("e.g. `set_counter = \"lore\"`, `by = \"P1\"`, `value = 20`"),
                );
                return None;
            };
            let value = self.number(v, u16::MAX as i64, "counter value")? as u16;
            return Some(Step::SetCounter {
                counter,
                player: by,
                value,
            });
        }
        if let Some(label) = &r.delay {
            let Some(at) = &r.at else {
                self.diags.push(Diagnostic::error(
                    "scenario::entry",
                    label.span(),
                    "`delay` needs `at = \"<phase or step>\"`",
                ));
                return None;
            };
            let at = self.place(at)?;
            let label = self.label(Some(label));
            let own_turn = r.own_turn.as_ref().is_some_and(|b| *b.get_ref());
            if let Some(n) = r.next_turn.as_ref().filter(|b| *b.get_ref()) {
                if own_turn {
                    self.diags.push(
                        Diagnostic::error("scenario::entry", n.span(), "`next_turn` and `own_turn` together: a trigger on your next turn is already in your own turn")
                            .help("keep `next_turn = true` only"),
                    );
                    return None;
                }
                return Some(Step::DelayNextTurn {
                    controller: by,
                    label,
                    at,
                });
            }
            return Some(Step::Delay {
                controller: by,
                label,
                at,
                own_turn,
            });
        }
        if let Some(label) = &r.until {
            let bound = match r.scope.as_ref().map(|s| s.get_ref().as_str()) {
                Some("until_next") => Some(BoundScope::UntilNext),
                Some("end_of_next_turn") => Some(BoundScope::EndOfNextTurn),
                Some("until_turn_of") => Some(BoundScope::UntilTurnOf),
                Some("through_next_turn") => Some(BoundScope::ThroughNextTurn),
                Some("during_turns_of") => Some(BoundScope::DuringTurnsOf),
                Some("from_next") => Some(BoundScope::FromNext),
                _ => None,
            };
            if let Some(scope) = bound {
                let at = match (&r.at, scope.has_place()) {
                    (None, false) => None,
                    (Some(at), false) => {
                        self.diags.push(
                            Diagnostic::error("scenario::entry", at.span(), "this scope takes no `at`: it is bound to the player's turns, not to a phase or step")
                                .help("remove `at`, or use scope `until_next`, `end_of_next_turn` or `from_next`"),
                        );
                        return None;
                    }
                    (None, true) => {
                        let span = r.scope.as_ref().map(|s| s.span()).unwrap_or(label.span());
                        self.diags.push(
                            Diagnostic::error(
                                "scenario::entry",
                                span,
                                "this scope needs `at = \"<phase or step>\"`",
                            )
                            .help("for example `at = \"upkeep\"` for \"until your next upkeep\""),
                        );
                        return None;
                    }
                    (Some(at), _) => Some(self.place(at)?),
                };
                let label = self.label(Some(label));
                return Some(Step::UntilBound {
                    label,
                    scope,
                    at,
                    player: by,
                });
            }
            let known = matches!(
                r.scope.as_ref().map(|s| s.get_ref().as_str()),
                None | Some("step" | "phase" | "turn")
            );
            if let Some(at) = r.at.as_ref().filter(|_| known) {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        at.span(),
                        "`at` is only for scopes bound to a player's turn",
                    )
                    .help("scopes with `at`: until_next, end_of_next_turn, from_next"),
                );
                return None;
            }
            let scope = match r.scope.as_ref().map(|s| s.get_ref().as_str()) {
                Some("step") => Scope::Step,
                Some("phase") => Scope::Phase,
                Some("turn") | None => Scope::Turn,
                Some(other) => {
                    let span = r.scope.as_ref().map(|s| s.span()).unwrap_or(label.span());
                    self.diags.push(
                        Diagnostic::error(
                            "scenario::bad-value",
                            span,
                            format!("unknown scope `{other}`"),
                        )
                        .help("scopes: step, phase, turn, until_next, end_of_next_turn, until_turn_of, through_next_turn, during_turns_of, from_next"),
                    );
                    return None;
                }
            };
            let label = self.label(Some(label));
            return Some(Step::Until { label, scope });
        }
        if let Some(l) = &r.end_until {
            let label = self.label(Some(l));
            return Some(Step::EndUntil { label });
        }
        if let Some(l) = &r.choose {
            let Some(by) = &r.by else {
                self.diags.push(
                    Diagnostic::error("scenario::entry", e.span(), "`choose` needs `by = \"P1\"`")
                        .help("the player who resolves the trigger from the bag"),
                );
                return None;
            };
            let player = self.player(by, players)?;
            let label = self.label(Some(l));
            return Some(Step::Choose { player, label });
        }
        if let Some(p) = &r.add_mana {
            let player = self.player(p, players)?;
            let amount = r
                .value
                .as_ref()
                .and_then(|v| self.number(v, u16::MAX as i64, "mana"))
                .unwrap_or(1) as u16;
            return Some(Step::AddMana { player, amount });
        }
        for (name, value) in [(&r.set_fact, true), (&r.clear_fact, false)] {
            let Some(f) = name else { continue };
            if let Some(object) = &r.label {
                // A fact of one object in play.
                let spec = self.spec;
                let fact = self.element(f, "object fact", spec.object_facts())?;
                let object = self.label(Some(object));
                return Some(Step::SetObjectFact {
                    object,
                    fact,
                    value,
                });
            }
            return self.fact(f).map(|fact| Step::SetFact { fact, value });
        }
        for (name, verb) in [(&r.enter, "enter"), (&r.gain_control, "gain_control")] {
            let Some(o) = name else { continue };
            let Some(controller) = by else {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        o.span(),
                        format!("`{verb}` needs `by = \"P1\"`"),
                    )
                    .label("who controls it?"),
                );
                return None;
            };
            let object = self.label(Some(o));
            return Some(match verb {
                "enter" => Step::Enter { object, controller },
                _ => Step::GainControl { object, controller },
            });
        }
        if let Some(o) = &r.leave_play {
            let object = self.label(Some(o));
            return Some(Step::LeavePlay { object });
        }
        if let Some(a) = &r.answer {
            let action = self.action(a)?;
            let value = r
                .value
                .as_ref()
                .and_then(|v| self.number(v, u16::MAX as i64, "answer"))
                .unwrap_or(0) as u16;
            let triggers = self.triggers(&r.triggers, by);
            return Some(Step::Answer {
                action,
                value,
                triggers,
            });
        }
        if let Some(s) = &r.on_begin {
            let step = self.step_id(s)?;
            let triggers = self.triggers(&r.triggers, by);
            return Some(Step::OnBegin { step, triggers });
        }
        if let Some(l) = &r.on_resolve {
            let label = self.label(Some(l));
            let triggers = self.triggers(&r.triggers, by);
            return Some(Step::OnResolve { label, triggers });
        }
        if let Some(x) = &r.expect {
            return Some(Step::Expect(self.expect(x.get_ref(), players)));
        }
        if let Some(x) = &r.expect_illegal {
            let x = x.get_ref();
            let player = match &x.by {
                Some(b) => self.player(b, players)?,
                None => match &x.pass {
                    Some(p) => self.player(p, players)?,
                    None => {
                        self.diags.push(Diagnostic::error(
                            "scenario::entry",
                            e.span(),
                            "`expect_illegal` needs `by = \"P1\"`",
                        ));
                        return None;
                    }
                },
            };
            let action = match (&x.play, &x.pass) {
                (Some(t), _) => {
                    let timing = self.timing(t)?;
                    Illegal::Play(player, timing, self.label(x.label.as_ref()))
                }
                (None, Some(_)) => Illegal::Pass(player),
                (None, None) => {
                    self.diags.push(Diagnostic::error(
                        "scenario::entry",
                        e.span(),
                        "`expect_illegal` needs `play = \"<timing>\"` or `pass = \"P1\"`",
                    ));
                    return None;
                }
            };
            if let Some(reason) = &x.reason
                && !EXPECT_ILLEGAL_REASONS.contains(&reason.get_ref().as_str())
            {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::bad-value",
                        reason.span(),
                        format!("unknown reason `{}`", reason.get_ref()),
                    )
                    .help(format!("reasons: {}", EXPECT_ILLEGAL_REASONS.join(", "))),
                );
            }
            return Some(Step::ExpectIllegal {
                action,
                rule: x.rule.as_ref().map(|r| r.get_ref().clone()),
                reason: x.reason.as_ref().map(|r| r.get_ref().clone()),
            });
        }
        // The first list of expected lines given, normalised.
        type Lines = fn(Vec<String>) -> Step;
        let lines: [(_, Lines); 3] = [
            (&r.expect_events, Step::ExpectEvents),
            (&r.expect_includes, Step::ExpectIncludes),
            (&r.expect_trace, Step::ExpectTrace),
        ];
        lines.into_iter().find_map(|(list, step)| {
            let list = list.as_ref()?.get_ref();
            Some(step(list.iter().map(|s| normalise(s.get_ref())).collect()))
        })
    }
}

//! How the game ends: `[game_end]`, `[endings.ID]` (declared by the host,
//! or checked at points of the turn and after turn-based actions), and a
//! window's `refuse_pass`.

use std::fmt::Write as _;

use super::*;

const POINTS: [(&str, Feature); 4] = [
    ("turn_start", Feature::EndingAtTurnStart),
    ("step_end", Feature::EndingAtStepEnd),
    ("turn_end", Feature::EndingAtTurnEnd),
    ("counter_set", Feature::EndingAtCounterSet),
];

impl Gen<'_> {
    /// `[game_end]` now and then, and up to three endings in half the
    /// specs. Written last: `after` names turn-based actions of the phases.
    pub(super) fn write_endings(&mut self) {
        if self.chance(1, 3) {
            self.f.set(Feature::GameEnd);
            self.out.push_str("\n[game_end]\n");
            for k in ["last_side_rule", "leave_rule"] {
                if self.chance(2, 3) {
                    let r = self.rule();
                    let _ = writeln!(self.out, "{k} = \"{r}\"");
                }
            }
        }
        if !self.chance(1, 2) {
            return;
        }
        for i in 0..1 + self.below(3) {
            self.write_ending(i);
        }
    }

    fn write_ending(&mut self, i: u64) {
        self.f.set(Feature::Ending);
        let _ = writeln!(self.out, "\n[endings.e{i}]");
        let result = match self.below(3) {
            0 => {
                self.f.set(Feature::EndingWins);
                "wins"
            }
            1 => {
                self.f.set(Feature::EndingLoses);
                "loses"
            }
            _ => {
                self.f.set(Feature::EndingDraw);
                "draw"
            }
        };
        let _ = writeln!(self.out, "result = \"{result}\"");
        if self.chance(3, 4) {
            let r = self.rule();
            let _ = writeln!(self.out, "rule = \"{r}\"");
        }
        if self.chance(1, 3) {
            let _ = writeln!(self.out, "name = \"Ending {i}\"");
        }
        if self.chance(1, 4) {
            self.f.set(Feature::EndingDeclared);
            return;
        }
        // Checked: where, then what.
        // Half the time after an action that answers a counter, which
        // the condition then reads (as Pokémon's `could_not_draw`).
        let answering: Vec<usize> = (0..self.actions.len())
            .filter(|a| self.actions[*a].1.is_some())
            .collect();
        let after = if !self.actions.is_empty() && self.chance(1, 3) {
            let a = if !answering.is_empty() && self.chance(1, 2) {
                *self.pick(&answering)
            } else {
                self.below(self.actions.len() as u64) as usize
            };
            Some(self.actions[a].clone())
        } else {
            None
        };
        let mut at = Vec::new();
        for (name, f) in POINTS {
            if self.chance(1, 3) {
                self.f.set(f);
                at.push(name);
            }
        }
        let omit_at = at.is_empty() || self.chance(1, 6);
        let cond = self.end_cond(after.as_ref().and_then(|(_, c)| c.clone()));
        let _ = writeln!(self.out, "if = {}", Self::quoted(&cond));
        if self.chance(1, 3) {
            self.f.set(Feature::EndingEachPlayer);
            self.out.push_str("for = \"each_player\"\n");
        } else if self.chance(1, 4) {
            self.out.push_str("for = \"active_player\"\n");
        }
        if let Some((action, _)) = &after {
            self.f.set(Feature::EndingAfter);
            let _ = writeln!(self.out, "after = \"{action}\"");
            if omit_at {
                self.f.set(Feature::EndingAfterOnly);
            }
        } else if omit_at {
            self.f.set(Feature::EndingAtOmitted);
        }
        if !omit_at {
            let _ = writeln!(self.out, "at = [\"{}\"]", at.join("\", \""));
        }
    }

    /// An ending's condition: mostly a counter reaching a value or a fact,
    /// which the host changes, so games do not all end at once.
    fn end_cond(&mut self, answered: Option<String>) -> String {
        loop {
            return match self.below(8) {
                0 | 1 if !self.counters.is_empty() => {
                    self.f.set(Feature::EndingIfCounter);
                    self.f.set(Feature::CondCounter);
                    let c = self.below(self.counters.len() as u64) as usize;
                    let name = format!("counter.{}", self.counters[c].id);
                    if self.chance(1, 4) {
                        self.cmp(&name, 0, 3)
                    } else {
                        let op = *self.pick(&[">=", "=="]);
                        let n = 1 + self.below(3);
                        format!("{name} {op} {n}")
                    }
                }
                2..=4 if answered.is_some() => {
                    self.f.set(Feature::EndingAfterAnswer);
                    self.f.set(Feature::EndingIfCounter);
                    self.f.set(Feature::CondCounter);
                    let c = answered.clone().unwrap_or_default();
                    format!("counter.{c} == 1")
                }
                4 | 5 if !self.facts.is_empty() => {
                    self.f.set(Feature::EndingIfFact);
                    self.f.set(Feature::CondFact);
                    let v = self.below(self.facts.len() as u64) as usize;
                    if self.chance(1, 4) {
                        self.f.set(Feature::CondNot);
                        format!("not fact.{}", self.facts[v])
                    } else {
                        format!("fact.{}", self.facts[v])
                    }
                }
                6 => {
                    self.f.set(Feature::EndingIfOther);
                    self.cond(1)
                }
                7 if !self.facts.is_empty() => {
                    self.f.set(Feature::EndingIfFact);
                    self.f.set(Feature::EndingIfOther);
                    self.f.set(Feature::CondFact);
                    self.f.set(Feature::CondAnd);
                    self.f.set(Feature::CondParens);
                    let v = self.below(self.facts.len() as u64) as usize;
                    let c = self.cond(1);
                    format!("fact.{} and ({c})", self.facts[v])
                }
                _ => continue,
            };
        }
    }

    /// `, refuse_pass = [...]` for a window: one or two conditions, mostly
    /// on a fact or a counter (which the host changes, so the window does
    /// not refuse every pass for ever).
    pub(super) fn refuse_pass(&mut self) -> String {
        self.f.set(Feature::RefusePass);
        let n = if self.chance(1, 4) {
            self.f.set(Feature::RefusePassTwo);
            2
        } else {
            1
        };
        let mut parts = Vec::new();
        for _ in 0..n {
            let c = match self.below(4) {
                0 if !self.facts.is_empty() => {
                    self.f.set(Feature::CondFact);
                    let v = self.below(self.facts.len() as u64) as usize;
                    format!("fact.{}", self.facts[v])
                }
                1 if !self.counters.is_empty() => {
                    self.f.set(Feature::CondCounter);
                    let c = self.below(self.counters.len() as u64) as usize;
                    let n = 1 + self.below(2);
                    format!("counter.{} >= {n}", self.counters[c].id)
                }
                _ => self.cond(1),
            };
            let r = self.rule();
            parts.push(format!("{{ if = {}, rule = \"{r}\" }}", Self::quoted(&c)));
        }
        format!(", refuse_pass = [{}]", parts.join(", "))
    }
}

//! Conditions and `skip` lists that always name something from the game.

use super::*;

impl Gen<'_> {
    /// One condition, naming something from the game at least once.
    pub(super) fn cond(&mut self, depth: u32) -> String {
        let r = if depth < 2 { self.below(10) } else { 9 };
        match r {
            0 => {
                self.f.set(Feature::CondNot);
                let inner = self.cond(depth + 1);
                if inner.contains(' ') {
                    self.f.set(Feature::CondParens);
                    format!("not ({inner})")
                } else {
                    format!("not {inner}")
                }
            }
            1 | 2 => {
                let and = self.chance(1, 2);
                self.f.set(if and {
                    Feature::CondAnd
                } else {
                    Feature::CondOr
                });
                let a = self.cond(depth + 1);
                let b = self.cond(depth + 1);
                let wrap = |g: &mut Self, s: String| {
                    if s.contains(" or ") || (s.contains(" and ") && g.chance(1, 3)) {
                        g.f.set(Feature::CondParens);
                        format!("({s})")
                    } else {
                        s
                    }
                };
                let a = wrap(self, a);
                let b = wrap(self, b);
                format!("{a} {} {b}", if and { "and" } else { "or" })
            }
            _ => self.atom(),
        }
    }

    pub(super) fn cmp(&mut self, name: &str, lo: u64, hi: u64) -> String {
        let op = *self.pick(&["==", "!=", "<", "<=", ">", ">="]);
        let n = lo + self.below(hi - lo + 1);
        format!("{name} {op} {n}")
    }

    pub(super) fn atom(&mut self) -> String {
        loop {
            let max = self.max_players as u64;
            let s = match self.below(21) {
                0 => {
                    self.f.set(Feature::CondPlayers);
                    self.cmp("players", 1, max)
                }
                1 => {
                    self.f.set(Feature::CondTeams);
                    self.cmp("teams", 1, max)
                }
                2 => {
                    self.f.set(Feature::CondTurn);
                    self.cmp("turn", 1, 4)
                }
                3 => {
                    self.f.set(Feature::CondFirstTurn);
                    "first_turn".into()
                }
                4 => {
                    self.f.set(Feature::CondStartingPlayer);
                    "starting_player".into()
                }
                5 => {
                    self.f.set(Feature::CondSeat);
                    self.cmp("seat", 1, max)
                }
                6 => {
                    self.f.set(Feature::CondPhaseNumber);
                    self.cmp("phase_number", 1, 3)
                }
                7 => {
                    self.f.set(Feature::CondRepeatCount);
                    self.cmp("repeat_count", 0, 2)
                }
                8 => {
                    self.f.set(Feature::CondWindowOpened);
                    "window_opened".into()
                }
                9 => {
                    self.f.set(Feature::CondStackEmpty);
                    "stack_empty".into()
                }
                10 => {
                    self.f.set(Feature::CondStackDepth);
                    self.cmp("stack_depth", 0, 2)
                }
                11 => {
                    self.f.set(Feature::CondTopIs);
                    let c = self.below(self.classes.len() as u64) as usize;
                    format!("top_is.{}", self.classes[c].id)
                }
                12 if !self.attrs.is_empty() => {
                    self.f.set(Feature::CondTop);
                    let a = *self.pick(&self.attrs.clone());
                    self.cmp(&format!("top.{a}"), 0, 3)
                }
                13 => {
                    let before = self.cur_phase.unwrap_or(self.phases.len());
                    let opt: Vec<usize> = (0..before)
                        .filter(|i| self.phases[*i].kind == PhaseKind::Optional)
                        .collect();
                    if opt.is_empty() {
                        continue;
                    }
                    self.f.set(Feature::CondElected);
                    let p = *self.pick(&opt);
                    format!("elected.{}", self.phases[p].id)
                }
                14 => {
                    self.f.set(Feature::CondExtraTurnNext);
                    "extra_turn_next".into()
                }
                19 => {
                    self.f.set(Feature::CondExtraTurn);
                    "extra_turn".into()
                }
                15 if !self.variants.is_empty() => {
                    self.f.set(Feature::CondVariant);
                    let v = self.below(self.variants.len() as u64) as usize;
                    format!("variant.{}", self.variants[v])
                }
                16 if !self.facts.is_empty() => {
                    self.f.set(Feature::CondFact);
                    let v = self.below(self.facts.len() as u64) as usize;
                    format!("fact.{}", self.facts[v])
                }
                17 | 18 if !self.counters.is_empty() => {
                    self.f.set(Feature::CondCounter);
                    let c = self.below(self.counters.len() as u64) as usize;
                    let name = format!("counter.{}", self.counters[c].id);
                    self.cmp(&name, 0, 3)
                }
                20 if !self.roles.is_empty() => {
                    self.f.set(Feature::CondRole);
                    let r = self.below(self.roles.len() as u64) as usize;
                    let name = format!("role.{}", self.roles[r].id);
                    match self.below(3) {
                        0 => {
                            self.f.set(Feature::CondSeat);
                            format!("{name} == seat")
                        }
                        1 => name,
                        _ => self.cmp(&name, 1, max),
                    }
                }
                _ => continue,
            };
            return s;
        }
    }

    pub(super) fn quoted(s: &str) -> String {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    }

    pub(super) fn skips(&mut self) -> String {
        let n = 1 + self.below(2);
        let mut parts = Vec::new();
        for _ in 0..n {
            let c = self.cond(0);
            let r = self.rule();
            parts.push(format!("{{ if = {}, rule = \"{r}\" }}", Self::quoted(&c)));
        }
        format!("[{}]", parts.join(", "))
    }

    // ------------------------------------------------------------------ write
}

//! Structural effects (`[effects.*]`).

use std::fmt::Write as _;

use super::*;

impl Gen<'_> {
    pub(super) fn write_effects(&mut self) {
        let regular: Vec<String> = self
            .phases
            .iter()
            .filter(|p| p.kind == PhaseKind::Regular)
            .map(|p| p.id.clone())
            .collect();
        let regular_steps = self.steps_of(|k| k == PhaseKind::Regular);
        for i in 0..self.below(7) {
            let id = format!("e{i}");
            let r = self.rule();
            let _ = writeln!(self.out, "\n[effects.{id}]\nrule = \"{r}\"");
            let mut own_turn_ok = true;
            match self.below(11) {
                0 => {
                    self.f.set(Feature::ExtraTurn);
                    self.out.push_str("kind = \"extra_turn\"\n");
                    if self.chance(1, 3) {
                        self.f.set(Feature::ExtraTurnEach);
                        self.out.push_str("for = \"each_player\"\n");
                    }
                }
                1 => {
                    self.f.set(Feature::ExtraPhases);
                    let n = 1 + self.below(2);
                    let list: Vec<String> = (0..n)
                        .map(|_| format!("\"{}\"", self.pick(&regular)))
                        .collect();
                    let _ = writeln!(
                        self.out,
                        "kind = \"extra_phases\"\nphases = [{}]",
                        list.join(", ")
                    );
                }
                2 => {
                    let s = self.pick(&regular_steps).clone();
                    let after = if self.chance(1, 2) {
                        self.f.set(Feature::ExtraStep);
                        "this_step"
                    } else {
                        self.f.set(Feature::ExtraStepPhase);
                        "this_phase"
                    };
                    let _ = writeln!(
                        self.out,
                        "kind = \"extra_step\"\nstep = \"{s}\"\nafter = \"{after}\""
                    );
                }
                3 | 4 => {
                    self.out.push_str("kind = \"skip\"\n");
                    let what = self.below(3);
                    match what {
                        0 => {
                            self.f.set(Feature::SkipStep);
                            let all = self.steps_of(|k| k != PhaseKind::Between);
                            let s = self.pick(&all).clone();
                            let _ = writeln!(self.out, "step = \"{s}\"");
                        }
                        1 => {
                            self.f.set(Feature::SkipPhase);
                            let all: Vec<String> =
                                self.phases.iter().map(|p| p.id.clone()).collect();
                            let p = self.pick(&all).clone();
                            let _ = writeln!(self.out, "phase = \"{p}\"");
                        }
                        _ => {
                            self.f.set(Feature::SkipTurn);
                            self.out.push_str("turn = true\n");
                        }
                    }
                    if self.chance(1, 3) {
                        self.f.set(Feature::SkipLasting);
                        self.out.push_str("lasting = true\n");
                        if what != 2 && self.chance(1, 2) {
                            self.f.set(Feature::SkipLastingEach);
                            self.out.push_str("for = \"each_player\"\n");
                        }
                    }
                }
                5 => {
                    self.f.set(Feature::EndTurn);
                    let s = self.pick(&regular_steps).clone();
                    let _ = writeln!(self.out, "kind = \"end_turn\"\ngoto = \"{s}\"");
                }
                6 => {
                    self.f.set(Feature::EndPhase);
                    let p = self.below(self.phases.len() as u64) as usize;
                    let _ = writeln!(
                        self.out,
                        "kind = \"end_phase\"\nphase = \"{}\"",
                        self.phases[p].id
                    );
                    if self.phases[p].with_steps && self.chance(1, 2) {
                        self.f.set(Feature::EndPhaseGoto);
                        let steps: Vec<String> = self.phases[p]
                            .steps
                            .iter()
                            .filter(|s| !s.on_demand)
                            .map(|s| s.id.clone())
                            .collect();
                        let s = self.pick(&steps).clone();
                        let _ = writeln!(self.out, "goto = \"{s}\"");
                    }
                }
                7 if !self.counters.is_empty() => {
                    self.f.set(Feature::Grant);
                    let c = self.below(self.counters.len() as u64) as usize;
                    let amount = self.below(3);
                    let _ = writeln!(
                        self.out,
                        "kind = \"grant\"\ncounter = \"{}\"\namount = {amount}",
                        self.counters[c].id
                    );
                }
                8 => {
                    self.f.set(Feature::Reverse);
                    self.out.push_str("kind = \"reverse_turn_order\"\n");
                }
                9 => {
                    self.f.set(Feature::ControlTurn);
                    self.out.push_str("kind = \"control_turn\"\n");
                    own_turn_ok = false;
                }
                _ => {
                    self.f.set(Feature::ExtraTurn);
                    self.out.push_str("kind = \"extra_turn\"\n");
                }
            }
            if own_turn_ok && self.chance(1, 5) {
                self.f.set(Feature::OwnTurnOnly);
                let r = self.rule();
                let _ = writeln!(self.out, "own_turn_only = true\nown_turn_rule = \"{r}\"");
            }
        }
    }
}

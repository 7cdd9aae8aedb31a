//! Planning a spec's shape before any text is written: ids, phases,
//! steps, which stages are windows, counters, timing classes.

use super::*;

impl Gen<'_> {
    pub(super) fn plan(&mut self) {
        let nf = self.below(4) as usize;
        self.facts = (0..nf).map(|i| format!("f{i}")).collect();
        let nv = self.below(3) as usize;
        self.variants = (0..nv).map(|i| format!("v{i}")).collect();
        let nc = self.below(6) as usize;
        let mut per = 0;
        for i in 0..nc {
            let per_player = per < 2 && self.chance(1, 5);
            per += per_player as u32;
            let resource = !self.plain && self.chance(1, 3);
            self.counters.push(CounterPlan {
                id: format!("c{i}"),
                resource,
                per_player,
            });
        }
        self.bag = !self.plain && self.chance(1, 3);

        // Phases: regular (and optional) in turn order, on-demand and
        // between-turns ones placed anywhere in the file.
        let n_regular = 1 + self.below(6) as usize;
        let n_optional = if !self.plain && self.chance(1, 2) {
            1 + self.below(2) as usize
        } else {
            0
        };
        let n_on_demand = if self.chance(1, 2) {
            1 + self.below(3) as usize
        } else {
            0
        };
        let n_between = if !self.plain && self.chance(1, 3) {
            1 + self.below(2) as usize
        } else {
            0
        };
        let mut kinds = vec![PhaseKind::Regular; n_regular];
        for _ in 0..n_optional {
            let at = self.below(kinds.len() as u64 + 1) as usize;
            kinds.insert(at, PhaseKind::Optional);
        }
        for _ in 0..n_on_demand {
            let at = self.below(kinds.len() as u64 + 1) as usize;
            kinds.insert(at, PhaseKind::OnDemand);
        }
        for _ in 0..n_between {
            let at = self.below(kinds.len() as u64 + 1) as usize;
            kinds.insert(at, PhaseKind::Between);
        }
        let regular_at: Vec<usize> = (0..kinds.len())
            .filter(|i| kinds[*i] == PhaseKind::Regular)
            .collect();
        let anchor = *self.pick(&regular_at);
        let mut step_n = 0;
        let mut action_n = 0;
        let mut rank = 0;
        for (i, &kind) in kinds.iter().enumerate() {
            let id = format!("p{i}");
            let with_steps = self.chance(3, 5);
            let n_steps = if with_steps {
                1 + self.below(4) as usize
            } else {
                1
            };
            let mut steps = Vec::new();
            for _ in 0..n_steps {
                let sid = if with_steps {
                    step_n += 1;
                    format!("s{}", step_n - 1)
                } else {
                    id.clone()
                };
                let tags = if with_steps && self.chance(1, 5) {
                    vec![*self.pick(TAGS)]
                } else {
                    Vec::new()
                };
                let form1 = self.chance(1, 2);
                let mut stages = Vec::new();
                if form1 {
                    for _ in 0..self.below(4) {
                        action_n += 1;
                        stages.push(Stage::Action(format!("a{}", action_n - 1)));
                    }
                    match self.below(3) {
                        0 => stages.push(Stage::Window(Win::Always)),
                        1 => stages.push(Stage::Window(Win::IfPending)),
                        _ => {}
                    }
                } else {
                    for _ in 0..1 + self.below(5) {
                        if self.chance(1, 2) {
                            action_n += 1;
                            stages.push(Stage::Action(format!("a{}", action_n - 1)));
                        } else if self.chance(1, 2) {
                            stages.push(Stage::Window(Win::Always));
                        } else {
                            stages.push(Stage::Window(Win::IfPending));
                        }
                    }
                }
                steps.push(StepPlan {
                    id: sid,
                    on_demand: false,
                    tags,
                    form1,
                    stages,
                });
            }
            let mut anchor_step = None;
            if i == anchor {
                // The anchor opens a window every time it comes.
                let s = self.below(steps.len() as u64) as usize;
                anchor_step = Some(s);
                if !steps[s]
                    .stages
                    .iter()
                    .any(|st| matches!(st, Stage::Window(Win::Always)))
                {
                    if steps[s].form1 {
                        steps[s].stages.retain(|st| matches!(st, Stage::Action(_)));
                    }
                    steps[s].stages.push(Stage::Window(Win::Always));
                }
            }
            // Some steps of a phase with two or more are on demand: run
            // only by a play at a class with `steps`. One step stays
            // regular (the anchor's, if any) and has a window, where such
            // plays are made (a phase cannot have all its steps on demand).
            if with_steps && steps.len() >= 2 && self.chance(1, 3) {
                let n = steps.len();
                let keep = anchor_step.unwrap_or_else(|| self.below(n as u64) as usize);
                let mut any = false;
                for (k, st) in steps.iter_mut().enumerate() {
                    if k != keep && self.rng.below(2) == 0 {
                        st.on_demand = true;
                        any = true;
                    }
                }
                if !any {
                    let k = (keep + 1 + self.below(n as u64 - 1) as usize) % n;
                    steps[k].on_demand = true;
                }
                if !steps[keep].has_window() {
                    let w = if self.chance(2, 3) {
                        Win::Always
                    } else {
                        Win::IfPending
                    };
                    steps[keep].stages.push(Stage::Window(w));
                }
            }
            let tags = if self.chance(1, 4) {
                vec![*self.pick(TAGS)]
            } else {
                Vec::new()
            };
            let counts_as = if self.chance(1, 3) {
                Some(*self.pick(KINDS))
            } else {
                None
            };
            let r = if kind == PhaseKind::OnDemand {
                rank += 1;
                rank
            } else {
                0
            };
            self.phases.push(PhasePlan {
                id,
                kind,
                with_steps,
                steps,
                tags,
                counts_as,
                anchor: i == anchor,
                rank: r,
            });
        }
        // At most 8 phase kinds: give the rest a shared kind.
        let mut own = self.phases.iter().filter(|p| p.counts_as.is_none()).count();
        let shared = |p: &[PhasePlan]| {
            KINDS
                .iter()
                .filter(|k| p.iter().any(|x| x.counts_as == Some(**k)))
                .count()
        };
        for p in 0..self.phases.len() {
            if own + shared(&self.phases) <= 8 {
                break;
            }
            if self.phases[p].counts_as.is_none() {
                self.phases[p].counts_as = Some(KINDS[0]);
                own -= 1;
            }
        }
        for p in &self.phases {
            if p.counts_as.is_some() {
                self.f.set(Feature::CountsAs);
            }
        }

        // Timing classes: one starting each on-demand phase, one electing
        // each optional phase, some general ones, now and then one nobody
        // may use (for turn-based actions' plays).
        let mut roles = Vec::new();
        for (i, p) in self.phases.iter().enumerate() {
            match p.kind {
                PhaseKind::OnDemand => roles.push(Role::StartPhase(i)),
                PhaseKind::Optional => roles.push(Role::Enters(i)),
                _ => {}
            }
        }
        for _ in 0..1 + self.below(5) {
            roles.push(Role::General);
        }
        // A class running the steps of a phase that has on-demand ones,
        // now and then, at most three.
        for (i, p) in self.phases.iter().enumerate() {
            let on_demand: Vec<usize> = (0..p.steps.len())
                .filter(|s| p.steps[*s].on_demand)
                .collect();
            let n = roles
                .iter()
                .filter(|r| matches!(r, Role::Steps(..)))
                .count();
            if !on_demand.is_empty() && n < 3 && self.rng.below(4) != 0 {
                let s = on_demand[self.rng.below(on_demand.len() as u64) as usize];
                roles.push(Role::Steps(i, s));
            }
        }
        if self.chance(1, 3) {
            roles.push(Role::Nobody);
        }
        for (i, role) in roles.into_iter().enumerate() {
            self.classes.push(ClassPlan {
                id: format!("t{i}"),
                role,
            });
        }
        // Seat roles in a third of the specs (the model keeps four).
        if self.chance(1, 3) {
            for i in 0..1 + self.below(3) {
                self.roles.push(RolePlan {
                    id: format!("r{i}"),
                });
            }
        }
        if self.chance(1, 3) {
            self.attrs.push(ATTRS[0]);
            if self.chance(1, 2) {
                self.attrs.push(ATTRS[1]);
            }
        }
    }

    // ------------------------------------------------------------- conditions
}

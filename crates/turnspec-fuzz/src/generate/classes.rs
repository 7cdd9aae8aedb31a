//! Timing classes (`[timing.*]`), where their windows are, and limits.

use std::fmt::Write as _;

use super::*;

impl Gen<'_> {
    /// Places (phase ids, step ids, tags) whose steps have a window, in
    /// phases `keep` accepts; tags only when `tags`.
    pub(super) fn window_places(
        &self,
        keep: impl Fn(&PhasePlan) -> bool,
        tags: bool,
    ) -> Vec<(String, Feature)> {
        let mut out = Vec::new();
        for p in self.phases.iter().filter(|p| keep(p)) {
            if !p.has_window() {
                continue;
            }
            out.push((p.id.clone(), Feature::DuringPhase));
            if tags {
                for t in &p.tags {
                    out.push((t.to_string(), Feature::DuringTag));
                }
            }
            if p.with_steps {
                for s in p.steps.iter().filter(|s| s.has_window()) {
                    out.push((s.id.clone(), Feature::DuringStep));
                    if tags {
                        for t in &s.tags {
                            out.push((t.to_string(), Feature::DuringTag));
                        }
                    }
                }
            }
        }
        out
    }

    pub(super) fn write_class(&mut self, i: usize) {
        self.f.set(Feature::Timing);
        let id = self.classes[i].id.clone();
        let role = self.classes[i].role;
        let r = self.rule();
        let _ = writeln!(self.out, "\n[timing.{id}]\nrule = \"{r}\"");
        if role == Role::Nobody {
            self.f.set(Feature::WhoNobody);
            self.out.push_str("who = \"nobody\"\n");
            if self.chance(1, 2) {
                self.f.set(Feature::EffectSpecial);
                self.out.push_str("effect = \"special\"\n");
            }
            self.write_limit();
            return;
        }
        // A plain class (the engine's fast path for plays): anyone, onto
        // the stack, nothing else.
        let plain = self.plain && role == Role::General && self.chance(1, 2);
        let who = if plain {
            0
        } else if self.roles.is_empty() {
            self.below(4)
        } else {
            self.below(5)
        };
        match who {
            0 => {
                self.f.set(Feature::WhoAny);
                if self.chance(1, 2) {
                    self.out.push_str("who = \"any\"\n");
                }
            }
            1 | 2 => {
                self.f.set(Feature::WhoActive);
                self.out.push_str("who = \"active_player\"\n");
            }
            3 => {
                self.f.set(Feature::WhoNonActive);
                self.out.push_str("who = \"non_active_player\"\n");
            }
            _ => {
                self.f.set(Feature::WhoRole);
                let r = self.below(self.roles.len() as u64) as usize;
                let _ = writeln!(self.out, "who = \"{}\"", self.roles[r].id);
            }
        }
        if self.chance(1, 3) {
            self.f.set(Feature::Rules);
            let (a, b, c) = (self.rule(), self.rule(), self.rule());
            let _ = writeln!(
                self.out,
                "who_rule = \"{a}\"\nstack_rule = \"{b}\"\nduring_rule = \"{c}\""
            );
        }
        if !plain && self.chance(1, 3) {
            self.f.set(Feature::StackEmpty);
            self.out.push_str("stack = \"empty\"\n");
        }
        // Where it may be used.
        let places = match role {
            Role::StartPhase(target) => {
                let rank = self.phases[target].rank;
                self.window_places(|p| p.kind != PhaseKind::OnDemand || p.rank < rank, false)
            }
            // A class running steps is used in windows of their phase
            // (its regular steps', or the on-demand steps' while they run).
            Role::Steps(target, _) => {
                self.window_places(|p| std::ptr::eq(p, &self.phases[target]), false)
            }
            _ => self.window_places(|_| true, true),
        };
        let omit = matches!(role, Role::General | Role::Enters(_)) && self.chance(1, 4);
        let mut chosen: Vec<String> = Vec::new();
        if omit || places.is_empty() {
            self.f.set(Feature::DuringAll);
        } else {
            let n = 1 + self.below(3);
            for _ in 0..n {
                let (p, feat) = self.pick(&places).clone();
                if !chosen.contains(&p) {
                    self.f.set(feat);
                    chosen.push(p);
                }
            }
            if let Role::Steps(target, _) = role {
                let p = &self.phases[target];
                let regular = chosen.iter().any(|c| {
                    *c == p.id
                        || p.steps
                            .iter()
                            .any(|s| s.id == *c && !s.on_demand && s.has_window())
                });
                if !regular {
                    chosen.push(p.id.clone());
                }
            }
            let list: Vec<String> = chosen.iter().map(|s| format!("\"{s}\"")).collect();
            let _ = writeln!(self.out, "during = [{}]", list.join(", "));
        }
        match role {
            Role::StartPhase(target) => {
                self.f.set(Feature::EffectStartPhase);
                if chosen.iter().any(|c| {
                    self.phases.iter().any(|q| {
                        q.kind == PhaseKind::OnDemand
                            && (q.id == *c || q.steps.iter().any(|s| s.id == *c))
                    })
                }) {
                    self.f.set(Feature::OnDemandNested);
                }
                let _ = writeln!(
                    self.out,
                    "effect = \"start_phase\"\nphase = \"{}\"",
                    self.phases[target].id
                );
            }
            _ if plain => {
                self.f.set(Feature::EffectStack);
                if i == 0 && !self.attrs.is_empty() {
                    self.f.set(Feature::Attributes);
                    let list: Vec<String> = self.attrs.iter().map(|a| format!("{a} = 1")).collect();
                    let _ = writeln!(self.out, "attributes = {{ {} }}", list.join(", "));
                }
                return;
            }
            _ => {
                let special = self.chance(1, 2);
                if special {
                    self.f.set(Feature::EffectSpecial);
                    self.out.push_str("effect = \"special\"\n");
                } else {
                    self.f.set(Feature::EffectStack);
                    if self.chance(1, 2) {
                        self.out.push_str("effect = \"stack\"\n");
                    }
                }
                if let Role::Steps(p, st) = role {
                    self.f.set(if special {
                        Feature::StepsSpecial
                    } else {
                        Feature::StepsStack
                    });
                    let _ = writeln!(self.out, "steps = \"{}\"", self.phases[p].steps[st].id);
                }
            }
        }
        if let Role::Enters(target) = role {
            self.f.set(Feature::Enters);
            let _ = writeln!(self.out, "enters = \"{}\"", self.phases[target].id);
        }
        // Who holds priority after the play, a role it claims, and a play
        // that is also its player's pass for the rest of the window.
        if self.chance(1, 5) {
            self.f.set(Feature::ClassAfter);
            let a = *self.pick(&["actor", "next_player", "active_player"]);
            let _ = writeln!(self.out, "after = \"{a}\"");
            if self.chance(1, 2) {
                let r = self.rule();
                let _ = writeln!(self.out, "after_rule = \"{r}\"");
            }
        }
        if !self.roles.is_empty() && self.chance(1, 4) {
            self.f.set(Feature::ClassClaims);
            let r = self.below(self.roles.len() as u64) as usize;
            let _ = writeln!(self.out, "claims = \"{}\"", self.roles[r].id);
        }
        if !matches!(role, Role::StartPhase(_)) && self.chance(1, 6) {
            self.f.set(Feature::ClassPasses);
            self.out.push_str("passes = \"rest_of_window\"\n");
        }
        if !matches!(role, Role::StartPhase(_)) && self.chance(1, 6) {
            self.f.set(Feature::ClassResponseRound);
            self.out.push_str("response_round = true\n");
        }
        if matches!(role, Role::General | Role::Enters(_)) && self.chance(1, 5) {
            let r = self.rule();
            if self.chance(2, 3) {
                self.f.set(Feature::EndsPhase);
                let _ = writeln!(self.out, "ends = \"phase\"\nends_rule = \"{r}\"");
            } else {
                self.f.set(Feature::EndsTurn);
                let _ = writeln!(self.out, "ends = \"turn\"\nends_rule = \"{r}\"");
            }
        }
        // Made by an object now and then: its limit may count per object,
        // and its requirements read the object.
        let by_object = self.chance(1, 4);
        if by_object {
            self.start_objects();
            self.f.set(Feature::ByObject);
            self.out.push_str("by = \"object\"\n");
        }
        if by_object && self.object_limits < 4 && self.chance(1, 2) {
            self.object_limits += 1;
            self.f.set(Feature::ObjectLimit);
            let max = 1 + self.below(2);
            let reset = if self.chance(2, 3) { "turn" } else { "game" };
            let r = self.rule();
            let _ = writeln!(
                self.out,
                "limit = {{ per = \"object\", max = {max}, reset = \"{reset}\", rule = \"{r}\" }}"
            );
        } else {
            self.write_limit();
        }
        let resources: Vec<usize> = (0..self.counters.len())
            .filter(|c| self.counters[*c].resource)
            .collect();
        if !resources.is_empty() && self.chance(1, 3) {
            self.f.set(Feature::Cost);
            let c = *self.pick(&resources);
            let amount = 1 + self.below(2);
            let r = self.rule();
            let _ = writeln!(
                self.out,
                "cost = {{ counter = \"{}\", amount = {amount}, rule = \"{r}\" }}",
                self.counters[c].id
            );
        }
        // The first class declares every attribute conditions may read.
        if !self.attrs.is_empty() && (i == 0 || self.chance(1, 2)) {
            self.f.set(Feature::Attributes);
            let attrs = self.attrs.clone();
            let mut list = Vec::new();
            for a in attrs {
                if i == 0 || self.chance(1, 2) {
                    let v = self.below(4);
                    list.push(format!("{a} = {v}"));
                }
            }
            if !list.is_empty() {
                let _ = writeln!(self.out, "attributes = {{ {} }}", list.join(", "));
            }
        }
        if by_object {
            self.f.set(Feature::Require);
            self.f.set(Feature::CondObject);
            let c = self.object_cond();
            let r = self.rule();
            let _ = writeln!(
                self.out,
                "\n  [[timing.{id}.require]]\n  if = \"{c}\"\n  rule = \"{r}\""
            );
        }
        if self.chance(1, 4) {
            self.f.set(Feature::Require);
            for _ in 0..1 + self.below(2) {
                let c = self.cond(0);
                let r = self.rule();
                let _ = writeln!(
                    self.out,
                    "\n  [[timing.{id}.require]]\n  if = {}\n  rule = \"{r}\"",
                    Self::quoted(&c)
                );
                if self.chance(1, 2) {
                    self.out
                        .push_str("  explain = \"a generated requirement\"\n");
                }
            }
        }
    }

    /// The first class made by an object decides the object facts.
    fn start_objects(&mut self) {
        if self.objects {
            return;
        }
        self.objects = true;
        for i in 0..self.below(3) {
            let each_turn = self.chance(1, 3);
            self.object_facts.push((format!("of{i}"), each_turn));
        }
    }

    /// A condition on the object a play is made by.
    fn object_cond(&mut self) -> String {
        let mut names = vec![
            "object.since_turn_start".to_string(),
            "object.entered_this_turn".to_string(),
        ];
        names.extend(self.object_facts.iter().map(|(f, _)| format!("object.{f}")));
        let a = self.pick(&names).clone();
        let a = if self.chance(1, 3) {
            format!("not {a}")
        } else {
            a
        };
        match self.below(3) {
            0 => {
                let b = self.pick(&names).clone();
                format!("{a} or {b}")
            }
            _ => a,
        }
    }

    /// `[objects]` and its facts, for a spec with a class made by an object.
    pub(super) fn write_objects(&mut self) {
        if !self.objects {
            return;
        }
        self.f.set(Feature::Objects);
        self.out.push_str("\n[objects]\n");
        if self.chance(1, 2) {
            let (a, b) = (self.rule(), self.rule());
            let _ = writeln!(self.out, "rule = \"{a}\"\ncontrol_rule = \"{b}\"");
        }
        for (f, each_turn) in self.object_facts.clone() {
            self.f.set(Feature::ObjectFacts);
            let _ = writeln!(self.out, "\n[objects.facts.{f}]");
            if each_turn {
                self.f.set(Feature::ObjectFactTurn);
                self.out.push_str("reset = \"turn\"\n");
            }
        }
    }

    pub(super) fn write_limit(&mut self) {
        if !self.counters.is_empty() && self.chance(1, 3) {
            self.f.set(Feature::Limit);
            let c = self.below(self.counters.len() as u64) as usize;
            if self.counters[c].per_player {
                self.f.set(Feature::LimitPerPlayer);
            }
            let max = 1 + self.below(3);
            let r = self.rule();
            let raised = if self.chance(1, 3) {
                self.f.set(Feature::LimitRaisedBy);
                let by = self.below(self.counters.len() as u64) as usize;
                format!(", raised_by = \"{}\"", self.counters[by].id)
            } else {
                String::new()
            };
            let _ = writeln!(
                self.out,
                "limit = {{ counter = \"{}\", max = {max}{raised}, rule = \"{r}\" }}",
                self.counters[c].id
            );
        }
    }
}

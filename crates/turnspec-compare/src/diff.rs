//! A structural diff of two compiled specs.
//!
//! Elements are matched by id (phases, steps, turn-based actions, timing
//! classes, effects, counters, facts, variants); settings (game metadata,
//! terms, the priority model, mana rules) field by field. Every difference
//! carries the rule each side cites for it, so a diff of two editions reads
//! as a list of rule changes. Differences that only renumber a citation are
//! flagged `citation_only` and listed apart: between editions most rules
//! moved, and the interesting changes would drown among them.

use std::collections::{BTreeSet, HashMap};

use serde_json::{Value, json};
use turnspec_spec::{
    CondId, Condition, Counter, Effect, EffectDef, EffectKind, Flag, Holder, ManaEmpties, Phase,
    Reset, RuleRef, SkipTarget, Spec, StackRequirement, Stage, Step, StepId, TimingClass,
    TurnAction, TurnOrder, Who, WindowMode,
};

/// Where a difference belongs; also the order of groups in the text form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    Game,
    Terms,
    Priority,
    Mana,
    Phases,
    Steps,
    TurnActions,
    Timing,
    Effects,
    Counters,
    Facts,
    Variants,
}

impl Section {
    pub const ALL: [Section; 12] = [
        Section::Game,
        Section::Terms,
        Section::Priority,
        Section::Mana,
        Section::Phases,
        Section::Steps,
        Section::TurnActions,
        Section::Timing,
        Section::Effects,
        Section::Counters,
        Section::Facts,
        Section::Variants,
    ];

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Section::Game => "game",
            Section::Terms => "terms",
            Section::Priority => "priority",
            Section::Mana => "mana",
            Section::Phases => "phases",
            Section::Steps => "steps",
            Section::TurnActions => "turn_actions",
            Section::Timing => "timing",
            Section::Effects => "effects",
            Section::Counters => "counters",
            Section::Facts => "facts",
            Section::Variants => "variants",
        }
    }

    /// The heading in the text form.
    pub fn title(self) -> &'static str {
        match self {
            Section::Game => "game",
            Section::Terms => "terms",
            Section::Priority => "priority model",
            Section::Mana => "mana",
            Section::Phases => "phases (and their priority windows)",
            Section::Steps => "steps (and their priority windows)",
            Section::TurnActions => "turn-based actions",
            Section::Timing => "timing classes",
            Section::Effects => "effects",
            Section::Counters => "counters",
            Section::Facts => "facts",
            Section::Variants => "variants",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Only the right-hand spec has it.
    Added,
    /// Only the left-hand spec has it.
    Removed,
    /// Both have it, with different values (or citations).
    Changed,
    /// Both have it, in a different place (turn order, step order, parent).
    Moved,
}

impl Change {
    pub fn name(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
            Change::Moved => "moved",
        }
    }

    /// `+`, `-`, `~` (moved elements are marked `~` too; the field says
    /// `position`, `step` or `phase`).
    pub fn marker(self) -> char {
        match self {
            Change::Added => '+',
            Change::Removed => '-',
            Change::Changed | Change::Moved => '~',
        }
    }
}

/// One difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub section: Section,
    pub change: Change,
    /// The element, e.g. `step combat_damage`, `action draw`, `mana`.
    pub element: String,
    /// The field or sub-item, e.g. `priority`, `skip`, `burn`; `None` when
    /// the whole element was added or removed.
    pub field: Option<String>,
    /// The value on each side (absent on the side that lacks it).
    pub left: Option<String>,
    pub right: Option<String>,
    /// The rule each side cites for it.
    pub left_rule: Option<String>,
    pub right_rule: Option<String>,
    /// Same meaning, only the citation differs (a renumbering).
    pub citation_only: bool,
}

impl Entry {
    /// The citations, `[a → b]`, `[a]` when equal, or empty.
    pub fn rules_text(&self) -> String {
        match (&self.left_rule, &self.right_rule, self.change) {
            (None, None, _) => String::new(),
            (Some(l), None, Change::Removed) => format!("[{l}]"),
            (None, Some(r), Change::Added) => format!("[{r}]"),
            (Some(l), Some(r), _) if l == r => format!("[{l}]"),
            (l, r, _) => format!(
                "[{} → {}]",
                l.as_deref().unwrap_or("—"),
                r.as_deref().unwrap_or("—")
            ),
        }
    }

    /// One line for people: marker, element, field, values, citations.
    pub fn to_line(&self) -> String {
        let mut s = format!("{} {}", self.change.marker(), self.element);
        if let Some(f) = &self.field {
            s.push_str(" · ");
            s.push_str(f);
        }
        let value = match self.change {
            Change::Added => self.right.clone(),
            Change::Removed => self.left.clone(),
            Change::Changed | Change::Moved => {
                if self.citation_only && self.field.as_deref() == Some("rule") {
                    // The citations below say it all.
                    None
                } else if self.left == self.right {
                    self.left.clone()
                } else {
                    Some(format!(
                        "{} → {}",
                        self.left.as_deref().unwrap_or("—"),
                        self.right.as_deref().unwrap_or("—")
                    ))
                }
            }
        };
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            s.push_str(": ");
            s.push_str(&v);
        }
        let rules = self.rules_text();
        if !rules.is_empty() {
            s.push_str("  ");
            s.push_str(&rules);
        }
        s
    }

    pub fn to_json(&self) -> Value {
        json!({
            "section": self.section.name(),
            "change": self.change.name(),
            "element": self.element,
            "field": self.field,
            "left": self.left,
            "right": self.right,
            "left_rule": self.left_rule,
            "right_rule": self.right_rule,
            "citation_only": self.citation_only,
        })
    }
}

/// Name, edition and date of one side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    pub name: String,
    pub edition: String,
    pub date: String,
}

impl Side {
    fn of(spec: &Spec) -> Side {
        Side {
            name: spec.game().name.clone(),
            edition: spec.game().edition.clone(),
            date: spec.game().edition_date.clone(),
        }
    }

    pub fn title(&self) -> String {
        let mut s = self.name.clone();
        if !self.edition.is_empty() {
            s = format!("{s} — {}", self.edition);
        }
        if !self.date.is_empty() {
            s = format!("{s} ({})", self.date);
        }
        s
    }
}

/// The differences between two specs, left to right.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecDiff {
    pub left: Side,
    pub right: Side,
    pub entries: Vec<Entry>,
}

impl SpecDiff {
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Differences in meaning (not only in citations).
    pub fn semantic(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| !e.citation_only)
    }

    /// Differences that only renumber a citation.
    pub fn citations(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.citation_only)
    }

    /// The entries about one element (and one field of it, if given).
    pub fn find(&self, element: &str, field: Option<&str>) -> Vec<&Entry> {
        self.entries
            .iter()
            .filter(|e| e.element == element && (field.is_none() || e.field.as_deref() == field))
            .collect()
    }

    fn count(&self, change: Change) -> usize {
        self.semantic().filter(|e| e.change == change).count()
    }

    /// Grouped text for people. `citations`: also list citation-only
    /// differences one per line (otherwise only their number).
    pub fn to_text(&self, left_label: &str, right_label: &str, citations: bool) -> String {
        let mut out = format!(
            "--- {left_label}: {}\n+++ {right_label}: {}\n",
            self.left.title(),
            self.right.title()
        );
        for section in Section::ALL {
            let lines: Vec<&Entry> = self.semantic().filter(|e| e.section == section).collect();
            if lines.is_empty() {
                continue;
            }
            out.push_str(&format!("\n{}\n", section.title()));
            for e in lines {
                out.push_str(&format!("  {}\n", e.to_line()));
            }
        }
        let renumbered: Vec<&Entry> = self.citations().collect();
        if citations && !renumbered.is_empty() {
            out.push_str("\nrule citations only (same meaning, renumbered)\n");
            for e in &renumbered {
                out.push_str(&format!("  {}\n", e.to_line()));
            }
        }
        let semantic = self.semantic().count();
        out.push_str(&format!(
            "\n{semantic} difference(s): {} added, {} removed, {} changed, {} moved; {} citation-only{}\n",
            self.count(Change::Added),
            self.count(Change::Removed),
            self.count(Change::Changed),
            self.count(Change::Moved),
            renumbered.len(),
            if citations || renumbered.is_empty() {
                ""
            } else {
                " (--citations lists them)"
            }
        ));
        out
    }

    pub fn to_json(&self, left_label: &str, right_label: &str) -> Value {
        let side = |label: &str, s: &Side| json!({ "file": label, "name": s.name, "edition": s.edition, "edition_date": s.date });
        json!({
            "left": side(left_label, &self.left),
            "right": side(right_label, &self.right),
            "differences": self.entries.iter().map(Entry::to_json).collect::<Vec<_>>(),
            "counts": {
                "added": self.count(Change::Added),
                "removed": self.count(Change::Removed),
                "changed": self.count(Change::Changed),
                "moved": self.count(Change::Moved),
                "citation_only": self.citations().count(),
            },
        })
    }
}

/// Compares two specs, `left` (the old one) to `right` (the new one).
pub fn diff(left: &Spec, right: &Spec) -> SpecDiff {
    let mut d = Differ {
        l: left,
        r: right,
        out: Vec::new(),
    };
    d.game();
    d.terms();
    d.priority();
    d.mana();
    d.phases();
    d.steps();
    d.actions();
    d.timing();
    d.effects();
    d.counters();
    d.flags(
        Section::Facts,
        "fact",
        left.facts().as_slice(),
        right.facts().as_slice(),
    );
    d.flags(
        Section::Variants,
        "variant",
        left.variants().as_slice(),
        right.variants().as_slice(),
    );
    let mut entries = d.out;
    // A renumbered element rule says nothing new when the element has other
    // differences: their lines already show both citations.
    let has_semantic: BTreeSet<String> = entries
        .iter()
        .filter(|e| !e.citation_only)
        .map(|e| e.element.clone())
        .collect();
    entries.retain(|e| {
        !(e.citation_only
            && e.field.as_deref() == Some("rule")
            && has_semantic.contains(&e.element))
    });
    SpecDiff {
        left: Side::of(left),
        right: Side::of(right),
        entries,
    }
}

fn rule(spec: &Spec, r: RuleRef) -> Option<String> {
    spec.rule(r).map(str::to_string)
}

fn cond(spec: &Spec, c: CondId) -> String {
    spec.conditions().source(c).to_string()
}

fn opt_cond(spec: &Spec, c: Option<CondId>) -> String {
    c.map(|c| cond(spec, c)).unwrap_or_else(|| "always".into())
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_string()
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

/// Elements present in both sequences whose relative order changed: those
/// left out of a longest common subsequence.
fn moved(left: &[String], right: &[String]) -> Vec<String> {
    let l: Vec<&String> = left.iter().filter(|x| right.contains(x)).collect();
    let r: Vec<&String> = right.iter().filter(|x| left.contains(x)).collect();
    let (n, m) = (l.len(), r.len());
    let mut t = vec![vec![0u16; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[i][j] = if l[i] == r[j] {
                t[i + 1][j + 1] + 1
            } else {
                t[i + 1][j].max(t[i][j + 1])
            };
        }
    }
    let mut keep = BTreeSet::new();
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if l[i] == r[j] {
            keep.insert(l[i].clone());
            i += 1;
            j += 1;
        } else if t[i + 1][j] >= t[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    l.into_iter()
        .filter(|x| !keep.contains(*x))
        .cloned()
        .collect()
}

fn position(seq: &[String], id: &str) -> String {
    match seq.iter().position(|x| x == id) {
        Some(0) => "first".into(),
        Some(i) => format!("after {}", seq[i - 1]),
        None => "absent".into(),
    }
}

/// Where a step sits, for labels: `step x`, or `phase x` for the implicit
/// step of a phase without steps.
fn step_label(spec: &Spec, s: StepId) -> String {
    let st = spec.step(s);
    if st.implicit {
        format!("phase {}", spec.phase(st.phase).id)
    } else {
        format!("step {}", st.id)
    }
}

struct Differ<'a> {
    l: &'a Spec,
    r: &'a Spec,
    out: Vec<Entry>,
}

#[allow(clippy::too_many_arguments)]
impl Differ<'_> {
    fn push(
        &mut self,
        section: Section,
        change: Change,
        element: &str,
        field: Option<&str>,
        left: Option<String>,
        right: Option<String>,
        left_rule: Option<String>,
        right_rule: Option<String>,
    ) {
        self.out.push(Entry {
            section,
            change,
            element: element.to_string(),
            field: field.map(str::to_string),
            left,
            right,
            left_rule,
            right_rule,
            citation_only: false,
        });
    }

    /// A field both sides have: a change if the values differ, a
    /// citation-only change if only the rules do.
    fn field(
        &mut self,
        section: Section,
        element: &str,
        field: &str,
        left: String,
        right: String,
        left_rule: Option<String>,
        right_rule: Option<String>,
    ) {
        if left == right && left_rule == right_rule {
            return;
        }
        let citation_only = left == right;
        self.out.push(Entry {
            section,
            change: Change::Changed,
            element: element.to_string(),
            field: Some(field.to_string()),
            left: Some(left),
            right: Some(right),
            left_rule,
            right_rule,
            citation_only,
        });
    }

    /// An element's own citation.
    fn rule_field(&mut self, section: Section, element: &str, l: RuleRef, r: RuleRef) {
        let (lr, rr) = (rule(self.l, l), rule(self.r, r));
        if lr != rr {
            self.out.push(Entry {
                section,
                change: Change::Changed,
                element: element.to_string(),
                field: Some("rule".into()),
                left: lr.clone(),
                right: rr.clone(),
                left_rule: lr,
                right_rule: rr,
                citation_only: true,
            });
        }
    }

    // --- settings ----------------------------------------------------------

    fn game(&mut self) {
        let (l, r) = (&self.l.game(), &self.r.game());
        let (lr, rr) = (rule(self.l, l.rule), rule(self.r, r.rule));
        let order = |o: TurnOrder| match o {
            TurnOrder::Clockwise => "clockwise".to_string(),
            TurnOrder::Counterclockwise => "counterclockwise".to_string(),
        };
        let fields = [
            ("name", l.name.clone(), r.name.clone()),
            ("edition", l.edition.clone(), r.edition.clone()),
            (
                "edition_date",
                l.edition_date.clone(),
                r.edition_date.clone(),
            ),
            ("source", l.source.clone(), r.source.clone()),
            (
                "players",
                format!("{}–{}", l.min_players, l.max_players),
                format!("{}–{}", r.min_players, r.max_players),
            ),
            ("turn_order", order(l.turn_order), order(r.turn_order)),
        ];
        for (f, a, b) in fields {
            if a != b {
                self.field(Section::Game, "game", f, a, b, lr.clone(), rr.clone());
            }
        }
        self.rule_field(Section::Game, "game", l.rule, r.rule);
    }

    /// Display words. The word for priority cites each side's priority
    /// rule, the others the game's rule (terms have no rule of their own).
    fn terms(&mut self) {
        let (ls, rs) = (self.l, self.r);
        let (l, r) = (&ls.terms(), &rs.terms());
        let (gl, gr) = (rule(ls, ls.game().rule), rule(rs, rs.game().rule));
        let (pl, pr) = (rule(ls, ls.priority().rule), rule(rs, rs.priority().rule));
        let fields = [
            ("priority", &l.priority, &r.priority, pl, pr),
            ("stack", &l.stack, &r.stack, gl.clone(), gr.clone()),
            ("active_player", &l.active_player, &r.active_player, gl, gr),
        ];
        for (f, a, b, ra, rb) in fields {
            if a != b {
                self.field(Section::Terms, "terms", f, a.clone(), b.clone(), ra, rb);
            }
        }
    }

    fn priority(&mut self) {
        let (l, r) = (&self.l.priority(), &self.r.priority());
        let holder = |h: Holder, after_action: bool| match h {
            Holder::ActivePlayer => "active player".to_string(),
            Holder::Actor if after_action => "the player who acted".to_string(),
            Holder::Actor => "the actor".to_string(),
        };
        let fields = [
            (
                "first",
                holder(l.first, false),
                holder(r.first, false),
                l.first_rule,
                r.first_rule,
            ),
            (
                "after_action",
                holder(l.after_action, true),
                holder(r.after_action, true),
                l.after_action_rule,
                r.after_action_rule,
            ),
            (
                "after_resolve",
                holder(l.after_resolve, false),
                holder(r.after_resolve, false),
                l.after_resolve_rule,
                r.after_resolve_rule,
            ),
            (
                "pass",
                "next player in turn order".to_string(),
                "next player in turn order".to_string(),
                l.pass_rule,
                r.pass_rule,
            ),
            (
                "close",
                "all pass in succession".to_string(),
                "all pass in succession".to_string(),
                l.close_rule,
                r.close_rule,
            ),
        ];
        for (f, a, b, ra, rb) in fields {
            let (ra, rb) = (rule(self.l, ra), rule(self.r, rb));
            self.field(Section::Priority, "priority", f, a, b, ra, rb);
        }
        self.rule_field(Section::Priority, "priority", l.rule, r.rule);
    }

    fn mana(&mut self) {
        let (l, r) = (&self.l.mana(), &self.r.mana());
        let empties = |e: ManaEmpties| match e {
            ManaEmpties::Step => "at the end of each step and phase".to_string(),
            ManaEmpties::Phase => "only at the end of each phase".to_string(),
        };
        let burn = |b: bool| {
            if b {
                "yes: unspent mana costs that much life".to_string()
            } else {
                "no".to_string()
            }
        };
        let (lr, rr) = (rule(self.l, l.rule), rule(self.r, r.rule));
        self.field(
            Section::Mana,
            "mana",
            "empties",
            empties(l.empties),
            empties(r.empties),
            lr.clone(),
            rr.clone(),
        );
        let burn_rule = |spec: &Spec, b: bool, rr: RuleRef, fallback: &Option<String>| {
            if b {
                rule(spec, rr).or_else(|| fallback.clone())
            } else {
                fallback.clone()
            }
        };
        let (blr, brr) = (
            burn_rule(self.l, l.burn, l.burn_rule, &lr),
            burn_rule(self.r, r.burn, r.burn_rule, &rr),
        );
        self.field(
            Section::Mana,
            "mana",
            "burn",
            burn(l.burn),
            burn(r.burn),
            blr,
            brr,
        );
    }

    // --- phases and steps --------------------------------------------------

    fn phases(&mut self) {
        let (ls, rs) = (self.l, self.r);
        let rmap: HashMap<&str, &Phase> = rs.phases().iter().map(|p| (p.id.as_str(), p)).collect();
        let lmap: HashMap<&str, &Phase> = ls.phases().iter().map(|p| (p.id.as_str(), p)).collect();
        for p in ls.phases() {
            if !rmap.contains_key(p.id.as_str()) {
                self.push(
                    Section::Phases,
                    Change::Removed,
                    &format!("phase {}", p.id),
                    None,
                    Some(phase_summary(ls, p)),
                    None,
                    rule(ls, p.rule),
                    None,
                );
            }
        }
        for p in rs.phases() {
            if !lmap.contains_key(p.id.as_str()) {
                self.push(
                    Section::Phases,
                    Change::Added,
                    &format!("phase {}", p.id),
                    None,
                    None,
                    Some(phase_summary(rs, p)),
                    None,
                    rule(rs, p.rule),
                );
            }
        }
        let lturn: Vec<String> = ls.turn().iter().map(|p| ls.phase(*p).id.clone()).collect();
        let rturn: Vec<String> = rs.turn().iter().map(|p| rs.phase(*p).id.clone()).collect();
        self.turn_shape(&lturn, &rturn);
        for id in moved(&lturn, &rturn) {
            let (lp, rp) = (lmap[id.as_str()], rmap[id.as_str()]);
            self.push(
                Section::Phases,
                Change::Moved,
                &format!("phase {id}"),
                Some("position"),
                Some(position(&lturn, &id)),
                Some(position(&rturn, &id)),
                rule(ls, lp.rule),
                rule(rs, rp.rule),
            );
        }
        for lp in ls.phases() {
            let Some(rp) = rmap.get(lp.id.as_str()) else {
                continue;
            };
            self.phase(lp, rp);
        }
    }

    /// The phases of a regular turn, and how many phases of each kind both
    /// specs know (Magic's two main phases, Grand Archive's one).
    fn turn_shape(&mut self, lturn: &[String], rturn: &[String]) {
        let (ls, rs) = (self.l, self.r);
        let (lr, rr) = (rule(ls, ls.game().rule), rule(rs, rs.game().rule));
        if lturn != rturn {
            self.field(
                Section::Phases,
                "turn",
                "phases",
                lturn.join(", "),
                rturn.join(", "),
                lr.clone(),
                rr.clone(),
            );
        }
        let per_kind = |spec: &Spec, kind: &str| -> String {
            let regular: Vec<&str> = spec
                .turn()
                .iter()
                .map(|p| spec.phase(*p))
                .filter(|p| spec.kinds()[p.kind as usize] == kind)
                .map(|p| p.id.as_str())
                .collect();
            let on_demand: Vec<&str> = spec
                .phases()
                .iter()
                .filter(|p| p.on_demand && spec.kinds()[p.kind as usize] == kind)
                .map(|p| p.id.as_str())
                .collect();
            let mut text = regular.len().to_string();
            if !regular.is_empty() {
                text.push_str(&format!(" ({})", regular.join(", ")));
            }
            if !on_demand.is_empty() {
                text.push_str(&format!(", plus on demand: {}", on_demand.join(", ")));
            }
            text
        };
        let common: Vec<&String> = ls
            .kinds()
            .iter()
            .filter(|k| rs.kinds().contains(k))
            .collect();
        for kind in common {
            let (x, y) = (per_kind(ls, kind), per_kind(rs, kind));
            let count = |t: &str| t.split(' ').next().unwrap_or("").to_string();
            if count(&x) != count(&y) || x.contains("on demand") != y.contains("on demand") {
                self.field(
                    Section::Phases,
                    "turn",
                    &format!("{kind} phases per turn"),
                    x,
                    y,
                    lr.clone(),
                    rr.clone(),
                );
            }
        }
    }

    fn phase(&mut self, lp: &Phase, rp: &Phase) {
        let (ls, rs) = (self.l, self.r);
        let el = format!("phase {}", lp.id);
        let (lr, rr) = (rule(ls, lp.rule), rule(rs, rp.rule));
        let tags = |p: &Phase| list(&p.tags);
        let steps = |spec: &Spec, p: &Phase| {
            if p.implicit_step {
                "none (the phase is one step)".to_string()
            } else {
                p.steps()
                    .map(|s| spec.step(s).id.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let on_demand = |p: &Phase| {
            if p.on_demand {
                "on demand (started by an action)".to_string()
            } else {
                "every turn".to_string()
            }
        };
        let fields = [
            ("name", lp.name.clone(), rp.name.clone()),
            (
                "counts_as",
                ls.kinds()[lp.kind as usize].clone(),
                rs.kinds()[rp.kind as usize].clone(),
            ),
            ("tags", tags(lp), tags(rp)),
            ("occurs", on_demand(lp), on_demand(rp)),
            (
                "only_if",
                opt_cond(ls, lp.only_if),
                opt_cond(rs, rp.only_if),
            ),
        ];
        for (f, a, b) in fields {
            if a != b {
                self.field(Section::Phases, &el, f, a, b, lr.clone(), rr.clone());
            }
        }
        // Step lists differ in membership: the steps section reports each
        // step; here only a phase gaining or losing steps altogether.
        if lp.implicit_step != rp.implicit_step {
            self.field(
                Section::Phases,
                &el,
                "steps",
                steps(ls, lp),
                steps(rs, rp),
                lr.clone(),
                rr.clone(),
            );
        }
        self.conditions(Section::Phases, &el, "skip", &lp.skip, &rp.skip);
        if lp.implicit_step && rp.implicit_step {
            self.body(
                Section::Phases,
                &el,
                ls.step(lp.first_step),
                rs.step(rp.first_step),
            );
        }
        self.rule_field(Section::Phases, &el, lp.rule, rp.rule);
    }

    /// `skip` lists, matched by condition text.
    fn conditions(
        &mut self,
        section: Section,
        el: &str,
        field: &str,
        l: &[Condition],
        r: &[Condition],
    ) {
        let (ls, rs) = (self.l, self.r);
        let lsrc: Vec<(String, Option<String>)> = l
            .iter()
            .map(|c| (cond(ls, c.cond), rule(ls, c.rule)))
            .collect();
        let rsrc: Vec<(String, Option<String>)> = r
            .iter()
            .map(|c| (cond(rs, c.cond), rule(rs, c.rule)))
            .collect();
        for (c, lr) in &lsrc {
            match rsrc.iter().find(|(x, _)| x == c) {
                None => self.push(
                    section,
                    Change::Removed,
                    el,
                    Some(field),
                    Some(format!("if {c}")),
                    None,
                    lr.clone(),
                    None,
                ),
                Some((_, rr)) => self.field(
                    section,
                    el,
                    field,
                    format!("if {c}"),
                    format!("if {c}"),
                    lr.clone(),
                    rr.clone(),
                ),
            }
        }
        for (c, rr) in &rsrc {
            if !lsrc.iter().any(|(x, _)| x == c) {
                self.push(
                    section,
                    Change::Added,
                    el,
                    Some(field),
                    None,
                    Some(format!("if {c}")),
                    None,
                    rr.clone(),
                );
            }
        }
    }

    fn steps(&mut self) {
        let (ls, rs) = (self.l, self.r);
        let regular = |spec: &'_ Spec| -> Vec<(String, StepId)> {
            let mut seen = BTreeSet::new();
            spec.steps()
                .iter_ids()
                .filter(|(_, s)| !s.implicit)
                .filter(|(_, s)| seen.insert(s.id.clone()))
                .map(|(i, s)| (s.id.clone(), i))
                .collect()
        };
        let (lsteps, rsteps) = (regular(ls), regular(rs));
        let lmap: HashMap<&str, StepId> = lsteps.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let rmap: HashMap<&str, StepId> = rsteps.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        for (id, s) in &lsteps {
            if !rmap.contains_key(id.as_str()) {
                let st = ls.step(*s);
                self.push(
                    Section::Steps,
                    Change::Removed,
                    &format!("step {id}"),
                    None,
                    Some(step_summary(ls, st)),
                    None,
                    rule(ls, st.rule),
                    None,
                );
            }
        }
        for (id, s) in &rsteps {
            if !lmap.contains_key(id.as_str()) {
                let st = rs.step(*s);
                self.push(
                    Section::Steps,
                    Change::Added,
                    &format!("step {id}"),
                    None,
                    None,
                    Some(step_summary(rs, st)),
                    None,
                    rule(rs, st.rule),
                );
            }
        }
        // Order within phases that both specs have.
        for lp in ls.phases() {
            let Some(rp) = rs.phases().iter().find(|p| p.id == lp.id) else {
                continue;
            };
            if lp.implicit_step || rp.implicit_step {
                continue;
            }
            let lseq: Vec<String> = lp.steps().map(|s| ls.step(s).id.clone()).collect();
            let rseq: Vec<String> = rp.steps().map(|s| rs.step(s).id.clone()).collect();
            for id in moved(&lseq, &rseq) {
                let (a, b) = (ls.step(lmap[id.as_str()]), rs.step(rmap[id.as_str()]));
                self.push(
                    Section::Steps,
                    Change::Moved,
                    &format!("step {id}"),
                    Some("position"),
                    Some(position(&lseq, &id)),
                    Some(position(&rseq, &id)),
                    rule(ls, a.rule),
                    rule(rs, b.rule),
                );
            }
        }
        for (id, s) in &lsteps {
            if let Some(r) = rmap.get(id.as_str()) {
                self.step(ls.step(*s), rs.step(*r));
            }
        }
    }

    fn step(&mut self, a: &Step, b: &Step) {
        let (ls, rs) = (self.l, self.r);
        let el = format!("step {}", a.id);
        let (lr, rr) = (rule(ls, a.rule), rule(rs, b.rule));
        let (lphase, rphase) = (&ls.phase(a.phase).id, &rs.phase(b.phase).id);
        if lphase != rphase {
            self.push(
                Section::Steps,
                Change::Moved,
                &el,
                Some("phase"),
                Some(lphase.clone()),
                Some(rphase.clone()),
                lr.clone(),
                rr.clone(),
            );
        }
        let fields = [
            ("name", a.name.clone(), b.name.clone()),
            ("tags", list(&a.tags), list(&b.tags)),
            ("only_if", opt_cond(ls, a.only_if), opt_cond(rs, b.only_if)),
        ];
        for (f, x, y) in fields {
            if x != y {
                self.field(Section::Steps, &el, f, x, y, lr.clone(), rr.clone());
            }
        }
        self.conditions(Section::Steps, &el, "skip", &a.skip, &b.skip);
        let repeat = |spec: &Spec, c: Option<Condition>| {
            (
                c.map(|c| format!("if {}", cond(spec, c.cond)))
                    .unwrap_or_else(|| "never".into()),
                c.and_then(|c| rule(spec, c.rule)),
            )
        };
        let ((x, xr), (y, yr)) = (repeat(ls, a.repeat), repeat(rs, b.repeat));
        self.field(Section::Steps, &el, "repeat", x, y, xr, yr);
        self.body(Section::Steps, &el, a, b);
        self.rule_field(Section::Steps, &el, a.rule, b.rule);
    }

    /// Priority windows (count, mode, name, rule) and the order of the
    /// step's actions and windows.
    fn body(&mut self, section: Section, el: &str, a: &Step, b: &Step) {
        let (ls, rs) = (self.l, self.r);
        let windows = |spec: &Spec, s: &Step| -> Vec<(String, Option<String>)> {
            s.stages
                .iter()
                .filter_map(|st| match st {
                    Stage::Window(w) => {
                        let w = spec.window(*w);
                        let mode = match w.mode {
                            WindowMode::Always => "always",
                            WindowMode::IfPending => "only if something is pending",
                        };
                        let mut text = if w.name.is_empty() {
                            mode.to_string()
                        } else {
                            format!("{mode} (\"{}\")", w.name)
                        };
                        if w.close_when_stack_empty {
                            text.push_str(", closes once the stack is empty");
                        }
                        Some((text, rule(spec, w.rule)))
                    }
                    Stage::Action(_) => None,
                })
                .collect()
        };
        let (lw, rw) = (windows(ls, a), windows(rs, b));
        if lw.len() <= 1 && rw.len() <= 1 {
            let never = ("never".to_string(), None);
            let (x, y) = (
                lw.first().cloned().unwrap_or(never.clone()),
                rw.first().cloned().unwrap_or(never),
            );
            self.field(section, el, "priority", x.0, y.0, x.1, y.1);
        } else {
            for i in 0..lw.len().max(rw.len()) {
                let f = format!("window {}", i + 1);
                match (lw.get(i), rw.get(i)) {
                    (Some(x), Some(y)) => self.field(
                        section,
                        el,
                        &f,
                        x.0.clone(),
                        y.0.clone(),
                        x.1.clone(),
                        y.1.clone(),
                    ),
                    (Some(x), None) => self.push(
                        section,
                        Change::Removed,
                        el,
                        Some(&f),
                        Some(x.0.clone()),
                        None,
                        x.1.clone(),
                        None,
                    ),
                    (None, Some(y)) => self.push(
                        section,
                        Change::Added,
                        el,
                        Some(&f),
                        None,
                        Some(y.0.clone()),
                        None,
                        y.1.clone(),
                    ),
                    (None, None) => {}
                }
            }
        }
        // Same actions and window count, different order: a reordering.
        let seq = |spec: &Spec, s: &Step| -> Vec<String> {
            s.stages
                .iter()
                .map(|st| match st {
                    Stage::Action(t) => spec.turn_action(*t).id.clone(),
                    Stage::Window(_) => "priority".to_string(),
                })
                .collect()
        };
        let (x, y) = (seq(ls, a), seq(rs, b));
        let (mut xs, mut ys) = (x.clone(), y.clone());
        xs.sort();
        ys.sort();
        if x != y && xs == ys {
            self.push(
                section,
                Change::Moved,
                el,
                Some("order"),
                Some(x.join(", ")),
                Some(y.join(", ")),
                rule(ls, a.rule),
                rule(rs, b.rule),
            );
        }
    }

    // --- turn-based actions ------------------------------------------------

    fn actions(&mut self) {
        let (ls, rs) = (self.l, self.r);
        let rmap: HashMap<&str, &TurnAction> = rs
            .turn_actions()
            .iter()
            .map(|a| (a.id.as_str(), a))
            .collect();
        let lmap: HashMap<&str, &TurnAction> = ls
            .turn_actions()
            .iter()
            .map(|a| (a.id.as_str(), a))
            .collect();
        for a in ls.turn_actions() {
            if !rmap.contains_key(a.id.as_str()) {
                self.push(
                    Section::TurnActions,
                    Change::Removed,
                    &format!("action {}", a.id),
                    None,
                    Some(format!("{} (in {})", a.name, step_label(ls, a.step))),
                    None,
                    rule(ls, a.rule),
                    None,
                );
            }
        }
        for a in rs.turn_actions() {
            if !lmap.contains_key(a.id.as_str()) {
                self.push(
                    Section::TurnActions,
                    Change::Added,
                    &format!("action {}", a.id),
                    None,
                    None,
                    Some(format!("{} (in {})", a.name, step_label(rs, a.step))),
                    None,
                    rule(rs, a.rule),
                );
            }
        }
        for a in ls.turn_actions() {
            if let Some(b) = rmap.get(a.id.as_str()) {
                self.action(a, b);
            }
        }
    }

    fn action(&mut self, a: &TurnAction, b: &TurnAction) {
        let (ls, rs) = (self.l, self.r);
        let el = format!("action {}", a.id);
        let (lr, rr) = (rule(ls, a.rule), rule(rs, b.rule));
        let (x, y) = (step_label(ls, a.step), step_label(rs, b.step));
        if x != y {
            self.push(
                Section::TurnActions,
                Change::Moved,
                &el,
                Some("step"),
                Some(x),
                Some(y),
                lr.clone(),
                rr.clone(),
            );
        }
        let answer = |spec: &Spec, t: &TurnAction| {
            let mut parts = Vec::new();
            if let Some(c) = t.answer_counter {
                parts.push(format!("into counter {}", spec.counters()[c].id));
            }
            if t.answer_max > 0 {
                parts.push(format!("0..={}", t.answer_max));
            }
            if let Some(p) = t.answer_play {
                parts.push(format!("yes plays {}", spec.timing_class(p).id));
            }
            if parts.is_empty() {
                "none".to_string()
            } else {
                parts.join(", ")
            }
        };
        let play = |spec: &Spec, t: &TurnAction| {
            t.play
                .map(|p| format!("puts a {} object on the stack", spec.timing_class(p).id))
                .unwrap_or_else(|| "none".into())
        };
        let fields = [
            ("name", a.name.clone(), b.name.clone()),
            (
                "condition",
                opt_cond(ls, a.condition),
                opt_cond(rs, b.condition),
            ),
            ("answer", answer(ls, a), answer(rs, b)),
            ("play", play(ls, a), play(rs, b)),
            (
                "ends_turn_effects",
                yes_no(a.ends_turn_effects),
                yes_no(b.ends_turn_effects),
            ),
        ];
        for (f, x, y) in fields {
            if x != y {
                self.field(Section::TurnActions, &el, f, x, y, lr.clone(), rr.clone());
            }
        }
        self.rule_field(Section::TurnActions, &el, a.rule, b.rule);
    }

    // --- timing classes, effects, counters, flags ---------------------------

    fn timing(&mut self) {
        let (ls, rs) = (self.l, self.r);
        for a in ls.timing() {
            if !rs.timing().iter().any(|b| b.id == a.id) {
                self.push(
                    Section::Timing,
                    Change::Removed,
                    &format!("timing {}", a.id),
                    None,
                    Some(timing_summary(ls, a)),
                    None,
                    rule(ls, a.rule),
                    None,
                );
            }
        }
        for b in rs.timing() {
            if !ls.timing().iter().any(|a| a.id == b.id) {
                self.push(
                    Section::Timing,
                    Change::Added,
                    &format!("timing {}", b.id),
                    None,
                    None,
                    Some(timing_summary(rs, b)),
                    None,
                    rule(rs, b.rule),
                );
            }
        }
        for a in ls.timing() {
            let Some(b) = rs.timing().iter().find(|b| b.id == a.id) else {
                continue;
            };
            let el = format!("timing {}", a.id);
            let (lr, rr) = (rule(ls, a.rule), rule(rs, b.rule));
            let fields = [
                ("name", a.name.clone(), b.name.clone()),
                ("effect", effect(ls, a.effect), effect(rs, b.effect)),
            ];
            for (f, x, y) in fields {
                if x != y {
                    self.field(Section::Timing, &el, f, x, y, lr.clone(), rr.clone());
                }
            }
            // Each restriction has its own citation (a refusal cites it).
            let restrictions = [
                ("who", who(a.who), who(b.who), a.who_rule, b.who_rule),
                (
                    "stack",
                    stack(a.stack),
                    stack(b.stack),
                    a.stack_rule,
                    b.stack_rule,
                ),
                ("during", during(a), during(b), a.during_rule, b.during_rule),
            ];
            for (f, x, y, xr, yr) in restrictions {
                let (xr, yr) = (
                    rule(ls, xr).or_else(|| lr.clone()),
                    rule(rs, yr).or_else(|| rr.clone()),
                );
                self.field(Section::Timing, &el, f, x, y, xr, yr);
            }
            let limit = |spec: &Spec, t: &TimingClass| match t.limit {
                Some(l) => (
                    format!("{} per {}", l.max, spec.counters()[l.counter].id),
                    rule(spec, l.rule),
                ),
                None => ("none".to_string(), None),
            };
            let ((x, xr), (y, yr)) = (limit(ls, a), limit(rs, b));
            self.field(Section::Timing, &el, "limit", x, y, xr, yr);
            let req = |t: &TimingClass| -> Vec<Condition> {
                t.require.iter().map(|r| r.condition).collect()
            };
            self.conditions(Section::Timing, &el, "require", &req(a), &req(b));
            self.rule_field(Section::Timing, &el, a.rule, b.rule);
        }
    }

    fn effects(&mut self) {
        let (ls, rs) = (self.l, self.r);
        for a in ls.effects() {
            if !rs.effects().iter().any(|b| b.id == a.id) {
                self.push(
                    Section::Effects,
                    Change::Removed,
                    &format!("effect {}", a.id),
                    None,
                    Some(effect_kind(ls, a)),
                    None,
                    rule(ls, a.rule),
                    None,
                );
            }
        }
        for b in rs.effects() {
            if !ls.effects().iter().any(|a| a.id == b.id) {
                self.push(
                    Section::Effects,
                    Change::Added,
                    &format!("effect {}", b.id),
                    None,
                    None,
                    Some(effect_kind(rs, b)),
                    None,
                    rule(rs, b.rule),
                );
            }
        }
        for a in ls.effects() {
            let Some(b) = rs.effects().iter().find(|b| b.id == a.id) else {
                continue;
            };
            let el = format!("effect {}", a.id);
            let (lr, rr) = (rule(ls, a.rule), rule(rs, b.rule));
            let fields = [
                ("name", a.name.clone(), b.name.clone()),
                ("kind", effect_kind(ls, a), effect_kind(rs, b)),
            ];
            for (f, x, y) in fields {
                if x != y {
                    self.field(Section::Effects, &el, f, x, y, lr.clone(), rr.clone());
                }
            }
            let own = |spec: &Spec, e: &EffectDef| match e.own_turn_only {
                Some(r) => (
                    "only during the player's own turn".to_string(),
                    rule(spec, r),
                ),
                None => ("any turn".to_string(), None),
            };
            let ((x, xr), (y, yr)) = (own(ls, a), own(rs, b));
            self.field(Section::Effects, &el, "own_turn_only", x, y, xr, yr);
            self.rule_field(Section::Effects, &el, a.rule, b.rule);
        }
    }

    fn counters(&mut self) {
        let (ls, rs) = (self.l, self.r);
        let reset = |c: &Counter| {
            match c.reset {
                Reset::Game => "never (whole game)",
                Reset::Turn => "each turn",
                Reset::Phase => "each phase",
                Reset::Step => "each step",
            }
            .to_string()
        };
        for a in ls.counters() {
            if !rs.counters().iter().any(|b| b.id == a.id) {
                self.push(
                    Section::Counters,
                    Change::Removed,
                    &format!("counter {}", a.id),
                    None,
                    Some(a.description.clone()),
                    None,
                    rule(ls, a.rule),
                    None,
                );
            }
        }
        for b in rs.counters() {
            if !ls.counters().iter().any(|a| a.id == b.id) {
                self.push(
                    Section::Counters,
                    Change::Added,
                    &format!("counter {}", b.id),
                    None,
                    None,
                    Some(b.description.clone()),
                    None,
                    rule(rs, b.rule),
                );
            }
        }
        for a in ls.counters() {
            let Some(b) = rs.counters().iter().find(|b| b.id == a.id) else {
                continue;
            };
            let el = format!("counter {}", a.id);
            let (lr, rr) = (rule(ls, a.rule), rule(rs, b.rule));
            if reset(a) != reset(b) {
                self.field(Section::Counters, &el, "reset", reset(a), reset(b), lr, rr);
            }
            self.rule_field(Section::Counters, &el, a.rule, b.rule);
        }
    }

    fn flags(&mut self, section: Section, what: &str, l: &[Flag], r: &[Flag]) {
        let (ls, rs) = (self.l, self.r);
        let shown = |f: &Flag| {
            if f.description.is_empty() {
                f.name.clone()
            } else {
                f.description.clone()
            }
        };
        for a in l {
            if !r.iter().any(|b| b.id == a.id) {
                self.push(
                    section,
                    Change::Removed,
                    &format!("{what} {}", a.id),
                    None,
                    Some(shown(a)),
                    None,
                    rule(ls, a.rule),
                    None,
                );
            }
        }
        for b in r {
            if !l.iter().any(|a| a.id == b.id) {
                self.push(
                    section,
                    Change::Added,
                    &format!("{what} {}", b.id),
                    None,
                    None,
                    Some(shown(b)),
                    None,
                    rule(rs, b.rule),
                );
            }
        }
        for a in l {
            let Some(b) = r.iter().find(|b| b.id == a.id) else {
                continue;
            };
            let el = format!("{what} {}", a.id);
            let (lr, rr) = (rule(ls, a.rule), rule(rs, b.rule));
            let fields = [
                ("name", a.name.clone(), b.name.clone()),
                ("description", a.description.clone(), b.description.clone()),
                ("default", yes_no(a.default), yes_no(b.default)),
            ];
            for (f, x, y) in fields {
                if x != y {
                    self.field(section, &el, f, x, y, lr.clone(), rr.clone());
                }
            }
            self.rule_field(section, &el, a.rule, b.rule);
        }
    }
}

/// What happens in a step, in order: `draw → priority always`.
fn body_summary(spec: &Spec, st: &Step) -> String {
    let parts: Vec<String> = st
        .stages
        .iter()
        .map(|s| match s {
            Stage::Action(a) => spec.turn_action(*a).id.clone(),
            Stage::Window(w) => match spec.window(*w).mode {
                WindowMode::Always => format!("{} always", spec.terms().priority),
                WindowMode::IfPending => format!("{} if pending", spec.terms().priority),
            },
        })
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(" → ")
    }
}

fn phase_summary(spec: &Spec, p: &Phase) -> String {
    let mut s = p.name.clone();
    if p.on_demand {
        s.push_str(", on demand");
    }
    if p.implicit_step {
        s.push_str(&format!(
            "; {}",
            body_summary(spec, spec.step(p.first_step))
        ));
    } else {
        let steps: Vec<String> = p.steps().map(|x| spec.step(x).id.clone()).collect();
        s.push_str(&format!("; steps {}", steps.join(", ")));
    }
    s
}

fn step_summary(spec: &Spec, st: &Step) -> String {
    format!(
        "{} (in phase {}); {}",
        st.name,
        spec.phase(st.phase).id,
        body_summary(spec, st)
    )
}

fn who(w: Who) -> String {
    match w {
        Who::Any => "any player",
        Who::ActivePlayer => "active player only",
        Who::NonActivePlayer => "non-active players only",
        Who::Nobody => "no player (turn-based actions only)",
    }
    .to_string()
}

fn stack(s: StackRequirement) -> String {
    match s {
        StackRequirement::Any => "any",
        StackRequirement::Empty => "must be empty",
    }
    .to_string()
}

fn during(t: &TimingClass) -> String {
    if t.during.is_empty() {
        "any step with a window".into()
    } else {
        t.during.join(", ")
    }
}

fn effect(spec: &Spec, e: Effect) -> String {
    match e {
        Effect::Stack => "goes on the stack".into(),
        Effect::Special => "special action (no stack)".into(),
        Effect::StartPhase(p) => format!("starts phase {}", spec.phase(p).id),
    }
}

fn timing_summary(spec: &Spec, t: &TimingClass) -> String {
    format!(
        "{}: {}, {}, stack {}",
        t.name,
        who(t.who),
        during(t),
        stack(t.stack)
    ) + &match t.effect {
        Effect::Stack => String::new(),
        e => format!(", {}", effect(spec, e)),
    }
}

fn effect_kind(spec: &Spec, e: &EffectDef) -> String {
    match &e.kind {
        EffectKind::ExtraTurn { each_player: false } => "extra turn".into(),
        EffectKind::ExtraTurn { each_player: true } => "extra turn for each player".into(),
        EffectKind::ExtraPhases(ps) => format!(
            "extra phases: {}",
            ps.iter()
                .map(|p| spec.phase(*p).id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        EffectKind::ExtraStep { step, after_phase } => format!(
            "extra {} step after this {}",
            spec.step(*step).id,
            if *after_phase { "phase" } else { "step" }
        ),
        EffectKind::Skip(SkipTarget::Step(s)) => format!("skip the next {} step", spec.step(*s).id),
        EffectKind::Skip(SkipTarget::Phase(p)) => {
            format!("skip the next {} phase", spec.phase(*p).id)
        }
        EffectKind::Skip(SkipTarget::Turn) => "skip the next turn".into(),
        EffectKind::EndTurn { goto } => format!("end the turn, go to {}", spec.step(*goto).id),
        EffectKind::EndPhase { phase, goto } => match goto {
            Some(g) => format!(
                "end the {} phase, go to {}",
                spec.phase(*phase).id,
                spec.step(*g).id
            ),
            None => format!("end the {} phase", spec.phase(*phase).id),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::moved;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn moved_finds_elements_outside_the_common_order() {
        assert!(moved(&v(&["a", "b", "c"]), &v(&["a", "b", "c"])).is_empty());
        assert_eq!(moved(&v(&["a", "b", "c"]), &v(&["b", "c", "a"])), v(&["a"]));
        assert!(moved(&v(&["a", "x", "c"]), &v(&["a", "c", "y"])).is_empty());
    }
}

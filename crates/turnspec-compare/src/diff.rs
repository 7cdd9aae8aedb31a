//! A structural diff of two compiled specs.
//!
//! Elements are matched by id (phases, steps, turn-based actions, timing
//! classes, effects, counters, facts, variants; windows through their
//! steps); settings (game metadata, terms, the priority model, mana rules,
//! leaving rules) field by field. The fields compared are the ones each
//! element lists through [`Describe`], so a field the model gains is
//! compared as soon as it is described (and it must be described for the
//! model to compile). Every difference
//! carries the rule each side cites for it, so a diff of two editions reads
//! as a list of rule changes. Differences that only renumber a citation are
//! flagged `citation_only` and listed apart: between editions most rules
//! moved, and the interesting changes would drown among them.

use std::collections::BTreeSet;

use serde_json::{Value as Json, json};
use turnspec_spec::describe::{
    Field, Item, Value, during_text, effect_kind_text, effect_text, stack_text, step_label,
    who_text,
};
use turnspec_spec::{
    Describe, Effect, Flag, Named, Phase, RuleRef, Spec, Stage, Step, TimingClass, WindowMode,
};

/// Where a difference belongs; also the order of groups in the text form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    Game,
    Terms,
    Priority,
    Mana,
    Leaving,
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
    pub const ALL: [Section; 13] = [
        Section::Game,
        Section::Terms,
        Section::Priority,
        Section::Mana,
        Section::Leaving,
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
            Section::Leaving => "leaving",
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
            Section::Leaving => "a player leaving the game",
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

    pub fn to_json(&self) -> Json {
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

    pub fn to_json(&self, left_label: &str, right_label: &str) -> Json {
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
    d.settings(Section::Game, "game", left.game(), right.game());
    d.settings(Section::Terms, "terms", left.terms(), right.terms());
    d.settings(
        Section::Priority,
        "priority",
        left.priority(),
        right.priority(),
    );
    d.settings(Section::Mana, "mana", left.mana(), right.mana());
    d.settings(Section::Leaving, "leaving", left.leaving(), right.leaving());
    d.phases();
    d.steps();
    d.elements(
        Section::TurnActions,
        "action",
        left.turn_actions().iter().collect(),
        right.turn_actions().iter().collect(),
        |spec, a| format!("{} (in {})", a.name, step_label(spec, a.step)),
    );
    d.elements(
        Section::Timing,
        "timing",
        left.timing().iter().collect(),
        right.timing().iter().collect(),
        timing_summary,
    );
    d.elements(
        Section::Effects,
        "effect",
        left.effects().iter().collect(),
        right.effects().iter().collect(),
        |spec, e| effect_kind_text(spec, &e.kind),
    );
    d.elements(
        Section::Counters,
        "counter",
        left.counters().iter().collect(),
        right.counters().iter().collect(),
        |_, c| c.description.clone(),
    );
    let flag = |_: &Spec, f: &Flag| {
        if f.description.is_empty() {
            f.name.clone()
        } else {
            f.description.clone()
        }
    };
    let (lf, rf) = (left.facts().iter(), right.facts().iter());
    d.elements(Section::Facts, "fact", lf.collect(), rf.collect(), flag);
    let (lv, rv) = (left.variants().iter(), right.variants().iter());
    d.elements(
        Section::Variants,
        "variant",
        lv.collect(),
        rv.collect(),
        flag,
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

/// The rule an element cites for itself (its `rule` field).
fn element_rule(spec: &Spec, fields: &[Field]) -> Option<String> {
    fields
        .iter()
        .find(|f| f.name == "rule" && f.value.compared())
        .and_then(|f| rule(spec, f.rule))
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

/// A value on each side (absent on a side that lacks it).
type Two = (Option<String>, Option<String>);

/// The element entries are about.
struct At<'s> {
    section: Section,
    element: &'s str,
}

struct Differ<'a> {
    l: &'a Spec,
    r: &'a Spec,
    out: Vec<Entry>,
}

impl Differ<'_> {
    fn push(
        &mut self,
        at: &At,
        change: Change,
        field: Option<&str>,
        values: Two,
        rules: Two,
        citation_only: bool,
    ) {
        self.out.push(Entry {
            section: at.section,
            change,
            element: at.element.to_string(),
            field: field.map(str::to_string),
            left: values.0,
            right: values.1,
            left_rule: rules.0,
            right_rule: rules.1,
            citation_only,
        });
    }

    /// A value both sides have: a change if the values differ; with
    /// `own_rule`, a citation-only change if only the rules do.
    fn value(&mut self, at: &At, field: &str, x: String, y: String, rules: Two, own_rule: bool) {
        if x != y {
            self.push(
                at,
                Change::Changed,
                Some(field),
                (Some(x), Some(y)),
                rules,
                false,
            );
        } else if own_rule && rules.0 != rules.1 {
            self.push(
                at,
                Change::Changed,
                Some(field),
                (Some(x), Some(y)),
                rules,
                true,
            );
        }
    }

    /// Every described field of one element (or settings table), matched
    /// by name.
    fn fields(&mut self, at: &At, lf: &[Field], rf: &[Field]) {
        let (ls, rs) = (self.l, self.r);
        for a in lf {
            match rf.iter().find(|b| b.name == a.name) {
                Some(b) => self.field(at, a, b),
                None if a.value.compared() => self.push(
                    at,
                    Change::Removed,
                    Some(a.name),
                    (Some(a.value.text()), None),
                    (rule(ls, a.rule), None),
                    false,
                ),
                None => {}
            }
        }
        for b in rf {
            if b.value.compared() && !lf.iter().any(|a| a.name == b.name) {
                self.push(
                    at,
                    Change::Added,
                    Some(b.name),
                    (None, Some(b.value.text())),
                    (None, rule(rs, b.rule)),
                    false,
                );
            }
        }
    }

    fn field(&mut self, at: &At, a: &Field, b: &Field) {
        let (ls, rs) = (self.l, self.r);
        if !a.value.compared() || !b.value.compared() {
            return;
        }
        let rules = (rule(ls, a.rule), rule(rs, b.rule));
        let own = a.own_rule || b.own_rule;
        match (&a.value, &b.value) {
            (Value::Text(_), Value::Text(_)) if a.name == "rule" => {
                if rules.0 != rules.1 {
                    self.push(
                        at,
                        Change::Changed,
                        Some("rule"),
                        rules.clone(),
                        rules,
                        true,
                    );
                }
            }
            (Value::Place(x), Value::Place(y)) if x != y => self.push(
                at,
                Change::Moved,
                Some(a.name),
                (Some(x.clone()), Some(y.clone())),
                rules,
                false,
            ),
            (Value::Place(_), Value::Place(_)) => {}
            (Value::Order(x), Value::Order(y)) => {
                // Same members in a different order: a reordering. Members
                // that come or go are reported as elements of their own.
                let (mut xs, mut ys) = (x.clone(), y.clone());
                xs.sort();
                ys.sort();
                if x != y && xs == ys {
                    let values = (Some(x.join(", ")), Some(y.join(", ")));
                    self.push(at, Change::Moved, Some(a.name), values, rules, false);
                }
            }
            (Value::Set(x), Value::Set(y)) => self.set(at, a.name, x, y),
            (
                Value::Seq {
                    items: x,
                    each,
                    empty,
                },
                Value::Seq { items: y, .. },
            ) => self.seq(at, a.name, x, y, each, empty),
            (x, y) => self.value(at, a.name, x.text(), y.text(), rules, own),
        }
    }

    /// Unordered items (skip conditions, requirements), matched by text;
    /// each cites its own rule.
    fn set(&mut self, at: &At, field: &str, l: &[Item], r: &[Item]) {
        let (ls, rs) = (self.l, self.r);
        for x in l {
            let xr = rule(ls, x.rule);
            match r.iter().find(|y| y.text == x.text) {
                None => self.push(
                    at,
                    Change::Removed,
                    Some(field),
                    (Some(x.text.clone()), None),
                    (xr, None),
                    false,
                ),
                Some(y) => {
                    let rules = (xr, rule(rs, y.rule));
                    self.value(at, field, x.text.clone(), y.text.clone(), rules, true);
                }
            }
        }
        for y in r {
            if !l.iter().any(|x| x.text == y.text) {
                self.push(
                    at,
                    Change::Added,
                    Some(field),
                    (None, Some(y.text.clone())),
                    (None, rule(rs, y.rule)),
                    false,
                );
            }
        }
    }

    /// Ordered items (a step's windows), position by position: under the
    /// field's own name while each side has at most one, else `each i`.
    fn seq(&mut self, at: &At, field: &str, l: &[Item], r: &[Item], each: &str, empty: &str) {
        let (ls, rs) = (self.l, self.r);
        let item = |spec: &Spec, i: &Item| (i.text.clone(), rule(spec, i.rule));
        if l.len() <= 1 && r.len() <= 1 {
            let none = (empty.to_string(), None);
            let (x, y) = (
                l.first().map(|i| item(ls, i)).unwrap_or(none.clone()),
                r.first().map(|i| item(rs, i)).unwrap_or(none),
            );
            self.value(at, field, x.0, y.0, (x.1, y.1), true);
            return;
        }
        for i in 0..l.len().max(r.len()) {
            let f = format!("{each} {}", i + 1);
            match (l.get(i).map(|x| item(ls, x)), r.get(i).map(|y| item(rs, y))) {
                (Some(x), Some(y)) => self.value(at, &f, x.0, y.0, (x.1, y.1), true),
                (Some(x), None) => self.push(
                    at,
                    Change::Removed,
                    Some(&f),
                    (Some(x.0), None),
                    (x.1, None),
                    false,
                ),
                (None, Some(y)) => self.push(
                    at,
                    Change::Added,
                    Some(&f),
                    (None, Some(y.0)),
                    (None, y.1),
                    false,
                ),
                (None, None) => {}
            }
        }
    }

    fn settings<T: Describe>(&mut self, section: Section, element: &str, l: &T, r: &T) {
        let at = At { section, element };
        self.fields(&at, &l.describe(self.l), &r.describe(self.r));
    }

    /// Elements only one side has, each with a summary.
    fn presence<T: Named + Describe>(
        &mut self,
        section: Section,
        what: &str,
        l: &[&T],
        r: &[&T],
        summary: fn(&Spec, &T) -> String,
    ) {
        let (ls, rs) = (self.l, self.r);
        for a in l {
            if !r.iter().any(|b| b.name_id() == a.name_id()) {
                let el = format!("{what} {}", a.name_id());
                let at = At {
                    section,
                    element: &el,
                };
                let values = (Some(summary(ls, a)), None);
                let rules = (element_rule(ls, &a.describe(ls)), None);
                self.push(&at, Change::Removed, None, values, rules, false);
            }
        }
        for b in r {
            if !l.iter().any(|a| a.name_id() == b.name_id()) {
                let el = format!("{what} {}", b.name_id());
                let at = At {
                    section,
                    element: &el,
                };
                let values = (None, Some(summary(rs, b)));
                let rules = (None, element_rule(rs, &b.describe(rs)));
                self.push(&at, Change::Added, None, values, rules, false);
            }
        }
    }

    /// Elements matched by id: those only one side has, then every field
    /// of those both have.
    fn elements<T: Named + Describe>(
        &mut self,
        section: Section,
        what: &str,
        l: Vec<&T>,
        r: Vec<&T>,
        summary: fn(&Spec, &T) -> String,
    ) {
        self.presence(section, what, &l, &r, summary);
        for a in &l {
            if let Some(b) = r.iter().find(|b| b.name_id() == a.name_id()) {
                let el = format!("{what} {}", a.name_id());
                let at = At {
                    section,
                    element: &el,
                };
                self.fields(&at, &a.describe(self.l), &b.describe(self.r));
            }
        }
    }

    // --- phases and steps --------------------------------------------------

    fn phases(&mut self) {
        let (ls, rs) = (self.l, self.r);
        let l: Vec<&Phase> = ls.phases().iter().collect();
        let r: Vec<&Phase> = rs.phases().iter().collect();
        self.presence(Section::Phases, "phase", &l, &r, phase_summary);
        let lturn: Vec<String> = ls.turn().iter().map(|p| ls.phase(*p).id.clone()).collect();
        let rturn: Vec<String> = rs.turn().iter().map(|p| rs.phase(*p).id.clone()).collect();
        self.turn_shape(&lturn, &rturn);
        for id in moved(&lturn, &rturn) {
            let el = format!("phase {id}");
            let at = At {
                section: Section::Phases,
                element: &el,
            };
            let rules = (
                rule(ls, ls.phase(ls.phase_by_id(&id).unwrap()).rule),
                rule(rs, rs.phase(rs.phase_by_id(&id).unwrap()).rule),
            );
            let values = (Some(position(&lturn, &id)), Some(position(&rturn, &id)));
            self.push(&at, Change::Moved, Some("position"), values, rules, false);
        }
        for lp in &l {
            let Some(rp) = r.iter().find(|p| p.id == lp.id) else {
                continue;
            };
            let el = format!("phase {}", lp.id);
            let at = At {
                section: Section::Phases,
                element: &el,
            };
            // A phase without steps is one implicit step: its body (windows,
            // order, repeat) is compared as part of the phase.
            let with_body = |spec: &Spec, p: &Phase, body: bool| -> Vec<Field> {
                let mut fields = p.describe(spec);
                if body {
                    let at = fields.len() - 1;
                    let step = spec.step(p.steps().next().expect("a phase has a step"));
                    let step_fields = step.describe(spec).into_iter();
                    fields.splice(at..at, step_fields.filter(|f| f.value.compared()));
                }
                fields
            };
            let body = lp.implicit_step && rp.implicit_step;
            self.fields(&at, &with_body(ls, lp, body), &with_body(rs, rp, body));
        }
    }

    /// The phases of a regular turn, and how many phases of each kind both
    /// specs know (Magic's two main phases, Grand Archive's one).
    fn turn_shape(&mut self, lturn: &[String], rturn: &[String]) {
        let (ls, rs) = (self.l, self.r);
        let rules = (rule(ls, ls.game().rule), rule(rs, rs.game().rule));
        let at = At {
            section: Section::Phases,
            element: "turn",
        };
        let (x, y) = (lturn.join(", "), rturn.join(", "));
        self.value(&at, "phases", x, y, rules.clone(), false);
        let per_kind = |spec: &Spec, kind: &str| -> String {
            let of_kind = |p: &&Phase| spec.kinds()[p.kind as usize] == kind;
            let regular: Vec<&str> = spec
                .turn()
                .iter()
                .map(|p| spec.phase(*p))
                .filter(of_kind)
                .map(|p| p.id.as_str())
                .collect();
            let on_demand: Vec<&str> = spec
                .phases()
                .iter()
                .filter(|p| p.on_demand)
                .filter(of_kind)
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
        for kind in ls.kinds().iter().filter(|k| rs.kinds().contains(k)) {
            let (x, y) = (per_kind(ls, kind), per_kind(rs, kind));
            let count = |t: &str| t.split(' ').next().unwrap_or("").to_string();
            if count(&x) != count(&y) || x.contains("on demand") != y.contains("on demand") {
                let f = format!("{kind} phases per turn");
                self.value(&at, &f, x, y, rules.clone(), false);
            }
        }
    }

    fn steps(&mut self) {
        let (ls, rs) = (self.l, self.r);
        fn regular(spec: &Spec) -> Vec<&Step> {
            let mut seen = BTreeSet::new();
            spec.steps()
                .iter()
                .filter(|s| !s.implicit && seen.insert(s.id.clone()))
                .collect()
        }
        let (l, r) = (regular(ls), regular(rs));
        self.presence(Section::Steps, "step", &l, &r, step_summary);
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
                let el = format!("step {id}");
                let at = At {
                    section: Section::Steps,
                    element: &el,
                };
                let rules = (
                    rule(ls, ls.step(ls.step_by_id(&id).unwrap()).rule),
                    rule(rs, rs.step(rs.step_by_id(&id).unwrap()).rule),
                );
                let values = (Some(position(&lseq, &id)), Some(position(&rseq, &id)));
                self.push(&at, Change::Moved, Some("position"), values, rules, false);
            }
        }
        for a in &l {
            if let Some(b) = r.iter().find(|b| b.id == a.id) {
                let el = format!("step {}", a.id);
                let at = At {
                    section: Section::Steps,
                    element: &el,
                };
                self.fields(&at, &a.describe(ls), &b.describe(rs));
            }
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

fn timing_summary(spec: &Spec, t: &TimingClass) -> String {
    format!(
        "{}: {}, {}, stack {}",
        t.name,
        who_text(t.who),
        during_text(&t.during),
        stack_text(t.stack)
    ) + &match t.effect {
        Effect::Stack => String::new(),
        e => format!(", {}", effect_text(spec, e)),
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

//! A structural diff of two compiled specs.
//!
//! Elements are matched by id (phases, steps, turn-based actions, timing
//! classes, effects, counters, facts, variants; windows through their
//! steps); settings (game metadata, terms, the priority model, mana rules,
//! leaving rules) field by field. The fields compared are the ones each
//! element lists through [`Describe`]: nothing is compared by hand, so a
//! field the model gains is compared as soon as it is described (and the
//! model does not compile until it is). Every difference carries the rule
//! each side cites for it, so a diff of two editions reads as a list of
//! rule changes. Differences that only renumber a citation are flagged
//! `citation_only` and listed apart: between editions most rules moved,
//! and the interesting changes would drown among them.

use std::collections::{BTreeSet, HashMap};

use turnspec_spec::describe::{
    Field, Item, Value, during_text, effect_kind_text, effect_text, phase_with_body, stack_text,
    step_label, who_text,
};
use turnspec_spec::{
    Describe, Effect, Flag, Named, Phase, RuleRef, Spec, Stage, Step, TimingClass, WindowMode,
};

mod report;

pub use report::{Change, Entry, Section, Side, SpecDiff};

/// Ordered items and the key each is known by (empty: none).
type Keyed<'a> = (&'a [Item], &'a [String]);

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
    let (l, r) = (left, right);
    d.elements(
        (Section::TurnActions, "action"),
        l.turn_actions().as_slice(),
        r.turn_actions().as_slice(),
        |spec, a| format!("{} (in {})", a.name, step_label(spec, a.step)),
    );
    let (lt, rt) = (l.timing().as_slice(), r.timing().as_slice());
    d.elements((Section::Timing, "timing"), lt, rt, timing_summary);
    let (le, re) = (l.effects().as_slice(), r.effects().as_slice());
    d.elements((Section::Effects, "effect"), le, re, |spec, e| {
        effect_kind_text(spec, &e.kind)
    });
    let (lc, rc) = (l.counters().as_slice(), r.counters().as_slice());
    d.elements((Section::Counters, "counter"), lc, rc, |_, c| {
        c.description.clone()
    });
    let flag = |_: &Spec, f: &Flag| {
        if f.description.is_empty() {
            f.name.clone()
        } else {
            f.description.clone()
        }
    };
    let (lf, rf) = (l.facts().as_slice(), r.facts().as_slice());
    d.elements((Section::Facts, "fact"), lf, rf, flag);
    let (lv, rv) = (l.variants().as_slice(), r.variants().as_slice());
    d.elements((Section::Variants, "variant"), lv, rv, flag);
    d.settings(
        Section::GameEnd,
        "game_end",
        left.game_end(),
        right.game_end(),
    );
    let (ln, rn) = (l.endings().as_slice(), r.endings().as_slice());
    d.elements((Section::Endings, "ending"), ln, rn, |_, e| {
        let result = match e.result {
            turnspec_spec::EndResult::Wins => "wins",
            turnspec_spec::EndResult::Loses => "loses",
            turnspec_spec::EndResult::Draw => "draw",
        };
        let how = if e.check.is_some() {
            "checked by the engine"
        } else {
            "declared by the host"
        };
        match e.name == e.id {
            true => format!("{result}, {how}"),
            false => format!("{}: {result}, {how}", e.name),
        }
    });
    d.settings(Section::Objects, "objects", left.objects(), right.objects());
    let (lo, ro) = (l.object_facts().as_slice(), r.object_facts().as_slice());
    d.elements((Section::ObjectFacts, "object fact"), lo, ro, |_, f| {
        if f.description.is_empty() {
            f.name.clone()
        } else {
            f.description.clone()
        }
    });
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
    // Ids are unique in each list, so the longest common order is the
    // longest increasing run of right-hand positions taken in left-hand
    // order: O(n log n), where a table of common subsequences was O(n·m)
    // in time and memory (and overflowed its u16 cells past 65,535).
    let at_right: HashMap<&str, usize> = right
        .iter()
        .enumerate()
        .map(|(i, x)| (x.as_str(), i))
        .collect();
    let common: Vec<(&String, usize)> = left
        .iter()
        .filter_map(|x| at_right.get(x.as_str()).map(|&j| (x, j)))
        .collect();
    // Patience sorting: `tails[k]` is the index in `common` of the smallest
    // right-hand position ending an increasing run of length k + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; common.len()];
    for (i, &(_, j)) in common.iter().enumerate() {
        let k = tails.partition_point(|&t| common[t].1 < j);
        before[i] = k.checked_sub(1).map(|k| tails[k]);
        if k == tails.len() {
            tails.push(i);
        } else {
            tails[k] = i;
        }
    }
    let mut keep = vec![false; common.len()];
    let mut at = tails.last().copied();
    while let Some(i) = at {
        keep[i] = true;
        at = before[i];
    }
    common
        .iter()
        .zip(keep)
        .filter(|(_, kept)| !kept)
        .map(|((x, _), _)| (*x).clone())
        .collect()
}

fn position(seq: &[String], id: &str) -> String {
    match seq.iter().position(|x| x == id) {
        Some(0) => "first".into(),
        Some(i) => format!("after {}", seq[i - 1]),
        None => "absent".into(),
    }
}

/// A value and the rule cited for it.
type Cited = (String, Option<String>);

/// Two lists matched by key: what only the left has, the pairs, what only
/// the right has.
#[allow(clippy::type_complexity)]
fn pair_up<'t, T, K: Eq + std::hash::Hash>(
    l: &'t [T],
    r: &'t [T],
    key: impl Fn(&T) -> K,
) -> (Vec<&'t T>, Vec<(&'t T, &'t T)>, Vec<&'t T>) {
    // Indexed by key, so matching stays linear in the number of elements;
    // the first element with a key wins, as a scan would find it.
    let index = |xs: &'t [T]| {
        let mut map: HashMap<K, &'t T> = HashMap::with_capacity(xs.len());
        for x in xs {
            map.entry(key(x)).or_insert(x);
        }
        map
    };
    let (in_l, in_r) = (index(l), index(r));
    let only_l = l.iter().filter(|x| !in_r.contains_key(&key(x))).collect();
    let both = l
        .iter()
        .filter_map(|x| in_r.get(&key(x)).map(|y| (x, *y)))
        .collect();
    let only_r = r.iter().filter(|y| !in_l.contains_key(&key(y))).collect();
    (only_l, both, only_r)
}

/// The element entries are about.
struct At {
    section: Section,
    element: String,
}

impl At {
    fn new(section: Section, element: impl Into<String>) -> At {
        At {
            section,
            element: element.into(),
        }
    }
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
        (l, r): (Option<Cited>, Option<Cited>),
    ) {
        let (left, left_rule) = l.map_or((None, None), |(v, r)| (Some(v), r));
        let (right, right_rule) = r.map_or((None, None), |(v, r)| (Some(v), r));
        self.out.push(Entry {
            section: at.section,
            change,
            element: at.element.clone(),
            field: field.map(str::to_string),
            citation_only: change == Change::Changed && left == right,
            left,
            right,
            left_rule,
            right_rule,
        });
    }

    /// A value both sides have: a change if the values differ; with
    /// `own_rule`, a citation-only change if only the rules do.
    fn changed(&mut self, at: &At, field: &str, (x, y): (Cited, Cited), own_rule: bool) {
        if x.0 != y.0 || (own_rule && x.1 != y.1) {
            self.push(at, Change::Changed, Some(field), (Some(x), Some(y)));
        }
    }

    /// Every described field of one element (or settings table), matched
    /// by name.
    fn fields(&mut self, at: &At, lf: &[Field], rf: &[Field]) {
        let (ls, rs) = (self.l, self.r);
        let (only_l, both, only_r) = pair_up(lf, rf, |f| f.name);
        for a in only_l.into_iter().filter(|f| f.value.compared()) {
            let value = Some((a.value.text(), rule(ls, a.rule)));
            self.push(at, Change::Removed, Some(a.name), (value, None));
        }
        for (a, b) in both {
            self.field(at, a, b);
        }
        for b in only_r.into_iter().filter(|f| f.value.compared()) {
            let value = Some((b.value.text(), rule(rs, b.rule)));
            self.push(at, Change::Added, Some(b.name), (None, value));
        }
    }

    fn field(&mut self, at: &At, a: &Field, b: &Field) {
        let (ls, rs) = (self.l, self.r);
        if !a.value.compared() || !b.value.compared() {
            return;
        }
        let (xr, yr) = (rule(ls, a.rule), rule(rs, b.rule));
        let f = Some(a.name);
        match (&a.value, &b.value) {
            // The element's own citation: the rules are the values.
            (Value::Text(_), Value::Text(_)) if a.name == "rule" => {
                if xr != yr {
                    self.out.push(Entry {
                        section: at.section,
                        change: Change::Changed,
                        element: at.element.clone(),
                        field: Some("rule".into()),
                        left: xr.clone(),
                        right: yr.clone(),
                        left_rule: xr,
                        right_rule: yr,
                        citation_only: true,
                    });
                }
            }
            (Value::Place(x), Value::Place(y)) if x != y => {
                let (x, y) = ((x.clone(), xr), (y.clone(), yr));
                self.push(at, Change::Moved, f, (Some(x), Some(y)));
            }
            (Value::Place(_), Value::Place(_)) => {}
            (Value::Order(x), Value::Order(y)) => {
                // Same members in a different order: a reordering. Members
                // that come or go are reported as elements of their own.
                let (mut xs, mut ys) = (x.clone(), y.clone());
                xs.sort();
                ys.sort();
                if x != y && xs == ys {
                    let (x, y) = ((x.join(", "), xr), (y.join(", "), yr));
                    self.push(at, Change::Moved, f, (Some(x), Some(y)));
                }
            }
            (Value::Set(x), Value::Set(y)) => self.set(at, a.name, x, y),
            (
                Value::Seq {
                    items: x,
                    keys: xk,
                    each,
                    empty,
                },
                Value::Seq {
                    items: y, keys: yk, ..
                },
            ) => self.seq(at, a.name, ((x, xk), (y, yk)), (each, empty)),
            (x, y) => {
                let own = a.own_rule || b.own_rule;
                self.changed(at, a.name, ((x.text(), xr), (y.text(), yr)), own)
            }
        }
    }

    /// Unordered items (skip conditions, requirements), matched by text;
    /// each cites its own rule.
    fn set(&mut self, at: &At, field: &str, l: &[Item], r: &[Item]) {
        let (ls, rs) = (self.l, self.r);
        let (only_l, both, only_r) = pair_up(l, r, |i| i.text.clone());
        for x in only_l {
            let x = Some((x.text.clone(), rule(ls, x.rule)));
            self.push(at, Change::Removed, Some(field), (x, None));
        }
        for (x, y) in both {
            let (x, y) = (
                (x.text.clone(), rule(ls, x.rule)),
                (y.text.clone(), rule(rs, y.rule)),
            );
            self.changed(at, field, (x, y), true);
        }
        for y in only_r {
            let y = Some((y.text.clone(), rule(rs, y.rule)));
            self.push(at, Change::Added, Some(field), (None, y));
        }
    }

    /// Ordered items (a step's windows): under the field's own name while
    /// each side has at most one; else items known by the same key (a
    /// window's name or role) on both sides are compared as `each "key"`,
    /// and the rest position by position among themselves, as `each i`.
    fn seq(
        &mut self,
        at: &At,
        field: &str,
        ((l, lk), (r, rk)): (Keyed<'_>, Keyed<'_>),
        (each, empty): (&str, &str),
    ) {
        let (ls, rs) = (self.l, self.r);
        let item = |spec: &Spec, i: &Item| (i.text.clone(), rule(spec, i.rule));
        if l.len() <= 1 && r.len() <= 1 {
            let none = (empty.to_string(), None);
            let x = l.first().map(|i| item(ls, i)).unwrap_or(none.clone());
            let y = r.first().map(|i| item(rs, i)).unwrap_or(none);
            return self.changed(at, field, (x, y), true);
        }
        let key = |keys: &[String], i: usize| keys.get(i).filter(|k| !k.is_empty()).cloned();
        // Pairs by key first, each key used once on each side.
        let mut paired_r = vec![false; r.len()];
        let mut pairs: Vec<(Option<usize>, Option<usize>, Option<String>)> = Vec::new();
        let mut unpaired_l = Vec::new();
        for i in 0..l.len() {
            let found = key(lk, i).and_then(|k| {
                (0..r.len()).find(|&j| !paired_r[j] && key(rk, j).as_deref() == Some(k.as_str()))
            });
            match found {
                Some(j) => {
                    paired_r[j] = true;
                    pairs.push((Some(i), Some(j), key(lk, i)));
                }
                None => unpaired_l.push(i),
            }
        }
        let unpaired_r: Vec<usize> = (0..r.len()).filter(|&j| !paired_r[j]).collect();
        for k in 0..unpaired_l.len().max(unpaired_r.len()) {
            pairs.push((unpaired_l.get(k).copied(), unpaired_r.get(k).copied(), None));
        }
        for (i, j, named) in pairs {
            let f = match named {
                Some(k) => format!("{each} \"{k}\""),
                // Unnamed: by its place on the left (or the right).
                None => format!("{each} {}", i.or(j).unwrap_or(0) + 1),
            };
            match (i.map(|i| item(ls, &l[i])), j.map(|j| item(rs, &r[j]))) {
                (Some(x), Some(y)) => self.changed(at, &f, (x, y), true),
                (x, None) => self.push(at, Change::Removed, Some(&f), (x, None)),
                (None, y) => self.push(at, Change::Added, Some(&f), (None, y)),
            }
        }
    }

    fn settings<T: Describe>(&mut self, section: Section, element: &str, l: &T, r: &T) {
        let at = At::new(section, element);
        self.fields(&at, &l.describe(self.l), &r.describe(self.r));
    }

    /// Elements only one side has, each with a summary.
    fn presence<T: Named + Describe>(
        &mut self,
        (section, what): (Section, &str),
        l: &[&T],
        r: &[&T],
        summary: fn(&Spec, &T) -> String,
    ) {
        let (ls, rs) = (self.l, self.r);
        let (only_l, _, only_r) = pair_up(l, r, |t| t.name_id().to_string());
        for a in only_l {
            let at = At::new(section, format!("{what} {}", a.name_id()));
            let value = (summary(ls, a), element_rule(ls, &a.describe(ls)));
            self.push(&at, Change::Removed, None, (Some(value), None));
        }
        for b in only_r {
            let at = At::new(section, format!("{what} {}", b.name_id()));
            let value = (summary(rs, b), element_rule(rs, &b.describe(rs)));
            self.push(&at, Change::Added, None, (None, Some(value)));
        }
    }

    /// Every field of the elements both sides have, matched by id;
    /// `describe` gets the element and its counterpart.
    fn matched<T: Named>(
        &mut self,
        (section, what): (Section, &str),
        l: &[&T],
        r: &[&T],
        describe: fn(&Spec, &T, &T) -> Vec<Field>,
    ) {
        let (ls, rs) = (self.l, self.r);
        for (a, b) in pair_up(l, r, |t| t.name_id().to_string()).1 {
            let at = At::new(section, format!("{what} {}", a.name_id()));
            self.fields(&at, &describe(ls, a, b), &describe(rs, b, a));
        }
    }

    /// Elements matched by id: those only one side has, then every field
    /// of those both have.
    fn elements<T: Named + Describe>(
        &mut self,
        (section, what): (Section, &str),
        l: &[T],
        r: &[T],
        summary: fn(&Spec, &T) -> String,
    ) {
        let (l, r): (Vec<&T>, Vec<&T>) = (l.iter().collect(), r.iter().collect());
        self.presence((section, what), &l, &r, summary);
        self.matched((section, what), &l, &r, |spec, t, _| t.describe(spec));
    }

    /// Elements both sequences have, out of their common order.
    fn positions(
        &mut self,
        (section, what): (Section, &str),
        l: &[String],
        r: &[String],
        cite: fn(&Spec, &str) -> Option<String>,
    ) {
        for id in moved(l, r) {
            let at = At::new(section, format!("{what} {id}"));
            let x = (position(l, &id), cite(self.l, &id));
            let y = (position(r, &id), cite(self.r, &id));
            self.push(&at, Change::Moved, Some("position"), (Some(x), Some(y)));
        }
    }

    // --- phases and steps --------------------------------------------------

    fn phases(&mut self) {
        let (ls, rs) = (self.l, self.r);
        let l: Vec<&Phase> = ls.phases().iter().collect();
        let r: Vec<&Phase> = rs.phases().iter().collect();
        self.presence((Section::Phases, "phase"), &l, &r, phase_summary);
        let turn = |s: &Spec| -> Vec<String> {
            s.turn().iter().map(|p| s.id_of(*p).to_string()).collect()
        };
        let (lturn, rturn) = (turn(ls), turn(rs));
        self.turn_shape(&lturn, &rturn);
        self.positions((Section::Phases, "phase"), &lturn, &rturn, |s, id| {
            s.phase_by_id(id).and_then(|p| rule(s, s.phase(p)?.rule))
        });
        // A phase without steps is one implicit step: its body (windows,
        // order, repeat) is compared as part of the phase.
        self.matched((Section::Phases, "phase"), &l, &r, |spec, p, other| {
            phase_with_body(spec, p, other.implicit_step)
        });
    }

    /// The phases of a regular turn, and how many phases of each kind both
    /// specs know (Magic's two main phases, Grand Archive's one).
    fn turn_shape(&mut self, lturn: &[String], rturn: &[String]) {
        let (ls, rs) = (self.l, self.r);
        let (lr, rr) = (rule(ls, ls.game().rule), rule(rs, rs.game().rule));
        let at = At::new(Section::Phases, "turn");
        let (x, y) = (
            (lturn.join(", "), lr.clone()),
            (rturn.join(", "), rr.clone()),
        );
        self.changed(&at, "phases", (x, y), false);
        let per_kind = |spec: &Spec, kind: &str| -> String {
            let of_kind = |p: &&Phase| spec.kinds().get(p.kind as usize).is_some_and(|k| k == kind);
            let regular: Vec<&str> = spec
                .turn()
                .iter()
                .filter_map(|p| spec.phase(*p))
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
                self.changed(&at, &f, ((x, lr.clone()), (y, rr.clone())), false);
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
        self.presence((Section::Steps, "step"), &l, &r, step_summary);
        // Order within phases that both specs have.
        let lp: Vec<&Phase> = ls.phases().iter().collect();
        let rp: Vec<&Phase> = rs.phases().iter().collect();
        for (a, b) in pair_up(&lp, &rp, |p| p.id.clone()).1 {
            if a.implicit_step || b.implicit_step {
                continue;
            }
            let lseq: Vec<String> = a.steps().map(|s| ls.id_of(s).to_string()).collect();
            let rseq: Vec<String> = b.steps().map(|s| rs.id_of(s).to_string()).collect();
            self.positions((Section::Steps, "step"), &lseq, &rseq, |s, id| {
                s.step_by_id(id).and_then(|x| rule(s, s.step(x)?.rule))
            });
        }
        self.matched((Section::Steps, "step"), &l, &r, |spec, s, _| {
            s.describe(spec)
        });
    }
}

/// What happens in a step, in order: `draw → priority always`.
fn body_summary(spec: &Spec, st: &Step) -> String {
    let parts: Vec<String> = st
        .stages
        .iter()
        .map(|s| match s {
            Stage::Action(a) => spec.id_of(*a).to_string(),
            Stage::Window(w) => match spec.window(*w).map(|w| w.mode) {
                Some(WindowMode::Always) => format!("{} always", spec.terms().priority),
                Some(WindowMode::IfPending) => format!("{} if pending", spec.terms().priority),
                None => format!("{} ?", spec.terms().priority),
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
        let body = spec.step(p.first_step()).map(|st| body_summary(spec, st));
        s.push_str(&format!("; {}", body.as_deref().unwrap_or("?")));
    } else {
        let steps: Vec<String> = p.steps().map(|x| spec.id_of(x).to_string()).collect();
        s.push_str(&format!("; steps {}", steps.join(", ")));
    }
    s
}

fn step_summary(spec: &Spec, st: &Step) -> String {
    format!(
        "{} (in phase {}); {}",
        st.name,
        spec.id_of(st.phase),
        body_summary(spec, st)
    )
}

fn timing_summary(spec: &Spec, t: &TimingClass) -> String {
    format!(
        "{}: {}, {}, stack {}",
        t.name,
        who_text(spec, t.who),
        during_text(&t.during),
        stack_text(t.stack)
    ) + &match t.effect {
        Effect::Stack => String::new(),
        e => format!(", {}", effect_text(spec, e)),
    } + if t.by_object {
        ", made by an object in play"
    } else {
        ""
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

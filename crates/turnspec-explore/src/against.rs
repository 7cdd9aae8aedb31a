//! `explore A --against B`: both specs in lockstep on the same moves (named
//! by id), and the shortest sequences after which their traces differ, or
//! a move one accepts and the other refuses; one per kind of difference.

use std::collections::HashMap;
use std::sync::Mutex;

use turnspec_engine::{Event, RuleError, Status};
use turnspec_model::Spec;
use turnspec_trace::{compact, describe, is_end};

use crate::explore::stop_text;
use crate::moves::{Move, Refusal, Table, enumerate, labels};
use crate::scenario::{Header, Writer};
use crate::search::{Next, Progress, Search, StateRef, Stop, Succ, Successors, World, bfs, key_of};
use crate::{Node, Options, Sides, start, with_threads};

/// Which of the two specs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The spec explored (`A`).
    A,
    /// The spec it is compared against (`B`).
    B,
}

/// One kind of difference, with the shortest sequence of moves that shows
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The moves from the start; the last one shows the difference (none:
    /// the games differ as they start).
    pub moves: Vec<Move>,
    /// The last move was refused by this side (and accepted by the other):
    /// the refusal in words, the rule it cites, and the reason as
    /// `expect_illegal` names it.
    pub refused: Option<(Side, String, Option<String>, Option<&'static str>)>,
    /// The events of the last move (or of the start) under A, as scenario
    /// lines (no "end of" lines).
    pub a_lines: Vec<String>,
    /// The same under B.
    pub b_lines: Vec<String>,
    /// The first line that differs (0-based).
    pub first: usize,
    /// The lines only A has (as many times as A has more of them), in
    /// order.
    pub only_a: Vec<String>,
    /// The lines only B has.
    pub only_b: Vec<String>,
    /// The first differing event under A: its sentence and rule.
    pub a_event: Option<(String, Option<String>)>,
    /// The first differing event under B: its sentence and rule.
    pub b_event: Option<(String, Option<String>)>,
    /// No earlier move on the way showed a difference.
    pub clean: bool,
    /// What makes two differences the same kind: the differing lines with
    /// players and numbers left out.
    pub signature: String,
}

/// What `explore --against` found.
#[derive(Debug, Clone)]
pub struct DiffReport {
    /// The title of A.
    pub title_a: String,
    /// The title of B.
    pub title_b: String,
    /// The bounds and switches used.
    pub options: Options,
    /// The names moves refer to (both specs').
    pub table: Table,
    /// Distinct pairs of states found.
    pub states: usize,
    /// Why the search stopped.
    pub stop: Stop,
    /// The deepest level expanded, in moves.
    pub deepest: usize,
    /// One per kind of difference, in the order found (shortest first).
    pub differences: Vec<Difference>,
    /// Elements moves name that only one spec has (`effect end_combat:
    /// only in A`): `turnspec diff` lists these; the search does not go on
    /// after such a move.
    pub unmatched: Vec<String>,
}

impl DiffReport {
    /// A move in words.
    pub fn describe_move(&self, m: Move) -> String {
        self.table.describe(m)
    }

    /// A short file name for difference `index` (no folder): the rule A
    /// cites, then the lines only A has and only B has, with players and
    /// numbers left out.
    pub fn file_name(&self, index: usize) -> String {
        let Some(d) = self.differences.get(index) else {
            return format!("difference-{index}.toml");
        };
        let rule = [&d.a_event, &d.b_event]
            .into_iter()
            .find_map(|e| e.as_ref().and_then(|(_, r)| r.clone()))
            .or_else(|| d.refused.as_ref().and_then(|r| r.2.clone()))
            .unwrap_or_default();
        let words = |lines: &[String]| -> Vec<String> {
            lines
                .iter()
                .flat_map(|l| {
                    normalise(l)
                        .split(' ')
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .filter(|w| w != "P" && w != "N" && !w.starts_with('#'))
                .collect()
        };
        let mut parts = vec![rule.replace(' ', "-")];
        match &d.refused {
            Some((side, ..)) => {
                parts.push(format!("refused-by-{side:?}").to_lowercase());
                parts.push(normalise(
                    &self.table.describe(
                        *d.moves
                            .last()
                            .unwrap_or(&Move::Pass(turnspec_engine::PlayerId(0))),
                    ),
                ));
            }
            None => {
                let (a, b) = (words(&d.only_a), words(&d.only_b));
                parts.push(if a.is_empty() {
                    "a-nothing".into()
                } else {
                    format!("a-{}", a.join("-"))
                });
                parts.push(if b.is_empty() {
                    "b-nothing".into()
                } else {
                    format!("b-{}", b.join("-"))
                });
            }
        }
        let mut slug: String = parts
            .join("-")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        while slug.contains("--") {
            slug = slug.replace("--", "-");
        }
        slug.truncate(70);
        format!("{:02}-{}.toml", index + 1, slug.trim_matches('-'))
    }

    /// Difference `index` as a scenario that passes under A and fails
    /// under B. `None` when the difference is a move A refuses that a
    /// scenario cannot state as refused (only plays and passes can be).
    pub fn scenario(
        &self,
        spec_a: &Spec,
        index: usize,
        spec_ref: &str,
    ) -> Result<Option<String>, String> {
        let d = self
            .differences
            .get(index)
            .ok_or_else(|| format!("no difference {index}"))?;
        // The scenario runs under A: it cites A's rule; B's is in the
        // description.
        let rules: Vec<String> = d
            .a_event
            .iter()
            .filter_map(|(_, r)| r.clone())
            .chain(match &d.refused {
                Some((Side::A, _, rule, _)) => rule.clone(),
                _ => None,
            })
            .collect();
        let b_rule = match (&d.b_event, &d.refused) {
            (Some((text, Some(r))), _) => format!(" Under B: {text} [{r}]."),
            (_, Some((Side::B, text, Some(r), _))) => format!(" Under B: {text} [{r}]."),
            _ => String::new(),
        };
        let what = self.headline(d);
        let name = match rules.first() {
            Some(rule) => format!("{rule}: explore --against: {what}"),
            None => format!("explore --against: {what}"),
        };
        let description = format!(
            "Found by `turnspec explore --against` ({}), comparing {} (A, this scenario's spec, where it passes) with {} (B, where it fails): the shortest sequence, {} moves: {}.{b_rule}",
            self.options.summary(),
            self.title_a,
            self.title_b,
            d.moves.len(),
            if d.moves.is_empty() {
                "none".to_string()
            } else {
                d.moves
                    .iter()
                    .map(|m| self.table.describe(*m))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        );
        let header = Header {
            name: &name,
            rules: &rules,
            description: &description,
        };
        let mut w = Writer::new(spec_a, &self.table, &self.options, &header, spec_ref)?;
        let Some((last, before)) = d.moves.split_last() else {
            w.expect_events();
            return Ok(Some(w.finish()));
        };
        for m in before {
            w.play(*m)?;
        }
        w.expect_events();
        match &d.refused {
            Some((Side::A, _, _, reason)) => {
                if !w.expect_illegal(*last, *reason) {
                    return Ok(None);
                }
            }
            _ => {
                w.play(*last)?;
                w.expect_events();
                if w.status() == Status::Running {
                    w.expect_state();
                }
            }
        }
        Ok(Some(w.finish()))
    }

    /// The difference in a few words.
    pub fn headline(&self, d: &Difference) -> String {
        let last = d
            .moves
            .last()
            .map(|m| self.table.describe(*m))
            .unwrap_or_else(|| "the start".into());
        match &d.refused {
            Some((side, text, ..)) => {
                let (yes, no) = match side {
                    Side::A => ("B", "A"),
                    Side::B => ("A", "B"),
                };
                format!("`{last}` is accepted by {yes} and refused by {no} ({text})")
            }
            None if d.only_a.is_empty() && d.only_b.is_empty() => {
                let a = d
                    .a_lines
                    .get(d.first)
                    .map(String::as_str)
                    .unwrap_or("(nothing)");
                let b = d
                    .b_lines
                    .get(d.first)
                    .map(String::as_str)
                    .unwrap_or("(nothing)");
                format!(
                    "after `{last}`, the same events in another order: A has `{a}` where B has `{b}`"
                )
            }
            None => {
                let show = |v: &[String]| {
                    if v.is_empty() {
                        "nothing".to_string()
                    } else {
                        v.iter()
                            .map(|l| format!("`{l}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                };
                format!(
                    "after `{last}`, only A has {}; only B has {}",
                    show(&d.only_a),
                    show(&d.only_b)
                )
            }
        }
    }

    /// The report for people: bounds, then each difference with its moves
    /// and the events of the last move side by side.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "explore {}\n  against {}\n  {}\n  {} pairs of states, deepest level expanded: {} moves; {}\n",
            self.title_a,
            self.title_b,
            self.options.summary(),
            self.states,
            self.deepest,
            stop_text(self.stop)
        );
        if !self.unmatched.is_empty() {
            s.push_str(&format!(
                "\nelements only one spec has (moves naming them are not compared; see `turnspec diff`): {}\n",
                self.unmatched.join("; ")
            ));
        }
        s.push_str(&format!("\ndifferences: {}\n", self.differences.len()));
        for (i, d) in self.differences.iter().enumerate() {
            s.push_str(&format!("\n{}. {}\n", i + 1, self.headline(d)));
            let moves: Vec<String> = d.moves.iter().map(|m| self.table.describe(*m)).collect();
            s.push_str(&format!(
                "   {} moves{}: {}\n",
                d.moves.len(),
                if d.clean {
                    ""
                } else {
                    " (an earlier move already differed)"
                },
                if moves.is_empty() {
                    "(the start)".into()
                } else {
                    moves.join(", ")
                }
            ));
            if let Some((side, text, rule, _)) = &d.refused {
                let rule = rule
                    .as_deref()
                    .map(|r| format!(" [{r}]"))
                    .unwrap_or_default();
                s.push_str(&format!("   refused by {side:?}: {text}{rule}\n"));
            }
            s.push_str(&side_by_side(&d.a_lines, &d.b_lines, d.first));
            for (name, e) in [("A", &d.a_event), ("B", &d.b_event)] {
                if let Some((text, rule)) = e {
                    let rule = rule
                        .as_deref()
                        .map(|r| format!(" [{r}]"))
                        .unwrap_or_default();
                    s.push_str(&format!("   {name}: {text}{rule}\n"));
                }
            }
        }
        s
    }
}

fn side_by_side(a: &[String], b: &[String], first: usize) -> String {
    let width = a
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(12, 44);
    let mut s = format!("        {:<width$}   {}\n", "A", "B");
    let n = a.len().max(b.len());
    let from = first.saturating_sub(2);
    let to = (first + 4).min(n);
    for i in from..to {
        let x = a.get(i).map(String::as_str).unwrap_or("(nothing)");
        let y = b.get(i).map(String::as_str).unwrap_or("(nothing)");
        let mark = if x == y { " " } else { "≠" };
        s.push_str(&format!("   {mark} {:>2} {x:<width$}   {y}\n", i + 1));
    }
    s
}

/// The reason word `expect_illegal` uses for a refusal.
fn reason_name(e: &RuleError) -> Option<&'static str> {
    let reason = e.reason();
    turnspec_scenario::compile::EXPECT_ILLEGAL_REASONS
        .contains(&reason)
        .then_some(reason)
}

/// Players and numbers left out, so the same difference at another moment
/// or for another player counts once.
fn normalise(line: &str) -> String {
    line.split(' ')
        .map(|w| {
            if w.len() > 1 && w.starts_with('P') && w[1..].chars().all(|c| c.is_ascii_digit()) {
                "P"
            } else if !w.is_empty() && w.chars().all(|c| c.is_ascii_digit()) {
                "N"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The positions of the lines only one list has (counting repeats), each
/// in its order.
fn only(a: &[String], b: &[String]) -> (Vec<usize>, Vec<usize>) {
    let mut used = vec![false; b.len()];
    let mut only_a = Vec::new();
    for (k, l) in a.iter().enumerate() {
        match (0..b.len()).find(|&i| !used[i] && b[i] == *l) {
            Some(i) => used[i] = true,
            None => only_a.push(k),
        }
    }
    let only_b = (0..b.len()).filter(|&i| !used[i]).collect();
    (only_a, only_b)
}

/// What two event lists differ in, whatever the order: the lines (with
/// players and numbers left out) only A has, then those only B has; when
/// both have the same lines in another order, the first differing pair.
fn signature(a: &[String], b: &[String]) -> String {
    let mut only_a: Vec<String> = a.iter().map(|l| normalise(l)).collect();
    let mut only_b: Vec<String> = Vec::new();
    for l in b.iter().map(|l| normalise(l)) {
        match only_a.iter().position(|x| *x == l) {
            Some(i) => {
                only_a.remove(i);
            }
            None => only_b.push(l),
        }
    }
    if only_a.is_empty() && only_b.is_empty() {
        let first = (0..a.len()).find(|&i| a.get(i) != b.get(i)).unwrap_or(0);
        return format!(
            "order: {} | {}",
            a.get(first).map(|l| normalise(l)).unwrap_or_default(),
            b.get(first).map(|l| normalise(l)).unwrap_or_default()
        );
    }
    let show = |v: &[String]| {
        if v.is_empty() {
            "(nothing)".to_string()
        } else {
            v.join(", ")
        }
    };
    format!("{} | {}", show(&only_a), show(&only_b))
}

pub(crate) struct Obs {
    pub(crate) found: Option<Box<Difference>>,
    /// The move names an element only one side has.
    pub(crate) unmatched: Option<String>,
}

pub(crate) struct Pair<'a, 's> {
    specs: [&'s Spec; 2],
    pub(crate) table: &'a Table,
    options: &'a Options,
    /// Packs the frontier's states.
    packer: crate::Packer,
    /// Lines already formatted, by number: most moves make the same lines
    /// under both specs, and telling so this way formats nothing.
    seen: Mutex<Seen>,
}

impl<'a, 's> Pair<'a, 's> {
    /// The lockstep world of `a` and `b` from `root` ([`prepare`]'s), and
    /// the root's key: the same for the single-process and the
    /// distributed search.
    pub(crate) fn new(
        [a, b]: [&'s Spec; 2],
        table: &'a Table,
        options: &'a Options,
        root: &Node,
    ) -> (Pair<'a, 's>, u128) {
        let packer = crate::Packer::new(root);
        let root_key = packer.key(root, &mut Vec::new());
        let world = Pair {
            specs: [a, b],
            table,
            options,
            packer,
            seen: Mutex::default(),
        };
        (world, root_key)
    }
}

/// A number for each line text formatted so far, and for each event (of
/// either spec) the number of its line.
#[derive(Default)]
pub(crate) struct Seen {
    events: [HashMap<Event, u32>; 2],
    texts: HashMap<String, u32>,
}

impl Pair<'_, '_> {
    /// Whether A's events `a` and B's events `b` make the same lines (those
    /// [`lines`] writes), formatting only events not seen before.
    fn same_lines(&self, a: &[Event], b: &[Event]) -> bool {
        // A poisoned lock still holds whole entries: each is added at once.
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let Seen { events, texts } = &mut *seen;
        let mut names = None;
        let mut line = |side: usize, e: &Event| -> u32 {
            if let Some(&n) = events[side].get(e) {
                return n;
            }
            let names = names.get_or_insert_with(labels);
            let text = compact(self.specs[side], names, e);
            let next = texts.len() as u32;
            let n = *texts.entry(text).or_insert(next);
            events[side].insert(*e, n);
            n
        };
        let mut ka = a.iter().filter(|e| !is_end(e));
        let mut kb = b.iter().filter(|e| !is_end(e));
        loop {
            match (ka.next(), kb.next()) {
                (None, None) => return true,
                (Some(x), Some(y)) => {
                    if line(0, x) != line(1, y) {
                        return false;
                    }
                }
                _ => return false,
            }
        }
    }
}

fn lines(spec: &Spec, events: &[Event]) -> (Vec<String>, Vec<Event>) {
    let labels = labels();
    let kept: Vec<Event> = events.iter().filter(|e| !is_end(e)).copied().collect();
    let lines = kept.iter().map(|e| compact(spec, &labels, e)).collect();
    (lines, kept)
}

fn compare(specs: [&Spec; 2], a: &[Event], b: &[Event], clean: bool) -> Option<Difference> {
    let (la, ka) = lines(specs[0], a);
    let (lb, kb) = lines(specs[1], b);
    if la == lb {
        return None;
    }
    let first = (0..la.len().max(lb.len()))
        .find(|&i| la.get(i) != lb.get(i))
        .unwrap_or(0);
    let labels = labels();
    let (only_a, only_b) = only(&la, &lb);
    // The event each side has that the other has not (or, when both have
    // the same events in another order, the first that differs).
    let event = |spec: &Spec, kept: &[Event], only: &[usize]| {
        let at = only.first().copied().unwrap_or(first);
        kept.get(at).map(|e| {
            let d = describe(spec, &labels, e);
            (d.text, d.rule)
        })
    };
    let a_event = event(specs[0], &ka, &only_a);
    let b_event = event(specs[1], &kb, &only_b);
    let pick = |lines: &[String], at: Vec<usize>| -> Vec<String> {
        at.into_iter().map(|i| lines[i].clone()).collect()
    };
    let (only_a, only_b) = (pick(&la, only_a), pick(&lb, only_b));
    let signature = signature(&la, &lb);
    Some(Difference {
        moves: Vec::new(),
        refused: None,
        a_event,
        b_event,
        a_lines: la,
        b_lines: lb,
        first,
        only_a,
        only_b,
        clean,
        signature,
    })
}

/// What a thread of the search reuses from one state to the next.
pub(crate) struct PairScratch {
    /// The state being expanded, restored from its bytes.
    parent: Node,
    /// Each move is tried on copies of the parent's sides made here.
    sides: [crate::moves::Side; 2],
    moves: Vec<crate::moves::Move>,
    /// Each side's events of the move being tried.
    ea: Vec<Event>,
    eb: Vec<Event>,
    snapshot: Vec<u8>,
    /// Room to pack a state for its key.
    bytes: Vec<u8>,
}

impl<'s> World for Pair<'_, 's> {
    type State = Node;
    type Obs = Obs;
    type Scratch = PairScratch;

    fn scratch(&self) -> PairScratch {
        let parent = self.packer.scratch_node();
        PairScratch {
            sides: [parent.sides[0].clone(), parent.sides[1].clone()],
            parent,
            // Room for a usual state's moves and a usual move's events.
            moves: Vec::with_capacity(32),
            ea: Vec::with_capacity(32),
            eb: Vec::with_capacity(32),
            snapshot: Vec::with_capacity(256),
            bytes: Vec::with_capacity(512),
        }
    }

    fn pack(&self, node: &Node, out: &mut Vec<u8>) -> bool {
        self.packer.pack(node, out);
        true
    }

    fn expand(
        &self,
        state: StateRef<'_, Node>,
        scratch: &mut PairScratch,
        out: &mut Successors<Node, Obs>,
    ) {
        let PairScratch {
            parent,
            sides,
            moves,
            ea,
            eb,
            snapshot,
            bytes,
        } = scratch;
        let Some(node) = self.packer.node_of(state, parent, snapshot) else {
            return;
        };
        moves.clear();
        let host_left = node.host_moves < self.options.host_moves;
        enumerate(
            self.table,
            &self.options.families,
            &node.sides,
            host_left,
            moves,
        );
        for &m in moves.iter() {
            // Each move is tried on copies of the parent's sides made in
            // the scratch's (no allocation).
            sides[0].clone_from(&node.sides[0]);
            sides[1].clone_from(&node.sides[1]);
            let [a, b] = &mut *sides;
            ea.clear();
            eb.clear();
            let ra = a.apply(self.table, 0, m, ea);
            let rb = b.apply(self.table, 1, m, eb);
            let clean = !node.diverged;
            let refused = |side: Side, r: Refusal, accepted: &[Event]| {
                let ix = if side == Side::A { 0 } else { 1 };
                let (text, rule) = r.describe(self.specs[ix], &self.table.describe(m));
                let reason = match &r {
                    Refusal::Rule(e) => reason_name(e),
                    Refusal::Missing(_) => None,
                };
                let other = 1 - ix;
                let (accepted_lines, _) = lines(self.specs[other], accepted);
                let kind = normalise(&self.table.describe(m));
                let signature = format!(
                    "{kind} refused by {side:?}: {}",
                    reason.unwrap_or("missing")
                );
                let (a_lines, b_lines) = if side == Side::A {
                    (Vec::new(), accepted_lines)
                } else {
                    (accepted_lines, Vec::new())
                };
                Difference {
                    moves: Vec::new(),
                    refused: Some((side, text, rule, reason)),
                    a_lines,
                    b_lines,
                    first: 0,
                    only_a: Vec::new(),
                    only_b: Vec::new(),
                    a_event: None,
                    b_event: None,
                    clean,
                    signature,
                }
            };
            let missing = |side: Side| {
                let (kind, name) = self.table.element(m).unwrap_or(("element", "?"));
                let other = if side == Side::A { "B" } else { "A" };
                format!("{kind} `{name}`: only in {other}")
            };
            let unmatched = match (&ra, &rb) {
                (Ok(()), Err(Refusal::Missing(_))) => Some(missing(Side::B)),
                (Err(Refusal::Missing(_)), Ok(())) => Some(missing(Side::A)),
                _ => None,
            };
            if unmatched.is_some() {
                out.list.push(Succ {
                    mv: m,
                    key: key_of(&(self.packer.key(node, bytes), m, "unmatched")),
                    next: Next::Stopped,
                    obs: Obs {
                        found: None,
                        unmatched,
                    },
                });
                continue;
            }
            let found = match (ra, rb) {
                (Err(_), Err(_)) => continue,
                (Ok(()), Err(r)) => Some(refused(Side::B, r, ea)),
                (Err(r), Ok(())) => Some(refused(Side::A, r, eb)),
                (Ok(()), Ok(())) => {
                    let unchanged = |s: &crate::moves::Side, before: &crate::moves::Side| {
                        s.game.state() == before.game.state() && s.pending == before.pending
                    };
                    let same = self.same_lines(ea, eb);
                    if same
                        && m.is_host_move()
                        && unchanged(a, &node.sides[0])
                        && unchanged(b, &node.sides[1])
                        && ea.is_empty() == eb.is_empty()
                    {
                        continue;
                    }
                    if same {
                        None
                    } else {
                        compare(self.specs, ea, eb, clean)
                    }
                }
            };
            let both_ok = found.as_ref().is_none_or(|d| d.refused.is_none());
            let running = both_ok
                && sides
                    .iter()
                    .all(|s| s.game.status() == Status::Running && s.game.holder().is_some());
            // The successor is written packed straight away: its bytes are
            // its key's input and, when it is kept, the frontier's copy.
            let start = out.packed.len();
            let key = if both_ok {
                let host_moves = node.host_moves + u8::from(m.is_host_move());
                let diverged = node.diverged || found.is_some();
                self.packer
                    .pack_sides(&sides[..], host_moves, diverged, &mut out.packed);
                crate::key_of_bytes(&out.packed[start..])
            } else {
                // A refusal ends the line: a state of its own.
                key_of(&(self.packer.key(node, bytes), m, "refused"))
            };
            if !(running && out.keep) {
                out.packed.truncate(start);
            }
            out.list.push(Succ {
                mv: m,
                key,
                next: match running {
                    true => Next::Packed(start..out.packed.len()),
                    false => Next::Stopped,
                },
                obs: Obs {
                    found: found.map(Box::new),
                    unmatched: None,
                },
            });
        }
    }
}

/// What a search gathers from its observations, fed in the sequential
/// search's order: the first difference of each kind (replaced by the
/// first clean one if it was not clean) and the elements only one spec
/// has. Shared by [`explore_against`] and the distributed search, so both
/// report the same. `P` locates a difference's path until the end.
pub(crate) struct Collect<P> {
    differences: Vec<Difference>,
    by_signature: HashMap<String, usize>,
    at: Vec<Option<P>>,
    unmatched: Vec<String>,
}

impl<P> Collect<P> {
    /// Starts with the difference at the start, if any.
    pub(crate) fn new(start: Option<Difference>) -> Self {
        let mut c = Collect {
            differences: Vec::new(),
            by_signature: HashMap::new(),
            at: Vec::new(),
            unmatched: Vec::new(),
        };
        if let Some(d) = start {
            c.by_signature.insert(d.signature.clone(), 0);
            c.differences.push(d);
            c.at.push(None);
        }
        c
    }

    /// One successor's observation; `at` says where it is, asked only
    /// when the observation is kept.
    pub(crate) fn visit(&mut self, obs: &Obs, at: impl FnOnce() -> P) {
        if let Some(u) = &obs.unmatched
            && !self.unmatched.contains(u)
        {
            self.unmatched.push(u.clone());
        }
        let Some(d) = &obs.found else { return };
        match self.by_signature.get(&d.signature) {
            None => {
                self.by_signature
                    .insert(d.signature.clone(), self.differences.len());
                self.differences.push((**d).clone());
                self.at.push(Some(at()));
            }
            Some(&i) if !self.differences[i].clean && d.clean => {
                self.differences[i] = (**d).clone();
                self.at[i] = Some(at());
            }
            Some(_) => {}
        }
    }

    /// The report, with each difference's moves from `path`.
    pub(crate) fn report(
        self,
        specs: [&Spec; 2],
        options: &Options,
        searched: (Table, usize, Stop, usize),
        path: impl Fn(&P) -> Vec<Move>,
    ) -> DiffReport {
        let mut differences = self.differences;
        for (d, at) in differences.iter_mut().zip(&self.at) {
            if let Some(at) = at {
                d.moves = path(at);
            }
        }
        let (table, states, stop, deepest) = searched;
        DiffReport {
            title_a: specs[0].title(),
            title_b: specs[1].title(),
            options: options.clone(),
            table,
            states,
            stop,
            deepest,
            differences,
            unmatched: self.unmatched,
        }
    }
}

/// The move table, the start (both games in lockstep) and the difference
/// at the start, if any.
pub(crate) fn prepare(
    a: &Spec,
    b: &Spec,
    options: &Options,
) -> Result<(Table, Node, Option<Difference>), String> {
    let table = Table::new(&[a, b], options.max_answer);
    let (side_a, start_a) = start(a, options, true)?;
    let (side_b, start_b) = start(b, options, true)?;
    let first = compare([a, b], &start_a, &start_b, true);
    let root = Node {
        diverged: first.is_some(),
        sides: Sides::Two(Box::new([side_a, side_b])),
        host_moves: 0,
    };
    Ok((table, root, first))
}

/// Explores `a` and `b` in lockstep within `options`' bounds.
/// Either spec that cannot be set up as `options` say is an error in
/// words.
pub fn explore_against(a: &Spec, b: &Spec, options: &Options) -> Result<DiffReport, String> {
    explore_against_with_progress(a, b, options, &mut |_| {})
}

/// [`explore_against`], telling `progress` how far the search got between
/// chunks of states (for a progress bar).
pub fn explore_against_with_progress(
    a: &Spec,
    b: &Spec,
    options: &Options,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<DiffReport, String> {
    let (table, root, first) = prepare(a, b, options)?;
    let (world, root_key) = Pair::new([a, b], &table, options, &root);
    let mut search = Search {
        options,
        progress,
        frontier_memory: crate::search::FRONTIER_MEMORY,
    };
    // Each difference's (parent, move), turned into a path at the end.
    let mut collect: Collect<(u32, Move)> = Collect::new(first);
    let searched = with_threads(options.threads, || {
        bfs(
            &world,
            root,
            root_key,
            &mut search,
            |_tree, parent, mv, obs: &Obs, _target, _new| {
                collect.visit(obs, || (parent, mv));
                // Nothing is kept per successor beyond what `collect` holds.
                0
            },
        )
    });
    let tree = &searched.tree;
    Ok(collect.report(
        [a, b],
        options,
        (table, tree.len(), searched.stop, searched.deepest),
        |&(parent, mv)| {
            let mut p = tree.path(parent);
            p.push(mv);
            p
        },
    ))
}

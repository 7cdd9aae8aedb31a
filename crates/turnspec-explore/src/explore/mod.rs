//! `explore SPEC`: every sequence of moves within the bounds, what it
//! reaches, where the game cannot go on, cycles within a turn, the deepest
//! stack.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use turnspec_engine::{Because, Event, Game, PlayerId, Status};
use turnspec_model::{EndingId, PhaseId, Spec, StepId, TurnActionId, WindowId};

use crate::moves::{Move, Side, Table, enumerate};
use crate::search::{
    self, Adjacency, Edge, Edges, Next, Progress, Search, StateRef, Stop, Succ, Successors, World,
    bfs,
};
use crate::{Node, Options, Packer, Sides, start, with_threads};

mod report;

pub(crate) use report::stop_text;
pub use report::{CoverageItem, Finding, FindingKind, Report};

/// The most cycles (not made of plays) reported; more are counted.
const MAX_CYCLES: usize = 20;
/// The most strongly connected components looked at for cycles.
const MAX_CYCLE_COMPONENTS: usize = 100_000;

/// Something a move reached, for coverage.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Reach {
    Phase(PhaseId),
    Step(StepId),
    Window(WindowId),
    Action(TurnActionId),
    /// An ending of the spec was reached.
    Ending(EndingId),
    /// The game ended because one side was left.
    LastSide,
}

/// What no move has been seen to reach yet (phases, steps, windows,
/// turn-based actions, endings, the last side), one bit each: expansions
/// report only those, so once most are reached a move reports nothing and
/// allocates nothing. The merge clears a bit as it records the first
/// reach; an expansion that reads a bit late reports something the merge
/// no longer needs, and the merge ignores it, so the report does not
/// depend on when the bits were read.
pub(crate) struct Unseen {
    bits: Vec<AtomicU64>,
    /// Where the steps, windows, actions, endings and the last side begin.
    starts: [usize; 5],
}

impl Unseen {
    pub(crate) fn new(spec: &Spec) -> Unseen {
        let mut starts = [0; 5];
        let mut at = spec.phases().len();
        for (start, len) in starts.iter_mut().zip([
            spec.steps().len(),
            spec.windows().len(),
            spec.turn_actions().len(),
            spec.endings().len(),
            1,
        ]) {
            *start = at;
            at += len;
        }
        Unseen {
            bits: (0..at.div_ceil(64))
                .map(|_| AtomicU64::new(u64::MAX))
                .collect(),
            starts,
        }
    }

    fn bit(&self, r: Reach) -> usize {
        match r {
            Reach::Phase(p) => p.index(),
            Reach::Step(s) => self.starts[0] + s.index(),
            Reach::Window(w) => self.starts[1] + w.index(),
            Reach::Action(a) => self.starts[2] + a.index(),
            Reach::Ending(e) => self.starts[3] + e.index(),
            Reach::LastSide => self.starts[4],
        }
    }

    fn contains(&self, r: Reach) -> bool {
        let b = self.bit(r);
        self.bits
            .get(b / 64)
            .is_none_or(|w| w.load(Ordering::Relaxed) >> (b % 64) & 1 != 0)
    }

    fn remove(&self, r: Reach) {
        let b = self.bit(r);
        if let Some(w) = self.bits.get(b / 64) {
            w.fetch_and(!(1 << (b % 64)), Ordering::Relaxed);
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Dead {
    pub(crate) status: Status,
    pub(crate) beyond_limit: bool,
    pub(crate) step: StepId,
    text: String,
    rule: Option<String>,
}

pub(crate) struct Obs {
    pub(crate) reach: Vec<Reach>,
    /// Timing classes some player may use in the new state, one bit each.
    pub(crate) usable: u32,
    pub(crate) stack: usize,
    pub(crate) dead: Option<Box<Dead>>,
    /// A player's move that stays in the same turn, the game still running.
    pub(crate) cycle_edge: bool,
}

pub(crate) struct Single<'a, 's> {
    table: &'a Table,
    options: &'a Options,
    /// The timing classes (one bit each) no state has been seen to allow
    /// yet: only those are tried in a new state. Written by the merge,
    /// read by expansions; an expansion that reads it late tries a class
    /// the merge no longer needs, and the merge ignores it, so the report
    /// does not depend on when it was read.
    timing_unseen: AtomicU32,
    /// What no move has been seen to reach yet: only those are reported.
    reach_unseen: &'a Unseen,
    /// Packs the frontier's states.
    packer: Packer,
    spec: std::marker::PhantomData<&'s Spec>,
}

/// What a move reached, of what `wanted` lets through.
fn reach_of(events: &[Event], out: &mut Vec<Reach>, wanted: impl Fn(Reach) -> bool) {
    let mut push = |r: Reach| {
        if wanted(r) {
            out.push(r);
        }
    };
    for (i, e) in events.iter().enumerate() {
        match *e {
            Event::PhaseBegan { phase, .. } => push(Reach::Phase(phase)),
            Event::StepBegan { step, .. } => push(Reach::Step(step)),
            Event::PriorityGiven {
                window: Some(w),
                because: Because::WindowOpened,
                ..
            } => push(Reach::Window(w)),
            Event::TurnAction { action, .. } => push(Reach::Action(action)),
            Event::Ending { ending, .. } => push(Reach::Ending(ending)),
            // A game over right after an ending is that ending's (a win or
            // a draw); any other, the last side won (players left, by
            // their own move or by an ending that makes them lose).
            Event::GameOver { .. }
                if !matches!(
                    i.checked_sub(1).map(|p| &events[p]),
                    Some(Event::Ending { .. })
                ) =>
            {
                push(Reach::LastSide)
            }
            _ => {}
        }
    }
}

/// The timing classes among `wanted` (one bit each) some player may use.
fn usable(game: &Game, wanted: u32) -> u32 {
    let spec = game.spec();
    let mut bits = 0u32;
    if wanted == 0 {
        return bits;
    }
    for p in (0..game.players()).map(PlayerId) {
        for (i, t) in spec.timing().ids().enumerate() {
            let bit = 1u32 << (i & 31);
            if wanted & bit != 0 && bits & bit == 0 && crate::moves::may_play(game, p, t) {
                bits |= 1 << (i & 31);
            }
        }
    }
    bits
}

fn dead_end(game: &Game, beyond_limit: bool) -> Dead {
    let spec = game.spec();
    let step_id = spec.id_of(game.step());
    let step_rule = spec.step(game.step()).and_then(|st| spec.rule(st.rule));
    let (text, rule) = match game.endless_turn() {
        Some(e) => (e.describe(spec), spec.rule(e.rule).map(str::to_string)),
        None if game.status() == Status::Stalled => (
            format!(
                "the game stalled in step `{step_id}`: it ran a million moves with no window opening"
            ),
            step_rule.map(str::to_string),
        ),
        None => (
            format!(
                "the game is running in step `{step_id}` but nobody holds {}",
                spec.terms().priority
            ),
            step_rule.map(str::to_string),
        ),
    };
    Dead {
        status: game.status(),
        beyond_limit,
        step: game.step(),
        text,
        rule,
    }
}

/// Bytes reserved per successor for its packed state: more than most
/// states take.
const PACKED_ROOM: usize = 320;

/// What a thread of the search reuses from one state to the next.
pub(crate) struct Scratch {
    /// The state being expanded, restored from its bytes.
    parent: Node,
    /// Each move is tried on a copy of the parent made here.
    side: crate::moves::Side,
    moves: Vec<Move>,
    events: Vec<Event>,
    snapshot: Vec<u8>,
}

impl<'s> World for Single<'_, 's> {
    type State = Node;
    type Obs = Obs;
    type Scratch = Scratch;

    fn scratch(&self) -> Scratch {
        let parent = self.packer.scratch_node();
        Scratch {
            side: parent.sides[0].clone(),
            parent,
            // Room for a usual state's moves and a usual move's events.
            moves: Vec::with_capacity(32),
            events: Vec::with_capacity(32),
            snapshot: Vec::with_capacity(256),
        }
    }

    fn pack(&self, node: &Node, out: &mut Vec<u8>) -> bool {
        self.packer.pack(node, out);
        true
    }

    /// Each successor is written packed straight away: its bytes are its
    /// key's input and, when it is kept, the frontier's copy.
    fn expand(
        &self,
        state: StateRef<'_, Node>,
        scratch: &mut Scratch,
        out: &mut Successors<Node, Obs>,
    ) {
        let Scratch {
            parent,
            side,
            moves,
            events,
            snapshot,
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
        let before = &node.sides[0];
        out.list.reserve(moves.len());
        // Room for every successor's bytes at once (a state's are a few
        // hundred), so the buffer is not copied to grow.
        out.packed.reserve(moves.len() * PACKED_ROOM);
        for &m in moves.iter() {
            side.clone_from(before);
            events.clear();
            if side.apply(self.table, 0, m, events).is_err() {
                continue;
            }
            let host = m.is_host_move();
            // A host move that changes nothing (an effect that does nothing
            // now) is not worth a state.
            if host && side.game.state() == before.game.state() && side.pending == before.pending {
                continue;
            }
            let g = &side.game;
            let status = g.status();
            let dead = match status {
                Status::Running if g.holder().is_none() => Some(Box::new(dead_end(g, false))),
                Status::Stalled | Status::NeverEnds => Some(Box::new(dead_end(g, false))),
                Status::TurnLimit => probe(self.table, before, m).map(Box::new),
                _ => None,
            };
            let mut reach = Vec::new();
            reach_of(events, &mut reach, |r| self.reach_unseen.contains(r));
            let obs = Obs {
                reach,
                usable: if status == Status::Running {
                    usable(g, self.timing_unseen.load(Ordering::Relaxed))
                } else {
                    0
                },
                stack: g.stack().len(),
                dead,
                cycle_edge: !host && status == Status::Running && g.turn() == before.game.turn(),
            };
            let running = status == Status::Running && g.holder().is_some();
            let start = out.packed.len();
            let host_moves = node.host_moves + u8::from(host);
            self.packer.pack_sides(
                std::slice::from_ref(side),
                host_moves,
                false,
                &mut out.packed,
            );
            let key = crate::key_of_bytes(&out.packed[start..]);
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
                obs,
            });
        }
    }
}

/// A move that ended the game at the turn limit: would the next turn get
/// stuck? Played again without the limit.
fn probe(table: &Table, before: &Side, m: Move) -> Option<Dead> {
    let mut side = before.clone();
    side.game.set_turn_limit(u32::MAX);
    side.apply(table, 0, m, &mut ()).ok()?;
    let g = &side.game;
    match g.status() {
        Status::Stalled | Status::NeverEnds => Some(dead_end(g, true)),
        Status::Running if g.holder().is_none() => Some(dead_end(g, true)),
        _ => None,
    }
}

/// The move table, the start and the events that set it up: the same for
/// the single-process and the distributed search.
pub(crate) fn prepare(spec: &Spec, options: &Options) -> Result<(Table, Node, Vec<Event>), String> {
    let table = Table::new(&[spec], options.max_answer);
    let (side, start_events) = start(spec, options, true)?;
    let root = Node {
        sides: Sides::One(side),
        host_moves: 0,
        diverged: false,
    };
    Ok((table, root, start_events))
}

impl<'a, 's> Single<'a, 's> {
    /// The world of `spec` from `root` ([`prepare`]'s), trying only the
    /// timing classes in `timing_unseen` and reporting only what
    /// `reach_unseen` holds; and the root's key.
    pub(crate) fn new(
        table: &'a Table,
        options: &'a Options,
        root: &Node,
        timing_unseen: u32,
        reach_unseen: &'a Unseen,
    ) -> (Single<'a, 's>, u128) {
        let packer = Packer::new(root);
        let root_key = packer.key(root, &mut Vec::new());
        let world = Single {
            table,
            options,
            timing_unseen: AtomicU32::new(timing_unseen),
            reach_unseen,
            packer,
            spec: std::marker::PhantomData,
        };
        (world, root_key)
    }

    /// Tries no more the timing classes and reports no more what `obs`
    /// saw: the caller has recorded them.
    pub(crate) fn seen(&self, obs: &Obs) {
        for r in &obs.reach {
            self.reach_unseen.remove(*r);
        }
        if obs.usable != 0 {
            self.timing_unseen.fetch_and(!obs.usable, Ordering::Relaxed);
        }
    }
}

/// The within-turn graph cycles are looked for in: `edges` between `nodes`
/// states numbered in the search's order, and the moves from the start to
/// one of them.
pub(crate) struct Graph<'e, F> {
    pub(crate) nodes: usize,
    pub(crate) edges: &'e Edges,
    pub(crate) path_to: F,
}

/// What a search gathers from its observations, fed in the sequential
/// search's order: how soon each element was reached, the first dead end
/// of each kind, the first deepest stack. Shared by [`explore`] and the
/// distributed search, so both report the same. `P` locates a finding's
/// path until the end.
pub(crate) struct Collect<'s, P> {
    spec: &'s Spec,
    /// For each element, the fewest moves after which it was reached.
    phases: Vec<Option<usize>>,
    steps: Vec<Option<usize>>,
    windows: Vec<Option<usize>>,
    timing: Vec<Option<usize>>,
    actions: Vec<Option<usize>>,
    endings: Vec<Option<usize>>,
    last_side: Option<usize>,
    /// The deepest stack and where it was first seen (none: the start).
    deepest_stack: (usize, Option<P>),
    /// Where each kind of dead end was first seen (none: the start).
    dead: Vec<(Option<P>, Dead)>,
}

impl<'s, P> Collect<'s, P> {
    /// Starts with what the start itself reaches: the events that set it
    /// up, the classes usable there, its stack, and whether it is stuck.
    pub(crate) fn new(spec: &'s Spec, start_events: &[Event], root: &Node) -> Self {
        let mut c = Collect {
            spec,
            phases: vec![None; spec.phases().len()],
            steps: vec![None; spec.steps().len()],
            windows: vec![None; spec.windows().len()],
            timing: vec![None; spec.timing().len()],
            actions: vec![None; spec.turn_actions().len()],
            endings: vec![None; spec.endings().len()],
            last_side: None,
            deepest_stack: (0, None),
            dead: Vec::new(),
        };
        let mut start_reach = Vec::new();
        reach_of(start_events, &mut start_reach, |_| true);
        for r in start_reach {
            c.mark(r, 0);
        }
        let root_game = &root.sides[0].game;
        let root_usable = if root_game.status() == Status::Running {
            usable(root_game, u32::MAX)
        } else {
            0
        };
        for (i, slot) in c.timing.iter_mut().enumerate() {
            if root_usable >> (i & 31) & 1 != 0 {
                *slot = Some(0);
            }
        }
        c.deepest_stack.0 = root_game.stack().len();
        let root_stuck = matches!(root_game.status(), Status::Stalled | Status::NeverEnds)
            || (root_game.status() == Status::Running && root_game.holder().is_none());
        if root_stuck {
            c.dead.push((None, dead_end(root_game, false)));
        }
        c
    }

    fn mark(&mut self, r: Reach, after: usize) {
        let slot = match r {
            Reach::Phase(p) => self.phases.get_mut(p.index()),
            Reach::Step(s) => self.steps.get_mut(s.index()),
            Reach::Window(w) => self.windows.get_mut(w.index()),
            Reach::Action(a) => self.actions.get_mut(a.index()),
            Reach::Ending(e) => self.endings.get_mut(e.index()),
            Reach::LastSide => Some(&mut self.last_side),
        };
        if let Some(slot) = slot
            && slot.is_none()
        {
            *slot = Some(after);
        }
    }

    /// The spec whose search this is.
    #[cfg(feature = "distributed")]
    pub(crate) fn spec(&self) -> &'s Spec {
        self.spec
    }

    /// The timing classes (one bit each) not seen usable yet.
    pub(crate) fn timing_unseen(&self) -> u32 {
        self.timing
            .iter()
            .enumerate()
            .filter(|(_, slot)| slot.is_none())
            .fold(0u32, |bits, (i, _)| bits | 1 << (i & 31))
    }

    /// One successor's observation; `after` says how many moves it was
    /// reached after and `at` where it is, each asked only when needed
    /// (most successors observe nothing new).
    pub(crate) fn visit(&mut self, obs: &Obs, after: impl Fn() -> usize, at: impl Fn() -> P) {
        for r in &obs.reach {
            self.mark(*r, after());
        }
        if obs.usable != 0 {
            let after = after();
            for (i, slot) in self.timing.iter_mut().enumerate() {
                if obs.usable >> (i & 31) & 1 != 0 && slot.is_none() {
                    *slot = Some(after);
                }
            }
        }
        if obs.stack > self.deepest_stack.0 {
            self.deepest_stack = (obs.stack, Some(at()));
        }
        if let Some(d) = &obs.dead {
            let seen = self.dead.iter().any(|(_, e)| {
                e.status == d.status && e.step == d.step && e.beyond_limit == d.beyond_limit
            });
            if !seen {
                self.dead.push((Some(at()), (**d).clone()));
            }
        }
    }

    /// The report: coverage, dead ends, the cycles of `graph`, the deepest
    /// stack, each finding's moves from `path`.
    pub(crate) fn report(
        self,
        options: &Options,
        searched: (Table, usize, Stop, usize),
        graph: Graph<'_, impl Fn(u32) -> Vec<Move>>,
        path: impl Fn(&P) -> Vec<Move>,
    ) -> Report {
        let spec = self.spec;
        let (table, states, stop, deepest) = searched;
        let Graph {
            nodes,
            edges,
            path_to: entry_path,
        } = graph;
        let rule = |r| spec.rule(r).map(str::to_string);
        let mut coverage = Vec::new();
        for (id, p) in spec.phases().iter_ids() {
            coverage.push(CoverageItem {
                kind: "phase",
                id: p.id.clone(),
                rule: rule(p.rule),
                reached: self.phases[id.index()],
            });
        }
        for (id, s) in spec.steps().iter_ids() {
            // A step-less phase's implicit step is the phase itself.
            if s.implicit {
                continue;
            }
            coverage.push(CoverageItem {
                kind: "step",
                id: s.id.clone(),
                rule: rule(s.rule),
                reached: self.steps[id.index()],
            });
        }
        let mut per_step: Vec<usize> = vec![0; spec.steps().len()];
        for (id, w) in spec.windows().iter_ids() {
            let k = &mut per_step[w.step.index()];
            *k += 1;
            let name = if w.name.is_empty() {
                String::new()
            } else {
                format!(" ({})", w.name)
            };
            coverage.push(CoverageItem {
                kind: "window",
                id: format!("{} #{k}{name}", spec.id_of(w.step)),
                rule: rule(w.rule),
                reached: self.windows[id.index()],
            });
        }
        for (id, t) in spec.timing().iter_ids() {
            coverage.push(CoverageItem {
                kind: "timing class",
                id: t.id.clone(),
                rule: rule(t.rule),
                reached: self.timing[id.index()],
            });
        }
        for (id, a) in spec.turn_actions().iter_ids() {
            coverage.push(CoverageItem {
                kind: "turn-based action",
                id: a.id.clone(),
                rule: rule(a.rule),
                reached: self.actions[id.index()],
            });
        }
        // How games can end: each ending the spec checks itself (those the
        // host declares can happen at any moment, so they are listed only
        // when the search declares them: `--with ending`), and the last side
        // left.
        let declared = options.families.ending;
        for (id, e) in spec
            .endings()
            .iter_ids()
            .filter(|(_, e)| e.check.is_some() || declared)
        {
            coverage.push(CoverageItem {
                kind: "game end",
                id: e.id.clone(),
                rule: rule(e.rule),
                reached: self.endings[id.index()],
            });
        }
        coverage.push(CoverageItem {
            kind: "game end",
            id: "last side left".into(),
            rule: rule(spec.game_end().last_side_rule),
            reached: self.last_side,
        });
        let mut findings = Vec::new();
        for (at, d) in &self.dead {
            let moves = at.as_ref().map(&path).unwrap_or_default();
            let beyond = if d.beyond_limit {
                " as the turn after the last explored one begins"
            } else {
                ""
            };
            findings.push(Finding {
                kind: FindingKind::DeadEnd {
                    status: d.status,
                    beyond_limit: d.beyond_limit,
                },
                summary: format!(
                    "the game cannot go on ({}){beyond}: {}",
                    d.status.name(),
                    d.text
                ),
                rules: d.rule.iter().cloned().collect(),
                moves,
                cycle_from: None,
            });
        }
        let components = search::cycles(nodes, edges);
        let adj = Adjacency::new(nodes, edges);
        let more_cycles = components.len().saturating_sub(MAX_CYCLE_COMPONENTS);
        let mut seen_cycles: Vec<Vec<Move>> = Vec::new();
        let mut play_cycles = 0;
        let mut reported = 0;
        for component in components.iter().take(MAX_CYCLE_COMPONENTS) {
            let entry = component[0];
            let cycle = search::shortest_cycle(entry, component, &adj, edges);
            let cycle_moves: Vec<Move> = cycle.iter().map(|e| edges.get(*e).mv).collect();
            if seen_cycles.contains(&cycle_moves) {
                continue;
            }
            seen_cycles.push(cycle_moves.clone());
            let through_stack = cycle_moves.iter().any(|m| match m {
                Move::Play(_, t, _) => table.timing[*t as usize].ids[0].is_some_and(|id| {
                    matches!(
                        spec.timing_class(id).map(|t| t.effect),
                        Some(turnspec_model::Effect::Stack)
                    )
                }),
                _ => false,
            });
            let plays_only = cycle_moves.iter().all(|m| matches!(m, Move::Play(..)));
            let of_plays = through_stack || plays_only;
            if of_plays {
                play_cycles += 1;
                if play_cycles > 1 {
                    continue;
                }
            } else {
                reported += 1;
                if reported > MAX_CYCLES {
                    continue;
                }
            }
            let mut moves = entry_path(entry);
            let from = moves.len();
            moves.extend(cycle_moves);
            let (text, rules) = describe_cycle(spec, &table, options, &moves, from);
            findings.push(Finding {
                kind: FindingKind::Cycle { of_plays },
                summary: text,
                rules,
                moves,
                cycle_from: Some(from),
            });
        }
        let more_cycles = more_cycles + reported.saturating_sub(MAX_CYCLES);
        if let (depth, Some(at)) = &self.deepest_stack
            && *depth > 0
        {
            findings.push(Finding {
                kind: FindingKind::DeepestStack { depth: *depth },
                summary: format!("the {} reaches {depth} object(s)", spec.terms().stack),
                rules: spec
                    .rule(spec.priority().rule)
                    .map(str::to_string)
                    .into_iter()
                    .collect(),
                moves: path(at),
                cycle_from: None,
            });
        }
        Report {
            title: spec.title(),
            options: options.clone(),
            table,
            states,
            stop,
            deepest,
            edges: edges.len(),
            coverage,
            findings,
            more_cycles,
            play_cycles,
        }
    }
}

/// Explores `spec` within `options`' bounds.
/// A spec that cannot be set up as `options` say (a player count it does
/// not allow, an unknown variant or start point) is an error in words.
pub fn explore(spec: &Spec, options: &Options) -> Result<Report, String> {
    explore_with_progress(spec, options, &mut |_| {})
}

/// [`explore`], telling `progress` how far the search got between chunks
/// of states (for a progress bar).
pub fn explore_with_progress(
    spec: &Spec,
    options: &Options,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<Report, String> {
    let (table, root, start_events) = prepare(spec, options)?;
    // Each finding's (parent, move), turned into a path at the end.
    let mut collect: Collect<'_, (u32, Move)> = Collect::new(spec, &start_events, &root);
    let reach_unseen = Unseen::new(spec);
    let (world, root_key) = Single::new(
        &table,
        options,
        &root,
        collect.timing_unseen(),
        &reach_unseen,
    );
    let mut edges = Edges::default();
    let mut search = Search {
        options,
        progress,
        frontier_memory: crate::search::FRONTIER_MEMORY,
    };
    let searched = with_threads(options.threads, || {
        bfs(
            &world,
            root,
            root_key,
            &mut search,
            |tree, parent, mv, obs: &Obs, target, _new| {
                collect.visit(obs, || tree.depth(parent) + 1, || (parent, mv));
                world.seen(obs);
                if obs.cycle_edge {
                    // The bytes the edge list grew by, counted as held.
                    return edges.push(Edge {
                        from: parent,
                        to: target,
                        mv,
                    });
                }
                0
            },
        )
    });
    let tree = &searched.tree;
    Ok(collect.report(
        options,
        (table.clone(), tree.len(), searched.stop, searched.deepest),
        Graph {
            nodes: tree.len(),
            edges: &edges,
            path_to: |entry| tree.path(entry),
        },
        |&(parent, mv)| {
            let mut p = tree.path(parent);
            p.push(mv);
            p
        },
    ))
}

/// Where a cycle is and what it does, replaying its moves.
fn describe_cycle(
    spec: &Spec,
    table: &Table,
    options: &Options,
    moves: &[Move],
    from: usize,
) -> (String, Vec<String>) {
    let cycle: Vec<String> = moves[from..].iter().map(|m| table.describe(*m)).collect();
    let mut step = None;
    if let Ok((mut side, _)) = start(spec, options, true) {
        for m in &moves[..from] {
            if side.apply(table, 0, *m, &mut ()).is_err() {
                break;
            }
        }
        step = Some(side.game.step());
    }
    let (place, rules) = match step {
        Some(s) => (
            format!(" in step `{}`", spec.id_of(s)),
            spec.step(s)
                .and_then(|st| spec.rule(st.rule))
                .map(str::to_string)
                .into_iter()
                .collect(),
        ),
        None => (String::new(), Vec::new()),
    };
    (
        format!(
            "a cycle of {} move(s){place} brings the game back to the same state: {}",
            cycle.len(),
            cycle.join(", ")
        ),
        rules,
    )
}

//! `explore` and `explore --against` on timely dataflow: several worker
//! threads, in one process or in several that find each other by a host
//! list (net.rs).
//!
//! Levels are rounds (timestamps). Each state travels with its order key,
//! the path of successor indices from the start: in the single-process
//! search a level's states come in the lexicographic order of these paths
//! (a state's first finder is the smallest (parent, successor index)). A
//! state's owner (its 128-bit key modulo the workers) keeps, among the
//! candidates of a round it has not seen before, the one with the smallest
//! path, and expands it in the next round after replaying its moves from
//! the start (game states are not sent: only keys, paths and moves).
//! Observations are reduced per kind to the smallest path and gathered to
//! worker 0, which feeds them, sorted by (depth, path), through the same
//! collector as the single-process search: the report is byte-identical.
//! [`rounds`] is that search for any world; against.rs and single.rs are
//! what each search gathers and how worker 0 builds its report.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::core::Exchange as _;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::vec::Broadcast;
use timely::dataflow::operators::{Capability, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use turnspec_engine::PlayerId;

use crate::moves::{Move, Table};
use crate::search::{Next, StateRef, Stop, Successors, World};
use crate::{Node, Options};

mod against;
mod net;
mod single;
mod watch;

pub use against::explore_against_distributed;
pub use net::{Cluster, parse_hosts};
pub use single::explore_distributed;

/// The hasher of a set of keys: its keys are already XXH3-128 hashes,
/// uniformly spread, so their low 64 bits serve as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Only keys go through `write_u128`; anything else is folded in.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    #[inline]
    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64;
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A state on its way to its owner.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Cand {
    key: u128,
    /// Successor indices from the start: the order key.
    order: Vec<u16>,
    /// The moves from the start, packed.
    moves: Vec<u64>,
    /// The game goes on there (it is expanded if new).
    running: bool,
    host_moves: u8,
    diverged: bool,
}

/// A successor whose observation may make the report, on its way to
/// worker 0: its path, and what its parent's replay needs.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Rec {
    order: Vec<u16>,
    moves: Vec<u64>,
    parent_host_moves: u8,
    parent_diverged: bool,
}

/// A move as one number (moves are only named by table indices).
fn pack(m: Move) -> u64 {
    let (tag, a, b, c): (u64, u64, u64, u64) = match m {
        Move::Pass(p) => (0, p.0.into(), 0, 0),
        Move::Play(p, class, object) => (1, p.0.into(), class.into(), object.into()),
        Move::Answer(action, value) => (2, action.into(), value.into(), 0),
        Move::Trigger(p) => (3, p.0.into(), 0, 0),
        Move::TriggerAt(action) => (4, action.into(), 0, 0),
        Move::Effect(effect, p) => (5, effect.into(), p.0.into(), 0),
        Move::Fact(fact, on) => (6, fact.into(), on.into(), 0),
        Move::Mana(p) => (7, p.0.into(), 0, 0),
        Move::Leave(p) => (8, p.0.into(), 0, 0),
        Move::Ending(ending, p) => (9, ending.into(), p.0.into(), 0),
        Move::Enter(object, p) => (10, object.into(), p.0.into(), 0),
        Move::LeavePlay(object) => (11, object.into(), 0, 0),
        Move::ObjectFact(object, fact, on) => (12, object.into(), fact.into(), on.into()),
    };
    tag << 48 | a << 32 | b << 16 | c
}

/// The move [`pack`] made `x` from; `None` for a number it never makes.
fn unpack(x: u64) -> Option<Move> {
    let (tag, a, b, c) = (x >> 48, (x >> 32) as u16, (x >> 16) as u16, x as u16);
    let p = |v: u16| u8::try_from(v).ok().map(PlayerId);
    let byte = |v: u16| u8::try_from(v).ok();
    let flag = |v: u16| match v {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    };
    Some(match tag {
        0 => Move::Pass(p(a)?),
        1 => Move::Play(p(a)?, b, byte(c)?),
        2 => Move::Answer(a, b),
        3 => Move::Trigger(p(a)?),
        4 => Move::TriggerAt(a),
        5 => Move::Effect(a, p(b)?),
        6 => Move::Fact(a, flag(b)?),
        7 => Move::Mana(p(a)?),
        8 => Move::Leave(p(a)?),
        9 => Move::Ending(a, p(b)?),
        10 => Move::Enter(byte(a)?, p(b)?),
        11 => Move::LeavePlay(byte(a)?),
        12 => Move::ObjectFact(byte(a)?, b, flag(c)?),
        _ => return None,
    })
}

fn unpack_all(moves: &[u64]) -> Result<Vec<Move>, String> {
    moves
        .iter()
        .map(|&x| unpack(x).ok_or_else(|| format!("a move that cannot be read ({x:#x})")))
        .collect()
}

/// A state expanded with within-turn player moves (cycle edges) among its
/// successors, on its way to worker 0.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Source {
    key: u128,
    order: Vec<u16>,
    moves: Vec<u64>,
    /// Its cycle edges: (successor index, the target's key, the move
    /// packed), by successor index.
    edges: Vec<(u16, u128, u64)>,
}

/// The state reached from `root` by `moves` (which the search made), with
/// the host-move count and divergence it had.
fn replay(
    table: &Table,
    root: &Node,
    moves: &[u64],
    host_moves: u8,
    diverged: bool,
) -> Result<Node, String> {
    let mut node = root.clone();
    let mut events = Vec::new();
    for m in unpack_all(moves)? {
        for (ix, side) in node.sides.iter_mut().enumerate() {
            events.clear();
            side.apply(table, ix, m, &mut events).map_err(|_| {
                format!(
                    "replaying the search's moves: `{}` refused",
                    table.describe(m)
                )
            })?;
        }
    }
    node.host_moves = host_moves;
    node.diverged = diverged;
    Ok(node)
}

/// The successors of the parent of the successor `rec` names, rebuilt from
/// the start and expanded again by `world` into `out`; that successor's
/// index in `out.list`.
fn replay_obs<W: World<State = Node>>(
    world: &W,
    (table, root): (&Table, &Node),
    rec: &Rec,
    scratch: &mut W::Scratch,
    out: &mut Successors<Node, W::Obs>,
) -> Result<usize, String> {
    let Some((_, before)) = rec.moves.split_last() else {
        return Err("replaying an observation: no moves".into());
    };
    let parent = replay(
        table,
        root,
        before,
        rec.parent_host_moves,
        rec.parent_diverged,
    )?;
    out.list.clear();
    out.packed.clear();
    world.expand(StateRef::Whole(&parent), scratch, out);
    let at = rec.order.last().map_or(0, |&i| usize::from(i));
    if at >= out.list.len() {
        return Err("replaying an observation: the successor is missing".into());
    }
    Ok(at)
}

/// What a search tells [`rounds`] about its observations.
trait Observe<O> {
    /// The kinds of observation `obs` counts as, for keeping the first of
    /// each (the successors of a worker come in path order).
    fn kinds(&mut self, obs: &O, out: &mut Vec<String>);

    /// Whether the step is a within-turn player move kept for cycles.
    fn cycle_edge(&self, _obs: &O) -> bool {
        false
    }
}

/// What worker 0 has once the rounds are over, in the single-process
/// search's order, nothing past the --max-states cut.
struct Gathered {
    states: usize,
    stop: Stop,
    deepest: usize,
    /// Successors whose observation may make the report, by (depth, path).
    recs: Vec<Rec>,
    /// States with cycle edges, by (depth, path).
    sources: Vec<Source>,
}

/// Whether the successor at `order` comes before the cut at `stop_at` (a
/// single process's first new state past --max-states).
fn before_cut(order: &[u16], stop_at: Option<&Vec<u16>>) -> bool {
    stop_at.is_none_or(|q| (order.len(), order) < (q.len(), q.as_slice()))
}

/// One round's totals over all workers: new states, and those among them
/// where the game goes on.
type Counts = Rc<RefCell<HashMap<u64, (u64, u64)>>>;

/// The breadth-first search of `world` from `root` on this worker, in
/// rounds with the others: see the module's comment. Worker 0 gets what
/// was gathered, the others `None`.
fn rounds<W: World<State = Node>>(
    worker: &mut timely::worker::Worker,
    world: &W,
    observe: &mut impl Observe<W::Obs>,
    (table, root, root_key): (&Table, &Node, u128),
    options: &Options,
) -> Result<Option<Gathered>, String> {
    let index = worker.index();
    let mut cands: InputHandle<u64, CapacityContainerBuilder<Vec<Cand>>> = InputHandle::new();
    let mut recs: InputHandle<u64, CapacityContainerBuilder<Vec<Rec>>> = InputHandle::new();
    let mut sources: InputHandle<u64, CapacityContainerBuilder<Vec<Source>>> = InputHandle::new();
    // Only in the round that passes --max-states: the paths of its new
    // states, to worker 0, which finds where a single process stopped.
    let mut cut: InputHandle<u64, CapacityContainerBuilder<Vec<Vec<u16>>>> = InputHandle::new();
    let probe = ProbeHandle::new();
    // This worker's new states of the last round (those where the game
    // goes on are expanded next).
    let won: Rc<RefCell<Vec<Cand>>> = Rc::default();
    let counts: Counts = Rc::default();
    // Worker 0: every observation record and source gathered.
    let gathered: Rc<RefCell<Vec<Rec>>> = Rc::default();
    let gathered_sources: Rc<RefCell<Vec<Source>>> = Rc::default();
    let cut_paths: Rc<RefCell<Vec<Vec<u16>>>> = Rc::default();
    worker.dataflow::<u64, _, _>(|scope| {
        let cut_paths = Rc::clone(&cut_paths);
        let won = Rc::clone(&won);
        let counts = Rc::clone(&counts);
        let gathered = Rc::clone(&gathered);
        let gathered_sources = Rc::clone(&gathered_sources);
        scope
            .input_from(&mut cands)
            .unary_frontier::<CapacityContainerBuilder<Vec<(u64, u64, u64)>>, _, _, _>(
                Exchange::new(|c: &Cand| c.key as u64),
                "Dedup",
                move |_cap, _info| {
                    let mut seen: HashSet<u128, BuildHasherDefault<KeyHasher>> = HashSet::default();
                    seen.insert(root_key);
                    let mut pending: BTreeMap<u64, Capability<u64>> = BTreeMap::new();
                    let mut stash: HashMap<u64, HashMap<u128, Cand>> = HashMap::new();
                    move |(input, frontier), output| {
                        input.for_each_stamp(|cap, data| {
                            if let Some(cap) = cap.retain_least(0) {
                                let time = *cap.time();
                                pending.entry(time).or_insert(cap);
                                let best = stash.entry(time).or_default();
                                for c in data.flat_map(|d| d.drain(..)) {
                                    if seen.contains(&c.key) {
                                        continue;
                                    }
                                    match best.get(&c.key) {
                                        Some(old) if old.order <= c.order => {}
                                        _ => {
                                            best.insert(c.key, c);
                                        }
                                    }
                                }
                            }
                        });
                        while let Some(time) = pending.keys().next().copied() {
                            if frontier.frontier().less_equal(&time) {
                                break;
                            }
                            let Some(cap) = pending.remove(&time) else {
                                break;
                            };
                            let (mut new, mut running) = (0u64, 0u64);
                            let mut won = won.borrow_mut();
                            for (key, c) in stash.remove(&time).unwrap_or_default() {
                                seen.insert(key);
                                new += 1;
                                running += u64::from(c.running);
                                won.push(c);
                            }
                            output.session(&cap).give((time, new, running));
                        }
                    }
                },
            )
            .broadcast()
            .inspect(move |&(time, new, running): &(u64, u64, u64)| {
                let mut counts = counts.borrow_mut();
                let sum = counts.entry(time).or_default();
                sum.0 += new;
                sum.1 += running;
            })
            .probe_with(&probe);
        scope
            .input_from(&mut recs)
            .exchange(|_| 0)
            .inspect(move |r: &Rec| gathered.borrow_mut().push(r.clone()))
            .probe_with(&probe);
        scope
            .input_from(&mut sources)
            .exchange(|_| 0)
            .inspect(move |s: &Source| gathered_sources.borrow_mut().push(s.clone()))
            .probe_with(&probe);
        scope
            .input_from(&mut cut)
            .exchange(|_| 0)
            .inspect(move |p: &Vec<u16>| cut_paths.borrow_mut().push(p.clone()))
            .probe_with(&probe);
    });

    let depth_bound = options.depth;
    let max_states = options.max_states.max(1);
    let mut states = 1usize;
    let mut frontier: Vec<Cand> = Vec::new();
    if index == 0 {
        frontier.push(Cand {
            key: root_key,
            order: Vec::new(),
            moves: Vec::new(),
            running: true,
            host_moves: 0,
            diverged: root.diverged,
        });
    }
    // Kinds of observation this worker already sent, in an earlier round.
    let mut sent: HashSet<String> = HashSet::new();
    // An error here is kept until the end: this worker still takes part
    // in every round, so the others do not wait for it forever.
    let mut failed: Option<String> = None;
    let mut out: Successors<Node, W::Obs> = Successors::new(true);
    let mut scratch = world.scratch();
    let mut kinds = Vec::new();
    let mut level = 0usize;
    // Worker 0, when --max-states is reached: the path of the first new
    // state a single process did not take.
    let mut stop_at: Option<Vec<u16>> = None;
    let (stop, deepest) = if depth_bound == 0 {
        (Stop::Depth { frontier: 1 }, 0)
    } else {
        loop {
            let mut best: HashMap<String, Rec> = HashMap::new();
            // In path order, so the first of a kind this worker sees is its
            // smallest (a world may stop reporting what it has seen).
            frontier.sort_unstable_by(|x, y| x.order.cmp(&y.order));
            for c in std::mem::take(&mut frontier) {
                let node = match replay(table, root, &c.moves, c.host_moves, c.diverged) {
                    Ok(n) => n,
                    Err(e) => {
                        failed.get_or_insert(e);
                        continue;
                    }
                };
                out.list.clear();
                out.packed.clear();
                world.expand(StateRef::Whole(&node), &mut scratch, &mut out);
                let mut edges = Vec::new();
                for (i, succ) in out.list.drain(..).enumerate() {
                    let Ok(i) = u16::try_from(i) else {
                        failed.get_or_insert_with(|| {
                            "a state with more than 65536 successors".into()
                        });
                        break;
                    };
                    let mut order = c.order.clone();
                    order.push(i);
                    let mut moves = c.moves.clone();
                    moves.push(pack(succ.mv));
                    if observe.cycle_edge(&succ.obs) {
                        edges.push((i, succ.key, pack(succ.mv)));
                    }
                    kinds.clear();
                    observe.kinds(&succ.obs, &mut kinds);
                    for kind in kinds.drain(..) {
                        if sent.contains(&kind) || best.get(&kind).is_some_and(|r| r.order <= order)
                        {
                            continue;
                        }
                        best.insert(
                            kind,
                            Rec {
                                order: order.clone(),
                                moves: moves.clone(),
                                parent_host_moves: node.host_moves,
                                parent_diverged: node.diverged,
                            },
                        );
                    }
                    let (running, host_moves, diverged) = match &succ.next {
                        Next::Packed(r) => {
                            let (h, d) = out
                                .packed
                                .get(r.clone())
                                .and_then(crate::Packer::host_moves_and_divergence)
                                .unwrap_or_default();
                            (true, h, d)
                        }
                        Next::Whole(n) => (true, n.host_moves, n.diverged),
                        Next::Stopped => (false, 0, false),
                    };
                    cands.send(Cand {
                        key: succ.key,
                        order,
                        moves,
                        running,
                        host_moves,
                        diverged,
                    });
                }
                if !edges.is_empty() {
                    sources.send(Source {
                        key: c.key,
                        order: c.order,
                        moves: c.moves,
                        edges,
                    });
                }
            }
            for (kind, rec) in best {
                sent.insert(kind);
                recs.send(rec);
            }
            let next = level as u64 + 1;
            cands.advance_to(next);
            recs.advance_to(next);
            sources.advance_to(next);
            cut.advance_to(next);
            while probe.less_than(&next) {
                worker.step();
            }
            let (new, running) = counts
                .borrow_mut()
                .remove(&(level as u64))
                .unwrap_or_default();
            let won_now = std::mem::take(&mut *won.borrow_mut());
            let new = usize::try_from(new).unwrap_or(usize::MAX);
            if states.saturating_add(new) > max_states {
                // A single process stops at the first new state past the
                // limit, in path order: worker 0 finds its path among all
                // of this round's, and keeps only what was seen before it.
                for c in &won_now {
                    cut.send(c.order.clone());
                }
                let after = next + 1;
                cands.advance_to(after);
                recs.advance_to(after);
                sources.advance_to(after);
                cut.advance_to(after);
                while probe.less_than(&after) {
                    worker.step();
                }
                let mut paths = std::mem::take(&mut *cut_paths.borrow_mut());
                paths.sort_unstable();
                stop_at = paths.into_iter().nth(max_states - states);
                states = max_states;
                break (Stop::MaxStates { depth: level }, level);
            }
            frontier = won_now.into_iter().filter(|c| c.running).collect();
            states += new;
            if running == 0 {
                break (Stop::Exhausted, level);
            }
            if level + 1 >= depth_bound {
                break (
                    Stop::Depth {
                        frontier: usize::try_from(running).unwrap_or(usize::MAX),
                    },
                    level,
                );
            }
            level += 1;
        }
    };
    // Closing the inputs lets the dataflow finish once this returns.
    drop(cands);
    drop(recs);
    drop(sources);
    drop(cut);
    if let Some(e) = failed {
        return Err(e);
    }
    if index != 0 {
        return Ok(None);
    }
    let by_path = |x: &Vec<u16>, y: &Vec<u16>| (x.len(), x).cmp(&(y.len(), y));
    let mut recs = std::mem::take(&mut *gathered.borrow_mut());
    recs.retain(|r| before_cut(&r.order, stop_at.as_ref()));
    recs.sort_by(|x, y| by_path(&x.order, &y.order));
    let mut sources = std::mem::take(&mut *gathered_sources.borrow_mut());
    if stop_at.is_some() {
        // An edge's path is its source's and its successor index.
        for s in &mut sources {
            let mut order = s.order.clone();
            s.edges.retain(|&(i, _, _)| {
                order.push(i);
                let keep = before_cut(&order, stop_at.as_ref());
                order.pop();
                keep
            });
        }
        sources.retain(|s| !s.edges.is_empty());
    }
    sources.sort_by(|x, y| by_path(&x.order, &y.order));
    Ok(Some(Gathered {
        states,
        stop,
        deepest,
        recs,
        sources,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pack_and_unpack() {
        let p = PlayerId(3);
        let all = [
            Move::Pass(p),
            Move::Play(p, 7, 2),
            Move::Answer(4, 65535),
            Move::Trigger(p),
            Move::TriggerAt(9),
            Move::Effect(5, p),
            Move::Fact(6, true),
            Move::Mana(p),
            Move::Leave(p),
            Move::Ending(1, p),
            Move::Enter(2, p),
            Move::LeavePlay(1),
            Move::ObjectFact(2, 3, false),
        ];
        for m in all {
            assert_eq!(unpack(pack(m)), Some(m));
        }
        assert_eq!(unpack(99 << 48), None);
    }

    #[test]
    fn host_lists() {
        assert_eq!(
            parse_hosts("# two\n127.0.0.1:4100\n\n[::1]:4101 # second\n").unwrap(),
            vec!["127.0.0.1:4100", "[::1]:4101"]
        );
        assert!(parse_hosts("").unwrap_err().contains("no hosts"));
        assert!(parse_hosts("localhost").unwrap_err().contains("line 1"));
        assert!(parse_hosts("a:1\na:99999").unwrap_err().contains("line 2"));
        assert!(parse_hosts("a:1\na:1").unwrap_err().contains("twice"));
    }
}

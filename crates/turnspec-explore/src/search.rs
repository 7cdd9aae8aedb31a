//! The breadth-first search shared by `explore` and `explore --against`:
//! levels expanded in parallel, merged in a fixed order, so the result does
//! not depend on the number of threads.
//!
//! Memory: a visited state costs its 128-bit key, its parent and the move
//! that reached it, and a slot of the visited index (a table of state
//! numbers, the keys stored once). Depths are implied by the numbering (a
//! level's states are numbered in a row). The states of the level being
//! expanded and of the next are held packed, as the world writes them
//! ([`World::pack`]), in blocks freed as they are expanded; past
//! [`FRONTIER_MEMORY`], a level's earlier blocks wait in a temporary file.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{Hash, Hasher};

use hashbrown::HashTable;
use rayon::prelude::*;

use crate::moves::Move;

mod frontier;
use frontier::{Drain, Held, Level};

/// The parent of the root.
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// How many frontier states are expanded in parallel before their
/// successors are merged (bounds the memory held by unmerged successors).
const CHUNK: usize = 4096;

/// How many states of a chunk one task expands in a row, into one list of
/// successors and one buffer of bytes: two allocations for the batch
/// rather than two per state (they were a tenth of the search's work).
const BATCH: usize = 32;

/// Entries per block of the tree's columns: grown a block at a time, they
/// never hold more than one block unused (a doubling `Vec` can hold as
/// much unused as used).
const BLOCK: usize = 1 << 16;

/// A column grown a block at a time.
#[derive(Debug)]
pub(crate) struct Blocks<T> {
    blocks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Blocks<T> {
    fn default() -> Self {
        Blocks {
            blocks: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Copy> Blocks<T> {
    pub(crate) fn push(&mut self, value: T) {
        if self.len.is_multiple_of(BLOCK) {
            self.blocks.push(Vec::with_capacity(BLOCK));
        }
        if let Some(last) = self.blocks.last_mut() {
            last.push(value);
            self.len += 1;
        }
    }

    /// Entry `i`; `None` past the end.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<T> {
        self.blocks.get(i / BLOCK)?.get(i % BLOCK).copied()
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Bytes allocated.
    pub(crate) fn bytes(&self) -> usize {
        self.blocks.len() * BLOCK * std::mem::size_of::<T>()
            + self.blocks.capacity() * std::mem::size_of::<Vec<T>>()
    }
}

/// The search tree: for each state, the state it was first reached from and
/// the move that reached it. Index 0 is the start.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    parent: Blocks<u32>,
    mv: Blocks<Move>,
    /// The first state of each level: states are numbered level by level.
    level_start: Vec<u32>,
}

impl Tree {
    pub(crate) fn len(&self) -> usize {
        self.parent.len()
    }

    /// The moves from the start to `node`, in order.
    pub(crate) fn path(&self, mut node: u32) -> Vec<Move> {
        let mut out = Vec::new();
        while node != 0 && node != NO_PARENT {
            let (Some(mv), Some(parent)) =
                (self.mv.get(node as usize), self.parent.get(node as usize))
            else {
                break;
            };
            out.push(mv);
            node = parent;
        }
        out.reverse();
        out
    }

    /// How many moves from the start `node` was first reached after.
    pub(crate) fn depth(&self, node: u32) -> usize {
        self.level_start
            .partition_point(|&start| start <= node)
            .saturating_sub(1)
    }

    fn push(&mut self, parent: u32, mv: Move) {
        self.parent.push(parent);
        self.mv.push(mv);
    }

    fn bytes(&self) -> usize {
        self.parent.bytes() + self.mv.bytes() + self.level_start.capacity() * 4
    }
}

/// One successor of a state.
pub(crate) struct Succ<S, O> {
    pub mv: Move,
    /// The canonical hash of the successor's state.
    pub key: u128,
    /// The state to expand later, if the game goes on there.
    pub next: Next<S>,
    /// What the world wants to record about this step.
    pub obs: O,
}

/// A successor's state, as far as the search needs it.
pub(crate) enum Next<S> {
    /// The game stopped there (or the line ended): nothing to expand.
    Stopped,
    /// The state, whole (boxed: most worlds pack their states, and a
    /// successor list is moved about more than it is read).
    Whole(Box<S>),
    /// The state packed, at this range of [`Successors::packed`]; an empty
    /// range for a state at the depth bound (counted, never expanded).
    Packed(std::ops::Range<usize>),
}

/// A state to expand: whole, or as the bytes [`World::pack`] wrote (or
/// the world itself, into [`Successors::packed`]).
#[derive(Clone, Copy)]
pub(crate) enum StateRef<'a, S> {
    Whole(&'a S),
    Packed(&'a [u8]),
}

/// One expanded state's successors, and the bytes of those kept packed.
pub(crate) struct Successors<S, O> {
    pub list: Vec<Succ<S, O>>,
    pub packed: Vec<u8>,
    /// Whether the successors will be expanded: `false` at the depth
    /// bound, where a state that goes on needs no bytes kept.
    pub keep: bool,
}

impl<S, O> Successors<S, O> {
    pub(crate) fn new(keep: bool) -> Self {
        Successors {
            list: Vec::new(),
            packed: Vec::new(),
            keep,
        }
    }
}

/// A state space: how a state's successors are found.
pub(crate) trait World: Sync {
    type State: Send + Sync;
    type Obs: Send;
    /// What a thread reuses from one expansion to the next (a game to load
    /// packed states into, lists).
    type Scratch: Send;

    fn scratch(&self) -> Self::Scratch;

    /// Lists the successors of `state` in `out`, in a fixed order. A world
    /// that packs may write them packed itself; states it gives whole are
    /// packed by the search.
    fn expand(
        &self,
        state: StateRef<'_, Self::State>,
        scratch: &mut Self::Scratch,
        out: &mut Successors<Self::State, Self::Obs>,
    );

    /// Appends `state` to `out` in a compact form [`World::expand`] takes
    /// back as [`StateRef::Packed`], for the frontier; `false` (the
    /// default): this world's states are held whole.
    fn pack(&self, _state: &Self::State, _out: &mut Vec<u8>) -> bool {
        false
    }
}

/// Why the search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Every reachable state within the bounds was visited.
    Exhausted,
    /// The depth bound was reached with this many states not expanded.
    Depth {
        /// States at the bound, reached but not expanded.
        frontier: usize,
    },
    /// `max_states` states were found; the level being expanded was not
    /// finished.
    MaxStates {
        /// The depth (in moves) of the states being expanded.
        depth: usize,
    },
    /// States of a level written to a temporary file (past 16 MiB of
    /// them) could not be read back; the level was not finished.
    Unreadable {
        /// The depth (in moves) of the states being expanded.
        depth: usize,
    },
    /// The search's memory passed `max_memory`; the level being expanded
    /// was not finished.
    MaxMemory {
        /// The depth (in moves) of the states being expanded.
        depth: usize,
        /// The bytes the search held when it stopped, by its own count.
        memory: usize,
    },
}

/// How far a search has got, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Distinct states found so far.
    pub states: usize,
    /// The depth (in moves) of the states being expanded.
    pub level: usize,
    /// States of that level expanded so far.
    pub expanded: usize,
    /// States in that level.
    pub level_states: usize,
    /// Bytes the search holds by its own count (its tree, visited index,
    /// frontier and what the caller keeps per step), the figure
    /// `max_memory` is checked against.
    pub memory: usize,
}

/// What a search is given besides the world: its bounds, and whom to tell
/// how far it got (between chunks of states).
pub(crate) struct Search<'a> {
    pub options: &'a crate::Options,
    pub progress: &'a mut (dyn FnMut(Progress) + Send + 'a),
    /// Bytes of a level's packed states held in memory before the
    /// earlier ones are written to a temporary file.
    pub frontier_memory: usize,
}

/// The default [`Search::frontier_memory`]: 16 MiB of a level held in
/// memory, the rest in a temporary file, written and read back once, in
/// order (a few MB a second at the search's pace: no cost to speak of).
pub(crate) const FRONTIER_MEMORY: usize = 16 << 20;

pub(crate) struct Searched {
    pub tree: Tree,
    pub stop: Stop,
    /// Deepest level of states expanded, in moves.
    pub deepest: usize,
}

/// A 128-bit canonical hash: XXH3-128 over the bytes the value's `Hash`
/// writes, so a collision between billions of states is out of reach in
/// practice. The bytes are gathered in a buffer kept per thread: no
/// allocation per state once it has grown.
pub(crate) fn key_of<T: Hash + ?Sized>(value: &T) -> u128 {
    thread_local! {
        static BYTES: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BYTES.with(|cell| {
        // A value that hashes a value of its own kind (a key of keys) finds
        // the buffer taken: it gathers its bytes in a buffer of its own.
        let Ok(mut bytes) = cell.try_borrow_mut() else {
            let mut own = Vec::new();
            value.hash(&mut Gather(&mut own));
            return xxhash_rust::xxh3::xxh3_128(&own);
        };
        bytes.clear();
        value.hash(&mut Gather(&mut bytes));
        xxhash_rust::xxh3::xxh3_128(&bytes)
    })
}

/// A `Hasher` that only gathers the bytes written to it, for [`key_of`].
struct Gather<'a>(&'a mut Vec<u8>);

impl Hasher for Gather<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    /// Never asked: [`key_of`] hashes the gathered bytes itself.
    fn finish(&self) -> u64 {
        0
    }
}

/// The visited states: their keys by number, and a table of numbers
/// hashed by their keys' low 64 bits (the keys are XXH3 hashes already).
#[derive(Default)]
struct Visited {
    keys: Blocks<u128>,
    index: HashTable<u32>,
}

impl Visited {
    /// The number of the state with `key` and whether it is new (numbered
    /// next); `None` if it is new and `may_add` is false.
    fn find_or_add(&mut self, key: u128, may_add: bool) -> Option<(u32, bool)> {
        let keys = &self.keys;
        let entry = self.index.entry(
            key as u64,
            |&id| keys.get(id as usize) == Some(key),
            |&id| keys.get(id as usize).unwrap_or(0) as u64,
        );
        match entry {
            hashbrown::hash_table::Entry::Occupied(e) => Some((*e.get(), false)),
            hashbrown::hash_table::Entry::Vacant(v) => {
                if !may_add {
                    return None;
                }
                let id = keys.len() as u32;
                v.insert(id);
                self.keys.push(key);
                Some((id, true))
            }
        }
    }

    fn bytes(&self) -> usize {
        self.keys.bytes() + self.index.allocation_size()
    }
}

/// Breadth-first search from `root`. `visit` is called for every successor
/// of every expanded state, in a fixed order (states in the order they were
/// found, successors in the order `expand` lists them), with the tree so
/// far, the parent, the move, what `expand` observed, the successor's
/// number and whether it is new; it returns the bytes it keeps for that
/// step, counted against `max_memory`.
pub(crate) fn bfs<W: World>(
    world: &W,
    root: W::State,
    root_key: u128,
    search: &mut Search<'_>,
    mut visit: impl FnMut(&Tree, u32, Move, &W::Obs, u32, bool) -> usize + Send,
) -> Searched {
    let options = search.options;
    let (depth_bound, max_states) = (options.depth, options.max_states.max(1));
    let mut tree = Tree::default();
    tree.push(NO_PARENT, Move::Pass(turnspec_engine::PlayerId(0)));
    tree.level_start.push(0);
    let mut visited = Visited::default();
    visited.find_or_add(root_key, true);
    let spill_after = search.frontier_memory;
    let mut frontier = Level::new(spill_after);
    let mut packed = Vec::new();
    if world.pack(&root, &mut packed) {
        frontier.push_packed(0, &packed);
    } else {
        frontier.push_whole(0, root);
    }
    // Bytes the caller keeps (cycle edges, findings), by its own count.
    let mut held = 0usize;
    let mut level = 0usize;
    let mut deepest = 0usize;
    // With a depth bound of 0, the start itself is at the bound.
    let mut at_bound = usize::from(depth_bound == 0);
    let stop = 'levels: loop {
        if frontier.len == 0 && at_bound == 0 {
            break Stop::Exhausted;
        }
        if level >= depth_bound {
            break Stop::Depth { frontier: at_bound };
        }
        deepest = level;
        // The next level's states are numbered from here on.
        tree.level_start.push(tree.len() as u32);
        let level_states = frontier.len;
        let mut next = Level::new(spill_after);
        let mut rest = Drain::new(std::mem::replace(&mut frontier, Level::new(spill_after)));
        // States found at the bound are counted, not kept: they will not be
        // expanded, so they are not packed either.
        let keep = level + 1 < depth_bound;
        let mut chunk: Vec<(u32, Held<W::State>)> = Vec::with_capacity(CHUNK);
        let mut buf = Vec::new();
        // The chunk expanded and not merged yet, its bytes, and what the
        // level still held when it was taken: it is merged on one thread
        // while the next chunk expands on the others.
        let mut waiting: Option<Waiting<W::State, W::Obs>> = None;
        let mut expanded_in_level = 0usize;
        loop {
            rest.fill(&mut chunk, &mut buf);
            if rest.failed {
                // Nothing more to expand: what was expanded before is
                // merged as usual, then the level stops (below).
                chunk.clear();
            }
            let expand_chunk = |chunk: &[(u32, Held<W::State>)],
                                buf: &[u8]|
             -> Vec<Batch<W::State, W::Obs>> {
                chunk
                    .par_chunks(BATCH)
                    .map_init(
                        || (world.scratch(), Successors::new(keep)),
                        |(scratch, room), states| expand_batch(world, states, buf, scratch, room),
                    )
                    .collect()
            };
            let Some(Waiting {
                chunk: done_chunk,
                buf: done_buf,
                expanded,
                rest_bytes,
            }) = waiting.take()
            else {
                if chunk.is_empty() {
                    break;
                }
                let expanded = expand_chunk(&chunk, &buf);
                waiting = Some(Waiting {
                    chunk: std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK)),
                    buf: std::mem::take(&mut buf),
                    expanded,
                    rest_bytes: rest.bytes,
                });
                continue;
            };
            let merge = || {
                merge_chunk(
                    &done_chunk,
                    expanded,
                    keep,
                    max_states,
                    level,
                    &mut tree,
                    &mut visited,
                    &mut next,
                    &mut held,
                    &mut at_bound,
                    &mut visit,
                )
            };
            let (merged, expanded_next) = if chunk.is_empty() {
                (merge(), None)
            } else {
                let (m, e) = rayon::join(merge, || expand_chunk(&chunk, &buf));
                (m, Some(e))
            };
            if let Err(stop) = merged {
                break 'levels stop;
            }
            expanded_in_level += done_chunk.len();
            // The level's bytes as they were when this chunk was taken, so
            // the count does not depend on the chunk taken since.
            let memory = tree.bytes() + visited.bytes() + rest_bytes + next.bytes() + held;
            (search.progress)(Progress {
                states: tree.len(),
                level,
                expanded: expanded_in_level,
                level_states,
                memory,
            });
            if memory > options.max_memory {
                break 'levels Stop::MaxMemory {
                    depth: level,
                    memory,
                };
            }
            match expanded_next {
                None => break,
                Some(e) => {
                    // Reuse the merged chunk's lists for the one after.
                    let (mut old_chunk, mut old_buf) = (done_chunk, done_buf);
                    old_chunk.clear();
                    old_buf.clear();
                    waiting = Some(Waiting {
                        chunk: std::mem::replace(&mut chunk, old_chunk),
                        buf: std::mem::replace(&mut buf, old_buf),
                        expanded: e,
                        rest_bytes: rest.bytes,
                    });
                }
            }
        }
        if rest.failed {
            break 'levels Stop::Unreadable { depth: level };
        }
        frontier = next;
        level += 1;
    };
    Searched {
        tree,
        stop,
        deepest,
    }
}

/// A chunk expanded and waiting to be merged.
struct Waiting<S, O> {
    chunk: Vec<(u32, Held<S>)>,
    buf: Vec<u8>,
    expanded: Vec<Batch<S, O>>,
    /// The level's bytes still to expand once this chunk was taken.
    rest_bytes: usize,
}

/// Merges an expanded chunk into the tree, the visited set and the next
/// level, in the chunk's order; `Err` when the state limit is reached.
#[allow(clippy::too_many_arguments)]
fn merge_chunk<S, O>(
    chunk: &[(u32, Held<S>)],
    expanded: Vec<Batch<S, O>>,
    keep: bool,
    max_states: usize,
    level: usize,
    tree: &mut Tree,
    visited: &mut Visited,
    next: &mut Level<S>,
    held: &mut usize,
    at_bound: &mut usize,
    visit: &mut impl FnMut(&Tree, u32, Move, &O, u32, bool) -> usize,
) -> Result<(), Stop> {
    for (states, batch) in chunk.chunks(BATCH).zip(expanded) {
        let Batch { out, ends } = batch;
        let mut list = out.list.into_iter();
        let mut done = 0;
        for ((parent, _), &end) in states.iter().zip(&ends) {
            for succ in list.by_ref().take(end - done) {
                let may_add = tree.len() < max_states;
                let Some((target, new)) = visited.find_or_add(succ.key, may_add) else {
                    return Err(Stop::MaxStates { depth: level });
                };
                if new {
                    tree.push(*parent, succ.mv);
                }
                *held += visit(tree, *parent, succ.mv, &succ.obs, target, new);
                if new {
                    match succ.next {
                        Next::Stopped => {}
                        _ if !keep => *at_bound += 1,
                        Next::Packed(r) => next.push_packed(target, &out.packed[r]),
                        Next::Whole(state) => next.push_whole(target, *state),
                    }
                }
            }
            done = end;
        }
    }
    Ok(())
}

/// The successors of a batch of states, one after another in one list:
/// the `i`th state's end where `ends[i]` says.
struct Batch<S, O> {
    out: Successors<S, O>,
    ends: Vec<usize>,
}

/// Expands a batch of a chunk's states in order, in `room` (the thread's
/// lists, grown once and reused), then copies what they hold into lists of
/// their exact size: growing a list per batch cost more in copies than
/// the allocations it saved.
fn expand_batch<W: World>(
    world: &W,
    states: &[(u32, Held<W::State>)],
    buf: &[u8],
    scratch: &mut W::Scratch,
    room: &mut Successors<W::State, W::Obs>,
) -> Batch<W::State, W::Obs> {
    let mut ends = Vec::with_capacity(states.len());
    for (_, held) in states {
        expand(world, held, buf, scratch, room);
        ends.push(room.list.len());
    }
    let out = Successors {
        list: room.list.drain(..).collect(),
        packed: room.packed.clone(),
        keep: room.keep,
    };
    room.packed.clear();
    Batch { out, ends }
}

/// Expands one state of a chunk onto `out`, packing the successors to
/// keep that the world gave whole.
fn expand<W: World>(
    world: &W,
    held: &Held<W::State>,
    buf: &[u8],
    scratch: &mut W::Scratch,
    out: &mut Successors<W::State, W::Obs>,
) {
    let first = out.list.len();
    let state = match held {
        Held::Whole(state) => StateRef::Whole(state),
        // Bytes this search packed itself: they are always there; if not,
        // the state has no successors rather than a panic.
        Held::Packed(range) => match buf.get(range.clone()) {
            Some(bytes) => StateRef::Packed(bytes),
            None => return,
        },
    };
    world.expand(state, scratch, out);
    let keep = out.keep;
    let Successors { list, packed, .. } = out;
    for succ in &mut list[first..] {
        if let Next::Whole(state) = &succ.next {
            let start = packed.len();
            if !keep {
                // Not kept: only whether there is a state matters.
                succ.next = Next::Packed(start..start);
            } else if world.pack(state, packed) {
                succ.next = Next::Packed(start..packed.len());
            }
        }
    }
}

/// The strongly connected components of a graph with `n` nodes that hold a
/// cycle (more than one node, or a node with an edge to itself), each
/// sorted, in the order of their smallest node. Iterative Tarjan.
pub(crate) fn cycles(n: usize, edges: &Edges) -> Vec<Vec<u32>> {
    let adj = Adjacency::new(n, edges);
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    let mut counter = 0u32;
    // (node, next edge position); and the component being popped. Both
    // reused: most components are one node without a loop.
    let mut call: Vec<(u32, u32)> = Vec::new();
    let mut component: Vec<u32> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN || adj.start[root] == adj.start[root + 1] {
            continue;
        }
        call.push((root as u32, adj.start[root]));
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = call.last_mut() {
            let vi = v as usize;
            if *pos < adj.start[vi + 1] {
                let w = adj.to[*pos as usize] as usize;
                *pos += 1;
                if index[w] == UNSEEN {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    call.push((w as u32, adj.start[w]));
                } else if on_stack[w] {
                    low[vi] = low[vi].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u as usize] = low[u as usize].min(low[vi]);
                }
                if low[vi] == index[vi] {
                    component.clear();
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let looped = component.len() > 1 || adj.targets(v).any(|(_, w)| w == v);
                    if looped {
                        let mut found = component.clone();
                        found.sort_unstable();
                        out.push(found);
                    }
                }
            }
        }
    }
    out.sort_by_key(|c| c[0]);
    out
}

/// An edge of the state graph within one turn, made by a player's move.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Edge {
    pub from: u32,
    pub to: u32,
    pub mv: Move,
}

/// The edges kept, in the order found, as three columns grown a block at
/// a time: 14 bytes an edge, where a `Vec<Edge>` took 16 and up to twice
/// that unused after it doubled.
#[derive(Debug, Default)]
pub(crate) struct Edges {
    from: Blocks<u32>,
    to: Blocks<u32>,
    mv: Blocks<Move>,
}

impl Edges {
    /// Adds `edge`; returns the bytes the columns grew by.
    pub(crate) fn push(&mut self, edge: Edge) -> usize {
        let before = self.bytes();
        self.from.push(edge.from);
        self.to.push(edge.to);
        self.mv.push(edge.mv);
        self.bytes() - before
    }

    pub(crate) fn len(&self) -> usize {
        self.from.len()
    }

    /// Edge `i`; an edge from the start to itself past the end (never
    /// asked: indices come from this list).
    #[inline]
    pub(crate) fn get(&self, i: u32) -> Edge {
        let i = i as usize;
        Edge {
            from: self.from.get(i).unwrap_or(0),
            to: self.to.get(i).unwrap_or(0),
            mv: self
                .mv
                .get(i)
                .unwrap_or(Move::Pass(turnspec_engine::PlayerId(0))),
        }
    }

    fn iter(&self) -> impl Iterator<Item = Edge> + '_ {
        (0..self.len() as u32).map(|i| self.get(i))
    }

    fn bytes(&self) -> usize {
        self.from.bytes() + self.to.bytes() + self.mv.bytes()
    }
}

/// Compressed adjacency: node `v`'s edges are
/// `order[start[v]..start[v + 1]]` (indices into the edge list), in the
/// order the edges were found.
pub(crate) struct Adjacency {
    pub start: Vec<u32>,
    pub order: Vec<u32>,
    /// The target of each edge of `order`, beside it: the cycle search
    /// reads targets only, and the edge list's columns are in blocks.
    pub to: Vec<u32>,
}

impl Adjacency {
    pub(crate) fn new(n: usize, edges: &Edges) -> Adjacency {
        let mut start = vec![0u32; n + 1];
        for e in edges.iter() {
            start[e.from as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut order = vec![0u32; edges.len()];
        let mut to = vec![0u32; edges.len()];
        for (i, e) in edges.iter().enumerate() {
            let at = fill[e.from as usize] as usize;
            order[at] = i as u32;
            to[at] = e.to;
            fill[e.from as usize] += 1;
        }
        Adjacency { start, order, to }
    }

    /// The edges leaving `v`: (edge index, target).
    pub(crate) fn targets(&self, v: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let v = v as usize;
        let range = self.start[v] as usize..self.start[v + 1] as usize;
        self.order[range.clone()]
            .iter()
            .copied()
            .zip(self.to[range].iter().copied())
    }
}

/// The shortest way from `from` back to itself inside `component` (sorted),
/// as the edges taken, in order.
pub(crate) fn shortest_cycle(
    from: u32,
    component: &[u32],
    adj: &Adjacency,
    edges: &Edges,
) -> Vec<u32> {
    let inside = |v: u32| component.binary_search(&v).is_ok();
    // For each node reached: the edge that reached it.
    let mut came: HashMap<u32, u32> = HashMap::new();
    let mut queue = std::collections::VecDeque::new();
    queue.push_back(from);
    while let Some(v) = queue.pop_front() {
        for (edge, w) in adj.targets(v) {
            if !inside(w) {
                continue;
            }
            if w == from {
                let mut back = vec![edge];
                let mut at = v;
                while at != from {
                    let e = came[&at];
                    back.push(e);
                    at = edges.get(e).from;
                }
                back.reverse();
                return back;
            }
            if let Entry::Vacant(e) = came.entry(w) {
                e.insert(edge);
                queue.push_back(w);
            }
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers below 50,000, each leading to two others.
    struct Numbers;

    impl World for Numbers {
        type State = u32;
        type Obs = ();
        type Scratch = ();

        fn scratch(&self) {}

        fn expand(&self, n: StateRef<'_, u32>, _: &mut (), out: &mut Successors<u32, ()>) {
            let n = match n {
                StateRef::Whole(n) => *n,
                StateRef::Packed(bytes) => match bytes.try_into() {
                    Ok(b) => u32::from_le_bytes(b),
                    Err(_) => return,
                },
            };
            for (k, next) in [(n * 3 + 1) % 50_000, (n * 7 + 2) % 50_000]
                .into_iter()
                .enumerate()
            {
                out.list.push(Succ {
                    mv: Move::Pass(turnspec_engine::PlayerId(k as u8)),
                    key: u128::from(next),
                    next: Next::Whole(Box::new(next)),
                    obs: (),
                });
            }
        }

        fn pack(&self, n: &u32, out: &mut Vec<u8>) -> bool {
            out.extend_from_slice(&n.to_le_bytes());
            true
        }
    }

    fn run(frontier_memory: usize) -> (Stop, Vec<Vec<Move>>, usize) {
        let options = crate::Options {
            depth: 30,
            ..Default::default()
        };
        let mut quiet = |_| {};
        let mut search = Search {
            options: &options,
            progress: &mut quiet,
            frontier_memory,
        };
        let mut edges = 0;
        let searched = bfs(&Numbers, 0, 0, &mut search, |_, _, _, _, _, _| {
            edges += 1;
            0
        });
        let tree = &searched.tree;
        let paths = (0..tree.len() as u32)
            .step_by(97)
            .map(|n| tree.path(n))
            .collect();
        (searched.stop, paths, edges)
    }

    #[test]
    fn levels_written_to_a_file_give_the_same_search() {
        let in_memory = run(usize::MAX);
        assert!(in_memory.2 > 40_000);
        // Every block but the one being filled goes to the file.
        assert_eq!(run(0), in_memory);
        assert_eq!(run(10_000), in_memory);
    }

    #[test]
    fn a_level_that_cannot_be_read_back_stops_after_merging_what_was_expanded() {
        let options = crate::Options {
            depth: 30,
            ..Default::default()
        };
        let mut progress = Vec::new();
        let mut record = |p: Progress| progress.push(p);
        let mut search = Search {
            options: &options,
            progress: &mut record,
            frontier_memory: 0,
        };
        // Ten blocks of about 455 states each read back: more than a chunk,
        // so a chunk is expanded and waiting when the next read fails.
        frontier::tests::cut_files_after(Some(10));
        let searched = bfs(&Numbers, 0, 0, &mut search, |_, _, _, _, _, _| 0);
        frontier::tests::cut_files_after(None);
        let Stop::Unreadable { depth } = searched.stop else {
            panic!("{:?}", searched.stop);
        };
        // The waiting chunk was merged as usual: its successors are in the
        // tree, and progress was told.
        let tree = &searched.tree;
        let next_level = tree.level_start[depth + 1] as usize;
        assert!(tree.len() > next_level, "{} states", tree.len());
        let last = progress.last().copied();
        assert_eq!(last.map(|p| (p.level, p.expanded)), Some((depth, CHUNK)));
        assert_eq!(last.map(|p| p.states), Some(tree.len()));
    }

    #[test]
    fn depth_is_implied_by_numbering() {
        let options = crate::Options::default();
        let mut quiet = |_| {};
        let mut search = Search {
            options: &options,
            progress: &mut quiet,
            frontier_memory: FRONTIER_MEMORY,
        };
        let searched = bfs(&Numbers, 0, 0, &mut search, |_, _, _, _, _, _| 0);
        let tree = &searched.tree;
        for n in 0..tree.len() as u32 {
            assert_eq!(tree.depth(n), tree.path(n).len(), "{n}");
        }
    }
}

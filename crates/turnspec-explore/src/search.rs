//! The breadth-first search shared by `explore` and `explore --against`:
//! levels expanded in parallel, merged in a fixed order, so the result does
//! not depend on the number of threads.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use rayon::prelude::*;

use crate::moves::Move;

/// The parent of the root.
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// How many frontier states are expanded in parallel before their
/// successors are merged (bounds the memory held by unmerged successors).
const CHUNK: usize = 4096;

/// The search tree: for each state, the state it was first reached from and
/// the move that reached it. Index 0 is the start.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    pub parent: Vec<u32>,
    pub mv: Vec<Move>,
    pub depth: Vec<u16>,
}

impl Tree {
    pub(crate) fn len(&self) -> usize {
        self.parent.len()
    }

    /// The moves from the start to `node`, in order.
    pub(crate) fn path(&self, mut node: u32) -> Vec<Move> {
        let mut out = Vec::new();
        while node != 0 && node != NO_PARENT {
            out.push(self.mv[node as usize]);
            node = self.parent[node as usize];
        }
        out.reverse();
        out
    }
}

/// One successor of a state.
pub(crate) struct Succ<S, O> {
    pub mv: Move,
    /// The canonical hash of the successor's state.
    pub key: u128,
    /// The state to expand later; `None` when the game stopped there.
    pub next: Option<S>,
    /// What the world wants to record about this step.
    pub obs: O,
}

/// A state space: how a state's successors are found.
pub(crate) trait World: Sync {
    type State: Send + Sync;
    type Obs: Send;
    fn expand(&self, state: &Self::State, out: &mut Vec<Succ<Self::State, Self::Obs>>);
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
}

pub(crate) struct Searched {
    pub tree: Tree,
    pub stop: Stop,
    /// Deepest level of states expanded, in moves.
    pub deepest: usize,
}

/// The hasher of the visited set: its keys are already XXH3-128 hashes,
/// uniformly spread, so their low 64 bits serve as they are.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

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

/// Breadth-first search from `root`. `visit` is called for every successor
/// of every expanded state, in a fixed order (states in the order they were
/// found, successors in the order `expand` lists them), with the tree so
/// far, the parent, the move, what `expand` observed, the successor's
/// number and whether it is new.
pub(crate) fn bfs<W: World>(
    world: &W,
    root: W::State,
    root_key: u128,
    options: &crate::Options,
    mut visit: impl FnMut(&Tree, u32, Move, &W::Obs, u32, bool),
) -> Searched {
    let (depth_bound, max_states) = (options.depth, options.max_states.max(1));
    let mut tree = Tree::default();
    tree.parent.push(NO_PARENT);
    tree.mv.push(Move::Pass(turnspec_engine::PlayerId(0)));
    tree.depth.push(0);
    let mut index: HashMap<u128, u32, BuildHasherDefault<KeyHasher>> = HashMap::default();
    index.insert(root_key, 0);
    let mut frontier: Vec<(u32, W::State)> = vec![(0, root)];
    let mut level = 0usize;
    let mut deepest = 0usize;
    // With a depth bound of 0, the start itself is at the bound.
    let mut at_bound = usize::from(depth_bound == 0);
    let stop = 'levels: loop {
        if frontier.is_empty() && at_bound == 0 {
            break Stop::Exhausted;
        }
        if level >= depth_bound {
            break Stop::Depth { frontier: at_bound };
        }
        deepest = level;
        let mut next = Vec::new();
        // The level's states are moved out a chunk at a time, so each is
        // dropped as soon as it is expanded: the level being left and the
        // next one are not both held whole.
        let mut rest = std::mem::take(&mut frontier).into_iter();
        let mut chunk: Vec<(u32, W::State)> = Vec::with_capacity(CHUNK);
        loop {
            chunk.clear();
            chunk.extend(rest.by_ref().take(CHUNK));
            if chunk.is_empty() {
                break;
            }
            let expanded: Vec<Vec<Succ<W::State, W::Obs>>> = chunk
                .par_iter()
                .map(|(_, state)| {
                    let mut out = Vec::new();
                    world.expand(state, &mut out);
                    out
                })
                .collect();
            for ((parent, _), succs) in chunk.iter().zip(expanded) {
                for succ in succs {
                    let (target, new) = match index.entry(succ.key) {
                        Entry::Occupied(e) => (*e.get(), false),
                        Entry::Vacant(v) => {
                            if tree.len() >= max_states {
                                break 'levels Stop::MaxStates { depth: level };
                            }
                            let id = tree.len() as u32;
                            v.insert(id);
                            tree.parent.push(*parent);
                            tree.mv.push(succ.mv);
                            tree.depth.push(tree.depth[*parent as usize] + 1);
                            (id, true)
                        }
                    };
                    visit(&tree, *parent, succ.mv, &succ.obs, target, new);
                    if new && let Some(state) = succ.next {
                        // States at the depth bound are counted, not kept:
                        // they will not be expanded.
                        if level + 1 < depth_bound {
                            next.push((target, state));
                        } else {
                            at_bound += 1;
                        }
                    }
                }
            }
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

/// The strongly connected components of a graph with `n` nodes that hold a
/// cycle (more than one node, or a node with an edge to itself), each
/// sorted, in the order of their smallest node. Iterative Tarjan.
pub(crate) fn cycles(n: usize, edges: &[Edge]) -> Vec<Vec<u32>> {
    let adj = Adjacency::new(n, edges);
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    let mut counter = 0u32;
    for root in 0..n {
        if index[root] != UNSEEN || adj.start[root] == adj.start[root + 1] {
            continue;
        }
        // (node, next edge position)
        let mut call: Vec<(u32, u32)> = vec![(root as u32, adj.start[root])];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = call.last_mut() {
            let vi = v as usize;
            if *pos < adj.start[vi + 1] {
                let w = edges[adj.order[*pos as usize] as usize].to as usize;
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
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let looped = component.len() > 1 || adj.targets(edges, v).any(|(_, w)| w == v);
                    if looped {
                        component.sort_unstable();
                        out.push(component);
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

/// Compressed adjacency: node `v`'s edges are
/// `order[start[v]..start[v + 1]]` (indices into the edge list), in the
/// order the edges were found.
pub(crate) struct Adjacency {
    pub start: Vec<u32>,
    pub order: Vec<u32>,
}

impl Adjacency {
    pub(crate) fn new(n: usize, edges: &[Edge]) -> Adjacency {
        let mut start = vec![0u32; n + 1];
        for e in edges {
            start[e.from as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut order = vec![0u32; edges.len()];
        for (i, e) in edges.iter().enumerate() {
            order[fill[e.from as usize] as usize] = i as u32;
            fill[e.from as usize] += 1;
        }
        Adjacency { start, order }
    }

    /// The edges leaving `v`: (edge index, target).
    pub(crate) fn targets<'a>(
        &'a self,
        edges: &'a [Edge],
        v: u32,
    ) -> impl Iterator<Item = (u32, u32)> + 'a {
        let v = v as usize;
        self.order[self.start[v] as usize..self.start[v + 1] as usize]
            .iter()
            .map(move |&i| (i, edges[i as usize].to))
    }
}

/// The shortest way from `from` back to itself inside `component` (sorted),
/// as the edges taken, in order.
pub(crate) fn shortest_cycle(
    from: u32,
    component: &[u32],
    adj: &Adjacency,
    edges: &[Edge],
) -> Vec<u32> {
    let inside = |v: u32| component.binary_search(&v).is_ok();
    // For each node reached: the edge that reached it.
    let mut came: HashMap<u32, u32> = HashMap::new();
    let mut queue = std::collections::VecDeque::new();
    queue.push_back(from);
    while let Some(v) = queue.pop_front() {
        for (edge, w) in adj.targets(edges, v) {
            if !inside(w) {
                continue;
            }
            if w == from {
                let mut back = vec![edge];
                let mut at = v;
                while at != from {
                    let e = came[&at];
                    back.push(e);
                    at = edges[e as usize].from;
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

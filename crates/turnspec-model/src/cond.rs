//! Compiled conditions: the `if = "..."` expressions of a spec, resolved to
//! [`Atom`]s and stored as nodes in one arena per spec.
//!
//! The loader parses the text and builds nodes with a [`ConditionBuilder`];
//! the engine evaluates them with [`Conditions::eval`], which never looks at
//! a string.

use crate::ids::{CondId, CounterId, FactId, ObjectFactId, PhaseId, RoleId, TimingId, VariantId};
use crate::limits::{LimitError, MAX_CONDITION_DEPTH, MAX_CONDITION_NODES};

/// Something the running game knows, named in a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Atom {
    /// `variant.NAME`: a variant chosen when the game starts (Archenemy).
    Variant(VariantId),
    /// `fact.NAME`: a yes/no the host or a scenario sets.
    Fact(FactId),
    /// `counter.NAME`: a number kept by the engine (lands played, attackers).
    Counter(CounterId),
    /// `players`: players still in the game.
    Players,
    /// `teams`: sides still in the game: teams with shared team turns (805),
    /// else the same as `players`.
    Teams,
    /// `turn`: the turn number, counting from 1.
    Turn,
    /// `first_turn`: this is the active player's first turn.
    FirstTurn,
    /// `starting_player`: the active player took the game's first turn.
    StartingPlayer,
    /// `seat`: the active player's place in turn order (1 = starting player).
    Seat,
    /// `phase_number`: how many phases of the current phase's kind have
    /// begun this turn, this one included (the first main phase is 1).
    PhaseNumber,
    /// `repeat_count`: how many times the current step has already repeated.
    RepeatCount,
    /// `window_opened`: a priority window opened in this step instance.
    WindowOpened,
    /// `stack_empty`: the stack is empty.
    StackEmpty,
    /// `stack_depth`: how many objects are on the stack (or in the bag).
    StackDepth,
    /// `top_is.CLASS`: 1 if the top object of the stack was played at
    /// this timing class.
    TopIs(TimingId),
    /// `top.NAME`: the attribute `NAME` of the top object's timing class
    /// (0 for an empty stack, a trigger or a class without it).
    TopAttribute(u8),
    /// `elected.PHASE`: the turn player elected this optional phase this turn.
    Elected(PhaseId),
    /// `extra_turn_next`: the next turn is an extra turn (500.7).
    ExtraTurnNext,
    /// `extra_turn`: the current turn is an extra turn (500.7); in the
    /// between-turns phases, the turn that just ended.
    ExtraTurn,
    /// `object.entered_this_turn`: the object a play is made by entered
    /// play this turn.
    ObjectEnteredThisTurn,
    /// `object.since_turn_start`: its controller has controlled the object
    /// continuously since the start of their most recent turn (302.6).
    ObjectSinceTurnStart,
    /// `object.NAME`: a fact the host set on the object.
    ObjectFact(ObjectFactId),
    /// `role.ID`: the seat (1 = the first player) of the role's holder.
    Role(RoleId),
}

impl Atom {
    /// Whether the atom reads the object a play is made by: only the
    /// conditions of a class with `by = "object"` may.
    pub fn reads_object(self) -> bool {
        matches!(
            self,
            Atom::ObjectEnteredThisTurn | Atom::ObjectSinceTurnStart | Atom::ObjectFact(_)
        )
    }
}

/// The names a condition may use apart from `variant.`, `fact.` and `counter.`.
pub const BUILTIN_ATOMS: &[(&str, Atom)] = &[
    ("players", Atom::Players),
    ("teams", Atom::Teams),
    ("turn", Atom::Turn),
    ("first_turn", Atom::FirstTurn),
    ("starting_player", Atom::StartingPlayer),
    ("seat", Atom::Seat),
    ("phase_number", Atom::PhaseNumber),
    ("repeat_count", Atom::RepeatCount),
    ("window_opened", Atom::WindowOpened),
    ("stack_empty", Atom::StackEmpty),
    ("stack_depth", Atom::StackDepth),
    ("extra_turn_next", Atom::ExtraTurnNext),
    ("extra_turn", Atom::ExtraTurn),
];

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CompareOp {
    /// The operator that gives the same answer with its sides swapped.
    pub fn flipped(self) -> CompareOp {
        match self {
            CompareOp::Eq => CompareOp::Eq,
            CompareOp::Ne => CompareOp::Ne,
            CompareOp::Lt => CompareOp::Gt,
            CompareOp::Le => CompareOp::Ge,
            CompareOp::Gt => CompareOp::Lt,
            CompareOp::Ge => CompareOp::Le,
        }
    }

    /// Whether `a OP b` holds.
    #[inline]
    pub fn apply(self, a: i32, b: i32) -> bool {
        match self {
            CompareOp::Eq => a == b,
            CompareOp::Ne => a != b,
            CompareOp::Lt => a < b,
            CompareOp::Le => a <= b,
            CompareOp::Gt => a > b,
            CompareOp::Ge => a >= b,
        }
    }
}

/// One node of a compiled condition; children are indices into the same
/// arena (read them with [`Conditions::node`]). Public for analyses of
/// conditions, such as the loader's check for repeats that never end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Node {
    /// A number (`true` is 1).
    Const(i32),
    /// Something the game knows.
    Atom(Atom),
    /// `not a`.
    Not(u32),
    /// `a and b`.
    And(u32, u32),
    /// `a or b`.
    Or(u32, u32),
    /// `a OP b`.
    Compare(CompareOp, u32, u32),
}

/// What [`Conditions::residual`] leaves of a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Residual {
    /// Decided whatever the other atoms are.
    Value(bool),
    /// Still to evaluate: this node.
    Node(u32),
}

/// A node under construction, handed out by a [`ConditionBuilder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeRef {
    index: u32,
    depth: u16,
}

/// Where a running game answers atoms from.
pub trait AtomSource {
    /// The current value of `atom`.
    fn atom(&self, atom: Atom) -> i32;
    /// The facts that are set, one bit each, for a quick rejection of
    /// conditions that need a fact that is not set.
    fn fact_bits(&self) -> u64 {
        u64::MAX
    }
    /// The variants in play, one bit each.
    fn variant_bits(&self) -> u64 {
        u64::MAX
    }
}

/// Facts and variants a condition cannot be true without.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Needs {
    facts: u64,
    variants: u64,
}

/// All compiled conditions of a spec, plus their source text for display.
#[derive(Debug, Clone, Default)]
pub struct Conditions {
    nodes: Vec<Node>,
    /// Per node: the facts and variants that must be set for it to be true.
    needs: Vec<Needs>,
    /// Root node and source text of every finished condition, by root.
    roots: Vec<(u32, String)>,
}

impl Conditions {
    /// Whether `cond` holds. A condition of another spec counts as false.
    pub fn eval(&self, cond: CondId, source: &impl AtomSource) -> bool {
        let Some(n) = self.needs.get(cond.index()) else {
            return false;
        };
        // Most gated conditions ("variant.archenemy and ...") fail here
        // without walking the tree.
        if source.fact_bits() & n.facts != n.facts
            || source.variant_bits() & n.variants != n.variants
        {
            return false;
        }
        self.value(cond.index() as u32, source) != 0
    }

    // Recursion is bounded: the builder refuses trees deeper than
    // MAX_CONDITION_DEPTH.
    fn value(&self, index: u32, source: &impl AtomSource) -> i32 {
        match self.nodes[index as usize] {
            Node::Const(v) => v,
            Node::Atom(a) => source.atom(a),
            Node::Not(a) => (self.value(a, source) == 0) as i32,
            Node::And(a, b) => (self.value(a, source) != 0 && self.value(b, source) != 0) as i32,
            Node::Or(a, b) => (self.value(a, source) != 0 || self.value(b, source) != 0) as i32,
            Node::Compare(op, a, b) => {
                op.apply(self.value(a, source), self.value(b, source)) as i32
            }
        }
    }

    /// Whether `cond` is a condition of this arena.
    pub fn contains(&self, cond: CondId) -> bool {
        self.roots
            .binary_search_by_key(&(cond.index() as u32), |(r, _)| *r)
            .is_ok()
    }

    /// The condition as the designer wrote it.
    pub fn source(&self, cond: CondId) -> &str {
        match self
            .roots
            .binary_search_by_key(&(cond.index() as u32), |(r, _)| *r)
        {
            Ok(i) => &self.roots[i].1,
            Err(_) => "",
        }
    }

    /// The value if the condition does not depend on the game at all.
    pub fn constant(&self, cond: CondId) -> Option<bool> {
        self.fold(cond, &|_| None)
    }

    /// The value if the atoms that `known` answers decide the condition
    /// whatever the others are. A game set-up folds what cannot change
    /// during play (variants, player counts) this way, so the engine never
    /// evaluates those parts again.
    pub fn fold(&self, cond: CondId, known: &impl Fn(Atom) -> Option<i32>) -> Option<bool> {
        if !self.contains(cond) {
            return None;
        }
        self.partial_value(cond.index() as u32, known)
            .map(|v| v != 0)
    }

    /// What is left of `cond` once the atoms `known` answers are folded:
    /// a value, or the node that still has to be evaluated (an `and` with a
    /// side known to be true is its other side). Read the node with
    /// [`Conditions::node`], evaluate it with [`Conditions::eval_node`].
    pub fn residual(&self, cond: CondId, known: &impl Fn(Atom) -> Option<i32>) -> Residual {
        if !self.contains(cond) {
            return Residual::Value(false);
        }
        if let Some(v) = self.fold(cond, known) {
            return Residual::Value(v);
        }
        // Not decided, so every node below on the path taken is undecided.
        let mut index = cond.index() as u32;
        loop {
            match self.nodes[index as usize] {
                Node::And(a, b) => {
                    match (self.partial_value(a, known), self.partial_value(b, known)) {
                        (Some(x), None) if x != 0 => index = b,
                        (None, Some(x)) if x != 0 => index = a,
                        _ => return Residual::Node(index),
                    }
                }
                Node::Or(a, b) => {
                    match (self.partial_value(a, known), self.partial_value(b, known)) {
                        (Some(0), None) => index = b,
                        (None, Some(0)) => index = a,
                        _ => return Residual::Node(index),
                    }
                }
                _ => return Residual::Node(index),
            }
        }
    }

    /// Whether the node at `index` (a [`Residual::Node`]) holds now; an
    /// index outside the arena counts as false.
    pub fn eval_node(&self, index: u32, source: &impl AtomSource) -> bool {
        (index as usize) < self.nodes.len() && self.value(index, source) != 0
    }

    // `and` and `or` ask `known` about their right side only when the left
    // does not decide them, so a caller that watches which atoms are asked
    // (the engine's turn program) learns which ones the value depends on.
    fn partial_value(&self, index: u32, known: &impl Fn(Atom) -> Option<i32>) -> Option<i32> {
        let value = |i| self.partial_value(i, known);
        Some(match self.nodes[index as usize] {
            Node::Const(v) => v,
            Node::Atom(a) => return known(a),
            Node::Not(a) => (value(a)? == 0) as i32,
            Node::And(a, b) => match value(a) {
                Some(0) => 0,
                left => match (left, value(b)) {
                    (_, Some(0)) => 0,
                    (Some(_), Some(_)) => 1,
                    _ => return None,
                },
            },
            Node::Or(a, b) => match value(a) {
                Some(x) if x != 0 => 1,
                left => match (left, value(b)) {
                    (_, Some(x)) if x != 0 => 1,
                    (Some(_), Some(_)) => 0,
                    _ => return None,
                },
            },
            Node::Compare(op, a, b) => op.apply(value(a)?, value(b)?) as i32,
        })
    }

    /// Atoms a condition reads (for validation and tools).
    pub fn atoms(&self, cond: CondId) -> Vec<Atom> {
        let mut out = Vec::new();
        if self.contains(cond) {
            self.collect(cond.index() as u32, &mut out);
        }
        out
    }

    fn collect(&self, index: u32, out: &mut Vec<Atom>) {
        match self.nodes[index as usize] {
            Node::Const(_) => {}
            Node::Atom(a) => out.push(a),
            Node::Not(a) => self.collect(a, out),
            Node::And(a, b) | Node::Or(a, b) | Node::Compare(_, a, b) => {
                self.collect(a, out);
                self.collect(b, out);
            }
        }
    }

    /// The numbers `atom` is compared with in `cond` (`repeat_count < 300`
    /// gives 300), so the loader can refuse values the game state cannot
    /// reach.
    pub fn compared_with(&self, cond: CondId, atom: Atom) -> Vec<i32> {
        let mut out = Vec::new();
        if self.contains(cond) {
            self.collect_compared(cond.index() as u32, atom, &mut out);
        }
        out
    }

    fn collect_compared(&self, index: u32, atom: Atom, out: &mut Vec<i32>) {
        match self.nodes[index as usize] {
            Node::Const(_) | Node::Atom(_) => {}
            Node::Not(a) => self.collect_compared(a, atom, out),
            Node::And(a, b) | Node::Or(a, b) => {
                self.collect_compared(a, atom, out);
                self.collect_compared(b, atom, out);
            }
            Node::Compare(_, a, b) => {
                match (self.nodes[a as usize], self.nodes[b as usize]) {
                    (Node::Atom(x), Node::Const(v)) | (Node::Const(v), Node::Atom(x))
                        if x == atom =>
                    {
                        out.push(v)
                    }
                    _ => {}
                }
                self.collect_compared(a, atom, out);
                self.collect_compared(b, atom, out);
            }
        }
    }

    /// The node at `index` (a condition's root is `cond.index()`), or
    /// `None` outside the arena.
    pub fn node(&self, index: u32) -> Option<Node> {
        self.nodes.get(index as usize).copied()
    }

    /// How many nodes all conditions hold together.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Starts a new condition. Nodes built and not finished are removed
    /// when the builder is dropped. Outside this crate a condition is
    /// built for a spec under construction ([`crate::SpecParts::condition`]),
    /// so a free-standing `Conditions` cannot make condition ids.
    pub(crate) fn builder(&mut self) -> ConditionBuilder<'_> {
        let mark = self.nodes.len();
        ConditionBuilder {
            arena: self,
            mark,
            error: None,
        }
    }

    fn push(&mut self, node: Node) -> Result<u32, LimitError> {
        if self.nodes.len() >= MAX_CONDITION_NODES {
            return Err(LimitError {
                what: "condition nodes",
                limit: MAX_CONDITION_NODES,
                value: self.nodes.len() + 1,
            });
        }
        let needs = match node {
            Node::Atom(Atom::Fact(f)) => Needs {
                facts: 1 << (f.index() & 63),
                variants: 0,
            },
            Node::Atom(Atom::Variant(v)) => Needs {
                facts: 0,
                variants: 1 << (v.index() & 63),
            },
            Node::And(a, b) => {
                let (a, b) = (self.needs[a as usize], self.needs[b as usize]);
                Needs {
                    facts: a.facts | b.facts,
                    variants: a.variants | b.variants,
                }
            }
            Node::Or(a, b) => {
                let (a, b) = (self.needs[a as usize], self.needs[b as usize]);
                Needs {
                    facts: a.facts & b.facts,
                    variants: a.variants & b.variants,
                }
            }
            // A bare number, a negation or a comparison guarantees nothing.
            _ => Needs::default(),
        };
        self.nodes.push(node);
        self.needs.push(needs);
        Ok((self.nodes.len() - 1) as u32)
    }
}

/// Builds one condition bottom-up. The first limit passed (too many nodes,
/// nesting deeper than [`MAX_CONDITION_DEPTH`]) is kept and returned by
/// [`ConditionBuilder::finish`]; later calls still return usable handles.
pub struct ConditionBuilder<'a> {
    arena: &'a mut Conditions,
    mark: usize,
    error: Option<LimitError>,
}

impl ConditionBuilder<'_> {
    fn node(&mut self, node: Node, depth: u16) -> NodeRef {
        if depth as usize > MAX_CONDITION_DEPTH && self.error.is_none() {
            self.error = Some(LimitError {
                what: "levels of nesting in a condition",
                limit: MAX_CONDITION_DEPTH,
                value: depth as usize,
            });
        }
        let depth = depth.min(MAX_CONDITION_DEPTH as u16 + 1);
        match self.arena.push(node) {
            Ok(index) => NodeRef { index, depth },
            Err(e) => {
                self.error.get_or_insert(e);
                // Refer to the node made first; finish() reports the error.
                NodeRef {
                    index: self.mark.min(self.arena.nodes.len().saturating_sub(1)) as u32,
                    depth,
                }
            }
        }
    }

    /// A number (`true` is 1, `false` 0).
    pub fn constant(&mut self, value: i32) -> NodeRef {
        self.node(Node::Const(value), 1)
    }

    /// Something the game knows.
    pub fn atom(&mut self, atom: Atom) -> NodeRef {
        self.node(Node::Atom(atom), 1)
    }

    /// `not a`.
    pub fn not(&mut self, a: NodeRef) -> NodeRef {
        self.node(Node::Not(a.index), a.depth + 1)
    }

    /// `a and b`.
    pub fn and(&mut self, a: NodeRef, b: NodeRef) -> NodeRef {
        self.node(Node::And(a.index, b.index), a.depth.max(b.depth) + 1)
    }

    /// `a or b`.
    pub fn or(&mut self, a: NodeRef, b: NodeRef) -> NodeRef {
        self.node(Node::Or(a.index, b.index), a.depth.max(b.depth) + 1)
    }

    /// `a OP b`.
    pub fn compare(&mut self, op: CompareOp, a: NodeRef, b: NodeRef) -> NodeRef {
        self.node(
            Node::Compare(op, a.index, b.index),
            a.depth.max(b.depth) + 1,
        )
    }

    /// Ends the condition at `root`, recording the designer's text.
    pub fn finish(mut self, root: NodeRef, source: &str) -> Result<CondId, LimitError> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        // Roots must increase so `source` can search them: a root made by
        // this builder is above every older root; an older node used as a
        // root is copied on top.
        let root = if (root.index as usize) < self.mark {
            let node = self.arena.nodes[root.index as usize];
            self.arena.push(node)?
        } else {
            root.index
        };
        self.arena.roots.push((root, source.to_string()));
        self.mark = self.arena.nodes.len();
        Ok(crate::arena::Sealed::from_index(root as usize))
    }
}

impl Drop for ConditionBuilder<'_> {
    fn drop(&mut self) {
        // Unfinished nodes go away, so a failed parse leaves no garbage.
        self.arena.nodes.truncate(self.mark);
        self.arena.needs.truncate(self.mark);
    }
}

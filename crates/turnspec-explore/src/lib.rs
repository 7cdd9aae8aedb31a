//! Exhaustive exploration of a turn spec.
//!
//! Scenarios test what someone thought of; `explore` tries everything
//! within a bound. From the start of a game it searches breadth first over
//! every sequence of moves (passes, plays at each usable timing class,
//! queued answers to turn-based actions, reported triggers, structural
//! effects, facts, mana; each family can be switched off), merging states
//! the engine cannot tell apart by a canonical hash of the game state and
//! the host's queued answers. It reports what was reached and what never
//! was, states where the game cannot go on, cycles that change nothing
//! within a turn and the deepest stack, each with the shortest sequence of
//! moves, which [`Report::scenario`] writes as a scenario file.
//!
//! [`explore_against`] runs two specs in lockstep on the same moves (named
//! by id) and finds the shortest sequences after which their traces differ,
//! or a move one accepts and the other refuses: one finding per kind of
//! difference.
//!
//! Levels of the search are expanded in parallel and merged in a fixed
//! order, so findings and scenarios are the same for any number of threads.
//! No I/O: callers pass specs and write the scenarios.

#![warn(missing_docs, unreachable_pub)]

mod against;
#[cfg(feature = "distributed")]
mod distributed;
mod explore;
mod moves;
mod scenario;
mod search;
mod stops;

pub use against::{
    DiffReport, Difference, Side as DiffSide, explore_against, explore_against_with_progress,
};
#[cfg(feature = "distributed")]
pub use distributed::{Cluster, explore_against_distributed, explore_distributed, parse_hosts};
pub use explore::{CoverageItem, Finding, FindingKind, Report, explore, explore_with_progress};
pub use moves::{Move, OBJECTS, Table};
pub use scenario::run_scenario;
pub use search::{Progress, Stop};
pub use stops::{PassedWindow, StopsReport, Verdict, check_stops};
pub use turnspec_engine::Status;

use std::hash::{Hash, Hasher};

use turnspec_engine::{Event, Game, GameOptions, PlayerId, StartAt};
use turnspec_model::Spec;

/// Which kinds of moves the search tries. Passing and playing are the
/// players' moves; the others are the host's, and at most
/// [`Options::host_moves`] of them are made in one sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Families {
    /// The priority holder passes.
    pub pass: bool,
    /// A player plays at a timing class they may use now.
    pub play: bool,
    /// The host queues an answer (1 to [`Options::max_answer`], within the
    /// action's declared `max`) for the next time a turn-based action asks.
    pub answer: bool,
    /// The host reports a triggered ability for a player.
    pub trigger: bool,
    /// The host applies one of the spec's structural effects for a player.
    pub effect: bool,
    /// The host sets or clears one of the spec's facts.
    pub fact: bool,
    /// The host puts one mana in a player's pool (specs with `[mana]`).
    pub mana: bool,
    /// A player leaves the game (off by default).
    pub leave: bool,
    /// The host declares one of the spec's endings for a player (off by
    /// default): a win or a draw ends the game, a loss makes them leave.
    pub ending: bool,
    /// The host reports objects entering and leaving play (up to
    /// [`moves::OBJECTS`] of them, `O1`, `O2`) and sets their facts, and
    /// plays at classes with `by = "object"` name each object in play (off
    /// by default; specs with `[objects]`).
    pub objects: bool,
}

impl Default for Families {
    fn default() -> Self {
        Families {
            pass: true,
            play: true,
            answer: true,
            trigger: true,
            effect: true,
            fact: true,
            mana: true,
            leave: false,
            ending: false,
            objects: false,
        }
    }
}

impl Families {
    /// The family names, as the command line spells them.
    pub const NAMES: [&'static str; 10] = [
        "pass", "play", "answer", "trigger", "effect", "fact", "mana", "leave", "ending", "objects",
    ];

    /// Switches the family `name` on or off; an unknown name is an error
    /// listing the known ones.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), String> {
        let slot = match name {
            "pass" => &mut self.pass,
            "play" => &mut self.play,
            "answer" => &mut self.answer,
            "trigger" => &mut self.trigger,
            "effect" => &mut self.effect,
            "fact" => &mut self.fact,
            "mana" => &mut self.mana,
            "leave" => &mut self.leave,
            "ending" => &mut self.ending,
            "objects" => &mut self.objects,
            _ => {
                return Err(format!(
                    "unknown move family `{name}` (families: {})",
                    Self::NAMES.join(", ")
                ));
            }
        };
        *slot = on;
        Ok(())
    }

    /// The families switched on, by name.
    pub fn enabled(&self) -> Vec<&'static str> {
        let on = [
            self.pass,
            self.play,
            self.answer,
            self.trigger,
            self.effect,
            self.fact,
            self.mana,
            self.leave,
            self.ending,
            self.objects,
        ];
        Self::NAMES
            .iter()
            .zip(on)
            .filter(|(_, on)| *on)
            .map(|(n, _)| *n)
            .collect()
    }
}

/// The bounds and switches of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Seats at the table.
    pub players: u8,
    /// The game stops when this turn is over (a normal end, not a finding).
    pub turns: u32,
    /// The longest sequence of moves tried.
    pub depth: usize,
    /// Stop, with an "incomplete" report, once this many distinct states
    /// have been found.
    pub max_states: usize,
    /// Stop, with an "incomplete" report, once the search holds more than
    /// this many bytes by its own count (its tree, visited index, frontier
    /// and kept edges; see [`Progress::memory`]), checked between chunks
    /// of states. `usize::MAX`: no limit.
    pub max_memory: usize,
    /// Which kinds of moves are tried.
    pub families: Families,
    /// The largest answer tried for a turn-based action (and never more
    /// than its declared `max`).
    pub max_answer: u16,
    /// The most host moves (answers, triggers, effects, facts, mana,
    /// leaving) in one sequence.
    pub host_moves: u8,
    /// Worker threads; 0: rayon's default (one per core).
    pub threads: usize,
    /// Where the game starts, as a scenario's `[setup]` says it; `None`:
    /// the first turn's beginning.
    pub start: Option<StartPoint>,
    /// Variant ids switched on (a scenario's `variants`).
    pub variants: Vec<String>,
}

/// A starting point, with the meaning of a scenario's `turn`, `active`,
/// `phase` and `step` (docs/scenarios.md §4): the beginning of that phase or
/// step, as if everything before it had happened.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StartPoint {
    /// The turn, from 1.
    pub turn: u32,
    /// Whose turn it is, from 0 (P1).
    pub active: u8,
    /// A phase id; `None`: the phase of `step`, or the turn's first phase.
    pub phase: Option<String>,
    /// A step id (or a step-less phase's id); `None`: the phase's first.
    pub step: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            players: 2,
            turns: 1,
            depth: 12,
            max_states: 1_000_000,
            max_memory: usize::MAX,
            families: Families::default(),
            max_answer: 1,
            host_moves: 1,
            threads: 0,
            start: None,
            variants: Vec::new(),
        }
    }
}

impl Options {
    /// The settings in one line, for reports and scenario descriptions.
    pub fn summary(&self) -> String {
        let mut from = String::new();
        if let Some(s) = &self.start {
            from = format!(", from turn {} (P{})", s.turn, s.active + 1);
            if let Some(p) = &s.phase {
                from.push_str(&format!(" phase {p}"));
            }
            if let Some(st) = &s.step {
                from.push_str(&format!(" step {st}"));
            }
        }
        if !self.variants.is_empty() {
            from.push_str(&format!(", variants {}", self.variants.join(", ")));
        }
        // Said only when set, so reports made without it read as before.
        let memory = match self.max_memory {
            usize::MAX => String::new(),
            m => format!(", at most {m} bytes of memory"),
        };
        format!(
            "{} players{from}, {} turn(s), depth {}, at most {} states{memory}, at most {} host move(s), answers up to {}, families: {}",
            self.players,
            self.turns,
            self.depth,
            self.max_states,
            self.host_moves,
            self.max_answer,
            self.families.enabled().join(", ")
        )
    }
}

/// One state of the search: one game (or two in lockstep) with its host's
/// queued answers, how many host moves were made, and (in lockstep) whether
/// the traces already differed on the way.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub sides: Sides,
    pub host_moves: u8,
    pub diverged: bool,
}

/// The games of a node: one, or two in lockstep. One game is held inline,
/// so a single-spec successor costs no allocation for its node; two are
/// boxed, so a node stays the size of one game in the frontier.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // one game inline is the point
pub(crate) enum Sides {
    One(moves::Side),
    Two(Box<[moves::Side; 2]>),
}

impl std::ops::Deref for Sides {
    type Target = [moves::Side];

    fn deref(&self) -> &[moves::Side] {
        match self {
            Sides::One(s) => std::slice::from_ref(s),
            Sides::Two(s) => &s[..],
        }
    }
}

impl std::ops::DerefMut for Sides {
    fn deref_mut(&mut self) -> &mut [moves::Side] {
        match self {
            Sides::One(s) => std::slice::from_mut(s),
            Sides::Two(s) => &mut s[..],
        }
    }
}

impl Hash for Node {
    fn hash<H: Hasher>(&self, h: &mut H) {
        for s in self.sides.iter() {
            s.game.state().hash(h);
            s.pending.hash(h);
        }
        self.host_moves.hash(h);
        self.diverged.hash(h);
    }
}

/// Bytes every engine snapshot begins with (magic, format version, spec
/// fingerprint, flags; see the engine's snapshot module): the same for all
/// states of one game, so a packed frontier keeps them once.
const SNAPSHOT_HEADER: usize = 15;

/// Writes a [`Node`] compactly for the search's frontier and reads it
/// back: per side the engine's snapshot (without its header) and the
/// queued answers, then the host moves and whether the traces diverged.
pub(crate) struct Packer {
    /// The root: each thread restores states into a clone of it, sharing
    /// the turn programs the search compiled (none is compiled again on
    /// loading).
    root: Node,
    headers: Vec<Vec<u8>>,
}

impl Packer {
    /// A packer for states of the same games as `root`.
    pub(crate) fn new(root: &Node) -> Packer {
        Packer {
            root: root.clone(),
            headers: root
                .sides
                .iter()
                .map(|s| {
                    let mut b = s.game.to_bytes();
                    b.truncate(SNAPSHOT_HEADER);
                    b
                })
                .collect(),
        }
    }

    pub(crate) fn pack(&self, node: &Node, out: &mut Vec<u8>) {
        self.pack_sides(&node.sides, node.host_moves, node.diverged, out);
    }

    /// [`Packer::pack`] of a node with these sides, host moves and
    /// divergence, without making the node.
    pub(crate) fn pack_sides(
        &self,
        sides: &[moves::Side],
        host_moves: u8,
        diverged: bool,
        out: &mut Vec<u8>,
    ) {
        for (side, header) in sides.iter().zip(&self.headers) {
            let start = out.len();
            side.game.write_bytes(out);
            // The header is left out when it is the root's (always, in
            // practice); a flag byte says which. In its room go the flag
            // and the body's length, and the body moves back over the rest.
            if out[start..].starts_with(header) {
                let body = out.len() - start - SNAPSHOT_HEADER;
                let mut prefix = [0u8; SNAPSHOT_HEADER];
                let mut at = 1;
                let mut n = body;
                while n >= 0x80 {
                    prefix[at] = (n as u8) | 0x80;
                    n >>= 7;
                    at += 1;
                }
                prefix[at] = n as u8;
                at += 1;
                out[start..start + at].copy_from_slice(&prefix[..at]);
                out.copy_within(start + SNAPSHOT_HEADER.., start + at);
                out.truncate(start + at + body);
            } else {
                let whole = out.split_off(start);
                out.push(1);
                put_var(out, whole.len());
                out.extend_from_slice(&whole);
            }
            put_var(out, side.pending.len());
            for &(action, answer, trigger) in &side.pending {
                put_var(out, action.index());
                put_var(out, usize::from(answer));
                out.push(u8::from(trigger));
            }
        }
        out.push(host_moves);
        out.push(u8::from(diverged));
    }

    /// The host moves and whether the traces diverged, of a node packed by
    /// [`Packer::pack`]: its last two bytes.
    #[cfg(feature = "distributed")]
    pub(crate) fn host_moves_and_divergence(bytes: &[u8]) -> Option<(u8, bool)> {
        match bytes {
            [.., host_moves, diverged] => Some((*host_moves, *diverged != 0)),
            _ => None,
        }
    }

    /// The node to expand: `state` itself when whole, else its bytes
    /// restored into `parent` (a scratch node, with `snapshot` as room).
    /// Bytes the search packed itself always load; if not, `None`, and the
    /// state has no successors rather than a panic.
    pub(crate) fn node_of<'n>(
        &self,
        state: search::StateRef<'n, Node>,
        parent: &'n mut Node,
        snapshot: &mut Vec<u8>,
    ) -> Option<&'n Node> {
        match state {
            search::StateRef::Whole(node) => Some(node),
            search::StateRef::Packed(bytes) => {
                self.restore(bytes, parent, snapshot).then_some(&*parent)
            }
        }
    }

    /// A node to restore states into ([`Packer::restore`]).
    pub(crate) fn scratch_node(&self) -> Node {
        self.root.clone()
    }

    /// The search's key of a node: the hash of its packed bytes (which
    /// hold exactly the state that is explored: the games' states, the
    /// queued answers, the host moves, the divergence), written in `buf`.
    pub(crate) fn key(&self, node: &Node, buf: &mut Vec<u8>) -> u128 {
        buf.clear();
        self.pack(node, buf);
        key_of_bytes(buf)
    }

    /// Loads a node packed by [`Packer::pack`] into `node` (a node of
    /// these games, reused: nothing is compiled or allocated once it has
    /// grown), with `snapshot` as room for a side's snapshot; `false` if
    /// the bytes are not one (then `node` is left in some state of them).
    pub(crate) fn restore(&self, bytes: &[u8], node: &mut Node, snapshot: &mut Vec<u8>) -> bool {
        self.restore_inner(bytes, node, snapshot).is_some()
    }

    fn restore_inner(&self, bytes: &[u8], node: &mut Node, snapshot: &mut Vec<u8>) -> Option<()> {
        if node.sides.len() != self.headers.len() {
            return None;
        }
        let mut at = 0usize;
        for (side, header) in node.sides.iter_mut().zip(&self.headers) {
            let whole = *bytes.get(at)?;
            at += 1;
            let len = get_var(bytes, &mut at)?;
            let body = bytes.get(at..at.checked_add(len)?)?;
            at += len;
            snapshot.clear();
            if whole == 0 {
                snapshot.extend_from_slice(header);
            }
            snapshot.extend_from_slice(body);
            side.game.restore(snapshot).ok()?;
            let spec = side.game.spec();
            let n = get_var(bytes, &mut at)?;
            side.pending.clear();
            for _ in 0..n {
                let action = spec.turn_actions().ids().nth(get_var(bytes, &mut at)?)?;
                let answer = u16::try_from(get_var(bytes, &mut at)?).ok()?;
                let trigger = *bytes.get(at)? != 0;
                at += 1;
                side.pending.push((action, answer, trigger));
            }
        }
        node.host_moves = *bytes.get(at)?;
        node.diverged = *bytes.get(at + 1)? != 0;
        (at + 2 == bytes.len()).then_some(())
    }
}

/// The 128-bit key of a state's bytes: XXH3-128, so a collision between
/// billions of states is out of reach in practice.
pub(crate) fn key_of_bytes(bytes: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

/// Appends `n` as a LEB128 varint.
pub(crate) fn put_var(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Reads a LEB128 varint at `*at`, moving past it.
pub(crate) fn get_var(bytes: &[u8], at: &mut usize) -> Option<usize> {
    let (mut n, mut shift) = (0usize, 0u32);
    loop {
        let byte = *bytes.get(*at)?;
        *at += 1;
        n |= usize::from(byte & 0x7f).checked_shl(shift)?;
        if byte < 0x80 {
            return Some(n);
        }
        shift += 7;
        if shift >= usize::BITS {
            return None;
        }
    }
}

/// The engine's set-up options for `spec`: players, variants and start
/// point, names resolved as a scenario resolves them.
pub(crate) fn game_options(spec: &Spec, options: &Options) -> Result<GameOptions, String> {
    let mut g = GameOptions::players(options.players);
    let mut variants = Vec::new();
    for v in &options.variants {
        variants.push(
            spec.variant_by_id(v)
                .ok_or_else(|| format!("{}: no variant `{v}`", spec.title()))?,
        );
    }
    g = g.with_variants(variants);
    if let Some(s) = &options.start {
        let step = match &s.step {
            Some(id) => Some(
                spec.step_by_id(id)
                    .ok_or_else(|| format!("{}: no step `{id}`", spec.title()))?,
            ),
            None => None,
        };
        let phase = match (&s.phase, step) {
            (Some(id), _) => spec
                .phase_by_id(id)
                .ok_or_else(|| format!("{}: no phase `{id}`", spec.title()))?,
            (None, Some(st)) => spec
                .step(st)
                .map(|st| st.phase)
                .ok_or_else(|| format!("{}: no step #{}", spec.title(), st.index()))?,
            (None, None) => spec
                .turn()
                .first()
                .copied()
                .ok_or_else(|| format!("{}: no phases", spec.title()))?,
        };
        g = g.with_start_at(StartAt::new(s.turn.max(1), PlayerId(s.active), phase).at_step(step));
    }
    Ok(g)
}

/// A game of `spec` set up as `options` say, started, with its first events.
pub(crate) fn start(
    spec: &Spec,
    options: &Options,
    turn_limit: bool,
) -> Result<(moves::Side, Vec<Event>), String> {
    let mut game = Game::new(spec, &game_options(spec, options)?)
        .map_err(|e| format!("{}: {e}", spec.title()))?;
    if turn_limit {
        game.set_turn_limit(options.turns);
    }
    let mut side = moves::Side {
        game,
        pending: Vec::new(),
    };
    let mut events = Vec::new();
    let mut host = moves::QueuedHost {
        pending: &mut side.pending,
    };
    side.game.start(&mut host, &mut events);
    Ok((side, events))
}

/// Runs `f` on a pool of `threads` threads (0: the global pool).
pub(crate) fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    if threads == 0 {
        return f();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(f),
        Err(_) => f(),
    }
}

/// Escapes text for a TOML basic string.
pub(crate) fn toml_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

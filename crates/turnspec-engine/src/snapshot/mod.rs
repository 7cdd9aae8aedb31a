//! A game saved as bytes and loaded again: [`Game::to_bytes`] and
//! [`Game::from_bytes`].
//!
//! The format (version [`SNAPSHOT_VERSION`]) is hand-written and compact:
//!
//! * the magic `TSGS`, the format version (2 bytes, little-endian) and the
//!   spec's [`Spec::fingerprint`] (8 bytes, little-endian), so a snapshot
//!   of another spec, or of another format, is refused before anything
//!   else is read;
//! * one flag byte (bit 0: the game runs the turn program,
//!   [`GameOptions::turn_program`]);
//! * every field of [`GameState`], in declaration order: integers as
//!   LEB128 varints (small values take one byte), booleans and options as
//!   one byte 0 or 1, lists as a length then their items, ids as their
//!   position in the spec. The engine's fixed-size arrays (teams, return
//!   points, roles, phase-kind counts, counters, each per-player counter
//!   and the mana pools) are sparse: a varint mask of the entries that are not the default,
//!   then those entries. They are sized for the engine's bounds and mostly
//!   zero, so a two-player state takes a third of the bytes it would.
//!
//! Version 2 made the arrays sparse; version 1 wrote them in full.
//!
//! Decoding never panics on any bytes: every length is bounded by the
//! bytes left and the engine's limits, every id is checked against the
//! spec, every player against the seats, every bit set against what the
//! spec declares, and the bytes must end where the state ends. The cached
//! answers (the turn program and its tables) are not saved: they are
//! worked out again from the state by their one refresh (`cached.rs`).
//!
//! The version rule: any change to what is written, or to how, bumps
//! [`SNAPSHOT_VERSION`]; a decoder reads only its own version and refuses
//! the others with [`SnapshotError::Version`].

use turnspec_model::{MAX_PLAYERS, Spec};

use crate::cached::Cached;
use crate::game::Game;
use crate::state::{GameState, MAX_NESTING, Modifiers, Point, StackObject, Status};

mod read;
mod write;

use read::decode;
use write::{Writer, write_state};

/// The version of the snapshot format [`Game::to_bytes`] writes and
/// [`Game::from_bytes`] reads.
pub const SNAPSHOT_VERSION: u16 = 2;

const MAGIC: &[u8; 4] = b"TSGS";

// A sparse array's mask is one varint of at most 64 bits.
const _: () = assert!(
    MAX_PLAYERS as usize <= 64
        && MAX_NESTING <= 64
        && turnspec_model::MAX_ROLES <= 64
        && turnspec_model::MAX_PHASE_KINDS <= 64
        && turnspec_model::MAX_COUNTERS <= 64
);

/// Why bytes could not be loaded as a game of this spec; nothing was made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The bytes do not begin with the snapshot magic `TSGS`.
    #[error("not a turnspec snapshot (no TSGS header)")]
    Magic,
    /// The snapshot is of another format version than this build reads.
    #[error("snapshot format version {found}; this build reads version {supported}")]
    Version {
        /// The version the bytes carry.
        found: u16,
        /// The version this build reads ([`SNAPSHOT_VERSION`]).
        supported: u16,
    },
    /// The snapshot was saved from a game of another spec (or another
    /// edition of it).
    #[error(
        "the snapshot is of another spec (fingerprint {found:016x}, this spec {expected:016x})"
    )]
    OtherSpec {
        /// This spec's fingerprint.
        expected: u64,
        /// The fingerprint the snapshot carries.
        found: u64,
    },
    /// The bytes end before the state does.
    #[error("the snapshot ends early, at byte {at}")]
    Truncated {
        /// How many bytes were read.
        at: usize,
    },
    /// A value does not fit the spec or the engine's bounds: an id past
    /// the spec's elements, a player not seated, a bit for no declared
    /// fact, a list longer than allowed...
    #[error("invalid {field} at byte {at}")]
    Invalid {
        /// Which field of the state.
        field: &'static str,
        /// Where it was read.
        at: usize,
    },
    /// Bytes are left after the state.
    #[error("{extra} bytes after the end of the snapshot")]
    Trailing {
        /// How many.
        extra: usize,
    },
}

type Result<T> = std::result::Result<T, SnapshotError>;

impl Game {
    /// The game's state as compact, versioned bytes (see the module
    /// documentation of the format): [`Game::from_bytes`] with the same
    /// spec gives back a game equal to this one, which plays on exactly as
    /// this one does.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(128);
        self.write_bytes(&mut out);
        out
    }

    /// Appends the bytes [`Game::to_bytes`] gives to `out`: a search that
    /// writes many states into one buffer allocates nothing once it has
    /// grown.
    pub fn write_bytes(&self, out: &mut Vec<u8>) {
        let mut w = Writer(std::mem::take(out));
        // Room for a usual state at once, so it is not grown byte by byte.
        w.0.reserve(256);
        w.0.extend_from_slice(MAGIC);
        w.0.extend_from_slice(&SNAPSHOT_VERSION.to_le_bytes());
        w.0.extend_from_slice(&self.spec.fingerprint().to_le_bytes());
        w.u8(u8::from(self.cached.uses_program()));
        write_state(&mut w, &self.state);
        *out = w.0;
    }

    /// Loads a game saved by [`Game::to_bytes`] under `spec`. Any bytes
    /// are safe to give: what is not a snapshot of this spec in this
    /// format, or holds a value the spec or the engine's bounds do not
    /// allow, is refused with a [`SnapshotError`], never a panic.
    pub fn from_bytes(spec: &Spec, bytes: &[u8]) -> std::result::Result<Game, SnapshotError> {
        let (state, options) = decode(spec, bytes, &mut Lists::default())?;
        // The cached answers are worked out from the state, as for a new
        // game; the program finds its place again from the state.
        let cached = Cached::new(spec, &state, &options);
        Ok(Game::loaded(spec, state, cached))
    }

    /// [`Game::from_bytes`] under this game's spec, sharing the turn
    /// programs this game (and every game cloned with it) compiled: a
    /// search that keeps its states as bytes loads each one without
    /// compiling its program again. The loaded game is the one
    /// [`Game::from_bytes`] gives.
    pub fn load_sibling(&self, bytes: &[u8]) -> std::result::Result<Game, SnapshotError> {
        let (state, options) = decode(&self.spec, bytes, &mut Lists::default())?;
        let cached = self.cached.for_loaded(&self.spec, &state, &options);
        Ok(Game::loaded(&self.spec, state, cached))
    }

    /// Loads a snapshot of this game's spec into this game: afterwards it
    /// is the game [`Game::load_sibling`] gives, but lists and programs
    /// are reused (no allocation once a thread has restored a few games,
    /// no lock and no reference count when the state compiles as this one
    /// does). The state is read into lists the thread's last restore gave
    /// up, and this game's old lists are kept for the next one. Bytes that
    /// are refused leave the game unchanged.
    pub fn restore(&mut self, bytes: &[u8]) -> std::result::Result<(), SnapshotError> {
        // The new state is read into the lists the last restore on this
        // thread put aside, and this game's old lists are put aside in
        // turn: no allocation, no copy, nothing freed.
        let mut lists = SPARE.take();
        let decoded = decode(&self.spec, bytes, &mut lists);
        let (state, options) = match decoded {
            Ok(d) => d,
            Err(e) => {
                SPARE.set(lists);
                return Err(e);
            }
        };
        if options.turn_program == self.cached.uses_program()
            && state.has_teams == self.state.has_teams
        {
            self.cached.reload(&self.spec, &state);
        } else {
            self.cached = self.cached.for_loaded(&self.spec, &state, &options);
        }
        let old = std::mem::replace(&mut self.state, state);
        lists.stack = old.stack;
        lists.waiting = old.waiting;
        if old.mods.is_some() {
            lists.mods = old.mods;
        }
        SPARE.set(lists);
        self.debug_check();
        Ok(())
    }

    fn loaded(spec: &Spec, state: GameState, cached: Cached) -> Game {
        let game = Game {
            spec: spec.clone(),
            state,
            cached,
        };
        game.debug_check();
        game
    }
}

/// The lists of a state, kept to read the next one into.
#[derive(Default)]
struct Lists {
    stack: Vec<StackObject>,
    waiting: Vec<StackObject>,
    mods: Option<Box<Modifiers>>,
}

thread_local! {
    /// The lists [`Game::restore`] reads the next state into on this
    /// thread: the ones the last restored game gave up.
    static SPARE: std::cell::Cell<Lists> = const {
        std::cell::Cell::new(Lists {
            stack: Vec::new(),
            waiting: Vec::new(),
            mods: None,
        })
    };
}

// --- the codes of enums, both ways -------------------------------------------

const STATUSES: [Status; 6] = [
    Status::Running,
    Status::TurnLimit,
    Status::Stalled,
    Status::NoPlayers,
    Status::NeverEnds,
    Status::Over,
];

fn status_code(s: Status) -> u8 {
    match s {
        Status::Running => 0,
        Status::TurnLimit => 1,
        Status::Stalled => 2,
        Status::NoPlayers => 3,
        Status::NeverEnds => 4,
        Status::Over => 5,
    }
}

const POINTS: [Point; 8] = [
    Point::TurnStart,
    Point::PhaseStart,
    Point::StepStart,
    Point::Stage,
    Point::StepEnd,
    Point::PhaseEnd,
    Point::TurnEnd,
    Point::Reopen,
];

fn point_code(p: Point) -> u8 {
    match p {
        Point::TurnStart => 0,
        Point::PhaseStart => 1,
        Point::StepStart => 2,
        Point::Stage => 3,
        Point::StepEnd => 4,
        Point::PhaseEnd => 5,
        Point::TurnEnd => 6,
        Point::Reopen => 7,
    }
}

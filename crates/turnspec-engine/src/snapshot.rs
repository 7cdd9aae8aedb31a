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

use turnspec_model::{
    Arena, Id, MAX_OBJECT_LIMITS, MAX_PLAYERS, RuleRef, SkipTarget, Spec, StepId,
};

use crate::cached::Cached;
use crate::game::Game;
use crate::setup::{GameOptions, MAX_STACK_RESERVE};
use crate::state::{
    Delayed, Duration, GameState, MAX_NESTING, MAX_OBJECTS, Modifiers, ObjectKind, ObjectRecord,
    ObjectsInPlay, Outcome, Place, PlayerId, Point, ReturnPoint, Scope, SkipEntry, StackObject,
    Status, Upcoming,
};

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

/// The state and set-up options a snapshot holds, checked against `spec`.
fn decode(
    spec: &Spec,
    bytes: &[u8],
    lists: &mut Lists,
) -> std::result::Result<(GameState, GameOptions), SnapshotError> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(4)? != MAGIC {
        return Err(SnapshotError::Magic);
    }
    let version = u16::from_le_bytes([r.u8()?, r.u8()?]);
    if version != SNAPSHOT_VERSION {
        return Err(SnapshotError::Version {
            found: version,
            supported: SNAPSHOT_VERSION,
        });
    }
    let mut fp = [0u8; 8];
    fp.copy_from_slice(r.take(8)?);
    let found = u64::from_le_bytes(fp);
    let expected = spec.fingerprint();
    if found != expected {
        return Err(SnapshotError::OtherSpec { expected, found });
    }
    let flags = r.u8()?;
    if flags > 1 {
        return Err(r.invalid("flags"));
    }
    let state = read_state(&mut r, spec, lists)?;
    if r.at != bytes.len() {
        return Err(SnapshotError::Trailing {
            extra: bytes.len() - r.at,
        });
    }
    let options = GameOptions {
        turn_program: flags & 1 == 1,
        ..GameOptions::players(state.players)
    };
    Ok((state, options))
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

// --- writing ---------------------------------------------------------------

struct Writer(Vec<u8>);

impl Writer {
    #[inline]
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    #[inline]
    fn bool(&mut self, v: bool) {
        self.0.push(u8::from(v));
    }
    /// LEB128: seven bits a byte, low first, the high bit set on all but
    /// the last.
    #[inline]
    fn var(&mut self, mut v: u64) {
        if v < 0x80 {
            self.0.push(v as u8);
            return;
        }
        while v >= 0x80 {
            self.0.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }
    #[inline]
    fn id<I: Id>(&mut self, id: I) {
        self.var(id.index() as u64);
    }
    fn rule(&mut self, r: RuleRef) {
        // NONE (u16::MAX) is written as 0, a citation as its index + 1.
        match r.is_none() {
            true => self.var(0),
            false => self.var(r.index() as u64 + 1),
        }
    }
    #[inline]
    fn player(&mut self, p: PlayerId) {
        self.u8(p.0);
    }
    #[inline]
    fn opt<T>(&mut self, v: Option<T>, f: impl FnOnce(&mut Self, T)) {
        match v {
            None => self.u8(0),
            Some(x) => {
                self.u8(1);
                f(self, x);
            }
        }
    }
    /// A fixed-size array: the mask of entries that are not the default,
    /// then those entries in order. (With the length a constant and the
    /// body inline, the mask is a few instructions an entry, no loop.)
    #[inline(always)]
    fn sparse<T: Copy + Default + PartialEq, const N: usize>(
        &mut self,
        items: &[T; N],
        mut f: impl FnMut(&mut Self, T),
    ) {
        const { assert!(N <= 64) };
        let mut mask = 0u64;
        for (i, x) in items.iter().enumerate() {
            mask |= u64::from(*x != T::default()) << i;
        }
        self.var(mask);
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            f(self, items[i]);
            mask &= mask - 1;
        }
    }
    #[inline]
    fn list<T>(&mut self, items: &[T], mut f: impl FnMut(&mut Self, &T)) {
        self.var(items.len() as u64);
        for x in items {
            f(self, x);
        }
    }
}

fn write_state(w: &mut Writer, s: &GameState) {
    // Destructured, so that a field added to the state must be written.
    let GameState {
        turn,
        turn_limit,
        players,
        team_of,
        has_teams,
        in_game,
        had_turn,
        active,
        last_regular,
        extra_turn,
        starting,
        first_turn,
        status,
        point,
        phase,
        turn_pos,
        step,
        anchor,
        start_step,
        only_step,
        stage,
        repeat,
        window_opened,
        quiet_repeats,
        holder,
        passes,
        returns_len,
        returns,
        roles,
        passed_out,
        responding,
        kind_counts,
        counters,
        player_counters,
        facts,
        variants,
        stack,
        waiting,
        mods,
        objects,
        between,
    } = s;
    w.var(u64::from(*turn));
    w.var(u64::from(*turn_limit));
    w.u8(*players);
    w.sparse(team_of, Writer::u8);
    w.bool(*has_teams);
    w.u8(*in_game);
    w.u8(*had_turn);
    w.player(*active);
    w.player(*last_regular);
    w.bool(*extra_turn);
    w.player(*starting);
    w.bool(*first_turn);
    w.u8(status_code(*status));
    w.u8(point_code(*point));
    w.id(*phase);
    w.u8(*turn_pos);
    w.id(*step);
    w.id(*anchor);
    w.opt(*start_step, |w, s| w.id(s));
    w.opt(*only_step, |w, (s, r)| {
        w.id(s);
        w.rule(r);
    });
    w.u8(*stage);
    w.u8(*repeat);
    w.bool(*window_opened);
    w.var(u64::from(*quiet_repeats));
    w.opt(*holder, |w, p| w.player(p));
    w.u8(*passes);
    w.u8(*returns_len);
    w.sparse(returns, |w, r| {
        w.id(r.phase);
        w.id(r.step);
        w.u8(r.stage);
        w.u8(r.repeat);
        w.bool(r.window_opened);
        w.id(r.anchor);
        w.bool(r.steps_of_play);
    });
    w.sparse(roles, Writer::player);
    w.u8(*passed_out);
    w.bool(*responding);
    w.sparse(kind_counts, Writer::u8);
    w.sparse(counters, |w, c| w.var(u64::from(c)));
    for slot in player_counters {
        w.sparse(slot, |w, c| w.var(u64::from(c)));
    }
    w.var(*facts);
    w.var(*variants);
    w.list(stack, write_object);
    w.list(waiting, write_object);
    w.opt(mods.as_deref(), write_mods);
    w.opt(objects.as_deref(), write_objects);
    w.bool(*between);
}

fn write_object(w: &mut Writer, o: &StackObject) {
    w.player(o.controller);
    match o.kind {
        ObjectKind::Play(t) => {
            w.u8(0);
            w.id(t);
        }
        ObjectKind::Trigger => w.u8(1),
        ObjectKind::TurnAction(a) => {
            w.u8(2);
            w.id(a);
        }
    }
    w.var(u64::from(o.label));
}

fn write_place(w: &mut Writer, p: Place) {
    match p {
        Place::Phase(id) => {
            w.u8(0);
            w.id(id);
        }
        Place::Step(id) => {
            w.u8(1);
            w.id(id);
        }
    }
}

fn write_scope(w: &mut Writer, s: Scope) {
    match s {
        Scope::Step => w.u8(0),
        Scope::Phase => w.u8(1),
        Scope::Turn => w.u8(2),
        Scope::UntilNext { at, player } => {
            w.u8(3);
            write_place(w, at);
            w.player(player);
        }
        Scope::EndOfNextTurn { at, player } => {
            w.u8(4);
            write_place(w, at);
            w.player(player);
        }
        Scope::UntilTurnOf { player } => {
            w.u8(5);
            w.player(player);
        }
        Scope::ThroughNextTurn { player } => {
            w.u8(6);
            w.player(player);
        }
        Scope::DuringTurnsOf { player } => {
            w.u8(7);
            w.player(player);
        }
        Scope::FromNext { at, player } => {
            w.u8(8);
            write_place(w, at);
            w.player(player);
        }
    }
}

fn write_mods(w: &mut Writer, m: &Modifiers) {
    let Modifiers {
        extra_turns,
        upcoming_phases,
        upcoming_steps,
        skips,
        delayed,
        durations,
        mana,
        jump_when_stack_empty,
        elected,
        reversed,
        controls,
        turn_controller,
        outcome,
    } = m;
    w.list(extra_turns, |w, p| w.player(*p));
    w.list(upcoming_phases, |w, u| {
        w.id(u.phase);
        w.opt(u.only, |w, (s, r)| {
            w.id(s);
            w.rule(r);
        });
        w.u8(u.depth);
    });
    w.list(upcoming_steps, |w, (s, d)| {
        w.id(*s);
        w.u8(*d);
    });
    w.list(skips, |w, k| {
        w.player(k.player);
        match k.target {
            SkipTarget::Step(s) => {
                w.u8(0);
                w.id(s);
            }
            SkipTarget::Phase(p) => {
                w.u8(1);
                w.id(p);
            }
            SkipTarget::Turn => w.u8(2),
        }
        w.rule(k.rule);
        w.opt(k.lasting, |w, e| w.id(e));
        w.bool(k.every_player);
    });
    w.list(delayed, |w, d| {
        write_place(w, d.at);
        w.player(d.controller);
        w.var(u64::from(d.label));
        w.bool(d.own_turn);
        w.var(u64::from(d.after_turn));
    });
    w.list(durations, |w, d| {
        w.var(u64::from(d.label));
        write_scope(w, d.scope);
        w.u8(d.depth);
        w.var(u64::from(d.made_on));
    });
    w.sparse(mana, |w, m| w.var(u64::from(m)));
    w.opt(*jump_when_stack_empty, |w, s| w.id(s));
    w.var(*elected);
    w.bool(*reversed);
    w.list(controls, |w, (a, b)| {
        w.player(*a);
        w.player(*b);
    });
    w.opt(*turn_controller, |w, p| w.player(p));
    w.opt(*outcome, |w, o| {
        w.u8(o.winners_bits());
        w.rule(o.rule());
    });
}

fn write_objects(w: &mut Writer, o: &ObjectsInPlay) {
    w.list(&o.records, |w, r| {
        w.var(u64::from(r.id));
        w.player(r.controller);
        w.var(u64::from(r.entered));
        w.var(u64::from(r.controlled_since));
        w.var(r.facts);
        w.var(r.turn_facts);
        w.var(u64::from(r.turn_facts_turn));
        for (turn, n) in r.uses {
            w.var(u64::from(turn));
            w.var(u64::from(n));
        }
    });
    for t in o.last_turn {
        w.var(u64::from(t));
    }
}

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

// --- reading ---------------------------------------------------------------

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn invalid(&self, field: &'static str) -> SnapshotError {
        SnapshotError::Invalid { field, at: self.at }
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n);
        match end.and_then(|end| self.bytes.get(self.at..end)) {
            Some(s) => {
                self.at += n;
                Ok(s)
            }
            None => Err(SnapshotError::Truncated {
                at: self.bytes.len(),
            }),
        }
    }
    #[inline]
    fn u8(&mut self) -> Result<u8> {
        match self.bytes.get(self.at) {
            Some(b) => {
                self.at += 1;
                Ok(*b)
            }
            None => Err(SnapshotError::Truncated { at: self.at }),
        }
    }
    #[inline]
    fn bool(&mut self, field: &'static str) -> Result<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(self.invalid(field)),
        }
    }
    #[inline]
    fn tag(&mut self, field: &'static str) -> Result<bool> {
        self.bool(field)
    }
    #[inline]
    fn var(&mut self, field: &'static str) -> Result<u64> {
        // Most values are below 128: one byte.
        if let Some(&b) = self.bytes.get(self.at)
            && b < 0x80
        {
            self.at += 1;
            return Ok(u64::from(b));
        }
        self.var_long(field)
    }
    #[cold]
    fn var_long(&mut self, field: &'static str) -> Result<u64> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            let bits = u64::from(b & 0x7f);
            // The tenth byte may carry one bit only.
            if shift == 63 && bits > 1 {
                return Err(self.invalid(field));
            }
            v |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.invalid(field))
    }
    #[inline(always)]
    fn u16(&mut self, field: &'static str) -> Result<u16> {
        let v = self.var(field)?;
        u16::try_from(v).map_err(|_| self.invalid(field))
    }
    #[inline]
    fn u32(&mut self, field: &'static str) -> Result<u32> {
        let v = self.var(field)?;
        u32::try_from(v).map_err(|_| self.invalid(field))
    }
    /// A list's length: at most `max`, and no more than the bytes left
    /// could hold (each item takes at least one byte), so a forged length
    /// allocates nothing big.
    fn len(&mut self, field: &'static str, max: usize) -> Result<usize> {
        let n = self.var(field)?;
        let left = self.bytes.len() - self.at;
        match usize::try_from(n) {
            Ok(n) if n <= max && n <= left => Ok(n),
            _ => Err(self.invalid(field)),
        }
    }
    #[inline]
    fn id<I: Id, T>(&mut self, field: &'static str, arena: &Arena<I, T>) -> Result<I> {
        let i = self.var(field)?;
        usize::try_from(i)
            .ok()
            .and_then(|i| arena.id_at(i))
            .ok_or_else(|| self.invalid(field))
    }
    fn rule(&mut self, field: &'static str, spec: &Spec) -> Result<RuleRef> {
        match self.var(field)? {
            0 => Ok(RuleRef::NONE),
            n => usize::try_from(n - 1)
                .ok()
                .and_then(|i| spec.rules().id_at(i))
                .ok_or_else(|| self.invalid(field)),
        }
    }
    /// A seated player (below `players`).
    #[inline]
    fn player(&mut self, field: &'static str, players: u8) -> Result<PlayerId> {
        let p = self.u8()?;
        match p < players {
            true => Ok(PlayerId(p)),
            false => Err(self.invalid(field)),
        }
    }
    /// One bit per seat: none at or above `players`.
    #[inline]
    fn seats(&mut self, field: &'static str, players: u8) -> Result<u8> {
        let bits = self.u8()?;
        match u16::from(bits) >> players {
            0 => Ok(bits),
            _ => Err(self.invalid(field)),
        }
    }
    /// A fixed-size array written by `Writer::sparse`: entries the mask
    /// leaves out stay as they are in `out` (the default).
    #[inline]
    fn sparse<T>(
        &mut self,
        field: &'static str,
        out: &mut [T],
        mut f: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<()> {
        let mut mask = self.bits(field, out.len())?;
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            let value = f(self)?;
            match out.get_mut(i) {
                Some(slot) => *slot = value,
                None => return Err(self.invalid(field)),
            }
            mask &= mask - 1;
        }
        Ok(())
    }
    /// One bit per element of a spec list of `len` elements.
    fn bits(&mut self, field: &'static str, len: usize) -> Result<u64> {
        let bits = self.var(field)?;
        match len >= 64 || bits >> len == 0 {
            true => Ok(bits),
            false => Err(self.invalid(field)),
        }
    }
}

/// Reads a state; its lists are read into those of `lists` (cleared,
/// their room reused), which are taken; a box for modifiers the state has
/// none of stays there.
fn read_state(r: &mut Reader<'_>, spec: &Spec, lists: &mut Lists) -> Result<GameState> {
    let mut stack = std::mem::take(&mut lists.stack);
    let mut waiting = std::mem::take(&mut lists.waiting);
    let turn = r.u32("turn")?;
    // The engine counts turns up by one: a last turn number would overflow.
    if turn == u32::MAX {
        return Err(r.invalid("turn"));
    }
    let turn_limit = r.u32("turn_limit")?;
    let players = r.u8()?;
    let g = spec.game();
    if players == 0 || players > MAX_PLAYERS || players < g.min_players || players > g.max_players {
        return Err(r.invalid("players"));
    }
    let mut team_of = [0u8; MAX_PLAYERS as usize];
    r.sparse("team_of", &mut team_of, |r| match r.u8()? {
        t if t < MAX_PLAYERS => Ok(t),
        _ => Err(r.invalid("team_of")),
    })?;
    let has_teams = r.bool("has_teams")?;
    let in_game = r.seats("in_game", players)?;
    let had_turn = r.seats("had_turn", players)?;
    let active = r.player("active", players)?;
    let last_regular = r.player("last_regular", players)?;
    let extra_turn = r.bool("extra_turn")?;
    let starting = r.player("starting", players)?;
    let first_turn = r.bool("first_turn")?;
    let status = *STATUSES
        .get(r.u8()? as usize)
        .ok_or_else(|| r.invalid("status"))?;
    let point = *POINTS
        .get(r.u8()? as usize)
        .ok_or_else(|| r.invalid("point"))?;
    let phase = r.id("phase", spec.phases())?;
    let turn_pos = r.u8()?;
    if turn_pos as usize > spec.turn().len().max(spec.between().len()) {
        return Err(r.invalid("turn_pos"));
    }
    let step = r.id("step", spec.steps())?;
    let anchor = r.id("anchor", spec.steps())?;
    let start_step = match r.tag("start_step")? {
        false => None,
        true => Some(r.id("start_step", spec.steps())?),
    };
    let only_step = match r.tag("only_step")? {
        false => None,
        true => Some((r.id("only_step", spec.steps())?, r.rule("only_step", spec)?)),
    };
    let stage = r.u8()?;
    if stage as usize > turnspec_model::MAX_STAGES_PER_STEP {
        return Err(r.invalid("stage"));
    }
    let repeat = r.u8()?;
    let window_opened = r.bool("window_opened")?;
    let quiet_repeats = r.u16("quiet_repeats")?;
    // One past the bound stops the game (endless.rs), so no more than that.
    if u32::from(quiet_repeats) > crate::MAX_REPEATS_WITHOUT_PRIORITY + 1 {
        return Err(r.invalid("quiet_repeats"));
    }
    let holder = match r.tag("holder")? {
        false => None,
        true => Some(r.player("holder", players)?),
    };
    // Passes in a row: a window closes once every side has passed, so a
    // few rounds at most (counted up by one, so never near 255).
    let passes = r.u8()?;
    if passes > 2 * MAX_PLAYERS {
        return Err(r.invalid("passes"));
    }
    let returns_len = r.u8()?;
    if returns_len as usize > MAX_NESTING {
        return Err(r.invalid("returns_len"));
    }
    let mut returns = [ReturnPoint::default(); MAX_NESTING];
    r.sparse("returns", &mut returns, |r| {
        let ret = ReturnPoint {
            phase: r.id("returns.phase", spec.phases())?,
            step: r.id("returns.step", spec.steps())?,
            stage: r.u8()?,
            repeat: r.u8()?,
            window_opened: r.bool("returns.window_opened")?,
            anchor: r.id("returns.anchor", spec.steps())?,
            steps_of_play: r.bool("returns.steps_of_play")?,
        };
        match ret.stage as usize > turnspec_model::MAX_STAGES_PER_STEP {
            true => Err(r.invalid("returns.stage")),
            false => Ok(ret),
        }
    })?;
    let mut roles = [PlayerId(0); turnspec_model::MAX_ROLES];
    r.sparse("roles", &mut roles, |r| r.player("roles", players))?;
    let passed_out = r.seats("passed_out", players)?;
    let responding = r.bool("responding")?;
    let mut kind_counts = [0u8; turnspec_model::MAX_PHASE_KINDS];
    r.sparse("kind_counts", &mut kind_counts, Reader::u8)?;
    let mut counters = [0u16; turnspec_model::MAX_COUNTERS];
    r.sparse("counters", &mut counters, |r| r.u16("counters"))?;
    let mut player_counters = [[0u16; MAX_PLAYERS as usize]; turnspec_model::MAX_PLAYER_COUNTERS];
    for slot in &mut player_counters {
        r.sparse("player_counters", slot, |r| r.u16("player_counters"))?;
    }
    let facts = r.bits("facts", spec.facts().len())?;
    let variants = r.bits("variants", spec.variants().len())?;
    read_objects_on_stack(r, spec, players, "stack", &mut stack)?;
    read_objects_on_stack(r, spec, players, "waiting", &mut waiting)?;
    let mods = match r.tag("mods")? {
        false => None,
        true => {
            read_mods(r, spec, players, lists.mods.get_or_insert_default())?;
            lists.mods.take()
        }
    };
    let objects = match r.tag("objects")? {
        false => None,
        true if !spec.objects().tracked => return Err(r.invalid("objects")),
        true => Some(Box::new(read_objects(r, spec, players)?)),
    };
    let between = r.bool("between")?;
    Ok(GameState {
        turn,
        turn_limit,
        players,
        team_of,
        has_teams,
        in_game,
        had_turn,
        active,
        last_regular,
        extra_turn,
        starting,
        first_turn,
        status,
        point,
        phase,
        turn_pos,
        step,
        anchor,
        start_step,
        only_step,
        stage,
        repeat,
        window_opened,
        quiet_repeats,
        holder,
        passes,
        returns_len,
        returns,
        roles,
        passed_out,
        responding,
        kind_counts,
        counters,
        player_counters,
        facts,
        variants,
        stack,
        waiting,
        mods,
        objects,
        between,
    })
}

/// Reads a list of stack objects into `v`, cleared and reused.
fn read_objects_on_stack(
    r: &mut Reader<'_>,
    spec: &Spec,
    players: u8,
    field: &'static str,
    v: &mut Vec<StackObject>,
) -> Result<()> {
    let n = r.len(field, usize::MAX)?;
    v.clear();
    // As a new game reserves it; `n` is no more than the bytes left.
    v.reserve(
        n.max(
            GameOptions::players(1)
                .stack_capacity
                .min(MAX_STACK_RESERVE),
        ),
    );
    for _ in 0..n {
        let controller = r.player(field, players)?;
        let kind = match r.u8()? {
            0 => ObjectKind::Play(r.id(field, spec.timing())?),
            1 => ObjectKind::Trigger,
            2 => ObjectKind::TurnAction(r.id(field, spec.turn_actions())?),
            _ => return Err(r.invalid(field)),
        };
        let label = r.u32(field)?;
        v.push(StackObject {
            controller,
            kind,
            label,
        });
    }
    Ok(())
}

fn read_place(r: &mut Reader<'_>, spec: &Spec, field: &'static str) -> Result<Place> {
    match r.u8()? {
        0 => Ok(Place::Phase(r.id(field, spec.phases())?)),
        1 => Ok(Place::Step(r.id(field, spec.steps())?)),
        _ => Err(r.invalid(field)),
    }
}

fn read_scope(r: &mut Reader<'_>, spec: &Spec, players: u8) -> Result<Scope> {
    const F: &str = "durations.scope";
    Ok(match r.u8()? {
        0 => Scope::Step,
        1 => Scope::Phase,
        2 => Scope::Turn,
        3 => Scope::UntilNext {
            at: read_place(r, spec, F)?,
            player: r.player(F, players)?,
        },
        4 => Scope::EndOfNextTurn {
            at: read_place(r, spec, F)?,
            player: r.player(F, players)?,
        },
        5 => Scope::UntilTurnOf {
            player: r.player(F, players)?,
        },
        6 => Scope::ThroughNextTurn {
            player: r.player(F, players)?,
        },
        7 => Scope::DuringTurnsOf {
            player: r.player(F, players)?,
        },
        8 => Scope::FromNext {
            at: read_place(r, spec, F)?,
            player: r.player(F, players)?,
        },
        _ => return Err(r.invalid(F)),
    })
}

/// Reads the modifiers into `m`, whose lists are cleared and reused.
fn read_mods(r: &mut Reader<'_>, spec: &Spec, players: u8, m: &mut Modifiers) -> Result<()> {
    m.clear();
    for _ in 0..r.len("extra_turns", usize::MAX)? {
        m.extra_turns.push(r.player("extra_turns", players)?);
    }
    for _ in 0..r.len("upcoming_phases", usize::MAX)? {
        let phase = r.id("upcoming_phases", spec.phases())?;
        let only = match r.tag("upcoming_phases")? {
            false => None,
            true => Some((
                r.id("upcoming_phases", spec.steps())?,
                r.rule("upcoming_phases", spec)?,
            )),
        };
        let depth = r.u8()?;
        m.upcoming_phases.push(Upcoming { phase, only, depth });
    }
    for _ in 0..r.len("upcoming_steps", usize::MAX)? {
        let step: StepId = r.id("upcoming_steps", spec.steps())?;
        m.upcoming_steps.push((step, r.u8()?));
    }
    for _ in 0..r.len("skips", usize::MAX)? {
        const F: &str = "skips";
        let player = r.player(F, players)?;
        let target = match r.u8()? {
            0 => SkipTarget::Step(r.id(F, spec.steps())?),
            1 => SkipTarget::Phase(r.id(F, spec.phases())?),
            2 => SkipTarget::Turn,
            _ => return Err(r.invalid(F)),
        };
        let rule = r.rule(F, spec)?;
        let lasting = match r.tag(F)? {
            false => None,
            true => Some(r.id(F, spec.effects())?),
        };
        let every_player = r.bool(F)?;
        m.skips.push(SkipEntry {
            player,
            target,
            rule,
            lasting,
            every_player,
        });
    }
    for _ in 0..r.len("delayed", usize::MAX)? {
        const F: &str = "delayed";
        m.delayed.push(Delayed {
            at: read_place(r, spec, F)?,
            controller: r.player(F, players)?,
            label: r.u32(F)?,
            own_turn: r.bool(F)?,
            after_turn: r.u32(F)?,
        });
    }
    for _ in 0..r.len("durations", usize::MAX)? {
        const F: &str = "durations";
        m.durations.push(Duration {
            label: r.u32(F)?,
            scope: read_scope(r, spec, players)?,
            depth: r.u8()?,
            made_on: r.u32(F)?,
        });
    }
    r.sparse("mana", &mut m.mana, |r| r.u16("mana"))?;
    m.jump_when_stack_empty = match r.tag("jump_when_stack_empty")? {
        false => None,
        true => Some(r.id("jump_when_stack_empty", spec.steps())?),
    };
    m.elected = r.bits("elected", spec.phases().len())?;
    m.reversed = r.bool("reversed")?;
    for _ in 0..r.len("controls", usize::MAX)? {
        let a = r.player("controls", players)?;
        let b = r.player("controls", players)?;
        m.controls.push((a, b));
    }
    m.turn_controller = match r.tag("turn_controller")? {
        false => None,
        true => Some(r.player("turn_controller", players)?),
    };
    m.outcome = match r.tag("outcome")? {
        false => None,
        true => {
            let winners = r.seats("outcome", players)?;
            Some(Outcome::new(winners, r.rule("outcome", spec)?))
        }
    };
    Ok(())
}

fn read_objects(r: &mut Reader<'_>, spec: &Spec, players: u8) -> Result<ObjectsInPlay> {
    const F: &str = "objects";
    let n = r.len(F, MAX_OBJECTS)?;
    let mut o = ObjectsInPlay::default();
    let facts = spec.object_facts().len();
    for _ in 0..n {
        let id = r.u32(F)?;
        // Sorted by id, each once: the engine looks them up by halving.
        if o.records.last().is_some_and(|last| last.id >= id) {
            return Err(r.invalid(F));
        }
        let mut rec = ObjectRecord::new(id, r.player(F, players)?, 0);
        rec.entered = r.u32(F)?;
        rec.controlled_since = r.u32(F)?;
        rec.facts = r.bits(F, facts)?;
        rec.turn_facts = r.bits(F, facts)?;
        rec.turn_facts_turn = r.u32(F)?;
        let mut uses = [(0u32, 0u16); MAX_OBJECT_LIMITS];
        for u in &mut uses {
            *u = (r.u32(F)?, r.u16(F)?);
        }
        rec.uses = uses;
        o.records.push(rec);
    }
    for t in &mut o.last_turn {
        *t = r.u32(F)?;
    }
    Ok(o)
}

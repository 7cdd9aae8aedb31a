//! Reading snapshot bytes back, every value checked (the format: the
//! parent module).

use turnspec_model::{
    Arena, Id, MAX_OBJECT_LIMITS, MAX_PLAYERS, RuleRef, SkipTarget, Spec, StepId,
};

use crate::setup::{GameOptions, MAX_STACK_RESERVE};
use crate::state::{
    Delayed, Duration, GameState, MAX_NESTING, MAX_OBJECTS, Modifiers, ObjectKind, ObjectRecord,
    ObjectsInPlay, Outcome, Place, PlayerId, ReturnPoint, Scope, SkipEntry, StackObject, Upcoming,
};

use super::{Lists, MAGIC, POINTS, Result, SNAPSHOT_VERSION, STATUSES, SnapshotError};

/// The state and set-up options a snapshot holds, checked against `spec`.
pub(super) fn decode(
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

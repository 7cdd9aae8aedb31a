//! Game state: small, fixed-size apart from the stack, cheap to clone.

mod in_play;

use std::fmt;

pub use in_play::{MAX_OBJECTS, ObjectInfo};
pub(crate) use in_play::{ObjectRecord, ObjectsInPlay};

use turnspec_model::{
    MAX_COUNTERS, MAX_PHASE_KINDS, MAX_PLAYERS, PhaseId, RuleRef, SkipTarget, StepId, TimingId,
    TurnActionId,
};

/// A player, numbered from 0 in seat order; shown as `P1`, `P2`, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct PlayerId(pub u8);

impl PlayerId {
    /// The seat number from 0, to index per-player arrays.
    pub fn index(self) -> usize {
        self.0 as usize
    }
    fn bit(self) -> u8 {
        1 << self.0
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0 + 1)
    }
}

/// What an object on the stack came from. The engine treats objects as
/// opaque: the host knows what `label` means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// A player's play at a timing class (a spell, an ability).
    Play(TimingId),
    /// A triggered ability the host reported.
    Trigger,
    /// Put there by a turn-based action (GA's materialization).
    TurnAction(TurnActionId),
}

/// An object on the stack (405), as the engine sees it: who controls it,
/// where it came from and the host's handle for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StackObject {
    /// The player who controls it; it leaves the stack if they leave the
    /// game (800.4a).
    pub controller: PlayerId,
    /// A play, a trigger or a turn-based action's object.
    pub kind: ObjectKind,
    /// The host's handle for the object.
    pub label: u32,
}

/// Where the engine is inside the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Point {
    TurnStart,
    PhaseStart,
    StepStart,
    /// Running the current step's stages; a decision when `holder` is set.
    Stage,
    StepEnd,
    PhaseEnd,
    TurnEnd,
    /// An on-demand phase ended: give priority back in the saved window.
    Reopen,
}

/// Why the engine is not waiting for a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// A player holds priority and must act or pass.
    Running,
    /// The turn limit set with [`crate::Game::set_turn_limit`] was reached.
    TurnLimit,
    /// The game ran a long way without any window opening: the spec's
    /// conditions skip every window.
    Stalled,
    /// No players are left in the game.
    NoPlayers,
    /// The turn never ends: steps began again because of their `repeat`,
    /// with no player receiving priority, more than
    /// [`crate::MAX_REPEATS_WITHOUT_PRIORITY`] times in it.
    /// [`crate::Game::endless_turn`] says where.
    NeverEnds,
    /// The game is over by its rules: one side was left, or an ending of
    /// the spec (`[endings.ID]`) was reached. [`crate::Game::outcome`]
    /// says who won and by which rule.
    Over,
}

impl Status {
    /// The status as scenarios' `expect = { status = ... }` and the tools'
    /// JSON name it: `running`, `over`, `turn_limit`, `stalled`,
    /// `no_players`, `never_ends`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Over => "over",
            Status::TurnLimit => "turn_limit",
            Status::Stalled => "stalled",
            Status::NoPlayers => "no_players",
            Status::NeverEnds => "never_ends",
        }
    }
}

/// How a game that is over ended: who won, by which rule. A draw has no
/// winners.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    winners: u8,
    rule: RuleRef,
}

impl Outcome {
    pub(crate) fn new(winners: u8, rule: RuleRef) -> Self {
        Outcome { winners, rule }
    }

    /// The players who won, in seat order (a team wins together).
    pub fn winners(self) -> impl Iterator<Item = PlayerId> {
        (0..MAX_PLAYERS)
            .filter(move |i| self.winners >> i & 1 == 1)
            .map(PlayerId)
    }

    /// Whether `player` won.
    pub fn won(self, player: PlayerId) -> bool {
        player.0 < MAX_PLAYERS && self.winners >> player.0 & 1 == 1
    }

    /// Whether nobody won: the game is a draw (104.4a).
    pub fn is_draw(self) -> bool {
        self.winners == 0
    }

    /// The rule that ended the game.
    pub fn rule(self) -> RuleRef {
        self.rule
    }

    /// The winners, one bit per seat (for snapshots).
    pub(crate) fn winners_bits(self) -> u8 {
        self.winners
    }
}

/// Where to come back to when an on-demand phase ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct ReturnPoint {
    pub phase: PhaseId,
    pub step: StepId,
    pub stage: u8,
    pub repeat: u8,
    pub window_opened: bool,
    pub anchor: StepId,
    /// The steps a play runs (`steps`), inside the phase they belong to,
    /// rather than an on-demand phase.
    pub steps_of_play: bool,
}

pub(crate) const MAX_NESTING: usize = 4;

/// Everything that changes during a game. No strings, no per-player heap.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct GameState {
    pub(crate) turn: u32,
    pub(crate) turn_limit: u32,
    pub(crate) players: u8,
    /// Team of each player (805 shared team turns); without teams every
    /// player is a team of their own.
    pub(crate) team_of: [u8; MAX_PLAYERS as usize],
    pub(crate) has_teams: bool,
    pub(crate) in_game: u8,
    pub(crate) had_turn: u8,
    pub(crate) active: PlayerId,
    /// The player of the latest regular (not extra) turn.
    pub(crate) last_regular: PlayerId,
    /// The turn about to begin, or going on, is an extra turn (500.7).
    pub(crate) extra_turn: bool,
    pub(crate) starting: PlayerId,
    pub(crate) first_turn: bool,
    pub(crate) status: Status,
    pub(crate) point: Point,
    pub(crate) phase: PhaseId,
    pub(crate) turn_pos: u8,
    pub(crate) step: StepId,
    /// The last regular step begun in this phase: inserted steps run after
    /// it, then the phase goes on from it.
    pub(crate) anchor: StepId,
    /// Begin the next phase at this step (after "end the turn", 723.1d).
    pub(crate) start_step: Option<StepId>,
    /// This phase holds only this step; the rest are skipped (500.10).
    pub(crate) only_step: Option<(StepId, RuleRef)>,
    pub(crate) stage: u8,
    pub(crate) repeat: u8,
    pub(crate) window_opened: bool,
    /// Steps begun again this turn by their `repeat` after an instance in
    /// which nobody received priority (endless.rs).
    pub(crate) quiet_repeats: u16,
    pub(crate) holder: Option<PlayerId>,
    pub(crate) passes: u8,
    pub(crate) returns_len: u8,
    pub(crate) returns: [ReturnPoint; MAX_NESTING],
    /// Who holds each seat role (`[roles.ID]`), by role.
    pub(crate) roles: [PlayerId; turnspec_model::MAX_ROLES],
    /// Players who passed for the rest of the open window (`passes =
    /// "rest_of_window"`), one bit per seat.
    pub(crate) passed_out: u8,
    /// A round of responses to a play (`response_round`) is going on: all
    /// passing returns to the active player instead of closing the window.
    pub(crate) responding: bool,
    pub(crate) kind_counts: [u8; MAX_PHASE_KINDS],
    pub(crate) counters: [u16; MAX_COUNTERS],
    /// Per-player counters (`per = "player"`), by slot then player.
    pub(crate) player_counters: [[u16; MAX_PLAYERS as usize]; turnspec_model::MAX_PLAYER_COUNTERS],
    pub(crate) facts: u64,
    pub(crate) variants: u64,
    pub(crate) stack: Vec<StackObject>,
    pub(crate) waiting: Vec<StackObject>,
    /// Extra turns, insertions, skips, delayed triggers, durations, mana:
    /// boxed and created on first use, so games that never use them keep a
    /// small state and allocate nothing for them.
    pub(crate) mods: Option<Box<Modifiers>>,
    /// The objects in play the host reported: `Some` only for a spec with
    /// `[objects]`.
    pub(crate) objects: Option<Box<ObjectsInPlay>>,
    /// Play is in the between-turns phases (`between_turns`), after a turn
    /// ended and before the next player's turn begins.
    pub(crate) between: bool,
}

impl Clone for GameState {
    fn clone(&self) -> GameState {
        GameState {
            stack: self.stack.clone(),
            waiting: self.waiting.clone(),
            mods: self.mods.clone(),
            objects: self.objects.clone(),
            ..*self
        }
    }

    /// Clones `source` into this state keeping its lists' allocations.
    fn clone_from(&mut self, source: &GameState) {
        let mut stack = std::mem::take(&mut self.stack);
        stack.clone_from(&source.stack);
        let mut waiting = std::mem::take(&mut self.waiting);
        waiting.clone_from(&source.waiting);
        let mut mods = self.mods.take();
        mods.clone_from(&source.mods);
        let mut objects = self.objects.take();
        objects.clone_from(&source.objects);
        // Every other field is `Copy`: one that is not fails to compile here.
        *self = GameState {
            stack,
            waiting,
            mods,
            objects,
            ..*source
        };
    }
}

/// Where something happens: a phase or a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// The beginning of this phase.
    Phase(PhaseId),
    /// The beginning of this step.
    Step(StepId),
}

/// How long an effect lasts: until the end of the current step, phase or
/// turn (500.5, 514.2), or until a moment bound to a player's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Until the end of the current step ("this step").
    Step,
    /// Until the end of the current phase ("this phase", e.g. combat).
    Phase,
    /// Until end of turn (514.2).
    Turn,
    /// Until the next beginning of `at` in `player`'s turn, even an
    /// additional one later in the same turn ("until your next upkeep",
    /// 500.9, 500.10).
    UntilNext {
        /// The phase or step whose beginning ends the effect.
        at: Place,
        /// Whose turn it must be.
        player: PlayerId,
    },
    /// Until the end of `at` in `player`'s next turn ("until end of combat
    /// on your next turn"); at the latest when that turn ends, unless it
    /// was ended before `at` came (723.1): then in a later turn of theirs.
    EndOfNextTurn {
        /// The phase or step whose end ends the effect.
        at: Place,
        /// Whose next turn.
        player: PlayerId,
    },
    /// Until `player`'s next turn begins ("until that player's next
    /// turn"); if `player` left the game, until that turn would have
    /// begun (800.4m).
    UntilTurnOf {
        /// The player whose next turn ends the effect.
        player: PlayerId,
    },
    /// Until the end of `player`'s next turn ("until the end of their next
    /// turn"): it ends where that turn's "this turn" effects end (Lorcana
    /// 3.4.1.2; Magic 514.2), not later.
    ThroughNextTurn {
        /// Whose next turn.
        player: PlayerId,
    },
    /// Only during `player`'s turns ("during your turn", Lorcana 3.2.1.2):
    /// the engine reports it applying (`EffectActive`) as each of their
    /// turns begins and stopping as it ends, until the host ends it
    /// (`Game::end_duration`).
    DuringTurnsOf {
        /// Whose turns.
        player: PlayerId,
    },
    /// From the next beginning of `at` in `player`'s turn until the end of
    /// that turn ("at the beginning of your next upkeep, ... until end of
    /// turn"): it applies from there (`EffectActive`), then ends with that
    /// turn's "this turn" effects.
    FromNext {
        /// The phase or step whose beginning starts the effect.
        at: Place,
        /// Whose turn it must be.
        player: PlayerId,
    },
}

impl Scope {
    /// The player whose turns the scope is bound to, if any.
    pub fn player(self) -> Option<PlayerId> {
        match self {
            Scope::Step | Scope::Phase | Scope::Turn => None,
            Scope::UntilNext { player, .. }
            | Scope::EndOfNextTurn { player, .. }
            | Scope::UntilTurnOf { player }
            | Scope::ThroughNextTurn { player }
            | Scope::DuringTurnsOf { player }
            | Scope::FromNext { player, .. } => Some(player),
        }
    }

    /// The phase or step the scope names, if any.
    pub fn place(self) -> Option<Place> {
        match self {
            Scope::UntilNext { at, .. }
            | Scope::EndOfNextTurn { at, .. }
            | Scope::FromNext { at, .. } => Some(at),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Upcoming {
    pub phase: PhaseId,
    pub only: Option<(StepId, RuleRef)>,
    /// Sub-phase depth it was added at: it runs after the phase at that depth.
    pub depth: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct SkipEntry {
    pub player: PlayerId,
    pub target: SkipTarget,
    pub rule: RuleRef,
    /// A static skip from this effect: it stays until the host ends it.
    pub lasting: Option<turnspec_model::EffectId>,
    /// A static skip for every player ("players skip their upkeep steps").
    pub every_player: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Delayed {
    pub at: Place,
    pub controller: PlayerId,
    pub label: u32,
    /// Only at that place during the controller's own turn ("your next").
    pub own_turn: bool,
    /// "On your next turn": only in a turn of the controller numbered
    /// above this one, and gone when that turn ends (603.7, 723.1); 0 when
    /// unbound.
    pub after_turn: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Duration {
    pub label: u32,
    pub scope: Scope,
    pub depth: u8,
    /// The turn it was made in ("your next turn" is a later one).
    pub made_on: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub(crate) struct Modifiers {
    /// Last is taken first (500.7).
    pub extra_turns: Vec<PlayerId>,
    /// Last runs first (500.8).
    pub upcoming_phases: Vec<Upcoming>,
    /// Last runs first (500.9), with the depth they were added at.
    pub upcoming_steps: Vec<(StepId, u8)>,
    pub skips: Vec<SkipEntry>,
    pub delayed: Vec<Delayed>,
    pub durations: Vec<Duration>,
    pub mana: [u16; MAX_PLAYERS as usize],
    /// Jump here once the stack is empty (the active player left, GA ENDGAME 8).
    pub jump_when_stack_empty: Option<StepId>,
    /// Optional phases elected this turn, one bit per phase (shape.rs).
    pub elected: u64,
    /// The turn order runs opposite to the spec's (101.4).
    pub reversed: bool,
    /// Pending control of a player's next turn: (controlled, controller),
    /// the most recent last (722).
    pub controls: Vec<(PlayerId, PlayerId)>,
    /// Who makes the active player's decisions this turn (722.1).
    pub turn_controller: Option<PlayerId>,
    /// How the game ended, once it is over (`Status::Over`): kept here,
    /// with the rare state, so the status stays one byte.
    pub outcome: Option<Outcome>,
}

impl Modifiers {
    /// No modifiers, the lists keeping their room.
    pub(crate) fn clear(&mut self) {
        // Destructured, so that a field added must be cleared here.
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
        } = self;
        extra_turns.clear();
        upcoming_phases.clear();
        upcoming_steps.clear();
        skips.clear();
        delayed.clear();
        durations.clear();
        *mana = [0; MAX_PLAYERS as usize];
        *jump_when_stack_empty = None;
        *elected = 0;
        *reversed = false;
        controls.clear();
        *turn_controller = None;
        *outcome = None;
    }
}

impl GameState {
    /// Remembers where play is (phase, step, stage, window) so that an
    /// on-demand phase (`steps_of_play` false) or the steps a play runs
    /// (true) can come back here. Callers check the depth first: deeper
    /// nesting than `MAX_NESTING` has no structural effect.
    #[inline]
    pub(crate) fn push_return(&mut self, steps_of_play: bool) {
        debug_assert!((self.returns_len as usize) < MAX_NESTING);
        self.returns[self.returns_len as usize] = ReturnPoint {
            phase: self.phase,
            step: self.step,
            stage: self.stage,
            repeat: self.repeat,
            window_opened: self.window_opened,
            anchor: self.anchor,
            steps_of_play,
        };
        self.returns_len += 1;
    }

    /// Back to the innermost remembered place: its window reopens.
    #[inline]
    pub(crate) fn pop_return(&mut self) {
        debug_assert!(self.returns_len > 0);
        self.returns_len -= 1;
        let r = self.returns[self.returns_len as usize];
        self.phase = r.phase;
        self.step = r.step;
        self.stage = r.stage;
        self.repeat = r.repeat;
        self.window_opened = r.window_opened;
        self.anchor = r.anchor;
        self.point = Point::Reopen;
    }

    /// No extra turn, phase or step is coming, no skip, delayed trigger or
    /// duration is pending and no mana is in a pool: the turn runs as the
    /// spec's regular turn (the turn program may run it).
    #[inline]
    pub(crate) fn modifiers_idle(&self) -> bool {
        match &self.mods {
            None => true,
            Some(m) => {
                m.extra_turns.is_empty()
                    && m.upcoming_phases.is_empty()
                    && m.upcoming_steps.is_empty()
                    && m.skips.is_empty()
                    && m.delayed.is_empty()
                    && m.durations.is_empty()
                    && m.jump_when_stack_empty.is_none()
                    && m.mana.iter().all(|x| *x == 0)
                    && !m.reversed
                    && m.controls.is_empty()
                    && m.turn_controller.is_none()
            }
        }
    }

    /// Whether `p` is still in the game (800.4).
    pub fn is_in(&self, p: PlayerId) -> bool {
        // `in_game` has no bit at or above `players` (set so, then only
        // cleared), so one bound, a constant, is enough.
        p.0 < MAX_PLAYERS && self.in_game & p.bit() != 0
    }

    /// Whether `p` has begun a turn in this game.
    #[inline(always)]
    pub(crate) fn has_had_turn(&self, p: PlayerId) -> bool {
        self.had_turn & p.bit() != 0
    }

    pub(crate) fn mark_had_turn(&mut self, p: PlayerId) -> bool {
        let first = !self.has_had_turn(p);
        self.had_turn |= p.bit();
        first
    }

    /// The active player's turn begins: counted, and what is tallied per
    /// turn starts afresh (phases of each kind, the place in the turn,
    /// repeats without priority, whether it is their first turn). The
    /// same for the turn program and the interpreter.
    #[inline(always)]
    pub(crate) fn count_turn(&mut self) {
        self.quiet_repeats = 0;
        self.turn += 1;
        if !self.extra_turn {
            self.last_regular = self.active;
        }
        self.first_turn = self.mark_had_turn(self.active);
        self.kind_counts = [0; MAX_PHASE_KINDS];
        self.turn_pos = 0;
        if self.objects.is_some() {
            self.objects_turn_began();
        }
    }

    /// For 302.6: the active player's turn (their team's, 805) began now.
    #[cold]
    fn objects_turn_began(&mut self) {
        let (active, turn, players) = (self.active, self.turn, self.players);
        let (has_teams, team_of, team) = (self.has_teams, self.team_of, self.team(active));
        if let Some(o) = self.objects.as_deref_mut() {
            for p in (0..players).map(PlayerId) {
                if p == active || (has_teams && team_of[p.index() & 7] == team) {
                    o.turn_began(p, turn);
                }
            }
        }
    }

    /// One more phase of this kind began this turn (every way a phase
    /// begins counts it here). Held at 255 rather
    /// than wrapping; written as adding "not yet 255", which compiles to a
    /// compare and an add with carry instead of a saturating add's five
    /// instructions (it runs at every phase's beginning).
    #[inline(always)]
    pub(crate) fn count_phase_kind(&mut self, kind: usize) {
        let count = &mut self.kind_counts[kind & (MAX_PHASE_KINDS - 1)];
        *count += u8::from(*count != u8::MAX);
    }

    /// Sides still in the game: teams when playing in teams, else players.
    /// Priority goes round these (805.5).
    pub(crate) fn sides_in_game(&self) -> u8 {
        if !self.has_teams {
            return self.in_game.count_ones() as u8;
        }
        self.teams_present().count_ones() as u8
    }

    /// Players still in the game, teams or not.
    pub(crate) fn players_in_game(&self) -> u8 {
        self.in_game.count_ones() as u8
    }

    fn teams_present(&self) -> u16 {
        (0..self.players)
            .filter(|p| self.in_game & (1 << p) != 0)
            .fold(0u16, |acc, p| acc | 1 << self.team_of[p as usize])
    }

    pub(crate) fn team(&self, p: PlayerId) -> u8 {
        self.team_of[p.index() & 7]
    }

    /// Whether `p` stands for its team: its lowest seat still in the game.
    pub(crate) fn is_primary(&self, p: PlayerId) -> bool {
        !self.has_teams
            || (0..p.0).all(|q| {
                !(self.in_game & (1 << q) != 0 && self.team_of[q as usize] == self.team(p))
            })
    }

    /// The player standing for `p`'s team (itself without teams).
    pub(crate) fn primary_of(&self, p: PlayerId) -> Option<PlayerId> {
        (0..self.players)
            .map(PlayerId)
            .find(|q| self.is_in(*q) && self.team(*q) == self.team(p) && self.is_primary(*q))
    }
}

//! How a game is set up: the options a host passes to [`crate::Game::new`],
//! a starting point inside a turn for scenarios, and why a set-up can be
//! refused.

use turnspec_model::{FactId, PhaseId, StepId, VariantId};

use crate::state::PlayerId;

/// The most stack room [`GameOptions::stack_capacity`] reserves up front, so
/// a huge value cannot exhaust memory before the game starts.
pub const MAX_STACK_RESERVE: usize = 4096;

/// How a game starts.
///
/// Made with [`GameOptions::players`] and the `with_*` methods, so options
/// added later do not break callers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct GameOptions {
    /// Seats at the table.
    pub players: u8,
    /// Who takes the first turn (103.1).
    pub starting_player: PlayerId,
    /// Variants in play (Archenemy, Two-Headed Giant...).
    pub variants: Vec<VariantId>,
    /// Facts set at the start, besides those the spec sets by default.
    pub facts: Vec<FactId>,
    /// Begin somewhere other than the first turn's first phase.
    pub start_at: Option<StartAt>,
    /// Team of each player, for shared team turns (805, Two-Headed Giant
    /// 810): teams take turns, priority goes round teams, and any member
    /// acts for the team. Empty: every player on their own.
    pub teams: Vec<u8>,
    /// Counter values at the start (a scenario starting in the declare
    /// blockers step says how many creatures attacked).
    pub counters: Vec<(turnspec_model::CounterId, u16)>,
    /// Objects already in play when the game begins, with their
    /// controllers (a spec with `[objects]` only): they entered before the
    /// first turn, so a player has controlled them since the start of
    /// their most recent turn once they have had one.
    pub in_play: Vec<(u32, PlayerId)>,
    /// Room reserved for the stack, so pushing never allocates in practice.
    /// Only a reservation: more than [`MAX_STACK_RESERVE`] is reserved as
    /// that much, and the stack still grows past it when it must.
    pub stack_capacity: usize,
    /// Run regular turns with the compiled turn program and take the fast
    /// paths for plain plays and resolutions (the default). Off, the
    /// interpreter runs every turn and every play and resolution takes the
    /// general path: the same events and states, slower; for checking the
    /// one against the other and for measuring.
    pub turn_program: bool,
}

impl GameOptions {
    /// A game of `players` players, P1 starting, at the first turn's
    /// beginning, no variants, facts or teams.
    pub fn players(players: u8) -> Self {
        GameOptions {
            players,
            starting_player: PlayerId(0),
            variants: Vec::new(),
            facts: Vec::new(),
            start_at: None,
            teams: Vec::new(),
            counters: Vec::new(),
            in_play: Vec::new(),
            stack_capacity: 32,
            turn_program: true,
        }
    }

    /// Who takes the first turn.
    pub fn with_starting_player(mut self, player: PlayerId) -> Self {
        self.starting_player = player;
        self
    }

    /// The variants in play.
    pub fn with_variants(mut self, variants: Vec<VariantId>) -> Self {
        self.variants = variants;
        self
    }

    /// The facts set at the start.
    pub fn with_facts(mut self, facts: Vec<FactId>) -> Self {
        self.facts = facts;
        self
    }

    /// Begin at a point other than the first turn's first phase.
    pub fn with_start_at(mut self, start_at: StartAt) -> Self {
        self.start_at = Some(start_at);
        self
    }

    /// Each player's team, for shared team turns.
    pub fn with_teams(mut self, teams: Vec<u8>) -> Self {
        self.teams = teams;
        self
    }

    /// Counter values at the start.
    pub fn with_counters(mut self, counters: Vec<(turnspec_model::CounterId, u16)>) -> Self {
        self.counters = counters;
        self
    }

    /// Objects in play when the game begins, with their controllers.
    pub fn with_in_play(mut self, in_play: Vec<(u32, PlayerId)>) -> Self {
        self.in_play = in_play;
        self
    }

    /// Room reserved for the stack.
    pub fn with_stack_capacity(mut self, capacity: usize) -> Self {
        self.stack_capacity = capacity;
        self
    }

    /// Whether regular turns run on the compiled turn program (and plain
    /// plays and resolutions take their fast paths).
    pub fn with_turn_program(mut self, on: bool) -> Self {
        self.turn_program = on;
        self
    }
}

/// A starting point for scenarios: turn `turn` (counting from 1), taken by
/// `active`, at the beginning of `phase` (and `step` within it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct StartAt {
    /// The turn number, from 1.
    pub turn: u32,
    /// Whose turn it is.
    pub active: PlayerId,
    /// The phase play begins in (a regular phase of the turn).
    pub phase: PhaseId,
    /// The step of `phase` play begins in; `None`: its first.
    pub step: Option<StepId>,
}

impl StartAt {
    /// The beginning of `phase` in turn `turn`, taken by `active`.
    pub fn new(turn: u32, active: PlayerId, phase: PhaseId) -> StartAt {
        StartAt {
            turn,
            active,
            phase,
            step: None,
        }
    }

    /// The beginning of `step` of the phase instead of its first step.
    pub fn at_step(mut self, step: Option<StepId>) -> StartAt {
        self.step = step;
        self
    }
}

/// Why a game could not be set up from the given options; nothing was
/// started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// The spec's `[game]` table does not allow this many players.
    #[error("{players} players: this spec allows {min} to {max}")]
    PlayerCount {
        /// How many players were asked for.
        players: u8,
        /// The fewest the spec allows.
        min: u8,
        /// The most the spec allows.
        max: u8,
    },
    /// The starting player is not one of the seated players (103.1).
    #[error("starting player {0} is not in the game")]
    StartingPlayer(PlayerId),
    /// The start point does not fit the spec (a step outside its phase...);
    /// the text says what is wrong.
    #[error("start point: {0}")]
    StartAt(&'static str),
    /// The team list does not give one team (0 to 7) per player (805).
    #[error("teams: give one team number (0 to 7) for each player")]
    Teams,
    /// An option named a fact, variant or counter by an index this spec
    /// does not have: the kind of element, and the index.
    #[error("no {0} #{1} in this spec")]
    Unknown(&'static str, usize),
    /// Objects in play were given for a spec without `[objects]`, or one
    /// twice, or under a player not seated: the text says which.
    #[error("objects in play: {0}")]
    InPlay(&'static str),
}

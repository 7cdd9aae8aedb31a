//! The objects in play the host reported (`[objects]`): when each entered
//! and came under its controller's control, its facts and its use counts.
//! The rules that read them are in `objects.rs`.

use turnspec_model::{MAX_OBJECT_LIMITS, MAX_PLAYERS, ObjectFactId, ObjectLimit};

use super::PlayerId;

/// The most objects a game keeps in play at once; reporting one more is
/// refused with [`crate::RuleError::TooManyObjects`].
pub const MAX_OBJECTS: usize = 4096;

/// The objects in play, sorted by the host's id, and when each player's
/// most recent turn began.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub(crate) struct ObjectsInPlay {
    pub(crate) records: Vec<ObjectRecord>,
    /// The number of the turn each player's most recent turn was (0:
    /// none yet).
    pub(crate) last_turn: [u32; MAX_PLAYERS as usize],
}

/// What the engine knows of one object in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct ObjectRecord {
    pub(crate) id: u32,
    pub(crate) controller: PlayerId,
    /// The turn it entered play in (0: before the first turn).
    pub(crate) entered: u32,
    /// The turn its controller began controlling it in.
    pub(crate) controlled_since: u32,
    /// Facts that last while it is in play, one bit each.
    pub(crate) facts: u64,
    /// Facts with `reset = "turn"`, valid in turn `turn_facts_turn` only.
    pub(crate) turn_facts: u64,
    pub(crate) turn_facts_turn: u32,
    /// Uses of each class limited per object: (turn of the last use, count).
    pub(crate) uses: [(u32, u16); MAX_OBJECT_LIMITS],
}

/// An object in play, as [`crate::Game::object`] shows it to hosts and tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ObjectInfo {
    /// The host's id of the object.
    pub id: u32,
    /// Who controls it.
    pub controller: PlayerId,
    /// The turn it entered play in (0: before the first turn).
    pub entered_turn: u32,
    /// The turn its controller began controlling it in.
    pub controlled_since_turn: u32,
}

impl ObjectsInPlay {
    pub(crate) fn find(&self, id: u32) -> Result<usize, usize> {
        self.records.binary_search_by_key(&id, |r| r.id)
    }

    pub(crate) fn get(&self, id: u32) -> Option<&ObjectRecord> {
        self.find(id).ok().map(|i| &self.records[i])
    }

    /// An object in play before the game's first turn (turn 0): false if
    /// it is already here or there is no room.
    pub(crate) fn put_before_start(&mut self, object: u32, controller: PlayerId) -> bool {
        match self.find(object) {
            Ok(_) => false,
            Err(_) if self.records.len() >= MAX_OBJECTS => false,
            Err(at) => {
                self.records
                    .insert(at, ObjectRecord::new(object, controller, 0));
                true
            }
        }
    }

    /// `player`'s turn (or their team's, 805) began as turn `turn`.
    pub(crate) fn turn_began(&mut self, player: PlayerId, turn: u32) {
        if let Some(t) = self.last_turn.get_mut(player.index()) {
            *t = turn;
        }
    }
}

impl ObjectRecord {
    /// Whether fact `f` is set on the object in turn `turn`.
    pub(crate) fn fact(&self, f: ObjectFactId, each_turn: bool, turn: u32) -> bool {
        let bit = 1u64 << (f.index() % 64);
        match each_turn {
            true => self.turn_facts_turn == turn && self.turn_facts & bit != 0,
            false => self.facts & bit != 0,
        }
    }

    /// How many plays limited by `limit` the object has made that count now.
    pub(crate) fn uses(&self, limit: &ObjectLimit, turn: u32) -> u16 {
        match self.uses.get(limit.slot as usize) {
            Some(&(at, n)) if !limit.each_turn || at == turn => n,
            _ => 0,
        }
    }
}

impl ObjectRecord {
    /// An object that entered play under `controller`'s control in `turn`.
    pub(crate) fn new(id: u32, controller: PlayerId, turn: u32) -> Self {
        ObjectRecord {
            id,
            controller,
            entered: turn,
            controlled_since: turn,
            facts: 0,
            turn_facts: 0,
            turn_facts_turn: 0,
            uses: [(0, 0); MAX_OBJECT_LIMITS],
        }
    }

    pub(crate) fn info(&self) -> ObjectInfo {
        ObjectInfo {
            id: self.id,
            controller: self.controller,
            entered_turn: self.entered,
            controlled_since_turn: self.controlled_since,
        }
    }
}

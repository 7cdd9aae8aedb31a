//! Stop profiles: one player's choice of the windows their client stops in
//! (asks them) and the ones it passes through by itself. A profile is made
//! for one spec (`turnspec_spec::load_stops`) and names its steps by id;
//! it holds no strings, so checking it during play compares bits only.

use crate::ids::StepId;
use crate::spec::Spec;

/// When a stop applies: a small set of conditions, any of which is enough.
/// The empty set never stops.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct StopWhen(u8);

impl StopWhen {
    /// Never stop.
    pub const NEVER: StopWhen = StopWhen(0);
    /// Stop whenever the player receives priority here.
    pub const ALWAYS: StopWhen = StopWhen(1);
    /// Stop when the stack is not empty.
    pub const STACK_NONEMPTY: StopWhen = StopWhen(2);
    /// Stop when something was added to the stack since the player last
    /// decided.
    pub const STACK_GREW: StopWhen = StopWhen(4);
    /// Stop when the player could legally play something now.
    pub const CAN_PLAY: StopWhen = StopWhen(8);

    /// Every condition, in the order [`StopWhen::name`] lists them.
    pub const EACH: [StopWhen; 4] = [
        StopWhen::ALWAYS,
        StopWhen::STACK_NONEMPTY,
        StopWhen::STACK_GREW,
        StopWhen::CAN_PLAY,
    ];

    /// Both sets together.
    #[inline]
    pub const fn union(self, other: StopWhen) -> StopWhen {
        StopWhen(self.0 | other.0)
    }

    /// Whether every condition of `other` is in this set.
    #[inline]
    pub const fn contains(self, other: StopWhen) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// Whether the set never stops.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The condition's name in a profile file (`always`, `stack_nonempty`,
    /// `stack_grew`, `can_play`), for a single condition; `None` otherwise.
    pub fn name(self) -> Option<&'static str> {
        match self {
            StopWhen::ALWAYS => Some("always"),
            StopWhen::STACK_NONEMPTY => Some("stack_nonempty"),
            StopWhen::STACK_GREW => Some("stack_grew"),
            StopWhen::CAN_PLAY => Some("can_play"),
            _ => None,
        }
    }

    /// The single condition a profile file names `name`.
    pub fn from_name(name: &str) -> Option<StopWhen> {
        StopWhen::EACH.into_iter().find(|w| w.name() == Some(name))
    }
}

/// Whose turn a stop applies in, seen from the profile's player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StopTurn {
    /// The player's own turn.
    Own,
    /// Any other player's turn.
    Others,
    /// Every turn.
    Any,
}

/// The stops of one step: when to stop in the player's own turn and in
/// the others'.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct StepStops {
    /// In the player's own turn.
    pub own: StopWhen,
    /// In another player's turn.
    pub others: StopWhen,
}

/// One player's stop profile for one spec: per step, when to stop in their
/// own and in the others' turns, and conditions that stop anywhere.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct StopProfile {
    /// Indexed by [`StepId::index`]; as long as the spec's step arena.
    steps: Vec<StepStops>,
    anywhere: StopWhen,
    /// Per step, where passing through is a choice (`[[pass]]`): bit 0 in
    /// the player's own turn, bit 1 in the others'. Read only by the safety
    /// check, never during play.
    chosen: Vec<u8>,
    /// The fingerprint of the spec the profile was made for.
    spec: u64,
}

impl StopProfile {
    /// A profile for `spec` that stops nowhere.
    pub fn new(spec: &Spec) -> StopProfile {
        StopProfile {
            steps: vec![StepStops::default(); spec.steps().len()],
            anywhere: StopWhen::NEVER,
            chosen: vec![0; spec.steps().len()],
            spec: spec.fingerprint(),
        }
    }

    /// Adds a stop at `step` in the turns `turn` names. A step of another
    /// spec is ignored and answers false.
    pub fn add(&mut self, step: StepId, turn: StopTurn, when: StopWhen) -> bool {
        let Some(stops) = self.steps.get_mut(step.index()) else {
            return false;
        };
        if matches!(turn, StopTurn::Own | StopTurn::Any) {
            stops.own = stops.own.union(when);
        }
        if matches!(turn, StopTurn::Others | StopTurn::Any) {
            stops.others = stops.others.union(when);
        }
        true
    }

    /// Marks passing through `step` in the turns `turn` names as a choice
    /// (`[[pass]]`): the safety check reports it as chosen, not as a
    /// problem. It changes nothing during play. A step of another spec is
    /// ignored and answers false.
    pub fn add_chosen(&mut self, step: StepId, turn: StopTurn) -> bool {
        let Some(bits) = self.chosen.get_mut(step.index()) else {
            return false;
        };
        *bits |= match turn {
            StopTurn::Own => 1,
            StopTurn::Others => 2,
            StopTurn::Any => 3,
        };
        true
    }

    /// Whether passing through `step` (in the player's own turn or not) was
    /// marked as a choice.
    pub fn chosen(&self, step: StepId, own_turn: bool) -> bool {
        let bit = if own_turn { 1 } else { 2 };
        self.chosen.get(step.index()).is_some_and(|b| b & bit != 0)
    }

    /// Adds conditions that stop in every window.
    pub fn add_anywhere(&mut self, when: StopWhen) {
        self.anywhere = self.anywhere.union(when);
    }

    /// The stops of `step` (none for a step of another spec).
    #[inline]
    pub fn at(&self, step: StepId) -> StepStops {
        self.steps.get(step.index()).copied().unwrap_or_default()
    }

    /// When the profile stops in `step`, in the player's own turn or not,
    /// counting the conditions that stop anywhere.
    #[inline]
    pub fn when(&self, step: StepId, own_turn: bool) -> StopWhen {
        let stops = self.at(step);
        let here = if own_turn { stops.own } else { stops.others };
        here.union(self.anywhere)
    }

    /// Whether any stop of the profile, anywhere, has condition `when`.
    pub fn uses(&self, when: StopWhen) -> bool {
        self.anywhere.contains(when)
            || self
                .steps
                .iter()
                .any(|s| s.own.contains(when) || s.others.contains(when))
    }

    /// The conditions that stop in every window.
    pub fn anywhere(&self) -> StopWhen {
        self.anywhere
    }

    /// How many steps the profile has a setting for (its spec's steps).
    pub fn steps_len(&self) -> usize {
        self.steps.len()
    }

    /// For each step in id order: whether the profile never stops there in
    /// the player's own turn, and in the others' (counting `anywhere`).
    pub fn silent_steps(&self) -> impl Iterator<Item = (bool, bool)> + '_ {
        self.steps.iter().map(|s| {
            (
                s.own.union(self.anywhere).is_empty(),
                s.others.union(self.anywhere).is_empty(),
            )
        })
    }

    /// Whether the profile was made for `spec` (the same fingerprint, so
    /// the same steps in the same order), not for another spec.
    pub fn fits(&self, spec: &Spec) -> bool {
        self.spec == spec.fingerprint() && self.steps.len() == spec.steps().len()
    }
}

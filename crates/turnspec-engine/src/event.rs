//! What the engine reports: the trace is a sequence of these.
//!
//! Events are small `Copy` values holding indices into the spec; a renderer
//! (`turnspec-trace`) turns them into text or JSON with names and rule
//! citations. Emitting one never allocates unless the sink does.

use turnspec_model::{PhaseId, RuleRef, StepId, TimingId, TurnActionId, WindowId};

use crate::state::{PlayerId, StackObject};
use turnspec_model::EffectId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    TurnBegan {
        turn: u32,
        player: PlayerId,
    },
    TurnEnded {
        turn: u32,
        player: PlayerId,
    },
    /// `number`: how many phases of this kind have begun this turn (505.1b).
    PhaseBegan {
        phase: PhaseId,
        number: u8,
    },
    PhaseEnded {
        phase: PhaseId,
    },
    /// `repeat`: 0 the first time; 1 for the first repetition (514.3a, 510.4).
    StepBegan {
        step: StepId,
        repeat: u8,
    },
    StepEnded {
        step: StepId,
    },
    /// A phase or step that did not happen, and the rule that skipped it.
    Skipped {
        skipped: Skipped,
        rule: RuleRef,
    },
    TurnAction {
        action: TurnActionId,
        answer: u16,
    },
    TriggerPut {
        object: StackObject,
    },
    PriorityGiven {
        player: PlayerId,
        /// The window priority was given in; `None` outside any window.
        window: Option<WindowId>,
        because: Because,
    },
    Passed {
        player: PlayerId,
    },
    Pushed {
        object: StackObject,
    },
    Resolved {
        object: StackObject,
    },
    /// A play that does not use the stack: a special action (305.1) or an
    /// action that starts a phase (GA's attack).
    SpecialAction {
        player: PlayerId,
        timing: TimingId,
        label: u32,
    },
    FactChanged {
        fact: turnspec_model::FactId,
        value: bool,
    },
    /// A structural effect was applied for `player`; `applied` is false when
    /// it did nothing (another player's turn for a "you get" effect, 500.10a;
    /// ending a phase that is not the current one, 723.2g).
    EffectApplied {
        effect: EffectId,
        player: PlayerId,
        applied: bool,
    },
    /// An object left the stack without resolving (ending the turn or a
    /// phase, 723.1b; a player leaving, 800.4a).
    Removed {
        object: StackObject,
    },
    /// A player left the game (800.4).
    Left {
        player: PlayerId,
    },
    /// An effect with a duration ended (500.5, 514.2).
    Expired {
        label: u32,
    },
    /// Unspent mana left a pool (500.4); with `burn`, its owner loses that
    /// much life (pre-2009 300.3).
    ManaEmptied {
        player: PlayerId,
        amount: u16,
        burn: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Skipped {
    Phase(PhaseId),
    Step(StepId),
    /// The turn this player would have taken.
    Turn(PlayerId),
}

/// Why a player received priority: each reason has its own rule in the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Because {
    /// A window opened (117.3a).
    WindowOpened,
    /// The previous holder passed (117.3d).
    Passed,
    /// The holder acted and keeps it, or it went to the active player (117.3c).
    Acted,
    /// The top of the stack resolved (117.3b).
    Resolved,
    /// An on-demand phase ended and play returned to this window.
    Returned,
}

/// Where events go. `Vec<Event>` collects them; `()` drops them; a counter
/// can count them. Simulation uses the cheap ones.
pub trait EventSink {
    fn event(&mut self, event: Event);
}

impl EventSink for Vec<Event> {
    #[inline]
    fn event(&mut self, event: Event) {
        self.push(event);
    }
}

impl EventSink for () {
    #[inline]
    fn event(&mut self, _: Event) {}
}

/// Counts events by kind without keeping them (for simulation statistics).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EventCounts {
    pub turns: u64,
    pub phases: u64,
    pub steps: u64,
    pub turn_actions: u64,
    pub windows: u64,
    pub passes: u64,
    pub pushes: u64,
    pub resolutions: u64,
    pub triggers: u64,
    pub special_actions: u64,
    pub events: u64,
}

impl EventSink for EventCounts {
    #[inline]
    fn event(&mut self, event: Event) {
        self.events += 1;
        match event {
            Event::TurnBegan { .. } => self.turns += 1,
            Event::PhaseBegan { .. } => self.phases += 1,
            Event::StepBegan { .. } => self.steps += 1,
            Event::TurnAction { .. } => self.turn_actions += 1,
            Event::PriorityGiven {
                because: Because::WindowOpened,
                ..
            } => self.windows += 1,
            Event::Passed { .. } => self.passes += 1,
            Event::Pushed { .. } => self.pushes += 1,
            Event::Resolved { .. } => self.resolutions += 1,
            Event::TriggerPut { .. } => self.triggers += 1,
            Event::SpecialAction { .. } => self.special_actions += 1,
            _ => {}
        }
    }
}

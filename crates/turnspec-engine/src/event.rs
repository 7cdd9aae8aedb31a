//! What the engine reports: the trace is a sequence of these.
//!
//! Events are small `Copy` values holding indices into the spec; a renderer
//! (`turnspec-trace`) turns them into text or JSON with names and rule
//! citations. Emitting one never allocates unless the sink does.

use turnspec_spec::{PhaseId, RuleRef, StepId, TimingId, TurnActionId, WindowId};

use crate::state::{PlayerId, StackObject};

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
        window: WindowId,
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
        fact: turnspec_spec::FactId,
        value: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Skipped {
    Phase(PhaseId),
    Step(StepId),
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

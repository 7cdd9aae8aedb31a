//! What the engine reports: the trace is a sequence of these.
//!
//! Events are small `Copy` values holding indices into the spec; a renderer
//! (`turnspec-trace`) turns them into text or JSON with names and rule
//! citations. Emitting one never allocates unless the sink does.

use turnspec_model::{PhaseId, RuleRef, StepId, TimingId, TurnActionId, WindowId};

use crate::state::{Outcome, PlayerId, StackObject};
use turnspec_model::{CounterId, EffectId, EndingId, ObjectFactId, RoleId};

/// One thing that happened in the game, in the order it happened; the
/// trace is the list of these (docs/trace-format.md describes each one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    /// A turn began.
    TurnBegan {
        /// The turn's number, counting from 1.
        turn: u32,
        /// Whose turn it is: the active player.
        player: PlayerId,
    },
    /// A turn ended, after its last phase (or early, by an effect).
    TurnEnded {
        /// The turn's number, counting from 1.
        turn: u32,
        /// Whose turn it was.
        player: PlayerId,
    },
    /// A phase began; `number` counts how many phases of this kind have
    /// begun this turn, this one included (505.1b).
    PhaseBegan {
        /// The phase that began.
        phase: PhaseId,
        /// 1 for the first phase of its kind this turn, 2 for the second, ...
        number: u8,
    },
    /// A phase ended, and play moves on to the next one.
    PhaseEnded {
        /// The phase that ended.
        phase: PhaseId,
    },
    /// A step began; `repeat` is 0 the first time and 1 for the first
    /// repetition (514.3a, 510.4).
    StepBegan {
        /// The step that began.
        step: StepId,
        /// How many times this step has already run in a row.
        repeat: u8,
    },
    /// A step ended.
    StepEnded {
        /// The step that ended.
        step: StepId,
    },
    /// A phase, step or turn that did not happen, and the rule that skipped it.
    Skipped {
        /// What was skipped.
        skipped: Skipped,
        /// The `skip` entry or `skip` effect that caused it.
        rule: RuleRef,
    },
    /// The game did something by itself: a turn-based action (703).
    TurnAction {
        /// The turn-based action that happened.
        action: TurnActionId,
        /// The host's answer, cut to the action's `max`; 0 when the action
        /// asks nothing.
        answer: u16,
    },
    /// A waiting triggered ability went on the stack, just before a player
    /// received priority (117.5), APNAP order among several (101.4).
    TriggerPut {
        /// The trigger, now on the stack.
        object: StackObject,
    },
    /// A player received priority (117.3).
    PriorityGiven {
        /// Who can act now.
        player: PlayerId,
        /// The window priority was given in; `None` outside any window.
        window: Option<WindowId>,
        /// Why this player received it, which decides the rule cited.
        because: Because,
    },
    /// The priority holder passed (117.3d).
    Passed {
        /// Who passed.
        player: PlayerId,
    },
    /// A play, or a turn-based action, put an object on the stack.
    Pushed {
        /// What went on the stack.
        object: StackObject,
    },
    /// The top of the stack resolved after everyone passed in a row (117.4).
    Resolved {
        /// What resolved and left the stack.
        object: StackObject,
    },
    /// A play that does not use the stack: a special action (305.1) or an
    /// action that starts a phase (GA's attack).
    SpecialAction {
        /// Who made the play.
        player: PlayerId,
        /// The timing class it was made at.
        timing: TimingId,
        /// The host's handle for the play (0 for a turn-based action's play).
        label: u32,
    },
    /// A seat role (`[roles.ID]`) changed hands: an answer, a play that
    /// claims it, or a new turn gave it to `player`.
    RoleTaken {
        /// The role.
        role: RoleId,
        /// Its new holder.
        player: PlayerId,
    },
    /// A play runs its on-demand steps (`steps`): at once for a special
    /// action, as it resolves for a play on the stack; `again` when they
    /// were already running (the next chain link).
    StepsBegan {
        /// Who made the play.
        player: PlayerId,
        /// Its timing class.
        timing: TimingId,
        /// The host's handle for the play.
        label: u32,
        /// The steps were running and begin again.
        again: bool,
    },
    /// The host changed a fact the spec's conditions read.
    FactChanged {
        /// The fact that changed.
        fact: turnspec_model::FactId,
        /// Its new value.
        value: bool,
    },
    /// A structural effect was applied for `player`; `applied` is false when
    /// it did nothing (another player's turn for a "you get" effect, 500.10a;
    /// ending a phase that is not the current one, 723.2g).
    EffectApplied {
        /// The effect the host applied.
        effect: EffectId,
        /// The player it was applied for.
        player: PlayerId,
        /// False when the effect did nothing at this moment.
        applied: bool,
    },
    /// An object left the stack without resolving (ending the turn or a
    /// phase, 723.1b; a player leaving, 800.4a).
    Removed {
        /// What left the stack.
        object: StackObject,
    },
    /// The host set a counter (`Game::set_counter`).
    CounterSet {
        /// The counter set.
        counter: CounterId,
        /// Whose value (any player's for a counter kept for the game).
        player: PlayerId,
        /// The new value.
        value: u16,
    },
    /// The host reported an object entering play (`Game::report_entered`).
    EnteredPlay {
        /// The host's id of the object.
        object: u32,
        /// Who controls it.
        controller: PlayerId,
    },
    /// The host reported an object leaving play.
    LeftPlay {
        /// The host's id of the object.
        object: u32,
    },
    /// The host reported an object changing control (continuous control
    /// starts again, 302.6).
    ControlChanged {
        /// The host's id of the object.
        object: u32,
        /// Who controls it now.
        controller: PlayerId,
    },
    /// The host set or cleared a fact on an object (`[objects.facts.ID]`).
    ObjectFactSet {
        /// The host's id of the object.
        object: u32,
        /// The fact.
        fact: ObjectFactId,
        /// Its new value.
        value: bool,
    },
    /// An ending of the spec (`[endings.ID]`) was reached for a player:
    /// declared by the host or found by the spec's check. A player who
    /// loses leaves next (`Left`); a win or a draw ends the game
    /// (`GameOver`).
    Ending {
        /// The ending reached.
        ending: EndingId,
        /// The player it was reached for.
        player: PlayerId,
    },
    /// The game is over (104.2a, 104.4a): nothing happens after this.
    GameOver {
        /// Who won, and the rule.
        outcome: Outcome,
    },
    /// A player left the game (800.4).
    Left {
        /// Who left.
        player: PlayerId,
    },
    /// An effect bound to a player's turns starts or stops applying
    /// ("during your turn", "at the beginning of your next upkeep").
    EffectActive {
        /// The host's handle for the effect.
        label: u32,
        /// Whether it applies from now on.
        active: bool,
    },
    /// An effect with a duration ended (500.5, 514.2).
    Expired {
        /// The host's handle for the effect, given when it was registered.
        label: u32,
    },
    /// Unspent mana left a pool (500.4); with `burn`, its owner loses that
    /// much life (pre-2009 300.3).
    ManaEmptied {
        /// Whose pool emptied.
        player: PlayerId,
        /// How much mana was lost.
        amount: u16,
        /// True when the owner also loses that much life (mana burn).
        burn: bool,
    },
    /// A triggered ability that had triggered but was not yet on the stack
    /// ceased to exist: the turn was ended (723.1a).
    Ceased {
        /// The trigger, as it would have gone on the stack.
        object: StackObject,
    },
    /// The host ended a lasting (static) effect it applied earlier.
    EffectStopped {
        /// The effect that ended.
        effect: EffectId,
        /// The player it was applied for.
        player: PlayerId,
    },
    /// This turn's decisions of the active player are made by another
    /// player (722.1); reported as the turn begins.
    TurnControlled {
        /// The active player, whose turn it stays.
        player: PlayerId,
        /// Who makes their decisions.
        by: PlayerId,
    },
    /// The player who just received priority is controlled: `by` makes
    /// the decision in their name (722.1).
    DecidedBy {
        /// The player who holds priority.
        player: PlayerId,
        /// Who decides for them.
        by: PlayerId,
    },
}

/// What a [`Event::Skipped`] event skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Skipped {
    /// A whole phase, with its steps (e.g. 103.8a for the first draw).
    Phase(PhaseId),
    /// One step of a phase (e.g. 508.8 when no creatures attack).
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
    /// Takes one event, in the order the game produced them.
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
    /// Turns begun.
    pub turns: u64,
    /// Phases begun.
    pub phases: u64,
    /// Steps begun, repetitions included.
    pub steps: u64,
    /// Turn-based actions performed.
    pub turn_actions: u64,
    /// Priority windows opened (not every priority event: only the first
    /// of each window).
    pub windows: u64,
    /// Times a player passed priority.
    pub passes: u64,
    /// Objects put on the stack.
    pub pushes: u64,
    /// Objects resolved from the stack.
    pub resolutions: u64,
    /// Triggered abilities put on the stack.
    pub triggers: u64,
    /// Plays that did not use the stack.
    pub special_actions: u64,
    /// Every event, of any kind.
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

//! A loaded scenario: its set-up and its script, every name resolved to
//! an id of its spec (what `compile/` produces and `run.rs` plays).

use std::ops::Range;
use std::sync::Arc;

use turnspec_engine::{GameOptions, PassUntil, PlayerId, Scope};
use turnspec_spec::{
    CounterId, EffectId, EndingId, FactId, ObjectFactId, PhaseId, Spec, StepId, StopProfile,
    TimingId, TurnActionId,
};

/// Triggers a scripted hook reports: controller (default: the active
/// player) and label.
pub type ScriptedTriggers = Vec<(Option<PlayerId>, u32)>;

/// An `until` scope bound to a player's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundScope {
    /// `until_next`: until the next beginning of `at` in the player's turn.
    UntilNext,
    /// `end_of_next_turn`: until the end of `at` in the player's next turn.
    EndOfNextTurn,
    /// `until_turn_of`: until the player's next turn (or they leave).
    UntilTurnOf,
    /// `through_next_turn`: until the end of the player's next turn, with
    /// its "this turn" effects.
    ThroughNextTurn,
    /// `during_turns_of`: only during the player's turns.
    DuringTurnsOf,
    /// `from_next`: from the next beginning of `at` in the player's turn
    /// until the end of that turn.
    FromNext,
}

impl BoundScope {
    /// Whether the scope names a phase or step (`at`).
    pub fn has_place(self) -> bool {
        matches!(
            self,
            BoundScope::UntilNext | BoundScope::EndOfNextTurn | BoundScope::FromNext
        )
    }
}

/// Reads a file a scenario names (a stop profile), by its path as written:
/// its text and the path used, or a message.
pub type FileReader<'a> = dyn FnMut(&str) -> Result<(String, String), String> + 'a;

/// Finds a spec by the path a scenario names; returns it and the path used.
pub type SpecLoader<'a> = dyn FnMut(&str) -> Result<(Arc<Spec>, String), String> + 'a;

/// A loaded scenario, ready to run.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The scenario file, as the caller named it.
    pub path: String,
    /// The file's text, so a failure can give its line and column.
    pub source: Arc<str>,
    /// `[scenario] name`: one line, starting with the main rule it checks.
    pub name: String,
    /// `[scenario] rules`: every rule the scenario exercises.
    pub rules: Vec<String>,
    /// `[scenario] description`: what happens and why; may be empty.
    pub description: String,
    /// `[scenario] source`: where the situation comes from; may be empty.
    pub origin: String,
    /// `[setup] spec`, as the spec loader resolved it.
    pub spec_path: String,
    /// The spec under test.
    pub spec: Arc<Spec>,
    /// The rest of `[setup]`: players, starting position, variants, facts,
    /// teams and counters.
    pub options: GameOptions,
    /// `[setup] answers`: standing answers to turn-based actions, used
    /// whenever no queued `answer` is waiting.
    pub answers: Vec<(TurnActionId, u16)>,
    /// `[setup] show_ends`: event checks include the "end ..." lines.
    pub show_ends: bool,
    /// Label names; label `i` is `labels[i]`, 0 means unlabelled.
    pub labels: Vec<String>,
    /// `[setup] stops`: the players' stop profiles, for `pass_to_stop`.
    pub stops: Vec<(PlayerId, StopProfile)>,
    /// The `[[script]]` entries, in order.
    pub script: Vec<Entry>,
}

/// One script entry with the byte span it came from.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Where the entry is in the file, for failure messages.
    pub span: Range<usize>,
    /// What the entry does.
    pub step: Step,
}

/// What a script entry does.
#[derive(Debug, Clone)]
pub enum Step {
    /// `pass = "P1"`: that player passes; it fails if they do not hold
    /// priority.
    Pass(PlayerId),
    /// `pass = "all"`: players pass until the round of passes is over.
    PassAll,
    /// `pass_to_stop`: `by` (else the holder) gives the command, then the
    /// auto-passer passes by the stop profiles until someone is asked.
    PassToStop {
        /// Who gives the command; `None`: the priority holder.
        by: Option<PlayerId>,
        /// The command.
        command: PassUntil,
    },
    /// `pass_until`: players pass until the game stands in an open window
    /// of that phase or step.
    PassUntil {
        /// The phase or step to reach.
        target: Place,
        /// `turn`: on this turn, not the first time the place comes.
        turn: Option<u32>,
    },
    /// `triggers`: what the play causes to trigger (put on the stack before
    /// anyone gets priority back, 117.5).
    Play {
        /// `by`: who plays.
        player: PlayerId,
        /// `play`: the timing class played at.
        timing: TimingId,
        /// `label`: the play's name in events and `stack` (0: none).
        label: u32,
        /// `triggers`: what the play causes to trigger.
        triggers: ScriptedTriggers,
    },
    /// `trigger`: the host reports a triggered ability now.
    Trigger {
        /// `by`: the controller (default: the active player).
        controller: Option<PlayerId>,
        /// The trigger's label.
        label: u32,
    },
    /// `set_fact` or `clear_fact`: a fact of the spec turns on or off.
    SetFact {
        /// The fact.
        fact: FactId,
        /// `true` for `set_fact`, `false` for `clear_fact`.
        value: bool,
    },
    /// `set_fact` or `clear_fact` with `label`: a fact of an object in play.
    SetObjectFact {
        /// The object (its label).
        object: u32,
        /// The fact.
        fact: ObjectFactId,
        /// `true` for `set_fact`, `false` for `clear_fact`.
        value: bool,
    },
    /// `enter`: an object enters play under `by`'s control.
    Enter {
        /// The object (its label).
        object: u32,
        /// `by`: who controls it.
        controller: PlayerId,
    },
    /// `leave_play`: an object leaves play.
    LeavePlay {
        /// The object (its label).
        object: u32,
    },
    /// `gain_control`: `by` gains control of an object.
    GainControl {
        /// The object (its label).
        object: u32,
        /// `by`: who controls it now.
        controller: PlayerId,
    },
    /// `effect`: one of the spec's structural effects is applied.
    Effect {
        /// The effect.
        effect: EffectId,
        /// `by`: the player it applies to (default: the active player).
        player: Option<PlayerId>,
        /// `target`: the other player it names (`control_turn`).
        target: Option<PlayerId>,
        /// `pending`: triggers waiting, not yet on the stack, as it applies.
        pending: ScriptedTriggers,
    },
    /// `end_effect`: a lasting effect the host applied ends.
    EndEffect {
        /// The effect.
        effect: EffectId,
        /// `by`: the player it was applied for (default: the active player).
        player: Option<PlayerId>,
    },
    /// `delay` with `next_turn = true`: a delayed trigger bound to the
    /// controller's next turn.
    DelayNextTurn {
        /// `by`: the controller (default: the active player).
        controller: Option<PlayerId>,
        /// The trigger's label.
        label: u32,
        /// `at`: the phase or step whose beginning it waits for.
        at: Place,
    },
    /// `until` with a scope bound to a player's turn.
    UntilBound {
        /// The effect's label, shown when it expires.
        label: u32,
        /// `scope`: `until_next`, `end_of_next_turn` or `until_turn_of`.
        scope: BoundScope,
        /// `at`: the phase or step it is bound to (not for `until_turn_of`).
        at: Option<Place>,
        /// `by`: whose turn (default: the active player).
        player: Option<PlayerId>,
    },
    /// `end_until`: the host ends an effect it started with `until`.
    EndUntil {
        /// The effect's label.
        label: u32,
    },
    /// `leave`: a player leaves the game.
    Leave(PlayerId),
    /// `declare_ending`: the host declares an ending for `by` (default:
    /// the active player).
    DeclareEnding {
        /// The ending.
        ending: EndingId,
        /// For whom.
        player: Option<PlayerId>,
    },
    /// `set_counter`: the host sets a counter (for `by`, default the
    /// active player).
    SetCounter {
        /// The counter.
        counter: CounterId,
        /// Whose value.
        player: Option<PlayerId>,
        /// The new value.
        value: u16,
    },
    /// `delay`: a delayed trigger for the next beginning of a phase or step.
    Delay {
        /// `by`: the controller (default: the active player).
        controller: Option<PlayerId>,
        /// The trigger's label.
        label: u32,
        /// `at`: the phase or step whose beginning it waits for.
        at: Place,
        /// `own_turn`: only at one in the controller's own turn.
        own_turn: bool,
    },
    /// `until`: an effect that lasts until the end of the step, phase or turn.
    Until {
        /// The effect's label, shown when it expires.
        label: u32,
        /// `scope`: when it ends.
        scope: Scope,
    },
    /// `choose`: the holder resolves this trigger of theirs from the bag.
    Choose {
        /// `by`: who chooses.
        player: PlayerId,
        /// The trigger's label.
        label: u32,
    },
    /// `add_mana`: unspent mana goes into a player's pool.
    AddMana {
        /// The pool's owner.
        player: PlayerId,
        /// `value`: how much (default 1).
        amount: u16,
    },
    /// `answer`: a queued answer for the next time that action happens.
    Answer {
        /// The turn-based action it answers.
        action: TurnActionId,
        /// `value`: the answer (default 0).
        value: u16,
        /// `triggers`: what the action causes to trigger.
        triggers: ScriptedTriggers,
    },
    /// `on_begin`: triggers for the next time that step begins.
    OnBegin {
        /// The step (or a phase without steps, by its hidden step).
        step: StepId,
        /// `triggers`: what triggers at its beginning.
        triggers: ScriptedTriggers,
    },
    /// `on_resolve`: triggers for the next time an object with that label
    /// resolves (before anyone receives priority).
    OnResolve {
        /// The label of the object whose resolution triggers.
        label: u32,
        /// `triggers`: what its resolution causes to trigger.
        triggers: ScriptedTriggers,
    },
    /// `expect`: the state right now.
    Expect(Expect),
    /// `expect_illegal`: the engine must refuse this and leave the game as
    /// it was.
    ExpectIllegal {
        /// The pass or play to try.
        action: Illegal,
        /// `rule`: the rule the refusal must cite, as the spec writes it.
        rule: Option<String>,
        /// `reason`: the kind of refusal (`not_holder`, `limit_reached`...).
        reason: Option<String>,
    },
    /// `expect_events`: exactly these event lines since the last event check.
    ExpectEvents(Vec<String>),
    /// `expect_trace`: exactly these event lines since the start.
    ExpectTrace(Vec<String>),
    /// `expect_includes`: these event lines since the last event check, in
    /// this order, others allowed between them.
    ExpectIncludes(Vec<String>),
}

/// A phase or step a script entry names (`pass_until`, `delay ... at`).
/// A step-less phase's id names the phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A phase id.
    Phase(PhaseId),
    /// A step id.
    Step(StepId),
}

/// What `expect_illegal` tries.
#[derive(Debug, Clone, Copy)]
pub enum Illegal {
    /// `pass = "P1"`: that player passes.
    Pass(PlayerId),
    /// `play` with `by` (and `label`): that player plays at that timing
    /// class, with that label (the object a play `by = "object"` names).
    Play(PlayerId, TimingId, u32),
}

/// `expect`: the fields to check; `None` (or empty) is not checked.
#[derive(Debug, Clone, Default)]
pub struct Expect {
    /// `turn`: the turn number.
    pub turn: Option<u32>,
    /// `active`: whose turn it is.
    pub active: Option<PlayerId>,
    /// `phase`: the current phase.
    pub phase: Option<PhaseId>,
    /// `step`: the current step.
    pub step: Option<StepId>,
    /// `phase_number`: how many phases of this kind have begun this turn
    /// (505.1a).
    pub phase_number: Option<u8>,
    /// `repeat`: how many times this step has repeated (514.3a).
    pub repeat: Option<u8>,
    /// `Some(None)`: nobody holds priority.
    pub holder: Option<Option<PlayerId>>,
    /// `stack`: labels on the stack, bottom first.
    pub stack: Option<Vec<String>>,
    /// `counters`: counter values (a per-player counter: the active player's).
    pub counters: Vec<(CounterId, u16)>,
    /// `facts`: fact values.
    pub facts: Vec<(FactId, bool)>,
    /// `status`: `running`, `over`, `turn_limit`, `stalled`, `no_players`
    /// or `never_ends`.
    pub status: Option<String>,
    /// `winners`: who won a game that is over (empty for a draw).
    pub winners: Option<Vec<PlayerId>>,
    /// `stopped`: why the last `pass_to_stop` stopped, as
    /// [`turnspec_engine::Stopped::describe`] writes it.
    pub stopped: Option<String>,
}

//! The elements of a compiled spec: phases, steps, windows, timing classes,
//! turn-based actions, counters, facts, effects and the game's settings, as
//! [`crate::Spec`] holds them in its arenas.

use crate::ids::*;
use crate::objects::ObjectLimit;
use crate::roles::Resolve;

/// An element of the spec and the byte offset (in the load's combined
/// source) of the entry that last set it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The element as `--explain` lists it (`"timing land"`, `"  step draw"`).
    pub element: String,
    /// Byte offset of the entry's key or id in the combined source.
    pub offset: usize,
}

/// `[game]`: what the spec is about and who may play it.
#[derive(Debug, Clone, Default)]
pub struct GameInfo {
    /// `name`: the game's name, shown by `check` and `run`.
    pub name: String,
    /// `edition`: which edition of the rules the spec follows; may be empty.
    pub edition: String,
    /// `edition_date`: the date of that edition; may be empty.
    pub edition_date: String,
    /// `source`: where the rules can be read; may be empty.
    pub source: String,
    /// `rule`: the rule that describes the turn as a whole.
    pub rule: RuleRef,
    /// `players.min`: the fewest players the game allows (at least 1).
    pub min_players: u8,
    /// `players.max`: the most players the game allows (at most 8).
    pub max_players: u8,
    /// `turn_order`: the order of turns, which passing priority and APNAP
    /// order follow too (101.4).
    pub turn_order: TurnOrder,
    /// `turn_effects_end`: where effects lasting "this turn" end.
    pub turn_effects_end: TurnEffectsEnd,
}

/// `turn_effects_end`: where effects lasting "until end of turn" end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TurnEffectsEnd {
    /// At a turn-based action with `ends_turn_effects` (Magic's cleanup,
    /// 514.2), and at the latest as the turn ends.
    #[default]
    TurnEnd,
    /// Only at a turn-based action with `ends_turn_effects`: a turn in
    /// which none happens (its place was skipped) does not end them, and
    /// they last until the next one (Grand Archive's clean-up, END 3;
    /// a skipped phase does not happen at all, SKIP 1).
    Action,
}

/// `turn_order`: which way play goes round the seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TurnOrder {
    /// Seat 1, 2, 3, ... and around again.
    #[default]
    Clockwise,
    /// Seat 1, then the last seat, going down.
    Counterclockwise,
}

/// `[terms]`: the game's own words, so traces and refusals read like its
/// rulebook.
#[derive(Debug, Clone, Default)]
pub struct Terms {
    /// `priority`: what the game calls priority (Grand Archive: "Opportunity").
    pub priority: String,
    /// `stack`: what the game calls the stack (Grand Archive: "Effects Stack").
    pub stack: String,
    /// `active_player`: what the game calls the active player (Grand
    /// Archive: "turn player").
    pub active_player: String,
}

/// Who receives priority at one of the hand-overs `[priority]` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Holder {
    /// `"active_player"`: the player whose turn it is.
    #[default]
    ActivePlayer,
    /// `"actor"`: the player who just played something (117.3c).
    Actor,
    /// `"next_player"`: the next player in turn order after the one who
    /// played (Yu-Gi-Oh!: the other player answers an activation first;
    /// Star Wars: Unlimited: players alternate single actions).
    NextPlayer,
}

/// `[priority]`: how priority moves inside an open window, and the rule
/// cited at each move.
#[derive(Debug, Clone, Default)]
pub struct PriorityModel {
    /// `rule`: cited when someone who does not hold priority tries to act
    /// (117.1; GA TIME 2).
    pub rule: RuleRef,
    /// Who receives priority when a window opens (117.3a).
    pub first: Holder,
    /// `first_rule`: cited when a window without a rule of its own opens,
    /// and when play returns to a window after an on-demand phase.
    pub first_rule: RuleRef,
    /// Who holds priority after a player acts (117.3c; GA TIME 8.1).
    pub after_action: Holder,
    /// `after_action_rule`: cited on that hand-over.
    pub after_action_rule: RuleRef,
    /// Who receives priority after the top object resolves (117.3b).
    pub after_resolve: Holder,
    /// `after_resolve_rule`: cited on that hand-over.
    pub after_resolve_rule: RuleRef,
    /// The rule for passing to the next player in turn order (117.3d).
    pub pass_rule: RuleRef,
    /// The rule for "all players pass in succession" (117.4, 500.2).
    pub close_rule: RuleRef,
    /// `triggers`: how waiting triggered abilities are ordered and resolved.
    pub triggers: TriggerOrder,
    /// `triggers_rule`: the rule behind that order.
    pub triggers_rule: RuleRef,
    /// `resolve`: one object per round of passes, or the whole stack.
    pub resolve: Resolve,
    /// `resolve_rule`: cited when the whole stack resolves.
    pub resolve_rule: RuleRef,
}

/// `[priority] triggers`: what happens to triggered abilities that wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TriggerOrder {
    /// `"stack"`: they go on the stack in APNAP order when a player is about
    /// to receive priority, and resolve last in, first out (603.3b).
    #[default]
    Stack,
    /// `"bag"`: they wait in a pool; the active player resolves theirs
    /// first, one at a time, then each other player in turn order, and
    /// triggers added meanwhile join the pool (Lorcana 7.7.4).
    Bag,
}

/// `[[phase]]`: one phase of the turn, regular or on demand.
#[derive(Debug, Clone)]
pub struct Phase {
    /// `id`: unique among phase and step ids.
    pub id: String,
    /// `name`: shown in traces (the id, spaced out, when not given).
    pub name: String,
    /// `rule`: cited when the phase begins.
    pub rule: RuleRef,
    /// `tags`: names a timing class's `during` can use for this phase.
    pub tags: Vec<String>,
    /// `counts_as`: the phase's kind, an index into [`Spec::kinds`](crate::Spec::kinds), so
    /// `phase_number` counts both main phases together (505.1a).
    pub kind: u8,
    /// Not part of the regular turn; only an action starts it.
    pub on_demand: bool,
    /// Present in the turn only while this holds (no events otherwise).
    pub only_if: Option<CondId>,
    /// `skip`: if any of these holds as the phase would begin, it is
    /// skipped, citing that entry's rule.
    pub skip: Vec<Condition>,
    /// The phase's first step; its steps follow it in the step arena. Set
    /// by [`SpecParts::add`](crate::SpecParts::add) as steps are added for the phase, so that a
    /// phase can only list steps that exist.
    pub(crate) first_step: StepId,
    /// How many steps the phase has (1 for a phase without steps).
    pub(crate) step_count: u16,
    /// The phase has no steps of its own; its single step is implicit and
    /// produces no step events.
    pub implicit_step: bool,
    /// `optional = true`: the phase happens in a turn only if the turn
    /// player elected it by a play at a class with `enters` naming it.
    pub optional: bool,
    /// `between_turns = true`: not part of any player's turn; it runs after
    /// each turn ends (Pokémon Checkup).
    pub between_turns: bool,
}

impl Phase {
    /// A phase with this id (also its name) and no steps yet, for the
    /// loader to fill in; its steps are the ones [`SpecParts::add`](crate::SpecParts::add) adds
    /// for it.
    pub fn new(id: impl Into<String>) -> Phase {
        let id = id.into();
        Phase {
            name: id.clone(),
            id,
            rule: RuleRef::NONE,
            tags: Vec::new(),
            kind: 0,
            on_demand: false,
            only_if: None,
            skip: Vec::new(),
            first_step: StepId::default(),
            step_count: 0,
            implicit_step: false,
            optional: false,
            between_turns: false,
        }
    }

    /// The phase's first step (its steps follow it, in order).
    #[inline]
    pub fn first_step(&self) -> StepId {
        self.first_step
    }

    /// How many steps the phase has (1 for a phase without steps).
    #[inline]
    pub fn step_count(&self) -> u16 {
        self.step_count
    }

    /// The step after `step` in this phase, if there is one.
    #[inline]
    pub fn step_after(&self, step: StepId) -> Option<StepId> {
        let next = step.index() + 1;
        let first = self.first_step.index();
        (next > first && next < first + self.step_count as usize)
            .then(|| crate::arena::Sealed::from_index(next))
    }

    /// The phase's steps, in order.
    pub fn steps(&self) -> impl DoubleEndedIterator<Item = StepId> + ExactSizeIterator + use<> {
        let first = self.first_step.index();
        (first..first + self.step_count as usize).map(crate::arena::Sealed::from_index)
    }
}

/// A condition with the rule that justifies it.
#[derive(Debug, Clone, Copy)]
pub struct Condition {
    /// `if`: the compiled condition.
    pub cond: CondId,
    /// `rule`: cited when the condition takes effect.
    pub rule: RuleRef,
}

/// `[[phase.step]]`: one step of a phase, or the hidden step that holds
/// the body of a phase without steps.
#[derive(Debug, Clone)]
pub struct Step {
    /// `id`: unique among phase and step ids; a hidden step has its
    /// phase's id.
    pub id: String,
    /// `name`: shown in traces (the id, spaced out, when not given).
    pub name: String,
    /// `rule`: cited when the step begins (a repeat cites the repeat's rule).
    pub rule: RuleRef,
    /// `tags`: names a timing class's `during` can use for this step.
    pub tags: Vec<String>,
    /// The phase the step belongs to.
    pub phase: PhaseId,
    /// The hidden step of a phase without steps: it produces no step events.
    pub implicit: bool,
    /// `actions`, `priority` or `sequence`: what happens in the step, in order.
    pub stages: Vec<Stage>,
    /// Present in the phase only while this holds (no events otherwise).
    pub only_if: Option<CondId>,
    /// `skip`: if any of these holds as the step would begin, it is
    /// skipped; checked again each time the step repeats.
    pub skip: Vec<Condition>,
    /// `repeat`: checked when the step ends: if true the same step begins again
    /// (514.3a cleanup loop, 510.4 second combat damage step).
    pub repeat: Option<Condition>,
    /// Bit `t` set: timing class `t` may be used in this step's windows.
    pub timing_mask: u32,
    /// `on_demand = true`: not part of the phase's regular run; a play at
    /// a class with `steps` runs it (a chain link's steps, an attack's).
    pub on_demand: bool,
}

/// One entry of a step's body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Something the game does by itself.
    Action(TurnActionId),
    /// A point where players may act.
    Window(WindowId),
}

/// A turn-based action: something the game does by itself (untap, draw,
/// declare attackers).
#[derive(Debug, Clone)]
pub struct TurnAction {
    /// `id`: unique in the spec, because a host answers actions by id.
    pub id: String,
    /// `name`: shown in traces (the id, spaced out, when not given).
    pub name: String,
    /// `rule`: cited when the action happens.
    pub rule: RuleRef,
    /// The step whose body holds the action.
    pub step: StepId,
    /// `if`: checked when the action's turn comes; if false, the action
    /// does not happen and leaves no trace.
    pub condition: Option<CondId>,
    /// `answer.counter`: the host's answer is stored here (e.g. number of attackers, 508.8).
    pub answer_counter: Option<CounterId>,
    /// Largest meaningful answer (0 = the action asks nothing).
    pub answer_max: u16,
    /// A non-zero answer makes the active player play this timing class.
    pub answer_play: Option<TimingId>,
    /// Every time the action happens the active player plays this timing
    /// class, e.g. pre-2009 combat damage going on the stack (310.1).
    pub play: Option<TimingId>,
    /// Performing this action ends "until end of turn" durations (514.2).
    pub ends_turn_effects: bool,
    /// The action puts the triggered abilities waiting by then on the stack
    /// (APNAP order) without giving anyone priority (GA EOC 1-2).
    pub stack_triggers: bool,
    /// `answer.role`: a non-zero answer is a seat (1 = the first player),
    /// who then holds this role (the defending hero's player).
    pub answer_role: Option<RoleId>,
}

/// `window` (or a body's `priority`): when a priority window opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowMode {
    /// Opens every time (most MTG steps).
    Always,
    /// Opens only if triggers are waiting or the stack is not empty
    /// (514.3a cleanup; GA state-check windows).
    IfPending,
}

/// A priority window: a point in a step where players may act.
#[derive(Debug, Clone)]
pub struct Window {
    /// `name`: shown when the window opens ("before damage"); may be empty.
    pub name: String,
    /// `rule` (or a body's `priority_rule`): cited when the window opens.
    pub rule: RuleRef,
    /// Whether the window opens every time or only with something pending.
    pub mode: WindowMode,
    /// `close = "stack_empty"`: close as soon as a resolution leaves the stack empty, without a
    /// further round of passes (GA state-check windows, TO 2.4).
    pub close_when_stack_empty: bool,
    /// The step whose body holds the window.
    pub step: StepId,
    /// `acts = "active_player"`: only the active player acts; their pass
    /// resolves the top object or closes the window, with no round of
    /// passes (Pokémon, Lorcana).
    pub solo: bool,
    /// `acts = ROLE`: with `solo`, the role's holder is the one who acts
    /// (a defending player's window); `None`: the active player.
    pub acts_role: Option<RoleId>,
    /// `refuse_pass`: while one of these holds, the holder may not pass in
    /// this window; the pass is refused citing its rule (Lorcana's
    /// Reckless, 8.7.3: a player cannot end their turn while a Reckless
    /// character of theirs can challenge).
    pub refuse_pass: Vec<Condition>,
}

/// `who`: which holder of priority may use a timing class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// Any player holding priority.
    Any,
    /// Only the player whose turn it is (sorcery speed, 307.1).
    ActivePlayer,
    /// Only a player whose turn it is not.
    NonActivePlayer,
    /// No player may: only turn-based actions play this class (pre-2009
    /// combat damage going on the stack, 310.1).
    Nobody,
    /// Only the player holding this role (defense reactions, FaB 8.1.3a).
    Role(RoleId),
}

/// `stack`: what the stack must look like for a timing class to be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StackRequirement {
    /// Whatever is on the stack.
    Any,
    /// Only while the stack is empty (307.1).
    Empty,
}

/// `effect`: what an accepted play at a timing class does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// The play becomes an object on the stack (a spell, an ability).
    Stack,
    /// A special action: no stack, nobody can respond (305.1, 116).
    Special,
    /// Starts an on-demand phase that returns to this window when it ends
    /// (GA's attack starts a combat phase).
    StartPhase(PhaseId),
}

/// `[timing.ID]`: a kind of play and the conditions for making it
/// (sorcery speed, a land play, Grand Archive's attack).
#[derive(Debug, Clone)]
pub struct TimingClass {
    /// The table key, `ID` in `[timing.ID]`.
    pub id: String,
    /// `name`: shown in traces and refusals ("sorcery speed").
    pub name: String,
    /// `rule`: the rule for the class, cited by refusals with no more
    /// specific rule.
    pub rule: RuleRef,
    /// `who`: which holder of priority may use the class.
    pub who: Who,
    /// The rule a refusal for `who` cites (default: the class's rule).
    pub who_rule: RuleRef,
    /// `stack`: whether the stack must be empty.
    pub stack: StackRequirement,
    /// `stack_rule`: cited when `stack` refuses a play.
    pub stack_rule: RuleRef,
    /// `during`: the phase ids, step ids and tags where the class may be
    /// used. Empty: any step with a window.
    pub during: Vec<String>,
    /// `during_rule`: cited when `during` refuses a play.
    pub during_rule: RuleRef,
    /// `effect` (with `phase` for `start_phase`): what a play does.
    pub effect: Effect,
    /// `limit`: at most so many uses until a counter resets (305.2).
    pub limit: Option<Limit>,
    /// `require`: extra conditions, every one of which must hold.
    pub require: Vec<Requirement>,
    /// `ends`: a play at this class ends the turn or the phase once made
    /// (a Pokémon attack).
    pub ends: Option<PlayEnds>,
    /// `enters`: a play at this class elects this optional phase for the
    /// turn (Yu-Gi-Oh!'s Battle Phase).
    pub enters: Option<PhaseId>,
    /// `cost`: a play spends this much of a counter, and is refused when
    /// the counter holds less (action points, Lorcana's inkings).
    pub cost: Option<Cost>,
    /// `attributes`: numbers conditions read through `top.NAME` while a
    /// play of this class is the top object of the stack (a speed).
    pub attributes: Vec<(u8, u16)>,
    /// `by = "object"`: a play at this class is made by an object in play
    /// its player controls, named by the play's label; `require` may read
    /// the object (`object.since_turn_start`).
    pub by_object: bool,
    /// `limit = { per = "object" }`: plays counted for each object.
    pub object_limit: Option<ObjectLimit>,
    /// `after`: who holds priority after a play at this class, instead of
    /// `[priority] after_action`.
    pub after: Option<Holder>,
    /// `after_rule`: cited on that hand-over.
    pub after_rule: RuleRef,
    /// `claims`: the player who plays takes this role.
    pub claims: Option<RoleId>,
    /// `response_round = true`: after the play every player may respond
    /// once; if all pass without playing, the window does not close:
    /// priority returns to the active player (Yu-Gi-Oh!'s open game state
    /// after a summon, 2.1).
    pub response_round: bool,
    /// `passes = "rest_of_window"`: the play is also the player's pass,
    /// and they pass whenever they would act again in this window (SWU's
    /// Take the Initiative, 1.15).
    pub passes_rest: bool,
    /// `steps`: the on-demand step the play runs, from it through the run
    /// of on-demand steps it starts, then back to the window it was made
    /// in: at once for a special action, when it resolves for a play on
    /// the stack.
    pub steps: Option<StepId>,
}

/// `ends = "turn"` or `"phase"`: what a play ends once made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayEnds {
    /// The whole turn (`true`) or only the current phase (`false`).
    pub turn: bool,
    /// `ends_rule`: the rule that says so.
    pub rule: RuleRef,
}

/// `cost = { counter, amount, rule }`: what a play at a class spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// `counter`: the resource, a counter; its `start` refills it.
    pub counter: CounterId,
    /// `amount`: how much one play spends.
    pub amount: u16,
    /// `rule`: cited when the play cannot be paid.
    pub rule: RuleRef,
}

/// `limit = { counter, max, rule }`: a timing class's cap on uses, first
/// built for one land per turn (305.2).
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// `counter`: goes up by 1 with each use; its `reset` sets the period.
    pub counter: CounterId,
    /// `max`: plays are refused once the counter has reached this.
    pub max: u16,
    /// `raised_by`: a counter whose value is added to `max` ("you may play
    /// an additional land this turn", 305.2); effects raise it by `grant`.
    pub raised_by: Option<CounterId>,
    /// `rule`: cited on refusal.
    pub rule: RuleRef,
}

/// One `require` entry of a timing class.
#[derive(Debug, Clone)]
pub struct Requirement {
    /// `if` and `rule`: what must hold, and the rule a refusal cites.
    pub condition: Condition,
    /// `explain`: the sentence a refusal shows (default: the condition text).
    pub explain: String,
}

/// `reset`: when a counter goes back to 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reset {
    /// Never.
    Game,
    /// As each turn begins.
    Turn,
    /// As each phase begins, except a phase a play starts (and any phase
    /// inside one).
    Phase,
    /// As each step begins, a repeated step included.
    Step,
}

/// `[counters.ID]`: a small number the engine keeps so the turn can
/// remember something, such as how many creatures attacked (508.8).
#[derive(Debug, Clone)]
pub struct Counter {
    /// The table key, `ID` in `[counters.ID]`; conditions read `counter.ID`.
    pub id: String,
    /// `description`: what it counts, for people.
    pub description: String,
    /// `rule`: the rule it serves.
    pub rule: RuleRef,
    /// `reset`: when it goes back to 0.
    pub reset: Reset,
    /// One value per player: limits count the acting player's, conditions
    /// read the active player's.
    pub per_player: bool,
    /// For per-player counters: which of the per-player slots holds it.
    pub slot: u8,
    /// `start`: the value it is reset to (0 by default); a resource that
    /// refills each turn, such as one inking (Lorcana 4.2.3).
    pub start: u16,
}

/// `[variants.ID]` or `[facts.ID]`: a yes/no value conditions read as
/// `variant.ID` or `fact.ID`.
#[derive(Debug, Clone)]
pub struct Flag {
    /// The table key, `ID` in `[facts.ID]` or `[variants.ID]`.
    pub id: String,
    /// `name`: shown in traces (the id when not given).
    pub name: String,
    /// `description`: what the flag means, for people.
    pub description: String,
    /// `rule`: the rule the flag comes from; a fact's changes cite it.
    pub rule: RuleRef,
    /// `default`: the value when the game starts, unless the host sets it.
    pub default: bool,
}

/// A structural effect declared by the spec, applied by a host action.
#[derive(Debug, Clone)]
pub struct EffectDef {
    /// The table key, `ID` in `[effects.ID]`; hosts apply effects by it.
    pub id: String,
    /// `name`: shown in traces (the id when not given).
    pub name: String,
    /// `rule`: cited on the `effect` event and on anything it skips.
    pub rule: RuleRef,
    /// `kind` and the keys that go with it: what the effect does.
    pub kind: EffectKind,
    /// Does nothing outside the player's own turn (500.10a); the rule cited.
    pub own_turn_only: Option<RuleRef>,
}

/// `kind`: how an effect reshapes the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EffectKind {
    /// The player (or each player, added in APNAP order) takes an extra
    /// turn after this one; the most recent is taken first (500.7).
    ExtraTurn {
        /// `for = "each_player"`: every player still in the game gets one.
        each_player: bool,
    },
    /// These phases follow the current one, before any added earlier (500.8).
    ExtraPhases(Vec<PhaseId>),
    /// An extra step after the current step (500.9), or after the current
    /// phase inside a phase of its own whose other steps are skipped (500.10).
    ExtraStep {
        /// `step`: the step to add.
        step: StepId,
        /// `after = "this_phase"`: after the current phase, not the step.
        after_phase: bool,
    },
    /// The player's next such step, phase or turn is skipped; one begun
    /// already is not affected (614.10, 614.10a).
    Skip(SkipTarget),
    /// Waiting triggers and the stack are removed and play continues at
    /// `goto` (723.1; GA ENDPH 2).
    EndTurn {
        /// `goto`: a step of a regular phase.
        goto: StepId,
    },
    /// The named phase, if it is the current one, ends now: at `goto` if
    /// given (GA ENDPH 1.2), else the next phase (723.2).
    EndPhase {
        /// `phase`: the phase to end.
        phase: PhaseId,
        /// `goto`: a step of that phase where play continues instead.
        goto: Option<StepId>,
    },
    /// The player's counter goes up by `amount` ("go again" grants an
    /// action point; Lorcana 4.2.3.1 an additional inking).
    Grant {
        /// `counter`: the resource granted.
        counter: CounterId,
        /// `amount`: how much.
        amount: u16,
    },
    /// `skip` with `lasting = true`: a static effect. Every such step,
    /// phase or turn of the player (or of every player) is skipped until
    /// the host ends the effect (614.10, "players skip their upkeep steps").
    LastingSkip {
        /// `step`, `phase` or `turn`, as for a one-time skip.
        target: SkipTarget,
        /// `for = "each_player"`: every player's, not only the player's.
        each_player: bool,
    },
    /// The turn order runs the other way from now on; applied again, it
    /// turns back (101.4).
    ReverseTurnOrder,
    /// The player controls another player's next turn: that player stays
    /// the active player and keeps their priority, but the decisions are
    /// the controller's (722).
    ControlTurn,
}

/// What a `skip` effect skips: exactly one of `step`, `phase`, `turn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SkipTarget {
    /// `step`: the player's next such step (a hidden step: its phase).
    Step(StepId),
    /// `phase`: the player's next such phase.
    Phase(PhaseId),
    /// `turn = true`: the player's next turn.
    Turn,
}

/// `empties`: when unspent mana leaves the players' pools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ManaEmpties {
    /// At the end of each step and each phase (500.4).
    #[default]
    Step,
    /// Only at the end of each phase (pre-2009 300.3).
    Phase,
}

/// `[mana]`: when mana pools empty, first built for 500.4.
#[derive(Debug, Clone, Copy, Default)]
pub struct ManaRules {
    /// `empties`: at the end of every step, or only of every phase.
    pub empties: ManaEmpties,
    /// `rule`: cited when a pool empties.
    pub rule: RuleRef,
    /// Unspent mana costs its owner that much life (pre-2009 mana burn).
    pub burn: bool,
    /// `burn_rule`: cited instead of `rule` when `burn` is on (300.3).
    pub burn_rule: RuleRef,
}

/// What the turn does when its active player leaves the game.
#[derive(Debug, Clone, Copy, Default)]
pub struct LeavingRules {
    /// `rule`: the rule behind it; kept with the spec, not yet traced.
    pub rule: RuleRef,
    /// Once the stack is empty, play jumps to this step (GA ENDGAME 8); with
    /// `None` the turn simply goes on (800.4j).
    pub active_player_goto: Option<StepId>,
}

//! The compiled spec: what the engine runs on.
//!
//! Every cross-reference is an index, every condition a [`CondId`], every rule
//! citation a [`RuleRef`]. Names stay only for display. A `Spec` is built
//! by [`crate::compile`] and never changes afterwards.

use crate::cond::{CondId, Conditions};

/// Engine limits, checked when a spec is compiled so the engine can use
/// fixed-size state.
pub const MAX_PLAYERS: u8 = 8;
pub const MAX_COUNTERS: usize = 16;
pub const MAX_FLAGS: usize = 64;
pub const MAX_TIMING_CLASSES: usize = 32;
pub const MAX_PHASE_KINDS: usize = 8;
pub const MAX_PHASES: usize = 64;
pub const MAX_STAGES_PER_STEP: usize = 32;
pub const MAX_EFFECTS: usize = 64;
/// Counters kept per player (`per = "player"`), in fixed game state.
pub const MAX_PLAYER_COUNTERS: usize = 2;

macro_rules! index_type {
    ($(#[$m:meta])* $name:ident, $int:ty) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub $int);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

index_type!(
    /// A phase definition.
    PhaseId,
    u8
);
index_type!(
    /// A step definition (phases without steps get one implicit step).
    StepId,
    u16
);
index_type!(
    /// A turn-based action definition.
    TurnActionId,
    u16
);
index_type!(
    /// A priority window definition.
    WindowId,
    u16
);
index_type!(
    /// A timing class (sorcery speed, a land play, GA's slow...).
    TimingId,
    u8
);
index_type!(CounterId, u8);
index_type!(
    /// A structural effect (extra turn, skip, end the turn...).
    EffectId,
    u8
);
index_type!(FactId, u8);
index_type!(VariantId, u8);
index_type!(
    /// A rule citation; `RuleRef::NONE` when the spec cites nothing.
    RuleRef,
    u16
);

impl RuleRef {
    pub const NONE: RuleRef = RuleRef(u16::MAX);
    pub fn is_none(self) -> bool {
        self == Self::NONE
    }
}

#[derive(Debug, Clone)]
pub struct Spec {
    pub game: GameInfo,
    pub terms: Terms,
    pub priority: PriorityModel,
    /// Phases in definition order; regular phases appear in `turn`.
    pub phases: Vec<Phase>,
    /// The regular order of phases in a turn.
    pub turn: Vec<PhaseId>,
    pub steps: Vec<Step>,
    pub turn_actions: Vec<TurnAction>,
    pub windows: Vec<Window>,
    pub timing: Vec<TimingClass>,
    pub counters: Vec<Counter>,
    pub facts: Vec<Flag>,
    pub variants: Vec<Flag>,
    pub effects: Vec<EffectDef>,
    pub mana: ManaRules,
    pub leaving: LeavingRules,
    /// Phase kinds (`counts_as`), for main-phase counting (505.1a).
    pub kinds: Vec<String>,
    pub conditions: Conditions,
    rules: Vec<String>,
    /// Where each element was last set: with `extends`, which file (see
    /// [`crate::Report::locate`] to turn the offset into `file:line`).
    pub origins: Vec<Origin>,
}

/// An element of the spec and the byte offset (in the load's combined
/// source) of the entry that last set it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub element: String,
    pub offset: usize,
}

#[derive(Debug, Clone)]
pub struct GameInfo {
    pub name: String,
    pub edition: String,
    pub edition_date: String,
    pub source: String,
    pub rule: RuleRef,
    pub min_players: u8,
    pub max_players: u8,
    pub turn_order: TurnOrder,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnOrder {
    /// Seat 1, 2, 3, ... and around again.
    Clockwise,
    /// Seat 1, then the last seat, going down.
    Counterclockwise,
}

#[derive(Debug, Clone)]
pub struct Terms {
    pub priority: String,
    pub stack: String,
    pub active_player: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    ActivePlayer,
    Actor,
}

#[derive(Debug, Clone)]
pub struct PriorityModel {
    pub rule: RuleRef,
    /// Who receives priority when a window opens (117.3a).
    pub first: Holder,
    pub first_rule: RuleRef,
    /// Who holds priority after a player acts (117.3c; GA TIME 8.1).
    pub after_action: Holder,
    pub after_action_rule: RuleRef,
    /// Who receives priority after the top object resolves (117.3b).
    pub after_resolve: Holder,
    pub after_resolve_rule: RuleRef,
    /// The rule for passing to the next player in turn order (117.3d).
    pub pass_rule: RuleRef,
    /// The rule for "all players pass in succession" (117.4, 500.2).
    pub close_rule: RuleRef,
}

#[derive(Debug, Clone)]
pub struct Phase {
    pub id: String,
    pub name: String,
    pub rule: RuleRef,
    pub tags: Vec<String>,
    pub kind: u8,
    /// Not part of the regular turn; only an action starts it.
    pub on_demand: bool,
    /// Present in the turn only while this holds (no events otherwise).
    pub only_if: Option<CondId>,
    pub skip: Vec<Condition>,
    pub first_step: StepId,
    pub step_count: u16,
    /// The phase has no steps of its own; its single step is implicit and
    /// produces no step events.
    pub implicit_step: bool,
}

impl Phase {
    pub fn steps(&self) -> impl Iterator<Item = StepId> + '_ {
        (self.first_step.0..self.first_step.0 + self.step_count).map(StepId)
    }
}

/// A condition with the rule that justifies it.
#[derive(Debug, Clone, Copy)]
pub struct Condition {
    pub cond: CondId,
    pub rule: RuleRef,
}

#[derive(Debug, Clone)]
pub struct Step {
    pub id: String,
    pub name: String,
    pub rule: RuleRef,
    pub tags: Vec<String>,
    pub phase: PhaseId,
    pub implicit: bool,
    pub stages: Vec<Stage>,
    /// Present in the phase only while this holds (no events otherwise).
    pub only_if: Option<CondId>,
    pub skip: Vec<Condition>,
    /// Checked when the step ends: if true the same step begins again
    /// (514.3a cleanup loop, 510.4 second combat damage step).
    pub repeat: Option<Condition>,
    /// Bit `t` set: timing class `t` may be used in this step's windows.
    pub timing_mask: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Action(TurnActionId),
    Window(WindowId),
}

#[derive(Debug, Clone)]
pub struct TurnAction {
    pub id: String,
    pub name: String,
    pub rule: RuleRef,
    pub step: StepId,
    pub condition: Option<CondId>,
    /// The host's answer is stored here (e.g. number of attackers, 508.8).
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowMode {
    /// Opens every time (most MTG steps).
    Always,
    /// Opens only if triggers are waiting or the stack is not empty
    /// (514.3a cleanup; GA state-check windows).
    IfPending,
}

#[derive(Debug, Clone)]
pub struct Window {
    pub name: String,
    pub rule: RuleRef,
    pub mode: WindowMode,
    /// Close as soon as a resolution leaves the stack empty, without a
    /// further round of passes (GA state-check windows, TO 2.4).
    pub close_when_stack_empty: bool,
    pub step: StepId,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    Any,
    ActivePlayer,
    NonActivePlayer,
    /// No player may: only turn-based actions play this class (pre-2009
    /// combat damage going on the stack, 310.1).
    Nobody,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StackRequirement {
    Any,
    Empty,
}

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

#[derive(Debug, Clone)]
pub struct TimingClass {
    pub id: String,
    pub name: String,
    pub rule: RuleRef,
    pub who: Who,
    /// The rule a refusal for `who` cites (default: the class's rule).
    pub who_rule: RuleRef,
    pub stack: StackRequirement,
    pub stack_rule: RuleRef,
    /// Empty: any step with a window.
    pub during: Vec<String>,
    pub during_rule: RuleRef,
    pub effect: Effect,
    pub limit: Option<Limit>,
    pub require: Vec<Requirement>,
}

#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub counter: CounterId,
    pub max: u16,
    pub rule: RuleRef,
}

#[derive(Debug, Clone)]
pub struct Requirement {
    pub condition: Condition,
    pub explain: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reset {
    Game,
    Turn,
    Phase,
    Step,
}

#[derive(Debug, Clone)]
pub struct Counter {
    pub id: String,
    pub description: String,
    pub rule: RuleRef,
    pub reset: Reset,
    /// One value per player: limits count the acting player's, conditions
    /// read the active player's.
    pub per_player: bool,
    /// For per-player counters: which of the per-player slots holds it.
    pub slot: u8,
}

#[derive(Debug, Clone)]
pub struct Flag {
    pub id: String,
    pub name: String,
    pub description: String,
    pub rule: RuleRef,
    pub default: bool,
}

impl Spec {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn assemble(
        game: GameInfo,
        terms: Terms,
        priority: PriorityModel,
        phases: Vec<Phase>,
        turn: Vec<PhaseId>,
        steps: Vec<Step>,
        turn_actions: Vec<TurnAction>,
        windows: Vec<Window>,
        timing: Vec<TimingClass>,
        counters: Vec<Counter>,
        facts: Vec<Flag>,
        variants: Vec<Flag>,
        effects: Vec<EffectDef>,
        mana: ManaRules,
        leaving: LeavingRules,
        kinds: Vec<String>,
        conditions: Conditions,
        rules: Vec<String>,
    ) -> Spec {
        Spec {
            game,
            terms,
            priority,
            phases,
            turn,
            steps,
            turn_actions,
            windows,
            timing,
            counters,
            facts,
            variants,
            effects,
            mana,
            leaving,
            kinds,
            conditions,
            rules,
            origins: Vec::new(),
        }
    }

    /// "Name — edition (date)", leaving out the parts the spec does not give.
    pub fn title(&self) -> String {
        let g = &self.game;
        let mut t = g.name.clone();
        if !g.edition.is_empty() {
            t.push_str(&format!(" — {}", g.edition));
        }
        if !g.edition_date.is_empty() {
            t.push_str(&format!(" ({})", g.edition_date));
        }
        t
    }

    /// The citation text, or `None` for [`RuleRef::NONE`].
    pub fn rule(&self, rule: RuleRef) -> Option<&str> {
        self.rules.get(rule.index()).map(|s| s.as_str())
    }

    pub fn phase(&self, id: PhaseId) -> &Phase {
        &self.phases[id.index()]
    }

    pub fn step(&self, id: StepId) -> &Step {
        &self.steps[id.index()]
    }

    pub fn turn_action(&self, id: TurnActionId) -> &TurnAction {
        &self.turn_actions[id.index()]
    }

    pub fn window(&self, id: WindowId) -> &Window {
        &self.windows[id.index()]
    }

    pub fn effect(&self, id: EffectId) -> &EffectDef {
        &self.effects[id.index()]
    }

    pub fn timing_class(&self, id: TimingId) -> &TimingClass {
        &self.timing[id.index()]
    }

    // Lookups by name: for hosts, scenarios and the CLI, never the hot path.

    pub fn phase_by_id(&self, id: &str) -> Option<PhaseId> {
        self.phases
            .iter()
            .position(|p| p.id == id)
            .map(|i| PhaseId(i as u8))
    }

    /// A step by id; a step-less phase's id names its implicit step.
    pub fn step_by_id(&self, id: &str) -> Option<StepId> {
        self.steps
            .iter()
            .position(|s| s.id == id)
            .map(|i| StepId(i as u16))
    }

    pub fn turn_action_by_id(&self, id: &str) -> Option<TurnActionId> {
        self.turn_actions
            .iter()
            .position(|s| s.id == id)
            .map(|i| TurnActionId(i as u16))
    }

    pub fn timing_by_id(&self, id: &str) -> Option<TimingId> {
        self.timing
            .iter()
            .position(|s| s.id == id)
            .map(|i| TimingId(i as u8))
    }

    pub fn counter_by_id(&self, id: &str) -> Option<CounterId> {
        self.counters
            .iter()
            .position(|s| s.id == id)
            .map(|i| CounterId(i as u8))
    }

    pub fn fact_by_id(&self, id: &str) -> Option<FactId> {
        self.facts
            .iter()
            .position(|s| s.id == id)
            .map(|i| FactId(i as u8))
    }

    pub fn effect_by_id(&self, id: &str) -> Option<EffectId> {
        self.effects
            .iter()
            .position(|s| s.id == id)
            .map(|i| EffectId(i as u8))
    }

    pub fn variant_by_id(&self, id: &str) -> Option<VariantId> {
        self.variants
            .iter()
            .position(|s| s.id == id)
            .map(|i| VariantId(i as u8))
    }
}

/// A structural effect declared by the spec, applied by a host action.
#[derive(Debug, Clone)]
pub struct EffectDef {
    pub id: String,
    pub name: String,
    pub rule: RuleRef,
    pub kind: EffectKind,
    /// Does nothing outside the player's own turn (500.10a); the rule cited.
    pub own_turn_only: Option<RuleRef>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EffectKind {
    /// The player (or each player, added in APNAP order) takes an extra
    /// turn after this one; the most recent is taken first (500.7).
    ExtraTurn { each_player: bool },
    /// These phases follow the current one, before any added earlier (500.8).
    ExtraPhases(Vec<PhaseId>),
    /// An extra step after the current step (500.9), or after the current
    /// phase inside a phase of its own whose other steps are skipped (500.10).
    ExtraStep { step: StepId, after_phase: bool },
    /// The player's next such step, phase or turn is skipped; one begun
    /// already is not affected (614.10, 614.10a).
    Skip(SkipTarget),
    /// Waiting triggers and the stack are removed and play continues at
    /// `goto` (723.1; GA ENDPH 2).
    EndTurn { goto: StepId },
    /// The named phase, if it is the current one, ends now: at `goto` if
    /// given (GA ENDPH 1.2), else the next phase (723.2).
    EndPhase {
        phase: PhaseId,
        goto: Option<StepId>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SkipTarget {
    Step(StepId),
    Phase(PhaseId),
    Turn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ManaEmpties {
    /// At the end of each step and each phase (500.4).
    Step,
    /// Only at the end of each phase (pre-2009 300.3).
    Phase,
}

#[derive(Debug, Clone, Copy)]
pub struct ManaRules {
    pub empties: ManaEmpties,
    pub rule: RuleRef,
    /// Unspent mana costs its owner that much life (pre-2009 mana burn).
    pub burn: bool,
    pub burn_rule: RuleRef,
}

/// What the turn does when its active player leaves the game.
#[derive(Debug, Clone, Copy, Default)]
pub struct LeavingRules {
    pub rule: RuleRef,
    /// Once the stack is empty, play jumps to this step (GA ENDGAME 8); with
    /// `None` the turn simply goes on (800.4j).
    pub active_player_goto: Option<StepId>,
}

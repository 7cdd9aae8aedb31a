//! Random valid specs: TOML text written from a seed, covering every
//! feature of the format (docs/spec-format.md), so the engine's two tiers
//! can be compared on turn structures nobody wrote by hand.
//!
//! The generator plans the spec's shape first (ids, phases, steps, which
//! stages are windows), then writes the tables, choosing references only
//! among elements that make them valid: a `start_phase` class only from
//! windows of phases that come before its phase in a fixed order (so
//! on-demand phases never start each other in a cycle), an `enters` class
//! for every optional phase, one regular phase that always opens a window,
//! conditions that always name something from the game (so none is
//! constant), and `repeat`s that are bounded or can stop. Every feature
//! used is counted ([`Feature`]), so a run shows what it covered.
use turnspec_engine::policy::SplitMix64;

macro_rules! features {
    ($($name:ident = $text:literal,)*) => {
        /// Something a generated spec (or its game set-up) uses.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[repr(u8)]
        pub enum Feature {
            $($name,)*
        }
        /// The name of each feature, in [`Feature`] order.
        pub const FEATURE_NAMES: &[&str] = &[$($text,)*];
    };
}

features! {
    MinPlayers1 = "game: players min 1",
    TurnOrderCounter = "game: turn_order counterclockwise",
    TurnEffectsAction = "game: turn_effects_end action",
    Terms = "[terms]",
    AfterActionActive = "priority: after_action active_player",
    Bag = "priority: triggers bag",
    Mana = "[mana]",
    ManaBurn = "mana: burn",
    ManaEmptiesPhase = "mana: empties phase",
    Leaving = "[leaving] active_player_goto",
    Variant = "[variants]",
    Fact = "[facts]",
    FactDefaultTrue = "facts: default true",
    Counter = "[counters]",
    ResetGame = "counter reset game",
    ResetTurn = "counter reset turn",
    ResetPhase = "counter reset phase",
    ResetStep = "counter reset step",
    PerPlayer = "counter per player",
    Resource = "counter start (resource)",
    PhaseWithSteps = "phase with steps",
    StepLessPhase = "phase without steps",
    RegularPhases5 = "5+ regular phases",
    OnDemand = "on_demand phase",
    OnDemandNested = "on_demand phase started from another",
    Optional = "optional phase",
    OnlyIfElected = "only_if elected.PHASE",
    BetweenTurns = "between_turns phase",
    CountsAs = "counts_as shared",
    Tags = "tags",
    PhaseOnlyIf = "phase only_if",
    PhaseSkip = "phase skip",
    StepOnlyIf = "step only_if",
    StepSkip = "step skip",
    BodyActionsPriority = "body: actions + priority",
    BodySequence = "body: sequence",
    PriorityAlways = "window always",
    PriorityIfPending = "window if_pending",
    PriorityNever = "priority never",
    CloseStackEmpty = "window close stack_empty",
    ActsActive = "window acts active_player",
    ActsAll = "window acts all (explicit)",
    WindowName = "window name/rule",
    EmptyStep = "step with no stages",
    RepeatBounded = "repeat: repeat_count bound",
    RepeatWindowOpened = "repeat: window_opened",
    RepeatCounter = "repeat: counter answered in step",
    RepeatOpen = "repeat: on a fact alone (may never end)",
    TurnAction = "turn-based action",
    ActionIf = "action if",
    AnswerCounter = "action answer counter",
    AnswerPlay = "action answer play",
    AnswerMax = "action answer max",
    ActionPlay = "action play",
    EndsTurnEffects = "action ends_turn_effects",
    StackTriggers = "action stack_triggers",
    Timing = "[timing]",
    WhoAny = "who any",
    WhoActive = "who active_player",
    WhoNonActive = "who non_active_player",
    WhoNobody = "who nobody",
    StackEmpty = "timing stack empty",
    DuringAll = "timing during omitted (everywhere)",
    DuringPhase = "timing during phase id",
    DuringStep = "timing during step id",
    DuringTag = "timing during tag",
    EffectStack = "timing effect stack",
    EffectSpecial = "timing effect special",
    EffectStartPhase = "timing effect start_phase",
    Limit = "timing limit",
    LimitPerPlayer = "timing limit on per-player counter",
    LimitRaisedBy = "timing limit raised_by",
    Require = "timing require",
    Cost = "timing cost (resource)",
    EndsPhase = "timing ends phase",
    EndsTurn = "timing ends turn",
    Enters = "timing enters",
    Attributes = "timing attributes",
    Rules = "*_rule citations",
    PlainProfile = "profile: plain (none of the mechanisms below)",
    ProgramEligible = "no bag/acts/optional/resource/between (program runs)",
    CondPlayers = "cond: players",
    CondTeams = "cond: teams",
    CondTurn = "cond: turn",
    CondFirstTurn = "cond: first_turn",
    CondStartingPlayer = "cond: starting_player",
    CondSeat = "cond: seat",
    CondPhaseNumber = "cond: phase_number",
    CondRepeatCount = "cond: repeat_count",
    CondWindowOpened = "cond: window_opened",
    CondStackEmpty = "cond: stack_empty",
    CondStackDepth = "cond: stack_depth",
    CondTopIs = "cond: top_is.CLASS",
    CondTop = "cond: top.NAME",
    CondElected = "cond: elected.PHASE",
    CondExtraTurnNext = "cond: extra_turn_next",
    CondExtraTurn = "cond: extra_turn",
    CondVariant = "cond: variant.ID",
    CondFact = "cond: fact.ID",
    CondCounter = "cond: counter.ID",
    CondNot = "cond: not",
    CondAnd = "cond: and",
    CondOr = "cond: or",
    CondParens = "cond: parentheses",
    ExtraTurn = "effect extra_turn",
    ExtraTurnEach = "effect extra_turn for each_player",
    ExtraPhases = "effect extra_phases",
    ExtraStep = "effect extra_step this_step",
    ExtraStepPhase = "effect extra_step this_phase",
    SkipStep = "effect skip step",
    SkipPhase = "effect skip phase",
    Objects = "[objects]",
    ObjectFacts = "[objects.facts]",
    ObjectFactTurn = "object fact reset turn",
    ByObject = "timing by object",
    ObjectLimit = "timing limit per object",
    CondObject = "cond: object.*",
    SkipTurn = "effect skip turn",
    SkipLasting = "effect skip lasting",
    SkipLastingEach = "effect skip lasting for each_player",
    EndTurn = "effect end_turn",
    EndPhase = "effect end_phase",
    EndPhaseGoto = "effect end_phase goto",
    Grant = "effect grant",
    Reverse = "effect reverse_turn_order",
    ControlTurn = "effect control_turn",
    OwnTurnOnly = "effect own_turn_only",
    GameEnd = "[game_end]",
    Ending = "[endings]",
    EndingDeclared = "ending without if (host declares it)",
    EndingWins = "ending result wins",
    EndingLoses = "ending result loses",
    EndingDraw = "ending result draw",
    EndingIfCounter = "ending if on a counter",
    EndingIfFact = "ending if on a fact",
    EndingIfOther = "ending if on other names",
    EndingEachPlayer = "ending for each_player",
    EndingAtOmitted = "ending at omitted (step_end)",
    EndingAtTurnStart = "ending at turn_start",
    EndingAtStepEnd = "ending at step_end",
    EndingAtTurnEnd = "ending at turn_end",
    EndingAtCounterSet = "ending at counter_set",
    EndingAfter = "ending after ACTION",
    EndingAfterOnly = "ending after ACTION without at",
    EndingAfterAnswer = "ending after ACTION reading its answer",
    RefusePass = "window refuse_pass",
    RefusePassTwo = "window refuse_pass, two conditions",
    AfterActionNext = "priority: after_action next_player",
    ResolveWhole = "priority: resolve whole_stack",
    ClassAfter = "class after",
    Roles = "[roles]",
    RoleInitialActive = "role initial active_player",
    RoleInitialNext = "role initial next_player",
    RoleInitialStarting = "role initial starting_player",
    RoleResetNever = "role reset never",
    RoleNextTurn = "role next_turn",
    ClassClaims = "class claims",
    AnswerRole = "answer role",
    ActsRole = "window acts ROLE",
    WhoRole = "class who ROLE",
    CondRole = "condition role.ID",
    ClassPasses = "class passes rest_of_window",
    ClassResponseRound = "class response_round",
    OnDemandSteps = "on_demand steps",
    StepsSpecial = "class steps (special)",
    StepsStack = "class steps (stack)",
    // Set when the game is set up (see generated.rs), not by the text.
    Players2 = "set-up: 2 players",
    Players3To4 = "set-up: 3-4 players",
    Players5To8 = "set-up: 5-8 players",
    Players1 = "set-up: 1 player",
    Teams = "set-up: teams",
    VariantsOn = "set-up: variants on",
    FactsSet = "set-up: facts set",
    StartingPlayer = "set-up: starting player not P1",
    StartCounters = "set-up: counter values",
}

/// A set of [`Feature`]s, one bit each (room for 256).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Features(pub [u128; 2]);

// Every feature has a bit.
const _: () = assert!(FEATURE_NAMES.len() <= 256);

impl Features {
    pub fn set(&mut self, f: Feature) {
        let i = f as usize;
        self.0[i / 128] |= 1u128 << (i % 128);
    }

    pub fn unset(&mut self, f: Feature) {
        let i = f as usize;
        self.0[i / 128] &= !(1u128 << (i % 128));
    }

    pub fn uses(&self, f: Feature) -> bool {
        self.has(f as usize)
    }

    pub fn has(&self, i: usize) -> bool {
        i < 256 && self.0[i / 128] >> (i % 128) & 1 != 0
    }
}

/// A generated spec: its text and what it uses.
pub struct Generated {
    pub text: String,
    pub features: Features,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum PhaseKind {
    Regular,
    Optional,
    OnDemand,
    Between,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Win {
    Always,
    IfPending,
}

#[derive(Clone)]
enum Stage {
    Action(String),
    Window(Win),
}

struct StepPlan {
    id: String,
    /// `on_demand = true`: run only by a play at a class with `steps`.
    on_demand: bool,
    tags: Vec<&'static str>,
    /// Form 1 (`actions` + `priority`): the window is the last stage.
    form1: bool,
    stages: Vec<Stage>,
}

impl StepPlan {
    fn has_window(&self) -> bool {
        self.stages.iter().any(|s| matches!(s, Stage::Window(_)))
    }
}

struct PhasePlan {
    id: String,
    kind: PhaseKind,
    /// `None`: a phase without steps, whose one step is `steps[0]` with
    /// the phase's id.
    with_steps: bool,
    steps: Vec<StepPlan>,
    tags: Vec<&'static str>,
    counts_as: Option<&'static str>,
    /// The phase that always opens a window (no skip, no only_if).
    anchor: bool,
    /// Order among on-demand phases (a start_phase class for this one is
    /// usable only in phases of lower rank).
    rank: usize,
}

impl PhasePlan {
    fn has_window(&self) -> bool {
        self.steps.iter().any(StepPlan::has_window)
    }
}

struct CounterPlan {
    id: String,
    resource: bool,
    per_player: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    General,
    StartPhase(usize),
    Enters(usize),
    Nobody,
    /// A class with `steps`: runs the on-demand step `.1` of phase `.0`,
    /// usable only in that phase's windows.
    Steps(usize, usize),
}

/// A seat role (`[roles.ID]`).
struct RolePlan {
    id: String,
}

struct ClassPlan {
    id: String,
    role: Role,
}

const TAGS: &[&str] = &["main", "combat", "fast"];
const KINDS: &[&str] = &["k_main", "k_combat"];
const ATTRS: &[&str] = &["speed", "rank"];

struct Gen<'r> {
    rng: &'r mut SplitMix64,
    out: String,
    f: Features,
    max_players: u8,
    facts: Vec<String>,
    variants: Vec<String>,
    counters: Vec<CounterPlan>,
    classes: Vec<ClassPlan>,
    phases: Vec<PhasePlan>,
    attrs: Vec<&'static str>,
    bag: bool,
    rule_n: u32,
    /// The phase being written: `elected.PHASE` may only name an optional
    /// phase before it in the file (the loader resolves phase conditions
    /// in file order; see docs/reliability.md).
    cur_phase: Option<usize>,
    /// Half the specs use none of the mechanisms the turn program leaves
    /// to the interpreter today (the bag, `acts = "active_player"`,
    /// optional phases, resources, between-turns phases: engine
    /// `Features::need_interpreter`), and mostly plain timing classes, so
    /// the compiled program and its fast paths run often.
    plain: bool,
    /// Turn-based actions written so far, with the counter each answers
    /// (for endings checked `after` one).
    actions: Vec<(String, Option<String>)>,
    /// Some class is made by an object: `[objects]` is written, with these
    /// facts.
    objects: bool,
    object_facts: Vec<(String, bool)>,
    /// Classes limited per object so far (the model keeps 4).
    object_limits: u8,
    /// Seat roles (at most 4, the model's limit).
    roles: Vec<RolePlan>,
}

/// Writes the spec for `seed`.
pub fn generate(seed: u64) -> Generated {
    let mut rng = SplitMix64(seed ^ 0x005e_ed0f_5bec);
    let mut g = Gen {
        rng: &mut rng,
        out: String::with_capacity(8192),
        f: Features::default(),
        max_players: 2,
        facts: Vec::new(),
        variants: Vec::new(),
        counters: Vec::new(),
        classes: Vec::new(),
        phases: Vec::new(),
        attrs: Vec::new(),
        bag: false,
        rule_n: 0,
        cur_phase: None,
        plain: false,
        actions: Vec::new(),
        objects: false,
        object_facts: Vec::new(),
        object_limits: 0,
        roles: Vec::new(),
    };
    g.plain = g.chance(1, 2);
    if g.plain {
        g.f.set(Feature::PlainProfile);
    }
    g.plan();
    g.write();
    let uses = |f: Feature| g.f.uses(f);
    // "This turn" effects that end only at an action need one (the
    // loader refuses the spec otherwise): without it, drop the key.
    if uses(Feature::TurnEffectsAction) && !uses(Feature::EndsTurnEffects) {
        g.out = g.out.replacen("turn_effects_end = \"action\"\n", "", 1);
        g.f.unset(Feature::TurnEffectsAction);
    }
    let uses = |f: Feature| g.f.uses(f);
    if !(uses(Feature::Bag)
        || uses(Feature::ActsActive)
        || uses(Feature::Optional)
        || uses(Feature::Resource)
        || uses(Feature::BetweenTurns))
    {
        g.f.set(Feature::ProgramEligible);
    }
    Generated {
        text: g.out,
        features: g.f,
    }
}

mod classes;
mod conditions;
mod effects;
mod endings;
mod phases;
mod plan;
mod roles;

impl Gen<'_> {
    fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    /// True with chance `n` in `d`.
    fn chance(&mut self, n: u64, d: u64) -> bool {
        self.rng.below(d) < n
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.rng.below(items.len() as u64) as usize]
    }

    fn rule(&mut self) -> String {
        self.rule_n += 1;
        format!("R {}", self.rule_n)
    }

    // ---------------------------------------------------------------- plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_specs_load() {
        let mut rejected = Vec::new();
        for seed in 0..300 {
            let g = generate(seed);
            if let Err(report) = turnspec_spec::load_str("generated.toml", &g.text) {
                let msgs: Vec<String> = report
                    .diagnostics
                    .iter()
                    .map(|d| format!("{}: {}", d.code, d.message))
                    .collect();
                rejected.push((seed, msgs));
            }
        }
        assert!(rejected.is_empty(), "rejected: {rejected:#?}");
    }

    #[test]
    fn generation_is_deterministic() {
        assert_eq!(generate(42).text, generate(42).text);
        assert_ne!(generate(42).text, generate(43).text);
    }
}

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

use std::fmt::Write as _;

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

/// A set of [`Feature`]s.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Features(pub u128);

impl Features {
    pub fn set(&mut self, f: Feature) {
        self.0 |= 1u128 << (f as u8);
    }

    pub fn has(&self, i: usize) -> bool {
        self.0 >> i & 1 != 0
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
    };
    g.plain = g.chance(1, 2);
    if g.plain {
        g.f.set(Feature::PlainProfile);
    }
    g.plan();
    g.write();
    let uses = |f: Feature| g.f.0 >> (f as u8) & 1 != 0;
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

    fn plan(&mut self) {
        let nf = self.below(4) as usize;
        self.facts = (0..nf).map(|i| format!("f{i}")).collect();
        let nv = self.below(3) as usize;
        self.variants = (0..nv).map(|i| format!("v{i}")).collect();
        let nc = self.below(6) as usize;
        let mut per = 0;
        for i in 0..nc {
            let per_player = per < 2 && self.chance(1, 5);
            per += per_player as u32;
            let resource = !self.plain && self.chance(1, 3);
            self.counters.push(CounterPlan {
                id: format!("c{i}"),
                resource,
                per_player,
            });
        }
        self.bag = !self.plain && self.chance(1, 3);

        // Phases: regular (and optional) in turn order, on-demand and
        // between-turns ones placed anywhere in the file.
        let n_regular = 1 + self.below(6) as usize;
        let n_optional = if !self.plain && self.chance(1, 2) {
            1 + self.below(2) as usize
        } else {
            0
        };
        let n_on_demand = if self.chance(1, 2) {
            1 + self.below(3) as usize
        } else {
            0
        };
        let n_between = if !self.plain && self.chance(1, 3) {
            1 + self.below(2) as usize
        } else {
            0
        };
        let mut kinds = vec![PhaseKind::Regular; n_regular];
        for _ in 0..n_optional {
            let at = self.below(kinds.len() as u64 + 1) as usize;
            kinds.insert(at, PhaseKind::Optional);
        }
        for _ in 0..n_on_demand {
            let at = self.below(kinds.len() as u64 + 1) as usize;
            kinds.insert(at, PhaseKind::OnDemand);
        }
        for _ in 0..n_between {
            let at = self.below(kinds.len() as u64 + 1) as usize;
            kinds.insert(at, PhaseKind::Between);
        }
        let regular_at: Vec<usize> = (0..kinds.len())
            .filter(|i| kinds[*i] == PhaseKind::Regular)
            .collect();
        let anchor = *self.pick(&regular_at);
        let mut step_n = 0;
        let mut action_n = 0;
        let mut rank = 0;
        for (i, &kind) in kinds.iter().enumerate() {
            let id = format!("p{i}");
            let with_steps = self.chance(3, 5);
            let n_steps = if with_steps {
                1 + self.below(4) as usize
            } else {
                1
            };
            let mut steps = Vec::new();
            for _ in 0..n_steps {
                let sid = if with_steps {
                    step_n += 1;
                    format!("s{}", step_n - 1)
                } else {
                    id.clone()
                };
                let tags = if with_steps && self.chance(1, 5) {
                    vec![*self.pick(TAGS)]
                } else {
                    Vec::new()
                };
                let form1 = self.chance(1, 2);
                let mut stages = Vec::new();
                if form1 {
                    for _ in 0..self.below(4) {
                        action_n += 1;
                        stages.push(Stage::Action(format!("a{}", action_n - 1)));
                    }
                    match self.below(3) {
                        0 => stages.push(Stage::Window(Win::Always)),
                        1 => stages.push(Stage::Window(Win::IfPending)),
                        _ => {}
                    }
                } else {
                    for _ in 0..1 + self.below(5) {
                        if self.chance(1, 2) {
                            action_n += 1;
                            stages.push(Stage::Action(format!("a{}", action_n - 1)));
                        } else if self.chance(1, 2) {
                            stages.push(Stage::Window(Win::Always));
                        } else {
                            stages.push(Stage::Window(Win::IfPending));
                        }
                    }
                }
                steps.push(StepPlan {
                    id: sid,
                    tags,
                    form1,
                    stages,
                });
            }
            if i == anchor {
                // The anchor opens a window every time it comes.
                let s = self.below(steps.len() as u64) as usize;
                if !steps[s]
                    .stages
                    .iter()
                    .any(|st| matches!(st, Stage::Window(Win::Always)))
                {
                    if steps[s].form1 {
                        steps[s].stages.retain(|st| matches!(st, Stage::Action(_)));
                    }
                    steps[s].stages.push(Stage::Window(Win::Always));
                }
            }
            let tags = if self.chance(1, 4) {
                vec![*self.pick(TAGS)]
            } else {
                Vec::new()
            };
            let counts_as = if self.chance(1, 3) {
                Some(*self.pick(KINDS))
            } else {
                None
            };
            let r = if kind == PhaseKind::OnDemand {
                rank += 1;
                rank
            } else {
                0
            };
            self.phases.push(PhasePlan {
                id,
                kind,
                with_steps,
                steps,
                tags,
                counts_as,
                anchor: i == anchor,
                rank: r,
            });
        }
        // At most 8 phase kinds: give the rest a shared kind.
        let mut own = self.phases.iter().filter(|p| p.counts_as.is_none()).count();
        let shared = |p: &[PhasePlan]| {
            KINDS
                .iter()
                .filter(|k| p.iter().any(|x| x.counts_as == Some(**k)))
                .count()
        };
        for p in 0..self.phases.len() {
            if own + shared(&self.phases) <= 8 {
                break;
            }
            if self.phases[p].counts_as.is_none() {
                self.phases[p].counts_as = Some(KINDS[0]);
                own -= 1;
            }
        }
        for p in &self.phases {
            if p.counts_as.is_some() {
                self.f.set(Feature::CountsAs);
            }
        }

        // Timing classes: one starting each on-demand phase, one electing
        // each optional phase, some general ones, now and then one nobody
        // may use (for turn-based actions' plays).
        let mut roles = Vec::new();
        for (i, p) in self.phases.iter().enumerate() {
            match p.kind {
                PhaseKind::OnDemand => roles.push(Role::StartPhase(i)),
                PhaseKind::Optional => roles.push(Role::Enters(i)),
                _ => {}
            }
        }
        for _ in 0..1 + self.below(5) {
            roles.push(Role::General);
        }
        if self.chance(1, 3) {
            roles.push(Role::Nobody);
        }
        for (i, role) in roles.into_iter().enumerate() {
            self.classes.push(ClassPlan {
                id: format!("t{i}"),
                role,
            });
        }
        if self.chance(1, 3) {
            self.attrs.push(ATTRS[0]);
            if self.chance(1, 2) {
                self.attrs.push(ATTRS[1]);
            }
        }
    }

    // ------------------------------------------------------------- conditions

    /// One condition, naming something from the game at least once.
    fn cond(&mut self, depth: u32) -> String {
        let r = if depth < 2 { self.below(10) } else { 9 };
        match r {
            0 => {
                self.f.set(Feature::CondNot);
                let inner = self.cond(depth + 1);
                if inner.contains(' ') {
                    self.f.set(Feature::CondParens);
                    format!("not ({inner})")
                } else {
                    format!("not {inner}")
                }
            }
            1 | 2 => {
                let and = self.chance(1, 2);
                self.f.set(if and {
                    Feature::CondAnd
                } else {
                    Feature::CondOr
                });
                let a = self.cond(depth + 1);
                let b = self.cond(depth + 1);
                let wrap = |g: &mut Self, s: String| {
                    if s.contains(" or ") || (s.contains(" and ") && g.chance(1, 3)) {
                        g.f.set(Feature::CondParens);
                        format!("({s})")
                    } else {
                        s
                    }
                };
                let a = wrap(self, a);
                let b = wrap(self, b);
                format!("{a} {} {b}", if and { "and" } else { "or" })
            }
            _ => self.atom(),
        }
    }

    fn cmp(&mut self, name: &str, lo: u64, hi: u64) -> String {
        let op = *self.pick(&["==", "!=", "<", "<=", ">", ">="]);
        let n = lo + self.below(hi - lo + 1);
        format!("{name} {op} {n}")
    }

    fn atom(&mut self) -> String {
        loop {
            let max = self.max_players as u64;
            let s = match self.below(19) {
                0 => {
                    self.f.set(Feature::CondPlayers);
                    self.cmp("players", 1, max)
                }
                1 => {
                    self.f.set(Feature::CondTeams);
                    self.cmp("teams", 1, max)
                }
                2 => {
                    self.f.set(Feature::CondTurn);
                    self.cmp("turn", 1, 4)
                }
                3 => {
                    self.f.set(Feature::CondFirstTurn);
                    "first_turn".into()
                }
                4 => {
                    self.f.set(Feature::CondStartingPlayer);
                    "starting_player".into()
                }
                5 => {
                    self.f.set(Feature::CondSeat);
                    self.cmp("seat", 1, max)
                }
                6 => {
                    self.f.set(Feature::CondPhaseNumber);
                    self.cmp("phase_number", 1, 3)
                }
                7 => {
                    self.f.set(Feature::CondRepeatCount);
                    self.cmp("repeat_count", 0, 2)
                }
                8 => {
                    self.f.set(Feature::CondWindowOpened);
                    "window_opened".into()
                }
                9 => {
                    self.f.set(Feature::CondStackEmpty);
                    "stack_empty".into()
                }
                10 => {
                    self.f.set(Feature::CondStackDepth);
                    self.cmp("stack_depth", 0, 2)
                }
                11 => {
                    self.f.set(Feature::CondTopIs);
                    let c = self.below(self.classes.len() as u64) as usize;
                    format!("top_is.{}", self.classes[c].id)
                }
                12 if !self.attrs.is_empty() => {
                    self.f.set(Feature::CondTop);
                    let a = *self.pick(&self.attrs.clone());
                    self.cmp(&format!("top.{a}"), 0, 3)
                }
                13 => {
                    let before = self.cur_phase.unwrap_or(self.phases.len());
                    let opt: Vec<usize> = (0..before)
                        .filter(|i| self.phases[*i].kind == PhaseKind::Optional)
                        .collect();
                    if opt.is_empty() {
                        continue;
                    }
                    self.f.set(Feature::CondElected);
                    let p = *self.pick(&opt);
                    format!("elected.{}", self.phases[p].id)
                }
                14 => {
                    self.f.set(Feature::CondExtraTurnNext);
                    "extra_turn_next".into()
                }
                15 if !self.variants.is_empty() => {
                    self.f.set(Feature::CondVariant);
                    let v = self.below(self.variants.len() as u64) as usize;
                    format!("variant.{}", self.variants[v])
                }
                16 if !self.facts.is_empty() => {
                    self.f.set(Feature::CondFact);
                    let v = self.below(self.facts.len() as u64) as usize;
                    format!("fact.{}", self.facts[v])
                }
                17 | 18 if !self.counters.is_empty() => {
                    self.f.set(Feature::CondCounter);
                    let c = self.below(self.counters.len() as u64) as usize;
                    let name = format!("counter.{}", self.counters[c].id);
                    self.cmp(&name, 0, 3)
                }
                _ => continue,
            };
            return s;
        }
    }

    fn quoted(s: &str) -> String {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    }

    fn skips(&mut self) -> String {
        let n = 1 + self.below(2);
        let mut parts = Vec::new();
        for _ in 0..n {
            let c = self.cond(0);
            let r = self.rule();
            parts.push(format!("{{ if = {}, rule = \"{r}\" }}", Self::quoted(&c)));
        }
        format!("[{}]", parts.join(", "))
    }

    // ------------------------------------------------------------------ write

    fn write(&mut self) {
        let min = if self.chance(1, 20) {
            self.f.set(Feature::MinPlayers1);
            1
        } else {
            2 + self.below(3) as u8
        };
        let max = (min.max(2) + self.below(7) as u8).min(8);
        self.max_players = max;
        let r = self.rule();
        let _ = writeln!(
            self.out,
            "[game]\nname = \"Generated\"\nrule = \"{r}\"\nplayers = {{ min = {min}, max = {max} }}"
        );
        if self.chance(1, 5) {
            self.f.set(Feature::TurnOrderCounter);
            self.out.push_str("turn_order = \"counterclockwise\"\n");
        }
        if self.chance(1, 5) {
            self.f.set(Feature::Terms);
            self.out.push_str(
                "\n[terms]\npriority = \"the initiative\"\nstack = \"the pile\"\nactive_player = \"the mover\"\n",
            );
        }
        self.out.push_str("\n[priority]\n");
        if self.chance(1, 2) {
            self.f.set(Feature::Rules);
            for k in [
                "rule",
                "first_rule",
                "after_action_rule",
                "after_resolve_rule",
                "pass_rule",
                "close_rule",
            ] {
                let r = self.rule();
                let _ = writeln!(self.out, "{k} = \"{r}\"");
            }
        }
        if self.chance(1, 4) {
            self.f.set(Feature::AfterActionActive);
            self.out.push_str("after_action = \"active_player\"\n");
        }
        if self.bag {
            self.f.set(Feature::Bag);
            let r = self.rule();
            let _ = writeln!(self.out, "triggers = \"bag\"\ntriggers_rule = \"{r}\"");
        }
        if self.chance(1, 4) {
            self.f.set(Feature::Mana);
            let empties = if self.chance(1, 2) {
                self.f.set(Feature::ManaEmptiesPhase);
                "phase"
            } else {
                "step"
            };
            let burn = self.chance(1, 2);
            if burn {
                self.f.set(Feature::ManaBurn);
            }
            let r = self.rule();
            let _ = writeln!(
                self.out,
                "\n[mana]\nempties = \"{empties}\"\nrule = \"{r}\"\nburn = {burn}"
            );
        }
        if self.chance(1, 5) {
            let targets = self.steps_of(|k| k == PhaseKind::Regular);
            let t = self.pick(&targets).clone();
            self.f.set(Feature::Leaving);
            let r = self.rule();
            let _ = writeln!(
                self.out,
                "\n[leaving]\nrule = \"{r}\"\nactive_player_goto = \"{t}\""
            );
        }
        for v in self.variants.clone() {
            self.f.set(Feature::Variant);
            let r = self.rule();
            let _ = writeln!(self.out, "\n[variants.{v}]\nrule = \"{r}\"");
        }
        for fact in self.facts.clone() {
            self.f.set(Feature::Fact);
            let _ = writeln!(self.out, "\n[facts.{fact}]\ndescription = \"a fact\"");
            if self.chance(1, 4) {
                self.f.set(Feature::FactDefaultTrue);
                self.out.push_str("default = true\n");
            }
        }
        for i in 0..self.counters.len() {
            self.f.set(Feature::Counter);
            let reset = match self.below(4) {
                0 => {
                    self.f.set(Feature::ResetGame);
                    "game"
                }
                1 => {
                    self.f.set(Feature::ResetTurn);
                    "turn"
                }
                2 => {
                    self.f.set(Feature::ResetPhase);
                    "phase"
                }
                _ => {
                    self.f.set(Feature::ResetStep);
                    "step"
                }
            };
            let c = &self.counters[i];
            let (id, per, res) = (c.id.clone(), c.per_player, c.resource);
            let _ = writeln!(self.out, "\n[counters.{id}]\nreset = \"{reset}\"");
            if per {
                self.f.set(Feature::PerPlayer);
                self.out.push_str("per = \"player\"\n");
            }
            if res {
                self.f.set(Feature::Resource);
                let s = 1 + self.below(3);
                let _ = writeln!(self.out, "start = {s}");
            }
        }
        for i in 0..self.classes.len() {
            self.write_class(i);
        }
        self.write_effects();
        for i in 0..self.phases.len() {
            self.write_phase(i);
        }
    }

    /// Step ids (the hidden step's id for a step-less phase) of phases of
    /// the kinds `keep` accepts.
    fn steps_of(&self, keep: impl Fn(PhaseKind) -> bool) -> Vec<String> {
        self.phases
            .iter()
            .filter(|p| keep(p.kind))
            .flat_map(|p| p.steps.iter().map(|s| s.id.clone()))
            .collect()
    }

    /// Places (phase ids, step ids, tags) whose steps have a window, in
    /// phases `keep` accepts; tags only when `tags`.
    fn window_places(
        &self,
        keep: impl Fn(&PhasePlan) -> bool,
        tags: bool,
    ) -> Vec<(String, Feature)> {
        let mut out = Vec::new();
        for p in self.phases.iter().filter(|p| keep(p)) {
            if !p.has_window() {
                continue;
            }
            out.push((p.id.clone(), Feature::DuringPhase));
            if tags {
                for t in &p.tags {
                    out.push((t.to_string(), Feature::DuringTag));
                }
            }
            if p.with_steps {
                for s in p.steps.iter().filter(|s| s.has_window()) {
                    out.push((s.id.clone(), Feature::DuringStep));
                    if tags {
                        for t in &s.tags {
                            out.push((t.to_string(), Feature::DuringTag));
                        }
                    }
                }
            }
        }
        out
    }

    fn write_class(&mut self, i: usize) {
        self.f.set(Feature::Timing);
        let id = self.classes[i].id.clone();
        let role = self.classes[i].role;
        let r = self.rule();
        let _ = writeln!(self.out, "\n[timing.{id}]\nrule = \"{r}\"");
        if role == Role::Nobody {
            self.f.set(Feature::WhoNobody);
            self.out.push_str("who = \"nobody\"\n");
            if self.chance(1, 2) {
                self.f.set(Feature::EffectSpecial);
                self.out.push_str("effect = \"special\"\n");
            }
            self.write_limit();
            return;
        }
        // A plain class (the engine's fast path for plays): anyone, onto
        // the stack, nothing else.
        let plain = self.plain && role == Role::General && self.chance(1, 2);
        let who = if plain { 0 } else { self.below(4) };
        match who {
            0 => {
                self.f.set(Feature::WhoAny);
                if self.chance(1, 2) {
                    self.out.push_str("who = \"any\"\n");
                }
            }
            1 | 2 => {
                self.f.set(Feature::WhoActive);
                self.out.push_str("who = \"active_player\"\n");
            }
            _ => {
                self.f.set(Feature::WhoNonActive);
                self.out.push_str("who = \"non_active_player\"\n");
            }
        }
        if self.chance(1, 3) {
            self.f.set(Feature::Rules);
            let (a, b, c) = (self.rule(), self.rule(), self.rule());
            let _ = writeln!(
                self.out,
                "who_rule = \"{a}\"\nstack_rule = \"{b}\"\nduring_rule = \"{c}\""
            );
        }
        if !plain && self.chance(1, 3) {
            self.f.set(Feature::StackEmpty);
            self.out.push_str("stack = \"empty\"\n");
        }
        // Where it may be used.
        let places = match role {
            Role::StartPhase(target) => {
                let rank = self.phases[target].rank;
                self.window_places(|p| p.kind != PhaseKind::OnDemand || p.rank < rank, false)
            }
            _ => self.window_places(|_| true, true),
        };
        let omit = matches!(role, Role::General | Role::Enters(_)) && self.chance(1, 4);
        let mut chosen: Vec<String> = Vec::new();
        if omit || places.is_empty() {
            self.f.set(Feature::DuringAll);
        } else {
            let n = 1 + self.below(3);
            for _ in 0..n {
                let (p, feat) = self.pick(&places).clone();
                if !chosen.contains(&p) {
                    self.f.set(feat);
                    chosen.push(p);
                }
            }
            let list: Vec<String> = chosen.iter().map(|s| format!("\"{s}\"")).collect();
            let _ = writeln!(self.out, "during = [{}]", list.join(", "));
        }
        match role {
            Role::StartPhase(target) => {
                self.f.set(Feature::EffectStartPhase);
                if chosen.iter().any(|c| {
                    self.phases.iter().any(|q| {
                        q.kind == PhaseKind::OnDemand
                            && (q.id == *c || q.steps.iter().any(|s| s.id == *c))
                    })
                }) {
                    self.f.set(Feature::OnDemandNested);
                }
                let _ = writeln!(
                    self.out,
                    "effect = \"start_phase\"\nphase = \"{}\"",
                    self.phases[target].id
                );
            }
            _ if plain => {
                self.f.set(Feature::EffectStack);
                if i == 0 && !self.attrs.is_empty() {
                    self.f.set(Feature::Attributes);
                    let list: Vec<String> = self.attrs.iter().map(|a| format!("{a} = 1")).collect();
                    let _ = writeln!(self.out, "attributes = {{ {} }}", list.join(", "));
                }
                return;
            }
            _ => {
                if self.chance(1, 2) {
                    self.f.set(Feature::EffectSpecial);
                    self.out.push_str("effect = \"special\"\n");
                } else {
                    self.f.set(Feature::EffectStack);
                    if self.chance(1, 2) {
                        self.out.push_str("effect = \"stack\"\n");
                    }
                }
            }
        }
        if let Role::Enters(target) = role {
            self.f.set(Feature::Enters);
            let _ = writeln!(self.out, "enters = \"{}\"", self.phases[target].id);
        }
        if !matches!(role, Role::StartPhase(_)) && self.chance(1, 5) {
            let r = self.rule();
            if self.chance(2, 3) {
                self.f.set(Feature::EndsPhase);
                let _ = writeln!(self.out, "ends = \"phase\"\nends_rule = \"{r}\"");
            } else {
                self.f.set(Feature::EndsTurn);
                let _ = writeln!(self.out, "ends = \"turn\"\nends_rule = \"{r}\"");
            }
        }
        self.write_limit();
        let resources: Vec<usize> = (0..self.counters.len())
            .filter(|c| self.counters[*c].resource)
            .collect();
        if !resources.is_empty() && self.chance(1, 3) {
            self.f.set(Feature::Cost);
            let c = *self.pick(&resources);
            let amount = 1 + self.below(2);
            let r = self.rule();
            let _ = writeln!(
                self.out,
                "cost = {{ counter = \"{}\", amount = {amount}, rule = \"{r}\" }}",
                self.counters[c].id
            );
        }
        // The first class declares every attribute conditions may read.
        if !self.attrs.is_empty() && (i == 0 || self.chance(1, 2)) {
            self.f.set(Feature::Attributes);
            let attrs = self.attrs.clone();
            let mut list = Vec::new();
            for a in attrs {
                if i == 0 || self.chance(1, 2) {
                    let v = self.below(4);
                    list.push(format!("{a} = {v}"));
                }
            }
            if !list.is_empty() {
                let _ = writeln!(self.out, "attributes = {{ {} }}", list.join(", "));
            }
        }
        if self.chance(1, 4) {
            self.f.set(Feature::Require);
            for _ in 0..1 + self.below(2) {
                let c = self.cond(0);
                let r = self.rule();
                let _ = writeln!(
                    self.out,
                    "\n  [[timing.{id}.require]]\n  if = {}\n  rule = \"{r}\"",
                    Self::quoted(&c)
                );
                if self.chance(1, 2) {
                    self.out
                        .push_str("  explain = \"a generated requirement\"\n");
                }
            }
        }
    }

    fn write_limit(&mut self) {
        if !self.counters.is_empty() && self.chance(1, 3) {
            self.f.set(Feature::Limit);
            let c = self.below(self.counters.len() as u64) as usize;
            if self.counters[c].per_player {
                self.f.set(Feature::LimitPerPlayer);
            }
            let max = 1 + self.below(3);
            let r = self.rule();
            let _ = writeln!(
                self.out,
                "limit = {{ counter = \"{}\", max = {max}, rule = \"{r}\" }}",
                self.counters[c].id
            );
        }
    }

    fn write_effects(&mut self) {
        let regular: Vec<String> = self
            .phases
            .iter()
            .filter(|p| p.kind == PhaseKind::Regular)
            .map(|p| p.id.clone())
            .collect();
        let regular_steps = self.steps_of(|k| k == PhaseKind::Regular);
        for i in 0..self.below(7) {
            let id = format!("e{i}");
            let r = self.rule();
            let _ = writeln!(self.out, "\n[effects.{id}]\nrule = \"{r}\"");
            let mut own_turn_ok = true;
            match self.below(11) {
                0 => {
                    self.f.set(Feature::ExtraTurn);
                    self.out.push_str("kind = \"extra_turn\"\n");
                    if self.chance(1, 3) {
                        self.f.set(Feature::ExtraTurnEach);
                        self.out.push_str("for = \"each_player\"\n");
                    }
                }
                1 => {
                    self.f.set(Feature::ExtraPhases);
                    let n = 1 + self.below(2);
                    let list: Vec<String> = (0..n)
                        .map(|_| format!("\"{}\"", self.pick(&regular)))
                        .collect();
                    let _ = writeln!(
                        self.out,
                        "kind = \"extra_phases\"\nphases = [{}]",
                        list.join(", ")
                    );
                }
                2 => {
                    let s = self.pick(&regular_steps).clone();
                    let after = if self.chance(1, 2) {
                        self.f.set(Feature::ExtraStep);
                        "this_step"
                    } else {
                        self.f.set(Feature::ExtraStepPhase);
                        "this_phase"
                    };
                    let _ = writeln!(
                        self.out,
                        "kind = \"extra_step\"\nstep = \"{s}\"\nafter = \"{after}\""
                    );
                }
                3 | 4 => {
                    self.out.push_str("kind = \"skip\"\n");
                    let what = self.below(3);
                    match what {
                        0 => {
                            self.f.set(Feature::SkipStep);
                            let all = self.steps_of(|k| k != PhaseKind::Between);
                            let s = self.pick(&all).clone();
                            let _ = writeln!(self.out, "step = \"{s}\"");
                        }
                        1 => {
                            self.f.set(Feature::SkipPhase);
                            let all: Vec<String> =
                                self.phases.iter().map(|p| p.id.clone()).collect();
                            let p = self.pick(&all).clone();
                            let _ = writeln!(self.out, "phase = \"{p}\"");
                        }
                        _ => {
                            self.f.set(Feature::SkipTurn);
                            self.out.push_str("turn = true\n");
                        }
                    }
                    if self.chance(1, 3) {
                        self.f.set(Feature::SkipLasting);
                        self.out.push_str("lasting = true\n");
                        if what != 2 && self.chance(1, 2) {
                            self.f.set(Feature::SkipLastingEach);
                            self.out.push_str("for = \"each_player\"\n");
                        }
                    }
                }
                5 => {
                    self.f.set(Feature::EndTurn);
                    let s = self.pick(&regular_steps).clone();
                    let _ = writeln!(self.out, "kind = \"end_turn\"\ngoto = \"{s}\"");
                }
                6 => {
                    self.f.set(Feature::EndPhase);
                    let p = self.below(self.phases.len() as u64) as usize;
                    let _ = writeln!(
                        self.out,
                        "kind = \"end_phase\"\nphase = \"{}\"",
                        self.phases[p].id
                    );
                    if self.phases[p].with_steps && self.chance(1, 2) {
                        self.f.set(Feature::EndPhaseGoto);
                        let steps: Vec<String> =
                            self.phases[p].steps.iter().map(|s| s.id.clone()).collect();
                        let s = self.pick(&steps).clone();
                        let _ = writeln!(self.out, "goto = \"{s}\"");
                    }
                }
                7 if !self.counters.is_empty() => {
                    self.f.set(Feature::Grant);
                    let c = self.below(self.counters.len() as u64) as usize;
                    let amount = self.below(3);
                    let _ = writeln!(
                        self.out,
                        "kind = \"grant\"\ncounter = \"{}\"\namount = {amount}",
                        self.counters[c].id
                    );
                }
                8 => {
                    self.f.set(Feature::Reverse);
                    self.out.push_str("kind = \"reverse_turn_order\"\n");
                }
                9 => {
                    self.f.set(Feature::ControlTurn);
                    self.out.push_str("kind = \"control_turn\"\n");
                    own_turn_ok = false;
                }
                _ => {
                    self.f.set(Feature::ExtraTurn);
                    self.out.push_str("kind = \"extra_turn\"\n");
                }
            }
            if own_turn_ok && self.chance(1, 5) {
                self.f.set(Feature::OwnTurnOnly);
                let r = self.rule();
                let _ = writeln!(self.out, "own_turn_only = true\nown_turn_rule = \"{r}\"");
            }
        }
    }

    fn write_phase(&mut self, i: usize) {
        let (id, kind, with_steps, anchor) = {
            let p = &self.phases[i];
            (p.id.clone(), p.kind, p.with_steps, p.anchor)
        };
        self.cur_phase = Some(i);
        let r = self.rule();
        let _ = writeln!(self.out, "\n[[phase]]\nid = \"{id}\"\nrule = \"{r}\"");
        if self.chance(1, 2) {
            let _ = writeln!(self.out, "name = \"Phase {i}\"");
        }
        let tags = self.phases[i].tags.clone();
        if !tags.is_empty() {
            self.f.set(Feature::Tags);
            let _ = writeln!(self.out, "tags = [\"{}\"]", tags.join("\", \""));
        }
        if let Some(k) = self.phases[i].counts_as {
            let _ = writeln!(self.out, "counts_as = \"{k}\"");
        }
        match kind {
            PhaseKind::Regular => {}
            PhaseKind::Optional => {
                self.f.set(Feature::Optional);
                self.out.push_str("optional = true\n");
            }
            PhaseKind::OnDemand => {
                self.f.set(Feature::OnDemand);
                self.out.push_str("on_demand = true\n");
            }
            PhaseKind::Between => {
                self.f.set(Feature::BetweenTurns);
                self.out.push_str("between_turns = true\n");
            }
        }
        if !anchor {
            if self.chance(1, 6) {
                self.f.set(Feature::PhaseOnlyIf);
                let opt: Vec<String> = self.phases[..i]
                    .iter()
                    .filter(|p| p.kind == PhaseKind::Optional)
                    .map(|p| p.id.clone())
                    .collect();
                let c = if !opt.is_empty() && self.chance(1, 2) {
                    self.f.set(Feature::OnlyIfElected);
                    self.f.set(Feature::CondElected);
                    format!("elected.{}", self.pick(&opt))
                } else {
                    self.cond(0)
                };
                let _ = writeln!(self.out, "only_if = {}", Self::quoted(&c));
            }
            if self.chance(1, 4) {
                self.f.set(Feature::PhaseSkip);
                let s = self.skips();
                let _ = writeln!(self.out, "skip = {s}");
            }
        }
        let n_regular = self
            .phases
            .iter()
            .filter(|p| p.kind == PhaseKind::Regular)
            .count();
        if n_regular >= 5 {
            self.f.set(Feature::RegularPhases5);
        }
        if with_steps {
            self.f.set(Feature::PhaseWithSteps);
            for s in 0..self.phases[i].steps.len() {
                let sid = self.phases[i].steps[s].id.clone();
                let r = self.rule();
                let _ = writeln!(
                    self.out,
                    "\n  [[phase.step]]\n  id = \"{sid}\"\n  rule = \"{r}\""
                );
                let tags = self.phases[i].steps[s].tags.clone();
                if !tags.is_empty() {
                    self.f.set(Feature::Tags);
                    let _ = writeln!(self.out, "  tags = [\"{}\"]", tags.join("\", \""));
                }
                if self.chance(1, 8) {
                    self.f.set(Feature::StepOnlyIf);
                    let c = self.cond(0);
                    let _ = writeln!(self.out, "  only_if = {}", Self::quoted(&c));
                }
                if self.chance(1, 5) {
                    self.f.set(Feature::StepSkip);
                    let sk = self.skips();
                    let _ = writeln!(self.out, "  skip = {sk}");
                }
                self.write_body(i, s, "  ");
            }
        } else {
            self.f.set(Feature::StepLessPhase);
            self.write_body(i, 0, "");
        }
    }

    fn write_body(&mut self, p: usize, s: usize, indent: &str) {
        let step = &self.phases[p].steps[s];
        let form1 = step.form1;
        let stages = step.stages.clone();
        let has_window = step.has_window();
        let answered: Vec<String> = Vec::new();
        let mut answered = answered;
        if stages.is_empty() {
            self.f.set(Feature::EmptyStep);
        }
        if form1 {
            self.f.set(Feature::BodyActionsPriority);
            let mut acts = Vec::new();
            let mut window = None;
            for st in &stages {
                match st {
                    Stage::Action(a) => {
                        let text = self.action(a, &mut answered);
                        acts.push(text);
                    }
                    Stage::Window(w) => window = Some(*w),
                }
            }
            if !acts.is_empty() || self.chance(1, 3) {
                let _ = writeln!(
                    self.out,
                    "{indent}actions = [\n{}{indent}]",
                    acts.iter()
                        .map(|a| format!("{indent}  {a},\n"))
                        .collect::<String>()
                );
            }
            match window {
                Some(Win::Always) => {
                    self.f.set(Feature::PriorityAlways);
                    let _ = writeln!(self.out, "{indent}priority = \"always\"");
                }
                Some(Win::IfPending) => {
                    self.f.set(Feature::PriorityIfPending);
                    let _ = writeln!(self.out, "{indent}priority = \"if_pending\"");
                }
                None => {
                    self.f.set(Feature::PriorityNever);
                    if self.chance(1, 2) {
                        let _ = writeln!(self.out, "{indent}priority = \"never\"");
                    }
                }
            }
            if window.is_some() && self.chance(1, 2) {
                let r = self.rule();
                let _ = writeln!(self.out, "{indent}priority_rule = \"{r}\"");
            }
        } else {
            self.f.set(Feature::BodySequence);
            let mut items = Vec::new();
            for st in &stages {
                match st {
                    Stage::Action(a) => {
                        let text = self.action(a, &mut answered);
                        items.push(text);
                    }
                    Stage::Window(w) => {
                        let mut t = String::from("{ window = ");
                        match w {
                            Win::Always => {
                                self.f.set(Feature::PriorityAlways);
                                t.push_str("\"always\"");
                            }
                            Win::IfPending => {
                                self.f.set(Feature::PriorityIfPending);
                                t.push_str("\"if_pending\"");
                            }
                        }
                        let d = if self.plain { 8 } else { 3 };
                        if self.chance(1, d) {
                            self.f.set(Feature::CloseStackEmpty);
                            t.push_str(", close = \"stack_empty\"");
                        } else if self.chance(1, 6) {
                            t.push_str(", close = \"all_pass\"");
                        }
                        if !self.plain && self.chance(1, 3) {
                            self.f.set(Feature::ActsActive);
                            t.push_str(", acts = \"active_player\"");
                        } else if self.chance(1, 6) {
                            self.f.set(Feature::ActsAll);
                            t.push_str(", acts = \"all\"");
                        }
                        if self.chance(1, 3) {
                            self.f.set(Feature::WindowName);
                            let r = self.rule();
                            let _ = write!(t, ", name = \"a window\", rule = \"{r}\"");
                        }
                        t.push_str(" }");
                        items.push(t);
                    }
                }
            }
            let _ = writeln!(
                self.out,
                "{indent}sequence = [\n{}{indent}]",
                items
                    .iter()
                    .map(|a| format!("{indent}  {a},\n"))
                    .collect::<String>()
            );
        }
        // Repeats that stop: bounded by repeat_count, the cleanup loop, a
        // counter the step's own action answers; rarely one that may not.
        if self.chance(1, 5) {
            let r = self.rule();
            let c = match self.below(10) {
                0..=3 => {
                    self.f.set(Feature::RepeatBounded);
                    self.f.set(Feature::CondRepeatCount);
                    let n = 1 + self.below(3);
                    if self.chance(1, 2) {
                        let c = self.cond(1);
                        self.f.set(Feature::CondAnd);
                        self.f.set(Feature::CondParens);
                        format!("({c}) and repeat_count < {n}")
                    } else {
                        format!("repeat_count < {n}")
                    }
                }
                4..=6 if has_window => {
                    self.f.set(Feature::RepeatWindowOpened);
                    self.f.set(Feature::CondWindowOpened);
                    "window_opened".to_string()
                }
                7 | 8 if !answered.is_empty() => {
                    self.f.set(Feature::RepeatCounter);
                    self.f.set(Feature::CondCounter);
                    let c = self.pick(&answered).clone();
                    if self.chance(1, 2) {
                        format!("counter.{c} > 0 and repeat_count < 3")
                    } else {
                        format!("counter.{c} == 1")
                    }
                }
                9 if !self.facts.is_empty() && self.chance(1, 3) => {
                    // In a step without a window, the loader warns
                    // (`may-never-end`) and the engine stops the turn.
                    self.f.set(Feature::RepeatOpen);
                    self.f.set(Feature::CondFact);
                    let v = self.below(self.facts.len() as u64) as usize;
                    format!("fact.{}", self.facts[v])
                }
                _ => {
                    self.f.set(Feature::RepeatBounded);
                    self.f.set(Feature::CondRepeatCount);
                    "repeat_count == 0".to_string()
                }
            };
            let _ = writeln!(
                self.out,
                "{indent}repeat = {{ if = {}, rule = \"{r}\" }}",
                Self::quoted(&c)
            );
        }
    }

    /// One turn-based action's inline table; `answered` collects the
    /// counters it answers.
    fn action(&mut self, id: &str, answered: &mut Vec<String>) -> String {
        self.f.set(Feature::TurnAction);
        let r = self.rule();
        let mut t = format!("{{ id = \"{id}\", rule = \"{r}\"");
        if self.chance(1, 3) {
            let _ = write!(t, ", name = \"Action {id}\"");
        }
        if self.chance(1, 4) {
            self.f.set(Feature::ActionIf);
            let c = self.cond(0);
            let _ = write!(t, ", if = {}", Self::quoted(&c));
        }
        // Classes a turn-based action may play: any but start_phase ones.
        let playable: Vec<String> = self
            .classes
            .iter()
            .filter(|c| !matches!(c.role, Role::StartPhase(_)))
            .map(|c| c.id.clone())
            .collect();
        if self.chance(1, 3) {
            let mut parts = Vec::new();
            let with_counter = !self.counters.is_empty() && self.chance(3, 4);
            if with_counter {
                self.f.set(Feature::AnswerCounter);
                let c = self.below(self.counters.len() as u64) as usize;
                let id = self.counters[c].id.clone();
                parts.push(format!("counter = \"{id}\""));
                answered.push(id);
            }
            if self.chance(1, 2) {
                self.f.set(Feature::AnswerMax);
                let m = if self.chance(1, 5) {
                    255
                } else {
                    1 + self.below(3)
                };
                parts.push(format!("max = {m}"));
            }
            if !playable.is_empty() && (!with_counter || self.chance(1, 3)) {
                self.f.set(Feature::AnswerPlay);
                let c = self.pick(&playable).clone();
                parts.push(format!("play = \"{c}\""));
            }
            if parts.iter().any(|p| !p.starts_with("max")) {
                let _ = write!(t, ", answer = {{ {} }}", parts.join(", "));
            }
        }
        if !playable.is_empty() && self.chance(1, 6) {
            self.f.set(Feature::ActionPlay);
            let nobody: Vec<String> = self
                .classes
                .iter()
                .filter(|c| c.role == Role::Nobody)
                .map(|c| c.id.clone())
                .collect();
            let c = if !nobody.is_empty() && self.chance(2, 3) {
                self.pick(&nobody).clone()
            } else {
                self.pick(&playable).clone()
            };
            let _ = write!(t, ", play = \"{c}\"");
        }
        if self.chance(1, 8) {
            self.f.set(Feature::EndsTurnEffects);
            t.push_str(", ends_turn_effects = true");
        }
        if self.chance(1, 8) {
            self.f.set(Feature::StackTriggers);
            t.push_str(", stack_triggers = true");
        }
        t.push_str(" }");
        t
    }
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

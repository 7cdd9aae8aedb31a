//! The compiled spec: what the engine runs on.
//!
//! Every cross-reference is an id from one of the spec's arenas, every
//! condition a [`CondId`], every rule citation a [`RuleRef`]. Names stay only
//! for display and by-name lookups. A [`Spec`] is made once from
//! [`SpecParts`], which checks that every reference is in range, and never
//! changes afterwards.
//!
//! Ids are made in one place only: [`SpecParts::add`] (and
//! [`SpecParts::condition`] for conditions) gives an element added to a spec
//! under construction its id. So every id names an element that exists in
//! some spec; one of another spec is answered with `None` by the accessors
//! here, never a panic.

use crate::arena::{Arena, Id, Named};
use crate::cond::{ConditionBuilder, Conditions};
use crate::elements::*;
use crate::endings::{Ending, GameEndRules};
use crate::ids::*;
use crate::limits::LimitError;
use crate::objects::{ObjectFact, ObjectRules};
use crate::roles::Role;

/// A compiled, validated turn spec.
///
/// Cloning is cheap (the parts are shared, never copied), so a game can own
/// its spec: a `turnspec_engine::Game` keeps a clone, and a game and its
/// spec live together with no lifetime between them.
#[derive(Debug)]
pub struct Spec {
    parts: std::sync::Arc<SpecParts>,
    /// [`Spec::fingerprint`], worked out once: the parts never change.
    fingerprint: u64,
}

impl Clone for Spec {
    fn clone(&self) -> Spec {
        Spec {
            parts: std::sync::Arc::clone(&self.parts),
            fingerprint: self.fingerprint,
        }
    }

    /// Cloning into a clone of the same spec changes nothing: no reference
    /// count is touched (a search that clones games into reused ones
    /// clones their spec many times a second, from several threads).
    fn clone_from(&mut self, source: &Spec) {
        if !self.same(source) {
            *self = source.clone();
        }
    }
}

impl Spec {
    /// Whether both are clones of one spec (the same parts, shared).
    pub fn same(&self, other: &Spec) -> bool {
        std::sync::Arc::ptr_eq(&self.parts, &other.parts)
    }
}

/// Everything a [`Spec`] holds: the spec under construction, for the
/// loader that builds one. Elements are added with [`SpecParts::add`],
/// which gives each its id (the only way an id is made), and conditions
/// with [`SpecParts::condition`]; [`Spec::new`] checks that the parts fit
/// together.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SpecParts {
    /// `[game]`.
    pub game: GameInfo,
    /// `[terms]`.
    pub terms: Terms,
    /// `[priority]`.
    pub priority: PriorityModel,
    /// Phases in definition order; regular phases appear in `turn`.
    pub phases: Arena<PhaseId, Phase>,
    /// The regular order of phases in a turn.
    pub turn: Vec<PhaseId>,
    /// Steps, each phase's steps together and in order.
    pub steps: Arena<StepId, Step>,
    /// Turn-based actions.
    pub turn_actions: Arena<TurnActionId, TurnAction>,
    /// Priority windows.
    pub windows: Arena<WindowId, Window>,
    /// Timing classes.
    pub timing: Arena<TimingId, TimingClass>,
    /// Counters.
    pub counters: Arena<CounterId, Counter>,
    /// Facts the host sets.
    pub facts: Arena<FactId, Flag>,
    /// Variants chosen at set-up.
    pub variants: Arena<VariantId, Flag>,
    /// Structural effects.
    pub effects: Arena<EffectId, EffectDef>,
    /// `[mana]`.
    pub mana: ManaRules,
    /// `[leaving]`.
    pub leaving: LeavingRules,
    /// `[game_end]`.
    pub game_end: GameEndRules,
    /// `[endings.ID]`: the ways the game can end.
    pub endings: Arena<EndingId, Ending>,
    /// `[objects]`.
    pub objects: ObjectRules,
    /// `[objects.facts.ID]`: facts the host sets on objects.
    pub object_facts: Arena<ObjectFactId, ObjectFact>,
    /// `[roles.ID]`: seat roles.
    pub roles: Arena<RoleId, Role>,
    /// Phase kinds (`counts_as`), for main-phase counting (505.1a).
    pub kinds: Vec<String>,
    /// Every condition of the spec.
    pub conditions: Conditions,
    /// The text of every rule citation.
    pub rules: Arena<RuleRef, String>,
    /// Where each element was last set (`turnspec check --explain`).
    pub origins: Vec<Origin>,
    /// Phases with `between_turns = true`, in file order: they run after a
    /// turn ends and before the next begins (Pokémon Checkup).
    pub between: Vec<PhaseId>,
    /// Names of the timing-class attributes (`attributes = { speed = 2 }`),
    /// indexed by the `u8` in [`TimingClass::attributes`].
    pub attributes: Vec<String>,
}

mod part {
    use super::*;

    /// Where a [`SpecParts`] keeps the elements an id type names. Sealed:
    /// only this crate implements it, and only this crate can call it.
    pub trait Kind: Sized + 'static {
        /// The element type.
        type Item: 'static;
        /// The arena of `parts` that holds them.
        fn arena(parts: &SpecParts) -> &Arena<Self, Self::Item>;
        /// The same, to add to.
        fn arena_mut(parts: &mut SpecParts) -> &mut Arena<Self, Self::Item>;
        /// Called once an element has been added with `id`.
        fn added(_parts: &mut SpecParts, _id: Self) {}
    }
}

/// An id type whose elements a [`SpecParts`] holds in an arena, so that
/// [`SpecParts::add`] can make one: every id type of the model but
/// [`CondId`] (see [`SpecParts::condition`]). Sealed.
pub trait Part: Id + part::Kind {}

macro_rules! parts {
    ($($Id:ty => $T:ty = $field:ident;)*) => {$(
        impl part::Kind for $Id {
            type Item = $T;
            fn arena(parts: &SpecParts) -> &Arena<Self, $T> {
                &parts.$field
            }
            fn arena_mut(parts: &mut SpecParts) -> &mut Arena<Self, $T> {
                &mut parts.$field
            }
        }
        impl Part for $Id {}
    )*};
}

parts! {
    PhaseId => Phase = phases;
    TurnActionId => TurnAction = turn_actions;
    WindowId => Window = windows;
    TimingId => TimingClass = timing;
    CounterId => Counter = counters;
    FactId => Flag = facts;
    VariantId => Flag = variants;
    EffectId => EffectDef = effects;
    EndingId => Ending = endings;
    ObjectFactId => ObjectFact = object_facts;
    RoleId => Role = roles;
    RuleRef => String = rules;
}

impl part::Kind for StepId {
    type Item = Step;
    fn arena(parts: &SpecParts) -> &Arena<Self, Step> {
        &parts.steps
    }
    fn arena_mut(parts: &mut SpecParts) -> &mut Arena<Self, Step> {
        &mut parts.steps
    }
    /// The step's phase holds it: a phase's steps are the run of steps
    /// from the first added for it to the latest (a step of another phase
    /// in that run makes [`Spec::new`] refuse the parts).
    fn added(parts: &mut SpecParts, id: StepId) {
        let Some(phase) = parts.steps.get(id).map(|s| s.phase) else {
            return;
        };
        if let Some(p) = parts.phases.get_mut(phase) {
            if p.step_count == 0 {
                p.first_step = id;
            }
            let count = id.index().saturating_sub(p.first_step.index()) + 1;
            p.step_count = count.min(u16::MAX as usize) as u16;
        }
    }
}
impl Part for StepId {}

impl SpecParts {
    /// Adds an element to the spec under construction and returns its id,
    /// or an error once the spec has as many of its kind as the model
    /// allows. This is the only way an id is made, so an id always names
    /// an element of some spec. A step belongs to the phase its `phase`
    /// names: that phase's steps run from the first added for it.
    pub fn add<I: Part>(&mut self, item: I::Item) -> Result<I, LimitError> {
        let id = I::arena_mut(self).alloc(item)?;
        I::added(self, id);
        Ok(id)
    }

    /// An element added earlier, to finish filling it in (a step's body
    /// once its windows have ids); `None` for an id of another spec.
    pub fn get_mut<I: Part>(&mut self, id: I) -> Option<&mut I::Item> {
        I::arena_mut(self).get_mut(id)
    }

    /// An element added earlier; `None` for an id of another spec.
    pub fn get<I: Part>(&self, id: I) -> Option<&I::Item> {
        I::arena(self).get(id)
    }

    /// Starts a condition of the spec under construction; its
    /// [`ConditionBuilder::finish`] gives the condition's id.
    pub fn condition(&mut self) -> ConditionBuilder<'_> {
        self.conditions.builder()
    }

    /// Builds a condition of the spec under construction with the rest of
    /// the spec at hand, to resolve the names it uses: `build` gets the
    /// builder and the parts (whose `conditions` it does not see while it
    /// runs).
    pub fn build_condition<R>(
        &mut self,
        build: impl FnOnce(ConditionBuilder<'_>, &SpecParts) -> R,
    ) -> R {
        let mut conditions = std::mem::take(&mut self.conditions);
        let result = build(conditions.builder(), self);
        self.conditions = conditions;
        result
    }
}

/// A [`SpecParts`] whose references do not fit together: a bug in the
/// loader that made it, never a designer's mistake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError {
    /// What is wrong, in words.
    pub problems: Vec<String>,
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "inconsistent spec model: {}", self.problems.join("; "))
    }
}

impl std::error::Error for ModelError {}

/// Accessors of [`Spec`] that only reach into its parts: a part as a whole
/// (`part`), one element by its id (`element`), or an element's id by its
/// id in the spec file (`by_id`).
macro_rules! accessors {
    () => {};
    ($(#[$doc:meta])* part $name:ident -> $T:ty = $field:ident; $($rest:tt)*) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(&self) -> &$T {
            &self.parts.$field
        }
        accessors!($($rest)*);
    };
    ($(#[$doc:meta])* element $name:ident($Id:ty) -> $T:ty = $field:ident; $($rest:tt)*) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(&self, id: $Id) -> Option<&$T> {
            self.parts.$field.get(id)
        }
        accessors!($($rest)*);
    };
    ($(#[$doc:meta])* by_id $name:ident -> $Id:ty = $field:ident; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $name(&self, id: &str) -> Option<$Id> {
            self.parts.$field.by_id(id)
        }
        accessors!($($rest)*);
    };
}

impl Spec {
    /// Checks that every id in `parts` names an element of `parts`, that
    /// every condition is one of its conditions and that the counts fit
    /// the engine's limits, and makes the spec.
    pub fn new(parts: SpecParts) -> Result<Spec, ModelError> {
        let problems = crate::integrity::check(&parts);
        if problems.is_empty() {
            let fingerprint = fingerprint_of(&parts);
            Ok(Spec {
                parts: std::sync::Arc::new(parts),
                fingerprint,
            })
        } else {
            Err(ModelError { problems })
        }
    }

    accessors! {
        /// `[game]`: names, edition, player counts, turn order.
        part game -> GameInfo = game;
        /// `[terms]`: what the game calls priority, the stack, the active player.
        part terms -> Terms = terms;
        /// `[priority]`: who gets priority when, and the rules cited.
        part priority -> PriorityModel = priority;
        /// Every phase, regular and on-demand.
        part phases -> Arena<PhaseId, Phase> = phases;
        /// The regular phases in turn order.
        part turn -> [PhaseId] = turn;
        /// Every step.
        part steps -> Arena<StepId, Step> = steps;
        /// Every turn-based action.
        part turn_actions -> Arena<TurnActionId, TurnAction> = turn_actions;
        /// Every priority window.
        part windows -> Arena<WindowId, Window> = windows;
        /// Every timing class.
        part timing -> Arena<TimingId, TimingClass> = timing;
        /// Every counter.
        part counters -> Arena<CounterId, Counter> = counters;
        /// Every fact.
        part facts -> Arena<FactId, Flag> = facts;
        /// Every variant.
        part variants -> Arena<VariantId, Flag> = variants;
        /// Every structural effect.
        part effects -> Arena<EffectId, EffectDef> = effects;
        /// `[mana]`.
        part mana -> ManaRules = mana;
        /// `[leaving]`.
        part leaving -> LeavingRules = leaving;
        /// `[game_end]`.
        part game_end -> GameEndRules = game_end;
        /// Every way the game can end.
        part endings -> Arena<EndingId, Ending> = endings;
        /// `[objects]`.
        part objects -> ObjectRules = objects;
        /// Every fact the host sets on objects.
        part object_facts -> Arena<ObjectFactId, ObjectFact> = object_facts;
        /// Every seat role.
        part roles -> Arena<RoleId, Role> = roles;
        /// Phase kinds (`counts_as`), indexed by [`Phase::kind`].
        part kinds -> [String] = kinds;
        /// Every compiled condition.
        part conditions -> Conditions = conditions;
        /// Where each element was last set: with `extends`, which file.
        part origins -> [Origin] = origins;
        /// The between-turns phases, in order (empty for most games).
        part between -> [PhaseId] = between;
        /// Attribute names of timing classes, for `top.NAME`.
        part attributes -> [String] = attributes;
        /// The text of every rule citation, by [`RuleRef`].
        part rules -> Arena<RuleRef, String> = rules;
    }

    /// A fingerprint of the compiled spec: a 64-bit FNV-1a hash of the
    /// debug form of every part except `origins` (where each element was
    /// set in the source, which moves when a comment is edited). It covers
    /// everything the engine runs on and the names and rule texts shown
    /// with it, so two specs with the same fingerprint run the same turn.
    /// Deterministic across runs, machines and builds of the same
    /// turnspec (no random seed); a change to the model's types may change
    /// it. A saved game (`turnspec_engine::Game::to_bytes`) carries it so
    /// that one saved under another spec is refused.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The phase's first step of its regular run (on-demand steps are run
    /// only by a play).
    pub fn first_regular_step(&self, phase: &Phase) -> StepId {
        phase
            .steps()
            .find(|s| self.step(*s).is_some_and(|s| !s.on_demand))
            .unwrap_or(phase.first_step)
    }

    /// The step after `step` in `phase`: in the regular run, the next one
    /// that is not on demand; in a run of on-demand steps a play started
    /// (`on_demand`), the next step only if it is on demand too.
    pub fn step_after(&self, phase: &Phase, step: StepId, on_demand: bool) -> Option<StepId> {
        let mut at = step;
        loop {
            let next = phase.step_after(at)?;
            let next_on_demand = self.step(next).is_some_and(|s| s.on_demand);
            if on_demand {
                return next_on_demand.then_some(next);
            }
            if !next_on_demand {
                return Some(next);
            }
            at = next;
        }
    }

    /// "Name — edition (date)", leaving out the parts the spec does not give.
    pub fn title(&self) -> String {
        let g = &self.parts.game;
        let mut t = g.name.clone();
        if !g.edition.is_empty() {
            t.push_str(&format!(" — {}", g.edition));
        }
        if !g.edition_date.is_empty() {
            t.push_str(&format!(" ({})", g.edition_date));
        }
        t
    }

    /// The spec-file id of the element `id` names (`"upkeep"`), for
    /// display; `"?"` for an id of another spec.
    pub fn id_of<I: Part>(&self, id: I) -> &str
    where
        I::Item: Named,
    {
        self.parts.get(id).map_or("?", |e| e.name_id())
    }

    /// The citation text, or `None` for [`RuleRef::NONE`].
    #[inline]
    pub fn rule(&self, rule: RuleRef) -> Option<&str> {
        self.parts.rules.get(rule).map(|s| s.as_str())
    }

    accessors! {
        /// A phase; `None` for an id of another spec.
        element phase(PhaseId) -> Phase = phases;
        /// A step; `None` for an id of another spec.
        element step(StepId) -> Step = steps;
        /// A turn-based action; `None` for an id of another spec.
        element turn_action(TurnActionId) -> TurnAction = turn_actions;
        /// A window; `None` for an id of another spec.
        element window(WindowId) -> Window = windows;
        /// An effect; `None` for an id of another spec.
        element effect(EffectId) -> EffectDef = effects;
        /// A timing class; `None` for an id of another spec.
        element timing_class(TimingId) -> TimingClass = timing;
        /// A counter; `None` for an id of another spec.
        element counter(CounterId) -> Counter = counters;
        /// A way the game ends; `None` for an id of another spec.
        element ending(EndingId) -> Ending = endings;
        /// An object fact; `None` for an id of another spec.
        element object_fact(ObjectFactId) -> ObjectFact = object_facts;
        /// A seat role; `None` for an id of another spec.
        element role(RoleId) -> Role = roles;
    }

    // Lookups by name: for hosts, scenarios and tools, never the hot path.
    accessors! {
        /// A phase by its id in the spec file.
        by_id phase_by_id -> PhaseId = phases;
        /// A step by id; a step-less phase's id names its implicit step.
        by_id step_by_id -> StepId = steps;
        /// A turn-based action by id.
        by_id turn_action_by_id -> TurnActionId = turn_actions;
        /// A timing class by id.
        by_id timing_by_id -> TimingId = timing;
        /// A counter by id.
        by_id counter_by_id -> CounterId = counters;
        /// A fact by id.
        by_id fact_by_id -> FactId = facts;
        /// An effect by id.
        by_id effect_by_id -> EffectId = effects;
        /// A variant by id.
        by_id variant_by_id -> VariantId = variants;
        /// A way the game ends, by id.
        by_id ending_by_id -> EndingId = endings;
        /// An object fact by id.
        by_id object_fact_by_id -> ObjectFactId = object_facts;
        /// A seat role by id.
        by_id role_by_id -> RoleId = roles;
    }
}

macro_rules! named {
    ($($t:ty),*) => {$(
        impl Named for $t {
            fn name_id(&self) -> &str {
                &self.id
            }
        }
    )*};
}
named!(
    Phase,
    Step,
    TurnAction,
    TimingClass,
    Counter,
    Flag,
    EffectDef,
    Ending,
    ObjectFact,
    Role
);

/// [`Spec::fingerprint`] of `parts`.
fn fingerprint_of(parts: &SpecParts) -> u64 {
    use std::fmt::Write as _;
    struct Fnv(u64);
    impl std::fmt::Write for Fnv {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            for b in s.bytes() {
                self.0 ^= u64::from(b);
                self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
            }
            Ok(())
        }
    }
    // Destructured, so that a part added later must be named here.
    let SpecParts {
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
        game_end,
        endings,
        objects,
        object_facts,
        roles,
        kinds,
        conditions,
        rules,
        origins: _,
        between,
        attributes,
    } = parts;
    let parts: [&dyn std::fmt::Debug; 25] = [
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
        game_end,
        endings,
        objects,
        object_facts,
        roles,
        kinds,
        conditions,
        rules,
        between,
        attributes,
    ];
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    for part in parts {
        // Each part ends with a separator, so that moving text between
        // parts changes the hash. Writing to `Fnv` cannot fail.
        let _ = write!(h, "{part:?}\u{1}");
    }
    h.0
}

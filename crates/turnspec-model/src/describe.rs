//! One description of each element of the model, field by field.
//!
//! Every element and settings struct implements [`Describe`]: it lists its
//! fields, each as a name, a value rendered as text (ids turned into names,
//! conditions into their source text) and the rule cited for it. Tools that
//! show or compare specs (`turnspec diff`, `turnspec check --explain`,
//! `turnspec graph`'s labels, `turnspec check`'s summary) walk these
//! descriptions instead of the structs, so they cannot miss a field.
//!
//! Each implementation takes its struct apart with an exhaustive pattern (no
//! `..`): a field added to the model does not compile until it is described
//! here, as a value, or as bookkeeping that is derived from other fields and
//! not compared.

use crate::ids::*;
use crate::spec::*;

/// An element or settings struct that can list its fields.
pub trait Describe {
    /// The element's fields, in a fixed order.
    fn describe(&self, spec: &Spec) -> Vec<Field>;
}

/// One described field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The field's name, as the spec file (or a reader) would call it.
    pub name: &'static str,
    /// What the field holds, and how it compares.
    pub value: Value,
    /// The rule cited for the field ([`RuleRef::NONE`] if none). For a
    /// [`Value::Set`] or [`Value::Seq`] each item carries its own.
    pub rule: RuleRef,
    /// The citation belongs to this field (`who_rule`, `burn_rule`, a
    /// window's rule), so a renumbered citation alone is a difference of
    /// the field. Otherwise the field cites its element's rule, and a
    /// renumbering is reported once, on the element's `rule` field.
    pub own_rule: bool,
}

/// An item of a list-valued field: its text and the rule it cites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The item as text (a condition, a window's name).
    pub text: String,
    /// The rule the item cites.
    pub rule: RuleRef,
}

/// How a field's value reads and how it compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// The element's id in the spec file: what elements are matched by.
    Id(String),
    /// A value, compared as text.
    Text(String),
    /// An unordered list (skip conditions, requirements): items are matched
    /// by text, so each item is added or removed on its own.
    Set(Vec<Item>),
    /// An ordered list compared position by position (a step's priority
    /// windows). `each` names one item (`window`); `empty` is the text for
    /// no item at all (`never`).
    Seq {
        /// The items, in order.
        items: Vec<Item>,
        /// What one item is called.
        each: &'static str,
        /// The text for no item at all.
        empty: &'static str,
    },
    /// An order whose members other elements report (a step's actions and
    /// windows): only a different order of the same members is a
    /// difference, a move.
    Order(Vec<String>),
    /// Where the element sits (a step's phase, an action's step): a
    /// difference is a move.
    Place(String),
    /// Bookkeeping derived from other fields (which are compared): shown,
    /// never compared. `from` says where it comes from.
    Derived {
        /// The value, for reading.
        text: String,
        /// The fields it is derived from.
        from: &'static str,
    },
}

impl Value {
    /// The value as one line of text.
    pub fn text(&self) -> String {
        match self {
            Value::Id(s) | Value::Text(s) | Value::Place(s) => s.clone(),
            Value::Derived { text, .. } => text.clone(),
            Value::Set(items) | Value::Seq { items, .. } if items.is_empty() => "none".into(),
            Value::Set(items) | Value::Seq { items, .. } => items
                .iter()
                .map(|i| i.text.as_str())
                .collect::<Vec<_>>()
                .join("; "),
            Value::Order(xs) if xs.is_empty() => "nothing".into(),
            Value::Order(xs) => xs.join(", "),
        }
    }

    /// Whether two specs are compared on this field.
    pub fn compared(&self) -> bool {
        !matches!(self, Value::Id(_) | Value::Derived { .. })
    }
}

impl Field {
    /// The element's id.
    pub fn id(id: &str) -> Field {
        Field {
            name: "id",
            value: Value::Id(id.to_string()),
            rule: RuleRef::NONE,
            own_rule: false,
        }
    }

    /// The element's own citation. Its value is empty: the rule is all.
    pub fn rule(rule: RuleRef) -> Field {
        Field {
            name: "rule",
            value: Value::Text(String::new()),
            rule,
            own_rule: true,
        }
    }

    /// A value citing its element's rule.
    pub fn text(name: &'static str, text: impl Into<String>, element_rule: RuleRef) -> Field {
        Field {
            name,
            value: Value::Text(text.into()),
            rule: element_rule,
            own_rule: false,
        }
    }

    /// A value with a citation of its own.
    pub fn cited(name: &'static str, text: impl Into<String>, rule: RuleRef) -> Field {
        Field {
            name,
            value: Value::Text(text.into()),
            rule,
            own_rule: true,
        }
    }

    /// Any other value, citing its element's rule.
    pub fn of(name: &'static str, value: Value, element_rule: RuleRef) -> Field {
        Field {
            name,
            value,
            rule: element_rule,
            own_rule: false,
        }
    }

    /// Bookkeeping derived from other fields: shown, not compared.
    pub fn derived(name: &'static str, text: impl Into<String>, from: &'static str) -> Field {
        Field {
            name,
            value: Value::Derived {
                text: text.into(),
                from,
            },
            rule: RuleRef::NONE,
            own_rule: false,
        }
    }
}

/// The words a description uses for a value that is not there, and for a
/// window's opening and a phase's occurrence, so tools that read
/// descriptions (`turnspec graph`, `turnspec check`) can tell them apart
/// without repeating them.
pub mod words {
    /// A condition field without a condition (`only_if`, `condition`).
    pub const NO_CONDITION: &str = "always";
    /// A step's `repeat` without a condition.
    pub const NEVER_REPEATS: &str = "never";
    /// A window that always opens (`opens`, and the start of an item of a
    /// step's `priority`).
    pub const OPENS_ALWAYS: &str = "always";
    /// A window that opens only if something is pending.
    pub const OPENS_IF_PENDING: &str = "only if something is pending";
    /// A phase's `occurs`: a phase of the regular turn.
    pub const EVERY_TURN: &str = "every turn";
    /// A phase's `occurs`: a phase started by an action.
    pub const ON_DEMAND: &str = "on demand (started by an action)";
}

/// A window's `opens`, in words.
pub fn opens_text(mode: WindowMode) -> &'static str {
    match mode {
        WindowMode::Always => words::OPENS_ALWAYS,
        WindowMode::IfPending => words::OPENS_IF_PENDING,
    }
}

/// The field called `name` of a description.
pub fn field<'f>(fields: &'f [Field], name: &str) -> Option<&'f Field> {
    fields.iter().find(|f| f.name == name)
}

/// The element's id in a description (its [`Value::Id`] field).
pub fn id_of(fields: &[Field]) -> Option<&str> {
    fields.iter().find_map(|f| match &f.value {
        Value::Id(id) => Some(id.as_str()),
        _ => None,
    })
}

/// A condition's source text.
pub fn cond_text(spec: &Spec, c: CondId) -> String {
    spec.conditions().source(c).to_string()
}

fn opt_cond(spec: &Spec, c: Option<CondId>) -> String {
    c.map(|c| cond_text(spec, c))
        .unwrap_or_else(|| words::NO_CONDITION.into())
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

fn conditions(spec: &Spec, cs: &[Condition]) -> Value {
    Value::Set(
        cs.iter()
            .map(|c| {
                let Condition { cond, rule } = c;
                Item {
                    text: format!("if {}", cond_text(spec, *cond)),
                    rule: *rule,
                }
            })
            .collect(),
    )
}

/// Where a step sits, for labels: `step x`, or `phase x` for the implicit
/// step of a phase without steps.
pub fn step_label(spec: &Spec, s: StepId) -> String {
    let st = spec.step(s);
    if st.implicit {
        format!("phase {}", spec.phase(st.phase).id)
    } else {
        format!("step {}", st.id)
    }
}

/// A window as one item of its step's `priority` field: when it opens,
/// its name and when it closes.
pub fn window_item(w: &Window) -> Item {
    let Window {
        name,
        rule,
        mode,
        close_when_stack_empty,
        step: _,
        solo,
    } = w;
    let mode = opens_text(*mode);
    let mut text = if name.is_empty() {
        mode.to_string()
    } else {
        format!("{mode} (\"{name}\")")
    };
    if *close_when_stack_empty {
        text.push_str(", closes once the stack is empty");
    }
    if *solo {
        text.push_str(", only the active player acts");
    }
    Item { text, rule: *rule }
}

/// A phase's fields; with `body`, for a phase without steps, followed by
/// the compared fields of its implicit step (windows, order, repeat), just
/// before the phase's `rule`.
pub fn phase_with_body(spec: &Spec, phase: &Phase, body: bool) -> Vec<Field> {
    let mut fields = phase.describe(spec);
    if body && phase.implicit_step {
        let at = fields.len() - 1;
        let step = phase.steps().next().map(|s| spec.step(s).describe(spec));
        // The step's place is the phase itself: left out.
        let body = step
            .into_iter()
            .flatten()
            .filter(|f| f.value.compared() && !matches!(f.value, Value::Place(_)));
        fields.splice(at..at, body);
    }
    fields
}

/// Every element and settings table of a spec with its description,
/// labelled the way `turnspec diff` and `turnspec check --explain` name
/// them (`game`, `phase combat`, `step upkeep`, `action draw`, ...). A
/// phase without steps lists its implicit step's body (windows, order,
/// repeat) among its own fields.
pub fn every_element(spec: &Spec) -> Vec<(String, Vec<Field>)> {
    let mut out = vec![
        ("game".to_string(), spec.game().describe(spec)),
        ("terms".to_string(), spec.terms().describe(spec)),
        ("priority".to_string(), spec.priority().describe(spec)),
        ("mana".to_string(), spec.mana().describe(spec)),
        ("leaving".to_string(), spec.leaving().describe(spec)),
    ];
    fn each<'s, T: Describe + crate::Named + 's>(
        spec: &'s Spec,
        what: &'s str,
        items: impl IntoIterator<Item = &'s T> + 's,
    ) -> impl Iterator<Item = (String, Vec<Field>)> + 's {
        items
            .into_iter()
            .map(move |t| (format!("{what} {}", t.name_id()), t.describe(spec)))
    }
    out.extend(each(spec, "variant", spec.variants()));
    out.extend(each(spec, "fact", spec.facts()));
    out.extend(each(spec, "counter", spec.counters()));
    out.extend(each(spec, "timing", spec.timing()));
    out.extend(each(spec, "effect", spec.effects()));
    for p in spec.phases() {
        let fields = phase_with_body(spec, p, p.implicit_step);
        out.push((format!("phase {}", p.id), fields));
    }
    out.extend(each(
        spec,
        "step",
        spec.steps().iter().filter(|s| !s.implicit),
    ));
    out.extend(each(spec, "action", spec.turn_actions()));
    out
}

impl Describe for GameInfo {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let GameInfo {
            name,
            edition,
            edition_date,
            source,
            rule,
            min_players,
            max_players,
            turn_order,
        } = self;
        let r = *rule;
        let order = match turn_order {
            TurnOrder::Clockwise => "clockwise",
            TurnOrder::Counterclockwise => "counterclockwise",
        };
        vec![
            Field::text("name", name, r),
            Field::text("edition", edition, r),
            Field::text("edition_date", edition_date, r),
            Field::text("source", source, r),
            Field::text("players", format!("{min_players}–{max_players}"), r),
            Field::text("turn_order", order, r),
            Field::rule(r),
        ]
    }
}

/// Display words. The word for priority cites the priority rule, the
/// others the game's rule (terms have no rule of their own).
impl Describe for Terms {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let Terms {
            priority,
            stack,
            active_player,
        } = self;
        let (p, g) = (spec.priority().rule, spec.game().rule);
        vec![
            Field::text("priority", priority, p),
            Field::text("stack", stack, g),
            Field::text("active_player", active_player, g),
        ]
    }
}

impl Describe for PriorityModel {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let PriorityModel {
            rule,
            first,
            first_rule,
            after_action,
            after_action_rule,
            after_resolve,
            after_resolve_rule,
            pass_rule,
            close_rule,
            triggers,
            triggers_rule,
        } = self;
        let triggers = match triggers {
            TriggerOrder::Stack => "on the stack in APNAP order",
            TriggerOrder::Bag => {
                "in a bag: the active player resolves theirs first, then each player in turn order"
            }
        };
        let holder = |h: &Holder, after_action: bool| match h {
            Holder::ActivePlayer => "active player",
            Holder::Actor if after_action => "the player who acted",
            Holder::Actor => "the actor",
        };
        vec![
            Field::cited("first", holder(first, false), *first_rule),
            Field::cited(
                "after_action",
                holder(after_action, true),
                *after_action_rule,
            ),
            Field::cited(
                "after_resolve",
                holder(after_resolve, false),
                *after_resolve_rule,
            ),
            Field::cited("pass", "next player in turn order", *pass_rule),
            Field::cited("close", "all pass in succession", *close_rule),
            Field::cited("triggers", triggers, *triggers_rule),
            Field::rule(*rule),
        ]
    }
}

impl Describe for ManaRules {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let ManaRules {
            empties,
            rule,
            burn,
            burn_rule,
        } = self;
        let empties = match empties {
            ManaEmpties::Step => "at the end of each step and phase",
            ManaEmpties::Phase => "only at the end of each phase",
        };
        let (burn, burn_rule) = if *burn && !burn_rule.is_none() {
            ("yes: unspent mana costs that much life", *burn_rule)
        } else if *burn {
            ("yes: unspent mana costs that much life", *rule)
        } else {
            ("no", *rule)
        };
        vec![
            Field::cited("empties", empties, *rule),
            Field::cited("burn", burn, burn_rule),
        ]
    }
}

impl Describe for LeavingRules {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let LeavingRules {
            rule,
            active_player_goto,
        } = self;
        let goto = match active_player_goto {
            Some(s) => format!(
                "once the stack is empty, play goes to {}",
                step_label(spec, *s)
            ),
            None => "the turn goes on without them".into(),
        };
        vec![Field::cited("active_player_goto", goto, *rule)]
    }
}

impl Describe for Phase {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let Phase {
            id,
            name,
            rule,
            tags,
            kind,
            on_demand,
            only_if,
            skip,
            first_step,
            step_count,
            implicit_step,
            optional,
            between_turns,
        } = self;
        let r = *rule;
        let counts_as = spec
            .kinds()
            .get(*kind as usize)
            .cloned()
            .unwrap_or_default();
        let occurs = if *on_demand {
            words::ON_DEMAND
        } else if *between_turns {
            "between turns"
        } else if *optional {
            "only in a turn whose player elects it"
        } else {
            words::EVERY_TURN
        };
        let steps = if *implicit_step {
            "none (the phase is one step)".to_string()
        } else {
            "steps of its own".to_string()
        };
        // `first_step` and `step_count` place the phase's steps in the
        // step arena; `steps()` reads them.
        let _ = (first_step, step_count);
        let ids: Vec<String> = self.steps().map(|s| spec.step(s).id.clone()).collect();
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::text("counts_as", counts_as, r),
            Field::text("tags", list(tags), r),
            Field::text("occurs", occurs, r),
            Field::text("only_if", opt_cond(spec, *only_if), r),
            Field::text("steps", steps, r),
            Field::derived(
                "step_ids",
                ids.join(", "),
                "the steps, each compared on its own",
            ),
            Field::of("skip", conditions(spec, skip), r),
            Field::rule(r),
        ]
    }
}

impl Describe for Step {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let Step {
            id,
            name,
            rule,
            tags,
            phase,
            implicit,
            stages,
            only_if,
            skip,
            repeat,
            timing_mask,
        } = self;
        let r = *rule;
        let windows: Vec<Item> = stages
            .iter()
            .filter_map(|s| match s {
                Stage::Window(w) => Some(window_item(spec.window(*w))),
                Stage::Action(_) => None,
            })
            .collect();
        let order: Vec<String> = stages
            .iter()
            .map(|s| match s {
                Stage::Action(t) => spec.turn_action(*t).id.clone(),
                Stage::Window(_) => "priority".to_string(),
            })
            .collect();
        let (repeat, repeat_rule) = match repeat {
            Some(Condition { cond, rule }) => (format!("if {}", cond_text(spec, *cond)), *rule),
            None => (words::NEVER_REPEATS.to_string(), RuleRef::NONE),
        };
        let allows: Vec<&str> = spec
            .timing()
            .iter()
            .enumerate()
            .filter(|(i, _)| timing_mask & (1u32 << i) != 0)
            .map(|(_, t)| t.id.as_str())
            .collect();
        let mut fields = vec![Field::id(id)];
        if *implicit {
            // The body of a phase without steps: its name, rule, tags and
            // conditions are the phase's.
            const FROM: &str = "the phase's (a phase without steps is one implicit step)";
            fields.extend([
                Field::derived("name", name, FROM),
                Field::derived("rule", spec.rule(r).unwrap_or(""), FROM),
                Field::derived("tags", list(tags), FROM),
                Field::derived("only_if", opt_cond(spec, *only_if), FROM),
                Field::derived("skip", conditions(spec, skip).text(), FROM),
            ]);
        } else {
            fields.extend([
                Field::text("name", name, r),
                Field::text("tags", list(tags), r),
                Field::text("only_if", opt_cond(spec, *only_if), r),
                Field::of("skip", conditions(spec, skip), r),
            ]);
        }
        fields.extend([
            Field::of("phase", Value::Place(spec.phase(*phase).id.clone()), r),
            Field::derived(
                "implicit",
                yes_no(*implicit),
                "whether the phase has steps of its own",
            ),
            Field::cited("repeat", repeat, repeat_rule),
            Field {
                name: "priority",
                value: Value::Seq {
                    items: windows,
                    each: "window",
                    empty: "never",
                },
                rule: RuleRef::NONE,
                own_rule: true,
            },
            Field::of("order", Value::Order(order), r),
            Field::derived(
                "allows",
                list(&allows.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
                "the timing classes' `during` and the step's tags",
            ),
        ]);
        if !*implicit {
            fields.push(Field::rule(r));
        }
        fields
    }
}

impl Describe for TurnAction {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let TurnAction {
            id,
            name,
            rule,
            step,
            condition,
            answer_counter,
            answer_max,
            answer_play,
            play,
            ends_turn_effects,
            stack_triggers,
        } = self;
        let r = *rule;
        let mut answer = Vec::new();
        if let Some(c) = answer_counter {
            answer.push(format!("into counter {}", spec.counters()[*c].id));
        }
        if *answer_max > 0 {
            answer.push(format!("0..={answer_max}"));
        }
        if let Some(p) = answer_play {
            answer.push(format!("yes plays {}", spec.timing_class(*p).id));
        }
        let answer = if answer.is_empty() {
            "none".to_string()
        } else {
            answer.join(", ")
        };
        let play = play
            .map(|p| format!("puts a {} object on the stack", spec.timing_class(p).id))
            .unwrap_or_else(|| "none".into());
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::of("step", Value::Place(step_label(spec, *step)), r),
            Field::text("condition", opt_cond(spec, *condition), r),
            Field::text("answer", answer, r),
            Field::text("play", play, r),
            Field::text("ends_turn_effects", yes_no(*ends_turn_effects), r),
            Field::text("stack_triggers", yes_no(*stack_triggers), r),
            Field::rule(r),
        ]
    }
}

impl Describe for Window {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let Window {
            name,
            rule,
            mode,
            close_when_stack_empty,
            step,
            solo,
        } = self;
        let r = *rule;
        let mode = opens_text(*mode);
        let close = match (*close_when_stack_empty, *solo) {
            (true, false) => "once the stack is empty",
            (false, false) => "when all pass in succession",
            (true, true) => "once the stack is empty; only the active player acts",
            (false, true) => "when the active player passes; only they act",
        };
        vec![
            Field::text("name", name, r),
            Field::text("opens", mode, r),
            Field::text("closes", close, r),
            Field::of("step", Value::Place(step_label(spec, *step)), r),
            Field::rule(r),
        ]
    }
}

impl Describe for TimingClass {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let TimingClass {
            id,
            name,
            rule,
            who,
            who_rule,
            stack,
            stack_rule,
            during,
            during_rule,
            effect,
            limit,
            require,
            ends,
            enters,
            cost,
            attributes,
        } = self;
        let r = *rule;
        let (ends, ends_rule) = match ends {
            Some(PlayEnds { turn: true, rule }) => ("the turn", *rule),
            Some(PlayEnds { turn: false, rule }) => ("the phase", *rule),
            None => ("nothing", RuleRef::NONE),
        };
        let enters = match enters {
            Some(p) => format!("elects phase {}", spec.phase(*p).id),
            None => "nothing".into(),
        };
        let (cost, cost_rule) = match cost {
            Some(Cost {
                counter,
                amount,
                rule,
            }) => (
                format!("{amount} of {}", spec.counters()[*counter].id),
                *rule,
            ),
            None => ("free".to_string(), RuleRef::NONE),
        };
        let attributes = if attributes.is_empty() {
            "none".to_string()
        } else {
            attributes
                .iter()
                .map(|(a, v)| {
                    let name = spec
                        .attributes()
                        .get(*a as usize)
                        .map_or("?", |s| s.as_str());
                    format!("{name} = {v}")
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        // A restriction without a citation of its own cites the class's.
        let or_class = |x: &RuleRef| if x.is_none() { r } else { *x };
        let (limit, limit_rule) = match limit {
            Some(Limit { counter, max, rule }) => {
                (format!("{max} per {}", spec.counters()[*counter].id), *rule)
            }
            None => ("none".to_string(), RuleRef::NONE),
        };
        let require = Value::Set(
            require
                .iter()
                .map(|q| {
                    let Requirement { condition, explain } = q;
                    let c = cond_text(spec, condition.cond);
                    let text = if *explain == c {
                        format!("if {c}")
                    } else {
                        format!("if {c} (\"{explain}\")")
                    };
                    Item {
                        text,
                        rule: condition.rule,
                    }
                })
                .collect(),
        );
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::text("effect", effect_text(spec, *effect), r),
            Field::cited("who", who_text(*who), or_class(who_rule)),
            Field::cited("stack", stack_text(*stack), or_class(stack_rule)),
            Field::cited("during", during_text(during), or_class(during_rule)),
            Field::cited("limit", limit, limit_rule),
            Field::of("require", require, r),
            Field::cited("cost", cost, cost_rule),
            Field::cited("ends", ends, ends_rule),
            Field::text("enters", enters, r),
            Field::text("attributes", attributes, r),
            Field::rule(r),
        ]
    }
}

/// Who may use a timing class, in words.
pub fn who_text(w: Who) -> &'static str {
    match w {
        Who::Any => "any player",
        Who::ActivePlayer => "active player only",
        Who::NonActivePlayer => "non-active players only",
        Who::Nobody => "no player (turn-based actions only)",
    }
}

/// A timing class's stack requirement, in words.
pub fn stack_text(s: StackRequirement) -> &'static str {
    match s {
        StackRequirement::Any => "any",
        StackRequirement::Empty => "must be empty",
    }
}

/// Where a timing class may be used, in words.
pub fn during_text(during: &[String]) -> String {
    if during.is_empty() {
        "any step with a window".into()
    } else {
        during.join(", ")
    }
}

/// What a play of a timing class does, in words.
pub fn effect_text(spec: &Spec, e: Effect) -> String {
    match e {
        Effect::Stack => "goes on the stack".into(),
        Effect::Special => "special action (no stack)".into(),
        Effect::StartPhase(p) => format!("starts phase {}", spec.phase(p).id),
    }
}

impl Describe for Counter {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let Counter {
            id,
            description,
            rule,
            reset,
            per_player,
            slot,
            start,
        } = self;
        let r = *rule;
        let reset = match reset {
            Reset::Game => "never (whole game)",
            Reset::Turn => "each turn",
            Reset::Phase => "each phase",
            Reset::Step => "each step",
        };
        let per = if *per_player {
            "player (one count per player)"
        } else {
            "game (one count)"
        };
        vec![
            Field::id(id),
            Field::text("description", description, r),
            Field::text("reset", reset, r),
            Field::text("per", per, r),
            Field::text("start", start.to_string(), r),
            Field::derived(
                "slot",
                if *per_player {
                    slot.to_string()
                } else {
                    "none".into()
                },
                "the order of the per-player counters",
            ),
            Field::rule(r),
        ]
    }
}

impl Describe for Flag {
    fn describe(&self, _spec: &Spec) -> Vec<Field> {
        let Flag {
            id,
            name,
            description,
            rule,
            default,
        } = self;
        let r = *rule;
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::text("description", description, r),
            Field::text("default", yes_no(*default), r),
            Field::rule(r),
        ]
    }
}

impl Describe for EffectDef {
    fn describe(&self, spec: &Spec) -> Vec<Field> {
        let EffectDef {
            id,
            name,
            rule,
            kind,
            own_turn_only,
        } = self;
        let r = *rule;
        let (own, own_rule) = match own_turn_only {
            Some(x) => ("only during the player's own turn", *x),
            None => ("any turn", RuleRef::NONE),
        };
        vec![
            Field::id(id),
            Field::text("name", name, r),
            Field::text("kind", effect_kind_text(spec, kind), r),
            Field::cited("own_turn_only", own, own_rule),
            Field::rule(r),
        ]
    }
}

/// What a structural effect does, in words.
pub fn effect_kind_text(spec: &Spec, kind: &EffectKind) -> String {
    let phase = |p: &PhaseId| spec.phase(*p).id.as_str();
    let step = |s: &StepId| spec.step(*s).id.as_str();
    match kind {
        EffectKind::ExtraTurn { each_player: false } => "extra turn".into(),
        EffectKind::ExtraTurn { each_player: true } => "extra turn for each player".into(),
        EffectKind::ExtraPhases(ps) => format!(
            "extra phases: {}",
            ps.iter().map(phase).collect::<Vec<_>>().join(", ")
        ),
        EffectKind::ExtraStep {
            step: s,
            after_phase,
        } => format!(
            "extra {} step after this {}",
            step(s),
            if *after_phase { "phase" } else { "step" }
        ),
        EffectKind::Skip(SkipTarget::Step(s)) => format!("skip the next {} step", step(s)),
        EffectKind::Skip(SkipTarget::Phase(p)) => format!("skip the next {} phase", phase(p)),
        EffectKind::Skip(SkipTarget::Turn) => "skip the next turn".into(),
        EffectKind::EndTurn { goto } => format!("end the turn, go to {}", step(goto)),
        EffectKind::EndPhase { phase: p, goto } => match goto {
            Some(g) => format!("end the {} phase, go to {}", phase(p), step(g)),
            None => format!("end the {} phase", phase(p)),
        },
        EffectKind::Grant { counter, amount } => {
            format!("grant {amount} {}", spec.counters()[*counter].id)
        }
        EffectKind::LastingSkip {
            target,
            each_player,
        } => {
            let whose = if *each_player {
                "every player's"
            } else {
                "the player's"
            };
            let what = match target {
                SkipTarget::Step(s) => format!("{} steps", step(s)),
                SkipTarget::Phase(p) => format!("{} phases", phase(p)),
                SkipTarget::Turn => "turns".into(),
            };
            format!("skip {whose} {what} while it lasts")
        }
        EffectKind::ReverseTurnOrder => "reverse the turn order".into(),
        EffectKind::ControlTurn => "control another player's next turn".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_values_are_not_compared() {
        assert!(!Value::Id("x".into()).compared());
        assert!(
            !Value::Derived {
                text: "1".into(),
                from: "x"
            }
            .compared()
        );
        assert!(Value::Text("x".into()).compared());
        assert_eq!(Value::Set(Vec::new()).text(), "none");
    }
}

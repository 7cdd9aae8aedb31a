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

use crate::elements::*;
use crate::endings::*;
use crate::ids::*;
use crate::objects::*;
use crate::roles::*;
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
        /// What each item is known by across specs (a window's name, or
        /// the role it names), empty where it has none: items with the
        /// same key are compared with each other, the rest by position.
        keys: Vec<String>,
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
    /// A step's `runs`: part of its phase's regular run.
    pub const IN_ITS_PHASE: &str = "in its phase's regular run";
    /// A step's `runs`: only when a play runs it (`on_demand`).
    pub const RUN_BY_A_PLAY: &str = "only when a play runs it";
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
    match spec.step(s) {
        Some(st) if st.implicit => format!("phase {}", spec.id_of(st.phase)),
        Some(st) => format!("step {}", st.id),
        None => "step ?".to_string(),
    }
}

/// A window as one item of its step's `priority` field: when it opens,
/// its name and when it closes.
pub fn window_item(spec: &Spec, w: &Window) -> Item {
    let Window {
        name,
        rule,
        mode,
        close_when_stack_empty,
        step: _,
        solo,
        acts_role,
        refuse_pass,
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
    match (*solo, acts_role) {
        (true, Some(role)) => text.push_str(&format!(", only the {} acts", role_name(spec, *role))),
        (true, None) => text.push_str(", only the active player acts"),
        (false, _) => {}
    }
    if !refuse_pass.is_empty() {
        text.push_str(", passing refused while a condition holds");
    }
    Item { text, rule: *rule }
}

/// What a window is known by across specs: its name, else the role whose
/// holder acts in it (`acts = ROLE`), else nothing.
pub fn window_key(spec: &Spec, w: &Window) -> String {
    if !w.name.is_empty() {
        return w.name.clone();
    }
    w.acts_role
        .and_then(|r| spec.role(r))
        .map_or_else(String::new, |r| format!("role {}", r.id))
}

/// A role's display name.
pub fn role_name(spec: &Spec, role: RoleId) -> String {
    spec.role(role)
        .map_or_else(|| "?".to_string(), |r| r.name.clone())
}

/// A phase's fields; with `body`, for a phase without steps, followed by
/// the compared fields of its implicit step (windows, order, repeat), just
/// before the phase's `rule`.
pub fn phase_with_body(spec: &Spec, phase: &Phase, body: bool) -> Vec<Field> {
    let mut fields = phase.describe(spec);
    if body && phase.implicit_step {
        let at = fields.len() - 1;
        let step = phase
            .steps()
            .next()
            .and_then(|s| spec.step(s))
            .map(|s| s.describe(spec));
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
        ("game_end".to_string(), spec.game_end().describe(spec)),
        ("objects".to_string(), spec.objects().describe(spec)),
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
    out.extend(each(spec, "ending", spec.endings()));
    out.extend(each(spec, "object fact", spec.object_facts()));
    out.extend(each(spec, "role", spec.roles()));
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

mod elements;
mod settings;

pub use elements::{during_text, effect_kind_text, effect_text, holder_text, stack_text, who_text};

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

//! Traces for people and for tools.
//!
//! The engine emits index-based [`Event`]s; this crate gives them names and
//! rule citations from the spec. [`describe`] is the single place that
//! decides what an event says, so the text and JSON forms never disagree.
//! The JSON form is documented in docs/trace-format.md.

#![warn(missing_docs, unreachable_pub)]

use std::fmt::Write as _;

use serde_json::{Map, Value, json};
use turnspec_engine::{Because, Event, ObjectKind, PlayerId, Skipped, StackObject};
use turnspec_model::{RuleRef, Spec};

/// Names for object labels (a scenario's "Lightning Bolt"); labels without a
/// name print as `#n`.
pub trait Labels {
    /// The name of the object with this label, if it has one.
    fn label(&self, label: u32) -> Option<&str>;
}

impl Labels for () {
    fn label(&self, _: u32) -> Option<&str> {
        None
    }
}

impl Labels for [String] {
    fn label(&self, label: u32) -> Option<&str> {
        self.get(label as usize)
            .map(|s| s.as_str())
            .filter(|s| !s.is_empty())
    }
}

impl Labels for Vec<String> {
    fn label(&self, label: u32) -> Option<&str> {
        self.as_slice().label(label)
    }
}

/// One event with everything needed to show it.
#[derive(Debug, Clone, PartialEq)]
pub struct Described {
    /// Snake-case event kind, the JSON `event` field.
    pub kind: &'static str,
    /// Nesting for text output: 0 turn, 1 phase, 2 step, 3 inside a step.
    pub depth: u8,
    /// A short sentence for people.
    pub text: String,
    /// The rule the event cites, as the spec writes it; the JSON `rule` field.
    pub rule: Option<String>,
    /// Event-specific JSON fields (without `event` and `rule`).
    pub fields: Map<String, Value>,
}

fn rule(spec: &Spec, r: RuleRef) -> Option<String> {
    spec.rule(r).map(str::to_string)
}

/// An object's name for people; `None` if it comes from another spec.
fn object_name(spec: &Spec, labels: &dyn Labels, o: &StackObject) -> Option<String> {
    let what = match o.kind {
        ObjectKind::Play(t) => spec.timing_class(t)?.name.clone(),
        ObjectKind::Trigger => "trigger".to_string(),
        ObjectKind::TurnAction(a) => spec.turn_action(a)?.name.clone(),
    };
    Some(match labels.label(o.label) {
        Some(name) => format!("{name} ({what}, {})", o.controller),
        None if o.label == 0 => format!("{what} ({})", o.controller),
        None => format!("#{} ({what}, {})", o.label, o.controller),
    })
}

/// An object's JSON fields; `None` if it comes from another spec.
fn object_fields(spec: &Spec, labels: &dyn Labels, o: &StackObject) -> Option<Map<String, Value>> {
    let mut m = Map::new();
    m.insert("controller".into(), json!(o.controller.to_string()));
    let (kind, source) = match o.kind {
        ObjectKind::Play(t) => ("play", spec.timing_class(t)?.id.clone()),
        ObjectKind::Trigger => ("trigger", String::new()),
        ObjectKind::TurnAction(a) => ("turn_action", spec.turn_action(a)?.id.clone()),
    };
    m.insert("kind".into(), json!(kind));
    if !source.is_empty() {
        m.insert(
            if kind == "play" { "timing" } else { "action" }.into(),
            json!(source),
        );
    }
    match labels.label(o.label) {
        Some(name) => m.insert("label".into(), json!(name)),
        None => m.insert("label".into(), json!(o.label)),
    };
    Some(m)
}

/// The end of a phase or step: its id under `key`, and "end of" its name.
fn ended(f: &mut Map<String, Value>, key: &str, id: &str, name: &str) -> String {
    f.insert(key.into(), json!(id));
    format!("end of {name}")
}

/// The fields of a play that makes no stack object (a special action, the
/// steps a play runs): who, at which timing class, and the host's label
/// (its name when the host gave one).
fn play_fields(
    f: &mut Map<String, Value>,
    labels: &dyn Labels,
    p: PlayerId,
    timing: &str,
    label: u32,
) {
    f.insert("player".into(), player(p));
    f.insert("timing".into(), json!(timing));
    match labels.label(label) {
        Some(name) => f.insert("label".into(), json!(name)),
        None => f.insert("label".into(), json!(label)),
    };
}

fn player(p: PlayerId) -> Value {
    json!(p.to_string())
}

/// Whether every id in `event` belongs to `spec`: an event of a game on
/// another spec cannot be named, only reported as such.
pub fn fits(spec: &Spec, event: &Event) -> bool {
    let object = |o: &StackObject| match o.kind {
        ObjectKind::Play(t) => spec.timing().contains(t),
        ObjectKind::TurnAction(a) => spec.turn_actions().contains(a),
        _ => true,
    };
    match event {
        Event::PhaseBegan { phase, .. } | Event::PhaseEnded { phase } => {
            spec.phases().contains(*phase)
        }
        Event::StepBegan { step, .. } | Event::StepEnded { step } => spec.steps().contains(*step),
        Event::Skipped { skipped, .. } => match skipped {
            Skipped::Phase(p) => spec.phases().contains(*p),
            Skipped::Step(s) => spec.steps().contains(*s),
            Skipped::Turn(_) => true,
        },
        Event::TurnAction { action, .. } => spec.turn_actions().contains(*action),
        Event::TriggerPut { object: o }
        | Event::Pushed { object: o }
        | Event::Resolved { object: o }
        | Event::Removed { object: o }
        | Event::Ceased { object: o } => object(o),
        Event::EffectStopped { effect, .. } => spec.effects().contains(*effect),
        Event::TurnControlled { .. } | Event::DecidedBy { .. } => true,
        Event::PriorityGiven { window, .. } => window.is_none_or(|w| spec.windows().contains(w)),
        Event::SpecialAction { timing, .. } | Event::StepsBegan { timing, .. } => {
            spec.timing().contains(*timing)
        }
        Event::RoleTaken { role, .. } => spec.roles().contains(*role),
        Event::FactChanged { fact, .. } => spec.facts().contains(*fact),
        Event::Ending { ending, .. } => spec.endings().contains(*ending),
        Event::CounterSet { counter, .. } => spec.counters().contains(*counter),
        Event::ObjectFactSet { fact, .. } => spec.object_facts().contains(*fact),
        Event::EnteredPlay { .. } | Event::LeftPlay { .. } | Event::ControlChanged { .. } => true,
        Event::GameOver { .. } => true,
        Event::EffectApplied { effect, .. } => spec.effects().contains(*effect),
        Event::TurnBegan { .. }
        | Event::TurnEnded { .. }
        | Event::Passed { .. }
        | Event::Left { .. }
        | Event::Expired { .. }
        | Event::EffectActive { .. }
        | Event::ManaEmptied { .. } => true,
    }
}

/// The host's name for an object (its label), or its number; recorded as
/// the event's `object` field.
fn in_play_name(labels: &dyn Labels, object: u32, f: &mut Map<String, Value>) -> String {
    match labels.label(object) {
        Some(name) => {
            f.insert("object".into(), json!(name));
            name.to_string()
        }
        None => {
            f.insert("object".into(), json!(object));
            format!("object {object}")
        }
    }
}

/// Names, text, depth and rule for one event. An event that does not fit
/// the spec (see [`fits`]) is described as `foreign_event`, not named.
pub fn describe(spec: &Spec, labels: &dyn Labels, event: &Event) -> Described {
    known(spec, labels, event).unwrap_or_else(|| Described {
        kind: "foreign_event",
        depth: 3,
        text: format!("an event of another spec: {event:?}"),
        rule: None,
        fields: Map::new(),
    })
}

/// [`describe`] for an event whose ids the spec has; `None` otherwise.
fn known(spec: &Spec, labels: &dyn Labels, event: &Event) -> Option<Described> {
    if !fits(spec, event) {
        return None;
    }
    let mut f = Map::new();
    let (kind, depth, text, r) = match *event {
        Event::TurnBegan { turn, player: p } => {
            f.insert("turn".into(), json!(turn));
            f.insert("player".into(), player(p));
            (
                "turn_began",
                0,
                format!("Turn {turn} ({}: {p})", spec.terms().active_player),
                RuleRef::NONE,
            )
        }
        Event::TurnEnded { turn, player: p } => {
            f.insert("turn".into(), json!(turn));
            f.insert("player".into(), player(p));
            (
                "turn_ended",
                0,
                format!("end of turn {turn}"),
                RuleRef::NONE,
            )
        }
        Event::PhaseBegan { phase, number } => {
            let ph = spec.phase(phase)?;
            f.insert("phase".into(), json!(ph.id));
            f.insert("number".into(), json!(number));
            let kind_name = spec.kinds().get(ph.kind as usize)?;
            let text =
                if number > 1 || spec.phases().iter().filter(|p| p.kind == ph.kind).count() > 1 {
                    format!("{} ({kind_name} phase #{number})", ph.name)
                } else {
                    ph.name.clone()
                };
            ("phase_began", 1, text, ph.rule)
        }
        Event::PhaseEnded { phase } => {
            let ph = spec.phase(phase)?;
            let text = ended(&mut f, "phase", &ph.id, &ph.name);
            ("phase_ended", 1, text, RuleRef::NONE)
        }
        Event::StepBegan { step, repeat } => {
            let st = spec.step(step)?;
            f.insert("step".into(), json!(st.id));
            f.insert("repeat".into(), json!(repeat));
            let (text, r) = if repeat > 0 {
                (
                    // `repeat` stops at 255: no overflow on a long loop.
                    format!("{} (again, #{})", st.name, u16::from(repeat) + 1),
                    st.repeat.map(|c| c.rule).unwrap_or(st.rule),
                )
            } else {
                (st.name.clone(), st.rule)
            };
            ("step_began", 2, text, r)
        }
        Event::StepEnded { step } => {
            let st = spec.step(step)?;
            let text = ended(&mut f, "step", &st.id, &st.name);
            ("step_ended", 2, text, RuleRef::NONE)
        }
        Event::Skipped { skipped, rule: r } => match skipped {
            Skipped::Phase(p) => {
                let ph = spec.phase(p)?;
                f.insert("phase".into(), json!(ph.id));
                ("skipped", 1, format!("{} skipped", ph.name), r)
            }
            Skipped::Step(s) => {
                let st = spec.step(s)?;
                f.insert("step".into(), json!(st.id));
                ("skipped", 2, format!("{} skipped", st.name), r)
            }
            Skipped::Turn(p) => {
                f.insert("turn_of".into(), player(p));
                ("skipped", 0, format!("{p}'s turn skipped"), r)
            }
        },
        Event::TurnAction { action, answer } => {
            let a = spec.turn_action(action)?;
            f.insert("action".into(), json!(a.id));
            f.insert("answer".into(), json!(answer));
            let text = if a.answer_max > 0 {
                format!("{} → {answer}", a.name)
            } else {
                a.name.clone()
            };
            ("turn_action", 3, text, a.rule)
        }
        Event::TriggerPut { object }
        | Event::Pushed { object }
        | Event::Resolved { object }
        | Event::Removed { object } => {
            f.extend(object_fields(spec, labels, &object)?);
            let name = object_name(spec, labels, &object)?;
            let stack = &spec.terms().stack;
            let (kind, text, r) = match *event {
                Event::TriggerPut { .. } => (
                    "trigger_put",
                    format!("trigger onto the {stack}: {name}"),
                    RuleRef::NONE,
                ),
                Event::Pushed { .. } => (
                    "push",
                    format!("{} plays {name}", object.controller),
                    match object.kind {
                        ObjectKind::Play(t) => spec.timing_class(t)?.rule,
                        ObjectKind::TurnAction(a) => spec.turn_action(a)?.rule,
                        ObjectKind::Trigger => RuleRef::NONE,
                    },
                ),
                Event::Resolved { .. } => (
                    "resolve",
                    format!("resolves: {name}"),
                    spec.priority().close_rule,
                ),
                // Event::Removed
                _ => (
                    "removed",
                    format!("leaves the {stack} without resolving: {name}"),
                    RuleRef::NONE,
                ),
            };
            (kind, 3, text, r)
        }
        Event::PriorityGiven {
            player: p,
            window,
            because,
        } => {
            f.insert("player".into(), player(p));
            let (why, r) = match because {
                Because::WindowOpened => {
                    let w = window.and_then(|w| spec.windows().get(w));
                    let r = w
                        .map(|w| w.rule)
                        .filter(|r| !r.is_none())
                        .unwrap_or(spec.priority().first_rule);
                    ("window_opened", r)
                }
                Because::Passed => ("passed", spec.priority().pass_rule),
                Because::Acted => ("acted", spec.priority().after_action_rule),
                Because::Resolved => ("resolved", spec.priority().after_resolve_rule),
                Because::Returned => ("returned", spec.priority().first_rule),
            };
            f.insert("because".into(), json!(why));
            if let Some(w) = window
                .and_then(|w| spec.windows().get(w))
                .filter(|w| !w.name.is_empty())
            {
                f.insert("window".into(), json!(w.name));
            }
            let mut text = format!("{} → {p}", spec.terms().priority);
            if let Some(w) = window.and_then(|w| spec.windows().get(w)) {
                if because == Because::WindowOpened && !w.name.is_empty() {
                    text = format!("{text} ({})", w.name);
                }
                if because == Because::Returned {
                    let phase = spec.phase(spec.step(w.step)?.phase)?;
                    text = format!("{text} (back in the {})", phase.name);
                }
            }
            ("priority", 3, text, r)
        }
        Event::Passed { player: p } => {
            f.insert("player".into(), player(p));
            ("pass", 3, format!("{p} passes"), RuleRef::NONE)
        }
        Event::SpecialAction {
            player: p,
            timing,
            label,
        } => {
            let tc = spec.timing_class(timing)?;
            play_fields(&mut f, labels, p, &tc.id, label);
            let what = labels
                .label(label)
                .map(|l| format!(": {l}"))
                .unwrap_or_default();
            (
                "special_action",
                3,
                format!("{p}: {}{what}", tc.name),
                tc.rule,
            )
        }
        Event::RoleTaken { role, player: p } => {
            let r = spec.role(role)?;
            f.insert("role".into(), json!(r.id));
            f.insert("player".into(), player(p));
            ("role", 3, format!("{p} is {}", r.name), r.rule)
        }
        Event::StepsBegan {
            player: p,
            timing,
            label,
            again,
        } => {
            let tc = spec.timing_class(timing)?;
            play_fields(&mut f, labels, p, &tc.id, label);
            f.insert("again".into(), json!(again));
            let what = labels
                .label(label)
                .map(str::to_string)
                .unwrap_or_else(|| format!("#{label}"));
            let first = tc
                .steps
                .and_then(|s| spec.step(s))
                .map_or("?", |s| s.name.as_str());
            let again = if again { " again" } else { "" };
            (
                "steps_began",
                2,
                format!(
                    "{p}'s {} {what} runs its steps{again}, from {first}",
                    tc.name
                ),
                tc.rule,
            )
        }
        Event::FactChanged { fact, value } => {
            let fl = spec.facts().get(fact)?;
            f.insert("fact".into(), json!(fl.id));
            f.insert("value".into(), json!(value));
            (
                "fact_changed",
                3,
                format!("fact {} = {value}", fl.id),
                fl.rule,
            )
        }
        Event::EffectApplied {
            effect,
            player: p,
            applied,
        } => {
            let e = spec.effect(effect)?;
            f.insert("effect".into(), json!(e.id));
            f.insert("player".into(), player(p));
            f.insert("applied".into(), json!(applied));
            let text = if applied {
                format!("effect for {p}: {}", e.name)
            } else {
                format!("effect for {p}: {} (does nothing now)", e.name)
            };
            let r = if applied {
                e.rule
            } else {
                e.own_turn_only.unwrap_or(e.rule)
            };
            ("effect", 3, text, r)
        }
        Event::Left { player: p } => {
            f.insert("player".into(), player(p));
            let r = spec.game_end().leave_rule;
            ("left", 3, format!("{p} leaves the game"), r)
        }
        Event::CounterSet {
            counter,
            player: p,
            value,
        } => {
            let c = spec.counter(counter)?;
            f.insert("counter".into(), json!(c.id));
            f.insert("player".into(), player(p));
            f.insert("value".into(), json!(value));
            let text = if c.per_player {
                format!("{} of {p} is now {value}", c.id)
            } else {
                format!("{} is now {value}", c.id)
            };
            ("counter", 3, text, RuleRef::NONE)
        }
        Event::EnteredPlay { object, controller } => {
            let name = in_play_name(labels, object, &mut f);
            f.insert("controller".into(), player(controller));
            (
                "entered_play",
                3,
                format!("{name} enters play under {controller}'s control"),
                spec.objects().rule,
            )
        }
        Event::LeftPlay { object } => {
            let name = in_play_name(labels, object, &mut f);
            (
                "left_play",
                3,
                format!("{name} leaves play"),
                spec.objects().rule,
            )
        }
        Event::ControlChanged { object, controller } => {
            let name = in_play_name(labels, object, &mut f);
            f.insert("controller".into(), player(controller));
            (
                "control_changed",
                3,
                format!("{controller} gains control of {name}"),
                spec.objects().rule,
            )
        }
        Event::ObjectFactSet {
            object,
            fact,
            value,
        } => {
            let d = spec.object_fact(fact)?;
            let name = in_play_name(labels, object, &mut f);
            f.insert("fact".into(), json!(d.id));
            f.insert("value".into(), json!(value));
            (
                "object_fact",
                3,
                format!("{name}: {} = {value}", d.name),
                d.rule,
            )
        }
        Event::Ending { ending, player: p } => {
            let e = spec.ending(ending)?;
            f.insert("ending".into(), json!(e.id));
            f.insert("player".into(), player(p));
            let what = match e.result {
                turnspec_model::EndResult::Wins => "wins",
                turnspec_model::EndResult::Loses => "loses",
                turnspec_model::EndResult::Draw => "draws",
            };
            ("ending", 1, format!("{p} {what}: {}", e.name), e.rule)
        }
        Event::GameOver { outcome } => {
            let winners: Vec<String> = outcome.winners().map(|w| w.to_string()).collect();
            f.insert("winners".into(), json!(winners));
            f.insert("draw".into(), json!(outcome.is_draw()));
            let text = if outcome.is_draw() {
                "the game is over: a draw".to_string()
            } else {
                format!("the game is over: {} won", winners.join(" and "))
            };
            ("game_over", 0, text, outcome.rule())
        }
        Event::Ceased { object } => {
            f.extend(object_fields(spec, labels, &object)?);
            let name = object_name(spec, labels, &object)?;
            (
                "ceased",
                3,
                format!(
                    "ceases to exist before reaching the {}: {name}",
                    spec.terms().stack
                ),
                RuleRef::NONE,
            )
        }
        Event::EffectStopped { effect, player: p } => {
            let e = spec.effect(effect)?;
            f.insert("effect".into(), json!(e.id));
            f.insert("player".into(), player(p));
            (
                "effect_stopped",
                3,
                format!("effect for {p} ends: {}", e.name),
                e.rule,
            )
        }
        Event::TurnControlled { player: p, by } => {
            f.insert("player".into(), player(p));
            f.insert("by".into(), player(by));
            (
                "turn_controlled",
                2,
                format!(
                    "{by} controls {p} this turn; {p} stays the {}",
                    spec.terms().active_player
                ),
                control_rule(spec),
            )
        }
        Event::DecidedBy { player: p, by } => {
            f.insert("player".into(), player(p));
            f.insert("by".into(), player(by));
            (
                "decided_by",
                3,
                format!("{by} decides for {p}"),
                control_rule(spec),
            )
        }
        Event::Expired { label } => {
            match labels.label(label) {
                Some(name) => f.insert("label".into(), json!(name)),
                None => f.insert("label".into(), json!(label)),
            };
            let name = labels
                .label(label)
                .map(str::to_string)
                .unwrap_or_else(|| format!("#{label}"));
            ("expired", 3, format!("{name} ends"), RuleRef::NONE)
        }
        Event::EffectActive { label, active } => {
            match labels.label(label) {
                Some(name) => f.insert("label".into(), json!(name)),
                None => f.insert("label".into(), json!(label)),
            };
            f.insert("active".into(), json!(active));
            let name = labels
                .label(label)
                .map(str::to_string)
                .unwrap_or_else(|| format!("#{label}"));
            let text = match active {
                true => format!("{name} applies"),
                false => format!("{name} stops applying"),
            };
            ("effect_active", 3, text, RuleRef::NONE)
        }
        Event::ManaEmptied {
            player: p,
            amount,
            burn,
        } => {
            f.insert("player".into(), player(p));
            f.insert("amount".into(), json!(amount));
            f.insert("burn".into(), json!(burn));
            let text = if burn {
                format!(
                    "{p}'s pool empties: {amount} mana lost, {p} loses {amount} life (mana burn)"
                )
            } else {
                format!("{p}'s pool empties: {amount} mana lost")
            };
            (
                "mana_emptied",
                3,
                text,
                if burn {
                    spec.mana().burn_rule
                } else {
                    spec.mana().rule
                },
            )
        }
    };
    Some(Described {
        kind,
        depth,
        text,
        rule: rule(spec, r),
        fields: f,
    })
}

/// One JSON object for an event: `{"event": kind, ...fields, "rule": ...}`.
pub fn to_json(spec: &Spec, labels: &dyn Labels, event: &Event) -> Value {
    let d = describe(spec, labels, event);
    let mut m = Map::new();
    m.insert("event".into(), json!(d.kind));
    m.extend(d.fields);
    if let Some(r) = d.rule {
        m.insert("rule".into(), json!(r));
    }
    Value::Object(m)
}

/// JSON lines, one event per line.
pub fn to_json_lines(spec: &Spec, labels: &dyn Labels, events: &[Event]) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str(&to_json(spec, labels, e).to_string());
        out.push('\n');
    }
    out
}

/// Options for the text form.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextOptions {
    /// Also print "end of ..." lines.
    pub show_ends: bool,
}

/// Text for people: indented by turn, phase and step, rules in brackets.
pub fn to_text(spec: &Spec, labels: &dyn Labels, events: &[Event], options: TextOptions) -> String {
    let mut out = String::new();
    let mut text = TextTrace::new(options);
    for e in events {
        text.push(spec, labels, e, &mut out);
    }
    out
}

/// The text form one event at a time, for streaming long traces: it keeps
/// the little state indentation needs (whether a step is open).
#[derive(Debug, Clone, Copy, Default)]
pub struct TextTrace {
    options: TextOptions,
    in_step: bool,
}

impl TextTrace {
    /// A trace that has not printed anything yet.
    pub fn new(options: TextOptions) -> Self {
        TextTrace {
            options,
            in_step: false,
        }
    }

    /// Appends the line for `event` (if it shows) to `out`.
    pub fn push(&mut self, spec: &Spec, labels: &dyn Labels, event: &Event, out: &mut String) {
        let d = describe(spec, labels, event);
        if d.kind.ends_with("_ended") && !self.options.show_ends {
            if d.kind == "step_ended" {
                self.in_step = false;
            }
            return;
        }
        match d.kind {
            "step_began" => self.in_step = true,
            "phase_began" | "turn_began" => self.in_step = false,
            _ => {}
        }
        // Inside a step-less phase, actions sit one level less deep.
        let depth = if d.depth == 3 && !self.in_step {
            2
        } else {
            d.depth
        };
        for _ in 0..depth {
            out.push_str("  ");
        }
        out.push_str(&d.text);
        if let Some(r) = &d.rule {
            let _ = write!(out, "  [{r}]");
        }
        out.push('\n');
    }
}

/// The compact one-line form scenarios use to state expected events, e.g.
/// `step upkeep`, `priority P1`, `push P1 instant Shock`, `resolve Shock`,
/// `action declare_attackers = 1`, `skip step draw`. Ids, not display names,
/// so scenarios survive renaming; rules are left out (they are checked by
/// `expect_illegal` and shown in traces).
pub fn compact(spec: &Spec, labels: &dyn Labels, event: &Event) -> String {
    compact_known(spec, labels, event).unwrap_or_else(|| format!("foreign {event:?}"))
}

/// [`compact`] for an event whose ids the spec has; `None` otherwise.
fn compact_known(spec: &Spec, labels: &dyn Labels, event: &Event) -> Option<String> {
    if !fits(spec, event) {
        return None;
    }
    let label = |l: u32| {
        labels
            .label(l)
            .map(str::to_string)
            .unwrap_or_else(|| format!("#{l}"))
    };
    let object = |o: &StackObject| {
        let what = match o.kind {
            ObjectKind::Play(t) => spec.timing_class(t)?.id.clone(),
            ObjectKind::Trigger => "trigger".to_string(),
            ObjectKind::TurnAction(a) => spec.turn_action(a)?.id.clone(),
        };
        Some(format!("{} {what} {}", o.controller, label(o.label)))
    };
    Some(match *event {
        Event::TurnBegan { turn, player } => format!("turn {turn} {player}"),
        Event::TurnEnded { turn, .. } => format!("end turn {turn}"),
        Event::PhaseBegan { phase, number } => {
            let ph = spec.phase(phase)?;
            if spec.phases().iter().filter(|p| p.kind == ph.kind).count() > 1 || number > 1 {
                format!("phase {} #{number}", ph.id)
            } else {
                format!("phase {}", ph.id)
            }
        }
        Event::PhaseEnded { phase } => format!("end phase {}", spec.phase(phase)?.id),
        Event::StepBegan { step, repeat } => {
            if repeat == 0 {
                format!("step {}", spec.step(step)?.id)
            } else {
                format!("step {} again {repeat}", spec.step(step)?.id)
            }
        }
        Event::StepEnded { step } => format!("end step {}", spec.step(step)?.id),
        Event::Skipped { skipped, .. } => match skipped {
            Skipped::Phase(p) => format!("skip phase {}", spec.phase(p)?.id),
            Skipped::Step(s) => format!("skip step {}", spec.step(s)?.id),
            Skipped::Turn(p) => format!("skip turn {p}"),
        },
        Event::TurnAction { action, answer } => {
            let a = spec.turn_action(action)?;
            if a.answer_max > 0 {
                format!("action {} = {answer}", a.id)
            } else {
                format!("action {}", a.id)
            }
        }
        Event::TriggerPut { object: o } => format!("trigger {} {}", o.controller, label(o.label)),
        Event::PriorityGiven { player, .. } => format!("priority {player}"),
        Event::Passed { player } => format!("pass {player}"),
        Event::Pushed { object: o } => format!("push {}", object(&o)?),
        Event::Resolved { object: o } => format!("resolve {}", label(o.label)),
        Event::SpecialAction {
            player,
            timing,
            label: l,
        } => {
            format!(
                "special {player} {} {}",
                spec.timing_class(timing)?.id,
                label(l)
            )
        }
        Event::RoleTaken { role, player } => format!("role {} {player}", spec.role(role)?.id),
        Event::StepsBegan {
            player,
            timing,
            label: l,
            again,
        } => format!(
            "steps {player} {} {}{}",
            spec.timing_class(timing)?.id,
            label(l),
            if again { " again" } else { "" }
        ),
        Event::FactChanged { fact, value } => {
            format!("fact {} = {value}", spec.facts().get(fact)?.id)
        }
        Event::EffectApplied {
            effect,
            player,
            applied,
        } => {
            let id = &spec.effect(effect)?.id;
            if applied {
                format!("effect {id} {player}")
            } else {
                format!("effect {id} {player} ignored")
            }
        }
        Event::Removed { object: o } => format!("removed {}", label(o.label)),
        Event::Left { player } => format!("left {player}"),
        Event::Ending { ending, player } => format!("ending {} {player}", spec.ending(ending)?.id),
        Event::EnteredPlay { object, controller } => {
            format!("enter {} {controller}", label(object))
        }
        Event::LeftPlay { object } => format!("leave_play {}", label(object)),
        Event::ControlChanged { object, controller } => {
            format!("control {} {controller}", label(object))
        }
        Event::ObjectFactSet {
            object,
            fact,
            value,
        } => format!(
            "object_fact {} {} = {value}",
            label(object),
            spec.object_fact(fact)?.id
        ),
        Event::CounterSet {
            counter,
            player,
            value,
        } => format!("counter {} {player} = {value}", spec.counter(counter)?.id),
        Event::GameOver { outcome } => {
            if outcome.is_draw() {
                "game_over draw".to_string()
            } else {
                let winners: Vec<String> = outcome.winners().map(|w| w.to_string()).collect();
                format!("game_over {}", winners.join(" "))
            }
        }
        Event::Ceased { object: o } => format!("ceased {}", label(o.label)),
        Event::EffectStopped { effect, player } => {
            format!("effect_stopped {} {player}", spec.effect(effect)?.id)
        }
        Event::TurnControlled { player, by } => format!("controlled {player} by {by}"),
        Event::DecidedBy { player, by } => format!("decides {by} for {player}"),
        Event::Expired { label: l } => format!("expired {}", label(l)),
        Event::EffectActive { label: l, active } => match active {
            true => format!("applies {}", label(l)),
            false => format!("stops {}", label(l)),
        },
        Event::ManaEmptied {
            player,
            amount,
            burn,
        } => {
            if burn {
                format!("mana {player} {amount} burn")
            } else {
                format!("mana {player} {amount}")
            }
        }
    })
}

/// The rule of the spec's turn-control effect, cited when a controlled
/// player's decisions are made by another (722).
fn control_rule(spec: &Spec) -> RuleRef {
    spec.effects()
        .iter()
        .find(|e| e.kind == turnspec_model::EffectKind::ControlTurn)
        .map_or(RuleRef::NONE, |e| e.rule)
}

/// Whether an event is an "end of ..." event (left out of compact lists and
/// text traces unless asked for).
pub fn is_end(event: &Event) -> bool {
    matches!(
        event,
        Event::TurnEnded { .. } | Event::PhaseEnded { .. } | Event::StepEnded { .. }
    )
}

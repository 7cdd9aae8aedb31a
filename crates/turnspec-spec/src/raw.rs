//! The TOML schema, as close to the file as possible.
//!
//! These types only describe shape: every value a designer can get wrong keeps
//! its span so that [`crate::compile`] can point at it. Meaning (ids resolved,
//! conditions parsed, cross-references checked) is given in [`crate::compile`],
//! never here.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

pub(crate) type Text = Spanned<String>;

#[derive(Debug, Deserialize, Default)]
pub(crate) struct RawSpec {
    /// The spec this one changes (see [`crate::inherit`]); merged before
    /// deserialising, so only its presence is seen here.
    #[allow(dead_code)]
    pub extends: Option<Text>,
    pub game: Option<Spanned<RawGame>>,
    #[serde(default)]
    pub terms: RawTerms,
    pub priority: Option<Spanned<RawPriority>>,
    #[serde(default)]
    pub variants: BTreeMap<String, Spanned<RawFlag>>,
    #[serde(default)]
    pub facts: BTreeMap<String, Spanned<RawFlag>>,
    #[serde(default)]
    pub counters: BTreeMap<String, Spanned<RawCounter>>,
    #[serde(default)]
    pub timing: BTreeMap<String, Spanned<RawTiming>>,
    #[serde(default)]
    pub effects: BTreeMap<String, Spanned<RawEffect>>,
    pub mana: Option<Spanned<RawMana>>,
    pub leaving: Option<Spanned<RawLeaving>>,
    #[serde(default)]
    pub phase: Vec<Spanned<RawPhase>>,
}

/// A structural effect a host or scenario can apply (an extra turn, an
/// extra combat, "skip your next draw step", "end the turn").
#[derive(Debug, Deserialize)]
pub(crate) struct RawEffect {
    pub kind: Text,
    pub name: Option<Text>,
    pub rule: Option<Text>,
    /// For the designer and documentation tools only.
    #[allow(dead_code)]
    pub description: Option<Text>,
    /// `extra_turn`: `"player"` (default) or `"each_player"`.
    #[serde(rename = "for")]
    pub target: Option<Text>,
    /// `extra_phases`: the phases to add after the current one, in order.
    pub phases: Option<Spanned<Vec<Text>>>,
    /// `extra_step` / `skip`: a step; `end_turn` / `end_phase`: where to go.
    pub step: Option<Text>,
    /// `skip` / `end_phase`: a phase.
    pub phase: Option<Text>,
    /// `skip`: the whole turn.
    pub turn: Option<Spanned<bool>>,
    /// `extra_step`: `"this_step"` (500.9) or `"this_phase"` (500.10).
    pub after: Option<Text>,
    /// `end_turn` / `end_phase`: the step to continue with.
    pub goto: Option<Text>,
    /// Only during the player's own turn ("you get", 500.10a).
    pub own_turn_only: Option<Spanned<bool>>,
    pub own_turn_rule: Option<Text>,
    /// `skip`: a static effect, skipping every such step, phase or turn
    /// until the host ends it (614.10), not only the next one.
    pub lasting: Option<Spanned<bool>>,
}

/// What happens when a player leaves the game. Without this table the turn
/// of a player who leaves goes on without them (800.4j).
#[derive(Debug, Deserialize)]
pub(crate) struct RawLeaving {
    pub rule: Option<Text>,
    /// When the active player leaves, once the stack is empty play jumps to
    /// this step (GA ENDGAME 8: that turn's End phase).
    pub active_player_goto: Option<Text>,
}

/// Mana pools: when they empty (500.4; pre-2009: 300.3) and mana burn.
#[derive(Debug, Deserialize)]
pub(crate) struct RawMana {
    pub empties: Option<Text>,
    pub rule: Option<Text>,
    pub burn: Option<Spanned<bool>>,
    pub burn_rule: Option<Text>,
}

/// A table of named entries (`[timing.sorcery]`) in file order, each name
/// carrying the span of its table (map keys lose their spans in serde).
pub(crate) fn in_file_order<T>(map: &BTreeMap<String, Spanned<T>>) -> Vec<(Text, &T)> {
    let mut out: Vec<(Text, &T)> = map
        .iter()
        .map(|(k, v)| (Spanned::new(v.span(), k.clone()), v.get_ref()))
        .collect();
    out.sort_by_key(|(k, _)| k.span().start);
    out
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawGame {
    pub name: Text,
    pub edition: Option<Text>,
    pub edition_date: Option<Text>,
    pub source: Option<Text>,
    pub rule: Option<Text>,
    pub players: Spanned<RawPlayers>,
    pub turn_order: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawPlayers {
    pub min: Spanned<i64>,
    pub max: Spanned<i64>,
}

/// Words used when a trace is shown to people: Grand Archive says
/// "Opportunity" and "Effects Stack" where Magic says "priority" and "stack".
#[derive(Debug, Deserialize, Default)]
pub(crate) struct RawTerms {
    pub priority: Option<Text>,
    pub stack: Option<Text>,
    pub active_player: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawPriority {
    pub rule: Option<Text>,
    pub first: Option<Text>,
    pub first_rule: Option<Text>,
    pub after_action: Option<Text>,
    pub after_action_rule: Option<Text>,
    pub after_resolve: Option<Text>,
    pub after_resolve_rule: Option<Text>,
    pub pass_rule: Option<Text>,
    pub close: Option<Text>,
    pub close_rule: Option<Text>,
}

/// A variant (Archenemy) or a fact (the active player controls a Saga): a
/// yes/no the host or a scenario sets and conditions read.
#[derive(Debug, Deserialize, Default)]
pub(crate) struct RawFlag {
    pub name: Option<Text>,
    /// For the designer and documentation tools only.
    #[allow(dead_code)]
    pub description: Option<Text>,
    pub rule: Option<Text>,
    pub default: Option<Spanned<bool>>,
}

#[derive(Debug, Deserialize, Default)]
pub(crate) struct RawCounter {
    pub reset: Option<Text>,
    /// `"game"` (default): one number; `"player"`: one per player (lands
    /// played, 305.2 — each player of a team may play one, 805.4c).
    pub per: Option<Text>,
    /// For the designer and documentation tools only.
    #[allow(dead_code)]
    pub description: Option<Text>,
    pub rule: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawTiming {
    pub name: Option<Text>,
    pub rule: Option<Text>,
    /// For the designer and documentation tools only.
    #[allow(dead_code)]
    pub description: Option<Text>,
    pub who: Option<Text>,
    pub who_rule: Option<Text>,
    pub stack: Option<Text>,
    pub stack_rule: Option<Text>,
    pub during: Option<Spanned<Vec<Text>>>,
    pub during_rule: Option<Text>,
    pub effect: Option<Text>,
    pub phase: Option<Text>,
    pub limit: Option<Spanned<RawLimit>>,
    #[serde(default)]
    pub require: Vec<Spanned<RawRequire>>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawLimit {
    pub counter: Text,
    pub max: Spanned<i64>,
    pub rule: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawRequire {
    #[serde(rename = "if")]
    pub condition: Text,
    pub rule: Option<Text>,
    pub explain: Option<Text>,
}

/// A `skip` or `repeat` entry: a condition and the rule that makes it so.
#[derive(Debug, Deserialize)]
pub(crate) struct RawWhen {
    #[serde(rename = "if")]
    pub condition: Text,
    pub rule: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawPhase {
    pub id: Text,
    pub name: Option<Text>,
    pub rule: Option<Text>,
    #[serde(default)]
    pub tags: Vec<Text>,
    pub counts_as: Option<Text>,
    pub on_demand: Option<Spanned<bool>>,
    /// The phase is part of the turn only while this holds; otherwise it is
    /// left out silently (unlike `skip`, which reports the skip).
    pub only_if: Option<Text>,
    #[serde(default)]
    pub skip: Vec<Spanned<RawWhen>>,
    #[serde(default)]
    pub step: Vec<Spanned<RawStep>>,
    // A phase without steps carries its body itself (see [`RawBody`]).
    pub actions: Option<Spanned<Vec<Spanned<RawStage>>>>,
    pub priority: Option<Text>,
    pub priority_rule: Option<Text>,
    pub sequence: Option<Spanned<Vec<Spanned<RawStage>>>>,
    pub repeat: Option<Spanned<RawWhen>>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawStep {
    pub id: Text,
    pub name: Option<Text>,
    pub rule: Option<Text>,
    #[serde(default)]
    pub tags: Vec<Text>,
    pub only_if: Option<Text>,
    #[serde(default)]
    pub skip: Vec<Spanned<RawWhen>>,
    pub actions: Option<Spanned<Vec<Spanned<RawStage>>>>,
    pub priority: Option<Text>,
    pub priority_rule: Option<Text>,
    pub sequence: Option<Spanned<Vec<Spanned<RawStage>>>>,
    pub repeat: Option<Spanned<RawWhen>>,
}

/// What happens inside a step: either the common shape (turn-based actions,
/// then a priority window) or an explicit `sequence` of actions and windows.
/// Phases and steps both carry these keys (serde's `flatten` would lose spans
/// and unknown-key detection, so the fields are repeated and viewed here).
pub(crate) struct RawBody<'a> {
    pub actions: Option<&'a Spanned<Vec<Spanned<RawStage>>>>,
    pub priority: Option<&'a Text>,
    pub priority_rule: Option<&'a Text>,
    pub sequence: Option<&'a Spanned<Vec<Spanned<RawStage>>>>,
    pub repeat: Option<&'a Spanned<RawWhen>>,
}

macro_rules! body_view {
    ($t:ty) => {
        impl $t {
            pub(crate) fn body(&self) -> RawBody<'_> {
                RawBody {
                    actions: self.actions.as_ref(),
                    priority: self.priority.as_ref(),
                    priority_rule: self.priority_rule.as_ref(),
                    sequence: self.sequence.as_ref(),
                    repeat: self.repeat.as_ref(),
                }
            }
        }
    };
}
body_view!(RawPhase);
body_view!(RawStep);

/// One entry of `actions` or `sequence`: a turn-based action (has `id`) or,
/// in a sequence only, a window (has `window`).
#[derive(Debug, Deserialize)]
pub(crate) struct RawStage {
    pub id: Option<Text>,
    pub window: Option<Text>,
    /// Windows: `all_pass` (default) or `stack_empty` (a state-check window
    /// that ends once what was pending has resolved).
    pub close: Option<Text>,
    pub name: Option<Text>,
    pub rule: Option<Text>,
    #[serde(rename = "if")]
    pub condition: Option<Text>,
    pub answer: Option<Spanned<RawAnswer>>,
    /// The action puts an object of this timing class on the stack for the
    /// active player every time it happens (pre-2009 combat damage, 310.1).
    pub play: Option<Text>,
    /// This action ends "until end of turn" effects (514.2; GA END 3).
    pub ends_turn_effects: Option<Spanned<bool>>,
    /// This action puts waiting triggered abilities on the stack, with no
    /// priority given (GA EOC 1-2: triggers go on the stack before roles
    /// and intent are cleared).
    pub stack_triggers: Option<Spanned<bool>>,
}

/// How the host answers a turn-based action hook.
#[derive(Debug, Deserialize)]
pub(crate) struct RawAnswer {
    /// Store the answer (a number) in this counter.
    pub counter: Option<Text>,
    /// Largest meaningful answer; random play picks within 0..=max.
    pub max: Option<Spanned<i64>>,
    /// A yes answer makes the active player play this timing class (GA's
    /// materialization is a turn-based action that uses the stack).
    pub play: Option<Text>,
}

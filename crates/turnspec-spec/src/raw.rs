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

#[derive(Debug, Deserialize, Default, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawSpec {
    /// The spec this one changes (see [`crate::inherit`]); merged before
    /// deserialising, so only its presence is seen here.
    #[allow(dead_code)]
    #[schemars(with = "Option<String>")]
    pub extends: Option<Text>,
    #[schemars(with = "Option<RawGame>")]
    pub game: Option<Spanned<RawGame>>,
    #[serde(default)]
    pub terms: RawTerms,
    #[schemars(with = "Option<RawPriority>")]
    pub priority: Option<Spanned<RawPriority>>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawFlag>")]
    pub variants: BTreeMap<String, Spanned<RawFlag>>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawFlag>")]
    pub facts: BTreeMap<String, Spanned<RawFlag>>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawCounter>")]
    pub counters: BTreeMap<String, Spanned<RawCounter>>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawTiming>")]
    pub timing: BTreeMap<String, Spanned<RawTiming>>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawEffect>")]
    pub effects: BTreeMap<String, Spanned<RawEffect>>,
    #[schemars(with = "Option<RawMana>")]
    pub mana: Option<Spanned<RawMana>>,
    #[schemars(with = "Option<RawLeaving>")]
    pub leaving: Option<Spanned<RawLeaving>>,
    #[schemars(with = "Option<RawGameEnd>")]
    pub game_end: Option<Spanned<RawGameEnd>>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawEnding>")]
    pub endings: BTreeMap<String, Spanned<RawEnding>>,
    /// `[objects]`: the game keeps the objects the host reports in play.
    #[schemars(with = "Option<RawObjects>")]
    pub objects: Option<Spanned<RawObjects>>,
    /// `[roles.ID]`: seat roles (the defender, the initiative).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawRole>")]
    pub roles: BTreeMap<String, Spanned<RawRole>>,
    #[serde(default)]
    #[schemars(with = "Vec<RawPhase>")]
    pub phase: Vec<Spanned<RawPhase>>,
}

/// `[roles.ID]`: a role one player holds at a time.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawRole {
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// `"active_player"`, `"next_player"` (default) or `"starting_player"`.
    #[schemars(with = "Option<String>")]
    pub initial: Option<Text>,
    /// `"turn"` (default: back to `initial` as each turn begins) or `"never"`.
    #[schemars(with = "Option<String>")]
    pub reset: Option<Text>,
    /// The holder takes the next turn.
    #[schemars(with = "Option<bool>")]
    pub next_turn: Option<Spanned<bool>>,
}

/// `[objects]`: objects in play the host reports, and the facts it sets
/// on them (`[objects.facts.ID]`).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawObjects {
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// Cited when a play names an object its player does not control.
    #[schemars(with = "Option<String>")]
    pub control_rule: Option<Text>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawObjectFact>")]
    pub facts: BTreeMap<String, Spanned<RawObjectFact>>,
}

/// `[objects.facts.ID]`: a yes/no the host sets on one object.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawObjectFact {
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// `"game"` (default: while the object is in play) or `"turn"`.
    #[schemars(with = "Option<String>")]
    pub reset: Option<Text>,
}

/// A structural effect a host or scenario can apply (an extra turn, an
/// extra combat, "skip your next draw step", "end the turn").
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawEffect {
    #[schemars(with = "String")]
    pub kind: Text,
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// For the designer and documentation tools only.
    #[allow(dead_code)]
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    /// `extra_turn`: `"player"` (default) or `"each_player"`.
    #[serde(rename = "for")]
    #[schemars(with = "Option<String>")]
    pub target: Option<Text>,
    /// `extra_phases`: the phases to add after the current one, in order.
    #[schemars(with = "Option<Vec<String>>")]
    pub phases: Option<Spanned<Vec<Text>>>,
    /// `extra_step` / `skip`: a step; `end_turn` / `end_phase`: where to go.
    #[schemars(with = "Option<String>")]
    pub step: Option<Text>,
    /// `skip` / `end_phase`: a phase.
    #[schemars(with = "Option<String>")]
    pub phase: Option<Text>,
    /// `skip`: the whole turn.
    #[schemars(with = "Option<bool>")]
    pub turn: Option<Spanned<bool>>,
    /// `extra_step`: `"this_step"` (500.9) or `"this_phase"` (500.10).
    #[schemars(with = "Option<String>")]
    pub after: Option<Text>,
    /// `end_turn` / `end_phase`: the step to continue with.
    #[schemars(with = "Option<String>")]
    pub goto: Option<Text>,
    /// Only during the player's own turn ("you get", 500.10a).
    #[schemars(with = "Option<bool>")]
    pub own_turn_only: Option<Spanned<bool>>,
    #[schemars(with = "Option<String>")]
    pub own_turn_rule: Option<Text>,
    /// `kind = "grant"`: the counter granted, and how much.
    #[schemars(with = "Option<String>")]
    pub counter: Option<Text>,
    #[schemars(with = "Option<i64>")]
    pub amount: Option<Spanned<i64>>,
    /// `skip`: a static effect, skipping every such step, phase or turn
    /// until the host ends it (614.10), not only the next one.
    #[schemars(with = "Option<bool>")]
    pub lasting: Option<Spanned<bool>>,
}

/// What happens when a player leaves the game. Without this table the turn
/// of a player who leaves goes on without them (800.4j).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawLeaving {
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// When the active player leaves, once the stack is empty play jumps to
    /// this step (GA ENDGAME 8: that turn's End phase).
    #[schemars(with = "Option<String>")]
    pub active_player_goto: Option<Text>,
}

/// The rules cited when the game ends by itself: the last side left wins,
/// and a player may leave (concede).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawGameEnd {
    #[schemars(with = "Option<String>")]
    pub last_side_rule: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub leave_rule: Option<Text>,
}

/// One way the game ends for a player: declared by the host, or checked by
/// the engine when it has an `if`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawEnding {
    /// `"wins"`, `"loses"` or `"draw"`.
    #[schemars(with = "String")]
    pub result: Text,
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// For the designer and documentation tools only.
    #[allow(dead_code)]
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    /// The condition the engine checks; without it the host declares it.
    #[serde(rename = "if")]
    #[schemars(with = "Option<String>")]
    pub condition: Option<Text>,
    /// `"active_player"` (default) or `"each_player"`.
    #[serde(rename = "for")]
    #[schemars(with = "Option<String>")]
    pub target: Option<Text>,
    /// Where the check runs: `turn_start`, `step_end`, `turn_end`, `counter_set`.
    #[schemars(with = "Option<Vec<String>>")]
    pub at: Option<Spanned<Vec<Text>>>,
    /// The check runs right after this turn-based action.
    #[schemars(with = "Option<String>")]
    pub after: Option<Text>,
}

/// Mana pools: when they empty (500.4; pre-2009: 300.3) and mana burn.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawMana {
    #[schemars(with = "Option<String>")]
    pub empties: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    #[schemars(with = "Option<bool>")]
    pub burn: Option<Spanned<bool>>,
    #[schemars(with = "Option<String>")]
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

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawGame {
    #[schemars(with = "String")]
    pub name: Text,
    #[schemars(with = "Option<String>")]
    pub edition: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub edition_date: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub source: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    #[schemars(with = "RawPlayers")]
    pub players: Spanned<RawPlayers>,
    #[schemars(with = "Option<String>")]
    pub turn_order: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub turn_effects_end: Option<Text>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawPlayers {
    #[schemars(with = "i64")]
    pub min: Spanned<i64>,
    #[schemars(with = "i64")]
    pub max: Spanned<i64>,
}

/// Words used when a trace is shown to people: Grand Archive says
/// "Opportunity" and "Effects Stack" where Magic says "priority" and "stack".
#[derive(Debug, Deserialize, Default, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawTerms {
    #[schemars(with = "Option<String>")]
    pub priority: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub stack: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub active_player: Option<Text>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawPriority {
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub first: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub first_rule: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub after_action: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub after_action_rule: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub after_resolve: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub after_resolve_rule: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub pass_rule: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub close: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub close_rule: Option<Text>,
    /// `triggers`: `"stack"` or `"bag"`.
    #[schemars(with = "Option<String>")]
    pub triggers: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub triggers_rule: Option<Text>,
    /// `resolve`: `"one"` (default) or `"whole_stack"`.
    #[schemars(with = "Option<String>")]
    pub resolve: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub resolve_rule: Option<Text>,
}

/// A variant (Archenemy) or a fact (the active player controls a Saga): a
/// yes/no the host or a scenario sets and conditions read.
#[derive(Debug, Deserialize, Default, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawFlag {
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    /// For the designer and documentation tools only.
    #[allow(dead_code)]
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    #[schemars(with = "Option<bool>")]
    pub default: Option<Spanned<bool>>,
}

#[derive(Debug, Deserialize, Default, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawCounter {
    #[schemars(with = "Option<String>")]
    pub reset: Option<Text>,
    /// `"game"` (default): one number; `"player"`: one per player (lands
    /// played, 305.2 — each player of a team may play one, 805.4c).
    #[schemars(with = "Option<String>")]
    pub per: Option<Text>,
    /// For the designer and documentation tools only.
    #[allow(dead_code)]
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// `start`: the value the counter is reset to.
    #[schemars(with = "Option<i64>")]
    pub start: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawTiming {
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// For the designer and documentation tools only.
    #[allow(dead_code)]
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub who: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub who_rule: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub stack: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub stack_rule: Option<Text>,
    #[schemars(with = "Option<Vec<String>>")]
    pub during: Option<Spanned<Vec<Text>>>,
    #[schemars(with = "Option<String>")]
    pub during_rule: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub effect: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub phase: Option<Text>,
    #[schemars(with = "Option<RawLimit>")]
    pub limit: Option<Spanned<RawLimit>>,
    #[serde(default)]
    #[schemars(with = "Vec<RawRequire>")]
    pub require: Vec<Spanned<RawRequire>>,
    /// `ends`: `"turn"` or `"phase"`, ended by a play at this class.
    #[schemars(with = "Option<String>")]
    pub ends: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub ends_rule: Option<Text>,
    /// `enters`: the optional phase a play elects.
    #[schemars(with = "Option<String>")]
    pub enters: Option<Text>,
    /// `cost = { counter, amount, rule }`.
    #[schemars(with = "Option<RawCost>")]
    pub cost: Option<Spanned<RawCost>>,
    /// `attributes = { NAME = number }`, read by `top.NAME`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, i64>")]
    pub attributes: BTreeMap<String, Spanned<i64>>,
    /// `by`: `"player"` (default) or `"object"`: a play is made by an
    /// object in play, named by its label.
    #[schemars(with = "Option<String>")]
    pub by: Option<Text>,
    /// `after`: who holds priority after a play at this class
    /// (`"actor"`, `"next_player"`, `"active_player"`).
    #[schemars(with = "Option<String>")]
    pub after: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub after_rule: Option<Text>,
    /// `claims`: the role the player who plays takes.
    #[schemars(with = "Option<String>")]
    pub claims: Option<Text>,
    /// `passes = "rest_of_window"`: the play is also the player's pass,
    /// for the rest of the window.
    #[schemars(with = "Option<String>")]
    pub passes: Option<Text>,
    /// `response_round = true`: all passing after the play returns to the
    /// active player instead of closing the window.
    #[schemars(with = "Option<bool>")]
    pub response_round: Option<Spanned<bool>>,
    /// `steps`: the on-demand step a play runs.
    #[schemars(with = "Option<String>")]
    pub steps: Option<Text>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct RawCost {
    #[schemars(with = "String")]
    pub counter: Text,
    #[schemars(with = "Option<i64>")]
    pub amount: Option<Spanned<i64>>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawLimit {
    /// The counter that counts the uses; not with `per = "object"`.
    #[schemars(with = "Option<String>")]
    pub counter: Option<Text>,
    /// `"object"`: uses are counted for each object (with `reset`).
    #[schemars(with = "Option<String>")]
    pub per: Option<Text>,
    /// With `per = "object"`: `"turn"` or `"game"` (while in play).
    #[schemars(with = "Option<String>")]
    pub reset: Option<Text>,
    #[schemars(with = "i64")]
    pub max: Spanned<i64>,
    #[schemars(with = "Option<String>")]
    pub raised_by: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawRequire {
    #[serde(rename = "if")]
    #[schemars(with = "String")]
    pub condition: Text,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub explain: Option<Text>,
}

/// A `skip` or `repeat` entry: a condition and the rule that makes it so.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawWhen {
    #[serde(rename = "if")]
    #[schemars(with = "String")]
    pub condition: Text,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawPhase {
    #[schemars(with = "String")]
    pub id: Text,
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub tags: Vec<Text>,
    #[schemars(with = "Option<String>")]
    pub counts_as: Option<Text>,
    #[schemars(with = "Option<bool>")]
    pub on_demand: Option<Spanned<bool>>,
    /// The phase is part of the turn only while this holds; otherwise it is
    /// left out silently (unlike `skip`, which reports the skip).
    #[schemars(with = "Option<String>")]
    pub only_if: Option<Text>,
    #[serde(default)]
    #[schemars(with = "Vec<RawWhen>")]
    pub skip: Vec<Spanned<RawWhen>>,
    #[serde(default)]
    #[schemars(with = "Vec<RawStep>")]
    pub step: Vec<Spanned<RawStep>>,
    // A phase without steps carries its body itself (see [`RawBody`]).
    #[schemars(with = "Option<Vec<RawStage>>")]
    pub actions: Option<Spanned<Vec<Spanned<RawStage>>>>,
    #[schemars(with = "Option<String>")]
    pub priority: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub priority_rule: Option<Text>,
    #[schemars(with = "Option<Vec<RawStage>>")]
    pub sequence: Option<Spanned<Vec<Spanned<RawStage>>>>,
    #[schemars(with = "Option<RawWhen>")]
    pub repeat: Option<Spanned<RawWhen>>,
    /// `optional = true`: happens only if the turn player elects it.
    #[schemars(with = "Option<bool>")]
    pub optional: Option<Spanned<bool>>,
    /// `between_turns = true`: runs after each turn, in no player's turn.
    #[schemars(with = "Option<bool>")]
    pub between_turns: Option<Spanned<bool>>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawStep {
    #[schemars(with = "String")]
    pub id: Text,
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub tags: Vec<Text>,
    #[schemars(with = "Option<String>")]
    pub only_if: Option<Text>,
    #[serde(default)]
    #[schemars(with = "Vec<RawWhen>")]
    pub skip: Vec<Spanned<RawWhen>>,
    #[schemars(with = "Option<Vec<RawStage>>")]
    pub actions: Option<Spanned<Vec<Spanned<RawStage>>>>,
    #[schemars(with = "Option<String>")]
    pub priority: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub priority_rule: Option<Text>,
    #[schemars(with = "Option<Vec<RawStage>>")]
    pub sequence: Option<Spanned<Vec<Spanned<RawStage>>>>,
    #[schemars(with = "Option<RawWhen>")]
    pub repeat: Option<Spanned<RawWhen>>,
    /// `on_demand = true`: run only by a play at a class with `steps`.
    #[schemars(with = "Option<bool>")]
    pub on_demand: Option<Spanned<bool>>,
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
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawStage {
    #[schemars(with = "Option<String>")]
    pub id: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub window: Option<Text>,
    /// Windows: `all_pass` (default) or `stack_empty` (a state-check window
    /// that ends once what was pending has resolved).
    #[schemars(with = "Option<String>")]
    pub close: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    #[serde(rename = "if")]
    #[schemars(with = "Option<String>")]
    pub condition: Option<Text>,
    #[schemars(with = "Option<RawAnswer>")]
    pub answer: Option<Spanned<RawAnswer>>,
    /// The action puts an object of this timing class on the stack for the
    /// active player every time it happens (pre-2009 combat damage, 310.1).
    #[schemars(with = "Option<String>")]
    pub play: Option<Text>,
    /// This action ends "until end of turn" effects (514.2; GA END 3).
    #[schemars(with = "Option<bool>")]
    pub ends_turn_effects: Option<Spanned<bool>>,
    /// `acts`: who acts in the window (`"all"` or `"active_player"`).
    #[schemars(with = "Option<String>")]
    pub acts: Option<Text>,
    /// This action puts waiting triggered abilities on the stack, with no
    /// priority given (GA EOC 1-2: triggers go on the stack before roles
    /// and intent are cleared).
    #[schemars(with = "Option<bool>")]
    pub stack_triggers: Option<Spanned<bool>>,
    /// Windows: while one of these holds, the holder may not pass.
    #[serde(default)]
    #[schemars(with = "Vec<RawWhen>")]
    pub refuse_pass: Vec<Spanned<RawWhen>>,
}

/// How the host answers a turn-based action hook.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawAnswer {
    /// Store the answer (a number) in this counter.
    #[schemars(with = "Option<String>")]
    pub counter: Option<Text>,
    /// Largest meaningful answer; random play picks within 0..=max.
    #[schemars(with = "Option<i64>")]
    pub max: Option<Spanned<i64>>,
    /// A yes answer makes the active player play this timing class (GA's
    /// materialization is a turn-based action that uses the stack).
    #[schemars(with = "Option<String>")]
    pub play: Option<Text>,
    /// The answer is a seat (1 = the first player), who takes this role.
    #[schemars(with = "Option<String>")]
    pub role: Option<Text>,
}

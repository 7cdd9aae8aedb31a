//! The scenario file format, as written (see docs/scenarios.md).

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

pub(crate) type Text = Spanned<String>;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawScenario {
    #[schemars(with = "RawHeader")]
    pub scenario: Spanned<RawHeader>,
    #[schemars(with = "RawSetup")]
    pub setup: Spanned<RawSetup>,
    #[serde(default)]
    #[schemars(with = "Vec<RawEntry>")]
    pub script: Vec<Spanned<RawEntry>>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawHeader {
    #[schemars(with = "String")]
    pub name: Text,
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub rules: Vec<Text>,
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    /// Where the situation comes from, e.g. `mtg.md §8 FIRST-DRAW-2P`.
    #[schemars(with = "Option<String>")]
    pub source: Option<Text>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawSetup {
    /// Path of the turn spec, relative to the scenario file.
    #[schemars(with = "String")]
    pub spec: Text,
    #[schemars(with = "Option<i64>")]
    pub players: Option<Spanned<i64>>,
    #[schemars(with = "Option<String>")]
    pub starting_player: Option<Text>,
    #[schemars(with = "Option<i64>")]
    pub turn: Option<Spanned<i64>>,
    #[schemars(with = "Option<String>")]
    pub active: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub phase: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub step: Option<Text>,
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub variants: Vec<Text>,
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub facts: Vec<Text>,
    /// Team number of each player, in seat order, for shared team turns.
    #[serde(default)]
    #[schemars(with = "Vec<i64>")]
    pub teams: Vec<Spanned<i64>>,
    /// Counter values at the start, by counter id.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, i64>")]
    pub counters: BTreeMap<String, Spanned<i64>>,
    /// Objects in play before the game starts, by label, with their
    /// controllers (`in_play = { "Mickey Mouse" = "P1" }`).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub in_play: BTreeMap<String, Text>,
    /// Standing answers to turn-based action hooks, by action id.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, i64>")]
    pub answers: BTreeMap<String, Spanned<i64>>,
    /// Include "end of ..." events in event lists.
    #[schemars(with = "Option<bool>")]
    pub show_ends: Option<Spanned<bool>>,
    /// Stop profiles by player, paths relative to the scenario file
    /// (`stops = { P1 = "../../../games/stops/mtg-default.toml" }`), for
    /// `pass_to_stop` (docs/stops.md).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub stops: BTreeMap<String, Text>,
}

/// One script entry: exactly one verb key, plus the modifiers it uses.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawEntry {
    #[schemars(with = "Option<String>")]
    pub pass: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub pass_until: Option<Text>,
    /// `pass_to_stop = "next_stop"` (or `end_of_turn`, `stack_changes`,
    /// `resolve`, `advance`, `step` with `at`): a player (`by`, else the
    /// holder) gives their client that command, and the auto-passer passes
    /// by everyone's stop profile until someone is asked.
    #[schemars(with = "Option<String>")]
    pub pass_to_stop: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub play: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub trigger: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub set_fact: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub clear_fact: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub answer: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub on_begin: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub on_resolve: Option<Text>,
    #[schemars(with = "Option<RawExpect>")]
    pub expect: Option<Spanned<RawExpect>>,
    #[schemars(with = "Option<RawIllegal>")]
    pub expect_illegal: Option<Spanned<RawIllegal>>,
    #[schemars(with = "Option<Vec<String>>")]
    pub expect_events: Option<Spanned<Vec<Text>>>,
    #[schemars(with = "Option<Vec<String>>")]
    pub expect_trace: Option<Spanned<Vec<Text>>>,
    /// These lines happened since the last event check, in this order,
    /// possibly with others between them.
    #[schemars(with = "Option<Vec<String>>")]
    pub expect_includes: Option<Spanned<Vec<Text>>>,
    #[schemars(with = "Option<String>")]
    pub effect: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub leave: Option<Text>,
    /// `declare_ending = "id"` (with `by`): the host declares an ending.
    #[schemars(with = "Option<String>")]
    pub declare_ending: Option<Text>,
    /// `set_counter = "id"` (with `value`, and `by` for a per-player one).
    #[schemars(with = "Option<String>")]
    pub set_counter: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub delay: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub until: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub add_mana: Option<Text>,
    /// `end_until = "label"`: the host ends an effect started with `until`.
    #[schemars(with = "Option<String>")]
    pub end_until: Option<Text>,
    /// `enter = "label"` (with `by`): the host reports an object entering
    /// play under `by`'s control.
    #[schemars(with = "Option<String>")]
    pub enter: Option<Text>,
    /// `leave_play = "label"`: the host reports an object leaving play.
    #[schemars(with = "Option<String>")]
    pub leave_play: Option<Text>,
    /// `gain_control = "label"` (with `by`): `by` gains control of it.
    #[schemars(with = "Option<String>")]
    pub gain_control: Option<Text>,
    /// `choose = "label"` (with `by`): resolve this trigger from the bag.
    #[schemars(with = "Option<String>")]
    pub choose: Option<Text>,
    // modifiers
    #[schemars(with = "Option<String>")]
    pub at: Option<Text>,
    #[schemars(with = "Option<bool>")]
    pub own_turn: Option<Spanned<bool>>,
    #[schemars(with = "Option<String>")]
    pub scope: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub by: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub label: Option<Text>,
    #[schemars(with = "Option<i64>")]
    pub value: Option<Spanned<i64>>,
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub triggers: Vec<Text>,
    #[schemars(with = "Option<i64>")]
    pub turn: Option<Spanned<i64>>,
    /// `end_effect`: the host ends a lasting effect it applied.
    #[schemars(with = "Option<String>")]
    pub end_effect: Option<Text>,
    /// `effect`: the other player the effect names (`control_turn`).
    #[schemars(with = "Option<String>")]
    pub target: Option<Text>,
    /// `effect`: triggers that triggered as the effect's source resolved
    /// and are not on the stack yet (723.1a).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub pending: Vec<Text>,
    /// `delay`: only in the controller's next turn, gone when it ends.
    #[schemars(with = "Option<bool>")]
    pub next_turn: Option<Spanned<bool>>,
}

#[derive(Debug, Deserialize, Default, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawExpect {
    #[schemars(with = "Option<i64>")]
    pub turn: Option<Spanned<i64>>,
    #[schemars(with = "Option<String>")]
    pub active: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub phase: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub step: Option<Text>,
    #[schemars(with = "Option<i64>")]
    pub phase_number: Option<Spanned<i64>>,
    #[schemars(with = "Option<i64>")]
    pub repeat: Option<Spanned<i64>>,
    #[schemars(with = "Option<String>")]
    pub holder: Option<Text>,
    #[schemars(with = "Option<Vec<String>>")]
    pub stack: Option<Spanned<Vec<Text>>>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, i64>")]
    pub counters: BTreeMap<String, Spanned<i64>>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, bool>")]
    pub facts: BTreeMap<String, Spanned<bool>>,
    #[schemars(with = "Option<String>")]
    pub status: Option<Text>,
    /// The players who won a game that is over (`[]` for a draw).
    #[schemars(with = "Option<Vec<String>>")]
    pub winners: Option<Spanned<Vec<Text>>>,
    /// Why the last `pass_to_stop` stopped (`stop P2 end stack_grew`).
    #[schemars(with = "Option<String>")]
    pub stopped: Option<Text>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawIllegal {
    #[schemars(with = "Option<String>")]
    pub pass: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub play: Option<Text>,
    #[schemars(with = "Option<String>")]
    pub by: Option<Text>,
    /// The play's label: for a class with `by = "object"`, the object.
    #[schemars(with = "Option<String>")]
    pub label: Option<Text>,
    /// The rule the refusal must cite.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// `not_holder`, `not_active_player`, `active_player`, `stack_not_empty`,
    /// `wrong_step`, `limit_reached`, `requirement`, `not_controller`...
    #[schemars(with = "Option<String>")]
    pub reason: Option<Text>,
}

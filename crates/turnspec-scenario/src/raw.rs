//! The scenario file format, as written (see docs/scenarios.md).

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

pub(crate) type Text = Spanned<String>;

#[derive(Debug, Deserialize)]
pub(crate) struct RawScenario {
    pub scenario: Spanned<RawHeader>,
    pub setup: Spanned<RawSetup>,
    #[serde(default)]
    pub script: Vec<Spanned<RawEntry>>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawHeader {
    pub name: Text,
    #[serde(default)]
    pub rules: Vec<Text>,
    pub description: Option<Text>,
    /// Where the situation comes from, e.g. `mtg.md §8 FIRST-DRAW-2P`.
    pub source: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawSetup {
    /// Path of the turn spec, relative to the scenario file.
    pub spec: Text,
    pub players: Option<Spanned<i64>>,
    pub starting_player: Option<Text>,
    pub turn: Option<Spanned<i64>>,
    pub active: Option<Text>,
    pub phase: Option<Text>,
    pub step: Option<Text>,
    #[serde(default)]
    pub variants: Vec<Text>,
    #[serde(default)]
    pub facts: Vec<Text>,
    /// Team number of each player, in seat order, for shared team turns.
    #[serde(default)]
    pub teams: Vec<Spanned<i64>>,
    /// Counter values at the start, by counter id.
    #[serde(default)]
    pub counters: BTreeMap<String, Spanned<i64>>,
    /// Standing answers to turn-based action hooks, by action id.
    #[serde(default)]
    pub answers: BTreeMap<String, Spanned<i64>>,
    /// Include "end of ..." events in event lists.
    pub show_ends: Option<Spanned<bool>>,
}

/// One script entry: exactly one verb key, plus the modifiers it uses.
#[derive(Debug, Deserialize)]
pub(crate) struct RawEntry {
    pub pass: Option<Text>,
    pub pass_until: Option<Text>,
    pub play: Option<Text>,
    pub trigger: Option<Text>,
    pub set_fact: Option<Text>,
    pub clear_fact: Option<Text>,
    pub answer: Option<Text>,
    pub on_begin: Option<Text>,
    pub on_resolve: Option<Text>,
    pub expect: Option<Spanned<RawExpect>>,
    pub expect_illegal: Option<Spanned<RawIllegal>>,
    pub expect_events: Option<Spanned<Vec<Text>>>,
    pub expect_trace: Option<Spanned<Vec<Text>>>,
    /// These lines happened since the last event check, in this order,
    /// possibly with others between them.
    pub expect_includes: Option<Spanned<Vec<Text>>>,
    pub effect: Option<Text>,
    pub leave: Option<Text>,
    pub delay: Option<Text>,
    pub until: Option<Text>,
    pub add_mana: Option<Text>,
    // modifiers
    pub at: Option<Text>,
    pub own_turn: Option<Spanned<bool>>,
    pub scope: Option<Text>,
    pub by: Option<Text>,
    pub label: Option<Text>,
    pub value: Option<Spanned<i64>>,
    #[serde(default)]
    pub triggers: Vec<Text>,
    pub turn: Option<Spanned<i64>>,
    /// `end_effect`: the host ends a lasting effect it applied.
    pub end_effect: Option<Text>,
    /// `effect`: the other player the effect names (`control_turn`).
    pub target: Option<Text>,
    /// `effect`: triggers that triggered as the effect's source resolved
    /// and are not on the stack yet (723.1a).
    #[serde(default)]
    pub pending: Vec<Text>,
    /// `delay`: only in the controller's next turn, gone when it ends.
    pub next_turn: Option<Spanned<bool>>,
}

#[derive(Debug, Deserialize, Default)]
pub(crate) struct RawExpect {
    pub turn: Option<Spanned<i64>>,
    pub active: Option<Text>,
    pub phase: Option<Text>,
    pub step: Option<Text>,
    pub phase_number: Option<Spanned<i64>>,
    pub repeat: Option<Spanned<i64>>,
    pub holder: Option<Text>,
    pub stack: Option<Spanned<Vec<Text>>>,
    #[serde(default)]
    pub counters: BTreeMap<String, Spanned<i64>>,
    #[serde(default)]
    pub facts: BTreeMap<String, Spanned<bool>>,
    pub status: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawIllegal {
    pub pass: Option<Text>,
    pub play: Option<Text>,
    pub by: Option<Text>,
    /// The rule the refusal must cite.
    pub rule: Option<Text>,
    /// `not_holder`, `not_active_player`, `active_player`, `stack_not_empty`,
    /// `wrong_step`, `limit_reached`, `requirement`.
    pub reason: Option<Text>,
}

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

/// A turn spec: one game's turn structure, as read from its TOML file.
#[derive(Debug, Deserialize, Default, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawSpec {
    /// The spec this one changes (see [`crate::inherit`]); merged before
    /// deserialising, so only its presence is seen here.
    #[allow(dead_code)]
    #[schemars(with = "Option<String>")]
    pub extends: Option<Text>,
    /// `[game]` (required): the game's name, edition, player counts and turn
    /// order.
    #[schemars(with = "Option<RawGame>")]
    pub game: Option<Spanned<RawGame>>,
    /// `[terms]`: the words traces and refusal messages use for priority, the
    /// stack and the active player.
    #[serde(default)]
    pub terms: RawTerms,
    /// `[priority]`: how priority moves inside an open window. Without it the
    /// active player receives priority first and the player who plays keeps it.
    #[schemars(with = "Option<RawPriority>")]
    pub priority: Option<Spanned<RawPriority>>,
    /// `[variants.ID]`: ways of playing (Archenemy), chosen when the game is
    /// set up and never changed; conditions read them as `variant.ID`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawFlag>")]
    pub variants: BTreeMap<String, Spanned<RawFlag>>,
    /// `[facts.ID]`: yes/no facts about the cards that the host or a scenario
    /// sets at any time; conditions read them as `fact.ID`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawFlag>")]
    pub facts: BTreeMap<String, Spanned<RawFlag>>,
    /// `[counters.ID]`: numbers the engine keeps (answers, uses of limited
    /// plays, resources); conditions read them as `counter.ID`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawCounter>")]
    pub counters: BTreeMap<String, Spanned<RawCounter>>,
    /// `[timing.ID]`: timing classes, the kinds of play players make and when
    /// each is allowed.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawTiming>")]
    pub timing: BTreeMap<String, Spanned<RawTiming>>,
    /// `[effects.ID]`: structural effects the host or a scenario applies by id
    /// to reshape the turn (an extra turn, a skipped step, the end of the turn).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawEffect>")]
    pub effects: BTreeMap<String, Spanned<RawEffect>>,
    /// `[mana]`: when unspent mana leaves the pools, and mana burn. Without it
    /// pools empty at the end of every step and phase, with no burn.
    #[schemars(with = "Option<RawMana>")]
    pub mana: Option<Spanned<RawMana>>,
    /// `[leaving]`: what the turn does when its active player leaves the game.
    /// Without it the turn goes on without them.
    #[schemars(with = "Option<RawLeaving>")]
    pub leaving: Option<Spanned<RawLeaving>>,
    /// `[game_end]`: the rules cited when the last side left wins and when a
    /// player concedes.
    #[schemars(with = "Option<RawGameEnd>")]
    pub game_end: Option<Spanned<RawGameEnd>>,
    /// `[endings.ID]`: the ways the game ends for a player (wins, loses or a
    /// draw), declared by the host or checked by the engine.
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
    /// `[[phase]]`: the phases of a turn; their order in the file is their
    /// order in the turn.
    #[serde(default)]
    #[schemars(with = "Vec<RawPhase>")]
    pub phase: Vec<Spanned<RawPhase>>,
}

/// `[roles.ID]`: a role one player holds at a time.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawRole {
    /// Shown in traces and refusals; default: the id.
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    /// What the role is, for people; the engine ignores it.
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    /// Cited when the role changes hands.
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
    /// What an object in play is; cited by the object events.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// Cited when a play names an object its player does not control.
    #[schemars(with = "Option<String>")]
    pub control_rule: Option<Text>,
    /// `[objects.facts.ID]`: yes/no facts the host sets on one object, read
    /// by plays made by an object as `object.ID`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RawObjectFact>")]
    pub facts: BTreeMap<String, Spanned<RawObjectFact>>,
}

/// `[objects.facts.ID]`: a yes/no the host sets on one object.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawObjectFact {
    /// Display name; default: the id.
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    /// What the fact means, for people; the engine ignores it.
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    /// The rule the fact comes from.
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
    /// What the effect does (required): `"extra_turn"`, `"extra_phases"`,
    /// `"extra_step"`, `"skip"`, `"end_turn"`, `"end_phase"`, `"grant"`,
    /// `"reverse_turn_order"` or `"control_turn"`.
    #[schemars(with = "String")]
    pub kind: Text,
    /// Display name; default: the id.
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    /// Cited on the `effect` event, and on anything the effect skips.
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
    /// Cited when `own_turn_only` makes the effect do nothing; default: `rule`.
    #[schemars(with = "Option<String>")]
    pub own_turn_rule: Option<Text>,
    /// `kind = "grant"`: the counter granted, and how much.
    #[schemars(with = "Option<String>")]
    pub counter: Option<Text>,
    /// `grant`: how much the counter goes up (0 to 65535); default 1.
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
    /// The rule behind it; kept with the spec, not shown in traces yet.
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
    /// Cited when the last side left in the game wins.
    #[schemars(with = "Option<String>")]
    pub last_side_rule: Option<Text>,
    /// Cited when a player leaves by their own move (concedes).
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
    /// Shown in traces; default: the id.
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    /// Cited on the `ending` event, and on `game_over` for a win or a draw.
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
    /// When pools empty: `"step"` (default: at the end of every step and
    /// every phase) or `"phase"` (only at the end of every phase, as before 2009).
    #[schemars(with = "Option<String>")]
    pub empties: Option<Text>,
    /// Cited when a pool empties.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// Mana burn: the owner loses one life per unspent mana as a pool empties
    /// (reported only; life totals belong to the host). Default false.
    #[schemars(with = "Option<bool>")]
    pub burn: Option<Spanned<bool>>,
    /// Cited instead of `rule` when `burn` is on.
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

/// `[game]`: the game's name and edition, its player counts and its turn
/// order.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawGame {
    /// The game's name (required), shown by `check` and `run`.
    #[schemars(with = "String")]
    pub name: Text,
    /// Which edition of the rules the spec follows.
    #[schemars(with = "Option<String>")]
    pub edition: Option<Text>,
    /// The date of that edition.
    #[schemars(with = "Option<String>")]
    pub edition_date: Option<Text>,
    /// Where the rules can be read.
    #[schemars(with = "Option<String>")]
    pub source: Option<Text>,
    /// The rule that describes the turn as a whole.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// The allowed player counts (required): `{ min, max }`, each from 1 to 8.
    #[schemars(with = "RawPlayers")]
    pub players: Spanned<RawPlayers>,
    /// The order of turns, which passing priority and APNAP order follow too:
    /// `"clockwise"` (default) or `"counterclockwise"`.
    #[schemars(with = "Option<String>")]
    pub turn_order: Option<Text>,
    /// Where "until end of turn" effects end: `"turn_end"` (default: at an
    /// action with `ends_turn_effects`, and at the latest as the turn ends) or
    /// `"action"` (only at such an action, so they can last into a later turn).
    #[schemars(with = "Option<String>")]
    pub turn_effects_end: Option<Text>,
}

/// `players = { min, max }`: the player counts the game allows.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawPlayers {
    /// The fewest players the game allows (1 to 8).
    #[schemars(with = "i64")]
    pub min: Spanned<i64>,
    /// The most players the game allows (1 to 8, not below `min`).
    #[schemars(with = "i64")]
    pub max: Spanned<i64>,
}

/// Words used when a trace is shown to people: Grand Archive says
/// "Opportunity" and "Effects Stack" where Magic says "priority" and "stack".
#[derive(Debug, Deserialize, Default, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawTerms {
    /// The word for priority; default "priority" (Grand Archive: "Opportunity").
    #[schemars(with = "Option<String>")]
    pub priority: Option<Text>,
    /// The word for the stack; default "stack" (Grand Archive: "Effects Stack").
    #[schemars(with = "Option<String>")]
    pub stack: Option<Text>,
    /// The words for the active player; default "active player" (Grand
    /// Archive: "turn player").
    #[schemars(with = "Option<String>")]
    pub active_player: Option<Text>,
}

/// `[priority]`: how priority moves inside an open window. Every `*_rule`
/// key only names the rule that traces cite for that move.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawPriority {
    /// Cited when someone who does not hold priority tries to act.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// Who receives priority when a window opens: `"active_player"`, the
    /// only value and the default.
    #[schemars(with = "Option<String>")]
    pub first: Option<Text>,
    /// Cited when a window with no rule of its own opens, and when play
    /// returns to a window after an on-demand phase.
    #[schemars(with = "Option<String>")]
    pub first_rule: Option<Text>,
    /// Who holds priority after a player plays something: `"actor"`
    /// (default), `"active_player"` or `"next_player"` (the next in turn order
    /// after the one who played). A timing class's `after` can say otherwise.
    #[schemars(with = "Option<String>")]
    pub after_action: Option<Text>,
    /// Cited when priority is handed on after a play.
    #[schemars(with = "Option<String>")]
    pub after_action_rule: Option<Text>,
    /// Who receives priority after the top of the stack resolves:
    /// `"active_player"`, the only value and the default.
    #[schemars(with = "Option<String>")]
    pub after_resolve: Option<Text>,
    /// Cited when priority is handed on after a resolution.
    #[schemars(with = "Option<String>")]
    pub after_resolve_rule: Option<Text>,
    /// Cited when priority moves to the next player after a pass.
    #[schemars(with = "Option<String>")]
    pub pass_rule: Option<Text>,
    /// When a window closes: `"all_pass"`, the only value and the default
    /// (every player passes in a row with an empty stack).
    #[schemars(with = "Option<String>")]
    pub close: Option<Text>,
    /// Cited on every resolution.
    #[schemars(with = "Option<String>")]
    pub close_rule: Option<Text>,
    /// `triggers`: `"stack"` or `"bag"`.
    #[schemars(with = "Option<String>")]
    pub triggers: Option<Text>,
    /// The rule behind how waiting triggers are ordered (`triggers`).
    #[schemars(with = "Option<String>")]
    pub triggers_rule: Option<Text>,
    /// `resolve`: `"one"` (default) or `"whole_stack"`.
    #[schemars(with = "Option<String>")]
    pub resolve: Option<Text>,
    /// Cited when the whole stack resolves at once.
    #[schemars(with = "Option<String>")]
    pub resolve_rule: Option<Text>,
}

/// A variant (Archenemy) or a fact (the active player controls a Saga): a
/// yes/no the host or a scenario sets and conditions read.
#[derive(Debug, Deserialize, Default, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawFlag {
    /// Display name; default: the id.
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    /// For the designer and documentation tools only.
    #[allow(dead_code)]
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    /// The rule the variant or fact comes from.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// The value when the game starts, unless the host or a scenario sets it;
    /// default false.
    #[schemars(with = "Option<bool>")]
    pub default: Option<Spanned<bool>>,
}

/// `[counters.ID]`: a small whole number (0 to 65535) the engine keeps,
/// read in conditions as `counter.ID`.
#[derive(Debug, Deserialize, Default, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawCounter {
    /// When it goes back to its `start` value: `"game"` (never), `"turn"`
    /// (default: as each turn begins), `"phase"` or `"step"` (as each one
    /// begins). A skipped phase or step resets nothing.
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
    /// The rule the counter serves.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// `start`: the value the counter is reset to.
    #[schemars(with = "Option<i64>")]
    pub start: Option<Spanned<i64>>,
}

/// `[timing.ID]`: a timing class, a kind of play (sorcery speed, a land
/// play, an attack) and the conditions for making it.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawTiming {
    /// Display name ("sorcery speed"); default: the id.
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    /// The rule for the class. Refusals cite it unless a more specific
    /// `*_rule` key is given.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// For the designer and documentation tools only.
    #[allow(dead_code)]
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    /// Which holder of priority may play at the class: `"any"` (default),
    /// `"active_player"`, `"non_active_player"`, a role id, or `"nobody"`
    /// (only a turn-based action's `play` uses the class).
    #[schemars(with = "Option<String>")]
    pub who: Option<Text>,
    /// Cited when `who` refuses a play; default: `rule`.
    #[schemars(with = "Option<String>")]
    pub who_rule: Option<Text>,
    /// `"any"` (default) or `"empty"`: only while the stack is empty.
    #[schemars(with = "Option<String>")]
    pub stack: Option<Text>,
    /// Cited when `stack` refuses a play; default: `rule`.
    #[schemars(with = "Option<String>")]
    pub stack_rule: Option<Text>,
    /// Where it may be used: phase ids (all of the phase's steps), step ids and
    /// tags. Default: every step with a window.
    #[schemars(with = "Option<Vec<String>>")]
    pub during: Option<Spanned<Vec<Text>>>,
    /// Cited when `during` refuses a play; default: `rule`.
    #[schemars(with = "Option<String>")]
    pub during_rule: Option<Text>,
    /// What a play does: `"stack"` (default: an object goes on the stack),
    /// `"special"` (nothing goes on the stack, nobody can respond) or
    /// `"start_phase"` (the on-demand `phase` begins at once).
    #[schemars(with = "Option<String>")]
    pub effect: Option<Text>,
    /// With `effect = "start_phase"` only, and required there: the on-demand
    /// phase a play starts.
    #[schemars(with = "Option<String>")]
    pub phase: Option<Text>,
    /// `{ counter, max, raised_by, rule }`: at most `max` uses until the counter
    /// resets; or `{ per = "object", max, reset, rule }`: at most `max` per object.
    #[schemars(with = "Option<RawLimit>")]
    pub limit: Option<Spanned<RawLimit>>,
    /// Extra conditions, `{ if, rule, explain }`: every one must hold for a
    /// play to be accepted.
    #[serde(default)]
    #[schemars(with = "Vec<RawRequire>")]
    pub require: Vec<Spanned<RawRequire>>,
    /// `ends`: `"turn"` or `"phase"`, ended by a play at this class.
    #[schemars(with = "Option<String>")]
    pub ends: Option<Text>,
    /// The rule that says a play ends the phase or the turn (with `ends` only).
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
    /// Cited when priority is handed on after a play at this class.
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

/// `cost = { counter, amount, rule }`: what a play at a timing class spends.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(crate) struct RawCost {
    /// The counter (a resource) a play spends (required).
    #[schemars(with = "String")]
    pub counter: Text,
    /// How much a play spends; default 1. A play is refused when the counter
    /// holds less.
    #[schemars(with = "Option<i64>")]
    pub amount: Option<Spanned<i64>>,
    /// Cited when a play is refused because it cannot be paid.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
}

/// `limit`: how many times a timing class may be used, counted on a
/// counter or (`per = "object"`) for each object.
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
    /// The most uses allowed (0 to 65535; required). `raised_by` adds to it.
    #[schemars(with = "i64")]
    pub max: Spanned<i64>,
    /// A second counter whose value is added to `max`: effects that grant to
    /// it raise the limit (an additional land play).
    #[schemars(with = "Option<String>")]
    pub raised_by: Option<Text>,
    /// Cited when a play is refused because the limit is reached.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
}

/// One `require` entry of a timing class: a condition every play at the
/// class needs.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawRequire {
    /// The condition a play needs (required).
    #[serde(rename = "if")]
    #[schemars(with = "String")]
    pub condition: Text,
    /// Cited when the condition refuses a play.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// The sentence a refusal shows; default: the condition's text.
    #[schemars(with = "Option<String>")]
    pub explain: Option<Text>,
}

/// A `skip` or `repeat` entry: a condition and the rule that makes it so.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawWhen {
    /// The condition that makes it happen (required).
    #[serde(rename = "if")]
    #[schemars(with = "String")]
    pub condition: Text,
    /// Cited in the trace when it does.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
}

/// `[[phase]]`: one phase of the turn, in turn order. It has
/// `[[phase.step]]` tables or a body of its own, not both.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawPhase {
    /// The phase's id (required): letters, digits, `_` and `-`, unique among
    /// phase and step ids.
    #[schemars(with = "String")]
    pub id: Text,
    /// Display name; default: the id, with `_` and `-` shown as spaces.
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    /// Cited when the phase begins.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// Names a timing class's `during` can use for this phase.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub tags: Vec<Text>,
    /// The phase's kind for `phase_number`: phases with the same `counts_as`
    /// are counted together. Default: the id.
    #[schemars(with = "Option<String>")]
    pub counts_as: Option<Text>,
    /// `true`: not part of the regular turn; only a play at a class with
    /// `effect = "start_phase"` starts it. Default false.
    #[schemars(with = "Option<bool>")]
    pub on_demand: Option<Spanned<bool>>,
    /// The phase is part of the turn only while this holds; otherwise it is
    /// left out silently (unlike `skip`, which reports the skip).
    #[schemars(with = "Option<String>")]
    pub only_if: Option<Text>,
    /// `{ if, rule }` entries: if any condition holds as the phase would
    /// begin, the phase is skipped and the trace cites that entry's rule.
    #[serde(default)]
    #[schemars(with = "Vec<RawWhen>")]
    pub skip: Vec<Spanned<RawWhen>>,
    /// `[[phase.step]]`: the phase's steps, in order.
    #[serde(default)]
    #[schemars(with = "Vec<RawStep>")]
    pub step: Vec<Spanned<RawStep>>,
    // A phase without steps carries its body itself (see [`RawBody`]).
    /// Phase without steps only: turn-based actions run in order, before the
    /// `priority` window.
    #[schemars(with = "Option<Vec<RawStage>>")]
    pub actions: Option<Spanned<Vec<Spanned<RawStage>>>>,
    /// Phase without steps only: the window after `actions`: `"always"`,
    /// `"if_pending"` or `"never"` (the default: no window).
    #[schemars(with = "Option<String>")]
    pub priority: Option<Text>,
    /// Cited when the `priority` window opens.
    #[schemars(with = "Option<String>")]
    pub priority_rule: Option<Text>,
    /// Phase without steps only: turn-based actions and windows in any order,
    /// instead of `actions` and `priority`.
    #[schemars(with = "Option<Vec<RawStage>>")]
    pub sequence: Option<Spanned<Vec<Spanned<RawStage>>>>,
    /// Phase without steps only: `{ if, rule }`, checked when the body ends;
    /// if the condition holds, the body runs again.
    #[schemars(with = "Option<RawWhen>")]
    pub repeat: Option<Spanned<RawWhen>>,
    /// `optional = true`: happens only if the turn player elects it.
    #[schemars(with = "Option<bool>")]
    pub optional: Option<Spanned<bool>>,
    /// `between_turns = true`: runs after each turn, in no player's turn.
    #[schemars(with = "Option<bool>")]
    pub between_turns: Option<Spanned<bool>>,
}

/// `[[phase.step]]`: one step of a phase, in order.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RawStep {
    /// The step's id (required): letters, digits, `_` and `-`, unique among
    /// phase and step ids.
    #[schemars(with = "String")]
    pub id: Text,
    /// Display name; default: the id, with `_` and `-` shown as spaces.
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    /// Cited when the step begins (when it begins again by `repeat`, the
    /// repeat's rule is cited instead).
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// Names a timing class's `during` can use for this step.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub tags: Vec<Text>,
    /// The step is part of the phase only while this condition holds;
    /// otherwise it is left out with no event.
    #[schemars(with = "Option<String>")]
    pub only_if: Option<Text>,
    /// `{ if, rule }` entries: if any condition holds as the step would begin
    /// (checked again on each repeat), the step is skipped and the trace says why.
    #[serde(default)]
    #[schemars(with = "Vec<RawWhen>")]
    pub skip: Vec<Spanned<RawWhen>>,
    /// Turn-based actions run in order, before the `priority` window.
    #[schemars(with = "Option<Vec<RawStage>>")]
    pub actions: Option<Spanned<Vec<Spanned<RawStage>>>>,
    /// The window after `actions`: `"always"`, `"if_pending"` or `"never"`
    /// (the default: no window).
    #[schemars(with = "Option<String>")]
    pub priority: Option<Text>,
    /// Cited when the `priority` window opens.
    #[schemars(with = "Option<String>")]
    pub priority_rule: Option<Text>,
    /// Turn-based actions and windows in any order, instead of `actions` and
    /// `priority`.
    #[schemars(with = "Option<Vec<RawStage>>")]
    pub sequence: Option<Spanned<Vec<Spanned<RawStage>>>>,
    /// `{ if, rule }`, checked when the step ends: if the condition holds, the
    /// step begins again.
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
    /// Makes the entry a turn-based action: its id, unique in the spec (the
    /// host answers actions by id).
    #[schemars(with = "Option<String>")]
    pub id: Option<Text>,
    /// Makes the entry a priority window (in `sequence` only): `"always"`, or
    /// `"if_pending"` (opens only if a trigger waits or the stack is not empty).
    #[schemars(with = "Option<String>")]
    pub window: Option<Text>,
    /// Windows: `all_pass` (default) or `stack_empty` (a state-check window
    /// that ends once what was pending has resolved).
    #[schemars(with = "Option<String>")]
    pub close: Option<Text>,
    /// Shown in the trace; for an action, default: the id.
    #[schemars(with = "Option<String>")]
    pub name: Option<Text>,
    /// Cited when the action happens or the window opens.
    #[schemars(with = "Option<String>")]
    pub rule: Option<Text>,
    /// Actions only: checked when the action's turn comes; if it is false the
    /// action does not happen and leaves no trace.
    #[serde(rename = "if")]
    #[schemars(with = "Option<String>")]
    pub condition: Option<Text>,
    /// Actions only: `{ counter, max, play, role }`, a question the action asks
    /// the host; without it the answer is always 0.
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

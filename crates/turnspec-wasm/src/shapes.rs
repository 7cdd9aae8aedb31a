//! The JSON shapes JavaScript sees, as serde types: game options, hook
//! contexts and what hooks return, diagnostics, trace events, errors.
//! [`json_schema`] describes them (with the protocol's `Move` and `State`)
//! as one JSON Schema, `npm/schema.json`, from which `scripts/wasm.sh`
//! generates the package's TypeScript types (`types.d.ts`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The options of `new Game(spec, options)` (all optional). The hooks are
/// read apart (they are functions, not JSON), under `hooks`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GameOptions {
    /// How many players (default: 2, or the spec's minimum if higher).
    #[serde(default)]
    pub players: Option<u8>,
    /// Who takes the first turn, `"P1"`... (default `"P1"`).
    #[serde(default)]
    pub starting_player: Option<String>,
    /// Variants chosen (`[variants.ID]` ids).
    #[serde(default)]
    pub variants: Vec<String>,
    /// Facts set at the start (`[facts.ID]` ids).
    #[serde(default)]
    pub facts: Vec<String>,
    /// A team number (0 to 7) for each player, for shared team turns.
    #[serde(default)]
    pub teams: Vec<u8>,
    /// The game stops (status `turn_limit`) once this turn is over.
    #[serde(default)]
    pub turn_limit: Option<u32>,
    /// Keep the events for `events()` and `trace()` (default true); false
    /// keeps none, for speed.
    #[serde(default)]
    pub record_events: Option<bool>,
    /// The host's hooks (functions; read apart, so any value passes here).
    #[serde(default)]
    #[schemars(skip)]
    pub hooks: Option<Value>,
}

impl GameOptions {
    /// The protocol's set-up of the same game.
    pub fn setup(&self) -> turnspec_protocol::GameSetup {
        turnspec_protocol::GameSetup {
            players: self.players,
            starting_player: self.starting_player.clone(),
            variants: self.variants.clone(),
            facts: self.facts.clone(),
            teams: self.teams.clone(),
            turn_limit: self.turn_limit,
        }
    }
}

/// What every hook is told: where the game is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Context {
    /// The turn number, from 1.
    pub turn: u32,
    /// The active player, `"P1"`...
    pub active: String,
    /// The phase id.
    pub phase: String,
    /// The step id (a step-less phase: the phase's own id).
    pub step: String,
    /// How many times the step already ran in a row (0 the first time).
    pub repeat: u8,
}

/// `turnAction(ctx)`: a turn-based action is performed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TurnActionContext {
    /// Where the game is.
    #[serde(flatten)]
    pub at: Context,
    /// The turn-based action id (`declare_attackers`...).
    pub action: String,
}

/// `played(ctx)`: a player played something (on the stack now, before
/// anyone receives priority).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PlayedContext {
    /// Where the game is.
    #[serde(flatten)]
    pub at: Context,
    /// Who played it.
    pub player: String,
    /// The timing class id.
    pub timing: String,
    /// The host's label for what was played.
    pub label: u32,
}

/// `stepBegan(ctx)`: a step (or a step-less phase) began.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct StepBeganContext {
    /// Where the game is.
    #[serde(flatten)]
    pub at: Context,
}

/// `resolved(ctx)`: the top object of the stack resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ResolvedContext {
    /// Where the game is.
    #[serde(flatten)]
    pub at: Context,
    /// What resolved.
    pub object: StackObject,
}

/// An object on the stack, as hooks see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct StackObject {
    /// Its controller.
    pub controller: String,
    /// `play`, `trigger` or `turn_action`.
    pub kind: String,
    /// The timing class id, for a play.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<String>,
    /// The turn-based action id, for a turn-based action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The host's label.
    pub label: u32,
}

/// A triggered ability a hook reports: it goes on the stack the next time
/// a player would receive priority.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trigger {
    /// Its controller, `"P1"`...
    pub player: String,
    /// The host's label for it.
    pub label: u32,
}

/// What `turnAction` may return instead of a bare number: the answer and
/// the triggers it causes.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnActionAnswer {
    /// The answer (how many attackers...; clamped by the engine to the
    /// action's maximum). Default 0.
    #[serde(default)]
    pub answer: f64,
    /// Triggers the action causes.
    #[serde(default)]
    pub triggers: Vec<Trigger>,
}

/// One diagnostic of the loader (`turnspec check --format json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Diagnostic {
    /// The file it is in.
    pub file: String,
    /// Its first line, from 1.
    pub line: usize,
    /// Its first column, from 1.
    pub column: usize,
    /// Where it ends: line.
    pub end_line: usize,
    /// Where it ends: column.
    pub end_column: usize,
    /// `error` or `warning`.
    pub severity: Severity,
    /// A stable code, `turnspec::unknown-key`...
    pub code: String,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Shown under the place (may be empty).
    pub label: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Other places the problem involves.
    pub related: Vec<Related>,
}

/// Whether a diagnostic stops the load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The spec is not loaded.
    Error,
    /// The spec loads.
    Warning,
}

/// Another place a diagnostic involves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Related {
    /// The file.
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
    /// Where it ends: line.
    pub end_line: usize,
    /// Where it ends: column.
    pub end_column: usize,
    /// What it is ("first definition").
    pub label: String,
}

/// The diagnostics of a report, typed (the shape of `Report::to_json`).
pub fn diagnostics(report: &turnspec_spec::Report) -> Vec<Diagnostic> {
    report
        .to_json()
        .into_iter()
        .filter_map(|d| serde_json::from_value(d).ok())
        .collect()
}

/// One trace event (docs/trace-format.md): its name, its fields, and the
/// rule the spec cites for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TraceEvent {
    /// `turn_began`, `priority`, `step_began`...
    pub event: String,
    /// The rule the spec cites for it, when it cites one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Its other fields.
    #[serde(flatten)]
    pub fields: BTreeMap<String, Value>,
}

/// What an error thrown by the package carries besides its message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ErrorInfo {
    /// `IllegalMove` (the rules refused a move), `MoveError` (a malformed
    /// move or unknown name), `SetupError`, `SnapshotError`, `SpecError`,
    /// `HostError` (a hook returned something that is not an answer).
    pub name: ErrorName,
    /// `rule::REASON` or `protocol::...` as in docs/protocol.md;
    /// `turnspec::...` for a spec (the first error's code).
    pub code: String,
    /// The rule a refused move breaks, as the spec cites it.
    pub rule: Option<String>,
    /// For `IllegalMove`: the engine's stable reason (`not_holder`...).
    pub reason: Option<String>,
}

/// The `name` of an error the package throws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub enum ErrorName {
    /// The rules refused a move; the game is unchanged.
    IllegalMove,
    /// A malformed move, an unknown name or player; the game is unchanged.
    MoveError,
    /// Game options the spec refuses.
    SetupError,
    /// Bytes that are not a snapshot of this spec.
    SnapshotError,
    /// A spec with errors: `diagnostics` lists them all.
    SpecError,
    /// A hook returned something that is not an answer.
    HostError,
}

impl ErrorName {
    /// As JavaScript reads `error.name`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorName::IllegalMove => "IllegalMove",
            ErrorName::MoveError => "MoveError",
            ErrorName::SetupError => "SetupError",
            ErrorName::SnapshotError => "SnapshotError",
            ErrorName::SpecError => "SpecError",
            ErrorName::HostError => "HostError",
        }
    }
}

impl ErrorInfo {
    /// The error of a protocol refusal: `rule::` codes are `IllegalMove`,
    /// `protocol::setup` a `SetupError`, the others `MoveError`.
    pub fn of(e: &turnspec_protocol::ErrorBody) -> ErrorInfo {
        let reason = e.code.strip_prefix("rule::").map(str::to_string);
        let name = if reason.is_some() {
            ErrorName::IllegalMove
        } else if e.code == "protocol::setup" {
            ErrorName::SetupError
        } else {
            ErrorName::MoveError
        };
        ErrorInfo {
            name,
            code: e.code.clone(),
            rule: e.rule.clone(),
            reason,
        }
    }
}

/// A call to the studio's API: what `studio.call` returns.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct StudioResponse {
    /// The HTTP status the workbench's server would answer.
    pub status: u16,
    /// The JSON body.
    pub body: Value,
}

/// Every shape above, for the schema's root (never made).
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Shapes {
    game_options: GameOptions,
    context: Context,
    turn_action_context: TurnActionContext,
    played_context: PlayedContext,
    step_began_context: StepBeganContext,
    resolved_context: ResolvedContext,
    trigger: Trigger,
    turn_action_answer: TurnActionAnswer,
    diagnostic: Diagnostic,
    trace_event: TraceEvent,
    error_info: ErrorInfo,
    studio_response: StudioResponse,
    r#move: turnspec_protocol::Move,
    state: turnspec_protocol::State,
    error_body: turnspec_protocol::ErrorBody,
}

/// The JSON Schema (draft 7) of the shapes JavaScript sees; `npm/schema.json`
/// holds a copy, from which the TypeScript types are generated.
pub fn json_schema() -> Value {
    let generator = schemars::generate::SchemaSettings::draft07().into_generator();
    let mut schema =
        serde_json::to_value(generator.into_root_schema_for::<Shapes>()).unwrap_or_default();
    schema["title"] = "turnspec".into();
    schema["description"] =
        "The JSON shapes of the turnspec npm package (docs/javascript.md), generated from its Rust types."
            .into();
    schema
}

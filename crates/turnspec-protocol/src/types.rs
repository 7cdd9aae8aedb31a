//! The requests and responses of the protocol, as serde types; the JSON
//! Schema in docs/schema/protocol.schema.json is generated from them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A request's `id`, echoed in its response: a number or a string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RequestId {
    /// A number.
    Number(serde_json::Number),
    /// A string.
    Text(String),
}

/// One request line: the protocol version, an optional id, and the
/// request itself, named by `op`. (For the schema: the session reads `v`
/// and `id` first, so that even a malformed request is answered with its
/// id.)
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Envelope {
    /// The protocol version: 1.
    pub v: u32,
    /// Echoed in the response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The request.
    #[serde(flatten)]
    pub request: Request,
}

/// What a client asks, by `op`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// The protocol and spec this process serves (also `version`).
    #[serde(alias = "version")]
    Hello {},
    /// Sets up and starts a new game of the spec, replacing any game.
    NewGame {
        /// How many players (default: 2, or the spec's minimum if higher).
        #[serde(default)]
        players: Option<u8>,
        /// Who takes the first turn, `P1`... (default `P1`).
        #[serde(default)]
        starting_player: Option<String>,
        /// Variants chosen (`[variants.ID]` ids).
        #[serde(default)]
        variants: Vec<String>,
        /// Facts set at the start (`[facts.ID]` ids).
        #[serde(default)]
        facts: Vec<String>,
        /// A team number (0 to 7) for each player, for shared team turns.
        #[serde(default)]
        teams: Vec<u8>,
        /// The game stops (`turn_limit`) once this turn is over.
        #[serde(default)]
        turn_limit: Option<u32>,
    },
    /// The moves a player may make now (default: the player who holds
    /// priority).
    LegalMoves {
        /// `P1`...
        #[serde(default)]
        player: Option<String>,
    },
    /// Applies a player's move or a host command; a refused one changes
    /// nothing.
    Apply {
        /// The move.
        #[serde(rename = "move")]
        mv: Move,
    },
    /// The game's state as bytes (hex of `Game::to_bytes`).
    Snapshot {},
    /// Replaces the game with one saved by `snapshot` (same spec).
    Restore {
        /// The hex text a `snapshot` response gave.
        snapshot: String,
    },
    /// The trace events since the last `trace` (or since event `since`,
    /// if the session still holds it), as trace-format JSON objects.
    Trace {
        /// The sequence number of the first event wanted.
        #[serde(default)]
        since: Option<u64>,
    },
    /// Where the game is: turn, phase, step, holder, stack, status.
    State {},
}

/// A player's move or a host command, in the words of scenarios and the
/// workbench (`kind`). Players are `P1`, `P2`...; labels and objects are
/// the host's numbers (the trace shows a label as `#N`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// The player passes priority (default: the holder).
    Pass {
        /// `P1`...
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
    },
    /// One round of passes, stopping early when something resolves or the
    /// window closes; all or nothing.
    PassAll {},
    /// A play at a timing class of the spec.
    Play {
        /// The timing class id (`instant`, `sorcery`...).
        timing: String,
        /// `P1`... (default: the holder).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
        /// The host's number for what was played (an object's id for a
        /// class played by an object).
        #[serde(default)]
        label: u32,
    },
    /// Resolves this one of the holder's triggers from the bag next
    /// (`triggers = "bag"` specs).
    Choose {
        /// The trigger's label.
        label: u32,
        /// `P1`... (default: the holder).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
    },
    /// The player leaves the game (concedes).
    Leave {
        /// `P1`...
        by: String,
    },
    /// Host: a triggered ability now.
    Trigger {
        /// The ability's label.
        label: u32,
        /// Its controller.
        by: String,
    },
    /// Host: a structural effect of the spec, for a player.
    Effect {
        /// The effect id.
        effect: String,
        /// The player.
        by: String,
    },
    /// Host: a structural effect naming a second player (`control_turn`:
    /// `by` controls `target`'s next turn).
    EffectOn {
        /// The effect id.
        effect: String,
        /// The player it is applied for.
        by: String,
        /// The other player.
        target: String,
    },
    /// Host: ends a lasting effect (a `skip` with `lasting = true`)
    /// applied for a player.
    EndEffect {
        /// The effect id.
        effect: String,
        /// The player.
        by: String,
    },
    /// Host: a triggered ability that triggered during a resolution: it
    /// goes on the stack the next time a player would receive priority.
    PendingTrigger {
        /// The ability's label.
        label: u32,
        /// Its controller.
        by: String,
    },
    /// Host: a delayed triggered ability, at the next beginning of a phase
    /// or step (give exactly one of `phase` and `step`).
    DelayTrigger {
        /// The ability's label.
        label: u32,
        /// Its controller.
        by: String,
        /// A phase id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        phase: Option<String>,
        /// A step id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<String>,
        /// Only in the controller's own turn ("your next upkeep").
        #[serde(default)]
        own_turn: bool,
        /// Only in the controller's next turn, gone when it ends ("on your
        /// next turn").
        #[serde(default)]
        next_turn: bool,
    },
    /// Host: an effect that lasts for a while; the trace says `expired`
    /// with its label when it ends.
    Duration {
        /// The effect's label.
        label: u32,
        /// `step`, `phase`, `turn` (until the end of the current one), or
        /// bound to `player`'s turns: `until_next` (`phase`/`step`),
        /// `end_of_next_turn` (`phase`/`step`), `until_turn_of`,
        /// `through_next_turn`, `during_turns_of`, `from_next`
        /// (`phase`/`step`).
        scope: String,
        /// The player the scope is bound to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// A phase id, for the scopes that name a place.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        phase: Option<String>,
        /// A step id, for the scopes that name a place.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<String>,
    },
    /// Host: ends an effect started with `duration` before its time.
    EndDuration {
        /// The effect's label.
        label: u32,
    },
    /// Host: the answer the next time this turn-based action happens, and
    /// the triggers it reports (controlled by the active player then).
    /// Queued; without one the answer is 0.
    Answer {
        /// The turn-based action id.
        action: String,
        /// The answer (how many attackers...).
        #[serde(default)]
        value: u16,
        /// Labels of triggers it reports.
        #[serde(default)]
        triggers: Vec<u32>,
    },
    /// Host: sets a fact.
    SetFact {
        /// The fact id.
        fact: String,
    },
    /// Host: clears a fact.
    ClearFact {
        /// The fact id.
        fact: String,
    },
    /// Host: one of the spec's endings is reached for a player.
    DeclareEnding {
        /// The ending id.
        ending: String,
        /// The player.
        by: String,
    },
    /// Host: sets a counter (a player's, if it is per player).
    SetCounter {
        /// The counter id.
        counter: String,
        /// The player.
        by: String,
        /// The new value.
        #[serde(default)]
        value: u16,
    },
    /// Host: adds mana to a player's pool.
    AddMana {
        /// The player.
        by: String,
        /// How much.
        amount: u16,
    },
    /// Host: an object enters play under a player's control (`[objects]`).
    Enter {
        /// The object's id.
        object: u32,
        /// Its controller.
        by: String,
    },
    /// Host: an object leaves play.
    LeavePlay {
        /// The object's id.
        object: u32,
    },
    /// Host: a player gains control of an object in play.
    GainControl {
        /// The object's id.
        object: u32,
        /// The new controller.
        by: String,
    },
    /// Host: sets a fact of an object in play.
    SetObjectFact {
        /// The object fact id.
        fact: String,
        /// The object's id.
        object: u32,
    },
    /// Host: clears a fact of an object in play.
    ClearObjectFact {
        /// The object fact id.
        fact: String,
        /// The object's id.
        object: u32,
    },
}

/// One response line.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Response {
    /// The protocol version: 1.
    pub v: u32,
    /// The request's id; `null` when it could not be read.
    pub id: Option<RequestId>,
    /// `ok` or `error`.
    #[serde(flatten)]
    pub body: Body,
}

/// What a response carries.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Body {
    /// The request was carried out.
    Ok(Answer),
    /// It was not; nothing changed.
    Error(ErrorBody),
}

/// A refusal: nothing changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorBody {
    /// `protocol::...` for a request the protocol cannot carry out,
    /// `rule::REASON` for a move the engine refused (`rule::not_holder`).
    pub code: String,
    /// One sentence for people.
    pub message: String,
    /// The rule a refused move breaks, as the spec cites it.
    pub rule: Option<String>,
}

/// The answer to each request.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Answer {
    /// `hello`.
    Hello(Hello),
    /// `legal_moves`.
    Legal(Legal),
    /// `apply`.
    Applied(Applied),
    /// `snapshot`.
    Snapshot(Snapshot),
    /// `trace`.
    Trace(Trace),
    /// `new_game`, `restore`, `state`.
    State(State),
}

/// `hello`: what this process serves.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Hello {
    /// The protocol version: 1.
    pub protocol: u32,
    /// turnspec's version.
    pub turnspec: String,
    /// The snapshot format version (`Game::to_bytes`).
    pub snapshot_format: u16,
    /// The spec's name.
    pub spec: String,
    /// Its edition.
    pub edition: String,
    /// The spec's fingerprint, 16 hex digits.
    pub fingerprint: String,
    /// The fewest players it allows.
    pub min_players: u8,
    /// The most.
    pub max_players: u8,
    /// Every request `op`.
    pub requests: Vec<String>,
}

/// `legal_moves`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Legal {
    /// Whose moves.
    pub player: String,
    /// Each move they may make now, as `apply` takes it: `pass` first.
    pub moves: Vec<Move>,
}

/// `apply`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Applied {
    /// How many trace events the move produced (read them with `trace`).
    pub events: u64,
    /// The state after it.
    pub state: State,
}

/// `snapshot`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Snapshot {
    /// The bytes of `Game::to_bytes`, in lowercase hex.
    pub snapshot: String,
    /// Their format version.
    pub format: u16,
}

/// `trace`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Trace {
    /// The sequence number of the first event given (events are numbered
    /// from 0 in each game).
    pub first: u64,
    /// The number to ask for next: one past the last event given.
    pub next: u64,
    /// Events asked for that the session no longer holds (it keeps the
    /// latest ones only).
    pub dropped: u64,
    /// The events, as trace-format JSON objects (docs/trace-format.md).
    pub events: Vec<serde_json::Value>,
}

/// Where the game is.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct State {
    /// `running`, `over`, `turn_limit`, `stalled`, `no_players`, `never_ends`.
    pub status: String,
    /// The turn number, from 1.
    pub turn: u32,
    /// The active player.
    pub active: String,
    /// The phase id.
    pub phase: String,
    /// How many phases of this kind began this turn.
    pub phase_number: u8,
    /// The step id.
    pub step: String,
    /// The step's repetition (0 the first time).
    pub repeat: u8,
    /// Who must decide, if anyone.
    pub holder: Option<String>,
    /// Passes in a row so far in this window.
    pub passes: u8,
    /// The stack, bottom first.
    pub stack: Vec<StackItem>,
    /// Answers queued for turn-based actions, not used yet.
    pub queued_answers: usize,
    /// Who won, once the game is over.
    pub outcome: Option<OutcomeView>,
}

/// An object on the stack.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct StackItem {
    /// Its controller.
    pub controller: String,
    /// A timing class id, a turn-based action id, or `trigger`.
    pub kind: String,
    /// The host's label.
    pub label: u32,
}

/// How the game ended.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct OutcomeView {
    /// The winners, in seat order.
    pub winners: Vec<String>,
    /// No winner.
    pub draw: bool,
    /// The rule that ended it.
    pub rule: Option<String>,
}

/// Both directions, for the schema: a line is a request or a response.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub(crate) enum Line {
    /// A request line, client to turnspec.
    Request(Envelope),
    /// A response line, turnspec to client.
    Response(Response),
}

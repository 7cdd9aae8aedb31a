//! turnspec's JSON-lines protocol: one request in, one response out, for
//! programs in any language driving a game of one spec
//! (`turnspec play SPEC --protocol jsonl`; docs/protocol.md).
//!
//! This crate does no I/O: [`Session::handle_line`] takes one request line
//! and returns one response line; the command line reads stdin and writes
//! stdout. Every request is answered, a malformed or refused one with a
//! typed error (`{"error": {"code": "protocol::...", ...}}`) and the game
//! unchanged. Work and memory per request are bounded: lines of at most
//! [`MAX_LINE_BYTES`], at most [`MAX_TRACE_EVENTS`] trace events kept,
//! [`MAX_QUEUED_ANSWERS`] answers queued.

#![warn(missing_docs, unreachable_pub)]

mod types;

use std::collections::VecDeque;

use turnspec_engine::{
    Action, Event, Game, GameOptions, Host, ObjectKind, Place, PlayerId, RuleError,
    SNAPSHOT_VERSION, Scope, Status,
};
use turnspec_model::Spec;

/// The engine's queue of answers, re-exported: the protocol's host.
pub use turnspec_engine::QueuedAnswers;
pub use types::{
    Answer, Applied, Body, Envelope, ErrorBody, Hello, Legal, Move, OutcomeView, Request,
    RequestId, Response, Snapshot, StackItem, State, Trace,
};

/// The protocol version: requests carry it as `"v": 1` and responses give
/// it back. A change that an existing client could misread bumps it; a
/// session answers only requests of its own version.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest request line accepted, in bytes (1 MiB), newline excluded.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The most trace events a session keeps for `trace`; older ones are
/// dropped (and counted in `dropped`) when more come.
pub const MAX_TRACE_EVENTS: usize = 10_000;

/// The most answers queued for turn-based actions at once.
pub const MAX_QUEUED_ANSWERS: usize = 256;

/// The most triggers one queued answer reports.
pub const MAX_ANSWER_TRIGGERS: usize = 64;

/// The largest game state by default, as its snapshot's size in bytes
/// (16 KiB; [`Session::with_max_state_bytes`] sets another): past
/// it, moves and commands that add to the state (plays, triggers,
/// delayed triggers, durations, effects, objects entering play) are
/// refused with `protocol::too_many` until play shrinks it again; passes
/// and everything else still go.
pub const MAX_STATE_BYTES: usize = 16 * 1024;

/// Every request `op`, as `hello` lists them.
pub const REQUESTS: [&str; 8] = [
    "hello",
    "new_game",
    "legal_moves",
    "apply",
    "snapshot",
    "restore",
    "trace",
    "state",
];

/// A host [`apply_move`] can drive: it answers the engine's hooks, keeps
/// the answers `answer` moves queue, and can be copied (`pass_all` runs
/// on copies of the game and the host, kept only if every pass is).
pub trait MoveHost: Host + Clone {
    /// The queue `answer` moves add to.
    fn answers(&mut self) -> &mut QueuedAnswers;
}

impl MoveHost for QueuedAnswers {
    fn answers(&mut self) -> &mut QueuedAnswers {
        self
    }
}

/// How to set up a game: the fields of `new_game`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameSetup {
    /// How many players (default: 2, or the spec's minimum if higher).
    pub players: Option<u8>,
    /// Who takes the first turn, `P1`... (default `P1`).
    pub starting_player: Option<String>,
    /// Variants chosen (`[variants.ID]` ids).
    pub variants: Vec<String>,
    /// Facts set at the start (`[facts.ID]` ids).
    pub facts: Vec<String>,
    /// A team number (0 to 7) for each player, for shared team turns.
    pub teams: Vec<u8>,
    /// The game stops (`turn_limit`) once this turn is over.
    pub turn_limit: Option<u32>,
}

/// A game of `spec` set up as `setup` says, not started yet
/// (`Game::start` runs it to its first decision).
pub fn setup_game(spec: &Spec, setup: &GameSetup) -> Result<Game, ErrorBody> {
    let n = setup.players.unwrap_or(spec.game().min_players.max(2));
    let mut options = GameOptions::players(n);
    if let Some(p) = &setup.starting_player {
        options = options.with_starting_player(player(p, n)?);
    }
    let variants = setup
        .variants
        .iter()
        .map(|v| spec.variant_by_id(v).ok_or_else(|| unknown("variant", v)))
        .collect::<Result<Vec<_>, _>>()?;
    let facts = setup
        .facts
        .iter()
        .map(|f| spec.fact_by_id(f).ok_or_else(|| unknown("fact", f)))
        .collect::<Result<Vec<_>, _>>()?;
    options = options
        .with_variants(variants)
        .with_facts(facts)
        .with_teams(setup.teams.clone());
    let mut game = Game::new(spec, &options).map_err(|e| error("setup", e.to_string()))?;
    if let Some(t) = setup.turn_limit {
        game.set_turn_limit(t);
    }
    Ok(game)
}

/// One client's session: the spec, the game (after `new_game`), the
/// queued answers and the latest trace events.
#[derive(Debug)]
pub struct Session {
    spec: Spec,
    game: Option<Game>,
    host: QueuedAnswers,
    /// The latest events, at most [`MAX_TRACE_EVENTS`].
    trace: VecDeque<Event>,
    /// The sequence number of `trace[0]`.
    trace_base: u64,
    /// Where the next `trace` without `since` begins.
    cursor: u64,
    /// The events of the request being handled (kept, so a pass allocates
    /// nothing once it has grown).
    scratch: Vec<Event>,
    /// [`MAX_STATE_BYTES`], or what [`Session::with_max_state_bytes`] set.
    max_state_bytes: usize,
}

type Outcome = Result<Answer, ErrorBody>;

fn error(code: &str, message: impl Into<String>) -> ErrorBody {
    ErrorBody {
        code: format!("protocol::{code}"),
        message: message.into(),
        rule: None,
    }
}

/// The error for a move the engine refused: `rule::REASON`, the
/// engine's message and the rule the spec cites.
pub fn refused(spec: &Spec, e: &RuleError) -> ErrorBody {
    ErrorBody {
        code: format!("rule::{}", e.reason()),
        message: e.describe(spec),
        rule: spec.rule(e.rule()).map(str::to_string),
    }
}

/// The response to a line longer than [`MAX_LINE_BYTES`], which the
/// reader did not keep (so its id is unknown).
pub fn line_too_long(len: usize) -> String {
    render(&Response {
        v: PROTOCOL_VERSION,
        id: None,
        body: Body::Error(error(
            "line_too_long",
            format!("a request line of {len} bytes or more; at most {MAX_LINE_BYTES}"),
        )),
    })
}

fn render(r: &Response) -> String {
    serde_json::to_string(r).unwrap_or_else(|e| {
        format!(
            r#"{{"v":{PROTOCOL_VERSION},"id":null,"error":{{"code":"protocol::internal","message":{},"rule":null}}}}"#,
            serde_json::Value::String(e.to_string())
        )
    })
}

/// `P1`... as a seat of a `players`-player game.
pub fn player(text: &str, players: u8) -> Result<PlayerId, ErrorBody> {
    text.strip_prefix('P')
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|n| (1..=players).contains(n))
        .map(|n| PlayerId(n - 1))
        .ok_or_else(|| {
            error(
                "unknown_player",
                format!("no player `{text}` in a {players}-player game"),
            )
        })
}

fn unknown(what: &str, id: &str) -> ErrorBody {
    error("unknown_name", format!("this spec has no {what} `{id}`"))
}

/// The place a move names by `phase` or `step`: exactly one.
fn place(spec: &Spec, phase: &Option<String>, step: &Option<String>) -> Result<Place, ErrorBody> {
    match (phase, step) {
        (Some(p), None) => spec
            .phase_by_id(p)
            .map(Place::Phase)
            .ok_or_else(|| unknown("phase", p)),
        (None, Some(s)) => spec
            .step_by_id(s)
            .map(Place::Step)
            .ok_or_else(|| unknown("step", s)),
        _ => Err(error(
            "bad_request",
            "give exactly one of `phase` and `step`",
        )),
    }
}

/// A `duration` move's scope.
fn scope(
    spec: &Spec,
    players: u8,
    name: &str,
    who: &Option<String>,
    (phase, step): (&Option<String>, &Option<String>),
) -> Result<Scope, ErrorBody> {
    let who = || match who {
        Some(p) => player(p, players),
        None => Err(error(
            "bad_request",
            format!("scope `{name}` needs `player`"),
        )),
    };
    Ok(match name {
        "step" => Scope::Step,
        "phase" => Scope::Phase,
        "turn" => Scope::Turn,
        "until_next" => Scope::UntilNext {
            at: place(spec, phase, step)?,
            player: who()?,
        },
        "end_of_next_turn" => Scope::EndOfNextTurn {
            at: place(spec, phase, step)?,
            player: who()?,
        },
        "until_turn_of" => Scope::UntilTurnOf { player: who()? },
        "through_next_turn" => Scope::ThroughNextTurn { player: who()? },
        "during_turns_of" => Scope::DuringTurnsOf { player: who()? },
        "from_next" => Scope::FromNext {
            at: place(spec, phase, step)?,
            player: who()?,
        },
        other => return Err(error("bad_request", format!("no scope `{other}`"))),
    })
}

/// The hex text of `bytes`.
fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    fn digit(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    let t = text.as_bytes();
    if !t.len().is_multiple_of(2) {
        return None;
    }
    t.chunks(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

impl Session {
    /// A session serving games of `spec`; no game until `new_game`.
    pub fn new(spec: Spec) -> Session {
        Session {
            spec,
            game: None,
            host: QueuedAnswers::default(),
            trace: VecDeque::new(),
            trace_base: 0,
            cursor: 0,
            scratch: Vec::new(),
            max_state_bytes: MAX_STATE_BYTES,
        }
    }

    /// The same session with another bound on the game's state (the size
    /// of its snapshot in bytes) than [`MAX_STATE_BYTES`].
    pub fn with_max_state_bytes(mut self, bytes: usize) -> Session {
        self.max_state_bytes = bytes;
        self
    }

    /// The game, once `new_game` or `restore` made one.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Handles one request line (without its newline) and returns the
    /// response line (without a newline).
    pub fn handle_line(&mut self, line: &str) -> String {
        render(&self.respond(line))
    }

    /// Handles one request line and returns the response.
    pub fn respond(&mut self, line: &str) -> Response {
        let (id, body) = match self.read(line) {
            Ok((id, request)) => {
                let body = match self.handle(request) {
                    Ok(answer) => Body::Ok(answer),
                    Err(e) => Body::Error(e),
                };
                (id, body)
            }
            Err((id, e)) => (id, Body::Error(e)),
        };
        Response {
            v: PROTOCOL_VERSION,
            id,
            body,
        }
    }

    /// Reads a request line: its id first (so that a malformed request is
    /// answered with it), then the version, then the request.
    #[allow(clippy::type_complexity)]
    fn read(
        &self,
        line: &str,
    ) -> Result<(Option<RequestId>, Request), (Option<RequestId>, ErrorBody)> {
        if line.len() > MAX_LINE_BYTES {
            return Err((
                None,
                error(
                    "line_too_long",
                    format!(
                        "a request line of {} bytes; at most {MAX_LINE_BYTES}",
                        line.len()
                    ),
                ),
            ));
        }
        let value: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| (None, error("malformed_json", format!("not JSON: {e}"))))?;
        let serde_json::Value::Object(mut map) = value else {
            return Err((None, error("malformed_json", "a request is a JSON object")));
        };
        let id = match map.remove("id") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Number(n)) => Some(RequestId::Number(n)),
            Some(serde_json::Value::String(s)) => Some(RequestId::Text(s)),
            Some(_) => {
                return Err((
                    None,
                    error("bad_request", "`id` must be a number or a string"),
                ));
            }
        };
        match map.remove("v") {
            Some(v) if v.as_u64() == Some(u64::from(PROTOCOL_VERSION)) => {}
            Some(v) => {
                return Err((
                    id,
                    error(
                        "unsupported_version",
                        format!(
                            "protocol version {v}; this turnspec speaks version {PROTOCOL_VERSION}"
                        ),
                    ),
                ));
            }
            None => {
                return Err((
                    id,
                    error(
                        "unsupported_version",
                        format!("no protocol version: add \"v\": {PROTOCOL_VERSION}"),
                    ),
                ));
            }
        }
        match serde_json::from_value::<Request>(serde_json::Value::Object(map)) {
            Ok(request) => Ok((id, request)),
            Err(e) => Err((id, error("bad_request", e.to_string()))),
        }
    }

    fn handle(&mut self, request: Request) -> Outcome {
        match request {
            Request::Hello {} => Ok(Answer::Hello(self.hello())),
            Request::NewGame {
                players,
                starting_player,
                variants,
                facts,
                teams,
                turn_limit,
            } => self.new_game(players, starting_player, variants, facts, teams, turn_limit),
            Request::LegalMoves { player } => self.legal(player),
            Request::Apply { mv } => self.apply(&mv),
            Request::Snapshot {} => {
                let game = self.game_ref()?;
                Ok(Answer::Snapshot(Snapshot {
                    snapshot: to_hex(&game.to_bytes()),
                    format: SNAPSHOT_VERSION,
                }))
            }
            Request::Restore { snapshot } => self.restore(&snapshot),
            Request::Trace { since } => self.read_trace(since),
            Request::State {} => Ok(Answer::State(state_of(
                &self.spec,
                self.game_ref()?,
                self.host.len(),
            ))),
        }
    }

    fn hello(&self) -> Hello {
        let g = self.spec.game();
        Hello {
            protocol: PROTOCOL_VERSION,
            turnspec: env!("CARGO_PKG_VERSION").to_string(),
            snapshot_format: SNAPSHOT_VERSION,
            spec: g.name.clone(),
            edition: g.edition.clone(),
            fingerprint: format!("{:016x}", self.spec.fingerprint()),
            min_players: g.min_players,
            max_players: g.max_players,
            requests: REQUESTS.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn game_ref(&self) -> Result<&Game, ErrorBody> {
        self.game
            .as_ref()
            .ok_or_else(|| error("no_game", "no game yet: send new_game first"))
    }

    #[allow(clippy::too_many_arguments)]
    fn new_game(
        &mut self,
        players: Option<u8>,
        starting: Option<String>,
        variants: Vec<String>,
        facts: Vec<String>,
        teams: Vec<u8>,
        turn_limit: Option<u32>,
    ) -> Outcome {
        let setup = GameSetup {
            players,
            starting_player: starting,
            variants,
            facts,
            teams,
            turn_limit,
        };
        let mut game = setup_game(&self.spec, &setup)?;
        self.host = QueuedAnswers::default();
        self.trace.clear();
        self.trace_base = 0;
        self.cursor = 0;
        self.scratch.clear();
        game.start(&mut self.host, &mut self.scratch);
        self.keep_events();
        let state = state_of(&self.spec, &game, self.host.len());
        self.game = Some(game);
        Ok(Answer::State(state))
    }

    /// Moves this request's events into the trace, dropping the oldest
    /// beyond [`MAX_TRACE_EVENTS`].
    fn keep_events(&mut self) -> u64 {
        let n = self.scratch.len() as u64;
        for e in self.scratch.drain(..) {
            if self.trace.len() == MAX_TRACE_EVENTS {
                self.trace.pop_front();
                self.trace_base += 1;
            }
            self.trace.push_back(e);
        }
        n
    }

    fn legal(&self, who: Option<String>) -> Outcome {
        let game = self.game_ref()?;
        let p = match who {
            Some(p) => player(&p, game.players())?,
            None => game.holder().ok_or_else(|| {
                error(
                    "no_holder",
                    format!("nobody must decide (status: {})", game.status().name()),
                )
            })?,
        };
        let moves = legal_moves(&self.spec, game, p);
        Ok(Answer::Legal(Legal {
            player: p.to_string(),
            moves,
        }))
    }

    fn apply(&mut self, mv: &Move) -> Outcome {
        let Some(mut game) = self.game.take() else {
            return Err(error("no_game", "no game yet: send new_game first"));
        };
        self.scratch.clear();
        let result = check_state_size(&game, mv, self.max_state_bytes).and_then(|()| {
            apply_move(&self.spec, &mut game, &mut self.host, &mut self.scratch, mv)
        });
        // A refused move changed nothing and emitted nothing (the engine's
        // promise; `pass_all` is made all or nothing below).
        let events = match result {
            Ok(()) => self.keep_events(),
            Err(_) => {
                self.scratch.clear();
                0
            }
        };
        let state = state_of(&self.spec, &game, self.host.len());
        self.game = Some(game);
        result.map(|()| Answer::Applied(Applied { events, state }))
    }

    fn restore(&mut self, text: &str) -> Outcome {
        let bytes =
            from_hex(text).ok_or_else(|| error("bad_snapshot", "the snapshot is not hex text"))?;
        let game = Game::from_bytes(&self.spec, &bytes)
            .map_err(|e| error("bad_snapshot", e.to_string()))?;
        // The queued answers and the trace were the session's, not the
        // game's: they go. Event numbers go on from where they were.
        self.host = QueuedAnswers::default();
        self.trace_base += self.trace.len() as u64;
        self.trace.clear();
        self.cursor = self.trace_base;
        let state = state_of(&self.spec, &game, self.host.len());
        self.game = Some(game);
        Ok(Answer::State(state))
    }

    fn read_trace(&mut self, since: Option<u64>) -> Outcome {
        self.game_ref()?;
        let end = self.trace_base + self.trace.len() as u64;
        let from = since.unwrap_or(self.cursor).min(end);
        let first = from.max(self.trace_base);
        let events = self
            .trace
            .iter()
            .skip((first - self.trace_base) as usize)
            .map(|e| turnspec_trace::to_json(&self.spec, &(), e))
            .collect();
        self.cursor = end;
        Ok(Answer::Trace(Trace {
            first,
            next: end,
            dropped: first - from,
            events,
        }))
    }
}

/// The moves `player` may make now, as `apply` takes them: a pass first
/// (none for a player who does not hold priority).
pub fn legal_moves(spec: &Spec, game: &Game, player: PlayerId) -> Vec<Move> {
    let by = Some(player.to_string());
    game.legal_actions(player)
        .map(|a| match a {
            Action::Pass { .. } => Move::Pass { by: by.clone() },
            Action::Play { timing, label, .. } => Move::Play {
                timing: spec.id_of(timing).to_string(),
                by: by.clone(),
                label,
            },
            Action::Choose { label, .. } => Move::Choose {
                label,
                by: by.clone(),
            },
            Action::Leave { player } => Move::Leave {
                by: player.to_string(),
            },
        })
        .collect()
}

fn holder_or(game: &Game, by: &Option<String>) -> Result<PlayerId, ErrorBody> {
    match by {
        Some(p) => player(p, game.players()),
        None => game.holder().ok_or_else(|| {
            error(
                "no_holder",
                format!(
                    "nobody must decide (status: {}): name the player with `by`",
                    game.status().name()
                ),
            )
        }),
    }
}

/// Refuses (`protocol::too_many`) a move that adds to the game's state
/// (plays, triggers, delayed triggers, durations, effects, objects
/// entering play) while the state, measured as its snapshot's size, is
/// past `max_state_bytes`.
pub fn check_state_size(game: &Game, mv: &Move, max_state_bytes: usize) -> Result<(), ErrorBody> {
    let grows = matches!(
        mv,
        Move::Play { .. }
            | Move::Trigger { .. }
            | Move::PendingTrigger { .. }
            | Move::DelayTrigger { .. }
            | Move::Duration { .. }
            | Move::Effect { .. }
            | Move::EffectOn { .. }
            | Move::Enter { .. }
    );
    let max = max_state_bytes;
    if grows {
        let size = game.to_bytes().len();
        if size > max {
            return Err(error(
                "too_many",
                format!(
                    "the game's state is {size} bytes; nothing more is added past {max} (pass to resolve)"
                ),
            ));
        }
    }
    Ok(())
}

/// Applies a player's move or a host command to `game` (`apply`), with
/// `host` answering the engine's hooks and the events pushed to `sink`.
/// A refused move changes nothing in the game or the host; it may leave
/// events in `sink` (`pass_all`), which the caller drops. The state is
/// not bounded here: the session calls [`check_state_size`] first.
pub fn apply_move<H: MoveHost>(
    spec: &Spec,
    game: &mut Game,
    host: &mut H,
    sink: &mut Vec<Event>,
    mv: &Move,
) -> Result<(), ErrorBody> {
    let n = game.players();
    let rule = |e: RuleError| refused(spec, &e);
    match mv {
        Move::Pass { by } => {
            let player = holder_or(game, by)?;
            game.apply(Action::Pass { player }, host, sink)
                .map_err(rule)
        }
        Move::PassAll {} => {
            // All or nothing: on a copy, kept only if every pass is.
            let (mut copy, mut host_copy) = (game.clone(), host.clone());
            for _ in 0..n {
                let Some(player) = copy.holder() else { break };
                copy.apply(Action::Pass { player }, &mut host_copy, sink)
                    .map_err(rule)?;
                if copy.passes() == 0 {
                    break;
                }
            }
            *game = copy;
            *host = host_copy;
            Ok(())
        }
        Move::Play { timing, by, label } => {
            let player = holder_or(game, by)?;
            let timing = spec
                .timing_by_id(timing)
                .ok_or_else(|| unknown("timing class", timing))?;
            let action = Action::Play {
                player,
                timing,
                label: *label,
            };
            game.apply(action, host, sink).map_err(rule)
        }
        Move::Choose { label, by } => {
            let player = holder_or(game, by)?;
            let action = Action::Choose {
                player,
                label: *label,
            };
            game.apply(action, host, sink).map_err(rule)
        }
        Move::Leave { by } => {
            let player = player(by, n)?;
            game.remove_player(player, host, sink).map_err(rule)
        }
        Move::Trigger { label, by } => {
            let p = player(by, n)?;
            game.report_trigger(p, *label, sink).map_err(rule)
        }
        Move::Effect { effect, by } => {
            let p = player(by, n)?;
            let id = spec
                .effect_by_id(effect)
                .ok_or_else(|| unknown("effect", effect))?;
            game.apply_declared_effect(id, p, host, sink).map_err(rule)
        }
        Move::EffectOn { effect, by, target } => {
            let (p, t) = (player(by, n)?, player(target, n)?);
            let id = spec
                .effect_by_id(effect)
                .ok_or_else(|| unknown("effect", effect))?;
            game.apply_declared_effect_on(id, p, t, host, sink)
                .map_err(rule)
        }
        Move::EndEffect { effect, by } => {
            let p = player(by, n)?;
            let id = spec
                .effect_by_id(effect)
                .ok_or_else(|| unknown("effect", effect))?;
            game.end_lasting_effect(id, p, sink).map_err(rule)
        }
        Move::PendingTrigger { label, by } => {
            let p = player(by, n)?;
            game.report_pending_trigger(p, *label).map_err(rule)
        }
        Move::DelayTrigger {
            label,
            by,
            phase,
            step,
            own_turn,
            next_turn,
        } => {
            let p = player(by, n)?;
            let at = place(spec, phase, step)?;
            match (*next_turn, *own_turn) {
                (true, _) => game.delay_trigger_to_next_turn(p, *label, at),
                (false, own) => game.delay_trigger(p, *label, at, own),
            }
            .map_err(rule)
        }
        Move::Duration {
            label,
            scope: name,
            player: who,
            phase,
            step,
        } => {
            let scope = scope(spec, n, name, who, (phase, step))?;
            game.start_duration(*label, scope).map_err(rule)
        }
        Move::EndDuration { label } => game.end_duration(*label, sink).map_err(rule),
        Move::Answer {
            action,
            value,
            triggers,
        } => {
            let id = spec
                .turn_action_by_id(action)
                .ok_or_else(|| unknown("turn-based action", action))?;
            if triggers.len() > MAX_ANSWER_TRIGGERS {
                return Err(error(
                    "too_many",
                    format!(
                        "{} triggers in one answer; at most {MAX_ANSWER_TRIGGERS}",
                        triggers.len()
                    ),
                ));
            }
            if host.answers().len() >= MAX_QUEUED_ANSWERS {
                return Err(error(
                    "too_many",
                    format!("{MAX_QUEUED_ANSWERS} answers are queued already"),
                ));
            }
            host.answers().push(id, *value, triggers.clone());
            Ok(())
        }
        Move::SetFact { fact } | Move::ClearFact { fact } => {
            let id = spec.fact_by_id(fact).ok_or_else(|| unknown("fact", fact))?;
            let value = matches!(mv, Move::SetFact { .. });
            game.set_fact(id, value, sink).map_err(rule)
        }
        Move::DeclareEnding { ending, by } => {
            let p = player(by, n)?;
            let id = spec
                .ending_by_id(ending)
                .ok_or_else(|| unknown("ending", ending))?;
            game.declare_ending(id, p, host, sink).map_err(rule)
        }
        Move::SetCounter { counter, by, value } => {
            let p = player(by, n)?;
            let id = spec
                .counter_by_id(counter)
                .ok_or_else(|| unknown("counter", counter))?;
            game.set_counter(id, p, *value, host, sink).map_err(rule)
        }
        Move::AddMana { by, amount } => {
            let p = player(by, n)?;
            game.add_mana_to_pool(p, *amount).map_err(rule)
        }
        Move::Enter { object, by } => {
            let p = player(by, n)?;
            game.report_entered(*object, p, sink).map_err(rule)
        }
        Move::LeavePlay { object } => game.report_left(*object, sink).map_err(rule),
        Move::GainControl { object, by } => {
            let p = player(by, n)?;
            game.report_control(*object, p, sink).map_err(rule)
        }
        Move::SetObjectFact { fact, object } | Move::ClearObjectFact { fact, object } => {
            let id = spec
                .object_fact_by_id(fact)
                .ok_or_else(|| unknown("object fact", fact))?;
            let value = matches!(mv, Move::SetObjectFact { .. });
            game.set_object_fact(*object, id, value, sink).map_err(rule)
        }
    }
}

/// Where `game` is, with `queued_answers` answers waiting.
pub fn state_of(spec: &Spec, game: &Game, queued_answers: usize) -> State {
    let stack = game
        .stack()
        .iter()
        .map(|o| StackItem {
            controller: o.controller.to_string(),
            kind: match o.kind {
                ObjectKind::Play(t) => spec.id_of(t).to_string(),
                ObjectKind::TurnAction(a) => spec.id_of(a).to_string(),
                ObjectKind::Trigger => "trigger".to_string(),
            },
            label: o.label,
        })
        .collect();
    State {
        status: game.status().name().to_string(),
        turn: game.turn(),
        active: game.active_player().to_string(),
        phase: spec.id_of(game.phase()).to_string(),
        phase_number: game.phase_number(),
        step: spec.id_of(game.step()).to_string(),
        repeat: game.repeat_count(),
        holder: game.holder().map(|p| p.to_string()),
        passes: game.passes(),
        stack,
        queued_answers,
        outcome: game
            .outcome()
            .filter(|_| game.status() == Status::Over)
            .map(|o| OutcomeView {
                winners: o.winners().map(|p| p.to_string()).collect(),
                draw: o.is_draw(),
                rule: spec.rule(o.rule()).map(str::to_string),
            }),
    }
}

/// The JSON Schema (draft 7) of the protocol's lines, requests and
/// responses, generated from the types above; docs/schema/protocol.schema.json
/// holds a copy (`turnspec schema protocol`).
pub fn json_schema() -> serde_json::Value {
    let generator = schemars::generate::SchemaSettings::draft07().into_generator();
    let mut schema =
        serde_json::to_value(generator.into_root_schema_for::<types::Line>()).unwrap_or_default();
    schema["title"] = "turnspec JSON-lines protocol, version 1".into();
    schema["description"] =
        "One JSON object per line: a request (client to turnspec) or a response (turnspec to client). See docs/protocol.md."
            .into();
    schema
}

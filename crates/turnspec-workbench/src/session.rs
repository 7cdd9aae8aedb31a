//! A workbench session: a spec, a player count, variants and the list of
//! moves the designer has made. The server keeps no session: every request
//! carries the moves and the game is replayed from the start, which the
//! engine's determinism makes exact. Undo and time travel are a shorter
//! list of moves.
//!
//! Moves are the scenario format's actions (docs/scenarios.md §6), applied
//! with the same meaning as `turnspec test` gives them, so a session can be
//! saved as a scenario that passes as it stands (see [`crate::scenario`]).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use turnspec_engine::QueuedAnswers;
use turnspec_engine::{Action, Event, Game, GameOptions, PlayerId, RuleError, Status};
use turnspec_engine::{AutoPasser, PassUntil, Stopped};
use turnspec_spec::{Spec, StepId, StopProfile, StopTurn, StopWhen};

use crate::api::{ApiError, Setup};
use turnspec_trace::{compact, describe, is_end};

/// One thing the designer did, in the scenario format's words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Move {
    /// `pass = "P1"`: the player passes priority.
    Pass {
        /// The player, `P1`...
        by: String,
    },
    /// `pass = "all"`: one round of passes, stopping early when something
    /// resolves or the window closes.
    PassAll,
    /// `play = TIMING`: a play at a timing class of the spec.
    Play {
        /// The timing class id.
        timing: String,
        /// The player.
        by: String,
        /// What was played, shown in the trace; empty for `#0`.
        #[serde(default)]
        label: String,
    },
    /// `trigger = LABEL`: the host reports a triggered ability now.
    Trigger {
        /// The ability's name.
        label: String,
        /// Its controller.
        by: String,
    },
    /// `effect = ID`: a structural effect of the spec, for a player.
    Effect {
        /// The effect id.
        effect: String,
        /// The player it applies to.
        by: String,
    },
    /// `answer = ACTION`: the host's answer the next time that turn-based
    /// action happens, and what it makes trigger.
    Answer {
        /// The turn-based action id.
        action: String,
        /// The answer (how many attackers...).
        #[serde(default)]
        value: u16,
        /// Triggers it reports, controlled by the turn player then.
        #[serde(default)]
        triggers: Vec<String>,
    },
    /// `set_fact = ID`.
    SetFact {
        /// The fact id.
        fact: String,
    },
    /// `clear_fact = ID`.
    ClearFact {
        /// The fact id.
        fact: String,
    },
    /// `declare_ending = ID`: the host declares one of the spec's endings
    /// for a player (a win, a loss or a draw).
    DeclareEnding {
        /// The ending id (`[endings.ID]`).
        ending: String,
        /// The player it is reached for.
        by: String,
    },
    /// `set_counter = ID`: the host sets a counter (for a player, if it is
    /// per player); the spec's checks at `counter_set` follow.
    SetCounter {
        /// The counter id.
        counter: String,
        /// The player (whose value, for a per-player counter).
        by: String,
        /// The new value.
        #[serde(default)]
        value: u16,
    },
    /// `enter = NAME`, `by`: the host reports an object entering play
    /// under a player's control (specs with `[objects]`).
    Enter {
        /// The object's name (its label, as a play names it).
        object: String,
        /// Its controller.
        by: String,
    },
    /// `leave_play = NAME`: the host reports an object leaving play.
    LeavePlay {
        /// The object's name.
        object: String,
    },
    /// `gain_control = NAME`, `by`: a player gains control of an object
    /// in play; its continuous control starts again (302.6).
    GainControl {
        /// The object's name.
        object: String,
        /// The new controller.
        by: String,
    },
    /// `set_fact = ID`, `label = NAME`: a fact of one object in play.
    SetObjectFact {
        /// The object fact id (`[objects.facts.ID]`).
        fact: String,
        /// The object's name.
        object: String,
    },
    /// `clear_fact = ID`, `label = NAME`.
    ClearObjectFact {
        /// The object fact id.
        fact: String,
        /// The object's name.
        object: String,
    },
    /// `pass_to_stop = COMMAND` (+ `at`, `by`): a player gives their
    /// auto-passer a one-shot command and it passes for every player whose
    /// command or stop markers say so, until someone is asked
    /// (docs/stops.md).
    PassToStop {
        /// The player giving the command; the priority holder when absent.
        #[serde(default)]
        by: Option<String>,
        /// `next_stop`, `end_of_turn`, `stack_changes`, `step`, `resolve`,
        /// `advance`.
        command: String,
        /// The step of `step`.
        #[serde(default)]
        at: Option<String>,
    },
}

impl Move {
    /// Whether the move is an action (it may produce events) rather than
    /// host set-up.
    pub fn is_action(&self) -> bool {
        !matches!(self, Move::Answer { .. })
    }
}

/// Why a move was not applied: the engine's refusal with the rule it
/// cites, or a move that names something the spec does not have.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// The kind of refusal (`not_holder`, `wrong_step`...), as
    /// `expect_illegal`'s `reason`; `unknown` for a name the spec lacks.
    pub reason: String,
    /// The rule the refusal cites, as the spec writes it.
    pub rule: Option<String>,
    /// One sentence for people.
    pub message: String,
}

impl Refusal {
    fn engine(spec: &Spec, e: &RuleError) -> Refusal {
        Refusal {
            reason: e.reason().to_string(),
            rule: spec.rule(e.rule()).map(str::to_string),
            message: e.describe(spec),
        }
    }

    fn label(message: String) -> Refusal {
        Refusal {
            reason: "bad_label".into(),
            rule: None,
            message,
        }
    }

    fn unknown(message: String) -> Refusal {
        Refusal {
            reason: "unknown".into(),
            rule: None,
            message,
        }
    }
}

/// Label names shared by both sides of a comparison; label 0 is
/// "unlabelled" (`#0`), as in scenarios.
#[derive(Debug, Default, Clone)]
pub(crate) struct LabelTable {
    names: Vec<String>,
    /// Each name's label, so interning stays linear in the moves.
    index: std::collections::HashMap<String, u32>,
}

impl LabelTable {
    pub(crate) fn new() -> Self {
        LabelTable {
            names: vec![String::new()],
            index: std::collections::HashMap::new(),
        }
    }

    pub(crate) fn intern(&mut self, name: &str) -> u32 {
        if name.is_empty() {
            return 0;
        }
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let label = self.names.len() as u32;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), label);
        label
    }

    pub(crate) fn names(&self) -> &Vec<String> {
        &self.names
    }

    pub(crate) fn name(&self, label: u32) -> String {
        self.names
            .get(label as usize)
            .filter(|n| !n.is_empty())
            .cloned()
            .unwrap_or_else(|| format!("#{label}"))
    }
}

/// One event of a side's trace.
#[derive(Debug, Clone)]
pub(crate) struct TraceEvent {
    pub(crate) event: Event,
    /// The move that produced it; `None` for the start of the game.
    pub(crate) by_move: Option<usize>,
}

/// One spec's game, replayed from a list of moves.
#[derive(Clone)]
pub(crate) struct Side {
    /// The spec (a cheap clone: it shares the compiled spec).
    pub(crate) spec: Spec,
    pub(crate) game: Game,
    host: QueuedAnswers,
    /// Every event except the "end of ..." ones, which scenarios leave out.
    pub(crate) trace: Vec<TraceEvent>,
    /// For each move, `None` if it was applied, else why not.
    pub(crate) refused: Vec<Option<Refusal>>,
    /// For each move: whether the turn never ended after it.
    pub(crate) endless_after: Vec<bool>,
    /// Passes for the players with stop markers (`pass_to_stop`).
    passer: AutoPasser,
    /// The stop markers in effect, as the state shows them.
    stops: Value,
    /// Why the last move, if it was a `pass_to_stop`, stopped
    /// ([`Stopped::describe`]).
    pub(crate) stopped: Option<String>,
    /// How many `pass_to_stop` moves reached the pass limit (refused, but
    /// work done): never restored by going back, so a request that replays
    /// moves can bound them ([`crate::limits::check_pass_limits`]).
    pub(crate) pass_limits: u32,
}

/// Refuses a label a scenario could not carry as it stands.
fn check_label(label: &str, empty_ok: bool) -> Result<(), Refusal> {
    match crate::limits::label_problem(label, empty_ok) {
        Some(problem) => Err(Refusal::label(problem)),
        None => Ok(()),
    }
}

/// The object a move names: a label that could be written into a
/// scenario, interned (an object is named by a label, as in scenarios).
fn object(name: &str, labels: &mut LabelTable) -> Result<u32, Refusal> {
    check_label(name, false)?;
    Ok(labels.intern(name))
}

/// Where a side stood after some moves, to go back to: the game, the
/// queued answers, and how long its trace and move lists were.
#[derive(Clone)]
pub(crate) struct Mark {
    game: Game,
    host: QueuedAnswers,
    passer: AutoPasser,
    stopped: Option<String>,
    trace: usize,
    moves: usize,
}

/// Parses `P1`... against the game's player count.
pub(crate) fn player(text: &str, players: u8) -> Result<PlayerId, Refusal> {
    text.strip_prefix('P')
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|n| (1..=players).contains(n))
        .map(|n| PlayerId(n - 1))
        .ok_or_else(|| Refusal::unknown(format!("no player `{text}` in a {players}-player game")))
}

impl Side {
    /// Sets up and starts the game.
    pub(crate) fn start(spec: &Spec, options: &GameOptions) -> Result<Side, String> {
        Self::start_after(spec, options, &[], None, &mut LabelTable::new())
    }

    /// Sets up the game, queues the host answers `before` (only `answer`
    /// moves count) so they apply to the start itself, as a scenario's
    /// leading answers do, and starts it, stopping at `turn_limit`.
    pub(crate) fn start_after(
        spec: &Spec,
        options: &GameOptions,
        before: &[Move],
        turn_limit: Option<u32>,
        labels: &mut LabelTable,
    ) -> Result<Side, String> {
        let mut game = Game::new(spec, options).map_err(|e| e.to_string())?;
        if let Some(turns) = turn_limit {
            game.set_turn_limit(turns);
        }
        let mut side = Side {
            spec: spec.clone(),
            game,
            host: QueuedAnswers::default(),
            trace: Vec::new(),
            refused: Vec::new(),
            endless_after: Vec::new(),
            passer: AutoPasser::new(),
            stops: json!({}),
            stopped: None,
            pass_limits: 0,
        };
        // A request's work stays bounded: no more passes than a trace holds.
        side.passer
            .set_pass_limit(u32::try_from(crate::limits::MAX_TRACE).unwrap_or(u32::MAX));
        for m in before {
            if let Move::Answer { .. } = m {
                let _ = side.try_play(m, labels, 0);
            }
        }
        let mut events = Vec::new();
        side.game.start(&mut side.host, &mut events);
        side.record(events, None);
        Ok(side)
    }

    /// Where the side stands now.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            game: self.game.clone(),
            host: self.host.clone(),
            passer: self.passer.clone(),
            stopped: self.stopped.clone(),
            trace: self.trace.len(),
            moves: self.refused.len(),
        }
    }

    /// Goes back to `mark`, taken on this side earlier.
    pub(crate) fn restore(&mut self, mark: &Mark) {
        self.game = mark.game.clone();
        self.host = mark.host.clone();
        self.passer = mark.passer.clone();
        self.stopped = mark.stopped.clone();
        self.trace.truncate(mark.trace);
        self.refused.truncate(mark.moves);
        self.endless_after.truncate(mark.moves);
    }

    /// Moves played (applied or refused) on this side.
    pub(crate) fn moves(&self) -> usize {
        self.refused.len()
    }

    fn record(&mut self, events: Vec<Event>, by_move: Option<usize>) {
        self.trace.extend(
            events
                .into_iter()
                .filter(|e| !is_end(e))
                .map(|event| TraceEvent { event, by_move }),
        );
    }

    fn apply(&mut self, action: Action, index: usize) -> Result<(), Refusal> {
        self.command(index, |g, h, e| g.apply(action, h, e))
    }

    /// Gives a host command (or a move) with the session's host and a list
    /// for its events, which are recorded as the move's.
    fn command(
        &mut self,
        index: usize,
        run: impl FnOnce(&mut Game, &mut QueuedAnswers, &mut Vec<Event>) -> Result<(), RuleError>,
    ) -> Result<(), Refusal> {
        let mut events = Vec::new();
        let result = run(&mut self.game, &mut self.host, &mut events);
        self.record(events, Some(index));
        result.map_err(|e| Refusal::engine(&self.spec, &e))
    }

    fn holder(&self) -> Result<PlayerId, Refusal> {
        self.game.holder().ok_or_else(|| Refusal {
            reason: "not_running".into(),
            rule: None,
            message: format!(
                "nobody holds {} (game status: {})",
                self.spec.terms().priority,
                self.game.status().name()
            ),
        })
    }

    /// Applies one move; a refused move changes nothing.
    pub(crate) fn play(&mut self, m: &Move, labels: &mut LabelTable) {
        let index = self.refused.len();
        let result = self.try_play(m, labels, index);
        // The reason line belongs to the last move: another action clears it.
        if result.is_ok() && m.is_action() && !matches!(m, Move::PassToStop { .. }) {
            self.stopped = None;
        }
        self.refused.push(result.err());
        self.endless_after.push(self.game.endless_turn().is_some());
    }

    fn try_play(&mut self, m: &Move, labels: &mut LabelTable, index: usize) -> Result<(), Refusal> {
        let spec = &self.spec;
        let n = self.game.players();
        match m {
            Move::Pass { by } => {
                let player = player(by, n)?;
                self.apply(Action::Pass { player }, index)
            }
            Move::PassAll => {
                for _ in 0..n {
                    let player = self.holder()?;
                    self.apply(Action::Pass { player }, index)?;
                    if self.game.passes() == 0 {
                        break;
                    }
                }
                Ok(())
            }
            Move::Play { timing, by, label } => {
                check_label(label, true)?;
                let player = player(by, n)?;
                let timing = spec.timing_by_id(timing).ok_or_else(|| {
                    Refusal::unknown(format!("this spec has no timing class `{timing}`"))
                })?;
                let label = labels.intern(label);
                self.apply(
                    Action::Play {
                        player,
                        timing,
                        label,
                    },
                    index,
                )
            }
            Move::Trigger { label, by } => {
                check_label(label, false)?;
                let controller = player(by, n)?;
                let label = labels.intern(label);
                self.command(index, |g, _, e| g.report_trigger(controller, label, e))
            }
            Move::Effect { effect, by } => {
                let player = player(by, n)?;
                let effect = spec.effect_by_id(effect).ok_or_else(|| {
                    Refusal::unknown(format!("this spec has no effect `{effect}`"))
                })?;
                self.command(index, |g, h, e| {
                    g.apply_declared_effect(effect, player, h, e)
                })
            }
            Move::Answer {
                action,
                value,
                triggers,
            } => {
                if triggers.len() > crate::limits::MAX_TRIGGERS {
                    return Err(Refusal::label(format!(
                        "{} triggers in one answer; at most {}",
                        triggers.len(),
                        crate::limits::MAX_TRIGGERS
                    )));
                }
                for t in triggers {
                    check_label(t, false)?;
                }
                let id = spec.turn_action_by_id(action).ok_or_else(|| {
                    Refusal::unknown(format!("this spec has no turn-based action `{action}`"))
                })?;
                let labels = triggers.iter().map(|t| labels.intern(t)).collect();
                self.host.push(id, *value, labels);
                Ok(())
            }
            Move::SetFact { fact } | Move::ClearFact { fact } => {
                let id = spec
                    .fact_by_id(fact)
                    .ok_or_else(|| Refusal::unknown(format!("this spec has no fact `{fact}`")))?;
                let value = matches!(m, Move::SetFact { .. });
                self.command(index, |g, _, e| g.set_fact(id, value, e))
            }
            Move::DeclareEnding { ending, by } => {
                let player = player(by, n)?;
                let id = spec.ending_by_id(ending).ok_or_else(|| {
                    Refusal::unknown(format!("this spec has no ending `{ending}`"))
                })?;
                self.command(index, |g, h, e| g.declare_ending(id, player, h, e))
            }
            Move::SetCounter { counter, by, value } => {
                let player = player(by, n)?;
                let id = spec.counter_by_id(counter).ok_or_else(|| {
                    Refusal::unknown(format!("this spec has no counter `{counter}`"))
                })?;
                let value = *value;
                self.command(index, |g, h, e| g.set_counter(id, player, value, h, e))
            }
            Move::Enter { object: name, by } => {
                let controller = player(by, n)?;
                self.objects_kept()?;
                let in_play = self.game.objects().count();
                if in_play >= crate::limits::MAX_OBJECTS {
                    return Err(Refusal {
                        reason: "too_many_objects".into(),
                        rule: None,
                        message: format!(
                            "{in_play} objects in play; the workbench keeps at most {}",
                            crate::limits::MAX_OBJECTS
                        ),
                    });
                }
                let id = object(name, labels)?;
                self.command(index, |g, _, e| g.report_entered(id, controller, e))
            }
            Move::LeavePlay { object: name } => {
                let id = object(name, labels)?;
                self.command(index, |g, _, e| g.report_left(id, e))
            }
            Move::GainControl { object: name, by } => {
                let controller = player(by, n)?;
                let id = object(name, labels)?;
                self.command(index, |g, _, e| g.report_control(id, controller, e))
            }
            Move::SetObjectFact { fact, object: name }
            | Move::ClearObjectFact { fact, object: name } => {
                let fact_id = spec.object_fact_by_id(fact).ok_or_else(|| {
                    Refusal::unknown(format!("this spec has no object fact `{fact}`"))
                })?;
                let id = object(name, labels)?;
                let value = matches!(m, Move::SetObjectFact { .. });
                self.command(index, |g, _, e| g.set_object_fact(id, fact_id, value, e))
            }
            Move::PassToStop { by, command, at } => {
                let player = match by {
                    Some(by) => player(by, n)?,
                    None => self.holder()?,
                };
                let until = pass_until(spec, command, at.as_deref())?;
                self.pass_to_stop(player, until, index)
            }
        }
    }

    /// Gives `player`'s auto-passer `until` and lets it pass. A pass the
    /// engine refuses, or passing [`crate::limits::MAX_TRACE`] times
    /// without anyone being asked, refuses the move and changes nothing.
    fn pass_to_stop(
        &mut self,
        player: PlayerId,
        until: PassUntil,
        index: usize,
    ) -> Result<(), Refusal> {
        let (game, host, passer) = (self.game.clone(), self.host.clone(), self.passer.clone());
        self.passer
            .command(&self.game, player, until)
            .map_err(|e| Refusal {
                reason: "stops".into(),
                rule: None,
                message: format!("{player} cannot give `{}`: {e}", until.name()),
            })?;
        let mut events = Vec::new();
        let stopped = self
            .passer
            .advance(&mut self.game, &mut self.host, &mut events);
        let refusal = match stopped {
            Stopped::Refused { player, error } => Some(Refusal {
                reason: error.reason().to_string(),
                rule: self.spec.rule(error.rule()).map(str::to_string),
                message: format!(
                    "the auto-passer's pass for {player} was refused: {}",
                    error.describe(&self.spec)
                ),
            }),
            Stopped::PassLimit => Some(Refusal {
                reason: "pass_limit".into(),
                rule: None,
                message: format!(
                    "the auto-passer passed {} times and nobody was asked; add a stop marker",
                    crate::limits::MAX_TRACE
                ),
            }),
            _ => None,
        };
        if let Some(refusal) = refusal {
            if stopped == Stopped::PassLimit {
                self.pass_limits += 1;
            }
            self.game = game;
            self.host = host;
            self.passer = passer;
            return Err(refusal);
        }
        self.record(events, Some(index));
        self.stopped = Some(stopped.describe(&self.spec));
        Ok(())
    }

    /// Gives each player the profile their stop markers make. With
    /// `strict` (the first spec), a marker naming a step the spec lacks,
    /// an unknown player, turn or condition is refused; otherwise (the
    /// second spec of a comparison) a step it lacks is left out.
    pub(crate) fn set_stops(&mut self, setup: &Setup, strict: bool) -> Result<(), ApiError> {
        let spec = self.spec.clone();
        let n = self.game.players();
        let total: usize = setup.stops.values().map(Vec::len).sum::<usize>()
            + setup.stops_anywhere.values().map(Vec::len).sum::<usize>();
        if total > crate::limits::MAX_STOP_MARKERS {
            return Err(ApiError::too_much(format!(
                "{total} stop markers; a game in the workbench holds at most {}",
                crate::limits::MAX_STOP_MARKERS
            )));
        }
        let mut shown = serde_json::Map::new();
        let seats = setup.stops.keys().chain(setup.stops_anywhere.keys());
        let mut players: Vec<&String> = seats.collect();
        players.sort();
        players.dedup();
        for name in players {
            let p = player(name, n)
                .map_err(|r| ApiError::bad(format!("stop markers: {}", r.message)))?;
            let markers = setup.stops.get(name).map_or(&[][..], Vec::as_slice);
            let anywhere = setup
                .stops_anywhere
                .get(name)
                .map_or(&[][..], Vec::as_slice);
            let mut profile = StopProfile::new(&spec);
            let mut kept = Vec::new();
            for m in markers {
                let bad = |what: String| ApiError::bad(format!("stop marker for {name}: {what}"));
                let turn = match m.turn.as_str() {
                    "own" => StopTurn::Own,
                    "others" => StopTurn::Others,
                    "any" => StopTurn::Any,
                    t => {
                        return Err(bad(format!(
                            "`turn` is `own`, `others` or `any`, not `{t}`"
                        )));
                    }
                };
                let when = StopWhen::from_name(&m.when).ok_or_else(|| {
                    bad(format!(
                        "`when` is `always`, `stack_nonempty`, `stack_grew` or `can_play`, not `{}`",
                        m.when
                    ))
                })?;
                let Some(steps) = place(&spec, &m.at) else {
                    if strict {
                        return Err(bad(format!("this spec has no phase or step `{}`", m.at)));
                    }
                    continue;
                };
                for step in steps {
                    profile.add(step, turn, when);
                }
                kept.push(m.clone());
            }
            let mut kept_anywhere = Vec::new();
            for w in anywhere {
                let when = StopWhen::from_name(w).ok_or_else(|| {
                    ApiError::bad(format!(
                        "stop markers for {name}: `{w}` is not `always`, `stack_nonempty`, `stack_grew` or `can_play`"
                    ))
                })?;
                profile.add_anywhere(when);
                kept_anywhere.push(w.clone());
            }
            if kept.is_empty() && kept_anywhere.is_empty() {
                // No markers: no profile, asked at every priority.
                continue;
            }
            self.passer
                .set_profile(&spec, p, profile)
                .map_err(|e| ApiError::bad(format!("stop markers for {name}: {e}")))?;
            shown.insert(
                name.clone(),
                json!({ "at": kept, "anywhere": kept_anywhere }),
            );
        }
        self.stops = Value::Object(shown);
        Ok(())
    }

    /// Refuses an object for a spec without `[objects]`, as the engine
    /// does, before its name is kept.
    fn objects_kept(&self) -> Result<(), Refusal> {
        if self.spec.objects().tracked {
            return Ok(());
        }
        Err(Refusal::engine(&self.spec, &RuleError::NoObjects))
    }

    /// The compact line of each trace event (the scenario format's
    /// `expect_events` lines).
    pub(crate) fn lines(&self, labels: &LabelTable) -> Vec<String> {
        self.trace
            .iter()
            .map(|e| compact(&self.spec, labels.names(), &e.event))
            .collect()
    }

    /// The state shown beside the diagram.
    pub(crate) fn state_json(&self, labels: &LabelTable) -> Value {
        let spec = &self.spec;
        let g = &self.game;
        let phase_name = spec.phase(g.phase()).map_or("?", |p| p.name.as_str());
        let step_name = spec.step(g.step()).map_or("?", |s| s.name.as_str());
        let stack: Vec<Value> = g
            .stack()
            .iter()
            .map(|o| {
                json!({
                    "label": labels.name(o.label),
                    "controller": o.controller.to_string(),
                    "kind": object_kind(spec, o.kind),
                })
            })
            .collect();
        let counters: Vec<Value> = spec
            .counters()
            .iter_ids()
            .map(|(id, c)| {
                // A per-player counter: each player's value, in seat order.
                let each: Option<Vec<u16>> = c.per_player.then(|| {
                    (0..g.players())
                        .map(|p| g.counter_of(id, PlayerId(p)).unwrap_or(0))
                        .collect()
                });
                json!({
                    "id": c.id, "value": g.counter(id), "rule": spec.rule(c.rule),
                    "per_player": each,
                })
            })
            .collect();
        let facts: Vec<Value> = spec
            .facts()
            .iter_ids()
            .map(|(id, f)| json!({ "id": f.id, "name": f.name, "value": g.fact(id), "rule": spec.rule(f.rule) }))
            .collect();
        let queued: Vec<Value> = self
            .host
            .iter()
            .map(|(a, v, t)| {
                json!({
                    "action": spec.id_of(a),
                    "value": v,
                    "triggers": t.iter().map(|l| labels.name(*l)).collect::<Vec<_>>(),
                })
            })
            .collect();
        let objects: Vec<Value> = g
            .objects()
            .map(|o| {
                let facts: Vec<&str> = spec
                    .object_facts()
                    .iter_ids()
                    .filter(|(f, _)| g.object_fact(o.id, *f))
                    .map(|(_, f)| f.id.as_str())
                    .collect();
                json!({
                    "name": labels.name(o.id),
                    "controller": o.controller.to_string(),
                    "entered_turn": o.entered_turn,
                    "controlled_since_turn": o.controlled_since_turn,
                    "facts": facts,
                })
            })
            .collect();
        json!({
            "turn": g.turn(),
            "active": g.active_player().to_string(),
            "phase": spec.id_of(g.phase()),
            "phase_name": phase_name,
            "phase_number": g.phase_number(),
            "step": spec.id_of(g.step()),
            "step_name": step_name,
            "repeat": g.repeat_count(),
            "holder": g.holder().map(|p| p.to_string()),
            "status": g.status().name(),
            "endless": g.endless_turn().map(|e| e.describe(spec)),
            "outcome": g.outcome().map(|o| json!({
                "winners": o.winners().map(|p| p.to_string()).collect::<Vec<_>>(),
                "draw": o.is_draw(),
                "rule": spec.rule(o.rule()),
            })),
            "stack": stack,
            "counters": counters,
            "facts": facts,
            "queued_answers": queued,
            "objects": objects,
            "stops": self.stops,
            "stopped": self.stopped,
        })
    }

    /// What each player may do now: pass, and each timing class with the
    /// refusal (and its rule) when it is not allowed. A class with
    /// `by = "object"` is answered for each object in play (`objects`: the
    /// page shows the one the designer chose); it is legal if some object
    /// may make the play.
    pub(crate) fn legal_json(&self, labels: &LabelTable) -> Value {
        let spec = &self.spec;
        let g = &self.game;
        let players: Vec<Value> = (0..g.players())
            .map(PlayerId)
            .filter(|p| g.state().is_in(*p))
            .map(|p| {
                let pass = if g.holder() == Some(p) {
                    None
                } else {
                    pass_refusal(g, p)
                };
                let timing: Vec<Value> = spec
                    .timing()
                    .iter_ids()
                    .map(|(t, tc)| {
                        let check = |label: u32| {
                            g.check_play(p, t, label)
                                .err()
                                .map(|e| Refusal::engine(spec, &e))
                        };
                        if !tc.by_object {
                            let refusal = check(0);
                            return json!({
                                "id": tc.id,
                                "name": tc.name,
                                "rule": spec.rule(tc.rule),
                                "by_object": false,
                                "legal": refusal.is_none(),
                                "refusal": refusal,
                            });
                        }
                        let objects: Vec<(String, Option<Refusal>)> = g
                            .objects()
                            .map(|o| (labels.name(o.id), check(o.id)))
                            .collect();
                        let legal = objects.iter().any(|(_, r)| r.is_none());
                        // With no object that may: the first refusal (no
                        // object in play: the engine's own).
                        let refusal = match objects.first() {
                            _ if legal => None,
                            Some((_, r)) => r.clone(),
                            None => check(0),
                        };
                        json!({
                            "id": tc.id,
                            "name": tc.name,
                            "rule": spec.rule(tc.rule),
                            "by_object": true,
                            "legal": legal,
                            "refusal": refusal,
                            "objects": objects.into_iter().map(|(name, r)| json!({
                                "object": name, "legal": r.is_none(), "refusal": r,
                            })).collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                json!({ "player": p.to_string(), "pass_refusal": pass, "timing": timing })
            })
            .collect();
        json!({ "running": g.status() == Status::Running, "players": players })
    }
}

/// The steps a stop marker's `at` names: a step, or every step of a phase
/// (a step-less phase's id names its one window), as profile files read it.
fn place(spec: &Spec, at: &str) -> Option<Vec<StepId>> {
    if let Some(phase) = spec.phase_by_id(at) {
        return spec.phase(phase).map(|p| p.steps().collect());
    }
    spec.step_by_id(at).map(|s| vec![s])
}

/// The command a `pass_to_stop` names, with its step for `step`.
fn pass_until(spec: &Spec, command: &str, at: Option<&str>) -> Result<PassUntil, Refusal> {
    if command == "step" {
        let Some(at) = at else {
            return Err(Refusal::unknown(
                "`pass_to_stop = \"step\"` needs `at`, the step to pass until".into(),
            ));
        };
        return place(spec, at)
            .and_then(|steps| (steps.len() == 1).then(|| steps[0]))
            .map(PassUntil::Step)
            .ok_or_else(|| Refusal::unknown(format!("this spec has no step `{at}`")));
    }
    if at.is_some() {
        return Err(Refusal::unknown(format!(
            "`at` goes with `pass_to_stop = \"step\"`, not `{command}`"
        )));
    }
    PassUntil::from_name(command).ok_or_else(|| {
        Refusal::unknown(format!(
            "no pass_to_stop command `{command}`; it is next_stop, end_of_turn, stack_changes, step, resolve or advance"
        ))
    })
}

/// Why `player` may not pass now, tried on a copy of the game so nothing
/// changes; `None` if they may.
fn pass_refusal(game: &Game, player: PlayerId) -> Option<Refusal> {
    let mut copy = game.clone();
    let mut events: Vec<Event> = Vec::new();
    copy.apply(
        Action::Pass { player },
        &mut turnspec_engine::NoHost,
        &mut events,
    )
    .err()
    .map(|e| Refusal::engine(game.spec(), &e))
}

fn object_kind(spec: &Spec, kind: turnspec_engine::ObjectKind) -> String {
    match kind {
        turnspec_engine::ObjectKind::Play(t) => spec.id_of(t).to_string(),
        turnspec_engine::ObjectKind::TurnAction(a) => spec.id_of(a).to_string(),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// A trace event as the front end shows it.
pub(crate) fn event_json(spec: &Spec, labels: &LabelTable, e: &TraceEvent) -> Value {
    let d = describe(spec, labels.names(), &e.event);
    json!({
        "line": compact(spec, labels.names(), &e.event),
        "text": d.text,
        "kind": d.kind,
        "depth": d.depth,
        "rule": d.rule,
        "move": e.by_move,
    })
}

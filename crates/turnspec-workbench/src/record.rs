//! Recorded games: the actions and host answers of a run (`turnspec run
//! --record FILE`), and their replay under another spec (`turnspec replay
//! FILE --spec OTHER`), which reports the first event where the traces
//! part and the first recorded action the other spec refuses, with its
//! rule.
//!
//! A recording is a list of workbench [`Move`]s, so a recorded game
//! replays exactly as a workbench session does.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use turnspec_engine::policy::Policy;
use turnspec_engine::{Action, Event, EventSink, Game, GameOptions, ObjectKind, Status};
use turnspec_engine::{HostWrapper, TurnActionHook};
use turnspec_spec::Spec;

use crate::session::{LabelTable, Move, Refusal, Side};

/// What `run --record` writes, as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    /// Always `"turnspec-recording"`.
    pub format: String,
    /// The format's version, 1.
    pub version: u32,
    /// The spec file as given to `run`; `None` for the built-in spec.
    pub spec: Option<String>,
    /// The spec's title, for people.
    pub title: String,
    /// Number of players.
    pub players: u8,
    /// The turn limit of the run.
    pub turns: u32,
    /// The policy that chose the actions (`all-pass`, `random`).
    pub policy: String,
    /// Its seed, when it uses one.
    pub seed: Option<u64>,
    /// Host answers given while the game started (before any action).
    pub start: Vec<Move>,
    /// The actions, each preceded by the host answers it led to.
    pub moves: Vec<Move>,
}

/// The format name a recording carries.
pub const FORMAT: &str = "turnspec-recording";

fn label_name(label: u32) -> String {
    if label == 0 {
        String::new()
    } else {
        format!("#{label}")
    }
}

/// Wraps a policy and records what it decides and answers. Every hook is
/// forwarded to the policy.
pub struct Recorder<'s, P> {
    spec: &'s Spec,
    inner: P,
    started: bool,
    start: Vec<Move>,
    moves: Vec<Move>,
    /// Answers given since the last action, in hook order.
    answers: Vec<Move>,
}

impl<'s, P: Policy> Recorder<'s, P> {
    /// Records `inner`'s game under `spec`.
    pub fn new(spec: &'s Spec, inner: P) -> Self {
        Recorder {
            spec,
            inner,
            started: false,
            start: Vec::new(),
            moves: Vec::new(),
            answers: Vec::new(),
        }
    }

    /// Closes one engine call (the start or an action): its answers go
    /// before it, and the triggers that reached the stack during it are
    /// given to its last answer. Triggers only come from answers here, and
    /// they reach the stack before the call ends (at the next priority),
    /// which the last answer's hook precedes just as the first's does.
    fn close(&mut self, action: Option<Move>, triggers: Vec<u32>) {
        let mut answers = std::mem::take(&mut self.answers);
        if let Some(Move::Answer { triggers: t, .. }) = answers.last_mut() {
            t.extend(triggers.into_iter().map(label_name));
        }
        let list = if self.started {
            &mut self.moves
        } else {
            &mut self.start
        };
        list.extend(answers);
        list.extend(action);
        self.started = true;
    }

    fn describe(&self, action: Action) -> Option<Move> {
        let spec = self.spec;
        Some(match action {
            Action::Pass { player } => Move::Pass {
                by: player.to_string(),
            },
            Action::Play {
                player,
                timing,
                label,
            } => Move::Play {
                timing: spec.id_of(timing).to_string(),
                by: player.to_string(),
                label: label_name(label),
            },
            Action::Leave { .. } | Action::Choose { .. } => return None,
        })
    }

    /// The recording of the game played so far. The spec path, player
    /// count, turn limit, policy and seed are the caller's to fill in.
    pub fn recording(&self) -> Recording {
        Recording {
            format: FORMAT.into(),
            version: 1,
            spec: None,
            title: self.spec.title(),
            players: 0,
            turns: 0,
            policy: String::new(),
            seed: None,
            start: self.start.clone(),
            moves: self.moves.clone(),
        }
    }
}

impl<P: Policy> HostWrapper for Recorder<'_, P> {
    type Inner = P;

    fn inner(&mut self) -> &mut P {
        &mut self.inner
    }

    fn after_turn_action(&mut self, hook: &mut TurnActionHook<'_>, answer: u16) {
        self.answers.push(Move::Answer {
            action: self.spec.id_of(hook.action).to_string(),
            value: answer,
            triggers: Vec::new(),
        });
    }
}

/// Passes events on and notes the labels of triggers put on the stack.
struct Noting<'a, S> {
    inner: &'a mut S,
    triggers: Vec<u32>,
}

impl<S: EventSink> EventSink for Noting<'_, S> {
    fn event(&mut self, event: Event) {
        if let Event::TriggerPut { object } = &event
            && object.kind == ObjectKind::Trigger
        {
            self.triggers.push(object.label);
        }
        self.inner.event(event);
    }
}

/// `play_out` with a recorder: plays the game to its end, recording.
pub fn play_recorded<P: Policy, S: EventSink>(
    game: &mut Game,
    recorder: &mut Recorder<'_, P>,
    sink: &mut S,
) {
    let mut noting = Noting {
        inner: sink,
        triggers: Vec::new(),
    };
    game.start(recorder, &mut noting);
    recorder.close(None, std::mem::take(&mut noting.triggers));
    while game.status() == Status::Running {
        // The policy's structural effect as the host, if any, else the
        // holder's move (what `play_out` does).
        let (result, described) = match recorder.inner.host_effect(game) {
            Some((effect, player)) => (
                game.apply_declared_effect(effect, player, recorder, &mut noting),
                Some(Move::Effect {
                    effect: recorder.spec.id_of(effect).to_string(),
                    by: player.to_string(),
                }),
            ),
            None => {
                let action = recorder.inner.decide(game);
                let result = game.apply(action, recorder, &mut noting);
                (result, recorder.describe(action))
            }
        };
        let triggers = std::mem::take(&mut noting.triggers);
        if result.is_err() {
            break;
        }
        recorder.close(described, triggers);
    }
}

/// Replays a recording under a spec.
fn replay_under(spec: &Spec, rec: &Recording, labels: &mut LabelTable) -> Result<Side, String> {
    let mut options = GameOptions::players(rec.players);
    options = options.with_variants(Vec::new());
    let mut side = Side::start_after(spec, &options, &rec.start, Some(rec.turns), labels)?;
    for m in &rec.moves {
        side.play(m, labels);
    }
    Ok(side)
}

/// Where a replay under another spec parts from the recorded game.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// Moves replayed.
    pub moves: usize,
    /// Events of each game (the recorded spec's, the other's).
    pub events: (usize, usize),
    /// The first event that differs: its index, each side's line and rule,
    /// and the move that caused it (`None`: the start).
    pub divergence: Option<Divergence>,
    /// The first recorded move the other spec refused.
    pub refused: Option<(usize, Move, Refusal)>,
    /// Moves the recorded spec itself refuses (a recording of another
    /// spec, or an edited file): the replay is not faithful.
    pub unfaithful: Option<(usize, Move, Refusal)>,
}

/// One side of the first differing event.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// Index of the event (0-based).
    pub index: usize,
    /// The move that caused the recorded spec's event, if any.
    pub by_move: Option<usize>,
    /// The event line and rule under the recorded spec (`None`: no event).
    pub left: Option<(String, Option<String>)>,
    /// The same under the other spec.
    pub right: Option<(String, Option<String>)>,
}

/// Replays `rec` under the spec it was recorded with and under `other`.
pub fn replay(original: &Spec, other: &Spec, rec: &Recording) -> Result<ReplayReport, String> {
    let mut labels = LabelTable::new();
    let a = replay_under(original, rec, &mut labels)?;
    let b = replay_under(other, rec, &mut labels)
        .map_err(|e| format!("the other spec cannot set up this game: {e}"))?;
    let first_refused = |side: &Side| {
        side.refused
            .iter()
            .enumerate()
            .find_map(|(i, r)| r.clone().map(|r| (i, rec.moves[i].clone(), r)))
    };
    let (la, lb) = (a.lines(&labels), b.lines(&labels));
    let n = la.len().max(lb.len());
    let event = |side: &Side, lines: &[String], i: usize| {
        lines.get(i).map(|l| {
            let rule =
                turnspec_trace::describe(&side.spec, labels.names(), &side.trace[i].event).rule;
            (l.clone(), rule)
        })
    };
    let divergence = (0..n)
        .find(|&i| la.get(i) != lb.get(i))
        .map(|i| Divergence {
            index: i,
            by_move: a.trace.get(i).or(b.trace.get(i)).and_then(|e| e.by_move),
            left: event(&a, &la, i),
            right: event(&b, &lb, i),
        });
    Ok(ReplayReport {
        moves: rec.moves.len(),
        events: (la.len(), lb.len()),
        divergence,
        refused: first_refused(&b),
        unfaithful: first_refused(&a),
    })
}

/// A move in a sentence, for reports.
pub fn describe_move(m: &Move) -> String {
    match m {
        Move::Pass { by } => format!("{by} passes"),
        Move::PassAll => "everyone passes".into(),
        Move::Play { timing, by, label } => {
            let label = if label.is_empty() { "#0" } else { label };
            format!("{by} plays {label} at {timing}")
        }
        Move::Trigger { label, by } => format!("{by}'s trigger {label}"),
        Move::Effect { effect, by } => format!("effect {effect} for {by}"),
        Move::Answer { action, value, .. } => format!("answer {action} = {value}"),
        Move::SetFact { fact } => format!("set fact {fact}"),
        Move::ClearFact { fact } => format!("clear fact {fact}"),
        Move::DeclareEnding { ending, by } => format!("ending {ending} declared for {by}"),
        Move::SetCounter { counter, by, value } => format!("counter {counter} = {value} for {by}"),
        Move::Enter { object, by } => format!("{object} enters play under {by}"),
        Move::LeavePlay { object } => format!("{object} leaves play"),
        Move::GainControl { object, by } => format!("{by} gains control of {object}"),
        Move::SetObjectFact { fact, object } => format!("set fact {fact} of {object}"),
        Move::ClearObjectFact { fact, object } => format!("clear fact {fact} of {object}"),
        Move::PassToStop { by, command, at } => format!(
            "{} passes to stop: {command}{}",
            by.as_deref().unwrap_or("the holder"),
            at.as_deref().map(|a| format!(" {a}")).unwrap_or_default()
        ),
    }
}

impl ReplayReport {
    /// Whether the other spec plays the recorded game exactly alike.
    pub fn same(&self) -> bool {
        self.divergence.is_none() && self.refused.is_none()
    }

    /// The report as JSON.
    pub fn to_json(&self) -> Value {
        let side = |s: &Option<(String, Option<String>)>| {
            s.as_ref().map(|(l, r)| json!({ "line": l, "rule": r }))
        };
        let refusal = |r: &Option<(usize, Move, Refusal)>| {
            r.as_ref().map(|(i, m, r)| {
                json!({ "move": i, "action": m, "describe": describe_move(m), "refusal": r })
            })
        };
        json!({
            "same": self.same(),
            "moves": self.moves,
            "events": [self.events.0, self.events.1],
            "divergence": self.divergence.as_ref().map(|d| json!({
                "index": d.index, "move": d.by_move, "recorded": side(&d.left), "other": side(&d.right),
            })),
            "refused": refusal(&self.refused),
            "unfaithful": refusal(&self.unfaithful),
        })
    }
}

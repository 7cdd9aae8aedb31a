//! Open games: what the page plays. The server keeps each game it opened
//! (at most [`MAX_SESSIONS`], each closed after [`IDLE_MS`] unused), so a
//! move costs one engine step and its answer carries only the events that
//! move caused; going back restores the nearest snapshot (one every
//! [`SNAPSHOT_EVERY`] moves) and plays the few moves after it again. A
//! page whose game was closed opens it again from its moves.
//!
//! `POST /api/play` (replay from a list of moves) stays for scripts and
//! tests; both give the same states and traces.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Deserialize;
use serde_json::{Value, json};

use crate::Workbench;
use crate::api::{ApiError, Setup, side_json};
use crate::limits::{IDLE_MS, MAX_MOVES, MAX_SESSIONS, check_moves, check_trace};
use crate::scenario::SaveRequest;
use crate::session::{LabelTable, Mark, Move, Side, event_json};
use crate::{PlayRequest, SpecEntry};

/// A snapshot of each side every this many moves.
pub const SNAPSHOT_EVERY: usize = 16;

/// `POST /api/session`: a game to open, and the moves to play at once
/// (a page reopening a game the server closed).
#[derive(Debug, Clone, Deserialize)]
pub struct OpenRequest {
    /// The game.
    #[serde(flatten)]
    pub setup: Setup,
    /// Moves to play first, oldest first; refused ones are left out.
    #[serde(default)]
    pub moves: Vec<Move>,
}

/// `POST /api/session/{id}/save`: as [`SaveRequest`] without the session.
#[derive(Debug, Clone, Deserialize)]
pub struct SaveOpenRequest {
    /// The scenario's `name`.
    #[serde(default)]
    pub name: String,
    /// Where to write it; nothing is written without it.
    #[serde(default)]
    pub path: Option<String>,
    /// Replace an existing scenario file.
    #[serde(default)]
    pub overwrite: bool,
}

/// One spec's side of an open game.
struct Run {
    /// The spec's index in the workbench.
    spec: usize,
    side: Side,
    /// The compact line of each trace event, for the first difference
    /// (kept only when two specs are compared).
    lines: Vec<String>,
    /// `marks[k]`: the side after `k * SNAPSHOT_EVERY` moves.
    marks: Vec<Mark>,
}

impl Run {
    fn sync_lines(&mut self, labels: &LabelTable) {
        self.lines.truncate(self.side.trace.len());
        let from = self.lines.len();
        let spec = &self.side.spec;
        self.lines.extend(
            self.side.trace[from..]
                .iter()
                .map(|e| turnspec_trace::compact(spec, labels.names(), &e.event)),
        );
    }
}

/// An open game.
struct Open {
    setup: Setup,
    moves: Vec<Move>,
    labels: LabelTable,
    runs: Vec<Run>,
    /// How many leading trace lines both sides share (known so far).
    agree: usize,
}

impl Open {
    fn new(w: &Workbench, setup: Setup) -> Result<Open, ApiError> {
        let mut runs = Vec::new();
        for (n, index) in std::iter::once(setup.spec).chain(setup.compare).enumerate() {
            let entry: SpecEntry = w.entry(index)?;
            let side = Workbench::start_side(&entry, &setup, n == 0)?;
            runs.push(Run {
                spec: index,
                marks: vec![side.mark()],
                side,
                lines: Vec::new(),
            });
        }
        let mut open = Open {
            setup,
            moves: Vec::new(),
            labels: LabelTable::new(),
            runs,
            agree: 0,
        };
        open.sync();
        Ok(open)
    }

    fn sync(&mut self) {
        // Lines are kept only to find where two specs part.
        if self.runs.len() < 2 {
            return;
        }
        for r in &mut self.runs {
            r.sync_lines(&self.labels);
        }
        if let [a, b] = &self.runs[..] {
            let n = a.lines.len().min(b.lines.len());
            self.agree = self.agree.min(n);
            while self.agree < n && a.lines[self.agree] == b.lines[self.agree] {
                self.agree += 1;
            }
        }
    }

    fn divergence(&self) -> Value {
        let [a, b] = &self.runs[..] else {
            return Value::Null;
        };
        let i = self.agree;
        if i == a.lines.len() && i == b.lines.len() {
            return Value::Null;
        }
        json!({
            "index": i,
            "left": a.lines.get(i),
            "right": b.lines.get(i),
            "move": a.side.trace.get(i).or(b.side.trace.get(i)).and_then(|e| e.by_move),
        })
    }

    /// Plays one move: refused by the first spec, it changes nothing.
    fn play(&mut self, m: &Move) -> Result<Result<(), Value>, ApiError> {
        if self.moves.len() >= MAX_MOVES {
            return Err(ApiError::too_much(format!(
                "this game has {MAX_MOVES} moves, the most the workbench keeps; save it and start another"
            )));
        }
        let before = self.runs[0].side.mark();
        self.runs[0].side.play(m, &mut self.labels);
        if let Some(Some(refusal)) = self.runs[0].side.refused.last() {
            let refusal = json!(refusal);
            self.runs[0].side.restore(&before);
            return Ok(Err(refusal));
        }
        for r in &mut self.runs[1..] {
            r.side.play(m, &mut self.labels);
        }
        self.moves.push(m.clone());
        if self.moves.len().is_multiple_of(SNAPSHOT_EVERY) {
            for r in &mut self.runs {
                r.marks.push(r.side.mark());
            }
        }
        for r in &self.runs {
            check_trace(r.side.trace.len())?;
        }
        self.sync();
        Ok(Ok(()))
    }

    /// Goes back to just before move `to`.
    fn back(&mut self, to: usize) -> Result<(), ApiError> {
        if to > self.moves.len() {
            return Err(ApiError::bad(format!(
                "this game has {} moves; cannot go back to move {to}",
                self.moves.len()
            )));
        }
        let k = to / SNAPSHOT_EVERY;
        for r in &mut self.runs {
            r.marks.truncate(k + 1);
            if let Some(mark) = r.marks.last() {
                r.side.restore(mark);
            }
            for m in &self.moves[r.side.moves()..to] {
                r.side.play(m, &mut self.labels);
            }
        }
        self.moves.truncate(to);
        self.sync();
        Ok(())
    }

    /// Everything the page draws: each side's state, whole trace and
    /// refusals, the first spec's legal moves, the first difference.
    fn view(&self, id: &str) -> Value {
        let sides: Vec<Value> = self
            .runs
            .iter()
            .enumerate()
            .map(|(n, r)| side_json(r.spec, &r.side, &self.labels, n == 0))
            .collect();
        json!({
            "session": id,
            "moves": self.moves.len(),
            "move_list": self.moves,
            "sides": sides,
            "divergence": self.divergence(),
        })
    }

    /// What one move changed: each side's state, the events and refusal
    /// of that move only, how long its trace is now.
    fn step_view(&self, id: &str, move_index: usize) -> Value {
        let sides: Vec<Value> = self
            .runs
            .iter()
            .enumerate()
            .map(|(n, r)| {
                let side = &r.side;
                let spec = &side.spec;
                let events: Vec<Value> = side
                    .trace
                    .iter()
                    .rev()
                    .take_while(|e| e.by_move == Some(move_index))
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .map(|e| event_json(spec, &self.labels, e))
                    .collect();
                let refusal = side.refused.get(move_index).cloned().flatten();
                let mut v = json!({
                    "spec": r.spec,
                    "state": side.state_json(&self.labels),
                    "events": events,
                    "trace_len": side.trace.len(),
                    "refusal": refusal,
                });
                if n == 0 {
                    v["legal"] = side.legal_json(&self.labels);
                }
                v
            })
            .collect();
        json!({
            "session": id,
            "moves": self.moves.len(),
            "sides": sides,
            "divergence": self.divergence(),
        })
    }
}

struct Slot {
    open: Arc<Mutex<Open>>,
    /// When it was last used, in the caller's milliseconds.
    used: u64,
}

/// The open games, by id. Ids are made from a counter and a key
/// ([`Sessions::with_key`]; a server picks a random one, so ids cannot be
/// guessed); without a key they are the same in every run.
#[derive(Default)]
pub struct Sessions {
    slots: Mutex<HashMap<String, Slot>>,
    key: u128,
    next: AtomicU64,
}

/// Whether a game last used at `used` is still open at `now`.
fn fresh(used: u64, now: u64) -> bool {
    now.saturating_sub(used) < IDLE_MS
}

impl std::fmt::Debug for Sessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sessions({} open)", lock(&self.slots).len())
    }
}

/// A lock that a panic elsewhere does not poison for good.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Sessions {
    /// How many games are open.
    pub fn len(&self) -> usize {
        lock(&self.slots).len()
    }

    /// Whether no game is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// No game open; ids made with `key`.
    pub fn with_key(key: u128) -> Self {
        Sessions {
            key,
            ..Sessions::default()
        }
    }

    /// A new id: 128 bits from the key and a counter, as 32 hex digits.
    fn new_id(&self) -> String {
        use std::hash::{Hash, Hasher};
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let mut out = String::new();
        for half in 0..2u8 {
            // The standard hasher with fixed keys, over the key and the count.
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (self.key, n, half).hash(&mut h);
            out.push_str(&format!("{:016x}", h.finish()));
        }
        out
    }

    fn insert(&self, open: Open, now: u64) -> (String, Arc<Mutex<Open>>) {
        let mut slots = lock(&self.slots);
        slots.retain(|_, s| fresh(s.used, now));
        while slots.len() >= MAX_SESSIONS {
            let Some(oldest) = slots
                .iter()
                .min_by_key(|(_, s)| s.used)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            slots.remove(&oldest);
        }
        let id = loop {
            let id = self.new_id();
            if !slots.contains_key(&id) {
                break id;
            }
        };
        let open = Arc::new(Mutex::new(open));
        slots.insert(
            id.clone(),
            Slot {
                open: Arc::clone(&open),
                used: now,
            },
        );
        (id, open)
    }

    fn get(&self, id: &str, now: u64) -> Result<Arc<Mutex<Open>>, ApiError> {
        let mut slots = lock(&self.slots);
        match slots.get_mut(id) {
            Some(s) if fresh(s.used, now) => {
                s.used = now;
                Ok(Arc::clone(&s.open))
            }
            _ => {
                slots.remove(id);
                Err(ApiError::with_status(
                    404,
                    format!(
                        "this game is no longer open (the workbench keeps {MAX_SESSIONS} games, each until it is unused for {} minutes)",
                        IDLE_MS / 60_000
                    ),
                ))
            }
        }
    }
}

impl Workbench {
    /// `POST /api/session`: opens a game, plays `moves` (leaving out those
    /// the first spec refuses) and answers as [`Workbench::play`] does,
    /// with the game's id.
    pub fn open(&self, request: &OpenRequest, now_ms: u64) -> Result<Value, ApiError> {
        check_moves(&request.moves)?;
        let mut open = Open::new(self, request.setup.clone())?;
        for m in &request.moves {
            // A refused move is left out, as the page drops it.
            let _ = open.play(m)?;
            for r in &open.runs {
                crate::limits::check_pass_limits(r.side.pass_limits)?;
            }
        }
        let (id, open) = self.sessions.insert(open, now_ms);
        let open = lock(&open);
        Ok(open.view(&id))
    }

    /// `POST /api/session/{id}/move`: plays one move. A move the first
    /// spec refuses changes nothing; the answer carries the refusal
    /// (`refused`). Otherwise it carries each side's state, the events the
    /// move caused and its refusal on the second spec, if any.
    pub fn play_move(&self, id: &str, m: &Move, now_ms: u64) -> Result<Value, ApiError> {
        let open = self.sessions.get(id, now_ms)?;
        let mut open = lock(&open);
        match open.play(m)? {
            Err(refusal) => Ok(json!({
                "session": id,
                "moves": open.moves.len(),
                "refused": refusal,
            })),
            Ok(()) => {
                let index = open.moves.len() - 1;
                Ok(open.step_view(id, index))
            }
        }
    }

    /// `POST /api/session/{id}/back`: back to just before move `to` (undo
    /// is the last move); answers with the whole game as
    /// [`Workbench::open`] does.
    pub fn back(&self, id: &str, to: usize, now_ms: u64) -> Result<Value, ApiError> {
        let open = self.sessions.get(id, now_ms)?;
        let mut open = lock(&open);
        open.back(to)?;
        Ok(open.view(id))
    }

    /// `POST /api/session/{id}/save`: the open game as a scenario
    /// ([`Workbench::save`]).
    pub fn save_open(
        &self,
        id: &str,
        request: &SaveOpenRequest,
        now_ms: u64,
    ) -> Result<Value, ApiError> {
        let open = self.sessions.get(id, now_ms)?;
        let (setup, moves) = {
            let open = lock(&open);
            (open.setup.clone(), open.moves.clone())
        };
        self.save(&SaveRequest {
            session: PlayRequest { setup, moves },
            name: request.name.clone(),
            path: request.path.clone(),
            overwrite: request.overwrite,
        })
    }
}

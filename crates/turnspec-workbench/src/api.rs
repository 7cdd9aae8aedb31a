//! The JSON API, as plain functions over a [`Workbench`]: the HTTP routes
//! in `lib.rs` only decode and encode. Tests call these directly.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use turnspec_engine::GameOptions;

use crate::Workbench;
use crate::catalog::SpecEntry;
use crate::session::{LabelTable, Move, Side, event_json};

/// Which game to play: the spec (its index in the workbench), the player
/// count and the variants switched on; optionally a second spec driven by
/// the same moves.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Setup {
    /// Index of the spec in [`Workbench::specs`].
    pub spec: usize,
    /// Number of players; the spec's minimum when absent.
    #[serde(default)]
    pub players: Option<u8>,
    /// Variant ids to switch on.
    #[serde(default)]
    pub variants: Vec<String>,
    /// A second spec to play side by side with the same moves.
    #[serde(default)]
    pub compare: Option<usize>,
    /// Stop markers by player (`P1`...), for `pass_to_stop`
    /// (docs/stops.md): where each player's auto-passer stops. A player
    /// without markers (and without `stops_anywhere`) has no profile and
    /// is asked at every priority.
    #[serde(default)]
    pub stops: BTreeMap<String, Vec<StopMarker>>,
    /// Conditions that stop a player in every window (`stack_grew`...),
    /// the profile format's `[anywhere] when`.
    #[serde(default)]
    pub stops_anywhere: BTreeMap<String, Vec<String>>,
}

/// One stop marker: the profile format's `[[stop]]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopMarker {
    /// A step id of the spec (or a phase id: every step of it).
    pub at: String,
    /// `own`, `others` or `any` (the default), seen from the player.
    #[serde(default = "any_turn")]
    pub turn: String,
    /// `always` (the default), `stack_nonempty`, `stack_grew`, `can_play`.
    #[serde(default = "always")]
    pub when: String,
}

fn any_turn() -> String {
    "any".into()
}

fn always() -> String {
    "always".into()
}

/// A session: the setup and the moves made so far.
#[derive(Debug, Clone, Deserialize)]
pub struct PlayRequest {
    /// The game.
    #[serde(flatten)]
    pub setup: Setup,
    /// The moves, oldest first.
    #[serde(default)]
    pub moves: Vec<Move>,
}

/// An error the page shows as it is, with its HTTP status (400 unless
/// said otherwise).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// The HTTP status: 400, 404 (no such game), 413 (over a limit)...
    pub status: u16,
    /// One sentence for people.
    pub message: String,
    /// For a spec that does not load: its diagnostics, as `POST
    /// /api/check` gives them.
    pub diagnostics: Option<Value>,
}

impl ApiError {
    /// A request the workbench cannot use (400).
    pub fn bad(message: impl Into<String>) -> Self {
        ApiError::with_status(400, message)
    }

    /// A request over one of the [`crate::limits`] (413).
    pub fn too_much(message: impl Into<String>) -> Self {
        ApiError::with_status(413, message)
    }

    /// An error with the given HTTP status.
    pub fn with_status(status: u16, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            diagnostics: None,
        }
    }

    /// The body of the error's answer: `{"error": message}`, plus
    /// `"diagnostics"` when there are some.
    pub fn to_json(&self) -> Value {
        let mut v = json!({ "error": self.message });
        if let Some(d) = &self.diagnostics {
            v["diagnostics"] = d.clone();
        }
        v
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Workbench {
    /// The spec at `index` (a copy: the catalog may change meanwhile).
    pub fn entry(&self, index: usize) -> Result<SpecEntry, ApiError> {
        self.specs()
            .get(index)
            .cloned()
            .ok_or_else(|| ApiError::bad(format!("no spec #{index}")))
    }

    /// `GET /api/specs`: the specs on offer.
    pub fn list(&self) -> Value {
        json!({
            "specs": self.specs().iter().enumerate().map(|(i, s)| s.summary(i)).collect::<Vec<_>>(),
        })
    }

    /// `GET /api/specs/{index}`: one spec's details and diagram.
    pub fn spec_details(&self, index: usize) -> Result<Value, ApiError> {
        Ok(self.entry(index)?.details(index))
    }

    pub(crate) fn options(entry: &SpecEntry, setup: &Setup) -> Result<GameOptions, ApiError> {
        let spec = &entry.spec;
        if setup.variants.len() > spec.variants().len().max(1) * 2 {
            return Err(ApiError::bad(format!(
                "{} variants asked for; this spec has {}",
                setup.variants.len(),
                spec.variants().len()
            )));
        }
        let players = setup.players.unwrap_or(spec.game().min_players);
        let mut variants = Vec::new();
        for v in &setup.variants {
            // A variant the other spec of a comparison lacks is left out there.
            if let Some(id) = spec.variant_by_id(v) {
                variants.push(id);
            }
        }
        Ok(GameOptions::players(players).with_variants(variants))
    }

    /// Starts one spec's side of a game with the setup's stop markers. The
    /// first spec refuses a marker naming a step it lacks; the second spec
    /// of a comparison leaves it out, as it does variants.
    pub(crate) fn start_side(
        entry: &SpecEntry,
        setup: &Setup,
        first: bool,
    ) -> Result<Side, ApiError> {
        let options = Self::options(entry, setup)?;
        let mut side = Side::start(&entry.spec, &options)
            .map_err(|e| ApiError::bad(format!("{}: {e}", entry.label)))?;
        side.set_stops(setup, first)?;
        Ok(side)
    }

    /// Replays the moves under one spec.
    pub(crate) fn replay(
        entry: &SpecEntry,
        setup: &Setup,
        moves: &[Move],
        labels: &mut LabelTable,
        first: bool,
    ) -> Result<Side, ApiError> {
        crate::limits::check_moves(moves)?;
        let mut side = Self::start_side(entry, setup, first)?;
        for m in moves {
            side.play(m, labels);
            crate::limits::check_trace(side.trace.len())?;
            crate::limits::check_pass_limits(side.pass_limits)?;
        }
        Ok(side)
    }

    /// `POST /api/play`: replays the moves and returns, for each spec, the
    /// state, the trace with rule citations, the moves it refused and (for
    /// the first spec) what each player may do now; with two specs, the
    /// first event where their traces differ.
    ///
    /// A move the first spec refuses changes nothing; the page drops it and
    /// shows the refusal. At most [`crate::limits::MAX_MOVES`] moves and
    /// [`crate::limits::MAX_TRACE`] events per side are replayed (413
    /// beyond); the page itself keeps its game open on the server instead
    /// ([`crate::sessions`]).
    pub fn play(&self, request: &PlayRequest) -> Result<Value, ApiError> {
        let setup = &request.setup;
        let mut labels = LabelTable::new();
        let first = self.entry(setup.spec)?;
        let main = Self::replay(&first, setup, &request.moves, &mut labels, true)?;
        let other = match setup.compare {
            Some(i) => Some(Self::replay(
                &self.entry(i)?,
                setup,
                &request.moves,
                &mut labels,
                false,
            )?),
            None => None,
        };
        let divergence = other.as_ref().and_then(|o| {
            let (a, b) = (main.lines(&labels), o.lines(&labels));
            let n = a.len().max(b.len());
            (0..n).find(|&i| a.get(i) != b.get(i)).map(|i| {
                json!({
                    "index": i,
                    "left": a.get(i),
                    "right": b.get(i),
                    "move": main.trace.get(i).or(o.trace.get(i)).and_then(|e| e.by_move),
                })
            })
        });
        let mut sides = vec![side_json(setup.spec, &main, &labels, true)];
        if let (Some(o), Some(i)) = (&other, setup.compare) {
            sides.push(side_json(i, o, &labels, false));
        }
        Ok(json!({ "sides": sides, "divergence": divergence }))
    }
}

pub(crate) fn side_json(index: usize, side: &Side, labels: &LabelTable, legal: bool) -> Value {
    let spec = &side.spec;
    let refused: Vec<Value> = side
        .refused
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.as_ref().map(|r| json!({ "move": i, "refusal": r })))
        .collect();
    let mut v = json!({
        "spec": index,
        "title": spec.title(),
        "state": side.state_json(labels),
        "trace": side.trace.iter().map(|e| event_json(spec, labels, e)).collect::<Vec<_>>(),
        "refused": refused,
    });
    if legal {
        v["legal"] = side.legal_json(labels);
    }
    v
}

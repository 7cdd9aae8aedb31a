//! `simulate`, `compare`, `diff` and `explore`: the analysis crates'
//! results handed to Python as plain data (dicts and lists), which
//! `turnspec._results` wraps in result objects with table views.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Value, json};
use turnspec_compare::simulation::{Setup, SimPolicy, game_seed, play_game};
use turnspec_compare::{SpecColumn, StatsOptions};
use turnspec_explore::{FindingKind, Stop};

use crate::convert::to_py;
use crate::errors::error_of;
use crate::spec::PySpec;

fn policy_of(name: &str) -> PyResult<SimPolicy> {
    match name {
        "all-pass" | "all_pass" => Ok(SimPolicy::AllPass),
        "busy" => Ok(SimPolicy::Busy),
        "random" => Ok(SimPolicy::Random),
        other => Err(PyValueError::new_err(format!(
            "no policy {other:?}: all-pass, busy or random"
        ))),
    }
}

const FIGURES: [&str; 8] = [
    "steps",
    "windows",
    "passes",
    "actions",
    "pushes",
    "resolutions",
    "turn_actions",
    "triggers",
];

/// Plays `games` games of `spec` as `turnspec simulate` does (the same
/// games, the same counts) and returns one row per game plus the totals.
#[pyfunction]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
#[pyo3(signature = (spec, games = 1000, turns = 10, policy = "all-pass", seed = 0, players = 2))]
fn _simulate<'py>(
    py: Python<'py>,
    spec: PyRef<'_, PySpec>,
    games: u32,
    turns: u32,
    policy: &str,
    seed: u64,
    players: u8,
) -> PyResult<Bound<'py, PyAny>> {
    let policy = policy_of(policy)?;
    let s = spec.spec.clone();
    let result = py.detach(move || -> Result<Value, String> {
        let setup = Setup {
            spec: &s,
            players,
            turns,
            policy,
            depth: 1,
            seed,
            // No stop profiles: every decision is the policy's.
            stops: None,
        };
        let n = usize::try_from(games).unwrap_or(0);
        let mut cols: Vec<Vec<u64>> = vec![Vec::with_capacity(n); FIGURES.len() + 2];
        let mut status: Vec<Value> = Vec::with_capacity(n);
        let mut winners: Vec<Value> = Vec::with_capacity(n);
        let mut seeds: Vec<u64> = Vec::with_capacity(n);
        let mut totals = turnspec_compare::simulation::Tally::default();
        for i in 0..u64::from(games) {
            let g = play_game(setup, i)?;
            let c = &g.counts;
            let row = [
                c.turns,
                c.steps,
                c.windows,
                c.passes,
                c.actions,
                c.pushes,
                c.resolutions,
                c.turn_actions,
                c.triggers,
                c.draws,
            ];
            for (col, v) in cols.iter_mut().zip(row) {
                col.push(v);
            }
            let st = if c.over == 1 {
                "over"
            } else if c.stalled == 1 {
                "stalled"
            } else if c.never_ends == 1 {
                "never_ends"
            } else {
                "turn_limit"
            };
            status.push(json!(st));
            let w: Vec<String> = (0..players)
                .filter(|p| c.wins[usize::from(*p) % c.wins.len()] > 0)
                .map(|p| format!("P{}", p + 1))
                .collect();
            winners.push(json!(w));
            seeds.push(match policy {
                SimPolicy::Random => game_seed(seed, i),
                _ => 0,
            });
            totals.add(&g);
        }
        let mut games_table = serde_json::Map::new();
        games_table.insert("game".into(), json!((0..u64::from(games)).collect::<Vec<_>>()));
        games_table.insert("turns".into(), json!(cols[0]));
        for (k, name) in FIGURES.iter().enumerate() {
            games_table.insert((*name).into(), json!(cols[k + 1]));
        }
        games_table.insert("draw".into(), json!(cols[FIGURES.len() + 1]));
        games_table.insert("status".into(), Value::Array(status));
        games_table.insert("winners".into(), Value::Array(winners));
        let t = &totals.counts;
        Ok(json!({
            "spec": s.title(),
            "policy": policy.name(),
            "games": games,
            "turns": turns,
            "players": players,
            "seed": seed,
            "digest": format!("{:016x}", totals.digest()),
            "totals": {
                "turns": t.turns, "steps": t.steps, "windows": t.windows,
                "passes": t.passes, "actions": t.actions, "pushes": t.pushes,
                "resolutions": t.resolutions, "turn_actions": t.turn_actions,
                "triggers": t.triggers, "stalled": t.stalled, "never_ends": t.never_ends,
                "over": t.over, "draws": t.draws,
            },
            "wins": &t.wins[..usize::from(players).min(t.wins.len())],
            "per_turn": FIGURES.iter().zip([t.steps, t.windows, t.passes, t.actions, t.pushes, t.resolutions, t.turn_actions, t.triggers])
                .map(|(k, v)| ((*k).to_string(), json!(t.per_turn(v))))
                .collect::<serde_json::Map<_, _>>(),
            "table": games_table,
        }))
    });
    match result {
        Ok(v) => to_py(py, &v),
        Err(e) => Err(error_of(py, "SetupError", (e,))),
    }
}

/// The same simulation under several specs, as `turnspec compare`
/// without scenarios: one summary per spec (per-turn figures, wins).
#[pyfunction]
#[pyo3(signature = (specs, labels, games = 1000, turns = 10, policy = "all-pass", seed = 0, players = 2))]
#[allow(clippy::too_many_arguments)]
fn _compare<'py>(
    py: Python<'py>,
    specs: Vec<PyRef<'_, PySpec>>,
    labels: Vec<String>,
    games: u32,
    turns: u32,
    policy: &str,
    seed: u64,
    players: u8,
) -> PyResult<Bound<'py, PyAny>> {
    let options = StatsOptions {
        policy: policy_of(policy)?,
        turns,
        players,
        seed,
        games,
    };
    if labels.len() != specs.len() {
        return Err(PyValueError::new_err("one label per spec"));
    }
    let columns: Vec<SpecColumn> = specs
        .iter()
        .zip(labels)
        .map(|(s, label)| SpecColumn {
            label,
            spec: Arc::new(s.spec.clone()),
        })
        .collect();
    let value = py.detach(move || {
        let stats = turnspec_compare::simulate(&columns, &options);
        turnspec_compare::stats::to_json(&stats, &options)
    });
    to_py(py, &value)
}

/// The structural difference between two specs, as `turnspec diff`.
#[pyfunction]
fn _diff<'py>(
    py: Python<'py>,
    left: PyRef<'_, PySpec>,
    right: PyRef<'_, PySpec>,
    left_label: &str,
    right_label: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let d = turnspec_compare::diff(&left.spec, &right.spec);
    let mut value = d.to_json(left_label, right_label);
    if let Value::Object(m) = &mut value {
        m.insert(
            "text".into(),
            json!(d.to_text(left_label, right_label, true)),
        );
    }
    to_py(py, &value)
}

fn stop_json(stop: Stop) -> Value {
    match stop {
        Stop::Exhausted => json!({ "complete": true }),
        Stop::Depth { frontier } => {
            json!({ "complete": false, "stopped_at": "depth", "not_expanded": frontier })
        }
        Stop::MaxStates { depth } => {
            json!({ "complete": false, "stopped_at": "max_states", "expanding_depth": depth })
        }
        Stop::Unreadable { depth } => {
            json!({ "complete": false, "stopped_at": "unreadable", "expanding_depth": depth })
        }
        Stop::MaxMemory { depth, memory } => {
            json!({ "complete": false, "stopped_at": "max_memory", "expanding_depth": depth, "memory": memory })
        }
        #[allow(unreachable_patterns)]
        _ => json!({ "complete": false }),
    }
}

/// Every sequence of legal moves up to the bounds, as `turnspec explore`.
#[pyfunction]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
#[pyo3(signature = (spec, players = 2, turns = 1, depth = 12, max_states = 1_000_000, threads = 1))]
fn _explore<'py>(
    py: Python<'py>,
    spec: PyRef<'_, PySpec>,
    players: u8,
    turns: u32,
    depth: usize,
    max_states: usize,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let mut options = turnspec_explore::Options::default();
    options.players = players;
    options.turns = turns;
    options.depth = depth;
    options.max_states = max_states;
    options.threads = threads;
    let s = spec.spec.clone();
    let result = py.detach(move || -> Result<Value, String> {
        let r = turnspec_explore::explore(&s, &options)?;
        let coverage: Vec<Value> = r
            .coverage
            .iter()
            .map(|c| json!({ "kind": c.kind, "id": c.id, "rule": c.rule, "reached_after": c.reached }))
            .collect();
        let findings: Vec<Value> = r
            .findings
            .iter()
            .map(|f| {
                let kind = match f.kind {
                    FindingKind::DeadEnd {
                        status,
                        beyond_limit,
                    } => json!({ "dead_end": status.name(), "beyond_limit": beyond_limit }),
                    FindingKind::Cycle { of_plays } => json!({ "cycle": { "of_plays": of_plays } }),
                    FindingKind::DeepestStack { depth } => json!({ "deepest_stack": depth }),
                };
                json!({
                    "kind": kind,
                    "summary": f.summary,
                    "rules": f.rules,
                    "moves": f.moves.iter().map(|m| r.describe_move(*m)).collect::<Vec<_>>(),
                })
            })
            .collect();
        Ok(json!({
            "title": r.title,
            "states": r.states,
            "edges": r.edges,
            "deepest_level": r.deepest,
            "stop": stop_json(r.stop),
            "complete": r.complete(),
            "coverage": coverage,
            "findings": findings,
            "text": r.to_text(),
        }))
    });
    match result {
        Ok(v) => to_py(py, &v),
        Err(e) => Err(error_of(py, "TurnspecError", (e,))),
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(_compare, m)?)?;
    m.add_function(wrap_pyfunction!(_diff, m)?)?;
    m.add_function(wrap_pyfunction!(_explore, m)?)?;
    Ok(())
}

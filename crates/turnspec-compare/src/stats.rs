//! Simulated turns under several specs, counted per turn: how many steps,
//! priority windows, passes, plays and turn-based actions a turn of each
//! edition takes when nobody acts (`all-pass`) or when players act at
//! random. Every game is [`play_game`], the one `turnspec simulate` plays,
//! and the figures are its [`Counts`]: the two commands count the same
//! things the same way (a step-less phase counts as one step).

use serde_json::{Value, json};

use crate::matrix::SpecColumn;
pub use crate::simulation::SimPolicy as StatsPolicy;
use crate::simulation::{Counts, Setup, Tally, play_game};

/// How to simulate: the same options apply to every spec, so the counts
/// can be compared.
#[derive(Debug, Clone, Copy)]
pub struct StatsOptions {
    /// Who plays.
    pub policy: StatsPolicy,
    /// Turns per game (the game stops when this turn ends).
    pub turns: u32,
    /// Players seated in every game.
    pub players: u8,
    /// The run's seed: game `i` uses `simulation::game_seed(seed, i)`, as in
    /// `turnspec simulate` (random policy only).
    pub seed: u64,
    /// Games per spec (at least 1 is played).
    pub games: u32,
}

/// The summed counts of all games played under one spec.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecStats {
    /// The spec's column label.
    pub label: String,
    /// The games' counts, summed.
    pub counts: Counts,
    /// How many games were played.
    pub games: u32,
    /// Games that stalled (no window could open) or whose turn never ended.
    pub stalled: u32,
    /// The digest of the games, as `turnspec simulate` computes it for the
    /// same spec, policy, seed, players, turns and games.
    pub digest: u64,
    /// The spec could not be set up for these options.
    pub error: Option<String>,
}

/// The per-turn figures, in table order: the JSON key and the column title.
const ROWS: [(&str, &str); 8] = [
    ("steps", "steps"),
    ("windows", "windows"),
    ("passes", "passes"),
    ("actions", "actions"),
    ("pushes", "pushes"),
    ("resolutions", "resolutions"),
    ("turn_actions", "turn actions"),
    ("triggers", "triggers"),
];

impl SpecStats {
    /// `n` per turn played (0 when no turn was played).
    pub fn per_turn(&self, n: u64) -> f64 {
        self.counts.per_turn(n)
    }

    /// The figures per turn: steps (a step-less phase counts as one),
    /// windows, passes, actions (plays the players chose), pushes,
    /// resolutions, turn-based actions, triggers.
    pub fn rows(&self) -> [(&'static str, f64); 8] {
        let c = &self.counts;
        let n = [
            c.steps,
            c.windows,
            c.passes,
            c.actions,
            c.pushes,
            c.resolutions,
            c.turn_actions,
            c.triggers,
        ];
        std::array::from_fn(|i| (ROWS[i].0, self.per_turn(n[i])))
    }
}

/// Plays `options.games` games under each spec and sums their counts.
pub fn simulate(columns: &[SpecColumn], options: &StatsOptions) -> Vec<SpecStats> {
    columns
        .iter()
        .map(|col| {
            let setup = Setup {
                spec: &col.spec,
                players: options.players,
                turns: options.turns,
                policy: options.policy,
                depth: 1,
                seed: options.seed,
                stops: None,
            };
            let mut tally = Tally::default();
            let mut error = None;
            for i in 0..u64::from(options.games.max(1)) {
                match play_game(setup, i) {
                    Ok(game) => tally.add(&game),
                    Err(e) => {
                        error = Some(e);
                        break;
                    }
                }
            }
            let c = tally.counts;
            SpecStats {
                label: col.label.clone(),
                counts: c,
                games: tally.games as u32,
                stalled: (c.stalled + c.never_ends) as u32,
                digest: tally.digest(),
                error,
            }
        })
        .collect()
}

/// A table: one row per spec, one column per figure (per turn).
pub fn to_text(stats: &[SpecStats], options: &StatsOptions) -> String {
    let mut out = format!(
        "{} game(s) per spec, {} turn(s), {} players, policy {}{}\nper turn (a step-less phase counts as one step; actions: plays chosen):\n",
        options.games.max(1),
        options.turns,
        options.players,
        options.policy.name(),
        if options.policy == StatsPolicy::Random {
            format!(", seed {}", options.seed)
        } else {
            String::new()
        }
    );
    let width = stats
        .iter()
        .map(|s| s.label.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    out.push_str(&format!("{:<width$}", "spec"));
    for (_, h) in ROWS {
        out.push_str(&format!("  {h:>12}"));
    }
    out.push('\n');
    for s in stats {
        out.push_str(&format!("{:<width$}", s.label));
        if let Some(e) = &s.error {
            out.push_str(&format!("  cannot play: {e}\n"));
            continue;
        }
        for (_, v) in s.rows() {
            out.push_str(&format!("  {v:>12.2}"));
        }
        if s.stalled > 0 {
            out.push_str(&format!("  ({} stalled)", s.stalled));
        }
        let c = &s.counts;
        if c.over > 0 {
            let wins: Vec<String> = c.wins[..usize::from(options.players)]
                .iter()
                .enumerate()
                .map(|(i, w)| format!("P{} {w}", i + 1))
                .collect();
            out.push_str(&format!(
                "  ({} over: wins {}; draws {})",
                c.over,
                wins.join(", "),
                c.draws
            ));
        }
        out.push('\n');
    }
    out
}

/// The JSON form: the options, then each spec's totals and per-turn rates.
pub fn to_json(stats: &[SpecStats], options: &StatsOptions) -> Value {
    json!({
        "policy": options.policy.name(),
        "turns": options.turns,
        "players": options.players,
        "seed": options.seed,
        "games": options.games.max(1),
        "specs": stats.iter().map(|s| {
            let c = &s.counts;
            json!({
                "spec": s.label,
                "error": s.error,
                "games": s.games,
                "stalled": s.stalled,
                "totals": {
                    "turns": c.turns, "steps": c.steps, "windows": c.windows,
                    "passes": c.passes, "actions": c.actions, "pushes": c.pushes,
                    "resolutions": c.resolutions, "turn_actions": c.turn_actions,
                    "triggers": c.triggers, "stalled": c.stalled, "never_ends": c.never_ends,
                },
                "outcomes": {
                    "over": c.over,
                    "draws": c.draws,
                    "wins": &c.wins[..usize::from(options.players)],
                },
                "digest": format!("{:016x}", s.digest),
                "per_turn": s.rows().iter().map(|(k, v)| (k.to_string(), json!((v * 1000.0).round() / 1000.0))).collect::<serde_json::Map<_, _>>(),
            })
        }).collect::<Vec<_>>(),
    })
}

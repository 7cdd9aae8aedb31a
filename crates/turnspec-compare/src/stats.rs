//! Simulated turns under several specs, counted per turn: how many steps,
//! priority windows, passes and turn-based actions a turn of each edition
//! takes when nobody acts (`all-pass`) or when players act at random.

use serde_json::{Value, json};
use turnspec_engine::policy::{AllPass, RandomPolicy, play_out};
use turnspec_engine::{EventCounts, Game, GameOptions, Status};

use crate::matrix::SpecColumn;

/// Who plays the simulated games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatsPolicy {
    /// Nobody acts; every hook is answered 0 (no attackers, no first strike).
    AllPass,
    /// Random legal plays and hook answers, from a seed.
    Random,
}

impl StatsPolicy {
    /// The name the command line and the JSON form use.
    pub fn name(self) -> &'static str {
        match self {
            StatsPolicy::AllPass => "all-pass",
            StatsPolicy::Random => "random",
        }
    }
}

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
    /// Game `i` uses seed `seed + i` (random policy only).
    pub seed: u64,
    /// Games per spec (at least 1 is played).
    pub games: u32,
}

/// The summed counts of all games played under one spec.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecStats {
    /// The spec's column label.
    pub label: String,
    /// Events of each kind, summed over the games.
    pub counts: EventCounts,
    /// How many games were played.
    pub games: u32,
    /// Games that stalled (no window could open, or a turn never ended).
    pub stalled: u32,
    /// The spec could not be set up for these options.
    pub error: Option<String>,
}

impl SpecStats {
    /// `n` per turn played (0 when no turn was played).
    pub fn per_turn(&self, n: u64) -> f64 {
        if self.counts.turns == 0 {
            0.0
        } else {
            n as f64 / self.counts.turns as f64
        }
    }

    /// The figures per turn: steps, windows, passes, turn-based actions,
    /// plays onto the stack, resolutions, triggers.
    pub fn rows(&self) -> [(&'static str, f64); 7] {
        let c = &self.counts;
        [
            ("steps", self.per_turn(c.steps)),
            ("windows", self.per_turn(c.windows)),
            ("passes", self.per_turn(c.passes)),
            ("turn_actions", self.per_turn(c.turn_actions)),
            ("pushes", self.per_turn(c.pushes)),
            ("resolutions", self.per_turn(c.resolutions)),
            ("triggers", self.per_turn(c.triggers)),
        ]
    }
}

fn add(a: &mut EventCounts, b: &EventCounts) {
    a.turns += b.turns;
    a.phases += b.phases;
    a.steps += b.steps;
    a.turn_actions += b.turn_actions;
    a.windows += b.windows;
    a.passes += b.passes;
    a.pushes += b.pushes;
    a.resolutions += b.resolutions;
    a.triggers += b.triggers;
    a.special_actions += b.special_actions;
    a.events += b.events;
}

/// Plays `options.games` games under each spec and sums their counts.
pub fn simulate(columns: &[SpecColumn], options: &StatsOptions) -> Vec<SpecStats> {
    columns
        .iter()
        .map(|col| {
            let mut stats = SpecStats {
                label: col.label.clone(),
                counts: EventCounts::default(),
                games: 0,
                stalled: 0,
                error: None,
            };
            for i in 0..options.games.max(1) {
                let mut game = match Game::new(&col.spec, &GameOptions::players(options.players)) {
                    Ok(g) => g,
                    Err(e) => {
                        stats.error = Some(e.to_string());
                        break;
                    }
                };
                game.set_turn_limit(options.turns);
                let mut counts = EventCounts::default();
                match options.policy {
                    StatsPolicy::AllPass => {
                        play_out(&mut game, &mut AllPass, &mut counts);
                    }
                    StatsPolicy::Random => {
                        let mut p = RandomPolicy::new(options.seed.wrapping_add(i as u64));
                        play_out(&mut game, &mut p, &mut counts);
                    }
                }
                add(&mut stats.counts, &counts);
                stats.games += 1;
                stats.stalled +=
                    matches!(game.status(), Status::Stalled | Status::NeverEnds) as u32;
            }
            stats
        })
        .collect()
}

/// A table: one row per spec, one column per figure (per turn).
pub fn to_text(stats: &[SpecStats], options: &StatsOptions) -> String {
    let mut out = format!(
        "{} game(s) per spec, {} turn(s), {} players, policy {}{}\nper turn:\n",
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
    let headers = [
        "steps",
        "windows",
        "passes",
        "turn actions",
        "pushes",
        "resolutions",
        "triggers",
    ];
    for h in headers {
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
                    "turns": c.turns, "phases": c.phases, "steps": c.steps,
                    "windows": c.windows, "passes": c.passes, "turn_actions": c.turn_actions,
                    "pushes": c.pushes, "resolutions": c.resolutions, "triggers": c.triggers,
                    "special_actions": c.special_actions, "events": c.events,
                },
                "per_turn": s.rows().iter().map(|(k, v)| (k.to_string(), json!((v * 1000.0).round() / 1000.0))).collect::<serde_json::Map<_, _>>(),
            })
        }).collect::<Vec<_>>(),
    })
}

//! `turnspec compare A B [PATHS...]` (or `--spec A --spec B`): the same
//! scenarios, or
//! the same recorded games (`turnspec run --record`, `.json` files), under
//! several specs; or simulated turns per spec when no path is given (the
//! games and counts of `turnspec simulate`: `turnspec_compare::simulation`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use turnspec_compare::stats::{self, StatsOptions};
use turnspec_compare::{ScenarioText, SpecColumn, run_matrix};
use turnspec_scenario::find_scenarios;

use crate::{Format, PolicyName, load};

#[derive(Args)]
pub struct CompareArgs {
    /// A spec to compare; specs may also be given as paths (a `.toml` file
    /// without a `[scenario]` table is a spec). Give two or more in all.
    #[arg(long = "spec")]
    pub specs: Vec<PathBuf>,
    /// Spec files, then scenario files or folders, or games recorded with
    /// `turnspec run --record FILE` (`.json`). Without scenarios or
    /// recordings: statistics mode.
    pub paths: Vec<PathBuf>,
    /// Statistics mode: who plays the simulated turns.
    #[arg(long, value_enum)]
    pub policy: Option<PolicyName>,
    /// Statistics mode: turns per game.
    #[arg(long, default_value_t = 10)]
    pub turns: u32,
    /// Statistics mode: players per game.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Statistics mode: seed of the random policy (game i's seed is derived
    /// from (seed, i), as in `simulate`); 0 when not given. Refused with
    /// all-pass, which uses no randomness.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Statistics mode: games per spec.
    #[arg(long, default_value_t = 1)]
    pub games: u32,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Column labels: file stems, or whole paths where stems collide.
fn labels(paths: &[PathBuf]) -> Vec<String> {
    let stem = |p: &Path| {
        p.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| p.display().to_string())
    };
    let stems: Vec<String> = paths.iter().map(|p| stem(p)).collect();
    paths
        .iter()
        .zip(&stems)
        .map(|(p, s)| {
            if stems.iter().filter(|x| *x == s).count() > 1 {
                p.display().to_string()
            } else {
                s.clone()
            }
        })
        .collect()
}

pub fn compare(mut args: CompareArgs) -> Result<ExitCode, String> {
    // Specs as positional arguments, like every other verb: told from
    // scenarios by their content, as folder searches do.
    let (specs, rest): (Vec<PathBuf>, Vec<PathBuf>) = std::mem::take(&mut args.paths)
        .into_iter()
        .partition(|p| turnspec_scenario::is_spec_file(p));
    args.specs.extend(specs);
    args.paths = rest;
    if args.specs.len() < 2 {
        return Err("give at least two specs: turnspec compare A.toml B.toml [PATHS...]".into());
    }
    let mut columns = Vec::new();
    for (path, label) in args.specs.iter().zip(labels(&args.specs)) {
        let Some((spec, _)) = load(path)? else {
            return Ok(ExitCode::from(2));
        };
        columns.push(SpecColumn {
            label,
            spec: Arc::new(spec),
        });
    }
    if args.paths.is_empty() {
        let policy = args.policy.unwrap_or(PolicyName::AllPass);
        policy.check_seed(args.seed)?;
        for c in &columns {
            policy.check_spec(&c.spec, &c.label)?;
        }
        let options = StatsOptions {
            policy: policy.lib(),
            turns: args.turns,
            players: args.players,
            seed: args.seed.unwrap_or(0),
            games: args.games,
        };
        let result = stats::simulate(&columns, &options);
        match args.format {
            Format::Text => crate::out::print(&stats::to_text(&result, &options)),
            Format::Json => crate::out::println(
                &serde_json::to_string_pretty(&stats::to_json(&result, &options))
                    .unwrap_or_default(),
            ),
        }
        return Ok(if result.iter().any(|s| s.error.is_some()) {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        });
    }
    if args.policy.is_some() {
        return Err("--policy is for statistics mode (no scenario paths)".into());
    }
    if args.seed.is_some() {
        return Err("--seed is for statistics mode (no scenario paths)".into());
    }
    for p in &args.paths {
        if !p.exists() {
            return Err(format!("{} does not exist", p.display()));
        }
    }
    let (recordings, scenario_paths): (Vec<PathBuf>, Vec<PathBuf>) = args
        .paths
        .iter()
        .cloned()
        .partition(|p| p.is_file() && p.extension().is_some_and(|e| e == "json"));
    if !recordings.is_empty() {
        let table = compare_recordings(&columns, &recordings)?;
        match args.format {
            Format::Text => crate::out::print(&table.to_text(&columns)),
            Format::Json => crate::out::println(
                &serde_json::to_string_pretty(&table.to_json(&columns)).unwrap_or_default(),
            ),
        }
        if scenario_paths.is_empty() {
            return Ok(ExitCode::SUCCESS);
        }
    }
    let found = find_scenarios(&scenario_paths);
    if !found.errors.is_empty() {
        let errors: Vec<String> = found.errors.iter().map(ToString::to_string).collect();
        return Err(errors.join("\nerror: "));
    }
    let files = found.files;
    if files.is_empty() {
        return Err(
            "no scenario files found (a scenario is a .toml file with a [scenario] table)".into(),
        );
    }
    let mut scenarios = Vec::new();
    for f in &files {
        scenarios.push(ScenarioText {
            path: f.display().to_string(),
            source: turnspec_scenario::read_text(f).map_err(|e| e.to_string())?,
        });
    }
    let matrix = run_matrix(&columns, &scenarios);
    match args.format {
        Format::Text => crate::out::print(&matrix.to_text()),
        Format::Json => crate::out::println(
            &serde_json::to_string_pretty(&matrix.to_json()).unwrap_or_default(),
        ),
    }
    Ok(ExitCode::SUCCESS)
}

/// What became of each recorded game under each spec.
struct RecordingTable {
    /// Per recording: its path and one cell per spec column.
    rows: Vec<(String, Vec<Cell>)>,
}

/// A recorded game replayed under one spec.
enum Cell {
    /// Every event as recorded.
    Same { events: usize },
    /// The first event that differs (1-based), and each side's line.
    Differs {
        event: usize,
        recorded: Option<String>,
        here: Option<String>,
    },
    /// The first recorded move this spec refuses (1-based), and why.
    Refused { mv: usize, reason: String },
    /// The game cannot be set up under this spec.
    Error(String),
}

fn compare_recordings(columns: &[SpecColumn], files: &[PathBuf]) -> Result<RecordingTable, String> {
    use turnspec_serve::record::{FORMAT, Recording, replay};
    let mut rows = Vec::new();
    for file in files {
        let text = turnspec_scenario::read_text(file)
            .map_err(|e| format!("cannot read {}: {}", file.display(), e.reason))?;
        let rec: Recording = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a turnspec recording: {e}", file.display()))?;
        if rec.format != FORMAT {
            return Err(format!("{} is not a turnspec recording", file.display()));
        }
        let source = crate::SpecSource::new(rec.spec.as_ref().map(PathBuf::from));
        let Some((original, _)) = source.load()? else {
            return Err(format!("{}: its spec does not load", file.display()));
        };
        let cells = columns
            .iter()
            .map(|c| match replay(&original, &c.spec, &rec) {
                Err(e) => Cell::Error(e),
                Ok(r) => match (&r.refused, &r.divergence) {
                    (Some((i, _, refusal)), _) => Cell::Refused {
                        mv: i + 1,
                        reason: refusal.message.clone(),
                    },
                    (None, Some(d)) => Cell::Differs {
                        event: d.index + 1,
                        recorded: d.left.as_ref().map(|(l, _)| l.clone()),
                        here: d.right.as_ref().map(|(l, _)| l.clone()),
                    },
                    (None, None) => Cell::Same { events: r.events.1 },
                },
            })
            .collect();
        rows.push((file.display().to_string(), cells));
    }
    Ok(RecordingTable { rows })
}

impl RecordingTable {
    fn to_text(&self, columns: &[SpecColumn]) -> String {
        let mut s = String::from("recorded games, replayed under each spec:\n");
        for (file, cells) in &self.rows {
            s.push_str(&format!("{file}\n"));
            for (c, cell) in columns.iter().zip(cells) {
                let what = match cell {
                    Cell::Same { events } => format!("same game ({events} events)"),
                    Cell::Differs {
                        event,
                        recorded,
                        here,
                    } => format!(
                        "differs at event {event}: recorded `{}`, here `{}`",
                        recorded.as_deref().unwrap_or("(no more events)"),
                        here.as_deref().unwrap_or("(no more events)")
                    ),
                    Cell::Refused { mv, reason } => format!("refuses move {mv}: {reason}"),
                    Cell::Error(e) => format!("error: {e}"),
                };
                s.push_str(&format!("  {:<24} {what}\n", c.label));
            }
        }
        s
    }

    fn to_json(&self, columns: &[SpecColumn]) -> serde_json::Value {
        let rows: Vec<serde_json::Value> = self
            .rows
            .iter()
            .map(|(file, cells)| {
                let by_spec: Vec<serde_json::Value> = columns
                    .iter()
                    .zip(cells)
                    .map(|(c, cell)| {
                        let mut v = match cell {
                            Cell::Same { events } => {
                                serde_json::json!({ "result": "same", "events": events })
                            }
                            Cell::Differs {
                                event,
                                recorded,
                                here,
                            } => serde_json::json!({
                                "result": "differs", "event": event,
                                "recorded": recorded, "here": here,
                            }),
                            Cell::Refused { mv, reason } => {
                                serde_json::json!({ "result": "refused", "move": mv, "reason": reason })
                            }
                            Cell::Error(e) => serde_json::json!({ "result": "error", "error": e }),
                        };
                        v["spec"] = c.label.clone().into();
                        v
                    })
                    .collect();
                serde_json::json!({ "recording": file, "specs": by_spec })
            })
            .collect();
        serde_json::json!({ "recordings": rows })
    }
}

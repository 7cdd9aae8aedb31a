//! `turnspec compare --spec A --spec B [PATHS...]`: the same scenarios under
//! several specs, or simulated turns per spec when no path is given (the
//! games and counts of `turnspec simulate`: `turnspec_compare::simulation`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use turnspec_compare::stats::{self, StatsOptions, StatsPolicy};
use turnspec_compare::{ScenarioText, SpecColumn, run_matrix};
use turnspec_scenario::find_scenarios;

use crate::{Format, PolicyName, load};

#[derive(Args)]
pub struct CompareArgs {
    /// A spec to compare (give two or more).
    #[arg(long = "spec", required = true)]
    pub specs: Vec<PathBuf>,
    /// Scenario files or folders. Without any: statistics mode.
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

pub fn compare(args: CompareArgs) -> Result<ExitCode, String> {
    if args.specs.len() < 2 {
        return Err("give at least two specs: --spec A --spec B".into());
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
        if args.policy != Some(PolicyName::Random) && args.seed.is_some() {
            return Err("--seed has no effect with --policy all-pass (nobody acts at random); add --policy random".into());
        }
        let options = StatsOptions {
            policy: match args.policy.unwrap_or(PolicyName::AllPass) {
                PolicyName::AllPass => StatsPolicy::AllPass,
                PolicyName::Random => StatsPolicy::Random,
            },
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
    let found = find_scenarios(&args.paths);
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

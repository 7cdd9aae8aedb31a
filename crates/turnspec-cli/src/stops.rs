//! `turnspec stops check PROFILE SPEC`: the stop profile's safety check
//! (crates/turnspec-explore, `check_stops`), and loading profiles for
//! `run --stops` and `simulate --stops`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde_json::json;
use turnspec_explore::{Options, Verdict, check_stops};
use turnspec_spec::{Spec, StopProfile};

use crate::{Format, load, render_report};

#[derive(Subcommand)]
pub enum StopsCommand {
    /// Every window where P1 could act but the profile passes through
    /// without asking, with the shortest sequence that reaches it. Exit 1
    /// when the profile hides a decision (a timing class usable at none of
    /// its stops), unless a `[[pass]]` marks that place as chosen.
    Check(CheckArgs),
}

#[derive(Args)]
pub struct CheckArgs {
    /// The stop profile (TOML, docs/stops.md), given to P1.
    pub profile: PathBuf,
    /// The spec it was made for.
    pub spec: PathBuf,
    /// Seats at the table.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Search this many turns (2 sees P1's own turn and another's).
    #[arg(long, default_value_t = 2)]
    pub turns: u32,
    /// The longest sequence of moves tried.
    #[arg(long, default_value_t = 60)]
    pub depth: usize,
    /// Stop with an "incomplete" report after this many distinct states.
    #[arg(long, default_value_t = 300_000)]
    pub max_states: usize,
    /// The most host moves (answers, triggers, effects, facts...) in one
    /// sequence.
    #[arg(long, default_value_t = 0)]
    pub host_moves: u8,
    /// Worker threads (0: one per core). The report does not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// `text` for people, `json` for tools.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn stops(command: StopsCommand) -> Result<ExitCode, String> {
    match command {
        StopsCommand::Check(args) => check(args),
    }
}

/// Loads a stop profile for `spec`, printing its diagnostics; `None` if it
/// has errors.
pub(crate) fn load_profile(path: &Path, spec: &Spec) -> Result<Option<StopProfile>, String> {
    let text = turnspec_scenario::read_text(path).map_err(|e| e.to_string())?;
    match turnspec_spec::load_stops(&path.display().to_string(), &text, spec) {
        Ok(profile) => Ok(Some(profile)),
        Err(report) => {
            crate::out::eprint(&render_report(&report));
            crate::out::eprintln(&format!("{}: {} error(s)", path.display(), report.errors()));
            Ok(None)
        }
    }
}

fn check(args: CheckArgs) -> Result<ExitCode, String> {
    let Some((spec, _)) = load(&args.spec)? else {
        return Ok(ExitCode::from(2));
    };
    let Some(profile) = load_profile(&args.profile, &spec)? else {
        return Ok(ExitCode::from(2));
    };
    let mut options = Options::default();
    options.players = args.players;
    options.turns = args.turns;
    options.depth = args.depth;
    options.max_states = args.max_states;
    options.host_moves = args.host_moves;
    options.threads = args.threads;
    let report = check_stops(&spec, &profile, &options)?;
    match args.format {
        Format::Text => {
            crate::out::print(&report.to_text(&args.profile.display().to_string()));
        }
        Format::Json => {
            let windows: Vec<_> = report
                .windows
                .iter()
                .map(|w| {
                    json!({
                        "step": w.step, "own_turn": w.own_turn, "stack": w.stack,
                        "classes": w.classes, "hides": w.hides,
                        "verdict": w.verdict.name(), "rules": w.rules,
                        "moves": w.moves.iter().map(|m| report.describe_move(*m)).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let v = json!({
                "profile": args.profile.display().to_string(),
                "spec": args.spec.display().to_string(),
                "title": report.title, "options": report.options.summary(),
                "states": report.states,
                "complete": report.stop == turnspec_explore::Stop::Exhausted,
                "asked_classes": report.asked_classes, "windows": windows,
            });
            crate::out::println(&serde_json::to_string_pretty(&v).unwrap_or_default());
        }
    }
    let hidden = report.windows.iter().any(|w| w.verdict == Verdict::Hidden);
    Ok(if hidden {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The auto-passer `--stops` asks for: each value is `P1=FILE` (that
/// player's profile) or `FILE` (every player's). `Ok(None)` without
/// `--stops`; an error when a value or a profile is wrong (the profile's
/// diagnostics are printed first).
pub(crate) fn passer_from_args(
    values: &[String],
    spec: &Spec,
    players: u8,
) -> Result<Option<turnspec_engine::AutoPasser>, String> {
    if values.is_empty() {
        return Ok(None);
    }
    let mut passer = turnspec_engine::AutoPasser::new();
    for value in values {
        let (seats, file): (Vec<u8>, &str) = match value.split_once('=') {
            Some((who, file)) => {
                let n = who
                    .strip_prefix('P')
                    .and_then(|n| n.parse::<u8>().ok())
                    .filter(|n| (1..=players).contains(n))
                    .ok_or_else(|| {
                        format!("--stops {value}: write P1=FILE to P{players}=FILE, or FILE for every player")
                    })?;
                (vec![n - 1], file)
            }
            None => ((0..players).collect(), value.as_str()),
        };
        let Some(profile) = load_profile(Path::new(file), spec)? else {
            return Err(format!("--stops {value}: the stop profile has errors"));
        };
        for seat in seats {
            passer
                .set_profile(spec, turnspec_engine::PlayerId(seat), profile.clone())
                .map_err(|e| format!("--stops {value}: {e}"))?;
        }
    }
    Ok(Some(passer))
}

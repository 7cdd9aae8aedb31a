//! `turnspec`: a thin command line over the spec, engine and trace crates.
//! Reading files and printing happen here and nowhere else.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use turnspec_engine::policy::{AllPass, Policy, RandomPolicy, play_out};
use turnspec_engine::{Event, Game, GameOptions, Status};
use turnspec_spec::{Report, Spec, Stage, WindowMode};

#[derive(Parser)]
#[command(
    name = "turnspec",
    version,
    about = "Declarative turn structures for card games: check specs, run turns, see the trace"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate turn specs and print a short summary of each.
    Check {
        /// Spec files (TOML).
        #[arg(required = true)]
        specs: Vec<PathBuf>,
        /// `text` for people (with source excerpts), `json` for tools.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Play turns of a game and print the trace.
    Run {
        /// Spec file; defaults to games/mtg.toml.
        spec: Option<PathBuf>,
        #[arg(long, default_value_t = 2)]
        players: u8,
        #[arg(long, default_value_t = 2)]
        turns: u32,
        #[arg(long, value_enum, default_value_t = PolicyName::AllPass)]
        policy: PolicyName,
        /// Seed for the random policy.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Also print "end of ..." lines in text output.
        #[arg(long)]
        show_ends: bool,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PolicyName {
    /// Nobody acts; no attackers are declared.
    AllPass,
    /// Random legal actions and hook answers from --seed.
    Random,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { specs, format } => check(&specs, format),
        Command::Run {
            spec,
            players,
            turns,
            policy,
            seed,
            format,
            show_ends,
        } => run(spec, players, turns, policy, seed, format, show_ends),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// The default spec: games/mtg.toml in the current directory, else in the
/// source tree this binary was built from.
fn default_spec() -> PathBuf {
    let local = PathBuf::from("games/mtg.toml");
    if local.exists() {
        return local;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games/mtg.toml")
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn render_report(report: &Report) -> String {
    if !std::io::stderr().is_terminal() {
        return report.to_short_text();
    }
    let handler = miette::GraphicalReportHandler::new();
    let mut out = String::new();
    for r in report.to_miette() {
        let _ = handler.render_report(&mut out, r.as_ref());
        out.push('\n');
    }
    out
}

/// Loads a spec, printing its diagnostics; `None` if it has errors.
fn load(path: &Path) -> Result<Option<(Spec, Report)>, String> {
    let text = read(path)?;
    match turnspec_spec::load_str(&path.display().to_string(), &text) {
        Ok((spec, report)) => Ok(Some((spec, report))),
        Err(report) => {
            eprint!("{}", render_report(&report));
            eprintln!("{}: {} error(s)", path.display(), report.errors());
            Ok(None)
        }
    }
}

fn summary(spec: &Spec) -> String {
    let regular_steps: usize = spec
        .turn
        .iter()
        .map(|p| {
            spec.phase(*p)
                .steps()
                .filter(|s| !spec.step(*s).implicit)
                .count()
        })
        .sum();
    let always = spec
        .windows
        .iter()
        .filter(|w| w.mode == WindowMode::Always)
        .count();
    let pending = spec.windows.len() - always;
    let on_demand: Vec<&str> = spec
        .phases
        .iter()
        .filter(|p| p.on_demand)
        .map(|p| p.id.as_str())
        .collect();
    let mut s = format!(
        "{} — {} ({})\n  players {}–{}, {} phases in a turn ({}), {} steps\n  {} turn-based actions; windows: {} always, {} only when something is pending\n  timing classes: {}",
        spec.game.name,
        spec.game.edition,
        spec.game.edition_date,
        spec.game.min_players,
        spec.game.max_players,
        spec.turn.len(),
        spec.turn
            .iter()
            .map(|p| spec.phase(*p).id.as_str())
            .collect::<Vec<_>>()
            .join(" → "),
        regular_steps,
        spec.turn_actions.len(),
        always,
        pending,
        spec.timing
            .iter()
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    );
    if !on_demand.is_empty() {
        s.push_str(&format!("\n  started by actions: {}", on_demand.join(", ")));
    }
    s
}

fn check(paths: &[PathBuf], format: Format) -> Result<ExitCode, String> {
    let mut failed = false;
    let mut json = Vec::new();
    for path in paths {
        let text = read(path)?;
        let result = turnspec_spec::load_str(&path.display().to_string(), &text);
        let (report, spec) = match result {
            Ok((spec, report)) => (report, Some(spec)),
            Err(report) => (report, None),
        };
        failed |= spec.is_none();
        match format {
            Format::Text => {
                eprint!("{}", render_report(&report));
                match &spec {
                    Some(spec) => println!(
                        "ok: {}\n  {}",
                        path.display(),
                        summary(spec).replace('\n', "\n  ")
                    ),
                    None => eprintln!("{}: {} error(s)", path.display(), report.errors()),
                }
            }
            Format::Json => json.push(serde_json::json!({
                "file": path.display().to_string(),
                "ok": spec.is_some(),
                "diagnostics": report.to_json(),
                "summary": spec.as_ref().map(|s| serde_json::json!({
                    "name": s.game.name,
                    "edition": s.game.edition,
                    "phases": s.turn.len(),
                    "steps": s.steps.len(),
                    "turn_actions": s.turn_actions.len(),
                    "windows": s.windows.len(),
                    "timing_classes": s.timing.iter().map(|t| t.id.clone()).collect::<Vec<_>>(),
                })),
            })),
        }
    }
    if format == Format::Json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        );
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

#[allow(clippy::too_many_arguments)]
fn run(
    spec: Option<PathBuf>,
    players: u8,
    turns: u32,
    policy: PolicyName,
    seed: u64,
    format: Format,
    show_ends: bool,
) -> Result<ExitCode, String> {
    let path = spec.unwrap_or_else(default_spec);
    let Some((spec, _)) = load(&path)? else {
        return Ok(ExitCode::FAILURE);
    };
    let mut game = Game::new(&spec, &GameOptions::players(players)).map_err(|e| e.to_string())?;
    game.set_turn_limit(turns);
    let mut events: Vec<Event> = Vec::new();
    match policy {
        PolicyName::AllPass => play(&mut game, &mut AllPass, &mut events),
        PolicyName::Random => play(&mut game, &mut RandomPolicy::new(seed), &mut events),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let text = match format {
        Format::Text => {
            let mut t = format!(
                "{} — {} ({}), {players} players\n",
                spec.game.name, spec.game.edition, spec.game.edition_date
            );
            t.push_str(&turnspec_trace::to_text(
                &spec,
                &(),
                &events,
                turnspec_trace::TextOptions { show_ends },
            ));
            t
        }
        Format::Json => turnspec_trace::to_json_lines(&spec, &(), &events),
    };
    // A closed pipe (`| head`) is not an error.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    Ok(match game.status() {
        Status::Stalled => {
            eprintln!("error: the game stalled: no priority window could open");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    })
}

fn play<P: Policy>(game: &mut Game<'_>, policy: &mut P, events: &mut Vec<Event>) {
    play_out(game, policy, events);
}

#[allow(dead_code)]
fn has_window(spec: &Spec) -> bool {
    spec.steps
        .iter()
        .any(|s| s.stages.iter().any(|st| matches!(st, Stage::Window(_))))
}

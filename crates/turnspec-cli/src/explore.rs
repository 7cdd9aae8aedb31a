//! `turnspec explore SPEC [--against B]`: every sequence of moves within a
//! bound (crates/turnspec-explore), findings written as scenarios. The
//! search is the library's; this module loads, times, prints and writes.

use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use turnspec_explore::{FindingKind, Options, explore, explore_against, run_scenario};
use turnspec_scenario::Outcome;

use crate::load;

#[derive(Args)]
pub struct ExploreArgs {
    /// The spec to explore (A).
    pub spec: PathBuf,
    /// Explore this spec (B) in lockstep with A, on the same moves, and
    /// report the shortest sequences after which their traces differ.
    #[arg(long)]
    pub against: Option<PathBuf>,
    /// Seats at the table.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Stop each game when this turn is over.
    #[arg(long, default_value_t = 1)]
    pub turns: u32,
    /// The longest sequence of moves tried.
    #[arg(long, default_value_t = 12)]
    pub depth: usize,
    /// Stop with an "incomplete" report after this many distinct states.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_states: usize,
    /// The most host moves (answers, triggers, effects, facts, mana,
    /// leaving) in one sequence.
    #[arg(long, default_value_t = 1)]
    pub host_moves: u8,
    /// The largest answer tried for a turn-based action that takes one.
    #[arg(long, default_value_t = 1)]
    pub max_answer: u16,
    /// Move families to leave out, comma-separated: pass, play, answer,
    /// trigger, effect, fact, mana, leave.
    #[arg(long, value_delimiter = ',')]
    pub without: Vec<String>,
    /// Move families to add (`leave` is off by default).
    #[arg(long, value_delimiter = ',')]
    pub with: Vec<String>,
    /// Worker threads (0: one per core). The findings do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Write each finding as a scenario file in this folder (created if
    /// needed), and check that it passes (with --against: under A, and
    /// that it fails under B).
    #[arg(long)]
    pub write: Option<PathBuf>,
}

/// The spec's path as seen from `dir`, with `/`, for a scenario's `spec`.
fn relative(spec: &Path, dir: &Path) -> String {
    let abs = |p: &Path| {
        std::fs::canonicalize(p).unwrap_or_else(|_| {
            std::env::current_dir()
                .map(|c| c.join(p))
                .unwrap_or_else(|_| p.to_path_buf())
        })
    };
    let (spec, dir) = (abs(spec), abs(dir));
    let s: Vec<Component<'_>> = spec.components().collect();
    let d: Vec<Component<'_>> = dir.components().collect();
    let common = s.iter().zip(&d).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".into(); d.len() - common];
    parts.extend(
        s[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// Peak resident memory of this process, in bytes (Linux; else `None`).
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn options(args: &ExploreArgs) -> Result<Options, String> {
    let mut o = Options::default();
    o.players = args.players;
    o.turns = args.turns;
    o.depth = args.depth;
    o.max_states = args.max_states;
    o.host_moves = args.host_moves;
    o.max_answer = args.max_answer;
    o.threads = args.threads;
    for f in &args.without {
        o.families.set(f, false)?;
    }
    for f in &args.with {
        o.families.set(f, true)?;
    }
    Ok(o)
}

fn speed(states: usize, started: Instant) -> String {
    let secs = started.elapsed().as_secs_f64();
    let rate = if secs > 0.0 {
        states as f64 / secs
    } else {
        0.0
    };
    let memory = peak_memory()
        .map(|m| {
            format!(
                ", peak memory {:.1} MiB ({} bytes per state)",
                m as f64 / 1048576.0,
                m / states.max(1) as u64
            )
        })
        .unwrap_or_default();
    format!("{states} states in {secs:.2} s ({rate:.0} states/s){memory}\n")
}

fn outcome_text(o: &Result<Outcome, String>) -> &'static str {
    match o {
        Ok(Outcome::Passed { .. }) => "passes",
        Ok(Outcome::Failed(_)) => "fails",
        Err(_) => "is invalid",
    }
}

pub fn explore_cmd(args: ExploreArgs) -> Result<ExitCode, String> {
    let options = options(&args)?;
    let Some((a, _)) = load(&args.spec)? else {
        return Ok(ExitCode::from(2));
    };
    if let Some(dir) = &args.write {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let spec_ref = args
        .write
        .as_ref()
        .map(|dir| relative(&args.spec, dir))
        .unwrap_or_default();
    let a = Arc::new(a);
    let started = Instant::now();
    match &args.against {
        None => {
            let report = explore(&a, &options).map_err(|e| e.to_string())?;
            crate::out::print(&report.to_text());
            crate::out::print(&format!("\n{}", speed(report.states, started)));
            let mut bad = false;
            if let Some(dir) = &args.write {
                for i in 0..report.findings.len() {
                    let text = report.scenario(&a, i, &spec_ref)?;
                    let path = dir.join(report.file_name(i));
                    write(&path, &text)?;
                    let under_a = run_scenario(&text, a.clone());
                    bad |= !matches!(under_a, Ok(Outcome::Passed { .. }));
                    crate::out::println(&format!(
                        "wrote {} ({} under {})",
                        path.display(),
                        outcome_text(&under_a),
                        args.spec.display()
                    ));
                }
            }
            let stuck = report.findings.iter().any(|f| {
                matches!(
                    f.kind,
                    FindingKind::DeadEnd { .. }
                        | FindingKind::Cycle {
                            through_stack: false
                        }
                )
            });
            Ok(if stuck || bad {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        Some(b_path) => {
            let Some((b, _)) = load(b_path)? else {
                return Ok(ExitCode::from(2));
            };
            let b = Arc::new(b);
            let report = explore_against(&a, &b, &options).map_err(|e| e.to_string())?;
            crate::out::print(&report.to_text());
            crate::out::print(&format!("\n{}", speed(report.states, started)));
            let mut bad = false;
            if let Some(dir) = &args.write {
                for i in 0..report.differences.len() {
                    if !report.differences[i].clean {
                        crate::out::println(&format!(
                            "difference {}: not written (a consequence of an earlier difference on the way)",
                            i + 1
                        ));
                        continue;
                    }
                    let Some(text) = report.scenario(&a, i, &spec_ref)? else {
                        crate::out::println(&format!(
                            "difference {}: not written (a refusal by A of a move a scenario cannot expect to be refused)",
                            i + 1
                        ));
                        continue;
                    };
                    let path = dir.join(report.file_name(i));
                    write(&path, &text)?;
                    let under_a = run_scenario(&text, a.clone());
                    let under_b = run_scenario(&text, b.clone());
                    bad |= !matches!(under_a, Ok(Outcome::Passed { .. }))
                        || matches!(under_b, Ok(Outcome::Passed { .. }));
                    crate::out::println(&format!(
                        "wrote {} ({} under {}, {} under {})",
                        path.display(),
                        outcome_text(&under_a),
                        args.spec.display(),
                        outcome_text(&under_b),
                        b_path.display()
                    ));
                }
            }
            Ok(if bad {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

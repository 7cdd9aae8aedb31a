//! `turnspec explore SPEC [--against B]`: every sequence of moves within a
//! bound (crates/turnspec-explore), findings written as scenarios. The
//! search is the library's; this module loads, times, prints and writes.

use std::io::IsTerminal;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{Value, json};
use turnspec_explore::{
    Cluster, DiffReport, DiffSide, FindingKind, Options, Progress, Report, Stop,
    explore_against_distributed, explore_against_with_progress, explore_distributed,
    explore_with_progress, parse_hosts, run_scenario,
};
use turnspec_scenario::Outcome;

use crate::{Format, load};

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
    /// Stop each game when this turn is over (counting from turn 1; at
    /// least the --turn it starts on).
    #[arg(long, default_value_t = 1)]
    pub turns: u32,
    /// The longest sequence of moves tried.
    #[arg(long, default_value_t = 12)]
    pub depth: usize,
    /// Stop with an "incomplete" report after this many distinct states.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_states: usize,
    /// Stop with an "incomplete" report once the search holds more than
    /// this much memory by its own count (tree, visited index, frontier,
    /// kept edges; checked between chunks of 4096 states, so the same
    /// for any --threads): bytes, or with K, M, G or T (powers of 1024),
    /// as in `512M` or `4G`.
    #[arg(long, value_parser = parse_size)]
    pub max_memory: Option<usize>,
    /// The most host moves (answers, triggers, effects, facts, mana,
    /// leaving, endings, objects entering or leaving play and their facts)
    /// in one sequence.
    #[arg(long, default_value_t = 1)]
    pub host_moves: u8,
    /// The largest answer tried for a turn-based action that takes one.
    #[arg(long, default_value_t = 1)]
    pub max_answer: u16,
    /// Move families to leave out, comma-separated: pass, play, answer,
    /// trigger, effect, fact, mana, leave, ending, objects.
    #[arg(long, value_delimiter = ',')]
    pub without: Vec<String>,
    /// Move families to add (`leave`, `ending` and `objects` are off by
    /// default). `objects` (specs with `[objects]`): the host reports
    /// objects O1 and O2 entering play under a player, leaving play, and
    /// sets or clears their object facts; plays at classes with
    /// `by = "object"` name each object in play (`label = "O1"`).
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
    /// Start on this turn instead of the first (with --active, --phase,
    /// --step: as a scenario's `[setup]`).
    #[arg(long)]
    pub turn: Option<u32>,
    /// Whose turn it is at the start (P1, P2, ...).
    #[arg(long)]
    pub active: Option<String>,
    /// Start at the beginning of this phase.
    #[arg(long)]
    pub phase: Option<String>,
    /// Start at the beginning of this step.
    #[arg(long)]
    pub step: Option<String>,
    /// A variant of the spec to switch on (repeatable).
    #[arg(long = "variant")]
    pub variants: Vec<String>,
    /// `text` for people, `json` for tools (one object; the lines about
    /// written files go to stderr).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Run the search on timely dataflow with this many worker threads in
    /// each process (docs/explore.md, "Several workers and machines").
    /// The report is the same, byte for byte.
    #[arg(long)]
    pub workers: Option<usize>,
    /// A file listing every process as host:port, one a line; each process of the search is started with the same list and
    /// its own --process. Process 0 prints the report.
    #[arg(long)]
    pub hosts: Option<PathBuf>,
    /// This process's line in --hosts, from 0.
    #[arg(long)]
    pub process: Option<usize>,
    /// Seconds to wait for the other processes of --hosts to connect.
    #[arg(long, default_value_t = 60)]
    pub connect_timeout: u64,
}

/// The workers and processes of a distributed search, if asked for.
fn cluster(args: &ExploreArgs) -> Result<Option<Cluster>, String> {
    if args.workers.is_none() && args.hosts.is_none() {
        if args.process.is_some() {
            return Err("--process needs --hosts".into());
        }
        return Ok(None);
    }
    let hosts = match &args.hosts {
        None => Vec::new(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            parse_hosts(&text).map_err(|e| format!("{}: {e}", path.display()))?
        }
    };
    if hosts.len() > 1 && args.process.is_none() {
        return Err(format!(
            "--hosts lists {} processes: give each its --process (0 to {})",
            hosts.len(),
            hosts.len() - 1
        ));
    }
    Ok(Some(Cluster {
        workers: args.workers.unwrap_or(1),
        hosts,
        process: args.process.unwrap_or(0),
        connect_timeout: Duration::from_secs(args.connect_timeout),
    }))
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
    }
}

/// A size in bytes: a number, or one with K, M, G or T (powers of 1024),
/// optionally followed by `B` or `iB`, as in `512M`, `4G`, `4GiB`.
pub(crate) fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let upper = t.to_ascii_uppercase();
    let t = upper
        .strip_suffix("IB")
        .or_else(|| upper.strip_suffix('B'))
        .unwrap_or(&upper);
    let (digits, shift) = match t.chars().last() {
        Some('K') => (&t[..t.len() - 1], 10),
        Some('M') => (&t[..t.len() - 1], 20),
        Some('G') => (&t[..t.len() - 1], 30),
        Some('T') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let bad = || format!("`{text}`: give a size in bytes, or with K, M, G or T, as in 512M or 4G");
    let n: usize = digits.trim().parse().map_err(|_| bad())?;
    n.checked_mul(1usize << shift).ok_or_else(bad)
}

fn report_json(r: &Report, spec: &Path) -> Value {
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
                } => {
                    json!({ "dead_end": format!("{status:?}"), "beyond_limit": beyond_limit })
                }
                FindingKind::Cycle { of_plays } => {
                    json!({ "cycle": { "of_plays": of_plays } })
                }
                FindingKind::DeepestStack { depth } => json!({ "deepest_stack": depth }),
            };
            json!({
                "kind": kind, "summary": f.summary, "rules": f.rules,
                "moves": f.moves.iter().map(|m| r.describe_move(*m)).collect::<Vec<_>>(),
                "cycle_from": f.cycle_from,
            })
        })
        .collect();
    json!({
        "spec": spec.display().to_string(), "title": r.title, "options": r.options.summary(),
        "states": r.states, "deepest_level": r.deepest, "stop": stop_json(r.stop),
        "coverage": coverage, "findings": findings, "play_cycles": r.play_cycles,
    })
}

fn diff_json(r: &DiffReport, a: &Path, b: &Path) -> Value {
    let differences: Vec<Value> = r
        .differences
        .iter()
        .map(|d| {
            let event = |e: &Option<(String, Option<String>)>| {
                e.as_ref().map(|(text, rule)| json!({ "text": text, "rule": rule }))
            };
            json!({
                "headline": r.headline(d),
                "moves": d.moves.iter().map(|m| r.describe_move(*m)).collect::<Vec<_>>(),
                "only_a": d.only_a, "only_b": d.only_b, "a_lines": d.a_lines, "b_lines": d.b_lines,
                "a_event": event(&d.a_event), "b_event": event(&d.b_event),
                "refused_by": d.refused.as_ref().map(|(side, ..)| match side { DiffSide::A => "A", DiffSide::B => "B" }),
                "refusal": d.refused.as_ref().map(|(_, text, rule, reason)| json!({ "text": text, "rule": rule, "reason": reason })),
                "clean": d.clean,
            })
        })
        .collect();
    json!({
        "a": a.display().to_string(), "b": b.display().to_string(),
        "title_a": r.title_a, "title_b": r.title_b, "options": r.options.summary(),
        "states": r.states, "deepest_level": r.deepest, "stop": stop_json(r.stop),
        "differences": differences, "unmatched": r.unmatched,
    })
}

/// Prints a line about written files: to stdout for text, stderr for JSON.
fn note(format: Format, line: &str) {
    match format {
        Format::Text => crate::out::println(line),
        Format::Json => crate::out::eprintln(line),
    }
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
    o.max_memory = args.max_memory.unwrap_or(usize::MAX);
    o.host_moves = args.host_moves;
    o.max_answer = args.max_answer;
    o.threads = args.threads;
    for f in &args.without {
        o.families.set(f, false)?;
    }
    for f in &args.with {
        o.families.set(f, true)?;
    }
    if args.turn.is_some() || args.active.is_some() || args.phase.is_some() || args.step.is_some() {
        let active = match &args.active {
            None => 0,
            Some(p) => p
                .strip_prefix('P')
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| (1..=args.players).contains(n))
                .map(|n| n - 1)
                .ok_or_else(|| {
                    format!("--active {p}: give a player from P1 to P{}", args.players)
                })?,
        };
        // --turns counts from turn 1: starting later, at least that turn.
        o.turns = o.turns.max(args.turn.unwrap_or(1));
        o.start = Some(turnspec_explore::StartPoint {
            turn: args.turn.unwrap_or(1).max(1),
            active,
            phase: args.phase.clone(),
            step: args.step.clone(),
        });
    }
    o.variants = args.variants.clone();
    Ok(o)
}

/// The timing line: states, time, rate, peak resident memory and the
/// search's own peak count (`held`), each per state.
fn speed(states: usize, started: Instant, held: usize) -> String {
    let secs = started.elapsed().as_secs_f64();
    let rate = if secs > 0.0 {
        states as f64 / secs
    } else {
        0.0
    };
    // A distributed search tells no progress, so it has no count of its
    // own.
    let own = if held > 0 {
        format!("; the search's own count {}", held / states.max(1))
    } else {
        String::new()
    };
    let memory = peak_memory()
        .map(|m| {
            format!(
                ", peak memory {:.1} MiB ({} bytes per state{own})",
                m as f64 / 1048576.0,
                m / states.max(1) as u64,
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

/// A process of a distributed search other than process 0, once the
/// search is over: process 0 prints the report.
fn others_done(cluster: &Cluster) -> ExitCode {
    crate::out::eprintln(&format!(
        "process {}: done (process 0 prints the report)",
        cluster.process
    ));
    ExitCode::SUCCESS
}

pub fn explore_cmd(args: ExploreArgs) -> Result<ExitCode, String> {
    let options = options(&args)?;
    let cluster = cluster(&args)?;
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
    let bar = (!crate::out::quiet() && std::io::stderr().is_terminal()).then(progress_bar);
    let mut held = 0usize;
    let mut progress = |p: Progress| {
        held = held.max(p.memory);
        if let Some(pb) = &bar {
            show(pb, &p, started);
        }
    };
    match &args.against {
        None => {
            let report = match &cluster {
                None => explore_with_progress(&a, &options, &mut progress),
                Some(cluster) => match explore_distributed(&a, &options, cluster) {
                    Ok(Some(report)) => Ok(report),
                    Ok(None) => return Ok(others_done(cluster)),
                    Err(e) => Err(e),
                },
            };
            if let Some(pb) = &bar {
                pb.finish_and_clear();
            }
            let report = report?;
            let timing = speed(report.states, started, held);
            match args.format {
                Format::Text => {
                    crate::out::print(&report.to_text());
                    if let Some(hint) = turns_hint(&report, args.turns) {
                        crate::out::println(&hint);
                    }
                    crate::out::print(&format!("\n{timing}"));
                }
                Format::Json => {
                    let v = report_json(&report, &args.spec);
                    crate::out::println(&serde_json::to_string_pretty(&v).unwrap_or_default());
                    crate::out::eprint(&timing);
                }
            }
            let mut bad = false;
            if let Some(dir) = &args.write {
                for i in 0..report.findings.len() {
                    let text = report.scenario(&a, i, &spec_ref)?;
                    let path = dir.join(report.file_name(i));
                    write(&path, &text)?;
                    let under_a = run_scenario(&text, a.clone());
                    bad |= !matches!(under_a, Ok(Outcome::Passed { .. }));
                    note(
                        args.format,
                        &format!(
                            "wrote {} ({} under {})",
                            path.display(),
                            outcome_text(&under_a),
                            args.spec.display()
                        ),
                    );
                }
            }
            let stuck = report.findings.iter().any(|f| {
                matches!(
                    f.kind,
                    FindingKind::DeadEnd { .. } | FindingKind::Cycle { of_plays: false }
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
            let report = match &cluster {
                None => explore_against_with_progress(&a, &b, &options, &mut progress),
                Some(cluster) => match explore_against_distributed(&a, &b, &options, cluster) {
                    Ok(Some(report)) => Ok(report),
                    Ok(None) => return Ok(others_done(cluster)),
                    Err(e) => Err(e),
                },
            };
            if let Some(pb) = &bar {
                pb.finish_and_clear();
            }
            let report = report?;
            let timing = speed(report.states, started, held);
            match args.format {
                Format::Text => {
                    crate::out::print(&report.to_text());
                    crate::out::print(&format!("\n{timing}"));
                }
                Format::Json => {
                    let v = diff_json(&report, &args.spec, b_path);
                    crate::out::println(&serde_json::to_string_pretty(&v).unwrap_or_default());
                    crate::out::eprint(&timing);
                }
            }
            let mut bad = false;
            if let Some(dir) = &args.write {
                for i in 0..report.differences.len() {
                    if !report.differences[i].clean {
                        note(
                            args.format,
                            &format!(
                                "difference {}: not written (a consequence of an earlier difference on the way)",
                                i + 1
                            ),
                        );
                        continue;
                    }
                    let Some(text) = report.scenario(&a, i, &spec_ref)? else {
                        note(
                            args.format,
                            &format!(
                                "difference {}: not written (a refusal by A of a move a scenario cannot expect to be refused)",
                                i + 1
                            ),
                        );
                        continue;
                    };
                    let path = dir.join(report.file_name(i));
                    write(&path, &text)?;
                    let under_a = run_scenario(&text, a.clone());
                    let under_b = run_scenario(&text, b.clone());
                    bad |= !matches!(under_a, Ok(Outcome::Passed { .. }))
                        || matches!(under_b, Ok(Outcome::Passed { .. }));
                    note(
                        args.format,
                        &format!(
                            "wrote {} ({} under {}, {} under {})",
                            path.display(),
                            outcome_text(&under_a),
                            args.spec.display(),
                            outcome_text(&under_b),
                            b_path.display()
                        ),
                    );
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

/// The search's progress bar on stderr: the level being expanded, its
/// states expanded so far, states found, their rate and the search's memory.
fn progress_bar() -> indicatif::ProgressBar {
    let pb =
        indicatif::ProgressBar::with_draw_target(Some(1), indicatif::ProgressDrawTarget::stderr());
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] depth {prefix}: {wide_bar} {human_pos}/{human_len} expanded, {msg}",
    ) {
        pb.set_style(style);
    }
    pb
}

fn show(pb: &indicatif::ProgressBar, p: &Progress, started: Instant) {
    let secs = started.elapsed().as_secs_f64();
    let rate = if secs > 0.0 {
        p.states as f64 / secs
    } else {
        0.0
    };
    pb.set_prefix(p.level.to_string());
    pb.set_length(p.level_states as u64);
    pb.set_position(p.expanded as u64);
    pb.set_message(format!(
        "{} states, {rate:.0} states/s, {:.1} MiB",
        indicatif::HumanCount(p.states as u64),
        p.memory as f64 / 1048576.0
    ));
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Under one turn, phases and steps that only a later turn reaches (the
/// first player's skipped draw, an attack that cannot come on the first
/// turn) are reported as never reached: say how to see them.
fn turns_hint(report: &turnspec_explore::Report, turns: u32) -> Option<String> {
    if turns > 1 {
        return None;
    }
    let unreached = report
        .coverage
        .iter()
        .filter(|c| matches!(c.kind, "phase" | "step") && c.reached.is_none())
        .count();
    (unreached > 0).then(|| {
        format!(
            "\nhint: {unreached} phase(s) or step(s) never reached within --turns {turns}; some are only reached on a later turn: try --turns 2 or 3"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_are_bytes_or_powers_of_1024() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("4g"), Ok(4 << 30));
        assert_eq!(parse_size("4GiB"), Ok(4 << 30));
        assert_eq!(parse_size("16KB"), Ok(16 << 10));
        assert_eq!(parse_size("2T"), Ok(2 << 40));
        assert_eq!(parse_size(" 7 "), Ok(7));
        for bad in [
            "",
            "G",
            "-1",
            "1.5G",
            "4X",
            "99999999999999999999",
            "16777216T",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}

//! A fuzzer that runs on the stable toolchain (cargo-fuzz needs nightly):
//! seeded mutations of the project's own specs and scenarios go through the
//! loaders, and random action sequences go through the engine, each under
//! `catch_unwind`. Any panic is a bug: the input is written to
//! `target/fuzz-crashes/` and the run exits with 1.
//!
//! `generated` writes random valid specs (generate.rs) and plays each on
//! the compiled turn program and on the interpreter (generated.rs): any
//! difference is a failure, written to `target/fuzz-crashes/` with its
//! seed.
//!
//! ```sh
//! cargo run --release -p turnspec-fuzz -- all --runs 1000000
//! cargo run --release -p turnspec-fuzz -- generated --runs 1000000
//! cargo run --release -p turnspec-fuzz -- generated --seed 42 --minimise
//! ```
//!
//! Runs are deterministic for a seed: run `i` uses seed `seed + i`, so a
//! crash reproduces with `--seed <its seed> --runs 1`.

mod actions;
mod generate;
mod generated;
mod mutate;

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::{Parser, ValueEnum};
use rayon::prelude::*;

#[derive(Parser)]
#[command(about = "Fuzz turnspec's loaders and engine with seeded random inputs")]
struct Args {
    /// What to fuzz.
    target: Target,
    /// Runs per target.
    #[arg(long, default_value_t = 100_000)]
    runs: u64,
    /// The first run's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `generated`: count differences that match a known case
    /// (`generated::KNOWN`) as failures too.
    #[arg(long)]
    include_known: bool,
    /// `generated`: print the spec of `--seed` and stop.
    #[arg(long)]
    print: bool,
    /// `generated`: play `--seed` again, drop every action the difference
    /// does not need, and print the spec, the set-up and those actions.
    #[arg(long)]
    minimise: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Target {
    /// Mutated specs through `turnspec_spec::load_with`.
    Spec,
    /// Mutated scenarios through `turnspec_scenario::load`.
    Scenario,
    /// Random action sequences through `Game::apply`.
    Actions,
    /// Generated specs played on both tiers (compiled program and
    /// interpreter), compared action by action (not part of `all`: CI runs
    /// it as its own step).
    Generated,
    /// `spec`, `scenario` and `actions`.
    All,
}

fn main() {
    let args = Args::parse();
    // Panics are counted, not printed one by one.
    if std::env::var_os("TURNSPEC_FUZZ_PANICS").is_none() {
        std::panic::set_hook(Box::new(|_| {}));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus = mutate::Corpus::load(&root);
    if args.print {
        print!("{}", generate::generate(args.seed).text);
        return;
    }
    if args.minimise {
        print!("{}", generated::run(args.seed, true, true).0);
        return;
    }
    let targets: &[Target] = match args.target {
        Target::All => &[Target::Spec, Target::Scenario, Target::Actions],
        ref t => std::slice::from_ref(t),
    };
    let mut failed = false;
    for &target in targets {
        if target == Target::Generated {
            failed |= generated_runs(&root, &args);
            continue;
        }
        let crashes = AtomicU64::new(0);
        // Inputs that loaded without errors; for actions, actions accepted.
        let accepted = AtomicU64::new(0);
        let started = Instant::now();
        (args.seed..args.seed + args.runs)
            .into_par_iter()
            .for_each(|seed| {
                let (input, outcome) = match target {
                    Target::Spec | Target::Scenario => {
                        let spec = target == Target::Spec;
                        let text = if spec {
                            corpus.mutated_spec(seed)
                        } else {
                            corpus.mutated_scenario(seed)
                        };
                        let r = catch_unwind(AssertUnwindSafe(|| {
                            let loaded = if spec {
                                corpus.load_spec(&text)
                            } else {
                                corpus.load_scenario(&text)
                            };
                            if loaded {
                                accepted.fetch_add(1, Ordering::Relaxed);
                            }
                        }));
                        (text, r)
                    }
                    Target::Actions => {
                        let r = catch_unwind(AssertUnwindSafe(|| {
                            let n = actions::run(&corpus.specs, seed);
                            accepted.fetch_add(n, Ordering::Relaxed);
                        }));
                        (format!("actions seed {seed}\n"), r)
                    }
                    Target::All | Target::Generated => unreachable!("expanded above"),
                };
                if outcome.is_err() {
                    crashes.fetch_add(1, Ordering::Relaxed);
                    save_crash(&root, target, seed, &input);
                }
            });
        let crashes = crashes.into_inner();
        failed |= crashes > 0;
        let secs = started.elapsed().as_secs_f64();
        let accepted = accepted.into_inner();
        let what = if target == Target::Actions {
            "actions accepted"
        } else {
            "inputs loaded without errors"
        };
        println!(
            "{:<9} {} runs from seed {}, {} panics, {accepted} {what}, {:.1} s ({:.0} runs/s)",
            name(target),
            args.runs,
            args.seed,
            crashes,
            secs,
            args.runs as f64 / secs.max(1e-9)
        );
    }
    if failed {
        eprintln!("inputs that panicked are in target/fuzz-crashes/");
        std::process::exit(1);
    }
}

fn name(t: Target) -> &'static str {
    match t {
        Target::Spec => "spec",
        Target::Scenario => "scenario",
        Target::Actions => "actions",
        Target::Generated => "generated",
        Target::All => "all",
    }
}

/// Totals of a `generated` run.
#[derive(Default)]
struct Totals {
    rejected: u64,
    setup_refused: u64,
    played: u64,
    differences: u64,
    skipped_known: u64,
    known: BTreeMap<&'static str, u64>,
    with_warnings: u64,
    accepted: u64,
    events: u64,
    features: Vec<u64>,
    event_kinds: BTreeMap<String, u64>,
    statuses: BTreeMap<&'static str, u64>,
    reasons: BTreeMap<String, u64>,
}

impl Totals {
    fn merge(mut self, o: Totals) -> Totals {
        self.rejected += o.rejected;
        self.setup_refused += o.setup_refused;
        self.played += o.played;
        self.differences += o.differences;
        self.skipped_known += o.skipped_known;
        self.with_warnings += o.with_warnings;
        self.accepted += o.accepted;
        self.events += o.events;
        if self.features.len() < o.features.len() {
            self.features.resize(o.features.len(), 0);
        }
        for (i, n) in o.features.iter().enumerate() {
            self.features[i] += n;
        }
        for (k, n) in o.event_kinds {
            *self.event_kinds.entry(k).or_default() += n;
        }
        for (k, n) in o.statuses {
            *self.statuses.entry(k).or_default() += n;
        }
        for (k, n) in o.known {
            *self.known.entry(k).or_default() += n;
        }
        for (k, n) in o.reasons {
            *self.reasons.entry(k).or_default() += n;
        }
        self
    }

    fn count_features(&mut self, f: generate::Features) {
        let n = generate::FEATURE_NAMES.len();
        self.features.resize(n, 0);
        for i in 0..n {
            if f.has(i) {
                self.features[i] += 1;
            }
        }
    }
}

/// The name of an event's kind: its Debug text up to the first field.
fn kind_name(e: &turnspec_engine::Event) -> String {
    let text = format!("{e:?}");
    text.split([' ', '(', '{']).next().unwrap_or("").to_string()
}

/// Runs the `generated` target; true if anything failed.
fn generated_runs(root: &Path, args: &Args) -> bool {
    let started = Instant::now();
    let totals = (args.seed..args.seed + args.runs)
        .into_par_iter()
        .fold(Totals::default, |mut t, seed| {
            let mut text = String::new();
            let r = catch_unwind(AssertUnwindSafe(|| {
                let (spec, outcome) = generated::run(seed, false, args.include_known);
                text = spec;
                outcome
            }));
            match r {
                Ok(generated::Outcome::Rejected(reasons)) => {
                    t.rejected += 1;
                    for why in reasons {
                        *t.reasons.entry(why).or_default() += 1;
                    }
                    if t.rejected <= 3 {
                        save_generated(root, "rejected", seed, &text, "");
                    }
                }
                Ok(generated::Outcome::SetupRefused(f)) => {
                    t.setup_refused += 1;
                    t.count_features(f);
                }
                Ok(generated::Outcome::Played(f, stats, warnings)) => {
                    t.played += 1;
                    t.with_warnings += (warnings > 0) as u64;
                    t.count_features(f);
                    t.accepted += stats.accepted;
                    t.events += stats.events;
                    for e in &stats.kinds {
                        *t.event_kinds.entry(kind_name(e)).or_default() += 1;
                    }
                    *t.statuses
                        .entry(generated::status_name(stats.status))
                        .or_default() += 1;
                }
                Ok(generated::Outcome::Known(f, case)) => {
                    t.skipped_known += 1;
                    *t.known.entry(case).or_default() += 1;
                    t.played += 1;
                    t.count_features(f);
                    if t.skipped_known <= 2 {
                        save_generated(root, "known", seed, &text, "a known difference");
                    }
                }
                Err(payload) => {
                    t.differences += 1;
                    let why = generated::panic_text(payload.as_ref());
                    if text.is_empty() {
                        text = generate::generate(seed).text;
                    }
                    save_generated(root, "generated", seed, &text, &why);
                }
            }
            t
        })
        .reduce(Totals::default, Totals::merge);
    let secs = started.elapsed().as_secs_f64();
    let runs = args.runs;
    println!(
        "generated {} runs from seed {}: {} differences or panics, {} specs rejected by the loader ({:.3} %), {} loaded with warnings, {} set-ups refused by both tiers, {} played; {} actions accepted, {} events; {:.1} s ({:.0} runs/s){}",
        args.runs,
        args.seed,
        totals.differences,
        totals.rejected,
        100.0 * totals.rejected as f64 / runs.max(1) as f64,
        totals.with_warnings,
        totals.setup_refused,
        totals.played,
        totals.accepted,
        totals.events,
        secs,
        args.runs as f64 / secs.max(1e-9),
        if totals.skipped_known > 0 {
            format!(
                "; {} runs showed a known difference (not counted as failures; --include-known counts them)",
                totals.skipped_known
            )
        } else {
            String::new()
        }
    );
    let loaded = (totals.played + totals.setup_refused).max(1);
    println!("  features (specs using each, of {loaded} loaded):");
    let mut uncovered = Vec::new();
    for (i, name) in generate::FEATURE_NAMES.iter().enumerate() {
        let n = totals.features.get(i).copied().unwrap_or(0);
        if n == 0 {
            uncovered.push(*name);
        }
        println!(
            "    {name:<44} {n:>10} {:>6.1} %",
            100.0 * n as f64 / loaded as f64
        );
    }
    println!("  event kinds (games with at least one):");
    for (k, n) in &totals.event_kinds {
        println!("    {k:<44} {n:>10}");
    }
    println!("  how games ended:");
    for (k, n) in &totals.statuses {
        println!("    {k:<44} {n:>10}");
    }
    if !totals.reasons.is_empty() {
        println!("  why the loader rejected specs (generator bugs):");
        for (k, n) in &totals.reasons {
            println!("    {n:>8}  {k}");
        }
    }
    if !totals.known.is_empty() {
        println!("  known differences (see each file):");
        for (k, n) in &totals.known {
            println!("    {n:>8}  {k}");
        }
    }
    if !uncovered.is_empty() {
        println!("  features no spec used: {}", uncovered.join(", "));
    }
    if totals.differences > 0 {
        eprintln!(
            "specs and seeds that differed are in target/fuzz-crashes/ (generated-SEED.toml)"
        );
    }
    totals.differences > 0 || totals.rejected > 0
}

fn save_generated(root: &Path, what: &str, seed: u64, spec: &str, why: &str) {
    let dir: PathBuf = root.join("target/fuzz-crashes");
    let _ = std::fs::create_dir_all(&dir);
    let mut text = format!(
        "# turnspec-fuzz generated --seed {seed} --runs 1 --include-known\n# {}\n",
        why.replace('\n', "\n# ")
    );
    text.push_str(spec);
    let _ = std::fs::write(dir.join(format!("{what}-{seed}.toml")), text);
}

fn save_crash(root: &Path, target: Target, seed: u64, input: &str) {
    let dir: PathBuf = root.join("target/fuzz-crashes");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("{}-{seed}.toml", name(target))), input);
}

//! A fuzzer that runs on the stable toolchain (cargo-fuzz needs nightly):
//! seeded mutations of the project's own specs and scenarios go through the
//! loaders, and random action sequences go through the engine, each under
//! `catch_unwind`. Any panic is a bug: the input is written to
//! `target/fuzz-crashes/` and the run exits with 1.
//!
//! ```sh
//! cargo run --release -p turnspec-fuzz -- all --runs 1000000
//! ```
//!
//! Runs are deterministic for a seed: run `i` uses seed `seed + i`, so a
//! crash reproduces with `--seed <its seed> --runs 1`.

mod actions;
mod mutate;

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
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Target {
    /// Mutated specs through `turnspec_spec::load_with`.
    Spec,
    /// Mutated scenarios through `turnspec_scenario::load`.
    Scenario,
    /// Random action sequences through `Game::apply`.
    Actions,
    /// All three.
    All,
}

fn main() {
    let args = Args::parse();
    // Panics are counted, not printed one by one.
    std::panic::set_hook(Box::new(|_| {}));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus = mutate::Corpus::load(&root);
    let targets: &[Target] = match args.target {
        Target::All => &[Target::Spec, Target::Scenario, Target::Actions],
        ref t => std::slice::from_ref(t),
    };
    let mut failed = false;
    for &target in targets {
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
                    Target::All => unreachable!("expanded above"),
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
        Target::All => "all",
    }
}

fn save_crash(root: &Path, target: Target, seed: u64, input: &str) {
    let dir: PathBuf = root.join("target/fuzz-crashes");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("{}-{seed}.toml", name(target))), input);
}

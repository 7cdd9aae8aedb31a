//! `turnspec simulate`: many independent games in parallel, counted, timed
//! and summed up with a digest of their final states.
//!
//! Each game is `turnspec_compare::simulation::play_game`, the same function
//! (and the same counts) `turnspec compare` uses without scenario paths;
//! this module adds the thread pool, the batches and the progress bar. Game
//! `i` plays with a seed derived from (`--seed`, `i`) only, and the digest
//! combines per-game hashes in game-index order with a fixed hasher
//! (FNV-1a), so it depends on the spec, the seed and the options, never on
//! the number of threads or on scheduling.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;
use turnspec_compare::simulation::{Counts, GameResult, Setup, Tally, play_game};
use turnspec_engine::{EndlessTurn, Game, GameOptions};

use crate::{Format, PolicyName as SimPolicy, SpecSource};

#[derive(clap::Args)]
pub(crate) struct SimulateArgs {
    /// Spec file; defaults to games/mtg.toml in the current directory, else
    /// the copy built into turnspec.
    spec: Option<PathBuf>,
    /// Number of independent games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Turns per game.
    #[arg(long, default_value_t = 100)]
    turns: u32,
    #[arg(long, default_value_t = 2)]
    players: u8,
    #[arg(long, value_enum, default_value_t = SimPolicy::AllPass)]
    policy: SimPolicy,
    /// Plays the busy policy stacks per window before passing (1 when not
    /// given; refused with the other policies).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
    depth: Option<u8>,
    /// Seed of the random policy (0 when not given); game i uses a seed
    /// derived from (seed, i). Refused with the other policies, which use
    /// no randomness.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (default: all cores; at most 256).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    threads: Option<u16>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Play with stop profiles (docs/stops.md): `P1=FILE` for one player,
    /// `FILE` for every player (repeatable). Reports how often each player
    /// was asked per turn, and the passes the auto-passer made.
    #[arg(long, value_name = "[PN=]FILE")]
    stops: Vec<String>,
}

/// Games played and folded at a time by [`simulate_all`].
const BATCH: u64 = 1 << 14;

/// The most worker threads `--threads` may ask for.
const MAX_THREADS: i64 = 256;

/// The sum of all games and the digest, in game-index order.
struct Summary {
    counts: Counts,
    /// The first game stopped in a turn that never ends.
    first_endless: Option<(u64, EndlessTurn)>,
    digest: u64,
    seconds: f64,
    threads: usize,
}

fn simulate_all(
    setup: Setup<'_>,
    games: u64,
    threads: Option<u16>,
    bar: bool,
) -> Result<Summary, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, usize::from))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let progress = bar.then(|| {
        let pb = indicatif::ProgressBar::with_draw_target(
            Some(games),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} games, eta {eta}",
        ) {
            pb.set_style(style);
        }
        pb
    });
    let start = Instant::now();
    let mut tally = Tally::default();
    // Games are played a batch at a time and each batch is folded into the
    // sums and the digest, in game order, before the next one starts: memory
    // stays the same however many games there are.
    let mut batch: Vec<Result<GameResult, String>> = Vec::new();
    let mut first = 0;
    let mut outcome = Ok(());
    while first < games && outcome.is_ok() {
        let len = (games - first).min(BATCH);
        pool.install(|| {
            (0..len as usize)
                .into_par_iter()
                .map(|k| {
                    let r = play_game(setup, first + k as u64);
                    if let Some(pb) = &progress {
                        pb.inc(1);
                    }
                    r
                })
                .collect_into_vec(&mut batch)
        });
        for result in batch.drain(..) {
            match result {
                Ok(game) => tally.add(&game),
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
        }
        first += len;
    }
    let seconds = start.elapsed().as_secs_f64();
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    outcome?;
    Ok(Summary {
        counts: tally.counts,
        first_endless: tally.first_endless,
        digest: tally.digest(),
        seconds,
        threads: pool.current_num_threads(),
    })
}

pub(crate) fn simulate(args: SimulateArgs) -> Result<ExitCode, String> {
    args.policy.check_seed(args.seed)?;
    if args.policy != SimPolicy::Busy && args.depth.is_some() {
        return Err(format!(
            "--depth has no effect with --policy {} (only busy stacks plays); add --policy busy",
            args.policy.name()
        ));
    }
    let depth = args.depth.unwrap_or(1);
    let seed = args.seed.unwrap_or(0);
    let source = SpecSource::new(args.spec.clone());
    let Some((spec, _)) = source.load()? else {
        return Ok(ExitCode::FAILURE);
    };
    // Refuse a bad player count before starting any thread.
    Game::new(&spec, &GameOptions::players(args.players)).map_err(|e| e.to_string())?;
    args.policy.check_spec(&spec, &source.label())?;
    let passer = crate::stops::passer_from_args(&args.stops, &spec, args.players)?;
    let setup = Setup {
        spec: &spec,
        players: args.players,
        turns: args.turns,
        policy: args.policy.lib(),
        depth,
        seed,
        stops: passer.as_ref(),
    };
    let bar = !crate::out::quiet() && std::io::stderr().is_terminal();
    let s = simulate_all(setup, args.games, args.threads, bar)?;
    let c = &s.counts;
    let per_sec = |n: u64| {
        if s.seconds > 0.0 {
            n as f64 / s.seconds
        } else {
            0.0
        }
    };
    let digest = format!("{:016x}", s.digest);
    match args.format {
        Format::Json => {
            let v = serde_json::json!({
                "spec": source.label(),
                "players": args.players,
                "policy": args.policy.name(),
                "depth": depth,
                "seed": seed,
                "threads": s.threads,
                "games": args.games,
                "turns": c.turns,
                "steps": c.steps,
                "windows": c.windows,
                "passes": c.passes,
                "actions": c.actions,
                "resolutions": c.resolutions,
                "stalled": c.stalled,
                "never_ends": c.never_ends,
                "outcomes": {
                    "over": c.over,
                    "draws": c.draws,
                    "wins": &c.wins[..args.players as usize],
                },
                "seconds": s.seconds,
                "turns_per_sec": per_sec(c.turns),
                "passes_per_sec": per_sec(c.passes),
                "digest": digest,
            });
            let mut v = v;
            if passer.is_some() {
                v["stops"] = serde_json::json!({
                    "asked": &c.asked[..args.players as usize],
                    "auto_passes": c.auto_passes,
                });
            }
            crate::out::println(&v.to_string());
        }
        Format::Text => {
            let depth = if args.policy == SimPolicy::Busy && depth > 1 {
                format!(" (depth {depth})")
            } else {
                String::new()
            };
            crate::out::println(&format!(
                "{} — {}, {} players, policy {}{depth}, seed {}, {} thread{}",
                spec.game().name,
                source.label(),
                args.players,
                args.policy.name(),
                seed,
                s.threads,
                if s.threads == 1 { "" } else { "s" },
            ));
            crate::out::println(&format!(
                "  games {}  turns {}  steps {}  windows {}  passes {}  actions {}",
                args.games, c.turns, c.steps, c.windows, c.passes, c.actions
            ));
            crate::out::println(&format!(
                "  wall {:.3} s  {:.0} turns/s  {:.0} passes/s",
                s.seconds,
                per_sec(c.turns),
                per_sec(c.passes)
            ));
            if c.over > 0 {
                let wins: Vec<String> = c.wins[..args.players as usize]
                    .iter()
                    .enumerate()
                    .map(|(i, w)| {
                        format!(
                            "P{} {w} ({:.1} %)",
                            i + 1,
                            100.0 * *w as f64 / c.over as f64
                        )
                    })
                    .collect();
                crate::out::println(&format!(
                    "  games over {} of {}: wins {}; draws {}",
                    c.over,
                    args.games,
                    wins.join(", "),
                    c.draws
                ));
            }
            if passer.is_some() {
                let asked: Vec<String> = c.asked[..args.players as usize]
                    .iter()
                    .enumerate()
                    .map(|(i, n)| format!("P{} {n} ({:.2}/turn)", i + 1, c.per_turn(*n)))
                    .collect();
                crate::out::println(&format!(
                    "  stops: asked {}; auto-passed {} of {} passes",
                    asked.join(", "),
                    c.auto_passes,
                    c.passes
                ));
            }
            if c.stalled > 0 {
                crate::out::println(&format!("  stalled games {}", c.stalled));
            }
            if c.never_ends > 0 {
                crate::out::println(&format!("  games whose turn never ends {}", c.never_ends));
            }
            crate::out::println(&format!("  digest {digest}"));
        }
    }
    if let Some((game, endless)) = s.first_endless {
        crate::out::eprintln(&format!(
            "error: {} game(s) stopped in a turn that never ends; game {game}: {}",
            c.never_ends,
            endless.describe(&spec)
        ));
    }
    if c.stalled > 0 {
        crate::out::eprintln(&format!(
            "error: {} game(s) stalled: no priority window could open",
            c.stalled
        ));
    }
    Ok(if c.stalled > 0 || c.never_ends > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use turnspec_spec::Spec;

    fn mtg() -> Spec {
        let src = include_str!("../../../games/mtg.toml");
        turnspec_spec::load_str("mtg.toml", src).unwrap().0
    }

    /// `players` playing `turns` turns of `spec` by `policy`, at depth 1.
    fn setup(spec: &Spec, players: u8, turns: u32, policy: SimPolicy, seed: u64) -> Setup<'_> {
        Setup {
            spec,
            players,
            turns,
            policy: policy.lib(),
            depth: 1,
            seed,
            stops: None,
        }
    }

    #[test]
    fn digest_does_not_depend_on_threads() {
        let spec = mtg();
        for policy in [SimPolicy::AllPass, SimPolicy::Busy, SimPolicy::Random] {
            let setup = setup(&spec, 3, 12, policy, 42);
            let one = simulate_all(setup, 40, Some(1), false).unwrap();
            let two = simulate_all(setup, 40, Some(2), false).unwrap();
            let four = simulate_all(setup, 40, Some(4), false).unwrap();
            assert_eq!(one.counts, two.counts, "{policy:?}");
            assert_eq!(one.digest, two.digest, "{policy:?}");
            assert_eq!(one.digest, four.digest, "{policy:?}");
            assert_eq!(one.counts.turns, 40 * 12);
        }
    }

    #[test]
    fn digest_of_games_in_several_batches_is_unchanged_by_batching() {
        // Recorded before games were folded in batches, when every game's
        // result was kept until the end: `simulate --games 16389 --turns 1
        // --players 3 --policy random --seed 42` (re-recorded when the game
        // state gained its count of repeats without priority, and again when
        // it gained the between-turns flag and elected phases, and again for
        // the objects in play, and for seat roles, passes for the rest of a
        // window and rounds of responses, which the digest hashes; the counts
        // did not change).
        let spec = mtg();
        let setup = setup(&spec, 3, 1, SimPolicy::Random, 42);
        let s = simulate_all(setup, BATCH + 5, Some(2), false).unwrap();
        assert_eq!(format!("{:016x}", s.digest), "6e6c2321b6f0410c");
        assert_eq!((s.counts.turns, s.counts.actions), (16389, 154453));
    }

    #[test]
    fn digest_depends_on_seed_and_inputs() {
        let spec = mtg();
        let setup = setup(&spec, 2, 20, SimPolicy::Random, 1);
        let a = simulate_all(setup, 16, Some(1), false).unwrap();
        let b = simulate_all(Setup { seed: 2, ..setup }, 16, Some(1), false).unwrap();
        let c = simulate_all(Setup { turns: 21, ..setup }, 16, Some(1), false).unwrap();
        assert_ne!(a.digest, b.digest);
        assert_ne!(a.digest, c.digest);
    }

    #[test]
    fn busy_counts_on_mtg() {
        let spec = mtg();
        let setup = setup(&spec, 4, 10, SimPolicy::Busy, 0);
        let s = simulate_all(setup, 3, Some(1), false).unwrap();
        // 4 players: nobody skips a draw; every turn alike.
        assert_eq!(s.counts.steps, 3 * 10 * 12);
        assert_eq!(s.counts.windows, 3 * 10 * 10);
        assert_eq!(s.counts.passes, 3 * 10 * 20 * 4);
        assert_eq!(s.counts.actions, 3 * 10 * 10);
        assert_eq!(s.counts.resolutions, 3 * 10 * 10);
    }
}

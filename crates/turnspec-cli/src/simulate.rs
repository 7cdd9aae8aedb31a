//! `turnspec simulate`: many independent games in parallel, counted, timed
//! and summed up with a digest of their final states.
//!
//! Game `i` plays with a seed derived from (`--seed`, `i`) only, and the
//! digest combines per-game hashes in game-index order with a fixed hasher
//! (FNV-1a), so it depends on the spec, the seed and the options, never on
//! the number of threads or on scheduling.

use std::hash::{Hash, Hasher};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::ValueEnum;
use rayon::prelude::*;
use turnspec_engine::policy::{AllPass, BusyPolicy, Policy, RandomPolicy, SplitMix64, play_out};
use turnspec_engine::{
    Action, EndlessTurn, Event, EventSink, Game, GameOptions, HookContext, Host, Status, Triggers,
};
use turnspec_spec::{Spec, TurnActionId};

use crate::{Format, default_spec, load};

/// The built-in workloads (see docs/performance.md).
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub(crate) enum SimPolicy {
    /// Nobody acts; every turn-based question is answered 0 (no attackers).
    AllPass,
    /// In every window that opens, the active player plays one instant-speed
    /// play (the spec's first `who = "any"` stack timing class) and everyone
    /// passes twice round; "how many" questions are answered 1.
    Busy,
    /// Random legal actions and hook answers (`RandomPolicy::new`), seeded
    /// per game.
    Random,
}

impl SimPolicy {
    fn name(self) -> &'static str {
        match self {
            SimPolicy::AllPass => "all-pass",
            SimPolicy::Busy => "busy",
            SimPolicy::Random => "random",
        }
    }
}

#[derive(clap::Args)]
pub(crate) struct SimulateArgs {
    /// Spec file; defaults to games/mtg.toml.
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
    /// Plays the busy policy stacks per window before passing.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..))]
    depth: u8,
    /// Seed; game i uses a seed derived from (seed, i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: all cores; at most 256).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    threads: Option<u16>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// FNV-1a, 64 bits: fixed forever, unlike `RandomState`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The seed of game `index`: SplitMix64 of the run's seed mixed with the index.
pub(crate) fn game_seed(seed: u64, index: u64) -> u64 {
    let base = SplitMix64(seed).next_u64();
    SplitMix64(base ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// What one game (or a sum of games) did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Counts {
    pub turns: u64,
    /// Steps that began, step-less phases counting as one step each.
    pub steps: u64,
    /// Priority windows that opened.
    pub windows: u64,
    pub passes: u64,
    /// Plays (spells, abilities, special actions) the players chose.
    pub actions: u64,
    pub pushes: u64,
    pub resolutions: u64,
    pub stalled: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.turns += o.turns;
        self.steps += o.steps;
        self.windows += o.windows;
        self.passes += o.passes;
        self.actions += o.actions;
        self.pushes += o.pushes;
        self.resolutions += o.resolutions;
        self.stalled += o.stalled;
    }
}

/// Counts events; knows which phases are step-less, so their one implicit
/// step (which has no step events) counts as a step when the phase begins.
struct Sink {
    implicit_phases: u64,
    counts: Counts,
}

impl Sink {
    fn new(spec: &Spec) -> Self {
        let implicit_phases = spec
            .phases()
            .iter()
            .enumerate()
            .filter(|(i, p)| p.implicit_step && *i < 64)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        Sink {
            implicit_phases,
            counts: Counts::default(),
        }
    }
}

impl EventSink for Sink {
    #[inline]
    fn event(&mut self, event: Event) {
        let c = &mut self.counts;
        match event {
            Event::TurnBegan { .. } => c.turns += 1,
            Event::StepBegan { .. } => c.steps += 1,
            Event::PhaseBegan { phase, .. } => {
                c.steps += (self.implicit_phases >> (phase.index() & 63)) & 1;
            }
            Event::PriorityGiven {
                because: turnspec_engine::Because::WindowOpened,
                ..
            } => c.windows += 1,
            Event::Passed { .. } => c.passes += 1,
            Event::Pushed { .. } => c.pushes += 1,
            Event::Resolved { .. } => c.resolutions += 1,
            _ => {}
        }
    }
}

/// A policy that counts the plays the wrapped policy chooses.
struct Counted<P> {
    inner: P,
    plays: u64,
}

impl<P: Host> Host for Counted<P> {
    #[inline]
    fn turn_action(
        &mut self,
        ctx: &HookContext,
        action: TurnActionId,
        triggers: &mut Triggers<'_>,
    ) -> u16 {
        self.inner.turn_action(ctx, action, triggers)
    }
    #[inline]
    fn step_began(&mut self, ctx: &HookContext, triggers: &mut Triggers<'_>) {
        self.inner.step_began(ctx, triggers)
    }
}

impl<P: Policy> Policy for Counted<P> {
    #[inline]
    fn decide(&mut self, game: &Game<'_>) -> Action {
        let action = self.inner.decide(game);
        self.plays += matches!(action, Action::Play { .. }) as u64;
        action
    }
}

/// The inputs every game shares.
#[derive(Clone, Copy)]
struct Setup<'a> {
    spec: &'a Spec,
    players: u8,
    turns: u32,
    policy: SimPolicy,
    depth: u8,
    seed: u64,
}

/// What one game gave: its counts, the hash of its end, and where its turn
/// went round if it never ended.
type GameResult = (Counts, u64, Option<EndlessTurn>);

/// Plays game `index` and returns its counts and the hash of its end.
fn play_game(setup: Setup<'_>, index: u64) -> Result<GameResult, String> {
    let mut game =
        Game::new(setup.spec, &GameOptions::players(setup.players)).map_err(|e| e.to_string())?;
    game.set_turn_limit(setup.turns);
    let mut sink = Sink::new(setup.spec);
    let plays = match setup.policy {
        SimPolicy::AllPass => drive(&mut game, AllPass, &mut sink),
        SimPolicy::Busy => drive(
            &mut game,
            BusyPolicy::new(setup.spec).with_depth(setup.depth),
            &mut sink,
        ),
        SimPolicy::Random => drive(
            &mut game,
            RandomPolicy::new(game_seed(setup.seed, index)),
            &mut sink,
        ),
    };
    let mut counts = sink.counts;
    counts.actions = plays;
    counts.stalled = (game.status() == Status::Stalled) as u64;
    let mut h = Fnv1a::default();
    game.state().hash(&mut h);
    counts.hash(&mut h);
    Ok((counts, h.finish(), game.endless_turn()))
}

fn drive<P: Policy>(game: &mut Game<'_>, policy: P, sink: &mut Sink) -> u64 {
    let mut counted = Counted {
        inner: policy,
        plays: 0,
    };
    play_out(game, &mut counted, sink);
    counted.plays
}

/// Games played and folded at a time by [`simulate_all`].
const BATCH: u64 = 1 << 14;

/// The most worker threads `--threads` may ask for.
const MAX_THREADS: i64 = 256;

/// The sum of all games and the digest, in game-index order.
struct Summary {
    counts: Counts,
    /// Games stopped in a turn that never ends, and the first of them.
    endless: u64,
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
    let mut counts = Counts::default();
    let mut digest = Fnv1a::default();
    // Games are played a batch at a time and each batch is folded into the
    // sums and the digest, in game order, before the next one starts: memory
    // stays the same however many games there are.
    let mut batch: Vec<Result<GameResult, String>> = Vec::new();
    let (mut endless, mut first_endless) = (0, None);
    let mut first = 0;
    let mut index = 0u64;
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
                Ok((c, h, e)) => {
                    counts.add(&c);
                    digest.write_u64(h);
                    if let Some(e) = e {
                        endless += 1;
                        first_endless = first_endless.or(Some((index, e)));
                    }
                    index += 1;
                }
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
        counts,
        endless,
        first_endless,
        digest: digest.finish(),
        seconds,
        threads: pool.current_num_threads(),
    })
}

pub(crate) fn simulate(args: SimulateArgs) -> Result<ExitCode, String> {
    let path = args.spec.clone().unwrap_or_else(default_spec);
    let Some((spec, _)) = load(&path)? else {
        return Ok(ExitCode::FAILURE);
    };
    // Refuse a bad player count before starting any thread.
    Game::new(&spec, &GameOptions::players(args.players)).map_err(|e| e.to_string())?;
    if args.policy == SimPolicy::Busy && BusyPolicy::new(&spec).timing().is_none() {
        return Err(format!(
            "{}: the busy policy needs a timing class with who = \"any\" that uses the stack",
            path.display()
        ));
    }
    let setup = Setup {
        spec: &spec,
        players: args.players,
        turns: args.turns,
        policy: args.policy,
        depth: args.depth,
        seed: args.seed,
    };
    let bar = !args.quiet && std::io::stderr().is_terminal();
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
                "spec": path.display().to_string(),
                "players": args.players,
                "policy": args.policy.name(),
                "depth": args.depth,
                "seed": args.seed,
                "threads": s.threads,
                "games": args.games,
                "turns": c.turns,
                "steps": c.steps,
                "windows": c.windows,
                "passes": c.passes,
                "actions": c.actions,
                "resolutions": c.resolutions,
                "stalled": c.stalled,
                "never_ends": s.endless,
                "seconds": s.seconds,
                "turns_per_sec": per_sec(c.turns),
                "passes_per_sec": per_sec(c.passes),
                "digest": digest,
            });
            crate::out::println(&v.to_string());
        }
        Format::Text => {
            let depth = if args.policy == SimPolicy::Busy && args.depth > 1 {
                format!(" (depth {})", args.depth)
            } else {
                String::new()
            };
            crate::out::println(&format!(
                "{} — {}, {} players, policy {}{depth}, seed {}, {} thread{}",
                spec.game().name,
                path.display(),
                args.players,
                args.policy.name(),
                args.seed,
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
            if c.stalled > 0 {
                crate::out::println(&format!("  stalled games {}", c.stalled));
            }
            if s.endless > 0 {
                crate::out::println(&format!("  games whose turn never ends {}", s.endless));
            }
            crate::out::println(&format!("  digest {digest}"));
        }
    }
    if let Some((game, endless)) = s.first_endless {
        crate::out::eprintln(&format!(
            "error: {} game(s) stopped in a turn that never ends; game {game}: {}",
            s.endless,
            endless.describe(&spec)
        ));
    }
    if c.stalled > 0 {
        crate::out::eprintln(&format!(
            "error: {} game(s) stalled: no priority window could open",
            c.stalled
        ));
    }
    Ok(if c.stalled > 0 || s.endless > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
            policy,
            depth: 1,
            seed,
        }
    }

    #[test]
    fn fnv1a_matches_reference_vectors() {
        let mut h = Fnv1a::default();
        h.write(b"");
        assert_eq!(h.finish(), 0xcbf2_9ce4_8422_2325);
        let mut h = Fnv1a::default();
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
        let mut h = Fnv1a::default();
        h.write(b"foobar");
        assert_eq!(h.finish(), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn seeds_differ_per_game_and_are_fixed() {
        assert_ne!(game_seed(7, 0), game_seed(7, 1));
        assert_ne!(game_seed(7, 0), game_seed(8, 0));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
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
        // state gained its count of repeats without priority, which the
        // digest hashes).
        let spec = mtg();
        let setup = setup(&spec, 3, 1, SimPolicy::Random, 42);
        let s = simulate_all(setup, BATCH + 5, Some(2), false).unwrap();
        assert_eq!(format!("{:016x}", s.digest), "4fcf62aa92dfc7eb");
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

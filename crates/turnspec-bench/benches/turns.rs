//! Criterion benches (see docs/performance.md for the figures):
//!
//! - `all-pass` and `busy`: one game of `TURNS` turns per iteration on
//!   games/mtg.toml, engine and hand-written baseline side by side, 2, 4 and
//!   8 players; throughput is per turn.
//! - `busy-depth`: busy with k plays stacked per window, 2 players.
//! - `other-all-pass` and `other-busy`: the same for Grand Archive, Lorcana
//!   and Pokémon, engine and (where one exists) hand-written machine, 2 and
//!   4 players (where the spec allows 4).
//! - `load`: parse + compile + validate each game spec (text already in
//!   memory).
//! - `clone`: cloning a game with an empty stack and with 3 objects.
//!
//! `cargo bench -p turnspec-bench --features criterion --bench turns -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use turnspec_bench::{MTG, RefGame, Workload, engine_game, hand_game, hand_game_of, load};
use turnspec_engine::policy::{BusyPolicy, Policy};
use turnspec_engine::{Game, GameOptions};

const TURNS: u32 = 1000;

fn workloads(c: &mut Criterion) {
    let spec = load(MTG);
    for (name, workload) in [("all-pass", Workload::AllPass), ("busy", Workload::Busy(1))] {
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(TURNS as u64));
        for players in [2u8, 4, 8] {
            group.bench_with_input(BenchmarkId::new("engine", players), &players, |b, &p| {
                b.iter(|| engine_game(&spec, black_box(p), TURNS, workload, &mut ()))
            });
            group.bench_with_input(
                BenchmarkId::new("hand-written", players),
                &players,
                |b, &p| b.iter(|| hand_game(black_box(p), TURNS, workload, &mut ())),
            );
        }
        group.finish();
    }
}

fn other_games(c: &mut Criterion) {
    for (name, workload) in [
        ("other-all-pass", Workload::AllPass),
        ("other-busy", Workload::Busy(1)),
    ] {
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(TURNS as u64));
        for game in RefGame::ALL.into_iter().filter(|&g| g != RefGame::Mtg) {
            let spec = load(game.source());
            for players in [2u8, 4]
                .into_iter()
                .filter(|&p| p <= spec.game().max_players)
            {
                let id = BenchmarkId::new(format!("{}-engine", game.name()), players);
                group.bench_with_input(id, &players, |b, &p| {
                    b.iter(|| engine_game(&spec, black_box(p), TURNS, workload, &mut ()))
                });
                if game.has_hand() {
                    let id = BenchmarkId::new(format!("{}-hand-written", game.name()), players);
                    group.bench_with_input(id, &players, |b, &p| {
                        b.iter(|| hand_game_of(game, black_box(p), TURNS, workload, &mut ()))
                    });
                }
            }
        }
        group.finish();
    }
}

fn depth(c: &mut Criterion) {
    let spec = load(MTG);
    let mut group = c.benchmark_group("busy-depth");
    group.throughput(Throughput::Elements(TURNS as u64));
    for k in [1u8, 2, 4, 8, 16] {
        group.bench_with_input(BenchmarkId::new("engine", k), &k, |b, &k| {
            b.iter(|| engine_game(&spec, 2, TURNS, Workload::Busy(black_box(k)), &mut ()))
        });
        group.bench_with_input(BenchmarkId::new("hand-written", k), &k, |b, &k| {
            b.iter(|| hand_game(2, TURNS, Workload::Busy(black_box(k)), &mut ()))
        });
    }
    group.finish();
}

fn load_specs(c: &mut Criterion) {
    let mut group = c.benchmark_group("load");
    for src in RefGame::ALL.map(RefGame::source) {
        // Named after the spec's own game name, so no game is named here.
        let name = load(src).game().name.clone();
        group.bench_function(name.as_str(), |b| {
            b.iter(|| turnspec_spec::load_str("spec.toml", black_box(src)).is_ok())
        });
    }
    group.finish();
}

fn clone(c: &mut Criterion) {
    let spec = load(MTG);
    let mut group = c.benchmark_group("clone");
    let mut game = Game::new(&spec, &GameOptions::players(2)).unwrap();
    let mut busy = BusyPolicy::new(&spec).with_depth(3);
    game.start(&mut busy, &mut ());
    group.bench_function("empty-stack", |b| b.iter(|| black_box(&game).clone()));
    for _ in 0..3 {
        let a = busy.decide(&game);
        game.apply(a, &mut busy, &mut ()).unwrap();
    }
    assert_eq!(game.stack().len(), 3);
    group.bench_function("stack-3", |b| b.iter(|| black_box(&game).clone()));
    group.finish();
}

criterion_group!(benches, workloads, other_games, depth, load_specs, clone);
criterion_main!(benches);

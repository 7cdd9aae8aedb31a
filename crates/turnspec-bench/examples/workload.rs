//! One workload, one thread, no harness: for profilers and instruction
//! counts (`valgrind --tool=callgrind`, `perf record`).
//!
//! `workload engine|hand|engine-ga all-pass|busy|busy-K PLAYERS TURNS [GAMES [count]]`
//!
//! `engine` and `hand` play games/mtg.toml; `engine-ga` plays
//! games/grand-archive.toml (there is no hand-written Grand Archive).
//!
//! With `count`, one more game is played with a counting sink and its work
//! printed (outside the timed loop, but inside a profiler's totals).

use turnspec_bench::{
    EngineWork, GRAND_ARCHIVE, HandWork, MTG, Workload, engine_game, hand_game, load,
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: workload engine|hand|engine-ga all-pass|busy|busy-K PLAYERS TURNS [GAMES [count]]";
    if args.len() < 4 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let workload = match args[1].as_str() {
        "all-pass" => Workload::AllPass,
        "busy" => Workload::Busy(1),
        w => match w.strip_prefix("busy-").and_then(|k| k.parse().ok()) {
            Some(k) => Workload::Busy(k),
            None => {
                eprintln!("{usage}");
                std::process::exit(2);
            }
        },
    };
    let players: u8 = args[2].parse().expect("PLAYERS");
    let turns: u32 = args[3].parse().expect("TURNS");
    let games: u32 = args.get(4).map_or(1, |g| g.parse().expect("GAMES"));
    let spec = load(if args[0] == "engine-ga" {
        GRAND_ARCHIVE
    } else {
        MTG
    });
    let mut decisions = 0;
    let start = std::time::Instant::now();
    for _ in 0..games {
        decisions += match args[0].as_str() {
            "engine" | "engine-ga" => engine_game(&spec, players, turns, workload, &mut ()),
            "hand" => hand_game(players, turns, workload, &mut ()),
            _ => {
                eprintln!("{usage}");
                std::process::exit(2);
            }
        };
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{} {:?} {players}p: {games} x {turns} turns, {decisions} decisions, {:.1} ns/turn",
        args[0],
        workload,
        seconds * 1e9 / (games as f64 * turns as f64)
    );
    if args.get(5).map(String::as_str) != Some("count") {
        return;
    }
    let work = match args[0].as_str() {
        "engine" | "engine-ga" => {
            let mut w = EngineWork::new(&spec);
            engine_game(&spec, players, turns, workload, &mut w);
            w.work
        }
        _ => {
            let mut w = HandWork::default();
            hand_game(players, turns, workload, &mut w);
            w.work
        }
    };
    println!("per game: {work:?}");
}

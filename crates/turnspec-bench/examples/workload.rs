//! One workload, one thread, no harness: for profilers and instruction
//! counts (`valgrind --tool=callgrind`, `perf record`).
//!
//! `workload MACHINE all-pass|busy|busy-K PLAYERS TURNS [GAMES [count]]`
//!
//! MACHINE is `engine-GAME` (the engine playing games/GAME's spec) or
//! `hand-GAME` (the hand-written machine of that game), GAME one of `mtg`,
//! `ga` (games/grand-archive.toml), `lorcana`, and, with no hand-written
//! machine, `pokemon`, `yugioh`, `fab` (games/flesh-and-blood.toml) and
//! `swu` (games/star-wars-unlimited.toml). `engine` and `hand` alone are
//! MTG's. `auto-GAME` is the engine with the auto-passer passing for every
//! player (a stop profile that stops nowhere; all-pass only), to compare
//! with `engine-GAME all-pass`.
//!
//! With `count`, one more game is played with a counting sink and its work
//! printed (outside the timed loop, but inside a profiler's totals).

use turnspec_bench::{
    EngineWork, HandWork, RefGame, Workload, auto_pass_game, engine_game, hand_game_of, load,
};

const USAGE: &str = "usage: workload engine[-GAME]|hand[-GAME]|auto[-GAME] all-pass|busy|busy-K PLAYERS TURNS [GAMES [count]] (GAME: mtg, ga, lorcana, pokemon, yugioh, swu, fab)";

fn usage() -> ! {
    eprintln!("{USAGE}");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        usage();
    }
    let (engine, game) = match args[0].split_once('-') {
        None => (args[0].as_str(), RefGame::Mtg),
        Some((machine, game)) => (machine, RefGame::from_name(game).unwrap_or_else(|| usage())),
    };
    let (engine, auto) = match engine {
        "engine" => (true, false),
        "auto" if args[1] == "all-pass" => (true, true),
        "hand" if game.has_hand() => (false, false),
        _ => usage(),
    };
    let workload = match args[1].as_str() {
        "all-pass" => Workload::AllPass,
        "busy" => Workload::Busy(1),
        w => match w.strip_prefix("busy-").and_then(|k| k.parse().ok()) {
            Some(k) => Workload::Busy(k),
            None => usage(),
        },
    };
    let players: u8 = args[2].parse().expect("PLAYERS");
    let turns: u32 = args[3].parse().expect("TURNS");
    let games: u32 = args.get(4).map_or(1, |g| g.parse().expect("GAMES"));
    let spec = load(game.source());
    let mut decisions = 0;
    let start = std::time::Instant::now();
    for _ in 0..games {
        decisions += if auto {
            auto_pass_game(&spec, players, turns, &mut ())
        } else if engine {
            engine_game(&spec, players, turns, workload, &mut ())
        } else {
            hand_game_of(game, players, turns, workload, &mut ())
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
    let work = if auto {
        let mut w = EngineWork::new(&spec);
        auto_pass_game(&spec, players, turns, &mut w);
        w.work
    } else if engine {
        let mut w = EngineWork::new(&spec);
        engine_game(&spec, players, turns, workload, &mut w);
        w.work
    } else {
        let mut w = HandWork::default();
        hand_game_of(game, players, turns, workload, &mut w);
        w.work
    };
    println!("per game: {work:?}");
}

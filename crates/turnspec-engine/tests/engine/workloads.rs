//! The two built-in workloads (`turnspec simulate --policy all-pass|busy`),
//! counted turn by turn on both game specs. docs/performance.md quotes these
//! counts; the benchmarks and the hand-written baseline do the same work.

use turnspec_engine::policy::{AllPass, BusyPolicy, Policy, play_out};
use turnspec_engine::{Because, Event, EventSink, Game, GameOptions, ObjectKind, Status};
use turnspec_spec::Spec;

fn load(src: &str) -> Spec {
    turnspec_spec::load_str("spec.toml", src).unwrap().0
}

fn mtg() -> Spec {
    load(include_str!("../../../../games/mtg.toml"))
}

fn ga() -> Spec {
    load(include_str!("../../../../games/grand-archive.toml"))
}

/// What happened in one turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Turn {
    /// Steps that began; a step-less phase counts as one step.
    steps: u32,
    /// Windows that opened (each of these steps has at most one that opens).
    windows: u32,
    passes: u32,
    /// Players' plays that went on the stack.
    casts: u32,
    resolutions: u32,
}

impl Turn {
    fn new(steps: u32, windows: u32, passes: u32, casts: u32) -> Self {
        Turn {
            steps,
            windows,
            passes,
            casts,
            resolutions: casts,
        }
    }
}

/// Per-turn counts, index 0 = turn 1.
struct PerTurn<'s> {
    spec: &'s Spec,
    turns: Vec<Turn>,
}

impl EventSink for PerTurn<'_> {
    fn event(&mut self, event: Event) {
        if let Event::TurnBegan { .. } = event {
            self.turns.push(Turn::default());
            return;
        }
        let t = self
            .turns
            .last_mut()
            .expect("an event before the first turn");
        match event {
            Event::StepBegan { .. } => t.steps += 1,
            Event::PhaseBegan { phase, .. } if self.spec.phase(phase).unwrap().implicit_step => {
                t.steps += 1
            }
            Event::PriorityGiven {
                because: Because::WindowOpened,
                ..
            } => t.windows += 1,
            Event::Passed { .. } => t.passes += 1,
            Event::Pushed {
                object:
                    turnspec_engine::StackObject {
                        kind: ObjectKind::Play(_),
                        ..
                    },
            } => t.casts += 1,
            Event::Resolved { .. } => t.resolutions += 1,
            _ => {}
        }
    }
}

fn per_turn<P: Policy>(spec: &Spec, players: u8, turns: u32, mut policy: P) -> Vec<Turn> {
    let mut game = Game::new(spec, &GameOptions::players(players)).unwrap();
    game.set_turn_limit(turns);
    let mut sink = PerTurn {
        spec,
        turns: Vec::new(),
    };
    play_out(&mut game, &mut policy, &mut sink);
    assert_eq!(game.status(), Status::TurnLimit);
    assert!(game.stack().is_empty());
    assert_eq!(sink.turns.len(), turns as usize);
    sink.turns
}

/// Every Magic turn of an `n`-player game is `regular` but turn 1 of a
/// two-player game, `first`: the starting player skips the draw step
/// (103.8a).
fn assert_mtg_turns(turns: &[Turn], n: u8, first: Turn, regular: Turn) {
    for (i, t) in turns.iter().enumerate() {
        let want = if n == 2 && i == 0 { first } else { regular };
        assert_eq!(*t, want, "{n} players, turn {}", i + 1);
    }
}

#[test]
fn mtg_all_pass_is_10_steps_8_windows_8n_passes() {
    let spec = mtg();
    for n in [2u8, 4] {
        let n32 = n as u32;
        let turns = per_turn(&spec, n, 10, AllPass);
        // One step and one window less on the first turn.
        let first = Turn::new(9, 7, 7 * n32, 0);
        assert_mtg_turns(&turns, n, first, Turn::new(10, 8, 8 * n32, 0));
    }
}

#[test]
fn mtg_busy_is_12_steps_10_windows_20n_passes_10_casts() {
    let spec = mtg();
    for n in [2u8, 4] {
        let n32 = n as u32;
        let turns = per_turn(&spec, n, 10, BusyPolicy::new(&spec));
        let first = Turn::new(11, 9, 18 * n32, 9);
        assert_mtg_turns(&turns, n, first, Turn::new(12, 10, 20 * n32, 10));
    }
}

#[test]
fn mtg_busy_with_depth_k_passes_k_plus_1_rounds() {
    let spec = mtg();
    for (n, k) in [(2u8, 3u8), (4, 5)] {
        let turns = per_turn(&spec, n, 6, BusyPolicy::new(&spec).with_depth(k));
        let (n32, k32) = (n as u32, k as u32);
        for t in &turns[2..] {
            assert_eq!(*t, Turn::new(12, 10, 10 * (k32 + 1) * n32, 10 * k32));
        }
    }
}

#[test]
fn busy_plays_instant_speed_found_from_the_spec() {
    let spec = mtg();
    let busy = BusyPolicy::new(&spec);
    assert_eq!(busy.timing(), spec.timing_by_id("instant"));
    let spec = ga();
    let busy = BusyPolicy::new(&spec);
    assert_eq!(busy.timing(), spec.timing_by_id("fast"));
}

/// Grand Archive, regular turn: wake up, materialize, recollection, draw and
/// main are step-less phases (5 steps), the end phase has two steps: 7.
/// Windows that always open: start of Recollection, Main, before end of
/// turn (3); the state-check windows open only when something is pending,
/// which never happens here. Busy: one fast play in each of the three,
/// resolved by a round of passes, then a second round; the materialize
/// question is a yes/no play question, answered 0; attacks are plays, not
/// hook answers, so no combat phase starts.
#[test]
fn grand_archive_workloads() {
    let spec = ga();
    for n in [2u8, 4] {
        let n32 = n as u32;
        // All pass: one round of passes a window; busy: two, and one play.
        let all_pass = (per_turn(&spec, n, 10, AllPass), 1);
        let busy = (per_turn(&spec, n, 10, BusyPolicy::new(&spec)), 2);
        for (turns, rounds) in [all_pass, busy] {
            let per_window = |windows: u32| (windows * rounds * n32, windows * (rounds - 1));
            for (i, t) in turns.iter().enumerate() {
                // First turns skip wake up, materialize and recollection (and,
                // for the starting player of a two-player game, the draw).
                let (steps, windows) = match i {
                    0 if n == 2 => (3, 2),
                    i if i < n as usize => (4, 2),
                    _ => (7, 3),
                };
                let (passes, casts) = per_window(windows);
                assert_eq!(
                    *t,
                    Turn::new(steps, windows, passes, casts),
                    "{n}p turn {}, {rounds} round(s)",
                    i + 1
                );
            }
        }
    }
}

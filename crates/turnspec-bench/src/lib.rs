//! Benchmark support: the hand-written baselines (MTG in [`hand`], Grand
//! Archive in [`hand_ga`], Lorcana in [`hand_lorcana`]) and the workloads
//! run through the engine for every reference game ([`RefGame`]), with
//! counters that make both sides' work comparable. The criterion benches
//! are in `benches/turns.rs`.

pub mod hand;
pub mod hand_ga;
pub mod hand_lorcana;

use turnspec_engine::policy::{AllPass, BusyPolicy, Policy, play_out};
use turnspec_engine::{
    AutoPasser, Because, Event, EventSink, Game, GameOptions, NoHost, PlayerId, Stopped,
};
use turnspec_spec::{Spec, StopProfile};

pub const MTG: &str = include_str!("../../../games/mtg.toml");
pub const GRAND_ARCHIVE: &str = include_str!("../../../games/grand-archive.toml");
pub const LORCANA: &str = include_str!("../../../games/lorcana.toml");
pub const POKEMON: &str = include_str!("../../../games/pokemon-tcg.toml");
pub const YUGIOH: &str = include_str!("../../../games/yugioh.toml");
pub const STAR_WARS_UNLIMITED: &str = include_str!("../../../games/star-wars-unlimited.toml");
pub const FLESH_AND_BLOOD: &str = include_str!("../../../games/flesh-and-blood.toml");

/// The reference games: every one has both workloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefGame {
    Mtg,
    GrandArchive,
    Lorcana,
    Pokemon,
    Yugioh,
    FleshAndBlood,
    StarWarsUnlimited,
}

impl RefGame {
    pub const ALL: [RefGame; 7] = [
        RefGame::Mtg,
        RefGame::GrandArchive,
        RefGame::Lorcana,
        RefGame::Pokemon,
        RefGame::Yugioh,
        RefGame::FleshAndBlood,
        RefGame::StarWarsUnlimited,
    ];

    /// The short name the `workload` example and the guard use.
    pub fn name(self) -> &'static str {
        match self {
            RefGame::Mtg => "mtg",
            RefGame::GrandArchive => "ga",
            RefGame::Lorcana => "lorcana",
            RefGame::Pokemon => "pokemon",
            RefGame::Yugioh => "yugioh",
            RefGame::FleshAndBlood => "fab",
            RefGame::StarWarsUnlimited => "swu",
        }
    }

    pub fn from_name(name: &str) -> Option<RefGame> {
        RefGame::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The spec's source (games/*.toml).
    pub fn source(self) -> &'static str {
        match self {
            RefGame::Mtg => MTG,
            RefGame::GrandArchive => GRAND_ARCHIVE,
            RefGame::Lorcana => LORCANA,
            RefGame::Pokemon => POKEMON,
            RefGame::Yugioh => YUGIOH,
            RefGame::FleshAndBlood => FLESH_AND_BLOOD,
            RefGame::StarWarsUnlimited => STAR_WARS_UNLIMITED,
        }
    }

    /// Whether a hand-written machine of this game exists.
    pub fn has_hand(self) -> bool {
        matches!(
            self,
            RefGame::Mtg | RefGame::GrandArchive | RefGame::Lorcana
        )
    }
}

pub fn load(src: &str) -> Spec {
    match turnspec_spec::load_str("spec.toml", src) {
        Ok((spec, _)) => spec,
        Err(report) => panic!("spec does not load:\n{}", report.to_short_text()),
    }
}

/// The built-in workloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    AllPass,
    /// Busy with this many plays stacked per window (1 = the busy workload).
    Busy(u8),
}

/// What both machines count: the work done.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    pub turns: u64,
    /// Steps that began; step-less phases (MTG's main phases) count as one.
    pub steps: u64,
    pub turn_actions: u64,
    pub windows: u64,
    pub passes: u64,
    pub casts: u64,
    pub resolutions: u64,
    /// Plays that do not use the stack (special actions).
    pub specials: u64,
}

/// Counts engine events as [`Work`].
pub struct EngineWork<'s> {
    spec: &'s Spec,
    pub work: Work,
}

impl<'s> EngineWork<'s> {
    pub fn new(spec: &'s Spec) -> Self {
        EngineWork {
            spec,
            work: Work::default(),
        }
    }
}

impl EventSink for EngineWork<'_> {
    fn event(&mut self, event: Event) {
        let w = &mut self.work;
        match event {
            Event::TurnBegan { .. } => w.turns += 1,
            Event::StepBegan { .. } => w.steps += 1,
            Event::TurnAction { .. } => w.turn_actions += 1,
            Event::PhaseBegan { phase, .. } => {
                w.steps += self.spec.phase(phase).is_some_and(|p| p.implicit_step) as u64
            }
            Event::PriorityGiven {
                because: Because::WindowOpened,
                ..
            } => w.windows += 1,
            Event::Passed { .. } => w.passes += 1,
            Event::Pushed { .. } => w.casts += 1,
            Event::Resolved { .. } => w.resolutions += 1,
            Event::SpecialAction { .. } => w.specials += 1,
            _ => {}
        }
    }
}

/// Counts the hand-written machine's reports as [`Work`].
#[derive(Debug, Default)]
pub struct HandWork {
    pub work: Work,
}

impl hand::HandSink for HandWork {
    fn turn_began(&mut self, _: u32) {
        self.work.turns += 1;
    }
    fn step_began(&mut self, _: hand::Step) {
        self.work.steps += 1;
    }
    fn turn_action(&mut self) {
        self.work.turn_actions += 1;
    }
    fn window_opened(&mut self) {
        self.work.windows += 1;
    }
    fn passed(&mut self) {
        self.work.passes += 1;
    }
    fn pushed(&mut self, _: hand::Object) {
        self.work.casts += 1;
    }
    fn resolved(&mut self, _: hand::Object) {
        self.work.resolutions += 1;
    }
}

/// What the hand-written Grand Archive and Lorcana machines report; `()`
/// ignores everything.
pub trait WorkSink {
    #[inline]
    fn turn_began(&mut self) {}
    /// A step began; a step-less phase counts as one.
    #[inline]
    fn step_began(&mut self) {}
    #[inline]
    fn turn_action(&mut self) {}
    #[inline]
    fn window_opened(&mut self) {}
    #[inline]
    fn passed(&mut self) {}
    #[inline]
    fn pushed(&mut self) {}
    #[inline]
    fn resolved(&mut self) {}
    /// A play that does not use the stack.
    #[inline]
    fn special(&mut self) {}
}

impl WorkSink for () {}

impl WorkSink for HandWork {
    fn turn_began(&mut self) {
        self.work.turns += 1;
    }
    fn step_began(&mut self) {
        self.work.steps += 1;
    }
    fn turn_action(&mut self) {
        self.work.turn_actions += 1;
    }
    fn window_opened(&mut self) {
        self.work.windows += 1;
    }
    fn passed(&mut self) {
        self.work.passes += 1;
    }
    fn pushed(&mut self) {
        self.work.casts += 1;
    }
    fn resolved(&mut self) {
        self.work.resolutions += 1;
    }
    fn special(&mut self) {
        self.work.specials += 1;
    }
}

/// One engine game of `turns` turns; returns the decisions taken.
pub fn engine_game<S: EventSink>(
    spec: &Spec,
    players: u8,
    turns: u32,
    workload: Workload,
    sink: &mut S,
) -> u64 {
    let mut game = Game::new(spec, &GameOptions::players(players)).expect("player count");
    game.set_turn_limit(turns);
    match workload {
        Workload::AllPass => run(&mut game, &mut AllPass, sink),
        Workload::Busy(depth) => run(
            &mut game,
            &mut BusyPolicy::new(spec).with_depth(depth),
            sink,
        ),
    }
}

/// One engine game of `turns` turns in which the auto-passer passes for
/// everyone: every player has a stop profile that stops nowhere, so the
/// game is the all-pass workload with the auto-passer deciding each pass
/// (docs/stops.md; the issue asks that it cost at most 1.2x the all-pass
/// policy). Returns the passes made.
pub fn auto_pass_game<S: EventSink>(spec: &Spec, players: u8, turns: u32, sink: &mut S) -> u64 {
    let mut game = Game::new(spec, &GameOptions::players(players)).expect("player count");
    game.set_turn_limit(turns);
    let mut passer = AutoPasser::new();
    passer.set_pass_limit(u32::MAX);
    for p in 0..players {
        passer
            .set_profile(spec, PlayerId(p), StopProfile::new(spec))
            .expect("a profile of this spec");
    }
    let mut host = NoHost;
    game.start(&mut host, sink);
    let before = game.turn();
    match passer.advance(&mut game, &mut host, sink) {
        Stopped::GameOver(_) => u64::from(game.turn() - before),
        other => panic!("the auto-passer stopped before the turn limit: {other:?}"),
    }
}

fn run<P: Policy, S: EventSink>(game: &mut Game, policy: &mut P, sink: &mut S) -> u64 {
    play_out(game, policy, sink)
}

/// One hand-written game of `game` (see [`RefGame::has_hand`]) of `turns`
/// turns; returns the decisions taken.
pub fn hand_game_of<S: hand::HandSink + WorkSink>(
    game: RefGame,
    players: u8,
    turns: u32,
    workload: Workload,
    sink: &mut S,
) -> u64 {
    match game {
        RefGame::Mtg => hand_game(players, turns, workload, sink),
        RefGame::GrandArchive => hand_ga::game(players, turns, workload, sink),
        RefGame::Lorcana => hand_lorcana::game(players, turns, workload, sink),
        RefGame::Pokemon
        | RefGame::Yugioh
        | RefGame::FleshAndBlood
        | RefGame::StarWarsUnlimited => {
            panic!("there is no hand-written machine for {game:?}")
        }
    }
}

/// One hand-written MTG game of `turns` turns; returns the decisions taken.
pub fn hand_game<S: hand::HandSink>(
    players: u8,
    turns: u32,
    workload: Workload,
    sink: &mut S,
) -> u64 {
    let mut game = hand::HandGame::new(players);
    game.set_turn_limit(turns);
    match workload {
        Workload::AllPass => hand::play_out(&mut game, &mut hand::HandAllPass, sink),
        Workload::Busy(depth) => hand::play_out(&mut game, &mut hand::HandBusy::new(depth), sink),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The baseline does exactly the engine's work: same turns, steps,
    /// turn-based actions, windows, passes, casts and resolutions, and the
    /// same decisions.
    #[test]
    fn hand_written_does_the_same_work_as_the_engine() {
        let spec = load(MTG);
        for players in [2u8, 3, 4, 8] {
            for workload in [
                Workload::AllPass,
                Workload::Busy(1),
                Workload::Busy(3),
                Workload::Busy(16),
            ] {
                for turns in [1u32, 2, 7, 50] {
                    let mut e = EngineWork::new(&spec);
                    let ed = engine_game(&spec, players, turns, workload, &mut e);
                    let mut h = HandWork::default();
                    let hd = hand_game(players, turns, workload, &mut h);
                    assert_eq!(e.work, h.work, "{players}p {workload:?} {turns} turns");
                    assert_eq!(ed, hd, "decisions, {players}p {workload:?} {turns} turns");
                    assert_eq!(e.work.turns, turns as u64);
                }
            }
        }
    }

    /// The Grand Archive and Lorcana machines do exactly the engine's work
    /// on their specs, with the same decisions.
    #[test]
    fn hand_written_ga_and_lorcana_do_the_same_work_as_the_engine() {
        for game in [RefGame::GrandArchive, RefGame::Lorcana] {
            let spec = load(game.source());
            let max = spec.game().max_players;
            for players in [2u8, 3, 4, 8].into_iter().filter(|&p| p <= max) {
                for workload in [Workload::AllPass, Workload::Busy(1), Workload::Busy(3)] {
                    for turns in [1u32, 2, 7, 50] {
                        let mut e = EngineWork::new(&spec);
                        let ed = engine_game(&spec, players, turns, workload, &mut e);
                        let mut h = HandWork::default();
                        let hd = hand_game_of(game, players, turns, workload, &mut h);
                        let what = format!("{game:?} {players}p {workload:?} {turns} turns");
                        assert_eq!(e.work, h.work, "{what}");
                        assert_eq!(ed, hd, "decisions, {what}");
                        assert_eq!(e.work.turns, turns as u64, "{what}");
                    }
                }
            }
        }
    }

    /// Every reference game has both workloads, and busy turns do more than
    /// all-pass turns.
    #[test]
    fn every_reference_game_has_both_workloads() {
        for game in RefGame::ALL {
            let spec = load(game.source());
            for players in [2u8, 4]
                .into_iter()
                .filter(|&p| p <= spec.game().max_players)
            {
                let mut a = EngineWork::new(&spec);
                let ad = engine_game(&spec, players, 12, Workload::AllPass, &mut a);
                let mut b = EngineWork::new(&spec);
                let bd = engine_game(&spec, players, 12, Workload::Busy(1), &mut b);
                assert_eq!(
                    (a.work.turns, b.work.turns),
                    (12, 12),
                    "{game:?} {players}p"
                );
                let plays = |w: Work| w.casts + w.specials;
                assert_eq!(plays(a.work), 0, "{game:?} {players}p");
                assert!(plays(b.work) >= 12, "{game:?} {players}p: {:?}", b.work);
                assert!(bd > ad, "{game:?} {players}p");
            }
        }
    }

    /// Lorcana and Pokémon per turn (docs/performance.md, Workloads): one
    /// window the active player acts in alone, one pass closing it; busy
    /// adds one special action.
    #[test]
    fn per_turn_figures_of_lorcana_and_pokemon() {
        for (game, steps) in [(RefGame::Lorcana, 5), (RefGame::Pokemon, 3)] {
            let spec = load(game.source());
            for players in [2u8, 4]
                .into_iter()
                .filter(|&p| p <= spec.game().max_players)
            {
                for (workload, plays) in [(Workload::AllPass, 0), (Workload::Busy(1), 1)] {
                    let mut a = EngineWork::new(&spec);
                    engine_game(&spec, players, 2, workload, &mut a);
                    let mut b = EngineWork::new(&spec);
                    engine_game(&spec, players, 12, workload, &mut b);
                    let (a, b) = (a.work, b.work);
                    let d = |x: u64, y: u64| (x - y) / 10;
                    let got = (
                        d(b.steps, a.steps),
                        d(b.windows, a.windows),
                        d(b.passes, a.passes),
                        d(b.casts, a.casts),
                        d(b.specials, a.specials),
                    );
                    assert_eq!(
                        got,
                        (steps, 1, 1, 0, plays),
                        "{game:?} {players}p {workload:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn per_turn_figures_of_the_workloads() {
        let spec = load(MTG);
        for players in [2u8, 4] {
            let n = players as u64;
            // Turns 3..=12: every turn alike.
            let count = |w: Workload| {
                let mut a = EngineWork::new(&spec);
                engine_game(&spec, players, 2, w, &mut a);
                let mut b = EngineWork::new(&spec);
                engine_game(&spec, players, 12, w, &mut b);
                let d = |x: u64, y: u64| (x - y) / 10;
                let (a, b) = (a.work, b.work);
                (
                    d(b.steps, a.steps),
                    d(b.windows, a.windows),
                    d(b.passes, a.passes),
                    d(b.casts, a.casts),
                )
            };
            assert_eq!(count(Workload::AllPass), (10, 8, 8 * n, 0));
            assert_eq!(count(Workload::Busy(1)), (12, 10, 20 * n, 10));
        }
    }
}

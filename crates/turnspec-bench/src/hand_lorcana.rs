//! A hand-written Disney Lorcana turn machine: the baseline for the engine
//! on games/lorcana.toml, the shape where the active player acts alone and
//! triggered abilities wait in the bag.
//!
//! Like [`crate::hand`], it knows only the spec's turn structure, written
//! by hand: the points of the turn in an `enum`, a `match` over them, a
//! `Vec` bag. Only the active player acts (4.1.3), only in the Main Phase,
//! with the bag empty (4.1.2); passing with an empty bag ends the Main
//! Phase (3.3.2), with triggers in it resolves one instead: the active
//! player's first, then each other player's in turn order (7.7.4). The bag
//! windows of Set, Draw and End-of-Turn open only when it holds something.
//! Inking is once per turn (4.2.3). The starting player skips their first
//! draw (3.2.3.1). It rests at decisions exactly where the engine does; the
//! tests check that both do the same work.

use crate::{WorkSink, Workload};

/// Where the turn is: each point is the next thing to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Point {
    /// Ready step: ready, game state check; no window.
    Ready,
    /// Set step: characters dry, locations give lore, game state check,
    /// then the bag resolves.
    Set,
    /// Draw step (skipped on the starting player's first turn): draw, game
    /// state check, then the bag.
    Draw,
    /// Main Phase: turn actions until the active player passes.
    Main,
    /// End-of-Turn Phase: the bag, "this turn" effects end, the bag again.
    EndOfTurn,
    EndEffects,
    /// The final game state check, and the turn ends.
    FinalCheck,
}

/// The turn actions of 4.1 (timing classes of the spec).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Play {
    Ink,
    PlayCard,
    Activate,
    Quest,
    Challenge,
    Move,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LorcanaAction {
    Pass { player: u8 },
    Play { player: u8, play: Play, label: u32 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    NotRunning,
    NotHolder,
    /// Not the Main Phase, or the bag is not empty (4.1.2).
    NotNow,
    /// No inking left this turn (4.2.3).
    NoInking,
}

/// The active player's decisions.
pub trait LorcanaPolicy {
    fn decide(&mut self, game: &LorcanaGame) -> LorcanaAction;
    /// A window opened: its first decision comes next.
    fn window_opened(&mut self) {}
}

/// A triggered ability waiting in the bag: its controller and label.
pub type Trigger = (u8, u32);

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LorcanaGame {
    turn: u32,
    turn_limit: u32,
    players: u8,
    active: u8,
    starting: u8,
    running: bool,
    point: Point,
    /// Who decides now (always the active player, 4.1.3).
    holder: Option<u8>,
    inkings: u16,
    bag: Vec<Trigger>,
}

impl LorcanaGame {
    pub fn new(players: u8) -> Self {
        assert!((2..=8).contains(&players));
        LorcanaGame {
            turn: 0,
            turn_limit: u32::MAX,
            players,
            active: 0,
            starting: 0,
            running: true,
            point: Point::Ready,
            holder: None,
            inkings: 0,
            bag: Vec::with_capacity(32),
        }
    }

    pub fn set_turn_limit(&mut self, turn: u32) {
        self.turn_limit = turn;
    }
    pub fn running(&self) -> bool {
        self.running
    }
    pub fn holder(&self) -> Option<u8> {
        self.holder
    }
    pub fn active_player(&self) -> u8 {
        self.active
    }
    pub fn bag_len(&self) -> usize {
        self.bag.len()
    }
    pub fn point(&self) -> Point {
        self.point
    }

    /// Why `player` may not make `play` now, if they may not.
    pub fn check_play(&self, player: u8, play: Play) -> Result<(), Refused> {
        if !self.running {
            return Err(Refused::NotRunning);
        }
        if self.holder != Some(player) {
            return Err(Refused::NotHolder);
        }
        // The holder is the active player; turn actions only in the Main
        // Phase, and only with the bag empty.
        if self.point != Point::Main || !self.bag.is_empty() {
            return Err(Refused::NotNow);
        }
        if play == Play::Ink && self.inkings == 0 {
            return Err(Refused::NoInking);
        }
        Ok(())
    }

    pub fn start<P: LorcanaPolicy, S: WorkSink>(&mut self, policy: &mut P, sink: &mut S) {
        if self.running && self.holder.is_none() && self.turn == 0 {
            self.begin_turn(policy, sink);
        }
    }

    pub fn apply<P: LorcanaPolicy, S: WorkSink>(
        &mut self,
        action: LorcanaAction,
        policy: &mut P,
        sink: &mut S,
    ) -> Result<(), Refused> {
        match action {
            LorcanaAction::Pass { player } => {
                if !self.running {
                    return Err(Refused::NotRunning);
                }
                if self.holder != Some(player) {
                    return Err(Refused::NotHolder);
                }
                sink.passed();
                if self.bag.is_empty() {
                    // Nothing waits: the window (the Main Phase) ends.
                    self.holder = None;
                    self.advance();
                    self.run(policy, sink);
                } else {
                    self.resolve_next();
                    sink.resolved();
                }
            }
            LorcanaAction::Play { player, play, .. } => {
                self.check_play(player, play)?;
                if play == Play::Ink {
                    self.inkings -= 1;
                }
                // A turn action never enters the bag (7.7.2); the active
                // player goes on acting.
                sink.special();
            }
        }
        Ok(())
    }

    /// Takes the next trigger out of the bag: the active player's first,
    /// then each other player's in turn order (7.7.4).
    fn resolve_next(&mut self) {
        for k in 0..self.players {
            let seat = (self.active + k) % self.players;
            if let Some(i) = self.bag.iter().position(|t| t.0 == seat) {
                self.bag.remove(i);
                return;
            }
        }
    }

    fn begin_turn<P: LorcanaPolicy, S: WorkSink>(&mut self, policy: &mut P, sink: &mut S) {
        if self.turn >= self.turn_limit {
            self.running = false;
            return;
        }
        self.turn += 1;
        self.inkings = 1;
        sink.turn_began();
        self.point = Point::Ready;
        self.run(policy, sink);
    }

    /// Opens a window for the active player.
    fn open_window<P: LorcanaPolicy, S: WorkSink>(&mut self, policy: &mut P, sink: &mut S) {
        self.holder = Some(self.active);
        sink.window_opened();
        policy.window_opened();
    }

    /// The point after a window at `self.point` closes.
    fn advance(&mut self) {
        self.point = match self.point {
            Point::Set => Point::Draw,
            Point::Draw => Point::Main,
            Point::Main => Point::EndOfTurn,
            Point::EndOfTurn => Point::EndEffects,
            Point::EndEffects => Point::FinalCheck,
            p => p,
        };
    }

    /// Runs from `self.point` until the active player must decide or the
    /// game stops.
    fn run<P: LorcanaPolicy, S: WorkSink>(&mut self, policy: &mut P, sink: &mut S) {
        loop {
            match self.point {
                Point::Ready => {
                    sink.step_began();
                    sink.turn_action(); // ready
                    sink.turn_action(); // game state check
                    self.point = Point::Set;
                    continue;
                }
                Point::Set => {
                    sink.step_began();
                    sink.turn_action(); // no longer drying
                    sink.turn_action(); // lore from locations
                    sink.turn_action(); // game state check
                }
                Point::Draw => {
                    if self.turn == 1 && self.active == self.starting {
                        self.point = Point::Main;
                        continue;
                    }
                    sink.step_began();
                    sink.turn_action(); // draw
                    sink.turn_action(); // game state check
                }
                Point::Main => {
                    sink.step_began();
                    self.open_window(policy, sink);
                    return;
                }
                Point::EndOfTurn => sink.step_began(),
                Point::EndEffects => sink.turn_action(), // "this turn" effects end
                Point::FinalCheck => {
                    sink.turn_action(); // game state check
                    self.active = (self.active + 1) % self.players;
                    self.begin_turn(policy, sink);
                    return;
                }
            }
            // A bag window: it opens only if a trigger waits.
            if !self.bag.is_empty() {
                self.open_window(policy, sink);
                return;
            }
            self.advance();
        }
    }
}

/// Plays `policy` until the turn limit; returns the number of decisions.
pub fn play_out<P: LorcanaPolicy, S: WorkSink>(
    game: &mut LorcanaGame,
    policy: &mut P,
    sink: &mut S,
) -> u64 {
    game.start(policy, sink);
    let mut decisions = 0;
    while game.running() {
        let action = policy.decide(game);
        if game.apply(action, policy, sink).is_err() {
            break;
        }
        decisions += 1;
    }
    decisions
}

/// Nobody acts.
#[derive(Debug, Clone, Copy, Default)]
pub struct LorcanaAllPass;

impl LorcanaPolicy for LorcanaAllPass {
    #[inline]
    fn decide(&mut self, game: &LorcanaGame) -> LorcanaAction {
        LorcanaAction::Pass {
            player: game.holder().unwrap_or_default(),
        }
    }
}

/// The busy workload, as [`turnspec_engine::policy::BusyPolicy`] plays it
/// on Lorcana (no `who = "any"` class): at each window's first decision,
/// with the bag empty, the active player makes the first turn action, in
/// the spec's order, that is legal then (inking while they may, else
/// playing a card); then passes.
#[derive(Debug, Clone, Copy, Default)]
pub struct LorcanaBusy {
    fresh: bool,
    next_label: u32,
}

impl LorcanaBusy {
    pub fn new() -> Self {
        LorcanaBusy::default()
    }
}

impl LorcanaPolicy for LorcanaBusy {
    #[inline]
    fn decide(&mut self, game: &LorcanaGame) -> LorcanaAction {
        let player = game.holder().unwrap_or_default();
        if self.fresh {
            self.fresh = false;
            if game.bag_len() == 0 {
                let order = [
                    Play::Ink,
                    Play::PlayCard,
                    Play::Activate,
                    Play::Quest,
                    Play::Challenge,
                    Play::Move,
                ];
                if let Some(play) = order
                    .into_iter()
                    .find(|&p| game.check_play(player, p).is_ok())
                {
                    self.next_label = self.next_label.wrapping_add(1);
                    return LorcanaAction::Play {
                        player,
                        play,
                        label: self.next_label,
                    };
                }
            }
        }
        LorcanaAction::Pass { player }
    }

    fn window_opened(&mut self) {
        self.fresh = true;
    }
}

/// One game of `turns` turns; returns the decisions taken. Lorcana's busy
/// workload makes one play per window whatever the depth (its plays do not
/// stack).
pub fn game<S: WorkSink>(players: u8, turns: u32, workload: Workload, sink: &mut S) -> u64 {
    let mut game = LorcanaGame::new(players);
    game.set_turn_limit(turns);
    match workload {
        Workload::AllPass => play_out(&mut game, &mut LorcanaAllPass, sink),
        Workload::Busy(_) => play_out(&mut game, &mut LorcanaBusy::new(), sink),
    }
}

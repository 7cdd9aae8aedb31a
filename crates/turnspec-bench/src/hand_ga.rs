//! A hand-written Grand Archive turn machine: the baseline for the engine
//! on games/grand-archive.toml, the shape with Opportunity (priority by
//! another name) and step-less phases.
//!
//! Like [`crate::hand`], it knows only the spec's turn structure with no
//! facts set and no effects applied, written by hand: the points of the
//! turn where something happens in an `enum`, a `match` over them, a `Vec`
//! stack, Opportunity passed in turn order and a full cycle of passes
//! resolving the top layer or ending the phase or step (TIME 2-11). The
//! first-turn skips (TO 1.1, MAT 1, TO 1.2) and Clean-up's repeat (END 4)
//! are the spec's. Combat never starts: the workloads never attack (an
//! attack is a play of the `attack` class, and the busy workload plays
//! `fast`). It rests at decisions exactly where the engine does; the tests
//! check that both do the same work.

use crate::{WorkSink, Workload};

/// Where the turn is: each point is the next thing to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Point {
    /// Wake Up phase begins (skipped on a player's first turn): wake up.
    WakeUp,
    /// Wake Up's state-based check (a window if something is pending).
    WakeUpCheck,
    /// Materialize phase begins: its beginning window, if pending.
    Materialize,
    /// The turn player may materialize (a question, answered no here).
    MaterializeAct,
    MaterializeCheck,
    /// Recollection phase begins: a window always opens.
    Recollection,
    Recollect,
    RecollectionCheck,
    /// Draw phase begins (skipped for the starting player of a two-player
    /// game on the first turn): draw.
    Draw,
    DrawCheck,
    /// Main phase begins: its state-based check, if pending.
    Main,
    /// The Main phase's window, which always opens.
    MainWindow,
    /// End phase, before end of turn: a window always opens.
    EndOfTurn,
    /// Clean-up step: clean up; a window if something is pending.
    CleanUp,
    /// Clean-up repeats if a window opened in it (END 4); else the turn ends.
    CleanUpEnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GaAction {
    Pass {
        player: u8,
    },
    /// A fast play: an object on the Effects Stack.
    Fast {
        player: u8,
        label: u32,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    NotRunning,
    NotHolder,
}

/// The players' decisions and the turn-based questions.
pub trait GaPolicy {
    fn decide(&mut self, game: &GaGame) -> GaAction;
    /// Whether the turn player materializes (MAT 3).
    fn materialize(&mut self) -> bool {
        false
    }
    /// A window opened: its first priority comes next.
    fn window_opened(&mut self) {}
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GaGame {
    turn: u32,
    turn_limit: u32,
    players: u8,
    active: u8,
    starting: u8,
    had_turn: u8,
    first_turn: bool,
    running: bool,
    point: Point,
    /// A window opened in the current step (Clean-up's repeat).
    window_in_step: bool,
    holder: Option<u8>,
    passes: u8,
    stack: Vec<(u8, u32)>,
}

impl GaGame {
    pub fn new(players: u8) -> Self {
        assert!((2..=4).contains(&players));
        GaGame {
            turn: 0,
            turn_limit: u32::MAX,
            players,
            active: 0,
            starting: 0,
            had_turn: 0,
            first_turn: true,
            running: true,
            point: Point::WakeUp,
            window_in_step: false,
            holder: None,
            passes: 0,
            stack: Vec::with_capacity(32),
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
    pub fn passes(&self) -> u8 {
        self.passes
    }
    pub fn stack_len(&self) -> usize {
        self.stack.len()
    }
    pub fn point(&self) -> Point {
        self.point
    }

    /// Fast speed: whoever holds Opportunity (TIME Fast 2.1).
    pub fn can_play_fast(&self, player: u8) -> bool {
        self.running && self.holder == Some(player)
    }

    pub fn start<P: GaPolicy, S: WorkSink>(&mut self, policy: &mut P, sink: &mut S) {
        if self.running && self.holder.is_none() && self.turn == 0 {
            self.begin_turn(policy, sink);
        }
    }

    pub fn apply<P: GaPolicy, S: WorkSink>(
        &mut self,
        action: GaAction,
        policy: &mut P,
        sink: &mut S,
    ) -> Result<(), Refused> {
        if !self.running {
            return Err(Refused::NotRunning);
        }
        match action {
            GaAction::Pass { player } => {
                if self.holder != Some(player) {
                    return Err(Refused::NotHolder);
                }
                sink.passed();
                self.passes += 1;
                if self.passes < self.players {
                    self.holder = Some((player + 1) % self.players);
                    return Ok(());
                }
                self.passes = 0;
                if self.stack.pop().is_some() {
                    // The top layer resolves; the turn player is first after
                    // it (TIME 8).
                    sink.resolved();
                    self.holder = Some(self.active);
                } else {
                    // A full cycle of passes with an empty stack ends the
                    // window (TIME 11).
                    self.holder = None;
                    self.run(policy, sink);
                }
            }
            GaAction::Fast { player, label } => {
                if !self.can_play_fast(player) {
                    return Err(Refused::NotHolder);
                }
                self.stack.push((player, label));
                sink.pushed();
                // The actor keeps Opportunity (TIME 8.1).
                self.passes = 0;
            }
        }
        Ok(())
    }

    fn begin_turn<P: GaPolicy, S: WorkSink>(&mut self, policy: &mut P, sink: &mut S) {
        if self.turn >= self.turn_limit {
            self.running = false;
            return;
        }
        self.turn += 1;
        let bit = 1 << self.active;
        self.first_turn = self.had_turn & bit == 0;
        self.had_turn |= bit;
        sink.turn_began();
        self.point = Point::WakeUp;
        self.run(policy, sink);
    }

    fn begin_step<S: WorkSink>(&mut self, sink: &mut S) {
        self.window_in_step = false;
        sink.step_began();
    }

    /// Opens a window: the turn player receives Opportunity first (TIME 8).
    fn open_window<P: GaPolicy, S: WorkSink>(&mut self, policy: &mut P, sink: &mut S) {
        self.window_in_step = true;
        self.passes = 0;
        self.holder = Some(self.active);
        sink.window_opened();
        policy.window_opened();
    }

    /// A state-based check window opens only if something is pending.
    fn pending(&self) -> bool {
        !self.stack.is_empty()
    }

    /// Runs from `self.point` until a player must decide or the game stops.
    fn run<P: GaPolicy, S: WorkSink>(&mut self, policy: &mut P, sink: &mut S) {
        use Point::*;
        loop {
            let at = self.point;
            match at {
                WakeUp => {
                    // First turn: no Wake Up, Materialize or Recollection.
                    if self.first_turn {
                        self.point = Draw;
                        continue;
                    }
                    self.begin_step(sink);
                    sink.turn_action();
                    self.point = WakeUpCheck;
                }
                Materialize => {
                    self.begin_step(sink);
                    self.point = MaterializeAct;
                    if self.pending() {
                        self.open_window(policy, sink);
                        return;
                    }
                }
                MaterializeAct => {
                    // What a materialization does is card-level: the turn
                    // structure only asks.
                    let _ = policy.materialize();
                    sink.turn_action();
                    self.point = MaterializeCheck;
                }
                Recollection => {
                    self.begin_step(sink);
                    self.point = Recollect;
                    self.open_window(policy, sink);
                    return;
                }
                Recollect => {
                    sink.turn_action();
                    self.point = RecollectionCheck;
                }
                Draw => {
                    if self.first_turn && self.active == self.starting && self.players == 2 {
                        self.point = Main;
                        continue;
                    }
                    self.begin_step(sink);
                    sink.turn_action();
                    self.point = DrawCheck;
                }
                Main => {
                    self.begin_step(sink);
                    self.point = MainWindow;
                    if self.pending() {
                        self.open_window(policy, sink);
                        return;
                    }
                }
                MainWindow | EndOfTurn => {
                    if at == EndOfTurn {
                        self.begin_step(sink);
                    }
                    self.point = if at == EndOfTurn { CleanUp } else { EndOfTurn };
                    self.open_window(policy, sink);
                    return;
                }
                WakeUpCheck | MaterializeCheck | RecollectionCheck | DrawCheck => {
                    self.point = match at {
                        WakeUpCheck => Materialize,
                        MaterializeCheck => Recollection,
                        RecollectionCheck => Draw,
                        _ => Main,
                    };
                    if self.pending() {
                        self.open_window(policy, sink);
                        return;
                    }
                }
                CleanUp => {
                    self.begin_step(sink);
                    sink.turn_action(); // remove damage, end "this turn" effects
                    // No hand-size limit is imposed: no discard.
                    self.point = CleanUpEnd;
                    if self.pending() {
                        self.open_window(policy, sink);
                        return;
                    }
                }
                CleanUpEnd => {
                    if self.window_in_step {
                        self.point = CleanUp;
                        continue;
                    }
                    self.active = (self.active + 1) % self.players;
                    self.begin_turn(policy, sink);
                    return;
                }
            }
        }
    }
}

/// Plays `policy` until the turn limit; returns the number of decisions.
pub fn play_out<P: GaPolicy, S: WorkSink>(game: &mut GaGame, policy: &mut P, sink: &mut S) -> u64 {
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
pub struct GaAllPass;

impl GaPolicy for GaAllPass {
    #[inline]
    fn decide(&mut self, game: &GaGame) -> GaAction {
        GaAction::Pass {
            player: game.holder().unwrap_or_default(),
        }
    }
}

/// The busy workload, as [`turnspec_engine::policy::BusyPolicy`] plays it
/// on Grand Archive: in each window that opens with an empty stack the turn
/// player makes `depth` fast plays, then everyone passes; nothing is
/// materialized.
#[derive(Debug, Clone, Copy)]
pub struct GaBusy {
    depth: u8,
    opened_empty: bool,
    played: u8,
    next_label: u32,
    fresh: bool,
}

impl GaBusy {
    pub fn new(depth: u8) -> Self {
        GaBusy {
            depth: depth.max(1),
            opened_empty: false,
            played: 0,
            next_label: 0,
            fresh: false,
        }
    }
}

impl GaPolicy for GaBusy {
    #[inline]
    fn decide(&mut self, game: &GaGame) -> GaAction {
        let player = game.holder().unwrap_or_default();
        if game.passes() != 0 || player != game.active_player() {
            return GaAction::Pass { player };
        }
        if self.fresh {
            self.fresh = false;
            self.opened_empty = game.stack_len() == 0;
            self.played = 0;
        }
        if self.opened_empty
            && self.played < self.depth
            && game.stack_len() == self.played as usize
            && game.can_play_fast(player)
        {
            self.played += 1;
            self.next_label = self.next_label.wrapping_add(1);
            return GaAction::Fast {
                player,
                label: self.next_label,
            };
        }
        GaAction::Pass { player }
    }

    fn window_opened(&mut self) {
        self.fresh = true;
    }
}

/// One game of `turns` turns; returns the decisions taken.
pub fn game<S: WorkSink>(players: u8, turns: u32, workload: Workload, sink: &mut S) -> u64 {
    let mut game = GaGame::new(players);
    game.set_turn_limit(turns);
    match workload {
        Workload::AllPass => play_out(&mut game, &mut GaAllPass, sink),
        Workload::Busy(depth) => play_out(&mut game, &mut GaBusy::new(depth), sink),
    }
}

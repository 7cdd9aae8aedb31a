//! A hand-written MTG turn machine: the baseline the engine is measured
//! against.
//!
//! It knows nothing but games/mtg.toml's turn structure with no variants and
//! no facts set, written the way one would write it by hand: an `enum` of the
//! steps, a `match`, a `Vec` stack, the same priority rules (117.3a–d, 117.4)
//! and the same skips and repeats (103.8a, 508.8, 510.4, 514.3a). It rests at
//! decisions exactly where the engine does, and the workloads drive it the
//! same way: a policy decides, [`HandGame::apply`] checks the action and runs
//! to the next decision. The tests check that both do the same number of
//! steps, windows, passes, casts and resolutions.

/// The steps of an MTG turn; the main phases count as one step each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    Untap,
    Upkeep,
    Draw,
    PrecombatMain,
    BeginningOfCombat,
    DeclareAttackers,
    DeclareBlockers,
    CombatDamage,
    EndOfCombat,
    PostcombatMain,
    End,
    Cleanup,
}

impl Step {
    fn next(self) -> Option<Step> {
        use Step::*;
        Some(match self {
            Untap => Upkeep,
            Upkeep => Draw,
            Draw => PrecombatMain,
            PrecombatMain => BeginningOfCombat,
            BeginningOfCombat => DeclareAttackers,
            DeclareAttackers => DeclareBlockers,
            DeclareBlockers => CombatDamage,
            CombatDamage => EndOfCombat,
            EndOfCombat => PostcombatMain,
            PostcombatMain => End,
            End => Cleanup,
            Cleanup => return None,
        })
    }

    /// The first step of a new phase resets the phase counters (attackers
    /// and first strike are per combat phase).
    fn starts_phase(self) -> bool {
        matches!(
            self,
            Step::Untap
                | Step::PrecombatMain
                | Step::BeginningOfCombat
                | Step::PostcombatMain
                | Step::End
        )
    }
}

/// An object on the stack: who controls it and the host's label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Object {
    pub controller: u8,
    pub label: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandAction {
    Pass {
        player: u8,
    },
    /// An instant-speed spell.
    Cast {
        player: u8,
        label: u32,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    NotRunning,
    NotHolder,
}

/// What the machine reports; `()` ignores everything.
pub trait HandSink {
    #[inline]
    fn turn_began(&mut self, _turn: u32) {}
    #[inline]
    fn step_began(&mut self, _step: Step) {}
    /// A turn-based action was performed (untap, draw, declare attackers...).
    #[inline]
    fn turn_action(&mut self) {}
    #[inline]
    fn window_opened(&mut self) {}
    #[inline]
    fn passed(&mut self) {}
    #[inline]
    fn pushed(&mut self, _object: Object) {}
    #[inline]
    fn resolved(&mut self, _object: Object) {}
}

impl HandSink for () {}

/// The players' decisions and the turn-based questions.
pub trait HandPolicy {
    fn decide(&mut self, game: &HandGame) -> HandAction;
    /// How many creatures attack (508.1).
    fn attackers(&mut self) -> u16 {
        0
    }
    /// Whether an attacker or blocker has first strike (510.4).
    fn first_strike(&mut self) -> bool {
        false
    }
    fn step_began(&mut self) {}
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HandGame {
    turn: u32,
    turn_limit: u32,
    players: u8,
    active: u8,
    starting: u8,
    had_turn: u8,
    first_turn: bool,
    running: bool,
    step: Step,
    repeat: u8,
    window_opened: bool,
    holder: Option<u8>,
    passes: u8,
    lands_played: u16,
    attackers: u16,
    first_strike: bool,
    stack: Vec<Object>,
}

impl HandGame {
    pub fn new(players: u8) -> Self {
        assert!((2..=8).contains(&players));
        HandGame {
            turn: 0,
            turn_limit: u32::MAX,
            players,
            active: 0,
            starting: 0,
            had_turn: 0,
            first_turn: true,
            running: true,
            step: Step::Untap,
            repeat: 0,
            window_opened: false,
            holder: None,
            passes: 0,
            lands_played: 0,
            attackers: 0,
            first_strike: false,
            stack: Vec::with_capacity(32),
        }
    }

    pub fn set_turn_limit(&mut self, turn: u32) {
        self.turn_limit = turn;
    }
    pub fn running(&self) -> bool {
        self.running
    }
    pub fn turn(&self) -> u32 {
        self.turn
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
    pub fn stack(&self) -> &[Object] {
        &self.stack
    }
    pub fn step(&self) -> Step {
        self.step
    }

    /// Whether `player` may cast an instant now (117.1a: whenever they hold
    /// priority).
    pub fn can_cast(&self, player: u8) -> bool {
        self.running && self.holder == Some(player)
    }

    /// Runs from the start to the first decision.
    pub fn start<P: HandPolicy, S: HandSink>(&mut self, policy: &mut P, sink: &mut S) {
        if self.running && self.holder.is_none() && self.turn == 0 {
            self.begin_turn(policy, sink);
        }
    }

    pub fn apply<P: HandPolicy, S: HandSink>(
        &mut self,
        action: HandAction,
        policy: &mut P,
        sink: &mut S,
    ) -> Result<(), Refused> {
        if !self.running {
            return Err(Refused::NotRunning);
        }
        match action {
            HandAction::Pass { player } => {
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
                match self.stack.pop() {
                    Some(object) => {
                        sink.resolved(object);
                        self.holder = Some(self.active);
                    }
                    None => {
                        self.holder = None;
                        self.end_step(policy, sink);
                    }
                }
            }
            HandAction::Cast { player, label } => {
                if !self.can_cast(player) {
                    return Err(Refused::NotHolder);
                }
                let object = Object {
                    controller: player,
                    label,
                };
                self.stack.push(object);
                sink.pushed(object);
                // The caster keeps priority (117.3c).
                self.passes = 0;
            }
        }
        Ok(())
    }

    fn begin_turn<P: HandPolicy, S: HandSink>(&mut self, policy: &mut P, sink: &mut S) {
        if self.turn >= self.turn_limit {
            self.running = false;
            return;
        }
        self.turn += 1;
        let bit = 1 << self.active;
        self.first_turn = self.had_turn & bit == 0;
        self.had_turn |= bit;
        self.lands_played = 0;
        sink.turn_began(self.turn);
        self.step = Step::Untap;
        self.repeat = 0;
        self.begin_step(policy, sink);
    }

    /// Begins `self.step` and runs until a player must decide.
    fn begin_step<P: HandPolicy, S: HandSink>(&mut self, policy: &mut P, sink: &mut S) {
        loop {
            let step = self.step;
            // Skips: the starting player's first draw in a two-player game
            // (103.8a); blockers and damage with no attackers (508.8).
            let skipped = match step {
                Step::Draw => self.first_turn && self.active == self.starting && self.players == 2,
                Step::DeclareBlockers | Step::CombatDamage => self.attackers == 0,
                _ => false,
            };
            if !skipped {
                if step.starts_phase() && self.repeat == 0 {
                    self.attackers = 0;
                    self.first_strike = false;
                }
                self.window_opened = false;
                sink.step_began(step);
                policy.step_began();
                // Turn-based actions; phasing, day/night, schemes, sagas,
                // attractions and choosing a defender need facts or variants
                // that are never set here, so they never happen.
                match step {
                    Step::Untap | Step::Draw | Step::DeclareBlockers => sink.turn_action(),
                    Step::DeclareAttackers => {
                        self.attackers = policy.attackers().min(255);
                        sink.turn_action();
                    }
                    Step::CombatDamage => {
                        if self.repeat == 0 {
                            self.first_strike = policy.first_strike();
                            sink.turn_action();
                        }
                        sink.turn_action(); // assign combat damage
                        sink.turn_action(); // deal combat damage
                    }
                    Step::Cleanup => {
                        sink.turn_action(); // discard to hand size
                        sink.turn_action(); // remove damage
                    }
                    _ => {}
                }
                // Priority: never in untap (502.4), in cleanup only if
                // something is pending (514.3a), always elsewhere.
                let window = match step {
                    Step::Untap => false,
                    Step::Cleanup => !self.stack.is_empty(),
                    _ => true,
                };
                if window {
                    self.window_opened = true;
                    self.passes = 0;
                    self.holder = Some(self.active);
                    sink.window_opened();
                    return;
                }
                // No window: the step ends at once.
                if self.step_repeats() {
                    self.repeat += 1;
                    continue;
                }
            }
            if !self.advance(policy, sink) {
                return;
            }
        }
    }

    fn step_repeats(&self) -> bool {
        match self.step {
            Step::CombatDamage => self.first_strike && self.repeat == 0,
            Step::Cleanup => self.window_opened,
            _ => false,
        }
    }

    /// Everyone passed with an empty stack: the step ends.
    fn end_step<P: HandPolicy, S: HandSink>(&mut self, policy: &mut P, sink: &mut S) {
        if self.step_repeats() {
            self.repeat += 1;
        } else if !self.advance(policy, sink) {
            return;
        }
        self.begin_step(policy, sink);
    }

    /// Moves to the next step; at the end of the turn begins the next turn
    /// and returns false (the new turn ran to its first decision already).
    fn advance<P: HandPolicy, S: HandSink>(&mut self, policy: &mut P, sink: &mut S) -> bool {
        self.repeat = 0;
        match self.step.next() {
            Some(next) => {
                self.step = next;
                true
            }
            None => {
                self.active = (self.active + 1) % self.players;
                self.begin_turn(policy, sink);
                false
            }
        }
    }
}

/// Plays `policy` until the turn limit; returns the number of decisions.
pub fn play_out<P: HandPolicy, S: HandSink>(
    game: &mut HandGame,
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

/// Nobody acts, nobody attacks.
#[derive(Debug, Clone, Copy, Default)]
pub struct HandAllPass;

impl HandPolicy for HandAllPass {
    #[inline]
    fn decide(&mut self, game: &HandGame) -> HandAction {
        HandAction::Pass {
            player: game.holder().unwrap_or_default(),
        }
    }
}

/// The busy workload, as [`turnspec_engine::policy::BusyPolicy`] plays it:
/// in each window that opens with an empty stack the active player casts
/// `depth` instants, then everyone passes; one attacker, no first strike.
#[derive(Debug, Clone, Copy)]
pub struct HandBusy {
    depth: u8,
    seen: bool,
    opened_empty: bool,
    played: u8,
    next_label: u32,
}

impl HandBusy {
    pub fn new(depth: u8) -> Self {
        HandBusy {
            depth: depth.max(1),
            seen: false,
            opened_empty: false,
            played: 0,
            next_label: 0,
        }
    }
}

impl HandPolicy for HandBusy {
    #[inline]
    fn decide(&mut self, game: &HandGame) -> HandAction {
        let player = game.holder().unwrap_or_default();
        if game.passes() != 0 || player != game.active_player() {
            return HandAction::Pass { player };
        }
        // Every MTG step has at most one window: the step's first decision
        // is the window's first priority.
        if !self.seen {
            self.seen = true;
            self.opened_empty = game.stack().is_empty() && game.passes() == 0;
            self.played = 0;
        }
        if self.opened_empty
            && self.played < self.depth
            && game.stack().len() == self.played as usize
            && game.can_cast(player)
        {
            self.played += 1;
            self.next_label = self.next_label.wrapping_add(1);
            return HandAction::Cast {
                player,
                label: self.next_label,
            };
        }
        HandAction::Pass { player }
    }

    fn attackers(&mut self) -> u16 {
        1
    }

    fn step_began(&mut self) {
        self.seen = false;
        self.played = 0;
    }
}

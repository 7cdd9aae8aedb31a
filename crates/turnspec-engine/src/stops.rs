//! The auto-passer (docs/stops.md): passes priority for players whose
//! stop profile or one-shot command says so, and says why it stopped.
//!
//! A layer on top of the public API of [`Game`]: it only reads the game
//! and applies [`Action::Pass`], so the engine's behaviour and speed do not
//! change. It allocates nothing per pass: per player it keeps a profile, a
//! command and what they last saw of the stack, in fixed arrays.

use turnspec_model::{MAX_PLAYERS, Spec, StepId, StopProfile, StopWhen};

use crate::action::Action;
use crate::error::RuleError;
use crate::event::EventSink;
use crate::game::Game;
use crate::host::Host;
use crate::state::{PlayerId, StackObject, Status};

const SEATS: usize = MAX_PLAYERS as usize;

/// How many passes one [`AutoPasser::advance`] makes at most by default,
/// so that a profile that never stops cannot loop for ever.
pub const DEFAULT_PASS_LIMIT: u32 = 100_000;

/// A one-shot command a player gives their client: pass until something
/// happens, then ask again. Until it is done it replaces the profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PassUntil {
    /// Pass this once, then follow the profile again.
    NextStop,
    /// Pass until a later turn begins; stop at the player's first
    /// priority in it.
    EndOfTurn,
    /// Pass until the stack is different from when the command was given.
    StackChanges,
    /// Pass until the game is in this step (a later one than now, if given
    /// in it).
    Step(StepId),
    /// Pass once so the top object of the stack resolves, then stop at the
    /// player's next priority, whatever the step.
    Resolve,
    /// Pass until the step changes (or begins again), then stop.
    Advance,
}

impl PassUntil {
    /// The command's name in scenarios and tools: `next_stop`,
    /// `end_of_turn`, `stack_changes`, `step`, `resolve`, `advance`.
    pub fn name(self) -> &'static str {
        match self {
            PassUntil::NextStop => "next_stop",
            PassUntil::EndOfTurn => "end_of_turn",
            PassUntil::StackChanges => "stack_changes",
            PassUntil::Step(_) => "step",
            PassUntil::Resolve => "resolve",
            PassUntil::Advance => "advance",
        }
    }

    /// The command named `name`, except `step` (which needs its step).
    pub fn from_name(name: &str) -> Option<PassUntil> {
        [
            PassUntil::NextStop,
            PassUntil::EndOfTurn,
            PassUntil::StackChanges,
            PassUntil::Resolve,
            PassUntil::Advance,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }
}

/// Why [`AutoPasser::advance`] gave the decision back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stopped {
    /// The holder's profile stops here: `when` is the condition that held.
    Stop {
        /// The player asked.
        player: PlayerId,
        /// Where.
        step: StepId,
        /// The condition that held ([`StopWhen::ALWAYS`] and the like).
        when: StopWhen,
    },
    /// The holder's profile stops where they could play, and they can.
    CanPlay {
        /// The player asked.
        player: PlayerId,
        /// Where.
        step: StepId,
    },
    /// The holder has no profile: they are always asked.
    NoProfile {
        /// The player asked.
        player: PlayerId,
    },
    /// The holder's command is done (`EndOfTurn` reports [`Stopped::TurnEnded`]).
    CommandDone {
        /// The player asked.
        player: PlayerId,
        /// The command that is done.
        command: PassUntil,
    },
    /// The holder passed until the end of the turn, and a new turn began.
    TurnEnded {
        /// The player asked.
        player: PlayerId,
    },
    /// The game is not running any more.
    GameOver(Status),
    /// Nobody holds priority: the host must decide (answer a turn-based
    /// action, report a trigger...) before anyone can pass.
    NoHolder,
    /// The engine refused the pass (e.g. a choice must be made first).
    Refused {
        /// The player whose pass was refused.
        player: PlayerId,
        /// Why.
        error: RuleError,
    },
    /// The pass limit ([`AutoPasser::set_pass_limit`]) was reached.
    PassLimit,
}

impl Stopped {
    /// One line with the spec's ids, as scenarios write it (`expect =
    /// { stopped = "..." }`) and tools print it: `stop P2 end stack_grew`,
    /// `can_play P1 main`, `no_profile P2`, `done P1 resolve`, `turn_ended
    /// P1`, `game_over`, `no_holder`, `refused P1 not_holder`,
    /// `pass_limit`.
    pub fn describe(&self, spec: &Spec) -> String {
        match self {
            Stopped::Stop { player, step, when } => format!(
                "stop {player} {} {}",
                spec.id_of(*step),
                when.name().unwrap_or("?")
            ),
            Stopped::CanPlay { player, step } => format!("can_play {player} {}", spec.id_of(*step)),
            Stopped::NoProfile { player } => format!("no_profile {player}"),
            Stopped::CommandDone { player, command } => match command {
                PassUntil::Step(step) => format!("done {player} step {}", spec.id_of(*step)),
                c => format!("done {player} {}", c.name()),
            },
            Stopped::TurnEnded { player } => format!("turn_ended {player}"),
            Stopped::GameOver(_) => "game_over".to_string(),
            Stopped::NoHolder => "no_holder".to_string(),
            Stopped::Refused { player, error } => format!("refused {player} {}", error.reason()),
            Stopped::PassLimit => "pass_limit".to_string(),
        }
    }

    /// The player asked, for the stops that ask one.
    pub fn player(&self) -> Option<PlayerId> {
        match self {
            Stopped::Stop { player, .. }
            | Stopped::CanPlay { player, .. }
            | Stopped::NoProfile { player }
            | Stopped::CommandDone { player, .. }
            | Stopped::TurnEnded { player } => Some(*player),
            _ => None,
        }
    }
}

/// Why a profile or command was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StopsError {
    /// The player is not a seat of the game.
    #[error("player {0:?} is not in this game")]
    NotInGame(PlayerId),
    /// The profile was made for another spec.
    #[error("the stop profile was made for another spec")]
    OtherSpec,
    /// The step of a `PassUntil::Step` is not one of the game's spec.
    #[error("the step is not one of this game's spec")]
    UnknownStep,
}

/// What the stack looked like to a player: its height and top object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
struct StackSeen {
    len: usize,
    top: Option<StackObject>,
}

impl StackSeen {
    fn of(stack: &[StackObject]) -> StackSeen {
        StackSeen {
            len: stack.len(),
            top: stack.last().copied(),
        }
    }

    /// Whether something was added since. Between two decisions of one
    /// player at most one object resolves (every player must pass for it),
    /// so a taller stack, or one as tall with another top, grew.
    fn grew_to(self, now: StackSeen) -> bool {
        now.len > self.len || (now.len == self.len && now.len > 0 && now.top != self.top)
    }
}

/// A command with what the game looked like when it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Pending {
    command: PassUntil,
    turn: u32,
    step: StepId,
    repeat: u8,
    stack: StackSeen,
    /// The player has made the command's first pass.
    passed: bool,
}

/// Passes priority for players by their stop profiles and commands.
///
/// Equal and hashed over everything it keeps (profiles, commands, what
/// each player last saw), so a search can merge states that a game and
/// its auto-passer cannot tell apart (`turnspec stops check`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AutoPasser {
    profiles: [Option<StopProfile>; SEATS],
    commands: [Option<Pending>; SEATS],
    /// What each player saw of the stack at their last decision; `None`
    /// until their first decision under their current profile.
    seen: [Option<StackSeen>; SEATS],
    /// One bit per seat whose profile stops when the stack grew: only their
    /// `seen` is kept up to date on every pass.
    tracks_stack: u8,
    /// The player the last stop asked: the host has acted for them since,
    /// so what they see of the stack is refreshed.
    asked: Option<PlayerId>,
    pass_limit: u32,
    /// Per step of the profiles' spec, bit `2 * seat + own_turn` set where
    /// that seat passes without looking: it has a profile, no command, and
    /// no condition of the profile applies there. The common pass is one
    /// load and one test. Written only by [`AutoPasser::refresh_quiet`].
    quiet: Vec<u16>,
}

impl Default for AutoPasser {
    fn default() -> Self {
        AutoPasser::new()
    }
}

impl AutoPasser {
    /// No profiles: every player is asked at every priority.
    pub fn new() -> AutoPasser {
        AutoPasser {
            profiles: Default::default(),
            commands: [None; SEATS],
            seen: [None; SEATS],
            tracks_stack: 0,
            asked: None,
            pass_limit: DEFAULT_PASS_LIMIT,
            quiet: Vec::new(),
        }
    }

    /// Rewrites `player`'s bits of the quiet table, after their profile or
    /// command changed.
    fn refresh_quiet(&mut self, player: PlayerId) {
        let index = player.index();
        if index >= SEATS {
            return;
        }
        let (own, others) = (1u16 << (2 * index + 1), 1u16 << (2 * index));
        // A seat that tracks the stack keeps what it saw on every pass, so
        // it is never quiet: its passes go through the full decision.
        let tracks = self.tracks_stack & (1u8 << index) != 0;
        let profile = match (&self.profiles[index], self.commands[index].is_some()) {
            (Some(profile), false) if !tracks => Some(profile),
            _ => None,
        };
        if let Some(profile) = profile
            && self.quiet.len() < profile.steps_len()
        {
            self.quiet.resize(profile.steps_len(), 0);
        }
        for bits in self.quiet.iter_mut() {
            *bits &= !(own | others);
        }
        if let Some(profile) = profile {
            for (bits, (own_silent, others_silent)) in
                self.quiet.iter_mut().zip(profile.silent_steps())
            {
                if own_silent {
                    *bits |= own;
                }
                if others_silent {
                    *bits |= others;
                }
            }
        }
    }

    /// Gives `player` a profile made for `spec` (the game's spec).
    pub fn set_profile(
        &mut self,
        spec: &Spec,
        player: PlayerId,
        profile: StopProfile,
    ) -> Result<(), StopsError> {
        if !profile.fits(spec) {
            return Err(StopsError::OtherSpec);
        }
        let slot = self
            .profiles
            .get_mut(player.index())
            .ok_or(StopsError::NotInGame(player))?;
        let bit = 1u8 << player.index();
        self.tracks_stack &= !bit;
        // Growth is counted from the player's next decision on.
        self.seen[player.index()] = None;
        if profile.uses(StopWhen::STACK_GREW) {
            self.tracks_stack |= bit;
        }
        *slot = Some(profile);
        self.refresh_quiet(player);
        Ok(())
    }

    /// Takes `player`'s profile away: they are asked at every priority.
    pub fn clear_profile(&mut self, player: PlayerId) {
        if let Some(slot) = self.profiles.get_mut(player.index()) {
            *slot = None;
            self.tracks_stack &= !(1u8 << player.index());
            self.refresh_quiet(player);
        }
    }

    /// The most passes one [`AutoPasser::advance`] makes.
    pub fn set_pass_limit(&mut self, limit: u32) {
        self.pass_limit = limit;
    }

    /// Gives `player` a one-shot command, measured from the game as it is
    /// now. It replaces any command they had.
    pub fn command(
        &mut self,
        game: &Game,
        player: PlayerId,
        command: PassUntil,
    ) -> Result<(), StopsError> {
        if player.0 >= game.players() || player.index() >= SEATS {
            return Err(StopsError::NotInGame(player));
        }
        if let PassUntil::Step(step) = command
            && !game.spec().steps().contains(step)
        {
            return Err(StopsError::UnknownStep);
        }
        self.commands[player.index()] = Some(Pending {
            command,
            turn: game.turn(),
            step: game.step(),
            repeat: game.repeat_count(),
            stack: StackSeen::of(game.stack()),
            passed: false,
        });
        self.refresh_quiet(player);
        Ok(())
    }

    /// Cancels `player`'s command.
    pub fn cancel(&mut self, player: PlayerId) {
        if let Some(slot) = self.commands.get_mut(player.index()) {
            *slot = None;
            self.refresh_quiet(player);
        }
    }

    /// `player`'s command, if one is under way.
    pub fn pending(&self, player: PlayerId) -> Option<PassUntil> {
        self.commands.get(player.index())?.map(|p| p.command)
    }

    /// Passes for the priority holder while their command or profile says
    /// so, and returns why it stopped.
    pub fn advance<H: Host, S: EventSink>(
        &mut self,
        game: &mut Game,
        host: &mut H,
        sink: &mut S,
    ) -> Stopped {
        if let Some(p) = self.asked.take()
            && let Some(seen) = self.seen.get_mut(p.index())
        {
            *seen = Some(StackSeen::of(game.stack()));
        }
        let mut passes = 0u32;
        loop {
            if let Some(stopped) = self.pass_quiet_run(game, host, sink, &mut passes) {
                return stopped;
            }
            if game.status() != Status::Running {
                return Stopped::GameOver(game.status());
            }
            let Some(holder) = game.holder() else {
                return Stopped::NoHolder;
            };
            if self.is_quiet(game, holder) {
                // The table's answer is the full decision's: no command,
                // and no condition of the profile applies here.
                debug_assert!(
                    self.commands[holder.index()].is_none()
                        && self.profiles[holder.index()].as_ref().is_some_and(|p| p
                            .when(game.step(), own_turn(game, holder))
                            .is_empty())
                );
            } else if let Some(stopped) = self.decide(game, holder) {
                if let Some(seen) = self.seen.get_mut(holder.index()) {
                    *seen = Some(StackSeen::of(game.stack()));
                }
                self.asked = Some(holder);
                return stopped;
            }
            if passes >= self.pass_limit {
                return Stopped::PassLimit;
            }
            // What the holder saw as they passed; read only by `stack_grew`.
            if self.tracks_stack & (1u8 << (holder.index() & 7)) != 0
                && let Some(seen) = self.seen.get_mut(holder.index())
            {
                *seen = Some(StackSeen::of(game.stack()));
            }
            if let Err(error) = game.apply(Action::Pass { player: holder }, host, sink) {
                return Stopped::Refused {
                    player: holder,
                    error,
                };
            }
            passes += 1;
        }
    }

    /// The common run of an auto-passed turn: while the holder passes
    /// here without looking (the quiet table), pass for them straight
    /// through the engine's pass transition, the one [`Game::apply`] calls,
    /// without the checks `apply` makes for a move from outside (the
    /// holder passes in a running game: both are tested here). Returns
    /// when the holder is not quiet, nobody holds priority, the game
    /// stopped or the pass limit is reached (the caller's loop says which),
    /// or with `Refused` when the window refuses the pass.
    #[inline(always)]
    fn pass_quiet_run<H: Host, S: EventSink>(
        &self,
        game: &mut Game,
        host: &mut H,
        sink: &mut S,
        passes: &mut u32,
    ) -> Option<Stopped> {
        loop {
            let state = &game.state;
            if state.status != Status::Running {
                return None;
            }
            let holder = state.holder?;
            if !self.is_quiet(game, holder) || *passes >= self.pass_limit {
                return None;
            }
            // Quiet seats keep nothing of what they saw: a seat that
            // tracks the stack is never quiet (`refresh_quiet`).
            debug_assert!(self.tracks_stack & (1u8 << (holder.index() & 7)) == 0);
            if let Some(rule) = game.pass(holder, host, sink) {
                return Some(Stopped::Refused {
                    player: holder,
                    error: RuleError::PassRefused {
                        player: holder,
                        rule,
                    },
                });
            }
            game.debug_check();
            *passes += 1;
        }
    }

    /// Whether `player` passes here without looking (the quiet table).
    #[inline(always)]
    fn is_quiet(&self, game: &Game, player: PlayerId) -> bool {
        let own = usize::from(own_turn(game, player));
        let bit = 1u16 << (((player.index() & 7) << 1) | own);
        self.quiet
            .get(game.step().index())
            .is_some_and(|bits| bits & bit != 0)
    }

    /// `None` to pass for `player`, or why to ask them.
    #[inline]
    fn decide(&mut self, game: &Game, player: PlayerId) -> Option<Stopped> {
        let index = player.index();
        // Seats are bounded by MAX_PLAYERS; a seat past them is asked.
        if index >= SEATS {
            return Some(Stopped::NoProfile { player });
        }
        if self.commands[index].is_some() {
            return self.follow_command(game, player);
        }
        let Some(profile) = &self.profiles[index] else {
            return Some(Stopped::NoProfile { player });
        };
        let step = game.step();
        let when = profile.when(step, own_turn(game, player));
        if when.is_empty() {
            return None;
        }
        self.stop_here(game, player, step, when)
    }

    /// A command is under way for `player`: it says to pass, or it is done.
    fn follow_command(&mut self, game: &Game, player: PlayerId) -> Option<Stopped> {
        let slot = &mut self.commands[player.index()];
        let pending = slot.as_mut()?;
        let said = match Self::command_says(game, pending) {
            Some(done) => {
                *slot = None;
                Some(match done {
                    PassUntil::EndOfTurn => Stopped::TurnEnded { player },
                    command => Stopped::CommandDone { player, command },
                })
            }
            None if pending.command == PassUntil::NextStop => {
                // The one pass asked for; the profile decides afterwards.
                *slot = None;
                None
            }
            None => {
                pending.passed = true;
                return None;
            }
        };
        // The command is over: the profile decides again.
        self.refresh_quiet(player);
        said
    }

    /// Whether one of the conditions `when` of `player`'s profile holds in
    /// `step`, and which.
    fn stop_here(
        &self,
        game: &Game,
        player: PlayerId,
        step: StepId,
        when: StopWhen,
    ) -> Option<Stopped> {
        let seen = self.seen.get(player.index()).copied().flatten();
        let stack = game.stack();
        let holds = |w: StopWhen| {
            when.contains(w)
                && match w {
                    StopWhen::ALWAYS => true,
                    StopWhen::STACK_NONEMPTY => !stack.is_empty(),
                    StopWhen::STACK_GREW => seen.is_some_and(|s| s.grew_to(StackSeen::of(stack))),
                    _ => false,
                }
        };
        if let Some(w) = StopWhen::EACH.into_iter().find(|w| holds(*w)) {
            return Some(Stopped::Stop {
                player,
                step,
                when: w,
            });
        }
        if when.contains(StopWhen::CAN_PLAY) && can_play(game, player) {
            return Some(Stopped::CanPlay { player, step });
        }
        None
    }

    /// The command that is done, if it is; `None` to pass on.
    fn command_says(game: &Game, pending: &Pending) -> Option<PassUntil> {
        let done = match pending.command {
            PassUntil::NextStop => false,
            PassUntil::EndOfTurn => game.turn() != pending.turn,
            PassUntil::StackChanges => StackSeen::of(game.stack()) != pending.stack,
            PassUntil::Step(step) => {
                game.step() == step
                    && (game.turn() != pending.turn
                        || game.step() != pending.step
                        || game.repeat_count() != pending.repeat)
            }
            PassUntil::Resolve => pending.passed,
            PassUntil::Advance => {
                game.turn() != pending.turn
                    || game.step() != pending.step
                    || game.repeat_count() != pending.repeat
            }
        };
        done.then_some(pending.command)
    }
}

/// Whether it is `player`'s own turn, for their profile: their turn, or
/// their team's with shared team turns (805.5).
#[inline(always)]
fn own_turn(game: &Game, player: PlayerId) -> bool {
    // Without teams every seat is a team of its own.
    let s = game.state();
    s.team(player) == s.team(s.active)
}

/// Whether `player` could play something now (a play or a choice, not a
/// pass). [`Game::legal_actions`] allocates nothing.
fn can_play(game: &Game, player: PlayerId) -> bool {
    game.legal_actions(player)
        .any(|a| matches!(a, Action::Play { .. } | Action::Choose { .. }))
}

/// What [`play_out_with_stops`] counted: how often each player was asked
/// (a decision left to the policy) and how many passes the auto-passer made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct AskedCounts {
    /// Per seat, the times the player was asked.
    pub asked: [u64; SEATS],
    /// Passes made by the auto-passer, for every player.
    pub auto_passes: u64,
}

/// Counts the passes of the events it forwards.
struct CountPasses<'s, S> {
    inner: &'s mut S,
    passes: u64,
}

impl<S: EventSink> EventSink for CountPasses<'_, S> {
    #[inline]
    fn event(&mut self, event: crate::event::Event) {
        self.passes += u64::from(matches!(event, crate::event::Event::Passed { .. }));
        self.inner.event(event);
    }
}

/// Plays the game out as clients with stop profiles would: the
/// auto-passer passes wherever the profiles (and commands) say, and
/// `policy` decides only where a player is asked, after `on_ask` has seen
/// why. It stops as [`crate::policy::play_out`] does: when the game is not
/// running, or an action is refused; and when nobody holds priority or the
/// pass limit is reached.
pub fn play_out_with_stops<P: crate::policy::Policy, S: EventSink>(
    game: &mut Game,
    policy: &mut P,
    passer: &mut AutoPasser,
    sink: &mut S,
    mut on_ask: impl FnMut(&Game, &Stopped, &mut S),
) -> AskedCounts {
    let mut counts = AskedCounts::default();
    game.start(policy, sink);
    loop {
        let mut counting = CountPasses {
            inner: &mut *sink,
            passes: 0,
        };
        let stopped = passer.advance(game, policy, &mut counting);
        counts.auto_passes += counting.passes;
        let Some(player) = stopped.player() else {
            break;
        };
        if let Some(n) = counts.asked.get_mut(player.index()) {
            *n += 1;
        }
        on_ask(game, &stopped, sink);
        if crate::policy::decide_and_apply(game, policy, sink).is_err() {
            break;
        }
    }
    counts
}

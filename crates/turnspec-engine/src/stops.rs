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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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
#[derive(Debug, Clone, Copy)]
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
#[derive(Debug, Clone)]
pub struct AutoPasser {
    profiles: [Option<StopProfile>; SEATS],
    commands: [Option<Pending>; SEATS],
    seen: [StackSeen; SEATS],
    /// The player the last stop asked: the host has acted for them since,
    /// so what they see of the stack is refreshed.
    asked: Option<PlayerId>,
    pass_limit: u32,
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
            seen: [StackSeen::default(); SEATS],
            asked: None,
            pass_limit: DEFAULT_PASS_LIMIT,
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
        *slot = Some(profile);
        Ok(())
    }

    /// Takes `player`'s profile away: they are asked at every priority.
    pub fn clear_profile(&mut self, player: PlayerId) {
        if let Some(slot) = self.profiles.get_mut(player.index()) {
            *slot = None;
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
        Ok(())
    }

    /// Cancels `player`'s command.
    pub fn cancel(&mut self, player: PlayerId) {
        if let Some(slot) = self.commands.get_mut(player.index()) {
            *slot = None;
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
            *seen = StackSeen::of(game.stack());
        }
        let mut passes = 0u32;
        loop {
            if game.status() != Status::Running {
                return Stopped::GameOver(game.status());
            }
            let Some(holder) = game.holder() else {
                return Stopped::NoHolder;
            };
            if let Some(stopped) = self.decide(game, holder) {
                if let Some(seen) = self.seen.get_mut(holder.index()) {
                    *seen = StackSeen::of(game.stack());
                }
                self.asked = Some(holder);
                return stopped;
            }
            if passes >= self.pass_limit {
                return Stopped::PassLimit;
            }
            if let Some(seen) = self.seen.get_mut(holder.index()) {
                *seen = StackSeen::of(game.stack());
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

    /// `None` to pass for `player`, or why to ask them.
    fn decide(&mut self, game: &Game, player: PlayerId) -> Option<Stopped> {
        let index = player.index();
        // Seats are bounded by MAX_PLAYERS; a seat past them is asked.
        let Some(slot) = self.commands.get_mut(index) else {
            return Some(Stopped::NoProfile { player });
        };
        if let Some(pending) = slot {
            match Self::command_says(game, pending) {
                Some(done) => {
                    *slot = None;
                    return Some(match done {
                        PassUntil::EndOfTurn => Stopped::TurnEnded { player },
                        command => Stopped::CommandDone { player, command },
                    });
                }
                None if pending.command == PassUntil::NextStop => {
                    // The one pass asked for; the profile decides afterwards.
                    *slot = None;
                    return None;
                }
                None => {
                    pending.passed = true;
                    return None;
                }
            }
        }
        let Some(profile) = self.profiles.get(index).and_then(Option::as_ref) else {
            return Some(Stopped::NoProfile { player });
        };
        let step = game.step();
        let when = profile.when(step, player == game.active_player());
        let seen = self.seen.get(index).copied().unwrap_or_default();
        let stack = game.stack();
        let holds = |w: StopWhen| {
            when.contains(w)
                && match w {
                    StopWhen::ALWAYS => true,
                    StopWhen::STACK_NONEMPTY => !stack.is_empty(),
                    StopWhen::STACK_GREW => seen.grew_to(StackSeen::of(stack)),
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

/// Whether `player` could play something now (a play or a choice, not a
/// pass). [`Game::legal_actions`] allocates nothing.
fn can_play(game: &Game, player: PlayerId) -> bool {
    game.legal_actions(player)
        .any(|a| matches!(a, Action::Play { .. } | Action::Choose { .. }))
}

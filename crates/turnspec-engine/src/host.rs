//! The host: whoever embeds the engine and knows the actual cards.
//!
//! Turn-based actions are named hooks. When the engine performs one it asks
//! the host for an answer (how many attackers were declared, whether first
//! strike is present) and lets it report triggers the action caused. The
//! default answers are 0 and "nothing triggered", which is what an all-pass
//! simulation wants.

use turnspec_model::{FactId, PhaseId, StepId, TimingId, TurnActionId};

use crate::state::{GameState, ObjectKind, PlayerId, StackObject};

/// What a hook may know about the moment it is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookContext {
    /// The number of the current turn, counting from 1.
    pub turn: u32,
    /// Whose turn it is.
    pub active: PlayerId,
    /// How many seats the game has, including players who left.
    pub players: u8,
    /// The phase the action belongs to.
    pub phase: PhaseId,
    /// The step the action belongs to, when the phase has steps.
    pub step: StepId,
    /// How many times the step has already run in a row (a second combat
    /// damage step for first strike, 510.4).
    pub repeat: u8,
    /// The facts the host has set, one bit each (read with
    /// [`HookContext::fact`]).
    pub(crate) facts: u64,
    /// The seats still in the game, one bit each (read with
    /// [`HookContext::in_game`]).
    pub(crate) in_game: u8,
}

impl HookContext {
    /// Whether the host has set this fact (as the spec's conditions see it);
    /// the same as [`crate::Game::fact`] at that moment.
    #[inline]
    pub fn fact(&self, id: FactId) -> bool {
        self.facts & (1u64 << (id.index() & 63)) != 0
    }

    /// Whether `player` is still in the game (has not left it, 800.4a).
    #[inline]
    pub fn in_game(&self, player: PlayerId) -> bool {
        player.0 < self.players && self.in_game >> (player.0 & 7) & 1 != 0
    }
}

/// Lets a hook report triggered abilities; they wait and go on the stack the
/// next time a player would receive priority (117.5, 500.6).
pub struct Triggers<'a> {
    pub(crate) waiting: &'a mut Vec<StackObject>,
    /// Seats in the game and the bits of those still in it, to refuse a
    /// controller who is not in it.
    pub(crate) players: u8,
    pub(crate) in_game: u8,
}

/// A trigger reported for a player who is not in the game (never seated,
/// or left it, 800.4a): it is not added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotInGame(pub PlayerId);

impl std::fmt::Display for NotInGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is not in the game, so it controls no triggered ability",
            self.0
        )
    }
}

impl std::error::Error for NotInGame {}

impl GameState {
    /// Where hooks report triggered abilities: the waiting list, refusing
    /// controllers who are not in the game.
    #[inline]
    pub(crate) fn triggers(&mut self) -> Triggers<'_> {
        Triggers {
            waiting: &mut self.waiting,
            players: self.players,
            in_game: self.in_game,
        }
    }
}

impl Triggers<'_> {
    /// Reports a triggered ability controlled by `controller`; it waits and
    /// goes on the stack the next time a player would receive priority.
    pub fn add(&mut self, controller: PlayerId, label: u32) -> Result<(), NotInGame> {
        if controller.0 >= self.players || self.in_game >> controller.0 & 1 == 0 {
            return Err(NotInGame(controller));
        }
        self.waiting.push(StackObject {
            controller,
            kind: ObjectKind::Trigger,
            label,
        });
        Ok(())
    }
}

/// What the engine asks of whoever knows the cards: answers for turn-based
/// actions and triggers they cause. Every method has a default, so an
/// all-pass simulation can use [`NoHost`].
pub trait Host {
    /// A turn-based action is being performed. Return the answer (stored in
    /// the action's counter, if it has one).
    fn turn_action(
        &mut self,
        ctx: &HookContext,
        action: TurnActionId,
        triggers: &mut Triggers<'_>,
    ) -> u16 {
        let _ = (ctx, action, triggers);
        0
    }

    /// A player has just played something (after it is on the stack, before
    /// anyone receives priority): triggers it causes go on the stack first
    /// (117.5).
    // Six parameters with `self`: the host API redesign (issue 11) moves
    // what a play was into the context.
    #[allow(clippy::too_many_arguments)]
    fn played(
        &mut self,
        ctx: &HookContext,
        player: PlayerId,
        timing: TimingId,
        label: u32,
        triggers: &mut Triggers<'_>,
    ) {
        let _ = (ctx, player, timing, label, triggers);
    }

    /// A step (or a step-less phase) has begun: "at the beginning of" abilities
    /// trigger here (500.6).
    fn step_began(&mut self, ctx: &HookContext, triggers: &mut Triggers<'_>) {
        let _ = (ctx, triggers);
    }

    /// The top object of the stack has just resolved (it is off the stack),
    /// before anyone receives priority: triggers its resolution causes go on
    /// the stack, in APNAP order, before priority is given (117.3b, 117.5).
    /// If the turn was only waiting for the stack to empty to end (the
    /// active player left, the spec's `leaving.active_player_goto`, GA
    /// ENDGAME 8) and this was the last object, the turn ends and triggers
    /// reported here are removed with everything else waiting.
    fn resolved(&mut self, ctx: &HookContext, object: StackObject, triggers: &mut Triggers<'_>) {
        let _ = (ctx, object, triggers);
    }
}

/// A mutable borrow of a host is a host: every hook is forwarded, so a
/// caller can lend its host to [`crate::policy::play_out`] or wrap it and
/// keep it. (Wrappers must forward every hook; tests/forwarding.rs checks
/// this one against the unwrapped host.)
impl<H: Host + ?Sized> Host for &mut H {
    #[inline]
    fn turn_action(
        &mut self,
        ctx: &HookContext,
        action: TurnActionId,
        triggers: &mut Triggers<'_>,
    ) -> u16 {
        (**self).turn_action(ctx, action, triggers)
    }

    #[inline]
    fn played(
        &mut self,
        ctx: &HookContext,
        player: PlayerId,
        timing: TimingId,
        label: u32,
        triggers: &mut Triggers<'_>,
    ) {
        (**self).played(ctx, player, timing, label, triggers)
    }

    #[inline]
    fn step_began(&mut self, ctx: &HookContext, triggers: &mut Triggers<'_>) {
        (**self).step_began(ctx, triggers)
    }

    #[inline]
    fn resolved(&mut self, ctx: &HookContext, object: StackObject, triggers: &mut Triggers<'_>) {
        (**self).resolved(ctx, object, triggers)
    }
}

/// Answers nothing and triggers nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHost;

impl Host for NoHost {}

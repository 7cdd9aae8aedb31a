//! The host: whoever embeds the engine and knows the actual cards.
//!
//! Turn-based actions are named hooks. When the engine performs one it asks
//! the host for an answer (how many attackers were declared, whether first
//! strike is present) and lets it report triggers the action caused. The
//! default answers are 0 and "nothing triggered", which is what an all-pass
//! simulation wants.
//!
//! Each hook takes one argument, a struct of what the hook may know
//! ([`TurnActionHook`], [`PlayedHook`], [`StepBeganHook`],
//! [`ResolvedHook`]): the [`HookContext`], the specifics of the moment,
//! and the [`Triggers`] to report to. The structs are `#[non_exhaustive]`,
//! so a field added later breaks no host. A host that wraps another
//! implements [`HostWrapper`] instead of [`Host`]: one blanket impl
//! forwards every hook to the wrapped host, so no wrapper can forget one.

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

    /// The same list, borrowed again for a shorter time (to lend it to a
    /// wrapped host and keep it).
    #[inline]
    pub fn reborrow(&mut self) -> Triggers<'_> {
        Triggers {
            waiting: &mut *self.waiting,
            players: self.players,
            in_game: self.in_game,
        }
    }
}

/// [`Host::turn_action`]: a turn-based action is being performed.
#[non_exhaustive]
pub struct TurnActionHook<'a> {
    /// The moment: turn, active player, phase, step...
    pub ctx: HookContext,
    /// The turn-based action, as the spec declares it.
    pub action: TurnActionId,
    /// Where the action's triggers are reported.
    pub triggers: Triggers<'a>,
}

/// [`Host::played`]: a player has just played something.
#[non_exhaustive]
pub struct PlayedHook<'a> {
    /// The moment: turn, active player, phase, step...
    pub ctx: HookContext,
    /// Who played.
    pub player: PlayerId,
    /// The timing class the play was made at.
    pub timing: TimingId,
    /// The host's handle for what was played.
    pub label: u32,
    /// Where the play's triggers are reported.
    pub triggers: Triggers<'a>,
}

/// [`Host::step_began`]: a step (or a step-less phase) has begun.
#[non_exhaustive]
pub struct StepBeganHook<'a> {
    /// The moment: turn, active player, phase, step...
    pub ctx: HookContext,
    /// Where "at the beginning of" triggers are reported.
    pub triggers: Triggers<'a>,
}

/// [`Host::resolved`]: the top object of the stack has just resolved.
#[non_exhaustive]
pub struct ResolvedHook<'a> {
    /// The moment: turn, active player, phase, step...
    pub ctx: HookContext,
    /// What resolved (it is off the stack).
    pub object: StackObject,
    /// Where the resolution's triggers are reported.
    pub triggers: Triggers<'a>,
}

impl TurnActionHook<'_> {
    /// The engine's one way to make it.
    #[inline(always)]
    pub(crate) fn new(
        ctx: HookContext,
        action: TurnActionId,
        triggers: Triggers<'_>,
    ) -> TurnActionHook<'_> {
        TurnActionHook {
            ctx,
            action,
            triggers,
        }
    }

    /// The same call, borrowed again for a shorter time: a wrapper lends
    /// it to the host it wraps and reads it afterwards.
    #[inline]
    pub fn reborrow(&mut self) -> TurnActionHook<'_> {
        TurnActionHook {
            ctx: self.ctx,
            action: self.action,
            triggers: self.triggers.reborrow(),
        }
    }
}

impl PlayedHook<'_> {
    /// The engine's one way to make it.
    #[inline(always)]
    pub(crate) fn new(
        ctx: HookContext,
        player: PlayerId,
        timing: TimingId,
        label: u32,
        triggers: Triggers<'_>,
    ) -> PlayedHook<'_> {
        PlayedHook {
            ctx,
            player,
            timing,
            label,
            triggers,
        }
    }

    /// The same call, borrowed again for a shorter time.
    #[inline]
    pub fn reborrow(&mut self) -> PlayedHook<'_> {
        PlayedHook {
            ctx: self.ctx,
            player: self.player,
            timing: self.timing,
            label: self.label,
            triggers: self.triggers.reborrow(),
        }
    }
}

impl StepBeganHook<'_> {
    /// The engine's one way to make it.
    #[inline(always)]
    pub(crate) fn new(ctx: HookContext, triggers: Triggers<'_>) -> StepBeganHook<'_> {
        StepBeganHook { ctx, triggers }
    }

    /// The same call, borrowed again for a shorter time.
    #[inline]
    pub fn reborrow(&mut self) -> StepBeganHook<'_> {
        StepBeganHook {
            ctx: self.ctx,
            triggers: self.triggers.reborrow(),
        }
    }
}

impl ResolvedHook<'_> {
    /// The engine's one way to make it.
    #[inline(always)]
    pub(crate) fn new(
        ctx: HookContext,
        object: StackObject,
        triggers: Triggers<'_>,
    ) -> ResolvedHook<'_> {
        ResolvedHook {
            ctx,
            object,
            triggers,
        }
    }

    /// The same call, borrowed again for a shorter time.
    #[inline]
    pub fn reborrow(&mut self) -> ResolvedHook<'_> {
        ResolvedHook {
            ctx: self.ctx,
            object: self.object,
            triggers: self.triggers.reborrow(),
        }
    }
}

/// What the engine asks of whoever knows the cards: answers for turn-based
/// actions and triggers they cause. Every method has a default, so an
/// all-pass simulation can use [`NoHost`].
///
/// Each hook takes one struct of what it may know; the structs are
/// `#[non_exhaustive]`, so read their fields (or destructure them with
/// `..`). A host that wraps another host implements [`HostWrapper`], not
/// this trait.
pub trait Host {
    /// A turn-based action is being performed. Return the answer (stored in
    /// the action's counter, if it has one; the engine clamps it to the
    /// action's maximum).
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        let _ = hook;
        0
    }

    /// A player has just played something (after it is on the stack, before
    /// anyone receives priority): triggers it causes go on the stack first
    /// (117.5).
    fn played(&mut self, hook: PlayedHook<'_>) {
        let _ = hook;
    }

    /// A step (or a step-less phase) has begun: "at the beginning of" abilities
    /// trigger here (500.6).
    fn step_began(&mut self, hook: StepBeganHook<'_>) {
        let _ = hook;
    }

    /// The top object of the stack has just resolved (it is off the stack),
    /// before anyone receives priority: triggers its resolution causes go on
    /// the stack, in APNAP order, before priority is given (117.3b, 117.5).
    /// If the turn was only waiting for the stack to empty to end (the
    /// active player left, the spec's `leaving.active_player_goto`, GA
    /// ENDGAME 8) and this was the last object, the turn ends and triggers
    /// reported here are removed with everything else waiting.
    fn resolved(&mut self, hook: ResolvedHook<'_>) {
        let _ = hook;
    }
}

/// A host that wraps another: every hook goes to [`HostWrapper::inner`],
/// then to the matching `after_` notification (which does nothing unless
/// overridden). One blanket impl makes every wrapper a [`Host`], so
/// forwarding is written once and a hook added to `Host` reaches every
/// wrapped host (tests/engine/forwarding.rs checks it).
///
/// A notification sees the hook as the wrapped host left it (the answer
/// too, for a turn-based action), and may report more triggers; they go
/// after the wrapped host's.
///
/// ```
/// use turnspec_engine::{Host, HostWrapper, TurnActionHook};
///
/// /// Counts the turn-based actions its host answers.
/// struct Counting<H> {
///     inner: H,
///     answered: u32,
/// }
///
/// impl<H: Host> HostWrapper for Counting<H> {
///     type Inner = H;
///     fn inner(&mut self) -> &mut H {
///         &mut self.inner
///     }
///     fn after_turn_action(&mut self, _: &mut TurnActionHook<'_>, _: u16) {
///         self.answered += 1;
///     }
/// }
/// ```
pub trait HostWrapper {
    /// The wrapped host.
    type Inner: Host + ?Sized;

    /// The wrapped host, which answers every hook.
    fn inner(&mut self) -> &mut Self::Inner;

    /// After the wrapped host answered a turn-based action with `answer`.
    fn after_turn_action(&mut self, hook: &mut TurnActionHook<'_>, answer: u16) {
        let _ = (hook, answer);
    }

    /// After the wrapped host saw a play.
    fn after_played(&mut self, hook: &mut PlayedHook<'_>) {
        let _ = hook;
    }

    /// After the wrapped host saw a step begin.
    fn after_step_began(&mut self, hook: &mut StepBeganHook<'_>) {
        let _ = hook;
    }

    /// After the wrapped host saw an object resolve.
    fn after_resolved(&mut self, hook: &mut ResolvedHook<'_>) {
        let _ = hook;
    }
}

/// Every wrapper is a host: each hook goes to the wrapped host, then to
/// the wrapper's notification. The only forwarding code there is.
impl<W: HostWrapper + ?Sized> Host for W {
    #[inline]
    fn turn_action(&mut self, mut hook: TurnActionHook<'_>) -> u16 {
        let answer = self.inner().turn_action(hook.reborrow());
        self.after_turn_action(&mut hook, answer);
        answer
    }

    #[inline]
    fn played(&mut self, mut hook: PlayedHook<'_>) {
        self.inner().played(hook.reborrow());
        self.after_played(&mut hook);
    }

    #[inline]
    fn step_began(&mut self, mut hook: StepBeganHook<'_>) {
        self.inner().step_began(hook.reborrow());
        self.after_step_began(&mut hook);
    }

    #[inline]
    fn resolved(&mut self, mut hook: ResolvedHook<'_>) {
        self.inner().resolved(hook.reborrow());
        self.after_resolved(&mut hook);
    }
}

/// A mutable borrow of a host is a host: it wraps it and adds nothing, so
/// a caller can lend its host to [`crate::policy::play_out`] and keep it.
impl<H: Host + ?Sized> HostWrapper for &mut H {
    type Inner = H;

    #[inline]
    fn inner(&mut self) -> &mut H {
        self
    }
}

/// Answers nothing and triggers nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHost;

impl Host for NoHost {}

/// Answers queued by `answer` moves for turn-based actions: the first
/// queued for an action answers it the next time it happens, with its
/// triggers (controlled by the active player then). As a [`Host`], it
/// answers from the queue, and 0 without a queued answer.
#[derive(Debug, Default, Clone)]
pub struct QueuedAnswers {
    queued: Vec<(TurnActionId, u16, Vec<u32>)>,
}

impl QueuedAnswers {
    /// Queues an answer for the next time `action` happens, with the
    /// labels of the triggers it reports then.
    pub fn push(&mut self, action: TurnActionId, value: u16, triggers: Vec<u32>) {
        self.queued.push((action, value, triggers));
    }

    /// How many answers are queued.
    pub fn len(&self) -> usize {
        self.queued.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.queued.is_empty()
    }

    /// The queued answers in the order they will be taken for each
    /// action: (action, value, trigger labels).
    pub fn iter(&self) -> impl Iterator<Item = (TurnActionId, u16, &[u32])> {
        self.queued.iter().map(|(a, v, t)| (*a, *v, t.as_slice()))
    }

    /// Forgets every queued answer.
    pub fn clear(&mut self) {
        self.queued.clear();
    }

    /// Takes the first answer queued for the hook's action, reporting its
    /// triggers; `None` if none is queued for it.
    pub fn take(&mut self, hook: &mut TurnActionHook<'_>) -> Option<u16> {
        if self.queued.is_empty() {
            return None;
        }
        let i = self.queued.iter().position(|(a, ..)| *a == hook.action)?;
        let (_, value, labels) = self.queued.remove(i);
        let active = hook.ctx.active;
        for label in labels {
            let _ = hook.triggers.add(active, label);
        }
        Some(value)
    }
}

impl Host for QueuedAnswers {
    fn turn_action(&mut self, mut hook: TurnActionHook<'_>) -> u16 {
        self.take(&mut hook).unwrap_or(0)
    }
}

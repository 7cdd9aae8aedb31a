//! Seat roles (`[roles.ID]`) and the hand-overs that name a seat: who
//! holds each role, windows only a role's holder acts in, the holder of a
//! `next_turn` role taking the next turn, and players who passed for the
//! rest of a window (`passes = "rest_of_window"`).

use turnspec_model::{Holder, MAX_PLAYERS, MAX_ROLES, RoleId, RoleStart, Stage};

use crate::event::{Because, Event, EventSink};
use crate::game::Game;
use crate::host::Host;
use crate::state::PlayerId;

impl Game {
    /// Each role goes to its first holder: every role as the game is set
    /// up (`all`), those with `reset = "turn"` as each turn begins.
    pub(crate) fn roles_begin(&mut self, all: bool) {
        let order = self.spec.game().turn_order;
        for (i, role) in self.spec.roles().iter().enumerate().take(MAX_ROLES) {
            if !all && !role.each_turn {
                continue;
            }
            let s = &self.state;
            let holder = match role.initial {
                RoleStart::ActivePlayer => s.active,
                RoleStart::NextPlayer => s.next_in_game(order, s.active),
                RoleStart::StartingPlayer => s.starting,
            };
            self.state.roles[i] = holder;
        }
    }

    /// Who holds `role`.
    #[inline]
    pub(crate) fn role_holder(&self, role: RoleId) -> PlayerId {
        self.state.roles[role.index() % MAX_ROLES]
    }

    /// `player` takes `role` (an answer, a play that claims it).
    pub(crate) fn give_role<S: EventSink>(&mut self, role: RoleId, player: PlayerId, sink: &mut S) {
        if self.spec.role(role).is_none() || player.0 >= self.state.players {
            return;
        }
        self.state.roles[role.index() % MAX_ROLES] = player;
        sink.event(Event::RoleTaken { role, player });
    }

    /// The holder of the `next_turn` role, if the spec has one and they
    /// are still in the game: they take the next turn.
    pub(crate) fn next_turn_by_role(&self) -> Option<PlayerId> {
        let (i, _) = self
            .spec
            .roles()
            .iter()
            .enumerate()
            .find(|(_, r)| r.next_turn)?;
        let p = self.state.roles[i % MAX_ROLES];
        self.state.is_in(p).then_some(p)
    }

    /// Who receives priority first in the open window: the holder of the
    /// role it names (`acts = ROLE`) when they are in the game, else the
    /// usual first holder.
    #[inline]
    pub(crate) fn first_holder_here(&self) -> PlayerId {
        if self.cached.features().role_windows
            && let Some(Stage::Window(w)) = self.current_stage()
            && let Some(role) = self.spec.window(w).and_then(|w| w.acts_role)
        {
            let p = self.role_holder(role);
            if self.state.is_in(p) {
                return p;
            }
        }
        self.first_holder()
    }

    /// Who receives priority after `actor` played or a resolution: the
    /// actor, the next player after them, or the first holder of the
    /// window, as `holder` says (the actor or the next player only while
    /// they are in the game).
    #[inline]
    pub(crate) fn holder_for(&self, holder: Holder, actor: PlayerId) -> PlayerId {
        match holder {
            Holder::Actor if self.state.is_in(actor) => actor,
            Holder::NextPlayer if self.state.is_in(actor) => self.next_in_game(actor),
            _ => self.first_holder_here(),
        }
    }

    /// How many passes in a row close the open window or resolve: one in
    /// a window only one player acts in, else one per side.
    pub(crate) fn passes_needed(&self) -> u8 {
        if self.cached.features().solo && self.solo_window() {
            1
        } else {
            self.cached.sides_in()
        }
    }

    /// Priority goes to `to`, or past them while they passed for the rest
    /// of the window: each such player passes at once (and the round of
    /// passes may complete).
    #[inline(always)]
    pub(crate) fn hand_on<H: Host, S: EventSink>(
        &mut self,
        to: PlayerId,
        because: Because,
        host: &mut H,
        sink: &mut S,
    ) {
        if self.state.passed_out != 0 {
            self.hand_on_past_passed(to, because, host, sink);
            return;
        }
        self.give_priority(to, because, sink);
    }

    /// [`Game::hand_on`] while some player passed for the rest of the window.
    #[cold]
    #[inline(never)]
    fn hand_on_past_passed<H: Host, S: EventSink>(
        &mut self,
        mut to: PlayerId,
        because: Because,
        host: &mut H,
        sink: &mut S,
    ) {
        // Waiting triggers go on the stack before anyone would receive
        // priority (117.5), so the automatic passes below answer them too.
        self.put_waiting(sink);
        {
            for _ in 0..MAX_PLAYERS {
                if self.state.passed_out >> (to.0 & 7) & 1 == 0 {
                    break;
                }
                sink.event(Event::Passed { player: to });
                self.state.passes += 1;
                if self.state.passes >= self.passes_needed() {
                    self.round_complete(to, host, sink);
                    return;
                }
                to = self.cached.next_side(to);
            }
        }
        self.give_priority(to, because, sink);
    }

    /// A play at a class with `passes = "rest_of_window"`: it is also the
    /// player's pass, and they pass whenever they would act again in this
    /// window (SWU 1.15).
    pub(crate) fn pass_for_rest_of_window<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) {
        self.state.passed_out |= 1 << (player.0 & 7);
        sink.event(Event::Passed { player });
        self.state.passes += 1;
        if self.state.passes >= self.passes_needed() {
            self.round_complete(player, host, sink);
            return;
        }
        let next = self.cached.next_side(player);
        self.hand_on(next, Because::Passed, host, sink);
    }
}

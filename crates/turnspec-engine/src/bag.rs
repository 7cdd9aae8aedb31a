//! The bag (`[priority] triggers = "bag"`, first built for Lorcana 7.7):
//! triggered abilities wait in a pool instead of going on the stack in
//! APNAP order. The active player resolves theirs first, one at a time;
//! when they have none left the bag passes to the next player in turn
//! order who has some, and so on round the table, coming back to a player
//! who gained a trigger meanwhile (7.7.4, 7.7.6). The pool is kept in the
//! stack's vector, so `stack_empty` and `stack = "empty"` read it.

use crate::event::{Because, Event, EventSink};
use crate::game::Game;
use crate::host::{Host, ResolvedHook};
use crate::seats::next_seat;
use crate::state::PlayerId;

impl Game {
    /// The player who resolves next: the first side from `from` (included)
    /// in turn order with a trigger in the bag.
    pub(crate) fn bag_resolver(&self, from: PlayerId) -> Option<PlayerId> {
        let s = &self.state;
        let mut p = from;
        for _ in 0..s.players {
            if s.is_in(p) && s.stack.iter().any(|o| s.team(o.controller) == s.team(p)) {
                return Some(p);
            }
            p = next_seat(self.spec.game().turn_order, s.players, p);
        }
        None
    }

    /// The holder of priority in a bag game with triggers waiting resolves
    /// the next one of theirs: the one they choose (`label`), or the oldest.
    pub(crate) fn bag_resolve<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        label: Option<u32>,
        host: &mut H,
        sink: &mut S,
    ) {
        let who = self.bag_resolver(player).unwrap_or(player);
        let team = self.state.team(who);
        if team != self.state.team(player) {
            // The holder has nothing in the bag (a trigger the host reported
            // while they held priority): their pass hands the bag on.
            sink.event(Event::Passed { player });
            self.give_priority(who, Because::Passed, sink);
            return;
        }
        let mine = |o: &crate::state::StackObject| self.state.team(o.controller) == team;
        let chosen = label.and_then(|l| {
            self.state
                .stack
                .iter()
                .position(|o| mine(o) && o.label == l)
        });
        let Some(i) = chosen.or_else(|| self.state.stack.iter().position(mine)) else {
            return;
        };
        let object = self.state.stack.remove(i);
        self.state.passes = 0;
        sink.event(Event::Resolved { object });
        host.resolved(ResolvedHook::new(
            self.hook_context(),
            object,
            self.state.triggers(),
        ));
        if self.state.stack.is_empty() && self.state.waiting.is_empty() {
            if self.closes_when_stack_empty() {
                self.state.holder = None;
                self.state.stage += 1;
                self.run(host, sink);
                return;
            }
            let first = self.first_holder();
            self.give_priority(first, Because::Resolved, sink);
            return;
        }
        self.give_priority(who, Because::Resolved, sink);
    }

    /// Whether `player` may choose to resolve `label` from the bag now.
    pub(crate) fn check_bag_choice(&self, player: PlayerId, label: u32) -> bool {
        let s = &self.state;
        self.cached.features().bag
            && s.holder == Some(player)
            && s.stack
                .iter()
                .any(|o| o.label == label && s.team(o.controller) == s.team(player))
    }
}

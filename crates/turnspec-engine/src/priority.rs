//! Priority: passing, playing, who receives priority next, and putting
//! waiting triggers on the stack in APNAP order when it is given (117).
//! Who sits next is in `seats.rs`.

use turnspec_model::{Effect, RuleRef, Stage, TimingId, WindowId};

use crate::event::{Because, Event, EventSink};
use crate::game::Game;
use crate::host::{Host, PlayedHook, ResolvedHook};
use crate::state::{MAX_NESTING, ObjectKind, PlayerId, Point, StackObject};

impl Game {
    /// The holder passes; `Some(rule)` when the window refuses the pass
    /// (`refuse_pass`), with nothing changed.
    #[inline(always)]
    pub(crate) fn pass<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) -> Option<RuleRef> {
        // The most common action of all: a pass that moves priority on, in
        // a spec whose passes are not shaped and a game with no modifiers
        // (`plain_passes_below` is 0 otherwise, so this is one test). Sides
        // and seats come from the program's tables, rebuilt whenever a
        // player leaves.
        self.state.passes += 1;
        if self.state.passes < self.cached.plain_passes_below() {
            sink.event(Event::Passed { player });
            let next = self.cached.next_side(player);
            self.give_priority_plainly(next, Because::Passed, sink);
            return None;
        }
        if self.cached.features().shaped_pass {
            // The shaped pass counts for itself.
            self.state.passes -= 1;
            return self.pass_in_shaped_turn(player, host, sink);
        }
        sink.event(Event::Passed { player });
        if self.state.passes < self.cached.sides_in() {
            // Priority moves on, in a game with modifiers (which may hand
            // the decisions to another player, 722).
            let next = self.cached.next_side(player);
            let window = self.open_window();
            self.give_priority_in_shaped_turn(next, window, Because::Passed, sink);
            return None;
        }
        // Everyone has passed in succession.
        // The window the program opened closes with nothing to resolve.
        if self.cached.resume_pending() && self.state.stack.is_empty() {
            self.close_program_window(host, sink);
            return None;
        }
        // The top object resolves, in a spec and a turn where nothing else
        // can follow from that (no modifiers, no window that closes when
        // the stack empties): `round_complete` without its lookups.
        if self.cached.features().fast_resolve && self.state.mods.is_none() {
            self.state.passes = 0;
            if let Some(object) = self.state.stack.pop() {
                sink.event(Event::Resolved { object });
                // What the resolution triggered waits, and goes on the
                // stack before anyone receives priority (117.3b, 117.5).
                host.resolved(ResolvedHook::new(
                    self.hook_context(),
                    object,
                    self.state.triggers(),
                ));
                let to =
                    self.holder_after_holder(self.cached.features().actor_after_resolve, player);
                // No modifiers (tested above; a hook cannot make any) and
                // no bag (a pass in a spec with one is shaped).
                self.give_priority_plainly(to, Because::Resolved, sink);
                return None;
            }
        }
        self.round_complete(player, host, sink);
        None
    }

    /// A plain play (`Features::plain_timings`) that
    /// [`Game::may_play_plainly`] allowed: onto the stack, the host told,
    /// priority given.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn play_plainly<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        timing: TimingId,
        label: u32,
        host: &mut H,
        sink: &mut S,
    ) {
        self.state.passes = 0;
        self.push_play(player, timing, label, sink);
        host.played(PlayedHook::new(
            self.hook_context(),
            player,
            timing,
            label,
            self.state.triggers(),
        ));
        let to = self.holder_after_holder(self.cached.features().actor_after_action, player);
        // No bag: a spec with one has no plain plays.
        self.give_priority_without_bag(to, Because::Acted, sink);
    }

    /// A play goes on the stack.
    #[inline(always)]
    fn push_play<S: EventSink>(
        &mut self,
        player: PlayerId,
        timing: TimingId,
        label: u32,
        sink: &mut S,
    ) {
        let object = StackObject {
            controller: player,
            kind: ObjectKind::Play(timing),
            label,
        };
        self.state.stack.push(object);
        sink.event(Event::Pushed { object });
    }

    /// [`Game::pass`] in a spec with a bag or windows only the active
    /// player acts in: out of line, so other specs do not carry it.
    #[inline(never)]
    fn pass_in_shaped_turn<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) -> Option<RuleRef> {
        if self.cached.features().bag && !self.state.stack.is_empty() {
            // In the bag, passing resolves the holder's oldest trigger.
            self.bag_resolve(player, None, host, sink);
            return None;
        }
        // A window may refuse the pass (Reckless).
        if let Some(rule) = self.pass_refused() {
            return Some(rule);
        }
        sink.event(Event::Passed { player });
        self.state.passes += 1;
        // In a window only one player acts in, their pass is enough.
        // Sides and seats come from the program's tables, rebuilt whenever
        // a player leaves.
        if self.state.passes < self.passes_needed() {
            let next = self.cached.next_side(player);
            self.hand_on(next, Because::Passed, host, sink);
            return None;
        }
        // The window the program opened closes with nothing to resolve, as
        // in `pass` (the turn's one window in Pokémon's shape of turn).
        if self.cached.resume_pending() && self.state.stack.is_empty() {
            self.close_program_window(host, sink);
            return None;
        }
        self.round_complete(player, host, sink);
        None
    }

    /// Everyone passed, with nothing on the stack, in a window the program
    /// opened: it goes on where it stopped (as `round_complete` would,
    /// without its lookups). The stage is not moved on: every op that can
    /// follow a window (a turn-based action, a window, a step's end) sets
    /// it before anything could read it. A round of responses to a play
    /// forgets the resume point, so its last pass goes to `round_complete`.
    #[inline(always)]
    fn close_program_window<H: Host, S: EventSink>(&mut self, host: &mut H, sink: &mut S) {
        debug_assert!(self.cached.resume_pending() && self.state.stack.is_empty());
        debug_assert!(!self.state.responding);
        let s = &mut self.state;
        s.passes = 0;
        s.holder = None;
        let pc = self.cached.take_resume();
        if self.hop(pc, host, sink) {
            return;
        }
        self.program_loop(pc, host, sink);
    }

    /// The rule of the open window's first `refuse_pass` that holds now,
    /// if the holder's pass is refused (not a pass that resolves from the
    /// bag, which the bag path takes first).
    #[inline]
    pub(crate) fn pass_refused(&self) -> Option<RuleRef> {
        // One owner for the question: the program, rebuilt when a fact
        // changes (false in a spec without `refuse_pass`).
        if !self.cached.program().refusals_possible {
            return None;
        }
        self.pass_refused_by_window()
    }

    #[cold]
    #[inline(never)]
    fn pass_refused_by_window(&self) -> Option<RuleRef> {
        if self.cached.features().bag && !self.state.stack.is_empty() {
            return None;
        }
        let window = self.spec.window(self.open_window()?)?;
        self.skip_rule(&window.refuse_pass)
    }

    /// Everyone passed in succession: resolve the top object, or close the
    /// window (117.4, 500.2).
    pub(crate) fn round_complete<H: Host, S: EventSink>(
        &mut self,
        last: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) {
        self.state.passes = 0;
        match self.state.stack.pop() {
            Some(object) => {
                sink.event(Event::Resolved { object });
                // What the resolution triggered waits, and goes on the stack
                // before anyone receives priority (117.3b, 117.5).
                host.resolved(ResolvedHook::new(
                    self.hook_context(),
                    object,
                    self.state.triggers(),
                ));
                // Steps a play runs, a chain that resolves whole.
                if self.cached.features().after_resolution
                    && self.after_resolving(object, host, sink)
                {
                    return;
                }
                if self.state.stack.is_empty()
                    && let Some(goto) = self
                        .state
                        .mods
                        .as_mut()
                        .and_then(|m| m.jump_when_stack_empty.take())
                {
                    self.end_turn(goto, host, sink);
                    return;
                }
                if self.cached.features().closes_when_stack_empty
                    && self.state.stack.is_empty()
                    && self.state.waiting.is_empty()
                    && self.closes_when_stack_empty()
                {
                    self.state.holder = None;
                    self.state.stage += 1;
                    self.run(host, sink);
                    return;
                }
                let to = self.holder_for(self.cached.features().after_resolve, last);
                self.hand_on(to, Because::Resolved, host, sink);
            }
            None if self.state.responding => {
                // Nobody responded to the play: the window goes on, with
                // the active player (Yu-Gi-Oh!'s open game state).
                self.state.responding = false;
                let first = self.first_holder_here();
                self.hand_on(first, Because::Returned, host, sink);
            }
            None => {
                self.state.holder = None;
                self.state.stage += 1;
                self.run(host, sink);
            }
        }
    }

    /// After `object` resolved: a play whose class runs steps starts them
    /// (true: play went on there); in a chain that resolves whole, the
    /// rest of the stack resolves, top first, with nobody receiving
    /// priority in between (what it triggers waits until it is empty).
    #[inline(never)]
    fn after_resolving<H: Host, S: EventSink>(
        &mut self,
        mut object: StackObject,
        host: &mut H,
        sink: &mut S,
    ) -> bool {
        loop {
            if let ObjectKind::Play(timing) = object.kind
                && let Some(step) = self.spec.timing_class(timing).and_then(|t| t.steps)
            {
                self.run_steps((object.controller, timing, object.label), step, host, sink);
                return true;
            }
            if !self.cached.features().whole_stack {
                return false;
            }
            let Some(next) = self.state.stack.pop() else {
                return false;
            };
            object = next;
            sink.event(Event::Resolved { object });
            host.resolved(ResolvedHook::new(
                self.hook_context(),
                object,
                self.state.triggers(),
            ));
        }
    }

    // The hook context and triggers are what the host API (issue 11) will
    // regroup; until then this mirrors `Host::played`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn play<H: Host, S: EventSink>(
        &mut self,
        player: PlayerId,
        timing: TimingId,
        label: u32,
        host: &mut H,
        sink: &mut S,
    ) {
        // Copied out: the spec is the game's own (the class was checked),
        // and the game changes below.
        let Some(tc) = self.spec.timing_class(timing) else {
            return;
        };
        let (limit, cost, enters, effect, ends, object_limit) = (
            tc.limit,
            tc.cost,
            tc.enters,
            tc.effect,
            tc.ends,
            tc.object_limit,
        );
        let after = tc.after;
        // Rare plays (a claim, a pass for the rest of the window, steps)
        // are one bit of a cached mask; the common ones read no more.
        let rare =
            timing.index() < 32 && self.cached.features().rare_timings >> timing.index() & 1 != 0;
        let (claims, passes_rest, steps, responses) = match rare {
            true => (tc.claims, tc.passes_rest, tc.steps, tc.response_round),
            false => (None, false, None, false),
        };
        if let Some(limit) = limit {
            let c = self.counter_slot(limit.counter, player);
            *c = c.saturating_add(1);
        }
        if let Some(limit) = object_limit {
            self.count_object_use(label, &limit);
        }
        self.pay(player, cost);
        if let Some(phase) = enters {
            self.elect(phase);
        }
        // A play that is also its player's pass does not start the count
        // of passes again.
        if !passes_rest {
            self.state.passes = 0;
        }
        // A play answers whatever it follows: a round of responses is
        // over; one that asks for its own begins (`response_round`). Its
        // last pass must reach `round_complete`, not the program's
        // shortcut: the program finds its place again from the state
        // when the window closes.
        self.state.responding = responses;
        if responses {
            self.cached.forget_resume();
        }
        match effect {
            Effect::Stack => self.push_play(player, timing, label, sink),
            Effect::Special | Effect::StartPhase(_) => sink.event(Event::SpecialAction {
                player,
                timing,
                label,
            }),
        }
        host.played(PlayedHook::new(
            self.hook_context(),
            player,
            timing,
            label,
            self.state.triggers(),
        ));
        if let Some(role) = claims {
            self.give_role(role, player, sink);
        }
        if let Some(ends) = ends {
            self.end_by_play(ends, host, sink);
            return;
        }
        if let (Some(step), Effect::Special) = (steps, effect) {
            self.run_steps((player, timing, label), step, host, sink);
            return;
        }
        if passes_rest {
            self.pass_for_rest_of_window(player, host, sink);
            return;
        }
        if let Effect::StartPhase(phase) = effect {
            // Deeper nesting than the engine keeps has no structural effect
            // (the validator rejects cycles of phases starting each other).
            if (self.state.returns_len as usize) < MAX_NESTING {
                self.state.push_return(false);
                let s = &mut self.state;
                s.holder = None;
                s.phase = phase;
                s.point = Point::PhaseStart;
                self.cached.forget_resume();
                self.run(host, sink);
                return;
            }
        }
        let to = self.holder_for(after.unwrap_or(self.cached.features().after_action), player);
        self.hand_on(to, Because::Acted, host, sink);
    }

    /// The current window is one only the active player acts in.
    pub(crate) fn solo_window(&self) -> bool {
        match self.current_stage() {
            Some(Stage::Window(w)) => self.spec.window(w).is_some_and(|w| w.solo),
            _ => false,
        }
    }

    pub(crate) fn closes_when_stack_empty(&self) -> bool {
        match self.current_stage() {
            Some(Stage::Window(w)) => self
                .spec
                .window(w)
                .is_some_and(|w| w.close_when_stack_empty),
            _ => false,
        }
    }

    /// [`Game::holder_for`] when the actor held priority (the fast paths:
    /// a plain play, a pass that resolves), so is in the game: a holder
    /// always is.
    #[inline(always)]
    fn holder_after_holder(&self, actor_holds: bool, holder: PlayerId) -> PlayerId {
        if actor_holds {
            holder
        } else {
            self.first_holder_fast()
        }
    }

    /// Puts waiting triggers on the stack, then gives priority.
    #[inline(always)]
    pub(crate) fn give_priority<S: EventSink>(
        &mut self,
        player: PlayerId,
        because: Because,
        sink: &mut S,
    ) {
        if self.cached.features().bag {
            let window = self.open_window();
            self.give_priority_in_shaped_turn(player, window, because, sink);
            return;
        }
        self.give_priority_without_bag(player, because, sink);
    }

    /// [`Game::give_priority`] where there is no bag.
    #[inline(always)]
    fn give_priority_without_bag<S: EventSink>(
        &mut self,
        player: PlayerId,
        because: Because,
        sink: &mut S,
    ) {
        if self.state.mods.is_some() {
            let window = self.open_window();
            self.give_priority_in_shaped_turn(player, window, because, sink);
            return;
        }
        self.give_priority_plainly(player, because, sink);
    }

    /// [`Game::give_priority`] with no bag and no modifiers.
    #[inline(always)]
    fn give_priority_plainly<S: EventSink>(
        &mut self,
        player: PlayerId,
        because: Because,
        sink: &mut S,
    ) {
        if !self.state.waiting.is_empty() {
            self.put_waiting(sink);
        }
        self.state.holder = Some(player);
        // Looked up only for the event: a sink that ignores events costs
        // no lookup.
        sink.event(Event::PriorityGiven {
            player,
            window: self.open_window(),
            because,
        });
    }

    /// The window of the current stage, if it is one.
    #[inline(always)]
    fn open_window(&self) -> Option<WindowId> {
        match self.current_stage() {
            Some(Stage::Window(w)) => Some(w),
            _ => None,
        }
    }

    /// [`Game::give_priority`] as a window the program opened opens: the
    /// window is known, and there is no bag to look at (a spec with one
    /// never runs the program).
    #[inline(always)]
    pub(crate) fn give_priority_from_program<S: EventSink>(
        &mut self,
        player: PlayerId,
        window: WindowId,
        sink: &mut S,
    ) {
        if self.cached.general_priority() {
            // A window a role acts in: its holder is first (roles.rs).
            let player = match self.cached.features().role_windows {
                true => self.first_holder_here(),
                false => player,
            };
            self.give_priority_in_shaped_turn(player, Some(window), Because::WindowOpened, sink);
            return;
        }
        if !self.state.waiting.is_empty() {
            self.put_waiting(sink);
        }
        self.state.holder = Some(player);
        sink.event(Event::PriorityGiven {
            player,
            window: Some(window),
            because: Because::WindowOpened,
        });
    }

    /// [`Game::give_priority`] with a bag, or with modifiers that may
    /// hand the decisions to another player (722).
    #[inline(never)]
    fn give_priority_in_shaped_turn<S: EventSink>(
        &mut self,
        player: PlayerId,
        window: Option<WindowId>,
        because: Because,
        sink: &mut S,
    ) {
        if !self.state.waiting.is_empty() {
            self.put_waiting(sink);
        }
        // In the bag, whoever resolves next holds priority (Lorcana 7.7.4).
        let player = if self.cached.features().bag && !self.state.stack.is_empty() {
            self.bag_resolver(player).unwrap_or(player)
        } else {
            player
        };
        self.state.holder = Some(player);
        sink.event(Event::PriorityGiven {
            player,
            window,
            because,
        });
        if self.state.mods.is_some()
            && let Some(by) = self.decided_by(player)
        {
            sink.event(Event::DecidedBy { player, by });
        }
    }

    /// Waiting triggers go on the stack the active player's first, so they
    /// resolve last (APNAP, 101.4, 603.3b); each player's in the order they
    /// were reported. Triggers joining a bag keep the order they were
    /// reported in.
    pub(crate) fn put_waiting<S: EventSink>(&mut self, sink: &mut S) {
        if self.state.waiting.is_empty() {
            return;
        }
        let bag = self.cached.features().bag;
        // A stable counting sort straight onto the stack: one pass over the
        // waiting triggers per APNAP distance someone waiting has (a
        // distance is below the number of seats, so at most 8 passes).
        // Linear in the triggers, and no buffer to allocate.
        let mut distances = [0u8; 8];
        for (i, d) in distances
            .iter_mut()
            .enumerate()
            .take(self.state.players as usize)
        {
            *d = self.side_distance(PlayerId(i as u8)) & 7;
        }
        let distance = |p: PlayerId| distances[p.index() & 7];
        let s = &mut self.state;
        // Bit d set: someone at distance d has a trigger waiting.
        let mut present = 0u8;
        for object in &s.waiting {
            present |= 1 << distance(object.controller);
        }
        // In a bag, or with one distance only: one pass in report order.
        if bag || present.count_ones() == 1 {
            present = 1;
        }
        let every = present == 1;
        while present != 0 {
            let d = present.trailing_zeros() as u8;
            present &= present - 1;
            for &object in &s.waiting {
                if every || distance(object.controller) == d {
                    s.stack.push(object);
                    sink.event(Event::TriggerPut { object });
                }
            }
        }
        s.waiting.clear();
        s.passes = 0;
    }
}

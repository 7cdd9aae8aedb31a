//! The transitions of the turn, each written once: a turn, a phase and a
//! step beginning and ending, a window opening, the turn passing on. These
//! are the only emitters of the turn-structure events (`TurnBegan`,
//! `PhaseBegan`, `StepBegan`, `StepEnded`, `PhaseEnded`, `TurnEnded`,
//! `Skipped`, and priority given as a window opens). Both tiers call them:
//! the interpreter (`flow.rs`) one point at a time, the compiled program
//! (`compiled/`) several in one op.
//!
//! Each transition takes `GENERAL`: `true` on the interpreter's and the
//! structural operations' paths, where modifiers (extra turns, skips,
//! delayed triggers, durations, mana, control) and on-demand phases may
//! be going on; `false` on the program's, which
//! runs only while none of them is (`Program::entry`), so their work is
//! left out at compile time, not tested at run time. A `false` call
//! asserts that precondition in debug builds. What both tiers meet
//! (counters refilled to their `start`, elections forgotten as a turn
//! begins) is decided by the spec's tables, the same for both.

use turnspec_model::{PhaseId, Reset, RuleRef, StepId, WindowId};

use crate::event::{Because, Event, EventSink, Skipped};
use crate::game::Game;
use crate::host::{Host, StepBeganHook};
use crate::state::{Place, Point, Scope};

impl Game {
    /// What the program may leave out: nothing structural going on.
    #[inline(always)]
    fn assert_plain_turn(&self) {
        debug_assert!(
            self.state.modifiers_idle(),
            "the program runs with modifiers"
        );
        debug_assert_eq!(
            self.state.returns_len, 0,
            "the program runs in an on-demand phase"
        );
    }

    /// The counters that reset as a turn, phase or step begins go back to
    /// 0, or to their `start` value.
    #[inline(always)]
    pub(crate) fn reset_counters<const GENERAL: bool>(&mut self, level: Reset) {
        let resets = &self.cached.program().resets;
        let keep = match level {
            Reset::Turn => &resets.turn,
            Reset::Phase => &resets.phase,
            Reset::Step => &resets.step,
            Reset::Game => return,
        };
        if keep.apply(&mut self.state) {
            let mask = keep.mask;
            self.refill(mask);
        }
    }

    /// A turn begins (the active player known to be in the game, the turn
    /// not skipped): its tallies, counters, and "at the beginning of the
    /// turn" modifiers.
    #[inline(always)]
    pub(crate) fn turn_began<const GENERAL: bool, S: EventSink>(&mut self, sink: &mut S) {
        if !GENERAL {
            self.assert_plain_turn();
        }
        if GENERAL && self.state.mods.is_some() {
            self.departed_turn_passed(sink);
        }
        self.state.count_turn();
        self.state.returns_len = 0;
        self.reset_counters::<GENERAL>(Reset::Turn);
        if self.cached.features().elections {
            self.forget_elections();
        }
        if self.cached.features().roles_each_turn {
            self.roles_begin(false);
        }
        sink.event(Event::TurnBegan {
            turn: self.state.turn,
            player: self.state.active,
        });
        if GENERAL && self.state.mods.is_some() {
            self.turn_began_mods(sink);
        }
    }

    /// A phase that was not skipped begins (its kind already counted):
    /// its counters reset, and the turn stands at `first_step`.
    #[inline(always)]
    pub(crate) fn phase_began<const GENERAL: bool, S: EventSink>(
        &mut self,
        phase: PhaseId,
        kind: usize,
        first_step: StepId,
        sink: &mut S,
    ) {
        if !GENERAL {
            self.assert_plain_turn();
        }
        // A phase started by a play shares its caller's per-phase
        // counters (a per-Main-phase limit survives an attack); only
        // regular phases reset them.
        if !GENERAL || self.state.returns_len == 0 {
            self.reset_counters::<GENERAL>(Reset::Phase);
        }
        sink.event(Event::PhaseBegan {
            phase,
            number: self.state.kind_counts[kind],
        });
        if GENERAL && self.state.mods.is_some() {
            self.began_mods(Place::Phase(phase), sink);
        }
        let s = &mut self.state;
        s.step = first_step;
        s.anchor = first_step;
        s.repeat = 0;
    }

    /// A phase entered part-way, at a step the caller sets (ending the
    /// turn goes straight to its cleanup step, 723.1d): counted and
    /// announced, but no counters reset and no "at the beginning of the
    /// phase" modifiers, since its beginning is passed over.
    pub(crate) fn phase_entered_late<S: EventSink>(&mut self, phase: PhaseId, sink: &mut S) {
        let k = crate::game::kind_of(&self.spec, phase);
        self.state.count_phase_kind(k);
        sink.event(Event::PhaseBegan {
            phase,
            number: self.state.kind_counts[k],
        });
        self.state.repeat = 0;
    }

    /// A step that was not skipped begins (the state already names it):
    /// its counters reset, "at the beginning of" hooks run.
    #[inline(always)]
    pub(crate) fn step_began<const GENERAL: bool, H: Host, S: EventSink>(
        &mut self,
        step: StepId,
        implicit: bool,
        host: &mut H,
        sink: &mut S,
    ) {
        if !GENERAL {
            self.assert_plain_turn();
        }
        self.reset_counters::<GENERAL>(Reset::Step);
        self.state.window_opened = false;
        self.state.stage = 0;
        if !implicit {
            sink.event(Event::StepBegan {
                step,
                repeat: self.state.repeat,
            });
            if GENERAL && self.state.mods.is_some() {
                self.began_mods(Place::Step(step), sink);
            }
        }
        host.step_began(StepBeganHook::new(
            self.hook_context(),
            self.state.triggers(),
        ));
    }

    /// A phase, a step or a turn is skipped.
    #[inline(always)]
    pub(crate) fn skipped<S: EventSink>(&mut self, skipped: Skipped, rule: RuleRef, sink: &mut S) {
        // A skipped optional phase did not happen: it no longer counts as
        // elected (Yu-Gi-Oh!'s Main Phase 2 needs a Battle Phase).
        if let Skipped::Phase(p) = skipped
            && self.cached.features().elections
        {
            self.unelect(p);
        }
        sink.event(Event::Skipped { skipped, rule });
    }

    /// A window opens at the current stage: the first holder receives
    /// priority (after waiting triggers go on the stack).
    #[inline(always)]
    pub(crate) fn window_opens<const GENERAL: bool, S: EventSink>(
        &mut self,
        window: WindowId,
        sink: &mut S,
    ) {
        let s = &mut self.state;
        s.window_opened = true;
        s.passes = 0;
        s.passed_out = 0;
        s.responding = false;
        s.point = Point::Stage;
        if GENERAL {
            let first = self.first_holder_here();
            self.give_priority(first, Because::WindowOpened, sink);
        } else {
            self.assert_plain_turn();
            // A window a role's holder acts in: they are first, on the
            // general way (`Cached::general_priority`).
            let first = self.first_holder_fast();
            self.give_priority_from_program(first, window, sink);
        }
    }

    /// The current step ends (whether or not it begins again).
    #[inline(always)]
    pub(crate) fn step_ended<const GENERAL: bool, S: EventSink>(
        &mut self,
        step: StepId,
        implicit: bool,
        sink: &mut S,
    ) {
        if !implicit {
            sink.event(Event::StepEnded { step });
        }
        if GENERAL {
            self.end_of(Scope::Step, sink);
        } else {
            self.assert_plain_turn();
        }
    }

    /// The current phase ends.
    #[inline(always)]
    pub(crate) fn phase_ended<const GENERAL: bool, S: EventSink>(
        &mut self,
        phase: PhaseId,
        sink: &mut S,
    ) {
        sink.event(Event::PhaseEnded { phase });
        if GENERAL {
            self.end_of(Scope::Phase, sink);
        } else {
            self.assert_plain_turn();
        }
    }

    /// The turn ends (before any between-turns phase).
    #[inline(always)]
    pub(crate) fn turn_ended<const GENERAL: bool, S: EventSink>(&mut self, sink: &mut S) {
        sink.event(Event::TurnEnded {
            turn: self.state.turn,
            player: self.state.active,
        });
        if GENERAL {
            self.end_of(Scope::Turn, sink);
        } else {
            self.assert_plain_turn();
        }
    }

    /// Chooses who takes the next turn: the latest extra turn first (500.7),
    /// else the next side after the latest regular turn.
    #[inline(always)]
    pub(crate) fn next_turn_player(&mut self) {
        // Until a turn begins with them in the game, the next active player
        // may be one who left (the game may also stop first, at its turn
        // limit): the fast paths ask.
        self.cached.active_changed();
        let s = &mut self.state;
        s.returns_len = 0;
        s.only_step = None;
        s.start_step = None;
        if s.mods.is_some() && self.next_turn_from_modifiers() {
            return;
        }
        let s = &mut self.state;
        if !s.extra_turn {
            s.last_regular = s.active;
        }
        s.extra_turn = false;
        // The next side from the table (`Cached::next_side`, checked
        // against `GameState::next_in_game` in debug builds), or the
        // holder of the role that takes the next turn (SWU's initiative).
        s.active = self.cached.next_side(s.last_regular);
        s.point = Point::TurnStart;
        if self.cached.features().next_turn_role
            && let Some(p) = self.next_turn_by_role()
        {
            self.state.active = p;
        }
    }

    /// What modifiers say about the next turn: upcoming phases and steps
    /// are dropped, and the latest extra turn is taken (true). Out of line:
    /// the turn's hot loop stays small.
    #[inline(never)]
    fn next_turn_from_modifiers(&mut self) -> bool {
        let s = &mut self.state;
        let Some(mods) = s.mods.as_mut() else {
            return false;
        };
        mods.upcoming_phases.clear();
        mods.upcoming_steps.clear();
        let Some(p) = mods.extra_turns.pop() else {
            return false;
        };
        s.active = p;
        s.extra_turn = true;
        s.point = Point::TurnStart;
        true
    }
}

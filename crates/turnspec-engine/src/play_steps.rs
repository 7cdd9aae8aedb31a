//! Steps a play runs (`steps` on a timing class, `on_demand` steps): a
//! chain link's steps, an attack's. They run inside the phase they belong
//! to, from the named step through the on-demand steps after it; then play
//! returns to the window the play was made in. The stack is kept.

use turnspec_model::{StepId, TimingId};

use crate::event::{Event, EventSink};
use crate::game::Game;
use crate::host::Host;
use crate::state::{MAX_NESTING, PlayerId, Point};

impl Game {
    /// Whether the current step is one of the steps a play runs, in its
    /// phase.
    #[inline]
    pub(crate) fn in_steps_of_play(&self) -> bool {
        let s = &self.state;
        s.returns_len > 0 && {
            let r = &s.returns[(s.returns_len - 1) as usize];
            r.steps_of_play && r.phase == s.phase
        }
    }

    /// A play at a class with `steps` runs them: at once for a special
    /// action, as it resolves for a play on the stack. Made while they are
    /// running, they begin again from `step` (the next chain link), with
    /// no new return.
    pub(crate) fn run_steps<H: Host, S: EventSink>(
        &mut self,
        (player, timing, label): (PlayerId, TimingId, u32),
        step: StepId,
        host: &mut H,
        sink: &mut S,
    ) {
        let again = self.in_steps_of_play();
        // Only steps of the phase under way (the loader makes sure).
        let of_this_phase = self
            .spec
            .step(step)
            .is_some_and(|s| s.phase == self.state.phase);
        if !of_this_phase || (!again && self.state.returns_len as usize >= MAX_NESTING) {
            // Deeper than the engine keeps: nothing structural happens.
            return;
        }
        sink.event(Event::StepsBegan {
            player,
            timing,
            label,
            again,
        });
        if again {
            self.end_current_step(sink);
        } else {
            self.state.push_return(true);
        }
        let s = &mut self.state;
        s.holder = None;
        s.passes = 0;
        s.step = step;
        s.anchor = step;
        s.repeat = 0;
        s.point = Point::StepStart;
        self.cached.forget_resume();
        self.run(host, sink);
    }

    /// The last of the steps a play ran has ended: back to the window the
    /// play was made in.
    pub(crate) fn return_from_steps(&mut self) {
        debug_assert!(self.in_steps_of_play());
        // Steps of a play run inside the phase they were started in, so the
        // phase the return point names is the current one.
        debug_assert_eq!(
            self.state.returns[self.state.returns_len as usize - 1].phase,
            self.state.phase
        );
        self.state.pop_return();
    }

    /// The phase the steps of a play run in is ending: they end with it.
    pub(crate) fn drop_steps_of_play(&mut self) {
        while self.in_steps_of_play() {
            self.state.returns_len -= 1;
        }
    }
}

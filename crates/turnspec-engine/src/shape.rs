//! Turn shapes beyond Magic's: plays that end the turn or the phase
//! (`ends`, a Pokémon attack), optional phases the turn player elects
//! (`enters`, Yu-Gi-Oh!'s Battle Phase), and phases between turns that
//! belong to no player's turn (`between_turns`, Pokémon Checkup).

use turnspec_model::{PhaseId, PlayEnds};

use crate::event::EventSink;
use crate::game::Game;
use crate::host::Host;
use crate::state::Point;

impl Game {
    /// A play at a class with `ends`: the stack and waiting triggers go
    /// (as for an `end_turn` or `end_phase` effect), then the current phase
    /// ends, and with `ends = "turn"` every phase under way and the turn.
    pub(crate) fn end_by_play<H: Host, S: EventSink>(
        &mut self,
        ends: PlayEnds,
        host: &mut H,
        sink: &mut S,
    ) {
        if !ends.turn {
            self.end_phase(None, host, sink);
            return;
        }
        self.clear_pending(sink);
        self.end_current_step(sink);
        self.end_phases_under_way(sink);
        self.carry_over_cut_short(None);
        if let Some(mods) = self.state.mods.as_mut() {
            mods.upcoming_phases.clear();
            mods.upcoming_steps.clear();
        }
        self.state.only_step = None;
        self.state.point = Point::TurnEnd;
        self.cached.forget_resume();
        self.run(host, sink);
    }

    /// The turn player elects an optional phase for this turn.
    pub(crate) fn elect(&mut self, phase: PhaseId) {
        self.mods().elected |= 1u64 << (phase.index() & 63);
    }

    /// A skipped optional phase no longer counts as elected.
    pub(crate) fn unelect(&mut self, phase: PhaseId) {
        if let Some(m) = self.state.mods.as_mut() {
            m.elected &= !(1u64 << (phase.index() & 63));
        }
    }

    /// Whether an optional phase was elected this turn.
    #[inline]
    pub(crate) fn elected(&self, phase: PhaseId) -> bool {
        self.state
            .mods
            .as_ref()
            .is_some_and(|m| m.elected & (1u64 << (phase.index() & 63)) != 0)
    }

    /// A new turn: no phase is elected yet.
    pub(crate) fn forget_elections(&mut self) {
        if let Some(m) = self.state.mods.as_mut() {
            m.elected = 0;
        }
    }

    /// After a turn ends: the first between-turns phase, if the spec has
    /// one and they have not run yet. `true` if play goes there.
    pub(crate) fn enter_between_turns(&mut self) -> bool {
        let Some(first) = self.spec.between().first().copied() else {
            return false;
        };
        let s = &mut self.state;
        s.between = true;
        s.turn_pos = 0;
        s.phase = first;
        s.point = Point::PhaseStart;
        true
    }
}

//! Turns that never end: the run-time guard behind [`Status::NeverEnds`].
//!
//! A spec can make a turn go round for ever without anyone getting a
//! decision: a step whose `repeat` keeps holding and has no window that
//! opens. Loading catches the loops it can prove (`turnspec::never-ends`);
//! the rest (a repeat on a counter a turn-based action keeps answering the
//! same way, on a fact the host set) are stopped here.
//!
//! Between two decisions the engine only moves forward through the turn,
//! except when a step begins again because of its `repeat`: that is the
//! one way a turn goes round without a player deciding anything. So the
//! engine counts, in each turn, the repeats of step instances in which
//! nobody received priority (no window opened), rather than every step it
//! begins: the count costs one store as each turn begins and nothing else
//! on the ordinary path (`GameState::quiet_repeats`, a field that fits in
//! the state's padding). Past [`MAX_REPEATS_WITHOUT_PRIORITY`] the game
//! stops with [`Status::NeverEnds`], and [`crate::Game::endless_turn`]
//! names the loop. Repeats after a window opened (Magic's cleanup loop,
//! 514.3a) are decisions and never count. (A million moves without a
//! decision, over any number of turns, is [`Status::Stalled`]: the
//! backstop for everything else.)

use turnspec_model::{PhaseId, RuleRef, Spec, StepId};

use crate::state::Status;

/// How many times in one turn steps may begin again because of their
/// `repeat`, after an instance in which nobody received priority, before
/// the game stops as [`Status::NeverEnds`]. Real turns repeat a step once
/// or twice (a second combat damage step, a cleanup step); a step
/// repeating until `repeat_count` stops at 255 repeats 255 times, so this
/// leaves room for dozens of such steps in one turn.
pub const MAX_REPEATS_WITHOUT_PRIORITY: u32 = 10_000;

/// Where a turn that never ends was going round, for a game whose status
/// is [`Status::NeverEnds`]. Ids are indices into the spec, as in events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EndlessTurn {
    /// The turn that never ends, counting from 1.
    pub turn: u32,
    /// The phase the repeating step belongs to.
    pub phase: PhaseId,
    /// The step that was about to begin again.
    pub step: StepId,
    /// Its `repeat_count` when the game stopped (the count stops at 255).
    pub repeats: u8,
    /// The rule the step's `repeat` cites; [`RuleRef::NONE`] if it cites
    /// none, or if the step was not repeating.
    pub rule: RuleRef,
}

impl EndlessTurn {
    /// A sentence for people, with the spec's ids and the rule cited.
    pub fn describe(&self, spec: &Spec) -> String {
        let phase = spec.id_of(self.phase);
        let place = match spec.step(self.step) {
            Some(step) if step.implicit => format!("phase `{phase}`"),
            _ => format!("step `{}` (phase `{phase}`)", spec.id_of(self.step)),
        };
        let mut text = format!(
            "turn {} never ends: steps began again {} times in it with no player receiving {}",
            self.turn,
            MAX_REPEATS_WITHOUT_PRIORITY,
            spec.terms().priority
        );
        if self.repeats == 0 {
            text.push_str(&format!("; it stopped at {place}"));
            return text;
        }
        text.push_str(&format!("; it was going round {place}, whose repeat"));
        if let Some(rule) = spec.rule(self.rule) {
            text.push_str(&format!(" (rule {rule})"));
        }
        text.push_str(" keeps holding");
        text
    }
}

impl crate::Game {
    /// Where the turn was going round, if the game stopped because its
    /// turn never ends ([`Status::NeverEnds`]).
    pub fn endless_turn(&self) -> Option<EndlessTurn> {
        let s = &self.state;
        if s.status != Status::NeverEnds {
            return None;
        }
        let rule = match self.spec.step(s.step).and_then(|st| st.repeat) {
            Some(r) if s.repeat > 0 => r.rule,
            _ => RuleRef::NONE,
        };
        Some(EndlessTurn {
            turn: s.turn,
            phase: s.phase,
            step: s.step,
            repeats: s.repeat,
            rule,
        })
    }
}

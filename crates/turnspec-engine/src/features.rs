//! Which of the less common mechanisms a spec uses, worked out once when a
//! game is set up, so a spec that uses none of them pays one branch on a
//! `bool` where they hook in, and nothing else.

use turnspec_model::{Spec, TriggerOrder};

/// The mechanisms beyond Magic's priority loop that a spec uses.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Features {
    /// `[priority] triggers = "bag"` (bag.rs).
    pub bag: bool,
    /// Some window has `acts = "active_player"`.
    pub solo: bool,
    /// Some phase is `optional` (elections, shape.rs).
    pub elections: bool,
    /// Counters with a `start` value (resources.rs).
    pub starts: u16,
    /// Some phase runs between turns (shape.rs).
    pub between_turns: bool,
    /// Some window closes as soon as its stack empties (GA's combat
    /// windows): otherwise a resolution need not look the window up.
    pub closes_when_stack_empty: bool,
}

impl Features {
    pub(crate) fn of(spec: &Spec) -> Features {
        let starts = spec
            .counters()
            .iter()
            .enumerate()
            .take(16)
            .filter(|(_, c)| c.start != 0)
            .fold(0u16, |acc, (i, _)| acc | 1 << i);
        Features {
            bag: spec.priority().triggers == TriggerOrder::Bag,
            solo: spec.windows().iter().any(|w| w.solo),
            elections: spec.phases().iter().any(|p| p.optional),
            starts,
            between_turns: !spec.between().is_empty(),
            closes_when_stack_empty: spec.windows().iter().any(|w| w.close_when_stack_empty),
        }
    }

    /// The turn program (program.rs) runs none of these mechanisms: a spec
    /// that uses one is run by the interpreter alone.
    pub(crate) fn need_interpreter(&self) -> bool {
        self.bag || self.solo || self.elections || self.starts != 0 || self.between_turns
    }
}

//! The index types of the model. Their numbers are private: an id is made
//! only when an element is added to a spec under construction
//! ([`crate::SpecParts::add`]) and is handed out by the spec afterwards (by
//! iteration or a by-name lookup), never from a number a caller wrote, so
//! it always names an element of the spec that made it. One of another
//! spec is answered with `None` by the spec's accessors.
//!
//! ```compile_fail
//! // An id cannot be written from a number.
//! let phase = turnspec_model::PhaseId(200);
//! ```
//!
//! ```compile_fail
//! // Nor minted from a free-standing arena: outside this crate an arena is
//! // read-only.
//! let mut arena = turnspec_model::Arena::<turnspec_model::PhaseId, ()>::default();
//! let phase = arena.alloc(());
//! ```
//!
//! ```compile_fail
//! // Nor from a free-standing set of conditions.
//! let mut conditions = turnspec_model::Conditions::default();
//! let builder = conditions.builder();
//! ```
//!
//! ```compile_fail
//! // Nor from a phase made to claim steps that were never added: a phase's
//! // steps are the ones added for it.
//! let mut phase = turnspec_model::Phase::new("main");
//! phase.step_count = 200;
//! let far = phase.steps().last();
//! ```

use crate::arena::{Id, Sealed};
use crate::limits::*;

macro_rules! index_type {
    ($(#[$m:meta])* $name:ident, $int:ty, $limit:expr, $kind:literal) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name($int);

        impl Sealed for $name {
            #[inline]
            fn from_index(index: usize) -> Self {
                debug_assert!(index < $limit);
                $name(index as $int)
            }
        }

        impl Id for $name {
            const LIMIT: usize = $limit;
            const KIND: &'static str = $kind;
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl $name {
            /// The position of the element in its arena, for arrays kept
            /// alongside the spec.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

index_type!(
    /// A phase of the spec.
    PhaseId, u8, MAX_PHASES, "phases"
);
index_type!(
    /// A step (a phase without steps has one implicit step).
    StepId, u16, MAX_STEPS, "steps"
);
index_type!(
    /// A turn-based action.
    TurnActionId, u16, MAX_TURN_ACTIONS, "turn-based actions"
);
index_type!(
    /// A priority window.
    WindowId, u16, MAX_WINDOWS, "priority windows"
);
index_type!(
    /// A timing class (sorcery speed, a land play, Grand Archive's slow...).
    TimingId, u8, MAX_TIMING_CLASSES, "timing classes"
);
index_type!(
    /// A counter kept by the engine.
    CounterId, u8, MAX_COUNTERS, "counters"
);
index_type!(
    /// A structural effect (extra turn, skip, end the turn...).
    EffectId, u8, MAX_EFFECTS, "effects"
);
index_type!(
    /// A way the game can end (`[endings.ID]`).
    EndingId, u8, MAX_ENDINGS, "endings"
);
index_type!(
    /// A yes/no fact the host sets on an object in play (`[objects.facts.ID]`).
    ObjectFactId, u8, MAX_OBJECT_FACTS, "object facts"
);
index_type!(
    /// A seat role (`[roles.ID]`): the defender, the initiative.
    RoleId, u8, MAX_ROLES, "roles"
);
index_type!(
    /// A yes/no fact the host sets.
    FactId, u8, MAX_FLAGS, "facts"
);
index_type!(
    /// A variant chosen when a game is set up.
    VariantId, u8, MAX_FLAGS, "variants"
);
index_type!(
    /// A rule citation; [`RuleRef::NONE`] when the spec cites nothing.
    RuleRef, u16, MAX_RULES, "rule citations"
);
index_type!(
    /// A compiled condition.
    CondId, u32, MAX_CONDITION_NODES, "condition nodes"
);

impl RuleRef {
    /// No citation.
    pub const NONE: RuleRef = RuleRef(u16::MAX);

    /// Whether this is [`RuleRef::NONE`].
    #[inline]
    pub fn is_none(self) -> bool {
        self == Self::NONE
    }
}

impl Default for RuleRef {
    fn default() -> Self {
        RuleRef::NONE
    }
}

// Every spec has at least one phase and one step, so the first of each is
// always a valid starting value for state that must hold one.
#[allow(clippy::derivable_impls)]
impl Default for PhaseId {
    fn default() -> Self {
        PhaseId(0)
    }
}

#[allow(clippy::derivable_impls)]
impl Default for StepId {
    fn default() -> Self {
        StepId(0)
    }
}

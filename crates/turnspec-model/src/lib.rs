//! The compiled turn-spec model: what a turn spec means once it has been
//! loaded and checked, and what the engine runs on.
//!
//! This crate has no parser and does no I/O. Its types hold the promise the
//! rest of turnspec relies on: every element lives in a typed [`Arena`];
//! an id is made only when an element is added to a spec under
//! construction ([`SpecParts::add`]), so callers can neither write one from
//! a number nor mint one from a free-standing arena; and a [`Spec`] can
//! only be made from [`SpecParts`] whose references all fit together, so
//! an id a spec handed out is always valid for that spec. An id of another
//! spec is never a panic: the accessors answer `None` for it.

#![warn(missing_docs, unreachable_pub)]

mod arena;
mod cond;
pub mod describe;
mod elements;
mod endings;
mod ids;
mod integrity;
mod limits;
mod objects;
mod roles;
mod spec;
mod stops;

pub use arena::{Arena, Id, Named};
pub use cond::{
    Atom, AtomSource, BUILTIN_ATOMS, CompareOp, ConditionBuilder, Conditions, Node, NodeRef,
    Residual,
};
pub use describe::Describe;
pub use elements::*;
pub use endings::*;
pub use ids::{
    CondId, CounterId, EffectId, EndingId, FactId, ObjectFactId, PhaseId, RoleId, RuleRef, StepId,
    TimingId, TurnActionId, VariantId, WindowId,
};
pub use limits::*;
pub use objects::*;
pub use roles::*;
pub use spec::*;
pub use stops::{StepStops, StopProfile, StopTurn, StopWhen};

//! The compiled turn-spec model: what a turn spec means once it has been
//! loaded and checked, and what the engine runs on.
//!
//! This crate has no parser and does no I/O. Its types hold the promise the
//! rest of turnspec relies on: every element lives in a typed [`Arena`],
//! every id comes from an arena (callers cannot write one from a number), and
//! a [`Spec`] can only be made from [`SpecParts`] whose references all fit
//! together, so an id a spec handed out is always valid for that spec.

#![warn(missing_docs, unreachable_pub)]

mod arena;
mod cond;
pub mod describe;
mod ids;
mod integrity;
mod limits;
mod spec;

pub use arena::{Arena, Id, Named};
pub use cond::{
    Atom, AtomSource, BUILTIN_ATOMS, CompareOp, ConditionBuilder, Conditions, Node, NodeRef,
    Residual,
};
pub use describe::Describe;
pub use ids::{
    CondId, CounterId, EffectId, FactId, PhaseId, RuleRef, StepId, TimingId, TurnActionId,
    VariantId, WindowId,
};
pub use limits::*;
pub use spec::*;

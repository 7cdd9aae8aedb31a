//! The generic turn engine: phases, steps, turn-based actions, priority
//! windows, the stack and timing classes, all as described by a compiled
//! [`turnspec_model::Spec`].
//!
//! Architecture invariants:
//! - no I/O, no randomness of its own (policies carry seeded generators);
//! - no game names: everything game-specific is in the spec;
//! - never panics on any action: refusals are [`RuleError`]s that leave the
//!   state untouched;
//! - the hot path (pass, push, resolve, advance a step) allocates nothing
//!   and compares no strings.

#![warn(missing_docs, unreachable_pub)]

mod action;
mod bag;
mod cached;
mod commands;
mod compiled;
mod ending;
mod endless;
mod error;
mod event;
mod features;
mod flow;
mod game;
mod host;
mod legal;
mod objects;
mod play_steps;
pub mod policy;
mod priority;
mod program;
mod resets;
mod resources;
mod roles;
mod seats;
mod setup;
mod shape;
mod snapshot;
mod state;
mod stops;
mod structural;
mod turn;

pub use action::Action;
pub use endless::{EndlessTurn, MAX_REPEATS_WITHOUT_PRIORITY};
pub use error::{RuleError, TimingFailure};
pub use event::{Because, Event, EventCounts, EventSink, Skipped};
pub use game::Game;
pub use host::{
    HookContext, Host, HostWrapper, NoHost, NotInGame, PlayedHook, QueuedAnswers, ResolvedHook,
    StepBeganHook, Triggers, TurnActionHook,
};
pub use legal::LegalActions;
pub use setup::{GameOptions, MAX_STACK_RESERVE, SetupError, StartAt};
pub use snapshot::{SNAPSHOT_VERSION, SnapshotError};
pub use state::{GameState, ObjectKind, Outcome, Place, PlayerId, Scope, StackObject, Status};
pub use state::{MAX_OBJECTS, ObjectInfo};
pub use stops::{
    AskedCounts, AutoPasser, DEFAULT_PASS_LIMIT, PassUntil, Stopped, StopsError,
    play_out_with_stops,
};

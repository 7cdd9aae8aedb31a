//! Comparing rule sets: how does one turn spec differ from another, and
//! what does that change in play?
//!
//! - [`mod@diff`]: a structural diff of two compiled [`Spec`]s (phases, steps,
//!   turn-based actions, windows, timing classes, settings), each difference
//!   with the rule citations on both sides;
//! - [`matrix`]: the same scenarios run under several specs, as a matrix of
//!   pass / fail / not applicable with the first diverging event;
//! - [`simulation`]: one simulated game and its counts, the one `turnspec
//!   simulate` and `turnspec compare` both play;
//! - [`stats`]: simulated turns under several specs, counted per turn.
//!
//! No I/O: callers pass compiled specs and scenario texts, and get values
//! plus text or JSON renderings back. `turnspec diff` and `turnspec compare`
//! are thin layers over this crate.
//!
//! [`Spec`]: turnspec_spec::Spec

#![warn(missing_docs, unreachable_pub)]

pub mod diff;
pub mod matrix;
pub mod simulation;
pub mod stats;

pub use diff::{Change, Entry, Section, SpecDiff, diff};
pub use matrix::{Cell, Divergence, Matrix, Row, ScenarioText, SpecColumn, run_matrix};
pub use stats::{SpecStats, StatsOptions, StatsPolicy, simulate};

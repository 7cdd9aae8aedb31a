//! The turn-spec format: TOML in, a validated [`Spec`] out.
//!
//! Two stages, as in cargo and ripgrep: [`raw`] mirrors the file (every value
//! keeps its span), [`compile`] resolves names to indices, parses conditions
//! and checks the whole structure, reporting every problem together as
//! [`Diagnostic`]s. Nothing here touches the file system: callers pass text.

pub mod compile;
pub mod cond;
pub mod diag;
pub mod inherit;
mod loops;
pub mod model;
pub mod raw;

pub use compile::{load_str, load_with};
pub use cond::{Atom, AtomSource, CondId};
pub use diag::{Diagnostic, Report, Severity};
pub use inherit::ReadBase;
pub use model::*;

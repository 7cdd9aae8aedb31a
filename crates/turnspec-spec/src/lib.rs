//! The turn-spec format: TOML in, a validated [`Spec`] out.
//!
//! Two stages, as in cargo and ripgrep: the raw schema mirrors the file
//! (every value keeps its span); compiling resolves names to ids, parses
//! conditions and checks the whole structure, reporting every problem
//! together as [`Diagnostic`]s. The result is a [`turnspec_model::Spec`],
//! re-exported here. Nothing here touches the file system: callers pass
//! text.

#![warn(missing_docs, unreachable_pub)]

mod compile;
mod cond;
mod diag;
mod inherit;
mod loops;
mod raw;
pub mod schema;
mod stops;

pub use compile::{load_str, load_with};
pub use diag::{Diagnostic, Related, Report, Segment, Severity, line_col};
pub use inherit::ReadBase;
pub use schema::suggest;
pub use stops::{load_stops, stops_json_schema};
pub use turnspec_model::*;

//! The comparison tools' tests, in one binary: one link instead of 5, and the
//! crate's generic code compiled once for all of them (the first `cargo
//! test` is most of a new user's first hour).

mod common;
mod diff;
mod diff_coverage;
mod matrix;
mod simulation;
mod stats;

//! The trace printers' tests, in one binary: one link instead of 3, and the
//! crate's generic code compiled once for all of them (the first `cargo
//! test` is most of a new user's first hour).

mod foreign_events;
mod golden;
mod turn_effects;

//! The scenario runner's tests, in one binary: one link instead of 5, and the
//! crate's generic code compiled once for all of them (the first `cargo
//! test` is most of a new user's first hour).

mod conformance;
mod files;
mod scenarios;
mod turn_bound;
mod unknown_keys;

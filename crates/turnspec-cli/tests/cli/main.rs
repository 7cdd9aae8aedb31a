//! The command line's tests, in one binary: one link instead of 13, and the
//! crate's generic code compiled once for all of them (the first `cargo
//! test` is most of a new user's first hour).

mod cli;
mod common;
mod completions;
mod conventions;
mod diagrams;
mod diff_compare;
mod discovery;
mod explain;
mod explore;
mod graph;
mod output;
mod replay;
mod schema;
mod serve;
mod stops;

//! The engine's integration tests, in one binary: one link instead of 14, and the
//! crate's generic code compiled once for all of them (the first `cargo
//! test` is most of a new user's first hour).

mod commands;
mod compiled;
mod endless;
mod forwarding;
mod game_end;
mod invariants;
mod layering;
mod library_misuse;
mod no_panic;
mod objects;
mod program;
mod snapshot;
mod stops;
mod support;
mod transitions;
mod turn_shapes;
mod workloads;

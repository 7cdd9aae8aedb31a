//! The workbench server's tests, in one binary: one link instead of 2, and the
//! crate's generic code compiled once for all of them (the first `cargo
//! test` is most of a new user's first hour).

mod api;
mod stops;

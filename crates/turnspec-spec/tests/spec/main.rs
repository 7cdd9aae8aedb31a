//! The loader's tests, in one binary: one link instead of 6, and the
//! crate's generic code compiled once for all of them (the first `cargo
//! test` is most of a new user's first hour).

mod common;
mod inherit;
mod limits;
mod locations;
mod no_panic;
mod stops;
mod unknown_keys;
mod validation;

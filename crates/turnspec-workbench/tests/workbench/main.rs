//! The workbench's tests, in one binary (one link instead of several).

mod record;
mod studio;

//! `turnspec._core`: the Rust half of the Python package (docs/python.md).
//!
//! The Python half (`python/turnspec`) defines the exceptions, the
//! diagnostics, the result tables and the OpenSpiel and PettingZoo views;
//! this module loads specs, runs games and calls the analysis crates.
//! Nothing here may panic on any input: every failure becomes a Python
//! exception, and an exception raised by a host hook written in Python is
//! kept and raised again once the engine call has returned.

mod analysis;
mod convert;
mod errors;
mod game;
mod host;
mod spec;

use pyo3::prelude::*;

use game::PyGame;
use spec::{PySpec, check, load, loads};

/// The package's native half.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySpec>()?;
    m.add_class::<PyGame>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    analysis::register(m)?;
    Ok(())
}

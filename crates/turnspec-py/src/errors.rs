//! The exceptions of `turnspec._errors`, raised from Rust.

use pyo3::prelude::*;
use serde_json::Value;
use turnspec_spec::Report;

use crate::convert::to_py;

/// An exception class of `turnspec._errors`, called with `args`.
pub(crate) fn error_of<'py>(
    py: Python<'py>,
    class: &str,
    args: impl pyo3::call::PyCallArgs<'py>,
) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let cls = py.import("turnspec._errors")?.getattr(class)?;
        let value = cls.call1(args)?;
        Ok(PyErr::from_value(value))
    })();
    made.unwrap_or_else(|e| e)
}

/// `SpecError` (or the diagnostics list, for `check`) from a report.
pub(crate) fn diagnostics_of<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyAny>> {
    let json = Value::Array(report.to_json());
    let raw = to_py(py, &json)?;
    py.import("turnspec._errors")?
        .getattr("_diagnostics")?
        .call1((raw,))
}

pub(crate) fn spec_error(py: Python<'_>, report: &Report) -> PyErr {
    match diagnostics_of(py, report) {
        Ok(list) => error_of(py, "SpecError", (list,)),
        Err(e) => e,
    }
}

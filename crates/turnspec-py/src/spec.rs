//! The `Spec` class and the functions that load and check specs.

use std::path::Path;

use pyo3::prelude::*;
use turnspec_spec::{Report, Spec};

use crate::errors::{diagnostics_of, spec_error};

/// Reads a spec file and every base it `extends`, relative to the file
/// that names it.
fn load_text(path: &str, text: &str) -> Result<(Spec, Report), Report> {
    turnspec_spec::load_with(path, text, &mut |base: &str, from: &str| {
        let dir = Path::new(from).parent().unwrap_or(Path::new(""));
        let full = dir.join(base);
        let shown = full.to_string_lossy().into_owned();
        std::fs::read_to_string(&full)
            .map(|t| (shown.clone(), t))
            .map_err(|e| format!("cannot read {shown}: {e}"))
    })
}

/// A loaded, checked spec. Made by `turnspec.load` or `turnspec.loads`.
#[pyclass(module = "turnspec._core", name = "Spec", frozen)]
pub(crate) struct PySpec {
    pub(crate) spec: Spec,
    path: String,
    warnings: Report,
}

fn ids<I, It>(spec: &Spec, items: It) -> Vec<String>
where
    I: turnspec_model::Part,
    I::Item: turnspec_model::Named,
    It: Iterator<Item = I>,
{
    items.map(|id| spec.id_of(id).to_string()).collect()
}

#[pymethods]
impl PySpec {
    /// The file the spec was loaded from (or the `path` given to `loads`).
    #[getter]
    fn path(&self) -> &str {
        &self.path
    }
    /// "Name — edition (date)".
    #[getter]
    fn title(&self) -> String {
        self.spec.title()
    }
    /// The game's name.
    #[getter]
    fn name(&self) -> &str {
        &self.spec.game().name
    }
    /// The edition, empty if the spec gives none.
    #[getter]
    fn edition(&self) -> &str {
        &self.spec.game().edition
    }
    #[getter]
    fn min_players(&self) -> u8 {
        self.spec.game().min_players
    }
    #[getter]
    fn max_players(&self) -> u8 {
        self.spec.game().max_players
    }
    /// Every phase id, in the spec's order.
    #[getter]
    fn phases(&self) -> Vec<String> {
        ids(&self.spec, self.spec.phases().ids())
    }
    /// Every step id, in the spec's order.
    #[getter]
    fn steps(&self) -> Vec<String> {
        ids(&self.spec, self.spec.steps().ids())
    }
    /// Every timing class id, in the spec's order.
    #[getter]
    fn timing_classes(&self) -> Vec<String> {
        ids(&self.spec, self.spec.timing().ids())
    }
    /// Every turn-based action id.
    #[getter]
    fn turn_actions(&self) -> Vec<String> {
        ids(&self.spec, self.spec.turn_actions().ids())
    }
    /// Every structural effect id.
    #[getter]
    fn effects(&self) -> Vec<String> {
        ids(&self.spec, self.spec.effects().ids())
    }
    /// Every ending id (`[endings.ID]`).
    #[getter]
    fn endings(&self) -> Vec<String> {
        ids(&self.spec, self.spec.endings().ids())
    }
    /// Every fact id.
    #[getter]
    fn facts(&self) -> Vec<String> {
        ids(&self.spec, self.spec.facts().ids())
    }
    /// Every counter id.
    #[getter]
    fn counters(&self) -> Vec<String> {
        ids(&self.spec, self.spec.counters().ids())
    }
    /// The loader's warnings, as `Diagnostic`s.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        diagnostics_of(py, &self.warnings)
    }
    fn __repr__(&self) -> String {
        format!(
            "<turnspec.Spec {:?} from {:?}>",
            self.spec.title(),
            self.path
        )
    }
}

/// Loads and checks the spec at `path` (and the specs it `extends`).
/// Raises `SpecError` with every diagnostic if it has errors.
#[pyfunction]
pub(crate) fn load(py: Python<'_>, path: &str) -> PyResult<PySpec> {
    let text = std::fs::read_to_string(path)?;
    loads(py, &text, path)
}

/// Loads and checks a spec from its text; `path` names it in diagnostics
/// and is where `extends` looks for bases.
#[pyfunction]
#[pyo3(signature = (text, path = "<string>"))]
pub(crate) fn loads(py: Python<'_>, text: &str, path: &str) -> PyResult<PySpec> {
    match load_text(path, text) {
        Ok((spec, warnings)) => Ok(PySpec {
            spec,
            path: path.to_string(),
            warnings,
        }),
        Err(report) => Err(spec_error(py, &report)),
    }
}

/// Every diagnostic of the spec at `path`, errors and warnings, as a list
/// of `Diagnostic` (empty for a clean spec). Raises only `OSError`.
#[pyfunction]
pub(crate) fn check<'py>(py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyAny>> {
    let text = std::fs::read_to_string(path)?;
    match load_text(path, &text) {
        Ok((_, warnings)) => diagnostics_of(py, &warnings),
        Err(report) => diagnostics_of(py, &report),
    }
}

//! Values between Rust and Python: JSON values, players, stack objects.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde_json::Value;
use turnspec_engine::{ObjectKind, PlayerId, StackObject};
use turnspec_spec::Spec;

/// A JSON value as the Python value `json.loads` would give.
pub(crate) fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// "P1" for seat 0, as the traces and scenarios name players.
pub(crate) fn player_name(p: PlayerId) -> String {
    format!("P{}", u32::from(p.0) + 1)
}

/// A player given as "P1".."Pn" (as traces print them) or as a 0-based
/// seat index.
pub(crate) fn player_of(obj: &Bound<'_, PyAny>) -> PyResult<PlayerId> {
    if let Ok(s) = obj.extract::<String>() {
        let n = s
            .strip_prefix('P')
            .or_else(|| s.strip_prefix('p'))
            .and_then(|d| d.parse::<u16>().ok())
            .filter(|n| (1..=255).contains(n))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "not a player: {s:?} (P1, P2... or a seat index from 0)"
                ))
            })?;
        return Ok(PlayerId((n - 1) as u8));
    }
    if let Ok(i) = obj.extract::<i64>() {
        return u8::try_from(i)
            .ok()
            .filter(|i| *i < u8::MAX)
            .map(PlayerId)
            .ok_or_else(|| PyValueError::new_err(format!("not a seat index: {i}")));
    }
    Err(PyTypeError::new_err(
        "a player is a string such as \"P1\" or a seat index from 0",
    ))
}

pub(crate) fn object_dict<'py>(
    py: Python<'py>,
    spec: &Spec,
    o: &StackObject,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("controller", player_name(o.controller))?;
    match o.kind {
        ObjectKind::Play(t) => {
            d.set_item("kind", "play")?;
            d.set_item("timing", spec.id_of(t))?;
        }
        ObjectKind::Trigger => d.set_item("kind", "trigger")?,
        ObjectKind::TurnAction(a) => {
            d.set_item("kind", "turn_action")?;
            d.set_item("action", spec.id_of(a))?;
        }
    }
    d.set_item("label", o.label)?;
    Ok(d)
}

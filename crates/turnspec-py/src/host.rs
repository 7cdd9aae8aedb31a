//! The engine's host for a game, calling the hooks written in Python.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use turnspec_engine::{
    HookContext, Host, PlayedHook, ResolvedHook, StepBeganHook, Triggers, TurnActionHook,
};
use turnspec_spec::Spec;

use crate::convert::{object_dict, player_name, player_of};
use crate::errors::error_of;

/// The host's hooks, looked up once when the host is set.
#[derive(Default)]
pub(crate) struct Hooks {
    pub(crate) host: Option<Py<PyAny>>,
    turn_action: Option<Py<PyAny>>,
    played: Option<Py<PyAny>>,
    step_began: Option<Py<PyAny>>,
    resolved: Option<Py<PyAny>>,
}

impl Hooks {
    pub(crate) fn of(host: Option<&Bound<'_, PyAny>>) -> PyResult<Hooks> {
        let Some(host) = host.filter(|h| !h.is_none()) else {
            return Ok(Hooks::default());
        };
        let get = |name: &str| -> PyResult<Option<Py<PyAny>>> {
            if host.hasattr(name)? {
                let f = host.getattr(name)?;
                if f.is_none() {
                    return Ok(None);
                }
                if !f.is_callable() {
                    return Err(PyTypeError::new_err(format!("host.{name} is not callable")));
                }
                Ok(Some(f.unbind()))
            } else {
                Ok(None)
            }
        };
        Ok(Hooks {
            host: Some(host.clone().unbind()),
            turn_action: get("turn_action")?,
            played: get("played")?,
            step_began: get("step_began")?,
            resolved: get("resolved")?,
        })
    }

    pub(crate) fn clone_ref(&self, py: Python<'_>) -> Hooks {
        let c = |o: &Option<Py<PyAny>>| o.as_ref().map(|f| f.clone_ref(py));
        Hooks {
            host: c(&self.host),
            turn_action: c(&self.turn_action),
            played: c(&self.played),
            step_began: c(&self.step_began),
            resolved: c(&self.resolved),
        }
    }
}

/// The engine's `Host` calling the Python hooks. The first exception a
/// hook raises is kept in `error`; later hooks of the same call are not
/// called, and the engine gets the default answers.
pub(crate) struct PyHost<'a, 'py> {
    pub(crate) py: Python<'py>,
    pub(crate) spec: &'a Spec,
    pub(crate) hooks: &'a Hooks,
    pub(crate) error: Option<PyErr>,
}

impl<'py> PyHost<'_, 'py> {
    fn context(&self, py: Python<'py>, ctx: &HookContext) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("turn", ctx.turn)?;
        d.set_item("active", player_name(ctx.active))?;
        d.set_item("phase", self.spec.id_of(ctx.phase))?;
        d.set_item("step", self.spec.id_of(ctx.step))?;
        d.set_item("repeat", ctx.repeat)?;
        Ok(d)
    }

    /// Calls `f(hook)`; returns what it returned, or keeps the error.
    fn call(
        &mut self,
        f: &Py<PyAny>,
        hook: PyResult<Bound<'py, PyDict>>,
    ) -> Option<Bound<'py, PyAny>> {
        if self.error.is_some() {
            return None;
        }
        match hook.and_then(|h| f.bind(self.py).call1((h,))) {
            Ok(v) => Some(v),
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    /// Reports the triggers in `value` (an iterable of `(player, label)`).
    fn report(&mut self, value: &Bound<'_, PyAny>, triggers: &mut Triggers<'_>) {
        if value.is_none() || self.error.is_some() {
            return;
        }
        let result = (|| -> PyResult<()> {
            for item in value.try_iter()? {
                let item = item?;
                let (player, label): (Bound<'_, PyAny>, u32) = item.extract().map_err(|_| {
                    PyTypeError::new_err(
                        "a hook returns triggers as (player, label) pairs, label an int from 0",
                    )
                })?;
                let player = player_of(&player)?;
                if let Err(e) = triggers.add(player, label) {
                    return Err(error_of(
                        self.py,
                        "HostError",
                        (format!("a trigger for a player not in the game: {e}"),),
                    ));
                }
            }
            Ok(())
        })();
        if let Err(e) = result {
            self.error = Some(e);
        }
    }
}

impl Host for PyHost<'_, '_> {
    fn turn_action(&mut self, mut hook: TurnActionHook<'_>) -> u16 {
        let hooks = self.hooks;
        let Some(f) = hooks.turn_action.as_ref() else {
            return 0;
        };
        let py = self.py;
        let dict = self.context(py, &hook.ctx).and_then(|d| {
            d.set_item("action", self.spec.id_of(hook.action))?;
            Ok(d)
        });
        let Some(value) = self.call(f, dict) else {
            return 0;
        };
        // An int, or (int, triggers).
        let (answer, triggers) = if let Ok(t) = value.cast::<PyTuple>() {
            match (t.get_item(0), t.get_item(1)) {
                (Ok(a), Ok(tr)) if t.len() == 2 => (a, Some(tr)),
                _ => {
                    self.error = Some(PyTypeError::new_err(
                        "turn_action returns an int or (int, triggers)",
                    ));
                    return 0;
                }
            }
        } else {
            (value, None)
        };
        let answer = if answer.is_none() {
            0
        } else {
            match answer.extract::<i64>() {
                Ok(n) => n.clamp(0, i64::from(u16::MAX)) as u16,
                Err(_) => {
                    self.error = Some(PyTypeError::new_err(
                        "turn_action's answer is an int (or None for 0)",
                    ));
                    return 0;
                }
            }
        };
        if let Some(tr) = triggers {
            self.report(&tr, &mut hook.triggers);
        }
        answer
    }

    fn played(&mut self, mut hook: PlayedHook<'_>) {
        let hooks = self.hooks;
        let Some(f) = hooks.played.as_ref() else {
            return;
        };
        let py = self.py;
        let dict = self.context(py, &hook.ctx).and_then(|d| {
            d.set_item("player", player_name(hook.player))?;
            d.set_item("timing", self.spec.id_of(hook.timing))?;
            d.set_item("label", hook.label)?;
            Ok(d)
        });
        if let Some(v) = self.call(f, dict) {
            self.report(&v, &mut hook.triggers);
        }
    }

    fn step_began(&mut self, mut hook: StepBeganHook<'_>) {
        let hooks = self.hooks;
        let Some(f) = hooks.step_began.as_ref() else {
            return;
        };
        let py = self.py;
        let dict = self.context(py, &hook.ctx);
        if let Some(v) = self.call(f, dict) {
            self.report(&v, &mut hook.triggers);
        }
    }

    fn resolved(&mut self, mut hook: ResolvedHook<'_>) {
        let hooks = self.hooks;
        let Some(f) = hooks.resolved.as_ref() else {
            return;
        };
        let py = self.py;
        let dict = self.context(py, &hook.ctx).and_then(|d| {
            d.set_item("object", object_dict(py, self.spec, &hook.object)?)?;
            Ok(d)
        });
        if let Some(v) = self.call(f, dict) {
            self.report(&v, &mut hook.triggers);
        }
    }
}

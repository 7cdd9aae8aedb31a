//! Moves and names between Python and the engine: move dicts, phase or step ids.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use turnspec_engine::{Action, Place, PlayerId};

use super::PyGame;
use crate::convert::{player_name, player_of};

impl PyGame {
    pub(super) fn lookup<T>(&self, what: &str, id: &str, found: Option<T>) -> PyResult<T> {
        found.ok_or_else(|| {
            PyValueError::new_err(format!("{} has no {what} {id:?}", self.spec.title()))
        })
    }

    /// A phase or step by id: "step:ID" or "phase:ID", or a bare id,
    /// a step's first.
    pub(super) fn place(&self, at: &str) -> PyResult<Place> {
        let step = |id: &str| self.spec.step_by_id(id).map(Place::Step);
        let phase = |id: &str| self.spec.phase_by_id(id).map(Place::Phase);
        let found = if let Some(id) = at.strip_prefix("step:") {
            step(id)
        } else if let Some(id) = at.strip_prefix("phase:") {
            phase(id)
        } else {
            step(at).or_else(|| phase(at))
        };
        self.lookup("phase or step", at, found)
    }

    pub(super) fn parse_move(&self, mv: &Bound<'_, PyAny>) -> PyResult<Action> {
        if let Ok(s) = mv.cast::<PyString>() {
            if s.to_str()? == "pass" {
                return Ok(Action::Pass {
                    player: self.game.holder().unwrap_or_default(),
                });
            }
            return Err(PyValueError::new_err(
                "a move is \"pass\" (the holder passes) or a dict: {\"pass\": \"P1\"}, {\"play\": TIMING, \"by\": \"P1\", \"label\": 0}, {\"leave\": \"P1\"}, {\"choose\": LABEL, \"by\": \"P1\"}",
            ));
        }
        let d = mv.cast::<PyDict>().map_err(|_| {
            PyTypeError::new_err("a move is \"pass\" or a dict such as {\"pass\": \"P1\"}")
        })?;
        let by = || -> PyResult<PlayerId> {
            match d.get_item("by")? {
                Some(p) => player_of(&p),
                None => self.game.holder().ok_or_else(|| {
                    PyValueError::new_err(
                        "the move names no player (\"by\") and nobody holds priority",
                    )
                }),
            }
        };
        let label = || -> PyResult<u32> {
            match d.get_item("label")? {
                Some(l) if !l.is_none() => l
                    .extract::<u32>()
                    .map_err(|_| PyValueError::new_err("a label is an int from 0 to 2**32 - 1")),
                _ => Ok(0),
            }
        };
        if let Some(p) = d.get_item("pass")? {
            return Ok(Action::Pass {
                player: player_of(&p)?,
            });
        }
        if let Some(t) = d.get_item("play")? {
            let t: String = t.extract()?;
            let timing = self.lookup("timing class", &t, self.spec.timing_by_id(&t))?;
            return Ok(Action::Play {
                player: by()?,
                timing,
                label: label()?,
            });
        }
        if let Some(p) = d.get_item("leave")? {
            return Ok(Action::Leave {
                player: player_of(&p)?,
            });
        }
        if let Some(l) = d.get_item("choose")? {
            let label = l
                .extract::<u32>()
                .map_err(|_| PyValueError::new_err("choose takes a label, an int from 0"))?;
            return Ok(Action::Choose {
                player: by()?,
                label,
            });
        }
        Err(PyValueError::new_err(
            "a move dict has one of the keys pass, play, leave, choose",
        ))
    }

    pub(super) fn move_dict<'py>(
        &self,
        py: Python<'py>,
        action: Action,
    ) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        match action {
            Action::Pass { player } => d.set_item("pass", player_name(player))?,
            Action::Play {
                player,
                timing,
                label,
            } => {
                d.set_item("play", self.spec.id_of(timing))?;
                d.set_item("by", player_name(player))?;
                d.set_item("label", label)?;
            }
            Action::Leave { player } => d.set_item("leave", player_name(player))?,
            Action::Choose { player, label } => {
                d.set_item("choose", label)?;
                d.set_item("by", player_name(player))?;
            }
        }
        Ok(d)
    }
}

pub(super) fn action_player(a: Action) -> PlayerId {
    match a {
        Action::Pass { player }
        | Action::Play { player, .. }
        | Action::Leave { player }
        | Action::Choose { player, .. } => player,
    }
}

//! `turnspec._core`: the Rust half of the Python package (docs/python.md).
//!
//! The Python half (`python/turnspec`) defines the exceptions, the
//! diagnostics, the result tables and the OpenSpiel and PettingZoo views;
//! this module loads specs, runs games and calls the analysis crates.
//! Nothing here may panic on any input: every failure becomes a Python
//! exception, and an exception raised by a host hook written in Python is
//! kept and raised again once the engine call has returned.

use std::path::Path;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use serde_json::Value;
use turnspec_engine::policy::{AllPass, BusyPolicy, Policy, RandomPolicy, decide_and_apply};
use turnspec_engine::{
    Action, Event, EventSink, Game, GameOptions, HookContext, Host, ObjectKind, Place, PlayedHook,
    PlayerId, ResolvedHook, RuleError, Scope, StackObject, Status, StepBeganHook, Triggers,
    TurnActionHook,
};
use turnspec_spec::{Report, Spec};

mod analysis;

// --- helpers -------------------------------------------------------------

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
fn diagnostics_of<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyAny>> {
    let json = Value::Array(report.to_json());
    let raw = to_py(py, &json)?;
    py.import("turnspec._errors")?
        .getattr("_diagnostics")?
        .call1((raw,))
}

fn spec_error(py: Python<'_>, report: &Report) -> PyErr {
    match diagnostics_of(py, report) {
        Ok(list) => error_of(py, "SpecError", (list,)),
        Err(e) => e,
    }
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

// --- Spec ----------------------------------------------------------------

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
fn load(py: Python<'_>, path: &str) -> PyResult<PySpec> {
    let text = std::fs::read_to_string(path)?;
    loads(py, &text, path)
}

/// Loads and checks a spec from its text; `path` names it in diagnostics
/// and is where `extends` looks for bases.
#[pyfunction]
#[pyo3(signature = (text, path = "<string>"))]
fn loads(py: Python<'_>, text: &str, path: &str) -> PyResult<PySpec> {
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
fn check<'py>(py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyAny>> {
    let text = std::fs::read_to_string(path)?;
    match load_text(path, &text) {
        Ok((_, warnings)) => diagnostics_of(py, &warnings),
        Err(report) => diagnostics_of(py, &report),
    }
}

// --- host hooks written in Python ---------------------------------------

/// The host's hooks, looked up once when the host is set.
#[derive(Default)]
struct Hooks {
    host: Option<Py<PyAny>>,
    turn_action: Option<Py<PyAny>>,
    played: Option<Py<PyAny>>,
    step_began: Option<Py<PyAny>>,
    resolved: Option<Py<PyAny>>,
}

impl Hooks {
    fn of(host: Option<&Bound<'_, PyAny>>) -> PyResult<Hooks> {
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

    fn clone_ref(&self, py: Python<'_>) -> Hooks {
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
struct PyHost<'a, 'py> {
    py: Python<'py>,
    spec: &'a Spec,
    hooks: &'a Hooks,
    error: Option<PyErr>,
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

fn object_dict<'py>(py: Python<'py>, spec: &Spec, o: &StackObject) -> PyResult<Bound<'py, PyDict>> {
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

// --- Game ----------------------------------------------------------------

/// A game of a spec: the players' moves, the host's commands, its events.
#[pyclass(module = "turnspec._core", name = "Game")]
pub(crate) struct PyGame {
    spec_obj: Py<PySpec>,
    spec: Spec,
    game: Game,
    hooks: Hooks,
    events: Vec<Event>,
    record: bool,
    started: bool,
}

/// Where events go: the buffer, or nowhere when recording is off.
enum Sink<'a> {
    Keep(&'a mut Vec<Event>),
    Drop,
}

impl EventSink for Sink<'_> {
    #[inline]
    fn event(&mut self, event: Event) {
        if let Sink::Keep(v) = self {
            v.push(event);
        }
    }
}

fn rule_text(spec: &Spec, e: &RuleError) -> Option<String> {
    spec.rule(e.rule()).map(str::to_string)
}

fn illegal(py: Python<'_>, spec: &Spec, e: &RuleError) -> PyErr {
    error_of(
        py,
        "IllegalMove",
        (e.describe(spec), rule_text(spec, e), e.reason()),
    )
}

impl PyGame {
    /// Runs `f` with the Python host and the event sink; raises the host's
    /// exception if one was raised, else maps a refusal to `IllegalMove`.
    fn with_host<T>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut Game, &mut PyHost<'_, '_>, &mut Sink<'_>) -> Result<T, RuleError>,
    ) -> PyResult<T> {
        let mut host = PyHost {
            py,
            spec: &self.spec,
            hooks: &self.hooks,
            error: None,
        };
        let mut sink = if self.record {
            Sink::Keep(&mut self.events)
        } else {
            Sink::Drop
        };
        let result = f(&mut self.game, &mut host, &mut sink);
        if let Some(e) = host.error.take() {
            return Err(e);
        }
        result.map_err(|e| illegal(py, &self.spec, &e))
    }

    fn ensure_started(&mut self, py: Python<'_>) -> PyResult<()> {
        if !self.started {
            self.started = true;
            self.with_host(py, |g, h, s| {
                g.start(h, s);
                Ok(())
            })?;
        }
        Ok(())
    }

    fn lookup<T>(&self, what: &str, id: &str, found: Option<T>) -> PyResult<T> {
        found.ok_or_else(|| {
            PyValueError::new_err(format!("{} has no {what} {id:?}", self.spec.title()))
        })
    }

    /// A phase or step by id: "step:ID" or "phase:ID", or a bare id,
    /// a step's first.
    fn place(&self, at: &str) -> PyResult<Place> {
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

    fn parse_move(&self, mv: &Bound<'_, PyAny>) -> PyResult<Action> {
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

    fn move_dict<'py>(&self, py: Python<'py>, action: Action) -> PyResult<Bound<'py, PyDict>> {
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

#[pymethods]
impl PyGame {
    /// A new game of `spec` for `players` players. `host`: an object whose
    /// methods `turn_action`, `played`, `step_began`, `resolved` (each
    /// optional) the engine calls. `start=False` leaves the game before
    /// its first step until `start()` (or the first move).
    #[new]
    #[pyo3(signature = (spec, players = 2, *, starting_player = None, turn_limit = None, host = None, record_events = true, start = true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        spec: Bound<'_, PySpec>,
        players: u8,
        starting_player: Option<Bound<'_, PyAny>>,
        turn_limit: Option<u32>,
        host: Option<Bound<'_, PyAny>>,
        record_events: bool,
        start: bool,
    ) -> PyResult<PyGame> {
        let inner = spec.get().spec.clone();
        let mut options = GameOptions::players(players);
        if let Some(p) = starting_player {
            options.starting_player = player_of(&p)?;
        }
        let mut game = Game::new(&inner, &options)
            .map_err(|e| error_of(py, "SetupError", (e.to_string(),)))?;
        if let Some(t) = turn_limit {
            game.set_turn_limit(t);
        }
        let mut g = PyGame {
            spec_obj: spec.unbind(),
            spec: inner,
            game,
            hooks: Hooks::of(host.as_ref())?,
            events: Vec::new(),
            record: record_events,
            started: false,
        };
        if start {
            g.ensure_started(py)?;
        }
        Ok(g)
    }

    /// Runs the game to its first decision (done by the constructor unless
    /// `start=False`). Does nothing once started.
    fn start(&mut self, py: Python<'_>) -> PyResult<()> {
        self.ensure_started(py)
    }

    /// Whether the game has started.
    #[getter]
    fn started(&self) -> bool {
        self.started
    }

    /// The spec this game plays.
    #[getter]
    fn spec(&self, py: Python<'_>) -> Py<PySpec> {
        self.spec_obj.clone_ref(py)
    }

    /// The host object (or None).
    #[getter]
    fn host(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.hooks.host.as_ref().map(|h| h.clone_ref(py))
    }

    /// Sets (or with None removes) the host.
    #[setter]
    fn set_host(&mut self, host: Option<Bound<'_, PyAny>>) -> PyResult<()> {
        self.hooks = Hooks::of(host.as_ref())?;
        Ok(())
    }

    /// Stops the game when turn `turn` is over (status "turn_limit").
    fn set_turn_limit(&mut self, turn: u32) {
        self.game.set_turn_limit(turn);
    }

    #[getter]
    fn players(&self) -> u8 {
        self.game.players()
    }
    #[getter]
    fn turn(&self) -> u32 {
        self.game.turn()
    }
    /// The active player, "P1"...
    #[getter]
    fn active_player(&self) -> String {
        player_name(self.game.active_player())
    }
    /// Who must decide now ("P1"...), or None when the game is not running.
    #[getter]
    fn holder(&self) -> Option<String> {
        self.game.holder().map(player_name)
    }
    /// The current phase id.
    #[getter]
    fn phase(&self) -> String {
        self.spec.id_of(self.game.phase()).to_string()
    }
    /// The current step id (a step-less phase: the phase's own id).
    #[getter]
    fn step(&self) -> String {
        self.spec.id_of(self.game.step()).to_string()
    }
    /// Passes in a row in the current window.
    #[getter]
    fn passes(&self) -> u8 {
        self.game.passes()
    }
    /// The stack, bottom first, as dicts: controller, kind, timing or
    /// action, label.
    #[getter]
    fn stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for o in self.game.stack() {
            list.append(object_dict(py, &self.spec, o)?)?;
        }
        Ok(list)
    }
    /// "running", "over", "turn_limit", "stalled", "no_players",
    /// "never_ends".
    #[getter]
    fn status(&self) -> &'static str {
        self.game.status().name()
    }
    /// Whether the game is still running (a player must decide).
    #[getter]
    fn running(&self) -> bool {
        self.game.status() == Status::Running
    }
    /// For a game that is over: {"winners": ["P1"], "draw": False, "rule": "104.2a"}.
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(o) = self.game.outcome() else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        let winners: Vec<String> = o.winners().map(player_name).collect();
        d.set_item("winners", winners)?;
        d.set_item("draw", o.is_draw())?;
        d.set_item("rule", self.spec.rule(o.rule()))?;
        Ok(Some(d))
    }
    /// A counter's value: the game's, or `player`'s for a per-player one.
    #[pyo3(signature = (counter, player = None))]
    fn counter(&self, counter: &str, player: Option<Bound<'_, PyAny>>) -> PyResult<Option<u16>> {
        let id = self.lookup("counter", counter, self.spec.counter_by_id(counter))?;
        Ok(match player {
            Some(p) => self.game.counter_of(id, player_of(&p)?),
            None => Some(self.game.counter(id)),
        })
    }
    /// Whether `player` is seated and has not left the game.
    fn in_game(&self, player: Bound<'_, PyAny>) -> PyResult<bool> {
        let p = player_of(&player)?;
        Ok(p.0 < self.game.players() && self.game.state().is_in(p))
    }
    /// Whether a fact is set.
    fn fact(&self, fact: &str) -> PyResult<bool> {
        let id = self.lookup("fact", fact, self.spec.fact_by_id(fact))?;
        Ok(self.game.fact(id))
    }

    /// The legal moves of `player` (default: the holder) as move dicts:
    /// a pass first, then each play.
    #[pyo3(signature = (player = None))]
    fn legal_moves<'py>(
        &self,
        py: Python<'py>,
        player: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        let p = match player {
            Some(p) => player_of(&p)?,
            None => match self.game.holder() {
                Some(p) => p,
                None => return Ok(list),
            },
        };
        if !self.started {
            return Ok(list);
        }
        for a in self.game.legal_actions(p) {
            list.append(self.move_dict(py, a)?)?;
        }
        Ok(list)
    }

    /// Checks and makes a move ("pass", or a dict: {"pass": "P1"},
    /// {"play": "instant", "by": "P1", "label": 7}, {"leave": "P2"},
    /// {"choose": 3, "by": "P1"}), then runs to the next decision. A
    /// refused move raises `IllegalMove` and changes nothing.
    fn apply(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.ensure_started(py)?;
        let action = self.parse_move(r#move)?;
        self.with_host(py, |g, h, s| g.apply(action, h, s))
    }

    /// Whether a move is legal now, without making it.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let action = self.parse_move(r#move)?;
        if !self.started {
            return Ok(false);
        }
        Ok(match action {
            Action::Pass { player } => {
                self.game.holder() == Some(player)
                    && self.game.legal_actions(player).any(|a| a == action)
            }
            Action::Play {
                player,
                timing,
                label,
            } => self.game.check_play(player, timing, label).is_ok(),
            _ => self
                .game
                .legal_actions(action_player(action))
                .any(|a| a == action),
        })
    }

    /// Plays `turns` more turns inside Rust with a built-in policy
    /// ("all-pass", "busy" or "random" with `seed`), stopping early if the
    /// game stops. The policy is the host meanwhile: the Python host is
    /// not called. Returns the number of decisions taken.
    #[pyo3(signature = (turns, policy = "all-pass", seed = 0))]
    fn play_turns(&mut self, py: Python<'_>, turns: u32, policy: &str, seed: u64) -> PyResult<u64> {
        self.ensure_started(py)?;
        let end = self.game.turn().saturating_add(turns);
        let spec = self.spec.clone();
        match policy {
            "all-pass" => Ok(self.drive(&mut AllPass, end)),
            "busy" => Ok(self.drive(&mut BusyPolicy::new(&spec), end)),
            "random" => Ok(self.drive(&mut RandomPolicy::new(seed), end)),
            other => Err(PyValueError::new_err(format!(
                "no policy {other:?}: all-pass, busy or random"
            ))),
        }
    }

    /// The events since the last call (or since the game was made), as
    /// dicts in the trace format of docs/trace-format.md: "event", its
    /// fields, and its "rule". Empties the buffer.
    fn events<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for e in self.events.drain(..) {
            list.append(to_py(py, &turnspec_trace::to_json(&self.spec, &(), &e))?)?;
        }
        Ok(list)
    }

    /// The events since the last call as the indented text trace
    /// `turnspec run` prints. Empties the buffer.
    fn trace(&mut self) -> String {
        let text = turnspec_trace::to_text(
            &self.spec,
            &(),
            &self.events,
            turnspec_trace::TextOptions::default(),
        );
        self.events.clear();
        text
    }

    /// An independent copy: same state, same host object, a copy of the
    /// event buffer.
    fn clone(&self, py: Python<'_>) -> PyGame {
        PyGame {
            spec_obj: self.spec_obj.clone_ref(py),
            spec: self.spec.clone(),
            game: self.game.clone(),
            hooks: self.hooks.clone_ref(py),
            events: self.events.clone(),
            record: self.record,
            started: self.started,
        }
    }

    fn __copy__(&self, py: Python<'_>) -> PyGame {
        self.clone(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "<turnspec.Game {} turn {} {}/{} holder {} {}>",
            self.spec.game().name,
            self.game.turn(),
            self.spec.id_of(self.game.phase()),
            self.spec.id_of(self.game.step()),
            self.game.holder().map_or("-".into(), player_name),
            self.game.status().name()
        )
    }

    // --- host commands ---------------------------------------------------

    /// Reports a triggered ability of `player` (controller) with `label`;
    /// it goes on the stack the next time a player would receive priority.
    fn report_trigger(
        &mut self,
        py: Python<'_>,
        player: Bound<'_, PyAny>,
        label: u32,
    ) -> PyResult<()> {
        let p = player_of(&player)?;
        self.with_host(py, |g, _, s| g.report_trigger(p, label, s))
    }

    /// Sets (or clears) a fact of the spec.
    #[pyo3(signature = (fact, value = true))]
    fn set_fact(&mut self, py: Python<'_>, fact: &str, value: bool) -> PyResult<()> {
        let id = self.lookup("fact", fact, self.spec.fact_by_id(fact))?;
        self.with_host(py, |g, _, s| g.set_fact(id, value, s))
    }

    /// Sets `player`'s value of a counter (a score the spec checks: lore).
    fn set_counter(
        &mut self,
        py: Python<'_>,
        counter: &str,
        player: Bound<'_, PyAny>,
        value: u16,
    ) -> PyResult<()> {
        let id = self.lookup("counter", counter, self.spec.counter_by_id(counter))?;
        let p = player_of(&player)?;
        self.with_host(py, |g, h, s| g.set_counter(id, p, value, h, s))
    }

    /// Applies a structural effect the spec declares (an extra turn, a
    /// skip...) for `player`, or on `target` for effects that take one.
    #[pyo3(signature = (effect, player, target = None))]
    fn apply_effect(
        &mut self,
        py: Python<'_>,
        effect: &str,
        player: Bound<'_, PyAny>,
        target: Option<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let id = self.lookup("effect", effect, self.spec.effect_by_id(effect))?;
        let p = player_of(&player)?;
        match target {
            None => self.with_host(py, |g, h, s| g.apply_declared_effect(id, p, h, s)),
            Some(t) => {
                let t = player_of(&t)?;
                self.with_host(py, |g, h, s| g.apply_declared_effect_on(id, p, t, h, s))
            }
        }
    }

    /// Ends a lasting effect of `player` before its time.
    fn end_effect(
        &mut self,
        py: Python<'_>,
        effect: &str,
        player: Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let id = self.lookup("effect", effect, self.spec.effect_by_id(effect))?;
        let p = player_of(&player)?;
        self.with_host(py, |g, _, s| g.end_lasting_effect(id, p, s))
    }

    /// Declares an ending of the spec for `player` (a win, a loss, a draw).
    fn declare_ending(
        &mut self,
        py: Python<'_>,
        ending: &str,
        player: Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let id = self.lookup("ending", ending, self.spec.ending_by_id(ending))?;
        let p = player_of(&player)?;
        self.with_host(py, |g, h, s| g.declare_ending(id, p, h, s))
    }

    /// Reports a triggered ability that waits for the next time a player
    /// would receive priority, without an event now.
    fn report_pending_trigger(
        &mut self,
        py: Python<'_>,
        player: Bound<'_, PyAny>,
        label: u32,
    ) -> PyResult<()> {
        let p = player_of(&player)?;
        self.with_host(py, |g, _, _| g.report_pending_trigger(p, label))
    }

    /// A delayed trigger of `player` at the beginning of `at` (a step or
    /// phase id; "phase:ID" or "step:ID" to choose): the next time it
    /// begins, or in `player`'s own turn with `own_turn`, or not before
    /// the next turn with `next_turn`.
    #[pyo3(signature = (player, label, at, *, own_turn = false, next_turn = false))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments
    fn delay_trigger(
        &mut self,
        py: Python<'_>,
        player: Bound<'_, PyAny>,
        label: u32,
        at: &str,
        own_turn: bool,
        next_turn: bool,
    ) -> PyResult<()> {
        let p = player_of(&player)?;
        let place = self.place(at)?;
        if next_turn {
            self.with_host(py, |g, _, _| g.delay_trigger_to_next_turn(p, label, place))
        } else {
            self.with_host(py, |g, _, _| g.delay_trigger(p, label, place, own_turn))
        }
    }

    /// Starts a duration the host tracks (`label`), ending as `scope`
    /// says: "step", "phase", "turn", "until_turn_of", "through_next_turn",
    /// "during_turns_of" (these three with `player`), "until_next",
    /// "end_of_next_turn", "from_next" (with `player` and `at`).
    #[pyo3(signature = (label, scope, player = None, at = None))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments
    fn start_duration(
        &mut self,
        py: Python<'_>,
        label: u32,
        scope: &str,
        player: Option<Bound<'_, PyAny>>,
        at: Option<&str>,
    ) -> PyResult<()> {
        let player = player.map(|p| player_of(&p)).transpose()?;
        let at = at.map(|a| self.place(a)).transpose()?;
        let need_player = || {
            player.ok_or_else(|| PyValueError::new_err(format!("scope {scope:?} needs a player")))
        };
        let need_at =
            || at.ok_or_else(|| PyValueError::new_err(format!("scope {scope:?} needs at")));
        let scope = match scope {
            "step" => Scope::Step,
            "phase" => Scope::Phase,
            "turn" => Scope::Turn,
            "until_turn_of" => Scope::UntilTurnOf {
                player: need_player()?,
            },
            "through_next_turn" => Scope::ThroughNextTurn {
                player: need_player()?,
            },
            "during_turns_of" => Scope::DuringTurnsOf {
                player: need_player()?,
            },
            "until_next" => Scope::UntilNext {
                at: need_at()?,
                player: need_player()?,
            },
            "end_of_next_turn" => Scope::EndOfNextTurn {
                at: need_at()?,
                player: need_player()?,
            },
            "from_next" => Scope::FromNext {
                at: need_at()?,
                player: need_player()?,
            },
            other => {
                return Err(PyValueError::new_err(format!("no scope {other:?}")));
            }
        };
        self.with_host(py, |g, _, _| g.start_duration(label, scope))
    }

    /// Ends a duration started with `start_duration` before its time.
    fn end_duration(&mut self, py: Python<'_>, label: u32) -> PyResult<()> {
        self.with_host(py, |g, _, s| g.end_duration(label, s))
    }

    /// Adds mana to `player`'s pool.
    fn add_mana(&mut self, py: Python<'_>, player: Bound<'_, PyAny>, amount: u16) -> PyResult<()> {
        let p = player_of(&player)?;
        self.with_host(py, |g, _, _| g.add_mana_to_pool(p, amount))
    }

    /// `player` leaves the game (concedes, or loses by the cards).
    fn remove_player(&mut self, py: Python<'_>, player: Bound<'_, PyAny>) -> PyResult<()> {
        let p = player_of(&player)?;
        self.with_host(py, |g, h, s| g.remove_player(p, h, s))
    }

    /// The compact, versioned snapshot of the game's state (not of its
    /// host or event buffer): `Game.from_bytes(spec, data)` makes the same
    /// game again, exactly.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.game.to_bytes())
    }

    /// The game a snapshot of `to_bytes` holds, for the same spec. Raises
    /// `SnapshotError` for bytes that are not a snapshot of this spec.
    #[staticmethod]
    #[pyo3(signature = (spec, data, *, host = None, record_events = true))]
    fn from_bytes(
        py: Python<'_>,
        spec: Bound<'_, PySpec>,
        data: &[u8],
        host: Option<Bound<'_, PyAny>>,
        record_events: bool,
    ) -> PyResult<PyGame> {
        let inner = spec.get().spec.clone();
        let game = Game::from_bytes(&inner, data)
            .map_err(|e| error_of(py, "SnapshotError", (e.to_string(),)))?;
        let started = !(game.holder().is_none() && game.status() == Status::Running);
        Ok(PyGame {
            spec_obj: spec.unbind(),
            spec: inner,
            game,
            hooks: Hooks::of(host.as_ref())?,
            events: Vec::new(),
            record: record_events,
            started,
        })
    }
}

fn action_player(a: Action) -> PlayerId {
    match a {
        Action::Pass { player }
        | Action::Play { player, .. }
        | Action::Leave { player }
        | Action::Choose { player, .. } => player,
    }
}

impl PyGame {
    fn drive<P: Policy>(&mut self, policy: &mut P, end: u32) -> u64 {
        let mut sink = if self.record {
            Sink::Keep(&mut self.events)
        } else {
            Sink::Drop
        };
        let mut decisions = 0;
        while self.game.status() == Status::Running && self.game.turn() < end {
            if decide_and_apply(&mut self.game, policy, &mut sink).is_err() {
                break;
            }
            decisions += 1;
        }
        // Stops at the first decision of turn `end` (or when the game stops).
        decisions
    }
}

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

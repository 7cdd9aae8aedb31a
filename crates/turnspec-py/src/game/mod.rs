//! The `Game` class: moves, host commands, state, events and snapshots.

mod moves;
mod run;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use turnspec_engine::policy::{AllPass, BusyPolicy, RandomPolicy};
use turnspec_engine::{Action, Event, Game, GameOptions, Scope, Status};
use turnspec_spec::Spec;

use self::moves::action_player;
use crate::convert::{object_dict, player_name, player_of, to_py};
use crate::errors::error_of;
use crate::host::Hooks;
use crate::spec::PySpec;

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

//! The `Game` class: moves, host commands, state, events, snapshots and built-in policies.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Reflect;
use turnspec_engine::policy::{AllPass, BusyPolicy, Policy, RandomPolicy, decide_and_apply};
use turnspec_engine::{Event, Game, Status};
use turnspec_protocol::{ErrorBody, Move, QueuedAnswers};
use turnspec_spec::Spec;
use wasm_bindgen::prelude::*;

use crate::convert::{from_js, named_error, protocol_error, to_js};
use crate::host::{Hooks, JsHost};
use crate::shapes::{ErrorName, GameOptions};
use crate::spec::JsSpec;

/// A game of a spec: the players' moves and the host's commands (`apply`),
/// its state and its events.
#[wasm_bindgen(js_name = Game)]
pub struct JsGame {
    spec: Spec,
    game: Game,
    hooks: Hooks,
    answers: QueuedAnswers,
    events: Vec<Event>,
    record: bool,
    scratch: Vec<Event>,
}

/// The options object, as JSON, and its hooks.
fn options_of(options: &JsValue) -> Result<(GameOptions, Hooks), JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok((GameOptions::default(), Hooks::default()));
    }
    let hooks = Hooks::of(&Reflect::get(options, &"hooks".into())?)?;
    let parsed: GameOptions = from_js(options, "game options").inspect_err(|e| {
        let _ = Reflect::set(e, &"name".into(), &"SetupError".into());
        let _ = Reflect::set(e, &"code".into(), &"protocol::setup".into());
    })?;
    Ok((parsed, hooks))
}

fn parse_move(mv: &JsValue) -> Result<Move, JsValue> {
    if let Some(kind) = mv.as_string() {
        let json = serde_json::json!({ "kind": kind });
        return serde_json::from_value(json).map_err(|e| {
            named_error(
                ErrorName::MoveError,
                "protocol::bad_request",
                &format!("move: {e}"),
            )
        });
    }
    from_js(mv, "move")
}

impl JsGame {
    /// Runs `f` with the JavaScript host: keeps the events of a move that
    /// went through; throws the first exception a hook threw (after
    /// keeping them: the move happened), else the refusal.
    fn run<T>(
        &mut self,
        f: impl FnOnce(&Spec, &mut Game, &mut JsHost<'_>, &mut Vec<Event>) -> Result<T, ErrorBody>,
    ) -> Result<T, JsValue> {
        let error = Rc::new(RefCell::new(None));
        let mut host = JsHost {
            spec: &self.spec,
            hooks: &self.hooks,
            answers: std::mem::take(&mut self.answers),
            error: Rc::clone(&error),
        };
        self.scratch.clear();
        let result = f(&self.spec, &mut self.game, &mut host, &mut self.scratch);
        self.answers = host.answers;
        if result.is_ok() && self.record {
            self.events.append(&mut self.scratch);
        }
        self.scratch.clear();
        if let Some(e) = error.borrow_mut().take() {
            return Err(e);
        }
        result.map_err(|e| protocol_error(&e))
    }

    fn drive<P: Policy>(&mut self, policy: &mut P, end: u32) -> u32 {
        let mut decisions = 0u32;
        let sink = &mut self.scratch;
        while self.game.status() == Status::Running && self.game.turn() < end {
            if decide_and_apply(&mut self.game, policy, sink).is_err() {
                break;
            }
            decisions = decisions.saturating_add(1);
            if self.record {
                self.events.append(sink);
            } else {
                sink.clear();
            }
        }
        decisions
    }
}

#[wasm_bindgen(js_class = Game)]
impl JsGame {
    /// A new game of `spec`, run to its first decision. `options`:
    /// `players`, `startingPlayer`, `variants`, `facts`, `teams`,
    /// `turnLimit`, `recordEvents`, `hooks`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        spec: &JsSpec,
        #[wasm_bindgen(unchecked_optional_param_type = "NewGameOptions | null")] options: Option<
            js_sys::Object,
        >,
    ) -> Result<JsGame, JsValue> {
        let (options, hooks) =
            options_of(&options.map(JsValue::from).unwrap_or(JsValue::UNDEFINED))?;
        let game = turnspec_protocol::setup_game(&spec.spec, &options.setup())
            .map_err(|e| protocol_error(&e))?;
        let mut g = JsGame {
            spec: spec.spec.clone(),
            game,
            hooks,
            answers: QueuedAnswers::default(),
            events: Vec::new(),
            record: options.record_events.unwrap_or(true),
            scratch: Vec::new(),
        };
        g.run(|_, game, host, sink| {
            game.start(host, sink);
            Ok(())
        })?;
        Ok(g)
    }

    /// Sets the hooks (`null` removes them).
    #[wasm_bindgen(js_name = setHooks)]
    pub fn set_hooks(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Hooks | null")] hooks: JsValue,
    ) -> Result<(), JsValue> {
        self.hooks = Hooks::of(&hooks)?;
        Ok(())
    }

    /// How many seats.
    #[wasm_bindgen(getter)]
    pub fn players(&self) -> u8 {
        self.game.players()
    }
    /// The turn number, from 1.
    #[wasm_bindgen(getter)]
    pub fn turn(&self) -> u32 {
        self.game.turn()
    }
    /// The active player, "P1"...
    #[wasm_bindgen(getter, js_name = activePlayer)]
    pub fn active_player(&self) -> String {
        self.game.active_player().to_string()
    }
    /// Who must decide now, or `undefined` when the game is not running.
    #[wasm_bindgen(getter)]
    pub fn holder(&self) -> Option<String> {
        self.game.holder().map(|p| p.to_string())
    }
    /// The phase id.
    #[wasm_bindgen(getter)]
    pub fn phase(&self) -> String {
        self.spec.id_of(self.game.phase()).to_string()
    }
    /// The step id.
    #[wasm_bindgen(getter)]
    pub fn step(&self) -> String {
        self.spec.id_of(self.game.step()).to_string()
    }
    /// `running`, `over`, `turn_limit`, `stalled`, `no_players`,
    /// `never_ends`.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> String {
        self.game.status().name().to_string()
    }
    /// Whether a player must decide.
    #[wasm_bindgen(getter)]
    pub fn running(&self) -> bool {
        self.game.status() == Status::Running
    }

    /// Where the game is (the protocol's `state`): turn, phase, step,
    /// holder, stack, status, outcome, queued answers.
    #[wasm_bindgen(unchecked_return_type = "State")]
    pub fn state(&self) -> Result<JsValue, JsValue> {
        to_js(&turnspec_protocol::state_of(
            &self.spec,
            &self.game,
            self.answers.len(),
        ))
    }

    /// The moves `player` (default: the holder) may make now, as `apply`
    /// takes them: a pass first; none for a player who does not hold
    /// priority or once the game is over.
    #[wasm_bindgen(js_name = legalMoves, unchecked_return_type = "Move[]")]
    pub fn legal_moves(&self, player: Option<String>) -> Result<JsValue, JsValue> {
        let p = match player {
            Some(p) => turnspec_protocol::player(&p, self.game.players())
                .map_err(|e| protocol_error(&e))?,
            None => match self.game.holder() {
                Some(p) => p,
                None => return to_js::<[Move]>(&[]),
            },
        };
        to_js(&turnspec_protocol::legal_moves(&self.spec, &self.game, p))
    }

    /// Makes a player's move or a host command (the protocol's moves:
    /// `{kind: "pass"}`, `{kind: "play", timing: "instant", label: 7}`,
    /// `{kind: "trigger", label: 3, by: "P1"}`...; `"pass"` is short for
    /// the holder's pass), then runs to the next decision. Returns how
    /// many events it produced. A refused move throws (`IllegalMove`,
    /// `MoveError`) and changes nothing.
    #[wasm_bindgen]
    pub fn apply(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "MoveLike")] r#move: JsValue,
    ) -> Result<u32, JsValue> {
        let mv = parse_move(&r#move)?;
        let before = self.events.len();
        self.run(|spec, game, host, sink| {
            turnspec_protocol::apply_move(spec, game, host, sink, &mv)
        })?;
        Ok(u32::try_from(self.events.len().saturating_sub(before)).unwrap_or(u32::MAX))
    }

    /// Whether a move would be accepted now, without making it (the hooks
    /// are not called: the check runs on a copy with the queued answers
    /// only).
    #[wasm_bindgen(js_name = isLegal)]
    pub fn is_legal(
        &self,
        #[wasm_bindgen(unchecked_param_type = "MoveLike")] r#move: JsValue,
    ) -> Result<bool, JsValue> {
        let mv = parse_move(&r#move)?;
        let mut game = self.game.clone();
        let mut answers = self.answers.clone();
        let mut sink = Vec::new();
        Ok(
            turnspec_protocol::apply_move(&self.spec, &mut game, &mut answers, &mut sink, &mv)
                .is_ok(),
        )
    }

    /// The events since the last call (or since the game was made), as
    /// trace-format objects (docs/trace-format.md) with their `rule`.
    /// Empties the buffer.
    #[wasm_bindgen(unchecked_return_type = "TraceEvent[]")]
    pub fn events(&mut self) -> Result<JsValue, JsValue> {
        let list: Vec<serde_json::Value> = self
            .events
            .drain(..)
            .map(|e| turnspec_trace::to_json(&self.spec, &(), &e))
            .collect();
        to_js(&list)
    }

    /// The events since the last call as the indented text `turnspec run`
    /// prints. Empties the buffer.
    #[wasm_bindgen]
    pub fn trace(&mut self) -> String {
        let text = turnspec_trace::to_text(
            &self.spec,
            &(),
            &self.events,
            turnspec_trace::TextOptions::default(),
        );
        self.events.clear();
        text
    }

    /// Plays until `turns` more turns have begun (or the game stops) with
    /// a built-in policy (`"all-pass"`, `"busy"`, `"random"` with `seed`),
    /// inside WebAssembly: no hook is called, the policy is the host
    /// meanwhile. Returns how many decisions were taken.
    #[wasm_bindgen(js_name = playTurns)]
    pub fn play_turns(
        &mut self,
        turns: u32,
        #[wasm_bindgen(unchecked_optional_param_type = "PolicyName")] policy: Option<String>,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] seed: Option<f64>,
    ) -> Result<u32, JsValue> {
        let end = self.game.turn().saturating_add(turns);
        let spec = self.spec.clone();
        match policy.as_deref().unwrap_or("all-pass") {
            "all-pass" => Ok(self.drive(&mut AllPass, end)),
            "busy" => Ok(self.drive(&mut BusyPolicy::new(&spec), end)),
            "random" => {
                let seed = seed.unwrap_or(0.0);
                let seed = if seed.is_finite() && seed >= 0.0 {
                    seed as u64
                } else {
                    0
                };
                Ok(self.drive(&mut RandomPolicy::new(seed), end))
            }
            other => Err(named_error(
                ErrorName::MoveError,
                "protocol::bad_request",
                &format!("no policy {other:?}: all-pass, busy or random"),
            )),
        }
    }

    /// The engine's compact, versioned snapshot of the game's state (not
    /// of its hooks, queued answers or events).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.game.to_bytes()
    }

    /// The game a snapshot of `toBytes` holds, for the same spec; `options`
    /// may give `hooks` and `recordEvents` (the rest is in the snapshot).
    /// Throws `SnapshotError` for bytes that are not a snapshot of this spec.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        spec: &JsSpec,
        bytes: &[u8],
        #[wasm_bindgen(unchecked_optional_param_type = "NewGameOptions | null")] options: Option<
            js_sys::Object,
        >,
    ) -> Result<JsGame, JsValue> {
        let (options, hooks) =
            options_of(&options.map(JsValue::from).unwrap_or(JsValue::UNDEFINED))?;
        let game = Game::from_bytes(&spec.spec, bytes).map_err(|e| {
            named_error(
                ErrorName::SnapshotError,
                "protocol::bad_snapshot",
                &e.to_string(),
            )
        })?;
        Ok(JsGame {
            spec: spec.spec.clone(),
            game,
            hooks,
            answers: QueuedAnswers::default(),
            events: Vec::new(),
            record: options.record_events.unwrap_or(true),
            scratch: Vec::new(),
        })
    }

    /// An independent copy: the same state, hooks and queued answers, a
    /// copy of the event buffer.
    #[wasm_bindgen(js_name = clone)]
    pub fn clone_game(&self) -> JsGame {
        JsGame {
            spec: self.spec.clone(),
            game: self.game.clone(),
            hooks: self.hooks.clone(),
            answers: self.answers.clone(),
            events: self.events.clone(),
            record: self.record,
            scratch: Vec::new(),
        }
    }
}

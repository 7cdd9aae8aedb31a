//! turnspec in WebAssembly: the npm package `turnspec` (docs/javascript.md).
//!
//! Specs, games, host hooks written in JavaScript, designed like the Python
//! package (`crates/turnspec-py`): `loadSpec` and `check`, `Spec`, `Game`
//! (`legalMoves`, `apply`, `state`, `events`, `trace`, `toBytes`,
//! `fromBytes`, `clone`, `playTurns`). Moves and host commands are the
//! protocol's (`turnspec_protocol::Move`, applied by
//! `turnspec_protocol::apply_move`), so JavaScript, the JSON-lines
//! protocol, scenarios and the workbench share one vocabulary.
//!
//! Nothing here panics on what JavaScript passes: every failure is a thrown
//! `Error` with a `name` (`IllegalMove`, `MoveError`, `SpecError`...), a
//! `code` and, for a refused move, the `rule`; the game is unchanged. An
//! exception a hook throws is kept, the engine goes on with default answers
//! to the next decision, and the exception is thrown again from the call
//! that ran the hook (as the Python package re-raises).
//!
//! The crate also compiles natively (it is a workspace member); the
//! exported functions need a JavaScript host to run, so its native tests
//! cover the pure parts (paths, shapes, the schema).

#![warn(missing_docs)]

pub mod shapes;
pub mod studio;

pub use studio::Studio;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use js_sys::{Function, JSON, Reflect};
use serde::Serialize;
use serde::de::DeserializeOwned;
use turnspec_engine::policy::{AllPass, BusyPolicy, Policy, RandomPolicy, decide_and_apply};
use turnspec_engine::{
    Event, Game, HookContext, Host, ObjectKind, PlayedHook, ResolvedHook, Status, StepBeganHook,
    Triggers, TurnActionHook,
};
use turnspec_protocol::{ErrorBody, Move, MoveHost, QueuedAnswers};
use turnspec_spec::{Report, Spec};
use wasm_bindgen::prelude::*;

use shapes::{
    Context, Diagnostic, ErrorInfo, ErrorName, GameOptions, PlayedContext, ResolvedContext,
    StackObject, StepBeganContext, Trigger, TurnActionAnswer, TurnActionContext,
};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
import type {
  Diagnostic, GameOptions, Move, PlayedContext, ResolvedContext, State,
  StepBeganContext, StudioResponse, TraceEvent, Trigger, TurnActionAnswer, TurnActionContext,
} from "./types";
export type * from "./types";

/** A player: "P1", "P2"... */
export type Player = string;

/** The built-in policies of `playTurns`. */
export type PolicyName = "all-pass" | "busy" | "random";

/**
 * A host: the engine calls those of these functions that exist, with `this`
 * the hooks object. Triggers returned go on the stack the next time a
 * player would receive priority. A hook that throws: the engine goes on
 * with default answers, and the call that ran it throws the same exception.
 */
export interface Hooks {
  /** A turn-based action: its answer (how many attackers...), or the answer and the triggers it causes. */
  turnAction?(ctx: TurnActionContext): number | TurnActionAnswer | null | undefined | void;
  /** A player played something (on the stack, before priority). */
  played?(ctx: PlayedContext): Trigger[] | null | undefined | void;
  /** A step (or step-less phase) began: "at the beginning of" abilities. */
  stepBegan?(ctx: StepBeganContext): Trigger[] | null | undefined | void;
  /** The top object of the stack resolved. */
  resolved?(ctx: ResolvedContext): Trigger[] | null | undefined | void;
}

/** `new Game(spec, options)`: the set-up, the hooks and whether to keep events. */
export interface NewGameOptions extends GameOptions {
  hooks?: Hooks | null;
}

/** A move: the protocol's move object, or "pass" / "pass_all". */
export type MoveLike = Move | "pass" | "pass_all";

/** What the package throws: `name` says which kind. */
export interface TurnspecError extends Error {
  name: "IllegalMove" | "MoveError" | "SetupError" | "SnapshotError" | "SpecError" | "HostError";
  /** `rule::REASON`, `protocol::...`, or a spec's first error code. */
  code: string;
  /** The rule a refused move breaks, as the spec cites it. */
  rule: string | null;
  /** `IllegalMove`: the engine's stable reason (`not_holder`...). */
  reason: string | null;
  /** `SpecError`: every diagnostic; `line`, `column`, `help`, `file` are the first error's. */
  diagnostics?: Diagnostic[];
  line?: number;
  column?: number;
  help?: string | null;
  file?: string;
}
"#;

// --- JSON across the boundary ---------------------------------------------

/// A Rust value as the JavaScript value `JSON.parse` gives for its JSON.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
    JSON::parse(&text)
}

/// A JavaScript value read through `JSON.stringify` (`undefined` is
/// `null`); a value that is not JSON, or not of the shape, is a
/// `MoveError` (`protocol::bad_request`).
fn from_js<T: DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, JsValue> {
    let text = if value.is_undefined() {
        "null".to_string()
    } else {
        match JSON::stringify(value) {
            Ok(s) => s.as_string().unwrap_or_else(|| "null".to_string()),
            Err(e) => return Err(e),
        }
    };
    serde_json::from_str(&text).map_err(|e| {
        error_value(
            &ErrorInfo {
                name: ErrorName::MoveError,
                code: "protocol::bad_request".into(),
                rule: None,
                reason: None,
            },
            &format!("{what}: {e}"),
        )
    })
}

/// An `Error` with `name`, `code`, `rule` and `reason` set.
fn error_value(info: &ErrorInfo, message: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    e.set_name(info.name.as_str());
    let opt = |s: &Option<String>| s.as_deref().map_or(JsValue::NULL, JsValue::from_str);
    let _ = Reflect::set(&e, &"code".into(), &info.code.as_str().into());
    let _ = Reflect::set(&e, &"rule".into(), &opt(&info.rule));
    let _ = Reflect::set(&e, &"reason".into(), &opt(&info.reason));
    e.into()
}

fn protocol_error(e: &ErrorBody) -> JsValue {
    error_value(&ErrorInfo::of(e), &e.message)
}

fn named_error(name: ErrorName, code: &str, message: &str) -> JsValue {
    error_value(
        &ErrorInfo {
            name,
            code: code.to_string(),
            rule: None,
            reason: None,
        },
        message,
    )
}

/// A `SpecError` carrying every diagnostic, and the first error's place.
fn spec_error(report: &Report) -> JsValue {
    let diagnostics = shapes::diagnostics(report);
    let first = diagnostics
        .iter()
        .find(|d| d.severity == shapes::Severity::Error)
        .or(diagnostics.first());
    let message = match first {
        Some(d) => format!("{}:{}:{}: {}", d.file, d.line, d.column, d.message),
        None => "the spec has errors".to_string(),
    };
    let code = first.map_or("turnspec::error", |d| d.code.as_str());
    let e = error_value(
        &ErrorInfo {
            name: ErrorName::SpecError,
            code: code.to_string(),
            rule: None,
            reason: None,
        },
        &message,
    );
    if let Some(d) = first {
        let _ = Reflect::set(&e, &"file".into(), &d.file.as_str().into());
        let _ = Reflect::set(&e, &"line".into(), &(d.line as f64).into());
        let _ = Reflect::set(&e, &"column".into(), &(d.column as f64).into());
        let help = d.help.as_deref().map_or(JsValue::NULL, JsValue::from_str);
        let _ = Reflect::set(&e, &"help".into(), &help);
    }
    let list = to_js(&diagnostics).unwrap_or(JsValue::NULL);
    let _ = Reflect::set(&e, &"diagnostics".into(), &list);
    e
}

// --- specs ------------------------------------------------------------------

/// `base`, named in an `extends` of the file `from`, as a path relative to
/// the same folder: `join("games/mtg-2011.toml", "mtg.toml")` is
/// `games/mtg.toml`; `.` and `..` are resolved.
pub fn join(from: &str, base: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    if base.starts_with('/') {
        parts = vec![""];
    }
    for part in base.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| !p.is_empty() && *p != "..") {
                    parts.pop();
                } else if parts.first() != Some(&"") {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// Loads `text` (named `path`), reading the bases it `extends` from
/// `files` (path to text): by the path relative to the file that names
/// it, else by the name as written.
pub fn load_from(
    path: &str,
    text: &str,
    files: &BTreeMap<String, String>,
) -> Result<(Spec, Report), Report> {
    turnspec_spec::load_with(path, text, &mut |base: &str, from: &str| {
        let full = join(from, base);
        files
            .get(&full)
            .map(|t| (full.clone(), t.clone()))
            .or_else(|| files.get(base).map(|t| (base.to_string(), t.clone())))
            .ok_or_else(|| format!("no file {full} among the files given"))
    })
}

pub(crate) fn files_of(files: &JsValue) -> Result<BTreeMap<String, String>, JsValue> {
    if files.is_undefined() || files.is_null() {
        return Ok(BTreeMap::new());
    }
    from_js(files, "files (an object of path: text)")
}

/// A loaded, checked spec: `loadSpec(text, path, files)`.
#[wasm_bindgen(js_name = Spec)]
#[derive(Clone)]
pub struct JsSpec {
    spec: Spec,
    path: String,
    warnings: Vec<Diagnostic>,
}

fn ids<I, It>(spec: &Spec, items: It) -> Vec<String>
where
    I: turnspec_model::Part,
    I::Item: turnspec_model::Named,
    It: Iterator<Item = I>,
{
    items.map(|id| spec.id_of(id).to_string()).collect()
}

#[wasm_bindgen(js_class = Spec)]
impl JsSpec {
    /// The path the spec was loaded as.
    #[wasm_bindgen(getter)]
    pub fn path(&self) -> String {
        self.path.clone()
    }
    /// "Name — edition (date)".
    #[wasm_bindgen(getter)]
    pub fn title(&self) -> String {
        self.spec.title()
    }
    /// The game's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.spec.game().name.clone()
    }
    /// The edition, empty if the spec gives none.
    #[wasm_bindgen(getter)]
    pub fn edition(&self) -> String {
        self.spec.game().edition.clone()
    }
    /// The fewest players.
    #[wasm_bindgen(getter, js_name = minPlayers)]
    pub fn min_players(&self) -> u8 {
        self.spec.game().min_players
    }
    /// The most players.
    #[wasm_bindgen(getter, js_name = maxPlayers)]
    pub fn max_players(&self) -> u8 {
        self.spec.game().max_players
    }
    /// The spec's fingerprint, 16 hex digits (as `hello` gives it).
    #[wasm_bindgen(getter)]
    pub fn fingerprint(&self) -> String {
        format!("{:016x}", self.spec.fingerprint())
    }
    /// Every phase id, in the spec's order.
    #[wasm_bindgen(getter)]
    pub fn phases(&self) -> Vec<String> {
        ids(&self.spec, self.spec.phases().ids())
    }
    /// Every step id, in the spec's order.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> Vec<String> {
        ids(&self.spec, self.spec.steps().ids())
    }
    /// Every timing class id.
    #[wasm_bindgen(getter, js_name = timingClasses)]
    pub fn timing_classes(&self) -> Vec<String> {
        ids(&self.spec, self.spec.timing().ids())
    }
    /// Every turn-based action id.
    #[wasm_bindgen(getter, js_name = turnActions)]
    pub fn turn_actions(&self) -> Vec<String> {
        ids(&self.spec, self.spec.turn_actions().ids())
    }
    /// Every structural effect id.
    #[wasm_bindgen(getter)]
    pub fn effects(&self) -> Vec<String> {
        ids(&self.spec, self.spec.effects().ids())
    }
    /// Every ending id.
    #[wasm_bindgen(getter)]
    pub fn endings(&self) -> Vec<String> {
        ids(&self.spec, self.spec.endings().ids())
    }
    /// Every fact id.
    #[wasm_bindgen(getter)]
    pub fn facts(&self) -> Vec<String> {
        ids(&self.spec, self.spec.facts().ids())
    }
    /// Every counter id.
    #[wasm_bindgen(getter)]
    pub fn counters(&self) -> Vec<String> {
        ids(&self.spec, self.spec.counters().ids())
    }
    /// Every variant id.
    #[wasm_bindgen(getter)]
    pub fn variants(&self) -> Vec<String> {
        ids(&self.spec, self.spec.variants().ids())
    }
    /// The loader's warnings.
    #[wasm_bindgen(getter, unchecked_return_type = "Diagnostic[]")]
    pub fn warnings(&self) -> Result<JsValue, JsValue> {
        to_js(&self.warnings)
    }
}

/// Loads and checks a spec from its text. `path` names it in diagnostics
/// (default `<string>`); `files` maps paths to the texts of the specs it
/// `extends`. Throws a `SpecError` with every diagnostic if it has errors.
#[wasm_bindgen(js_name = loadSpec)]
pub fn load_spec(
    text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] path: Option<String>,
    #[wasm_bindgen(unchecked_optional_param_type = "Record<string, string> | null")] files: Option<
        js_sys::Object,
    >,
) -> Result<JsSpec, JsValue> {
    let path = path.unwrap_or_else(|| "<string>".to_string());
    let files = files_of(&files.map(JsValue::from).unwrap_or(JsValue::UNDEFINED))?;
    match load_from(&path, text, &files) {
        Ok((spec, warnings)) => Ok(JsSpec {
            spec,
            path,
            warnings: shapes::diagnostics(&warnings),
        }),
        Err(report) => Err(spec_error(&report)),
    }
}

/// Every diagnostic of a spec's text, errors and warnings (empty for a
/// clean spec); never throws for the spec.
#[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
pub fn check(
    text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] path: Option<String>,
    #[wasm_bindgen(unchecked_optional_param_type = "Record<string, string> | null")] files: Option<
        js_sys::Object,
    >,
) -> Result<JsValue, JsValue> {
    let path = path.unwrap_or_else(|| "<string>".to_string());
    let files = files_of(&files.map(JsValue::from).unwrap_or(JsValue::UNDEFINED))?;
    let report = match load_from(&path, text, &files) {
        Ok((_, warnings)) => warnings,
        Err(report) => report,
    };
    to_js(&shapes::diagnostics(&report))
}

// --- hooks written in JavaScript -----------------------------------------

/// The host's hooks, looked up once when the host is set.
#[derive(Clone, Default)]
struct Hooks {
    this: JsValue,
    turn_action: Option<Function>,
    played: Option<Function>,
    step_began: Option<Function>,
    resolved: Option<Function>,
}

impl Hooks {
    fn of(hooks: &JsValue) -> Result<Hooks, JsValue> {
        if hooks.is_undefined() || hooks.is_null() {
            return Ok(Hooks::default());
        }
        if !hooks.is_object() {
            return Err(named_error(
                ErrorName::HostError,
                "host::bad_hooks",
                "hooks is an object of functions: turnAction, played, stepBegan, resolved",
            ));
        }
        let get = |name: &str| -> Result<Option<Function>, JsValue> {
            let f = Reflect::get(hooks, &name.into())?;
            if f.is_undefined() || f.is_null() {
                return Ok(None);
            }
            f.dyn_into::<Function>().map(Some).map_err(|_| {
                named_error(
                    ErrorName::HostError,
                    "host::bad_hooks",
                    &format!("hooks.{name} is not a function"),
                )
            })
        };
        Ok(Hooks {
            this: hooks.clone(),
            turn_action: get("turnAction")?,
            played: get("played")?,
            step_began: get("stepBegan")?,
            resolved: get("resolved")?,
        })
    }
}

/// The engine's `Host`: queued `answer`s first, then the JavaScript hooks.
/// The first exception a hook throws (or a bad answer) is kept in `error`,
/// shared with copies (`pass_all` runs on one); later hooks of the same
/// call are not called, and the engine gets the default answers.
#[derive(Clone)]
struct JsHost<'a> {
    spec: &'a Spec,
    hooks: &'a Hooks,
    answers: QueuedAnswers,
    error: Rc<RefCell<Option<JsValue>>>,
}

impl MoveHost for JsHost<'_> {
    fn answers(&mut self) -> &mut QueuedAnswers {
        &mut self.answers
    }
}

impl JsHost<'_> {
    fn context(&self, ctx: &HookContext) -> Context {
        Context {
            turn: ctx.turn,
            active: ctx.active.to_string(),
            phase: self.spec.id_of(ctx.phase).to_string(),
            step: self.spec.id_of(ctx.step).to_string(),
            repeat: ctx.repeat,
        }
    }

    fn failed(&self) -> bool {
        self.error.borrow().is_some()
    }

    fn fail(&self, e: JsValue) {
        let mut slot = self.error.borrow_mut();
        if slot.is_none() {
            *slot = Some(e);
        }
    }

    /// Calls `f(ctx)`; what it returned, or `None` after keeping its error.
    fn call<T: Serialize>(&self, f: &Function, ctx: &T) -> Option<JsValue> {
        if self.failed() {
            return None;
        }
        match to_js(ctx).and_then(|arg| f.call1(&self.hooks.this, &arg)) {
            Ok(v) => Some(v),
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }

    fn report(&self, triggers: &[Trigger], to: &mut Triggers<'_>, players: u8) {
        for t in triggers {
            let added = turnspec_protocol::player(&t.player, players)
                .map_err(|e| e.message)
                .and_then(|p| to.add(p, t.label).map_err(|e| e.to_string()));
            if let Err(message) = added {
                self.fail(named_error(
                    ErrorName::HostError,
                    "host::bad_trigger",
                    &format!("a hook reported a trigger for a player not in the game: {message}"),
                ));
                return;
            }
        }
    }

    /// Reads what a hook other than `turnAction` returned: triggers or
    /// nothing.
    fn triggers_of(&self, value: &JsValue, hook: &str) -> Vec<Trigger> {
        if value.is_undefined() || value.is_null() {
            return Vec::new();
        }
        from_js::<Vec<Trigger>>(value, hook).unwrap_or_else(|_| {
            self.fail(named_error(
                ErrorName::HostError,
                "host::bad_answer",
                &format!("{hook} returns triggers, [{{player: \"P1\", label: 7}}...], or nothing"),
            ));
            Vec::new()
        })
    }
}

fn clamp_answer(n: f64) -> u16 {
    if n.is_nan() {
        0
    } else {
        n.clamp(0.0, f64::from(u16::MAX)) as u16
    }
}

impl Host for JsHost<'_> {
    fn turn_action(&mut self, mut hook: TurnActionHook<'_>) -> u16 {
        if let Some(answer) = self.answers.take(&mut hook) {
            return answer;
        }
        let hooks = self.hooks;
        let Some(f) = hooks.turn_action.as_ref() else {
            return 0;
        };
        let ctx = TurnActionContext {
            at: self.context(&hook.ctx),
            action: self.spec.id_of(hook.action).to_string(),
        };
        let Some(value) = self.call(f, &ctx) else {
            return 0;
        };
        if value.is_undefined() || value.is_null() {
            return 0;
        }
        if let Some(n) = value.as_f64() {
            return clamp_answer(n);
        }
        match from_js::<TurnActionAnswer>(&value, "turnAction") {
            Ok(a) => {
                self.report(&a.triggers, &mut hook.triggers, hook.ctx.players);
                clamp_answer(a.answer)
            }
            Err(_) => {
                self.fail(named_error(
                    ErrorName::HostError,
                    "host::bad_answer",
                    "turnAction returns a number, {answer, triggers}, or nothing (0)",
                ));
                0
            }
        }
    }

    fn played(&mut self, mut hook: PlayedHook<'_>) {
        let hooks = self.hooks;
        let Some(f) = hooks.played.as_ref() else {
            return;
        };
        let ctx = PlayedContext {
            at: self.context(&hook.ctx),
            player: hook.player.to_string(),
            timing: self.spec.id_of(hook.timing).to_string(),
            label: hook.label,
        };
        if let Some(v) = self.call(f, &ctx) {
            let triggers = self.triggers_of(&v, "played");
            self.report(&triggers, &mut hook.triggers, hook.ctx.players);
        }
    }

    fn step_began(&mut self, mut hook: StepBeganHook<'_>) {
        let hooks = self.hooks;
        let Some(f) = hooks.step_began.as_ref() else {
            return;
        };
        let ctx = StepBeganContext {
            at: self.context(&hook.ctx),
        };
        if let Some(v) = self.call(f, &ctx) {
            let triggers = self.triggers_of(&v, "stepBegan");
            self.report(&triggers, &mut hook.triggers, hook.ctx.players);
        }
    }

    fn resolved(&mut self, mut hook: ResolvedHook<'_>) {
        let hooks = self.hooks;
        let Some(f) = hooks.resolved.as_ref() else {
            return;
        };
        let o = &hook.object;
        let (kind, timing, action) = match o.kind {
            ObjectKind::Play(t) => ("play", Some(self.spec.id_of(t).to_string()), None),
            ObjectKind::Trigger => ("trigger", None, None),
            ObjectKind::TurnAction(a) => {
                ("turn_action", None, Some(self.spec.id_of(a).to_string()))
            }
        };
        let ctx = ResolvedContext {
            at: self.context(&hook.ctx),
            object: StackObject {
                controller: o.controller.to_string(),
                kind: kind.to_string(),
                timing,
                action,
                label: o.label,
            },
        };
        if let Some(v) = self.call(f, &ctx) {
            let triggers = self.triggers_of(&v, "resolved");
            self.report(&triggers, &mut hook.triggers, hook.ctx.players);
        }
    }
}

// --- games ------------------------------------------------------------------

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

/// The JSON Schema of the package's shapes (as `npm/schema.json` holds it).
#[wasm_bindgen(js_name = jsonSchema)]
pub fn json_schema_js() -> Result<JsValue, JsValue> {
    to_js(&shapes::json_schema())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extends_paths_are_relative_to_the_file_that_names_them() {
        assert_eq!(join("games/mtg-2011.toml", "mtg.toml"), "games/mtg.toml");
        assert_eq!(join("mtg-2011.toml", "mtg.toml"), "mtg.toml");
        assert_eq!(join("a/b/c.toml", "../d.toml"), "a/d.toml");
        assert_eq!(join("a/c.toml", "./x/../d.toml"), "a/d.toml");
        assert_eq!(join("c.toml", "../d.toml"), "../d.toml");
        assert_eq!(join("/a/c.toml", "/b/d.toml"), "/b/d.toml");
        assert_eq!(join("/c.toml", "../d.toml"), "/d.toml");
    }

    #[test]
    fn a_spec_extends_files_given_as_a_map() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/");
        let read = |name: &str| std::fs::read_to_string(format!("{root}{name}")).unwrap();
        let mut files = BTreeMap::new();
        files.insert("games/mtg.toml".to_string(), read("mtg.toml"));
        let text = read("mtg-2024.toml");
        let (spec, _) = load_from("games/mtg-2024.toml", &text, &files).unwrap();
        assert!(spec.title().contains("Magic"));
        let err = load_from("games/mtg-2024.toml", &text, &BTreeMap::new()).unwrap_err();
        let d = shapes::diagnostics(&err);
        assert!(!d.is_empty(), "a missing base is a diagnostic");
    }

    #[test]
    fn diagnostics_keep_every_field_of_the_report() {
        let err = turnspec_spec::load_str("bad.toml", "[game]\nnmae = 1\n").unwrap_err();
        let typed = shapes::diagnostics(&err);
        assert_eq!(typed.len(), err.to_json().len());
        assert!(typed.iter().all(|d| d.line >= 1 && d.column >= 1));
    }

    #[test]
    fn the_schema_in_the_npm_package_is_up_to_date() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/npm/schema.json");
        let generated = serde_json::to_string_pretty(&shapes::json_schema()).unwrap() + "\n";
        if std::env::var_os("TURNSPEC_BLESS").is_some() {
            std::fs::write(path, &generated).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == generated,
            "crates/turnspec-wasm/npm/schema.json is out of date: regenerate it with\n  TURNSPEC_BLESS=1 cargo test -p turnspec-wasm"
        );
    }
}

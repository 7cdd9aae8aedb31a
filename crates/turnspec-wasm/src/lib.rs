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

mod convert;
mod game;
mod host;
mod spec;

pub use game::JsGame;
pub use spec::{JsSpec, check, join, load_from, load_spec};

use wasm_bindgen::prelude::*;

use convert::to_js;

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

/// The JSON Schema of the package's shapes (as `npm/schema.json` holds it).
#[wasm_bindgen(js_name = jsonSchema)]
pub fn json_schema_js() -> Result<JsValue, JsValue> {
    to_js(&shapes::json_schema())
}

#[cfg(test)]
mod tests;

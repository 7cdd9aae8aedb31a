//! The engine's host for a game: queued answers, then the hooks written in JavaScript.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Reflect};
use serde::Serialize;
use turnspec_engine::{
    HookContext, Host, ObjectKind, PlayedHook, ResolvedHook, StepBeganHook, Triggers,
    TurnActionHook,
};
use turnspec_protocol::{MoveHost, QueuedAnswers};
use turnspec_spec::Spec;
use wasm_bindgen::prelude::*;

use crate::convert::{from_js, named_error, to_js};
use crate::shapes::{
    Context, ErrorName, PlayedContext, ResolvedContext, StackObject, StepBeganContext, Trigger,
    TurnActionAnswer, TurnActionContext,
};

/// The host's hooks, looked up once when the host is set.
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    this: JsValue,
    turn_action: Option<Function>,
    played: Option<Function>,
    step_began: Option<Function>,
    resolved: Option<Function>,
}

impl Hooks {
    pub(crate) fn of(hooks: &JsValue) -> Result<Hooks, JsValue> {
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
pub(crate) struct JsHost<'a> {
    pub(crate) spec: &'a Spec,
    pub(crate) hooks: &'a Hooks,
    pub(crate) answers: QueuedAnswers,
    pub(crate) error: Rc<RefCell<Option<JsValue>>>,
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

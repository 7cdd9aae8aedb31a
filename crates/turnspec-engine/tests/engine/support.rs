//! Test support shared by the engine's invariant tests: loading inline
//! specs, a host with scripted answers and triggers that records every hook
//! call, and a table that logs events as short strings and checks that every
//! refused action leaves the game untouched.

#![allow(dead_code)]

use turnspec_engine::{
    Action, Because, Event, EventSink, Game, GameOptions, HookContext, Host, ObjectKind, PlayerId,
    RuleError, Skipped, StackObject, StartAt, Status, Triggers,
};
use turnspec_engine::{PlayedHook, StepBeganHook, TurnActionHook};
use turnspec_spec::{FactId, Spec, TimingId};

/// Compiles a spec written in the test file; panics with the diagnostics.
pub fn load(path: &str, text: &str) -> Spec {
    match turnspec_spec::load_str(path, text) {
        Ok((spec, _)) => spec,
        Err(report) => panic!("{path} does not load:\n{}", report.to_short_text()),
    }
}

/// What the spec found for `id`; panics naming `what` was not found.
fn known<T>(found: Option<T>, what: &str, id: &str) -> T {
    found.unwrap_or_else(|| panic!("no {what} `{id}`"))
}

pub fn timing(spec: &Spec, id: &str) -> TimingId {
    known(spec.timing_by_id(id), "timing class", id)
}

pub fn fact(spec: &Spec, id: &str) -> FactId {
    known(spec.fact_by_id(id), "fact", id)
}

/// A start point at the beginning of a step, or of a step-less phase.
pub fn start_at(spec: &Spec, turn: u32, active: PlayerId, step: &str) -> StartAt {
    let s = known(spec.step_by_id(step), "step", step);
    let phase = spec.step(s).unwrap().phase;
    let implicit = spec.step(s).unwrap().implicit;
    StartAt::new(turn, active, phase).at_step(if implicit { None } else { Some(s) })
}

/// A host whose answers and triggers are scripted by action and step id.
pub struct TestHost {
    spec: &'static Spec,
    answers: Vec<(String, u16)>,
    /// Fired once each, the first time the action is performed.
    on_action: Vec<(String, PlayerId, u32)>,
    /// Fired once each, the first time the step begins.
    on_step: Vec<(String, PlayerId, u32)>,
    /// Fired once each, the first time the timing class is played.
    on_play: Vec<(String, PlayerId, u32)>,
    asked: Vec<String>,
    /// Every hook call, in order: `tba <action> <context>`, `began <step>
    /// <context>`, `played <player> <timing> #<label> <context>`, where the
    /// context is `t<turn> <active> <step> r<repeat>`.
    pub calls: Vec<String>,
}

impl TestHost {
    pub fn new(spec: &'static Spec) -> Self {
        TestHost {
            spec,
            answers: Vec::new(),
            on_action: Vec::new(),
            on_step: Vec::new(),
            on_play: Vec::new(),
            asked: Vec::new(),
            calls: Vec::new(),
        }
    }

    pub fn answer(mut self, action: &str, value: u16) -> Self {
        known(self.spec.turn_action_by_id(action), "action", action);
        self.answers.push((action.to_string(), value));
        self
    }

    pub fn trigger_on_action(mut self, action: &str, controller: PlayerId, label: u32) -> Self {
        known(self.spec.turn_action_by_id(action), "action", action);
        self.on_action.push((action.to_string(), controller, label));
        self
    }

    pub fn trigger_on_step(mut self, step: &str, controller: PlayerId, label: u32) -> Self {
        known(self.spec.step_by_id(step), "step", step);
        self.on_step.push((step.to_string(), controller, label));
        self
    }

    pub fn trigger_on_play(mut self, timing: &str, controller: PlayerId, label: u32) -> Self {
        known(self.spec.timing_by_id(timing), "timing class", timing);
        self.on_play.push((timing.to_string(), controller, label));
        self
    }

    fn context(&self, ctx: &HookContext) -> String {
        format!(
            "t{} {} {} r{}",
            ctx.turn,
            ctx.active,
            self.spec.step(ctx.step).unwrap().id,
            ctx.repeat
        )
    }

    pub fn asked_count(&self, action: &str) -> usize {
        self.asked.iter().filter(|a| *a == action).count()
    }
}

/// Adds the first trigger scripted for `id`, once: it is then forgotten.
fn fire_first(scripted: &mut Vec<(String, PlayerId, u32)>, id: &str, triggers: &mut Triggers<'_>) {
    if let Some(i) = scripted.iter().position(|(s, _, _)| s == id) {
        let (_, controller, label) = scripted.remove(i);
        let _ = triggers.add(controller, label);
    }
}

impl Host for TestHost {
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        let TurnActionHook {
            ctx,
            action,
            mut triggers,
            ..
        } = hook;
        let id = self.spec.turn_action(action).unwrap().id.clone();
        let call = format!("tba {id} {}", self.context(&ctx));
        self.calls.push(call);
        fire_first(&mut self.on_action, &id, &mut triggers);
        let answer = self
            .answers
            .iter()
            .find(|(a, _)| *a == id)
            .map(|(_, v)| *v)
            .unwrap_or(0);
        self.asked.push(id);
        answer
    }

    fn played(&mut self, hook: PlayedHook<'_>) {
        let PlayedHook {
            ctx,
            player,
            timing,
            label,
            mut triggers,
            ..
        } = hook;
        let id = self.spec.timing_class(timing).unwrap().id.clone();
        let call = format!("played {player} {id} #{label} {}", self.context(&ctx));
        self.calls.push(call);
        fire_first(&mut self.on_play, &id, &mut triggers);
    }

    fn step_began(&mut self, hook: StepBeganHook<'_>) {
        let StepBeganHook {
            ctx, mut triggers, ..
        } = hook;
        let call = format!("began {}", self.context(&ctx));
        self.calls.push(call);
        let id = &self.spec.step(ctx.step).unwrap().id;
        let mut i = 0;
        while i < self.on_step.len() {
            if self.on_step[i].0 == *id {
                let (_, controller, label) = self.on_step.remove(i);
                let _ = triggers.add(controller, label);
            } else {
                i += 1;
            }
        }
    }
}

/// Collects events; `Table::log` turns them into short strings.
#[derive(Default)]
pub struct Events(pub Vec<Event>);

impl EventSink for Events {
    fn event(&mut self, event: Event) {
        self.0.push(event);
    }
}

pub struct Table {
    spec: &'static Spec,
    pub game: Game,
    pub host: TestHost,
    pub events: Events,
}

impl Table {
    pub fn new(spec: &'static Spec, options: GameOptions, host: TestHost) -> Self {
        let game = Game::new(spec, &options).expect("game setup");
        let mut t = Table {
            spec,
            game,
            host,
            events: Events::default(),
        };
        t.game.start(&mut t.host, &mut t.events);
        t
    }

    pub fn spec(&self) -> &'static Spec {
        self.spec
    }

    pub fn timing(&self, id: &str) -> TimingId {
        timing(self.spec(), id)
    }

    pub fn counter(&self, id: &str) -> u16 {
        let c = known(self.spec().counter_by_id(id), "counter", id);
        self.game.counter(c)
    }

    /// Applies an action. A refusal must leave the state unchanged and
    /// emit nothing.
    pub fn act(&mut self, action: Action) -> Result<(), RuleError> {
        let before = self.game.state().clone();
        let events = self.events.0.len();
        let result = self.game.apply(action, &mut self.host, &mut self.events);
        if let Err(err) = &result {
            assert_eq!(
                self.game.state(),
                &before,
                "refused {action:?} ({err:?}) changed the state"
            );
            assert_eq!(
                self.events.0.len(),
                events,
                "refused {action:?} ({err:?}) emitted events"
            );
        }
        result
    }

    /// Gives a host command (`what` names it in messages) with the table's
    /// host and event log. A refusal must leave the state unchanged and
    /// emit nothing.
    pub fn command(
        &mut self,
        what: &str,
        run: impl FnOnce(&mut Game, &mut TestHost, &mut Events) -> Result<(), RuleError>,
    ) -> Result<(), RuleError> {
        let before = self.game.state().clone();
        let events = self.events.0.len();
        let result = run(&mut self.game, &mut self.host, &mut self.events);
        if let Err(err) = &result {
            assert_eq!(
                self.game.state(),
                &before,
                "refused {what} ({err:?}) changed the state"
            );
            assert_eq!(
                self.events.0.len(),
                events,
                "refused {what} ({err:?}) emitted events"
            );
        }
        result
    }

    /// The host command must be refused; returns why.
    pub fn refused_command(
        &mut self,
        what: &str,
        run: impl FnOnce(&mut Game, &mut TestHost, &mut Events) -> Result<(), RuleError>,
    ) -> RuleError {
        match self.command(what, run) {
            Err(e) => e,
            Ok(()) => panic!("{what} was accepted at {}", self.where_()),
        }
    }

    /// The action must be refused; returns why.
    pub fn refused(&mut self, action: Action) -> RuleError {
        match self.act(action) {
            Err(e) => e,
            Ok(()) => panic!("{action:?} was accepted at {}", self.where_()),
        }
    }

    pub fn play(&mut self, player: PlayerId, timing: &str, label: u32) -> Result<(), RuleError> {
        let timing = self.timing(timing);
        self.act(Action::Play {
            player,
            timing,
            label,
        })
    }

    pub fn holder(&self) -> PlayerId {
        self.game
            .holder()
            .unwrap_or_else(|| panic!("nobody holds priority at {}", self.where_()))
    }

    /// The holder passes.
    pub fn pass(&mut self) {
        let player = self.holder();
        self.act(Action::Pass { player })
            .unwrap_or_else(|e| panic!("{player} cannot pass: {e:?}"));
    }

    /// Each player in the game passes once, starting with the holder.
    pub fn pass_round(&mut self) {
        for _ in 0..self.game.players() {
            self.pass();
        }
    }

    /// Passes until the game stops (turn limit).
    pub fn pass_until_stopped(&mut self) {
        for _ in 0..10_000 {
            if self.game.status() != Status::Running {
                return;
            }
            self.pass();
        }
        panic!("the game never stopped");
    }

    /// Passes until a player holds priority in the step (or step-less
    /// phase) `step`, which must be a different one from the current.
    pub fn pass_until_step(&mut self, step: &str) {
        for _ in 0..10_000 {
            self.pass();
            if self.game.holder().is_some() && self.step_id() == step {
                return;
            }
        }
        panic!("never reached `{step}`");
    }

    pub fn step_id(&self) -> &'static str {
        &self.spec().step(self.game.step()).unwrap().id
    }

    pub fn where_(&self) -> String {
        format!(
            "turn {} {} (holder {:?}, stack {})",
            self.game.turn(),
            self.step_id(),
            self.game.holder(),
            self.game.stack().len()
        )
    }

    /// The events since the last call, as short strings.
    pub fn log(&mut self) -> Vec<String> {
        let spec = self.spec();
        self.events.0.drain(..).map(|e| show(spec, &e)).collect()
    }
}

fn object(spec: &Spec, o: &StackObject) -> String {
    let what = match o.kind {
        ObjectKind::Play(t) => spec.timing_class(t).unwrap().id.clone(),
        ObjectKind::Trigger => "trigger".to_string(),
        ObjectKind::TurnAction(a) => spec.turn_action(a).unwrap().id.clone(),
    };
    format!("{} {what} #{}", o.controller, o.label)
}

/// One event as a short string: `step upkeep`, `prio P1 opened`...
pub fn show(spec: &Spec, e: &Event) -> String {
    match *e {
        Event::TurnBegan { turn, player } => format!("turn {turn} {player}"),
        Event::TurnEnded { turn, .. } => format!("end turn {turn}"),
        Event::PhaseBegan { phase, number } => {
            format!("phase {} #{number}", spec.phase(phase).unwrap().id)
        }
        Event::PhaseEnded { phase } => format!("end phase {}", spec.phase(phase).unwrap().id),
        Event::StepBegan { step, repeat: 0 } => format!("step {}", spec.step(step).unwrap().id),
        Event::StepBegan { step, repeat } => {
            format!("step {} again {repeat}", spec.step(step).unwrap().id)
        }
        Event::StepEnded { step } => format!("end step {}", spec.step(step).unwrap().id),
        Event::Skipped { skipped, rule } => {
            let id = match skipped {
                Skipped::Phase(p) => spec.phase(p).unwrap().id.clone(),
                Skipped::Step(s) => spec.step(s).unwrap().id.clone(),
                #[allow(unreachable_patterns)]
                other => format!("{other:?}"),
            };
            format!("skip {id} [{}]", spec.rule(rule).unwrap_or("-"))
        }
        Event::TurnAction { action, answer } => {
            let a = spec.turn_action(action);
            if a.unwrap().answer_max > 0 {
                format!("tba {}={answer}", a.unwrap().id)
            } else {
                format!("tba {}", a.unwrap().id)
            }
        }
        Event::TriggerPut { object: o } => format!("trigger {} #{}", o.controller, o.label),
        Event::PriorityGiven {
            player,
            window,
            because,
        } => {
            let why = match because {
                Because::WindowOpened => "opened",
                Because::Passed => "passed",
                Because::Acted => "acted",
                Because::Resolved => "resolved",
                Because::Returned => "returned",
            };
            let name = window
                .map(|w| spec.window(w).unwrap().name.as_str())
                .unwrap_or("");
            if because == Because::WindowOpened && !name.is_empty() {
                format!("prio {player} {why} ({name})")
            } else {
                format!("prio {player} {why}")
            }
        }
        Event::Passed { player } => format!("pass {player}"),
        Event::Pushed { object: o } => format!("push {}", object(spec, &o)),
        Event::Resolved { object: o } => format!("resolve {}", object(spec, &o)),
        Event::SpecialAction {
            player,
            timing,
            label,
        } => format!(
            "special {player} {} #{label}",
            spec.timing_class(timing).unwrap().id
        ),
        Event::FactChanged { fact, value } => {
            format!("fact {}={value}", spec.id_of(fact))
        }
        // Events added to the engine later show in their Debug form.
        #[allow(unreachable_patterns)]
        other => format!("{other:?}"),
    }
}

/// The entries strictly between the first `begin` and the next `end`.
pub fn between(log: &[String], begin: &str, end: &str) -> Vec<String> {
    let Some(start) = log.iter().position(|e| e == begin) else {
        panic!("no {begin:?} in {log:#?}");
    };
    let Some(len) = log[start + 1..].iter().position(|e| e == end) else {
        panic!("no {end:?} after {begin:?} in {log:#?}");
    };
    log[start + 1..start + 1 + len].to_vec()
}

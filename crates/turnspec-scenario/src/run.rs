//! Running a scenario: a scripted host answers hooks, each entry acts or
//! checks, and the first failed check stops the run with a precise report.

use turnspec_engine::{
    Action, AutoPasser, Event, Game, Host, PlayerId, RuleError, Scope, Status, Stopped,
};
use turnspec_engine::{PlayedHook, ResolvedHook, StepBeganHook, TurnActionHook};
use turnspec_spec::{StepId, TurnActionId, line_col};
use turnspec_trace::{compact, is_end};

use crate::compile::{BoundScope, Expect, Illegal, Place, Scenario, ScriptedTriggers, Step};

/// Answers hooks from the script: queued answers first, then standing ones,
/// then 0.
#[derive(Default)]
struct ScriptedHost {
    queued: Vec<(TurnActionId, u16, ScriptedTriggers)>,
    standing: Vec<(TurnActionId, u16)>,
    on_begin: Vec<(StepId, ScriptedTriggers)>,
    /// Triggers the next resolution of an object with that label causes.
    on_resolve: Vec<(u32, ScriptedTriggers)>,
    /// Triggers the next play causes.
    next_play: ScriptedTriggers,
}

impl Host for ScriptedHost {
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        let TurnActionHook {
            ctx,
            action,
            mut triggers,
            ..
        } = hook;
        if let Some(i) = self.queued.iter().position(|(a, ..)| *a == action) {
            let (_, value, list) = self.queued.remove(i);
            for (by, label) in list {
                let _ = triggers.add(by.unwrap_or(ctx.active), label);
            }
            return value;
        }
        self.standing
            .iter()
            .find(|(a, _)| *a == action)
            .map(|(_, v)| *v)
            .unwrap_or(0)
    }

    fn played(&mut self, hook: PlayedHook<'_>) {
        // A play's triggers are controlled by the player who played,
        // unless the entry names another (603.3a: the controller of a
        // triggered ability is the controller of its source).
        let PlayedHook {
            player,
            mut triggers,
            ..
        } = hook;
        for (by, label) in self.next_play.drain(..) {
            let _ = triggers.add(by.unwrap_or(player), label);
        }
    }

    fn step_began(&mut self, hook: StepBeganHook<'_>) {
        let StepBeganHook {
            ctx, mut triggers, ..
        } = hook;
        while let Some(i) = self.on_begin.iter().position(|(s, _)| *s == ctx.step) {
            let (_, list) = self.on_begin.remove(i);
            for (by, label) in list {
                let _ = triggers.add(by.unwrap_or(ctx.active), label);
            }
        }
    }

    fn resolved(&mut self, hook: ResolvedHook<'_>) {
        let ResolvedHook {
            ctx,
            object,
            mut triggers,
            ..
        } = hook;
        while let Some(i) = self.on_resolve.iter().position(|(l, _)| *l == object.label) {
            let (_, list) = self.on_resolve.remove(i);
            for (by, label) in list {
                let _ = triggers.add(by.unwrap_or(ctx.active), label);
            }
        }
    }
}

/// How a scenario ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Every entry ran and every check held.
    Passed {
        /// How many checks ran, for the `ok` line.
        checks: usize,
    },
    /// The first check that did not hold, or an action the engine refused.
    Failed(Failure),
}

/// Where and how a scenario went wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// Index of the script entry (0-based) and its line:column.
    pub entry: usize,
    /// 1-based line of the entry in the scenario file.
    pub line: usize,
    /// 1-based column of the entry in the scenario file.
    pub column: usize,
    /// What went wrong, in one sentence.
    pub message: String,
    /// For event checks: what the scenario expected and what happened.
    pub expected: Vec<String>,
    /// The event lines that happened, in the same form as `expected`.
    pub actual: Vec<String>,
}

impl Failure {
    /// Index of the first differing event line, if this is an event check.
    pub fn divergence(&self) -> Option<usize> {
        if self.expected.is_empty() && self.actual.is_empty() {
            return None;
        }
        let n = self.expected.len().max(self.actual.len());
        (0..n).find(|&i| self.expected.get(i) != self.actual.get(i))
    }

    /// Expected and actual side by side, the first difference marked.
    pub fn side_by_side(&self) -> String {
        let Some(first) = self.divergence() else {
            return String::new();
        };
        let width = self
            .expected
            .iter()
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(8)
            .clamp(8, 48);
        let mut out = format!("       {:<width$}   {}\n", "expected", "actual");
        let n = self.expected.len().max(self.actual.len());
        let from = first.saturating_sub(3);
        let to = (first + 6).min(n);
        if from > 0 {
            out.push_str(&format!("       {:<width$}   …\n", "…"));
        }
        for i in from..to {
            let e = self
                .expected
                .get(i)
                .map(|s| s.as_str())
                .unwrap_or("(nothing)");
            let a = self
                .actual
                .get(i)
                .map(|s| s.as_str())
                .unwrap_or("(nothing)");
            let mark = if e == a { "  " } else { "≠ " };
            out.push_str(&format!("  {mark}{:>3} {e:<width$}   {a}\n", i + 1));
        }
        if to < n {
            out.push_str(&format!("       {:<width$}   …\n", "…"));
        }
        out
    }
}

struct Runner<'a> {
    scenario: &'a Scenario,
    game: Game,
    host: ScriptedHost,
    since_check: Vec<Event>,
    all: Vec<Event>,
    /// An entry expected the turn that never ends (`status = "never_ends"`).
    endless_expected: bool,
    /// The players' stop profiles (`[setup] stops`), for `pass_to_stop`.
    passer: AutoPasser,
    /// Why the last `pass_to_stop` stopped.
    stopped: Option<Stopped>,
}

/// Plays the scenario's script against its spec and stops at the first
/// check that fails.
pub fn run(scenario: &Scenario) -> Outcome {
    let spec = &*scenario.spec;
    let game = match Game::new(spec, &scenario.options) {
        Ok(g) => g,
        Err(e) => {
            return Outcome::Failed(Failure {
                entry: 0,
                line: 1,
                column: 1,
                message: format!("cannot set up the game: {e}"),
                expected: vec![],
                actual: vec![],
            });
        }
    };
    let mut r = Runner {
        scenario,
        game,
        host: ScriptedHost {
            standing: scenario.answers.clone(),
            ..ScriptedHost::default()
        },
        since_check: Vec::new(),
        all: Vec::new(),
        endless_expected: false,
        passer: AutoPasser::new(),
        stopped: None,
    };
    for (player, profile) in &scenario.stops {
        if let Err(e) = r.passer.set_profile(spec, *player, profile.clone()) {
            return Outcome::Failed(Failure {
                entry: 0,
                line: 1,
                column: 1,
                message: format!("cannot use the stop profile of {player}: {e}"),
                expected: vec![],
                actual: vec![],
            });
        }
    }
    // `answer` and `on_begin` entries before the first action apply to the
    // start itself (e.g. a trigger during the first untap step).
    let first_action = scenario.script.iter().position(|e| {
        !matches!(
            e.step,
            Step::Answer { .. } | Step::OnBegin { .. } | Step::OnResolve { .. }
        )
    });
    let setup_end = first_action.unwrap_or(scenario.script.len());
    for entry in &scenario.script[..setup_end] {
        r.prepare(&entry.step);
    }
    let mut events = Vec::new();
    r.game.start(&mut r.host, &mut events);
    r.record(events);
    let at = |i: usize, message: String, expected, actual| {
        let offset = scenario.script.get(i).map_or(0, |e| e.span.start);
        let (line, column) = line_col(&scenario.source, offset);
        Outcome::Failed(Failure {
            entry: i,
            line,
            column,
            message,
            expected,
            actual,
        })
    };
    if let Some(message) = r.endless(scenario.script.get(setup_end).map(|e| &e.step)) {
        return at(setup_end, message, vec![], vec![]);
    }
    let mut checks = 0;
    for (i, entry) in scenario.script.iter().enumerate().skip(setup_end) {
        if let Err((message, expected, actual)) = r.step(&entry.step) {
            // A step that ran into a turn that never ends says so first.
            let message = match r.endless(None) {
                Some(endless) => format!("{endless} ({message})"),
                None => message,
            };
            return at(i, message, expected, actual);
        }
        if let Some(message) = r.endless(scenario.script.get(i + 1).map(|e| &e.step)) {
            return at(i, message, vec![], vec![]);
        }
        if matches!(
            entry.step,
            Step::Expect(_)
                | Step::ExpectIllegal { .. }
                | Step::ExpectEvents(_)
                | Step::ExpectTrace(_)
                | Step::ExpectIncludes(_)
        ) {
            checks += 1;
        }
    }
    Outcome::Passed { checks }
}

type StepError = (String, Vec<String>, Vec<String>);

fn fail(message: impl Into<String>) -> StepError {
    (message.into(), Vec::new(), Vec::new())
}

impl Runner<'_> {
    /// If the game stopped in a turn that never ends, the failure naming
    /// the loop, unless `next` (the entry about to run) or an earlier entry
    /// expects it with `status = "never_ends"`.
    fn endless(&mut self, next: Option<&Step>) -> Option<String> {
        let endless = self.game.endless_turn()?;
        if let Some(Step::Expect(x)) = next {
            self.endless_expected |= x.status.as_deref() == Some("never_ends");
        }
        if self.endless_expected {
            return None;
        }
        Some(endless.describe(&self.scenario.spec))
    }

    fn prepare(&mut self, step: &Step) {
        match step {
            Step::Answer {
                action,
                value,
                triggers,
            } => self.host.queued.push((*action, *value, triggers.clone())),
            Step::OnBegin { step, triggers } => self.host.on_begin.push((*step, triggers.clone())),
            Step::OnResolve { label, triggers } => {
                self.host.on_resolve.push((*label, triggers.clone()))
            }
            _ => {}
        }
    }

    fn record(&mut self, events: Vec<Event>) {
        self.since_check.extend(events.iter().copied());
        self.all.extend(events);
    }

    fn lines(&self, events: &[Event]) -> Vec<String> {
        let spec = &*self.scenario.spec;
        events
            .iter()
            .filter(|e| self.scenario.show_ends || !is_end(e))
            .map(|e| compact(spec, &self.scenario.labels, e))
            .collect()
    }

    fn apply(&mut self, action: Action) -> Result<(), RuleError> {
        let mut events = Vec::new();
        let result = self.game.apply(action, &mut self.host, &mut events);
        self.record(events);
        result
    }

    fn describe(&self, e: &RuleError) -> String {
        e.describe(&self.scenario.spec)
    }

    /// Applies an action the scenario means to be legal: a refusal fails
    /// the step, with `what` before the engine's reason.
    fn act(&mut self, action: Action, what: &str) -> Result<(), StepError> {
        self.apply(action)
            .map_err(|e| fail(format!("{what}{}", self.describe(&e))))
    }

    fn holder(&self) -> Result<PlayerId, StepError> {
        self.game.holder().ok_or_else(|| {
            fail(format!(
                "nobody holds {} (game status: {:?})",
                self.scenario.spec.terms().priority,
                self.game.status()
            ))
        })
    }

    fn step(&mut self, step: &Step) -> Result<(), StepError> {
        let spec = &*self.scenario.spec;
        match step {
            Step::Answer { .. } | Step::OnBegin { .. } | Step::OnResolve { .. } => {
                self.prepare(step)
            }
            Step::PassAll => {
                let n = self.game.players();
                for _ in 0..n {
                    let p = self.holder()?;
                    self.act(Action::Pass { player: p }, "")?;
                    // The round ended early (the window closed or something resolved).
                    if self.game.passes() == 0 {
                        break;
                    }
                }
            }
            Step::PassToStop { by, command } => {
                let player = match by {
                    Some(p) => *p,
                    None => self.holder()?,
                };
                self.passer
                    .command(&self.game, player, *command)
                    .map_err(|e| fail(format!("{player} cannot give `{}`: {e}", command.name())))?;
                let mut events = Vec::new();
                let stopped = self
                    .passer
                    .advance(&mut self.game, &mut self.host, &mut events);
                self.record(events);
                self.stopped = Some(stopped);
                if let Stopped::Refused { player, error } = stopped {
                    return Err(fail(format!(
                        "the auto-passer's pass for {player} was refused: {}",
                        self.describe(&error)
                    )));
                }
            }
            Step::PassUntil { target, turn } => {
                let mut budget = 100_000;
                loop {
                    let here = match target {
                        Place::Phase(p) => self.game.phase() == *p,
                        Place::Step(s) => self.game.step() == *s,
                    };
                    let turn_ok = turn.is_none_or(|t| self.game.turn() == t);
                    if here && turn_ok && self.game.holder().is_some() {
                        break;
                    }
                    budget -= 1;
                    if budget == 0 || self.game.status() != Status::Running {
                        let name = match target {
                            Place::Phase(p) => spec.id_of(*p),
                            Place::Step(s) => spec.id_of(*s),
                        };
                        return Err(fail(format!(
                            "passing never reached a window in `{name}`{} (stopped in `{}`, turn {}, status {:?})",
                            turn.map(|t| format!(" on turn {t}")).unwrap_or_default(),
                            spec.id_of(self.game.step()),
                            self.game.turn(),
                            self.game.status()
                        )));
                    }
                    let p = self.holder()?;
                    self.act(Action::Pass { player: p }, "")?;
                }
            }
            Step::Play {
                player,
                timing,
                label,
                triggers,
            } => {
                self.host.next_play = triggers.clone();
                self.act(
                    Action::Play {
                        player: *player,
                        timing: *timing,
                        label: *label,
                    },
                    "the play was refused: ",
                )?;
            }
            Step::Expect(x) => self.expect(x)?,
            Step::ExpectIllegal {
                action,
                rule,
                reason,
            } => {
                let before = self.game.state().clone();
                let action = match *action {
                    Illegal::Pass(p) => Action::Pass { player: p },
                    Illegal::Play(p, t, label) => Action::Play {
                        player: p,
                        timing: t,
                        label,
                    },
                };
                match self.apply(action) {
                    Ok(()) => {
                        return Err(fail(
                            "expected this action to be refused, but it was accepted",
                        ));
                    }
                    Err(e) => {
                        if self.game.state() != &before {
                            return Err(fail("the refused action changed the game state"));
                        }
                        let cited = spec.rule(e.rule()).unwrap_or("");
                        if let Some(rule) = rule
                            && cited != rule
                        {
                            return Err(fail(format!(
                                "refused as expected, but citing rule `{cited}`, not `{rule}`: {}",
                                self.describe(&e)
                            )));
                        }
                        if let Some(reason) = reason {
                            let got = reason_name(&e);
                            if got != reason {
                                return Err(fail(format!(
                                    "refused as expected, but for `{got}`, not `{reason}`: {}",
                                    self.describe(&e)
                                )));
                            }
                        }
                    }
                }
            }
            Step::ExpectEvents(expected) | Step::ExpectTrace(expected) => {
                // The events since the last check, or the whole trace.
                let trace = matches!(step, Step::ExpectTrace(_));
                let actual = self.lines(if trace { &self.all } else { &self.since_check });
                self.since_check.clear();
                if &actual != expected {
                    let what = if trace {
                        "the trace differs from the expected one"
                    } else {
                        "the events differ from the expected ones"
                    };
                    return Err((what.into(), expected.clone(), actual));
                }
            }
            Step::ExpectIncludes(expected) => {
                let actual = self.lines(&self.since_check);
                self.since_check.clear();
                let mut at = 0;
                for (i, line) in expected.iter().enumerate() {
                    match actual[at..].iter().position(|a| a == line) {
                        Some(j) => at += j + 1,
                        None => {
                            return Err((
                                format!(
                                    "`{line}` (expected line {}) did not happen after the lines before it",
                                    i + 1
                                ),
                                expected.clone(),
                                actual,
                            ));
                        }
                    }
                }
            }
            // Every other step is one move or host command that must be
            // legal; an effect first reports what its source's resolution
            // triggered.
            _ => {
                if let Step::Effect { pending, .. } = step {
                    for &(who, label) in pending {
                        let controller = who.unwrap_or(self.game.active_player());
                        self.command("", |g, _, _| g.report_pending_trigger(controller, label))?;
                    }
                }
                self.one_action(step)?;
            }
        }
        Ok(())
    }

    /// Gives a host command the scenario means to be legal, with the
    /// scripted host and a list for its events: a refusal fails the step,
    /// with `what` before the engine's reason.
    fn command(
        &mut self,
        what: &str,
        run: impl FnOnce(&mut Game, &mut ScriptedHost, &mut Vec<Event>) -> Result<(), RuleError>,
    ) -> Result<(), StepError> {
        let mut events = Vec::new();
        let result = run(&mut self.game, &mut self.host, &mut events);
        self.record(events);
        result.map_err(|e| fail(format!("{what}{}", self.describe(&e))))
    }

    /// Performs a step that is one move or host command and nothing more;
    /// nothing for the other steps.
    fn one_action(&mut self, step: &Step) -> Result<(), StepError> {
        let active = self.game.active_player();
        let or_active = |p: &Option<PlayerId>| p.unwrap_or(active);
        match step {
            Step::Pass(p) => self.act(Action::Pass { player: *p }, &format!("{p} cannot pass: ")),
            Step::Trigger { controller, label } => {
                let (controller, label) = (or_active(controller), *label);
                self.command("", |g, _, e| g.report_trigger(controller, label, e))
            }
            Step::Effect {
                effect,
                player,
                target,
                ..
            } => {
                let (effect, player, target) = (*effect, or_active(player), *target);
                self.command("the effect was refused: ", |g, h, e| match target {
                    Some(target) => g.apply_declared_effect_on(effect, player, target, h, e),
                    None => g.apply_declared_effect(effect, player, h, e),
                })
            }
            Step::EndEffect { effect, player } => {
                let (effect, player) = (*effect, or_active(player));
                self.command("the effect could not end: ", |g, _, e| {
                    g.end_lasting_effect(effect, player, e)
                })
            }
            Step::DelayNextTurn {
                controller,
                label,
                at,
            } => {
                let (controller, label, at) = (or_active(controller), *label, engine_place(at));
                self.command("", |g, _, _| {
                    g.delay_trigger_to_next_turn(controller, label, at)
                })
            }
            Step::UntilBound {
                label,
                scope,
                at,
                player,
            } => {
                let player = or_active(player);
                let scope = match (scope, at) {
                    (BoundScope::UntilNext, Some(at)) => Scope::UntilNext {
                        at: engine_place(at),
                        player,
                    },
                    (BoundScope::EndOfNextTurn, Some(at)) => Scope::EndOfNextTurn {
                        at: engine_place(at),
                        player,
                    },
                    (BoundScope::FromNext, Some(at)) => Scope::FromNext {
                        at: engine_place(at),
                        player,
                    },
                    (BoundScope::ThroughNextTurn, _) => Scope::ThroughNextTurn { player },
                    (BoundScope::DuringTurnsOf, _) => Scope::DuringTurnsOf { player },
                    _ => Scope::UntilTurnOf { player },
                };
                let label = *label;
                self.command("", |g, _, _| g.start_duration(label, scope))
            }
            &Step::EndUntil { label } => self.command("", |g, _, e| g.end_duration(label, e)),
            Step::Leave(player) => self.act(Action::Leave { player: *player }, ""),
            &Step::DeclareEnding { ending, player } => {
                let player = or_active(&player);
                self.command("", |g, h, e| g.declare_ending(ending, player, h, e))
            }
            &Step::SetCounter {
                counter,
                player,
                value,
            } => {
                let player = or_active(&player);
                self.command("", |g, h, e| g.set_counter(counter, player, value, h, e))
            }
            Step::Delay {
                controller,
                label,
                at,
                own_turn,
            } => {
                let (controller, label, at, own_turn) =
                    (or_active(controller), *label, engine_place(at), *own_turn);
                self.command("", |g, _, _| {
                    g.delay_trigger(controller, label, at, own_turn)
                })
            }
            &Step::Until { label, scope } => {
                self.command("", |g, _, _| g.start_duration(label, scope))
            }
            &Step::AddMana { player, amount } => {
                self.command("", |g, _, _| g.add_mana_to_pool(player, amount))
            }
            &Step::Choose { player, label } => self.act(
                Action::Choose { player, label },
                &format!("{player} cannot choose from the bag: "),
            ),
            &Step::SetFact { fact, value } => {
                self.command("", |g, _, e| g.set_fact(fact, value, e))
            }
            &Step::SetObjectFact {
                object,
                fact,
                value,
            } => self.command("", |g, _, e| g.set_object_fact(object, fact, value, e)),
            &Step::Enter { object, controller } => {
                self.command("", |g, _, e| g.report_entered(object, controller, e))
            }
            &Step::LeavePlay { object } => self.command("", |g, _, e| g.report_left(object, e)),
            &Step::GainControl { object, controller } => {
                self.command("", |g, _, e| g.report_control(object, controller, e))
            }
            Step::Answer { .. }
            | Step::OnBegin { .. }
            | Step::OnResolve { .. }
            | Step::PassAll
            | Step::PassUntil { .. }
            | Step::PassToStop { .. }
            | Step::Play { .. }
            | Step::Expect(_)
            | Step::ExpectIllegal { .. }
            | Step::ExpectEvents(_)
            | Step::ExpectTrace(_)
            | Step::ExpectIncludes(_) => Ok(()),
        }
    }

    fn expect(&self, x: &Expect) -> Result<(), StepError> {
        let spec = &*self.scenario.spec;
        let g = &self.game;
        let mut wrong = Vec::new();
        let mut check = |what: &str, expected: String, actual: String| {
            if expected != actual {
                wrong.push(format!("{what}: expected {expected}, got {actual}"));
            }
        };
        if let Some(t) = x.turn {
            check("turn", t.to_string(), g.turn().to_string());
        }
        if let Some(p) = x.active {
            check(
                "active player",
                p.to_string(),
                g.active_player().to_string(),
            );
        }
        if let Some(p) = x.phase {
            check(
                "phase",
                spec.id_of(p).to_string(),
                spec.id_of(g.phase()).to_string(),
            );
        }
        if let Some(s) = x.step {
            check(
                "step",
                spec.id_of(s).to_string(),
                spec.id_of(g.step()).to_string(),
            );
        }
        if let Some(n) = x.phase_number {
            check("phase number", n.to_string(), g.phase_number().to_string());
        }
        if let Some(n) = x.repeat {
            check("repeat", n.to_string(), g.repeat_count().to_string());
        }
        if let Some(h) = x.holder {
            let show =
                |p: Option<PlayerId>| p.map(|p| p.to_string()).unwrap_or_else(|| "none".into());
            check(&spec.terms().priority, show(h), show(g.holder()));
        }
        if let Some(stack) = &x.stack {
            let labels = &self.scenario.labels;
            let actual: Vec<String> = g
                .stack()
                .iter()
                .map(|o| {
                    labels
                        .get(o.label as usize)
                        .filter(|l| !l.is_empty())
                        .cloned()
                        .unwrap_or_else(|| format!("#{}", o.label))
                })
                .collect();
            check(
                &spec.terms().stack,
                format!("{stack:?}"),
                format!("{actual:?}"),
            );
        }
        for (c, v) in &x.counters {
            check(
                &format!("counter {}", spec.id_of(*c)),
                v.to_string(),
                g.counter(*c).to_string(),
            );
        }
        for (f, v) in &x.facts {
            check(
                &format!("fact {}", spec.id_of(*f)),
                v.to_string(),
                g.fact(*f).to_string(),
            );
        }
        if let Some(s) = &x.status {
            let actual = g.status().name();
            check("status", s.clone(), actual.to_string());
        }
        if let Some(stopped) = &x.stopped {
            let actual = match &self.stopped {
                Some(s) => s.describe(spec),
                None => "(no pass_to_stop yet)".to_string(),
            };
            check("stopped", stopped.clone(), actual);
        }
        if let Some(w) = &x.winners {
            let actual: Vec<String> = match g.outcome() {
                Some(o) => o.winners().map(|p| p.to_string()).collect(),
                None => vec!["(the game is not over)".into()],
            };
            let expected: Vec<String> = w.iter().map(|p| p.to_string()).collect();
            check("winners", format!("{expected:?}"), format!("{actual:?}"));
        }
        if wrong.is_empty() {
            Ok(())
        } else {
            Err(fail(wrong.join("; ")))
        }
    }
}

fn reason_name(e: &RuleError) -> &'static str {
    e.reason()
}

/// A scenario place as the engine names it.
fn engine_place(at: &Place) -> turnspec_engine::Place {
    match at {
        Place::Phase(p) => turnspec_engine::Place::Phase(*p),
        Place::Step(s) => turnspec_engine::Place::Step(*s),
    }
}

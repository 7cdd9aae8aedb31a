//! Raw scenario → a script with every name resolved against its spec, so a
//! misspelt step or timing class is reported at load time with its line.

use std::ops::Range;
use std::sync::Arc;

use toml::Spanned;
use turnspec_engine::{GameOptions, PassUntil, PlayerId, Scope, StartAt};
use turnspec_spec::schema::{Format, deserialize_reporting, fields_of};
use turnspec_spec::suggest;
use turnspec_spec::{
    Arena, Diagnostic, FactId, Id, Named, PhaseId, Report, Spec, StepId, TimingId, TurnActionId,
    VariantId,
};

use crate::raw::*;

pub use crate::script::*;

/// The refusal reasons an `expect_illegal` step may name: the
/// [`turnspec_engine::RuleError::reason`] names a pass or a play can be
/// refused with. Tools that write scenarios (`turnspec explore --write`)
/// name a reason only if it is here.
pub const EXPECT_ILLEGAL_REASONS: &[&str] = &[
    "not_holder",
    "not_active_player",
    "active_player",
    "stack_not_empty",
    "wrong_step",
    "limit_reached",
    "requirement",
    "nobody",
    "not_running",
    "cannot_pay",
    "not_in_bag",
    "pass_refused",
    "not_controller",
    "no_such_object",
    "no_objects",
    "not_role_holder",
];

/// Parses a scenario file and resolves it against its spec. `load_spec`
/// receives the spec path as written (relative to the scenario file) and
/// returns the compiled spec and the path it used, or a message. A
/// scenario with `[setup] stops` needs [`load_with_files`].
pub fn load(path: &str, source: &str, load_spec: &mut SpecLoader<'_>) -> Result<Scenario, Report> {
    load_with_files(path, source, load_spec, &mut |_| {
        Err(
            "stop profiles are read from files: run the scenario from its file (`turnspec test`)"
                .to_string(),
        )
    })
}

/// [`load`], reading the stop profiles of `[setup] stops` with
/// `read_file`: it receives a path as written (relative to the scenario
/// file) and returns the file's text and the path it used, or a message.
pub fn load_with_files(
    path: &str,
    source: &str,
    load_spec: &mut SpecLoader<'_>,
    read_file: &mut FileReader<'_>,
) -> Result<Scenario, Report> {
    let mut report = Report::new(path, source);
    let raw = match parse(source, &mut report.diagnostics) {
        Some(raw) => raw,
        None => return Err(report),
    };
    let setup = raw.setup.get_ref();
    let (spec, spec_path) = match load_spec(setup.spec.get_ref()) {
        Ok(s) => s,
        Err(message) => {
            report.diagnostics.push(
                Diagnostic::error("scenario::spec", setup.spec.span(), message)
                    .label("this spec")
                    .help("the path is relative to the scenario file; run `turnspec check` on the spec"),
            );
            return Err(report);
        }
    };
    let mut c = Resolver {
        spec: &spec,
        diags: Vec::new(),
        labels: vec![String::new()],
        label_numbers: std::collections::HashMap::new(),
    };
    let mut scenario = c.scenario(path, source, &raw, (spec.clone(), spec_path));
    let players = scenario.options.players;
    for (name, file) in &setup.stops {
        let who = Spanned::new(file.span(), name.clone());
        let Some(player) = c.player(&who, players) else {
            continue;
        };
        match read_file(file.get_ref()) {
            Err(message) => c.diags.push(
                Diagnostic::error("scenario::stops", file.span(), message)
                    .label("this stop profile")
                    .help("the path is relative to the scenario file"),
            ),
            Ok((text, shown)) => match turnspec_spec::load_stops(&shown, &text, &spec) {
                Ok(profile) => scenario.stops.push((player, profile)),
                Err(profile_report) => c.diags.push(
                    Diagnostic::error(
                        "scenario::stops",
                        file.span(),
                        format!(
                            "the stop profile has {} error(s):\n{}",
                            profile_report.errors(),
                            profile_report.to_short_text()
                        ),
                    )
                    .label("this stop profile")
                    .help("run `turnspec stops check PROFILE SPEC` on it"),
                ),
            },
        }
    }
    report.diagnostics.extend(c.diags);
    report.diagnostics.sort_by_key(|d| d.span.start);
    if report.has_errors() {
        return Err(report);
    }
    Ok(scenario)
}

fn parse(source: &str, diags: &mut Vec<Diagnostic>) -> Option<RawScenario> {
    let (table, errors) = toml::de::DeTable::parse_recoverable(source);
    if !errors.is_empty() {
        for e in errors {
            diags.push(
                Diagnostic::error(
                    "scenario::toml-syntax",
                    e.span().unwrap_or(0..0),
                    format!("TOML syntax: {}", e.message()),
                )
                .label("here"),
            );
        }
        return None;
    }
    deserialize_reporting::<RawScenario>(table, &SCENARIO_FORMAT, diags)
}

/// The scenario format for the shared schema checks.
const SCENARIO_FORMAT: Format = Format {
    unknown_key_code: "scenario::unknown-key",
    schema_code: "scenario::schema",
    docs: "docs/scenarios.md",
    keys_at: scenario_keys,
    tables: &[
        ("the top of the file", &[]),
        ("[scenario]", &["scenario"]),
        ("[setup]", &["setup"]),
        ("[[script]]", &["script"]),
        ("`expect`", &["script", "expect"]),
        ("`expect_illegal`", &["script", "expect_illegal"]),
    ],
};

/// The keys of the scenario table at `tables` (array indices left out).
fn scenario_keys(tables: &[&str]) -> &'static [&'static str] {
    match tables {
        [] => fields_of::<RawScenario>(),
        ["scenario"] => fields_of::<RawHeader>(),
        ["setup"] => fields_of::<RawSetup>(),
        ["script"] => fields_of::<RawEntry>(),
        ["script", "expect"] => fields_of::<RawExpect>(),
        ["script", "expect_illegal"] => fields_of::<RawIllegal>(),
        _ => &[],
    }
}

struct Resolver<'a> {
    spec: &'a Spec,
    diags: Vec<Diagnostic>,
    labels: Vec<String>,
    /// Each label's number, so a script with many labels stays linear.
    label_numbers: std::collections::HashMap<String, u32>,
}

impl Resolver<'_> {
    fn err(&mut self, span: Range<usize>, message: String, help: String) {
        self.diags.push(
            Diagnostic::error("scenario::unknown-reference", span, message)
                .label("here")
                .help(help),
        );
    }

    fn lookup<T>(
        &mut self,
        name: &Text,
        what: &str,
        known: Vec<&str>,
        find: impl Fn(&str) -> Option<T>,
    ) -> Option<T> {
        if let Some(v) = find(name.get_ref()) {
            return Some(v);
        }
        let help = match suggest(name.get_ref(), &known) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!("the spec's {what}s are: {}", known.join(", ")),
        };
        self.err(
            name.span(),
            format!("the spec has no {what} `{}`", name.get_ref()),
            help,
        );
        None
    }

    /// An element of the spec by its id, or an error with a hint.
    fn element<I: Id, T: Named>(
        &mut self,
        name: &Text,
        what: &str,
        arena: &Arena<I, T>,
    ) -> Option<I> {
        let known = arena.iter().map(|t| t.name_id()).collect();
        self.lookup(name, what, known, |n| arena.by_id(n))
    }

    fn player(&mut self, name: &Text, players: u8) -> Option<PlayerId> {
        let text = name.get_ref();
        let n = text
            .strip_prefix('P')
            .or_else(|| text.strip_prefix('p'))
            .and_then(|n| n.parse::<u8>().ok());
        match n {
            Some(n) if n >= 1 && n <= players => Some(PlayerId(n - 1)),
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::player",
                        name.span(),
                        format!("`{text}` is not a player of this {players}-player game"),
                    )
                    .label("here")
                    .help(format!("players are written P1 to P{players}")),
                );
                None
            }
        }
    }

    fn timing(&mut self, name: &Text) -> Option<TimingId> {
        let spec = self.spec;
        self.element(name, "timing class", spec.timing())
    }

    fn place(&mut self, name: &Text) -> Option<Place> {
        let spec = self.spec;
        let mut known: Vec<&str> = spec.phases().iter().map(|p| p.id.as_str()).collect();
        known.extend(
            spec.steps()
                .iter()
                .filter(|s| !s.implicit)
                .map(|s| s.id.as_str()),
        );
        self.lookup(name, "phase or step", known, |n| {
            // A step-less phase's id names both; prefer the phase.
            spec.phase_by_id(n)
                .map(Place::Phase)
                .or_else(|| spec.step_by_id(n).map(Place::Step))
        })
    }

    fn step_id(&mut self, name: &Text) -> Option<StepId> {
        let spec = self.spec;
        self.element(name, "step", spec.steps())
    }

    fn phase_id(&mut self, name: &Text) -> Option<PhaseId> {
        let spec = self.spec;
        self.element(name, "phase", spec.phases())
    }

    fn fact(&mut self, name: &Text) -> Option<FactId> {
        let spec = self.spec;
        self.element(name, "fact", spec.facts())
    }

    fn action(&mut self, name: &Text) -> Option<TurnActionId> {
        let spec = self.spec;
        self.element(name, "turn-based action", spec.turn_actions())
    }

    fn label(&mut self, name: Option<&Text>) -> u32 {
        let Some(name) = name else { return 0 };
        let text = name.get_ref();
        if let Some(&i) = self.label_numbers.get(text) {
            return i;
        }
        self.labels.push(text.clone());
        let i = (self.labels.len() - 1) as u32;
        self.label_numbers.insert(text.clone(), i);
        i
    }

    fn number(&mut self, v: &Spanned<i64>, max: i64, what: &str) -> Option<i64> {
        let n = *v.get_ref();
        if n < 0 || n > max {
            self.diags.push(
                Diagnostic::error(
                    "scenario::bad-value",
                    v.span(),
                    format!("{what} {n} is out of range"),
                )
                .help(format!("use 0 to {max}")),
            );
            return None;
        }
        Some(n)
    }

    /// Trigger labels; `"P2: label"` names the controller, otherwise `by`
    /// (or, when that is absent too, the active player when it triggers).
    fn triggers(&mut self, list: &[Text], by: Option<PlayerId>) -> ScriptedTriggers {
        list.iter()
            .map(|t| {
                let text = t.get_ref();
                let parsed = text.split_once(':').and_then(|(who, rest)| {
                    let who = who.trim();
                    let n = who.strip_prefix('P')?.parse::<u8>().ok()?;
                    Some((n, rest.trim().to_string()))
                });
                match parsed {
                    Some((n, rest)) if (1..=8).contains(&n) => {
                        let label = self.label(Some(&Spanned::new(t.span(), rest)));
                        (Some(PlayerId(n - 1)), label)
                    }
                    _ => (by, self.label(Some(t))),
                }
            })
            .collect()
    }

    fn scenario(
        &mut self,
        path: &str,
        source: &str,
        raw: &RawScenario,
        (spec, spec_path): (Arc<Spec>, String),
    ) -> Scenario {
        let header = raw.scenario.get_ref();
        let setup = raw.setup.get_ref();
        let players = match &setup.players {
            Some(p) => {
                let n = *p.get_ref();
                if n < spec.game().min_players as i64 || n > spec.game().max_players as i64 {
                    self.diags.push(
                        Diagnostic::error(
                            "scenario::players",
                            p.span(),
                            format!(
                                "{n} players: the spec allows {} to {}",
                                spec.game().min_players,
                                spec.game().max_players
                            ),
                        )
                        .label("here"),
                    );
                }
                n.clamp(1, 8) as u8
            }
            None => spec.game().min_players,
        };
        let mut options = GameOptions::players(players);
        if let Some(p) = &setup.starting_player {
            options.starting_player = self.player(p, players).unwrap_or_default();
        }
        for v in &setup.variants {
            let spec = self.spec;
            let id: Option<VariantId> = self.element(v, "variant", spec.variants());
            options.variants.extend(id);
        }
        for f in &setup.facts {
            options.facts.extend(self.fact(f));
        }
        if setup.turn.is_some()
            || setup.active.is_some()
            || setup.phase.is_some()
            || setup.step.is_some()
        {
            let turn = setup
                .turn
                .as_ref()
                .and_then(|t| self.number(t, 1_000_000, "turn"))
                .unwrap_or(1)
                .max(1) as u32;
            let active = match &setup.active {
                Some(a) => self.player(a, players).unwrap_or_default(),
                None => options.starting_player,
            };
            let step = setup.step.as_ref().and_then(|s| self.step_id(s));
            let phase = match (&setup.phase, step) {
                (Some(p), _) => self.phase_id(p),
                (None, Some(s)) => spec.step(s).map(|s| s.phase),
                (None, None) => spec.turn().first().copied(),
            };
            if let Some(phase) = phase {
                if spec.phase(phase).is_some_and(|p| p.on_demand) {
                    let span = setup
                        .phase
                        .as_ref()
                        .map(|p| p.span())
                        .unwrap_or(raw.setup.span());
                    self.diags.push(
                        Diagnostic::error(
                            "scenario::start",
                            span,
                            "a scenario cannot start inside an on-demand phase",
                        )
                        .help("start in the phase whose action starts it, and play that action"),
                    );
                }
                options.start_at = Some(StartAt::new(turn, active, phase).at_step(step));
            }
        }
        for (name, v) in &setup.counters {
            let text = Spanned::new(v.span(), name.clone());
            let spec = self.spec;
            let id = self.element(&text, "counter", spec.counters());
            if let (Some(id), Some(n)) = (id, self.number(v, u16::MAX as i64, "counter value")) {
                options.counters.push((id, n as u16));
            }
        }
        for (name, by) in &setup.in_play {
            if let Some(controller) = self.player(by, players) {
                let label = self.label(Some(&Spanned::new(by.span(), name.clone())));
                options.in_play.push((label, controller));
            }
        }
        if !spec.objects().tracked
            && let Some(by) = setup.in_play.values().next()
        {
            self.diags.push(
                Diagnostic::error(
                    "scenario::setup",
                    by.span(),
                    "the spec keeps no objects: it has no `[objects]` table",
                )
                .help("remove `in_play`, or add `[objects]` to the spec"),
            );
        }
        if !setup.teams.is_empty() {
            if setup.teams.len() != players as usize {
                self.diags.push(
                    Diagnostic::error("scenario::teams", setup.teams[0].span(), format!("{} team numbers for {players} players", setup.teams.len()))
                        .help("give one team number per player, in seat order, e.g. `teams = [1, 1, 2, 2]`"),
                );
            }
            options.teams = setup
                .teams
                .iter()
                .filter_map(|t| self.number(t, 7, "team"))
                .map(|t| t as u8)
                .collect();
        }
        let mut answers = Vec::new();
        for (name, v) in &setup.answers {
            let text = Spanned::new(v.span(), name.clone());
            if let (Some(a), Some(n)) = (
                self.action(&text),
                self.number(v, u16::MAX as i64, "answer"),
            ) {
                answers.push((a, n as u16));
            }
        }
        let mut script = Vec::new();
        for e in &raw.script {
            if let Some(step) = self.entry(e, players) {
                script.push(Entry {
                    span: e.span(),
                    step,
                });
            }
        }
        Scenario {
            path: path.to_string(),
            source: Arc::from(source),
            name: header.name.get_ref().clone(),
            rules: header.rules.iter().map(|r| r.get_ref().clone()).collect(),
            description: header
                .description
                .as_ref()
                .map(|d| d.get_ref().clone())
                .unwrap_or_default(),
            origin: header
                .source
                .as_ref()
                .map(|d| d.get_ref().clone())
                .unwrap_or_default(),
            spec_path,
            spec,
            options,
            answers,
            show_ends: setup
                .show_ends
                .as_ref()
                .map(|b| *b.get_ref())
                .unwrap_or(false),
            labels: std::mem::take(&mut self.labels),
            stops: Vec::new(),
            script,
        }
    }

    /// `pass_to_stop = COMMAND` (with `at` for `step`).
    fn pass_to_stop(&mut self, c: &Text, at: Option<&Text>, by: Option<PlayerId>) -> Option<Step> {
        const COMMANDS: &[&str] = &[
            "next_stop",
            "end_of_turn",
            "stack_changes",
            "step",
            "resolve",
            "advance",
        ];
        let name = c.get_ref().as_str();
        let command = if name == "step" {
            let Some(at) = at else {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        c.span(),
                        "`pass_to_stop = \"step\"` needs `at = STEP`",
                    )
                    .label("until which step?"),
                );
                return None;
            };
            PassUntil::Step(self.step_id(at)?)
        } else {
            if let Some(at) = at {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        at.span(),
                        format!("`at` has no meaning with `pass_to_stop = \"{name}\"`"),
                    )
                    .label("not used")
                    .help("`at` names the step of `pass_to_stop = \"step\"`; remove it here"),
                );
            }
            match PassUntil::from_name(name) {
                Some(command) => command,
                None => {
                    let help = match suggest(name, COMMANDS) {
                        Some(s) => format!("did you mean `{s}`? commands: {}", COMMANDS.join(", ")),
                        None => format!("commands: {}", COMMANDS.join(", ")),
                    };
                    self.diags.push(
                        Diagnostic::error(
                            "scenario::bad-value",
                            c.span(),
                            format!("`{name}` is not a pass_to_stop command"),
                        )
                        .label("here")
                        .help(help),
                    );
                    return None;
                }
            }
        };
        Some(Step::PassToStop { by, command })
    }

    fn entry(&mut self, e: &Spanned<RawEntry>, players: u8) -> Option<Step> {
        let r = e.get_ref();
        let verbs = [
            r.pass.is_some(),
            r.pass_until.is_some(),
            r.pass_to_stop.is_some(),
            r.play.is_some(),
            r.trigger.is_some(),
            r.set_fact.is_some(),
            r.clear_fact.is_some(),
            r.answer.is_some(),
            r.on_begin.is_some(),
            r.on_resolve.is_some(),
            r.expect.is_some(),
            r.expect_illegal.is_some(),
            r.expect_events.is_some(),
            r.expect_trace.is_some(),
            r.expect_includes.is_some(),
            r.effect.is_some(),
            r.leave.is_some(),
            r.delay.is_some(),
            r.until.is_some(),
            r.add_mana.is_some(),
            r.choose.is_some(),
            r.end_effect.is_some(),
            r.declare_ending.is_some(),
            r.set_counter.is_some(),
            r.enter.is_some(),
            r.leave_play.is_some(),
            r.gain_control.is_some(),
            r.end_until.is_some(),
        ];
        let count = verbs.iter().filter(|v| **v).count();
        if count != 1 {
            self.diags.push(
                Diagnostic::error("scenario::entry", e.span(), format!("a script entry needs exactly one action or expectation, this one has {count}"))
                    .label("this entry")
                    .help("verbs: pass, pass_until, pass_to_stop, play, trigger, set_fact, clear_fact, answer, on_begin, on_resolve, effect, end_effect, leave, declare_ending, set_counter, enter, leave_play, gain_control, delay, until, end_until, add_mana, choose, expect, expect_illegal, expect_events, expect_includes, expect_trace"),
            );
            return None;
        }
        // Resolve everything before giving up, so every mistake is reported.
        let by = r.by.as_ref().and_then(|b| self.player(b, players));
        if r.by.is_some() && by.is_none() {
            if let Some(t) = &r.play {
                self.timing(t);
            }
            return None;
        }
        if let Some(p) = &r.pass {
            if p.get_ref() == "all" {
                return Some(Step::PassAll);
            }
            return self.player(p, players).map(Step::Pass);
        }
        if let Some(target) = &r.pass_until {
            let turn = r
                .turn
                .as_ref()
                .and_then(|t| self.number(t, 1_000_000, "turn"))
                .map(|t| t as u32);
            return self
                .place(target)
                .map(|target| Step::PassUntil { target, turn });
        }
        if let Some(c) = &r.pass_to_stop {
            return self.pass_to_stop(c, r.at.as_ref(), by);
        }
        if let Some(t) = &r.play {
            let timing = self.timing(t)?;
            let Some(player) = by else {
                self.diags.push(
                    Diagnostic::error("scenario::entry", t.span(), "`play` needs `by = \"P1\"`")
                        .label("who plays?"),
                );
                return None;
            };
            let label = self.label(r.label.as_ref());
            let triggers = self.triggers(&r.triggers, None);
            return Some(Step::Play {
                player,
                timing,
                label,
                triggers,
            });
        }
        if let Some(t) = &r.trigger {
            let label = self.label(Some(t));
            return Some(Step::Trigger {
                controller: by,
                label,
            });
        }
        if let Some(name) = &r.effect {
            let spec = self.spec;
            let effect = self.element(name, "effect", spec.effects())?;
            let target = match &r.target {
                Some(t) => Some(self.player(t, players)?),
                None => None,
            };
            let is_control = spec
                .effect(effect)
                .is_some_and(|e| e.kind == turnspec_spec::EffectKind::ControlTurn);
            if is_control != target.is_some() {
                let (span, msg, help) = if is_control {
                    (
                        name.span(),
                        "`control_turn` effects need `target = \"P2\"`: whose turn is controlled",
                        "add `target`",
                    )
                } else {
                    (
                        r.target.as_ref().map(|t| t.span()).unwrap_or(name.span()),
                        "only a `control_turn` effect takes a `target`",
                        "remove `target`",
                    )
                };
                self.diags
                    .push(Diagnostic::error("scenario::entry", span, msg).help(help));
                return None;
            }
            let pending = self.triggers(&r.pending, by);
            return Some(Step::Effect {
                effect,
                player: by,
                target,
                pending,
            });
        }
        if let Some(name) = &r.end_effect {
            let spec = self.spec;
            let effect = self.element(name, "effect", spec.effects())?;
            if !matches!(
                spec.effect(effect).map(|e| &e.kind),
                Some(turnspec_spec::EffectKind::LastingSkip { .. })
            ) {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        name.span(),
                        format!(
                            "effect `{}` is not lasting: it has nothing to end",
                            name.get_ref()
                        ),
                    )
                    .help(
                        "only `skip` effects with `lasting = true` last until the host ends them",
                    ),
                );
                return None;
            }
            return Some(Step::EndEffect { effect, player: by });
        }
        if let Some(p) = &r.leave {
            return self.player(p, players).map(Step::Leave);
        }
        if let Some(name) = &r.declare_ending {
            let spec = self.spec;
            let ending = self.element(name, "ending", spec.endings())?;
            return Some(Step::DeclareEnding { ending, player: by });
        }
        if let Some(name) = &r.set_counter {
            let spec = self.spec;
            let counter = self.element(name, "counter", spec.counters())?;
            let Some(v) = &r.value else {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        name.span(),
                        "`set_counter` needs `value`".to_string(),
                    )
                    .help("e.g. `set_counter = \"lore\"`, `by = \"P1\"`, `value = 20`"),
                );
                return None;
            };
            let value = self.number(v, u16::MAX as i64, "counter value")? as u16;
            return Some(Step::SetCounter {
                counter,
                player: by,
                value,
            });
        }
        if let Some(label) = &r.delay {
            let Some(at) = &r.at else {
                self.diags.push(Diagnostic::error(
                    "scenario::entry",
                    label.span(),
                    "`delay` needs `at = \"<phase or step>\"`",
                ));
                return None;
            };
            let at = self.place(at)?;
            let label = self.label(Some(label));
            let own_turn = r.own_turn.as_ref().is_some_and(|b| *b.get_ref());
            if let Some(n) = r.next_turn.as_ref().filter(|b| *b.get_ref()) {
                if own_turn {
                    self.diags.push(
                        Diagnostic::error("scenario::entry", n.span(), "`next_turn` and `own_turn` together: a trigger on your next turn is already in your own turn")
                            .help("keep `next_turn = true` only"),
                    );
                    return None;
                }
                return Some(Step::DelayNextTurn {
                    controller: by,
                    label,
                    at,
                });
            }
            return Some(Step::Delay {
                controller: by,
                label,
                at,
                own_turn,
            });
        }
        if let Some(label) = &r.until {
            let bound = match r.scope.as_ref().map(|s| s.get_ref().as_str()) {
                Some("until_next") => Some(BoundScope::UntilNext),
                Some("end_of_next_turn") => Some(BoundScope::EndOfNextTurn),
                Some("until_turn_of") => Some(BoundScope::UntilTurnOf),
                Some("through_next_turn") => Some(BoundScope::ThroughNextTurn),
                Some("during_turns_of") => Some(BoundScope::DuringTurnsOf),
                Some("from_next") => Some(BoundScope::FromNext),
                _ => None,
            };
            if let Some(scope) = bound {
                let at = match (&r.at, scope.has_place()) {
                    (None, false) => None,
                    (Some(at), false) => {
                        self.diags.push(
                            Diagnostic::error("scenario::entry", at.span(), "this scope takes no `at`: it is bound to the player's turns, not to a phase or step")
                                .help("remove `at`, or use scope `until_next`, `end_of_next_turn` or `from_next`"),
                        );
                        return None;
                    }
                    (None, true) => {
                        let span = r.scope.as_ref().map(|s| s.span()).unwrap_or(label.span());
                        self.diags.push(
                            Diagnostic::error(
                                "scenario::entry",
                                span,
                                "this scope needs `at = \"<phase or step>\"`",
                            )
                            .help("for example `at = \"upkeep\"` for \"until your next upkeep\""),
                        );
                        return None;
                    }
                    (Some(at), _) => Some(self.place(at)?),
                };
                let label = self.label(Some(label));
                return Some(Step::UntilBound {
                    label,
                    scope,
                    at,
                    player: by,
                });
            }
            let known = matches!(
                r.scope.as_ref().map(|s| s.get_ref().as_str()),
                None | Some("step" | "phase" | "turn")
            );
            if let Some(at) = r.at.as_ref().filter(|_| known) {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        at.span(),
                        "`at` is only for scopes bound to a player's turn",
                    )
                    .help("scopes with `at`: until_next, end_of_next_turn, from_next"),
                );
                return None;
            }
            let scope = match r.scope.as_ref().map(|s| s.get_ref().as_str()) {
                Some("step") => Scope::Step,
                Some("phase") => Scope::Phase,
                Some("turn") | None => Scope::Turn,
                Some(other) => {
                    let span = r.scope.as_ref().map(|s| s.span()).unwrap_or(label.span());
                    self.diags.push(
                        Diagnostic::error(
                            "scenario::bad-value",
                            span,
                            format!("unknown scope `{other}`"),
                        )
                        .help("scopes: step, phase, turn, until_next, end_of_next_turn, until_turn_of, through_next_turn, during_turns_of, from_next"),
                    );
                    return None;
                }
            };
            let label = self.label(Some(label));
            return Some(Step::Until { label, scope });
        }
        if let Some(l) = &r.end_until {
            let label = self.label(Some(l));
            return Some(Step::EndUntil { label });
        }
        if let Some(l) = &r.choose {
            let Some(by) = &r.by else {
                self.diags.push(
                    Diagnostic::error("scenario::entry", e.span(), "`choose` needs `by = \"P1\"`")
                        .help("the player who resolves the trigger from the bag"),
                );
                return None;
            };
            let player = self.player(by, players)?;
            let label = self.label(Some(l));
            return Some(Step::Choose { player, label });
        }
        if let Some(p) = &r.add_mana {
            let player = self.player(p, players)?;
            let amount = r
                .value
                .as_ref()
                .and_then(|v| self.number(v, u16::MAX as i64, "mana"))
                .unwrap_or(1) as u16;
            return Some(Step::AddMana { player, amount });
        }
        for (name, value) in [(&r.set_fact, true), (&r.clear_fact, false)] {
            let Some(f) = name else { continue };
            if let Some(object) = &r.label {
                // A fact of one object in play.
                let spec = self.spec;
                let fact = self.element(f, "object fact", spec.object_facts())?;
                let object = self.label(Some(object));
                return Some(Step::SetObjectFact {
                    object,
                    fact,
                    value,
                });
            }
            return self.fact(f).map(|fact| Step::SetFact { fact, value });
        }
        for (name, verb) in [(&r.enter, "enter"), (&r.gain_control, "gain_control")] {
            let Some(o) = name else { continue };
            let Some(controller) = by else {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::entry",
                        o.span(),
                        format!("`{verb}` needs `by = \"P1\"`"),
                    )
                    .label("who controls it?"),
                );
                return None;
            };
            let object = self.label(Some(o));
            return Some(match verb {
                "enter" => Step::Enter { object, controller },
                _ => Step::GainControl { object, controller },
            });
        }
        if let Some(o) = &r.leave_play {
            let object = self.label(Some(o));
            return Some(Step::LeavePlay { object });
        }
        if let Some(a) = &r.answer {
            let action = self.action(a)?;
            let value = r
                .value
                .as_ref()
                .and_then(|v| self.number(v, u16::MAX as i64, "answer"))
                .unwrap_or(0) as u16;
            let triggers = self.triggers(&r.triggers, by);
            return Some(Step::Answer {
                action,
                value,
                triggers,
            });
        }
        if let Some(s) = &r.on_begin {
            let step = self.step_id(s)?;
            let triggers = self.triggers(&r.triggers, by);
            return Some(Step::OnBegin { step, triggers });
        }
        if let Some(l) = &r.on_resolve {
            let label = self.label(Some(l));
            let triggers = self.triggers(&r.triggers, by);
            return Some(Step::OnResolve { label, triggers });
        }
        if let Some(x) = &r.expect {
            return Some(Step::Expect(self.expect(x.get_ref(), players)));
        }
        if let Some(x) = &r.expect_illegal {
            let x = x.get_ref();
            let player = match &x.by {
                Some(b) => self.player(b, players)?,
                None => match &x.pass {
                    Some(p) => self.player(p, players)?,
                    None => {
                        self.diags.push(Diagnostic::error(
                            "scenario::entry",
                            e.span(),
                            "`expect_illegal` needs `by = \"P1\"`",
                        ));
                        return None;
                    }
                },
            };
            let action = match (&x.play, &x.pass) {
                (Some(t), _) => {
                    let timing = self.timing(t)?;
                    Illegal::Play(player, timing, self.label(x.label.as_ref()))
                }
                (None, Some(_)) => Illegal::Pass(player),
                (None, None) => {
                    self.diags.push(Diagnostic::error(
                        "scenario::entry",
                        e.span(),
                        "`expect_illegal` needs `play = \"<timing>\"` or `pass = \"P1\"`",
                    ));
                    return None;
                }
            };
            if let Some(reason) = &x.reason
                && !EXPECT_ILLEGAL_REASONS.contains(&reason.get_ref().as_str())
            {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::bad-value",
                        reason.span(),
                        format!("unknown reason `{}`", reason.get_ref()),
                    )
                    .help(format!("reasons: {}", EXPECT_ILLEGAL_REASONS.join(", "))),
                );
            }
            return Some(Step::ExpectIllegal {
                action,
                rule: x.rule.as_ref().map(|r| r.get_ref().clone()),
                reason: x.reason.as_ref().map(|r| r.get_ref().clone()),
            });
        }
        // The first list of expected lines given, normalised.
        type Lines = fn(Vec<String>) -> Step;
        let lines: [(_, Lines); 3] = [
            (&r.expect_events, Step::ExpectEvents),
            (&r.expect_includes, Step::ExpectIncludes),
            (&r.expect_trace, Step::ExpectTrace),
        ];
        lines.into_iter().find_map(|(list, step)| {
            let list = list.as_ref()?.get_ref();
            Some(step(list.iter().map(|s| normalise(s.get_ref())).collect()))
        })
    }

    fn expect(&mut self, x: &RawExpect, players: u8) -> Expect {
        let mut out = Expect {
            turn: x
                .turn
                .as_ref()
                .and_then(|t| self.number(t, 1_000_000, "turn"))
                .map(|t| t as u32),
            active: x.active.as_ref().and_then(|a| self.player(a, players)),
            phase: x.phase.as_ref().and_then(|p| self.phase_id(p)),
            step: x.step.as_ref().and_then(|s| self.step_id(s)),
            phase_number: x
                .phase_number
                .as_ref()
                .and_then(|n| self.number(n, 255, "phase number"))
                .map(|n| n as u8),
            repeat: x
                .repeat
                .as_ref()
                .and_then(|n| self.number(n, 255, "repeat"))
                .map(|n| n as u8),
            holder: x.holder.as_ref().map(|h| {
                if h.get_ref() == "none" {
                    None
                } else {
                    self.player(h, players)
                }
            }),
            stack: x
                .stack
                .as_ref()
                .map(|s| s.get_ref().iter().map(|l| l.get_ref().clone()).collect()),
            ..Expect::default()
        };
        for (name, v) in &x.counters {
            let text = Spanned::new(v.span(), name.clone());
            let spec = self.spec;
            let id = self.element(&text, "counter", spec.counters());
            if let (Some(id), Some(n)) = (id, self.number(v, u16::MAX as i64, "counter value")) {
                out.counters.push((id, n as u16));
            }
        }
        for (name, v) in &x.facts {
            let text = Spanned::new(v.span(), name.clone());
            if let Some(id) = self.fact(&text) {
                out.facts.push((id, *v.get_ref()));
            }
        }
        if let Some(s) = &x.status {
            const STATUSES: &[&str] = &[
                "running",
                "over",
                "turn_limit",
                "stalled",
                "no_players",
                "never_ends",
            ];
            if !STATUSES.contains(&s.get_ref().as_str()) {
                self.diags.push(
                    Diagnostic::error(
                        "scenario::bad-value",
                        s.span(),
                        format!("unknown status `{}`", s.get_ref()),
                    )
                    .help(format!("statuses: {}", STATUSES.join(", "))),
                );
            }
            out.status = Some(s.get_ref().clone());
        }
        if let Some(w) = &x.winners {
            out.winners = Some(
                w.get_ref()
                    .iter()
                    .filter_map(|p| self.player(p, players))
                    .collect(),
            );
        }
        if let Some(s) = &x.stopped {
            out.stopped = Some(normalise(s.get_ref()));
        }
        out
    }
}

/// Collapses runs of spaces so `"push  P1 instant  Shock"` matches.
fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

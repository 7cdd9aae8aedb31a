//! Writing a sequence of moves as a scenario file (docs/scenarios.md) that
//! `turnspec test` runs: the moves are replayed on a fresh game, without
//! the search's turn limit, and the checks state what happened.

use std::sync::Arc;

use turnspec_engine::{Event, PlayerId, Status};
use turnspec_model::Spec;
use turnspec_trace::{compact, is_end};

use crate::moves::{Move, Refusal, Side, Table, labels};
use crate::{Options, toml_str};

/// The header of a scenario: its name, the rules it cites, what it shows.
pub(crate) struct Header<'a> {
    pub name: &'a str,
    pub rules: &'a [String],
    pub description: &'a str,
}

/// Builds a scenario while replaying its moves on the first (or only) spec.
pub(crate) struct Writer<'s, 't> {
    spec: &'s Spec,
    table: &'t Table,
    side: Side,
    labels: Vec<String>,
    /// Events since the last event check.
    unchecked: Vec<Event>,
    out: String,
}

impl<'s, 't> Writer<'s, 't> {
    /// Sets up the game (without a turn limit), writes the header, the
    /// set-up and a first `expect` of where the game stands at the start.
    pub(crate) fn new(
        spec: &'s Spec,
        table: &'t Table,
        options: &Options,
        header: &Header<'_>,
        spec_ref: &str,
    ) -> Result<Self, String> {
        let (side, start) = crate::start(spec, options, false)?;
        let mut out = String::new();
        out.push_str("# Written by `turnspec explore`: the shortest sequence of moves it found.\n");
        out.push_str("[scenario]\n");
        out.push_str(&format!("name = {}\n", toml_str(header.name)));
        let rules: Vec<String> = header.rules.iter().map(|r| toml_str(r)).collect();
        out.push_str(&format!("rules = [{}]\n", rules.join(", ")));
        out.push_str(&format!("description = {}\n", toml_str(header.description)));
        out.push_str("\n[setup]\n");
        out.push_str(&format!("spec = {}\n", toml_str(spec_ref)));
        out.push_str(&format!("players = {}\n", options.players));
        if let Some(s) = &options.start {
            out.push_str(&format!(
                "turn = {}\nactive = \"P{}\"\n",
                s.turn.max(1),
                s.active + 1
            ));
            if let Some(p) = &s.phase {
                out.push_str(&format!("phase = {}\n", toml_str(p)));
            }
            if let Some(st) = &s.step {
                out.push_str(&format!("step = {}\n", toml_str(st)));
            }
        }
        if !options.variants.is_empty() {
            let v: Vec<String> = options.variants.iter().map(|v| toml_str(v)).collect();
            out.push_str(&format!("variants = [{}]\n", v.join(", ")));
        }
        let mut w = Writer {
            spec,
            table,
            side,
            labels: labels(),
            unchecked: start,
            out,
        };
        // An `expect` first, so that queued answers in the script apply to
        // the next time an action happens, as they did in the search.
        w.expect_state();
        Ok(w)
    }

    fn entry(&mut self, body: &str) {
        self.out.push_str("\n[[script]]\n");
        self.out.push_str(body);
    }

    /// Writes and plays a move; a refusal is an error naming the rule.
    pub(crate) fn play(&mut self, m: Move) -> Result<(), String> {
        self.entry(&self.table.script_entry(m));
        let mut events = Vec::new();
        self.side
            .apply(self.table, 0, m, &mut events)
            .map_err(|r| self.refusal(m, &r))?;
        self.unchecked.extend(events);
        Ok(())
    }

    /// Writes and plays a move whose events are not checked (one that sets
    /// off a turn that never ends, or a stall of a million moves).
    pub(crate) fn play_unchecked(&mut self, m: Move) -> Result<(), String> {
        self.entry(&self.table.script_entry(m));
        self.side
            .apply(self.table, 0, m, &mut ())
            .map_err(|r| self.refusal(m, &r))?;
        self.unchecked.clear();
        Ok(())
    }

    fn refusal(&self, m: Move, r: &Refusal) -> String {
        let (text, _) = r.describe(self.spec, &self.table.describe(m));
        format!("{} was refused: {text}", self.table.describe(m))
    }

    /// The game's status right now.
    pub(crate) fn status(&self) -> Status {
        self.side.game.status()
    }

    fn label(&self, l: u32) -> String {
        self.labels
            .get(l as usize)
            .filter(|s| !s.is_empty())
            .cloned()
            .unwrap_or_else(|| format!("#{l}"))
    }

    /// `expect` where the game stands: turn, phase, step, holder and stack,
    /// or its status once it stopped.
    pub(crate) fn expect_state(&mut self) {
        let g = &self.side.game;
        let line = if g.status() != Status::Running {
            format!("expect = {{ status = \"{}\" }}\n", g.status().name())
        } else {
            let holder = g
                .holder()
                .map(|p: PlayerId| p.to_string())
                .unwrap_or_else(|| "none".into());
            let stack: Vec<String> = g
                .stack()
                .iter()
                .map(|o| toml_str(&self.label(o.label)))
                .collect();
            format!(
                "expect = {{ turn = {}, phase = \"{}\", step = \"{}\", holder = \"{holder}\", stack = [{}] }}\n",
                g.turn(),
                self.spec.id_of(g.phase()),
                self.spec.id_of(g.step()),
                stack.join(", ")
            )
        };
        self.entry(&line);
    }

    /// The compact lines of the events since the last event check.
    pub(crate) fn pending_lines(&self) -> Vec<String> {
        self.unchecked
            .iter()
            .filter(|e| !is_end(e))
            .map(|e| compact(self.spec, &self.labels, e))
            .collect()
    }

    /// `expect_events` with every event since the last event check.
    pub(crate) fn expect_events(&mut self) {
        let lines = self.pending_lines();
        self.unchecked.clear();
        let mut body = String::from("expect_events = [\n");
        for l in lines {
            body.push_str(&format!("  {},\n", toml_str(&l)));
        }
        body.push_str("]\n");
        self.entry(&body);
    }

    /// `expect_illegal` for a play or a pass, which this spec refuses; false
    /// (nothing written) for other moves, which a scenario cannot expect to
    /// be refused.
    pub(crate) fn expect_illegal(&mut self, m: Move, reason: Option<&str>) -> bool {
        let what = match m {
            Move::Pass(p) => format!("pass = \"{p}\""),
            Move::Play(p, t, o) => {
                let label = if o > 0 {
                    format!(", label = \"O{o}\"")
                } else {
                    String::new()
                };
                format!(
                    "play = \"{}\", by = \"{p}\"{label}",
                    self.table.timing[t as usize].name
                )
            }
            _ => return false,
        };
        let reason = reason
            .map(|r| format!(", reason = \"{r}\""))
            .unwrap_or_default();
        self.entry(&format!("expect_illegal = {{ {what}{reason} }}\n"));
        true
    }

    /// The scenario text.
    pub(crate) fn finish(self) -> String {
        self.out
    }
}

/// Loads `text` as a scenario whose spec is `spec` (whatever its `spec`
/// path says) and runs it: how `explore` checks the scenarios it writes,
/// and how a difference is shown to pass under one spec and fail under the
/// other. An invalid scenario is an error with its diagnostics.
pub fn run_scenario(text: &str, spec: Arc<Spec>) -> Result<turnspec_scenario::Outcome, String> {
    let mut loader = |_: &str| Ok((spec.clone(), "spec".to_string()));
    match turnspec_scenario::load("explore.toml", text, &mut loader) {
        Ok(scenario) => Ok(turnspec_scenario::run(&scenario)),
        Err(report) => Err(report.to_short_text()),
    }
}

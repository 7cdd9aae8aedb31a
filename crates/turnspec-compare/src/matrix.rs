//! The same scenarios under several specs: a matrix of pass / FAIL / n/a.
//!
//! Each scenario is loaded once per spec, with the spec named in its
//! `[setup]` replaced by the column's spec. A scenario that cannot be
//! loaded against a spec (it names a step, action or variant that edition
//! lacks) is *not applicable* there. For a row whose cells differ, each
//! failing cell carries the first diverging event, the expected and actual
//! lines side by side, and the rule each side cites for it.

use std::sync::Arc;

use serde_json::{Value, json};
use turnspec_scenario::{Failure, Outcome};
use turnspec_spec::line_col;
use turnspec_spec::{Report, RuleRef, Severity, Spec, Stage};

/// One column: a spec and the label shown for it (usually the file stem).
#[derive(Debug, Clone)]
pub struct SpecColumn {
    /// The column's heading, and the name its results go by.
    pub label: String,
    /// The compiled spec; shared, as every scenario runs against it.
    pub spec: Arc<Spec>,
}

/// A scenario file: its path (for messages) and its text.
#[derive(Debug, Clone)]
pub struct ScenarioText {
    /// Where the scenario came from, for messages and the row's name.
    pub path: String,
    /// The scenario file's TOML text.
    pub source: String,
}

/// The first event where a failing run left the script.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// 0-based index in the event lists.
    pub index: usize,
    /// The event line the scenario expected there, if it expected one.
    pub expected: Option<String>,
    /// The event line that happened there, if the run got that far.
    pub actual: Option<String>,
    /// The rule the spec under test cites for the actual event.
    pub actual_rule: Option<String>,
    /// The rule cited for the expected event, and the column it was found
    /// in (the first column where the scenario passes, else this one).
    pub expected_rule: Option<(String, String)>,
}

/// How one scenario fared under one spec.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Every check of the scenario held.
    Pass {
        /// How many checks ran.
        checks: usize,
    },
    /// The scenario ran, and one of its checks failed.
    Fail {
        /// What failed, where in the scenario, and the event lines.
        failure: Failure,
        /// The first diverging event, when the failure is about events.
        divergence: Option<Divergence>,
    },
    /// The scenario does not load against this spec.
    NotApplicable {
        /// Why it does not load: the first error of loading it, with its line.
        reason: String,
    },
}

impl Cell {
    /// `pass`, `FAIL` or `n/a`, as the text form shows it.
    pub fn status(&self) -> &'static str {
        match self {
            Cell::Pass { .. } => "pass",
            Cell::Fail { .. } => "FAIL",
            Cell::NotApplicable { .. } => "n/a",
        }
    }

    /// For a failure that is the expected refusal citing another rule
    /// number: (the rule the spec cites, the rule the scenario expects).
    /// Between editions this is a renumbering, not a change of behaviour.
    pub fn renumbered(&self) -> Option<(&str, &str)> {
        let Cell::Fail { failure, .. } = self else {
            return None;
        };
        let rest = failure
            .message
            .strip_prefix("refused as expected, but citing rule `")?;
        let (cited, rest) = rest.split_once("`, not `")?;
        let (expected, _) = rest.split_once('`')?;
        Some((cited, expected))
    }

    fn json_status(&self) -> &'static str {
        match self {
            Cell::Pass { .. } => "pass",
            Cell::Fail { .. } => "fail",
            Cell::NotApplicable { .. } => "n/a",
        }
    }
}

/// One scenario's results, a cell per spec column.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The scenario file's path.
    pub path: String,
    /// The scenario's name (from the first spec it loaded against), else the
    /// file name.
    pub name: String,
    /// One cell per column, in column order.
    pub cells: Vec<Cell>,
}

impl Row {
    /// Not every cell has the same status.
    pub fn differs(&self) -> bool {
        self.cells
            .windows(2)
            .any(|w| w[0].status() != w[1].status())
    }

    /// The file name without folders and extension.
    pub fn short(&self) -> &str {
        let file = self.path.rsplit(['/', '\\']).next().unwrap_or(&self.path);
        file.strip_suffix(".toml").unwrap_or(file)
    }
}

/// Every scenario run under every spec: what `turnspec compare` prints.
#[derive(Debug, Clone)]
pub struct Matrix {
    /// The specs compared, in the order given.
    pub columns: Vec<SpecColumn>,
    /// One row per scenario, in the order given.
    pub rows: Vec<Row>,
}

/// Runs every scenario under every spec.
pub fn run_matrix(columns: &[SpecColumn], scenarios: &[ScenarioText]) -> Matrix {
    let mut rows = Vec::new();
    for sc in scenarios {
        let mut name = None;
        let mut cells = Vec::new();
        for col in columns {
            let loaded = turnspec_scenario::load(&sc.path, &sc.source, &mut |_| {
                Ok((col.spec.clone(), col.label.clone()))
            });
            match loaded {
                Err(report) => {
                    cells.push(Cell::NotApplicable {
                        reason: first_error(&report),
                    });
                }
                Ok(scenario) => {
                    name.get_or_insert_with(|| scenario.name.clone());
                    cells.push(match turnspec_scenario::run(&scenario) {
                        Outcome::Passed { checks } => Cell::Pass { checks },
                        Outcome::Failed(failure) => Cell::Fail {
                            failure,
                            divergence: None,
                        },
                    });
                }
            }
        }
        // Rules for the diverging events, now that we know where it passes.
        let passing = cells.iter().position(|c| matches!(c, Cell::Pass { .. }));
        for (i, cell) in cells.iter_mut().enumerate() {
            if let Cell::Fail {
                failure,
                divergence,
            } = cell
            {
                *divergence = diverge(columns, i, passing, failure);
            }
        }
        let path = sc.path.clone();
        let fallback = path
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(&path)
            .trim_end_matches(".toml")
            .to_string();
        rows.push(Row {
            name: name.unwrap_or(fallback),
            path,
            cells,
        });
    }
    Matrix {
        columns: columns.to_vec(),
        rows,
    }
}

fn first_error(report: &Report) -> String {
    report
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .map(|d| {
            let (line, _) = line_col(&report.source, d.span.start);
            format!("line {line}: {}", d.message)
        })
        .unwrap_or_else(|| "does not load".into())
}

fn diverge(
    columns: &[SpecColumn],
    col: usize,
    passing: Option<usize>,
    f: &Failure,
) -> Option<Divergence> {
    let index = f.divergence()?;
    let spec = &columns[col].spec;
    let actual_rule = rule_for_line(spec, &f.actual, index);
    // The expected lines hold in the passing column: cite its rule.
    let mut order: Vec<usize> = passing.into_iter().collect();
    order.push(col);
    order.extend((0..columns.len()).filter(|c| *c != col && Some(*c) != passing));
    let expected_rule = order.into_iter().find_map(|c| {
        rule_for_line(&columns[c].spec, &f.expected, index).map(|r| (columns[c].label.clone(), r))
    });
    Some(Divergence {
        index,
        expected: f.expected.get(index).cloned(),
        actual: f.actual.get(index).cloned(),
        actual_rule,
        expected_rule,
    })
}

/// The rule a spec cites for the event a compact line describes (the form
/// scenarios use: `step upkeep`, `action draw`, `priority P1`, ...), with
/// the lines before it as context for priority lines.
pub fn rule_for_line(spec: &Spec, lines: &[String], index: usize) -> Option<String> {
    let line = lines.get(index)?;
    let t: Vec<&str> = line.split_whitespace().collect();
    let r = |x: RuleRef| spec.rule(x).map(str::to_string);
    match t.as_slice() {
        ["step", id, rest @ ..] => {
            let st = spec.step(spec.step_by_id(id)?)?;
            if rest.first() == Some(&"again") {
                r(st.repeat.map(|c| c.rule).unwrap_or(st.rule))
            } else {
                r(st.rule)
            }
        }
        ["phase", id, ..] => r(spec.phase(spec.phase_by_id(id)?)?.rule),
        ["skip", "step", id] => {
            let st = spec.step(spec.step_by_id(id)?)?;
            st.skip.first().and_then(|c| r(c.rule))
        }
        ["skip", "phase", id] => {
            let ph = spec.phase(spec.phase_by_id(id)?)?;
            ph.skip.first().and_then(|c| r(c.rule))
        }
        ["action", id, ..] => r(spec.turn_action(spec.turn_action_by_id(id)?)?.rule),
        ["push", _, what, ..] => match spec.timing_by_id(what) {
            Some(t) => r(spec.timing_class(t)?.rule),
            None => r(spec.turn_action(spec.turn_action_by_id(what)?)?.rule),
        },
        ["special", _, what, ..] => r(spec.timing_class(spec.timing_by_id(what)?)?.rule),
        ["resolve", ..] => r(spec.priority().close_rule),
        ["mana", _, _, "burn"] => r(spec.mana().burn_rule),
        ["mana", ..] => r(spec.mana().rule),
        ["effect", id, ..] => r(spec.effect(spec.effect_by_id(id)?)?.rule),
        ["fact", id, ..] => r(spec.facts().get(spec.fact_by_id(id)?)?.rule),
        ["priority", ..] => {
            let before = index.checked_sub(1).and_then(|i| lines.get(i));
            let prev = before.map(|l| l.split_whitespace().next().unwrap_or(""));
            match prev {
                Some("pass") => r(spec.priority().pass_rule),
                Some("resolve") => r(spec.priority().after_resolve_rule),
                Some("push") | Some("special") => r(spec.priority().after_action_rule),
                _ => window_rule(spec, &lines[..index]).or_else(|| r(spec.priority().first_rule)),
            }
        }
        _ => None,
    }
}

/// The rule of the first window of the step (or step-less phase) the lines
/// last entered.
fn window_rule(spec: &Spec, lines: &[String]) -> Option<String> {
    let step = lines.iter().rev().find_map(|l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        match t.as_slice() {
            ["step", id, ..] => spec.step_by_id(id),
            ["phase", id, ..] => {
                let p = spec.phase(spec.phase_by_id(id)?)?;
                p.implicit_step.then_some(p.first_step())
            }
            _ => None,
        }
    })?;
    spec.step(step)?.stages.iter().find_map(|s| match s {
        Stage::Window(w) => spec.rule(spec.window(*w)?.rule).map(str::to_string),
        Stage::Action(_) => None,
    })
}

impl Matrix {
    /// Rows whose cells differ.
    pub fn differing(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.differs())
    }

    /// Failures per column that only cite a renumbered rule.
    pub fn renumbered(&self) -> Vec<usize> {
        (0..self.columns.len())
            .map(|c| {
                self.rows
                    .iter()
                    .filter(|r| r.cells[c].renumbered().is_some())
                    .count()
            })
            .collect()
    }

    /// Passes, failures and n/a per column.
    pub fn totals(&self) -> Vec<(usize, usize, usize)> {
        (0..self.columns.len())
            .map(|c| {
                let mut t = (0, 0, 0);
                for row in &self.rows {
                    match row.cells[c] {
                        Cell::Pass { .. } => t.0 += 1,
                        Cell::Fail { .. } => t.1 += 1,
                        Cell::NotApplicable { .. } => t.2 += 1,
                    }
                }
                t
            })
            .collect()
    }

    /// The matrix, totals, then every differing row with its diverging
    /// events side by side.
    pub fn to_text(&self) -> String {
        let name_width = self
            .rows
            .iter()
            .map(|r| r.short().chars().count())
            .max()
            .unwrap_or(8)
            .clamp(8, 64);
        let widths: Vec<usize> = self
            .columns
            .iter()
            .map(|c| c.label.chars().count().max(4))
            .collect();
        let mut out = format!("{:<name_width$}", "scenario");
        for (c, w) in self.columns.iter().zip(&widths) {
            out.push_str(&format!("  {:<w$}", c.label));
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        out.push('\n');
        for row in &self.rows {
            let mark = if row.differs() { '*' } else { ' ' };
            let short: String = row.short().chars().take(name_width).collect();
            out.push_str(&format!("{short:<name_width$}"));
            for (cell, w) in row.cells.iter().zip(&widths) {
                out.push_str(&format!("  {:<w$}", cell.status()));
            }
            out.push_str(&format!(" {mark}\n"));
            let trimmed = out.trim_end_matches([' ', '\n']).len();
            out.truncate(trimmed);
            out.push('\n');
        }
        out.push_str(&format!(
            "\n{} scenario(s); {} differ between specs (marked *)\n",
            self.rows.len(),
            self.differing().count()
        ));
        let renumbered = self.renumbered();
        for ((c, (p, f, n)), r) in self.columns.iter().zip(self.totals()).zip(renumbered) {
            let note = if r > 0 {
                format!(" ({r} of them only cite a renumbered rule)")
            } else {
                String::new()
            };
            out.push_str(&format!(
                "  {}: {p} pass, {f} FAIL{note}, {n} n/a\n",
                c.label
            ));
        }
        let differing: Vec<&Row> = self.differing().collect();
        if !differing.is_empty() {
            out.push_str("\ndifferences\n");
        }
        let label_width = widths.iter().copied().max().unwrap_or(4);
        for row in differing {
            out.push_str(&format!("\n{}\n  {}\n", row.name, row.path));
            for (col, cell) in self.columns.iter().zip(&row.cells) {
                let head = format!("  {:<label_width$}  {:<4}  ", col.label, cell.status());
                match cell {
                    Cell::Pass { checks } => {
                        out.push_str(&format!("{head}{checks} checks\n"));
                    }
                    Cell::NotApplicable { reason } => {
                        out.push_str(&format!("{head}{reason}\n"));
                    }
                    Cell::Fail {
                        failure,
                        divergence,
                    } => {
                        out.push_str(&format!(
                            "{head}line {}: {}\n",
                            failure.line, failure.message
                        ));
                        let pad = " ".repeat(label_width + 10);
                        if let Some((cited, expected)) = cell.renumbered() {
                            out.push_str(&format!(
                                "{pad}same refusal, renumbered rule: {cited} here is {expected} in the scenario's edition\n"
                            ));
                        }
                        if let Some(d) = divergence {
                            out.push_str(&format!(
                                "{pad}first difference at event {}: expected {}, got {}\n",
                                d.index + 1,
                                shown(
                                    &d.expected,
                                    d.expected_rule
                                        .as_ref()
                                        .map(|(l, r)| { format!("{r} in {l}") })
                                ),
                                shown(
                                    &d.actual,
                                    d.actual_rule
                                        .clone()
                                        .map(|r| { format!("{r} in {}", col.label) })
                                ),
                            ));
                            for l in failure.side_by_side().lines() {
                                out.push_str(&format!("{pad}{l}\n"));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The JSON form: each spec with its totals, then each scenario's cells.
    pub fn to_json(&self) -> Value {
        let totals = self.totals();
        json!({
            "specs": self.columns.iter().zip(&totals).map(|(c, (p, f, n))| json!({
                "label": c.label,
                "name": c.spec.game().name,
                "edition": c.spec.game().edition,
                "edition_date": c.spec.game().edition_date,
                "pass": p, "fail": f, "not_applicable": n,
            })).collect::<Vec<_>>(),
            "scenarios": self.rows.iter().map(|row| json!({
                "file": row.path,
                "name": row.name,
                "differs": row.differs(),
                "cells": self.columns.iter().zip(&row.cells).map(|(c, cell)| {
                    let mut v = json!({ "spec": c.label, "status": cell.json_status() });
                    if let Some((cited, expected)) = cell.renumbered() {
                        v["renumbered"] = json!({ "cited": cited, "expected": expected });
                    }
                    match cell {
                        Cell::Pass { checks } => v["checks"] = json!(checks),
                        Cell::NotApplicable { reason } => v["reason"] = json!(reason),
                        Cell::Fail { failure, divergence } => {
                            v["failure"] = json!({
                                "line": failure.line, "column": failure.column,
                                "entry": failure.entry + 1, "message": failure.message,
                            });
                            if let Some(d) = divergence {
                                v["first_difference"] = json!({
                                    "event": d.index + 1,
                                    "expected": d.expected, "actual": d.actual,
                                    "expected_rule": d.expected_rule.as_ref().map(|(l, r)| json!({"spec": l, "rule": r})),
                                    "actual_rule": d.actual_rule,
                                    "context": failure.side_by_side(),
                                });
                            }
                        }
                    }
                    v
                }).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }
}

fn shown(line: &Option<String>, rule: Option<String>) -> String {
    let line = line
        .as_deref()
        .map(|l| format!("`{l}`"))
        .unwrap_or_else(|| "nothing".into());
    match rule {
        Some(r) => format!("{line} [{r}]"),
        None => line,
    }
}

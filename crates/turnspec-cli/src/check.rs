//! `turnspec check`: validate specs and summarise them.

use std::path::PathBuf;
use std::process::ExitCode;

use turnspec_spec::describe::{Field, Value, every_element, field, id_of, opens_text, words};
use turnspec_spec::{Describe, Spec, WindowMode};

use turnspec_scenario::{ReadError, find_specs};

use crate::{Format, render_report};

/// What `check` says about a spec, counted once for its text and its JSON.
/// What it shows of an element (the game's name and players, ids, when a
/// window opens, whether a phase is in the turn) comes from the element's
/// description.
struct Summary {
    title: String,
    name: String,
    edition: String,
    players: String,
    /// The phases of a turn, in order.
    turn: Vec<String>,
    /// The steps the spec names, in every phase (on-demand ones too).
    steps: usize,
    /// The implicit step of each phase without steps of its own.
    implicit_steps: usize,
    turn_actions: usize,
    /// How many windows open each way, by the words of a window's `opens`.
    windows: Vec<(String, usize)>,
    timing: Vec<String>,
    /// Phases started by an action.
    on_demand: Vec<String>,
}

fn summary(spec: &Spec) -> Summary {
    let game = spec.game().describe(spec);
    let text = |fields: &[Field], name: &str| {
        field(fields, name)
            .map(|f| f.value.text())
            .unwrap_or_default()
    };
    let id = |fields: Vec<Field>| id_of(&fields).unwrap_or_default().to_string();
    // Both ways a window opens are always counted, even when no window
    // does; any other (a mode added to the model) once a window opens so.
    let mut windows: Vec<(String, usize)> = [WindowMode::Always, WindowMode::IfPending]
        .into_iter()
        .map(|m| (opens_text(m).to_string(), 0))
        .collect();
    for w in spec.windows() {
        let opens = text(&w.describe(spec), "opens");
        match windows.iter_mut().find(|(o, _)| *o == opens) {
            Some((_, n)) => *n += 1,
            None => windows.push((opens, 1)),
        }
    }
    let implicit_steps = spec.steps().iter().filter(|s| s.implicit).count();
    Summary {
        title: spec.title(),
        name: text(&game, "name"),
        edition: text(&game, "edition"),
        players: text(&game, "players"),
        turn: spec
            .turn()
            .iter()
            .filter_map(|p| spec.phase(*p))
            .map(|p| id(p.describe(spec)))
            .collect(),
        steps: spec.steps().len() - implicit_steps,
        implicit_steps,
        turn_actions: spec.turn_actions().len(),
        windows,
        timing: spec.timing().iter().map(|t| id(t.describe(spec))).collect(),
        on_demand: spec
            .phases()
            .iter()
            .map(|p| p.describe(spec))
            .filter(|fields| text(fields, "occurs") == words::ON_DEMAND)
            .map(id)
            .collect(),
    }
}

impl Summary {
    fn text(&self) -> String {
        let mut steps = format!("{} steps", self.steps);
        if self.implicit_steps > 0 {
            steps.push_str(&format!(
                " ({} with the implicit steps of step-less phases)",
                self.steps + self.implicit_steps
            ));
        }
        let windows: Vec<String> = self
            .windows
            .iter()
            .map(|(opens, n)| format!("{n} {opens}"))
            .collect();
        let mut s = format!(
            "{}\n  players {}, {} phases in a turn ({}), {steps}\n  {} turn-based actions; windows: {}\n  timing classes: {}",
            self.title,
            self.players,
            self.turn.len(),
            self.turn.join(" → "),
            self.turn_actions,
            windows.join(", "),
            self.timing.join(", "),
        );
        if !self.on_demand.is_empty() {
            s.push_str(&format!(
                "\n  started by plays: {}",
                self.on_demand.join(", ")
            ));
        }
        s
    }

    fn json(&self) -> serde_json::Value {
        let opening: serde_json::Map<String, serde_json::Value> = self
            .windows
            .iter()
            .map(|(opens, n)| (opens.clone(), (*n).into()))
            .collect();
        serde_json::json!({
            "name": self.name,
            "edition": self.edition,
            "phases": self.turn.len(),
            "steps": self.steps,
            "steps_with_implicit": self.steps + self.implicit_steps,
            "turn_actions": self.turn_actions,
            "windows": self.windows.iter().map(|(_, n)| n).sum::<usize>(),
            "windows_opening": opening,
            "timing_classes": self.timing,
            "started_by_actions": self.on_demand,
        })
    }
}

/// One described field for `--explain`: `name: value`, with the rule the
/// field cites of its own (an element's `rule` is its value). Derived
/// bookkeeping is marked so.
fn field_line(spec: &Spec, f: &Field) -> Option<String> {
    let rule = spec.rule(f.rule);
    match &f.value {
        Value::Id(_) => None,
        _ if f.name == "rule" => Some(format!("rule: {}", rule.unwrap_or("none"))),
        Value::Derived { text, .. } => Some(format!("{}: {text} (derived)", f.name)),
        Value::Set(items) | Value::Seq { items, .. } if !items.is_empty() => {
            let items: Vec<String> = items
                .iter()
                .map(|i| match spec.rule(i.rule) {
                    Some(r) => format!("{}  [{r}]", i.text),
                    None => i.text.clone(),
                })
                .collect();
            Some(format!("{}: {}", f.name, items.join("; ")))
        }
        v => {
            let mut line = format!("{}: {}", f.name, v.text());
            if let (true, Some(r)) = (f.own_rule, rule) {
                line.push_str(&format!("  [{r}]"));
            }
            Some(line)
        }
    }
}

fn field_json(spec: &Spec, f: &Field) -> serde_json::Value {
    serde_json::json!({
        "name": f.name,
        "value": f.value.text(),
        "rule": spec.rule(f.rule),
        "compared": f.value.compared(),
    })
}

/// The files `check` checks: files given by name, and every spec under
/// folders (found as `test` finds scenarios), with the paths that could not
/// be searched; in the order given.
fn spec_files(paths: &[PathBuf]) -> Result<Vec<Result<PathBuf, ReadError>>, String> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(Ok(path.clone()));
            continue;
        }
        let found = find_specs(std::slice::from_ref(path));
        if found.files.is_empty() && found.errors.is_empty() {
            return Err(format!(
                "no spec files under {} (a spec is a .toml file without a [scenario] table)",
                path.display()
            ));
        }
        files.extend(found.errors.into_iter().map(Err));
        files.extend(found.files.into_iter().map(Ok));
    }
    Ok(files)
}

pub fn check(paths: &[PathBuf], format: Format, explain: bool) -> Result<ExitCode, String> {
    let mut failed = false;
    let mut json = Vec::new();
    for file in spec_files(paths)? {
        let read = file.and_then(|path| turnspec_scenario::read_text(&path).map(|_| path));
        let path = match read {
            Ok(path) => path,
            Err(e) => {
                // Report it and go on with the other files.
                let message = e.to_string();
                crate::out::eprintln(&format!("error: {message}"));
                failed = true;
                if format == Format::Json {
                    json.push(serde_json::json!({ "file": e.path.display().to_string(), "ok": false, "error": message }));
                }
                continue;
            }
        };
        let path = &path;
        let result = turnspec_scenario::load_spec_file(path);
        let (report, spec) = match result {
            Ok((spec, report)) => (report, Some(spec)),
            Err(report) => (report, None),
        };
        failed |= spec.is_none();
        match format {
            Format::Text => {
                crate::out::eprint(&render_report(&report));
                match &spec {
                    Some(spec) => {
                        if crate::out::quiet() {
                            crate::out::println(&format!("ok: {}", path.display()));
                        } else {
                            crate::out::println(&format!(
                                "ok: {}\n  {}",
                                path.display(),
                                summary(spec).text().replace('\n', "\n  ")
                            ));
                        }
                        if explain {
                            let described = every_element(spec);
                            crate::out::println("  set by:");
                            for o in spec.origins() {
                                crate::out::println(&format!(
                                    "    {:<40} {}",
                                    o.element,
                                    report.locate(o.offset)
                                ));
                                let indent = o.element.len() - o.element.trim_start().len();
                                let fields = described.iter().find(|(e, _)| e == o.element.trim());
                                for f in fields.map(|(_, f)| f.as_slice()).unwrap_or_default() {
                                    if let Some(line) = field_line(spec, f) {
                                        crate::out::println(&format!(
                                            "      {:indent$}{line}",
                                            ""
                                        ));
                                    }
                                }
                            }
                        }
                    }
                    None => crate::out::eprintln(&format!(
                        "{}: {} error(s)",
                        path.display(),
                        report.errors()
                    )),
                }
            }
            Format::Json => json.push(serde_json::json!({
                "file": path.display().to_string(),
                "ok": spec.is_some(),
                "diagnostics": report.to_json(),
                "origins": spec.as_ref().filter(|_| explain).map(|s| {
                    let described = every_element(s);
                    s.origins().iter().map(|o| {
                        let fields: Vec<serde_json::Value> = described
                            .iter()
                            .find(|(e, _)| e == o.element.trim())
                            .map(|(_, fs)| fs.iter().map(|f| field_json(s, f)).collect())
                            .unwrap_or_default();
                        serde_json::json!({ "element": o.element, "set_by": report.locate(o.offset), "fields": fields })
                    }).collect::<Vec<_>>()
                }),
                "summary": spec.as_ref().map(|s| summary(s).json()),
            })),
        }
    }
    if format == Format::Json {
        crate::out::println(&serde_json::to_string_pretty(&json).unwrap_or_default());
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

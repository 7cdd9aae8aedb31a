//! `turnspec check`: validate specs and summarise them.

use std::path::PathBuf;
use std::process::ExitCode;

use turnspec_spec::describe::{Field, Value, every_element};
use turnspec_spec::{Spec, WindowMode};

use crate::{Format, render_report};

fn summary(spec: &Spec) -> String {
    let regular_steps: usize = spec
        .turn()
        .iter()
        .map(|p| {
            spec.phase(*p)
                .steps()
                .filter(|s| !spec.step(*s).implicit)
                .count()
        })
        .sum();
    let always = spec
        .windows()
        .iter()
        .filter(|w| w.mode == WindowMode::Always)
        .count();
    let pending = spec.windows().len() - always;
    let on_demand: Vec<&str> = spec
        .phases()
        .iter()
        .filter(|p| p.on_demand)
        .map(|p| p.id.as_str())
        .collect();
    let mut s = format!(
        "{}\n  players {}–{}, {} phases in a turn ({}), {} steps\n  {} turn-based actions; windows: {} always, {} only when something is pending\n  timing classes: {}",
        spec.title(),
        spec.game().min_players,
        spec.game().max_players,
        spec.turn().len(),
        spec.turn()
            .iter()
            .map(|p| spec.phase(*p).id.as_str())
            .collect::<Vec<_>>()
            .join(" → "),
        regular_steps,
        spec.turn_actions().len(),
        always,
        pending,
        spec.timing()
            .iter()
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    );
    if !on_demand.is_empty() {
        s.push_str(&format!("\n  started by actions: {}", on_demand.join(", ")));
    }
    s
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

pub fn check(paths: &[PathBuf], format: Format, explain: bool) -> Result<ExitCode, String> {
    let mut failed = false;
    let mut json = Vec::new();
    for path in paths {
        if let Err(e) = turnspec_scenario::read_text(path) {
            // Report it and go on with the other files.
            let message = e.to_string();
            crate::out::eprintln(&format!("error: {message}"));
            failed = true;
            if format == Format::Json {
                json.push(serde_json::json!({ "file": path.display().to_string(), "ok": false, "error": message }));
            }
            continue;
        }
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
                        crate::out::println(&format!(
                            "ok: {}\n  {}",
                            path.display(),
                            summary(spec).replace('\n', "\n  ")
                        ));
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
                "summary": spec.as_ref().map(|s| serde_json::json!({
                    "name": s.game().name,
                    "edition": s.game().edition,
                    "phases": s.turn().len(),
                    "steps": s.steps().len(),
                    "turn_actions": s.turn_actions().len(),
                    "windows": s.windows().len(),
                    "timing_classes": s.timing().iter().map(|t| t.id.clone()).collect::<Vec<_>>(),
                })),
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

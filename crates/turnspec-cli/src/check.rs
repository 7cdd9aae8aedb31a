//! `turnspec check`: validate specs and summarise them.

use std::path::PathBuf;
use std::process::ExitCode;

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
                            crate::out::println("  set by:");
                            for o in spec.origins() {
                                crate::out::println(&format!(
                                    "    {:<40} {}",
                                    o.element,
                                    report.locate(o.offset)
                                ));
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
                "origins": spec.as_ref().filter(|_| explain).map(|s| s.origins().iter().map(|o| {
                    serde_json::json!({ "element": o.element, "set_by": report.locate(o.offset) })
                }).collect::<Vec<_>>()),
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

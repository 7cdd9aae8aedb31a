//! `turnspec test`: run scenario files and folders.

use std::path::PathBuf;
use std::process::ExitCode;

use turnspec_scenario::{SpecCache, find_scenarios, run_file};

use crate::Format;

pub fn test(paths: &[PathBuf], format: Format) -> Result<ExitCode, String> {
    for p in paths {
        if !p.exists() {
            return Err(format!("{} does not exist", p.display()));
        }
    }
    // A spec given by name: say what it is, rather than the scenario
    // loader's errors about every table a scenario would have.
    if let Some(spec) = paths
        .iter()
        .find(|p| turnspec_scenario::is_spec_file(p) && has_game_table(p))
    {
        return Err(format!(
            "{} is a turn spec, not a scenario: check it with `turnspec check {}`; `turnspec test` runs scenario files (a .toml file with a [scenario] table) and folders of them",
            spec.display(),
            spec.display()
        ));
    }
    let found = find_scenarios(paths);
    if found.files.is_empty() && found.errors.is_empty() {
        let mut message =
            "no scenario files found (a scenario is a .toml file with a [scenario] table)"
                .to_string();
        if let Some(first) = found.skipped.first() {
            message.push_str(&format!(
                "; skipped {} other .toml file(s), such as {} (specs are checked with `turnspec check`)",
                found.skipped.len(),
                first.display()
            ));
        }
        return Err(message);
    }
    let mut cache = SpecCache::default();
    let (mut passed, mut failed, mut invalid) = (0, 0, 0);
    let unreadable = found.errors.len();
    let mut json = Vec::new();
    for e in &found.errors {
        match format {
            Format::Text => crate::out::println(&format!("ERROR   {e}")),
            Format::Json => json.push(serde_json::json!({
                "file": e.path.display().to_string(), "status": "unreadable", "error": e.reason,
            })),
        }
    }
    for file in &found.files {
        let result = run_file(file, &mut cache);
        match &result {
            turnspec_scenario::FileResult::Invalid(_) => invalid += 1,
            r if r.passed() => passed += 1,
            _ => failed += 1,
        }
        match format {
            Format::Text if crate::out::quiet() && result.passed() => {}
            Format::Text => {
                crate::out::print(&result.to_text(file));
                if let turnspec_scenario::FileResult::Ran { scenario, .. } = &result
                    && result.passed()
                    && crate::out::verbose() > 0
                    && !scenario.rules.is_empty()
                {
                    crate::out::println(&format!("        rules: {}", scenario.rules.join(", ")));
                }
            }
            Format::Json => json.push(result.to_json(file)),
        }
    }
    match format {
        Format::Text => {
            let mut summary = format!(
                "\n{} scenarios: {passed} passed, {failed} failed, {invalid} invalid",
                found.files.len()
            );
            if unreadable > 0 {
                summary.push_str(&format!("; {unreadable} path(s) could not be read"));
            }
            for s in &found.skipped {
                summary.push_str(&format!(
                    "\nskipped {} (TOML without a [scenario] table)",
                    s.display()
                ));
            }
            crate::out::println(&summary)
        }
        Format::Json => {
            let summary = serde_json::json!({
                "scenarios": json, "passed": passed, "failed": failed, "invalid": invalid,
                "unreadable": unreadable,
                "skipped": found.skipped.iter().map(|s| s.display().to_string()).collect::<Vec<_>>(),
            });
            crate::out::println(&serde_json::to_string_pretty(&summary).unwrap_or_default())
        }
    }
    Ok(if failed + invalid + unreadable > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Whether a `.toml` file has a top-level `[game]` table, as turn specs do.
fn has_game_table(path: &std::path::Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| text.lines().any(|l| l.trim() == "[game]"))
}

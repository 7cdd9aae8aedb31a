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
    let files = find_scenarios(paths);
    if files.is_empty() {
        return Err(
            "no scenario files found (a scenario is a .toml file with a [scenario] table)".into(),
        );
    }
    let mut cache = SpecCache::default();
    let (mut passed, mut failed, mut invalid) = (0, 0, 0);
    let mut json = Vec::new();
    for file in &files {
        let result = run_file(file, &mut cache);
        match &result {
            turnspec_scenario::FileResult::Invalid(_) => invalid += 1,
            r if r.passed() => passed += 1,
            _ => failed += 1,
        }
        match format {
            Format::Text => crate::out::print(&result.to_text(file)),
            Format::Json => json.push(result.to_json(file)),
        }
    }
    match format {
        Format::Text => crate::out::println(&format!(
            "\n{} scenarios: {passed} passed, {failed} failed, {invalid} invalid",
            files.len()
        )),
        Format::Json => {
            let summary = serde_json::json!({
                "scenarios": json, "passed": passed, "failed": failed, "invalid": invalid,
            });
            crate::out::println(&serde_json::to_string_pretty(&summary).unwrap_or_default())
        }
    }
    Ok(if failed + invalid > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

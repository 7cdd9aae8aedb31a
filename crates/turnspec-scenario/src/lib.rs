//! Scenario tests for turn specs.
//!
//! A scenario is a TOML file: a setup (which spec, how many players, where
//! to start), then a script of actions and expectations in order. Scenarios
//! are how a designer states how a spec must behave, how the reference games
//! prove their rules, and what `turnspec compare` runs under several specs.
//! The format is documented in docs/scenarios.md.

#![warn(missing_docs, unreachable_pub)]

pub mod compile;
pub mod conformance;
pub mod fs;
mod raw;
pub mod run;
mod script;

pub use compile::{Scenario, load, load_with_files};
pub use fs::{
    Found, MAX_FILE_BYTES, ReadError, SpecCache, find_scenarios, find_specs, is_spec_file,
    load_file, load_spec_file, read_text,
};
pub use run::{Failure, Outcome, run};

use std::path::Path;

/// The JSON Schema of a scenario file, generated from the loader's raw
/// serde types; `turnspec schema scenario` prints it.
pub fn json_schema() -> serde_json::Value {
    turnspec_spec::schema::json_schema_of::<raw::RawScenario>(
        "turnspec scenario",
        "A scenario: a setup and a script of actions and checks; see docs/scenarios.md.",
    )
}

/// The result of one scenario file, for printing or JSON.
#[derive(Debug, Clone)]
pub enum FileResult {
    /// The file could not be loaded; the report says why, with spans.
    Invalid(turnspec_spec::Report),
    /// The file loaded and ran.
    Ran {
        /// The loaded scenario, for its name, rules and spec path.
        scenario: Box<Scenario>,
        /// Whether it passed, and where it failed if not.
        outcome: Outcome,
    },
}

/// Loads and runs one file.
pub fn run_file(path: &Path, cache: &mut SpecCache) -> FileResult {
    match load_file(path, cache) {
        Err(report) => FileResult::Invalid(report),
        Ok(scenario) => {
            let outcome = run(&scenario);
            FileResult::Ran {
                scenario: Box::new(scenario),
                outcome,
            }
        }
    }
}

impl FileResult {
    /// Whether the file loaded, ran and passed every check.
    pub fn passed(&self) -> bool {
        matches!(
            self,
            FileResult::Ran {
                outcome: Outcome::Passed { .. },
                ..
            }
        )
    }

    /// A readable account: one line when it passed; for a failure the entry
    /// that diverged, the message, and expected vs actual side by side.
    pub fn to_text(&self, path: &Path) -> String {
        match self {
            FileResult::Invalid(report) => {
                format!(
                    "INVALID {}\n{}",
                    path.display(),
                    indent(&report.to_short_text())
                )
            }
            FileResult::Ran {
                scenario,
                outcome: Outcome::Passed { checks },
            } => {
                format!(
                    "ok      {} ({checks} checks)  {}\n",
                    scenario.name,
                    path.display()
                )
            }
            FileResult::Ran {
                scenario,
                outcome: Outcome::Failed(f),
            } => {
                let mut s = format!("FAIL    {}  {}\n", scenario.name, path.display());
                s.push_str(&format!(
                    "  at {}:{}:{} (script entry {}): {}\n",
                    path.display(),
                    f.line,
                    f.column,
                    f.entry + 1,
                    f.message
                ));
                if let Some(i) = f.divergence() {
                    s.push_str(&format!("  first difference at event {}:\n", i + 1));
                    s.push_str(&indent(&f.side_by_side()));
                }
                s
            }
        }
    }

    /// The result as one JSON object, with `status` `pass`, `fail` or
    /// `invalid` (the form `turnspec test --format json` prints).
    pub fn to_json(&self, path: &Path) -> serde_json::Value {
        let file = path.display().to_string();
        match self {
            FileResult::Invalid(report) => serde_json::json!({
                "file": file, "status": "invalid", "diagnostics": report.to_json(),
            }),
            FileResult::Ran { scenario, outcome } => {
                let mut v = serde_json::json!({
                    "file": file,
                    "name": scenario.name,
                    "rules": scenario.rules,
                    "spec": scenario.spec_path,
                });
                match outcome {
                    Outcome::Passed { checks } => {
                        v["status"] = "pass".into();
                        v["checks"] = (*checks).into();
                    }
                    Outcome::Failed(f) => {
                        v["status"] = "fail".into();
                        v["failure"] = serde_json::json!({
                            "entry": f.entry + 1, "line": f.line, "column": f.column, "message": f.message,
                            "first_difference": f.divergence().map(|i| i + 1),
                            "expected": f.expected, "actual": f.actual,
                        });
                    }
                }
                v
            }
        }
    }
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("  {l}\n")).collect()
}

//! Loading the reference specs and scenarios from the source tree.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use turnspec_compare::{ScenarioText, SpecColumn};
use turnspec_spec::Spec;

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn spec(file: &str) -> Spec {
    let path = root().join("games").join(file);
    match turnspec_scenario::load_spec_file(&path) {
        Ok((spec, _)) => spec,
        Err(report) => panic!("{file} does not load:\n{}", report.to_short_text()),
    }
}

/// The four Magic editions, oldest first, labelled by file stem.
pub fn editions() -> Vec<SpecColumn> {
    ["mtg-classic", "mtg-2011", "mtg-2024", "mtg"]
        .iter()
        .map(|stem| SpecColumn {
            label: stem.to_string(),
            spec: Arc::new(spec(&format!("{stem}.toml"))),
        })
        .collect()
}

pub fn scenario(rel: &str) -> ScenarioText {
    let path = root().join("tests/scenarios").join(rel);
    ScenarioText {
        path: path.display().to_string(),
        source: std::fs::read_to_string(&path).expect("scenario file"),
    }
}

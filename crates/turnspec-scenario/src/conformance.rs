//! docs/conformance.md, generated from the scenarios themselves: for each
//! game, every rule a scenario cites, the scenarios citing it and whether
//! they pass; then the facts still pending (tests/conformance-pending.toml).
//! A test regenerates it and fails if the committed copy differs, so the
//! table cannot drift from the suite.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::{FileResult, SpecCache, find_scenarios, run_file};

#[derive(Debug, Deserialize)]
struct PendingFile {
    #[serde(default)]
    pending: Vec<Pending>,
}

#[derive(Debug, Deserialize)]
struct Pending {
    game: String,
    fact: String,
    #[serde(default)]
    rules: Vec<String>,
    needs: String,
}

/// Scenarios citing a rule, keyed by the rule's sort key: the rule as
/// written, and each citing file with its status.
type ByRule = BTreeMap<Vec<(String, u64)>, (String, Vec<(String, &'static str)>)>;

/// Orders rule citations naturally: `103.8a` < `500.2` < `500.10`, and
/// `MAIN 2` < `MAIN 2.2` < `MAIN 10`.
fn rule_key(rule: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut word = String::new();
    let mut num: Option<u64> = None;
    for c in rule.chars() {
        if let Some(d) = c.to_digit(10) {
            num = Some(num.unwrap_or(0) * 10 + d as u64);
        } else {
            if num.is_some() || !word.is_empty() {
                key.push((std::mem::take(&mut word), num.take().unwrap_or(0)));
            }
            if c.is_alphabetic() {
                word.push(c);
            }
        }
    }
    key.push((word, num.unwrap_or(0)));
    key
}

/// The whole document. `root` is the repository root; scenario paths are
/// shown relative to it.
pub fn generate(root: &Path) -> String {
    let scenarios_dir = root.join("tests/scenarios");
    let mut games: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(&scenarios_dir) {
        let mut dirs: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for dir in dirs {
            let name = dir
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            games.insert(name, find_scenarios(&[dir]).files);
        }
    }
    let pending: Vec<Pending> = crate::fs::read_text(&root.join("tests/conformance-pending.toml"))
        .ok()
        .and_then(|t| toml::from_str::<PendingFile>(&t).ok())
        .map(|f| f.pending)
        .unwrap_or_default();

    let mut out = String::from(
        "# Conformance\n\n\
         Generated from the scenarios under `tests/scenarios/` and the list of pending facts in\n\
         `tests/conformance-pending.toml` by `crates/turnspec-scenario/src/conformance.rs`.\n\
         Do not edit by hand: `cargo test -p turnspec-scenario --test scenario conformance` fails when this\n\
         file is out of date; run it with `UPDATE_CONFORMANCE=1` to rewrite it.\n\n\
         Each row is a rule a scenario cites, with every scenario citing it and its status.\n",
    );
    let mut cache = SpecCache::default();
    for (game, files) in &games {
        let mut by_rule: ByRule = BTreeMap::new();
        let (mut passed, mut total) = (0, 0);
        for file in files {
            let shown = file
                .strip_prefix(root)
                .unwrap_or(file)
                .display()
                .to_string();
            let result = run_file(file, &mut cache);
            let (rules, status) = match &result {
                FileResult::Invalid(_) => (Vec::new(), "invalid"),
                FileResult::Ran { scenario, .. } => (
                    scenario.rules.clone(),
                    if result.passed() { "pass" } else { "FAIL" },
                ),
            };
            total += 1;
            if status == "pass" {
                passed += 1;
            }
            for rule in rules {
                by_rule
                    .entry(rule_key(&rule))
                    .or_insert_with(|| (rule.clone(), Vec::new()))
                    .1
                    .push((shown.clone(), status));
            }
        }
        out.push_str(&format!(
            "\n## {game}\n\n{total} scenarios, {passed} passing, citing {} rules.\n\n| rule | scenario | status |\n|---|---|---|\n",
            by_rule.len()
        ));
        for (rule, list) in by_rule.values() {
            for (i, (file, status)) in list.iter().enumerate() {
                let shown_rule = if i == 0 { rule.as_str() } else { "" };
                out.push_str(&format!(
                    "| {shown_rule} | [{}]({}) | {status} |\n",
                    short(file),
                    link(file)
                ));
            }
        }
        // Pending facts are listed under the scenario folder named by `game`.
        let waiting: Vec<&Pending> = pending.iter().filter(|p| p.game == *game).collect();
        if !waiting.is_empty() {
            out.push_str(&format!(
                "\n### {game}: pending facts\n\nFacts from the rules reference that need a mechanism the engine does not have yet.\n\n| fact | rules | needs |\n|---|---|---|\n"
            ));
            for p in waiting {
                out.push_str(&format!(
                    "| {} | {} | {} |\n",
                    p.fact,
                    p.rules.join(", "),
                    p.needs.replace('|', "/")
                ));
            }
        }
    }
    out
}

fn short(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Links are relative to docs/.
fn link(path: &str) -> String {
    format!("../{path}")
}

#[cfg(test)]
mod tests {
    use super::rule_key;

    #[test]
    fn rules_sort_naturally() {
        let mut rules = vec![
            "500.10", "500.2", "103.8a", "MAIN 10", "MAIN 2.2", "MAIN 2", "117.3d", "117.3b",
        ];
        rules.sort_by_key(|r| rule_key(r));
        assert_eq!(
            rules,
            vec![
                "103.8a", "117.3b", "117.3d", "500.2", "500.10", "MAIN 2", "MAIN 2.2", "MAIN 10"
            ]
        );
    }
}

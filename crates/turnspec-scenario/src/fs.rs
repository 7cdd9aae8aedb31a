//! Reading scenario and spec files. The only module of this crate that
//! touches the file system.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use turnspec_spec::{Diagnostic, Report, Spec};

use crate::compile::{Scenario, load};

/// A file's text, or a report saying why it cannot be read.
fn read(path: &Path, shown: &str, code: &'static str) -> Result<String, Report> {
    std::fs::read_to_string(path).map_err(|e| {
        let mut report = Report::new(shown, "");
        report.diagnostics.push(Diagnostic::error(
            code,
            0..0,
            format!("cannot read the file: {e}"),
        ));
        report
    })
}

/// Loads a spec file, following `extends` relative to each file. Returns the
/// spec and its (warnings) report, or the report of its errors.
pub fn load_spec_file(path: &Path) -> Result<(Spec, Report), Report> {
    let shown = path.display().to_string();
    let text = read(path, &shown, "turnspec::read")?;
    turnspec_spec::load_with(&shown, &text, &mut |base, from| {
        let dir = Path::new(from)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let p = dir.join(base);
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        Ok((p.display().to_string(), text))
    })
}

/// Specs loaded so far, by canonical path: a suite of scenarios loads each
/// spec once.
#[derive(Default)]
pub struct SpecCache {
    specs: HashMap<PathBuf, Result<Arc<Spec>, String>>,
}

impl SpecCache {
    /// The spec at `path`, loaded on first use; the error is the spec's
    /// report as text, so every scenario naming a broken spec shows it.
    pub fn get(&mut self, path: &Path) -> Result<Arc<Spec>, String> {
        let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.specs
            .entry(key)
            .or_insert_with(|| {
                load_spec_file(path)
                    .map(|(spec, _)| Arc::new(spec))
                    .map_err(|report| {
                        format!(
                            "spec {} has {} error(s):\n{}",
                            path.display(),
                            report.errors(),
                            report.to_short_text()
                        )
                    })
            })
            .clone()
    }
}

/// Loads one scenario file.
pub fn load_file(path: &Path, cache: &mut SpecCache) -> Result<Scenario, Report> {
    let shown = path.display().to_string();
    let text = read(path, &shown, "scenario::read")?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    load(&shown, &text, &mut |spec| {
        let p = dir.join(spec);
        cache.get(&p).map(|s| (s, p.display().to_string()))
    })
}

/// Every `.toml` file under the given files and folders, sorted, skipping
/// files without a `[scenario]` table (specs kept beside scenarios).
pub fn find_scenarios(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out);
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out.dedup();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml")
            && std::fs::read_to_string(&p)
                .is_ok_and(|t| t.lines().any(|l| l.trim() == "[scenario]"))
        {
            out.push(p);
        }
    }
}

//! The studio: what a spec editor in the page needs. Check a text as the
//! loader does (`POST /api/check`), compare it with the saved spec
//! (`POST /api/diff`), play it without saving (`POST /api/draft`), read
//! and save spec files (`GET /api/specs/{i}/source`, `POST
//! /api/spec/save`) and run the spec's scenarios (`POST
//! /api/specs/{i}/scenarios`).
//!
//! A spec's bases (`extends`) are the specs on offer at that place, or
//! files read through [`crate::files::Files`]. Answers carry no timings, so
//! the same request gives the same answer.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};
use turnspec_scenario::Outcome;
use turnspec_spec::{Report, Spec};

use crate::Workbench;
use crate::api::ApiError;
use crate::catalog::SpecEntry;
use crate::files::{Kind, RelPath, Save, check_save, under_root};
use crate::limits::{MAX_PATH, MAX_RUNS, MAX_SOURCE};

/// `POST /api/check`: a spec's text, and where it is (or would be) under
/// the folder, for its `extends` and messages.
#[derive(Debug, Clone, Deserialize)]
pub struct CheckRequest {
    /// The spec's TOML text.
    pub text: String,
    /// Its path, relative to the folder (`games/x.toml`); `spec.toml` when
    /// absent.
    #[serde(default)]
    pub path: Option<String>,
}

/// `POST /api/diff`: a spec on offer and an edited text of it.
#[derive(Debug, Clone, Deserialize)]
pub struct DiffRequest {
    /// The spec's index.
    pub spec: usize,
    /// The edited text.
    pub text: String,
}

/// `POST /api/draft`: a text to play without saving it.
#[derive(Debug, Clone, Deserialize)]
pub struct DraftRequest {
    /// The spec it is a draft of, if any: its `extends` are resolved from
    /// that spec's file, and a new draft of it replaces the last one.
    #[serde(default)]
    pub base: Option<usize>,
    /// The spec's TOML text.
    pub text: String,
}

/// `POST /api/spec/save`: a spec's text and where to write it.
#[derive(Debug, Clone, Deserialize)]
pub struct SpecSaveRequest {
    /// The spec being edited, if any: saved to its own file (replacing it
    /// needs no `overwrite`) unless `path` says otherwise.
    #[serde(default)]
    pub spec: Option<usize>,
    /// Where to write it, relative to the folder (a new spec needs one).
    #[serde(default)]
    pub path: Option<String>,
    /// The spec's TOML text.
    pub text: String,
    /// Replace an existing spec file other than the one being edited.
    #[serde(default)]
    pub overwrite: bool,
}

/// A spec text over [`MAX_SOURCE`] bytes is refused before it is read.
fn bounded(text: &str) -> Result<(), ApiError> {
    if text.len() > MAX_SOURCE {
        return Err(ApiError::too_much(format!(
            "the spec is {} bytes; the studio takes specs of at most {MAX_SOURCE}",
            text.len()
        )));
    }
    Ok(())
}

/// The error of a text that does not load: 422, with its diagnostics.
fn does_not_load(report: &Report) -> ApiError {
    ApiError {
        status: 422,
        message: format!(
            "the spec does not load: {} error(s)",
            report.errors().max(1)
        ),
        diagnostics: Some(report.to_json().into()),
    }
}

/// Everything the page shows of a spec that is not on offer (yet).
fn details_of(label: &str, spec: &Arc<Spec>) -> Value {
    let mut v = SpecEntry::new(label, None, Arc::clone(spec)).details(0);
    v["index"] = Value::Null;
    v
}

impl Workbench {
    /// How a spec's file is named in messages and `extends`: its path
    /// under the folder, else as the entry gives it.
    fn shown_path(&self, entry: &SpecEntry) -> String {
        match &entry.path {
            Some(p) => under_root(self.files(), p)
                .map_or_else(|| p.display().to_string(), |r| r.to_string()),
            None => entry.label.clone(),
        }
    }

    /// The text a spec on offer was loaded from: kept with it, or read
    /// from its file under the folder.
    fn entry_text(&self, entry: &SpecEntry) -> Result<String, ApiError> {
        if let Some(source) = &entry.source {
            return Ok(source.to_string());
        }
        let rel = entry
            .path
            .as_deref()
            .and_then(|p| under_root(self.files(), p))
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "the text of {} is not under the folder the workbench serves",
                    entry.label
                ))
            })?;
        self.files()
            .read(&rel)?
            .ok_or_else(|| ApiError::bad(format!("{rel} is no longer there")))
    }

    /// Reads the base `base` of the file shown as `from`: a spec on offer
    /// at that place, else a file under the folder. `total` bounds the
    /// bytes of the whole chain.
    fn read_base(
        &self,
        base: &str,
        from: &str,
        total: &mut usize,
    ) -> Result<(String, String), String> {
        let parent = Path::new(from).parent().unwrap_or(Path::new(""));
        let joined = parent.join(base);
        let files = self.files();
        let at = files.locate(&joined);
        let known = at.as_ref().and_then(|at| {
            self.specs().into_iter().find(|e| {
                !e.draft && e.path.as_deref().and_then(|p| files.locate(p)).as_ref() == Some(at)
            })
        });
        let (shown, text) = match known {
            Some(e) => (
                self.shown_path(&e),
                self.entry_text(&e).map_err(|e| e.message)?,
            ),
            None => {
                let rel =
                    RelPath::resolve(&parent.to_string_lossy(), base).map_err(|e| e.message)?;
                let text = files
                    .read(&rel)
                    .map_err(|e| e.message)?
                    .ok_or_else(|| format!("no file {rel}"))?;
                (rel.to_string(), text)
            }
        };
        *total += text.len();
        if *total > 2 * MAX_SOURCE {
            return Err(format!(
                "the spec and its bases together are over {} bytes, the most the studio reads",
                2 * MAX_SOURCE
            ));
        }
        Ok((shown, text))
    }

    /// Loads a text as the file `shown`, its bases through
    /// [`Workbench::read_base`]: the spec if it loads, and the report.
    fn load_text(&self, shown: &str, text: &str) -> Result<(Option<Spec>, Report), ApiError> {
        bounded(text)?;
        if shown.len() > MAX_PATH {
            return Err(ApiError::bad("the spec's path is too long"));
        }
        let mut total = text.len();
        Ok(
            match turnspec_spec::load_with(shown, text, &mut |base, from| {
                self.read_base(base, from, &mut total)
            }) {
                Ok((spec, report)) => (Some(spec), report),
                Err(report) => (None, report),
            },
        )
    }

    /// `POST /api/check`: the text loaded as `turnspec check` loads it.
    /// `{"ok", "diagnostics", "details", "svg"}`: every diagnostic with its
    /// place (1-based lines and columns, the file of a base when it is
    /// there); when it loads, the details `GET /api/specs/{i}` gives
    /// (with `"index": null`) and the turn diagram as SVG.
    pub fn check(&self, request: &CheckRequest) -> Result<Value, ApiError> {
        let shown = request.path.as_deref().unwrap_or("spec.toml");
        let (spec, report) = self.load_text(shown, &request.text)?;
        let spec = spec.map(Arc::new);
        Ok(json!({
            "ok": spec.is_some(),
            "diagnostics": report.to_json(),
            "details": spec.as_ref().map(|s| details_of(shown, s)),
            "svg": spec.as_deref().map(crate::svg::render),
        }))
    }

    /// `POST /api/diff`: how the edited text differs from the spec on
    /// offer, as `turnspec diff` says it: `{"same", "lines", "diff",
    /// "diagnostics"}` (`lines`: the text form, `diff`: the JSON form).
    /// A text that does not load is a 422 with its diagnostics.
    pub fn diff(&self, request: &DiffRequest) -> Result<Value, ApiError> {
        let entry = self.entry(request.spec)?;
        let shown = self.shown_path(&entry);
        let (spec, report) = self.load_text(&shown, &request.text)?;
        let Some(spec) = spec else {
            return Err(does_not_load(&report));
        };
        let d = turnspec_compare::diff(&entry.spec, &spec);
        let (left, right) = (format!("{shown} (saved)"), format!("{shown} (edited)"));
        Ok(json!({
            "same": d.is_empty(),
            "lines": d.to_text(&left, &right, true).lines().collect::<Vec<_>>(),
            "diff": d.to_json(&left, &right),
            "diagnostics": report.to_json(),
        }))
    }

    /// `POST /api/draft`: loads the text and offers it as a draft spec, to
    /// play through the session routes with the index it answers
    /// (`{"spec", "details", "diagnostics"}`). At most
    /// [`crate::limits::MAX_DRAFTS`]: a draft of the same base replaces the
    /// last one, past the bound the oldest is replaced.
    pub fn draft(&self, request: &DraftRequest) -> Result<Value, ApiError> {
        let base = request.base.map(|i| self.entry(i)).transpose()?;
        let shown = base
            .as_ref()
            .map_or_else(|| "draft.toml".to_string(), |b| self.shown_path(b));
        let (spec, report) = self.load_text(&shown, &request.text)?;
        let Some(spec) = spec else {
            return Err(does_not_load(&report));
        };
        let label = base
            .as_ref()
            .map_or_else(|| "draft".to_string(), |b| format!("draft of {}", b.label));
        let entry = SpecEntry::new(label, None, Arc::new(spec)).with_source(request.text.as_str());
        let index = self.add_draft(request.base, entry.clone());
        let mut entry = entry;
        entry.draft = true;
        Ok(json!({
            "spec": index,
            "details": entry.details(index),
            "diagnostics": report.to_json(),
        }))
    }

    /// `GET /api/specs/{i}/source`: `{"path", "text"}`, the spec's file
    /// under the folder (or its label) and its text.
    pub fn source(&self, index: usize) -> Result<Value, ApiError> {
        let entry = self.entry(index)?;
        let text = self.entry_text(&entry)?;
        Ok(json!({ "path": self.shown_path(&entry), "text": text }))
    }

    /// `POST /api/spec/save`: writes the text (with the rules every save
    /// follows, [`check_save`]); a text with errors is saved too, as work
    /// in progress. When it loads, it is on offer: in place of the spec at
    /// that file, else as a new one. `{"spec", "path", "ok",
    /// "diagnostics"}` (`spec`: its index, null when it does not load).
    pub fn save_spec(&self, request: &SpecSaveRequest) -> Result<Value, ApiError> {
        bounded(&request.text)?;
        let files = self.files();
        let edited = request.spec.map(|i| self.entry(i)).transpose()?;
        let own = edited
            .as_ref()
            .and_then(|e| e.path.as_deref())
            .and_then(|p| under_root(files, p));
        let target = match (&request.path, &own) {
            (Some(p), _) => RelPath::parse(p)?,
            (None, Some(own)) => own.clone(),
            (None, None) => {
                return Err(ApiError::bad(
                    "give a path to save this spec to, such as games/my-game.toml",
                ));
            }
        };
        let save = Save {
            path: &target,
            len: request.text.len(),
            overwrite: request.overwrite || own.as_ref() == Some(&target),
            kind: Kind::Spec,
        };
        let replace = check_save(files, &save, &[])?;
        files.write(&target, &request.text, replace)?;
        let shown = target.to_string();
        let (spec, report) = self.load_text(&shown, &request.text)?;
        let index = match spec {
            Some(spec) => {
                let path = PathBuf::from(&shown);
                let at = files.locate(&path);
                let same = self.specs().iter().position(|e| {
                    !e.draft
                        && at.is_some()
                        && e.path.as_deref().and_then(|p| files.locate(p)) == at
                });
                let entry = SpecEntry::new(shown.clone(), Some(path), Arc::new(spec))
                    .with_source(request.text.as_str());
                Some(self.put_spec(same, entry)?)
            }
            None => None,
        };
        Ok(json!({
            "spec": index,
            "path": shown,
            "ok": index.is_some(),
            "diagnostics": report.to_json(),
        }))
    }

    /// `POST /api/specs/{i}/scenarios`: runs the scenarios of the spec, as
    /// the workbench holds it (a spec saved a moment ago included): the
    /// scenario files under the folder whose `[setup] spec` is its file
    /// (found by a bounded walk, [`crate::files::Files::list`]) and those
    /// saved through this workbench. `[{"path", "name", "passed",
    /// "failure"}]`, at most [`MAX_RUNS`], by path.
    pub fn run_scenarios(&self, index: usize) -> Result<Value, ApiError> {
        let entry = self.entry(index)?;
        let files = self.files();
        let Some(spec_at) = entry.path.as_deref().and_then(|p| files.locate(p)) else {
            return Ok(json!([]));
        };
        let mut paths = files.list()?;
        for saved in self.saved_scenarios() {
            if !paths.contains(&saved) {
                paths.push(saved);
            }
        }
        paths.sort();
        let mut out = Vec::new();
        for path in paths {
            if out.len() >= MAX_RUNS {
                break;
            }
            let Ok(Some(text)) = files.read(&path) else {
                continue;
            };
            if !text.lines().any(|l| l.trim() == "[scenario]") {
                continue;
            }
            let folder = path.folder();
            let shown = path.to_string();
            let mut matched = false;
            let loaded = turnspec_scenario::load_with_files(
                &shown,
                &text,
                &mut |spec_ref| {
                    if files.locate(&Path::new(&folder).join(spec_ref)).as_ref() == Some(&spec_at) {
                        matched = true;
                        Ok((Arc::clone(&entry.spec), spec_ref.to_string()))
                    } else {
                        Err("a scenario of another spec".to_string())
                    }
                },
                &mut |profile| {
                    let rel = RelPath::resolve(&folder, profile).map_err(|e| e.message)?;
                    match files.read(&rel) {
                        Ok(Some(t)) => Ok((t, rel.to_string())),
                        Ok(None) => Err(format!("no stop profile {rel}")),
                        Err(e) => Err(e.message),
                    }
                },
            );
            if !matched {
                continue;
            }
            let (name, passed, failure) = match loaded {
                Err(report) => (path.file().to_string(), false, Some(report.to_short_text())),
                Ok(scenario) => match turnspec_scenario::run(&scenario) {
                    Outcome::Passed { .. } => (scenario.name.clone(), true, None),
                    Outcome::Failed(f) => (
                        scenario.name.clone(),
                        false,
                        Some(format!(
                            "entry {} (line {}): {}",
                            f.entry + 1,
                            f.line,
                            f.message
                        )),
                    ),
                },
            };
            out.push(json!({
                "path": shown,
                "name": name,
                "passed": passed,
                "failure": failure,
            }));
        }
        Ok(Value::Array(out))
    }
}

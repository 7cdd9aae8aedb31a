//! Specs: loading from text and a map of files, `loadSpec`, `check` and the `Spec` class.

use std::collections::BTreeMap;

use turnspec_spec::{Report, Spec};
use wasm_bindgen::prelude::*;

use crate::convert::{from_js, spec_error, to_js};
use crate::shapes::{self, Diagnostic};

/// `base`, named in an `extends` of the file `from`, as a path relative to
/// the same folder: `join("games/mtg-2011.toml", "mtg.toml")` is
/// `games/mtg.toml`; `.` and `..` are resolved.
pub fn join(from: &str, base: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    if base.starts_with('/') {
        parts = vec![""];
    }
    for part in base.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| !p.is_empty() && *p != "..") {
                    parts.pop();
                } else if parts.first() != Some(&"") {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// Loads `text` (named `path`), reading the bases it `extends` from
/// `files` (path to text): by the path relative to the file that names
/// it, else by the name as written.
pub fn load_from(
    path: &str,
    text: &str,
    files: &BTreeMap<String, String>,
) -> Result<(Spec, Report), Report> {
    turnspec_spec::load_with(path, text, &mut |base: &str, from: &str| {
        let full = join(from, base);
        files
            .get(&full)
            .map(|t| (full.clone(), t.clone()))
            .or_else(|| files.get(base).map(|t| (base.to_string(), t.clone())))
            .ok_or_else(|| format!("no file {full} among the files given"))
    })
}

pub(crate) fn files_of(files: &JsValue) -> Result<BTreeMap<String, String>, JsValue> {
    if files.is_undefined() || files.is_null() {
        return Ok(BTreeMap::new());
    }
    from_js(files, "files (an object of path: text)")
}

/// A loaded, checked spec: `loadSpec(text, path, files)`.
#[wasm_bindgen(js_name = Spec)]
#[derive(Clone)]
pub struct JsSpec {
    pub(crate) spec: Spec,
    path: String,
    warnings: Vec<Diagnostic>,
}

fn ids<I, It>(spec: &Spec, items: It) -> Vec<String>
where
    I: turnspec_model::Part,
    I::Item: turnspec_model::Named,
    It: Iterator<Item = I>,
{
    items.map(|id| spec.id_of(id).to_string()).collect()
}

#[wasm_bindgen(js_class = Spec)]
impl JsSpec {
    /// The path the spec was loaded as.
    #[wasm_bindgen(getter)]
    pub fn path(&self) -> String {
        self.path.clone()
    }
    /// "Name — edition (date)".
    #[wasm_bindgen(getter)]
    pub fn title(&self) -> String {
        self.spec.title()
    }
    /// The game's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.spec.game().name.clone()
    }
    /// The edition, empty if the spec gives none.
    #[wasm_bindgen(getter)]
    pub fn edition(&self) -> String {
        self.spec.game().edition.clone()
    }
    /// The fewest players.
    #[wasm_bindgen(getter, js_name = minPlayers)]
    pub fn min_players(&self) -> u8 {
        self.spec.game().min_players
    }
    /// The most players.
    #[wasm_bindgen(getter, js_name = maxPlayers)]
    pub fn max_players(&self) -> u8 {
        self.spec.game().max_players
    }
    /// The spec's fingerprint, 16 hex digits (as `hello` gives it).
    #[wasm_bindgen(getter)]
    pub fn fingerprint(&self) -> String {
        format!("{:016x}", self.spec.fingerprint())
    }
    /// Every phase id, in the spec's order.
    #[wasm_bindgen(getter)]
    pub fn phases(&self) -> Vec<String> {
        ids(&self.spec, self.spec.phases().ids())
    }
    /// Every step id, in the spec's order.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> Vec<String> {
        ids(&self.spec, self.spec.steps().ids())
    }
    /// Every timing class id.
    #[wasm_bindgen(getter, js_name = timingClasses)]
    pub fn timing_classes(&self) -> Vec<String> {
        ids(&self.spec, self.spec.timing().ids())
    }
    /// Every turn-based action id.
    #[wasm_bindgen(getter, js_name = turnActions)]
    pub fn turn_actions(&self) -> Vec<String> {
        ids(&self.spec, self.spec.turn_actions().ids())
    }
    /// Every structural effect id.
    #[wasm_bindgen(getter)]
    pub fn effects(&self) -> Vec<String> {
        ids(&self.spec, self.spec.effects().ids())
    }
    /// Every ending id.
    #[wasm_bindgen(getter)]
    pub fn endings(&self) -> Vec<String> {
        ids(&self.spec, self.spec.endings().ids())
    }
    /// Every fact id.
    #[wasm_bindgen(getter)]
    pub fn facts(&self) -> Vec<String> {
        ids(&self.spec, self.spec.facts().ids())
    }
    /// Every counter id.
    #[wasm_bindgen(getter)]
    pub fn counters(&self) -> Vec<String> {
        ids(&self.spec, self.spec.counters().ids())
    }
    /// Every variant id.
    #[wasm_bindgen(getter)]
    pub fn variants(&self) -> Vec<String> {
        ids(&self.spec, self.spec.variants().ids())
    }
    /// The loader's warnings.
    #[wasm_bindgen(getter, unchecked_return_type = "Diagnostic[]")]
    pub fn warnings(&self) -> Result<JsValue, JsValue> {
        to_js(&self.warnings)
    }
}

/// Loads and checks a spec from its text. `path` names it in diagnostics
/// (default `<string>`); `files` maps paths to the texts of the specs it
/// `extends`. Throws a `SpecError` with every diagnostic if it has errors.
#[wasm_bindgen(js_name = loadSpec)]
pub fn load_spec(
    text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] path: Option<String>,
    #[wasm_bindgen(unchecked_optional_param_type = "Record<string, string> | null")] files: Option<
        js_sys::Object,
    >,
) -> Result<JsSpec, JsValue> {
    let path = path.unwrap_or_else(|| "<string>".to_string());
    let files = files_of(&files.map(JsValue::from).unwrap_or(JsValue::UNDEFINED))?;
    match load_from(&path, text, &files) {
        Ok((spec, warnings)) => Ok(JsSpec {
            spec,
            path,
            warnings: shapes::diagnostics(&warnings),
        }),
        Err(report) => Err(spec_error(&report)),
    }
}

/// Every diagnostic of a spec's text, errors and warnings (empty for a
/// clean spec); never throws for the spec.
#[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
pub fn check(
    text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] path: Option<String>,
    #[wasm_bindgen(unchecked_optional_param_type = "Record<string, string> | null")] files: Option<
        js_sys::Object,
    >,
) -> Result<JsValue, JsValue> {
    let path = path.unwrap_or_else(|| "<string>".to_string());
    let files = files_of(&files.map(JsValue::from).unwrap_or(JsValue::UNDEFINED))?;
    let report = match load_from(&path, text, &files) {
        Ok((_, warnings)) => warnings,
        Err(report) => report,
    };
    to_js(&shapes::diagnostics(&report))
}

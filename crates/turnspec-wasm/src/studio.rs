//! `Studio`: the workbench's app (crates/turnspec-workbench) for the static
//! studio page: every API route through `call`, over files kept in memory
//! (the page keeps them in the browser's storage) and `Date.now()` as the
//! clock.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use turnspec_workbench::{MemoryFiles, SpecEntry, Workbench};
use wasm_bindgen::prelude::*;

use crate::shapes::StudioResponse;

/// The specs on offer among `files`: every `.toml` file that loads as a
/// spec (its bases read from the same files), in path order. Scenarios,
/// stop profiles and specs with errors are not offered (the studio's
/// `check` route shows a spec's errors).
pub fn specs_among(files: &BTreeMap<String, String>) -> Vec<SpecEntry> {
    files
        .iter()
        .filter(|(path, _)| path.ends_with(".toml"))
        .filter_map(|(path, text)| {
            let (spec, _) = crate::load_from(path, text, files).ok()?;
            Some(
                SpecEntry::new(path.clone(), Some(PathBuf::from(path)), Arc::new(spec))
                    .with_source(text.as_str()),
            )
        })
        .collect()
}

/// The workbench over files in memory: `new Studio({path: text})`.
#[wasm_bindgen]
pub struct Studio {
    workbench: Workbench,
    files: Arc<MemoryFiles>,
}

impl Studio {
    /// A studio over `files` (path to text), offering the specs among them.
    pub fn with_map(files: BTreeMap<String, String>) -> Studio {
        let specs = specs_among(&files);
        let memory = Arc::new(MemoryFiles::from_map(files));
        Studio {
            workbench: Workbench::with_files(specs, memory.clone()),
            files: memory,
        }
    }

    /// One request: the route's JSON and 200, or the error's body and its
    /// status.
    pub fn respond(&self, method: &str, path: &str, body: &str, now_ms: u64) -> StudioResponse {
        match self.workbench.handle(method, path, body.as_bytes(), now_ms) {
            Ok(body) => StudioResponse { status: 200, body },
            Err(e) => StudioResponse {
                status: e.status,
                body: e.to_json(),
            },
        }
    }

    /// Every file, path to text.
    pub fn file_map(&self) -> BTreeMap<String, String> {
        self.files.to_map()
    }
}

#[wasm_bindgen]
impl Studio {
    /// A studio over `files` (an object of path: text): the specs among
    /// them are on offer, saves go into them.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, string> | null")]
        files: Option<js_sys::Object>,
    ) -> Result<Studio, JsValue> {
        let files = files.map(JsValue::from).unwrap_or(JsValue::UNDEFINED);
        Ok(Studio::with_map(crate::spec::files_of(&files)?))
    }

    /// One API request of the workbench (`GET /api/specs`, `POST
    /// /api/session`...; docs/javascript.md): `bodyJson` is the request's
    /// JSON text (empty for `GET`). Answers `{status, body}` as `turnspec
    /// serve` would; never throws for a request.
    #[wasm_bindgen(unchecked_return_type = "StudioResponse")]
    pub fn call(
        &self,
        method: &str,
        path: &str,
        body_json: Option<String>,
    ) -> Result<JsValue, JsValue> {
        let now = js_sys::Date::now();
        let now_ms = if now.is_finite() && now > 0.0 {
            now as u64
        } else {
            0
        };
        let response = self.respond(method, path, body_json.as_deref().unwrap_or(""), now_ms);
        crate::to_js(&response)
    }

    /// Every file (an object of path: text), saves included: what the page
    /// keeps in its storage.
    #[wasm_bindgen(unchecked_return_type = "Record<string, string>")]
    pub fn files(&self) -> Result<JsValue, JsValue> {
        crate::to_js(&self.file_map())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = r#"[game]
name = "Mini"
players = { min = 2, max = 2 }

[[phase]]
id = "main"
name = "Main"
rule = "1"
priority = "always"
"#;

    #[test]
    fn a_studio_offers_its_specs_and_saves_into_its_files() {
        let mut files = BTreeMap::new();
        files.insert("games/mini.toml".to_string(), MINI.to_string());
        files.insert("notes.txt".to_string(), "hello".to_string());
        files.insert("broken.toml".to_string(), "[game".to_string());
        let studio = Studio::with_map(files);
        let specs = studio.respond("GET", "/api/specs", "", 1);
        assert_eq!(specs.status, 200, "{}", specs.body);
        let listed = specs.body["specs"].as_array().cloned().unwrap_or_default();
        assert_eq!(listed.len(), 1, "{}", specs.body);
        let saved = studio.respond(
            "POST",
            "/api/spec/save",
            &serde_json::json!({ "path": "games/other.toml", "text": MINI }).to_string(),
            2,
        );
        assert_eq!(saved.status, 200, "{}", saved.body);
        assert!(studio.file_map().contains_key("games/other.toml"));
        let missing = studio.respond("GET", "/api/nowhere", "", 3);
        assert_eq!(missing.status, 404);
        assert!(missing.body["error"].is_string());
    }
}

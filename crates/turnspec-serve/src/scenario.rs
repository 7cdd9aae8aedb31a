//! Saving a session as a scenario file (docs/scenarios.md): the setup,
//! every accepted move as a script entry followed by the events it caused
//! (`expect_events`), and the final state (`expect`). Before it is shown or
//! written, the text is loaded and run by the scenario crate, so what is
//! saved is known to pass `turnspec test` as it stands.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};
use turnspec_scenario::Outcome;

use crate::Workbench;
use crate::api::{ApiError, PlayRequest};
use crate::session::{LabelTable, Move, Side, status_name};

/// `POST /api/scenario`: the session, a name, and where to write it.
#[derive(Debug, Clone, Deserialize)]
pub struct SaveRequest {
    /// The session.
    #[serde(flatten)]
    pub session: PlayRequest,
    /// The scenario's `name`; a default names the spec.
    #[serde(default)]
    pub name: String,
    /// Where to write the file, relative to the folder `turnspec serve`
    /// was started in; nothing is written without it.
    #[serde(default)]
    pub path: Option<String>,
    /// Replace an existing file.
    #[serde(default)]
    pub overwrite: bool,
}

/// A TOML basic string: JSON's escapes are TOML's.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        return "[]".into();
    }
    let mut s = String::from("[\n");
    for i in items {
        s.push_str("  ");
        s.push_str(&quoted(i));
        s.push_str(",\n");
    }
    s.push(']');
    s
}

/// The script entry of one move.
fn entry(m: &Move) -> String {
    match m {
        Move::Pass { by } => format!("pass = {}\n", quoted(by)),
        Move::PassAll => "pass = \"all\"\n".into(),
        Move::Play { timing, by, label } => {
            let mut s = format!("play = {}\nby = {}\n", quoted(timing), quoted(by));
            if !label.is_empty() {
                s.push_str(&format!("label = {}\n", quoted(label)));
            }
            s
        }
        Move::Trigger { label, by } => {
            format!("trigger = {}\nby = {}\n", quoted(label), quoted(by))
        }
        Move::Effect { effect, by } => {
            format!("effect = {}\nby = {}\n", quoted(effect), quoted(by))
        }
        Move::Answer {
            action,
            value,
            triggers,
        } => {
            let mut s = format!("answer = {}\nvalue = {value}\n", quoted(action));
            if !triggers.is_empty() {
                s.push_str(&format!("triggers = {}\n", list(triggers)));
            }
            s
        }
        Move::SetFact { fact } => format!("set_fact = {}\n", quoted(fact)),
        Move::ClearFact { fact } => format!("clear_fact = {}\n", quoted(fact)),
    }
}

/// `to` written relative to the folder `from` (both absolute), with `/`.
fn relative(from: &Path, to: &Path) -> String {
    let a: Vec<Component<'_>> = from.components().collect();
    let b: Vec<Component<'_>> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".into(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// The scenario text of a replayed session.
fn write(
    name: &str,
    spec_path: &str,
    request: &PlayRequest,
    side: &Side<'_>,
    labels: &LabelTable,
) -> String {
    let spec = side.spec;
    let lines = side.lines(labels);
    let lines_of = |m: Option<usize>| -> Vec<String> {
        side.trace
            .iter()
            .zip(&lines)
            .filter(|(e, _)| e.by_move == m)
            .map(|(_, l)| l.clone())
            .collect()
    };
    let mut rules: Vec<String> = Vec::new();
    for e in &side.trace {
        if let Some(r) = turnspec_trace::describe(spec, labels.names(), &e.event).rule
            && !rules.contains(&r)
        {
            rules.push(r);
        }
    }
    let mut t = String::new();
    t.push_str("# Recorded with `turnspec serve`: each move is followed by the events it\n");
    t.push_str("# caused, and the last entry checks where the game stood.\n");
    t.push_str("[scenario]\n");
    t.push_str(&format!("name = {}\n", quoted(name)));
    let rules: Vec<String> = rules.iter().map(|r| quoted(r)).collect();
    t.push_str(&format!("rules = [{}]\n", rules.join(", ")));
    t.push_str(&format!("source = {}\n", quoted("turnspec serve")));
    t.push_str("\n[setup]\n");
    t.push_str(&format!("spec = {}\n", quoted(spec_path)));
    t.push_str(&format!("players = {}\n", side.game.players()));
    let variants: Vec<String> = request
        .setup
        .variants
        .iter()
        .filter(|v| spec.variant_by_id(v).is_some())
        .cloned()
        .collect();
    if !variants.is_empty() {
        t.push_str(&format!("variants = {}\n", list(&variants)));
    }
    // The start's events come first, so answers given later are queued for
    // the next time, as they were in the session.
    t.push_str(&format!(
        "\n[[script]]\nexpect_events = {}\n",
        list(&lines_of(None))
    ));
    for (i, m) in request.moves.iter().enumerate() {
        if side.refused.get(i).is_none_or(|r| r.is_some()) {
            continue;
        }
        t.push_str(&format!("\n[[script]]\n{}", entry(m)));
        if side.endless_after.get(i) == Some(&true) {
            t.push_str("\n[[script]]\nexpect = { status = \"never_ends\" }\n");
        }
        if m.is_action() {
            t.push_str(&format!(
                "\n[[script]]\nexpect_events = {}\n",
                list(&lines_of(Some(i)))
            ));
        }
    }
    let g = &side.game;
    let stack: Vec<String> = g.stack().iter().map(|o| labels.name(o.label)).collect();
    t.push_str(&format!(
        "\n[[script]]\nexpect = {{ turn = {}, active = {}, phase = {}, step = {}, holder = {}, stack = [{}], status = {} }}\n",
        g.turn(),
        quoted(&g.active_player().to_string()),
        quoted(&spec.phase(g.phase()).id),
        quoted(&spec.step(g.step()).id),
        quoted(&g.holder().map_or("none".into(), |p| p.to_string())),
        stack.iter().map(|s| quoted(s)).collect::<Vec<_>>().join(", "),
        quoted(status_name(g.status())),
    ));
    t
}

/// Where a relative save path lands under `root`; refuses absolute paths,
/// `..` and names that are not `.toml`.
fn target(root: &Path, path: &str) -> Result<PathBuf, ApiError> {
    let p = Path::new(path);
    let plain = p.components().all(|c| matches!(c, Component::Normal(_)));
    if path.is_empty() || !plain {
        return Err(ApiError(format!(
            "save path `{path}` must be relative to the folder turnspec serve runs in, without `..`"
        )));
    }
    if p.extension().and_then(|e| e.to_str()) != Some("toml") {
        return Err(ApiError(format!("save path `{path}` must end in .toml")));
    }
    Ok(root.join(p))
}

impl Workbench {
    /// `POST /api/scenario`: the session as scenario text, run at once by
    /// the scenario crate; written to `path` if given and it passes.
    pub fn save(&self, request: &SaveRequest) -> Result<Value, ApiError> {
        let session = &request.session;
        let entry = self
            .specs
            .get(session.setup.spec)
            .ok_or_else(|| ApiError(format!("no spec #{}", session.setup.spec)))?;
        let Some(spec_file) = &entry.path else {
            return Err(ApiError(
                "this spec is built into turnspec and has no file a scenario could name; start `turnspec serve` with a spec file".into(),
            ));
        };
        let spec_file = spec_file
            .canonicalize()
            .map_err(|e| ApiError(format!("cannot find {}: {e}", spec_file.display())))?;
        let target = request
            .path
            .as_deref()
            .map(|p| target(&self.save_root, p))
            .transpose()?;
        let folder = match &target {
            Some(t) => {
                let parent = t.parent().unwrap_or(&self.save_root);
                std::fs::create_dir_all(parent)
                    .map_err(|e| ApiError(format!("cannot create {}: {e}", parent.display())))?;
                parent
                    .canonicalize()
                    .map_err(|e| ApiError(format!("cannot find {}: {e}", parent.display())))?
            }
            None => self
                .save_root
                .canonicalize()
                .unwrap_or_else(|_| self.save_root.clone()),
        };
        let spec_path = relative(&folder, &spec_file);
        let mut labels = LabelTable::new();
        let side = Self::replay(entry, &session.setup, &session.moves, &mut labels)?;
        let name = if request.name.trim().is_empty() {
            format!("workbench session on {}", entry.spec.title())
        } else {
            request.name.trim().to_string()
        };
        let text = write(&name, &spec_path, session, &side, &labels);
        // Run it as `turnspec test` would, against the same spec.
        let shown = request
            .path
            .clone()
            .unwrap_or_else(|| "session.toml".into());
        let spec = Arc::clone(&entry.spec);
        let outcome = match turnspec_scenario::load(&shown, &text, &mut |p| {
            Ok((Arc::clone(&spec), p.into()))
        }) {
            Err(report) => Err(report.to_short_text()),
            Ok(scenario) => match turnspec_scenario::run(&scenario) {
                Outcome::Passed { checks } => Ok(checks),
                Outcome::Failed(f) => Err(format!("entry {}: {}", f.entry + 1, f.message)),
            },
        };
        let mut written = None;
        if let (Some(t), Ok(_)) = (&target, &outcome) {
            if t.exists() && !request.overwrite {
                return Err(ApiError(format!(
                    "{} exists; tick overwrite to replace it",
                    request.path.as_deref().unwrap_or_default()
                )));
            }
            std::fs::write(t, &text)
                .map_err(|e| ApiError(format!("cannot write {}: {e}", t.display())))?;
            written = Some(t.display().to_string());
        }
        Ok(json!({
            "toml": text,
            "passes": outcome.is_ok(),
            "checks": outcome.as_ref().ok(),
            "failure": outcome.as_ref().err(),
            "written": written,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_then_descend() {
        assert_eq!(
            relative(Path::new("/a/b/c"), Path::new("/a/games/x.toml")),
            "../../games/x.toml"
        );
        assert_eq!(relative(Path::new("/a"), Path::new("/a/x.toml")), "x.toml");
    }

    #[test]
    fn save_paths_stay_under_the_root() {
        let root = Path::new("/r");
        assert!(target(root, "../x.toml").is_err());
        assert!(target(root, "/etc/x.toml").is_err());
        assert!(target(root, "a/x.txt").is_err());
        assert_eq!(target(root, "a/x.toml").unwrap(), Path::new("/r/a/x.toml"));
    }
}

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
use crate::limits::{MAX_DEPTH, MAX_PATH};
use crate::session::{LabelTable, Move, Side};

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
        Move::DeclareEnding { ending, by } => {
            format!("declare_ending = {}\nby = {}\n", quoted(ending), quoted(by))
        }
        Move::SetCounter { counter, by, value } => format!(
            "set_counter = {}\nby = {}\nvalue = {value}\n",
            quoted(counter),
            quoted(by)
        ),
        Move::Enter { object, by } => {
            format!("enter = {}\nby = {}\n", quoted(object), quoted(by))
        }
        Move::LeavePlay { object } => format!("leave_play = {}\n", quoted(object)),
        Move::GainControl { object, by } => {
            format!("gain_control = {}\nby = {}\n", quoted(object), quoted(by))
        }
        Move::SetObjectFact { fact, object } => {
            format!("set_fact = {}\nlabel = {}\n", quoted(fact), quoted(object))
        }
        Move::PassToStop { by, command, at } => {
            let mut s = format!("pass_to_stop = {}\n", quoted(command));
            if let Some(at) = at {
                s.push_str(&format!("at = {}\n", quoted(at)));
            }
            if let Some(by) = by {
                s.push_str(&format!("by = {}\n", quoted(by)));
            }
            s
        }
        Move::ClearObjectFact { fact, object } => {
            format!(
                "clear_fact = {}\nlabel = {}\n",
                quoted(fact),
                quoted(object)
            )
        }
    }
}

/// What a scenario names besides its moves: its name, its spec's path and
/// the stop profiles of its `[setup]`.
struct Head<'a> {
    name: &'a str,
    spec_path: &'a str,
    profiles: &'a [Profile],
}

/// One player's stop markers written as a stop profile file, saved beside
/// the scenario (`NAME.stops-P1.toml`) and named by its `[setup] stops`.
struct Profile {
    player: String,
    /// The file's name, beside the scenario.
    file: String,
    text: String,
}

/// The profile files of the setup's stop markers, for a scenario saved as
/// `scenario_file` (a file name ending in `.toml`).
fn profiles(setup: &crate::api::Setup, scenario_file: &str) -> Vec<Profile> {
    let stem = scenario_file.strip_suffix(".toml").unwrap_or(scenario_file);
    let mut players: Vec<&String> = setup
        .stops
        .keys()
        .chain(setup.stops_anywhere.keys())
        .collect();
    players.sort();
    players.dedup();
    let mut out = Vec::new();
    for player in players {
        let markers = setup.stops.get(player).map_or(&[][..], Vec::as_slice);
        let anywhere = setup
            .stops_anywhere
            .get(player)
            .map_or(&[][..], Vec::as_slice);
        if markers.is_empty() && anywhere.is_empty() {
            continue;
        }
        let mut t = String::from("# Stop markers set in `turnspec serve` (docs/stops.md).\n");
        t.push_str(&format!(
            "[profile]\nname = {}\n",
            quoted(&format!("{player}'s stop markers in the workbench"))
        ));
        for m in markers {
            t.push_str(&format!(
                "\n[[stop]]\nat = {}\nturn = {}\nwhen = {}\n",
                quoted(&m.at),
                quoted(&m.turn),
                quoted(&m.when)
            ));
        }
        if !anywhere.is_empty() {
            t.push_str(&format!("\n[anywhere]\nwhen = {}\n", list(anywhere)));
        }
        out.push(Profile {
            player: player.clone(),
            file: format!("{stem}.stops-{player}.toml"),
            text: t,
        });
    }
    out
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
fn write(head: &Head<'_>, request: &PlayRequest, side: &Side, labels: &LabelTable) -> String {
    let Head {
        name,
        spec_path,
        profiles,
    } = *head;
    let spec = &side.spec;
    // Each move's lines, in one pass over the trace (slot 0: the start).
    let mut by_move: Vec<Vec<String>> = vec![Vec::new(); request.moves.len() + 1];
    for (e, line) in side.trace.iter().zip(side.lines(labels)) {
        let slot = e.by_move.map_or(0, |m| m + 1);
        if let Some(lines) = by_move.get_mut(slot) {
            lines.push(line);
        }
    }
    let lines_of = |m: Option<usize>| -> &[String] {
        by_move
            .get(m.map_or(0, |m| m + 1))
            .map_or(&[][..], Vec::as_slice)
    };
    let mut rules: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for e in &side.trace {
        if let Some(r) = turnspec_trace::describe(spec, labels.names(), &e.event).rule
            && seen.insert(r.clone())
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
    if !profiles.is_empty() {
        let files: Vec<String> = profiles
            .iter()
            .map(|p| format!("{} = {}", p.player, quoted(&p.file)))
            .collect();
        t.push_str(&format!("stops = {{ {} }}\n", files.join(", ")));
    }
    // The start's events come first, so answers given later are queued for
    // the next time, as they were in the session.
    t.push_str(&format!(
        "\n[[script]]\nexpect_events = {}\n",
        list(lines_of(None))
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
                list(lines_of(Some(i)))
            ));
        }
    }
    let g = &side.game;
    let stack: Vec<String> = g.stack().iter().map(|o| labels.name(o.label)).collect();
    t.push_str(&format!(
        "\n[[script]]\nexpect = {{ turn = {}, active = {}, phase = {}, step = {}, holder = {}, stack = [{}], status = {} }}\n",
        g.turn(),
        quoted(&g.active_player().to_string()),
        quoted(spec.id_of(g.phase())),
        quoted(spec.id_of(g.step())),
        quoted(&g.holder().map_or("none".into(), |p| p.to_string())),
        stack.iter().map(|s| quoted(s)).collect::<Vec<_>>().join(", "),
        quoted(g.status().name()),
    ));
    t
}

/// A save path taken apart: its folders and its file name, each a plain
/// name. Refuses absolute paths, `..`, `.`, hidden names, control
/// characters, names that are not `.toml`, and paths longer than
/// [`MAX_PATH`] bytes or deeper than [`MAX_DEPTH`] folders.
fn parts(path: &str) -> Result<(Vec<String>, String), ApiError> {
    let refuse = |why: &str| {
        Err(ApiError::bad(format!(
            "save path {path:?} {why}; give a path such as scenarios/session.toml, relative to the folder turnspec serve runs in"
        )))
    };
    if path.is_empty() {
        return refuse("is empty");
    }
    if path.len() > MAX_PATH {
        return refuse("is too long");
    }
    if path.chars().any(|c| c.is_control() || c == '\\') {
        return refuse("has a control character or a backslash");
    }
    let p = Path::new(path);
    if !p.components().all(|c| matches!(c, Component::Normal(_))) {
        return refuse("must be relative, without `..`");
    }
    let mut names: Vec<String> = p
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if names.iter().any(|n| n.starts_with('.')) {
        return refuse("has a name starting with `.`");
    }
    if names.len() > MAX_DEPTH + 1 {
        return refuse("has too many folders");
    }
    let Some(file) = names.pop() else {
        return refuse("is empty");
    };
    if Path::new(&file).extension().and_then(|e| e.to_str()) != Some("toml") {
        return refuse("must end in .toml");
    }
    Ok((names, file))
}

/// Where a save goes: the folders to create and the file, checked under
/// the served folder without following any link.
struct Target {
    /// `root/folder/...`, the folder the file goes into.
    folder: PathBuf,
    /// The first folder that does not exist yet, if any (it and all after
    /// it are created when the file is written).
    missing_from: Option<usize>,
    folders: Vec<String>,
    file: PathBuf,
    /// The path as the page gave it, for messages.
    shown: String,
    /// Whether a file is already there (a scenario that `overwrite` may
    /// replace).
    exists: bool,
}

fn link_refusal(shown: &str, part: &str) -> ApiError {
    ApiError::bad(format!(
        "{shown}: `{part}` is a symbolic link; the workbench saves only into plain folders under the one it serves"
    ))
}

/// Checks a save path under `root` without changing anything: each
/// existing folder must be a folder (not a link), the file must not be a
/// link, and an existing file may only be replaced with `overwrite`, when
/// it is a scenario and not one of `served` (the specs on offer).
fn target(
    root: &Path,
    path: &str,
    overwrite: bool,
    served: &[PathBuf],
    header: &str,
) -> Result<Target, ApiError> {
    let (folders, name) = parts(path)?;
    let shown = format!("{}/{name}", folders.join("/"))
        .trim_start_matches('/')
        .to_string();
    let mut folder = root.to_path_buf();
    let mut missing_from = None;
    for (i, part) in folders.iter().enumerate() {
        folder.push(part);
        if missing_from.is_some() {
            continue;
        }
        match std::fs::symlink_metadata(&folder) {
            Ok(m) if m.file_type().is_symlink() => return Err(link_refusal(&shown, part)),
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(ApiError::bad(format!(
                    "{shown}: `{part}` is a file, not a folder"
                )));
            }
            Err(_) => missing_from = Some(i),
        }
    }
    let file = folder.join(&name);
    let mut exists = false;
    if missing_from.is_none() {
        match std::fs::symlink_metadata(&file) {
            Ok(m) if m.file_type().is_symlink() => return Err(link_refusal(&shown, &name)),
            Ok(m) if !m.is_file() => {
                return Err(ApiError::bad(format!("{shown} exists and is not a file")));
            }
            Ok(_) if !overwrite => {
                return Err(ApiError::bad(format!(
                    "{shown} exists; tick overwrite to replace it"
                )));
            }
            Ok(_) => {
                exists = true;
                let canonical = file.canonicalize().ok();
                if served.iter().any(|s| s.canonicalize().ok() == canonical) {
                    return Err(ApiError::bad(format!(
                        "{shown} is a spec the workbench serves; it never replaces one"
                    )));
                }
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                if !text.lines().any(|l| l.trim() == header) {
                    let what = if header == "[profile]" {
                        "a stop profile file; overwrite replaces only stop profiles there"
                    } else {
                        "a scenario file; overwrite replaces only scenarios"
                    };
                    return Err(ApiError::bad(format!("{shown} is not {what}")));
                }
            }
            Err(_) => {}
        }
    }
    Ok(Target {
        folder,
        missing_from,
        folders,
        file,
        shown,
        exists,
    })
}

impl Target {
    /// Creates the missing folders one by one (never through a link) and
    /// writes the file: as a new file, or (overwriting) as a new file
    /// beside it renamed over it, so a link put there meanwhile is
    /// replaced, not followed.
    fn write(&self, root: &Path, text: &str) -> Result<(), ApiError> {
        let fail = |what: &str, e: std::io::Error| {
            ApiError::bad(format!("cannot {what} {}: {}", self.shown, e.kind()))
        };
        if let Some(from) = self.missing_from {
            let mut dir = root.to_path_buf();
            for (i, part) in self.folders.iter().enumerate() {
                dir.push(part);
                if i < from {
                    continue;
                }
                if let Err(e) = std::fs::create_dir(&dir)
                    && e.kind() != std::io::ErrorKind::AlreadyExists
                {
                    return Err(fail("create the folders of", e));
                }
                match std::fs::symlink_metadata(&dir) {
                    Ok(m) if m.is_dir() && !m.file_type().is_symlink() => {}
                    _ => return Err(link_refusal(&self.shown, part)),
                }
            }
        }
        let new_file = |path: &Path| -> std::io::Result<()> {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)?;
            std::io::Write::write_all(&mut f, text.as_bytes())
        };
        if !self.exists {
            return new_file(&self.file).map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    ApiError::bad(format!(
                        "{} exists; tick overwrite to replace it",
                        self.shown
                    ))
                } else {
                    fail("write", e)
                }
            });
        }
        let name = self
            .file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp = self
            .folder
            .join(format!(".{name}.{}.part", crate::guard::new_token()));
        new_file(&temp).map_err(|e| fail("write", e))?;
        std::fs::rename(&temp, &self.file).map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            fail("replace", e)
        })
    }
}

impl Workbench {
    /// `POST /api/scenario`: the session as scenario text, run at once by
    /// the scenario crate; written to `path` if given and it passes.
    ///
    /// The path is checked before anything is written, under the folder
    /// the server runs in and without following links;
    /// a refused save creates nothing. Answers name files by the path the
    /// page gave, never by where they are on the machine.
    pub fn save(&self, request: &SaveRequest) -> Result<Value, ApiError> {
        let session = &request.session;
        let entry = self.entry(session.setup.spec)?;
        let Some(spec_file) = &entry.path else {
            return Err(ApiError::bad(
                "this spec is built into turnspec and has no file a scenario could name; start `turnspec serve` with a spec file",
            ));
        };
        let spec_file = spec_file
            .canonicalize()
            .map_err(|e| ApiError::bad(format!("cannot find {}: {}", entry.label, e.kind())))?;
        let root = self
            .save_root
            .canonicalize()
            .map_err(|e| ApiError::bad(format!("cannot find the served folder: {}", e.kind())))?;
        let served: Vec<PathBuf> = self.specs.iter().filter_map(|s| s.path.clone()).collect();
        let target = request
            .path
            .as_deref()
            .map(|p| target(&root, p, request.overwrite, &served, "[scenario]"))
            .transpose()?;
        let folder = target.as_ref().map_or(root.clone(), |t| t.folder.clone());
        let spec_path = relative(&folder, &spec_file);
        let mut labels = LabelTable::new();
        let side = Self::replay(entry, &session.setup, &session.moves, &mut labels, true)?;
        let name = if request.name.trim().is_empty() {
            format!("workbench session on {}", entry.spec.title())
        } else {
            request.name.trim().to_string()
        };
        if name.chars().count() > 200 {
            return Err(ApiError::bad(
                "the scenario's name is longer than 200 characters",
            ));
        }
        let shown = target
            .as_ref()
            .map_or_else(|| "session.toml".to_string(), |t| t.shown.clone());
        let file_name = shown.rsplit('/').next().unwrap_or("session.toml");
        let profiles = profiles(&session.setup, file_name);
        // Each profile file beside the scenario, checked as the scenario is
        // before anything is written.
        let profile_targets = match &request.path {
            Some(path) => {
                let folder = path.rsplit_once('/').map_or("", |(f, _)| f);
                profiles
                    .iter()
                    .map(|p| {
                        let at = if folder.is_empty() {
                            p.file.clone()
                        } else {
                            format!("{folder}/{}", p.file)
                        };
                        self::target(&root, &at, request.overwrite, &served, "[profile]")
                    })
                    .collect::<Result<Vec<_>, _>>()?
            }
            None => Vec::new(),
        };
        let head = Head {
            name: &name,
            spec_path: &spec_path,
            profiles: &profiles,
        };
        let text = write(&head, session, &side, &labels);
        // Run it as `turnspec test` would, against the same spec, reading
        // the profiles from memory.
        let spec = Arc::clone(&entry.spec);
        let loaded = turnspec_scenario::load_with_files(
            &shown,
            &text,
            &mut |p| Ok((Arc::clone(&spec), p.into())),
            &mut |p| {
                profiles
                    .iter()
                    .find(|f| f.file == p)
                    .map(|f| (f.text.clone(), p.to_string()))
                    .ok_or_else(|| format!("no stop profile {p}"))
            },
        );
        let outcome = match loaded {
            Err(report) => Err(report.to_short_text()),
            Ok(scenario) => match turnspec_scenario::run(&scenario) {
                Outcome::Passed { checks } => Ok(checks),
                Outcome::Failed(f) => Err(format!("entry {}: {}", f.entry + 1, f.message)),
            },
        };
        let mut written = None;
        let mut profiles_written = Vec::new();
        if let (Some(t), Ok(_)) = (&target, &outcome) {
            // The profiles first: a scenario is never written without them.
            for (pt, p) in profile_targets.iter().zip(&profiles) {
                pt.write(&root, &p.text)?;
                profiles_written.push(pt.shown.clone());
            }
            t.write(&root, &text)?;
            written = Some(t.shown.clone());
        }
        Ok(json!({
            "toml": text,
            "passes": outcome.is_ok(),
            "checks": outcome.as_ref().ok(),
            "failure": outcome.as_ref().err(),
            "written": written,
            "stops": profiles.iter().map(|p| json!({
                "player": p.player, "file": p.file, "toml": p.text,
            })).collect::<Vec<_>>(),
            "stops_written": profiles_written,
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
    fn save_paths_are_plain_relative_toml_names() {
        for bad in [
            "",
            "../x.toml",
            "/etc/x.toml",
            "a/x.txt",
            "a/../x.toml",
            "./x.toml",
            ".hidden.toml",
            "a/.git/x.toml",
            "a\\x.toml",
            "a\nb.toml",
            "a/b/c/d/e/f/g/h/i/j/x.toml",
        ] {
            assert!(parts(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            parts("a/b/x.toml").unwrap(),
            (vec!["a".to_string(), "b".to_string()], "x.toml".to_string())
        );
        assert!(parts(&format!("{}.toml", "a/".repeat(1000))).is_err());
    }
}

//! Saving a session as a scenario file (docs/scenarios.md): the setup,
//! every accepted move as a script entry followed by the events it caused
//! (`expect_events`), and the final state (`expect`). Before it is shown or
//! written, the text is loaded and run by the scenario crate, so what is
//! saved is known to pass `turnspec test` as it stands.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};
use turnspec_scenario::Outcome;

use crate::Workbench;
use crate::api::{ApiError, PlayRequest};
use crate::files::{Kind, RelPath, Save, check_save, relative};
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
        let files = self.files();
        let Some(spec_file) = &entry.path else {
            return Err(ApiError::bad(
                "this spec has no file a scenario could name (it is built into turnspec, or a draft not saved yet); save it first, or start `turnspec serve` with a spec file",
            ));
        };
        let spec_file = files
            .locate(spec_file)
            .ok_or_else(|| ApiError::bad(format!("cannot find {}", entry.label)))?;
        let root = files.root()?;
        let served = self.served();
        let target = request.path.as_deref().map(RelPath::parse).transpose()?;
        let replace = match &target {
            Some(t) => {
                let save = Save {
                    path: t,
                    len: 0,
                    overwrite: request.overwrite,
                    kind: Kind::Scenario,
                };
                check_save(files, &save, &served)?
            }
            None => false,
        };
        let folder = target.as_ref().map_or(root.clone(), |t| {
            t.folders().iter().fold(root.clone(), |f, n| f.join(n))
        });
        let spec_path = relative(&folder, &spec_file);
        let mut labels = LabelTable::new();
        let side = Self::replay(&entry, &session.setup, &session.moves, &mut labels, true)?;
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
            .map_or_else(|| "session.toml".to_string(), RelPath::to_string);
        let file_name = shown.rsplit('/').next().unwrap_or("session.toml");
        let profiles = profiles(&session.setup, file_name);
        // Each profile file beside the scenario, checked as the scenario is
        // before anything is written.
        let profile_targets = match &target {
            Some(t) => profiles
                .iter()
                .map(|p| {
                    let at = t.sibling(&p.file)?;
                    let save = Save {
                        path: &at,
                        len: 0,
                        overwrite: request.overwrite,
                        kind: Kind::Profile,
                    };
                    let replace = check_save(files, &save, &served)?;
                    Ok((at, replace))
                })
                .collect::<Result<Vec<_>, ApiError>>()?,
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
            for ((at, replace), p) in profile_targets.iter().zip(&profiles) {
                files.write(at, &p.text, *replace)?;
                profiles_written.push(at.to_string());
            }
            files.write(t, &text, replace)?;
            written = Some(t.to_string());
            self.remember_scenario(t);
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

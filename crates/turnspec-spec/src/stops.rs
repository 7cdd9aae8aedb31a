//! Stop profiles (docs/stops.md): which windows a player's client stops in.
//! Loaded in two stages like specs: the raw schema keeps every value's
//! span, then each name is resolved against the spec into a string-free
//! [`StopProfile`], with every problem reported at once.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;
use turnspec_model::{PhaseId, Spec, StepId, StopProfile, StopTurn, StopWhen};

use crate::diag::{Diagnostic, Report};
use crate::schema::{Format, deserialize_reporting, fields_of, suggest};

type Text = Spanned<String>;

/// The whole file.
#[derive(Debug, Deserialize)]
struct RawStops {
    profile: Spanned<RawProfile>,
    #[serde(default)]
    stop: Vec<RawStop>,
    #[serde(default)]
    anywhere: Option<RawAnywhere>,
}

/// `[profile]`.
#[derive(Debug, Deserialize)]
struct RawProfile {
    #[allow(dead_code)] // Shown by tools; the validated profile has no strings.
    name: Text,
    #[serde(default)]
    game: Option<Text>,
}

/// One `[[stop]]`.
#[derive(Debug, Deserialize)]
struct RawStop {
    at: Text,
    #[serde(default)]
    turn: Option<Text>,
    #[serde(default)]
    when: Option<Text>,
}

/// `[anywhere]`.
#[derive(Debug, Deserialize)]
struct RawAnywhere {
    #[serde(default)]
    when: Vec<Text>,
}

const STOPS_FORMAT: Format = Format {
    unknown_key_code: "stops::unknown-key",
    schema_code: "stops::schema",
    docs: "docs/stops.md",
    keys_at: stops_keys,
    tables: &[
        ("the top of the file", &[]),
        ("[profile]", &["profile"]),
        ("[[stop]]", &["stop"]),
        ("[anywhere]", &["anywhere"]),
    ],
};

fn stops_keys(tables: &[&str]) -> &'static [&'static str] {
    match tables {
        [] => fields_of::<RawStops>(),
        ["profile"] => fields_of::<RawProfile>(),
        ["stop"] => fields_of::<RawStop>(),
        ["anywhere"] => fields_of::<RawAnywhere>(),
        _ => &[],
    }
}

const WHEN_NAMES: &[&str] = &["always", "stack_nonempty", "stack_grew", "can_play"];
const TURN_NAMES: &[&str] = &["own", "others", "any"];

/// Loads a stop profile for `spec` from `text`; `path` is only used in
/// messages. Every problem is reported in the `Report`, each at its place.
pub fn load_stops(path: &str, text: &str, spec: &Spec) -> Result<StopProfile, Report> {
    let mut report = Report::new(path, text);
    let (table, errors) = toml::de::DeTable::parse_recoverable(text);
    for e in errors {
        report.diagnostics.push(
            Diagnostic::error(
                "stops::toml-syntax",
                e.span().unwrap_or(0..0),
                format!("TOML syntax: {}", e.message()),
            )
            .label("here")
            .help("see https://toml.io for the TOML syntax"),
        );
    }
    if report.has_errors() {
        return Err(report);
    }
    let Some(raw) =
        deserialize_reporting::<RawStops>(table, &STOPS_FORMAT, &mut report.diagnostics)
    else {
        return Err(report);
    };
    let mut diags = std::mem::take(&mut report.diagnostics);
    let profile = resolve(&raw, spec, &mut diags);
    diags.sort_by_key(|d| d.span.start);
    report.diagnostics = diags;
    if report.has_errors() {
        return Err(report);
    }
    Ok(profile)
}

fn resolve(raw: &RawStops, spec: &Spec, diags: &mut Vec<Diagnostic>) -> StopProfile {
    let mut profile = StopProfile::new(spec);
    if let Some(game) = &raw.profile.get_ref().game {
        let expected = &spec.game().name;
        if game.get_ref() != expected {
            diags.push(
                Diagnostic::error(
                    "stops::game",
                    game.span(),
                    format!(
                        "this profile is for `{}`, but the spec is `{expected}`",
                        game.get_ref()
                    ),
                )
                .label("not the spec's game")
                .help(format!(
                    "write `game = \"{expected}\"`, or leave `game` out"
                )),
            );
        }
    }
    for stop in &raw.stop {
        let steps = place(spec, &stop.at, diags);
        let turn = match &stop.turn {
            None => Some(StopTurn::Any),
            Some(t) => match t.get_ref().as_str() {
                "own" => Some(StopTurn::Own),
                "others" => Some(StopTurn::Others),
                "any" => Some(StopTurn::Any),
                other => {
                    diags.push(bad_value("turn", other, t.span(), TURN_NAMES));
                    None
                }
            },
        };
        let when = match &stop.when {
            None => Some(StopWhen::ALWAYS),
            Some(w) => condition(w, diags),
        };
        if let (Some(steps), Some(turn), Some(when)) = (steps, turn, when) {
            for step in steps {
                profile.add(step, turn, when);
            }
        }
    }
    if let Some(anywhere) = &raw.anywhere {
        for w in &anywhere.when {
            if let Some(when) = condition(w, diags) {
                profile.add_anywhere(when);
            }
        }
    }
    profile
}

fn condition(w: &Text, diags: &mut Vec<Diagnostic>) -> Option<StopWhen> {
    let found = StopWhen::from_name(w.get_ref());
    if found.is_none() {
        diags.push(bad_value("when", w.get_ref(), w.span(), WHEN_NAMES));
    }
    found
}

fn bad_value(key: &str, value: &str, span: Range<usize>, known: &[&str]) -> Diagnostic {
    let listed = known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let help = match suggest(value, known) {
        Some(s) => format!("did you mean `{s}`? `{key}` is one of {listed}"),
        None => format!("`{key}` is one of {listed}"),
    };
    Diagnostic::error(
        "stops::value",
        span,
        format!("`{value}` is not a value of `{key}`"),
    )
    .label("not a known value")
    .help(help)
}

/// The steps `at` names: a phase's every step, or one step.
fn place(spec: &Spec, at: &Text, diags: &mut Vec<Diagnostic>) -> Option<Vec<StepId>> {
    let name = at.get_ref().as_str();
    // A step-less phase's id names both it and its hidden step.
    if let Some(phase) = spec.phase_by_id(name) {
        return Some(steps_of(spec, phase));
    }
    if let Some(step) = spec.step_by_id(name) {
        return Some(vec![step]);
    }
    let mut known: Vec<&str> = spec.phases().iter().map(|p| p.id.as_str()).collect();
    known.extend(
        spec.steps()
            .iter()
            .filter(|s| !s.implicit)
            .map(|s| s.id.as_str()),
    );
    let help = match suggest(name, &known) {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!("the spec's phases and steps are: {}", known.join(", ")),
    };
    diags.push(
        Diagnostic::error(
            "stops::unknown-place",
            at.span(),
            format!("the spec has no phase or step `{name}`"),
        )
        .label("here")
        .help(help),
    );
    None
}

fn steps_of(spec: &Spec, phase: PhaseId) -> Vec<StepId> {
    spec.phase(phase)
        .map(|p| p.steps().collect())
        .unwrap_or_default()
}

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
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct RawStops {
    /// Who the profile is for.
    #[schemars(with = "RawProfile")]
    profile: Spanned<RawProfile>,
    /// Where the client stops (asks the player).
    #[serde(default)]
    stop: Vec<RawStop>,
    /// Where passing through is a choice: the safety check (`turnspec stops
    /// check`) reports these places as chosen, not as problems.
    #[serde(default)]
    pass: Vec<RawPass>,
    /// Conditions that stop in every window.
    #[serde(default)]
    anywhere: Option<RawAnywhere>,
}

/// `[profile]`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct RawProfile {
    /// The profile's name, for people.
    #[allow(dead_code)] // Shown by tools; the validated profile has no strings.
    #[schemars(with = "String")]
    name: Text,
    /// When given, must be the spec's `[game] name`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    game: Option<Text>,
}

/// One `[[stop]]`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct RawStop {
    /// A phase id (every step of it) or a step id of the spec.
    #[schemars(with = "String")]
    at: Text,
    /// `own`, `others` or `any` (the default).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    turn: Option<Text>,
    /// `always` (the default), `stack_nonempty`, `stack_grew` or `can_play`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    when: Option<Text>,
}

/// One `[[pass]]`: passing through here is a choice.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct RawPass {
    /// A phase id (every step of it) or a step id of the spec.
    #[schemars(with = "String")]
    at: Text,
    /// `own`, `others` or `any` (the default).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    turn: Option<Text>,
    /// Why, for people.
    #[allow(dead_code)] // Read by people; the validated profile has no strings.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    because: Option<Text>,
}

/// `[anywhere]`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct RawAnywhere {
    /// Conditions checked in every window, in every turn.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    when: Vec<Text>,
}

/// The JSON Schema of a stop profile file, generated from the loader's raw
/// serde types; `turnspec schema stops` prints it.
pub fn stops_json_schema() -> serde_json::Value {
    crate::schema::json_schema_of::<RawStops>(
        "turnspec stop profile",
        "A player's stop profile for one spec: where the client asks and where it passes; see docs/stops.md.",
    )
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
        ("[[pass]]", &["pass"]),
        ("[anywhere]", &["anywhere"]),
    ],
};

fn stops_keys(tables: &[&str]) -> &'static [&'static str] {
    match tables {
        [] => fields_of::<RawStops>(),
        ["profile"] => fields_of::<RawProfile>(),
        ["stop"] => fields_of::<RawStop>(),
        ["pass"] => fields_of::<RawPass>(),
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
        let turn = turn(&stop.turn, diags);
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
    for pass in &raw.pass {
        let steps = place(spec, &pass.at, diags);
        if let (Some(steps), Some(turn)) = (steps, turn(&pass.turn, diags)) {
            for step in steps {
                profile.add_chosen(step, turn);
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

fn turn(t: &Option<Text>, diags: &mut Vec<Diagnostic>) -> Option<StopTurn> {
    let Some(t) = t else {
        return Some(StopTurn::Any);
    };
    match t.get_ref().as_str() {
        "own" => Some(StopTurn::Own),
        "others" => Some(StopTurn::Others),
        "any" => Some(StopTurn::Any),
        other => {
            diags.push(bad_value("turn", other, t.span(), TURN_NAMES));
            None
        }
    }
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

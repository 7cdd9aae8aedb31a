//! Raw scenario → a script with every name resolved against its spec, so a
//! misspelt step or timing class is reported at load time with its line.

mod entry;
mod expect;
mod names;
mod setup;

use toml::Spanned;
use turnspec_spec::schema::{Format, deserialize_reporting, fields_of};
use turnspec_spec::{Diagnostic, Report, Spec};

use crate::raw::*;

pub use crate::script::*;

/// The refusal reasons an `expect_illegal` step may name: the
/// [`turnspec_engine::RuleError::reason`] names a pass or a play can be
/// refused with. Tools that write scenarios (`turnspec explore --write`)
/// name a reason only if it is here.
pub const EXPECT_ILLEGAL_REASONS: &[&str] = &[
    "not_holder",
    "not_active_player",
    "active_player",
    "stack_not_empty",
    "wrong_step",
    "limit_reached",
    "requirement",
    "nobody",
    "not_running",
    "cannot_pay",
    "not_in_bag",
    "pass_refused",
    "not_controller",
    "no_such_object",
    "no_objects",
    "not_role_holder",
];

/// Parses a scenario file and resolves it against its spec. `load_spec`
/// receives the spec path as written (relative to the scenario file) and
/// returns the compiled spec and the path it used, or a message. A
/// scenario with `[setup] stops` needs [`load_with_files`].
pub fn load(path: &str, source: &str, load_spec: &mut SpecLoader<'_>) -> Result<Scenario, Report> {
    load_with_files(path, source, load_spec, &mut |_| {
        Err(
            "stop profiles are read from files: run the scenario from its file (`turnspec test`)"
                .to_string(),
        )
    })
}

/// [`load`], reading the stop profiles of `[setup] stops` with
/// `read_file`: it receives a path as written (relative to the scenario
/// file) and returns the file's text and the path it used, or a message.
pub fn load_with_files(
    path: &str,
    source: &str,
    load_spec: &mut SpecLoader<'_>,
    read_file: &mut FileReader<'_>,
) -> Result<Scenario, Report> {
    let mut report = Report::new(path, source);
    let raw = match parse(source, &mut report.diagnostics) {
        Some(raw) => raw,
        None => return Err(report),
    };
    let setup = raw.setup.get_ref();
    let (spec, spec_path) = match load_spec(setup.spec.get_ref()) {
        Ok(s) => s,
        Err(message) => {
            report.diagnostics.push(
                Diagnostic::error("scenario::spec", setup.spec.span(), message)
                    .label("this spec")
                    .help("the path is relative to the scenario file; run `turnspec check` on the spec"),
            );
            return Err(report);
        }
    };
    let mut c = Resolver {
        spec: &spec,
        diags: Vec::new(),
        labels: vec![String::new()],
        label_numbers: std::collections::HashMap::new(),
    };
    let mut scenario = c.scenario(path, source, &raw, (spec.clone(), spec_path));
    let players = scenario.options.players;
    for (name, file) in &setup.stops {
        let who = Spanned::new(file.span(), name.clone());
        let Some(player) = c.player(&who, players) else {
            continue;
        };
        match read_file(file.get_ref()) {
            Err(message) => c.diags.push(
                Diagnostic::error("scenario::stops", file.span(), message)
                    .label("this stop profile")
                    .help("the path is relative to the scenario file"),
            ),
            Ok((text, shown)) => match turnspec_spec::load_stops(&shown, &text, &spec) {
                Ok(profile) => scenario.stops.push((player, profile)),
                Err(profile_report) => c.diags.push(
                    Diagnostic::error(
                        "scenario::stops",
                        file.span(),
                        format!(
                            "the stop profile has {} error(s):\n{}",
                            profile_report.errors(),
                            profile_report.to_short_text()
                        ),
                    )
                    .label("this stop profile")
                    .help("run `turnspec stops check PROFILE SPEC` on it"),
                ),
            },
        }
    }
    report.diagnostics.extend(c.diags);
    report.diagnostics.sort_by_key(|d| d.span.start);
    if report.has_errors() {
        return Err(report);
    }
    Ok(scenario)
}

fn parse(source: &str, diags: &mut Vec<Diagnostic>) -> Option<RawScenario> {
    let (table, errors) = toml::de::DeTable::parse_recoverable(source);
    if !errors.is_empty() {
        for e in errors {
            diags.push(
                Diagnostic::error(
                    "scenario::toml-syntax",
                    e.span().unwrap_or(0..0),
                    format!("TOML syntax: {}", e.message()),
                )
                .label("here"),
            );
        }
        return None;
    }
    deserialize_reporting::<RawScenario>(table, &SCENARIO_FORMAT, diags)
}

/// The scenario format for the shared schema checks.
const SCENARIO_FORMAT: Format = Format {
    unknown_key_code: "scenario::unknown-key",
    schema_code: "scenario::schema",
    docs: "docs/scenarios.md",
    keys_at: scenario_keys,
    tables: &[
        ("the top of the file", &[]),
        ("[scenario]", &["scenario"]),
        ("[setup]", &["setup"]),
        ("[[script]]", &["script"]),
        ("`expect`", &["script", "expect"]),
        ("`expect_illegal`", &["script", "expect_illegal"]),
    ],
};

/// The keys of the scenario table at `tables` (array indices left out).
fn scenario_keys(tables: &[&str]) -> &'static [&'static str] {
    match tables {
        [] => fields_of::<RawScenario>(),
        ["scenario"] => fields_of::<RawHeader>(),
        ["setup"] => fields_of::<RawSetup>(),
        ["script"] => fields_of::<RawEntry>(),
        ["script", "expect"] => fields_of::<RawExpect>(),
        ["script", "expect_illegal"] => fields_of::<RawIllegal>(),
        _ => &[],
    }
}

/// Resolves a raw scenario against its spec, keeping every mistake as a
/// diagnostic; its methods live in the submodules, by what they resolve.
struct Resolver<'a> {
    spec: &'a Spec,
    diags: Vec<Diagnostic>,
    labels: Vec<String>,
    /// Each label's number, so a script with many labels stays linear.
    label_numbers: std::collections::HashMap<String, u32>,
}

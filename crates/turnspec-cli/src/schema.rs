//! `turnspec schema spec|scenario|stops`: the JSON Schema of a file format,
//! generated from the loaders' raw serde types. docs/schema/ holds copies
//! for editors (a test fails when they drift).

use std::process::ExitCode;

use clap::ValueEnum;

/// Which format's schema.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SchemaKind {
    /// A turn spec (games/*.toml).
    Spec,
    /// A scenario file (tests/scenarios/...).
    Scenario,
    /// A stop profile (games/stops/...).
    Stops,
}

pub(crate) fn schema(kind: SchemaKind) -> Result<ExitCode, String> {
    let value = match kind {
        SchemaKind::Spec => turnspec_spec::schema::json_schema(),
        SchemaKind::Scenario => turnspec_scenario::json_schema(),
        SchemaKind::Stops => turnspec_spec::stops_json_schema(),
    };
    let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
    crate::out::println(&text);
    Ok(ExitCode::SUCCESS)
}

//! `turnspec schema spec|scenario|stops|protocol`: the JSON Schema of a
//! file format, generated from the loaders' raw serde types. docs/schema/
//! holds copies for editors (a test fails when they drift).

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
    /// The lines of `turnspec play --protocol jsonl` (docs/protocol.md).
    Protocol,
}

pub(crate) fn schema(kind: SchemaKind) -> Result<ExitCode, String> {
    let value = match kind {
        SchemaKind::Spec => turnspec_spec::schema::json_schema(),
        SchemaKind::Scenario => turnspec_scenario::json_schema(),
        SchemaKind::Stops => turnspec_spec::stops_json_schema(),
        SchemaKind::Protocol => turnspec_protocol::json_schema(),
    };
    let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
    crate::out::println(&text);
    Ok(ExitCode::SUCCESS)
}

//! `turnspec schema spec|scenario|stops`: the JSON Schemas generated from the
//! raw serde types, and the copies in docs/schema/ that editors use; this
//! test fails when the copies drift from the code.

use crate::common;

use common::{assert_exit, root, stdout, turnspec};

fn check(kind: &str) {
    let o = turnspec(&["schema", kind]);
    assert_exit(&o, 0);
    let generated = stdout(&o);
    let schema: serde_json::Value = serde_json::from_str(&generated).unwrap();
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    assert!(schema["properties"].is_object(), "{generated}");
    let file = root().join(format!("docs/schema/{kind}.schema.json"));
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/schema/{kind}.schema.json is out of date: regenerate it with\n  cargo run -- schema {kind} > docs/schema/{kind}.schema.json"
    );
}

#[test]
fn the_spec_schema_in_docs_is_up_to_date() {
    check("spec");
}

#[test]
fn the_scenario_schema_in_docs_is_up_to_date() {
    check("scenario");
}

#[test]
fn the_stops_schema_in_docs_is_up_to_date() {
    check("stops");
}

#[test]
fn schemas_list_the_keys_the_loaders_accept() {
    let spec: serde_json::Value =
        serde_json::from_str(&stdout(&turnspec(&["schema", "spec"]))).unwrap();
    for key in ["game", "phase", "timing", "effects", "extends"] {
        assert!(spec["properties"].get(key).is_some(), "spec lacks {key}");
    }
    // Unknown keys are errors for the loader, so they are for editors too.
    assert_eq!(spec["additionalProperties"], false);
    let scenario: serde_json::Value =
        serde_json::from_str(&stdout(&turnspec(&["schema", "scenario"]))).unwrap();
    assert_eq!(
        scenario["required"],
        serde_json::json!(["scenario", "setup"])
    );
}

#[test]
fn an_unknown_format_is_exit_2() {
    let o = turnspec(&["schema", "trace"]);
    assert_exit(&o, 2);
}

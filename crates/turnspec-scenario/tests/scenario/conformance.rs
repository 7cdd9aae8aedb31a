//! docs/conformance.md must match what the scenarios say. Regenerate with
//! `UPDATE_CONFORMANCE=1 cargo test -p turnspec-scenario --test scenario conformance`.

use std::path::Path;

#[test]
fn conformance_doc_is_up_to_date() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let generated = turnspec_scenario::conformance::generate(&root);
    let path = root.join("docs/conformance.md");
    if std::env::var_os("UPDATE_CONFORMANCE").is_some() {
        std::fs::write(&path, &generated).expect("write docs/conformance.md");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/conformance.md is out of date: run `UPDATE_CONFORMANCE=1 cargo test -p turnspec-scenario --test scenario conformance`"
    );
}

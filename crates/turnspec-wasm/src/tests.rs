//! Native tests of the pure parts: paths, spec loading from a map, shapes, the schema.

use std::collections::BTreeMap;

use super::*;

#[test]
fn extends_paths_are_relative_to_the_file_that_names_them() {
    assert_eq!(join("games/mtg-2011.toml", "mtg.toml"), "games/mtg.toml");
    assert_eq!(join("mtg-2011.toml", "mtg.toml"), "mtg.toml");
    assert_eq!(join("a/b/c.toml", "../d.toml"), "a/d.toml");
    assert_eq!(join("a/c.toml", "./x/../d.toml"), "a/d.toml");
    assert_eq!(join("c.toml", "../d.toml"), "../d.toml");
    assert_eq!(join("/a/c.toml", "/b/d.toml"), "/b/d.toml");
    assert_eq!(join("/c.toml", "../d.toml"), "/d.toml");
}

#[test]
fn a_spec_extends_files_given_as_a_map() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/");
    let read = |name: &str| std::fs::read_to_string(format!("{root}{name}")).unwrap();
    let mut files = BTreeMap::new();
    files.insert("games/mtg.toml".to_string(), read("mtg.toml"));
    let text = read("mtg-2024.toml");
    let (spec, _) = load_from("games/mtg-2024.toml", &text, &files).unwrap();
    assert!(spec.title().contains("Magic"));
    let err = load_from("games/mtg-2024.toml", &text, &BTreeMap::new()).unwrap_err();
    let d = shapes::diagnostics(&err);
    assert!(!d.is_empty(), "a missing base is a diagnostic");
}

#[test]
fn diagnostics_keep_every_field_of_the_report() {
    let err = turnspec_spec::load_str("bad.toml", "[game]\nnmae = 1\n").unwrap_err();
    let typed = shapes::diagnostics(&err);
    assert_eq!(typed.len(), err.to_json().len());
    assert!(typed.iter().all(|d| d.line >= 1 && d.column >= 1));
}

#[test]
fn the_schema_in_the_npm_package_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/npm/schema.json");
    let generated = serde_json::to_string_pretty(&shapes::json_schema()).unwrap() + "\n";
    if std::env::var_os("TURNSPEC_BLESS").is_some() {
        std::fs::write(path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == generated,
        "crates/turnspec-wasm/npm/schema.json is out of date: regenerate it with\n  TURNSPEC_BLESS=1 cargo test -p turnspec-wasm"
    );
}

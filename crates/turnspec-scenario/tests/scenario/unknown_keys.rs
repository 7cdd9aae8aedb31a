//! Scenario files share the spec loader's schema checks: an unknown key is
//! located from the document's spans (not by searching the text, which
//! found the first `name =` of the file) and judged against its own table.

use std::sync::Arc;

use turnspec_spec::line_col;

const SPEC: &str = r#"[game]
name = "tiny"
players = { min = 2, max = 2 }

[[phase]]
id = "main"
priority = "always"
"#;

const SCENARIO: &str = r#"[scenario]
name = "a misplaced key"

[setup]
spec = "tiny.toml"
players = 2
name = "misplaced"

[[script]]
pas = "all"
"#;

#[test]
fn a_misplaced_key_is_reported_where_it_is_with_the_table_it_belongs_to() {
    let mut load_spec = |_: &str| {
        let (spec, _) =
            turnspec_spec::load_str("tiny.toml", SPEC).map_err(|r| r.to_short_text())?;
        Ok((Arc::new(spec), "tiny.toml".to_string()))
    };
    let report = match turnspec_scenario::load("s.toml", SCENARIO, &mut load_spec) {
        Ok(_) => panic!("loaded"),
        Err(r) => r,
    };
    let unknown: Vec<(usize, usize, String)> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "scenario::unknown-key")
        .map(|d| {
            let (line, col) = line_col(&report.source, d.span.start);
            (line, col, d.help.clone().unwrap_or_default())
        })
        .collect();
    assert_eq!((unknown[0].0, unknown[0].1), (7, 1), "{unknown:?}");
    assert!(
        unknown[0].2.contains("`name` is a key of [scenario]"),
        "{unknown:?}"
    );
    assert_eq!((unknown[1].0, unknown[1].1), (10, 1), "{unknown:?}");
    assert!(unknown[1].2.contains("did you mean `pass`?"), "{unknown:?}");
}

/// Issue 10, family 7: a script with 100,000 labels loads in linear time
/// (labels were looked up by a scan of all earlier ones).
#[test]
fn scale_a_script_with_many_labels_loads() {
    let mut scenario =
        String::from("[scenario]\nname = \"labels\"\n[setup]\nspec = \"tiny.toml\"\nplayers = 2\n");
    for i in 0..100_000 {
        scenario += &format!("[[script]]\ntrigger = \"t{i}\"\n");
    }
    let mut load_spec = |_: &str| {
        let (spec, _) =
            turnspec_spec::load_str("tiny.toml", SPEC).map_err(|r| r.to_short_text())?;
        Ok((Arc::new(spec), "tiny.toml".to_string()))
    };
    let loaded = turnspec_scenario::load("s.toml", &scenario, &mut load_spec);
    let scenario = loaded.unwrap_or_else(|r| panic!("{}", r.to_short_text()));
    assert_eq!(scenario.labels.len(), 100_001);
}

/// `pass_to_stop` (docs/stops.md): a misspelt command, `at` without
/// `step`, and a stop profile the scenario cannot read (`load` reads no
/// files) are each reported at their place.
#[test]
fn pass_to_stop_mistakes_are_reported_at_their_place() {
    let scenario = r#"[scenario]
name = "pass_to_stop mistakes"

[setup]
spec = "tiny.toml"
stops = { P1 = "p1.toml" }

[[script]]
pass_to_stop = "end_of_trun"

[[script]]
pass_to_stop = "resolve"
at = "main"
"#;
    let mut load_spec = |_: &str| {
        let (spec, _) =
            turnspec_spec::load_str("tiny.toml", SPEC).map_err(|r| r.to_short_text())?;
        Ok((Arc::new(spec), "tiny.toml".to_string()))
    };
    let report = match turnspec_scenario::load("s.toml", scenario, &mut load_spec) {
        Ok(_) => panic!("loaded"),
        Err(r) => r,
    };
    let found: Vec<(usize, usize, String)> = report
        .diagnostics
        .iter()
        .map(|d| {
            let (line, col) = line_col(&report.source, d.span.start);
            (line, col, format!("{}: {} {:?}", d.code, d.message, d.help))
        })
        .collect();
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!((found[0].0, found[0].1), (6, 16), "{found:?}");
    assert!(found[0].2.starts_with("scenario::stops"), "{found:?}");
    assert_eq!((found[1].0, found[1].1), (9, 16), "{found:?}");
    assert!(
        found[1].2.contains("did you mean `end_of_turn`?"),
        "{found:?}"
    );
    assert_eq!((found[2].0, found[2].1), (13, 6), "{found:?}");
    assert!(found[2].2.contains("`at` has no meaning"), "{found:?}");
}

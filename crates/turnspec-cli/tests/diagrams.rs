//! Diagrams read like the rulebook: phases in turn order top to bottom
//! (the next turn does not set the order), a phase without steps as one
//! box, the timing classes each step allows; `graph --format json`; and the
//! SVGs of every game in docs/diagrams/, drawn by turnspec itself (no
//! Graphviz), up to date.

mod common;

use common::{assert_exit, root, stdout, turnspec};
use serde_json::Value;

fn graph(spec: &str, format: &str) -> String {
    let o = turnspec(&["graph", spec, "--format", format]);
    assert_exit(&o, 0);
    stdout(&o)
}

#[test]
fn json_lists_phases_in_turn_order_then_those_a_play_starts() {
    let v: Value = serde_json::from_str(&graph("games/mtg.toml", "json")).unwrap();
    let ids: Vec<&str> = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.first(), Some(&"beginning"));
    assert_eq!(ids.last(), Some(&"ending"));
    assert_eq!(v["next_turn"], "beginning");
    assert_eq!(v["spec"], "games/mtg.toml");
    let main = &v["phases"][1];
    assert_eq!(main["stepless"], true);
    let timing: Vec<&str> = main["steps"][0]["timing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(
        timing.contains(&"sorcery") && timing.contains(&"land"),
        "{timing:?}"
    );
    let ga: Value = serde_json::from_str(&graph("games/grand-archive.toml", "json")).unwrap();
    let combat = ga["phases"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(combat["id"], "combat");
    assert_eq!(combat["on_demand"], true);
    assert_eq!(combat["started_by"][0]["timing"], "attack");
    assert_eq!(combat["started_by"][0]["from"][0], "main");
}

#[test]
fn mermaid_and_dot_put_the_next_turn_below_the_last_phase() {
    for format in ["mermaid", "dot"] {
        let text = graph("games/mtg.toml", format);
        let beginning = text.find("Beginning phase").unwrap();
        let ending = text.find("Ending phase").unwrap();
        assert!(beginning < ending, "{format}");
        assert!(text.contains("next_turn"), "{format}");
        assert!(
            !text.contains("\"next turn\""),
            "no edge back to the top: {format}"
        );
        // The step-less main phase is one box, not a box in a box.
        assert!(
            !text.contains("subgraph p1[") && !text.contains("cluster_p1 "),
            "{format}"
        );
        assert!(
            text.contains("may play: sorcery, instant, land"),
            "{format}"
        );
    }
}

#[test]
fn the_svgs_in_docs_are_up_to_date() {
    let games = root().join("games");
    let mut specs: Vec<_> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    specs.sort();
    assert!(specs.len() >= 2);
    for spec in specs {
        let stem = spec.file_stem().unwrap().to_str().unwrap().to_string();
        let shown = format!("games/{stem}.toml");
        let svg = graph(&shown, "svg");
        assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
        let file = root().join(format!("docs/diagrams/{stem}.svg"));
        let committed = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(
            committed == svg,
            "docs/diagrams/{stem}.svg is out of date; regenerate every diagram with\n  \
             for f in games/*.toml; do cargo run -q -- graph \"$f\" --format svg > docs/diagrams/$(basename \"$f\" .toml).svg; done"
        );
    }
}

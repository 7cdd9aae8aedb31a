//! Diagrams read like the rulebook: phases in turn order top to bottom
//! (the next turn does not set the order), a phase without steps as one
//! box, the timing classes each step allows; `graph --format json`; and the
//! SVGs of every game in docs/diagrams/, drawn by turnspec itself (no
//! Graphviz), up to date.

use crate::common;

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

#[test]
fn endings_are_shown_with_where_they_are_checked() {
    // Pokémon: a loss checked after the draw, and one the host declares.
    for format in ["mermaid", "dot"] {
        let text = graph("games/pokemon-tcg.toml", format);
        assert!(
            text.contains("ending: could_not_draw [R-XY p.10]"),
            "{format}"
        );
        assert!(text.contains("the player loses"), "{format}");
        assert!(text.contains("declared by the host"), "{format}");
        assert!(
            text.contains("after draw"),
            "{format}: the edge from the draw step"
        );
    }
    let mermaid = graph("games/pokemon-tcg.toml", "mermaid");
    assert!(mermaid.contains("-.->|\"after draw\"| end0"), "{mermaid}");
    let dot = graph("games/lorcana.toml", "dot");
    assert!(
        dot.contains("checked at counter_set for each player: counter.lore >= 20"),
        "{dot}"
    );
    let v: Value = serde_json::from_str(&graph("games/pokemon-tcg.toml", "json")).unwrap();
    let e = &v["endings"][0];
    assert_eq!(e["id"], "could_not_draw");
    assert_eq!(e["result"], "loses");
    assert_eq!(e["check"]["after"], "draw");
    assert_eq!(e["check"]["if"], "counter.could_not_draw == 1");
    assert_eq!(v["endings"][1]["check"], Value::Null);
    let svg = graph("games/lorcana.toml", "svg");
    assert!(svg.contains("How the game ends") && svg.contains("the player wins"));
}

#[test]
fn endings_checked_at_the_turn_end_and_start_have_edges() {
    let dir = std::env::temp_dir().join(format!("turnspec-graph-endings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("endings.toml");
    std::fs::write(
        &spec,
        r#"[game]
name = "Endings"
players = { min = 2, max = 2 }

[counters.score]
per = "player"

[[phase]]
id = "main"
priority = "always"

[[phase]]
id = "end"
priority = "always"

[endings.high]
result = "wins"
if = "counter.score >= 10"
for = "each_player"
at = ["turn_start", "turn_end"]
rule = "R 1"
"#,
    )
    .unwrap();
    let path = spec.to_str().unwrap();
    let mermaid = graph(path, "mermaid");
    assert!(mermaid.contains("s1 -.->|\"turn end\"| end0"), "{mermaid}");
    assert!(
        mermaid.contains("next_turn -.->|\"turn start\"| end0"),
        "{mermaid}"
    );
    let dot = graph(path, "dot");
    assert!(dot.contains("end0 [label=\"ending: high [R 1]\\nthe player wins\\nchecked at turn_start, turn_end for each player: counter.score >= 10\", shape=hexagon, style=dashed];"), "{dot}");
    assert!(
        dot.contains("s1 -> end0 [label=\"turn end\", style=dashed];"),
        "{dot}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

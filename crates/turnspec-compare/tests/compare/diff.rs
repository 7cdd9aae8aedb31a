//! `diff` between the Magic editions, and between Magic and Grand Archive,
//! finds the rule changes each edition spec encodes.

use crate::common;

use common::spec;
use turnspec_compare::{Change, Entry, SpecDiff, diff};

fn one<'a>(d: &'a SpecDiff, element: &str, field: Option<&str>) -> &'a Entry {
    let found = d.find(element, field);
    assert_eq!(
        found.len(),
        1,
        "expected one entry for {element} {field:?}, got {found:#?}\nall:\n{}",
        d.to_text("left", "right", true)
    );
    found[0]
}

/// The rules an entry cites on the left and on the right.
fn cited(e: &Entry) -> (Option<&str>, Option<&str>) {
    (e.left_rule.as_deref(), e.right_rule.as_deref())
}

fn absent(d: &SpecDiff, element: &str) {
    assert!(
        d.find(element, None).is_empty(),
        "unexpected entry for {element}:\n{}",
        d.to_text("left", "right", true)
    );
}

#[test]
fn a_spec_does_not_differ_from_itself() {
    for file in [
        "mtg.toml",
        "mtg-2024.toml",
        "mtg-2011.toml",
        "mtg-classic.toml",
        "grand-archive.toml",
    ] {
        let s = spec(file);
        let d = diff(&s, &s);
        assert!(d.is_empty(), "{file}: {:#?}", d.entries);
    }
}

#[test]
fn classic_to_2011_is_the_magic_2010_rules_change() {
    let d = diff(&spec("mtg-classic.toml"), &spec("mtg-2011.toml"));

    // Mana pools empty at every step end (500.4), not only at phase ends
    // (300.3); mana burn is gone.
    let e = one(&d, "mana", Some("empties"));
    assert_eq!(e.change, Change::Changed);
    assert!(!e.citation_only);
    assert_eq!(e.left_rule.as_deref(), Some("300.3"));
    assert_eq!(e.right_rule.as_deref(), Some("500.4"));
    let e = one(&d, "mana", Some("burn"));
    assert!(e.left.as_deref().unwrap().starts_with("yes"));
    assert_eq!(e.right.as_deref(), Some("no"));
    assert_eq!(e.left_rule.as_deref(), Some("300.3"));

    // Combat damage no longer uses the stack.
    let e = one(&d, "timing combat_damage", None);
    assert_eq!(e.change, Change::Removed);
    assert_eq!(e.left_rule.as_deref(), Some("310.1"));
    let e = one(&d, "action assign_combat_damage", Some("play"));
    assert_eq!(e.right.as_deref(), Some("none"));
    assert_eq!(cited(e), (Some("310.1"), Some("510.1")));
    let e = one(&d, "action deal_combat_damage", None);
    assert_eq!(e.change, Change::Added);
    assert_eq!(e.right_rule.as_deref(), Some("510.2"));

    // Damage assignment orders arrive in the declare blockers step.
    for (id, rule) in [
        ("damage_assignment_order", "509.2"),
        ("blocker_damage_assignment_order", "509.3"),
    ] {
        let e = one(&d, &format!("action {id}"), None);
        assert_eq!(e.change, Change::Added);
        assert_eq!(e.right_rule.as_deref(), Some(rule));
    }

    // "End phase" / "end of turn step" became "ending phase" / "end step".
    assert_eq!(
        one(&d, "step end", Some("name")).left.as_deref(),
        Some("End of turn step")
    );
    assert_eq!(
        one(&d, "phase ending", Some("name")).right.as_deref(),
        Some("Ending phase")
    );

    // Archenemy came in 2010.
    assert_eq!(one(&d, "action scheme", None).change, Change::Added);
    assert_eq!(one(&d, "variant archenemy", None).change, Change::Added);

    // The renumbering 300s → 500s is there, apart.
    let e = one(&d, "step upkeep", Some("rule"));
    assert!(e.citation_only);
    assert_eq!(cited(e), (Some("303"), Some("503")));
    let e = one(&d, "action choose_defender", Some("rule"));
    assert_eq!(cited(e), (Some("306.2"), Some("507.1")));
    let e = one(&d, "priority", Some("first"));
    assert!(e.citation_only);
    assert_eq!(e.right_rule.as_deref(), Some("116.3a"));

    // Nothing moved: the phases and steps are the same since 1999.
    assert!(d.entries.iter().all(|e| e.change != Change::Moved));
    absent(&d, "turn");

    let text = d.to_text("games/mtg-classic.toml", "games/mtg-2011.toml", false);
    assert!(text.contains("~ mana · burn: yes"));
    assert!(text.contains("- timing combat_damage"));
    assert!(text.contains("citation-only (--citations lists them)"));
}

#[test]
fn from_2011_to_2024_the_turn_gains_actions() {
    let d = diff(&spec("mtg-2011.toml"), &spec("mtg-2024.toml"));
    for (id, rule) in [
        ("action day_night", "502.2"),
        ("action saga_lore", "505.4"),
        ("action attractions", "505.5"),
        ("effect extra_upkeep_after_phase", "500.10"),
        ("effect end_combat", "722.2"),
    ] {
        let e = one(&d, id, None);
        assert_eq!(e.change, Change::Added, "{id}");
        assert_eq!(e.right_rule.as_deref(), Some(rule), "{id}");
    }
    assert_eq!(
        d.semantic().filter(|e| e.change == Change::Removed).count(),
        0
    );
    // Priority sub-steps merged into the generic trigger rule: renumbered.
    let e = one(&d, "step declare_blockers", Some("priority"));
    assert!(e.citation_only);
    assert_eq!(cited(e), (Some("509.5"), Some("509.4")));
    let e = one(&d, "priority", Some("rule"));
    assert_eq!(cited(e), (Some("116.1"), Some("117.1")));
}

#[test]
fn foundations_removed_damage_assignment_order() {
    let d = diff(&spec("mtg-2024.toml"), &spec("mtg.toml"));
    for id in ["damage_assignment_order", "blocker_damage_assignment_order"] {
        let e = one(&d, &format!("action {id}"), None);
        assert_eq!(e.change, Change::Removed);
    }
    let e = one(&d, "step declare_blockers", Some("priority"));
    assert_eq!(cited(e), (Some("509.4"), Some("509.2")));
    // Station cards (721) pushed ending the turn from 722 to 723.
    let e = one(&d, "effect end_turn", Some("rule"));
    assert_eq!(cited(e), (Some("722.1"), Some("723.1")));
    assert!(
        one(&d, "fact controls_saga", Some("description"))
            .right
            .as_deref()
            .unwrap()
            .contains("chapter")
    );
}

#[test]
fn magic_to_grand_archive_shows_one_main_phase_and_opportunity() {
    let d = diff(&spec("mtg.toml"), &spec("grand-archive.toml"));
    let e = one(&d, "turn", Some("main phases per turn"));
    assert!(
        e.left
            .as_deref()
            .unwrap()
            .starts_with("2 (precombat_main, postcombat_main)")
    );
    assert_eq!(e.right.as_deref(), Some("1 (main)"));
    let e = one(&d, "terms", Some("priority"));
    assert_eq!(
        (e.left.as_deref(), e.right.as_deref()),
        (Some("priority"), Some("Opportunity"))
    );
    assert_eq!(one(&d, "phase main", None).change, Change::Added);
    assert_eq!(
        one(&d, "phase precombat_main", None).change,
        Change::Removed
    );
    let e = one(&d, "phase combat", Some("occurs"));
    assert!(e.right.as_deref().unwrap().starts_with("on demand"));
    // The priority model cites GA's Opportunity rules.
    let e = one(&d, "priority", Some("first"));
    assert_eq!(e.right_rule.as_deref(), Some("TIME 8"));
    let text = d.to_text("games/mtg.toml", "games/grand-archive.toml", false);
    assert!(text.contains("~ terms · priority: priority → Opportunity"));
    assert!(
        text.contains(
            "~ turn · main phases per turn: 2 (precombat_main, postcombat_main) → 1 (main)"
        )
    );
}

#[test]
fn json_lists_every_difference_with_both_citations() {
    let d = diff(&spec("mtg-classic.toml"), &spec("mtg-2011.toml"));
    let v = d.to_json("a.toml", "b.toml");
    assert_eq!(v["left"]["file"], "a.toml");
    let diffs = v["differences"].as_array().unwrap();
    assert_eq!(diffs.len(), d.entries.len());
    let burn = diffs
        .iter()
        .find(|e| e["element"] == "mana" && e["field"] == "burn")
        .unwrap();
    assert_eq!(burn["change"], "changed");
    assert_eq!(burn["left_rule"], "300.3");
    assert_eq!(burn["citation_only"], false);
    assert!(v["counts"]["citation_only"].as_u64().unwrap() > 30);
}

/// Issue 10, family 7: `diff` grows linearly. Two specs of 10,000 steps,
/// the second with its steps in reverse order (matching by id used to scan
/// the other spec for every element, and the common order was a table of
/// 10,000 × 10,000 cells).
#[test]
fn scale_diff_of_two_large_specs_in_different_orders() {
    let spec = |order: &mut dyn Iterator<Item = usize>| {
        let mut s = String::from(
            "[game]\nname = \"big\"\nplayers = { min = 2, max = 2 }\n[[phase]]\nid = \"main\"\n",
        );
        for i in order {
            s += &format!("[[phase.step]]\nid = \"s{i}\"\npriority = \"always\"\n");
        }
        turnspec_spec::load_str("big.toml", &s).expect("loads").0
    };
    let l = spec(&mut (0..10_000));
    let r = spec(&mut (0..10_000).rev());
    let d = turnspec_compare::diff::diff(&l, &r);
    // Everything but one step is out of the common order.
    let moved = d
        .entries
        .iter()
        .filter(|e| e.change == turnspec_compare::diff::Change::Moved)
        .count();
    assert!(moved >= 9_999, "{moved}");
}

/// Windows are matched by name: a window added before two named windows
/// is one addition, not two changes and an addition.
#[test]
fn windows_are_matched_by_name_not_position() {
    let base = r#"
[game]
name = "W"
players = { min = 2, max = 2 }

[[phase]]
id = "main"
sequence = [
  WINDOWS
]
"#;
    let load = |windows: &str| {
        let text = base.replace("WINDOWS", windows);
        turnspec_spec::load_str("w.toml", &text).expect("loads").0
    };
    let left = load(
        r#"{ window = "always", name = "first" },
  { window = "if_pending", name = "second" },"#,
    );
    let right = load(
        r#"{ window = "always", name = "opening" },
  { window = "always", name = "first" },
  { window = "if_pending", name = "second" },"#,
    );
    let d = diff(&left, &right);
    let e = one(&d, "phase main", Some("window 1"));
    assert_eq!(e.change, Change::Added);
    assert!(d.find("phase main", Some("window \"first\"")).is_empty());
    assert!(d.find("phase main", Some("window \"second\"")).is_empty());
}

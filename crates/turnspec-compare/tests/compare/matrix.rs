//! `compare`'s matrix: scenarios under the four Magic editions.

use crate::common;

use common::{editions, scenario};
use turnspec_compare::{Cell, Matrix, run_matrix};

/// The scenarios (paths under `tests/scenarios`) under the four editions.
fn matrix_of(files: &[&str]) -> Matrix {
    let scenarios: Vec<_> = files.iter().map(|f| scenario(f)).collect();
    run_matrix(&editions(), &scenarios)
}

fn statuses(cells: &[Cell]) -> Vec<&'static str> {
    cells.iter().map(Cell::status).collect()
}

#[test]
fn edition_facts_hold_exactly_where_the_rules_say() {
    let m = matrix_of(&[
        "mtg-editions/classic-300.3-mana-burn-when-the-phase-ends.toml",
        "mtg-editions/2011-500.4-mana-lost-when-the-step-ends-no-burn.toml",
        "mtg-editions/2024-509.2-damage-assignment-order-announced.toml",
        "mtg-editions/2025-509.2-no-damage-assignment-order.toml",
        "mtg/502.1-untap-step-action-order.toml",
        "mtg/103.8a-first-draw-skipped-two-players.toml",
    ]);
    let rows: Vec<Vec<&str>> = m.rows.iter().map(|r| statuses(&r.cells)).collect();
    //                   classic  2011    2024    2025
    assert_eq!(rows[0], ["pass", "FAIL", "FAIL", "FAIL"], "mana burn");
    assert_eq!(
        rows[1],
        ["FAIL", "pass", "pass", "pass"],
        "mana empties each step"
    );
    assert_eq!(
        rows[2],
        ["FAIL", "pass", "pass", "FAIL"],
        "damage assignment order"
    );
    // Before 2009 damage was divided freely too (310.2c): no order either.
    assert_eq!(
        rows[3],
        ["pass", "FAIL", "FAIL", "pass"],
        "no damage assignment order"
    );
    assert_eq!(rows[4], ["n/a", "n/a", "pass", "pass"], "day/night");
    assert_eq!(rows[5], ["pass", "pass", "pass", "pass"], "first draw");
    assert!(!m.rows[5].differs());
    assert_eq!(m.differing().count(), 5);
}

#[test]
fn a_failing_cell_points_at_the_first_diverging_event_and_its_rule() {
    let m = matrix_of(&["mtg-editions/2024-509.2-damage-assignment-order-announced.toml"]);
    let Cell::Fail { divergence, .. } = &m.rows[0].cells[3] else {
        panic!("2025 should fail: {:?}", m.rows[0].cells[3]);
    };
    let d = divergence.as_ref().expect("an event check diverged");
    assert_eq!(
        d.expected.as_deref(),
        Some("action damage_assignment_order")
    );
    assert_eq!(d.actual.as_deref(), Some("trigger P1 Block trigger"));
    // The expected event is cited from the first edition where it passes.
    assert_eq!(
        d.expected_rule,
        Some(("mtg-2011".to_string(), "509.2".to_string()))
    );
    let text = m.to_text();
    assert!(text.contains("first difference at event 9"));
    assert!(text.contains("`action damage_assignment_order` [509.2 in mtg-2011]"));
}

#[test]
fn pre_2009_damage_on_the_stack_changes_what_the_stack_holds() {
    let m = matrix_of(&[
        "mtg-editions/classic-310.1-combat-damage-uses-the-stack.toml",
        "mtg/304.1-instant-in-every-combat-step.toml",
    ]);
    assert_eq!(statuses(&m.rows[0].cells), ["pass", "FAIL", "FAIL", "FAIL"]);
    // Under the old rules the damage object sits under the instant cast in
    // the combat damage step.
    let Cell::Fail { failure, .. } = &m.rows[1].cells[0] else {
        panic!("{:?}", m.rows[1].cells[0]);
    };
    assert!(
        failure.message.contains(r##"got ["#0", "CD1"]"##),
        "{}",
        failure.message
    );
    assert_eq!(statuses(&m.rows[1].cells)[1..], ["pass", "pass", "pass"]);
}

#[test]
fn renumbered_refusals_are_told_apart() {
    let m = matrix_of(&["mtg/117.1a-no-sorcery-for-nonactive-player.toml"]);
    let cells = &m.rows[0].cells;
    assert_eq!(cells[0].renumbered(), Some(("408.1d", "117.1a")));
    assert_eq!(cells[1].renumbered(), Some(("116.1a", "117.1a")));
    assert_eq!(cells[2].renumbered(), None);
    assert_eq!(m.renumbered(), vec![1, 1, 0, 0]);
    let json = m.to_json();
    assert_eq!(
        json["scenarios"][0]["cells"][0]["renumbered"]["cited"],
        "408.1d"
    );
}

#[test]
fn a_scenario_the_edition_cannot_express_is_not_applicable() {
    let m = matrix_of(&["mtg/turn-modifiers/723.2-end-the-combat-phase.toml"]);
    let Cell::NotApplicable { reason } = &m.rows[0].cells[0] else {
        panic!("{:?}", m.rows[0].cells[0]);
    };
    assert!(reason.contains("no effect `end_combat`"), "{reason}");
    assert_eq!(m.to_json()["scenarios"][0]["cells"][1]["status"], "n/a");
}

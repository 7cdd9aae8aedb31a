//! Magic: The Gathering conformance: games/mtg.toml (CR 2025-09-19) run by
//! the generic engine. Test names cite the rule they check; the scenario ids
//! (UNTAP-NOPRIO, LAND-PLAY...) are those of the rules reference, §8.
//!
//! Every action goes through [`Table::act`], which checks that a refused
//! action leaves the game state exactly as it was and emits no event.

use std::sync::LazyLock;

use rstest::rstest;
use turnspec_engine::{
    Action, Game, GameOptions, PlayerId, RuleError, StartAt, Status, TimingFailure,
};
use turnspec_spec::Spec;

use support::*;

static MTG: LazyLock<Spec> = LazyLock::new(|| {
    match turnspec_spec::load_str("games/mtg.toml", include_str!("../../../games/mtg.toml")) {
        Ok((spec, _)) => spec,
        Err(report) => panic!("games/mtg.toml does not load:\n{}", report.to_short_text()),
    }
});

fn mtg() -> &'static Spec {
    &MTG
}

const P1: PlayerId = PlayerId(0);
const P2: PlayerId = PlayerId(1);
const P3: PlayerId = PlayerId(2);

/// A game of `players` starting at the beginning of `step` (or of the phase
/// if `step` names a step-less phase) on `turn`, taken by `active`.
fn at(players: u8, turn: u32, active: PlayerId, step: &str, host: TestHost) -> Table {
    Table::new(
        mtg(),
        GameOptions {
            start_at: Some(start_at(mtg(), turn, active, step)),
            ..GameOptions::players(players)
        },
        host,
    )
}

/// A 2-player game on turn 3 (P1's second turn: no first-turn skips).
fn at2(step: &str) -> Table {
    at(2, 3, P1, step, TestHost::new(mtg()))
}

// --- 500: the turn's phases and steps -------------------------------------------

#[test]
fn rule_500_1_full_turn_order_two_players_all_pass() {
    let mut t = Table::new(mtg(), GameOptions::players(2), TestHost::new(mtg()));
    t.game.set_turn_limit(2);
    t.pass_until_stopped();
    assert_eq!(t.game.status(), Status::TurnLimit);
    let turn = |n: u32, p: &str, draw: &str| {
        vec![
            format!("turn {n} {p}"),
            "phase beginning #1".into(),
            "step untap".into(),
            "step upkeep".into(),
            draw.to_string(),
            "phase precombat_main #1".into(),
            "phase combat #1".into(),
            "step beginning_of_combat".into(),
            "step declare_attackers".into(),
            "skip declare_blockers [508.8]".into(),
            "skip combat_damage [508.8]".into(),
            "step end_of_combat".into(),
            "phase postcombat_main #2".into(),
            "phase ending #1".into(),
            "step end".into(),
            "step cleanup".into(),
            format!("end turn {n}"),
        ]
    };
    let mut want = turn(1, "P1", "skip draw [103.8a]");
    want.extend(turn(2, "P2", "step draw"));
    assert_eq!(structure(&t.log()), want);
}

#[test]
fn rule_500_2_steps_end_only_after_all_players_pass_in_succession() {
    let mut t = at2("upkeep");
    assert_eq!(t.log(), ["step upkeep", "prio P1 opened"]);
    t.pass();
    assert_eq!(t.log(), ["pass P1", "prio P2 passed"]);
    assert_eq!(t.step_id(), "upkeep");
    t.pass();
    assert_eq!(
        t.log(),
        [
            "pass P2",
            "end step upkeep",
            "step draw",
            "tba draw",
            "prio P1 opened"
        ]
    );
}

#[test]
fn rule_502_4_and_514_3_nobody_gets_priority_in_untap_or_in_an_uneventful_cleanup() {
    let mut t = Table::new(mtg(), GameOptions::players(2), TestHost::new(mtg()));
    t.game.set_turn_limit(1);
    t.pass_until_stopped();
    let log = t.log();
    for step in ["untap", "cleanup"] {
        let inside = between(&log, &format!("step {step}"), &format!("end step {step}"));
        assert!(
            !inside.iter().any(|e| e.starts_with("prio")),
            "priority given in {step}: {inside:?}"
        );
    }
    // Every other step and main phase opens with the active player.
    for (begin, end) in [
        ("step upkeep", "end step upkeep"),
        ("phase precombat_main #1", "end phase precombat_main"),
        ("step beginning_of_combat", "end step beginning_of_combat"),
        ("step declare_attackers", "end step declare_attackers"),
        ("step end_of_combat", "end step end_of_combat"),
        ("phase postcombat_main #2", "end phase postcombat_main"),
        ("step end", "end step end"),
    ] {
        let inside = between(&log, begin, end);
        let first = inside.iter().find(|e| e.starts_with("prio"));
        assert_eq!(
            first.map(String::as_str),
            Some("prio P1 opened"),
            "in {begin}"
        );
    }
}

// --- 117: priority --------------------------------------------------------------

#[test]
fn rule_117_3a_active_player_gets_priority_after_the_turn_based_action() {
    // Turn 2, P2 active: the draw happens before anyone can act (DRAW-BEFORE-PRIORITY).
    let mut t = at(2, 2, P2, "draw", TestHost::new(mtg()));
    assert_eq!(t.log(), ["step draw", "tba draw", "prio P2 opened"]);
    assert_eq!(t.game.holder(), Some(P2));
}

#[test]
fn rule_117_3a_draw_trigger_goes_on_the_stack_before_active_player_priority() {
    let host = TestHost::new(mtg()).trigger_on_action("draw", P2, 7);
    let mut t = at(2, 2, P2, "draw", host);
    assert_eq!(
        t.log(),
        ["step draw", "tba draw", "trigger P2 #7", "prio P2 opened"]
    );
    assert_eq!(t.game.stack().len(), 1);
}

#[rstest]
#[case::two_players(2, P1, &["P1", "P2"])]
#[case::two_players_p2_active(2, P2, &["P2", "P1"])]
#[case::three_players(3, P1, &["P1", "P2", "P3"])]
#[case::four_players(4, P1, &["P1", "P2", "P3", "P4"])]
#[case::four_players_p3_active(4, P3, &["P3", "P4", "P1", "P2"])]
fn rule_117_3d_passing_hands_priority_to_the_next_player_in_turn_order(
    #[case] players: u8,
    #[case] active: PlayerId,
    #[case] order: &[&str],
) {
    let mut t = at(players, 9, active, "upkeep", TestHost::new(mtg()));
    let mut holders = Vec::new();
    while t.step_id() == "upkeep" {
        holders.push(t.holder().to_string());
        t.pass();
    }
    assert_eq!(holders, order);
}

#[test]
fn rule_117_3c_a_player_who_casts_a_spell_receives_priority_again() {
    // KEEP-PRIORITY, for the active and for a non-active player.
    let mut t = at2("upkeep");
    t.log();
    t.play(P1, "instant", 1).unwrap();
    assert_eq!(t.log(), ["push P1 instant #1", "prio P1 acted"]);
    t.pass();
    t.play(P2, "instant", 2).unwrap();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "push P2 instant #2",
            "prio P2 acted"
        ]
    );
    // P2 may respond to its own spell.
    t.play(P2, "instant", 3).unwrap();
    assert_eq!(t.holder(), P2);
    assert_eq!(t.game.stack().len(), 3);
}

#[test]
fn rule_116_3_a_player_who_plays_a_land_receives_priority_again() {
    // LAND-PLAY: no stack, no response, the player keeps priority.
    let mut t = at2("precombat_main");
    t.log();
    t.play(P1, "land", 1).unwrap();
    assert_eq!(t.log(), ["special P1 land #1", "prio P1 acted"]);
    assert!(t.game.stack().is_empty());
    assert_eq!(t.counter("lands_played"), 1);
}

#[test]
fn rule_117_3b_active_player_gets_priority_after_a_resolution() {
    // 3 players, P3 casts: after P3, P1 and P2 pass, the spell resolves and
    // P1 (active) receives priority, not P3 (next after the last passer).
    let mut t = at(3, 9, P1, "upkeep", TestHost::new(mtg()));
    t.pass();
    t.pass();
    t.play(P3, "instant", 5).unwrap();
    t.log();
    t.pass(); // P3
    t.pass(); // P1
    t.pass(); // P2
    assert_eq!(
        t.log(),
        [
            "pass P3",
            "prio P1 passed",
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "resolve P3 instant #5",
            "prio P1 resolved",
        ]
    );
    assert_eq!(
        t.step_id(),
        "upkeep",
        "500.2: a resolution does not end the step"
    );
}

#[test]
fn rule_117_4_all_pass_with_a_non_empty_stack_resolves_only_the_top_object() {
    let mut t = at2("upkeep");
    t.play(P1, "instant", 1).unwrap();
    t.pass();
    t.play(P2, "instant", 2).unwrap();
    t.log();
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P2",
            "prio P1 passed",
            "pass P1",
            "resolve P2 instant #2",
            "prio P1 resolved",
        ]
    );
    assert_eq!(t.game.stack().len(), 1);
    t.pass_round();
    assert_eq!(t.log().last().map(String::as_str), Some("prio P1 resolved"));
    assert!(t.game.stack().is_empty());
    assert_eq!(t.step_id(), "upkeep");
}

#[test]
fn rule_117_4_all_pass_with_an_empty_stack_ends_the_step() {
    let mut t = at2("beginning_of_combat");
    t.log();
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "end step beginning_of_combat",
            "step declare_attackers",
            "tba declare_attackers=0",
            "prio P1 opened",
        ]
    );
}

#[test]
fn rule_117_5_a_trigger_reported_while_a_player_holds_priority_goes_on_the_stack_at_once() {
    let mut t = at2("upkeep");
    t.pass(); // P1 passed, P2 holds
    t.log();
    t.act(Action::Trigger {
        controller: P1,
        label: 9,
    })
    .unwrap();
    assert_eq!(t.log(), ["trigger P1 #9"]);
    assert_eq!(t.holder(), P2, "the holder does not change");
    // P1's earlier pass no longer counts: both must pass again.
    t.pass();
    assert_eq!(t.log(), ["pass P2", "prio P1 passed"]);
    t.pass();
    assert_eq!(
        t.log(),
        ["pass P1", "resolve P1 trigger #9", "prio P1 resolved"]
    );
}

#[test]
fn rule_603_3b_active_players_triggers_go_on_the_stack_first_and_resolve_last() {
    let host = TestHost::new(mtg())
        .trigger_on_step("upkeep", P3, 30)
        .trigger_on_step("upkeep", P1, 10)
        .trigger_on_step("upkeep", P2, 20);
    let mut t = at(3, 9, P2, "upkeep", host);
    assert_eq!(
        t.log(),
        [
            "step upkeep",
            "trigger P2 #20",
            "trigger P3 #30",
            "trigger P1 #10",
            "prio P2 opened",
        ]
    );
    for _ in 0..3 {
        t.pass_round();
    }
    let resolved: Vec<String> = t
        .log()
        .into_iter()
        .filter(|e| e.starts_with("resolve"))
        .collect();
    assert_eq!(
        resolved,
        [
            "resolve P1 trigger #10",
            "resolve P3 trigger #30",
            "resolve P2 trigger #20"
        ]
    );
}

#[test]
fn rule_117_1_only_the_player_with_priority_may_act() {
    let mut t = at2("upkeep");
    for action in [
        Action::Pass { player: P2 },
        Action::Play {
            player: P2,
            timing: t.timing("instant"),
            label: 0,
        },
    ] {
        let err = t.refused(action);
        assert!(
            matches!(
                err,
                RuleError::NotHolder {
                    player: P2,
                    holder: Some(P1),
                    ..
                }
            ),
            "{err:?}"
        );
        assert_eq!(mtg().rule(err.rule()), Some("117.1"));
    }
}

// --- 502-503: untap and upkeep ------------------------------------------------------

#[test]
fn rule_502_4_untap_trigger_waits_for_upkeep_and_goes_on_before_ap_priority() {
    // UNTAP-NOPRIO; with 503.1a, an upkeep trigger joins it.
    let host = TestHost::new(mtg())
        .trigger_on_action("untap", P1, 1)
        .trigger_on_step("upkeep", P1, 2);
    let mut t = at(2, 3, P1, "untap", host);
    assert_eq!(
        t.log(),
        [
            "step untap",
            "tba untap",
            "end step untap",
            "step upkeep",
            "trigger P1 #1",
            "trigger P1 #2",
            "prio P1 opened",
        ]
    );
}

#[rstest]
#[case::no_facts(&[], &["untap"])]
#[case::phasing(&["phasing"], &["phasing", "untap"])]
#[case::day_night(&["day_night"], &["day_night", "untap"])]
#[case::both(&["day_night", "phasing"], &["phasing", "day_night", "untap"])]
fn rule_502_1_to_502_3_untap_step_actions_happen_in_order(
    #[case] facts: &[&str],
    #[case] want: &[&str],
) {
    let options = GameOptions {
        facts: facts.iter().map(|f| fact(mtg(), f)).collect(),
        start_at: Some(start_at(mtg(), 3, P1, "untap")),
        ..GameOptions::players(2)
    };
    let mut t = Table::new(mtg(), options, TestHost::new(mtg()));
    let tbas: Vec<String> = t
        .log()
        .into_iter()
        .filter_map(|e| e.strip_prefix("tba ").map(str::to_string))
        .collect();
    assert_eq!(tbas, want);
}

// --- 103.8: the first draw -----------------------------------------------------------

#[rstest]
#[case::p1_starts(P1, P2)]
#[case::p2_starts(P2, P1)]
fn rule_103_8a_two_player_starting_player_skips_the_first_draw(
    #[case] starting: PlayerId,
    #[case] other: PlayerId,
) {
    // FIRST-DRAW-2P.
    let options = GameOptions {
        starting_player: starting,
        ..GameOptions::players(2)
    };
    let mut t = Table::new(mtg(), options, TestHost::new(mtg()));
    t.game.set_turn_limit(3);
    t.pass_until_stopped();
    let draws = draw_steps(&t.log());
    assert_eq!(
        draws,
        [
            format!("1 {starting}: skip draw [103.8a]"),
            format!("2 {other}: step draw"),
            format!("3 {starting}: step draw"),
        ]
    );
}

#[rstest]
#[case::three_players(3)]
#[case::four_players(4)]
fn rule_103_8c_multiplayer_nobody_skips_the_first_draw(#[case] players: u8) {
    let mut t = Table::new(mtg(), GameOptions::players(players), TestHost::new(mtg()));
    t.game.set_turn_limit(players as u32);
    t.pass_until_stopped();
    let draws = draw_steps(&t.log());
    let want: Vec<String> = (1..=players)
        .map(|n| format!("{n} P{n}: step draw"))
        .collect();
    assert_eq!(draws, want);
}

/// `"<turn> <player>: <draw step begun or skipped>"` for each turn.
fn draw_steps(log: &[String]) -> Vec<String> {
    let mut turn = String::new();
    let mut out = Vec::new();
    for e in log {
        if let Some(rest) = e.strip_prefix("turn ") {
            turn = rest.to_string();
        }
        if e == "step draw" || e.starts_with("skip draw") {
            out.push(format!("{turn}: {e}"));
        }
    }
    out
}

// --- 305: playing lands ----------------------------------------------------------------

#[test]
fn rule_305_2_a_second_land_in_a_turn_is_refused() {
    // LAND-COUNT.
    let mut t = at2("precombat_main");
    t.play(P1, "land", 1).unwrap();
    let err = t.play(P1, "land", 2).unwrap_err();
    assert_eq!(
        err,
        RuleError::Timing {
            player: P1,
            timing: t.timing("land"),
            failure: TimingFailure::LimitReached { max: 1 },
            rule: err.rule(),
        }
    );
    assert_eq!(mtg().rule(err.rule()), Some("305.2"));
    assert!(
        err.describe(mtg()).contains("305.2"),
        "{}",
        err.describe(mtg())
    );
    // Still refused in the postcombat main phase of the same turn.
    t.pass_until_step("postcombat_main");
    let err = t.play(P1, "land", 3).unwrap_err();
    assert!(matches!(
        err,
        RuleError::Timing {
            failure: TimingFailure::LimitReached { max: 1 },
            ..
        }
    ));
    // The count resets with the turn: P2 may play a land on turn 4.
    t.pass_until_step("precombat_main");
    assert_eq!((t.game.turn(), t.holder()), (4, P2));
    assert_eq!(t.counter("lands_played"), 0);
    t.play(P2, "land", 4).unwrap();
}

#[test]
fn rule_305_3_the_non_active_player_cannot_play_a_land() {
    // LAND-NAP.
    let mut t = at2("precombat_main");
    t.pass();
    let err = t.play(P2, "land", 1).unwrap_err();
    assert!(
        matches!(
            err,
            RuleError::Timing {
                player: P2,
                failure: TimingFailure::NotActivePlayer,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(mtg().rule(err.rule()), Some("305.3"));
    assert!(
        err.describe(mtg()).contains("305.3"),
        "{}",
        err.describe(mtg())
    );
}

#[rstest]
#[case::upkeep("upkeep")]
#[case::draw("draw")]
#[case::beginning_of_combat("beginning_of_combat")]
#[case::end("end")]
fn rule_305_1_a_land_is_played_only_in_a_main_phase(#[case] step: &str) {
    let mut t = at2(step);
    let err = t.play(P1, "land", 1).unwrap_err();
    assert!(
        matches!(
            err,
            RuleError::Timing {
                failure: TimingFailure::WrongStep,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn rule_305_1_a_land_is_played_only_with_an_empty_stack() {
    let mut t = at2("precombat_main");
    t.play(P1, "instant", 1).unwrap();
    let err = t.play(P1, "land", 2).unwrap_err();
    assert!(
        matches!(
            err,
            RuleError::Timing {
                failure: TimingFailure::StackNotEmpty,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(t.counter("lands_played"), 0);
}

// --- 117.1a: sorcery and instant speed -------------------------------------------------

#[rstest]
#[case::precombat("precombat_main")]
#[case::postcombat("postcombat_main")]
fn rule_117_1a_sorcery_in_own_main_phase_with_empty_stack(#[case] phase: &str) {
    let mut t = at2(phase);
    t.log();
    t.play(P1, "sorcery", 1).unwrap();
    assert_eq!(t.log(), ["push P1 sorcery #1", "prio P1 acted"]);
}

#[rstest]
#[case::upkeep("upkeep")]
#[case::draw("draw")]
#[case::beginning_of_combat("beginning_of_combat")]
#[case::declare_attackers("declare_attackers")]
#[case::end_of_combat("end_of_combat")]
#[case::end("end")]
fn rule_117_1a_sorcery_refused_outside_a_main_phase(#[case] step: &str) {
    // SORCERY-TIMING.
    let mut t = at2(step);
    let err = t.play(P1, "sorcery", 1).unwrap_err();
    assert!(
        matches!(
            err,
            RuleError::Timing {
                failure: TimingFailure::WrongStep,
                ..
            }
        ),
        "{step}: {err:?}"
    );
}

#[test]
fn rule_117_1a_sorcery_refused_with_a_non_empty_stack() {
    let mut t = at2("precombat_main");
    t.play(P1, "instant", 1).unwrap();
    let err = t.play(P1, "sorcery", 2).unwrap_err();
    assert!(
        matches!(
            err,
            RuleError::Timing {
                failure: TimingFailure::StackNotEmpty,
                ..
            }
        ),
        "{err:?}"
    );
    // Once the instant resolves the sorcery is fine again.
    t.pass_round();
    assert!(t.game.stack().is_empty());
    t.play(P1, "sorcery", 2).unwrap();
}

#[test]
fn rule_117_1a_sorcery_refused_for_the_non_active_player() {
    let mut t = at2("precombat_main");
    t.pass();
    let err = t.play(P2, "sorcery", 1).unwrap_err();
    assert!(
        matches!(
            err,
            RuleError::Timing {
                player: P2,
                failure: TimingFailure::NotActivePlayer,
                ..
            }
        ),
        "{err:?}"
    );
}

#[rstest]
#[case::upkeep("upkeep")]
#[case::draw("draw")]
#[case::main("precombat_main")]
#[case::beginning_of_combat("beginning_of_combat")]
#[case::declare_attackers("declare_attackers")]
#[case::end_of_combat("end_of_combat")]
#[case::end("end")]
fn rule_117_1a_instant_allowed_whenever_a_player_has_priority(#[case] step: &str) {
    let mut t = at2(step);
    t.play(P1, "instant", 1).unwrap();
    t.pass();
    t.play(P2, "instant", 2).unwrap();
    assert_eq!(t.game.stack().len(), 2);
}

#[test]
fn rule_117_1a_legal_actions_follow_the_timing_classes() {
    let mut t = at2("upkeep");
    assert_eq!(t.legal(P1), ["pass", "instant"]);
    assert!(t.legal(P2).is_empty(), "P2 does not hold priority");
    t.pass_until_step("precombat_main");
    assert_eq!(t.legal(P1), ["pass", "sorcery", "instant", "land"]);
    t.play(P1, "land", 1).unwrap();
    assert_eq!(t.legal(P1), ["pass", "sorcery", "instant"]);
    t.play(P1, "instant", 2).unwrap();
    assert_eq!(t.legal(P1), ["pass", "instant"]);
    t.pass();
    assert_eq!(t.legal(P2), ["pass", "instant"]);
}

// --- 505: main phase turn-based actions ---------------------------------------------------

fn archenemy_options(players: u8, variant: bool, saga: bool, attraction: bool) -> GameOptions {
    let mut facts = Vec::new();
    if saga {
        facts.push(fact(mtg(), "controls_saga"));
    }
    if attraction {
        facts.push(fact(mtg(), "controls_attraction"));
    }
    GameOptions {
        variants: if variant {
            vec![mtg().variant_by_id("archenemy").expect("variant archenemy")]
        } else {
            Vec::new()
        },
        facts,
        start_at: Some(start_at(mtg(), 3, P1, "precombat_main")),
        ..GameOptions::players(players)
    }
}

#[test]
fn rule_505_3_to_505_5_precombat_main_actions_happen_in_order_then_triggers_then_priority() {
    // MAIN-TBA-ORDER: scheme, lore counters, Attractions; their triggers go on
    // the stack before the active player receives priority.
    let host = TestHost::new(mtg())
        .trigger_on_action("scheme", P1, 1)
        .trigger_on_action("saga_lore", P1, 2)
        .trigger_on_action("attractions", P1, 3);
    let mut t = Table::new(mtg(), archenemy_options(2, true, true, true), host);
    assert_eq!(
        t.log(),
        [
            "phase precombat_main #1",
            "tba scheme",
            "tba saga_lore",
            "tba attractions",
            "trigger P1 #1",
            "trigger P1 #2",
            "trigger P1 #3",
            "prio P1 opened",
        ]
    );
    // MAIN2-NO-TBA: the postcombat main phase has none of them.
    t.pass_until_step("postcombat_main");
    t.pass_round();
    let log = t.log();
    let main2 = between(
        &log,
        "phase postcombat_main #2",
        "end phase postcombat_main",
    );
    assert!(
        !main2.iter().any(|e| e.starts_with("tba")),
        "turn-based actions in the postcombat main phase: {main2:?}"
    );
    assert_eq!(t.host.asked_count("scheme"), 1);
}

#[rstest]
#[case::nothing(false, false, false, &[])]
#[case::archenemy_only(true, false, false, &["scheme"])]
#[case::saga_only(false, true, false, &["saga_lore"])]
#[case::attraction_only(false, false, true, &["attractions"])]
#[case::saga_and_attraction(false, true, true, &["saga_lore", "attractions"])]
fn rule_505_3_to_505_5_each_action_needs_its_variant_or_fact(
    #[case] variant: bool,
    #[case] saga: bool,
    #[case] attraction: bool,
    #[case] want: &[&str],
) {
    let mut t = Table::new(
        mtg(),
        archenemy_options(2, variant, saga, attraction),
        TestHost::new(mtg()),
    );
    let tbas: Vec<String> = t
        .log()
        .into_iter()
        .filter_map(|e| e.strip_prefix("tba ").map(str::to_string))
        .collect();
    assert_eq!(tbas, want);
}

#[test]
fn rule_505_1a_the_second_main_phase_is_main_phase_number_two() {
    let mut t = at2("precombat_main");
    assert_eq!(t.game.phase_number(), 1);
    t.pass_until_step("postcombat_main");
    assert_eq!(t.game.phase_number(), 2);
}

// --- 507-511: combat ----------------------------------------------------------------

#[rstest]
#[case::two_players_fact_set(2, true, false)]
#[case::three_players_fact_set(3, true, true)]
#[case::three_players_no_fact(3, false, false)]
fn rule_507_1_defending_player_chosen_only_in_multiplayer_when_needed(
    #[case] players: u8,
    #[case] fact_set: bool,
    #[case] chosen: bool,
) {
    // DEFENDER-CHOICE.
    let options = GameOptions {
        facts: if fact_set {
            vec![fact(mtg(), "defending_player_choice")]
        } else {
            Vec::new()
        },
        start_at: Some(start_at(mtg(), 9, P1, "beginning_of_combat")),
        ..GameOptions::players(players)
    };
    let mut t = Table::new(mtg(), options, TestHost::new(mtg()));
    let want: &[&str] = if chosen {
        &[
            "step beginning_of_combat",
            "tba choose_defender",
            "prio P1 opened",
        ]
    } else {
        &["step beginning_of_combat", "prio P1 opened"]
    };
    assert_eq!(t.log(), want);
}

#[test]
fn rule_508_8_no_attackers_skips_blockers_and_damage() {
    let mut t = at2("beginning_of_combat");
    t.pass_until_step("end_of_combat");
    let log = t.log();
    assert_eq!(
        structure(&log),
        [
            "step beginning_of_combat",
            "step declare_attackers",
            "skip declare_blockers [508.8]",
            "skip combat_damage [508.8]",
            "step end_of_combat",
        ]
    );
    // 508.2: priority in declare attackers even though nobody attacked.
    let inside = between(&log, "step declare_attackers", "end step declare_attackers");
    assert_eq!(
        inside.first().map(String::as_str),
        Some("tba declare_attackers=0")
    );
    assert!(inside.contains(&"prio P1 opened".to_string()));
}

#[rstest]
#[case::one_attacker(1)]
#[case::three_attackers(3)]
fn rule_508_8_with_attackers_the_blockers_and_damage_steps_happen(#[case] attackers: u16) {
    let host = TestHost::new(mtg()).answer("declare_attackers", attackers);
    let mut t = at(2, 3, P1, "beginning_of_combat", host);
    t.pass_until_step("end_of_combat");
    let log = t.log();
    assert_eq!(
        structure(&log),
        [
            "step beginning_of_combat",
            "step declare_attackers",
            "step declare_blockers",
            "step combat_damage",
            "step end_of_combat",
        ]
    );
    assert!(log.contains(&format!("tba declare_attackers={attackers}")));
    assert_eq!(t.counter("attackers"), attackers);
    let damage = between(&log, "step combat_damage", "end step combat_damage");
    assert_eq!(
        damage,
        [
            "tba first_strike_check=0",
            "tba assign_combat_damage",
            "tba deal_combat_damage",
            "prio P1 opened",
            "pass P1",
            "prio P2 passed",
            "pass P2",
        ]
    );
}

#[test]
fn rule_510_4_first_strike_makes_two_combat_damage_steps() {
    // The host says first strike is present (answer 1); an answer above the
    // action's maximum is clamped to 1.
    let host = TestHost::new(mtg())
        .answer("declare_attackers", 2)
        .answer("first_strike_check", 5);
    let mut t = at(2, 3, P1, "declare_attackers", host);
    t.pass_until_step("end_of_combat");
    let log = t.log();
    assert_eq!(
        structure(&log),
        [
            "step declare_attackers",
            "step declare_blockers",
            "step combat_damage",
            "step combat_damage again 1",
            "step end_of_combat",
        ]
    );
    let tbas: Vec<&str> = log
        .iter()
        .filter(|e| e.starts_with("tba") || e.starts_with("step combat_damage"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        tbas,
        [
            "tba declare_attackers=2",
            "tba declare_blockers",
            "step combat_damage",
            "tba first_strike_check=1",
            "tba assign_combat_damage",
            "tba deal_combat_damage",
            "step combat_damage again 1",
            "tba assign_combat_damage",
            "tba deal_combat_damage",
        ]
    );
    assert_eq!(t.host.asked_count("first_strike_check"), 1);
    // Players get priority in each combat damage step (510.3): windows open
    // in declare attackers, declare blockers, both damage steps and end of
    // combat.
    assert_eq!(log.iter().filter(|e| *e == "prio P1 opened").count(), 5);
}

// --- 514: cleanup --------------------------------------------------------------------

#[test]
fn rule_514_3_no_priority_in_cleanup_when_nothing_is_pending() {
    // CLEANUP-NOPRIO.
    let mut t = at2("end");
    t.log();
    t.pass_round();
    let log = t.log();
    let cleanup = between(&log, "step cleanup", "end step cleanup");
    assert_eq!(cleanup, ["tba discard_to_hand_size", "tba remove_damage"]);
    assert_eq!(
        log.iter().filter(|e| e.starts_with("step cleanup")).count(),
        1
    );
    assert!(log.contains(&"end turn 3".to_string()));
    assert!(log.contains(&"turn 4 P2".to_string()));
}

#[test]
fn rule_514_3a_a_trigger_during_cleanup_opens_a_window_and_another_cleanup_follows() {
    let host = TestHost::new(mtg()).trigger_on_action("remove_damage", P1, 42);
    let mut t = at(2, 3, P1, "cleanup", host);
    assert_eq!(
        t.log(),
        [
            "step cleanup",
            "tba discard_to_hand_size",
            "tba remove_damage",
            "trigger P1 #42",
            "prio P1 opened",
        ]
    );
    assert_eq!(t.step_id(), "cleanup");
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "resolve P1 trigger #42",
            "prio P1 resolved"
        ]
    );
    t.pass_round();
    assert_eq!(
        structure(&t.log()),
        [
            "step cleanup again 1",
            "end turn 3",
            "turn 4 P2",
            "phase beginning #1",
            "step untap",
            "step upkeep"
        ]
    );
    assert_eq!(t.host.asked_count("remove_damage"), 2);
}

#[test]
fn rule_514_3a_cleanup_repeats_as_long_as_triggers_keep_coming() {
    let host = TestHost::new(mtg())
        .trigger_on_action("remove_damage", P1, 1)
        .trigger_on_action("remove_damage", P2, 2);
    let mut t = at(2, 3, P1, "cleanup", host);
    // First cleanup: one trigger fires (the host fires one per call).
    t.pass_round();
    t.pass_round();
    // Second cleanup: the other fires, so a third cleanup follows.
    assert_eq!(t.step_id(), "cleanup");
    assert_eq!(t.game.repeat_count(), 1);
    t.pass_round();
    t.pass_round();
    let log = t.log();
    assert!(log.contains(&"step cleanup again 2".to_string()), "{log:?}");
    assert_eq!(t.game.turn(), 4);
}

// --- refusals never change anything ---------------------------------------------------------

#[test]
fn every_refused_action_returns_a_rule_error_and_leaves_the_state_unchanged() {
    let mut t = at2("precombat_main");
    t.play(P1, "land", 1).unwrap();
    t.play(P1, "instant", 2).unwrap();
    let refusals = [
        Action::Pass { player: P2 },
        Action::Pass {
            player: PlayerId(2),
        },
        Action::Pass {
            player: PlayerId(200),
        },
        Action::Play {
            player: P1,
            timing: t.timing("land"),
            label: 0,
        },
        Action::Play {
            player: P1,
            timing: t.timing("sorcery"),
            label: 0,
        },
        Action::Play {
            player: P2,
            timing: t.timing("instant"),
            label: 0,
        },
        Action::Play {
            player: PlayerId(7),
            timing: t.timing("instant"),
            label: 0,
        },
        Action::Trigger {
            controller: PlayerId(2),
            label: 0,
        },
        Action::Trigger {
            controller: PlayerId(9),
            label: 0,
        },
    ];
    for action in refusals {
        // `refused` compares the whole state before and after.
        let err = t.refused(action);
        assert!(!err.describe(mtg()).is_empty());
    }
}

#[test]
fn actions_after_the_turn_limit_are_refused_with_not_running() {
    let mut t = Table::new(mtg(), GameOptions::players(2), TestHost::new(mtg()));
    t.game.set_turn_limit(1);
    t.pass_until_stopped();
    assert_eq!(t.game.status(), Status::TurnLimit);
    assert_eq!(t.game.holder(), None);
    for player in [P1, P2] {
        let err = t.refused(Action::Pass { player });
        assert_eq!(err, RuleError::NotRunning(Status::TurnLimit));
        let err = t.refused(Action::Play {
            player,
            timing: t.timing("instant"),
            label: 0,
        });
        assert_eq!(err, RuleError::NotRunning(Status::TurnLimit));
    }
}

#[test]
fn setup_rejects_player_counts_and_start_points_the_spec_does_not_allow() {
    assert!(Game::new(mtg(), &GameOptions::players(1)).is_err());
    assert!(Game::new(mtg(), &GameOptions::players(9)).is_err());
    let bad_start = GameOptions {
        starting_player: PlayerId(2),
        ..GameOptions::players(2)
    };
    assert!(Game::new(mtg(), &bad_start).is_err());
    let bad_step = GameOptions {
        start_at: Some(StartAt {
            turn: 1,
            active: P1,
            phase: mtg().phase_by_id("beginning").unwrap(),
            step: mtg().step_by_id("cleanup"),
        }),
        ..GameOptions::players(2)
    };
    assert!(Game::new(mtg(), &bad_step).is_err());
    for players in 2..=8 {
        assert!(Game::new(mtg(), &GameOptions::players(players)).is_ok());
    }
}

mod support;

//! Grand Archive conformance: games/grand-archive.toml (CR v1.1.1) run by the
//! generic engine. Test names cite the rule they check (page key and item,
//! e.g. `rule_time_8_1` for TIME 8.1); numbers in comments (#5) are the
//! scenario facts of the rules reference, §13.
//!
//! Every action goes through [`Table::act`], which checks that a refused
//! action leaves the game state exactly as it was and emits no event.

use std::sync::LazyLock;

use rstest::rstest;
use turnspec_engine::{Action, GameOptions, PlayerId, RuleError, Status, TimingFailure};
use turnspec_spec::Spec;

use support::*;

static GRAND_ARCHIVE: LazyLock<Spec> = LazyLock::new(|| {
    match turnspec_spec::load_str(
        "games/grand-archive.toml",
        include_str!("../../../games/grand-archive.toml"),
    ) {
        Ok((spec, _)) => spec,
        Err(report) => panic!(
            "games/grand-archive.toml does not load:\n{}",
            report.to_short_text()
        ),
    }
});

fn ga() -> &'static Spec {
    &GRAND_ARCHIVE
}

const P1: PlayerId = PlayerId(0);
const P2: PlayerId = PlayerId(1);
const P3: PlayerId = PlayerId(2);
const P4: PlayerId = PlayerId(3);

/// A game of `players` starting at the beginning of `step` (a step id, or a
/// step-less phase's id) on `turn`, taken by `active`.
fn at(players: u8, turn: u32, active: PlayerId, step: &str, host: TestHost) -> Table {
    Table::new(
        ga(),
        GameOptions {
            start_at: Some(start_at(ga(), turn, active, step)),
            ..GameOptions::players(players)
        },
        host,
    )
}

/// A 2-player game on turn 3 (P1's second turn: no first-turn rules apply).
fn at2(step: &str) -> Table {
    at(2, 3, P1, step, TestHost::new(ga()))
}

fn timing_failure(err: RuleError) -> TimingFailure {
    match err {
        RuleError::Timing { failure, .. } => failure,
        other => panic!("expected a timing refusal, got {other:?}"),
    }
}

// --- TO: the turn ----------------------------------------------------------------

#[test]
fn rule_to_1_a_normal_turn_runs_the_six_phases_in_order() {
    // #1, #3, #4, #7, #10, #12, #46, #48: Wake Up, Materialize and Draw give
    // no Opportunity when nothing is pending; Recollection, Main and End do;
    // clean-up changes nothing, so the turn ends and the next player starts
    // at Wake Up.
    let mut t = Table::new(ga(), GameOptions::players(2), TestHost::new(ga()));
    t.game.set_turn_limit(4);
    t.pass_until_stopped();
    let log = t.log();
    let turn3 = between(&log, "turn 3 P1", "turn 4 P2");
    assert_eq!(
        turn3,
        [
            "phase wake_up #1",
            "tba wake_up",
            "end phase wake_up",
            "phase materialize #1",
            "tba materialize=0",
            "end phase materialize",
            "phase recollection #1",
            "prio P1 opened (start of Recollection)",
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "tba recollect",
            "end phase recollection",
            "phase draw #1",
            "tba draw",
            "end phase draw",
            "phase main #1",
            "prio P1 opened (main)",
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "end phase main",
            "phase end #1",
            "step end_of_turn",
            "prio P1 opened (before end of turn)",
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "end step end_of_turn",
            "step clean_up",
            "tba clean_up",
            "end step clean_up",
            "end phase end",
            "end turn 3",
        ]
    );
    // The combat phase is not part of a turn nobody attacks in.
    assert!(!log.iter().any(|e| e.contains("combat")), "{log:#?}");
}

#[rstest]
#[case::p1_starts(P1, P2)]
#[case::p2_starts(P2, P1)]
fn rule_to_1_1_and_to_1_2_first_turns_in_a_two_player_game(
    #[case] first: PlayerId,
    #[case] second: PlayerId,
) {
    // #39: the first player's first turn begins in Main; the second player
    // skips Wake Up, Materialize and Recollection but draws.
    let options = GameOptions {
        starting_player: first,
        ..GameOptions::players(2)
    };
    let mut t = Table::new(ga(), options, TestHost::new(ga()));
    t.game.set_turn_limit(3);
    t.pass_until_stopped();
    let log = structure(&t.log());
    let opening = |n: u32, p: PlayerId| {
        vec![
            format!("turn {n} {p}"),
            "skip wake_up [TO 1.1]".to_string(),
            "skip materialize [MAT 1]".to_string(),
            "skip recollection [TO 1.1]".to_string(),
        ]
    };
    let mut want = opening(1, first);
    want.push("skip draw [TO 1.2]".into());
    want.extend(
        [
            "phase main #1",
            "phase end #1",
            "step end_of_turn",
            "step clean_up",
            "end turn 1",
        ]
        .map(String::from),
    );
    want.extend(opening(2, second));
    want.extend(
        [
            "phase draw #1",
            "phase main #1",
            "phase end #1",
            "step end_of_turn",
            "step clean_up",
            "end turn 2",
        ]
        .map(String::from),
    );
    want.extend([
        format!("turn 3 {first}"),
        "phase wake_up #1".into(),
        "phase materialize #1".into(),
        "phase recollection #1".into(),
        "phase draw #1".into(),
        "phase main #1".into(),
        "phase end #1".into(),
        "step end_of_turn".into(),
        "step clean_up".into(),
        "end turn 3".into(),
    ]);
    assert_eq!(log, want);
}

#[rstest]
#[case::three_players(3)]
#[case::four_players(4)]
fn rule_start_turn_one_in_multiplayer_every_player_draws_on_the_first_turn(#[case] players: u8) {
    let mut t = Table::new(ga(), GameOptions::players(players), TestHost::new(ga()));
    t.game.set_turn_limit(players as u32 + 1);
    t.pass_until_stopped();
    let log = structure(&t.log());
    for n in 1..=players {
        let turn = between(&log, &format!("turn {n} P{n}"), &format!("end turn {n}"));
        assert_eq!(
            &turn[..5],
            [
                "skip wake_up [TO 1.1]",
                "skip materialize [MAT 1]",
                "skip recollection [TO 1.1]",
                "phase draw #1",
                "phase main #1",
            ],
            "turn {n}"
        );
    }
    // The next cycle skips nothing.
    let n = players as u32 + 1;
    let turn = between(&log, &format!("turn {n} P1"), &format!("end turn {n}"));
    assert!(!turn.iter().any(|e| e.starts_with("skip")), "{turn:?}");
}

// --- TIME: Opportunity -------------------------------------------------------------

#[test]
fn rule_time_8_turn_player_gets_opportunity_first_in_main() {
    // #12.
    let mut t = at(2, 4, P2, "main", TestHost::new(ga()));
    assert_eq!(t.log(), ["phase main #1", "prio P2 opened (main)"]);
}

#[rstest]
#[case::two_players(2, P2, &["P2", "P1"])]
#[case::three_players(3, P1, &["P1", "P2", "P3"])]
#[case::four_players(4, P3, &["P3", "P4", "P1", "P2"])]
fn rule_time_3_opportunity_passes_in_turn_order(
    #[case] players: u8,
    #[case] active: PlayerId,
    #[case] order: &[&str],
) {
    let mut t = at(players, 9, active, "main", TestHost::new(ga()));
    let mut holders = Vec::new();
    while t.step_id() == "main" {
        holders.push(t.holder().to_string());
        t.pass();
    }
    assert_eq!(holders, order);
    assert_eq!(t.step_id(), "end_of_turn", "TIME 11: the phase ends");
}

#[test]
fn rule_time_8_1_the_actor_keeps_opportunity() {
    // #13: the turn player plays an ally (slow) and holds Opportunity; a
    // non-turn player who acts keeps it too.
    let mut t = at2("main");
    t.log();
    t.play(P1, "slow", 1).unwrap();
    assert_eq!(t.log(), ["push P1 slow #1", "prio P1 acted"]);
    t.pass();
    t.play(P2, "fast", 2).unwrap();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "push P2 fast #2",
            "prio P2 acted"
        ]
    );
}

#[test]
fn rule_time_8_the_turn_player_gets_opportunity_after_a_resolution() {
    let mut t = at(3, 9, P1, "main", TestHost::new(ga()));
    t.pass();
    t.pass();
    t.play(P3, "fast", 3).unwrap();
    t.log();
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P3",
            "prio P1 passed",
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "resolve P3 fast #3",
            "prio P1 resolved",
        ]
    );
}

#[test]
fn rule_time_5_a_full_cycle_of_passes_resolves_the_top_layer() {
    // #18.
    let mut t = at2("main");
    t.play(P1, "fast", 1).unwrap();
    t.play(P1, "fast", 2).unwrap();
    t.log();
    t.pass();
    assert_eq!(t.game.stack().len(), 2, "one pass resolves nothing");
    t.pass();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "resolve P1 fast #2",
            "prio P1 resolved"
        ]
    );
    assert_eq!(t.game.stack().len(), 1);
}

#[test]
fn rule_time_6_an_action_restarts_the_cycle_of_passes() {
    let mut t = at2("main");
    t.play(P1, "fast", 1).unwrap();
    t.pass(); // P1
    t.play(P2, "fast", 2).unwrap();
    t.pass(); // P2
    assert_eq!(t.game.stack().len(), 2, "P1's earlier pass does not count");
    t.pass(); // P1
    assert_eq!(t.game.stack().len(), 1);
}

#[test]
fn rule_main_3_turn_player_pass_then_all_pass_ends_main_and_the_turn_goes_to_end() {
    let mut t = at2("main");
    t.log();
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "end phase main",
            "phase end #1",
            "step end_of_turn",
            "prio P1 opened (before end of turn)",
        ]
    );
}

#[test]
fn rule_main_2_3_after_a_resolution_main_goes_on_with_the_turn_player() {
    let mut t = at2("main");
    t.pass();
    t.play(P2, "fast", 1).unwrap();
    t.pass_round();
    assert!(t.game.stack().is_empty());
    assert_eq!((t.step_id(), t.holder()), ("main", P1));
    t.pass_round();
    assert_eq!(t.step_id(), "end_of_turn");
}

#[test]
fn rule_time_2_only_the_holder_of_opportunity_may_act() {
    let mut t = at2("main");
    for action in [
        Action::Pass { player: P2 },
        Action::Play {
            player: P2,
            timing: t.timing("fast"),
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
        assert_eq!(ga().rule(err.rule()), Some("TIME 2"));
        assert!(
            err.describe(ga()).contains("Opportunity"),
            "{}",
            err.describe(ga())
        );
    }
}

// --- TIME Slow / Fast ------------------------------------------------------------------

#[test]
fn rule_time_slow_1_1_slow_for_the_turn_player_in_main_with_an_empty_stack() {
    let mut t = at2("main");
    assert_eq!(t.legal(P1), ["pass", "slow", "fast", "attack"]);
    t.play(P1, "slow", 1).unwrap();
    assert_eq!(t.game.stack().len(), 1);
}

#[test]
fn rule_time_slow_1_1_slow_refused_with_items_on_the_stack() {
    // #14.
    let mut t = at2("main");
    t.play(P1, "fast", 1).unwrap();
    let err = t.play(P1, "slow", 2).unwrap_err();
    assert_eq!(timing_failure(err), TimingFailure::StackNotEmpty);
    assert_eq!(t.legal(P1), ["pass", "fast"]);
}

#[rstest]
#[case::empty_stack(false)]
#[case::stack_not_empty(true)]
fn rule_time_slow_1_2_slow_refused_for_a_non_turn_player(#[case] something_on_the_stack: bool) {
    // #15.
    let mut t = at2("main");
    if something_on_the_stack {
        t.play(P1, "fast", 1).unwrap();
    }
    t.pass();
    assert_eq!(t.holder(), P2);
    let err = t.play(P2, "slow", 2).unwrap_err();
    assert_eq!(timing_failure(err), TimingFailure::NotActivePlayer);
    assert_eq!(ga().rule(err.rule()), Some("TIME Slow 1.2"));
    let err = t.play(P2, "attack", 3).unwrap_err();
    assert_eq!(timing_failure(err), TimingFailure::NotActivePlayer);
    assert_eq!(t.legal(P2), ["pass", "fast"]);
}

#[rstest]
#[case::recollection("recollection")]
#[case::end_of_turn("end_of_turn")]
fn rule_time_slow_1_1_slow_refused_outside_main(#[case] step: &str) {
    let mut t = at2(step);
    assert_eq!(t.holder(), P1);
    for class in ["slow", "attack"] {
        let err = t.play(P1, class, 1).unwrap_err();
        assert_eq!(
            timing_failure(err),
            TimingFailure::WrongStep,
            "{class} in {step}"
        );
    }
}

#[rstest]
#[case::recollection("recollection")]
#[case::main("main")]
#[case::end_of_turn("end_of_turn")]
fn rule_time_fast_2_1_fast_for_any_holder_with_or_without_a_stack(#[case] step: &str) {
    let mut t = at2(step);
    t.play(P1, "fast", 1).unwrap();
    t.pass();
    t.play(P2, "fast", 2).unwrap();
    t.play(P2, "fast", 3).unwrap();
    assert_eq!(t.game.stack().len(), 3);
}

// --- ATK: attacks and the combat phase -------------------------------------------------

#[test]
fn rule_atk_1_7_an_attack_starts_a_combat_phase_that_returns_to_main() {
    // #24, #28, #30: no Opportunity during the declaration; the turn player
    // gets it before retaliation and before damage; damage is dealt with
    // nobody holding it; play returns to Main step 2 with the turn player.
    let mut t = at2("main");
    t.log();
    t.play(P1, "attack", 1).unwrap();
    assert_eq!(
        t.log(),
        [
            "special P1 attack #1",
            "phase combat #1",
            "step retaliation",
            "prio P1 opened (before retaliation)",
        ]
    );
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "tba declare_retaliation",
            "end step retaliation",
            "step damage",
            "prio P1 opened (before damage)",
        ]
    );
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "tba deal_combat_damage",
            "end step damage",
            "step end_of_combat",
            "tba remove_combat_roles",
            "tba intent_to_graveyard",
            "end step end_of_combat",
            "end phase combat",
            "prio P1 returned",
        ]
    );
    assert_eq!((t.step_id(), t.holder()), ("main", P1));
    assert_eq!(
        t.game.phase_number(),
        1,
        "MAIN 2.2.1: no new main phase begins"
    );
}

#[test]
fn rule_main_2_2_several_attacks_in_one_main_phase() {
    let mut t = at2("main");
    for n in 1..=3u32 {
        t.play(P1, "attack", n).unwrap();
        assert_eq!(t.step_id(), "retaliation");
        t.pass_until_step("main");
        assert_eq!(t.holder(), P1);
    }
    t.pass_round();
    assert_eq!(t.step_id(), "end_of_turn");
    let log = t.log();
    let phases: Vec<&str> = log
        .iter()
        .filter(|e| e.starts_with("phase "))
        .map(String::as_str)
        .collect();
    assert_eq!(
        phases,
        [
            "phase main #1",
            "phase combat #1",
            "phase combat #2",
            "phase combat #3",
            "phase end #1"
        ]
    );
    assert_eq!(log.iter().filter(|e| *e == "prio P1 returned").count(), 3);
}

#[test]
fn rule_atk_1_2_an_attack_is_a_slow_action_of_the_turn_player_in_main() {
    let mut t = at2("main");
    // Not with something on the stack.
    t.play(P1, "fast", 1).unwrap();
    let err = t.play(P1, "attack", 2).unwrap_err();
    assert_eq!(timing_failure(err), TimingFailure::StackNotEmpty);
    t.pass_round();
    // ATK 1.7.1: not during a combat.
    t.play(P1, "attack", 3).unwrap();
    assert_eq!(t.step_id(), "retaliation");
    let err = t.play(P1, "attack", 4).unwrap_err();
    assert_eq!(timing_failure(err), TimingFailure::WrongStep);
    t.pass_round();
    assert_eq!(t.step_id(), "damage");
    let err = t.play(P1, "attack", 5).unwrap_err();
    assert_eq!(timing_failure(err), TimingFailure::WrongStep);
    // Fast actions are fine in the combat windows (#32).
    t.play(P1, "fast", 6).unwrap();
    t.pass();
    t.play(P2, "fast", 7).unwrap();
}

#[rstest]
#[case::two_players_turn_1(2, 1, P1, false)]
#[case::two_players_turn_2(2, 2, P2, true)]
#[case::two_players_turn_3(2, 3, P1, true)]
#[case::three_players_turn_1(3, 1, P1, false)]
#[case::three_players_turn_2(3, 2, P2, false)]
#[case::three_players_turn_3(3, 3, P3, true)]
#[case::three_players_turn_4(3, 4, P1, true)]
#[case::four_players_turn_3(4, 3, P3, false)]
#[case::four_players_turn_4(4, 4, P4, true)]
#[case::four_players_turn_5(4, 5, P1, true)]
fn rule_atk_1_8_on_a_first_turn_only_the_last_player_of_the_cycle_may_attack(
    #[case] players: u8,
    #[case] turn: u32,
    #[case] active: PlayerId,
    #[case] allowed: bool,
) {
    let mut t = at(players, turn, active, "main", TestHost::new(ga()));
    assert_eq!(t.holder(), active);
    match t.play(active, "attack", 1) {
        Ok(()) => {
            assert!(allowed, "{active} attacked on turn {turn} of {players}");
            assert_eq!(t.step_id(), "retaliation");
        }
        Err(err) => {
            assert!(
                !allowed,
                "{active} could not attack on turn {turn}: {err:?}"
            );
            assert_eq!(timing_failure(err), TimingFailure::Requirement(0));
            assert_eq!(ga().rule(err.rule()), Some("ATK 1.8"));
            // Other slow actions stay legal.
            t.play(active, "slow", 2).unwrap();
        }
    }
}

#[test]
fn rule_ret_1_an_attack_trigger_is_answered_before_retaliation() {
    // #26: the On Attack trigger goes on the stack as the Retaliation step
    // begins; after it resolves the turn player gets the "before
    // retaliation" Opportunity.
    let host = TestHost::new(ga()).trigger_on_step("retaliation", P1, 5);
    let mut t = at(2, 3, P1, "main", host);
    t.log();
    t.play(P1, "attack", 1).unwrap();
    assert_eq!(
        t.log(),
        [
            "special P1 attack #1",
            "phase combat #1",
            "step retaliation",
            "trigger P1 #5",
            "prio P1 opened (attack triggers)",
        ]
    );
    // Once the trigger has resolved the "attack triggers" window closes by
    // itself (TO 2.4) and the "before retaliation" one opens.
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "resolve P1 trigger #5",
            "prio P1 opened (before retaliation)",
        ]
    );
}

#[test]
fn rule_eoc_1_damage_triggers_open_a_window_after_roles_and_intent_are_cleared() {
    let host = TestHost::new(ga()).trigger_on_action("deal_combat_damage", P1, 8);
    let mut t = at(2, 3, P1, "main", host);
    t.play(P1, "attack", 1).unwrap();
    t.pass_round();
    t.log();
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "tba deal_combat_damage",
            "end step damage",
            "step end_of_combat",
            "tba remove_combat_roles",
            "tba intent_to_graveyard",
            "trigger P1 #8",
            "prio P1 opened (damage-step triggers)",
        ]
    );
    t.pass_round();
    t.pass_round();
    assert_eq!((t.step_id(), t.holder()), ("main", P1));
}

// --- MAT, MATZ: materializing ------------------------------------------------------------

#[test]
fn rule_mat_3_a_materialization_goes_on_the_stack_and_players_may_respond() {
    // #5: the turn player materializes; it goes on the Effects Stack, the
    // turn player gets Opportunity first, it resolves after a full cycle, and
    // the game moves on to Recollection with no further window (the
    // state-check window closes once the stack is empty, TO 2.4).
    let host = TestHost::new(ga()).answer("materialize", 1);
    let mut t = at(2, 3, P1, "materialize", host);
    assert_eq!(
        t.log(),
        [
            "phase materialize #1",
            "tba materialize=1",
            "push P1 materialize #0",
            "prio P1 opened (state-based check)",
        ]
    );
    assert_eq!(t.counter("materializations"), 1);
    // MATZ 3.4: the opponent may respond.
    t.pass();
    t.play(P2, "fast", 1).unwrap();
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "push P2 fast #1",
            "prio P2 acted",
            "pass P2",
            "prio P1 passed",
            "pass P1",
            "resolve P2 fast #1",
            "prio P1 resolved",
        ]
    );
    t.pass_round();
    assert_eq!(
        t.log(),
        [
            "pass P1",
            "prio P2 passed",
            "pass P2",
            "resolve P1 materialize #0",
            "end phase materialize",
            "phase recollection #1",
            "prio P1 opened (start of Recollection)",
        ]
    );
}

#[test]
fn rule_matz_2_no_second_materialization_in_the_same_phase() {
    // #6: while the first materialization is pending a second is refused
    // (nothing is materialized over a non-empty stack), the non-turn player
    // may not materialize at all, and once it resolves the phase is over.
    let host = TestHost::new(ga()).answer("materialize", 1);
    let mut t = at(2, 3, P1, "materialize", host);
    assert_eq!(t.counter("materializations"), 1);
    let err = t.play(P1, "materialize", 1).unwrap_err();
    assert_eq!(timing_failure(err), TimingFailure::StackNotEmpty);
    t.pass();
    let err = t.play(P2, "materialize", 2).unwrap_err();
    assert_eq!(timing_failure(err), TimingFailure::NotActivePlayer);
    t.pass();
    assert!(t.game.stack().is_empty());
    assert_eq!(t.step_id(), "recollection");
    // The count starts again with the next Materialize phase (turn 4, P2).
    t.pass_until_step("materialize");
    assert_eq!((t.game.turn(), t.holder()), (4, P2));
    assert_eq!(t.counter("materializations"), 1);
    assert_eq!(t.host.asked_count("materialize"), 2);
}

#[test]
fn rule_mat_3_no_materialization_means_no_opportunity_in_materialize() {
    // #4.
    let mut t = at2("materialize");
    let log = t.log();
    assert_eq!(
        &log[..4],
        [
            "phase materialize #1",
            "tba materialize=0",
            "end phase materialize",
            "phase recollection #1"
        ]
    );
}

#[test]
fn rule_mat_3_materializing_is_only_for_the_materialize_phase() {
    let mut t = at2("main");
    let err = t.play(P1, "materialize", 1).unwrap_err();
    assert_eq!(timing_failure(err), TimingFailure::WrongStep);
}

#[test]
fn rule_mat_2_a_beginning_of_materialize_trigger_opens_the_first_checkpoint() {
    let host = TestHost::new(ga()).trigger_on_step("materialize", P1, 4);
    let mut t = at(2, 3, P1, "materialize", host);
    assert_eq!(
        t.log(),
        [
            "phase materialize #1",
            "trigger P1 #4",
            "prio P1 opened (beginning of materialize)"
        ]
    );
    // The choice to materialize comes after the trigger is dealt with.
    assert_eq!(t.host.asked_count("materialize"), 0);
    t.pass_round();
    t.pass_round();
    assert_eq!(t.host.asked_count("materialize"), 1);
}

// --- WU, REC, DRAW: state-check windows ------------------------------------------------

#[rstest]
#[case::wake_up(
    "wake_up",
    "wake_up",
    "state-based check",
    Some("phase materialize #1")
)]
#[case::recollection(
    "recollection",
    "recollect",
    "state-based check",
    Some("phase draw #1")
)]
#[case::draw("draw", "draw", "state-based check", Some("phase main #1"))]
#[case::clean_up("clean_up", "clean_up", "after clean-up", None)]
fn rule_to_2_a_trigger_from_a_turn_based_action_opens_a_window_in_that_phase(
    #[case] step: &str,
    #[case] action: &str,
    #[case] window: &str,
    #[case] next: Option<&str>,
) {
    // WU 2, REC 4 (#9), DRAW 2, END 4: the trigger is dealt with in the phase
    // that caused it, with the turn player first. A state-check window closes
    // as soon as the stack is empty (TO 2.4); after clean-up the turn player
    // gets Opportunity again and a new clean-up follows (END 4).
    let host = TestHost::new(ga()).trigger_on_action(action, P1, 3);
    let mut t = at(2, 3, P1, step, host);
    if step == "recollection" {
        t.pass_round();
    }
    let log = t.log();
    let tail = &log[log.len() - 3..];
    assert_eq!(
        tail,
        [
            format!("tba {action}"),
            "trigger P1 #3".into(),
            format!("prio P1 opened ({window})")
        ]
    );
    assert_eq!(t.step_id(), step);
    t.pass_round();
    let log = t.log();
    let after = &log[3..];
    match next {
        Some(next) => {
            assert_eq!(after[0], "resolve P1 trigger #3");
            assert_eq!(after[1], format!("end phase {step}"));
            assert_eq!(after[2], next);
        }
        None => assert_eq!(after, ["resolve P1 trigger #3", "prio P1 resolved"]),
    }
}

#[test]
fn rule_rec_2_the_turn_player_gets_opportunity_at_the_start_of_recollection() {
    // #7, #8: before the recollection, with an empty stack.
    let mut t = at2("recollection");
    assert_eq!(
        t.log(),
        [
            "phase recollection #1",
            "prio P1 opened (start of Recollection)"
        ]
    );
    assert_eq!(t.host.asked_count("recollect"), 0);
    t.pass_round();
    assert_eq!(t.host.asked_count("recollect"), 1);
}

// --- END: the end phase and its clean-up loop ---------------------------------------------

#[test]
fn rule_end_4_a_change_in_clean_up_gives_opportunity_and_clean_up_runs_again() {
    let host = TestHost::new(ga()).trigger_on_action("clean_up", P1, 11);
    let mut t = at(2, 3, P1, "clean_up", host);
    assert_eq!(
        t.log(),
        [
            "step clean_up",
            "tba clean_up",
            "trigger P1 #11",
            "prio P1 opened (after clean-up)"
        ]
    );
    t.pass_round();
    assert_eq!(t.log().last().map(String::as_str), Some("prio P1 resolved"));
    t.pass_round();
    // END 5: the second clean-up changes nothing; the turn ends.
    assert_eq!(
        structure(&t.log()),
        [
            "step clean_up again 1",
            "end turn 3",
            "turn 4 P2",
            "phase wake_up #1",
            "phase materialize #1",
            "phase recollection #1"
        ]
    );
    assert_eq!(t.host.asked_count("clean_up"), 2);
}

#[test]
fn rule_end_5_without_a_change_nobody_gets_opportunity_in_clean_up() {
    let mut t = at2("clean_up");
    let log = t.log();
    let clean_up = between(&log, "step clean_up", "end step clean_up");
    assert_eq!(clean_up, ["tba clean_up"]);
    assert_eq!(
        log.iter()
            .filter(|e| e.starts_with("step clean_up"))
            .count(),
        1
    );
}

#[test]
fn rule_end_2_end_phase_triggers_go_on_the_stack_before_the_turn_player_gets_opportunity() {
    // #42, TRIG 10: the turn player's triggers first (they resolve last).
    let host = TestHost::new(ga())
        .trigger_on_step("end_of_turn", P2, 2)
        .trigger_on_step("end_of_turn", P1, 1);
    let mut t = at(2, 3, P1, "end_of_turn", host);
    assert_eq!(
        t.log(),
        [
            "step end_of_turn",
            "trigger P1 #1",
            "trigger P2 #2",
            "prio P1 opened (before end of turn)",
        ]
    );
}

#[rstest]
#[case::no_limit(false, &["clean_up"])]
#[case::imposed_limit(true, &["clean_up", "discard_to_limit"])]
fn rule_hand_2_discard_only_when_an_effect_imposes_a_limit(
    #[case] limit: bool,
    #[case] want: &[&str],
) {
    // #46.
    let options = GameOptions {
        facts: if limit {
            vec![fact(ga(), "hand_size_limit")]
        } else {
            Vec::new()
        },
        start_at: Some(start_at(ga(), 3, P1, "clean_up")),
        ..GameOptions::players(2)
    };
    let mut t = Table::new(ga(), options, TestHost::new(ga()));
    let log = t.log();
    let tbas: Vec<String> = between(&log, "step clean_up", "end step clean_up")
        .iter()
        .filter_map(|e| e.strip_prefix("tba ").map(str::to_string))
        .collect();
    assert_eq!(tbas, want);
}

// --- refusals never change anything ---------------------------------------------------------

#[test]
fn every_refused_action_returns_a_rule_error_and_leaves_the_state_unchanged() {
    let mut t = at2("main");
    t.play(P1, "fast", 1).unwrap();
    let refusals = [
        Action::Pass { player: P2 },
        Action::Pass { player: P3 },
        Action::Play {
            player: P1,
            timing: t.timing("slow"),
            label: 0,
        },
        Action::Play {
            player: P1,
            timing: t.timing("attack"),
            label: 0,
        },
        Action::Play {
            player: P1,
            timing: t.timing("materialize"),
            label: 0,
        },
        Action::Play {
            player: P2,
            timing: t.timing("fast"),
            label: 0,
        },
        Action::Play {
            player: PlayerId(8),
            timing: t.timing("fast"),
            label: 0,
        },
        Action::Trigger {
            controller: P3,
            label: 0,
        },
    ];
    for action in refusals {
        let err = t.refused(action);
        assert!(!err.describe(ga()).is_empty());
    }
    t.game.set_turn_limit(3);
    t.pass_until_stopped();
    assert_eq!(t.game.status(), Status::TurnLimit);
    let err = t.refused(Action::Pass { player: P1 });
    assert_eq!(err, RuleError::NotRunning(Status::TurnLimit));
}

#[test]
fn setup_allows_two_to_four_players() {
    for players in [0, 1, 5, 8] {
        assert!(turnspec_engine::Game::new(ga(), &GameOptions::players(players)).is_err());
    }
    for players in 2..=4 {
        assert!(turnspec_engine::Game::new(ga(), &GameOptions::players(players)).is_ok());
    }
}

mod support;

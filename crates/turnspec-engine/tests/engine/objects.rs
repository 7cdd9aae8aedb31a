//! Objects in play (src/objects.rs, src/state/in_play.rs): the host
//! reports them; plays made by an object read when it entered and since
//! when its controller controls it (302.6), its facts, and its use counts.
//! Every case runs on both tiers, which must give the same events.

use std::sync::LazyLock;

use turnspec_engine::policy::{AllPass, play_out};
use turnspec_engine::{
    Action, Event, Game, GameOptions, NoHost, PlayerId, RuleError, TimingFailure,
};
use turnspec_spec::Spec;

use support::*;

use crate::support;

const P1: PlayerId = PlayerId(0);
const P2: PlayerId = PlayerId(1);

const OBJECTS: &str = r#"
[game]
name = "Objects"
players = { min = 2, max = 4 }

[objects]
control_rule = "R-CONTROL"

[objects.facts.quick]
rule = "R-QUICK"

[objects.facts.marked]
reset = "turn"

[timing.use]
who = "any"
by = "object"
effect = "special"

  [[timing.use.require]]
  if = "object.quick or object.since_turn_start"
  rule = "R-SICK"

[timing.once]
who = "any"
by = "object"
effect = "special"
limit = { per = "object", max = 1, reset = "turn", rule = "R-ONCE" }

[timing.fresh]
who = "any"
by = "object"
effect = "special"

  [[timing.fresh.require]]
  if = "object.entered_this_turn and not object.marked"
  rule = "R-FRESH"

[[phase]]
id = "main"
priority = "always"
"#;

static SPEC: LazyLock<Spec> = LazyLock::new(|| load("objects.toml", OBJECTS));

fn game(program: bool) -> Game {
    let options = GameOptions::players(2).with_turn_program(program);
    let mut g = Game::new(&SPEC, &options).unwrap();
    g.start(&mut NoHost, &mut ());
    g
}

fn play(g: &mut Game, player: PlayerId, class: &str, object: u32) -> Result<(), RuleError> {
    let timing = timing(&SPEC, class);
    g.apply(
        Action::Play {
            player,
            timing,
            label: object,
        },
        &mut NoHost,
        &mut Vec::<Event>::new(),
    )
}

/// Passes until `player` holds priority in a new turn.
fn next_turn_of(g: &mut Game, player: PlayerId) {
    let turn = g.turn();
    while g.turn() == turn || g.active_player() != player {
        let holder = g.holder().unwrap();
        g.apply(Action::Pass { player: holder }, &mut NoHost, &mut ())
            .unwrap();
    }
}

fn rule_of(e: RuleError) -> Option<String> {
    SPEC.rule(e.rule()).map(str::to_string)
}

/// Runs `script` on each tier and checks both give the same events.
fn both_tiers(script: impl Fn(&mut Game, &mut Vec<Event>)) {
    let mut seen = Vec::new();
    for program in [true, false] {
        let mut g = game(program);
        let mut events = Vec::new();
        script(&mut g, &mut events);
        seen.push((events, g.state().clone()));
    }
    assert_eq!(seen[0], seen[1], "the two tiers differ");
}

#[test]
fn a_play_waits_for_its_controllers_next_turn() {
    both_tiers(|g, events| {
        g.report_entered(7, P1, events).unwrap();
        let e = play(g, P1, "use", 7).unwrap_err();
        assert_eq!(rule_of(e).as_deref(), Some("R-SICK"));
        next_turn_of(g, P2);
        assert!(play(g, P1, "use", 7).is_err(), "not in the opponent's turn");
        next_turn_of(g, P1);
        play(g, P1, "use", 7).unwrap();
    });
}

#[test]
fn a_fact_lifts_the_wait_and_a_turn_fact_clears_with_the_turn() {
    both_tiers(|g, events| {
        g.report_entered(1, P1, events).unwrap();
        let quick = SPEC.object_fact_by_id("quick").unwrap();
        let marked = SPEC.object_fact_by_id("marked").unwrap();
        g.set_object_fact(1, quick, true, events).unwrap();
        play(g, P1, "use", 1).unwrap();
        play(g, P1, "fresh", 1).unwrap();
        g.set_object_fact(1, marked, true, events).unwrap();
        assert!(g.object_fact(1, marked));
        assert!(play(g, P1, "fresh", 1).is_err());
        next_turn_of(g, P2);
        assert!(!g.object_fact(1, marked), "a turn fact reads as cleared");
        assert!(g.object_fact(1, quick));
    });
}

#[test]
fn control_changes_start_the_wait_again_and_only_the_controller_plays() {
    both_tiers(|g, events| {
        g.report_entered(3, P1, events).unwrap();
        next_turn_of(g, P2);
        next_turn_of(g, P1);
        play(g, P1, "use", 3).unwrap();
        g.report_control(3, P2, events).unwrap();
        let e = play(g, P1, "use", 3).unwrap_err();
        assert!(matches!(
            e,
            RuleError::Timing {
                failure: TimingFailure::NotController { controller: P2 },
                ..
            }
        ));
        assert_eq!(rule_of(e).as_deref(), Some("R-CONTROL"));
        next_turn_of(g, P2);
        play(g, P2, "use", 3).unwrap();
    });
}

#[test]
fn a_per_object_limit_counts_each_object_and_each_turn() {
    both_tiers(|g, events| {
        g.report_entered(1, P1, events).unwrap();
        g.report_entered(2, P1, events).unwrap();
        play(g, P1, "once", 1).unwrap();
        play(g, P1, "once", 2).unwrap();
        let e = play(g, P1, "once", 1).unwrap_err();
        assert_eq!(rule_of(e).as_deref(), Some("R-ONCE"));
        next_turn_of(g, P2);
        play(g, P2, "once", 1).unwrap_err();
        next_turn_of(g, P1);
        play(g, P1, "once", 1).unwrap();
    });
}

#[test]
fn legal_actions_list_one_play_for_each_object_that_may_make_it() {
    let mut g = game(true);
    g.report_entered(5, P1, &mut ()).unwrap();
    g.report_entered(9, P2, &mut ()).unwrap();
    let once = timing(&SPEC, "once");
    let plays: Vec<_> = g
        .legal_actions(P1)
        .filter_map(|a| match a {
            Action::Play { timing, label, .. } if timing == once => Some(label),
            _ => None,
        })
        .collect();
    assert_eq!(plays, vec![5]);
}

#[test]
fn reports_that_do_not_fit_are_refused_and_change_nothing() {
    let mut g = game(true);
    g.report_entered(1, P1, &mut ()).unwrap();
    let before = g.state().clone();
    assert_eq!(
        g.report_entered(1, P2, &mut ()),
        Err(RuleError::ObjectInPlay { object: 1 })
    );
    assert_eq!(
        g.report_left(2, &mut ()),
        Err(RuleError::NoSuchObject { object: 2 })
    );
    assert_eq!(
        play(&mut g, P1, "use", 2),
        Err(RuleError::NoSuchObject { object: 2 })
    );
    assert_eq!(g.state(), &before);
    // A spec without [objects] refuses them.
    let plain = load(
        "plain.toml",
        "[game]\nname = \"p\"\nplayers = { min = 2, max = 2 }\n[[phase]]\nid = \"main\"\npriority = \"always\"\n",
    );
    let mut other = Game::new(&plain, &GameOptions::players(2)).unwrap();
    assert_eq!(
        other.report_entered(1, P1, &mut ()),
        Err(RuleError::NoObjects)
    );
}

#[test]
fn a_game_without_objects_reported_keeps_no_store() {
    let mut g = game(true);
    g.set_turn_limit(20);
    play_out(&mut g, &mut AllPass, &mut ());
    assert_eq!(g.objects().count(), 0);
    assert!(g.object(1).is_none());
}

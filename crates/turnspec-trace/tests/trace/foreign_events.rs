//! Issue 10, family 10: rendering an event from a game on another spec
//! (ids this spec does not have) describes it as foreign, never panics.

use turnspec_engine::policy::{AllPass, play_out};
use turnspec_engine::{Game, GameOptions};
use turnspec_spec::{Spec, load_str};

fn spec(phases: usize) -> Spec {
    let mut text = String::from("[game]\nname = \"t\"\nplayers = { min = 2, max = 2 }\n");
    for i in 0..phases {
        text += &format!(
            "[[phase]]\nid = \"p{i}\"\ncounts_as = \"p\"\n[[phase.step]]\nid = \"s{i}\"\npriority = \"always\"\nactions = [{{ id = \"a{i}\" }}]\n"
        );
    }
    load_str("t.toml", &text).map(|(s, _)| s).expect("loads")
}

#[test]
fn events_of_another_spec_are_described_as_foreign() {
    let big = spec(6);
    let small = spec(1);
    let mut game = Game::new(&big, &GameOptions::players(2)).expect("set-up");
    game.set_turn_limit(1);
    let mut events = Vec::new();
    play_out(&mut game, &mut AllPass, &mut events);
    let foreign: Vec<_> = events
        .iter()
        .filter(|e| !turnspec_trace::fits(&small, e))
        .collect();
    assert!(!foreign.is_empty());
    for e in &events {
        let d = turnspec_trace::describe(&small, &(), e);
        assert_eq!(d.kind == "foreign_event", !turnspec_trace::fits(&small, e));
        let _ = turnspec_trace::compact(&small, &(), e);
    }
    let _ = turnspec_trace::to_json_lines(&small, &(), &events);
}

//! Stop markers and `pass_to_stop` in the workbench (docs/stops.md, "In
//! the workbench"): where the auto-passer stops and why, markers switched
//! off, bad markers refused, the same answer every time, and saving.

use std::collections::BTreeMap;

use serde_json::Value;
use turnspec_serve::{Move, OpenRequest, PlayRequest, SaveRequest, StopMarker, Workbench};

use super::api::{request, scratch, workbench};

fn marker(at: &str, turn: &str) -> StopMarker {
    StopMarker {
        at: at.into(),
        turn: turn.into(),
        when: "always".into(),
    }
}

/// MTG, 2 players: P1 stops in their own precombat main phase; P2 at
/// the given steps in P1's turns.
fn with_stops(p2: &[&str], moves: Vec<Move>) -> PlayRequest {
    let mut r = request(0, None, moves);
    let mut stops = BTreeMap::new();
    stops.insert("P1".to_string(), vec![marker("precombat_main", "own")]);
    stops.insert(
        "P2".to_string(),
        p2.iter().map(|s| marker(s, "others")).collect(),
    );
    r.setup.stops = stops;
    r
}

fn to_stop(command: &str) -> Move {
    Move::PassToStop {
        by: None,
        command: command.into(),
        at: None,
    }
}

fn state(w: &Workbench, r: &PlayRequest) -> Value {
    let v = w.play(r).unwrap();
    assert_eq!(
        v["sides"][0]["refused"],
        serde_json::json!([]),
        "no move refused"
    );
    v["sides"][0]["state"].clone()
}

#[test]
fn pass_to_stop_stops_at_the_markers_and_says_why() {
    let w = workbench(scratch("stops-where"));
    let p2 = ["beginning_of_combat", "end"];
    let s = state(&w, &with_stops(&p2, vec![to_stop("next_stop")]));
    assert_eq!(s["step"], "precombat_main");
    assert_eq!(s["holder"], "P1");
    assert_eq!(s["stopped"], "stop P1 precombat_main always");
    assert_eq!(s["stops"]["P1"]["at"][0]["at"], "precombat_main");
    assert_eq!(s["stops"]["P2"]["at"][1]["at"], "end");

    let s = state(
        &w,
        &with_stops(&p2, vec![to_stop("next_stop"), to_stop("next_stop")]),
    );
    assert_eq!(s["step"], "beginning_of_combat");
    assert_eq!(s["holder"], "P2");
    assert_eq!(s["stopped"], "stop P2 beginning_of_combat always");

    // Another move clears the reason: it belongs to the last move.
    let s = state(
        &w,
        &with_stops(
            &p2,
            vec![to_stop("next_stop"), Move::Pass { by: "P1".into() }],
        ),
    );
    assert_eq!(s["stopped"], Value::Null);

    // Without markers, nobody has a profile: the next holder is asked.
    let s = state(&w, &request(0, None, vec![to_stop("next_stop")]));
    assert_eq!(s["stopped"], "no_profile P2");
    assert_eq!(s["step"], "upkeep");
    assert_eq!(s["stops"], serde_json::json!({}));
}

#[test]
fn a_marker_switched_off_moves_the_stop() {
    let w = workbench(scratch("stops-off"));
    let moves = || vec![to_stop("next_stop"), to_stop("next_stop")];
    let s = state(&w, &with_stops(&["beginning_of_combat", "end"], moves()));
    assert_eq!(s["stopped"], "stop P2 beginning_of_combat always");
    // The same moves with P2's beginning-of-combat marker off.
    let s = state(&w, &with_stops(&["end"], moves()));
    assert_eq!(s["step"], "end");
    assert_eq!(s["holder"], "P2");
    assert_eq!(s["stopped"], "stop P2 end always");
    assert_eq!(s["turn"], 1);
}

#[test]
fn pass_to_end_of_turn_reaches_the_next_turn() {
    let w = workbench(scratch("stops-eot"));
    let moves = vec![
        to_stop("end_of_turn"),
        // P2 was asked at the end step; P1's command still runs.
        to_stop("next_stop"),
    ];
    let s = state(&w, &with_stops(&["end"], moves[..1].to_vec()));
    assert_eq!(s["stopped"], "stop P2 end always");
    let s = state(&w, &with_stops(&["end"], moves));
    assert_eq!(s["stopped"], "turn_ended P1");
    assert_eq!(s["turn"], 2);
    assert_eq!(s["active"], "P2");
    assert_eq!(s["holder"], "P1");
}

#[test]
fn bad_markers_and_commands_are_refused() {
    let w = workbench(scratch("stops-bad"));
    let e = w
        .play(&with_stops(&["upkeeep"], vec![to_stop("next_stop")]))
        .unwrap_err();
    assert_eq!(e.status, 400);
    assert!(e.message.contains("`upkeeep`"), "{}", e.message);
    assert!(e.message.contains("P2"), "{}", e.message);
    // Opening a game refuses it the same way.
    let e = w
        .open(
            &OpenRequest {
                setup: with_stops(&["upkeeep"], vec![]).setup,
                moves: vec![],
            },
            0,
        )
        .unwrap_err();
    assert_eq!(e.status, 400);
    assert!(e.message.contains("`upkeeep`"), "{}", e.message);

    let mut r = with_stops(&[], vec![]);
    r.setup
        .stops
        .insert("P3".into(), vec![marker("upkeep", "own")]);
    assert_eq!(w.play(&r).unwrap_err().status, 400);

    let mut r = with_stops(&[], vec![]);
    r.setup
        .stops
        .insert("P2".into(), vec![marker("upkeep", "mine")]);
    assert!(w.play(&r).unwrap_err().message.contains("`mine`"));

    // A command the auto-passer does not know is a refused move.
    let v = w
        .play(&with_stops(&["end"], vec![to_stop("forever")]))
        .unwrap();
    let refused = &v["sides"][0]["refused"][0]["refusal"];
    assert_eq!(refused["reason"], "unknown");
    assert!(refused["message"].as_str().unwrap().contains("forever"));
    let step = Move::PassToStop {
        by: None,
        command: "step".into(),
        at: Some("nowhere".into()),
    };
    let v = w.play(&with_stops(&["end"], vec![step])).unwrap();
    assert_eq!(v["sides"][0]["refused"][0]["move"], 0);
}

#[test]
fn pass_to_stop_is_deterministic_and_an_open_game_agrees() {
    let w = workbench(scratch("stops-same"));
    let moves = vec![
        to_stop("next_stop"),
        to_stop("end_of_turn"),
        to_stop("next_stop"),
        Move::PassToStop {
            by: Some("P2".into()),
            command: "step".into(),
            at: Some("precombat_main".into()),
        },
    ];
    let r = with_stops(&["beginning_of_combat", "end"], moves.clone());
    let a = w.play(&r).unwrap();
    let b = w.play(&r).unwrap();
    assert_eq!(a, b);
    let opened = w
        .open(
            &OpenRequest {
                setup: r.setup.clone(),
                moves: vec![],
            },
            0,
        )
        .unwrap();
    let id = opened["session"].as_str().unwrap().to_string();
    let mut last = Value::Null;
    for m in &moves {
        last = w.play_move(&id, m, 0).unwrap();
    }
    assert_eq!(last["sides"][0]["state"], a["sides"][0]["state"]);
    // Back and forth: the auto-passer goes back with the game.
    let back = w.back(&id, 2, 0).unwrap();
    let two = w
        .play(&with_stops(
            &["beginning_of_combat", "end"],
            moves[..2].to_vec(),
        ))
        .unwrap();
    assert_eq!(back["sides"][0]["state"], two["sides"][0]["state"]);
    for m in &moves[2..] {
        last = w.play_move(&id, m, 0).unwrap();
    }
    assert_eq!(last["sides"][0]["state"], a["sides"][0]["state"]);
}

#[test]
fn saving_writes_pass_to_stop_and_the_markers_as_profile_files() {
    let root = scratch("stops-save");
    let w = workbench(root.clone());
    let moves = vec![to_stop("next_stop"), to_stop("end_of_turn")];
    let saved = w
        .save(&SaveRequest {
            session: request(0, None, moves.clone()),
            name: String::new(),
            path: None,
            overwrite: false,
        })
        .unwrap();
    assert_eq!(saved["passes"], true, "{saved}");
    let toml = saved["toml"].as_str().unwrap();
    assert!(toml.contains("pass_to_stop = \"next_stop\""), "{toml}");
    assert!(toml.contains("pass_to_stop = \"end_of_turn\""), "{toml}");
    assert!(!toml.contains("stops ="), "{toml}");

    // With markers: a profile file per player beside the scenario.
    let save = |overwrite| {
        w.save(&SaveRequest {
            session: with_stops(&["beginning_of_combat", "end"], moves.clone()),
            name: String::new(),
            path: Some("s/stops.toml".into()),
            overwrite,
        })
    };
    let saved = save(false).unwrap();
    assert_eq!(saved["passes"], true, "{saved}");
    let toml = saved["toml"].as_str().unwrap();
    assert!(
        toml.contains("stops = { P1 = \"stops.stops-P1.toml\", P2 = \"stops.stops-P2.toml\" }"),
        "{toml}"
    );
    assert_eq!(
        saved["stops_written"],
        serde_json::json!(["s/stops.stops-P1.toml", "s/stops.stops-P2.toml"])
    );
    let p2 = std::fs::read_to_string(root.join("s/stops.stops-P2.toml")).unwrap();
    assert!(
        p2.contains("[profile]") && p2.contains("at = \"end\""),
        "{p2}"
    );
    // `turnspec test` reads it from its file as it stands.
    let mut cache = turnspec_scenario::SpecCache::default();
    let scenario = turnspec_scenario::load_file(&root.join("s/stops.toml"), &mut cache)
        .unwrap_or_else(|r| panic!("{}", r.to_short_text()));
    assert!(matches!(
        turnspec_scenario::run(&scenario),
        turnspec_scenario::Outcome::Passed { .. }
    ));
    // Saved again: refused without overwrite, replaced with it.
    assert!(save(false).unwrap_err().message.contains("exists"));
    assert_eq!(save(true).unwrap()["passes"], true);
}

#[test]
fn passing_is_bounded_and_too_many_markers_are_refused() {
    let w = workbench(scratch("stops-bounds"));
    // Both players stop only where the stack is not empty, and nobody
    // plays: the auto-passer would pass for ever. It stops at the pass
    // limit, and the move is refused without changing anything.
    let mut r = request(0, None, vec![to_stop("next_stop")]);
    for p in ["P1", "P2"] {
        r.setup.stops.insert(
            p.into(),
            vec![StopMarker {
                at: "upkeep".into(),
                turn: "any".into(),
                when: "stack_nonempty".into(),
            }],
        );
    }
    let v = w.play(&r).unwrap();
    let side = &v["sides"][0];
    assert_eq!(side["refused"][0]["refusal"]["reason"], "pass_limit");
    assert_eq!(side["state"]["turn"], 1);
    assert_eq!(side["state"]["step"], "upkeep");
    assert_eq!(side["state"]["stopped"], Value::Null);
    // A few such moves in one request, not thousands: the work is bounded.
    r.moves = vec![to_stop("next_stop"); 3];
    let e = w.play(&r).unwrap_err();
    assert_eq!(e.status, 413);
    assert!(e.message.contains("pass limit") || e.message.contains("without anyone"));
    let e = w
        .open(
            &OpenRequest {
                setup: r.setup.clone(),
                moves: r.moves.clone(),
            },
            0,
        )
        .unwrap_err();
    assert_eq!(e.status, 413);

    let mut r = with_stops(&[], vec![]);
    r.setup
        .stops
        .insert("P2".into(), vec![marker("end", "others"); 600]);
    assert_eq!(w.play(&r).unwrap_err().status, 413);
}

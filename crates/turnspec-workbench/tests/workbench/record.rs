//! Recorded runs: recording changes nothing in the game, a recording
//! replays event for event under its own spec, and under another spec the
//! first difference and the first refused action are found.

use std::path::Path;

use turnspec_engine::policy::{RandomPolicy, play_out};
use turnspec_engine::{Event, Game, GameOptions};
use turnspec_spec::Spec;
use turnspec_trace::is_end;
use turnspec_workbench::record::{Recorder, play_recorded, replay};

fn spec(file: &str) -> Spec {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(file);
    turnspec_scenario::load_spec_file(&path)
        .unwrap_or_else(|r| panic!("{}", r.to_short_text()))
        .0
}

fn record(
    spec: &Spec,
    seed: u64,
    turns: u32,
) -> (Vec<Event>, turnspec_workbench::record::Recording) {
    let mut game = Game::new(spec, &GameOptions::players(2)).unwrap();
    game.set_turn_limit(turns);
    let mut events = Vec::new();
    let mut recorder = Recorder::new(spec, RandomPolicy::with_effects(seed));
    play_recorded(&mut game, &mut recorder, &mut events);
    let recording = turnspec_workbench::record::Recording {
        players: 2,
        turns,
        policy: "random".into(),
        seed: Some(seed),
        ..recorder.recording()
    };
    (events, recording)
}

#[test]
fn recording_changes_nothing_and_replays_event_for_event() {
    for file in ["mtg.toml", "grand-archive.toml", "mtg-classic.toml"] {
        let spec = spec(file);
        for seed in 0..6 {
            let mut game = Game::new(&spec, &GameOptions::players(2)).unwrap();
            game.set_turn_limit(8);
            let mut plain = Vec::new();
            play_out(&mut game, &mut RandomPolicy::with_effects(seed), &mut plain);
            let (recorded, rec) = record(&spec, seed, 8);
            assert_eq!(
                plain, recorded,
                "{file} seed {seed}: recording changed the game"
            );
            let report = replay(&spec, &spec, &rec).unwrap();
            assert!(report.same(), "{file} seed {seed}: {:?}", report.divergence);
            assert!(report.unfaithful.is_none(), "{file} seed {seed}");
            let shown = recorded.iter().filter(|e| !is_end(e)).count();
            assert_eq!(report.events, (shown, shown), "{file} seed {seed}");
        }
    }
}

#[test]
fn another_spec_parts_at_the_first_differing_event() {
    let (mtg, classic) = (spec("mtg.toml"), spec("mtg-classic.toml"));
    let (_, rec) = record(&mtg, 1, 6);
    let report = replay(&mtg, &classic, &rec).unwrap();
    assert!(!report.same());
    let d = report.divergence.unwrap();
    let (left, right) = (d.left.unwrap(), d.right.unwrap());
    assert_ne!(left.0, right.0);
    assert!(
        left.1.is_some() && right.1.is_some(),
        "both sides cite a rule"
    );
    // A recording survives JSON.
    let text = serde_json::to_string(&rec).unwrap();
    let back: turnspec_workbench::record::Recording = serde_json::from_str(&text).unwrap();
    assert_eq!(back, rec);
    // Grand Archive refuses Magic's moves, naming its rule.
    let ga = spec("grand-archive.toml");
    let report = replay(&mtg, &ga, &rec).unwrap();
    let (_, _, refusal) = report.refused.unwrap();
    assert!(
        refusal.rule.is_some() || refusal.reason == "unknown",
        "{refusal:?}"
    );
}

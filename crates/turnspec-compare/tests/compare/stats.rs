//! `compare`'s statistics mode.

use crate::common;

use common::{editions, spec};
use std::sync::Arc;
use turnspec_compare::stats::{self, StatsOptions, StatsPolicy};
use turnspec_compare::{SpecColumn, simulate};

fn options(policy: StatsPolicy) -> StatsOptions {
    StatsOptions {
        policy,
        turns: 6,
        players: 2,
        seed: 3,
        games: 2,
    }
}

#[test]
fn all_pass_turns_look_alike_across_magic_editions() {
    let cols = editions();
    let out = simulate(&cols, &options(StatsPolicy::AllPass));
    assert_eq!(out.len(), 4);
    for s in &out {
        assert_eq!(s.games, 2);
        assert_eq!(s.counts.turns, 12, "{}", s.label);
        assert_eq!(s.stalled, 0);
    }
    // Nobody attacks, so no edition's combat differences show up.
    assert!(out.windows(2).all(|w| w[0].counts == w[1].counts));
    let text = stats::to_text(&out, &options(StatsPolicy::AllPass));
    assert!(text.contains("mtg-classic"));
}

#[test]
fn random_play_shows_the_extra_turn_based_actions_and_the_damage_object() {
    let mut cols = editions();
    cols.push(SpecColumn {
        label: "grand-archive".into(),
        spec: Arc::new(spec("grand-archive.toml")),
    });
    let out = simulate(&cols, &options(StatsPolicy::Random));
    let by = |label: &str| out.iter().find(|s| s.label == label).unwrap();
    // 2011 and 2024 announce damage assignment orders in declare blockers.
    assert!(by("mtg-2024").counts.turn_actions > by("mtg").counts.turn_actions);
    // Grand Archive's turn has fewer steps than Magic's (its step-less
    // phases count as one step each).
    let steps = |label: &str| by(label).per_turn(by(label).counts.steps);
    assert!(steps("grand-archive") < steps("mtg"));
    assert!(steps("grand-archive") > 4.0);
    let json = stats::to_json(&out, &options(StatsPolicy::Random));
    assert_eq!(json["specs"].as_array().unwrap().len(), 5);
    assert_eq!(json["policy"], "random");
}

#[test]
fn a_spec_that_cannot_seat_the_players_reports_an_error() {
    let cols = vec![SpecColumn {
        label: "grand-archive".into(),
        spec: Arc::new(spec("grand-archive.toml")),
    }];
    let mut o = options(StatsPolicy::AllPass);
    o.players = 6;
    let out = simulate(&cols, &o);
    assert!(out[0].error.is_some());
    assert!(stats::to_text(&out, &o).contains("cannot play"));
}

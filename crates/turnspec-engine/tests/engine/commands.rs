//! Host commands are methods of `Game` (`report_trigger`, `set_fact`,
//! ...), not `Action`s: each refuses with a typed error and then changes
//! nothing.

use turnspec_engine::{Event, Game, GameOptions, NoHost, PlayerId, RuleError, Scope, Status};
use turnspec_spec::{Spec, load_str};

fn spec() -> Spec {
    let text = r#"
[game]
name = "tiny"
players = { min = 2, max = 4 }

[facts.night]
description = "It is night."

[effects.extra_turn]
kind = "extra_turn"
rule = "500.7"

[[phase]]
id = "main"
priority = "always"
"#;
    match load_str("tiny.toml", text) {
        Ok((spec, _)) => spec,
        Err(r) => panic!("{}", r.to_short_text()),
    }
}

/// Gives `command` to a started 3-player game and checks its result: a
/// refusal changes nothing and emits nothing. Returns the game and the
/// events the command emitted.
fn give(
    spec: &Spec,
    command: impl FnOnce(&mut Game, &mut Vec<Event>) -> Result<(), RuleError>,
    expected: Result<(), RuleError>,
) -> (Game, Vec<Event>) {
    let mut game = Game::new(spec, &GameOptions::players(3)).unwrap();
    game.start(&mut NoHost, &mut Vec::new());
    let before = game.state().clone();
    let mut events = Vec::new();
    assert_eq!(command(&mut game, &mut events), expected);
    if expected.is_err() {
        assert!(
            game.state() == &before,
            "a refused command changed the game"
        );
        assert!(events.is_empty(), "a refused command emitted {events:?}");
    }
    assert_eq!(game.status(), Status::Running);
    (game, events)
}

#[test]
fn each_host_command_is_a_method_with_typed_refusals() {
    let spec = spec();
    let night = spec.facts().ids().next().unwrap();
    let extra = spec.effects().ids().next().unwrap();
    let (p1, p2, p9) = (PlayerId(0), PlayerId(1), PlayerId(8));
    let no_p9 = Err(RuleError::NoSuchPlayer { player: p9 });
    // A trigger reported while P1 holds priority goes on the stack at once.
    let (game, _) = give(&spec, |g, s| g.report_trigger(p2, 7, s), Ok(()));
    assert_eq!(game.stack().last().map(|o| o.label), Some(7));
    assert_eq!(game.holder(), Some(p1));
    give(&spec, |g, s| g.report_trigger(p9, 7, s), no_p9);
    let (game, events) = give(&spec, |g, s| g.set_fact(night, true, s), Ok(()));
    assert!(game.fact(night));
    assert_eq!(
        events,
        [Event::FactChanged {
            fact: night,
            value: true
        }]
    );
    give(
        &spec,
        |g, s| g.apply_declared_effect(extra, p2, &mut NoHost, s),
        Ok(()),
    );
    give(
        &spec,
        |g, s| g.apply_declared_effect(extra, p9, &mut NoHost, s),
        no_p9,
    );
    give(&spec, |g, _| g.start_duration(3, Scope::Turn), Ok(()));
    give(&spec, |g, _| g.add_mana_to_pool(p2, 2), Ok(()));
    give(&spec, |g, _| g.add_mana_to_pool(p9, 2), no_p9);
    let (game, _) = give(&spec, |g, s| g.remove_player(p2, &mut NoHost, s), Ok(()));
    assert!(!game.state().is_in(p2));
}

//! Host commands have their own methods (`report_trigger`, `set_fact`,
//! ...): each does exactly what the matching `Action` does through
//! `Game::apply`, refusals included.

use turnspec_engine::{
    Action, Event, Game, GameOptions, NoHost, PlayerId, RuleError, Scope, Status,
};
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

/// Plays `command` on one game and `action` through `apply` on another,
/// and checks both give the same result, events and state.
fn same(
    spec: &Spec,
    command: impl FnOnce(&mut Game, &mut Vec<Event>) -> Result<(), RuleError>,
    action: Action,
) {
    let mut a = Game::new(spec, &GameOptions::players(3)).unwrap();
    let mut b = a.clone();
    let (mut ea, mut eb) = (Vec::new(), Vec::new());
    a.start(&mut NoHost, &mut ea);
    b.start(&mut NoHost, &mut eb);
    let ra = command(&mut a, &mut ea);
    let rb = b.apply(action, &mut NoHost, &mut eb);
    assert_eq!(ra, rb, "{action:?}");
    assert_eq!(ea, eb, "{action:?}");
    assert!(a.state() == b.state(), "{action:?}");
    assert_eq!(a.status(), Status::Running);
}

#[test]
fn each_host_command_does_what_its_action_does() {
    let spec = spec();
    let night = spec.facts().ids().next().unwrap();
    let extra = spec.effects().ids().next().unwrap();
    let (p2, p9) = (PlayerId(1), PlayerId(8));
    same(
        &spec,
        |g, s| g.report_trigger(p2, 7, s),
        Action::Trigger {
            controller: p2,
            label: 7,
        },
    );
    same(
        &spec,
        |g, s| g.report_trigger(p9, 7, s),
        Action::Trigger {
            controller: p9,
            label: 7,
        },
    );
    same(
        &spec,
        |g, s| g.set_fact(night, true, s),
        Action::SetFact {
            fact: night,
            value: true,
        },
    );
    same(
        &spec,
        |g, s| g.apply_declared_effect(extra, p2, &mut NoHost, s),
        Action::Effect {
            effect: extra,
            player: p2,
        },
    );
    same(
        &spec,
        |g, _| g.start_duration(3, Scope::Turn),
        Action::Until {
            label: 3,
            scope: Scope::Turn,
        },
    );
    same(
        &spec,
        |g, _| g.add_mana_to_pool(p2, 2),
        Action::AddMana {
            player: p2,
            amount: 2,
        },
    );
    same(
        &spec,
        |g, _| g.add_mana_to_pool(p9, 2),
        Action::AddMana {
            player: p9,
            amount: 2,
        },
    );
    same(
        &spec,
        |g, s| g.remove_player(p2, &mut NoHost, s),
        Action::Leave { player: p2 },
    );
}

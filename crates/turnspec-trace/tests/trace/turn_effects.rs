//! Issue 16: the events of the turn-changing effects are named and cited in
//! the text trace and its compact lines like the other events (the text
//! trace does not hide `effect_stopped` as an "end of ..." event).

use turnspec_engine::{Event, ObjectKind, PlayerId, StackObject};
use turnspec_trace::{TextOptions, compact, to_text};

fn mtg() -> turnspec_spec::Spec {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/mtg.toml");
    let text = std::fs::read_to_string(path).expect("games/mtg.toml");
    turnspec_spec::load_str("mtg.toml", &text)
        .map(|(s, _)| s)
        .expect("loads")
}

#[test]
fn turn_effect_events_are_named_and_cited() {
    let spec = mtg();
    let id = |name: &str| {
        spec.effects()
            .ids()
            .find(|e| spec.effect(*e).unwrap().id == name)
            .expect("declared")
    };
    let (p1, p2) = (PlayerId(0), PlayerId(1));
    let events = [
        Event::TurnControlled { player: p2, by: p1 },
        Event::DecidedBy { player: p2, by: p1 },
        Event::Ceased {
            object: StackObject {
                controller: p2,
                kind: ObjectKind::Trigger,
                label: 7,
            },
        },
        Event::EffectStopped {
            effect: id("skip_upkeeps"),
            player: p1,
        },
    ];
    let text = to_text(&spec, &(), &events, TextOptions::default());
    for line in [
        "P1 controls P2 this turn; P2 stays the active player  [722.1]",
        "P1 decides for P2  [722.1]",
        "ceases to exist before reaching the stack: ",
        "effect for P1 ends: ",
        "[614.10]",
    ] {
        assert!(text.contains(line), "{line:?} not in:\n{text}");
    }
    let lines: Vec<String> = events.iter().map(|e| compact(&spec, &(), e)).collect();
    assert_eq!(
        lines,
        [
            "controlled P2 by P1",
            "decides P1 for P2",
            "ceased #7",
            "effect_stopped skip_upkeeps P1"
        ]
    );
}

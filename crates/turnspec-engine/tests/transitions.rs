//! What the turn transitions (`src/turn.rs`) and the compiled program do,
//! pinned where mutation testing (scripts/mutants.sh, docs/reliability.md)
//! found a change that no other test saw. Each test names the mutant it
//! catches; all use small specs written here.

use std::sync::LazyLock;

use turnspec_engine::{Action, GameOptions, PlayerId, RuleError, TimingFailure};
use turnspec_spec::Spec;

use support::*;

mod support;

const P1: PlayerId = PlayerId(0);

/// A main phase with a once-per-phase play, and an attack that starts an
/// on-demand combat phase from it.
const ON_DEMAND: &str = r#"
[game]
name = "On demand"
players = { min = 2, max = 2 }

[counters.casts]
reset = "phase"

[timing.sorcery]
who = "active_player"
stack = "empty"
during = ["main"]
limit = { counter = "casts", max = 1, rule = "R-ONCE" }

[timing.attack]
who = "active_player"
stack = "empty"
during = ["main"]
effect = "start_phase"
phase = "combat"

[[phase]]
id = "main"
sequence = [{ window = "always", name = "main" }]

[[phase]]
id = "combat"
on_demand = true
sequence = [{ window = "always", name = "combat" }]

[[phase]]
id = "ending"
sequence = [{ window = "always", name = "ending" }]
"#;

static ON_DEMAND_SPEC: LazyLock<Spec> = LazyLock::new(|| load("on_demand.toml", ON_DEMAND));

/// A phase started by a play counts with the phase it interrupted: a
/// once-per-phase play made before an attack is still used up after it
/// (docs/spec-format.md, `on_demand`). Catches `phase_began` resetting the
/// per-phase counters of an on-demand phase (`!GENERAL || ...` with the
/// `!` deleted).
#[test]
fn a_once_per_phase_limit_holds_after_an_on_demand_phase() {
    for program in [true, false] {
        let options = GameOptions::players(2).with_turn_program(program);
        let mut t = Table::new(&ON_DEMAND_SPEC, options, TestHost::new(&ON_DEMAND_SPEC));
        assert_eq!(t.game.turn(), 1);
        assert_eq!(t.holder(), P1);
        t.play(P1, "sorcery", 1).unwrap();
        t.pass_round(); // the sorcery resolves
        assert_eq!(t.counter("casts"), 1);
        t.play(P1, "attack", 2).unwrap();
        t.pass_round(); // the combat phase ends, back to main
        let log = t.log();
        assert!(
            log.contains(&"phase combat #1".to_string()),
            "program {program}: {log:#?}"
        );
        assert_eq!(t.step_id(), "main", "program {program}: {log:#?}");
        assert_eq!(t.counter("casts"), 1, "program {program}: {log:#?}");
        let err = t.refused(Action::Play {
            player: P1,
            timing: t.timing("sorcery"),
            label: 3,
        });
        assert!(
            matches!(failure_of(err), TimingFailure::LimitReached { .. }),
            "program {program}"
        );
    }
}

fn failure_of(err: RuleError) -> TimingFailure {
    match err {
        RuleError::Timing { failure, .. } => failure,
        other => panic!("not a timing refusal: {other:?}"),
    }
}

//! The auto-passer (docs/stops.md) on Magic with the reference profiles,
//! and its bounds on a small spec written here.

use std::sync::LazyLock;

use turnspec_engine::{
    Action, AutoPasser, GameOptions, PassUntil, PlayerId, Status, Stopped, StopsError,
};
use turnspec_spec::{Spec, StopProfile, StopWhen, load_stops};

use super::support::*;

const P1: PlayerId = PlayerId(0);
const P2: PlayerId = PlayerId(1);

static MTG: LazyLock<Spec> =
    LazyLock::new(|| load("mtg.toml", include_str!("../../../../games/mtg.toml")));
static LORCANA: LazyLock<Spec> = LazyLock::new(|| {
    load(
        "lorcana.toml",
        include_str!("../../../../games/lorcana.toml"),
    )
});

const DEFAULT: &str = include_str!("../../../../games/stops/mtg-default.toml");
const FULL_CONTROL: &str = include_str!("../../../../games/stops/mtg-full-control.toml");

fn mtg() -> &'static Spec {
    &MTG
}

fn profile(spec: &Spec, text: &str) -> StopProfile {
    load_stops("profile.toml", text, spec).unwrap_or_else(|r| panic!("{}", r.to_short_text()))
}

/// A two-player Magic game and an auto-passer where both players use
/// `text` (`None`: a profile that never stops).
fn magic(text: Option<&str>) -> (Table, AutoPasser) {
    let table = Table::new(mtg(), GameOptions::players(2), TestHost::new(mtg()));
    let mut passer = AutoPasser::new();
    for p in [P1, P2] {
        let profile = match text {
            Some(text) => profile(mtg(), text),
            None => StopProfile::new(mtg()),
        };
        passer.set_profile(mtg(), p, profile).unwrap();
    }
    (table, passer)
}

fn advance(table: &mut Table, passer: &mut AutoPasser) -> Stopped {
    passer.advance(&mut table.game, &mut table.host, &mut table.events)
}

fn stop_at(table: &Table, stopped: Stopped) -> (PlayerId, &'static str, StopWhen) {
    match stopped {
        Stopped::Stop { player, step, when } => {
            assert_eq!(step, table.game.step());
            assert_eq!(Some(player), table.game.holder());
            (player, table.step_id(), when)
        }
        other => panic!("expected a stop, got {other:?} at {}", table.where_()),
    }
}

#[test]
fn the_default_profile_stops_at_the_own_main_phase() {
    let (mut t, mut passer) = magic(Some(DEFAULT));
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(
        stop_at(&t, stopped),
        (P1, "precombat_main", StopWhen::ALWAYS)
    );
    assert_eq!(t.game.turn(), 1);
    // Asked again, the player is still asked: the host decides for them.
    let again = advance(&mut t, &mut passer);
    assert_eq!(again, stopped);
    // P1 passes; P2 passes through P1's main phase; P1 stops as attackers
    // are declared (508.2).
    t.pass();
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(
        stop_at(&t, stopped),
        (P1, "declare_attackers", StopWhen::ALWAYS)
    );
}

#[test]
fn the_opponent_stops_in_its_declare_attackers_step() {
    let (mut t, mut passer) = magic(Some(DEFAULT));
    for _ in 0..2 {
        advance(&mut t, &mut passer);
        t.pass();
    }
    // P1 passed at their own declare attackers step; P2 stops there.
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(
        stop_at(&t, stopped),
        (P2, "declare_attackers", StopWhen::ALWAYS)
    );
}

#[test]
fn pass_until_end_of_turn_stops_in_the_next_turn() {
    let (mut t, mut passer) = magic(Some(DEFAULT));
    advance(&mut t, &mut passer);
    for p in [P1, P2] {
        passer.command(&t.game, p, PassUntil::EndOfTurn).unwrap();
    }
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(stopped, Stopped::TurnEnded { player: P2 });
    assert_eq!(t.game.turn(), 2);
    assert_eq!(t.game.active_player(), P2);
    assert_eq!(passer.pending(P2), None);
    assert_eq!(passer.pending(P1), Some(PassUntil::EndOfTurn));
    t.pass();
    assert_eq!(
        advance(&mut t, &mut passer),
        Stopped::TurnEnded { player: P1 }
    );
    assert_eq!(t.step_id(), "upkeep");
}

#[test]
fn stack_grew_stops_the_opponent_when_a_spell_is_cast() {
    let (mut t, mut passer) = magic(Some(DEFAULT));
    advance(&mut t, &mut passer);
    t.play(P1, "instant", 7).unwrap();
    // P1 keeps priority after casting (117.3c) and decides to pass on.
    passer.command(&t.game, P1, PassUntil::NextStop).unwrap();
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(
        stop_at(&t, stopped),
        (P2, "precombat_main", StopWhen::STACK_GREW)
    );
    assert_eq!(t.game.stack().len(), 1);
    // Without a spell, P2 passes through P1's main phase.
    let (mut t, mut passer) = magic(Some(DEFAULT));
    advance(&mut t, &mut passer);
    passer.command(&t.game, P1, PassUntil::NextStop).unwrap();
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(
        stop_at(&t, stopped),
        (P1, "declare_attackers", StopWhen::ALWAYS)
    );
}

#[test]
fn the_own_spell_does_not_count_as_the_stack_growing() {
    let anywhere = "[profile]\nname = \"respond\"\n[anywhere]\nwhen = [\"stack_grew\"]\n";
    let (mut t, mut passer) = magic(Some(anywhere));
    passer
        .command(
            &t.game,
            P1,
            PassUntil::Step(t.game.spec().step_by_id("precombat_main").unwrap()),
        )
        .unwrap();
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(
        stopped,
        Stopped::CommandDone {
            player: P1,
            command: PassUntil::Step(t.game.step())
        }
    );
    t.play(P1, "instant", 7).unwrap();
    // P1 was asked and cast: what they saw is refreshed, so P1 passes and
    // P2 is the one who stops.
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(
        stop_at(&t, stopped),
        (P2, "precombat_main", StopWhen::STACK_GREW)
    );
}

#[test]
fn resolve_stops_after_one_resolution_advance_after_the_step() {
    // P1 asks at every window, P2 never stops.
    let mut t = Table::new(mtg(), GameOptions::players(2), TestHost::new(mtg()));
    let mut passer = AutoPasser::new();
    passer
        .set_profile(mtg(), P1, profile(mtg(), FULL_CONTROL))
        .unwrap();
    passer
        .set_profile(mtg(), P2, StopProfile::new(mtg()))
        .unwrap();
    let main = mtg().step_by_id("precombat_main").unwrap();
    passer.command(&t.game, P1, PassUntil::Step(main)).unwrap();
    advance(&mut t, &mut passer);
    assert_eq!(t.step_id(), "precombat_main");

    t.play(P1, "instant", 1).unwrap();
    passer.command(&t.game, P1, PassUntil::Resolve).unwrap();
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(
        stopped,
        Stopped::CommandDone {
            player: P1,
            command: PassUntil::Resolve
        }
    );
    assert_eq!(
        t.step_id(),
        "precombat_main",
        "Resolve stops in the same step"
    );
    assert!(t.game.stack().is_empty());

    t.play(P1, "instant", 2).unwrap();
    passer.command(&t.game, P1, PassUntil::Advance).unwrap();
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(
        stopped,
        Stopped::CommandDone {
            player: P1,
            command: PassUntil::Advance
        }
    );
    assert_eq!(
        t.step_id(),
        "beginning_of_combat",
        "Advance stops at the next step"
    );
    assert!(t.game.stack().is_empty());
}

#[test]
fn stack_changes_stops_when_the_opponent_responds() {
    let mut t = Table::new(mtg(), GameOptions::players(2), TestHost::new(mtg()));
    let mut passer = AutoPasser::new();
    passer
        .set_profile(mtg(), P1, StopProfile::new(mtg()))
        .unwrap();
    // P2 has no profile: asked at every priority.
    passer
        .command(&t.game, P1, PassUntil::StackChanges)
        .unwrap();
    assert_eq!(
        advance(&mut t, &mut passer),
        Stopped::NoProfile { player: P2 }
    );
    t.play(P2, "instant", 3).unwrap();
    passer.command(&t.game, P2, PassUntil::NextStop).unwrap();
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(
        stopped,
        Stopped::CommandDone {
            player: P1,
            command: PassUntil::StackChanges
        }
    );
    assert_eq!(t.game.stack().len(), 1);
}

#[test]
fn can_play_stops_where_a_play_is_legal() {
    let text = "[profile]\nname = \"play\"\n[anywhere]\nwhen = [\"can_play\"]\n";
    let (mut t, mut passer) = magic(Some(text));
    // Instants are legal in the first window of the game (upkeep, 117.1a).
    assert_eq!(
        advance(&mut t, &mut passer),
        Stopped::CanPlay {
            player: P1,
            step: t.game.step()
        }
    );
    assert_eq!(t.step_id(), "upkeep");
}

#[test]
fn lorcana_stops_at_the_own_main_phase() {
    let spec: &'static Spec = &LORCANA;
    let mut t = Table::new(spec, GameOptions::players(2), TestHost::new(spec));
    let mut passer = AutoPasser::new();
    let text = include_str!("../../../../games/stops/lorcana.toml");
    for p in [P1, P2] {
        passer.set_profile(spec, p, profile(spec, text)).unwrap();
    }
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(stop_at(&t, stopped).1, "main");
}

#[test]
fn bounds_and_refusals() {
    // A profile that never stops ends at the pass limit, then at the turn limit.
    let (mut t, mut passer) = magic(None);
    passer.set_pass_limit(5);
    assert_eq!(advance(&mut t, &mut passer), Stopped::PassLimit);
    passer.set_pass_limit(u32::MAX);
    t.game.set_turn_limit(3);
    assert_eq!(
        advance(&mut t, &mut passer),
        Stopped::GameOver(Status::TurnLimit)
    );
    assert_eq!(
        advance(&mut t, &mut passer),
        Stopped::GameOver(Status::TurnLimit)
    );

    // Profiles and commands that do not fit the game are refused.
    let lorcana: &Spec = &LORCANA;
    assert_eq!(
        passer.set_profile(mtg(), P1, StopProfile::new(lorcana)),
        Err(StopsError::OtherSpec)
    );
    assert_eq!(
        passer.set_profile(mtg(), PlayerId(200), StopProfile::new(mtg())),
        Err(StopsError::NotInGame(PlayerId(200)))
    );
    assert_eq!(
        passer.command(&t.game, PlayerId(2), PassUntil::NextStop),
        Err(StopsError::NotInGame(PlayerId(2)))
    );
    passer.cancel(PlayerId(200));
    passer.clear_profile(PlayerId(200));
}

#[test]
fn the_same_game_stops_at_the_same_places() {
    let run = || {
        let (mut t, mut passer) = magic(Some(DEFAULT));
        t.game.set_turn_limit(4);
        let mut stops = Vec::new();
        loop {
            let stopped = advance(&mut t, &mut passer);
            stops.push((stopped, t.game.turn()));
            match stopped {
                Stopped::Stop { player, .. } => t.act(Action::Pass { player }).unwrap(),
                _ => break,
            }
        }
        stops
    };
    let first = run();
    assert!(first.len() > 8, "{first:?}");
    assert_eq!(first, run());
}

/// Two step-less phases, each with one window for everybody.
const SMALL: &str = r#"
[game]
name = "Small"
players = { min = 2, max = 4 }

[timing.quick]
rule = "R-QUICK"
who = "any"

[[phase]]
id = "main"
priority = "always"

[[phase]]
id = "end"
priority = "always"
"#;

static SMALL_SPEC: LazyLock<Spec> = LazyLock::new(|| load("small.toml", SMALL));

#[test]
fn others_turn_stops_and_step_commands_on_a_small_spec() {
    let spec: &'static Spec = &SMALL_SPEC;
    let text = "[profile]\nname = \"watch\"\ngame = \"Small\"\n\n[[stop]]\nat = \"end\"\nturn = \"others\"\n";
    let mut t = Table::new(spec, GameOptions::players(3), TestHost::new(spec));
    let mut passer = AutoPasser::new();
    for p in [P1, P2, PlayerId(2)] {
        passer.set_profile(spec, p, profile(spec, text)).unwrap();
    }
    // P1's own end phase is passed through; P2 and P3 stop in it.
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(stop_at(&t, stopped), (P2, "end", StopWhen::ALWAYS));
    t.pass();
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(stop_at(&t, stopped), (PlayerId(2), "end", StopWhen::ALWAYS));
    assert_eq!(t.game.turn(), 1);

    // A Step command given in that step waits for its next occurrence.
    let end = spec.step_by_id("end").unwrap();
    passer
        .command(&t.game, PlayerId(2), PassUntil::Step(end))
        .unwrap();
    // Turn 2 is P2's: P2 passes through their own end phase, P3's
    // command is done there, then P1 stops in it.
    assert_eq!(
        advance(&mut t, &mut passer),
        Stopped::CommandDone {
            player: PlayerId(2),
            command: PassUntil::Step(end)
        }
    );
    assert_eq!((t.game.turn(), t.step_id()), (2, "end"));
    t.pass();
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(stop_at(&t, stopped), (P1, "end", StopWhen::ALWAYS));
    assert_eq!(t.game.turn(), 2);

    // A step of a bigger spec is not one of this game's.
    let cleanup = mtg().step_by_id("cleanup").unwrap();
    assert_eq!(
        passer.command(&t.game, P1, PassUntil::Step(cleanup)),
        Err(StopsError::UnknownStep)
    );
    // The small spec's profile does not fit Magic.
    assert_eq!(
        AutoPasser::new().set_profile(mtg(), P1, profile(spec, text)),
        Err(StopsError::OtherSpec)
    );
}

/// A fixed pseudo-random sequence (SplitMix64), so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n.max(1)
    }
}

#[test]
fn random_profiles_commands_and_moves_never_panic_and_always_return() {
    use turnspec_spec::StopTurn;
    let spec = mtg();
    let steps: Vec<_> = spec.steps().ids().collect();
    let foreign: Vec<_> = SMALL_SPEC
        .steps()
        .ids()
        .chain(LORCANA.steps().ids())
        .collect();
    let turns = [StopTurn::Own, StopTurn::Others, StopTurn::Any];
    for seed in 0..60 {
        let mut rng = Rng(seed);
        let mut t = Table::new(spec, GameOptions::players(2), TestHost::new(spec));
        t.game.set_turn_limit(6);
        let mut passer = AutoPasser::new();
        passer.set_pass_limit(2_000);
        for p in [P1, P2] {
            if rng.below(4) == 0 {
                continue; // no profile: always asked
            }
            let mut profile = StopProfile::new(spec);
            for _ in 0..rng.below(6) {
                let step = steps[rng.below(steps.len() as u64) as usize];
                let turn = turns[rng.below(3) as usize];
                let when = StopWhen::EACH[rng.below(4) as usize];
                profile.add(step, turn, when);
            }
            if rng.below(2) == 0 {
                profile.add_anywhere(StopWhen::EACH[rng.below(4) as usize]);
            }
            passer.set_profile(spec, p, profile).unwrap();
        }
        for _ in 0..400 {
            let stopped = advance(&mut t, &mut passer);
            let Some(player) = t.game.holder() else {
                break;
            };
            if matches!(stopped, Stopped::GameOver(_) | Stopped::PassLimit) {
                break;
            }
            match rng.below(5) {
                0 => {
                    let step = if rng.below(2) == 0 {
                        steps[rng.below(steps.len() as u64) as usize]
                    } else {
                        foreign[rng.below(foreign.len() as u64) as usize]
                    };
                    let commands = [
                        PassUntil::NextStop,
                        PassUntil::EndOfTurn,
                        PassUntil::StackChanges,
                        PassUntil::Step(step),
                        PassUntil::Resolve,
                        PassUntil::Advance,
                    ];
                    let command = commands[rng.below(6) as usize];
                    let _ = passer.command(&t.game, PlayerId(rng.below(3) as u8), command);
                }
                1 => passer.cancel(PlayerId(rng.below(3) as u8)),
                _ => {
                    let legal: Vec<_> = t.game.legal_actions(player).collect();
                    if let Some(&action) = legal.get(rng.below(legal.len() as u64) as usize) {
                        t.act(action).unwrap();
                    }
                }
            }
        }
    }
}

/// `can_play` counts a choice from Lorcana's bag (7.7.4): `legal_actions`
/// lists each trigger the holder may choose, once per label, and the engine
/// accepts each of them.
#[test]
fn bag_choices_are_legal_actions_and_ask_can_play() {
    let spec: &'static Spec = &LORCANA;
    let mut t = Table::new(spec, GameOptions::players(2), TestHost::new(spec));
    let mut passer = AutoPasser::new();
    let mut p = StopProfile::new(spec);
    p.add_anywhere(StopWhen::CAN_PLAY);
    passer.set_profile(spec, P2, p).unwrap();
    // P1 (no profile) is asked in their main phase.
    assert_eq!(
        advance(&mut t, &mut passer),
        Stopped::NoProfile { player: P1 }
    );
    for label in [7, 8, 8] {
        t.game.report_trigger(P2, label, &mut t.events).unwrap();
    }
    t.game.report_trigger(P1, 9, &mut t.events).unwrap();
    let mine: Vec<Action> = t.game.legal_actions(P1).collect();
    assert!(mine.contains(&Action::Choose {
        player: P1,
        label: 9
    }));
    // P1 passes: their trigger resolves, the bag goes to P2, who could
    // choose between two labels and is asked.
    t.game
        .apply(Action::Pass { player: P1 }, &mut t.host, &mut t.events)
        .unwrap();
    let stopped = advance(&mut t, &mut passer);
    assert!(
        matches!(stopped, Stopped::CanPlay { player: P2, .. }),
        "{stopped:?}"
    );
    let choices: Vec<Action> = t
        .game
        .legal_actions(P2)
        .filter(|a| matches!(a, Action::Choose { .. }))
        .collect();
    assert_eq!(
        choices,
        [
            Action::Choose {
                player: P2,
                label: 7
            },
            Action::Choose {
                player: P2,
                label: 8
            }
        ]
    );
    for choice in choices {
        let mut g = t.game.clone();
        g.apply(choice, &mut t.host, &mut ()).unwrap();
    }
    // P1 holds nothing to choose from P2's triggers.
    assert_eq!(t.game.legal_actions(P1).count(), 0);
}

/// With shared team turns (805.5), a teammate's turn is the player's own:
/// a stop on "own" turns applies in it.
#[test]
fn a_teammates_turn_is_ones_own() {
    let spec = mtg();
    let options = GameOptions::players(4).with_teams(vec![1, 1, 2, 2]);
    let mut t = Table::new(spec, options, TestHost::new(spec));
    let mut passer = AutoPasser::new();
    let own_upkeep = "[profile]\nname = \"t\"\n[[stop]]\nat = \"upkeep\"\nturn = \"own\"\n";
    for p in 0..4 {
        passer
            .set_profile(spec, PlayerId(p), profile(spec, own_upkeep))
            .unwrap();
    }
    // Turn 1 is team 1's: P1 (the team's primary seat) is asked in the upkeep.
    let stopped = advance(&mut t, &mut passer);
    assert_eq!(stop_at(&t, stopped).1, "upkeep");
    assert_eq!(t.game.turn(), 1);
    // Passing on: team 2's P3 is not asked in team 1's upkeep (not their
    // turn); the next stop is team 2's upkeep, in turn 2, for P3.
    passer.command(&t.game, P1, PassUntil::NextStop).unwrap();
    let stopped = advance(&mut t, &mut passer);
    let (who, step, _) = stop_at(&t, stopped);
    assert_eq!((who, step, t.game.turn()), (PlayerId(2), "upkeep", 2));
}

/// A profile is refused by any spec but its own, even one with the same
/// steps in the same order (the spec's fingerprint, not its step count).
#[test]
fn a_profile_fits_only_its_own_spec() {
    let text = include_str!("../../../../games/mtg.toml").replacen(
        "name = \"Magic: The Gathering\"",
        "name = \"Magic, renamed\"",
        1,
    );
    let renamed = load("renamed.toml", &text);
    assert_eq!(renamed.steps().len(), mtg().steps().len());
    let mut passer = AutoPasser::new();
    assert_eq!(
        passer.set_profile(&renamed, P1, StopProfile::new(mtg())),
        Err(StopsError::OtherSpec)
    );
    assert!(
        passer
            .set_profile(mtg(), P1, StopProfile::new(mtg()))
            .is_ok()
    );
}

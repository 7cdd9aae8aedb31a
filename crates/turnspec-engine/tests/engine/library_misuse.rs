//! Issue 10, family 10: a Rust host that misuses the library gets an error
//! or a documented, harmless outcome, never a panic. Ids can only come from
//! a spec, so "out of range" means an id of another spec.

use turnspec_engine::StepBeganHook;
use turnspec_engine::policy::{AllPass, play_out};
use turnspec_engine::{
    Action, Game, GameOptions, Host, NoHost, NotInGame, Place, PlayerId, RuleError, Scope, Status,
};
use turnspec_spec::{Spec, load_str};

fn spec(extra: &str) -> Spec {
    let text = format!(
        "[game]\nname = \"tiny\"\nplayers = {{ min = 2, max = 4 }}\n{extra}\n[[phase]]\nid = \"main\"\npriority = \"always\"\n"
    );
    match load_str("tiny.toml", &text) {
        Ok((spec, _)) => spec,
        Err(r) => panic!("{}", r.to_short_text()),
    }
}

#[test]
fn library_misuse_a_huge_stack_capacity_is_only_a_bounded_reservation() {
    let spec = spec("");
    let options = GameOptions::players(2).with_stack_capacity(usize::MAX);
    let mut game = Game::new(&spec, &options).expect("set-up is fine");
    game.set_turn_limit(2);
    play_out(&mut game, &mut AllPass, &mut ());
    assert_eq!(game.status(), Status::TurnLimit);
}

/// Reports one trigger for each of seats 1 to 9 at the start of every step.
struct Reporter(Vec<Result<(), NotInGame>>);

impl Host for Reporter {
    fn step_began(&mut self, hook: StepBeganHook<'_>) {
        let StepBeganHook { mut triggers, .. } = hook;
        if self.0.is_empty() {
            for seat in 0..9 {
                self.0.push(triggers.add(PlayerId(seat), seat as u32));
            }
        }
    }
}

#[test]
fn library_misuse_triggers_for_players_not_in_the_game_are_refused() {
    let spec = spec("");
    let mut game = Game::new(&spec, &GameOptions::players(3)).expect("set-up");
    let mut host = Reporter(Vec::new());
    let mut events = Vec::new();
    game.start(&mut host, &mut events);
    assert_eq!(&host.0[..3], &[Ok(()), Ok(()), Ok(())]);
    for (seat, result) in host.0.iter().enumerate().skip(3) {
        assert_eq!(*result, Err(NotInGame(PlayerId(seat as u8))));
    }
    let put = events
        .iter()
        .filter(|e| matches!(e, turnspec_engine::Event::TriggerPut { .. }))
        .count();
    assert_eq!(put, 3);
}

#[test]
fn library_misuse_a_counter_of_another_spec_has_no_value() {
    let with = spec("[counters.lands]\n[counters.other]\n");
    let without = spec("");
    let counter = with.counter_by_id("other").expect("declared");
    let game = Game::new(&without, &GameOptions::players(2)).expect("set-up");
    assert_eq!(game.counter_of(counter, PlayerId(0)), None);
    assert_eq!(game.counter(counter), 0);
}

/// A tiny two-phase spec with a fact, an effect, a timing class and a step.
fn rich() -> Spec {
    spec(
        "[facts.day]\n[timing.fast]\n[effects.extra]\nkind = \"extra_turn\"\n\
         [effects.skip_upkeep]\nkind = \"skip\"\nstep = \"upkeep\"\nlasting = true\n\
         [[phase]]\nid = \"beginning\"\n[[phase.step]]\nid = \"upkeep\"\npriority = \"always\"\n",
    )
}

/// A game of `spec` played out to its turn limit.
fn ended(spec: &Spec) -> Game {
    let mut game = Game::new(spec, &GameOptions::players(2)).expect("set-up");
    game.set_turn_limit(1);
    play_out(&mut game, &mut AllPass, &mut ());
    assert_eq!(game.status(), Status::TurnLimit);
    game
}

#[test]
fn library_misuse_host_commands_after_the_end_are_refused_and_change_nothing() {
    let spec = rich();
    let mut game = ended(&spec);
    let before = game.state().clone();
    let (p1, p2) = (PlayerId(0), PlayerId(1));
    let fact = spec.fact_by_id("day").expect("declared");
    let extra = spec.effect_by_id("extra").expect("declared");
    let lasting = spec.effect_by_id("skip_upkeep").expect("declared");
    let upkeep = Place::Step(spec.step_by_id("upkeep").expect("declared"));
    let fast = spec.timing_by_id("fast").expect("declared");
    let stopped = Err(RuleError::NotRunning(Status::TurnLimit));
    let mut events = Vec::new();
    let results = [
        ("report_trigger", game.report_trigger(p1, 1, &mut events)),
        ("set_fact", game.set_fact(fact, true, &mut events)),
        ("delay_trigger", game.delay_trigger(p1, 2, upkeep, true)),
        (
            "delay_trigger_to_next_turn",
            game.delay_trigger_to_next_turn(p1, 3, upkeep),
        ),
        ("start_duration", game.start_duration(4, Scope::Turn)),
        ("add_mana_to_pool", game.add_mana_to_pool(p1, 3)),
        ("report_pending_trigger", game.report_pending_trigger(p2, 5)),
        (
            "apply_declared_effect",
            game.apply_declared_effect(extra, p1, &mut NoHost, &mut events),
        ),
        (
            "apply_declared_effect_on",
            game.apply_declared_effect_on(extra, p1, p2, &mut NoHost, &mut events),
        ),
        (
            "end_lasting_effect",
            game.end_lasting_effect(lasting, p1, &mut events),
        ),
        (
            "remove_player",
            game.remove_player(p2, &mut NoHost, &mut events),
        ),
    ];
    for (name, result) in results {
        assert_eq!(result, stopped, "{name}");
    }
    // Every move, through `apply` too.
    let actions = [
        Action::Pass { player: p1 },
        Action::Play {
            player: p1,
            timing: fast,
            label: 1,
        },
        Action::Leave { player: p2 },
        Action::Choose {
            player: p1,
            label: 1,
        },
    ];
    for action in actions {
        assert_eq!(
            game.apply(action, &mut NoHost, &mut events),
            stopped,
            "{action:?}"
        );
    }
    assert_eq!(game.state(), &before);
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn library_misuse_a_counter_of_a_seat_past_the_player_count_has_no_value() {
    let spec = spec("[counters.lands]\nper = \"player\"\n[counters.shared]\n");
    let mut options = GameOptions::players(2);
    let lands = spec.counter_by_id("lands").expect("declared");
    let shared = spec.counter_by_id("shared").expect("declared");
    options = options.with_counters(vec![(lands, 3), (shared, 2)]);
    let game = Game::new(&spec, &options).expect("set-up");
    assert_eq!(game.counter_of(lands, PlayerId(0)), Some(3));
    assert_eq!(game.counter_of(lands, PlayerId(1)), Some(0));
    assert_eq!(game.counter_of(shared, PlayerId(1)), Some(2));
    for seat in [2, 7, 8, 9, 255] {
        assert_eq!(
            game.counter_of(lands, PlayerId(seat)),
            None,
            "P{}",
            seat + 1
        );
        assert_eq!(
            game.counter_of(shared, PlayerId(seat)),
            None,
            "P{}",
            seat + 1
        );
    }
}

#[test]
fn library_misuse_places_of_another_spec_are_refused() {
    let big = spec(
        "[[phase]]\nid = \"a\"\n[[phase]]\nid = \"b\"\n[[phase]]\nid = \"c\"\n\
         [[phase.step]]\nid = \"c1\"\n[[phase.step]]\nid = \"c2\"\npriority = \"always\"\n",
    );
    let small = spec("");
    let mut game = Game::new(&small, &GameOptions::players(2)).expect("set-up");
    let mut events = Vec::new();
    game.start(&mut NoHost, &mut events);
    let before = game.state().clone();
    let phase = Place::Phase(big.phase_by_id("c").expect("declared"));
    let step = Place::Step(big.step_by_id("c2").expect("declared"));
    for at in [phase, step] {
        let refused = Err(RuleError::NoSuchPlace { place: at });
        let p1 = PlayerId(0);
        assert_eq!(game.delay_trigger(p1, 1, at, false), refused);
        assert_eq!(game.delay_trigger_to_next_turn(p1, 1, at), refused);
        let until = Scope::UntilNext { at, player: p1 };
        assert_eq!(game.start_duration(1, until), refused);
        let end_of = Scope::EndOfNextTurn { at, player: p1 };
        assert_eq!(game.start_duration(1, end_of), refused);
    }
    assert_eq!(game.state(), &before);
}

/// How many triggers wait in the APNAP test below: sorting them by
/// insertion took minutes in a debug build.
const MANY: u32 = 100_000;

/// How deep the stack is that a player leaves below: taking their objects
/// out one `Vec::remove` at a time took about 10 s in a debug build.
const DEEP: u32 = 400_000;

/// How long either may take, far above what a linear pass needs in a
/// debug build on a busy machine and far below the quadratic one.
const QUICK: std::time::Duration = std::time::Duration::from_secs(3);

/// P1 holds priority in a running 2-player game of `spec`.
fn started(spec: &Spec, players: u8) -> Game {
    let mut game = Game::new(spec, &GameOptions::players(players)).expect("set-up");
    game.start(&mut NoHost, &mut ());
    assert_eq!(game.holder(), Some(PlayerId(0)));
    game
}

#[test]
fn library_misuse_many_waiting_triggers_go_on_the_stack_in_apnap_order_quickly() {
    let spec = spec("");
    let mut game = started(&spec, 3);
    // Reported during a resolution: they wait until P2 receives priority.
    for label in 0..MANY {
        let controller = PlayerId([1, 2, 0][label as usize % 3]);
        game.report_pending_trigger(controller, label)
            .expect("in the game");
    }
    let clock = std::time::Instant::now();
    let mut counts = turnspec_engine::EventCounts::default();
    game.apply(
        Action::Pass {
            player: PlayerId(0),
        },
        &mut NoHost,
        &mut counts,
    )
    .expect("P1 holds priority");
    let took = clock.elapsed();
    assert!(took < QUICK, "{MANY} triggers took {took:?}");
    // The active player's first (they resolve last), then each other
    // player in turn order, each player's in the order reported.
    let stack = game.stack();
    assert_eq!(stack.len(), MANY as usize);
    let order: Vec<(u8, u32)> = stack.iter().map(|o| (o.controller.0, o.label)).collect();
    let mut expected = order.clone();
    expected.sort_by_key(|&(seat, label)| (seat, label));
    assert_eq!(order, expected);
    assert_eq!(stack[0].label, 2);
    assert_eq!(stack[stack.len() - 1].label, MANY - 3);
}

#[test]
fn library_misuse_a_player_leaves_a_deep_stack_quickly() {
    let spec = spec("");
    let mut game = started(&spec, 3);
    // Reported while P1 holds priority: each goes on the stack at once.
    for label in 0..DEEP {
        let controller = PlayerId((label % 3) as u8);
        game.report_trigger(controller, label, &mut ())
            .expect("in the game");
    }
    assert_eq!(game.stack().len(), DEEP as usize);
    let clock = std::time::Instant::now();
    let mut removed = Vec::new();
    game.remove_player(PlayerId(1), &mut NoHost, &mut removed)
        .expect("in the game");
    let took = clock.elapsed();
    assert!(took < QUICK, "leaving a stack of {DEEP} took {took:?}");
    let labels = |keep: fn(u32) -> bool| (0..DEEP).filter(move |l| keep(*l));
    let gone: Vec<u32> = removed
        .iter()
        .filter_map(|e| match e {
            turnspec_engine::Event::Removed { object } => Some(object.label),
            _ => None,
        })
        .collect();
    assert_eq!(gone, labels(|l| l % 3 == 1).collect::<Vec<_>>());
    let left: Vec<u32> = game.stack().iter().map(|o| o.label).collect();
    assert_eq!(left, labels(|l| l % 3 != 1).collect::<Vec<_>>());
}

/// A spec with more of everything than `spec("")`, so its ids are past the
/// end of every arena there.
fn bigger() -> Spec {
    spec(
        "[variants.v1]\n[variants.v2]\n[facts.f1]\n[facts.f2]\n\
         [counters.c1]\n[counters.c2]\nper = \"player\"\n\
         [timing.t1]\n[timing.t2]\n\
         [effects.e1]\nkind = \"extra_turn\"\n[effects.e2]\nkind = \"end_turn\"\ngoto = \"s3\"\n\
         [[phase]]\nid = \"p1\"\npriority = \"always\"\n\
         [[phase]]\nid = \"p2\"\n\
         [[phase.step]]\nid = \"s2\"\nactions = [{ id = \"a1\" }, { id = \"a2\" }]\n\
         [[phase.step]]\nid = \"s3\"\npriority = \"always\"\n",
    )
}

#[test]
fn library_misuse_the_spec_answers_ids_of_another_spec_with_none() {
    let (big, small) = (bigger(), spec(""));
    let last = |n: usize| n.checked_sub(1).expect("some");
    let phase = big.phases().ids().last().expect("some");
    let step = big.step_by_id("s3").expect("declared");
    let action = big.turn_actions().ids().last().expect("some");
    let window = big.windows().ids().last().expect("some");
    let effect = big.effects().ids().last().expect("some");
    let timing = big.timing().ids().last().expect("some");
    let counter = big.counters().ids().last().expect("some");
    assert!(step.index() > last(small.steps().len()));
    assert!(small.phase(phase).is_none());
    assert!(small.step(step).is_none());
    assert!(small.turn_action(action).is_none());
    assert!(small.window(window).is_none());
    assert!(small.effect(effect).is_none());
    assert!(small.timing_class(timing).is_none());
    assert!(small.counter(counter).is_none());
    assert!(small.phases().get(phase).is_none());
    assert!(!small.steps().contains(step));
    assert_eq!(small.id_of(step), "?");
    assert_eq!(big.id_of(step), "s3");
    assert_eq!(turnspec_spec::describe::step_label(&small, step), "step ?");
}

#[test]
fn library_misuse_a_game_refuses_ids_of_another_spec_and_changes_nothing() {
    let (big, small) = (bigger(), spec(""));
    let fact = big.fact_by_id("f2").expect("declared");
    let variant = big.variant_by_id("v2").expect("declared");
    let counter = big.counter_by_id("c2").expect("declared");
    let effect = big.effect_by_id("e2").expect("declared");
    let timing = big.timing_by_id("t2").expect("declared");
    let phase = big.phase_by_id("p2").expect("declared");
    let step = big.step_by_id("s3").expect("declared");
    let options = GameOptions::players(2);

    // At set-up.
    let refused = |o: GameOptions| Game::new(&small, &o).err().map(|e| e.to_string());
    assert!(refused(options.clone().with_facts(vec![fact])).is_some());
    assert!(refused(options.clone().with_variants(vec![variant])).is_some());
    assert!(refused(options.clone().with_counters(vec![(counter, 1)])).is_some());
    let at = turnspec_engine::StartAt::new(1, PlayerId(0), phase);
    assert!(refused(options.clone().with_start_at(at)).is_some());
    let main = small.phase_by_id("main").expect("declared");
    let at = turnspec_engine::StartAt::new(1, PlayerId(0), main).at_step(Some(step));
    assert!(refused(options.clone().with_start_at(at)).is_some());

    // In play.
    let mut game = started(&small, 2);
    let before = game.state().clone();
    let mut events = Vec::new();
    let (p1, p2) = (PlayerId(0), PlayerId(1));
    assert_eq!(
        game.set_fact(fact, true, &mut events),
        Err(RuleError::NoSuchFact)
    );
    assert_eq!(
        game.apply_declared_effect(effect, p1, &mut NoHost, &mut events),
        Err(RuleError::NoSuchEffect)
    );
    assert_eq!(
        game.apply_declared_effect_on(effect, p1, p2, &mut NoHost, &mut events),
        Err(RuleError::NoSuchEffect)
    );
    assert_eq!(
        game.end_lasting_effect(effect, p1, &mut events),
        Err(RuleError::NoSuchEffect)
    );
    let play = Action::Play {
        player: p1,
        timing,
        label: 1,
    };
    assert_eq!(
        game.apply(play, &mut NoHost, &mut events),
        Err(RuleError::NoSuchTiming { timing })
    );
    assert_eq!(
        game.check_play(p1, timing, 0),
        Err(RuleError::NoSuchTiming { timing })
    );
    assert!(game.legal_actions(p1).all(|a| a != play));
    assert!(!game.fact(fact));
    assert!(!game.variant(variant));
    assert_eq!(game.counter_of(counter, p1), None);
    assert_eq!(game.counter(counter), 0);
    assert_eq!(game.state(), &before);
    assert!(events.is_empty(), "{events:?}");

    // A refusal described with a spec that is not the game's.
    let wrong_class = RuleError::Timing {
        player: p1,
        timing,
        failure: turnspec_engine::TimingFailure::Requirement(7),
        rule: turnspec_spec::RuleRef::NONE,
    };
    assert_eq!(wrong_class.describe(&small), wrong_class.to_string());
}

//! Every wrapper host forwards every hook: a recording host lent through the
//! engine's `&mut H` (a `HostWrapper`), or wrapped in a `HostWrapper` of
//! this test, sees exactly what it sees unwrapped, over a game that calls
//! every hook, and the wrapper is told after each. Adding a hook to `Host`
//! without forwarding it in the engine's one blanket impl makes the
//! wrapped record lose its calls, and this test fail.

use turnspec_engine::policy::{Policy, RandomPolicy};
use turnspec_engine::{
    Event, EventSink, Game, GameOptions, HookContext, Host, HostWrapper, ObjectKind, PlayedHook,
    PlayerId, ResolvedHook, Status, StepBeganHook, TurnActionHook,
};
use turnspec_spec::Spec;

fn mtg() -> Spec {
    match turnspec_spec::load_str("mtg.toml", include_str!("../../../../games/mtg.toml")) {
        Ok((spec, _)) => spec,
        Err(r) => panic!("{}", r.to_short_text()),
    }
}

/// Records every hook call and reports a trigger from each kind of hook.
#[derive(Default)]
struct Recorder {
    calls: Vec<String>,
}

fn at(ctx: &HookContext) -> String {
    format!(
        "t{} {} s{:?} r{}",
        ctx.turn, ctx.active, ctx.step, ctx.repeat
    )
}

impl Host for Recorder {
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        let TurnActionHook {
            ctx,
            action,
            mut triggers,
            ..
        } = hook;
        self.calls
            .push(format!("turn_action {action:?} {}", at(&ctx)));
        if ctx.turn == 3 && ctx.repeat == 0 {
            let _ = triggers.add(ctx.active, 100);
        }
        1
    }

    fn played(&mut self, hook: PlayedHook<'_>) {
        let PlayedHook {
            ctx,
            player,
            timing,
            label,
            mut triggers,
            ..
        } = hook;
        self.calls
            .push(format!("played {player} {timing:?} #{label} {}", at(&ctx)));
        if label.is_multiple_of(4) {
            let _ = triggers.add(player, 200);
        }
    }

    fn step_began(&mut self, hook: StepBeganHook<'_>) {
        let StepBeganHook {
            ctx, mut triggers, ..
        } = hook;
        self.calls.push(format!("step_began {}", at(&ctx)));
        if ctx.turn == 2 && ctx.repeat == 0 {
            let _ = triggers.add(ctx.active, 300);
        }
    }

    fn resolved(&mut self, hook: ResolvedHook<'_>) {
        let ResolvedHook {
            ctx,
            object,
            mut triggers,
            ..
        } = hook;
        self.calls.push(format!("resolved {object:?} {}", at(&ctx)));
        // Only plays trigger on resolving, so triggers do not trigger for ever.
        if matches!(object.kind, ObjectKind::Play(_)) && object.label.is_multiple_of(3) {
            let _ = triggers.add(object.controller, 400);
        }
    }
}

#[derive(Default)]
struct Log(Vec<Event>);

impl EventSink for Log {
    fn event(&mut self, event: Event) {
        self.0.push(event);
    }
}

/// Plays four random turns of Magic with `host` answering the hooks.
fn play<H: Host>(spec: &Spec, host: &mut H) -> Vec<Event> {
    let mut game = Game::new(spec, &GameOptions::players(2)).expect("set-up");
    game.set_turn_limit(4);
    let mut decide = RandomPolicy::new(7);
    decide.act_chance = 16;
    let mut log = Log::default();
    game.start(host, &mut log);
    let mut moves = 0;
    while game.status() == Status::Running && moves < 200_000 {
        let action = decide.decide(&game);
        game.apply(action, host, &mut log).expect("a legal action");
        moves += 1;
    }
    assert_eq!(
        game.status(),
        Status::TurnLimit,
        "{:?}",
        &log.0[log.0.len().saturating_sub(12)..]
    );
    log.0
}

#[test]
fn a_borrowed_host_forwards_every_hook() {
    let spec = mtg();
    let mut plain = Recorder::default();
    let plain_events = play(&spec, &mut plain);

    let mut inner = Recorder::default();
    let mut wrapped: &mut Recorder = &mut inner;
    let wrapped_events = play(&spec, &mut wrapped);

    for hook in ["turn_action", "played", "step_began", "resolved"] {
        assert!(
            plain.calls.iter().any(|c| c.starts_with(hook)),
            "the game never calls `{hook}`: it must exercise every hook"
        );
    }
    assert!(
        plain_events
            .iter()
            .any(|e| matches!(e, Event::TriggerPut { object } if object.label == 400)),
        "a trigger reported on resolution goes on the stack"
    );
    assert_eq!(inner.calls, plain.calls);
    assert_eq!(wrapped_events, plain_events);
}

/// A wrapper of this test: forwards through the engine's blanket impl and
/// notes each notification, with what it saw.
struct Noting<H> {
    inner: H,
    notes: Vec<String>,
}

impl<H: Host> HostWrapper for Noting<H> {
    type Inner = H;

    fn inner(&mut self) -> &mut H {
        &mut self.inner
    }

    fn after_turn_action(&mut self, hook: &mut TurnActionHook<'_>, answer: u16) {
        let note = format!("turn_action {:?} {} = {answer}", hook.action, at(&hook.ctx));
        self.notes.push(note);
    }

    fn after_played(&mut self, hook: &mut PlayedHook<'_>) {
        let (player, timing, label) = (hook.player, hook.timing, hook.label);
        let note = format!("played {player} {timing:?} #{label} {}", at(&hook.ctx));
        self.notes.push(note);
    }

    fn after_step_began(&mut self, hook: &mut StepBeganHook<'_>) {
        self.notes.push(format!("step_began {}", at(&hook.ctx)));
    }

    fn after_resolved(&mut self, hook: &mut ResolvedHook<'_>) {
        let note = format!("resolved {:?} {}", hook.object, at(&hook.ctx));
        self.notes.push(note);
    }
}

#[test]
fn a_host_wrapper_forwards_every_hook_and_is_told_after_each() {
    let spec = mtg();
    let mut plain = Recorder::default();
    let plain_events = play(&spec, &mut plain);

    let mut wrapped = Noting {
        inner: Recorder::default(),
        notes: Vec::new(),
    };
    let wrapped_events = play(&spec, &mut wrapped);
    assert_eq!(wrapped.inner.calls, plain.calls);
    assert_eq!(wrapped_events, plain_events);
    // One notification after each call, with the same hook (the answer of a
    // turn-based action is the recorder's, 1).
    let notes: Vec<String> = plain
        .calls
        .iter()
        .map(|c| match c.starts_with("turn_action") {
            true => format!("{c} = 1"),
            false => c.clone(),
        })
        .collect();
    assert_eq!(wrapped.notes, notes);
}

/// Records what the hook context says about a fact and about P2.
struct Reader {
    fact: turnspec_spec::FactId,
    seen: Vec<(bool, bool)>,
}

impl Host for Reader {
    fn step_began(&mut self, hook: StepBeganHook<'_>) {
        let ctx = hook.ctx;
        self.seen
            .push((ctx.fact(self.fact), ctx.in_game(PlayerId(1))));
    }
}

#[test]
fn the_hook_context_reads_facts_and_who_is_in_the_game() {
    let spec = mtg();
    let fact = spec.fact_by_id("phasing").expect("mtg.toml's phasing fact");
    let options = GameOptions::players(3).with_facts(vec![fact]);
    let mut game = Game::new(&spec, &options).expect("set-up");
    let mut host = Reader {
        fact,
        seen: Vec::new(),
    };
    game.start(&mut host, &mut ());
    assert_eq!(host.seen.last(), Some(&(true, true)));
    let before = host.seen.len();
    let p1 = PlayerId(0);
    game.set_fact(fact, false, &mut ()).expect("a fact");
    game.apply(
        turnspec_engine::Action::Leave {
            player: PlayerId(1),
        },
        &mut host,
        &mut (),
    )
    .expect("P2 leaves");
    while host.seen.len() == before && game.status() == Status::Running {
        let holder = game.holder().unwrap_or(p1);
        game.apply(
            turnspec_engine::Action::Pass { player: holder },
            &mut host,
            &mut (),
        )
        .expect("a pass");
    }
    assert_eq!(host.seen.last(), Some(&(false, false)));
}

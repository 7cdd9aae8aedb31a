//! The hot path allocates nothing: after a warm-up, hundreds of turns of
//! all-pass, busy and random play — passes, pushes, resolutions, steps,
//! phases, turn-based actions — make no heap allocation at all.
//!
//! A counting global allocator counts the allocations of the thread that
//! turned counting on, so tests running in parallel do not disturb each other.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use turnspec_engine::policy::{AllPass, BusyPolicy, Policy, RandomPolicy};
use turnspec_engine::{
    Action, EventCounts, EventSink, Game, GameOptions, GameState, ObjectKind, PlayerId, Status,
};
use turnspec_engine::{HostWrapper, ResolvedHook};
use turnspec_spec::{EffectId, Spec};

struct Counting;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

fn note() {
    let _ = ON.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// The workspace denies unsafe code; a global allocator cannot be written
// without it (GlobalAlloc is an unsafe trait with unsafe methods). Every
// method only counts and forwards to the system allocator.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations (and reallocations) made on this thread while `f` runs.
fn allocations<R>(f: impl FnOnce() -> R) -> (u64, R) {
    COUNT.with(|c| c.set(0));
    ON.with(|on| on.set(true));
    let r = f();
    ON.with(|on| on.set(false));
    (COUNT.with(|c| c.get()), r)
}

fn mtg() -> Spec {
    turnspec_spec::load_str("mtg.toml", include_str!("../../../games/mtg.toml"))
        .unwrap()
        .0
}

fn ga() -> Spec {
    turnspec_spec::load_str(
        "grand-archive.toml",
        include_str!("../../../games/grand-archive.toml"),
    )
    .unwrap()
    .0
}

const WARM_UP: u32 = 50;
const MEASURED: u32 = 500;

/// Plays `WARM_UP` turns, then counts the allocations of the next
/// `MEASURED` turns. Returns them with the events of the measured turns.
fn measure<P: Policy, S: EventSink>(
    spec: &Spec,
    players: u8,
    policy: &mut P,
    sink: &mut S,
) -> (u64, EventCounts) {
    let mut game = Game::new(spec, &GameOptions::players(players)).unwrap();
    game.set_turn_limit(WARM_UP + MEASURED);
    game.start(policy, sink);
    while game.status() == Status::Running && game.turn() <= WARM_UP {
        let action = policy.decide(&game);
        game.apply(action, policy, sink).unwrap();
    }
    // Counting goes to a second sink the test owns, so the counts do not
    // depend on the sink under test.
    struct Both<'a, S>(&'a mut S, EventCounts);
    impl<S: EventSink> EventSink for Both<'_, S> {
        fn event(&mut self, e: turnspec_engine::Event) {
            self.0.event(e);
            self.1.event(e);
        }
    }
    let mut both = Both(sink, EventCounts::default());
    let (allocs, ()) = allocations(|| {
        while game.status() == Status::Running {
            let action = policy.decide(&game);
            if game.apply(action, policy, &mut both).is_err() {
                break;
            }
        }
    });
    assert_eq!(game.status(), Status::TurnLimit);
    // Turn WARM_UP + 1 began during the warm-up.
    assert_eq!(both.1.turns, MEASURED as u64 - 1);
    (allocs, both.1)
}

#[test]
fn the_counter_sees_allocations() {
    let (n, v) = allocations(|| vec![1u8; 100]);
    assert_eq!(n, 1);
    drop(v);
}

#[test]
fn all_pass_allocates_nothing() {
    for spec in [mtg(), ga()] {
        for players in [2, 4] {
            let (allocs, c) = measure(&spec, players, &mut AllPass, &mut ());
            assert_eq!(allocs, 0, "{} {players}p: {c:?}", spec.game().name);
            assert!(c.passes >= MEASURED as u64 * 3 * players as u64);
            let (allocs, _) = measure(&spec, players, &mut AllPass, &mut EventCounts::default());
            assert_eq!(allocs, 0);
        }
    }
}

#[test]
fn busy_allocates_nothing() {
    for spec in [mtg(), ga()] {
        for players in [2, 4] {
            for depth in [1, 8] {
                let mut busy = BusyPolicy::new(&spec).with_depth(depth);
                let (allocs, c) = measure(&spec, players, &mut busy, &mut ());
                assert_eq!(allocs, 0, "{} {players}p depth {depth}", spec.game().name);
                assert!(c.pushes >= MEASURED as u64 * 3 * depth as u64);
                assert_eq!(c.pushes, c.resolutions);
                let mut busy = BusyPolicy::new(&spec).with_depth(depth);
                let (allocs, _) = measure(&spec, players, &mut busy, &mut EventCounts::default());
                assert_eq!(allocs, 0);
            }
        }
    }
}

#[test]
fn random_play_allocates_nothing() {
    for spec in [mtg(), ga()] {
        for players in [2u8, 4] {
            for seed in 0..2 {
                // What `turnspec simulate --policy random` plays; it stops
                // playing at 16 objects, under the 32 reserved.
                let mut random = RandomPolicy::new(seed);
                let (allocs, c) = measure(&spec, players, &mut random, &mut ());
                assert_eq!(allocs, 0, "{} {players}p seed {seed}", spec.game().name);
                assert!(c.pushes > 1000 && c.special_actions > 0, "{c:?}");
            }
        }
    }
}

/// The busy workload, plus a trigger reported from every resolution of a
/// play (`Host::resolved`): it goes on the stack before priority, without
/// allocating.
struct ResolveTriggers<'s>(BusyPolicy<'s>);

impl<'s> HostWrapper for ResolveTriggers<'s> {
    type Inner = BusyPolicy<'s>;

    fn inner(&mut self) -> &mut BusyPolicy<'s> {
        &mut self.0
    }

    fn after_resolved(&mut self, hook: &mut ResolvedHook<'_>) {
        let object = hook.object;
        if matches!(object.kind, ObjectKind::Play(_)) {
            let _ = hook.triggers.add(object.controller, object.label);
        }
    }
}

impl Policy for ResolveTriggers<'_> {
    fn decide(&mut self, game: &Game) -> Action {
        self.0.decide(game)
    }

    fn host_effect(&mut self, game: &Game) -> Option<(EffectId, PlayerId)> {
        self.0.host_effect(game)
    }
}

#[test]
fn triggers_from_resolutions_allocate_nothing() {
    for spec in [mtg(), ga()] {
        for players in [2, 4] {
            let mut host = ResolveTriggers(BusyPolicy::new(&spec).with_depth(4));
            let (allocs, c) = measure(&spec, players, &mut host, &mut ());
            assert_eq!(allocs, 0, "{} {players}p", spec.game().name);
            assert!(c.triggers >= c.pushes / 2, "{c:?}");
        }
    }
}

/// A turn that never ends: going round a repeating step 10,000 times and
/// stopping as `NeverEnds` allocates nothing either.
#[test]
fn turn_that_never_ends_stops_without_allocating() {
    let spec = turnspec_spec::load_str(
        "answered_repeat.toml",
        include_str!("../../../tests/specs/loops/answered_repeat.toml"),
    )
    .unwrap()
    .0;
    let mut game = Game::new(&spec, &GameOptions::players(2)).unwrap();
    game.start(&mut AllPass, &mut ());
    let holder = game.holder().unwrap();
    let other = PlayerId(1 - holder.0);
    let (allocs, ()) = allocations(|| {
        let mut counts = EventCounts::default();
        for player in [holder, other] {
            game.apply(Action::Pass { player }, &mut AllPass, &mut counts)
                .unwrap();
        }
        assert!(counts.steps >= turnspec_engine::MAX_REPEATS_WITHOUT_PRIORITY as u64);
    });
    assert_eq!(game.status(), Status::NeverEnds);
    assert_eq!(allocs, 0);
}

#[test]
fn legal_actions_and_refusals_allocate_nothing() {
    let spec = mtg();
    let mut game = Game::new(&spec, &GameOptions::players(2)).unwrap();
    game.start(&mut AllPass, &mut ());
    let holder = game.holder().unwrap();
    let other = PlayerId(1 - holder.0);
    let (allocs, (legal, refused)) = allocations(|| {
        let legal = game.legal_actions(holder).count();
        let refused = game
            .clone()
            .apply(Action::Pass { player: other }, &mut AllPass, &mut ())
            .is_err();
        (legal, refused)
    });
    assert_eq!(allocs, 0);
    assert!(legal >= 2 && refused);
}

/// The figure docs/performance.md quotes (232 bytes on x86_64 since per-player
/// counters; 192 bytes when it was
/// written), of which 48 are the two `Vec` headers (stack, waiting
/// triggers); their contents live on the heap, 12 bytes an object.
#[test]
fn game_state_is_small() {
    let size = std::mem::size_of::<GameState>();
    let vec_headers = 2 * std::mem::size_of::<Vec<turnspec_engine::StackObject>>();
    println!(
        "size_of::<GameState>() = {size} bytes ({vec_headers} of them Vec headers); \
         StackObject = {} bytes; Game = {} bytes",
        std::mem::size_of::<turnspec_engine::StackObject>(),
        std::mem::size_of::<Game>(),
    );
    assert!(size <= 256, "GameState is {size} bytes");
}

/// Cloning copies the fixed part and allocates only for a non-empty stack
/// (one allocation: the stack's contents).
#[test]
fn clone_is_cheap() {
    let spec = mtg();
    let mut game = Game::new(&spec, &GameOptions::players(2)).unwrap();
    let mut busy = BusyPolicy::new(&spec).with_depth(3);
    game.start(&mut busy, &mut ());
    // At a window's opening: empty stack.
    assert!(game.stack().is_empty());
    let (allocs, copy) = allocations(|| game.clone());
    assert_eq!(allocs, 0);
    assert_eq!(copy.state(), game.state());
    // Three plays on the stack.
    for _ in 0..3 {
        let a = busy.decide(&game);
        assert!(matches!(a, Action::Play { .. }));
        game.apply(a, &mut busy, &mut ()).unwrap();
    }
    assert_eq!(game.stack().len(), 3);
    let (allocs, copy) = allocations(|| game.clone());
    assert_eq!(allocs, 1);
    assert_eq!(copy.state(), game.state());
    // A clone plays on by itself, leaving the original alone.
    let mut copy = copy;
    let holder = copy.holder().unwrap();
    copy.apply(Action::Pass { player: holder }, &mut busy, &mut ())
        .unwrap();
    assert_ne!(copy.state(), game.state());
    assert_eq!(game.stack().len(), 3);
}

/// The games without priority passing run on the compiled program too
/// (a bag, windows only the active player acts in, elections, resources,
/// between-turns phases): all-pass turns allocate nothing there either.
#[test]
fn all_pass_allocates_nothing_in_games_without_priority_passing() {
    for (name, src) in [
        ("lorcana.toml", include_str!("../../../games/lorcana.toml")),
        (
            "pokemon-tcg.toml",
            include_str!("../../../games/pokemon-tcg.toml"),
        ),
        // Chains that resolve whole, the next player after a play, roles,
        // alternating single actions.
        ("yugioh.toml", include_str!("../../../games/yugioh.toml")),
        (
            "flesh-and-blood.toml",
            include_str!("../../../games/flesh-and-blood.toml"),
        ),
        (
            "star-wars-unlimited.toml",
            include_str!("../../../games/star-wars-unlimited.toml"),
        ),
    ] {
        let spec = turnspec_spec::load_str(name, src).unwrap().0;
        let most = spec.game().max_players.min(4);
        for players in [2, most] {
            let (allocs, c) = measure(&spec, players, &mut AllPass, &mut ());
            assert_eq!(allocs, 0, "{name} {players}p: {c:?}");
            let (allocs, _) = measure(&spec, players, &mut AllPass, &mut EventCounts::default());
            assert_eq!(allocs, 0, "{name} {players}p, counting");
        }
    }
}

#[test]
fn auto_pass_allocates_nothing() {
    use turnspec_engine::{AutoPasser, NoHost, Stopped};
    use turnspec_spec::StopWhen;
    let spec = mtg();
    let text = include_str!("../../../games/stops/mtg-default.toml");
    let default = turnspec_spec::load_stops("mtg-default.toml", text, &spec).unwrap();
    // P1 also stops wherever they could play, so the legal-play check runs.
    let mut playful = default.clone();
    playful.add_anywhere(StopWhen::CAN_PLAY);
    let mut passer = AutoPasser::new();
    passer.set_profile(&spec, PlayerId(0), playful).unwrap();
    passer.set_profile(&spec, PlayerId(1), default).unwrap();
    let mut game = Game::new(&spec, &GameOptions::players(2)).unwrap();
    game.set_turn_limit(WARM_UP + MEASURED);
    game.start(&mut NoHost, &mut ());
    // At each stop: cast one instant a turn when the stack is empty, so
    // `stack_grew` stops the other player; pass otherwise.
    let mut cast_in = 0;
    let mut play_on = |game: &mut Game, passer: &mut AutoPasser| -> bool {
        let player = match passer.advance(game, &mut NoHost, &mut ()) {
            Stopped::Stop { player, .. } | Stopped::CanPlay { player, .. } => player,
            _ => return false,
        };
        let action = if game.stack().is_empty() && cast_in != game.turn() {
            cast_in = game.turn();
            Action::Play {
                player,
                timing: spec.timing_by_id("instant").unwrap(),
                label: 1,
            }
        } else {
            Action::Pass { player }
        };
        game.apply(action, &mut NoHost, &mut ()).is_ok()
    };
    while game.turn() <= WARM_UP && play_on(&mut game, &mut passer) {}
    let (allocs, ()) = allocations(|| while play_on(&mut game, &mut passer) {});
    assert_eq!(game.status(), Status::TurnLimit);
    assert_eq!(allocs, 0);
}

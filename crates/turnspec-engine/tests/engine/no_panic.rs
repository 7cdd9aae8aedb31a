//! The engine never panics, whatever it is asked: any sequence of actions
//! (players, timing classes, facts, effects and places out of range
//! included; players leaving; structural effects) against either reference
//! spec with 2 to 4 players. Every refusal leaves the state exactly
//! as it was and emits nothing; every accepted action leaves the game at a
//! decision or stopped.

use std::sync::LazyLock;

use proptest::prelude::*;
use turnspec_engine::RuleError;
use turnspec_engine::policy::{Policy, RandomPolicy, SplitMix64, play_out};
use turnspec_engine::{
    Action, Event, EventSink, Game, GameOptions, Host, Place, PlayerId, Scope, StartAt, Status,
    Triggers,
};
use turnspec_engine::{PlayedHook, ResolvedHook, StepBeganHook, TurnActionHook};
use turnspec_spec::{EffectId, FactId, PhaseId, Spec, StepId, TimingId};

fn load(path: &str, text: &str) -> Spec {
    match turnspec_spec::load_str(path, text) {
        Ok((spec, _)) => spec,
        Err(report) => panic!("{path} does not load:\n{}", report.to_short_text()),
    }
}

/// A spec with as many elements of each kind as the model allows. Ids can
/// only come from a spec, so ids "out of range" for the game under test are
/// this spec's: a host mixing up two specs is the only way to get one.
static DONOR: LazyLock<Spec> = LazyLock::new(|| {
    let mut text = String::from("[game]\nname = \"donor\"\nplayers = { min = 1, max = 8 }\n");
    for i in 0..64 {
        text += &format!(
            "[facts.f{i}]\n[variants.v{i}]\n[effects.e{i}]\nkind = \"skip\"\nphase = \"p{}\"\n",
            i % 63
        );
    }
    for i in 0..32 {
        text += &format!("[timing.t{i}]\n");
    }
    for i in 0..63 {
        text += &format!("[[phase]]\nid = \"p{i}\"\ncounts_as = \"p\"\npriority = \"always\"\n");
    }
    text += "[[phase]]\nid = \"last\"\n[[phase.step]]\nid = \"a\"\npriority = \"always\"\n[[phase.step]]\nid = \"b\"\n";
    load("donor.toml", &text)
});

fn donor_id<I>(mut ids: impl ExactSizeIterator<Item = I>, n: usize) -> I {
    let len = ids.len();
    ids.nth(n % len)
        .expect("the donor has every kind of element")
}

fn timing_id(t: u8) -> TimingId {
    donor_id(DONOR.timing().ids(), t as usize)
}

static MTG: LazyLock<Spec> =
    LazyLock::new(|| load("games/mtg.toml", include_str!("../../../../games/mtg.toml")));
static GRAND_ARCHIVE: LazyLock<Spec> = LazyLock::new(|| {
    load(
        "games/grand-archive.toml",
        include_str!("../../../../games/grand-archive.toml"),
    )
});

fn spec(grand_archive: bool) -> &'static Spec {
    if grand_archive { &GRAND_ARCHIVE } else { &MTG }
}

/// Case count: modest by default so the suite stays fast; set
/// `PROPTEST_CASES` for a longer run.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A host that answers hooks at random and sometimes reports triggers.
struct FuzzHost {
    rng: SplitMix64,
    /// Chance in 256 of a trigger per hook call.
    trigger_chance: u8,
    players: u8,
}

impl FuzzHost {
    fn maybe_trigger(&mut self, triggers: &mut Triggers<'_>) {
        if self.rng.below(256) < self.trigger_chance as u64 {
            let controller = PlayerId(self.rng.below(self.players as u64) as u8);
            let _ = triggers.add(controller, self.rng.next_u64() as u32);
        }
    }
}

impl Host for FuzzHost {
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        let TurnActionHook { mut triggers, .. } = hook;
        self.maybe_trigger(&mut triggers);
        // Mostly small answers, sometimes anything (the engine clamps).
        if self.rng.below(8) == 0 {
            self.rng.next_u64() as u16
        } else {
            self.rng.below(3) as u16
        }
    }

    fn step_began(&mut self, hook: StepBeganHook<'_>) {
        let StepBeganHook { mut triggers, .. } = hook;
        self.maybe_trigger(&mut triggers);
    }
    fn played(&mut self, hook: PlayedHook<'_>) {
        let PlayedHook { mut triggers, .. } = hook;
        self.maybe_trigger(&mut triggers);
    }

    fn resolved(&mut self, hook: ResolvedHook<'_>) {
        let ResolvedHook { mut triggers, .. } = hook;
        self.maybe_trigger(&mut triggers);
    }
}

/// Counts events, so a refusal can be checked to emit none.
#[derive(Default)]
struct Count(u64);

impl EventSink for Count {
    fn event(&mut self, _: Event) {
        self.0 += 1;
    }
}

/// One step of a fuzz run: an arbitrary action, or one aimed at whoever
/// holds priority so that games actually move forward.
#[derive(Debug, Clone)]
enum Op {
    Raw(Input),
    HolderPasses,
    HolderPlays(u8, u32),
}

/// One input: a player's move, or one of the host's commands (each a
/// method of `Game`), so a sequence can mix them.
#[derive(Debug, Clone, Copy)]
enum Input {
    Move(Action),
    Trigger {
        controller: PlayerId,
        label: u32,
    },
    SetFact {
        fact: FactId,
        value: bool,
    },
    Effect {
        effect: EffectId,
        player: PlayerId,
    },
    EffectOn {
        effect: EffectId,
        player: PlayerId,
        target: PlayerId,
    },
    EndEffect {
        effect: EffectId,
        player: PlayerId,
    },
    Delay {
        controller: PlayerId,
        label: u32,
        at: Place,
        own_turn: bool,
    },
    DelayNextTurn {
        controller: PlayerId,
        label: u32,
        at: Place,
    },
    Until {
        label: u32,
        scope: Scope,
    },
    AddMana {
        player: PlayerId,
        amount: u16,
    },
    Pending {
        controller: PlayerId,
        label: u32,
    },
}

impl Input {
    /// The move through `Game::apply`, a command through its method.
    fn apply<H: Host, S: EventSink>(
        self,
        game: &mut Game,
        host: &mut H,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        match self {
            Input::Move(action) => game.apply(action, host, sink),
            Input::Trigger { controller, label } => game.report_trigger(controller, label, sink),
            Input::SetFact { fact, value } => game.set_fact(fact, value, sink),
            Input::Effect { effect, player } => {
                game.apply_declared_effect(effect, player, host, sink)
            }
            Input::EffectOn {
                effect,
                player,
                target,
            } => game.apply_declared_effect_on(effect, player, target, host, sink),
            Input::EndEffect { effect, player } => game.end_lasting_effect(effect, player, sink),
            Input::Delay {
                controller,
                label,
                at,
                own_turn,
            } => game.delay_trigger(controller, label, at, own_turn),
            Input::DelayNextTurn {
                controller,
                label,
                at,
            } => game.delay_trigger_to_next_turn(controller, label, at),
            Input::Until { label, scope } => game.start_duration(label, scope),
            Input::AddMana { player, amount } => game.add_mana_to_pool(player, amount),
            Input::Pending { controller, label } => game.report_pending_trigger(controller, label),
        }
    }
}

fn action() -> impl Strategy<Value = Input> {
    prop_oneof![
        4 => (0u8..9).prop_map(|p| Input::Move(Action::Pass { player: PlayerId(p) })),
        4 => (0u8..9, 0u8..40, any::<u32>()).prop_map(|(p, t, label)| Input::Move(Action::Play {
            player: PlayerId(p),
            timing: timing_id(t),
            label,
        })),
        2 => (0u8..9, any::<u32>()).prop_map(|(p, label)| Input::Trigger {
            controller: PlayerId(p),
            label,
        }),
        2 => (0u8..70, any::<bool>()).prop_map(|(f, value)| Input::SetFact {
            fact: donor_id::<FactId>(DONOR.facts().ids(), f as usize),
            value,
        }),
        // The host's structural commands: effects declared in the spec (and ids past
        // their end), players leaving, delayed triggers, durations, mana.
        2 => (0u8..24, 0u8..9).prop_map(|(e, p)| Input::Effect {
            effect: donor_id::<EffectId>(DONOR.effects().ids(), e as usize),
            player: PlayerId(p),
        }),
        1 => (0u8..9).prop_map(|p| Input::Move(Action::Leave { player: PlayerId(p) })),
        1 => (0u8..9, any::<u32>(), place(), any::<bool>()).prop_map(
            |(p, label, at, own_turn)| Input::Delay {
                controller: PlayerId(p),
                label,
                at,
                own_turn,
            }
        ),
        1 => (any::<u32>(), scope()).prop_map(|(label, scope)| Input::Until { label, scope }),
        // Issue 16: lasting skips ending, control of a turn, triggers that
        // wait when the turn is ended, delayed triggers on a next turn.
        1 => (0u8..24, 0u8..9).prop_map(|(e, p)| Input::EndEffect {
            effect: donor_id::<EffectId>(DONOR.effects().ids(), e as usize),
            player: PlayerId(p),
        }),
        1 => (0u8..24, 0u8..9, 0u8..9).prop_map(|(e, p, t)| Input::EffectOn {
            effect: donor_id::<EffectId>(DONOR.effects().ids(), e as usize),
            player: PlayerId(p),
            target: PlayerId(t),
        }),
        1 => (0u8..9, any::<u32>()).prop_map(|(p, label)| Input::Pending {
            controller: PlayerId(p),
            label,
        }),
        1 => (0u8..9, any::<u32>(), place()).prop_map(|(p, label, at)| Input::DelayNextTurn {
            controller: PlayerId(p),
            label,
            at,
        }),
        1 => (0u8..9, any::<u16>()).prop_map(|(p, amount)| Input::AddMana {
            player: PlayerId(p),
            amount,
        }),
    ]
}

/// Any duration, the turn-bound ones with any place and player.
fn scope() -> impl Strategy<Value = Scope> {
    prop_oneof![
        Just(Scope::Step),
        Just(Scope::Phase),
        Just(Scope::Turn),
        (place(), 0u8..9).prop_map(|(at, p)| Scope::UntilNext {
            at,
            player: PlayerId(p)
        }),
        (place(), 0u8..9).prop_map(|(at, p)| Scope::EndOfNextTurn {
            at,
            player: PlayerId(p)
        }),
        (0u8..9).prop_map(|p| Scope::UntilTurnOf {
            player: PlayerId(p)
        }),
        (0u8..9).prop_map(|p| Scope::ThroughNextTurn {
            player: PlayerId(p)
        }),
        (0u8..9).prop_map(|p| Scope::DuringTurnsOf {
            player: PlayerId(p)
        }),
        (place(), 0u8..9).prop_map(|(at, p)| Scope::FromNext {
            at,
            player: PlayerId(p)
        }),
    ]
}

/// A phase or step, valid or not (ids up to 70).
fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        (0u8..70).prop_map(|p| Place::Phase(donor_id::<PhaseId>(DONOR.phases().ids(), p as usize))),
        (0u16..70).prop_map(|s| Place::Step(donor_id::<StepId>(DONOR.steps().ids(), s as usize))),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => action().prop_map(Op::Raw),
        5 => Just(Op::HolderPasses),
        2 => (0u8..40, any::<u32>()).prop_map(|(t, l)| Op::HolderPlays(t, l)),
    ]
}

#[derive(Debug, Clone)]
struct Setup {
    grand_archive: bool,
    players: u8,
    starting: u8,
    turn_limit: u32,
    /// (turn, active, index into the regular phases, step offset)
    start_at: Option<(u32, u8, usize, usize)>,
    facts: u64,
    variants: u64,
    seed: u64,
    trigger_chance: u8,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        any::<bool>(),
        2u8..=4,
        0u8..4,
        1u32..8,
        proptest::option::of((1u32..8, 0u8..4, 0usize..16, 0usize..8)),
        any::<u64>(),
        any::<u64>(),
        any::<u64>(),
        prop_oneof![Just(0u8), 0u8..80, Just(255u8)],
    )
        .prop_map(
            |(
                grand_archive,
                players,
                starting,
                turn_limit,
                start_at,
                facts,
                variants,
                seed,
                tc,
            )| {
                Setup {
                    grand_archive,
                    players,
                    starting: starting % players,
                    turn_limit,
                    start_at: start_at.map(|(t, a, p, s)| (t, a % players, p, s)),
                    facts,
                    variants,
                    seed,
                    trigger_chance: tc,
                }
            },
        )
}

fn options(spec: &Spec, s: &Setup) -> GameOptions {
    let start_at = s.start_at.map(|(turn, active, p, step)| {
        let phase = spec.turn()[p % spec.turn().len()];
        let ph = spec.phase(phase).expect("a phase of the turn");
        let step = if ph.implicit_step {
            None
        } else {
            ph.steps().nth(step)
        };
        StartAt::new(turn, PlayerId(active), phase).at_step(step)
    });
    let mut options = GameOptions::players(s.players)
        .with_starting_player(PlayerId(s.starting))
        .with_facts(
            spec.facts()
                .ids()
                .filter(|i| s.facts >> i.index() & 1 == 1)
                .collect(),
        )
        .with_variants(
            spec.variants()
                .ids()
                .filter(|i| s.variants >> i.index() & 1 == 1)
                .collect(),
        );
    options.start_at = start_at;
    options
}

/// What must hold whenever `apply` has returned; `left` has a bit set for
/// each player who left the game.
fn check_resting(game: &Game, left: u16) {
    match game.status() {
        Status::Running => {
            let holder = game
                .holder()
                .expect("a running game rests at a decision: someone holds priority");
            assert!(holder.0 < game.players(), "holder {holder} out of range");
            // 800.4a: priority never stays with a player who left.
            assert_eq!(left >> holder.0 & 1, 0, "{holder} left but holds priority");
            assert!(
                game.window().is_some(),
                "{holder} holds priority outside a window"
            );
            assert!(
                game.legal_actions(holder).next().is_some(),
                "the holder can always at least pass"
            );
        }
        _ => assert_eq!(game.holder(), None, "a stopped game has no holder"),
    }
}

fn run(s: &Setup, ops: &[Op]) {
    let spec = spec(s.grand_archive);
    // Some start points are invalid (a step of another phase...): setup says so.
    let Ok(mut game) = Game::new(spec, &options(spec, s)) else {
        return;
    };
    game.set_turn_limit(s.turn_limit.max(s.start_at.map(|a| a.0).unwrap_or(0)));
    let mut host = FuzzHost {
        rng: SplitMix64(s.seed),
        trigger_chance: s.trigger_chance,
        players: s.players,
    };
    let mut sink = Count::default();
    game.start(&mut host, &mut sink);
    let mut left = 0u16;
    check_resting(&game, left);
    for op in ops {
        let holder = game.holder().unwrap_or(PlayerId(0));
        let action = match *op {
            Op::Raw(a) => a,
            Op::HolderPasses => Input::Move(Action::Pass { player: holder }),
            Op::HolderPlays(t, label) => Input::Move(Action::Play {
                player: holder,
                timing: timing_id(t),
                label,
            }),
        };
        let before = game.state().clone();
        let events = sink.0;
        let checked = match action {
            Input::Move(Action::Play {
                player,
                timing,
                label,
            }) => Some(game.check_play(player, timing, label)),
            _ => None,
        };
        match action.apply(&mut game, &mut host, &mut sink) {
            Err(err) => {
                assert_eq!(
                    game.state(),
                    &before,
                    "refused {action:?} ({err:?}) changed the state"
                );
                assert_eq!(
                    sink.0, events,
                    "refused {action:?} ({err:?}) emitted events"
                );
                let _ = err.describe(spec);
                if let Some(checked) = checked {
                    assert_eq!(
                        checked,
                        Err(err),
                        "check_play and apply disagree on {action:?}"
                    );
                }
            }
            Ok(()) => {
                if let Some(checked) = checked {
                    assert_eq!(
                        checked,
                        Ok(()),
                        "check_play refused {action:?} that apply took"
                    );
                }
                if let Input::Move(Action::Leave { player }) = action {
                    left |= 1 << player.0;
                }
            }
        }
        check_resting(&game, left);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(160), ..ProptestConfig::default() })]

    #[test]
    fn any_action_sequence_never_panics_and_refusals_change_nothing(
        s in setup(),
        ops in prop::collection::vec(op(), 0..200),
    ) {
        run(&s, &ops);
    }

    #[test]
    fn random_play_never_panics_and_never_stalls(
        grand_archive in any::<bool>(),
        players in 2u8..=4,
        seed in any::<u64>(),
        // Low enough that stacks shrink on average even with 4 players
        // (see `random_policy_default_finishes_with_three_or_more_players`).
        act_chance in 0u8..=24,
    ) {
        let (status, turn, _) = random_play(grand_archive, players, seed, act_chance, 4);
        prop_assert_eq!(status, Status::TurnLimit);
        prop_assert_eq!(turn, 4);
    }
}

/// Plays a game with `RandomPolicy` up to `turns` turns, giving up after a
/// fixed number of decisions. Returns the status, the turn reached and the
/// largest stack seen.
fn random_play(
    grand_archive: bool,
    players: u8,
    seed: u64,
    act_chance: u8,
    turns: u32,
) -> (Status, u32, usize) {
    let spec = spec(grand_archive);
    let mut game = Game::new(spec, &GameOptions::players(players)).unwrap();
    game.set_turn_limit(turns);
    let mut policy = RandomPolicy::new(seed);
    policy.act_chance = act_chance;
    let mut sink = Count::default();
    game.start(&mut policy, &mut sink);
    let mut deepest = 0;
    for _ in 0..200_000 {
        if game.status() != Status::Running {
            break;
        }
        let action = Policy::decide(&mut policy, &game);
        game.apply(action, &mut policy, &mut sink)
            .unwrap_or_else(|e| panic!("the random policy chose a refused action: {e:?}"));
        deepest = deepest.max(game.stack().len());
    }
    (game.status(), game.turn(), deepest)
}

#[test]
fn play_out_with_the_random_policy_reaches_the_turn_limit_in_two_player_games() {
    for grand_archive in [false, true] {
        for seed in 0..8 {
            let spec = spec(grand_archive);
            let mut game = Game::new(spec, &GameOptions::players(2)).unwrap();
            game.set_turn_limit(3);
            play_out(
                &mut game,
                &mut RandomPolicy::new(seed),
                &mut Count::default(),
            );
            assert_eq!(game.status(), Status::TurnLimit);
        }
    }
}

#[test]
fn random_policy_default_finishes_with_three_or_more_players() {
    let default_chance = RandomPolicy::new(0).act_chance;
    for grand_archive in [false, true] {
        for players in [3, 4] {
            let (status, turn, deepest) = random_play(grand_archive, players, 1, default_chance, 2);
            assert_eq!(
                (status, turn),
                (Status::TurnLimit, 2),
                "{} with {players} players: still running after 200000 decisions, \
                 stack up to {deepest}",
                spec(grand_archive).game().name
            );
        }
    }
}

#[test]
fn legal_actions_are_always_accepted() {
    // Along random games: at every decision, each legal action applied to a
    // copy of the game succeeds.
    for grand_archive in [false, true] {
        let spec = spec(grand_archive);
        for players in 2..=4u8 {
            let mut game = Game::new(spec, &GameOptions::players(players)).unwrap();
            game.set_turn_limit(3);
            let mut policy = RandomPolicy::new(players as u64 * 7 + grand_archive as u64);
            policy.act_chance = 24;
            let mut sink = Count::default();
            game.start(&mut policy, &mut sink);
            let mut decisions = 0;
            while game.status() == Status::Running && decisions < 5_000 {
                let holder = game.holder().unwrap();
                for action in game.legal_actions(holder) {
                    let mut copy = game.clone();
                    let mut p = policy.clone();
                    assert_eq!(copy.apply(action, &mut p, &mut Count::default()), Ok(()));
                }
                let action = Policy::decide(&mut policy, &game);
                game.apply(action, &mut policy, &mut sink).unwrap();
                decisions += 1;
            }
            assert_eq!(game.status(), Status::TurnLimit);
        }
    }
}

//! Random action sequences: any action, legal or not, with ids of the
//! game's spec or of another reference spec. The engine must never panic,
//! and a refused action must leave the state as it was and emit nothing.
//! Every sequence is played twice, on the compiled turn program and on the
//! interpreter alone: both must give the same result, events and state.

use std::sync::Arc;

use turnspec_engine::policy::{RandomPolicy, SplitMix64};
use turnspec_engine::{
    Action, Event, EventSink, Game, GameOptions, Host, Place, PlayerId, RuleError, Scope, Status,
};
use turnspec_spec::{CounterId, EffectId, EndingId, FactId, ObjectFactId, Spec};

/// How many actions one run tries at the most.
const ACTIONS_PER_RUN: usize = 200;

/// Plays one seeded sequence and returns how many actions were accepted;
/// panics (which the caller counts) if the engine breaks an invariant.
pub fn run(specs: &[(String, Arc<Spec>)], seed: u64) -> u64 {
    let mut rng = SplitMix64(seed);
    let spec = &specs[rng.below(specs.len() as u64) as usize].1;
    let other = &specs[rng.below(specs.len() as u64) as usize].1;
    let g = spec.game();
    let span = (g.max_players - g.min_players).min(7) as u64 + 1;
    let players = g.min_players + rng.below(span) as u8;
    let options = GameOptions::players(players);
    let limit = 1 + rng.below(6) as u32;
    let host_seed = rng.next_u64();
    let mut hosts = (
        RandomPolicy::with_effects(host_seed),
        RandomPolicy::with_effects(host_seed),
    );
    let duel = Duel {
        spec,
        other,
        options,
        turn_limit: limit,
        legal_actions: 0,
    };
    duel.play(&mut rng, &mut hosts).map_or(0, |s| s.accepted)
}

/// One input of a fuzzed game: a player's move, or one of the host
/// commands (each a method of `Game`), so a sequence can mix them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
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
    SetCounter {
        counter: CounterId,
        player: PlayerId,
        value: u16,
    },
    DeclareEnding {
        ending: EndingId,
        player: PlayerId,
    },
    Entered {
        object: u32,
        controller: PlayerId,
    },
    LeftPlay {
        object: u32,
    },
    Control {
        object: u32,
        controller: PlayerId,
    },
    ObjectFact {
        object: u32,
        fact: ObjectFactId,
        value: bool,
    },
    EndDuration {
        label: u32,
    },
}

impl Input {
    /// Gives the input to `game`: the move to `Game::apply`, a command to
    /// its method.
    pub fn apply<H: Host, S: EventSink>(
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
            Input::SetCounter {
                counter,
                player,
                value,
            } => game.set_counter(counter, player, value, host, sink),
            Input::DeclareEnding { ending, player } => {
                game.declare_ending(ending, player, host, sink)
            }
            Input::Entered { object, controller } => game.report_entered(object, controller, sink),
            Input::LeftPlay { object } => game.report_left(object, sink),
            Input::Control { object, controller } => game.report_control(object, controller, sink),
            Input::ObjectFact {
                object,
                fact,
                value,
            } => game.set_object_fact(object, fact, value, sink),
            Input::EndDuration { label } => game.end_duration(label, sink),
        }
    }
}

/// A host both tiers get a copy of; `same` says whether the two copies saw
/// the same hook calls since it was last asked, and forgets them.
pub trait TwinHost: Host {
    fn same(&mut self, other: &mut Self) -> Result<(), String>;
}

impl TwinHost for RandomPolicy {
    fn same(&mut self, _: &mut Self) -> Result<(), String> {
        Ok(())
    }
}

/// One game played on both tiers with the same actions.
pub struct Duel<'s> {
    pub spec: &'s Spec,
    /// Ids from this spec are used now and then (one action in eight).
    pub other: &'s Spec,
    /// The set-up; `turn_program` is set for each tier.
    pub options: GameOptions,
    pub turn_limit: u32,
    /// Chance in 16 that an action is one of the holder's legal actions
    /// rather than any action at all.
    pub legal_actions: u64,
}

thread_local! {
    /// The actions of the last game this thread played, for minimising a
    /// failing one.
    pub static LAST_ACTIONS: std::cell::RefCell<Vec<Input>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What one game did.
#[derive(Default)]
pub struct DuelStats {
    pub accepted: u64,
    pub events: u64,
    /// One event of each kind seen.
    pub kinds: Vec<Event>,
    pub status: Option<Status>,
}

impl DuelStats {
    fn saw(&mut self, events: &[Event]) {
        self.events += events.len() as u64;
        for e in events {
            let d = std::mem::discriminant(e);
            if !self.kinds.iter().any(|k| std::mem::discriminant(k) == d) {
                self.kinds.push(*e);
            }
        }
    }
}

impl Duel<'_> {
    /// Plays up to [`ACTIONS_PER_RUN`] actions on the compiled turn program
    /// and on the interpreter alone, comparing results, events, states and
    /// hook calls after each; panics at the first difference. `None` when
    /// both tiers refuse the set-up.
    pub fn play<H: TwinHost>(&self, rng: &mut SplitMix64, hosts: &mut (H, H)) -> Option<DuelStats> {
        let spec = self.spec;
        let compiled = self.options.clone().with_turn_program(true);
        let interpreted = self.options.clone().with_turn_program(false);
        let (mut game, mut twin) = match (Game::new(spec, &compiled), Game::new(spec, &interpreted))
        {
            (Ok(a), Ok(b)) => (a, b),
            (Err(a), Err(b)) => {
                assert_eq!(
                    a, b,
                    "program and interpreter refuse the set-up differently"
                );
                return None;
            }
            (a, b) => panic!(
                "one tier refused the set-up: program {:?}, interpreter {:?}",
                a.err(),
                b.err()
            ),
        };
        let mut stats = DuelStats::default();
        game.set_turn_limit(self.turn_limit);
        twin.set_turn_limit(self.turn_limit);
        let (host, twin_host) = (&mut hosts.0, &mut hosts.1);
        let (mut events, mut twin_events) = (Vec::new(), Vec::new());
        game.start(host, &mut events);
        twin.start(twin_host, &mut twin_events);
        assert_eq!(
            events, twin_events,
            "program and interpreter differ at the start"
        );
        assert!(
            game.state() == twin.state(),
            "program and interpreter reach different states at the start"
        );
        if let Err(e) = host.same(twin_host) {
            panic!("program and interpreter call the host differently at the start: {e}");
        }
        stats.saw(&events);
        let mut history: Vec<Input> = Vec::new();
        LAST_ACTIONS.with(|l| l.borrow_mut().clear());
        for _ in 0..ACTIONS_PER_RUN {
            if game.status() != Status::Running {
                break;
            }
            let action = if self.legal_actions > 0 && rng.below(16) < self.legal_actions {
                let holder = game.holder().unwrap_or_default();
                Input::Move(
                    nth_legal(&game, holder, rng).unwrap_or(Action::Pass { player: holder }),
                )
            } else {
                let from = if rng.below(8) == 0 { self.other } else { spec };
                random_action(rng, &game, from)
            };
            history.push(action);
            LAST_ACTIONS.with(|l| l.borrow_mut().push(action));
            let before = game.state().clone();
            let mut events = Vec::new();
            let mut twin_events = Vec::new();
            let result = action.apply(&mut game, host, &mut events);
            let twin_result = action.apply(&mut twin, twin_host, &mut twin_events);
            let fail = |what: String| -> ! {
                let list: Vec<String> = history.iter().map(|a| format!("{a:?}")).collect();
                panic!(
                    "program and interpreter {what}\nactions from the start:\n{}",
                    list.join("\n")
                )
            };
            if result != twin_result {
                fail(format!(
                    "judge {action:?} differently: program {result:?}, interpreter {twin_result:?}"
                ));
            }
            if events != twin_events {
                fail(format!(
                    "differ after {action:?}:\n  program     {events:?}\n  interpreter {twin_events:?}"
                ));
            }
            if game.state() != twin.state() {
                fail(format!(
                    "reach different states after {action:?}:\n  program     {:?}\n  interpreter {:?}",
                    game.state(),
                    twin.state()
                ));
            }
            if let Err(e) = host.same(twin_host) {
                fail(format!("call the host differently after {action:?}: {e}"));
            }
            if result.is_err() {
                assert!(
                    *game.state() == before && events.is_empty(),
                    "a refused {action:?} changed the game"
                );
            } else {
                stats.accepted += 1;
            }
            stats.saw(&events);
        }
        assert_eq!(
            game.status(),
            twin.status(),
            "program and interpreter end in different statuses"
        );
        stats.status = Some(game.status());
        Some(stats)
    }
}

impl Duel<'_> {
    /// Plays `actions` on both tiers with fresh hosts from `host`; the
    /// first difference, in words.
    pub fn replay<H: TwinHost>(
        &self,
        actions: &[Input],
        host: impl Fn() -> H,
    ) -> Result<(), String> {
        let compiled = self.options.clone().with_turn_program(true);
        let interpreted = self.options.clone().with_turn_program(false);
        let (Ok(mut game), Ok(mut twin)) = (
            Game::new(self.spec, &compiled),
            Game::new(self.spec, &interpreted),
        ) else {
            return Ok(());
        };
        game.set_turn_limit(self.turn_limit);
        twin.set_turn_limit(self.turn_limit);
        let (mut h, mut th) = (host(), host());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        game.start(&mut h, &mut a);
        twin.start(&mut th, &mut b);
        if a != b || game.state() != twin.state() {
            return Err(format!(
                "differ at the start:\n  program     {a:?}\n  interpreter {b:?}"
            ));
        }
        h.same(&mut th)?;
        for &action in actions {
            if game.status() != Status::Running {
                break;
            }
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let ra = action.apply(&mut game, &mut h, &mut a);
            let rb = action.apply(&mut twin, &mut th, &mut b);
            if ra != rb || a != b {
                return Err(format!(
                    "differ after {action:?}:\n  program     {ra:?} {a:?}\n  interpreter {rb:?} {b:?}"
                ));
            }
            if game.state() != twin.state() {
                return Err(format!(
                    "reach different states after {action:?}:\n  program     {:?}\n  interpreter {:?}",
                    game.state(),
                    twin.state()
                ));
            }
            h.same(&mut th)?;
        }
        Ok(())
    }
}

fn nth_legal(game: &Game, player: PlayerId, rng: &mut SplitMix64) -> Option<Action> {
    let n = game.legal_actions(player).count() as u64;
    if n == 0 {
        return None;
    }
    game.legal_actions(player).nth(rng.below(n) as usize)
}

fn nth<I>(ids: impl ExactSizeIterator<Item = I>, rng: &mut SplitMix64) -> Option<I> {
    let len = ids.len() as u64;
    let mut ids = ids;
    if len == 0 {
        None
    } else {
        ids.nth(rng.below(len) as usize)
    }
}

/// Mostly the holder passing or playing, so games move; now and then
/// anything at all.
pub fn random_action(rng: &mut SplitMix64, game: &Game, from: &Spec) -> Input {
    let holder = game.holder().unwrap_or_default();
    let anyone = PlayerId(rng.below(10) as u8);
    let player = if rng.below(4) == 0 { anyone } else { holder };
    let label = rng.next_u64() as u32;
    let fallback = Input::Move(Action::Pass { player });
    // Objects are named from a small pool, so reports and plays meet.
    let object = 1 + rng.below(3) as u32;
    match rng.below(18) {
        0..=7 => Input::Move(Action::Pass { player }),
        8..=10 => match nth(from.timing().ids(), rng) {
            Some(timing) => Input::Move(Action::Play {
                player,
                timing,
                label: if rng.below(4) == 0 { label } else { object },
            }),
            None => fallback,
        },
        17 => match rng.below(6) {
            0 | 1 => Input::Entered {
                object,
                controller: player,
            },
            2 => Input::LeftPlay { object },
            3 => Input::Control {
                object,
                controller: anyone,
            },
            4 => match nth(from.object_facts().ids(), rng) {
                Some(fact) => Input::ObjectFact {
                    object,
                    fact,
                    value: rng.below(3) != 0,
                },
                None => fallback,
            },
            _ => Input::EndDuration { label },
        },
        11 => Input::Trigger {
            controller: player,
            label,
        },
        12 => match nth(from.facts().ids(), rng) {
            Some(fact) => Input::SetFact {
                fact,
                value: rng.below(2) == 0,
            },
            None => fallback,
        },
        13 => match nth(from.effects().ids(), rng) {
            Some(effect) => Input::Effect { effect, player },
            None => fallback,
        },
        14 => {
            let at = if rng.below(2) == 0 {
                nth(from.phases().ids(), rng).map(Place::Phase)
            } else {
                nth(from.steps().ids(), rng).map(Place::Step)
            };
            match at {
                Some(at) => Input::Delay {
                    controller: player,
                    label,
                    at,
                    own_turn: rng.below(2) == 0,
                },
                None => fallback,
            }
        }
        // Host commands of how the game ends: counters now and then (a
        // check `at = ["counter_set"]` runs each time), an ending rarely,
        // so that most games go on.
        16 => match (rng.below(8), nth(from.counters().ids(), rng)) {
            (0, _) => match nth(from.endings().ids(), rng) {
                Some(ending) => Input::DeclareEnding { ending, player },
                None => fallback,
            },
            (_, Some(counter)) => Input::SetCounter {
                counter,
                player,
                value: match rng.below(8) {
                    0 => u16::MAX,
                    1 => rng.next_u64() as u16,
                    n => (n % 4) as u16,
                },
            },
            (_, None) => fallback,
        },
        _ => match rng.below(8) {
            0 => Input::Move(Action::Leave { player }),
            1 => {
                // The durations bound to a player's turn too (500.5,
                // 800.4m, 723.1), so leaving, skipping and ending turns
                // meet them on both tiers.
                let place = match nth(from.steps().ids(), rng) {
                    Some(step) if rng.below(2) == 0 => Some(Place::Step(step)),
                    _ => nth(from.phases().ids(), rng).map(Place::Phase),
                };
                let scope = match (rng.below(9), place) {
                    (0, _) => Scope::Step,
                    (1, _) => Scope::Phase,
                    (3, _) => Scope::UntilTurnOf { player: anyone },
                    (4, Some(at)) => Scope::EndOfNextTurn { at, player },
                    (5, Some(at)) => Scope::UntilNext { at, player },
                    (6, _) => Scope::ThroughNextTurn { player: anyone },
                    (7, _) => Scope::DuringTurnsOf { player: anyone },
                    (8, Some(at)) => Scope::FromNext { at, player },
                    _ => Scope::Turn,
                };
                Input::Until { label, scope }
            }
            2 => Input::AddMana {
                player,
                amount: rng.next_u64() as u16,
            },
            3 => match nth(from.effects().ids(), rng) {
                Some(effect) => Input::EffectOn {
                    effect,
                    player,
                    target: anyone,
                },
                None => fallback,
            },
            4 => match nth(from.effects().ids(), rng) {
                Some(effect) => Input::EndEffect { effect, player },
                None => fallback,
            },
            5 => Input::Pending {
                controller: player,
                label,
            },
            6 => match nth(from.steps().ids(), rng) {
                Some(step) => Input::DelayNextTurn {
                    controller: player,
                    label,
                    at: Place::Step(step),
                },
                None => fallback,
            },
            _ => Input::Move(Action::Choose {
                player,
                label: game.stack().last().map_or(label, |o| o.label),
            }),
        },
    }
}

//! A toy card game on top of games/mtg.toml: the smallest complete host.
//!
//! Two players, a deck each (a list of card names), a hand, some life and
//! a number of bears on the battlefield. The engine runs the turn (phases,
//! steps, priority, the stack); this host knows the cards:
//!
//! - `turn_action`: draws a card in the draw step, attacks with every bear
//!   (the answer is stored in the spec's `attackers` counter) and deals
//!   their damage;
//! - `resolved`: does what a spell says when it resolves, and reports the
//!   Warden's trigger when a bear enters (it goes on the stack before
//!   anyone receives priority);
//! - the players' decisions are a few lines in `decide`, played through
//!   `Game::apply`.
//!
//! Run it with `cargo run -p turnspec-engine --example toy_game`.

use std::cell::RefCell;

use turnspec_engine::{
    Action, Event, EventSink, Game, GameOptions, Host, ObjectKind, PlayerId, Status,
};
use turnspec_engine::{PlayedHook, ResolvedHook, TurnActionHook};
use turnspec_spec::{Spec, StepId, TimingId, TurnActionId};

/// Card names; a stack object's label is an index in this table.
const CARDS: [&str; 4] = [
    "Grizzly Bears",
    "Divination",
    "Lightning Bolt",
    "Warden trigger",
];
const BEARS: u32 = 0;
const DIVINATION: u32 = 1;
const BOLT: u32 = 2;
const WARDEN: u32 = 3;

/// What a player has: the deck is drawn from the front.
#[derive(Debug, Default)]
struct Player {
    deck: Vec<u32>,
    hand: Vec<u32>,
    life: i32,
    bears: u16,
}

/// The ids the host needs, looked up by name once (the engine itself never
/// compares names).
struct Ids {
    draw: TurnActionId,
    declare_attackers: TurnActionId,
    deal_damage: TurnActionId,
    sorcery: TimingId,
    instant: TimingId,
    end_step: StepId,
}

/// One log for the host and the event printer, so lines keep their order.
type Log = RefCell<Vec<String>>;

struct ToyHost<'l> {
    ids: Ids,
    players: [Player; 2],
    attackers: u16,
    log: &'l Log,
}

impl ToyHost<'_> {
    fn say(&self, line: String) {
        self.log.borrow_mut().push(line);
    }

    fn draw(&mut self, p: PlayerId) {
        let player = &mut self.players[p.index()];
        if player.deck.is_empty() {
            self.say(format!("  {p} has no card to draw"));
            return;
        }
        let card = player.deck.remove(0);
        player.hand.push(card);
        self.say(format!("  {p} draws {}", CARDS[card as usize]));
    }

    fn opponent(p: PlayerId) -> PlayerId {
        PlayerId(1 - p.0)
    }

    /// Takes `card` out of `p`'s hand, if it is there.
    fn take(&mut self, p: PlayerId, card: u32) -> bool {
        let hand = &mut self.players[p.index()].hand;
        match hand.iter().position(|c| *c == card) {
            Some(i) => {
                hand.remove(i);
                true
            }
            None => false,
        }
    }
}

impl Host for ToyHost<'_> {
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        let TurnActionHook { ctx, action, .. } = hook;
        if action == self.ids.draw {
            self.draw(ctx.active);
        } else if action == self.ids.declare_attackers {
            self.attackers = self.players[ctx.active.index()].bears;
            if self.attackers > 0 {
                self.say(format!(
                    "  {} attacks with {} bear(s)",
                    ctx.active, self.attackers
                ));
            }
            return self.attackers;
        } else if action == self.ids.deal_damage && self.attackers > 0 {
            let defender = Self::opponent(ctx.active);
            let damage = 2 * i32::from(self.attackers);
            self.players[defender.index()].life -= damage;
            self.say(format!(
                "  {defender} takes {damage} combat damage (life {})",
                self.players[defender.index()].life
            ));
        }
        0
    }

    fn played(&mut self, hook: PlayedHook<'_>) {
        let PlayedHook { player, label, .. } = hook;
        self.say(format!("  {player} casts {}", CARDS[label as usize]));
    }

    fn resolved(&mut self, hook: ResolvedHook<'_>) {
        let ResolvedHook {
            object,
            mut triggers,
            ..
        } = hook;
        let p = object.controller;
        match (object.kind, object.label) {
            (ObjectKind::Play(_), BEARS) => {
                self.players[p.index()].bears += 1;
                // Each player has a Warden ("whenever a creature enters
                // under your control, gain 1 life"): the trigger is reported
                // now and goes on the stack before anyone receives priority.
                let _ = triggers.add(p, WARDEN);
            }
            (ObjectKind::Play(_), DIVINATION) => {
                self.draw(p);
                self.draw(p);
            }
            (ObjectKind::Play(_), BOLT) => {
                let target = Self::opponent(p);
                self.players[target.index()].life -= 3;
                self.say(format!(
                    "  {target} takes 3 (life {})",
                    self.players[target.index()].life
                ));
            }
            (ObjectKind::Trigger, WARDEN) => {
                self.players[p.index()].life += 1;
                self.say(format!(
                    "  {p} gains 1 (life {})",
                    self.players[p.index()].life
                ));
            }
            _ => {}
        }
    }
}

/// Prints the turn structure as it happens.
struct Printer<'s, 'l> {
    spec: &'s Spec,
    log: &'l Log,
}

impl EventSink for Printer<'_, '_> {
    fn event(&mut self, event: Event) {
        let line = match event {
            Event::TurnBegan { turn, player } => format!("turn {turn} ({player})"),
            Event::PhaseBegan { phase, .. } => format!(" {}", self.spec.id_of(phase)),
            Event::Resolved { object } => format!("  {} resolves", CARDS[object.label as usize]),
            Event::TriggerPut { object } => format!(
                "  {} goes on the stack for {}",
                CARDS[object.label as usize], object.controller
            ),
            _ => return,
        };
        self.log.borrow_mut().push(line);
    }
}

/// What the priority holder does: the active player casts a sorcery in a
/// main phase with an empty stack; the other player bolts at end of turn.
fn decide(game: &Game, host: &mut ToyHost<'_>) -> Action {
    let player = game.holder().unwrap_or_default();
    let ids = &host.ids;
    let (sorcery, instant, end_step) = (ids.sorcery, ids.instant, ids.end_step);
    if player == game.active_player() && game.check_play(player, sorcery, BEARS).is_ok() {
        for card in [BEARS, DIVINATION] {
            if host.take(player, card) {
                return Action::Play {
                    player,
                    timing: sorcery,
                    label: card,
                };
            }
        }
    }
    if player != game.active_player()
        && game.step() == end_step
        && game.stack().is_empty()
        && game.check_play(player, instant, BOLT).is_ok()
        && host.take(player, BOLT)
    {
        return Action::Play {
            player,
            timing: instant,
            label: BOLT,
        };
    }
    Action::Pass { player }
}

fn main() {
    let (spec, _) = turnspec_spec::load_str("mtg.toml", include_str!("../../../games/mtg.toml"))
        .unwrap_or_else(|r| panic!("{}", r.to_short_text()));
    let find = |id: &str| {
        spec.turn_action_by_id(id)
            .expect("a turn-based action of mtg.toml")
    };
    let timing = |id: &str| spec.timing_by_id(id).expect("a timing class of mtg.toml");
    let ids = Ids {
        draw: find("draw"),
        declare_attackers: find("declare_attackers"),
        deal_damage: find("deal_combat_damage"),
        sorcery: timing("sorcery"),
        instant: timing("instant"),
        end_step: spec.step_by_id("end").expect("mtg.toml's end step"),
    };
    let deck = |cards: &[u32]| Player {
        deck: cards.iter().copied().cycle().take(12).collect(),
        hand: Vec::new(),
        life: 20,
        bears: 0,
    };
    let log = Log::default();
    let mut host = ToyHost {
        ids,
        players: [
            deck(&[BEARS, DIVINATION, BOLT]),
            deck(&[BOLT, BEARS, BEARS]),
        ],
        attackers: 0,
        log: &log,
    };
    for p in [PlayerId(0), PlayerId(1)] {
        for _ in 0..3 {
            host.draw(p);
        }
    }
    log.borrow_mut().clear();

    let mut game = Game::new(&spec, &GameOptions::players(2)).expect("two players");
    game.set_turn_limit(6);
    let mut out = Printer {
        spec: &spec,
        log: &log,
    };
    let flush = || {
        for line in log.borrow_mut().drain(..) {
            println!("{line}");
        }
    };
    game.start(&mut host, &mut out);
    flush();
    while game.status() == Status::Running && host.players.iter().all(|p| p.life > 0) {
        let action = decide(&game, &mut host);
        if let Err(refused) = game.apply(action, &mut host, &mut out) {
            println!("refused: {refused}");
            break;
        }
        flush();
    }
    let [p1, p2] = &host.players;
    println!(
        "after turn {}: P1 life {} with {} bear(s), P2 life {} with {} bear(s)",
        game.turn(),
        p1.life,
        p1.bears,
        p2.life,
        p2.bears
    );
}

//! Moves: what the search may do at a decision, named so that the same move
//! can be made in two specs (by id, not by index), and applied to a game.

use turnspec_engine::TurnActionHook;
use turnspec_engine::{Action, EventSink, Game, Host, PlayerId, RuleError};
use turnspec_model::{EffectId, EndingId, FactId, Id, ObjectFactId, Spec, TimingId, TurnActionId};

use crate::Families;

/// The label of every trigger the search reports; scenarios call it `T`.
pub(crate) const TRIGGER_LABEL: u32 = 1;
/// Objects the host may report in play (`--with objects`): `O1`, `O2`.
pub const OBJECTS: u8 = 2;
/// The host's id of object `n` (1 to [`OBJECTS`]): its label, so traces and
/// scenarios name it `On`.
pub(crate) fn object_id(n: u8) -> u32 {
    TRIGGER_LABEL + u32::from(n)
}
/// Label names as the search and its scenarios show them: plays are
/// unlabelled (`#0`), reported triggers are `T`, objects `O1`, `O2`.
pub(crate) fn labels() -> Vec<String> {
    let mut names = vec![String::new(), "T".to_string()];
    names.extend((1..=OBJECTS).map(|n| format!("O{n}")));
    names
}

/// One move of the search. Numbers index the explorer's [`Table`] of names,
/// so a move means the same thing in both specs of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// The player holding priority passes.
    Pass(PlayerId),
    /// A player plays at a timing class (table index): unlabelled (object
    /// 0), or, at a class with `by = "object"`, by object `n` (1 to
    /// [`OBJECTS`], labelled `On`).
    Play(PlayerId, u16, u8),
    /// The host will answer the next time this turn-based action (table
    /// index) happens with this value (a queued `answer` in a scenario).
    Answer(u16, u16),
    /// The host reports a triggered ability controlled by this player.
    Trigger(PlayerId),
    /// The next time this turn-based action (index into all actions)
    /// happens, the host reports a triggered ability (controlled by the
    /// active player) as it does.
    TriggerAt(u16),
    /// The host applies a structural effect (table index) for a player.
    Effect(u16, PlayerId),
    /// The host sets (true) or clears (false) a fact (table index).
    Fact(u16, bool),
    /// The host puts one mana in a player's pool.
    Mana(PlayerId),
    /// A player leaves the game.
    Leave(PlayerId),
    /// The host declares an ending of the spec (table index) for a player:
    /// a win or a draw ends the game, a loss makes the player leave.
    Ending(u16, PlayerId),
    /// The host reports object `n` (1 to [`OBJECTS`]) entering play under
    /// a player's control (specs with `[objects]`).
    Enter(u8, PlayerId),
    /// The host reports object `n` leaving play.
    LeavePlay(u8),
    /// The host sets (true) or clears (false) an object fact (table index)
    /// on object `n`.
    ObjectFact(u8, u16, bool),
}

impl Move {
    /// Whether this is a host move (bounded by `host_moves`), not a
    /// player's pass or play.
    pub fn is_host_move(self) -> bool {
        !matches!(self, Move::Pass(_) | Move::Play(..))
    }
}

/// A name present in one or both specs, with its id in each.
#[derive(Debug, Clone)]
pub(crate) struct Named<I> {
    pub name: String,
    pub ids: [Option<I>; 2],
}

/// The names moves refer to: the timing classes, effects, facts and
/// answerable turn-based actions of the spec (or of both specs, first A's
/// in A's order, then those only B has).
#[derive(Debug, Clone, Default)]
pub struct Table {
    pub(crate) timing: Vec<Named<TimingId>>,
    pub(crate) effects: Vec<Named<EffectId>>,
    pub(crate) facts: Vec<Named<FactId>>,
    /// Every `[endings.ID]`, for the host to declare.
    pub(crate) endings: Vec<Named<EndingId>>,
    /// Every `[objects.facts.ID]`, for the host to set on an object.
    pub(crate) object_facts: Vec<Named<ObjectFactId>>,
    /// Whether any side keeps objects in play (`[objects]`).
    pub(crate) objects: bool,
    /// Every turn-based action, with the largest answer the search tries
    /// (0 for one that takes no answer).
    pub(crate) actions: Vec<(Named<TurnActionId>, u16)>,
    /// Whether any side declares mana pools.
    pub(crate) mana: bool,
}

fn union<I: Id>(
    specs: &[&Spec],
    arena: impl Fn(&Spec) -> Vec<(I, String)>,
    keep: impl Fn(&Spec, I) -> bool,
) -> Vec<Named<I>> {
    let mut out: Vec<Named<I>> = Vec::new();
    for (side, spec) in specs.iter().enumerate() {
        for (id, name) in arena(spec) {
            if !keep(spec, id) {
                continue;
            }
            match out.iter_mut().find(|n| n.name == name) {
                Some(n) => n.ids[side] = Some(id),
                None => {
                    let mut ids = [None, None];
                    ids[side] = Some(id);
                    out.push(Named { name, ids });
                }
            }
        }
    }
    out
}

impl Table {
    pub(crate) fn new(specs: &[&Spec], max_answer: u16) -> Table {
        let timing = union(
            specs,
            |s| {
                s.timing()
                    .iter_ids()
                    .map(|(i, t)| (i, t.id.clone()))
                    .collect()
            },
            |_, _| true,
        );
        let effects = union(
            specs,
            |s| {
                s.effects()
                    .iter_ids()
                    .map(|(i, e)| (i, e.id.clone()))
                    .collect()
            },
            |_, _| true,
        );
        let facts = union(
            specs,
            |s| {
                s.facts()
                    .iter_ids()
                    .map(|(i, f)| (i, f.id.clone()))
                    .collect()
            },
            |_, _| true,
        );
        let endings = union(
            specs,
            |s| {
                s.endings()
                    .iter_ids()
                    .map(|(i, e)| (i, e.id.clone()))
                    .collect()
            },
            |_, _| true,
        );
        let object_facts = union(
            specs,
            |s| {
                s.object_facts()
                    .iter_ids()
                    .map(|(i, f)| (i, f.id.clone()))
                    .collect()
            },
            |_, _| true,
        );
        let objects = specs.iter().any(|s| s.objects().tracked);
        let actions = union(
            specs,
            |s| {
                s.turn_actions()
                    .iter_ids()
                    .map(|(i, a)| (i, a.id.clone()))
                    .collect()
            },
            |_, _| true,
        )
        .into_iter()
        .map(|n| {
            let max = specs
                .iter()
                .zip(n.ids)
                .filter_map(|(s, id)| Some(s.turn_action(id?)?.answer_max))
                .max()
                .unwrap_or(0)
                .min(max_answer);
            (n, max)
        })
        .collect();
        let mana = specs
            .iter()
            .any(|s| !s.mana().rule.is_none() || s.mana().burn);
        Table {
            timing,
            effects,
            facts,
            endings,
            object_facts,
            objects,
            actions,
            mana,
        }
    }

    /// The move in words, with the spec's ids: `pass P1`, `play instant by
    /// P2`, `answer declare_attackers = 1`, ...
    pub fn describe(&self, m: Move) -> String {
        match m {
            Move::Pass(p) => format!("pass {p}"),
            Move::Play(p, t, 0) => format!("play {} by {p}", self.timing[t as usize].name),
            Move::Play(p, t, o) => {
                format!("play {} by {p} with O{o}", self.timing[t as usize].name)
            }
            Move::Answer(a, v) => format!("answer {} = {v}", self.actions[a as usize].0.name),
            Move::Trigger(p) => format!("trigger T by {p}"),
            Move::TriggerAt(a) => {
                format!("trigger T at the next {}", self.actions[a as usize].0.name)
            }
            Move::Effect(e, p) => format!("effect {} for {p}", self.effects[e as usize].name),
            Move::Fact(f, v) => {
                let verb = if v { "set" } else { "clear" };
                format!("{verb} fact {}", self.facts[f as usize].name)
            }
            Move::Mana(p) => format!("add 1 mana to {p}'s pool"),
            Move::Leave(p) => format!("{p} leaves"),
            Move::Ending(e, p) => {
                format!("declare ending {} for {p}", self.endings[e as usize].name)
            }
            Move::Enter(o, p) => format!("O{o} enters play under {p}"),
            Move::LeavePlay(o) => format!("O{o} leaves play"),
            Move::ObjectFact(o, f, v) => {
                let verb = if v { "set" } else { "clear" };
                format!(
                    "{verb} object fact {} on O{o}",
                    self.object_facts[f as usize].name
                )
            }
        }
    }

    /// The kind and id of the spec element a move names, if any:
    /// `("timing class", "instant")`.
    pub(crate) fn element(&self, m: Move) -> Option<(&'static str, &str)> {
        Some(match m {
            Move::Play(_, t, _) => ("timing class", &self.timing[t as usize].name),
            Move::Answer(a, _) | Move::TriggerAt(a) => {
                ("turn-based action", &self.actions[a as usize].0.name)
            }
            Move::Effect(e, _) => ("effect", &self.effects[e as usize].name),
            Move::Fact(f, _) => ("fact", &self.facts[f as usize].name),
            Move::Ending(e, _) => ("ending", &self.endings[e as usize].name),
            Move::ObjectFact(_, f, _) => ("object fact", &self.object_facts[f as usize].name),
            Move::Enter(..) | Move::LeavePlay(_) => ("table", "[objects]"),
            _ => return None,
        })
    }

    /// The move as a scenario `[[script]]` entry (without the header line).
    pub(crate) fn script_entry(&self, m: Move) -> String {
        match m {
            Move::Pass(p) => format!("pass = \"{p}\"\n"),
            Move::Play(p, t, o) => {
                let mut s = format!(
                    "play = \"{}\"\nby = \"{p}\"\n",
                    self.timing[t as usize].name
                );
                if o > 0 {
                    s.push_str(&format!("label = \"O{o}\"\n"));
                }
                s
            }
            Move::Answer(a, v) => format!(
                "answer = \"{}\"\nvalue = {v}\n",
                self.actions[a as usize].0.name
            ),
            Move::Trigger(p) => format!("trigger = \"T\"\nby = \"{p}\"\n"),
            Move::TriggerAt(a) => format!(
                "answer = \"{}\"\nvalue = 0\ntriggers = [\"T\"]\n",
                self.actions[a as usize].0.name
            ),
            Move::Effect(e, p) => format!(
                "effect = \"{}\"\nby = \"{p}\"\n",
                self.effects[e as usize].name
            ),
            Move::Fact(f, v) => {
                let verb = if v { "set_fact" } else { "clear_fact" };
                format!("{verb} = \"{}\"\n", self.facts[f as usize].name)
            }
            Move::Mana(p) => format!("add_mana = \"{p}\"\nvalue = 1\n"),
            Move::Leave(p) => format!("leave = \"{p}\"\n"),
            Move::Ending(e, p) => format!(
                "declare_ending = \"{}\"\nby = \"{p}\"\n",
                self.endings[e as usize].name
            ),
            Move::Enter(o, p) => format!("enter = \"O{o}\"\nby = \"{p}\"\n"),
            Move::LeavePlay(o) => format!("leave_play = \"O{o}\"\n"),
            Move::ObjectFact(o, f, v) => {
                let verb = if v { "set_fact" } else { "clear_fact" };
                format!(
                    "{verb} = \"{}\"\nlabel = \"O{o}\"\n",
                    self.object_facts[f as usize].name
                )
            }
        }
    }
}

/// One spec's game in the search, with the answers its host has queued.
#[derive(Debug)]
pub(crate) struct Side {
    pub game: Game,
    /// Queued answers (and whether the action reports a trigger), sorted
    /// by action: part of the explored state.
    pub pending: Vec<(TurnActionId, u16, bool)>,
}

impl Clone for Side {
    fn clone(&self) -> Side {
        Side {
            game: self.game.clone(),
            pending: self.pending.clone(),
        }
    }

    /// Into a reused side: the search tries each move on a copy of one
    /// state, made this way with no allocation.
    fn clone_from(&mut self, source: &Side) {
        self.game.clone_from(&source.game);
        self.pending.clone_from(&source.pending);
    }
}

/// The search's host: queued answers, nothing else (triggers are moves).
pub(crate) struct QueuedHost<'a> {
    pub pending: &'a mut Vec<(TurnActionId, u16, bool)>,
}

impl Host for QueuedHost<'_> {
    fn turn_action(&mut self, hook: TurnActionHook<'_>) -> u16 {
        let TurnActionHook {
            ctx,
            action,
            mut triggers,
            ..
        } = hook;
        match self.pending.iter().position(|(a, ..)| *a == action) {
            Some(i) => {
                let (_, value, trigger) = self.pending.remove(i);
                if trigger {
                    let _ = triggers.add(ctx.active, TRIGGER_LABEL);
                }
                value
            }
            None => 0,
        }
    }
}

/// Why a side did not take a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The spec has no element of this kind by that name.
    Missing(&'static str),
    /// The engine refused it.
    Rule(RuleError),
}

impl Refusal {
    pub(crate) fn describe(&self, spec: &Spec, name: &str) -> (String, Option<String>) {
        match self {
            Refusal::Missing(kind) => (format!("this spec has no {kind} for `{name}`"), None),
            Refusal::Rule(e) => (e.describe(spec), spec.rule(e.rule()).map(str::to_string)),
        }
    }
}

impl Side {
    /// Applies `m` (which `table` names, `side` says which ids to use); a
    /// refusal leaves the side unchanged.
    pub(crate) fn apply(
        &mut self,
        table: &Table,
        side: usize,
        m: Move,
        events: &mut impl EventSink,
    ) -> Result<(), Refusal> {
        // Objects in one spec only: unmatched, like an element only one
        // spec has, not a refusal to compare.
        if matches!(m, Move::Enter(..) | Move::LeavePlay(_)) && !self.game.spec().objects().tracked
        {
            return Err(Refusal::Missing("table"));
        }
        let mut host = QueuedHost {
            pending: &mut self.pending,
        };
        let game = &mut self.game;
        let result = match m {
            Move::Pass(player) => game.apply(Action::Pass { player }, &mut host, events),
            Move::Play(player, t, o) => {
                let action = Action::Play {
                    player,
                    timing: table.timing[t as usize].ids[side]
                        .ok_or(Refusal::Missing("timing class"))?,
                    label: play_label(o),
                };
                game.apply(action, &mut host, events)
            }
            Move::Answer(a, v) => return self.queue(table, side, (a, v, false)),
            Move::TriggerAt(a) => return self.queue(table, side, (a, 0, true)),
            Move::Trigger(controller) => game.report_trigger(controller, TRIGGER_LABEL, events),
            Move::Effect(e, player) => {
                let effect =
                    table.effects[e as usize].ids[side].ok_or(Refusal::Missing("effect"))?;
                game.apply_declared_effect(effect, player, &mut host, events)
            }
            Move::Fact(f, value) => {
                let fact = table.facts[f as usize].ids[side].ok_or(Refusal::Missing("fact"))?;
                game.set_fact(fact, value, events)
            }
            Move::Mana(player) => game.add_mana_to_pool(player, 1),
            Move::Leave(player) => game.apply(Action::Leave { player }, &mut host, events),
            Move::Ending(e, player) => {
                let ending =
                    table.endings[e as usize].ids[side].ok_or(Refusal::Missing("ending"))?;
                game.declare_ending(ending, player, &mut host, events)
            }
            Move::Enter(o, player) => game.report_entered(object_id(o), player, events),
            Move::LeavePlay(o) => game.report_left(object_id(o), events),
            Move::ObjectFact(o, f, value) => {
                let fact = table.object_facts[f as usize].ids[side]
                    .ok_or(Refusal::Missing("object fact"))?;
                game.set_object_fact(object_id(o), fact, value, events)
            }
        };
        result.map_err(Refusal::Rule)
    }

    /// Queues an answer: (action index, value, whether it reports a trigger).
    fn queue(
        &mut self,
        table: &Table,
        side: usize,
        (a, value, trigger): (u16, u16, bool),
    ) -> Result<(), Refusal> {
        let id =
            table.actions[a as usize].0.ids[side].ok_or(Refusal::Missing("turn-based action"))?;
        if self.pending.iter().any(|(p, ..)| *p == id) {
            return Err(Refusal::Missing(
                "second queued answer for a turn-based action",
            ));
        }
        self.pending.push((id, value, trigger));
        self.pending.sort_unstable();
        Ok(())
    }

    fn fact(&self, table: &Table, side: usize, f: usize) -> Option<bool> {
        table.facts[f].ids[side].map(|id| self.game.fact(id))
    }

    /// Object fact `f` (table index) of object `o` on this side, if the
    /// object is in play here and the spec has the fact.
    fn object_fact(&self, table: &Table, side: usize, o: u8, f: usize) -> Option<bool> {
        let id = object_id(o);
        self.game.object(id)?;
        table.object_facts[f].ids[side].map(|fact| self.game.object_fact(id, fact))
    }
}

/// The label of a play by object `o` (0: an unlabelled play).
pub(crate) fn play_label(o: u8) -> u32 {
    if o == 0 { 0 } else { object_id(o) }
}

/// Whether `player` may play at `timing` now in `game`: by any object in
/// play for a class with `by = "object"` (whose play names one), else
/// unlabelled.
pub(crate) fn may_play(game: &Game, player: PlayerId, timing: TimingId) -> bool {
    let by_object = game
        .spec()
        .timing_class(timing)
        .is_some_and(|t| t.by_object);
    if by_object {
        game.objects()
            .any(|o| game.check_play(player, timing, o.id).is_ok())
    } else {
        game.check_play(player, timing, 0).is_ok()
    }
}

/// Every move worth trying from `sides` (one game, or two in lockstep): the
/// union of what each side allows, in a fixed order (passes, plays, then
/// host moves while `host_moves_left`).
pub(crate) fn enumerate(
    table: &Table,
    families: &Families,
    sides: &[Side],
    host_moves_left: bool,
    out: &mut Vec<Move>,
) {
    let players = sides.iter().map(|s| s.game.players()).max().unwrap_or(0);
    let in_game = |p: PlayerId| sides.iter().any(|s| s.game.state().is_in(p));
    if families.pass {
        // One holder per side, at most two sides: sorted, without repeats,
        // in an array (no allocation per state).
        debug_assert!(sides.len() <= 2, "a node holds one side or two");
        let mut holders = [PlayerId(0); 2];
        let mut n = 0;
        for h in sides.iter().filter_map(|s| s.game.holder()) {
            if n < holders.len() && !holders[..n].contains(&h) {
                holders[n] = h;
                n += 1;
            }
        }
        holders[..n].sort_unstable();
        out.extend(holders[..n].iter().copied().map(Move::Pass));
    }
    // Objects are tried only with `--with objects`; a play at a class with
    // `by = "object"` names one of them (object 0: unlabelled).
    let objects = if families.objects && table.objects {
        OBJECTS
    } else {
        0
    };
    if families.play {
        for p in (0..players).map(PlayerId) {
            for (t, named) in table.timing.iter().enumerate() {
                for o in 0..=objects {
                    let legal = sides.iter().zip(named.ids).any(|(s, id)| {
                        id.is_some_and(|id| s.game.check_play(p, id, play_label(o)).is_ok())
                    });
                    if legal {
                        out.push(Move::Play(p, t as u16, o));
                    }
                }
            }
        }
    }
    if !host_moves_left {
        return;
    }
    let queued = |named: &Named<TurnActionId>| {
        sides
            .iter()
            .zip(named.ids)
            .any(|(s, id)| id.is_some_and(|id| s.pending.iter().any(|(p, ..)| *p == id)))
    };
    if families.answer {
        for (a, (named, max)) in table.actions.iter().enumerate() {
            if !queued(named) {
                out.extend((1..=*max).map(|v| Move::Answer(a as u16, v)));
            }
        }
    }
    let seated = || (0..players).map(PlayerId).filter(|p| in_game(*p));
    if families.trigger {
        out.extend(seated().map(Move::Trigger));
        for (a, (named, _)) in table.actions.iter().enumerate() {
            if !queued(named) {
                out.push(Move::TriggerAt(a as u16));
            }
        }
    }
    if families.effect {
        for e in 0..table.effects.len() {
            out.extend(seated().map(|p| Move::Effect(e as u16, p)));
        }
    }
    if families.fact {
        for f in 0..table.facts.len() {
            let now = sides
                .iter()
                .enumerate()
                .find_map(|(i, s)| s.fact(table, i, f))
                .unwrap_or(false);
            out.push(Move::Fact(f as u16, !now));
        }
    }
    if families.mana && table.mana {
        out.extend(seated().map(Move::Mana));
    }
    if families.leave {
        out.extend(seated().map(Move::Leave));
    }
    if families.ending {
        for e in 0..table.endings.len() {
            out.extend(seated().map(|p| Move::Ending(e as u16, p)));
        }
    }
    // Objects are alike: only the first one not in play may enter, so
    // `O2 enters` is not tried before `O1` (the same game, renamed).
    let mut entered = false;
    for o in 1..=objects {
        let id = object_id(o);
        let in_play = sides.iter().any(|s| s.game.object(id).is_some());
        if !in_play {
            if !entered {
                entered = true;
                out.extend(seated().map(|p| Move::Enter(o, p)));
            }
            continue;
        }
        out.push(Move::LeavePlay(o));
        for f in 0..table.object_facts.len() {
            let now = sides
                .iter()
                .enumerate()
                .find_map(|(i, s)| s.object_fact(table, i, o, f))
                .unwrap_or(false);
            out.push(Move::ObjectFact(o, f as u16, !now));
        }
    }
}

//! Objects in play (`[objects]`): the host reports them entering and
//! leaving play and changing control; the engine stamps each report with
//! the turn and answers the turn-relative conditions of plays made by an
//! object (`by = "object"`): "controlled continuously since the start of
//! its controller's most recent turn" (302.6), "entered this turn", and
//! the uses counted for each object (602.5b).
//!
//! The store (`GameState::objects`) is made when the first object is
//! reported: a game without objects clones without allocating and pays
//! one test as each turn begins. Each player's most recent turn is kept
//! from then on; earlier turns never matter, since every object's control
//! began after them.

use turnspec_model::{Atom, AtomSource, ObjectFactId, ObjectLimit, RuleRef, TimingClass, TimingId};

use crate::error::{RuleError, TimingFailure};
use crate::event::{Event, EventSink};
use crate::game::Game;
use crate::state::PlayerId;
use crate::state::{MAX_OBJECTS, ObjectInfo, ObjectRecord, ObjectsInPlay};

impl Game {
    /// The store and the index of `object`, for a report about it:
    /// `NoObjects` for a spec that keeps none, `NoSuchObject` when it is not
    /// in play. Never makes the store, so a refused report changes nothing.
    fn object_in_play(&mut self, object: u32) -> Result<(&mut ObjectsInPlay, usize), RuleError> {
        if !self.spec.objects().tracked {
            return Err(RuleError::NoObjects);
        }
        let not_in_play = RuleError::NoSuchObject { object };
        let objects = self.state.objects.as_deref_mut().ok_or(not_in_play)?;
        let at = objects.find(object).map_err(|_| not_in_play)?;
        Ok((objects, at))
    }

    /// The host reports an object entering play under `controller`'s
    /// control: from now on it may make plays at classes with
    /// `by = "object"`, and it has been controlled since this turn.
    pub fn report_entered<S: EventSink>(
        &mut self,
        object: u32,
        controller: PlayerId,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.command(|game| {
            game.check_in_game(controller)?;
            if !game.spec.objects().tracked {
                return Err(RuleError::NoObjects);
            }
            let turn = game.state.turn;
            if let Some(objects) = game.state.objects.as_deref() {
                if objects.find(object).is_ok() {
                    return Err(RuleError::ObjectInPlay { object });
                }
                if objects.records.len() >= MAX_OBJECTS {
                    return Err(RuleError::TooManyObjects);
                }
            }
            // Made on the first report: the turns before it do not matter,
            // since every object's control begins after them.
            let objects = game.state.objects.get_or_insert_with(Box::default);
            let Err(at) = objects.find(object) else {
                return Err(RuleError::ObjectInPlay { object });
            };
            objects
                .records
                .insert(at, ObjectRecord::new(object, controller, turn));
            sink.event(Event::EnteredPlay { object, controller });
            Ok(())
        })
    }

    /// The host reports an object leaving play. If it comes back, it is a
    /// new object (400.7): report it entering again.
    pub fn report_left<S: EventSink>(
        &mut self,
        object: u32,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.command(|game| {
            let (objects, at) = game.object_in_play(object)?;
            objects.records.remove(at);
            sink.event(Event::LeftPlay { object });
            Ok(())
        })
    }

    /// The host reports an object coming under `controller`'s control: its
    /// continuous control starts again now (302.6), even if the controller
    /// is the same.
    pub fn report_control<S: EventSink>(
        &mut self,
        object: u32,
        controller: PlayerId,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.command(|game| {
            game.check_in_game(controller)?;
            let turn = game.state.turn;
            let (objects, at) = game.object_in_play(object)?;
            let r = &mut objects.records[at];
            r.controller = controller;
            r.controlled_since = turn;
            sink.event(Event::ControlChanged { object, controller });
            Ok(())
        })
    }

    /// The host sets or clears a fact on an object in play (haste, Rush;
    /// a fact with `reset = "turn"` reads as cleared once the turn ends).
    pub fn set_object_fact<S: EventSink>(
        &mut self,
        object: u32,
        fact: ObjectFactId,
        value: bool,
        sink: &mut S,
    ) -> Result<(), RuleError> {
        self.command(|game| {
            let each_turn = game
                .spec
                .object_fact(fact)
                .ok_or(RuleError::NoSuchObjectFact)?
                .each_turn;
            let turn = game.state.turn;
            let (objects, at) = game.object_in_play(object)?;
            let r = &mut objects.records[at];
            let bit = 1u64 << (fact.index() % 64);
            let bits = match each_turn {
                true => {
                    if r.turn_facts_turn != turn {
                        r.turn_facts = 0;
                        r.turn_facts_turn = turn;
                    }
                    &mut r.turn_facts
                }
                false => &mut r.facts,
            };
            match value {
                true => *bits |= bit,
                false => *bits &= !bit,
            }
            sink.event(Event::ObjectFactSet {
                object,
                fact,
                value,
            });
            Ok(())
        })
    }

    /// An object in play, or `None` (not in play, or a spec that keeps no
    /// objects).
    pub fn object(&self, object: u32) -> Option<ObjectInfo> {
        let r = self.state.objects.as_deref()?.get(object)?;
        Some(r.info())
    }

    /// Every object in play, by id.
    pub fn objects(&self) -> impl Iterator<Item = ObjectInfo> + '_ {
        self.state
            .objects
            .as_deref()
            .into_iter()
            .flat_map(|o| o.records.iter().map(ObjectRecord::info))
    }

    /// The id of the `index`th object in play, by id.
    pub(crate) fn object_at(&self, index: usize) -> Option<u32> {
        Some(self.state.objects.as_deref()?.records.get(index)?.id)
    }

    /// Whether fact `fact` is set on object `object` now.
    pub fn object_fact(&self, object: u32, fact: ObjectFactId) -> bool {
        let Some(each_turn) = self.spec.object_fact(fact).map(|f| f.each_turn) else {
            return false;
        };
        self.state
            .objects
            .as_deref()
            .and_then(|o| o.get(object))
            .is_some_and(|r| r.fact(fact, each_turn, self.state.turn))
    }

    /// A play by `object` at a class limited per object was made: counted.
    pub(crate) fn count_object_use(&mut self, object: u32, limit: &ObjectLimit) {
        let turn = self.state.turn;
        let Some(r) = self
            .state
            .objects
            .as_deref_mut()
            .and_then(|o| o.find(object).ok().map(|i| &mut o.records[i]))
        else {
            return;
        };
        let now = r.uses(limit, turn).saturating_add(1);
        if let Some(slot) = r.uses.get_mut(limit.slot as usize) {
            *slot = (turn, now);
        }
    }
}

impl Game {
    /// The checks of a play at a class with `by = "object"`, made by the
    /// object `label` names: in play (else `NoSuchObject`), controlled by
    /// the player or their team (602.2), within its per-object limit
    /// (602.5b), and its requirements read with the object.
    pub(crate) fn check_play_by_object(
        &self,
        tc: &TimingClass,
        player: PlayerId,
        timing: TimingId,
        label: u32,
    ) -> Result<(), RuleError> {
        let fail = |failure, rule: RuleRef| {
            let rule = if rule.is_none() { tc.rule } else { rule };
            Err(RuleError::Timing {
                player,
                timing,
                failure,
                rule,
            })
        };
        let no_object = RuleError::NoSuchObject { object: label };
        let objects = self.state.objects.as_deref().ok_or(no_object)?;
        let object = objects.get(label).ok_or(no_object)?;
        let controller = object.controller;
        if self.state.team(controller) != self.state.team(player) {
            let rule = self.spec.objects().control_rule;
            return fail(TimingFailure::NotController { controller }, rule);
        }
        if let Some(limit) = tc.object_limit
            && object.uses(&limit, self.state.turn) >= limit.max
        {
            return fail(TimingFailure::LimitReached { max: limit.max }, limit.rule);
        }
        let by = PlayBy::new(self, objects, object);
        for (i, r) in tc.require.iter().enumerate() {
            if !self.spec.conditions().eval(r.condition.cond, &by) {
                return fail(TimingFailure::Requirement(i as u8), r.condition.rule);
            }
        }
        Ok(())
    }
}

/// The game as the conditions of a play by `object` read it: the
/// object's atoms answered from its record, every other atom as the game
/// answers it.
pub(crate) struct PlayBy<'g> {
    pub(crate) game: &'g Game,
    pub(crate) object: &'g ObjectRecord,
    pub(crate) last_turn: u32,
}

impl<'g> PlayBy<'g> {
    pub(crate) fn new(
        game: &'g Game,
        objects: &'g ObjectsInPlay,
        object: &'g ObjectRecord,
    ) -> Self {
        let last_turn = objects
            .last_turn
            .get(object.controller.index())
            .copied()
            .unwrap_or(0);
        PlayBy {
            game,
            object,
            last_turn,
        }
    }
}

impl AtomSource for PlayBy<'_> {
    fn fact_bits(&self) -> u64 {
        self.game.fact_bits()
    }

    fn variant_bits(&self) -> u64 {
        self.game.variant_bits()
    }

    fn atom(&self, atom: Atom) -> i32 {
        let turn = self.game.state.turn;
        match atom {
            Atom::ObjectEnteredThisTurn => (self.object.entered == turn) as i32,
            // Their most recent turn began after control did (302.6).
            Atom::ObjectSinceTurnStart => (self.last_turn > self.object.controlled_since) as i32,
            Atom::ObjectFact(f) => {
                let each_turn = self.game.spec.object_fact(f).is_some_and(|d| d.each_turn);
                self.object.fact(f, each_turn, turn) as i32
            }
            other => self.game.atom(other),
        }
    }
}

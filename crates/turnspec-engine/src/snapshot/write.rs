//! Writing a state as snapshot bytes (the format: the parent module).

use turnspec_model::{Id, RuleRef, SkipTarget};

use crate::state::{
    GameState, Modifiers, ObjectKind, ObjectsInPlay, Place, PlayerId, Scope, StackObject,
};

use super::{point_code, status_code};

pub(super) struct Writer(pub(super) Vec<u8>);

impl Writer {
    #[inline]
    pub(super) fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    #[inline]
    fn bool(&mut self, v: bool) {
        self.0.push(u8::from(v));
    }
    /// LEB128: seven bits a byte, low first, the high bit set on all but
    /// the last.
    #[inline]
    fn var(&mut self, mut v: u64) {
        if v < 0x80 {
            self.0.push(v as u8);
            return;
        }
        while v >= 0x80 {
            self.0.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }
    #[inline]
    fn id<I: Id>(&mut self, id: I) {
        self.var(id.index() as u64);
    }
    fn rule(&mut self, r: RuleRef) {
        // NONE (u16::MAX) is written as 0, a citation as its index + 1.
        match r.is_none() {
            true => self.var(0),
            false => self.var(r.index() as u64 + 1),
        }
    }
    #[inline]
    fn player(&mut self, p: PlayerId) {
        self.u8(p.0);
    }
    #[inline]
    fn opt<T>(&mut self, v: Option<T>, f: impl FnOnce(&mut Self, T)) {
        match v {
            None => self.u8(0),
            Some(x) => {
                self.u8(1);
                f(self, x);
            }
        }
    }
    /// A fixed-size array: the mask of entries that are not the default,
    /// then those entries in order. (With the length a constant and the
    /// body inline, the mask is a few instructions an entry, no loop.)
    #[inline(always)]
    fn sparse<T: Copy + Default + PartialEq, const N: usize>(
        &mut self,
        items: &[T; N],
        mut f: impl FnMut(&mut Self, T),
    ) {
        const { assert!(N <= 64) };
        let mut mask = 0u64;
        for (i, x) in items.iter().enumerate() {
            mask |= u64::from(*x != T::default()) << i;
        }
        self.var(mask);
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            f(self, items[i]);
            mask &= mask - 1;
        }
    }
    #[inline]
    fn list<T>(&mut self, items: &[T], mut f: impl FnMut(&mut Self, &T)) {
        self.var(items.len() as u64);
        for x in items {
            f(self, x);
        }
    }
}

pub(super) fn write_state(w: &mut Writer, s: &GameState) {
    // Destructured, so that a field added to the state must be written.
    let GameState {
        turn,
        turn_limit,
        players,
        team_of,
        has_teams,
        in_game,
        had_turn,
        active,
        last_regular,
        extra_turn,
        starting,
        first_turn,
        status,
        point,
        phase,
        turn_pos,
        step,
        anchor,
        start_step,
        only_step,
        stage,
        repeat,
        window_opened,
        quiet_repeats,
        holder,
        passes,
        returns_len,
        returns,
        roles,
        passed_out,
        responding,
        kind_counts,
        counters,
        player_counters,
        facts,
        variants,
        stack,
        waiting,
        mods,
        objects,
        between,
    } = s;
    w.var(u64::from(*turn));
    w.var(u64::from(*turn_limit));
    w.u8(*players);
    w.sparse(team_of, Writer::u8);
    w.bool(*has_teams);
    w.u8(*in_game);
    w.u8(*had_turn);
    w.player(*active);
    w.player(*last_regular);
    w.bool(*extra_turn);
    w.player(*starting);
    w.bool(*first_turn);
    w.u8(status_code(*status));
    w.u8(point_code(*point));
    w.id(*phase);
    w.u8(*turn_pos);
    w.id(*step);
    w.id(*anchor);
    w.opt(*start_step, |w, s| w.id(s));
    w.opt(*only_step, |w, (s, r)| {
        w.id(s);
        w.rule(r);
    });
    w.u8(*stage);
    w.u8(*repeat);
    w.bool(*window_opened);
    w.var(u64::from(*quiet_repeats));
    w.opt(*holder, |w, p| w.player(p));
    w.u8(*passes);
    w.u8(*returns_len);
    w.sparse(returns, |w, r| {
        w.id(r.phase);
        w.id(r.step);
        w.u8(r.stage);
        w.u8(r.repeat);
        w.bool(r.window_opened);
        w.id(r.anchor);
        w.bool(r.steps_of_play);
    });
    w.sparse(roles, Writer::player);
    w.u8(*passed_out);
    w.bool(*responding);
    w.sparse(kind_counts, Writer::u8);
    w.sparse(counters, |w, c| w.var(u64::from(c)));
    for slot in player_counters {
        w.sparse(slot, |w, c| w.var(u64::from(c)));
    }
    w.var(*facts);
    w.var(*variants);
    w.list(stack, write_object);
    w.list(waiting, write_object);
    w.opt(mods.as_deref(), write_mods);
    w.opt(objects.as_deref(), write_objects);
    w.bool(*between);
}

fn write_object(w: &mut Writer, o: &StackObject) {
    w.player(o.controller);
    match o.kind {
        ObjectKind::Play(t) => {
            w.u8(0);
            w.id(t);
        }
        ObjectKind::Trigger => w.u8(1),
        ObjectKind::TurnAction(a) => {
            w.u8(2);
            w.id(a);
        }
    }
    w.var(u64::from(o.label));
}

fn write_place(w: &mut Writer, p: Place) {
    match p {
        Place::Phase(id) => {
            w.u8(0);
            w.id(id);
        }
        Place::Step(id) => {
            w.u8(1);
            w.id(id);
        }
    }
}

fn write_scope(w: &mut Writer, s: Scope) {
    match s {
        Scope::Step => w.u8(0),
        Scope::Phase => w.u8(1),
        Scope::Turn => w.u8(2),
        Scope::UntilNext { at, player } => {
            w.u8(3);
            write_place(w, at);
            w.player(player);
        }
        Scope::EndOfNextTurn { at, player } => {
            w.u8(4);
            write_place(w, at);
            w.player(player);
        }
        Scope::UntilTurnOf { player } => {
            w.u8(5);
            w.player(player);
        }
        Scope::ThroughNextTurn { player } => {
            w.u8(6);
            w.player(player);
        }
        Scope::DuringTurnsOf { player } => {
            w.u8(7);
            w.player(player);
        }
        Scope::FromNext { at, player } => {
            w.u8(8);
            write_place(w, at);
            w.player(player);
        }
    }
}

fn write_mods(w: &mut Writer, m: &Modifiers) {
    let Modifiers {
        extra_turns,
        upcoming_phases,
        upcoming_steps,
        skips,
        delayed,
        durations,
        mana,
        jump_when_stack_empty,
        elected,
        reversed,
        controls,
        turn_controller,
        outcome,
    } = m;
    w.list(extra_turns, |w, p| w.player(*p));
    w.list(upcoming_phases, |w, u| {
        w.id(u.phase);
        w.opt(u.only, |w, (s, r)| {
            w.id(s);
            w.rule(r);
        });
        w.u8(u.depth);
    });
    w.list(upcoming_steps, |w, (s, d)| {
        w.id(*s);
        w.u8(*d);
    });
    w.list(skips, |w, k| {
        w.player(k.player);
        match k.target {
            SkipTarget::Step(s) => {
                w.u8(0);
                w.id(s);
            }
            SkipTarget::Phase(p) => {
                w.u8(1);
                w.id(p);
            }
            SkipTarget::Turn => w.u8(2),
        }
        w.rule(k.rule);
        w.opt(k.lasting, |w, e| w.id(e));
        w.bool(k.every_player);
    });
    w.list(delayed, |w, d| {
        write_place(w, d.at);
        w.player(d.controller);
        w.var(u64::from(d.label));
        w.bool(d.own_turn);
        w.var(u64::from(d.after_turn));
    });
    w.list(durations, |w, d| {
        w.var(u64::from(d.label));
        write_scope(w, d.scope);
        w.u8(d.depth);
        w.var(u64::from(d.made_on));
    });
    w.sparse(mana, |w, m| w.var(u64::from(m)));
    w.opt(*jump_when_stack_empty, |w, s| w.id(s));
    w.var(*elected);
    w.bool(*reversed);
    w.list(controls, |w, (a, b)| {
        w.player(*a);
        w.player(*b);
    });
    w.opt(*turn_controller, |w, p| w.player(p));
    w.opt(*outcome, |w, o| {
        w.u8(o.winners_bits());
        w.rule(o.rule());
    });
}

fn write_objects(w: &mut Writer, o: &ObjectsInPlay) {
    w.list(&o.records, |w, r| {
        w.var(u64::from(r.id));
        w.player(r.controller);
        w.var(u64::from(r.entered));
        w.var(u64::from(r.controlled_since));
        w.var(r.facts);
        w.var(r.turn_facts);
        w.var(u64::from(r.turn_facts_turn));
        for (turn, n) in r.uses {
            w.var(u64::from(turn));
            w.var(u64::from(n));
        }
    });
    for t in o.last_turn {
        w.var(u64::from(t));
    }
}

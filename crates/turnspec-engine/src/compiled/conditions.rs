//! The tests the set-up left in the program, evaluated against the game:
//! the common ones inline, the rest through the spec's condition tree.

use turnspec_model::{Atom, AtomSource, CompareOp};

use crate::game::Game;
use crate::program::Test;

impl Game {
    #[inline(always)]
    pub(super) fn holds(&self, test: Test) -> bool {
        match test {
            Test::Always => true,
            Test::Never => false,
            // The cheapest reads stay inline: a counter, whether a window
            // opened (the cleanup loop).
            Test::Counter(c, op, k) => self.counter_holds(c, op, k),
            Test::Flag(a) => self.flag(a),
            Test::Both(a, b) => self.flag(a) && self.flag(b),
            // An optional phase (Pokémon's attack): one read of the
            // modifiers, most often absent.
            Test::Elected(p) => self.elected(p),
            _ => self.holds_pair_or_compare(test),
        }
    }

    /// A [`Test::Counter`]: a counter kept for the whole game, read
    /// straight from the state.
    #[inline(always)]
    pub(super) fn counter_holds(&self, c: u8, op: CompareOp, k: i32) -> bool {
        let value = self.state.counters.get(c as usize).copied().unwrap_or(0);
        op.apply(i32::from(value), k)
    }

    /// Comparisons and pairs of simple tests: out of line, but with no
    /// walk of the spec's condition tree.
    #[inline(never)]
    fn holds_pair_or_compare(&self, test: Test) -> bool {
        match test {
            Test::Compare(a, op, k) => op.apply(self.value(a), k),
            Test::Pair(i) => match self.cached.program().pairs.get(i as usize) {
                Some(&(a, b)) => self.holds_simple(a) && self.holds_simple(b),
                None => false,
            },
            Test::Elected(p) => self.elected(p),
            _ => self.holds_in_play(test),
        }
    }

    /// One half of a [`Test::Pair`].
    #[inline(always)]
    fn holds_simple(&self, test: Test) -> bool {
        match test {
            Test::Counter(c, op, k) => self.counter_holds(c, op, k),
            Test::Flag(a) => self.flag(a),
            Test::Compare(a, op, k) => op.apply(self.value(a), k),
            Test::Elected(p) => self.elected(p),
            _ => self.holds_in_play(test),
        }
    }

    /// An atom's value; the ones the turn's own conditions compare most
    /// (a repeated step, the stack) without a call.
    #[inline(always)]
    fn value(&self, atom: Atom) -> i32 {
        let s = &self.state;
        match atom {
            Atom::RepeatCount => i32::from(s.repeat),
            Atom::StackDepth => s.stack.len().min(u16::MAX as usize) as i32,
            Atom::Turn => s.turn as i32,
            _ => self.atom_in_play(atom),
        }
    }

    /// An atom as a yes/no; the ones the turn's own conditions read most
    /// (the cleanup loop, the first draw, an optional phase) without a call.
    #[inline(always)]
    fn flag(&self, atom: Atom) -> bool {
        let s = &self.state;
        match atom {
            Atom::WindowOpened => s.window_opened,
            Atom::FirstTurn => s.first_turn,
            Atom::StartingPlayer if !s.has_teams => s.active == s.starting,
            _ => self.atom_in_play(atom) != 0,
        }
    }

    #[inline(never)]
    fn atom_in_play(&self, atom: Atom) -> i32 {
        self.atom(atom)
    }

    /// A test the set-up did not decide: read the game.
    #[inline(never)]
    fn holds_in_play(&self, test: Test) -> bool {
        match test {
            Test::Always => true,
            Test::Never => false,
            Test::Flag(a) => self.atom(a) != 0,
            Test::Both(a, b) => self.atom(a) != 0 && self.atom(b) != 0,
            Test::Pair(i) => match self.cached.program().pairs.get(i as usize) {
                Some(&(a, b)) => self.holds_in_play(a) && self.holds_in_play(b),
                None => false,
            },
            Test::Compare(a, op, k) => op.apply(self.atom(a), k),
            Test::Counter(c, op, k) => self.counter_holds(c, op, k),
            Test::Elected(p) => self.elected(p),
            Test::Check(n) => self.spec.conditions().eval_node(n, self),
        }
    }
}

//! The actions a player may take now ([`LegalActions`]).

use crate::action::Action;
use crate::game::Game;
use crate::state::PlayerId;

impl Game {
    /// Every action `player` could take now: pass first, then each timing
    /// class they may use (a class made by an object once for each object
    /// in play that may, labelled with its id), then in a spec with a bag
    /// (Lorcana's, 7.7.4) each trigger they may choose to resolve, once per
    /// label, oldest first. Allocates nothing.
    pub fn legal_actions(&self, player: PlayerId) -> LegalActions<'_> {
        LegalActions {
            game: self,
            player,
            next: if self.state.holder == Some(player) {
                0
            } else {
                u16::MAX
            },
            object: 0,
            bag: 0,
        }
    }
}

/// Iterator over a player's legal actions; see [`Game::legal_actions`].
pub struct LegalActions<'g> {
    pub(crate) game: &'g Game,
    pub(crate) player: PlayerId,
    pub(crate) next: u16,
    /// For a class with `by = "object"`: the next object in play to try.
    pub(crate) object: usize,
    /// Once the timing classes are done: the next bag entry to offer.
    pub(crate) bag: usize,
}

impl Iterator for LegalActions<'_> {
    type Item = Action;

    fn next(&mut self) -> Option<Action> {
        let timing_count = self.game.spec.timing().len() as u16;
        while self.next != u16::MAX && self.next <= timing_count {
            let i = self.next;
            self.next += 1;
            if i == 0 {
                if self.game.pass_refused().is_some() {
                    continue;
                }
                return Some(Action::Pass {
                    player: self.player,
                });
            }
            let Some(timing) = self.game.spec.timing().ids().nth(i as usize - 1) else {
                break;
            };
            if self
                .game
                .spec
                .timing_class(timing)
                .is_some_and(|t| t.by_object)
            {
                // One play for each object that may make it.
                while let Some(object) = self.game.object_at(self.object) {
                    self.object += 1;
                    if self.game.check_play(self.player, timing, object).is_ok() {
                        self.next = i;
                        return Some(Action::Play {
                            player: self.player,
                            timing,
                            label: object,
                        });
                    }
                }
                self.object = 0;
                continue;
            }
            if self.game.check_play(self.player, timing, 0).is_ok() {
                return Some(Action::Play {
                    player: self.player,
                    timing,
                    label: 0,
                });
            }
        }
        if self.next != u16::MAX {
            self.next = u16::MAX;
        } else if self.bag == 0 {
            return None;
        }
        self.next_choice()
    }
}

impl LegalActions<'_> {
    /// The next trigger of the bag `player` may choose (`Action::Choose`),
    /// skipping labels offered already.
    fn next_choice(&mut self) -> Option<Action> {
        let stack = self.game.stack();
        if !self.game.cached.features().bag {
            self.bag = usize::MAX;
            return None;
        }
        while self.bag < stack.len() {
            let i = self.bag;
            self.bag += 1;
            let label = stack[i].label;
            if self.game.check_bag_choice(self.player, label)
                && !stack[..i].iter().any(|o| o.label == label)
            {
                return Some(Action::Choose {
                    player: self.player,
                    label,
                });
            }
        }
        // Nothing more, ever: the `bag == 0` test above stays false.
        self.bag = usize::MAX;
        None
    }
}

//! The actions a player may take now ([`LegalActions`]).

use crate::action::Action;
use crate::game::Game;
use crate::state::PlayerId;

impl Game {
    /// Every action `player` could take now: pass first, then each timing
    /// class they may use. Allocates nothing.
    pub fn legal_actions(&self, player: PlayerId) -> LegalActions<'_> {
        LegalActions {
            game: self,
            player,
            next: if self.state.holder == Some(player) {
                0
            } else {
                u16::MAX
            },
        }
    }
}

/// Iterator over a player's legal actions; see [`Game::legal_actions`].
pub struct LegalActions<'g> {
    pub(crate) game: &'g Game,
    pub(crate) player: PlayerId,
    pub(crate) next: u16,
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
            if self.game.check_play(self.player, timing).is_ok() {
                return Some(Action::Play {
                    player: self.player,
                    timing,
                    label: 0,
                });
            }
        }
        None
    }
}

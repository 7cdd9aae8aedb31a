//! How a game ends: the last side left wins (`remove_from_game` in
//! structural.rs), the host declares an ending of the spec, or the spec's
//! checks find one at the points of the turn they name. Every way ends in
//! [`Game::game_over`] or in a player leaving.

use turnspec_model::{Atom, AtomSource, EndPoints, EndResult, EndingId, TurnActionId};

use crate::event::{Event, EventSink};
use crate::game::Game;
use crate::host::Host;
use crate::state::{Outcome, PlayerId, Point, Status};

/// What a check of the spec's endings did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Checked {
    /// No ending was reached: the turn goes on.
    Nothing,
    /// The game is over (or nobody is left).
    Stopped,
    /// Players lost and left; the same point of the turn runs again for the
    /// rest (a check finds nothing twice).
    Left,
    /// The active player lost and the turn moved to the step `[leaving]`
    /// names (the state's point is there).
    Moved,
}

/// The game as one player sees it: per-player counters read that player's.
struct AsPlayer<'a> {
    game: &'a Game,
    player: PlayerId,
}

impl AtomSource for AsPlayer<'_> {
    fn atom(&self, atom: Atom) -> i32 {
        match atom {
            Atom::Counter(c) => self.game.counter_of(c, self.player).unwrap_or(0) as i32,
            _ => self.game.atom(atom),
        }
    }

    fn fact_bits(&self) -> u64 {
        self.game.fact_bits()
    }

    fn variant_bits(&self) -> u64 {
        self.game.variant_bits()
    }
}

impl Game {
    /// The game is over: nobody holds priority, and every move and command
    /// from now on is refused (`NotRunning`).
    pub(crate) fn game_over<S: EventSink>(&mut self, outcome: Outcome, sink: &mut S) {
        self.state.holder = None;
        self.state.status = Status::Over;
        self.mods().outcome = Some(outcome);
        sink.event(Event::GameOver { outcome });
    }

    /// How the game ended: `Some` once the status is [`Status::Over`].
    pub fn outcome(&self) -> Option<Outcome> {
        self.state.mods.as_ref().and_then(|m| m.outcome)
    }

    /// The players in the game on `player`'s side, one bit each.
    fn side_of(&self, player: PlayerId) -> u8 {
        let s = &self.state;
        (0..s.players)
            .map(PlayerId)
            .filter(|p| s.is_in(*p) && s.team(*p) == s.team(player))
            .fold(0, |bits, p| bits | 1 << p.0)
    }

    /// `ending` is reached for `player`, who is in the game: a win or a
    /// draw ends the game (true). A loss is left to the caller (false),
    /// which removes the player as fits where it is: [`Game::leave`] for a
    /// host's command, [`Game::lose_inside_run`] inside the run.
    fn reach<S: EventSink>(&mut self, ending: EndingId, player: PlayerId, sink: &mut S) -> bool {
        let Some((result, rule)) = self.spec.ending(ending).map(|e| (e.result, e.rule)) else {
            return false;
        };
        sink.event(Event::Ending { ending, player });
        let winners = match result {
            EndResult::Wins => self.side_of(player),
            EndResult::Draw => 0,
            EndResult::Loses => return false,
        };
        self.game_over(Outcome::new(winners, rule), sink);
        true
    }

    /// A player lost at a check inside the run: out of the game, and the
    /// turn moves on if it was theirs.
    fn lose_inside_run<S: EventSink>(&mut self, player: PlayerId, sink: &mut S) -> Checked {
        if self.remove_from_game(player, sink) {
            return Checked::Stopped;
        }
        if self.active_left(player, sink) {
            return Checked::Moved;
        }
        Checked::Left
    }

    /// Runs the spec's endings checked at `at`, in file order, each for the
    /// active player or for every player in turn order from the active
    /// player. Cheap when the spec has none there: one test.
    /// `action` is the turn-based action that just happened, for
    /// [`EndPoints::AFTER_ACTION`].
    pub(crate) fn check_endings<H: Host, S: EventSink>(
        &mut self,
        at: EndPoints,
        action: Option<TurnActionId>,
        host: &mut H,
        sink: &mut S,
    ) -> Checked {
        if !self.cached.features().end_checks.contains(at) {
            return Checked::Nothing;
        }
        self.check_endings_at(at, action, host, sink)
    }

    #[cold]
    #[inline(never)]
    fn check_endings_at<H: Host, S: EventSink>(
        &mut self,
        at: EndPoints,
        action: Option<TurnActionId>,
        host: &mut H,
        sink: &mut S,
    ) -> Checked {
        let spec = self.spec.clone();
        let whole_leave = at == EndPoints::COUNTER_SET;
        let mut checked = Checked::Nothing;
        for (id, ending) in spec.endings().iter_ids() {
            let Some(check) = ending.check.filter(|c| {
                c.at.contains(at) && (at != EndPoints::AFTER_ACTION || c.after == action)
            }) else {
                continue;
            };
            let active = self.state.active;
            let mut player = active;
            loop {
                let reached = self.state.is_in(player)
                    && if check.each_player {
                        let view = AsPlayer { game: self, player };
                        spec.conditions().eval(check.cond, &view)
                    } else {
                        spec.conditions().eval(check.cond, self)
                    };
                if reached {
                    if self.reach(id, player, sink) {
                        return Checked::Stopped;
                    }
                    if whole_leave {
                        // Between moves, as a host's command: a whole leave.
                        self.leave(player, host, sink);
                        if self.state.status != Status::Running {
                            return Checked::Stopped;
                        }
                        checked = Checked::Left;
                    } else {
                        match self.lose_inside_run(player, sink) {
                            Checked::Left => checked = Checked::Left,
                            done => return done,
                        }
                    }
                }
                if !check.each_player {
                    break;
                }
                player = crate::seats::next_seat(
                    self.state.turn_order(self.spec.game().turn_order),
                    self.state.players,
                    player,
                );
                if player == active {
                    break;
                }
            }
        }
        checked
    }

    /// The host declares that `ending` is reached for `player` (a player
    /// at 0 life loses, 704.5a; the game is a draw, 104.4a): the `Ending`
    /// event, then a win or a draw ends the game, and a loss makes the
    /// player leave.
    pub fn declare_ending<H: Host, S: EventSink>(
        &mut self,
        ending: EndingId,
        player: PlayerId,
        host: &mut H,
        sink: &mut S,
    ) -> Result<(), crate::RuleError> {
        self.command(|game| {
            game.check_in_game(player)?;
            if game.spec.ending(ending).is_none() {
                return Err(crate::RuleError::NoSuchEnding);
            }
            if !game.reach(ending, player, sink) {
                game.leave(player, host, sink);
            }
            Ok(())
        })
    }

    /// Before a check inside the turn program at `at`: the parts of the
    /// state the program keeps only where it needs them, as the
    /// interpreter has them there (the stage past the step's last, the turn
    /// position past its last phase), so whatever the check does (end the
    /// game, move the turn to `[leaving]`'s step) starts from the same
    /// state on both tiers.
    pub(crate) fn sync_for_check(&mut self, at: EndPoints) {
        let s = &mut self.state;
        if at == EndPoints::STEP_END {
            s.stage = self
                .spec
                .step(s.step)
                .map_or(0, |st| st.stages.len().min(u8::MAX as usize) as u8);
        } else if at == EndPoints::TURN_END {
            s.turn_pos = self.spec.turn().len().min(u8::MAX as usize) as u8;
        }
    }

    /// A check inside the turn program ended the game at `at`: the point
    /// as the interpreter has it there (the rest was synced before).
    pub(crate) fn settle_at_check(&mut self, at: EndPoints) {
        let s = &mut self.state;
        s.point = if at == EndPoints::AFTER_ACTION {
            Point::Stage
        } else if at == EndPoints::STEP_END {
            Point::StepEnd
        } else if at == EndPoints::TURN_END {
            Point::TurnEnd
        } else {
            Point::TurnStart
        };
    }

    /// After a check removed players at `at` inside the turn program: where
    /// the interpreter goes on (the same point again, or past the turn's
    /// beginning).
    pub(crate) fn resume_after_check(&mut self, at: EndPoints) {
        self.settle_at_check(at);
        if self.state.point == Point::TurnStart {
            // The turn has begun: the interpreter goes on at its first phase.
            let s = &mut self.state;
            match self.spec.turn().first() {
                Some(p) => {
                    s.phase = *p;
                    s.turn_pos = 0;
                    s.point = Point::PhaseStart;
                }
                None => s.point = Point::TurnEnd,
            }
        }
    }
}
